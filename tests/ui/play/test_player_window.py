"""The player window (issue 14) over the engine, driven as a user would with the toy game:
act from the action list, see the dice log, take back, browse history, reopen the file,
and never see a kept secret in any widget."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt

from engine.toygame import ToyGame
from gwasl.engine.game import GameOptions
from gwasl.games import register_ruleset
from gwasl.store.gamefile import create_game
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.window import BULLET, PlayerWindow

register_ruleset("toy", ToyGame())


@pytest.fixture
def window(qtbot, tmp_path):
    win = PlayerWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    win.tell = lambda title, text: win.messages.append((title, text))  # no modal boxes in tests
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def start(tmp_path, name="g.game", **opts):
    options = GameOptions(frozenset(opts.pop("secret", ())), opts.pop("practice", False), opts)
    return create_game(tmp_path / name, ToyGame(), {"traps": [5, 7]}, 3, options)


def texts(lst) -> list[str]:
    if hasattr(lst, "lines"):  # the log
        return lst.lines()
    return [lst.item(i).text() for i in range(lst.count())]


def plain_lines(win: PlayerWindow) -> list[str]:
    """The log dock's text as drawn, one event a paragraph after its bullet."""
    return [t.removeprefix(BULLET) for t in win.log_list.toPlainText().split("\n")]


def activate(qtbot, win: PlayerWindow, text: str) -> None:
    lst = win.actions_list
    for i in range(lst.count()):
        if lst.item(i).text() == text:
            rect = lst.visualItemRect(lst.item(i))
            qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
            qtbot.mouseDClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
            return
    raise AssertionError(f"{text!r} not in {texts(lst)}")


def test_play_take_back_history_and_reopen(qtbot, window, tmp_path):
    window.set_controller(GameController(start(tmp_path, practice=True)))
    assert texts(window.actions_list) == ["Step one square", "Run a die's worth", "Pass"]
    assert "Turn 1" in window.status_label.text() and "red to act" in window.status_label.text()
    activate(qtbot, window, "Run a die's worth")
    log = texts(window.log_list)
    assert log[0].startswith("run: squares moved:") and "blue to act" in window.status_label.text()
    assert "final:" in window.log_list.tip(0) == window.log_list.item(0).toolTip()  # the roll explains itself
    assert window.log_list.item(0).text() == log[0]
    activate(qtbot, window, "Step one square")
    n = window.controller.history_length
    # history: step back to the first event, read-only, then live again
    full = texts(window.log_list)
    window.history_slider.setValue(1)
    assert window.controller.position == 1 and window.actions_list.count() == 0
    # the log dock shows the history up to there, line for line, and comes back whole
    shown = [e["text"] for e in window.controller.log()]
    assert window.log_list.lines() == shown == plain_lines(window) and len(shown) < len(full)
    window.history_slider.setValue(0)
    assert window.log_list.lines() == [] == [t for t in plain_lines(window) if t]
    window.history_slider.setValue(n)
    assert plain_lines(window) == full
    window.history_slider.setValue(1)
    assert "history" in window.status_label.text()
    window.go_live()
    assert window.controller.position == n and window.actions_list.count() == 3
    # take back the step (practice mode allows it)
    window.undo()
    assert window.controller.history_length < n and window.messages == []
    before_log, before_status = texts(window.log_list), window.status_label.text()
    path = str(window.controller.file.path)
    window.close_game()
    assert window.open_game_path(path)
    assert texts(window.log_list) == before_log and window.status_label.text() == before_status


def test_take_back_refused_says_why(qtbot, window, tmp_path):
    window.set_controller(GameController(start(tmp_path)))
    activate(qtbot, window, "Run a die's worth")
    window.undo()
    assert window.messages and "rolled dice" in window.messages[-1][1]


def test_no_widget_shows_a_kept_secret(qtbot, window, tmp_path):
    """Two games differing only in blue's secret trap look the same in every widget."""
    seen = []
    for name, traps in (("a.game", [5, 7]), ("b.game", [5, 9])):
        gf = create_game(tmp_path / name, ToyGame(), {"traps": traps}, 3, GameOptions(frozenset({"blue"})))
        window.set_controller(GameController(gf))
        activate(qtbot, window, "Step one square")
        board = window.board
        tree = [board.tree.topLevelItem(i).text(1) for i in range(board.tree.topLevelItemCount())]
        seen.append((texts(window.actions_list), texts(window.log_list), window.status_label.text(), tree,
                     [a.text() for a in window.view_menu.actions()]))
    assert seen[0] == seen[1]
    assert "blue" not in seen[0][4]  # cannot look as the kept-secret side


def test_bad_game_file_is_one_message(window, tmp_path):
    p = tmp_path / "bad.game"
    p.write_bytes(b"junk")
    assert not window.open_game_path(str(p))
    assert window.messages and str(p) in window.messages[-1][1] and "\n" not in window.messages[-1][1]


def test_suggest_a_move_selects_the_policys_choice_and_says_why(qtbot, window, tmp_path):
    """Game > Suggest a move (Ctrl+H): in Combined Arms the default policy's choice is
    selected in the Actions list with its reason; the game does not move.  A Great War
    scenario suggests gwasl's opponent's choice (issue 25); at an earlier position of
    the history there is no suggestion, and the window says so."""
    from gwasl.games import game_for
    from ui.play.playhelp import start

    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions())
    window.set_controller(GameController(gf))
    before = window.controller.history_length
    window.activateWindow()
    qtbot.keyClick(window.board.view, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.controller.advising, timeout=30000)  # worked out in another thread
    (title, text), = window.messages
    name, decision = gf.session.suggest()
    la = window.actions_list.currentItem().data(Qt.ItemDataRole.UserRole)
    assert title == "Suggest a move" and la.action == decision.action
    assert text == f"gwasl's {name} policy would: {la.shown.text}\n\nWhy: {decision.why}"
    assert window.controller.history_length == before  # a hint changes nothing
    window.messages.clear()
    start(window, tmp_path, "bois-des-caures-1916.json", file="gw.game")
    window.suggest_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.advising, timeout=30000)
    assert window.messages and window.messages[0][1].startswith("gwasl's opponent policy would: ")
    window.messages.clear()
    window.end_phase()
    window.history_slider.setValue(1)  # an earlier position: nothing to suggest there
    window.suggest_action.trigger()
    assert window.messages and "no suggestion" in window.messages[0][1]
