"""The Great War board in the player window (issue 14): drawn from the view only,
moved by dragging a counter as a VASL player would, and blind to kept secrets."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QSettings, Qt

from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.model.hexgrid import Hex
from gwasl.store.gamefile import create_game, load_source
from gwasl.ui.play.aslgw_board import AslgwBoard, drawing_from_game_view, public_scenario
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.window import PlayerWindow
from testsupport import EXAMPLE_PATH


def new_game(tmp_path, source, name="g.game", secret=("french",)):
    return create_game(tmp_path / name, game_for("aslgw"), source, 5, GameOptions(frozenset(secret)))


@pytest.fixture
def source():
    return load_source("aslgw", str(EXAMPLE_PATH))


@pytest.fixture
def window(qtbot, tmp_path):
    win = PlayerWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    win.tell = lambda title, text: win.messages.append((title, text))
    qtbot.addWidget(win)
    win.resize(1300, 850)
    win.show()
    qtbot.waitExposed(win)
    return win


def to_movement(win):
    while win.controller.status().phase != "MPh":
        win.end_phase()


def test_public_scenario_keeps_terrain_only(source):
    pub = public_scenario(source)
    assert pub is not None and pub.units == () and pub.dummies == () and pub.map.fortifications == ()
    assert pub.map.hexes and "fog" not in pub.extra


def test_dragging_a_counter_moves_it(qtbot, window, tmp_path, source):
    window.set_controller(GameController(new_game(tmp_path, source)))
    to_movement(window)
    board = window.board
    assert isinstance(board, AslgwBoard)
    view = board.view
    view.resetTransform()
    lay = board.scene.layout
    stack = board.scene.stacks[Hex.from_label("C2")]
    top = stack.counter_rects()[-1]  # the top counter of the stack (item coordinates)
    top_key = stack.stack.counters[-1].key
    start = view.mapFromScene(stack.mapToScene(top.center()))
    c = lay.hex_to_pixel(Hex.from_label("B2"))
    end = view.mapFromScene(c.x, c.y)
    before = window.controller.history_length
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(vp, end)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    assert window.messages == [] and window.controller.history_length > before
    moved = window.controller.log()[-1]
    assert moved["kind"] == "moved" and top_key in moved["text"] and moved["to"] == "B2"
    assert Hex.from_label("B2") in board.scene.stacks  # drawn at once


def test_two_games_differing_in_hidden_facts_draw_the_same(tmp_path, source):
    """CONTRACTS 5: the player's board is identical for two games whose secret side's
    hidden layer differs (here: which French '?' stack holds the real units)."""
    other = json.loads(json.dumps(source))
    for u in other["units"]:
        if u["side"] == "french" and u.get("hidden") in ("concealed", "potential_dummy"):
            u["id"] = u["id"] + "x"  # a different hidden identity, same public picture
    drawings = []
    for i, src in enumerate((source, other)):
        gf = new_game(tmp_path, src, f"g{i}.game")
        view = gf.session.view("player")
        drawings.append(drawing_from_game_view(view, public_scenario(src)))
        gf.close()
    assert drawings[0] == drawings[1]
