"""The On Patrol board driven as a user would (pytest-qt, offscreen): it draws the view, lists
the orders, gives them, shows each escort's reason, draws no hidden submarine for the escorts'
viewer, and plugs into the player window by ruleset."""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtCore import Qt

from gwasl.engine.session import Session
from gwasl.games.on_patrol.game import OnPatrolGame
from gwasl.games.on_patrol.scenario import load_bundled
from gwasl.ui.play.boards import board_for
from gwasl.ui.play.on_patrol_board import OnPatrolBoard, attach

GAME = OnPatrolGame()


def hunted_session() -> Session:
    src = copy.deepcopy(load_bundled("day-convoy"))
    src["contact"] = True
    return Session.new(GAME, src, 4)


def test_the_player_window_finds_the_board(qtbot):
    board = board_for("on-patrol")
    qtbot.addWidget(board)
    assert isinstance(board, OnPatrolBoard)


def test_the_board_plays_a_turn_and_shows_the_escorts_reasons(qtbot, tmp_path: Path):
    s = hunted_session()
    board = OnPatrolBoard()
    qtbot.addWidget(board)
    attach(board, s)
    board.resize(1200, 800)
    board.show()
    notice = board.notice.text()
    assert "stand-in" in notice and "exact" not in notice  # it used to claim "Harmon's rules and tables are exact"
    assert "escorts move before torpedoes" in notice and "60 degrees" in notice and "100 feet" in notice
    turn = s.status().turn
    for _ in range(2):  # end phases 8 and 9: the escorts move, hunting the contact
        row = next(i for i in range(board.orders.count()) if board.orders.item(i).text() == "end the phase")
        board.orders.setCurrentRow(row)
        qtbot.mouseClick(board.act_button, Qt.MouseButton.LeftButton)
    assert s.status().turn == turn + 1
    reasons = [board.escorts.item(i).text() for i in range(board.escorts.count())]
    assert reasons and all("Mode " in r and "(105.4.5)" in r and "target" in r for r in reasons)  # mode, order, target
    assert board.canvas.view["forces"] and board.canvas.view["plans"]
    out = tmp_path / "on_patrol_board.png"
    assert board.grab().save(str(out))
    assert out.stat().st_size > 10_000


def test_the_escorts_view_draws_no_submarine(qtbot):
    s = hunted_session()
    board = OnPatrolBoard()
    qtbot.addWidget(board)
    attach(board, s, viewer="escorts")
    board.resize(900, 700)
    board.show()
    assert board.canvas.view["submarines"] == []
    assert board.orders.count() == 0  # the escorts' viewer cannot see the submarine's options
    assert "ft, hull" not in board.status.text()


def test_before_contact_the_escorts_list_says_they_keep_formation(qtbot):
    """On Patrol 104.2.2: without contact the escorts begin in Mode 1 and move in formation
    (104.3.1), so no escort has a reason of its own: the list says so rather than stay blank."""
    s = Session.new(GAME, copy.deepcopy(load_bundled("day-convoy")), 4)
    board = OnPatrolBoard()
    qtbot.addWidget(board)
    attach(board, s)
    assert not board.canvas.view["plans"]
    assert [board.escorts.item(i).text() for i in range(board.escorts.count())] == [
        "No escort has moved by itself: all move in formation with the convoy (Mode 1, 104.2.2, 104.3.1)"]
