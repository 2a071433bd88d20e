"""Classic ASL mechanisms ASLGW relies on (NTC, PTC, MC, pin, casualty
reduction, Heat of Battle, CX, DM, stacking), their numbers in
gwasl/resources/asl_core.json."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwasl.model.terrain import TableError, load_resource
from gwasl.rules import morale as m
from gwasl.rules.dice import Dice, Modifier, ScriptedDice


def test_asl_core_numbers_are_the_classic_ones():
    c = m.asl_core()
    assert dict(c.severity) == {"NMC": 0, "1MC": 1, "2MC": 2, "3MC": 3, "4MC": 4, "5MC": 5}  # A10.3
    assert (c.cr_original_dr, c.hob_original_dr) == (12, 2)  # A10.31, A15.1
    assert (c.cx_attack_drm, c.double_time_mf, c.dm_rally_drm) == (1, 2, 4)  # A4.51, A4.5, A10.62
    assert (c.stacking_squads, c.stacking_smc) == (3, 4)  # A5.1
    assert (c.entrenchment_change_mf, c.human_wave_mf) == (1, 8)  # B27.41, A25.231
    assert c.squad_equivalent["half_squad"] == c.squad_equivalent["crew"] == 0.5
    assert c.ptc_pins and not c.ntc_pins


def test_ntc_passes_when_final_dr_at_most_morale_aslgw_1_4_13():
    # ASLGW 1.4.13: a free squad's movement NTC has +1 DRM
    r = m.normal_task_check(ScriptedDice([3, 3]), 7, {"free squad (ASLGW 1.4.13)": 1})
    assert r.roll.final == 7 and r.passed and not r.pinned
    r = m.normal_task_check(ScriptedDice([4, 3]), 7, {"free squad (ASLGW 1.4.13)": 1})
    assert not r.passed and not r.pinned  # a failed NTC does not pin by itself
    assert "failed" in r.reasons[0]


def test_ptc_failure_pins_a7_8():
    r = m.pin_task_check(ScriptedDice([6, 3]), 8)
    assert not r.passed and r.pinned
    assert m.pin_task_check(ScriptedDice([5, 3]), 8).pinned is False


def test_mc_severity_adds_its_drm_a10_3():
    r = m.morale_check(ScriptedDice([2, 3]), "squad", 7, severity="2MC")
    assert r.roll.final == 7 and r.passed and r.pinned  # final DR = ML: pinned (A7.8)
    assert r.roll.modifiers[0].value == 2 and "2MC" in r.roll.modifiers[0].cause


def test_mc_failure_breaks_good_order_and_reduces_broken():
    r = m.morale_check(ScriptedDice([5, 4]), "squad", 7, severity="1MC")
    assert r.broke and r.casualty_reduction is None
    r = m.morale_check(ScriptedDice([5, 4]), "squad", 7, broken=True, severity="1MC")
    assert not r.broke and r.casualty_reduction.to == "half_squad"


def test_original_12_fails_breaks_and_reduces_good_order_eliminates_broken_a10_31():
    r = m.morale_check(ScriptedDice([6, 6]), "squad", 10, modifiers={"leader": -3})
    assert not r.passed and r.broke and r.casualty_reduction.to == "half_squad" and not r.eliminated
    r = m.morale_check(ScriptedDice([6, 6]), "squad", 10, broken=True, modifiers={"leader": -3})
    assert not r.passed and not r.broke and r.eliminated and r.casualty_reduction.rule == "A10.31"


def test_heroes_and_crews_have_no_heat_of_battle_a15_1():
    for kind in ("hero", "crew"):
        r = m.morale_check(ScriptedDice([1, 1]), kind, 8)
        assert not r.heat_of_battle and any("A15.1" in w for w in r.reasons)


def test_pin_immunity_names_its_rule_aslgw_1_5():
    r = m.morale_check(ScriptedDice([4, 4]), "squad", 8, pin_immune="BCh unit (ASLGW 1.5)")
    assert r.passed and not r.pinned and any("ASLGW 1.5" in w for w in r.reasons)


def test_heat_of_battle_on_original_2_and_its_exemption_aslgw_1_9_25():
    r = m.morale_check(ScriptedDice([1, 1]), "squad", 7)
    assert r.heat_of_battle
    r = m.morale_check(ScriptedDice([1, 1]), "squad", 7, hob_exemption="gas MC (ASLGW 1.9.25)")
    assert not r.heat_of_battle and any("1.9.25" in w for w in r.reasons)
    assert not m.morale_check(ScriptedDice([1, 2]), "squad", 7).heat_of_battle


def test_casualty_reduction_steps_a7_302():
    assert [m.casualty_reduction(k).to for k in ("squad", "half_squad", "crew", "leader", "hero")] == [
        "half_squad", "eliminated", "eliminated", "wounded", "wounded"]
    assert m.casualty_reduction("leader", wounded=True).eliminated
    with pytest.raises(ValueError):
        m.casualty_reduction("support_weapon")


def test_cx_and_dm_modifiers():
    assert m.cx_attack_modifier(False) is None and m.cx_attack_modifier(True).value == 1
    assert m.dm_rally_modifier(False) is None and m.dm_rally_modifier(True) == Modifier("DM (A10.62)", 4)


def test_unknown_severity_is_a_clear_error():
    with pytest.raises(ValueError, match="severity"):
        m.morale_check(Dice(1), "squad", 7, severity="7MC")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**31), st.integers(5, 10), st.sampled_from(["NMC", "1MC", "2MC", "3MC"]), st.booleans(),
       st.integers(-3, 3))
def test_mc_outcome_is_consistent(seed, morale, sev, broken, drm):
    """A10.3: pass iff final <= ML and not an original 12; failures break or reduce."""
    dice = Dice(seed)
    r = m.morale_check(dice, "squad", morale, broken=broken, severity=sev, modifiers={"x": drm})
    assert dice.log[-1] is r.roll
    assert r.roll.final == r.roll.total + m.severity_drm(sev) + drm
    assert r.passed == (r.roll.final <= morale and r.roll.total != 12)
    if r.passed:
        assert not r.broke and r.casualty_reduction is None
        assert r.pinned == (not broken and r.roll.final == morale)
    else:
        assert r.broke != broken
        assert (r.casualty_reduction is not None) == (broken or r.roll.total == 12)
        assert r.eliminated == (broken and r.roll.total == 12)
    assert r.heat_of_battle == (r.roll.total == 2)


@pytest.mark.parametrize(
    "mutate, needle",
    [
        (lambda d: d.pop("cx"), "'cx'"),
        (lambda d: d["morale_check"]["severity_drm"].update({"2MC": "two"}), "severity_drm.2MC"),
        (lambda d: d["casualty_reduction"].update({"squad": "ghost"}), "casualty_reduction.squad"),
        (lambda d: d["stacking"]["squad_equivalent"].pop("crew"), "squad_equivalent.crew"),
        (lambda d: d["heat_of_battle"].update({"trigger_original_dr": True}), "heat_of_battle.trigger_original_dr"),
        (lambda d: d["heat_of_battle"].update({"exempt_kinds": ["ghost"]}), "heat_of_battle.exempt_kinds"),
        (lambda d: d["morale_check"].update({"original_12_on_broken_unit": "vanish"}), "original_12_on_broken_unit"),
        (lambda d: d["human_wave"].update({"mf": "eight"}), "human_wave.mf"),
        (lambda d: d.pop("entrenchment"), "'entrenchment'"),
    ],
)
def test_malformed_asl_core_names_entry_and_field(mutate, needle):
    doc = load_resource("asl_core.json")
    mutate(doc)
    with pytest.raises(TableError, match=needle.replace(".", r"\.")):
        m.parse_asl_core(doc)
