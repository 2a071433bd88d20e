"""Issue 10 item 11: the dummy palette and the validator give one dummy HIP allotment
(O'Leary 3.1.1, 4.1), driven as a user would, offscreen."""

from __future__ import annotations

import pytest

from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import DummyKind
from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.fog.checks import dummy_allotment
from gwasl.rules.validate import validate_scenario


def _pillbox_only():
    return parse_scenario({
        "format": "gwasl-scenario/1", "title": "one hidden pillbox", "date": "1916-06-01",
        "map": {"columns": 12, "rows": 8,
                "fortifications": [{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}]},
        "sides": {"german": {"nationality": "german"}, "french": {"nationality": "french"}},
        "units": [{"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}],
    })


@pytest.fixture()
def window(make_window):
    """The editor open on a scenario whose French have one hidden pillbox and nothing else hidden."""
    return make_window(EditorDocument(_pillbox_only()))


def test_4_1_palette_and_validator_agree_on_a_lone_hidden_pillbox(user, window):
    """O'Leary 4.1: a side whose only hidden piece is a pillbox gets one dummy HIP.  The palette
    said 0 (and flagged the first dummy as over) while the validator said 1."""
    w, u = window, user
    u.tool("dummy")
    u.choose(w.palette.side_box, "french")
    u.choose(w.palette.dummy_box, DummyKind.DUMMY_HIP)
    assert "dummy HIP 0 of 1" in w.palette.allotment_label.text()
    u.click("H6")
    assert [d.kind for d in w.document.scenario.dummies] == [DummyKind.DUMMY_HIP]
    text = w.palette.allotment_label.text()
    assert "dummy HIP 1 of 1" in text and "over" not in text
    s = w.document.scenario
    assert dummy_allotment(s, "french").dummy_hip_allowed == 1 and validate_scenario(s).valid
    u.click("J6")  # a second dummy HIP is one too many, for both
    assert "dummy HIP 2 of 1 (over the allotment!)" in w.palette.allotment_label.text()
    assert any(f.rule == "O'Leary 3.1.1, 4.1" for f in validate_scenario(w.document.scenario).errors)
    assert w.document.scenario.dummies[-1].hex == Hex.from_label("J6")
