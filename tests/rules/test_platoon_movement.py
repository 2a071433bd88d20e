"""ASLGW 1.4.1-1.4.13 platoon movement by impulses: the impulse validator."""

from __future__ import annotations

import doctest

from hypothesis import given, settings
from hypothesis import strategies as st

import gwasl.rules.platoon_movement as pm
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import UnitKind
from gwasl.rules.platoon_movement import MemberStep, check_impulse

H = Hex.from_label
SQ, HS, LDR = UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.LEADER


def step(uid, start, *path, kind=SQ, mf=0, before=0, allowance=6, broken=False):
    return MemberStep(uid, kind, H(start), tuple(H(p) for p in path), mf_cost=mf, mf_spent_before=before, mf_allowance=allowance, broken=broken)


def test_aslgw_1_4_1_platoon_spends_the_largest_mf():
    """ASLGW 1.4.1: the moving units spend as many MF as the one that spends most
    (one squad enters open ground for 1 MF, another brush for 2: both pay 2)."""
    r = check_impulse([step("a", "C2", "C3", mf=1), step("b", "D2", "D3", mf=2), step("L", "C2", "C3", kind=LDR, mf=1)])
    assert r.legal and r.platoon_mf == 2 and dict(r.charged) == {"a": 2, "b": 2, "L": 2}


def test_aslgw_1_4_11_not_all_need_to_move():
    """ASLGW 1.4.11: members may stay put if formation holds; they are not charged."""
    r = check_impulse([step("a", "C2", "C3", mf=1), step("b", "C2")])
    assert r.legal and dict(r.charged) == {"a": 1}


def test_aslgw_1_4_1_every_mover_moves_a_hex():
    """ASLGW 1.4.1: all moving units must have moved at least one hex."""
    r = check_impulse([step("a", "C2", "C3", mf=1), step("b", "C2", mf=1)])
    assert not r.legal and [(v.rule, v.unit_id) for v in r.violations] == [("ASLGW 1.4.1", "b")]


def test_aslgw_1_4_1_formation_at_end_of_impulse():
    """ASLGW 1.4.1/1.4.11: at the end, each squad is adjacent to or with another member or the leader."""
    r = check_impulse([step("a", "C2", "C3", "C4", mf=2), step("b", "C2")])
    assert not r.legal and {v.unit_id for v in r.violations} == {"a", "b"}
    assert all(v.rule == "ASLGW 1.4.11" for v in r.violations)
    # a leader between them keeps both in formation; LOS between members is not needed
    r2 = check_impulse([step("a", "C2", "C3", "C4", mf=2), step("b", "C2"), step("L", "C2", "C3", kind=LDR, mf=1)])
    assert r2.legal and r2.platoon_mf == 2


def test_aslgw_1_4_1_allowance_after_the_platoon_charge():
    """ASLGW 1.4.1 with A4.1: the charge must fit each mover's remaining MF."""
    r = check_impulse([step("a", "C2", "C3", mf=1, before=3, allowance=4), step("b", "D2", "D3", mf=2, before=0, allowance=4)])
    (v,) = r.violations
    assert v.unit_id == "a" and "would spend 5 MF" in v.message and "has 4" in v.message


def test_aslgw_1_4_13_detached_squads_are_free():
    """ASLGW 1.4.13: a squad the player isolates is free and not part of the check."""
    r = check_impulse([step("a", "C2", "C3", mf=1), step("b", "C2", "C3", mf=1), step("c", "C2")], detach=frozenset({"c"}))
    assert r.legal and "c" not in r.end
    bad = check_impulse([step("a", "C2", "C3", mf=1)], detach=frozenset({"zz"}))
    assert bad.violations[0].rule == "ASLGW 1.4.13"


def test_aslgw_1_4_11_broken_members_are_out():
    """ASLGW 1.4.11: a broken squad is no longer part of the platoon."""
    r = check_impulse([step("a", "C2", "C3", mf=1), step("b", "C3"), step("x", "H8", broken=True)])
    assert r.legal and "x" not in r.end
    r2 = check_impulse([step("a", "C2", "C3", mf=1), step("b", "C3"), step("x", "H8", "H7", mf=1, broken=True)])
    assert [v.unit_id for v in r2.violations] == ["x"]


def test_path_must_be_contiguous_and_someone_moves():
    r = check_impulse([step("a", "C2", "C4", mf=1), step("b", "C3")])
    assert r.violations[0].rule == "A4.1" and "not adjacent" in r.violations[0].message
    r2 = check_impulse([step("a", "C2"), step("b", "C3")])
    assert not r2.legal and "no member" in r2.violations[0].message
    r3 = check_impulse([step("a", "C2", "C3", mf=1), step("a", "C2", "C3", mf=1)])
    assert "twice" in r3.violations[0].message


def test_crew_is_not_a_platoon_member():
    r = check_impulse([step("a", "C2", "C3", mf=1), step("c", "C2", "C3", kind=UnitKind.CREW, mf=1)])
    assert [v.rule for v in r.violations] == ["ASLGW 1.1"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=6))
def test_every_mover_is_charged_the_maximum(costs):
    """ASLGW 1.4.1: whatever the costs, every mover is charged max(cost)."""
    members = []
    for i, (c, _) in enumerate(costs):
        members.append(MemberStep(f"u{i}", SQ, H("E5"), (H("E6"),) if c else (), mf_cost=c, mf_allowance=99))
    r = check_impulse(members)
    movers = [f"u{i}" for i, (c, _) in enumerate(costs) if c]
    assert set(r.charged) == set(movers)
    assert all(v == max(c for c, _ in costs) for v in r.charged.values())


def test_platoon_movement_doctests():
    assert doctest.testmod(pm).failed == 0


def test_aslgw_1_4_12_move_modes_within_platoon_movement():
    """ASLGW 1.4.12: Assault Move, Dash, Search, column movement, over-IPC are
    allowed while formation holds; formation still binds them."""
    ok = check_impulse([
        MemberStep("a", SQ, H("C2"), (H("C3"),), mf_cost=2, mode="assault_move"),
        MemberStep("b", SQ, H("D2"), (H("D3"),), mf_cost=1, mode="dash"),
        MemberStep("c", SQ, H("C2"), (H("C3"),), mf_cost=2, mode="search"),
    ])
    assert ok.legal and ok.platoon_mf == 2
    apart = check_impulse([MemberStep("a", SQ, H("C2"), (H("C3"), H("C4")), mf_cost=2, mode="dash"), MemberStep("b", SQ, H("C2"))])
    assert not apart.legal
    bad = check_impulse([MemberStep("a", SQ, H("C2"), (H("C3"),), mf_cost=1, mode="fly")])
    assert [v.rule for v in bad.violations] == ["ASLGW 1.4.12"]


def test_attached_hero_moves_but_is_no_anchor():
    """ASLGW 1.4.11: formation is kept with another squad or a leader, not a hero."""
    r = check_impulse([step("a", "C2", "C3", "C4", mf=2), step("b", "C2"), step("h", "C2", "C3", kind=UnitKind.HERO, mf=1)])
    assert {v.unit_id for v in r.violations} == {"a", "b"} and r.charged["h"] == 2
