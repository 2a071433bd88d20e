"""Checking tools and views driven from the window: LOS thread, hover LOS map,
command radius overlay, and the 'as side X sees it' preview (issue 6, 5 and 7)."""

from __future__ import annotations

import json

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Terrain
from gwasl.model.scenario_io import scenario_from_text
from gwasl.rules.los import los
from gwasl.ui.drawable import drawing_for
from gwasl.ui.render import ensure_app, render_image
from testsupport import EXAMPLE_PATH

H = Hex.from_label


def test_los_thread_blocked_by_woods_CONTRACTS_3(example_user, example_window):
    """CONTRACTS 3: same level, woods on the line -> blocked, the woods hex highlighted."""
    u, w = example_user, example_window
    u.tool("los")
    u.drag(["B4", "D3"])  # through the woods of C3/C4
    r = w.checks.los_result
    assert r == los(w.document.scenario, H("B4"), H("D3"))
    assert not r.clear and r.blocked_by is not None
    assert w.scene.los_thread.state == "blocked" and w.scene.blocker.hexes == {r.blocked_by}
    assert f"blocked at {r.blocked_by}" in w.scene.los_thread.text
    assert "blocked" in w.statusBar().currentMessage()


def test_los_thread_hindered_and_clear(example_user, example_window):
    u, w = example_user, example_window
    u.tool("los")
    u.drag(["E4", "G4"])  # over the brush of F4
    assert w.checks.los_result.clear and w.checks.los_result.hindrances == 1
    assert w.scene.los_thread.state == "hindered" and "+1" in w.scene.los_thread.text
    u.drag(["A1", "A4"])
    assert w.scene.los_thread.state == "clear"


def test_los_thread_positions_deep_trench_ASLGW_2_1_5(example_user, example_window):
    """A unit IN a deep trench sees nothing outside its hex; at the crest it sees out."""
    u, w = example_user, example_window
    u.tool("los")
    u.choose(w.palette.from_in, Position.DEEP_TRENCH)
    u.drag(["H6", "H4"])
    assert w.scene.los_thread.state == "blocked"
    u.choose(w.palette.from_in, Position.DEEP_TRENCH_CREST)
    u.drag(["H6", "H4"])
    assert w.scene.los_thread.state == "clear"
    u.choose(w.palette.from_in, Position.DUGOUT)
    u.drag(["A1", "A3"])  # no dugout in A1: said in the status bar, no traceback
    assert w.checks.los_result is None and "dugout" in w.statusBar().currentMessage().lower()


def test_los_map_follows_the_mouse(example_user, example_window):
    u, w = example_user, example_window
    u.tool("losmap")
    u.hover("B4")
    seen = w.checks.visible_from(H("B4"))
    assert H("D3") not in seen and H("B4") in seen
    assert H("D3") in w.scene.los_map.hexes and H("B5") not in w.scene.los_map.hexes
    u.hover("K2")
    assert w.checks.los_map_from == H("K2")
    u.click("K2")  # pin
    u.hover("A8")
    assert w.checks.los_map_from == H("K2")
    u.tool("select")
    assert not w.scene.los_map.hexes


def test_los_map_redraws_after_an_edit(example_user, example_window):
    u, w = example_user, example_window
    u.tool("losmap")
    u.click("A5")
    assert H("A1") not in w.scene.los_map.hexes
    w.palette.select(w.palette.terrain_box, Terrain.WOODS)
    w.tool_actions["terrain"].trigger()
    w.tool_actions["losmap"].trigger()
    u.click("A5")
    from gwasl.editor.document import paint_terrain

    w.document.apply(paint_terrain, [H("A3")], Terrain.WOODS)
    assert H("A1") in w.scene.los_map.hexes  # the new woods hide A1 from A5


def test_command_radius_overlay_ASLGW_1_3(example_user, example_window):
    from gwasl.rules.command import command_radius, command_status

    u, w = example_user, example_window
    u.tool("command")
    u.click("C2")  # the German leader's stack
    s = w.document.scenario
    r = command_radius(s, s.unit("G1-L"))
    assert w.scene.command_overlay.hexes == {x for x in H("C2").within(r) if s.map.contains(x)}
    status = command_status(s, "german").units
    for uid, st in status.items():
        mark = w.scene.command_overlay.marks.get(s.unit(uid).hex)
        if st.commanded_by == "G1-L":
            assert mark is not None
    u.click("A8")  # an empty hex: the whole side of the palette
    assert "units in command" in w.statusBar().currentMessage()


def test_view_as_a_side_hides_what_it_does_not_know(example_window):
    w = example_window
    w.set_viewer("german")
    d = w.scene.drawing
    assert d.viewer == "german" and "as german sees it" in w.windowTitle()
    keys = {c.key for st in d.stacks.values() for c in st.counters}
    assert "F1-2" not in keys and "F-MG" not in keys  # HIP French units
    assert any(c.kind == "concealed" for c in d.stacks[H("G6")].counters)
    assert all(c.marker is None for st in d.stacks.values() for c in st.counters if c.side == "french")
    w.set_viewer("omniscient")
    assert "F1-2" in {c.key for st in w.scene.drawing.stacks.values() for c in st.counters}


def _variant(doc: dict, **changes) -> dict:
    doc = json.loads(json.dumps(doc))
    for u in doc["units"]:
        if u["id"] in changes:
            u.update(changes[u["id"]])
    return doc


def test_facts_hidden_from_a_viewer_do_not_change_its_pixels(qapp):
    """CONTRACTS 4: scenarios differing only in facts hidden from a viewer render identically for it."""
    ensure_app()
    base = json.loads(EXAMPLE_PATH.read_text())
    # The French HIP crew and its MG in the dugout become a squad; a HIP squad changes class.
    other = _variant(base, **{"F-MG": {"kind": "squad", "class": "elite"}, "F1-2": {"class": "second_line", "broken": True}})
    a, b = (scenario_from_text(json.dumps(d)) for d in (base, other))
    assert a != b
    ga, gb = (render_image(drawing_for(s, "german"), 600) for s in (a, b))
    assert ga == gb
    fa, fb = (render_image(drawing_for(s, "french"), 600) for s in (a, b))
    assert fa != fb  # the French see their own units, so the change shows for them
