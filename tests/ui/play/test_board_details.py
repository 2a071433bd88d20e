"""Issue 14 items 2-5 in detail: counters show their state, a click spreads a stack out,
a drag shows the MF spent and left, refusals name their rule, the log's lines explain
themselves on hover, the victory panel, history bookmarks."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QToolTip

from gwasl.model.hexgrid import Hex
from gwasl.store.gamefile import load_source
from gwasl.ui.play.aslgw_board import drawing_from_game_view, public_scenario
from gwasl.ui.play.window import victory_text
from testsupport import SCENARIOS
from ui.play.playhelp import drag, end_until, hexes, legal, phase, point, start


def test_counters_show_broken_pinned_cx_dm_ti_melee_and_hidden():
    """A4.51 CX, A10.62 DM, A7.8 pinned, A11 melee, O'Leary 2.1 "?" (own hidden unit)."""
    pub = public_scenario(load_source("aslgw", str(SCENARIOS / "bois-des-caures-1916.json")))
    unit = {"side": "german", "kind": "squad", "class": "first_line", "in": "ground"}
    view = {
        "units": [
            {**unit, "id": "a", "hex": "B2", "cx": True, "pinned": True},
            {**unit, "id": "b", "hex": "B3", "broken": True, "dm": True},
            {**unit, "id": "c", "hex": "C2", "hidden": "concealed"},
            {**unit, "id": "d", "hex": "D2"},
            {**unit, "id": "e", "hex": "E2", "hidden": "none"},
        ],
        "ti": ["d"], "melee": [{"hex": "E2", "area": "hex"}],
        "concealed": [{"side": "french", "hex": "F4", "in": "ground", "counters": 3}],
    }
    d = drawing_from_game_view(view, pub)

    def face(label):
        (f,) = d.stacks[Hex.from_label(label)].counters
        return f

    assert face("B2").status == ("CX", "Pin")
    assert face("B3").status == ("DM",) and face("B3").broken
    assert face("C2").status == ("?",)
    assert face("D2").status == ("TI",)
    assert face("E2").status == ("Melee",)
    assert face("F4").kind == "concealed" and face("F4").title == "?" and face("F4").count == 3


def test_a_click_spreads_a_stack_its_tooltip_tells_its_marks(qtbot, window, tmp_path):
    board = start(window, tmp_path, "bois-des-caures-1916.json")
    h = next(h for h, it in board.scene.stacks.items() if len(it.stack.counters) > 1)
    item = board.scene.stacks[h]
    assert not item.fanned
    qtbot.mouseClick(board.view.viewport(), Qt.MouseButton.LeftButton, pos=point(board, h.label))
    assert item.fanned and item.pinned  # stays open after the mouse leaves
    qtbot.mouseClick(board.view.viewport(), Qt.MouseButton.LeftButton, pos=point(board, h.label))
    assert not item.pinned


def test_dragging_shows_mf_spent_and_left_from_the_first_step(qtbot, window, tmp_path):
    """A4.1: a unit's MF allowance; ASLGW 1.4.1: a platoon moves by impulses. Before the
    first step the allowance is the one moving with this group would fix."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", practice=True)
    end_until(qtbot, window, 1, "MPh", "german")
    step = legal(window, "impulse_step")[0]
    a, b = hexes(board, step)
    unit = step.action.to_json()["unit"]
    said = drag(qtbot, board, a, b)
    assert said.startswith(step.shown.text) and "MF spent so far 0" in said
    first = re.search(r"\(([0-9.]+) MF; ([0-9.]+) of ([0-9.]+) left after\)", said)
    assert first, said
    assert float(first[2]) == float(first[3]) - float(first[1])  # nothing spent yet
    if board.last_menu:
        board.menu.actions()[[x.replace("&&", "&") for x in board.last_menu].index(step.shown.text)].trigger()
    window.end_phase()  # the impulse ends (one hex per impulse, ASLGW 1.4.1); the next begins
    nxt = [la for la in legal(window, "impulse_step") if la.action.to_json()["unit"] == unit]
    assert nxt, "the unit may go on"
    c, d = hexes(board, nxt[0])
    said = drag(qtbot, board, c, d)
    assert "MF spent so far 1 of" in said and "left" in said, said
    assert board.targets.hexes == frozenset()  # the tint goes with the drop


def test_a_refusal_names_the_rule_in_words(qtbot, window, tmp_path):
    start(window, tmp_path, "bois-des-caures-1916.json", practice=True)
    end_until(qtbot, window, 1, "MPh", "german")
    step = legal(window, "impulse_step")[0]
    window.end_phase()  # the impulse is over: its step is no longer legal
    while phase(window)[1] == "MPh" and legal(window, "end_impulse"):
        window.end_phase()
    window.messages.clear()
    assert not window.request(step.action)
    (title, text), = window.messages
    assert title == "Not allowed" and text and "{" not in text and "(" in text  # the reason, then the rule


def test_the_log_explains_a_roll_on_hover(qtbot, window, tmp_path):
    start(window, tmp_path, "bois-des-caures-1916.json", secret=("german",))
    end_until(qtbot, window, 1, "DFPh", "french")
    window.request(legal(window, "fire")[0].action)
    log = window.log_list
    i = next(i for i, e in enumerate(window.controller.log()) if e["kind"] == "roll")
    assert "final:" in log.tip(i) and "dice:" in log.tip(i)
    log.verticalScrollBar().setValue(0)  # the roll's paragraph in sight
    block = log.document().findBlockByNumber(i)
    pos = log.blockBoundingGeometry(block).translated(log.contentOffset()).center().toPoint()
    ev = QHelpEvent(QEvent.Type.ToolTip, pos, log.viewport().mapToGlobal(pos))
    assert log.event(ev)
    assert "final:" in QToolTip.text()


def test_victory_panel_text():
    """A26: Control and VP as the view knows them; the result once over."""
    view = {"control": {"hexes": {"A1": "german", "B1": "german", "C1": "french"}, "buildings": {"ferme": "french"},
                        "locations": [{"hex": "F3", "level": 0, "in": "dugout", "side": "german"}]},
            "vp": {"cvp": {"german": 2, "french": 0}, "exit": {"german": 0, "french": 0},
                   "lines": ["german +2 CVP: F-1 eliminated (A26.221)"]}}
    live = victory_text(view, None)
    assert live.splitlines() == ["Control (hexes): french 1, german 2", "  building ferme: french",
                                 "  F3 level 0 dugout: german", "Casualty VP: german 2, french 0",
                                 "Exit VP: german 0, french 0", "VP sources:",
                                 "  german +2 CVP: F-1 eliminated (A26.221)"]
    over = victory_text(view, {"winner": None, "why": "turn 5 is over"})
    assert over.startswith("Result: no winner\nturn 5 is over\n")
    assert victory_text({}, {"winner": "german", "why": "x", "score": 7}) == "Result: german wins\nx\nScore: 7"


def test_bookmarks_are_kept_with_the_game_and_bring_the_history_back(qtbot, window, tmp_path):
    start(window, tmp_path, "bois-des-caures-1916.json")
    end_until(qtbot, window, 1, "MPh", "german")
    window.history_slider.setValue(2)
    window.add_bookmark()
    window.go_live()
    window.add_bookmark()
    marks = window.bookmarks()
    assert [p for p, _ in marks] == [2, window.controller.history_length] and "turn 1, RPh" in marks[0][1]
    path = str(window.controller.file.path)
    window.close_game()
    assert window.open_game_path(path)
    assert window.bookmarks() == marks and window.bookmarks_list.count() == 2
    window.bookmarks_dock.raise_()  # its tab, behind the victory panel's
    qtbot.waitUntil(lambda: window.bookmarks_list.isVisible())
    rect = window.bookmarks_list.visualItemRect(window.bookmarks_list.item(0))
    qtbot.mouseClick(window.bookmarks_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(window.bookmarks_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.controller.position == 2 and not window.controller.live
