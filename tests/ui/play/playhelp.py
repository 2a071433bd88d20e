"""What the player-window tests share: a window, a bundled scenario started in it, and a
user's hands on it (drags, right-clicks, the End phase button and shortcut)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QToolButton

from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.model.hexgrid import Hex
from gwasl.store.gamefile import create_game, load_source
from gwasl.ui.play.aslgw_board import AslgwBoard, action_hexes
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.window import PlayerWindow
from testsupport import SCENARIOS


def source(name: str) -> dict:
    return load_source("aslgw", str(SCENARIOS / name))


def start(window, tmp_path, name, seed=5, secret=(), practice=False, file="g.game"):
    gf = create_game(tmp_path / file, game_for("aslgw"), source(name), seed, GameOptions(frozenset(secret), practice))
    window.set_controller(GameController(gf))
    assert isinstance(window.board, AslgwBoard)
    window.board.view.resetTransform()  # the whole small map at scale 1
    return window.board


def point(board: AslgwBoard, label: str) -> QPoint:
    c = board.scene.layout.hex_to_pixel(Hex.from_label(label))
    return board.view.mapFromScene(c.x, c.y)


def drag(qtbot, board: AslgwBoard, a: str, b: str) -> str:
    """Press on hex ``a``, move to ``b`` (returns what the board says there), release."""
    vp = board.view.viewport()
    board.last_menu = []
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=point(board, a))
    qtbot.mouseMove(vp, point(board, b))
    said = board.info.text()
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=point(board, b))
    return said


def right_click(qtbot, board: AslgwBoard, label: str) -> list[str]:
    board.last_menu = []
    qtbot.mouseClick(board.view.viewport(), Qt.MouseButton.RightButton, pos=point(board, label))
    return board.last_menu


def choose(board: AslgwBoard, starts: str) -> str:
    """Pick the first entry of the open menu whose text starts with ``starts``."""
    assert board.menu is not None
    for a in board.menu.actions():
        text = a.text().replace("&&", "&")
        if text.startswith(starts):
            tip = a.toolTip()
            board.menu.close()
            a.trigger()
            return tip
    raise AssertionError(f"no {starts!r} in {[a.text() for a in board.menu.actions()]}")


def click_end_button(qtbot, window: PlayerWindow) -> None:
    buttons = [b for b in window.findChildren(QToolButton) if b.defaultAction() is window.end_action]
    assert buttons, "the End phase button is on the toolbar"
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)


def press_end_shortcut(qtbot, window: PlayerWindow) -> None:
    window.activateWindow()
    qtbot.keyClick(window.board.view, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)


def texts(lst) -> list[str]:
    if hasattr(lst, "lines"):  # the log
        return lst.lines()
    return [lst.item(i).text() for i in range(lst.count())]


def snapshot(window: PlayerWindow) -> dict:
    board = window.board
    return {
        "title": window.windowTitle(), "status": window.status_label.text(), "turn": window.turn_label.text(),
        "actions": texts(window.actions_list), "log": texts(window.log_list),
        "tips": [window.log_list.tip(i) for i in range(window.log_list.count())],
        "log_text": window.log_list.toPlainText(),
        "victory": window.victory_label.text(), "history": window.history_label.text(),
        "view": window.controller.view(),
        "stacks": sorted((h.label, it.toolTip()) for h, it in board.scene.stacks.items()),
    }


def phase(window) -> tuple[int, str, str | None]:
    st = window.controller.status()
    return st.turn, st.phase, st.side


def legal(window, kind: str):
    return [la for la in window.controller.legal() if la.action.kind == kind]


def hexes(board: AslgwBoard, la) -> tuple[str, str | None]:
    a, b = action_hexes(la.action.to_json(), board._view)
    assert a is not None
    return a.label, b.label if b is not None else None


def end_until(qtbot, window, turn: int, phase_name: str, side: str | None = None) -> None:
    """End phases (by the button and by Ctrl+E in turn) until ``phase_name`` of ``turn``."""
    i = 0
    while not (phase(window)[:2] == (turn, phase_name) and (side is None or phase(window)[2] == side)):
        (click_end_button if i % 2 else press_end_shortcut)(qtbot, window)
        i += 1
        assert i < 200 and window.messages == [], (phase(window), window.messages)
