"""The classic IFT (A7.3), cowering (A7.9) and CCT (A11.11), as data checked at load."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.ift import (
    CCOdds,
    IftResult,
    cc_distribution,
    cc_result,
    cct_odds,
    cowering_shift,
    fire_tables,
    ift_column,
    ift_distribution,
    ift_result,
    parse_fire_tables,
)

COLUMNS = (1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36)


def test_ift_has_the_classic_columns_and_rows():
    t = fire_tables()
    assert t.columns == COLUMNS and t.last_dr == 15


@pytest.mark.parametrize("col", COLUMNS)
def test_ift_follows_the_published_scheme_column_by_column(col):
    """A7.3: the 8 column's MC results shift one DR per column; the K/# DR of each
    column; one more KIA per DR below it (the public memorisation scheme)."""
    shift = dict(zip(COLUMNS, (4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6), strict=True))[col]
    k_dr = {1: 1, 2: 2, 4: 2, 6: 3, 8: 3, 12: 3, 16: 4, 20: 4, 24: 5, 30: 6, 36: 7}[col]
    k_n = 1 if col <= 2 else 2 if col <= 8 else 3 if col <= 16 else 4
    mc8 = {2: "4MC", 3: "3MC", 4: "2MC", 5: "2MC", 6: "1MC", 7: "1MC", 8: "NMC", 9: "PTC"}
    for dr in range(0, 16):
        expect = (f"{k_dr - dr}KIA" if dr < k_dr else f"K/{k_n}" if dr == k_dr
                  else mc8.get(dr + shift, "4MC" if dr + shift < 2 else "-"))
        assert ift_result(col, dr).text == expect, (col, dr)


@pytest.mark.parametrize(("fp", "dr", "text"), [
    (8, 3, "K/2"), (8, 2, "1KIA"), (8, 9, "PTC"), (8, 10, "-"), (4, 7, "PTC"), (12, 4, "3MC"),
    (36, 0, "7KIA"), (36, -3, "7KIA"), (36, 16, "-"), (1, 0, "1KIA"), (Fraction(3, 2), 1, "K/1"),
])
def test_ift_cells(fp, dr, text):
    assert ift_result(fp, dr).text == text


@given(st.integers(1, 60), st.integers(1, 60), st.integers(-3, 18))
def test_more_fp_is_never_better_for_the_target(a, b, dr):
    lo, hi = sorted((a, b))
    assert ift_result(hi, dr).severity >= ift_result(lo, dr).severity


@given(st.integers(1, 60), st.integers(-3, 18))
def test_a_lower_dr_is_never_better_for_the_target(fp, dr):
    assert ift_result(fp, dr - 1).severity >= ift_result(fp, dr).severity


def test_less_than_one_fp_has_no_column():
    assert ift_column(Fraction(1, 2)) is None and ift_result(Fraction(1, 2), 0) == IftResult("none")


def test_cowering_a7_9():
    assert cowering_shift((3, 3), leader_directed=False) == 1
    assert cowering_shift((3, 3), leader_directed=False, inexperienced=True) == 2
    assert cowering_shift((3, 3), leader_directed=True) == 0
    assert cowering_shift((3, 4), leader_directed=False) == 0
    assert cowering_shift((1, 1), leader_directed=False, exempt=True) == 0
    assert ift_column(4, shift=1) == 2 and ift_column(1, shift=1) is None


def test_ift_distribution_is_exact_and_counts_cowering():
    d = ift_distribution(8, 0)
    assert sum(d.values()) == 1
    # DR 3 on the 8 column is K/2; 1+1 cowers to the 6 column, where DR 2 is 1KIA as on the 8
    assert d[IftResult("K", 2)] == Fraction(2, 36)  # (1,2) and (2,1)
    assert d[IftResult("KIA", 1)] == Fraction(1, 36)  # (1,1) cowers to the 6 column: DR 2 is 1KIA there too
    no_cower = ift_distribution(8, 0, leader_directed=True)
    assert no_cower[IftResult("KIA", 1)] == Fraction(1, 36) and sum(no_cower.values()) == 1


def test_cct_odds_round_down_in_the_defenders_favour_a11_11():
    """The published CCT (A11.11): 1-1 kills on 5 (HtH 7), 3-2 on 6, 2-1 on 7; there is
    no 1-3 column (1-3 odds read the 1-4 column); exactly 10-1 is 12, beyond it 13."""
    assert cct_odds(6, 4).kill_number == 6  # 1.5 -> 3-2
    assert cct_odds(5, 4).kill_number == 5  # 1.25 -> 1-1
    assert cct_odds(4, 4) == CCOdds("1-1", 5, 7)
    assert cct_odds(2, 1).kill_number == 7
    assert cct_odds(1, 3) == CCOdds("1-4", 3, 5)  # no 1-3 column on the chart
    assert cct_odds(10, 1) == CCOdds("10-1", 12, 14)
    assert cct_odds(100, 1).kill_number == 13 and cct_odds(100, 1).column == ">10-1"
    assert cct_odds(1, 9).kill_number == 0  # below 1-8
    with pytest.raises(ValueError):
        cct_odds(4, 0)


def test_cc_result_and_distribution():
    assert [cc_result(7, dr) for dr in (2, 6, 7, 8, 12)] == ["eliminated", "eliminated", "casualty_reduction", "none", "none"]
    d = cc_distribution(7, 0)
    assert d == {"eliminated": Fraction(15, 36), "casualty_reduction": Fraction(6, 36), "none": Fraction(15, 36)}


@pytest.mark.parametrize(("path", "value", "message"), [
    (("ift", "columns"), [8, 4], "ascending"),
    (("ift", "results", "8"), "3KIA 2KIA", "expected 16 results"),
    (("ift", "results", "8"), "X " * 16, "not an IFT result"),
    (("cct", "kill_numbers"), [1, 2], "equal length"),
    (("cct", "hth_kill_numbers"), list(range(1, 13)), "HtH Kill Number is above the CC one"),
    (("cct", "above_highest"), 12, "must extend the table"),
    (("cowering",), None, "needs"),
])
def test_a_broken_table_is_refused_with_its_entry(path, value, message):
    doc = copy.deepcopy(load_resource("fire_tables.json"))
    target = doc
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    with pytest.raises(TableError, match=message):
        parse_fire_tables(json.loads(json.dumps(doc)))
