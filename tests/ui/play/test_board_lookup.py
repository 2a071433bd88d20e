"""Issue 23 item 3: the player window's board is the one the game declares (``Game.board``),
and a board that cannot be imported or built is never replaced in silence: the window says
what failed, the error is logged with its traceback, and the game stays playable."""

from __future__ import annotations

import importlib
import logging

import pytest

from gwasl import games
from gwasl.cli import main
from gwasl.engine.game import GameOptions
from gwasl.games import RULESETS, game_for
from gwasl.store.gamefile import create_game
from gwasl.ui.play.boards import BoardError, BrokenBoard, ViewBoard, board_for, load_board
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.window import PlayerWindow
from ui.play.plantedgames import DeclaredToy, ExplodingBoardToy, MissingBoardToy, NotABoardToy, ToyBoard

PLANTED = {"toy-missing-board": (MissingBoardToy, "ui.play.no_such_module:NoBoard", "ModuleNotFoundError"),
           "toy-exploding-board": (ExplodingBoardToy, "ui.play.plantedgames:ExplodingBoard",
                                   "RuntimeError: planted: the board's constructor failed"),
           "toy-not-a-board": (NotABoardToy, "ui.play.plantedgames:NotABoard", "is a NotABoard, not a Board")}


@pytest.fixture
def planted(monkeypatch):
    """The planted toy games, registered for this test only."""
    for name, (cls, _target, _what) in PLANTED.items():
        monkeypatch.setitem(games._EXTRA, name, cls())
    monkeypatch.setitem(games._EXTRA, "toy-declared", DeclaredToy())


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_each_games_board_is_the_one_its_class_declares(qtbot, ruleset):
    module, _, name = game_for(ruleset).board.partition(":")
    board = board_for(ruleset)
    qtbot.addWidget(board)
    assert type(board) is getattr(importlib.import_module(module), name)


def test_a_registered_game_gets_its_declared_board_or_the_tree(qtbot, planted, monkeypatch):
    from engine.toygame import ToyGame

    monkeypatch.setitem(games._EXTRA, "toy", ToyGame())
    own, tree = board_for("toy-declared"), board_for("toy")
    qtbot.addWidget(own)
    qtbot.addWidget(tree)
    assert type(own) is ToyBoard and type(tree) is ViewBoard  # a game without a board: the tree, no complaint


@pytest.mark.parametrize("ruleset", sorted(PLANTED))
def test_load_board_raises_what_failed(qtbot, planted, ruleset):
    _cls, target, what = PLANTED[ruleset]
    with pytest.raises(BoardError) as e:
        load_board(ruleset)
    assert target in str(e.value) and what in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(BoardError, match="unknown ruleset 'chess'"):
        load_board("chess")


@pytest.mark.parametrize("ruleset", sorted(PLANTED))
def test_a_failing_board_is_shown_in_the_window_and_logged(qtbot, tmp_path, planted, caplog, ruleset):
    """The old lookup fell back to the tree without a word on an import error, and let any
    other error out of the window's set-up: now the window says which board failed and why,
    the log has the traceback, and the action list still plays the game."""
    cls, target, what = PLANTED[ruleset]
    win = PlayerWindow(None)
    win.tell = lambda title, text: win.messages.append((title, text))
    qtbot.addWidget(win)
    win.show()
    gf = create_game(tmp_path / "g.game", cls(), {"traps": [5, 7]}, 3, GameOptions())
    with caplog.at_level(logging.ERROR, logger="gwasl.ui.play.boards"):
        win.set_controller(GameController(gf))
    board = win.board
    assert isinstance(board, BrokenBoard) and win.centralWidget() is board
    qtbot.waitUntil(board.notice.isVisible)  # shown in the window, above the tree
    assert target in board.notice.text() and what in board.notice.text()
    assert "Actions list" in board.notice.text()
    (record,) = [r for r in caplog.records if r.name == "gwasl.ui.play.boards"]
    assert record.levelno == logging.ERROR and record.exc_info is not None and ruleset in record.getMessage()
    assert board.tree.topLevelItemCount() > 0  # the view, as a tree
    assert win.actions_list.count() == 3  # step, run, pass: still playable
    win.close_game()


def test_render_refuses_a_game_whose_board_fails(tmp_path, planted, capsys):
    """`gwasl render GAME`: a picture of the failure would pass for the position: one line, exit 2."""
    g = tmp_path / "g.game"
    create_game(g, ExplodingBoardToy(), {"traps": [5, 7]}, 3, GameOptions()).close()
    assert main(["render", str(g), "--out", str(tmp_path / "g.png")]) == 2
    err = capsys.readouterr().err
    assert "ExplodingBoard" in err and "planted" in err and err.count("\n") == 1
    assert not (tmp_path / "g.png").exists()
