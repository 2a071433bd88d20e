"""Point Blank Fire multipliers (A7.21, A7.212) and the No HG effect (ASLGW 1.6.62)."""

from __future__ import annotations

import doctest
import json
from fractions import Fraction

import pytest

import gwasl.rules.fire as fire
from gwasl.model.scenario_io import scenario_from_text
from gwasl.model.terrain import TableError
from gwasl.rules.fire import parse_point_blank, point_blank_for, point_blank_multiplier


def test_aslgw_1_6_62_with_hand_grenades_pbf_x2_tpbf_x3():
    """A7.21/A7.212: PBF x2, TPBF x3 for units with HG."""
    assert point_blank_multiplier(1, same_location=False, has_hand_grenades=True).multiplier == 2
    assert point_blank_multiplier(0, same_location=False, has_hand_grenades=True).name == "PBF"
    t = point_blank_multiplier(0, same_location=True, has_hand_grenades=True)
    assert (t.name, t.multiplier, t.rule) == ("TPBF", 3, "A7.212")


def test_aslgw_1_6_62_without_hand_grenades_pbf_x1_5_dpbf_x2():
    """ASLGW 1.6.62: without HG, PBF is x1.5 and TPBF becomes DPBF x2."""
    p = point_blank_multiplier(1, same_location=False, has_hand_grenades=False)
    assert (p.name, p.multiplier, p.rule) == ("PBF", Fraction(3, 2), "ASLGW 1.6.62")
    d = point_blank_multiplier(0, same_location=True, has_hand_grenades=False)
    assert (d.name, d.multiplier, d.rule) == ("DPBF", 2, "ASLGW 1.6.62")
    # a 4-4-7 squad at PBF without HG: 4 x 1.5 = 6 FP
    assert 4 * p.multiplier == 6


def test_beyond_one_hex_no_multiplier():
    for hg in (True, False):
        r = point_blank_multiplier(2, same_location=False, has_hand_grenades=hg)
        assert (r.name, r.multiplier) == (None, 1)


def test_bad_ranges():
    with pytest.raises(ValueError, match="negative"):
        point_blank_multiplier(-1, same_location=False, has_hand_grenades=True)
    with pytest.raises(ValueError, match="range 0"):
        point_blank_multiplier(1, same_location=True, has_hand_grenades=True)


def test_aslgw_1_6_62_from_scenario_date():
    """ASLGW 1.6.61-1.6.62: a 1915 scenario fires DPBF, a 1916 western one TPBF."""
    def scn(date):
        return scenario_from_text(json.dumps({
            "format": "gwasl-scenario/1", "title": "t", "date": date, "map": {"columns": 3, "rows": 3},
            "sides": {"g": {"nationality": "german"}, "f": {"nationality": "french"}}, "units": []}))
    assert point_blank_for(scn("1915-09-25"), "g", 0, same_location=True).name == "DPBF"
    assert point_blank_for(scn("1916-09-25"), "g", 0, same_location=True).name == "TPBF"


def test_point_blank_table_validated():
    with pytest.raises(TableError, match="without_hand_grenades.DPBF"):
        parse_point_blank({"point_blank": {"with_hand_grenades": {"PBF": 2, "TPBF": 3}, "without_hand_grenades": {"PBF": 1.5}}})


def test_fire_doctests():
    assert doctest.testmod(fire).failed == 0
