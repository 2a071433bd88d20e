"""Clicking and dragging counters and stacks (issue 10 item 15), VASL style:
every counter drawn can be clicked, even where a fanned-out stack lies over a
neighbouring hex; dragging a stack moves the whole stack; an opened stack
lets one counter be dragged alone."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from gwasl.model.hexgrid import Hex

H = Hex.from_label


def counter_point(win, label: str, index: int) -> QPoint:
    """The viewport point at the centre of counter ``index`` (bottom first) of the stack in ``label``, as drawn now."""
    item = win.scene.stacks[H(label)]
    c = item.mapToScene(item.counter_rects()[index].center())
    win.view.ensureVisible(c.x() - 2, c.y() - 2, 4, 4, 8, 8)
    return win.view.mapFromScene(c)


def test_every_counter_of_a_fanned_stack_can_be_clicked(example_user, example_window):
    u, w = example_user, example_window
    u.tool("select")
    u.click("C2")  # opens the stack of four: fanned out and pinned
    item = w.scene.stacks[H("C2")]
    assert item.fanned and item.pinned
    faces = item.stack.counters
    ends = {0, len(faces) - 1}
    for i in ends:  # the end counters lie over the neighbouring hexes
        p = w.view.mapToScene(counter_point(w, "C2", i))
        assert w.scene.hex_at(p) != H("C2")
    for i, face in enumerate(faces):
        u.qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, counter_point(w, "C2", i))
        assert w.selected_units == {face.key}, (i, face.key)
        assert w.scene.stacks[H("C2")].pinned  # a click on one of its counters keeps it open


def test_dragging_a_stack_moves_the_whole_stack(example_user, example_window):
    u, w = example_user, example_window
    u.tool("select")
    before = {x.id for x in w.document.scenario.units_at(H("C2"))}
    assert len(before) == 4
    vp = w.view.viewport()
    u.hover("C2")  # hovering fans the stack out (a look, not an opening)
    start = counter_point(w, "C2", 0)  # the bottom counter, at the left end of the fan
    u.qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    u.qtbot.mouseMove(vp, u.point("E3"))
    u.qtbot.mouseMove(vp, u.point("F3"))
    u.qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, u.point("F3"))
    s = w.document.scenario
    assert {x.id for x in s.units_at(H("F3"))} == before and not s.units_at(H("C2"))
    assert w.document.history[-1] == "Move 4 units to F3"  # one undo step


def test_an_opened_stack_lets_one_counter_go(example_user, example_window):
    u, w = example_user, example_window
    u.tool("select")
    u.click("C2")
    top = w.scene.stacks[H("C2")].stack.counters[-1]  # the leader, at the right end
    vp = w.view.viewport()
    u.qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, counter_point(w, "C2", 3))
    u.qtbot.mouseMove(vp, u.point("E2"))
    u.qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, u.point("E2"))
    s = w.document.scenario
    assert [x.id for x in s.units_at(H("E2"))] == [top.key] and len(s.units_at(H("C2"))) == 3


def test_the_command_tool_reaches_a_leader_at_the_end_of_a_fan_ASLGW_1_3(example_user, example_window):
    u, w = example_user, example_window
    u.tool("select")
    u.click("C2")  # open it
    u.tool("command")
    u.qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, counter_point(w, "C2", 3))
    assert w.checks.command_for == {"leader": "G1-L", "side": None}


def test_shift_picked_counters_of_an_opened_stack_move_together(example_user, example_window):
    u, w = example_user, example_window
    u.tool("select")
    u.click("C2")
    faces = w.scene.stacks[H("C2")].stack.counters
    vp = w.view.viewport()
    u.qtbot.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, counter_point(w, "C2", 1))
    u.qtbot.mouseClick(vp, Qt.LeftButton, Qt.ShiftModifier, counter_point(w, "C2", 2))
    assert w.selected_units == {faces[1].key, faces[2].key}
    u.qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, counter_point(w, "C2", 2))
    u.qtbot.mouseMove(vp, u.point("C5"))
    u.qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, u.point("C5"))
    assert {x.id for x in w.document.scenario.units_at(H("C5"))} == {faces[1].key, faces[2].key}
