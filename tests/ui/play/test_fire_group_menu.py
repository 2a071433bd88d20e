"""The Great War board's fire menu offers fire groups formed one firer at a time (issue 24
item 8, A7.5): a first firer from his hex's menu, then the firers ADJACENT to the group,
firing the group as it stands offered with its odds, and the group can be dropped."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from games.aslgw.builders import doc, leader, squad
from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.model.hexgrid import Hex
from gwasl.store.gamefile import create_game
from gwasl.ui.play.aslgw_board import action_hexes
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.window import PlayerWindow


def test_the_fire_menu_forms_a_fire_group_one_firer_at_a_time_a7_5(qtbot, tmp_path):
    d = doc([squad("G1", "B2"), squad("G2", "B3"), leader("GL", "B3", rating="6+1"), squad("G3", "B4"), squad("F", "E3", "french")])
    win = PlayerWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    win.tell = lambda title, text: win.messages.append((title, text))
    qtbot.addWidget(win)
    win.set_controller(GameController(create_game(tmp_path / "g.game", game_for("aslgw"), d, 1, GameOptions())))
    while win.controller.status().phase != "PFPh":
        win.end_phase()
    board = win.board
    start = next(la for la in board.actions_at(Hex.from_label("B2")) if la.action.kind == "fire_group")
    assert "G1 first" in start.shown.text
    assert win.request(start.action)
    menu = [la for la in board.actions_at(Hex.from_label("B2"))]
    kinds = {la.action.kind for la in menu}
    assert {"fire", "fire_group", "drop_fire_group"} <= kinds
    add = next(la for la in menu if la.action.kind == "fire_group")
    assert "add G2 to the fire group G1" in add.shown.text
    fire = next(la for la in menu if la.action.kind == "fire")
    assert board.odds_text(fire)  # firing the group as it stands: its exact outcomes
    assert win.request(next(la for la in menu if la.action.kind == "drop_fire_group").action)
    assert win.messages == []


def test_a_fire_group_step_starts_at_its_first_firer_and_ends_at_its_target():
    view = {"units": [{"id": "G1", "hex": "B2"}], "fire_group": {"firers": ["G1"], "at": "E3"}}
    step = {"kind": "fire_group", "firers": ["G1", "G2"], "at": "E3"}
    assert action_hexes(step, view) == (Hex.from_label("B2"), Hex.from_label("E3"))
    assert action_hexes({"kind": "drop_fire_group"}, view) == (Hex.from_label("B2"), Hex.from_label("E3"))
