"""The turn record of a scenario in play: the optional "game" object (docs/format/aslgw.md),
its defaults (5 turns; the fog extension's first_phasing; the other side sets up first),
and one clear message per bad field."""

from __future__ import annotations

import copy

import pytest

from games.aslgw.playout import GAME, scenario_paths, source
from gwasl.engine.game import GameError, GameOptions
from gwasl.games.aslgw.settings import DEFAULT_TURNS, game_settings
from gwasl.model.scenario_io import parse_scenario

SRC = source(scenario_paths()[0])


def settings_of(doc):
    return game_settings(parse_scenario(doc))


def test_defaults_without_a_game_object():
    g = settings_of(SRC)
    assert g.turns == DEFAULT_TURNS == 5
    assert g.order == ("german", "french") and g.first_setup == "french"


def test_fog_first_phasing_decides_who_moves_first_when_the_game_object_is_silent():
    doc = copy.deepcopy(SRC)
    doc["fog"] = {"first_phasing": "french"}
    assert settings_of(doc).order == ("french", "german")


def test_the_game_object_sets_turns_and_sides():
    doc = copy.deepcopy(SRC)
    doc["game"] = {"turns": 3, "first_moves": "french", "first_setup": "french"}
    g = settings_of(doc)
    assert (g.turns, g.order, g.first_setup) == (3, ("french", "german"), "french")


@pytest.mark.parametrize("game, message", [
    ({"turns": 0}, "$.game.turns"),
    ({"turns": "5"}, "$.game.turns"),
    ({"first_moves": "russian"}, "$.game.first_moves"),
    ({"first_setup": 3}, "$.game.first_setup"),
    ({"turn": 5}, "$.game.turn: unknown field"),
    ([5], "$.game: must be an object"),
])
def test_a_bad_game_object_is_one_clear_error(game, message):
    doc = copy.deepcopy(SRC)
    doc["game"] = game
    with pytest.raises(GameError) as e:
        GAME.setup(doc, GameOptions())
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_broken_scenario_or_unknown_secret_side_is_one_clear_error():
    doc = copy.deepcopy(SRC)
    doc["units"][0]["hex"] = "ZZ99"
    with pytest.raises(GameError) as e:
        GAME.setup(doc, GameOptions())
    assert "\n" not in str(e.value)
    with pytest.raises(GameError, match="--secret 'russian' is not a side"):
        GAME.setup(SRC, GameOptions(frozenset({"russian"})))
    with pytest.raises(GameError, match="SOURCE"):
        GAME.setup(None, GameOptions())


def test_gwasl_validate_reports_a_bad_game_object_a3():
    """The turn record is checked by gwasl validate too (gwasl.rules.turn_record, one implementation)."""
    from gwasl.rules.validate import validate_scenario

    doc = copy.deepcopy(SRC)
    doc["game"] = {"turns": 0}
    report = validate_scenario(parse_scenario(doc))
    assert [(f.path, f.rule) for f in report.errors] == [("$.game.turns", "A3")]
    assert validate_scenario(parse_scenario(SRC)).valid
