"""Counters are readable at the zoom the editor opens with (issue 10 item 16):
at least READABLE_COUNTER_PX wide on screen, every text on a face at least
MIN_TEXT_PX high, inside its box, and no two texts overlapping."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QRectF

from gwasl.editor.document import EditorDocument
from gwasl.model.scenario import Nationality
from gwasl.ui import style
from gwasl.ui.counters import counter_parts, text_fits
from gwasl.ui.drawable import CounterFace
from testsupport import bundled_scenarios


def assert_readable(face: CounterFace, px: float) -> list[str]:
    """Check the layout of ``face`` at ``px`` on-screen pixels; returns the texts drawn."""
    parts = counter_parts(face, px)
    frame = QRectF(0, 0, px, px)
    texts = [p for p in parts if p.kind == "text"]
    for p in texts:
        assert p.font_px >= style.MIN_TEXT_PX, (face.key, p.text, p.font_px)
        assert text_fits(p), (face.key, p.text, p.rect)
        assert frame.adjusted(-0.01, -0.01, 0.01, 0.01).contains(p.rect), (face.key, p.text)
    for a, b in itertools.combinations(texts, 2):
        overlap = a.rect.intersected(b.rect)
        assert overlap.width() * overlap.height() < 0.01, (face.key, a.text, b.text)  # touching at most
    return [p.text for p in texts]


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.stem)
def test_counters_are_readable_at_the_opening_zoom(make_window, path):
    w = make_window(EditorDocument.open(path))
    w.resize(1400, 900)  # the editor's own opening size
    w.view_home()
    px = w.view.counter_px
    assert px >= style.READABLE_COUNTER_PX - 0.5
    faces = [f for item in w.scene.stacks.values() for f in item.stack.counters]
    assert faces
    for f in faces:
        shown = assert_readable(f, px)
        if f.factors:
            assert f.factors in shown  # the factors are never cut at this size
        if f.kind == "leader" and f.rating:
            assert f.rating in shown
        if f.marker in ("HIP", "PD", "?"):
            assert f.marker in shown  # the designer's badge is spelt out, not only a colour


def test_the_opening_zoom_centres_on_the_units(make_window):
    w = make_window(EditorDocument.open(bundled_scenarios()[0]))
    w.resize(1400, 900)
    w.view_home()
    visible = w.view.mapToScene(w.view.viewport().rect()).boundingRect()
    units = [w.scene.stacks[h].sceneBoundingRect().center() for h in w.scene.stacks]
    assert sum(visible.contains(c) for c in units) >= len(units) * 0.6


@pytest.mark.parametrize("px", [24.0, 30.0, 38.0, 46.0, 60.0, 90.0])
def test_no_text_is_drawn_too_small_at_any_zoom(px):
    faces = [
        CounterFace("G1-1", "german", Nationality.GERMAN, "squad", "1st", "4-4-7", platoon="G1", position="Crest", marker="PD"),
        CounterFace("G1-L", "german", Nationality.GERMAN, "leader", "Leader", rating="9-1", platoon="G1", position="DT", marker="HIP"),
        CounterFace("F-MG", "french", Nationality.FRENCH, "support_weapon", "St. Etienne", broken=True),
        CounterFace("concealed:0", "french", Nationality.FRENCH, "concealed", "?", count=3),
        CounterFace("dummy:1", "french", Nationality.FRENCH, "dummy_hip", "Dummy HIP", marker="dummy"),
    ]
    for f in faces:
        assert_readable(f, px)
