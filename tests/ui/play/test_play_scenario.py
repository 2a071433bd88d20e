"""Issue 14 item 6: a bundled Great War scenario played in the player window as a user
would: drag moves hex by hex (the MF spent and left shown on the way), fire from the
right-click menu with its odds, the End phase button and its shortcut, a shift attempt,
take-back and its refusal, close and reopen; and a whole game to its result through the
window's own controls, the victory panel showing it."""

from __future__ import annotations

import json
import random

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from gwasl.ui.play.aslgw_board import AslgwBoard, action_hexes
from gwasl.ui.play.window import END_KINDS
from gwasl.ui.render import render_scene
from ui.play.playhelp import (
    choose,
    click_end_button,
    drag,
    end_until,
    hexes,
    legal,
    phase,
    press_end_shortcut,
    right_click,
    snapshot,
    start,
    texts,
)


def test_bois_des_caures_played_by_mouse_and_keyboard_then_reopened(qtbot, window, tmp_path):
    """Bois des Caures, gwasl keeping the German side (its fire decided by its policy),
    the person at the desk playing the rest: ASLGW turn sequence (A3), platoon impulses
    (ASLGW 1.4.1), fire (A7), movement (A4), a HIP shift (O'Leary 2.3, 2.5), take-back
    (docs/architecture.md "Undo and history": only back to the last die roll)."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", secret=("german",))
    assert "Turn 1 of 5" in window.turn_label.text() and "RPh" in window.turn_label.text()
    click_end_button(qtbot, window)  # RPh over by the toolbar button; gwasl plays the German PFPh
    # the French shift window opens the German MPh (O'Leary 3.3.2): a HIP shift attempt
    # from the menu of its hex (O'Leary 2.3, 2.5)
    assert phase(window)[1:] == ("MPh", "french") and "MPh" in window.turn_label.text()
    shift = legal(window, "shift")[0]
    a, _ = hexes(board, shift)
    assert shift.shown.text in right_click(qtbot, board, a)
    before = window.controller.history_length
    choose(board, shift.shown.text)
    assert window.controller.history_length > before and window.messages == []
    end_until(qtbot, window, 1, "MPh", "german")  # the End phase button closes the window

    # a platoon impulse dragged hex by hex (ASLGW 1.4.1), its MF shown on the way
    step = legal(window, "impulse_step")[0]
    a, b = hexes(board, step)
    said = drag(qtbot, board, a, b)
    assert "MF" in said and f"-> {b}" in said, said
    assert window.messages == [] and window.controller.log()[-1]["kind"] == "moved"
    undone = [take_back(window)]
    if undone[-1] == "taken back":  # do it again, to play on
        drag(qtbot, board, a, b)

    press_end_shortcut(qtbot, window)  # the impulse or the MPh ends by Ctrl+E
    end_until(qtbot, window, 1, "DFPh", "french")

    # Defensive Fire from the right-click menu on the firers' stack, its odds shown before the roll
    fire = legal(window, "fire")[0]
    a, _ = hexes(board, fire)
    menu = right_click(qtbot, board, a)
    assert fire.shown.text in menu, menu
    assert all(t in menu for t in (la.shown.text for la in window.controller.legal() if hexes_or_none(board, la, a)))
    rolls = sum(1 for e in window.controller.log() if e["kind"] == "roll")
    odds = choose(board, fire.shown.text)
    assert "%" in odds  # the exact outcomes were on the menu entry
    log = window.controller.log()
    assert sum(1 for e in log if e["kind"] == "roll") > rolls and window.messages == []
    roll_line = [i for i in range(window.log_list.count()) if log[i]["kind"] == "roll"][rolls]
    assert "final:" in window.log_list.tip(roll_line) and "A7" in window.log_list.text(roll_line)
    assert not any(t.lstrip().startswith(("{", "[")) for t in texts(window.log_list))  # sentences, no JSON

    # take-back refused after a roll, with the reason in words
    assert take_back(window) == "refused"

    end_until(qtbot, window, 1, "MPh", "french")

    # a French move dragged, then another step: the MF left shown once the allowance is fixed (A4.1)
    mv = legal(window, "move")[0]
    a, b = hexes(board, mv)
    said = drag(qtbot, board, a, b)
    assert "MF" in said and f"-> {b}" in said, said
    if board.last_menu:  # several moves from a to b (the stack, or one of its counters): the user picks
        assert mv.shown.text in board.last_menu
        choose(board, mv.shown.text)
    moved = window.controller.log()[-1]
    assert window.messages == [] and any(e["kind"] == "moved" for e in window.controller.log()[-4:]), moved
    nxt = [la for la in legal(window, "move") if hexes(board, la)[0] == b]
    if nxt:
        said = drag(qtbot, board, b, hexes(board, nxt[0])[1])
        assert "left" in said, said
        if board.last_menu:
            choose(board, board.last_menu[0])
    undone.append(take_back(window))  # each refused here: the moves drew fire or lost a dummy

    end_until(qtbot, window, 3, "RPh")  # on through turn 2
    assert window.messages == []

    # close and reopen: the same view, log, actions and map
    before = snapshot(window)
    img_before = scene_bytes(window.board)
    path = str(window.controller.file.path)
    window.close_game()
    assert window.controller is None and window.log_list.count() == 0
    assert window.open_game_path(path)
    window.board.view.resetTransform()
    assert snapshot(window) == before
    assert scene_bytes(window.board) == img_before
    assert window.controller.session.replay_check().identical


def test_practice_mode_takes_a_dragged_move_back(qtbot, window, tmp_path):
    """Practice mode takes back even past a roll (docs/architecture.md "Undo and history"): the dragged
    counter is drawn back where it was."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", secret=("german",), practice=True)
    end_until(qtbot, window, 1, "MPh", "german")
    step = legal(window, "impulse_step")[0]
    a, b = hexes(board, step)
    def drawn():
        return sorted((h.label, it.toolTip()) for h, it in board.scene.stacks.items())

    before = drawn()
    drag(qtbot, board, a, b)
    assert drawn() != before
    assert take_back(window) == "taken back"
    assert drawn() == before


def take_back(window) -> str:
    """Undo as the user would; the window takes back what the session allows (docs/architecture.md "Undo and history": back
    to the last die roll or reveal) and otherwise says why, in words."""
    n = window.controller.history_length
    reason = window.controller.session.undo_target()[1]
    window.messages.clear()
    window.undo()
    if reason is None:
        assert window.controller.history_length < n and window.messages == []
        return "taken back"
    assert window.controller.history_length == n
    assert window.messages == [("Take back", f"Not taken back: {reason}")] and "rolled dice or revealed" in reason
    window.messages.clear()
    return "refused"


def hexes_or_none(board, la, label) -> bool:
    a, b = action_hexes(la.action.to_json(), board._view)
    return label in (a.label if a else None, b.label if b else None)


def scene_bytes(board: AslgwBoard) -> bytes:
    img = render_scene(board.scene, 900)
    data = bytes(img.constBits())
    del img
    return data


def test_a_scenario_played_to_its_result_in_the_window(qtbot, window, tmp_path):
    """Saint-Julien to its end by the window's controls only (the action list, the End
    phase button): the victory panel shows the winner and why (A26)."""
    start(window, tmp_path, "saint-julien-1915.json", seed=3, secret=("british",))
    rng = random.Random(4)
    lst = window.actions_list
    steps = 0
    board = window.board
    while not window.controller.status().over:
        assert lst.count() > 0
        for la in window.controller.legal():  # every action is on a hex's menu, or is the End phase button's
            a, _ = action_hexes(la.action.to_json(), board._view)
            assert a is not None or la.action.kind in END_KINDS, la.action.to_json()
            if a is not None:
                assert la in board.actions_at(a)
        if rng.random() < 0.2 and window.end_action.isEnabled():
            click_end_button(qtbot, window)
        else:
            item = lst.item(rng.randrange(lst.count()))
            rect = lst.visualItemRect(item)
            lst.scrollToItem(item)
            rect = lst.visualItemRect(item)
            qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
            qtbot.mouseDClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        steps += 1
        assert steps < 1500, "the game does not end"
    assert window.messages == []
    result = window.controller.status().result
    assert result is not None and "why" in result
    panel = window.victory_label.text()
    assert panel.startswith("Result: ") and result["why"] in panel
    assert ("Result: no winner" in panel) if result["winner"] is None else (f"{result['winner']} wins" in panel)
    assert "Control (hexes):" in panel and "Casualty VP:" in panel
    assert "game over" in window.turn_label.text()
    assert lst.count() == 0
    assert window.controller.session.replay_check().identical
    QApplication.processEvents()
    json.dumps(window.controller.view())  # the view stays plain JSON
