"""ASLGW 1.1-1.4 organisation: platoons, half-platoons, combat groups, formation,
MF allowance, free squads, recombining, leaderless and entrenched platoons."""

from __future__ import annotations

import doctest
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gwasl.rules.organisation as org
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Unit, UnitClass, UnitKind
from gwasl.model.scenario_io import load_scenario, scenario_from_text
from gwasl.model.terrain import TableError
from gwasl.rules.organisation import (
    active_members,
    combat_group_problems,
    composition_problems,
    formation_gaps,
    formation_size,
    free_squad_ntc,
    half_platoon_conversions_allowed,
    is_leaderless,
    mf_allowance,
    parse_organisation,
    recombine_problems,
    setup_formation_gaps,
    squad_equivalents,
    unit_mf_allowance,
    uses_platoon_movement,
)
from testsupport import EXAMPLE_PATH

H = Hex.from_label
EXAMPLE = EXAMPLE_PATH


def scn(units, formations, date="1916-02-21", ssr=None, nat_a="german"):
    doc = {"format": "gwasl-scenario/1", "title": "t", "date": date, "map": {"columns": 12, "rows": 10},
           "sides": {"a": {"nationality": nat_a}, "b": {"nationality": "french"}}, "units": units, "formations": formations}
    if ssr is not None:
        doc["ssr"] = ssr
    return scenario_from_text(json.dumps(doc))


def sq(uid, hexlabel, cls="first_line", platoon="P", side="a", **kw):
    d = {"id": uid, "side": side, "kind": "squad", "class": cls, "hex": hexlabel, "platoon": platoon, **kw}
    return {k: v for k, v in d.items() if v is not None}


def leader(uid, hexlabel, platoon="P", side="a", **kw):
    d = {"id": uid, "side": side, "kind": "leader", "rating": "8-0", "hex": hexlabel, "platoon": platoon, **kw}
    return {k: v for k, v in d.items() if v is not None}


def test_aslgw_1_1_sizes():
    """ASLGW 1.1: platoon 6 squads, half-platoon 3; 1.2.1: combat group 2."""
    assert (formation_size("platoon"), formation_size("half_platoon"), formation_size("combat_group")) == (6, 3, 2)


def test_aslgw_1_1_composition_one_type_and_at_most_six():
    """ASLGW 1.1: 6 squads of the same type; 1.3: a leader controls up to 6 squads."""
    units = [sq(f"s{i}", "C2") for i in range(6)] + [leader("L", "C2")]
    s = scn(units, [{"id": "P", "kind": "platoon", "leader": "L"}])
    assert composition_problems(s, s.formations[0]) == ()
    s7 = scn(units + [sq("s7", "C3")], [{"id": "P", "kind": "platoon", "leader": "L"}])
    msgs = [v.rule + " " + v.message for v in composition_problems(s7, s7.formations[0])]
    assert any("ASLGW 1.1" in m and "7 squads; at most 6" in m for m in msgs)
    assert any("ASLGW 1.3" in m for m in msgs)
    mixed = scn([sq("s1", "C2"), sq("s2", "C2", cls="elite")], [{"id": "P", "kind": "half_platoon"}])
    (v,) = composition_problems(mixed, mixed.formations[0])
    assert v.rule == "ASLGW 1.1" and "elite, first_line" in v.message
    crew = scn([sq("s1", "C2"), {"id": "c", "side": "a", "kind": "crew", "hex": "C2", "platoon": "P"}], [{"id": "P", "kind": "platoon"}])
    assert [v.unit_id for v in composition_problems(crew, crew.formations[0])] == ["c"]
    half = scn([sq(f"s{i}", "C2") for i in range(4)], [{"id": "P", "kind": "half_platoon"}])
    assert "at most 3" in composition_problems(half, half.formations[0])[0].message


def test_half_squads_count_half():
    """ASLGW 1.1 with A1.3: a half-squad is half a squad; 6 squads + 1 HS is too many."""
    hs = {"id": "h", "side": "a", "kind": "half_squad", "class": "first_line", "hex": "C2", "platoon": "P"}
    s = scn([sq(f"s{i}", "C2") for i in range(5)] + [hs], [{"id": "P", "kind": "platoon"}])
    assert squad_equivalents(s.units) == Fraction(11, 2) and composition_problems(s, s.formations[0]) == ()


def test_aslgw_1_1_conversions_25_percent():
    """ASLGW 1.1: up to 25% of the OB's platoons may be converted at set-up."""
    assert [half_platoon_conversions_allowed(n) for n in range(9)] == [0, 0, 0, 0, 1, 1, 1, 1, 2]
    with pytest.raises(ValueError):
        half_platoon_conversions_allowed(-1)


def test_aslgw_1_2_combat_groups():
    """ASLGW 1.2.1 (pair stacked or adjacent), 1.2.11 (elite, SSR), 1.2.12 (Germans 1915-1917)."""
    f = [{"id": "P", "kind": "combat_group"}]
    ok = scn([sq("x", "C2", cls="elite"), sq("y", "C3", cls="stosstruppen")], f, date="1916-07-01")
    assert combat_group_problems(ok, ok.formations[0], ssr_allows=True) == ()
    (v,) = combat_group_problems(ok, ok.formations[0], ssr_allows=False)
    assert v.rule == "ASLGW 1.2.11" and "SSR" in v.message
    far = scn([sq("x", "C2", cls="elite"), sq("y", "C4", cls="elite")], f, date="1918-03-21")
    assert {v.rule for v in combat_group_problems(far, far.formations[0], ssr_allows=True)} == {"ASLGW 1.2.1"}
    line = scn([sq("x", "C2"), sq("y", "C2", cls="elite")], f, date="1918-03-21")
    (v,) = combat_group_problems(line, line.formations[0], ssr_allows=True)
    assert v.rule == "ASLGW 1.2.11" and v.unit_id == "x"
    early = scn([sq("x", "C2", cls="elite"), sq("y", "C2", cls="elite")], f, date="1914-11-01")
    (v,) = combat_group_problems(early, early.formations[0], ssr_allows=True)
    assert v.rule == "ASLGW 1.2.12" and "1915-01-01" in v.message
    fr = scn([sq("x", "C2", cls="elite", side="b"), sq("y", "C2", cls="elite", side="b")], f, date="1917-08-31")
    (v,) = combat_group_problems(fr, fr.formations[0], ssr_allows=True)
    assert v.rule == "ASLGW 1.2" and "1917-09-01" in v.message
    fr_ok = scn([sq("x", "C2", cls="elite", side="b"), sq("y", "C2", cls="elite", side="b")], f, date="1917-09-01")
    assert combat_group_problems(fr_ok, fr_ok.formations[0], ssr_allows=True) == ()
    broken_apart = scn([sq("x", "C2", cls="elite"), sq("y", "C6", cls="elite", broken=True)], f, date="1918-03-21")
    assert combat_group_problems(broken_apart, broken_apart.formations[0], ssr_allows=True) == ()


def test_aslgw_1_4_11_setup_formation_bundled_example():
    """ASLGW 1.4.11: the bundled Bois des Caures platoons set up in formation."""
    s = load_scenario(EXAMPLE)
    assert setup_formation_gaps(s, "G1") == () and setup_formation_gaps(s, "F1") == ()


def test_aslgw_1_4_11_setup_formation_gap_and_leader_anchor():
    """ASLGW 1.4.11: each squad adjacent to another squad of the platoon or to a leader."""
    f = [{"id": "P", "kind": "half_platoon", "leader": "L"}]
    s = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "C6"), leader("L", "A1")], f)
    assert setup_formation_gaps(s, "P") == ("s3",)
    s2 = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "C6"), leader("L", "C7")], f)
    assert setup_formation_gaps(s2, "P") == ()


def test_aslgw_1_4_11_any_leader_of_the_platoon_anchors_its_squads():
    """ASLGW 1.4.11: adjacent to "a leader" -- a leader whose ``platoon`` names the
    formation counts as well as the one named in formations[].leader: s3 is in
    formation, keeps the +2 MF of ASLGW 1.3 and is not free (1.4.13)."""
    f = [{"id": "P", "kind": "half_platoon", "leader": "L"}]
    s = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "C6"), leader("L", "A1"), leader("M", "C7")], f)
    assert setup_formation_gaps(s, "P") == ()
    assert unit_mf_allowance(s, "s3").total == 6
    assert not org.is_free_squad(s, "s3", stacked_leader_commands=False)
    # A leader named only in formations[].leader, with no platoon field, leads it too.
    s = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "C6"), leader("L", "C7", platoon=None)], f)
    assert setup_formation_gaps(s, "P") == () and not is_leaderless(s, s.formations[0])
    # A leader of another platoon does not.
    s = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "C6"), leader("L", "A1"), leader("M", "C7", platoon="Q")],
            f + [{"id": "Q", "kind": "half_platoon"}])
    assert setup_formation_gaps(s, "P") == ("s3",) and unit_mf_allowance(s, "s3").total == 4


def test_aslgw_1_4_11_formation_gaps_linear_matches_pairwise():
    """ASLGW 1.4.11: the hex-bucket formation test gives the pairwise answer."""
    import random

    rng = random.Random(7)
    for _ in range(200):
        sqs = {f"s{i}": Hex.from_offset(rng.randrange(6), rng.randrange(6)) for i in range(rng.randrange(1, 8))}
        anchors = [Hex.from_offset(rng.randrange(6), rng.randrange(6)) for _ in range(rng.randrange(3))]
        want = tuple(k for k, h in sqs.items() if not any(h.distance(o) <= 1 for o in [x for j, x in sqs.items() if j != k] + anchors))
        assert formation_gaps(sqs, None, anchors) == want


def test_aslgw_1_4_11_broken_squads_leave_the_platoon():
    """ASLGW 1.4.11 second paragraph: a broken squad is no longer part of the platoon."""
    f = [{"id": "P", "kind": "half_platoon"}]
    s = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "H8", broken=True)], f)
    assert [u.id for u in active_members(s, "P")] == ["s1", "s2"]
    assert setup_formation_gaps(s, "P") == ()


def test_aslgw_1_4_15_entrenched_squads_exempt_from_formation():
    """ASLGW 1.4.15: no platoon formation while entrenched; they still anchor others."""
    f = [{"id": "P", "kind": "half_platoon"}]
    s = scn([sq("s1", "C2", **{"in": "trench"}), sq("s2", "E2", **{"in": "trench"}), sq("s3", "E3")], f)
    assert setup_formation_gaps(s, "P") == ()
    assert not uses_platoon_movement([u for u in s.units if u.id != "s3"])
    assert uses_platoon_movement(s.units)


def test_aslgw_1_3_mf_allowance():
    """ASLGW 1.3: +2 MF for squads in platoon formation under a leader even if not
    stacked; 1.3.4: none for a leaderless platoon; A4.12/1.4.14: stacked with a leader."""
    assert mf_allowance("squad", platoon_has_leader=True, in_platoon_formation=True).total == 6
    assert mf_allowance("squad", platoon_has_leader=True, in_platoon_formation=False).total == 4
    assert mf_allowance("squad", platoon_has_leader=False, in_platoon_formation=True).total == 4
    assert mf_allowance("half_squad", platoon_has_leader=False, in_platoon_formation=False, stacked_with_leader=True).total == 6
    assert mf_allowance("leader", platoon_has_leader=True, in_platoon_formation=True).total == 6
    parts = mf_allowance("squad", platoon_has_leader=True, in_platoon_formation=True).parts
    assert [p.value for p in parts] == [4, 2] and "ASLGW 1.3" in parts[1].cause
    with pytest.raises(ValueError):
        mf_allowance("support_weapon", platoon_has_leader=True, in_platoon_formation=True)


def test_aslgw_1_3_mf_allowance_in_scenario_not_stacked():
    """ASLGW 1.3: the bundled German platoon: G1-6 in B3 is not stacked with the
    9-1 in C2 but in formation, so it has 6 MF."""
    s = load_scenario(EXAMPLE)
    assert unit_mf_allowance(s, "G1-6").total == 6
    lf = scn([sq("s1", "C2"), sq("s2", "C3")], [{"id": "P", "kind": "half_platoon"}])
    assert is_leaderless(lf, lf.formations[0]) and unit_mf_allowance(lf, "s1").total == 4
    bl = scn([sq("s1", "C2"), sq("s2", "C3"), leader("L", "C2", broken=True)], [{"id": "P", "kind": "half_platoon", "leader": "L"}])
    assert is_leaderless(bl, bl.formations[0]) and unit_mf_allowance(bl, "s2").total == 4
    out = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "H8"), leader("L", "C2")], [{"id": "P", "kind": "half_platoon", "leader": "L"}])
    assert unit_mf_allowance(out, "s3").total == 4 and unit_mf_allowance(out, "s1").total == 6


def test_aslgw_1_4_13_1_4_14_1_4_15_free_squad_ntc():
    """ASLGW 1.4.13: NTC +1; 1.4.14: none stacked with a leader, no +1 In Command; 1.4.15: n/a in trenches."""
    n = free_squad_ntc(stacked_with_leader=False, in_command=False, entrenched=False)
    assert (n.required, n.drm, n.rule) == (True, 1, "ASLGW 1.4.13")
    n = free_squad_ntc(stacked_with_leader=False, in_command=True, entrenched=False)
    assert (n.required, n.drm, n.rule) == (True, 0, "ASLGW 1.4.14")
    n = free_squad_ntc(stacked_with_leader=True, in_command=False, entrenched=False)
    assert (n.required, n.rule) == (False, "ASLGW 1.4.14")
    n = free_squad_ntc(stacked_with_leader=False, in_command=False, entrenched=True)
    assert (n.required, n.rule) == (False, "ASLGW 1.4.15")


def _u(uid, h, kind=UnitKind.SQUAD, cls=UnitClass.FIRST_LINE, side="a", broken=False):
    return Unit(uid, side, kind, H(h), unit_class=cls if kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD) else None, broken=broken)


def test_aslgw_1_3_3_recombining():
    """ASLGW 1.3.3: at most 6 squads under a leader, candidates within his command radius."""
    L = _u("L", "E5", UnitKind.LEADER)
    four = [_u(f"s{i}", "E5") for i in range(4)]
    assert recombine_problems(L, four, [_u("f1", "E6"), _u("f2", "F5")], command_radius=1) == ()
    (v,) = recombine_problems(L, four, [_u("f1", "E6"), _u("f2", "F5"), _u("f3", "E5")], command_radius=1)
    assert v.rule == "ASLGW 1.3.3" and "7 squads" in v.message
    (v,) = recombine_problems(L, four, [_u("far", "E8")], command_radius=2)
    assert "3 hexes" in v.message and "command radius of 2" in v.message
    assert recombine_problems(L, four, [_u("far", "E8")], command_radius=3) == ()
    rules = {v.rule for v in recombine_problems(L, four, [_u("e", "E5", cls=UnitClass.ELITE)], command_radius=1)}
    assert rules == {"ASLGW 1.1"}
    assert "broken" in recombine_problems(L, four, [_u("b", "E5", broken=True)], command_radius=1)[0].message
    assert "side" in recombine_problems(L, four, [_u("o", "E5", side="b")], command_radius=1)[0].message


def test_aslgw_1_3_4_leaderless_cannot_recombine():
    """ASLGW 1.3.4: a platoon without a leader cannot recombine with free squads."""
    (v,) = recombine_problems(None, [_u("s", "A1")], [_u("f", "A1")], command_radius=1)
    assert v.rule == "ASLGW 1.3.4"
    (v,) = recombine_problems(_u("L", "A1", UnitKind.LEADER, broken=True), [], [_u("f", "A1")], command_radius=1)
    assert v.rule == "ASLGW 1.3.4"


def test_aslgw_1_4_13_join_other_platoon_is_recombining():
    """ASLGW 1.4.13: a free squad may join another platoon whose leader can control it (1.3.3)."""
    L = _u("L", "C3", UnitKind.LEADER)
    full = [_u(f"s{i}", "C3") for i in range(6)]
    assert recombine_problems(L, full[:5], [_u("free", "C4")], command_radius=1) == ()
    assert recombine_problems(L, full, [_u("free", "C4")], command_radius=1)[0].rule == "ASLGW 1.3.3"


hexes = st.builds(lambda c, r: Hex.from_offset(c, r), st.integers(0, 9), st.integers(0, 9))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdef"), hexes, min_size=2, max_size=6), st.one_of(st.none(), hexes))
def test_formation_gaps_property(squads, leader_hex):
    """ASLGW 1.4.11: a squad is out of formation iff no other squad or the leader is within 1 hex."""
    gaps = set(formation_gaps(squads, leader_hex))
    for uid, h in squads.items():
        near = [o for k, o in squads.items() if k != uid] + ([leader_hex] if leader_hex else [])
        assert (uid in gaps) == (not any(h.distance(o) <= 1 for o in near))


def test_organisation_table_validated():
    with pytest.raises(TableError, match="organisation.platoon_squads"):
        parse_organisation({"organisation": {"platoon_squads": "6"}})


def test_organisation_doctests():
    assert doctest.testmod(org).failed == 0


def test_aslgw_1_3_leadership_only_to_stacked_units():
    """ASLGW 1.3: leadership in fire, MC and Rally applies only to units stacked with him."""
    L = _u("L", "C3", UnitKind.LEADER)
    assert org.leadership_applies(L, _u("s", "C3"))
    assert not org.leadership_applies(L, _u("t", "C4"))  # in formation, gets the MF, not the DRM
    assert not org.leadership_applies(_u("B", "C3", UnitKind.LEADER, broken=True), _u("s", "C3"))
    entrenched = Unit("e", "a", UnitKind.SQUAD, H("C3"), unit_class=UnitClass.FIRST_LINE, position=Position.TRENCH)
    assert not org.leadership_applies(L, entrenched)


def test_aslgw_1_2_1_combat_groups_move_like_squads():
    """ASLGW 1.2.1: combat groups work like WW2 squads; 1.4.1: platoons move by impulses."""
    assert org.moves_by_impulse("platoon") and org.moves_by_impulse("half_platoon")
    assert not org.moves_by_impulse("combat_group")


def test_aslgw_1_4_13_free_squad_moves_after_its_platoon():
    """ASLGW 1.4.13: a free squad's movement comes once its platoon's is done."""
    assert org.free_squad_move_order(True) is None
    assert org.free_squad_move_order(False).rule == "ASLGW 1.4.13"


def test_aslgw_1_3_leader_of_two_formations():
    """ASLGW 1.3: one leader controls up to 6 squads, across formations too."""
    units = [sq(f"a{i}", "C2", platoon="A") for i in range(3)] + [sq(f"b{i}", "C3", platoon="B") for i in range(3)] + [leader("L", "C2", platoon="A")]
    two_halves = scn(units, [{"id": "A", "kind": "half_platoon", "leader": "L"}, {"id": "B", "kind": "half_platoon", "leader": "L"}])
    assert org.leader_control_problems(two_halves) == ()
    more = scn(units + [sq("b3", "C3", platoon="B")], [{"id": "A", "kind": "half_platoon", "leader": "L"}, {"id": "B", "kind": "platoon", "leader": "L"}])
    (v,) = org.leader_control_problems(more)
    assert v.rule == "ASLGW 1.3" and "7 squads" in v.message


def test_aslgw_1_4_13_to_1_4_15_is_free_squad():
    """ASLGW 1.4.13: a squad isolated from its platoon (or in none) is free;
    1.4.14: not when stacked with a leader; 1.4.15: not in trenches."""
    f = [{"id": "P", "kind": "half_platoon"}, {"id": "C", "kind": "combat_group"}]
    s = scn([sq("s1", "C2"), sq("s2", "C3"), sq("s3", "H8"), sq("lone", "A1", platoon=None),
             sq("t", "J2", platoon=None, **{"in": "trench"}), sq("w", "E8", platoon=None), leader("L", "E8", platoon=None),
             sq("b", "A8", platoon=None, broken=True), sq("c1", "K1", cls="elite", platoon="C"), sq("c2", "K9", cls="elite", platoon="C")], f)
    free = {u.id for u in s.units if org.is_free_squad(s, u.id, stacked_leader_commands=u.id == "w")}
    assert free == {"s3", "lone"}
    # 1.4.14 needs the stacked leader to take it (ASLGW 1.3.3: room for it); if he has none, it is free.
    assert org.is_free_squad(s, "w", stacked_leader_commands=False)


def test_aslgw_1_1_platoon_reduced_to_half_platoon_by_casualties():
    """ASLGW 1.1: a platoon reduced by casualties to 3 squads is a half-platoon."""
    assert org.kind_after_losses("platoon", 6).value == "platoon"
    assert org.kind_after_losses("platoon", Fraction(7, 2)).value == "platoon"
    assert org.kind_after_losses("platoon", 3).value == "half_platoon"
    assert org.kind_after_losses("half_platoon", 1).value == "half_platoon"
    assert org.kind_after_losses("combat_group", 1).value == "combat_group"


def test_aslgw_1_8_trench_armour_in_the_mf_allowance():
    """ASLGW 1.8: squads wearing trench armour lose 1 MF, on top of the 1.3 leader bonus."""
    a = mf_allowance("squad", platoon_has_leader=True, in_platoon_formation=True, trench_armour=True)
    assert a.total == 5 and "ASLGW 1.8" in a.parts[-1].cause
    assert mf_allowance("leader", platoon_has_leader=True, in_platoon_formation=True, trench_armour=True).total == 6
    s = scn([sq("s1", "C2", trench_armour=True), sq("s2", "C3"), leader("L", "C2")], [{"id": "P", "kind": "half_platoon", "leader": "L"}])
    assert unit_mf_allowance(s, "s1").total == 5 and unit_mf_allowance(s, "s2").total == 6
