"""The scenario card edited in the editor (issue 13 item 1; A26, A26.3, A26.4, A19.1, A14.1):
``set_properties`` takes the whole ``"game"`` object as one undoable edit with one change
signal, and refuses a card the game could not play, naming the field (the same parser as
``gwasl validate``).  The dialog's words for areas and conditions read back what they write."""

from __future__ import annotations

import pytest

from gwasl.editor import document as ed
from gwasl.editor.card_text import CardTextError, area_text, conditions_text, parse_area, parse_conditions
from gwasl.editor.document import Change, EditError, EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Terrain
from gwasl.rules.card import scenario_card
from gwasl.rules.turn_record import turn_record
from gwasl.rules.validate import validate_scenario

CARD = {
    "turns": 4, "first_moves": "german", "first_setup": "french",
    "setup": {"french": {"hexes": ["G6", "H6"]}, "german": {"board_half": "west"}},
    "entry": {"german": {"edge": "west"}},
    "victory": {"german": {"conditions": [{"control": {"buildings": ["ferme"]}}], "text": "Take the farm."},
                "french": {"avoid": True}},
    "ssr": [{"id": "1", "text": "Night.", "fields": ["$.night"]}],
    "balance": {"german": {"text": "Add one game turn.", "turns": 1}, "french": {"text": "2 CVP.", "cvp": 2}},
    "elr": {"german": 3, "french": 2}, "san": {"german": 2, "french": 4},
}


@pytest.fixture()
def doc() -> EditorDocument:
    d = EditorDocument(ed.new_scenario())
    d.apply(ed.paint_terrain, [Hex.from_label("G6"), Hex.from_label("H6")], Terrain.STONE_BUILDING)
    d.apply(ed.set_building, [Hex.from_label("G6"), Hex.from_label("H6")], "ferme")
    return d


def test_the_whole_card_is_one_undo_step_with_one_change_signal(doc):
    seen: list[Change] = []
    doc.subscribe(seen.append)
    before = doc.scenario
    assert doc.apply(ed.set_properties, title="La ferme", game=CARD, columns=14, rows=9)
    assert len(seen) == 1 and doc.history[-1] == "Scenario properties"
    s = doc.scenario
    card, tr = scenario_card(s), turn_record(s)
    assert (tr.turns, tr.first, tr.first_setup) == (4, "german", "french")
    assert card.victory["french"].avoid and card.balance["german"].turns == 1 and card.elr["french"] == 2
    assert card.san["german"] == 2 and card.ssr[0].fields == ("$.night",) and (s.map.columns, s.map.rows) == (14, 9)
    assert validate_scenario(s).valid
    doc.undo()
    assert doc.scenario == before and len(seen) == 2
    doc.redo()
    assert scenario_card(doc.scenario).victory["german"].text == "Take the farm."
    assert doc.apply(ed.set_properties, game=None)
    assert "game" not in doc.scenario.extra


@pytest.mark.parametrize("change, where", [
    ({"setup": {"french": {"hexes": ["Z99"]}}}, "$.game.setup.french.hexes[0]"),  # unknown hex
    ({"victory": {"german": {"conditions": [{"control": {"buildings": ["mairie"]}}]}}}, "buildings[0]"),  # A26.14
    ({"victory": {"german": {"conditions": [{"cvp": {"at_least": 5, "cap": 3}}]}}}, "cvp.cap"),  # A26.22
    ({"elr": {"german": 9}}, "$.game.elr.german"),  # A19.1
    ({"first_moves": "belgian"}, "$.game.first_moves"),
])
def test_a_card_the_game_cannot_play_is_refused_and_names_the_field(doc, change, where):
    before = doc.scenario
    with pytest.raises(EditError, match=r"scenario card: .*" + where.replace("$", r"\$").replace("[", r"\[").replace(".", r"\.")):
        doc.apply(ed.set_properties, game={**CARD, **change})
    assert doc.scenario == before and len(doc.history) == 2


def test_a_resize_that_cuts_a_card_hex_off_the_map_is_refused(doc):
    doc.apply(ed.set_properties, game=CARD)
    with pytest.raises(EditError, match="G6 is not on the 5 x 5 map"):
        doc.apply(ed.set_properties, columns=5, rows=5)


def test_the_dialog_words_read_back_what_they_write():
    for raw in CARD["victory"]["german"]["conditions"], [{"cvp": {"at_least": 6, "cap": 10, "more_than_enemy": True}}], \
            [{"exit": {"at_least": 4, "hexes": ["L1", "L2"]}}, {"control": {"at_least": 1, "hexes": ["G6"], "locations": [{"hex": "H6", "in": "dugout"}]}}], \
            [{"control": {"hexes": ["G6"]}, "odd": 1}]:
        assert parse_conditions(conditions_text(raw)) == raw
    for area, kind in ({"board_half": "west"}, "setup"), ({"edge": "north"}, "entry"), ({"hexes": ["A1", "B2"]}, "setup"):
        assert parse_area(area_text(area), kind) == area
    with pytest.raises(CardTextError, match="board half"):
        parse_area("west edge", "setup")
    with pytest.raises(CardTextError, match="control, cvp or exit"):
        parse_conditions("hold G6")
