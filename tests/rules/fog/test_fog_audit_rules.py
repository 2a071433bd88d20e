"""Acceptance audit of the O'Leary layer: rules that had no test of their own, and
the leaks of hidden facts the audit found (each test cites its rule)."""

from __future__ import annotations

from gwasl.model.phases import Phase
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.boresight import bore_sight_die, pre_registration_die
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import plan_dummy_shift, plan_hip_shift, plan_minefield_shift
from gwasl.rules.fog.state import Clock, FogStatus
from gwasl.rules.fog.status import merge_potential_dummies, player_turn_began
from gwasl.rules.fog.view import view
from gwasl.rules.fog.words import line
from gwasl.rules.validate import validate_scenario

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


def sq(uid, h, hidden="potential_dummy", **extra):
    return {"id": uid, "side": "french", "kind": "squad", "class": "first_line", "hex": h, "hidden": hidden, **extra}


def sw(uid, h, hidden="potential_dummy", **extra):
    return {"id": uid, "side": "french", "kind": "support_weapon", "weapon": "St. Etienne", "hex": h,
            "hidden": hidden, **extra}


def test_2_2_ccph_merge_of_potential_dummy_stacks_shows_the_enemy_nothing(kit):
    """O'Leary 2.2: potential dummy stacks sharing a location merge at the end of their CCPh;
    a dummy stack there does not.  Two "?" stacks of two counters at C3 must look the same to
    the German whether both were real (and merged) or one was a dummy (and did not)."""
    both_real = kit.build(units=[ENEMY, sq("f1", "C3"), sw("f2", "C3")])
    one_dummy = kit.build(units=[ENEMY, sq("f1", "C3")],
                          dummies=[{"side": "french", "kind": "dummy_stack", "hex": "C3", "counters": 2}])
    # both_real's two units share one stack at setup; split them as movement would have.
    a, clk = kit.at(both_real, "french", Phase.CCPh)
    s = a.stacks[0]
    a = a.with_stacks([s.__class__(s.id, s.side, s.hex, s.position, ("f1",), 2, True),
                       s.__class__("s99", s.side, s.hex, s.position, ("f2",), 2, True)])
    b, b_clk = kit.at(one_dummy, "french", Phase.CCPh)
    assert view(a, "german") == view(b, "german")
    a2, b2 = merge_potential_dummies(a, "french", clk).state, merge_potential_dummies(b, "french", b_clk).state
    assert len(a2.stacks) == 1 and len(b2.stacks) == 2  # the truth differs...
    va, vb = view(a2, "german"), view(b2, "german")
    assert va == vb  # ...the German view does not
    assert [(c.hex.label, c.counters) for c in va.concealed_stacks] == [("C3", 4)]


def _mines(kit, c3, f5):
    return kit.build(units=[ENEMY],
                     forts=[{"kind": "minefield", "hexes": ["C3"], "owner": "french", "hidden": True, **c3},
                            {"kind": "minefield", "hexes": ["F5"], "owner": "french", "hidden": True, **f5}],
                     side_fog={"french": {"hidden_minefield": {"ap": 6, "at": 1}}})


def test_4_6_2_log_does_not_tell_whether_the_minefields_exchanged(kit):
    """O'Leary 4.6.2: both strengths are revealed whatever the shift DR; whether the counters
    exchanged stays secret.  6 AP at C3 / 1 AT at F5 with a successful shift ends exactly like
    1 AT at C3 / 6 AP at F5 with a failed one, so the German view and log must be equal."""
    env = kit.env()
    a, clk = kit.at(_mines(kit, {"ap": 6}, {"at": 1}), "german", Phase.MPh)
    b, _b_clk = kit.at(_mines(kit, {"at": 1}, {"ap": 6}), "german", Phase.MPh)
    assert view(a, "german") == view(b, "german")

    def enter(st, dice):
        m, o = st.minefields_at(kit.hx("C3"))[0].id, st.minefields_at(kit.hx("F5"))[0].id
        return resolve_shift(st, plan_minefield_shift(st, m, o, env, clock=clk), ScriptedDice(dice), env, clock=clk)

    ra, rb = enter(a, [1, 1]), enter(b, [5, 6])
    assert ra.band == "allowed" and rb.band != "allowed"
    assert view(ra.state, "german") == view(rb.state, "german")
    assert line(ra, "german") == line(rb, "german")
    assert (line(ra, "german") or "").startswith("minefield at C3")


def test_2_3_1_only_complete_stacks_exchange(kit):
    """O'Leary 2.3.1: a potential dummy stack exchanges as a complete stack: every unit of the
    C3 stack goes to F5 and every unit of F5 to C3, none stays behind."""
    s = kit.build(units=[ENEMY, sq("a1", "C3"), sw("a2", "C3"), sq("b1", "F5"), sw("b2", "F5")])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    a, b = st.stacks_at(kit.hx("C3"))[0], st.stacks_at(kit.hx("F5"))[0]
    r = resolve_shift(st, plan_dummy_shift(st, a.id, b.id, env, clock=clk), ScriptedDice([1, 2]), env, clock=clk)
    assert r.shifted
    assert {r.state.unit(i).hex.label for i in ("a1", "a2")} == {"F5"}
    assert {r.state.unit(i).hex.label for i in ("b1", "b2")} == {"C3"}
    assert sorted(r.state.stacks_at(kit.hx("F5"))[0].unit_ids) == ["a1", "a2"]


def test_2_4_1_infantry_may_shift_with_a_gun(kit):
    """O'Leary 2.4.1: infantry (1/2" counters) and a Gun (5/8") potential dummy stacks of one
    real counter each may exchange; the starred DRM of the normal size gun (+1) applies."""
    gun = sw("gun", "F5", size_class="normal_gun")
    st, clk = kit.at(kit.build(units=[ENEMY, sq("inf", "C3"), gun]), "french", Phase.MPh)
    a, b = st.stacks_at(kit.hx("C3"))[0], st.stacks_at(kit.hx("F5"))[0]
    plan = plan_dummy_shift(st, a.id, b.id, kit.env(), clock=clk)
    assert plan.eligible and plan.drm == 1


def test_3_1_2_dummy_hip_may_share_a_location_with_any_stack(kit):
    """O'Leary 3.1.2: dummy HIP counters may sit with real units, potential dummy stacks and
    dummy stacks at no penalty: the scenario validates and the German sees only the "?" stacks."""
    s = kit.build(units=[ENEMY, sq("f1", "C3"), sq("f2", "D4", hidden="hip")],
                  dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2},
                           {"side": "french", "kind": "dummy_hip", "hex": "C3"},
                           {"side": "french", "kind": "dummy_hip", "hex": "F5"}])
    assert validate_scenario(s).valid
    v = view(kit.at(s, "french", Phase.MPh)[0], "german")
    assert [(c.hex.label, c.counters) for c in v.concealed_stacks] == [("C3", 2), ("F5", 2)]
    assert [u.id for u in v.units] == ["G"]


def test_6_2_7_2_the_third_die_is_optional_and_stays_available(kit):
    """O'Leary 6.2 and 7.2: a weapon may fire (an AR may be placed) without the third die; the
    location stays undetermined and the die may still be thrown on a later shot (1: fixed)."""
    s = kit.build(units=[ENEMY, sw("mg", "C3", hidden="none", bore_sight="undetermined")],
                  fog={"oba": [{"id": "75mm", "side": "french", "pre_registered": "undetermined"}]})
    st, _clk = kit.at(s, "french", Phase.PFPh)
    # A turn passes with shots but no third die: nothing is decided, nothing is lost.
    assert [(b.unit_id, b.hex, b.eligible) for b in st.bore_sight] == [("mg", None, True)]
    assert [(p.module, p.hex) for p in st.pre_registration] == [("75mm", None)]
    r = bore_sight_die(st, ["mg"], kit.hx("F5"), ScriptedDice([1]), lambda h: True)
    assert r.outcome == "fixed" and r.state.bore_sight[0].hex == kit.hx("F5")
    r2 = pre_registration_die(st, "75mm", kit.hx("F6"), ScriptedDice([2]), lambda h: True)
    assert r2.state.pre_registration[0].hex == kit.hx("F6")


def _pd_pairs(kit):
    return kit.build(units=[ENEMY, sq("a", "C3"), sq("b", "C5")],
                     dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2},
                              {"side": "french", "kind": "dummy_stack", "hex": "F7", "counters": 2}])


def test_2_5_final_8_to_10_closes_the_phase_for_that_ledger_and_keeps_every_status(kit):
    """O'Leary 2.5, final DR 8-10: no exchange, no other stack may shift this phase, both stacks
    stay concealed (the potential dummy stays one, the dummy stays on the map).  The next
    window (the APh) is open again."""
    env = kit.env()
    st, clk = kit.at(_pd_pairs(kit), "french", Phase.MPh)
    a, d = st.stacks_at(kit.hx("C3"))[0], st.stacks_at(kit.hx("F5"))[0]
    r = resolve_shift(st, plan_dummy_shift(st, a.id, d.id, env, clock=clk), ScriptedDice([4, 4]), env, clock=clk)
    assert (r.roll.final, r.band) == (8, "disallowed")
    assert r.state.stack(a.id).potential_dummy and r.state.stack(a.id).hex.label == "C3"
    assert r.state.stack(d.id).is_dummy and r.state.stack(d.id).hex.label == "F5"
    b, d2 = r.state.stacks_at(kit.hx("C5"))[0], r.state.stacks_at(kit.hx("F7"))[0]
    ledger = (r.record,)  # the game's ledger after the shift
    later = plan_dummy_shift(r.state, b.id, d2.id, env, clock=clk, ledger=ledger)
    assert not later.eligible and "closed" in later.reason
    assert plan_dummy_shift(r.state, b.id, d2.id, env, clock=Clock(1, "french", Phase.APh), ledger=ledger).eligible


def _hip(kit):
    return kit.build(units=[ENEMY, sq("h", "C3", hidden="hip")],
                     dummies=[{"side": "french", "kind": "dummy_hip", "hex": "J4"}])


def test_2_5_final_11_12_hip_unit_loses_hip_keeps_concealment_and_dummy_hip_is_eliminated(kit):
    """O'Leary 2.5, final DR 11-12 for HIP pieces: "hidden units lose their HIP status, but
    retain concealment if applicable"; the dummy HIP of the attempt is eliminated.  6+6 -1
    (both HIP) = 11.  The German now sees a "?" stack of two counters at C3, nothing at J4."""
    env = kit.env()
    st, clk = kit.at(_hip(kit), "french", Phase.MPh)

    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("J4"), env, clock=clk), ScriptedDice([6, 6]), env, clock=clk)
    assert (r.roll.final, r.band) == (11, "status_lost")
    assert r.state.status_of("h") is FogStatus.CONCEALED and r.state.unit("h").hex.label == "C3"
    assert r.state.dummy_hip == ()
    assert "h" not in r.state.ti
    v = view(r.state, "german")
    assert [(c.hex.label, c.counters) for c in v.concealed_stacks] == [("C3", 2)]


def test_2_5_final_13_hip_unit_revealed_and_ti_for_the_rest_of_the_player_turn(kit):
    """O'Leary 2.5, final DR >= 13: HIP and concealment lost, TI for the remainder of the player
    turn.  6+6 -1 (both HIP) +2 (two earlier shifts) = 13."""
    env = kit.env()
    st, clk = kit.at(_hip(kit), "french", Phase.MPh)

    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("J4"), env, prior=2, clock=clk)
    r = resolve_shift(st, plan, ScriptedDice([6, 6]), env, clock=clk)
    assert (r.roll.final, r.band) == (13, "revealed")
    assert r.state.status_of("h") is FogStatus.NONE and "h" in r.state.ti
    # the game clears TI markers when the next player turn begins (AslgwGame._begin_phase), not before
    assert "h" not in player_turn_began(r.state).ti


def test_2_4_2_5_a_lone_enemy_vehicle_is_an_enemy_unit_with_los(kit):
    """O'Leary 2.4 example (a T-34 may not exchange into Open Ground "in the LOS of an enemy
    unit") and the 2.5 +1 DRM: an enemy tank alone (no infantry anywhere) is an enemy unit
    whose LOS counts, on the rules' own LOS of an open map."""
    from gwasl.rules.fog.env import FogEnv

    tank = {"id": "A7V", "side": "german", "kind": "support_weapon", "weapon": "A7V", "hex": "F1",
            "size_class": "large_vehicle"}
    t34 = sw("t34", "C3", size_class="normal_vehicle")
    s = kit.build(units=[tank, t34], dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2}],
                  hexes={"C3": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = FogEnv()
    assert env.in_enemy_los(st.scenario, "french", kit.hx("F5"))
    a, d = st.stacks_at(kit.hx("C3"))[0], st.stacks_at(kit.hx("F5"))[0]
    p = plan_dummy_shift(st, a.id, d.id, env, clock=clk)
    assert not p.eligible and "vehicle" in p.reason and "2.4" in p.reason
    # A lone enemy gun (no crew) sees nothing: it is not a unit with LOS of its own.
    gun = dict(tank, id="FK96", weapon="FK96", size_class="normal_gun")
    s2 = kit.build(units=[gun, t34], dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2}])
    assert not env.in_enemy_los(kit.at(s2, "french", Phase.MPh)[0].scenario, "french", kit.hx("F5"))


def test_2_5_public_lines_of_a_failed_shift_do_not_tell_which_stack_started_it(kit):
    """O'Leary 2.5, the 14 case of the second example: four real counters in woods, a dummy
    stack of 5 counters in open ground in enemy LOS, APh, DR 11 +1 (LOS) +2 (two earlier
    shifts) = 14: the dummy is eliminated, the other stack revealed and TI.  The German reads
    the same lines whichever of the two stacks asked for the shift."""
    s = kit.build(units=[ENEMY, sq("f1", "C3"), sq("f2", "C3"), sw("f3", "C3"), sw("f4", "C3")],
                  dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 5}],
                  hexes={"C3": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.APh)
    env = kit.env(["F5"])
    a, d = st.stacks_at(kit.hx("C3"))[0], st.stacks_at(kit.hx("F5"))[0]
    r1 = resolve_shift(st, plan_dummy_shift(st, a.id, d.id, env, prior=2, clock=clk), ScriptedDice([5, 6]), env, clock=clk)
    r2 = resolve_shift(st, plan_dummy_shift(st, d.id, a.id, env, prior=2, clock=clk), ScriptedDice([5, 6]), env, clock=clk)
    assert r1.roll.final == r2.roll.final == 14 and r1.band == r2.band == "revealed"
    assert r1.public == r2.public and line(r1, "german") == line(r2, "german") is not None
