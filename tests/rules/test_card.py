"""The scenario card (A26, A26.3, A26.4, A19.1, A14.1): parsing and `gwasl validate` checks."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.card import CardError, scenario_card
from gwasl.rules.control import Location
from gwasl.rules.validate import validate_scenario
from gwasl.rules.victory import ControlCondition, VPCondition

BOIS = Path(__file__).parents[2] / "gwasl" / "scenarios" / "bois-des-caures-1916.json"

CARD: dict[str, Any] = {
    "turns": 4, "first_moves": "german",
    "setup": {"french": {"hexes": ["G6", "H6", "I6", "H7", "F4"]}, "german": {"board_half": "west"}},
    "entry": {"german": {"edge": "west"}},
    "victory": {"german": {"conditions": [{"control": {"buildings": ["ferme"], "locations": [{"hex": "H7", "in": "dugout"}]}},
                                          {"exit": {"at_least": 2, "edge": "east"}}],
                           "immediate": True, "text": "The Germans win at once when they hold the farm and the dugout and exit 2 VP."},
                "french": {"avoid": True}},
    "ssr": [{"id": "1", "text": "Winter: snow on the ground.", "fields": ["$.winter"]}],
    "balance": {"german": {"text": "Add one game turn.", "turns": 1}, "french": {"text": "The French get 2 CVP.", "cvp": 2}},
    "elr": {"german": 3, "french": 4}, "san": {"german": 2, "french": 3},
}


def _scenario(card: dict[str, Any]) -> Any:
    raw = json.loads(BOIS.read_text())
    raw["game"] = card
    return parse_scenario(raw, "test")


def test_card_reads_every_field_a26():
    c = scenario_card(_scenario(CARD))
    assert {h.label for h in c.setup["french"]} == {"G6", "H6", "I6", "H7", "F4"}
    assert all(h.column < 6 for h in c.setup["german"]) and len(c.setup["german"]) == 6 * 8
    assert {h.column for h in c.entry["german"]} == {0}
    g = c.victory["german"]
    assert g.immediate and not g.avoid
    ctl, ex = g.conditions
    assert isinstance(ctl, ControlCondition) and ctl.buildings == ("ferme",)
    assert ctl.locations == (Location(Hex.from_label("H7"), 0, "dugout"),)
    assert isinstance(ex, VPCondition) and ex.measure == "exit" and ex.at_least == 2
    assert {h.column for h in c.exits["german"]} == {11}
    assert c.victory["french"].avoid  # A26.3
    assert c.balance["german"].turns == 1 and c.balance["french"].cvp == 2  # A26.4
    assert c.elr["french"] == 4 and c.san["german"] == 2
    assert c.ssr[0].fields == ("$.winter",)
    assert validate_scenario(_scenario(CARD)).valid


def _with(path: list[Any], value: Any) -> dict[str, Any]:
    card = copy.deepcopy(CARD)
    obj: Any = card
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    return card


@pytest.mark.parametrize(("path", "value", "where", "rule"), [
    (["setup", "french", "hexes"], ["Z99"], "$.game.setup.french.hexes[0]", "A26.11"),
    (["setup", "german"], {"board_half": "up"}, "$.game.setup.german.board_half", "A26.11"),
    (["victory", "german", "conditions", 0, "control", "buildings"], ["moulin"],
     "$.game.victory.german.conditions[0].control.buildings[0]", "A26.14"),
    (["victory", "german", "conditions", 0, "control", "at_least"], 3,
     "$.game.victory.german.conditions[0].control.at_least", "A26.1"),
    (["victory", "german", "conditions", 1], {"exit": {"at_least": 99, "edge": "east"}},
     "$.game.victory.german.conditions[1].exit.at_least", "A26.23"),
    (["victory", "german", "conditions", 1], {"cvp": {"at_least": 999}},  # more than every enemy unit doubled (A26.222)
     "$.game.victory.german.conditions[1].cvp.at_least", "A26.22"),
    (["victory", "german", "conditions", 1], {"cvp": {"at_least": 5, "cap": 3}},
     "$.game.victory.german.conditions[1].cvp.cap", "A26.22"),
    (["victory", "german", "conditions", 1], {"exit": {"at_least": 2, "hexes": ["F4"]}},
     "$.game.victory.german.conditions[1].exit.hexes", "A26.23"),
    (["victory", "french"], {"avoid": True, "conditions": [{"cvp": {"at_least": 2}}]}, "$.game.victory.french.avoid", "A26.3"),
    (["victory", "german"], {"avoid": True}, "$.game.victory", "A26.3"),
    (["victory", "russian"], {"avoid": True}, "$.game.victory.russian", "A26"),
    (["victory", "german", "conditions", 0, "control", "locations"], [{"hex": "C3", "in": "dugout"}],
     "$.game.victory.german.conditions[0].control.locations[0].in", "A26.1"),
    (["balance", "german"], {"text": "x", "turns": 9}, "$.game.balance.german.turns", "A26.4"),
    (["elr", "german"], 6, "$.game.elr.german", "A19.1"),
    (["san", "french"], -1, "$.game.san.french", "A14.1"),
    (["ssr", 0, "fields"], ["$.sides.french.moustache"], "$.game.ssr[0].fields[0]", "SSR"),
])
def test_validate_names_the_bad_field_and_rule(path, value, where, rule):
    s = _scenario(_with(path, value))
    with pytest.raises(CardError) as e:
        scenario_card(s)
    assert e.value.path == where and e.value.rule == rule
    report = validate_scenario(s)
    assert [(f.path, f.rule) for f in report.errors] == [(where, rule)]


def test_a_scenario_without_a_card_has_an_empty_one():
    raw = json.loads(BOIS.read_text())
    c = scenario_card(parse_scenario(raw, "test"))
    assert not c.has_victory and not c.setup


@pytest.mark.parametrize(("path", "value", "where"), [
    (["setup", "french", "hexes"], ["Z99"], "$.game.setup.french.hexes[0]"),  # an unknown hex
    (["victory", "german", "conditions", 0, "control", "buildings"], ["moulin"],
     "$.game.victory.german.conditions[0].control.buildings[0]"),  # a building that does not exist (A26.14)
    (["victory", "german", "conditions", 1], {"exit": {"at_least": 99, "edge": "east"}},
     "$.game.victory.german.conditions[1].exit.at_least"),  # a threshold the units cannot give (A26.23)
])
def test_gwasl_validate_reports_a_bad_card_on_the_command_line(tmp_path, capsys, path, value, where):
    """CONTRACTS 4 ``gwasl validate FILE --json``: exit 2 and the card field in ``errors``."""
    from gwasl.cli import main

    raw = json.loads(BOIS.read_text())
    raw["game"] = _with(path, value)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(raw))
    rc = main(["validate", str(f), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 2 and out["valid"] is False and [e["path"] for e in out["errors"]] == [where]
