"""O'Leary 2.2 (potential dummy status), 3.2 (HIP immunity and immobility), 3.4 (revealing)."""

from __future__ import annotations

import pytest

from gwasl.model.phases import Phase
from gwasl.model.scenario import Position
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import plan_dummy_shift
from gwasl.rules.fog.state import Clock, FogStatus
from gwasl.rules.fog.status import (
    FogRuleError,
    attackable_units,
    drop_potential_dummy,
    gain_concealment,
    lose_concealment,
    may_be_attacked,
    may_change_ca,
    may_move_conventionally,
    merge_potential_dummies,
    move_units,
    reveal_hip,
)
from gwasl.rules.fog.words import line

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


def u(uid, hexl, hidden, kind="squad"):
    d = {"id": uid, "side": "french", "kind": kind, "hex": hexl, "hidden": hidden}
    if kind == "squad":
        d["class"] = "first_line"
    if kind == "leader":
        d["rating"] = "8-1"
    return d


def test_2_2_losing_concealment_ends_potential_dummy_status_for_good(kit):
    """O'Leary 2.2: a potential dummy stack that loses concealment may never again become one;
    regaining concealment gives a plain "?" stack."""
    s = kit.build(units=[ENEMY, u("a", "C3", "potential_dummy")])
    st, _clk = kit.at(s, "french", Phase.MPh)
    lost = lose_concealment(st, ["a"], "fired (A12.121)")
    assert (lost.side, lost.units, lost.hexes, lost.rule) == ("french", ("a",), (kit.hx("C3"),), "O'Leary 2.2")
    st = lost.state
    assert st.status_of("a") is FogStatus.NONE and not st.stacks
    gained = gain_concealment(st, ["a"])
    assert (gained.units, gained.hex, gained.height) == (("a",), kit.hx("C3"), 2)
    st = gained.state
    assert st.status_of("a") is FogStatus.CONCEALED
    assert not st.stacks[0].potential_dummy
    assert line(lost, "german") == "a lose concealment at C3 (fired (A12.121))"
    assert line(gained, "german") == "a concealed stack of 2 counters at C3" and line(gained, "french") == "a at C3 gain concealment"
    assert line(lose_concealment(st, ["nobody"], "x"), "omniscient") is None  # nothing happened: no line


def test_2_2_splitting_makes_two_potential_dummy_stacks(kit):
    """O'Leary 2.2: moving the components of a potential dummy stack into two locations makes
    two potential dummy stacks."""
    s = kit.build(units=[ENEMY, u("a", "C3", "potential_dummy"), u("b", "C3", "potential_dummy")])
    st, _clk = kit.at(s, "french", Phase.MPh)
    st = move_units(st, ["b"], kit.hx("C4"), Position.GROUND, 1)
    assert len(st.stacks) == 2 and all(x.potential_dummy for x in st.stacks)
    assert {x.hex.label for x in st.stacks} == {"C3", "C4"}


def test_2_2_potential_dummy_stacks_merge_at_the_end_of_the_ccph(kit):
    """O'Leary 2.2: two potential dummy stacks in the same location and position merge at the
    end of that side's CCPh -- not before, and not in the enemy's CCPh."""
    s = kit.build(units=[ENEMY, u("a", "C3", "potential_dummy"), u("b", "C4", "potential_dummy")])
    st, clk = kit.at(s, "french", Phase.MPh)
    st = move_units(st, ["b"], kit.hx("C3"), Position.GROUND, 1)
    assert len(st.stacks_at(kit.hx("C3"))) == 2
    with pytest.raises(FogRuleError, match="2.2"):
        merge_potential_dummies(st, "french", clk)
    with pytest.raises(FogRuleError):
        merge_potential_dummies(st, "french", Clock(1, "german", Phase.CCPh))
    merged = merge_potential_dummies(st, "french", Clock(1, "french", Phase.CCPh))
    assert merged.merged == 1 and line(merged, "german") is None and "merged" in (line(merged, "french") or "")
    (one,) = merged.state.stacks_at(kit.hx("C3"))
    assert set(one.unit_ids) == {"a", "b"} and one.potential_dummy and one.height == 4


def test_2_2_dropping_potential_dummy_status_keeps_concealment(kit):
    """O'Leary 2.2: a potential dummy stack may drop that status at any time and stay concealed."""
    s = kit.build(units=[ENEMY, u("a", "C3", "potential_dummy")], dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 3}])
    st, clk = kit.at(s, "french", Phase.MPh)
    sid = st.stacks_at(kit.hx("C3"))[0].id
    dropped = drop_potential_dummy(st, sid)
    assert dropped.dropped and line(dropped, "german") is None and not drop_potential_dummy(dropped.state, sid).dropped
    st = dropped.state
    assert st.status_of("a") is FogStatus.CONCEALED and not st.stack(sid).potential_dummy
    p = plan_dummy_shift(st, sid, st.stacks_at(kit.hx("F5"))[0].id, kit.env(), clock=clk)
    assert not p.eligible


def test_2_2_enemy_in_the_location_does_not_end_potential_dummy_status(kit):
    """O'Leary 2.2: enemy units in LOS or even in the location do not affect the status."""
    s = kit.build(
        units=[dict(ENEMY, hex="C3"), u("a", "C3", "potential_dummy")],
        dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 3}],
    )
    st, clk = kit.at(s, "french", Phase.MPh)
    assert plan_dummy_shift(st, st.stacks_at(kit.hx("C3"), "french")[0].id, st.stacks_at(kit.hx("F5"))[0].id, kit.env(["C3"]), clock=clk).eligible


def test_3_2_1_hip_units_are_immune_to_fire_and_snipers(kit):
    """O'Leary 3.2 and 3.2.1: fire attacks on the location and snipers do not affect HIP units."""
    s = kit.build(units=[ENEMY, u("h", "C3", "hip"), u("c", "C3", "concealed")])
    st, _clk = kit.at(s, "german", Phase.PFPh)
    ok, why = may_be_attacked(st, "h")
    assert not ok and "3.2.1" in why
    assert attackable_units(st, kit.hx("C3")) == ("c",)


def test_3_2_2_hip_units_neither_move_nor_change_ca_conventionally(kit):
    """O'Leary 3.2.2: HIP units move and change CA only by shifting."""
    s = kit.build(units=[ENEMY, u("h", "C3", "hip")])
    st, _clk = kit.at(s, "french", Phase.MPh)
    assert not may_move_conventionally(st, "h")[0]
    assert not may_change_ca(st, "h")[0]
    with pytest.raises(FogRuleError, match="3.2.2"):
        move_units(st, ["h"], kit.hx("C4"), Position.GROUND, 1)


def test_3_4_revealed_dummy_hip_is_removed_and_hip_units_revealed(kit):
    """O'Leary 3.4: HIP units are revealed as conventional HIP units; a revealed dummy HIP
    counter is removed; a hidden fortification there becomes known."""
    s = kit.build(units=[ENEMY, u("h", "C3", "hip")], dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  forts=[{"kind": "foxhole", "hexes": ["F5"], "owner": "french", "hidden": True}])
    st, _clk = kit.at(s, "german", Phase.MPh)
    searched = reveal_hip(st, "french", kit.hx("F5"), "Search (A12.152)")
    assert (searched.units, searched.dummies, searched.fortifications, searched.rule) == ((), 1, ("foxhole",), "O'Leary 3.4")
    st = searched.state
    assert not st.dummy_hip and not st.fortifications
    assert st.scenario.map.fortifications_at(kit.hx("F5"))
    entered = reveal_hip(st, "french", kit.hx("C3"), "enemy entered the location")
    assert entered.units == ("h",) and entered.state.status_of("h") is FogStatus.NONE
    assert line(entered, "german") == "at C3 (enemy entered the location): h revealed (O'Leary 3.4)"


def test_2_3_conventional_movement_ends_bore_sight_eligibility_but_a_shift_keeps_it(kit):
    """O'Leary 2.3: bore-sight eligibility survives shifting, not a change of location otherwise."""
    mg = {"id": "mg", "side": "french", "kind": "support_weapon", "weapon": "MG", "hex": "C3",
          "hidden": "potential_dummy", "bore_sight": "undetermined"}
    s = kit.build(units=[ENEMY, mg], dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    r = resolve_shift(st, plan_dummy_shift(st, st.stacks_at(kit.hx("C3"))[0].id, st.stacks_at(kit.hx("F5"))[0].id, env, clock=clk),
                      ScriptedDice([1, 1]), env, clock=clk)
    assert r.state.bore_sight[0].eligible
    moved = move_units(r.state, ["mg"], kit.hx("F6"), Position.GROUND, 1)
    assert not moved.bore_sight[0].eligible
