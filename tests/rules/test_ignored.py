"""ASLGW 'Classic ASL - Rules to be ignored' as data (gwasl/resources/ignored_rules.json)."""

from __future__ import annotations

import copy
import doctest
import json
import re

import pytest

import gwasl.rules.ignored as ignored
from gwasl.model.scenario_io import scenario_from_text
from gwasl.model.terrain import RESOURCES, TableError
from gwasl.rules.ignored import (
    IgnoredRuleError,
    ignored_rule,
    ignored_rule_for_action,
    ignored_rule_for_item,
    ignored_rules,
    parse_ignored_rules,
    require_allowed_action,
    rule_label,
    ssr_allowed,
)
from testsupport import source_text

SEED = source_text("seeds/004_4371414167e1669c.txt")

# The list as the text prints it (normalised 'A.23' -> 'A23').
TEXT_LIST = [("A1.21", "A7.36"), ("A1.22", "A7.34"), ("A22.6",), ("A23",), ("A24.1",), ("A24.3",), ("C12",), ("D13",), ("D16",)]


def test_aslgw_ignored_list_matches_text():
    """ASLGW rules to be ignored: the nine entries, in order."""
    assert [r.asl_rules for r in ignored_rules()] == TEXT_LIST
    assert [r.id for r in ignored_rules() if r.ssr_mentioned] == ["molotov_cocktails", "demolition_charges"]


@pytest.mark.skipif(not SEED.exists(), reason="ASLGW source text not on this machine")
def test_aslgw_ignored_list_against_source_text():
    text = SEED.read_text(encoding="utf-8")
    block = text[text.index("### Classic ASL- Rules to be ignored."): text.index("That seems to be all!")]
    found = [tuple(re.sub(r"^([A-D])\.", r"\1", x) for x in re.split(r" & ", m)) for m in re.findall(r"^\*\*(.+?)\*\*", block, re.M)]
    assert found == TEXT_LIST


def test_lookups_by_id_number_and_item():
    """ASLGW ignored list: DC (A23), MOL (A22.6), WP (A24.3) by any of their names."""
    assert ignored_rule("A.23") is ignored_rule("A23") is ignored_rule_for_item("DC") is ignored_rule("demolition_charges")
    assert ignored_rule_for_item("Molotov Cocktail").asl_rules == ("A22.6",)
    assert ignored_rule_for_item("wp").id == "white_phosphorus"
    assert ignored_rule_for_item("A23") is None  # a rule number is not an item
    assert ignored_rule_for_item("Lewis") is None
    assert ignored_rule_for_action("spray_fire").asl_rules == ("A1.22", "A7.34")
    assert rule_label(ignored_rule("A23")) == "ASLGW ignored A23"


def _scn(ssr=None):
    doc = {"format": "gwasl-scenario/1", "title": "t", "date": "1916-07-01", "map": {"columns": 3, "rows": 3},
           "sides": {"g": {"nationality": "german"}, "b": {"nationality": "british"}}, "units": []}
    if ssr is not None:
        doc["ssr"] = ssr
    return scenario_from_text(json.dumps(doc))


def test_ssr_allowance_all_sides_and_per_side():
    """An SSR brings back DC (ASLGW ignored list, A23) for all sides or for one."""
    dc = ignored_rule("A23")
    assert not ssr_allowed(_scn(), "g", dc)
    assert ssr_allowed(_scn({"allow": ["DC"]}), "g", dc) and ssr_allowed(_scn({"allow": ["A.23"]}), "b", dc)
    per_side = _scn({"allow": {"b": ["demolition_charges"]}})
    assert ssr_allowed(per_side, "b", dc) and not ssr_allowed(per_side, "g", dc)


def test_require_allowed_action():
    """Engine actions of an ignored rule are refused unless an SSR allows them."""
    with pytest.raises(IgnoredRuleError, match=r"Spray Fire \(A1.22, A7.34\).*ASLGW ignored A1.22/A7.34"):
        require_allowed_action(_scn(), "g", "spray_fire")
    require_allowed_action(_scn({"allow": ["spray_fire"]}), "g", "spray_fire")
    require_allowed_action(_scn(), "g", "move")  # not on the list


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["rules"][0].update(asl_rules=["Assault"]), "rules[0].asl_rules"),
    (lambda d: d["rules"][1].update(items=["DC"]), "also names spray_fire"),
    (lambda d: d["rules"][2].pop("title"), "rules[2].title"),
    (lambda d: d["rules"][3].update(ssr_mentioned="yes"), "rules[3].ssr_mentioned"),
])
def test_ignored_table_validated(mutate, needle):
    d = copy.deepcopy(json.loads((RESOURCES / "ignored_rules.json").read_text()))
    mutate(d)
    with pytest.raises(TableError, match=re.escape(needle)):
        parse_ignored_rules(d)


def test_ignored_doctests():
    assert doctest.testmod(ignored).failed == 0
