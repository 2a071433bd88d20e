"""Command radius periods are data (gwasl/resources/nationalities.json) and match
ASLGW 1.3.11-1.3.13 and 1.3.21; command_radius reads them from there."""

from __future__ import annotations

import datetime as dt

import pytest

from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.units import base_command_radius, hero_command_radius, parse_nationalities


@pytest.mark.parametrize(
    "day,radius",
    [
        ("1914-08-04", 1),  # ASLGW 1.3.11: 1914 - January 1916 ...
        ("1915-12-31", 1),
        ("1916-01-01", 2),  # ... overlapping 1.3.12 in January 1916: 1.3.12 wins (rules-notes)
        ("1916-12-31", 2),  # ASLGW 1.3.12: 1916
        ("1917-01-01", 3),  # ASLGW 1.3.13: January 1917 - 1918
        ("1918-11-11", 3),
    ],
)
def test_aslgw_1_3_11_to_1_3_13_radius_by_date(day, radius):
    assert base_command_radius(day).radius == radius


def test_aslgw_1_3_21_hero_radius_is_one_at_any_date():
    assert hero_command_radius() == 1


def test_command_radius_periods_must_start_at_the_war_and_run_in_order():
    doc = load_resource("nationalities.json")
    doc["command_radius"]["periods"] = list(reversed(doc["command_radius"]["periods"]))
    with pytest.raises(TableError, match="command_radius.periods"):
        parse_nationalities(doc)


def test_period_rules_cite_the_text():
    assert [p["rule"][:12] for p in load_resource("nationalities.json")["command_radius"]["periods"]] == [
        "ASLGW 1.3.11", "ASLGW 1.3.12", "ASLGW 1.3.13"]
    assert base_command_radius(dt.date(1916, 6, 1)).rule.startswith("ASLGW 1.3.12")
