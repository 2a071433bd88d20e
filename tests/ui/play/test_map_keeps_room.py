"""Issue 26 item 8 (the map is no porthole): a narrow window or docks made wide -- a saved
dock layout restored into a smaller window once left the Combined Arms map 70 px wide --
squeeze the docks, never the map below its minimum."""

from __future__ import annotations

from PySide6.QtCore import Qt

from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.store.gamefile import create_game
from gwasl.ui.play.combined_arms_board import CombinedArmsBoard
from gwasl.ui.play.controller import GameController


def test_wide_docks_in_a_narrow_window_leave_the_map_its_room(qtbot, window, tmp_path):
    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions())
    window.set_controller(GameController(gf))
    window.resize(800, 770)
    window.show()
    qtbot.waitExposed(window)
    window.resizeDocks([window.actions_dock, window.log_dock], [600, 600], Qt.Orientation.Horizontal)
    qtbot.wait(20)
    assert isinstance(window.board, CombinedArmsBoard)
    assert window.board.view.width() >= CombinedArmsBoard.MAP_MIN_PX, window.board.view.width()
