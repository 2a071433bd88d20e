"""The hover LOS map on a map bigger than a board never makes the mouse wait
(issue 10 item 13): the query runs on a worker thread and the overlay follows;
an answer for a hex the mouse has left is dropped.  CONTRACTS 3 answers, the
same as gwasl.rules.los computes them on the UI thread."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from benchmarks.maps import random_scenario
from gwasl.editor.document import EditorDocument, paint_terrain
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Terrain
from gwasl.model.scenario_io import save_scenario
from gwasl.rules.los import LosIndex
from gwasl.ui.checks import SYNC_LOS_MAP_HEXES

H = Hex.from_label


def _big_window(make_window, tmp_path, columns=40, rows=14, seed=4):
    s = random_scenario(columns, rows, seed=seed)
    assert columns * rows > SYNC_LOS_MAP_HEXES
    path = tmp_path / "big.json"
    save_scenario(s, path)
    w = make_window(EditorDocument.open(path))
    w.view.fit()  # the whole map in view, so every hex can be hovered
    return w


class _Mouse:
    """The bits of tests/ui/conftest.py's Driver these tests need."""

    def __init__(self, qtbot, w) -> None:
        self.qtbot, self.win = qtbot, w

    def _point(self, label):
        lay = self.win.scene.layout
        c = lay.hex_to_pixel(H(label))
        return self.win.view.mapFromScene(c.x, c.y)

    def tool(self, name):
        self.win.tool_actions[name].trigger()

    def hover(self, label):
        self.qtbot.mouseMove(self.win.view.viewport(), self._point(label))

    def click(self, label):
        self.qtbot.mouseClick(self.win.view.viewport(), Qt.LeftButton, Qt.NoModifier, self._point(label))

    def choose(self, combo, value):
        combo.setCurrentIndex(combo.findData(value))


def _shaded(w, h):
    seen = LosIndex(w.document.scenario).visible_from(h)
    return {x for x in w.scene.hex_polygons if x not in seen}


def test_hover_returns_before_the_answer_and_the_overlay_follows(qtbot, make_window, tmp_path):
    w = _big_window(make_window, tmp_path)
    u = _Mouse(qtbot, w)
    u.tool("losmap")
    t = time.perf_counter()
    w.tools["losmap"].hover(H("T7"), None)
    assert time.perf_counter() - t < 0.5  # the hover only posts the request (no LOS index, no templates)
    qtbot.waitUntil(lambda: w.checks.los_map_shown == H("T7"), timeout=20_000)
    assert w.scene.los_map.hexes == _shaded(w, H("T7"))
    assert w.scene.highlight.hexes == {H("T7")}


def test_only_the_last_hex_of_a_quick_mouse_move_is_drawn(qtbot, make_window, tmp_path):
    w = _big_window(make_window, tmp_path)
    u = _Mouse(qtbot, w)
    u.tool("losmap")
    for label in ("B2", "C3", "D4", "E5", "L9"):
        u.hover(label)
    qtbot.waitUntil(lambda: w.checks.los_map_shown == H("L9"), timeout=20_000)
    qtbot.wait(50)  # any stale answer still queued arrives now, and must be ignored
    assert w.checks.los_map_shown == H("L9")
    assert w.scene.los_map.hexes == _shaded(w, H("L9"))


def test_the_overlay_follows_an_edit_and_a_bad_position_is_said(qtbot, make_window, tmp_path):
    w = _big_window(make_window, tmp_path)
    u = _Mouse(qtbot, w)
    u.tool("losmap")
    u.click("J7")  # pinned
    qtbot.waitUntil(lambda: w.checks.los_map_shown == H("J7"), timeout=20_000)
    before = set(w.scene.los_map.hexes)
    w.document.apply(paint_terrain, [H("K7"), H("K8"), H("J6"), H("I7"), H("I8"), H("J8")], Terrain.WOODS)
    qtbot.waitUntil(lambda: w.scene.los_map.hexes != before, timeout=20_000)
    assert w.scene.los_map.hexes == _shaded(w, H("J7"))
    u.choose(w.palette.from_in, Position.DUGOUT)  # no dugout in J7: one message, no traceback
    u.click("J7")
    u.click("J7")
    qtbot.waitUntil(lambda: "dugout" in w.statusBar().currentMessage().lower(), timeout=20_000)
