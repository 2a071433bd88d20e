"""Dice: one seeded object, every roll logged with cause and modifiers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gwasl.rules.dice import Dice, DiceError, Modifier, ScriptedDice


@given(st.integers(0, 2**32))
def test_same_seed_same_rolls(seed):
    a, b = Dice(seed), Dice(seed)
    assert [a.DR("x").dice for _ in range(20)] == [b.DR("x").dice for _ in range(20)]


def test_every_roll_is_logged_with_cause_and_modifiers():
    d = Dice(1)
    r1 = d.dr("bore sight (O'Leary 6.1)")
    r2 = d.DR("NTC", {"free squad (ASLGW 1.4.13)": 1, "leader": -1})
    assert d.log == [r1, r2]
    assert [r.seq for r in d.log] == [0, 1]
    assert r2.drm == 0 and r2.final == r2.total
    assert r2.modifiers == (Modifier("free squad (ASLGW 1.4.13)", 1), Modifier("leader", -1))
    assert r2.as_json()["modifiers"][0] == {"cause": "free squad (ASLGW 1.4.13)", "value": 1}


def test_dice_values_are_on_the_die():
    d = Dice(123)
    rolls = [d.DR("x") for _ in range(600)]
    assert {v for r in rolls for v in r.dice} == {1, 2, 3, 4, 5, 6}
    assert all(len(r.dice) == 2 for r in rolls)
    assert len(d.dr("y").dice) == 1


def test_explain_shows_dice_modifiers_and_total():
    d = ScriptedDice([5, 6])
    r = d.DR("shift DR (O'Leary 2.5)", [Modifier("enemy LOS", 1)])
    assert r.explain() == "shift DR (O'Leary 2.5): 5+6 +1 (enemy LOS) = 12"
    assert not r.is_doubles and r.colored == 5


def test_scripted_dice_run_out_and_reject_bad_values():
    d = ScriptedDice([6])
    d.dr("a")
    with pytest.raises(DiceError):
        d.dr("b")
    with pytest.raises(DiceError):
        ScriptedDice([7])
