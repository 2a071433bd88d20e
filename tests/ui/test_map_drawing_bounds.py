"""The map drawing stays bounded on hostile and huge maps (issue 17.5, 17.6, 17.8)."""

from __future__ import annotations

import json

from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem

from benchmarks.hostile import example_doc
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FortificationKind
from gwasl.model.scenario_io import scenario_from_text
from gwasl.ui import mapscene
from gwasl.ui.drawable import FortDrawing
from gwasl.ui.mapscene import MapScene, StackItem
from gwasl.ui.render import ensure_app, render_scene
from gwasl.ui.seen import Seen


def _scene(doc: dict) -> MapScene:
    ensure_app(offscreen=True)
    scene = MapScene()
    scene.set_drawing(Seen.of(scenario_from_text(json.dumps(doc), "test.json"), "omniscient").drawing)
    return scene


def test_a_tall_stack_is_drawn_without_a_pixmap_cache_and_only_on_the_scene(monkeypatch):
    """Issue 17.5: 2,000 squads on one hex.  A cached stack is a pixmap of its bounding box
    (the square of its height: over a gigabyte here, and for 20,000 no pixmap at all, so nothing
    drawn); a tall stack is not cached, and only its counters on the scene are painted."""
    doc = example_doc()
    doc["units"].extend({"id": f"X{i}", "side": "german", "kind": "squad", "class": "first_line", "hex": "C2"} for i in range(2000))
    scene = _scene(doc)
    tall = scene.stacks[Hex.from_label("C2")]
    assert len(tall.stack.counters) > StackItem.CACHED_HEIGHT
    assert tall.cacheMode() is QGraphicsItem.CacheMode.NoCache
    short = [it for it in scene.stacks.values() if len(it.stack.counters) <= StackItem.CACHED_HEIGHT]
    assert short and all(it.cacheMode() is QGraphicsItem.CacheMode.DeviceCoordinateCache for it in short)

    painted: list[str] = []
    real = mapscene.paint_counter

    def counting(p, face, *a, **k):
        painted.append(face.key)
        return real(p, face, *a, **k)

    monkeypatch.setattr(mapscene, "paint_counter", counting)
    img = render_scene(scene, width=600)
    assert not img.isNull()
    drawn_of_tall = sum(1 for k in painted if k.startswith("X"))
    # the staircase leaves the 12 x 8 map after a few hundred counters
    assert 0 < drawn_of_tall < 600


def test_a_long_work_finds_its_links_in_one_pass_over_its_hexes():
    """Issue 17.6: a trench's links to its neighbours were found by making a set of all its
    hexes once per hex (quadratic in the hexes listed); now once per work."""
    ensure_app(offscreen=True)
    scene = _scene(example_doc())

    class Counted(tuple):
        passes = 0

        def __iter__(self):
            Counted.passes += 1
            return super().__iter__()

    hexes = Counted(Hex.from_offset(c, r) for c in range(12) for r in range(8))
    work = FortDrawing(FortificationKind.TRENCH, hexes)
    img = QImage(400, 400, QImage.Format.Format_RGB32)
    p = QPainter(img)
    try:
        mapscene._draw_fortification(p, scene, work, list(hexes), detail=True)
    finally:
        p.end()
    assert Counted.passes <= 2  # the list given above, and the set of members: not one per hex


def test_the_faster_png_level_keeps_every_pixel(tmp_path):
    """render.PNG_QUALITY (zlib level 1, for the 16 Mpx picture of the largest map) is lossless."""
    from gwasl.ui.render import save_image

    img = render_scene(_scene(example_doc()), width=500)
    out = tmp_path / "map.png"
    save_image(img, out)
    back = QImage(str(out)).convertToFormat(img.format())
    assert back == img
