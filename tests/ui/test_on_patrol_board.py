"""The On Patrol board driven as a user would (pytest-qt, offscreen): it draws the view, lists
the legal orders, plays them, logs each escort's reason, and draws no hidden submarine for the
escorts' viewer."""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtCore import Qt

from gwasl.engine.session import Session
from gwasl.games.on_patrol.game import OnPatrolGame
from gwasl.games.on_patrol.scenario import load_bundled
from gwasl.ui.on_patrol_board import OnPatrolBoard

GAME = OnPatrolGame()


def hunted_session() -> Session:
    src = copy.deepcopy(load_bundled("day-convoy"))
    src["contact"] = True
    return Session.new(GAME, src, 4)


def test_the_board_plays_a_turn_and_logs_the_escorts_reasons(qtbot, tmp_path: Path):
    s = hunted_session()
    board = OnPatrolBoard(s)
    qtbot.addWidget(board)
    board.resize(1200, 800)
    board.show()
    assert "Stand-in" in board.notice.text()
    texts = [board.legal.item(i).text() for i in range(board.legal.count())]
    assert "end the phase" in texts
    turn = s.status().turn
    for _ in range(2):  # end phases 8 and 9: the escorts move, hunting the contact
        row = next(i for i in range(board.legal.count()) if board.legal.item(i).text() == "end the phase")
        board.legal.setCurrentRow(row)
        qtbot.mouseClick(board.act_button, Qt.MouseButton.LeftButton)
    assert s.status().turn == turn + 1
    log = "\n".join(board.log.item(i).text() for i in range(board.log.count()))
    assert "Mode 3" in log and "radial" in log  # each escort's reason (105.3)
    view = board.canvas.view
    assert view["forces"] and view["plans"]  # the escorts are hunting, and the board has their paths
    out = tmp_path / "on_patrol_board.png"
    assert board.grab().save(str(out))
    assert out.stat().st_size > 10_000


def test_the_escorts_view_draws_no_submarine(qtbot):
    s = hunted_session()
    board = OnPatrolBoard(s, viewer="escorts")
    qtbot.addWidget(board)
    board.resize(900, 700)
    board.show()
    assert board.canvas.view["submarines"] == []
    assert board.legal.count() == 0  # the escorts' viewer cannot see the submarine's options
    assert "U1:" not in board.status.text()
