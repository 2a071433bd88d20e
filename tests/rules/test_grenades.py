"""ASLGW 1.6.61 hand grenades: by date and front, with the side's SSR override."""

from __future__ import annotations

import doctest
import json

import pytest

import gwasl.rules.grenades as grenades
from gwasl.model.scenario_io import scenario_from_text
from gwasl.model.terrain import TableError
from gwasl.rules.grenades import hand_grenade_status, has_hand_grenades, parse_hand_grenades


def _scn(date, front="western", **sides):
    return scenario_from_text(json.dumps({
        "format": "gwasl-scenario/1", "title": "t", "date": date, "front": front, "map": {"columns": 3, "rows": 3},
        "sides": {"g": {"nationality": "german", **sides.get("g", {})}, "f": {"nationality": "french", **sides.get("f", {})}},
        "units": [],
    }))


@pytest.mark.parametrize("date,front,expected", [
    ("1915-12-31", "western", False),  # prior to 1916: No HG effect
    ("1916-01-01", "western", True),  # 1916 and after on the western front
    ("1918-11-10", "western", True),
    ("1916-06-04", "eastern", False),  # other fronts: not the case
    ("1917-10-24", "italian", False),
    ("1917-10-24", "other", False),
])
def test_aslgw_1_6_61_by_date_and_front(date, front, expected):
    """ASLGW 1.6.6 grenades, 1.6.61: HG from the beginning of 1916 on the western front only."""
    s = _scn(date, front)
    assert has_hand_grenades(s, "g") is expected and has_hand_grenades(s, "f") is expected


def test_aslgw_1_6_61_ssr_override_per_side():
    """ASLGW 1.6.61 'exceptions can exist by SSR': the side's hand_grenades field wins."""
    s = _scn("1915-05-09", g={"hand_grenades": True})
    assert has_hand_grenades(s, "g") and not has_hand_grenades(s, "f")
    s2 = _scn("1917-04-16", f={"hand_grenades": False})
    assert not has_hand_grenades(s2, "f") and has_hand_grenades(s2, "g")
    st = hand_grenade_status(s2, "f")
    assert "SSR" in st.reason and st.rule == "ASLGW 1.6.61"
    assert "before 1916-01-01" in hand_grenade_status(_scn("1915-05-09"), "g").reason
    assert "eastern front" in hand_grenade_status(_scn("1916-06-04", "eastern"), "g").reason


def test_unknown_side_is_a_key_error():
    with pytest.raises(KeyError):
        has_hand_grenades(_scn("1916-01-01"), "x")


@pytest.mark.parametrize("bad,needle", [
    ({"hand_grenades": {"from": "1916", "fronts": ["western"], "rule": "r"}}, "hand_grenades.from"),
    ({"hand_grenades": {"from": "1916-01-01", "fronts": ["west"], "rule": "r"}}, "hand_grenades.fronts"),
    ({}, "no 'hand_grenades'"),
])
def test_hand_grenades_table_validated(bad, needle):
    with pytest.raises(TableError, match=needle):
        parse_hand_grenades(bad)


def test_grenades_doctests():
    assert doctest.testmod(grenades).failed == 0
