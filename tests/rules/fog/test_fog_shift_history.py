"""Issue 10 item 9: O'Leary 2.3 (bore sighting and movement history), 2.3.1 (complete stacks),
3.3.3 and 4.2 (a location left by a hidden fortification is marked)."""

from __future__ import annotations

from gwasl.model.phases import Phase
from gwasl.model.scenario import Position
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import Done, DoneKind, plan_dummy_shift, plan_hip_shift
from gwasl.rules.fog.state import Clock
from gwasl.rules.fog.status import move_dummy_stack, move_units
from gwasl.rules.fog.words import consequence_lines

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}
MG = {"id": "mg", "side": "french", "kind": "support_weapon", "weapon": "MG", "hex": "C3",
      "hidden": "potential_dummy", "bore_sight": "undetermined"}


def _sq(uid, hexl, hidden="potential_dummy"):
    return {"id": uid, "side": "french", "kind": "squad", "class": "first_line", "hex": hexl, "hidden": hidden}


def _stack(st, kit, label):
    (s,) = st.stacks_at(kit.hx(label), "french")
    return s.id


def _shift(st, kit, a, b, clock):
    env = kit.env()
    plan = plan_dummy_shift(st, _stack(st, kit, a), _stack(st, kit, b), env, clock=clock)
    return resolve_shift(st, plan, ScriptedDice([1, 1]), env, clock=clock)


def test_2_3_a_dummy_stack_that_moved_ends_bore_sighting_of_the_stack_it_exchanges_with(kit):
    """O'Leary 2.3: "provided neither stack has changed locations except via shifting".  The MG's
    own stack never moved, but the dummy stack it exchanges with did: no bore sighting after."""
    s = kit.build(units=[ENEMY, MG], dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2}])
    st, clk = kit.at(s, "french", Phase.MPh)
    st = move_dummy_stack(st, _stack(st, kit, "F5"), kit.hx("F6"), Position.GROUND, 1)
    clk = Clock(1, "french", Phase.APh)  # 2.3: start of its APh, nothing moved yet
    r = _shift(st, kit, "C3", "F6", clk)
    assert r.shifted and r.state.unit("mg").hex == kit.hx("F6")
    assert not r.state.bore_sight[0].eligible
    assert Done(DoneKind.BORE_SIGHT_LOST, units=("mg",)) in r.consequences
    assert any("O'Leary 2.3" in n and "mg" in n for n in consequence_lines(r))


def test_2_3_a_unit_that_moved_ends_bore_sighting_of_its_partner(kit):
    """O'Leary 2.3: two potential dummy stacks of one real counter (2.3.3); the squad's stack
    moved conventionally, so the MG it exchanges with loses bore sighting."""
    s = kit.build(units=[ENEMY, MG, _sq("sq", "F5")])
    st, clk = kit.at(s, "french", Phase.MPh)
    st = move_units(st, ["sq"], kit.hx("F6"), Position.GROUND, 1)
    clk = Clock(1, "french", Phase.APh)
    r = _shift(st, kit, "C3", "F6", clk)
    assert r.shifted and not r.state.bore_sight[0].eligible


def test_2_3_the_history_follows_the_dummy_through_earlier_exchanges(kit):
    """O'Leary 2.3: a dummy stack that moved, then exchanged with a clean potential dummy stack,
    is still a stack that moved: the MG exchanging with it later loses bore sighting, while
    exchanging with the clean squad (which only ever shifted) keeps it."""
    s = kit.build(units=[ENEMY, MG, _sq("sq", "H2")],
                  dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2}])
    st, clk = kit.at(s, "french", Phase.MPh)
    st = move_dummy_stack(st, _stack(st, kit, "F5"), kit.hx("F6"), Position.GROUND, 1)
    st = _shift(st, kit, "H2", "F6", Clock(1, "french", Phase.APh)).state  # the squad goes to F6, the dummy to H2
    clk = Clock(2, "french", Phase.MPh)
    clean = _shift(st, kit, "C3", "F6", clk)  # the MG with the squad: neither ever moved but by shifting
    assert clean.shifted and clean.state.bore_sight[0].eligible
    tainted = _shift(st, kit, "C3", "H2", clk)  # the MG with the dummy that moved
    assert tainted.shifted and not tainted.state.bore_sight[0].eligible


def test_2_3_1_a_stack_may_not_exchange_away_from_a_location_whose_other_stack_stays(kit):
    """O'Leary 2.3.1: "the entire stack in one location must be exchanged for a complete stack
    in the second location": C3 holds two potential dummy stacks (not yet merged, 2.2); neither
    may exchange alone, and the refusal cites 2.3.1."""
    s = kit.build(units=[ENEMY, _sq("a", "C3"), dict(_sq("b", "C3"), **{"in": "foxhole"}), _sq("c", "F5")],
                  forts=[{"kind": "foxhole", "hexes": ["C3"], "owner": "french"}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    c3 = st.stacks_at(kit.hx("C3"), "french")
    assert len(c3) == 2
    for x in c3:
        p = plan_dummy_shift(st, x.id, _stack(st, kit, "F5"), env, clock=clk)
        assert not p.eligible and "2.3.1" in (p.reason or "")
        assert not plan_dummy_shift(st, _stack(st, kit, "F5"), x.id, env, clock=clk).eligible
    lone, lone_clk = kit.at(kit.build(units=[ENEMY, _sq("a", "C3"), _sq("c", "F5")]), "french", Phase.MPh)
    assert plan_dummy_shift(lone, _stack(lone, kit, "C3"), _stack(lone, kit, "F5"), env, clock=lone_clk).eligible


def test_3_3_3_4_2_a_hidden_fortification_that_shifts_away_leaves_a_dummy_hip(kit):
    """O'Leary 3.3.3 with 4.2 (a fortification is the equivalent of an HIP unit): a hidden
    pillbox shifts into a location whose HIP squad stays (3.3.3: it need not exchange); its old
    location, now devoid of HIP pieces, is marked with a dummy HIP counter, as a HIP unit's is."""
    s = kit.build(units=[ENEMY, _sq("h", "F5", "hip")],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    (fort,) = st.fortifications
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk)
    assert plan.movers_a == (fort.id,) and plan.movers_b == ()
    r = resolve_shift(st, plan, ScriptedDice([1, 1]), env, clock=clk)
    assert r.shifted and r.state.fortifications[0].hex == kit.hx("F5")
    assert [d.hex for d in r.state.dummy_hip] == [kit.hx("C3")]
    assert r.state.hip_pieces_at(kit.hx("C3"), "french")
