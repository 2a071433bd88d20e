"""The classic infantry combat rules ASLGW builds on (issue 12), as pure functions:
the fire attack (A7.22, A7.23, A7.35, A7.53, A7.8, A7.9, A4.6, A8.2, A9.7, A22.3;
ASLGW 1.3, 1.6.62), Random Selection (A7.301), leader loss (A10.2), ELR (A19.13),
rally and repair (A10.6, A9.72), rout (A10.5-A10.53), snipers (A14), close combat
and HtH (A11.11, ASLGW 1.10), ambush (A11.4) and concealment gain (A12.12);
their numbers in gwasl/resources/infantry_combat.json, validated at load."""

from __future__ import annotations

import copy
import datetime
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HexData, MapData, Nationality, Position, Scenario, Side, Terrain, Unit, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.close_combat import (
    AmbushSide,
    CCAttack,
    CCKind,
    ambush_distribution,
    ambush_modifiers,
    ambush_outcome,
    cc_attack_outcome,
    cc_pair_distribution,
    cc_unit_fp,
)
from gwasl.rules.combat_table import combat_table, parse_combat_table
from gwasl.rules.concealment import concealment_terrain, gains_concealment
from gwasl.rules.dice import Modifier, ScriptedDice, random_selection
from gwasl.rules.fire import (
    FireAttack,
    FireError,
    FirePart,
    attack_outcome,
    fire_distribution,
    fire_leadership,
    fire_part,
    first_fire_modifiers,
    point_blank_multiplier,
    residual_fp,
    resolve_fire,
)
from gwasl.rules.ift import ift_result, two_dice
from gwasl.rules.morale import elr_failure, leader_loss_modifier
from gwasl.rules.rally import rally_distribution, rally_modifiers, rally_outcome, repair_distribution, repair_outcome
from gwasl.rules.rout import Threat, interdictions, must_rout, rout_destinations
from gwasl.rules.sniper import gas_releases, side_elr, side_san, sniper_activated, sniper_effect
from gwasl.rules.validate import validate_scenario


def scen(cols: int = 8, rows: int = 8, hexes: dict[str, Terrain] | None = None, **side_extra: object) -> Scenario:
    hx = {Hex.from_label(k): HexData(v) for k, v in (hexes or {}).items()}
    return Scenario("t", datetime.date(1916, 7, 1), MapData(cols, rows, hexes=hx),
                    {"a": Side("a", Nationality.GERMAN, extra=dict(side_extra)), "b": Side("b", Nationality.FRENCH)})


# ---------------------------------------------------------------------------
# The table


def test_the_infantry_combat_table_loads_with_a_rule_per_section():
    t = combat_table()
    assert t.fire.long_range_multiple == 2 and t.fire.long_range_fp == Fraction(1, 2)
    assert all(t.rules[s] for s in t.rules)
    assert t.rally.terrain_drm[Terrain.WOODS] == -1 and Position.DEEP_TRENCH in t.rout.refuge_positions


@pytest.mark.parametrize(("path", "value", "message"), [
    (("fire", "long_range_fp"), 3, "fire.long_range_fp"),
    (("fire", "rule"), "", "fire: missing 'rule'"),
    (("sniper", "effects"), {"7": "pin"}, "sniper.effects.7"),
    (("rally", "terrain_drm"), {"lava": -1}, "rally.terrain_drm"),
    (("rout", "refuge_positions"), ["attic"], "rout.refuge_positions"),
    (("elr", "default"), 9, "elr.default"),
])
def test_a_broken_infantry_combat_table_is_refused_naming_the_entry(path, value, message):
    doc = copy.deepcopy(load_resource("infantry_combat.json"))
    doc[path[0]][path[1]] = value
    with pytest.raises(TableError, match=message.replace(".", r"\.").replace("(", r"\(")):
        parse_combat_table(doc)


# ---------------------------------------------------------------------------
# The fire attack


def test_long_range_halves_fp_and_twice_the_range_is_the_limit_a7_22():
    assert fire_part("s", "inherent", 4, range_hexes=4, normal_range=4).fp == 4
    assert fire_part("s", "inherent", 4, range_hexes=8, normal_range=4).fp == 2
    with pytest.raises(FireError, match="A7.22"):
        fire_part("s", "inherent", 4, range_hexes=9, normal_range=4)
    # a flamethrower's long range is its table's (ASLGW 1.6.41): the Wex reaches 2, halved
    assert fire_part("ft", "ft", 16, range_hexes=2, normal_range=1, max_range=2).fp == 8


def test_pinned_firers_fire_at_half_fp_a7_8_and_pbf_without_grenades_aslgw_1_6_62():
    pb = point_blank_multiplier(1, same_location=False, has_hand_grenades=False)
    p = fire_part("s", "inherent", 4, range_hexes=1, normal_range=4, point_blank=pb, pinned=True)
    assert p.fp == 3 and [r for r, _ in p.factors] == ["PBF (ASLGW 1.6.62)", "pinned (A7.8)"]
    tp = point_blank_multiplier(0, same_location=True, has_hand_grenades=True)
    assert fire_part("s", "inherent", 4, range_hexes=0, normal_range=4, point_blank=tp).fp == 12


def test_leadership_applies_only_when_every_firing_location_has_a_leader_aslgw_1_3():
    """ASLGW 1.3: a leader's leadership counts only for the units stacked with him; a
    fire group over two locations gets it only with a leader in each (A7.53: the worst)."""
    assert fire_leadership([-2]) == -2
    assert fire_leadership([-2, -1]) == -1
    assert fire_leadership([-2, None]) is None


def test_ffmo_and_ffnam_a4_6():
    mods = first_fire_modifiers(open_ground=True, hindered=False, assault_move=False)
    assert [m.value for m in mods] == [-1, -1] and "FFMO" in mods[0].cause and "FFNAM" in mods[1].cause
    assert first_fire_modifiers(open_ground=False, hindered=False, assault_move=True) == ()


def _attack(fp: int = 6, drm: int = 0, **part: object) -> FireAttack:
    return FireAttack((FirePart("w", "mg", Fraction(fp), (), **part),), (Modifier("TEM", drm),) if drm else ())  # type: ignore[arg-type]


def test_rate_of_fire_breakdown_and_flamethrower_x_a7_35_a9_7_a22_3():
    a = _attack(6, rof=2, breakdown=11)
    assert attack_outcome(a, (2, 5)).rof_kept == ("w",)
    assert attack_outcome(a, (3, 1)).rof_kept == ()
    o = attack_outcome(a, (5, 6))
    assert o.malfunctioned == ("w",) and o.rof_kept == () and "malfunctions (A9.7)" in o.label
    ft = _attack(12, x=9)
    assert attack_outcome(ft, (4, 5)).eliminated == ("w",) and attack_outcome(ft, (4, 4)).eliminated == ()


def test_original_doubles_cower_unless_a_leader_directs_a7_9():
    a = _attack(8)
    assert attack_outcome(a, (3, 3)).result("target") == ift_result(6, 6)  # one column left
    directed = FireAttack(a.parts, a.modifiers, cowers=False)
    assert attack_outcome(directed, (3, 3)).result("target") == ift_result(8, 6)


def test_area_fire_halves_the_fp_against_a_concealed_group_a7_23():
    a = FireAttack((FirePart("s", "inherent", Fraction(8)),), (), (("units", Fraction(1)), ('"?"', Fraction(1, 2))))
    o = attack_outcome(a, (2, 3))
    assert o.result("units") == ift_result(8, 5) and o.result('"?"') == ift_result(4, 5)
    assert o.label == f'units: {ift_result(8, 5).text}; "?": {ift_result(4, 5).text}'


def test_the_odds_are_the_36_outcomes_of_the_same_function_that_resolves_the_roll():
    a = _attack(12, drm=2, rof=2, breakdown=11)
    dist = fire_distribution(a)
    assert sum(dist.values()) == 1
    counted: dict[str, Fraction] = {}
    for d in two_dice():
        lab = attack_outcome(a, d).label
        counted[lab] = counted.get(lab, Fraction(0)) + Fraction(1, 36)
    assert counted == dist
    roll, out = resolve_fire(ScriptedDice([6, 5]), a, "fire")
    assert out == attack_outcome(a, (6, 5)) and roll.final == 13


@given(st.integers(1, 40), st.integers(1, 40), st.integers(-4, 6))
def test_more_fp_is_never_better_for_the_target_property(a, b, drm):
    lo, hi = sorted((a, b))
    for d in two_dice():
        assert attack_outcome(_attack(hi, drm), d).result("target").severity >= attack_outcome(_attack(lo, drm), d).result("target").severity


@given(st.integers(1, 40), st.integers(-4, 6))
def test_a_higher_drm_is_never_worse_for_the_target_property(fp, drm):
    for d in two_dice():
        assert attack_outcome(_attack(fp, drm), d).result("target").severity >= attack_outcome(_attack(fp, drm + 1), d).result("target").severity


def test_residual_fp_is_half_the_column_a8_2():
    assert residual_fp(12) == 6 and residual_fp(16) == 8 and residual_fp(4) == 2 and residual_fp(1) is None


# ---------------------------------------------------------------------------
# Results


def test_random_selection_takes_the_highest_dr_and_rerolls_ties_a7_301():
    sel, rolls = random_selection(ScriptedDice([6, 2, 6, 3, 5]), ["a", "b", "c"], "K/1")
    assert sel == "c" and [r.total for r in rolls] == [6, 2, 6, 3, 5]


def test_leader_loss_and_elr_a10_2_a19_13():
    assert leader_loss_modifier(-1, "L").value == 1 and "A10.2" in leader_loss_modifier(-1, "L").cause
    assert leader_loss_modifier(0, "L").value == 0
    assert elr_failure(11, 7, 3) and not elr_failure(10, 7, 3)


# ---------------------------------------------------------------------------
# Rally and repair


def test_rally_drms_a10_6_a10_61_a10_62():
    mods = rally_modifiers(dm=True, leader_modifier=-2, self_rally_mmc=False, terrain=Terrain.OPEN, in_fortification=True)
    assert [m.value for m in mods] == [4, -2, -1]
    mods = rally_modifiers(dm=False, leader_modifier=None, self_rally_mmc=True, terrain=Terrain.STONE_BUILDING,
                           in_fortification=True)
    assert [m.value for m in mods] == [1, -1]  # building and fortification do not add


def test_rally_outcomes_and_their_odds_a10_61():
    assert rally_outcome((4, 3), morale=7, drm=0) == "rallied"
    assert rally_outcome((4, 4), morale=7, drm=0) == "failed"
    assert rally_outcome((6, 6), morale=10, drm=-4) == "casualty_reduction"
    d = rally_distribution(8, 0)
    assert sum(d.values()) == 1 and d["casualty_reduction"] == Fraction(1, 36) and d["rallied"] == Fraction(26, 36)


def test_repair_a9_72():
    assert [repair_outcome(r, 2) for r in range(1, 7)] == ["repaired"] * 2 + ["still malfunctioned"] * 3 + ["eliminated"]
    assert sum(repair_distribution(3).values()) == 1


# ---------------------------------------------------------------------------
# Rout


def test_a_broken_unit_next_to_a_known_enemy_or_in_open_ground_in_its_los_must_rout_a10_5():
    s = scen()
    u = Unit("u", "a", UnitKind.SQUAD, Hex.from_label("D4"), broken=True)
    assert "ADJACENT" in must_rout(s, u, [Threat(Hex.from_label("D5"), Position.GROUND, 4)], lambda *a: True)
    assert "Open Ground" in must_rout(s, u, [Threat(Hex.from_label("D7"), Position.GROUND, 4)], lambda *a: True)
    assert must_rout(s, u, [Threat(Hex.from_label("D7"), Position.GROUND, 2)], lambda *a: True) is None
    assert must_rout(s, u, [Threat(Hex.from_label("D7"), Position.GROUND, 4)], lambda *a: False) is None


def test_rout_goes_to_the_nearest_woods_not_closer_to_the_enemy_never_adjacent_to_it_a10_5_a10_51():
    s = scen(hexes={"D2": Terrain.WOODS, "F5": Terrain.WOODS, "B4": Terrain.WOODS})
    u = Unit("u", "a", UnitKind.SQUAD, Hex.from_label("D4"), broken=True)
    threats = [Threat(Hex.from_label("E5"), Position.GROUND, 4)]
    dests = rout_destinations(s, u, threats, 4)
    full = [d for d in dests if not d.low_crawl]
    # F5 is adjacent to the enemy; D2 and B4 are woods 2 MF + ... away; the nearest refuges only
    assert {d.hex.label for d in full} <= {"D2", "B4"} and full
    assert all(d.refuge for d in full)
    assert all(Hex.from_label(lab) not in Hex.from_label("E5").neighbours() for d in full for lab in [h.label for h, _ in d.path])
    crawl = [d for d in dests if d.low_crawl]
    assert crawl and all(len(d.path) == 1 for d in crawl)
    # entrenchments are refuges too in ASLGW (deep trenches, dugouts...)
    assert Position.TRENCH in combat_table().rout.refuge_positions


def test_interdiction_in_open_ground_in_enemy_los_and_normal_range_a10_53():
    s = scen(hexes={"A4": Terrain.WOODS})
    u = Unit("u", "a", UnitKind.SQUAD, Hex.from_label("D4"), broken=True)
    threats = [Threat(Hex.from_label("G4"), Position.GROUND, 4)]
    dest = next(d for d in rout_destinations(s, u, threats, 4) if not d.low_crawl)
    got = interdictions(s, dest, threats, lambda *a: True)
    assert got and all(t == Hex.from_label("G4") for _, t in got)
    assert interdictions(s, dest, threats, lambda *a: False) == ()


# ---------------------------------------------------------------------------
# Snipers, SAN and ELR, gas releases


def test_sniper_activation_and_effects_a14():
    assert sniper_activated(4, 4) and not sniper_activated(5, 4) and not sniper_activated(0, 0)
    assert sniper_effect(1) == "casualty_reduction" and sniper_effect(2) == "pin" and sniper_effect(3) is None


def test_san_and_elr_come_from_the_scenario_card_or_the_defaults_a14_1_a19_12():
    from dataclasses import replace

    s = replace(scen(), extra={"game": {"san": {"a": 4}, "elr": {"a": 1}}})
    assert side_san(s, "a") == 4 and side_elr(s, "a") == 1
    assert side_san(s, "b") == combat_table().sniper.default_san and side_elr(s, "b") == combat_table().elr_default


def test_a_malformed_gas_release_is_a_validation_error_naming_the_field_aslgw_1_9():
    s = scen(gas=[{"agents": ["mustard"], "hexes": ["A1"]}, {"agents": ["chlorine"], "hexes": ["Z9"]}])
    msgs = {f.path: f.message for f in validate_scenario(s).errors}
    assert "mustard" in msgs["$.sides.a.gas[0]"] and "outside the map" in msgs["$.sides.a.gas[1]"]
    ok = scen(gas=[{"agents": ["irritant", "phosgene"], "hexes": ["C3", "C4"], "turn": 2, "turns": 1}])
    (r,) = gas_releases(ok, "a")
    assert r.turn == 2 and r.turns == 1 and r.attack.poison is not None and r.attack.irritant_used


# ---------------------------------------------------------------------------
# Close combat, HtH, ambush


def test_cc_fp_of_smc_and_pinned_units_a11_12_a7_8():
    assert cc_unit_fp(4, smc=False, pinned=False) == 4 and cc_unit_fp(4, smc=False, pinned=True) == 2
    assert cc_unit_fp(0, smc=True, pinned=False) == 1


def test_hand_to_hand_reads_the_cct_hth_kill_numbers_a11_11_j2_31_aslgw_1_10():
    """ASLGW 1.10: HtH between units in one location; the published CCT (A11.11) gives
    1-1 a Kill Number of 5 in CC and 7 in Hand-to-Hand (J2.31, the chart's red number):
    below it eliminates, equal to it reduces.  Beyond the printed columns: <1-8 kills
    on 0 (HtH 2), >10-1 on 13 (HtH 15)."""
    cc = CCAttack(Fraction(4), Fraction(4), CCKind.NORMAL)
    hth = CCAttack(Fraction(4), Fraction(4), CCKind.HTH)
    assert [cc_attack_outcome(cc, d) for d in (4, 5, 6)] == ["eliminated", "casualty_reduction", "none"]
    assert [cc_attack_outcome(hth, d) for d in (6, 7, 8)] == ["eliminated", "casualty_reduction", "none"]
    assert CCAttack(Fraction(1), Fraction(9), CCKind.HTH).kill_number == 2
    assert CCAttack(Fraction(11), Fraction(1), CCKind.HTH).kill_number == 15
    assert CCAttack(Fraction(10), Fraction(1), CCKind.HTH).kill_number == 14
    french = CCAttack(Fraction(4), Fraction(4), CCKind.HTH, (Modifier("French HtH (ASLGW 1.11.2)", -1),))
    assert cc_attack_outcome(french, 7) == "eliminated"


def test_cc_pair_distribution_simultaneous_and_sequential_a11_11_a11_4():
    a = CCAttack(Fraction(4), Fraction(8), CCKind.NORMAL)
    b = CCAttack(Fraction(8), Fraction(4), CCKind.NORMAL)
    sim = cc_pair_distribution(a, b)
    assert sum(sim.values()) == 1
    # sequential: if the ambusher eliminates the defenders there is no reply
    seq = cc_pair_distribution(b, {"eliminated": None, "casualty_reduction": a, "none": a})
    assert sum(seq.values()) == 1
    assert not any(k[0] == "eliminated" and k[1] != "none" for k in seq)


def test_ambush_a11_4():
    mods = ambush_modifiers(concealed=True, cx=True, pinned=False, lax=False, leader_modifier=None)
    assert [m.value for m in mods] == [-1, 1]
    assert ambush_outcome(1, 4, "a", "b") == "a" and ambush_outcome(3, 5, "a", "b") is None
    d = ambush_distribution(AmbushSide("a", (Modifier("c", -1),)), AmbushSide("b", ()))
    assert sum(d.values()) == 1 and d["a ambushes"] > d["b ambushes"]


# ---------------------------------------------------------------------------
# Concealment gain


def test_concealment_gain_needs_concealment_terrain_and_no_known_enemy_los_a12_12():
    s = scen(hexes={"C3": Terrain.WOODS})
    u = Unit("u", "a", UnitKind.SQUAD, Hex.from_label("C3"))
    assert gains_concealment(s, u, broken=False, in_melee=False, seen=False).lost
    assert not gains_concealment(s, u, broken=False, in_melee=False, seen=True).lost
    assert not gains_concealment(s, u, broken=True, in_melee=False, seen=False).lost
    assert not gains_concealment(s, u, broken=False, in_melee=True, seen=False).lost
    open_u = Unit("o", "a", UnitKind.SQUAD, Hex.from_label("D4"))
    assert not gains_concealment(s, open_u, broken=False, in_melee=False, seen=False).lost
    assert concealment_terrain(s, Hex.from_label("D4"), Position.TRENCH)


def test_every_new_rule_function_cites_its_rule():
    """Each public function of the rule modules issue 12 added or extended names the rule it implements."""
    import importlib
    import inspect
    import re

    cite = re.compile(r"ASLGW \d|\b[AB]\d+(\.\d+)*\b|ASL Index|O'Leary")
    missing = []
    for name in ("fire", "rally", "rout", "sniper", "close_combat", "combat_table"):
        mod = importlib.import_module(f"gwasl.rules.{name}")
        for attr in mod.__all__:
            obj = getattr(mod, attr)
            if inspect.isfunction(obj) and not attr.startswith("parse_") and attr != "combat_table" and not cite.search(obj.__doc__ or ""):
                missing.append(f"{name}.{attr}")
    assert not missing


def test_the_cc_pair_distribution_is_all_1296_dr_pairs_a11_11():
    """The exact odds count each of the 36 x 36 DR pairs once (summed by total for speed)."""
    a = CCAttack(Fraction(5), Fraction(4), CCKind.HTH, (Modifier("French HtH", -1),))
    b = CCAttack(Fraction(2), Fraction(5), CCKind.NORMAL)
    brute: dict[tuple[str, str], Fraction] = {}
    for d1 in two_dice():
        for d2 in two_dice():
            k = (cc_attack_outcome(a, d1[0] + d1[1]), cc_attack_outcome(b, d2[0] + d2[1]))
            brute[k] = brute.get(k, Fraction(0)) + Fraction(1, 1296)
    assert cc_pair_distribution(a, b) == brute
