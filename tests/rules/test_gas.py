"""ASLGW 1.9 chemical warfare: protection by date and side (1.9.11-1.9.12),
the gas NTC with Table 5 (1.9.14), and every outcome (1.9.15-1.9.25)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import GasProtection, MapData, Nationality, Scenario, Side, Unit, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules import gas as g
from gwasl.rules.dice import Dice, ScriptedDice
from testsupport import source_text

SQUAD = Unit("F1", "fr", UnitKind.SQUAD, Hex(0, 0))


def scen(date, fr=None, de=None, gb=None):
    sides = {"fr": Side("fr", Nationality.FRENCH, fr), "de": Side("de", Nationality.GERMAN, de),
             "gb": Side("gb", Nationality.BRITISH, gb)}
    return Scenario("t", date, MapData(3, 3), sides)


def test_table_5_numbers_from_the_text_aslgw_1_9_14():
    doc = load_resource("gas.json")
    assert {k: v["drm"] for k, v in doc["ntc_drm"].items() if k != "rule"} == {
        "cotton_pads": 1, "irritant": 1, "chlorine": -1, "yperite": 1}
    t = g.gas_table()
    assert t.no_protection_before == dt.date(1915, 4, 22)  # 1.9.11
    assert t.allied_pads_month == (1915, 4)  # 1.9.12
    assert t.masks_from == dt.date(1915, 6, 1)  # 1.9.11
    assert t.default_when_silent is GasProtection.MASK  # 1.9.12
    assert (t.removal_mp, t.cx_at_turn_end) == (1, True)  # 1.9.15, 1.9.16
    # 1.9.23: a 2MC, a 3MC for phosgene and yperite
    assert {n: a.mc for n, a in t.agents.items()} == {
        "irritant": None, "chlorine": "2MC", "poison": "2MC", "phosgene": "3MC", "yperite": "3MC"}


SEED = source_text("seeds/004_4371414167e1669c.txt")


@pytest.mark.skipif(not SEED.exists(), reason="ASLGW source text not on this machine")
def test_table_5_against_the_source_text_aslgw_1_9_14():
    """ASLGW 1.9.14 Table 5, re-read from the text: pads +1, irritants +1, chlorine -1, yperite +1."""
    text = SEED.read_text(encoding="utf-8")
    table = text[text.index("Table 5:"): text.index("<sup>1</sup>: was easy to detect")]
    rows = dict(re.findall(r"^(.+?)\t([+-]\d+)$", table, re.M))
    key = {"Using cotton pads": "cotton_pads", "Irritants are used": "irritant", "Gas is Chlorine <sup>1</sup>": "chlorine",
           "Gas is Yperite <sup>2</sup>": "yperite"}
    doc = load_resource("gas.json")
    assert {key[k]: int(v) for k, v in rows.items()} == {k: v["drm"] for k, v in doc["ntc_drm"].items() if k != "rule"}


@pytest.mark.parametrize("mutate, needle", [
    (lambda d: d["ntc_drm"]["chlorine"].update({"drm": "minus one"}), "ntc_drm.chlorine.drm"),
    (lambda d: d["agents"]["phosgene"].update({"mc": None}), "agents.phosgene.mc"),
    (lambda d: d["protection"].update({"no_protection_before": "22 April"}), "protection.no_protection_before"),
    (lambda d: d["agents"].pop("irritant"), "irritant"),
    (lambda d: d.pop("wearing"), "'wearing'"),
])
def test_malformed_gas_table_names_the_field(mutate, needle):
    doc = load_resource("gas.json")
    mutate(doc)
    with pytest.raises(TableError, match=needle.replace(".", r"\.")):
        g.parse_gas_table(doc)


@pytest.mark.parametrize("date, side, given_, expected", [
    (dt.date(1915, 4, 21), "de", GasProtection.MASK, GasProtection.NONE),  # 1.9.11: nobody before 22 April 1915
    (dt.date(1915, 4, 21), "fr", None, GasProtection.NONE),
    (dt.date(1915, 4, 22), "fr", None, GasProtection.COTTON_PADS),  # 1.9.12 Allies in April 1915
    (dt.date(1915, 4, 22), "gb", GasProtection.MASK, GasProtection.COTTON_PADS),  # OB cannot give Allied masks in April
    (dt.date(1915, 4, 22), "de", None, GasProtection.MASK),  # 1.9.12 OB silent: a mask
    (dt.date(1915, 4, 30), "fr", GasProtection.NONE, GasProtection.NONE),  # OB says none
    (dt.date(1915, 5, 10), "fr", None, GasProtection.MASK),  # May 1915: our decision (rules-notes)
    (dt.date(1915, 5, 10), "gb", GasProtection.COTTON_PADS, GasProtection.COTTON_PADS),
    (dt.date(1915, 6, 1), "fr", None, GasProtection.MASK),  # 1.9.11 from June 1915
    (dt.date(1917, 3, 1), "de", GasProtection.NONE, GasProtection.NONE),  # SSR override
])
def test_protection_by_date_and_side_aslgw_1_9_11_1_9_12(date, side, given_, expected):
    s = scen(date, **{side: given_})
    d = g.gas_protection(s, side)
    assert d.protection is expected and d.rule.startswith("ASLGW 1.9.1")


def test_unknown_side_and_gas_are_clear_errors():
    with pytest.raises(g.GasError, match="'xx'"):
        g.gas_protection(scen(dt.date(1916, 1, 1)), "xx")
    with pytest.raises(g.GasError, match="mustard"):
        g.GasAttack.of("mustard")


def test_table_5_drms_are_cumulative_aslgw_1_9_14():
    mods = g.gas_ntc_modifiers(GasProtection.COTTON_PADS, g.GasAttack.of("irritant", "yperite"))
    assert sum(m.value for m in mods) == 3 and all("1.9.14" in m.cause for m in mods)
    assert sum(m.value for m in g.gas_ntc_modifiers(GasProtection.MASK, g.GasAttack.of("chlorine"))) == -1
    assert g.gas_ntc_modifiers(GasProtection.MASK, g.GasAttack.of("phosgene")) == ()


def test_pass_pins_and_protects_aslgw_1_9_14():
    """ASLGW 1.9.1 reaction to a gas attack, 1.9.14: a passed gas NTC pins the unit and protects it."""
    # cotton pads +1, chlorine -1: DR 4+3 = 7 final vs morale 7: passes
    o = g.resolve_gas_exposure(ScriptedDice([4, 3]), SQUAD, 7, 7, g.GasAttack.of("chlorine"), GasProtection.COTTON_PADS, True)
    assert o.ntc.roll.final == 7 and o.protected and o.pinned and not o.broken and o.mc is None


def test_fail_with_irritant_breaks_conceal_lost_dm_aslgw_1_9_21():
    o = g.resolve_gas_exposure(ScriptedDice([4, 3]), SQUAD, 7, 7, g.GasAttack.of("irritant"), GasProtection.MASK, True)
    assert o.ntc.roll.final == 8 and not o.ntc.passed
    assert (o.broken, o.concealment_lost, o.dm, o.mc, o.heat_of_battle) == (True, True, True, None, False)


@pytest.mark.parametrize("gas, severity", [("chlorine", "2MC"), ("phosgene", "3MC"), ("yperite", "3MC")])
def test_fail_with_poison_mc_and_casualty_reduction_aslgw_1_9_23(gas, severity):
    # NTC 6+5 fails; the MC (broken morale 6) 3+3 +2/+3 fails: casualty reduction
    o = g.resolve_gas_exposure(ScriptedDice([6, 5, 3, 3]), SQUAD, 7, 6, g.GasAttack.of(gas), GasProtection.MASK, True)
    assert o.broken and o.concealment_lost and o.dm
    assert o.mc.severity == severity and not o.mc.passed
    assert o.casualty_reduction.to == "half_squad"
    # a low roll passes the MC: broken, DM, but not reduced
    o = g.resolve_gas_exposure(ScriptedDice([6, 5, 1, 2]), SQUAD, 7, 6, g.GasAttack.of(gas), GasProtection.MASK, True)
    assert o.mc.passed and o.casualty_reduction is None and o.broken


def test_no_heat_of_battle_on_a_gas_mc_aslgw_1_9_25():
    o = g.resolve_gas_exposure(ScriptedDice([6, 6, 1, 1]), SQUAD, 7, 6, g.GasAttack.of("chlorine"), GasProtection.MASK, True)
    assert o.mc.roll.total == 2 and not o.mc.heat_of_battle and not o.heat_of_battle
    assert any("1.9.25" in r for r in o.mc.reasons)


def test_no_protection_means_no_ntc_and_the_gas_takes_effect():
    o = g.resolve_gas_exposure(ScriptedDice([2, 2]), SQUAD, 7, 6, g.GasAttack.of("chlorine"), GasProtection.NONE, True)
    assert o.ntc is None and o.broken and o.mc.roll.total == 4
    o = g.resolve_gas_exposure(Dice(1), SQUAD, 7, 6, g.GasAttack.of("chlorine"), GasProtection.NONE, False)
    assert o.ntc is None and not o.broken


def test_units_outside_the_area_labor_marker_aslgw_1_9_2():
    o = g.resolve_gas_exposure(ScriptedDice([6, 6]), SQUAD, 7, 6, g.GasAttack.of("chlorine"), GasProtection.MASK, False)
    assert not o.broken and o.labor_marker and o.retry_next_rally
    o = g.resolve_gas_exposure(Dice(3), SQUAD, 7, 6, g.GasAttack.of("chlorine"), GasProtection.MASK, False, los_to_area=False)
    assert o.ntc is None  # no LOS on the area: no NTC (1.9.14)
    # next rally phase: pass removes the labor marker
    o = g.rally_phase_gas_check(ScriptedDice([2, 2]), SQUAD, 7, 6, g.GasAttack.of("chlorine"), GasProtection.MASK, False)
    assert o.protected and not o.labor_marker


def test_rally_retry_in_area_irritant_and_poison_aslgw_1_9_22_1_9_24():
    broken = dataclasses.replace(SQUAD, broken=True)
    irritant = g.GasAttack.of("irritant")
    o = g.rally_phase_gas_check(ScriptedDice([2, 2]), broken, 7, 6, irritant, GasProtection.MASK, True)
    assert o.protected and o.dm and o.mc is None  # passed: still DM, no further effect
    o = g.rally_phase_gas_check(ScriptedDice([4, 4, 1, 2]), broken, 7, 6, irritant, GasProtection.MASK, True)
    assert not o.ntc.passed and o.mc.severity == "NMC" and o.mc.passed and o.dm
    o = g.rally_phase_gas_check(ScriptedDice([4, 4, 2, 2]), broken, 7, 6, g.GasAttack.of("yperite"), GasProtection.MASK, True)
    assert o.mc.severity == "3MC" and o.casualty_reduction.to == "half_squad"  # 4+3 = 7 > 6
    with pytest.raises(g.GasError):
        g.rally_phase_gas_check(Dice(1), broken, 7, 6, irritant, GasProtection.NONE, True)


def test_wearing_cx_and_removal_aslgw_1_9_15_1_9_16():
    s = g.protection_at_turn_end(g.ProtectionState("F1"))
    assert s.cx and s.worn
    r = g.remove_protection(s)
    assert r.mp_cost == 1 and not r.state.worn and r.cx_removed_at_end_of_mph
    assert not g.protection_at_turn_end(g.ProtectionState("F1", worn=False)).cx  # not worn: no CX
    with pytest.raises(g.GasError):
        g.remove_protection(r.state)


def test_mixed_attack_takes_the_poison_effects_aslgw_1_9_13():
    a = g.GasAttack.of("irritant", "chlorine")
    assert a.irritant_used and a.poison.name == "chlorine"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(["irritant", "chlorine", "phosgene", "yperite"]),
       st.sampled_from(list(GasProtection)), st.booleans(), st.integers(6, 9))
def test_every_exposure_outcome_is_consistent(seed, gas, protection, in_area, morale):
    """ASLGW 1.9: every exposure outcome is one the gas rules allow."""
    dice = Dice(seed)
    o = g.resolve_gas_exposure(dice, SQUAD, morale, morale - 1, g.GasAttack.of(gas), protection, in_area)
    assert not o.heat_of_battle  # 1.9.25
    if o.protected:
        assert o.pinned and not o.broken
    if o.broken:
        assert in_area and o.dm and o.concealment_lost
        assert (o.mc is not None) == (gas != "irritant")
    if not in_area:
        assert not o.broken and o.labor_marker == (o.ntc is not None and not o.ntc.passed)


def test_outcomes_serialise_for_the_journal():
    import json

    from gwasl.rules.morale import to_json

    o = g.resolve_gas_exposure(ScriptedDice([6, 5, 3, 3]), SQUAD, 7, 6, g.GasAttack.of("phosgene"), GasProtection.MASK, True)
    d = json.loads(json.dumps(to_json(o)))
    assert d["mc"]["severity"] == "3MC" and d["casualty_reduction"]["to"] == "half_squad"
    assert {"cause": "3MC (A10.3)", "value": 3} in d["mc"]["roll"]["modifiers"]
