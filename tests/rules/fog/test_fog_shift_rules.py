"""O'Leary 2.3-2.5, 3.3, 4.2-4.6, 5.1: windows, eligibility, consistency, ledgers and
what shifted pieces may choose."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gwasl.model.phases import Phase
from gwasl.model.scenario import Position
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import (
    Done,
    DoneKind,
    ShiftChoices,
    ShiftError,
    is_phase_closed,
    plan_cloaked_shift,
    plan_dummy_shift,
    plan_hip_shift,
    plan_minefield_shift,
    prior_shifts,
    shift_window,
)
from gwasl.rules.fog.state import Clock, FogStatus, LedgerKind
from gwasl.rules.fog.status import move_units
from gwasl.rules.fog.words import consequence_lines
from gwasl.rules.garance import wears_garance

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


def unit(uid, hexl, hidden, kind="squad", side="french", **kw):
    d = {"id": uid, "side": side, "kind": kind, "hex": hexl, "hidden": hidden}
    if kind in ("squad", "half_squad"):
        d["class"] = "first_line"
    if kind == "leader":
        d["rating"] = "8-1"
    if kind == "support_weapon":
        d["weapon"] = kw.pop("weapon", "MG")
    d.update(kw)
    return d


def dstack(hexl, n, **kw):
    return {"side": "french", "kind": "dummy_stack", "hex": hexl, "counters": n, **kw}


def sid(st, label, kit):
    return next(s.id for s in st.stacks_at(kit.hx(label)))


# -- windows -------------------------------------------------------------------------
@pytest.mark.parametrize("phasing,phase,kind,open_", [
    ("french", Phase.MPh, LedgerKind.DUMMY, True),
    ("french", Phase.APh, LedgerKind.DUMMY, True),
    ("french", Phase.PFPh, LedgerKind.DUMMY, False),
    ("german", Phase.MPh, LedgerKind.DUMMY, False),
    ("french", Phase.PFPh, LedgerKind.HIP, True),
    ("french", Phase.MPh, LedgerKind.HIP, True),
    ("french", Phase.APh, LedgerKind.HIP, True),
    ("french", Phase.DFPh, LedgerKind.HIP, False),
    ("german", Phase.MPh, LedgerKind.HIP, True),
    ("german", Phase.DFPh, LedgerKind.HIP, True),
    ("german", Phase.PFPh, LedgerKind.HIP, False),
    ("german", Phase.APh, LedgerKind.HIP, False),
    ("french", Phase.AFPh, LedgerKind.CLOAKED, True),
    ("french", Phase.MPh, LedgerKind.CLOAKED, True),
    ("french", Phase.DFPh, LedgerKind.CLOAKED, False),
    ("german", Phase.RPh, LedgerKind.MINEFIELD, True),
])
def test_shift_windows_by_phase_and_kind_o_leary_2_3_3_3_2_5_1(phasing, phase, kind, open_):
    """O'Leary 2.3 (own MPh/APh), 3.3.2 (own PFPh, MPh, APh; enemy MPh; own DFPh), 5.1 (own MPh,
    AFPh, APh), 4.6.4 (minefields on entry, any phase)."""
    assert (shift_window(Clock(1, phasing, phase), "french", kind) is None) is open_


def test_2_3_dummy_shift_only_before_any_friendly_unit_moved(kit):
    """O'Leary 2.3: at the start of the MPh, provided no friendly unit has yet moved."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy"), unit("m", "J9", "none")], dummies=[dstack("F5", 3)])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    assert plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk).eligible
    moved = move_units(st, ["m"], kit.hx("J8"), Position.GROUND, 1)
    acted = replace(clk, acted=True)  # the game marks it when a phasing unit moves (AslgwState.moved_units_of)
    p = plan_dummy_shift(moved, sid(moved, "C3", kit), sid(moved, "F5", kit), env, clock=acted)
    assert not p.eligible and "already moved" in p.reason


# -- counts 2.3.1-2.3.4 -----------------------------------------------------------------------
def test_2_3_3_potential_dummy_stacks_need_equal_real_counters(kit):
    """O'Leary 2.3.3: two potential dummy stacks exchange only with the same number of real counters."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy"), unit("b", "F5", "potential_dummy"),
                         unit("c", "G6", "potential_dummy"), unit("d", "G6", "potential_dummy", "leader")])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    assert plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk).eligible
    p = plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "G6", kit), env, clock=clk)
    assert not p.eligible and "2.3.3" in p.reason


def test_2_3_4_dummy_stacks_need_equal_counters(kit):
    """O'Leary 2.3.4: two dummy stacks exchange only with exactly the same number of counters."""
    s = kit.build(units=[ENEMY], dummies=[dstack("C3", 2), dstack("F5", 2), dstack("G6", 3)])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    assert plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk).eligible
    p = plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "G6", kit), env, clock=clk)
    assert not p.eligible and "2.3.4" in p.reason


def test_2_2_a_plain_concealed_stack_cannot_shift(kit):
    """O'Leary 2.2-2.3: only potential dummy stacks (and dummies) shift; plain "?" stacks do not."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "concealed")], dummies=[dstack("F5", 3)])
    st, clk = kit.at(s, "french", Phase.MPh)
    p = plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), kit.env(), clock=clk)
    assert not p.eligible and "not a potential dummy" in p.reason


def test_2_3_exchange_keeps_counter_counts_and_portion_with_the_location(kit):
    """O'Leary 2.3, 2.3.2: after the exchange each location shows as many counters as before
    (the dummy's spare counters stay with the real stack), and units take the portion of
    the location they move into (2.3: crest/foxhole stays with the location)."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy", **{"in": "foxhole"})],
                  dummies=[dstack("F5", 4)], forts=[{"kind": "foxhole", "hexes": ["C3"]}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    before = {(x.hex.label, x.height) for x in st.stacks}
    r = resolve_shift(st, plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk), ScriptedDice([1, 1]), env, clock=clk)
    assert {(x.hex.label, x.height) for x in r.state.stacks} == before
    assert r.state.unit("a").hex.label == "F5" and r.state.unit("a").position is Position.GROUND
    assert r.state.stack(sid(r.state, "F5", kit)).padding == 2


def test_2_3_potential_dummy_exchanges_with_itself_to_change_ca(kit):
    """O'Leary 2.3: a vehicle or gun exchanging with itself may freely change CA/TCA/VCA and CE/BU."""
    s = kit.build(units=[ENEMY, unit("gun", "C3", "potential_dummy", "support_weapon", weapon="75mm", size_class="normal_gun"),
                         unit("tank", "F5", "potential_dummy", "support_weapon", weapon="A7V", size_class="large_vehicle")])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    g = sid(st, "C3", kit)
    plan = plan_dummy_shift(st, g, g, env, clock=clk)
    assert plan.eligible
    r = resolve_shift(st, plan, ScriptedDice([1, 1]), env, ShiftChoices(ca={"gun": 3}), clock=clk)
    assert r.state.unit("gun").extra["ca"] == 3
    t = sid(r.state, "F5", kit)
    r2 = resolve_shift(r.state, plan_dummy_shift(r.state, t, t, env, clock=clk), ScriptedDice([1, 1]), env,
                       ShiftChoices(ca={"tank": 2}, vca={"tank": 1}, ce={"tank": True}), clock=clk)
    assert (r2.state.unit("tank").extra["ca"], r2.state.unit("tank").extra["vca"], r2.state.unit("tank").extra["ce"]) == (2, 1, True)
    # A squad has no CA to choose.
    assert "ca" not in r2.state.unit("G").extra


def test_2_3_gun_emplaces_after_a_shift_only_if_it_could_at_start(kit):
    """O'Leary 2.3: a gun allowed to emplace at start may be emplaced after a shift."""
    s = kit.build(units=[ENEMY,
                         unit("g1", "C3", "potential_dummy", "support_weapon", size_class="small_gun", may_emplace=True),
                         unit("g2", "F5", "potential_dummy", "support_weapon", size_class="small_gun")])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    a, b = sid(st, "C3", kit), sid(st, "F5", kit)
    r = resolve_shift(st, plan_dummy_shift(st, a, b, env, clock=clk), ScriptedDice([1, 1]), env,
                      ShiftChoices(emplaced={"g1": True, "g2": True}), clock=clk)
    assert r.state.unit("g1").extra.get("emplaced") is True
    assert "emplaced" not in r.state.unit("g2").extra


def test_2_5_emplaced_gun_minus_1(kit):
    """O'Leary 2.5: -1 if either stack contains an emplaced gun."""
    s = kit.build(units=[ENEMY, unit("g1", "C3", "potential_dummy", "support_weapon", size_class="small_gun", emplaced=True)],
                  dummies=[dstack("F5", 2)])
    st, clk = kit.at(s, "french", Phase.MPh)
    plan = plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), kit.env(), clock=clk)
    assert [m.value for m in plan.modifiers if "emplaced" in m.cause] == [-1]


def test_2_5_night_lv_and_balance_drm(kit):
    """O'Leary 2.5: -2 at night, -1 for a LV hindrance at all ranges (mist/fog), and the
    optional scenario balance DRM (remark)."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy")], dummies=[dstack("F5", 2)],
                  night=True, weather="fog", fog={"shift_balance_drm": -1})
    st, clk = kit.at(s, "french", Phase.MPh)
    plan = plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), kit.env(), clock=clk)
    assert sorted(m.value for m in plan.modifiers) == [-2, -1, -1] and plan.drm == -4


# -- consistency 2.4 --------------------------------------------------------------------------
def test_2_4_garance_trousers_forbid_a_shift_into_open_ground_in_enemy_los(kit):
    """O'Leary 2.4 with ASLGW 1.7.2: a French unit in garance trousers (1914 - May 1915) may not
    shift to Open Ground in enemy LOS: it would lose concealment at once."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy")], dummies=[dstack("F5", 2)],
                  hexes={"C3": {"terrain": "woods"}}, date="1914-09-06")
    st, clk = kit.at(s, "french", Phase.MPh)
    assert wears_garance(st.scenario, st.unit("a"))
    p = plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), kit.env(["F5"]), clock=clk)
    assert not p.eligible and "1.7.2" in p.reason and "2.4" in p.reason
    # Out of LOS, or in winter (1.7.3), the same shift is fine.
    assert plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), kit.env([]), clock=clk).eligible
    w, w_clk = kit.at(kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy")], dummies=[dstack("F5", 2)],
                         date="1914-12-20", winter=True), "french", Phase.MPh)
    assert plan_dummy_shift(w, sid(w, "C3", kit), sid(w, "F5", kit), kit.env(["F5"]), clock=w_clk).eligible


def test_2_4_vehicle_into_open_ground_in_enemy_los_refused(kit):
    """O'Leary 2.4 example: a T-34 in woods may not exchange with a dummy in OG in enemy LOS."""
    s = kit.build(units=[ENEMY, unit("t34", "C3", "potential_dummy", "support_weapon", size_class="normal_vehicle")],
                  dummies=[dstack("F5", 2)], hexes={"C3": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    p = plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), kit.env(["F5"]), clock=clk)
    assert not p.eligible and "vehicle" in p.reason


def test_2_4_bt7_that_used_more_mp_than_a_t35_has_cannot_exchange(kit):
    """O'Leary 2.4 example: a BT-7 (23 MP) that used more than 10 MP may not exchange with a
    T-35 (10 MP)."""
    s = kit.build(units=[ENEMY,
                         unit("bt7", "C3", "potential_dummy", "support_weapon", size_class="small_vehicle", movement_allowance=23),
                         unit("t35", "F5", "potential_dummy", "support_weapon", size_class="large_vehicle", movement_allowance=10)])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    assert plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk).eligible
    st = move_units(st, ["bt7"], kit.hx("C4"), Position.GROUND, 12)
    p = plan_dummy_shift(st, sid(st, "C4", kit), sid(st, "F5", kit), env, clock=Clock(2, "french", Phase.MPh))
    assert not p.eligible and "12 MF" in p.reason and "2.4" in p.reason


def test_2_4_a_squad_with_its_leader_has_the_6_mf_of_aslgw_1_3_for_the_mf_history(kit):
    """O'Leary 2.4 with ASLGW 1.3: the MF a unit "could have spent" is the MF movement gives
    it -- 6 for a squad stacked with a leader (or in platoon formation with its leader), 4
    alone -- so a stack that spent 5 MF may exchange with a squad and its leader, not with a
    lone squad (gwasl.rules.fog.env.default_mf_allowance)."""
    from gwasl.rules.fog.env import default_mf_allowance

    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy"), unit("al", "C3", "potential_dummy", "leader"),
                         unit("b", "F5", "potential_dummy"), unit("bl", "F5", "potential_dummy", "leader"),
                         unit("c", "H7", "potential_dummy"), unit("c2", "H7", "potential_dummy")])
    st, _ = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    assert default_mf_allowance(s, s.unit("b")) == 6.0 and default_mf_allowance(s, s.unit("c")) == 4.0
    st = move_units(st, ["a", "al"], kit.hx("C4"), Position.GROUND, 5)
    clk = Clock(2, "french", Phase.MPh)
    assert plan_dummy_shift(st, sid(st, "C4", kit), sid(st, "F5", kit), env, clock=clk).eligible
    no = plan_dummy_shift(st, sid(st, "C4", kit), sid(st, "H7", kit), env, clock=clk)
    assert not no.eligible and "5 MF, more than c's 4" in no.reason and "2.4" in no.reason


# -- ledgers ------------------------------------------------------------------------------------
def test_3_3_4_dummy_and_hip_ledgers_are_separate(kit):
    """O'Leary 3.3.4 (with 2.5, final DR 8-10): a failed dummy shift does not stop HIP shifts, and earlier dummy shifts
    add nothing to HIP shift DRs."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy"), unit("h", "H2", "hip")],
                  dummies=[dstack("F5", 2), {"side": "french", "kind": "dummy_hip", "hex": "J4"}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    r = resolve_shift(st, plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk), ScriptedDice([4, 5]), env, clock=clk)
    ledger = (r.record,)
    assert r.band == "disallowed" and is_phase_closed(ledger, clk, "french", LedgerKind.DUMMY)
    hp = plan_hip_shift(r.state, "french", kit.hx("H2"), kit.hx("J4"), env, clock=clk, ledger=ledger)
    assert hp.eligible and hp.facts.prior_shifts == 0


def test_2_5_each_earlier_shift_adds_one(kit):
    """O'Leary 2.5: +1 for each previous shift that side has made in this phase."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy"), unit("b", "C5", "potential_dummy")],
                  dummies=[dstack("F5", 2), dstack("F7", 2)])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    r = resolve_shift(st, plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk), ScriptedDice([2, 2]), env, clock=clk)
    st, ledger = r.state, (r.record,)
    p = plan_dummy_shift(st, sid(st, "C5", kit), sid(st, "F7", kit), env, clock=clk, ledger=ledger)
    assert p.facts.prior_shifts == 1 and p.drm == 1
    assert plan_dummy_shift(st, sid(st, "C5", kit), sid(st, "F7", kit), env, clock=clk).drm == 0  # without the ledger
    # A new phase starts a new count.
    assert prior_shifts(ledger, Clock(1, "french", Phase.APh), "french", LedgerKind.DUMMY) == 0


def test_2_5_resolving_an_ineligible_plan_is_refused(kit):
    s = kit.build(units=[ENEMY, unit("a", "C3", "concealed")], dummies=[dstack("F5", 3)])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    with pytest.raises(ShiftError, match="not allowed"):
        resolve_shift(st, plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk), ScriptedDice([1, 1]), env, clock=clk)


def test_ti_stacks_cannot_shift(kit):
    """O'Leary 2.5: a stack marked TI may not shift for the rest of the player turn."""
    from dataclasses import replace

    s = kit.build(units=[ENEMY, unit("a", "C3", "potential_dummy")], dummies=[dstack("F5", 2)])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    assert plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk).eligible
    ti = replace(st, ti=frozenset({"a"}))
    p = plan_dummy_shift(ti, sid(ti, "C3", kit), sid(ti, "F5", kit), env, clock=clk)
    assert not p.eligible and "TI" in p.reason


def test_status_lost_hip_unit_in_open_ground_with_garance_is_revealed(kit):
    """O'Leary 2.5 (11-12): hidden units lose HIP but keep concealment "if applicable" --
    not a garance-trousered unit in Open Ground in enemy LOS (ASLGW 1.7.2)."""
    s = kit.build(units=[ENEMY, unit("h", "H2", "hip")], dummies=[{"side": "french", "kind": "dummy_hip", "hex": "J4"}],
                  date="1915-03-01")
    st, clk = kit.at(s, "french", Phase.PFPh)
    env = kit.env(["H2"])
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("H2"), kit.hx("J4"), env, clock=clk), ScriptedDice([6, 6]), env, clock=clk)
    assert r.band == "status_lost" and r.state.status_of("h") is FogStatus.NONE


# -- HIP specifics ---------------------------------------------------------------------------------
def test_3_3_1_hip_never_with_dummy_or_potential_dummy_stacks(kit):
    """O'Leary 3.3.1: HIP pieces shift only with HIP locations, never with "?" stacks."""
    s = kit.build(units=[ENEMY, unit("h", "H2", "hip"), unit("p", "C3", "potential_dummy")], dummies=[dstack("F5", 3)])
    st, clk = kit.at(s, "french", Phase.MPh)
    p = plan_hip_shift(st, "french", kit.hx("H2"), kit.hx("F5"), kit.env(), clock=clk)
    assert not p.eligible and "no HIP unit" in p.reason
    with pytest.raises(ShiftError):
        plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("H2"), kit.env(), clock=clk)


def test_4_2_fortification_only_where_it_could_have_been_set_up(kit):
    """O'Leary 4.2: a fortification may not shift to a location where it could not have been
    set up (its set-up hexes; a trench never in a building)."""
    s = kit.build(units=[ENEMY],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}, {"side": "french", "kind": "dummy_hip", "hex": "G6"},
                           {"side": "french", "kind": "dummy_hip", "hex": "H2"}],
                  forts=[{"kind": "trench", "hexes": ["C3"], "owner": "french", "hidden": True, "setup_hexes": ["C3", "F5", "H2"]}],
                  hexes={"H2": {"terrain": "stone_building"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    assert plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk).eligible
    p = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("G6"), env, clock=clk)
    assert not p.eligible and "4.2" in p.reason
    p = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("H2"), env, clock=clk)
    assert not p.eligible and "4.2" in p.reason


def test_4_4_hip_units_may_be_inside_a_fortification_that_shifts_in(kit):
    """O'Leary 4.4: a pillbox shifting into a location with HIP units may hold them."""
    s = kit.build(units=[ENEMY, unit("h", "F5", "hip")],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    pill = st.fortifications_at(kit.hx("C3"), "french")[0].id
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, movers_b=(), clock=clk), ScriptedDice([1, 1]), env, clock=clk)
    assert r.state.unit("h").position is Position.PILLBOX
    assert r.state.fortifications_at(kit.hx("F5"), "french")[0].id == pill
    r2 = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, movers_b=(), clock=clk), ScriptedDice([1, 1]), env,
                       ShiftChoices(enter_fortification=False), clock=clk)
    assert r2.state.unit("h").position is Position.GROUND


def test_4_5_fortification_and_units_shift_together_on_one_dr(kit):
    """O'Leary 4.5: fortification and HIP units of one location shift with a single DR."""
    s = kit.build(units=[ENEMY, unit("h", "C3", "hip", **{"in": "foxhole"})],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  forts=[{"kind": "foxhole", "hexes": ["C3"], "owner": "french", "hidden": True}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk), ScriptedDice([1, 1]), env, clock=clk)
    assert r.state.unit("h").hex.label == "F5" and r.state.unit("h").position is Position.FOXHOLE
    assert r.state.fortifications_at(kit.hx("F5"), "french")
    assert len(r.roll.dice) == 2 and r.record.kind is LedgerKind.HIP and r.record.final == r.roll.final


def test_status_lost_reveals_a_hidden_fortification(kit):
    """O'Leary 2.5 with 4: a hidden fortification loses its hidden status on 11-12."""
    s = kit.build(units=[ENEMY], dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env(["C3"])
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk), ScriptedDice([6, 5]), env, clock=clk)
    assert r.band == "status_lost"
    assert not r.state.fortifications and r.state.scenario.map.has_fortification(kit.hx("C3"), r.state.scenario.map.fortifications[0].kind)


# -- minefields 4.6 ---------------------------------------------------------------------------------
def _mines(kit):
    return kit.build(units=[ENEMY],
                     forts=[{"kind": "minefield", "hexes": ["C3"], "owner": "french", "hidden": True, "ap": 6},
                            {"kind": "minefield", "hexes": ["F5"], "owner": "french", "hidden": True, "at": 1},
                            {"kind": "minefield", "hexes": ["J2"], "owner": "french", "ap": 3}],
                     dummies=[{"side": "french", "kind": "dummy_minefield", "hex": "G6"}],
                     side_fog={"french": {"hidden_minefield": {"ap": 6, "at": 1}}})


def test_4_6_2_minefield_exchange_on_entry_reveals_both(kit):
    """O'Leary 4.6 and 4.6.2: a unit enters an unrevealed minefield; it may exchange with another; both
    strengths are revealed whatever the result, and the unit meets the minefield now there."""
    st, clk = kit.at(_mines(kit), "german", Phase.MPh)
    env = kit.env()
    m = st.minefields_at(kit.hx("C3"))[0].id
    o = st.minefields_at(kit.hx("F5"))[0].id
    plan = plan_minefield_shift(st, m, o, env, clock=clk)
    assert plan.eligible and plan.facts.both_hip
    r = resolve_shift(st, plan, ScriptedDice([1, 1]), env, clock=clk)
    assert r.band == "allowed"
    at_c3 = r.state.minefields_at(kit.hx("C3"))[0]
    assert (at_c3.ap, at_c3.at, at_c3.revealed) == (0, 1, True)
    assert r.state.minefields_at(kit.hx("F5"))[0].revealed
    r2 = resolve_shift(st, plan, ScriptedDice([6, 6]), env, clock=clk)
    assert r2.band in ("disallowed", "status_lost", "revealed")
    assert r2.state.minefields_at(kit.hx("C3"))[0].ap == 6 and r2.state.minefields_at(kit.hx("C3"))[0].revealed


def test_4_6_3_4_6_4_a_failed_minefield_shift_closes_nothing(kit):
    """O'Leary 4.6.3-4.6.4: a final DR >= 8 only disallows that shift; other minefields may
    still shift this phase, even after dummy/HIP shifting was closed."""
    st, clk = kit.at(_mines(kit), "german", Phase.MPh)
    env = kit.env()
    m = st.minefields_at(kit.hx("C3"))[0].id
    o = st.minefields_at(kit.hx("F5"))[0].id
    g = st.minefields_at(kit.hx("G6"))[0].id
    r = resolve_shift(st, plan_minefield_shift(st, m, o, env, clock=clk), ScriptedDice([6, 6]), env, clock=clk)
    assert r.roll.final == 12 and r.band == "status_lost" and r.shifted is False
    assert not r.record.closes and not is_phase_closed((r.record,), clk, "french", LedgerKind.MINEFIELD)
    assert all(x.revealed for x in r.state.minefields if x.id in (m, o))
    # A revealed minefield no longer shifts; nothing else was closed.
    p = plan_minefield_shift(r.state, g, m, env, clock=clk)
    assert not p.eligible and "revealed" in p.reason
    assert not r.state.ti


def test_4_6_2_dummy_minefield_revealed_is_removed(kit):
    """O'Leary 4.6.2 with 3.4: a dummy minefield whose strength is revealed is removed."""
    st, clk = kit.at(_mines(kit), "german", Phase.MPh)
    env = kit.env()
    m = st.minefields_at(kit.hx("C3"))[0].id
    g = st.minefields_at(kit.hx("G6"))[0].id
    r = resolve_shift(st, plan_minefield_shift(st, m, g, env, clock=clk), ScriptedDice([1, 1]), env, clock=clk)
    assert r.band == "allowed"
    assert all(not x.dummy for x in r.state.minefields)
    moved = r.state.minefields_at(kit.hx("G6"))
    assert len(moved) == 1 and moved[0].ap == 6 and moved[0].revealed
    assert not r.state.minefields_at(kit.hx("C3"))


def test_4_6_5_hidden_mines_exchange_only_with_hidden_mines(kit):
    """O'Leary 4.6.5: hidden mines exchange only with hidden mines, known only with known."""
    st, clk = kit.at(_mines(kit), "german", Phase.MPh)
    p = plan_minefield_shift(st, st.minefields_at(kit.hx("C3"))[0].id, st.minefields_at(kit.hx("J2"))[0].id, kit.env(), clock=clk)
    assert not p.eligible and "4.6.5" in p.reason


# -- cloaked 5.1 ------------------------------------------------------------------------------------
def test_5_1_cloaked_units_shift_to_any_other_cloaking_counter(kit):
    """O'Leary 5.1: units under a cloaking counter shift beneath any other cloaking counter
    (no counter-count condition); -2 at night."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "concealed", cloaked=True), unit("b", "C3", "concealed", cloaked=True)],
                  dummies=[dstack("F5", 1, cloaked=True)], night=True)
    st, clk = kit.at(s, "french", Phase.AFPh)
    env = kit.env()
    plan = plan_cloaked_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk)
    assert plan.eligible and [m.value for m in plan.modifiers] == [-2]
    r = resolve_shift(st, plan, ScriptedDice([3, 3]), env, clock=clk)
    assert r.state.unit("a").hex.label == "F5"
    acted = replace(clk, acted=True)  # a French unit has fired: the game marks its clock (O'Leary 5.1)
    assert not plan_cloaked_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=acted).eligible


def test_5_2_cloaked_status_once_lost_is_not_regained(kit):
    """O'Leary 5.2 / 2.5: on 11-12 cloaked units lose cloaking but stay concealed."""
    s = kit.build(units=[ENEMY, unit("a", "C3", "concealed", cloaked=True)], dummies=[dstack("F5", 1, cloaked=True)], night=True)
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env(["C3"])
    r = resolve_shift(st, plan_cloaked_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk), ScriptedDice([6, 6]), env, clock=clk)
    assert r.roll.final == 11 and r.band == "status_lost"
    assert r.state.status_of("a") is FogStatus.CONCEALED
    assert not any(x.cloaked for x in r.state.stacks)


# -- caves and tunnels 4.4.1-4.4.2 --------------------------------------------------------------
def _tunnelled(kit):
    return kit.build(units=[ENEMY, unit("h", "C3", "hip", **{"in": "pillbox"})],
                     dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                     forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "tunnel": "D4"},
                            {"kind": "dugout", "hexes": ["H2"], "owner": "french", "hidden": True, "tunnel": "C3",
                             "complex": "K"},
                            {"kind": "dugout", "hexes": ["H6"], "owner": "french", "hidden": True, "complex": "K"}])


def test_4_4_2_tunnel_stays_connected_to_a_shifted_pillbox_and_may_take_a_new_exit(kit):
    """O'Leary 4.4.2: the pillbox shifts; one tunnel end stays in it, the other may be chosen anew;
    a tunnel of another fortification that ended in the pillbox follows it."""
    st, clk = kit.at(_tunnelled(kit), "french", Phase.MPh)
    env = kit.env()
    pill = st.fortifications_at(kit.hx("C3"), "french")[0].id
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk)
    r = resolve_shift(st, plan, ScriptedDice([1, 1]), env, ShiftChoices(tunnel_exits={pill: kit.hx("G5")}), clock=clk)
    moved = r.state.fortifications_at(kit.hx("F5"), "french")[0]
    assert moved.id == pill and moved.extra["tunnel"] == "G5"
    assert r.state.fortifications_at(kit.hx("H2"), "french")[0].extra["tunnel"] == "F5"
    with pytest.raises(ShiftError, match="4.4.2"):
        resolve_shift(st, plan, ScriptedDice([1, 1]), env, ShiftChoices(tunnel_exits={pill: kit.hx("Z99")}), clock=clk)


def test_4_4_1_units_of_a_changed_cave_complex_move_without_a_dr(kit):
    """O'Leary 4.4.1: when a cave of a complex shifts, units inside the complex may be placed in
    any of its caves without a shift DR."""
    s = kit.build(units=[ENEMY, unit("in", "H6", "hip", **{"in": "dugout"})],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "J8"}],
                  forts=[{"kind": "dugout", "hexes": ["H2"], "owner": "french", "hidden": True, "complex": "K"},
                         {"kind": "dugout", "hexes": ["H6"], "owner": "french", "hidden": True, "complex": "K"}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    d2 = st.fortifications_at(kit.hx("H2"), "french")[0].id
    plan = plan_hip_shift(st, "french", kit.hx("H2"), kit.hx("J8"), env, clock=clk)
    r = resolve_shift(st, plan, ScriptedDice([1, 1]), env, ShiftChoices(complex_moves={"in": d2}), clock=clk)
    assert r.state.unit("in").hex.label == "J8" and r.state.unit("in").position is Position.DUGOUT
    assert r.record.kind is LedgerKind.HIP and r.record.counted
    with pytest.raises(ShiftError, match="4.4.1"):
        resolve_shift(st, plan, ScriptedDice([1, 1]), env, ShiftChoices(complex_moves={"G": d2}), clock=clk)


def test_2_3_vehicle_shifted_to_a_crest_line_may_attempt_hull_down(kit):
    """O'Leary 2.3: a vehicle that shifts to a location with a crest line may at once make a HD
    maneuver attempt; elsewhere it may not."""
    s = kit.build(units=[ENEMY, unit("tank", "C3", "potential_dummy", "support_weapon", weapon="Mark IV", size_class="normal_vehicle"),
                         unit("sq", "F5", "potential_dummy")],
                  hexes={"F5": {"crest_line": True}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    r = resolve_shift(st, plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk), ScriptedDice([1, 1]), env, clock=clk)
    assert r.hd_attempts == ("tank",) and Done(DoneKind.HD_MAY_ATTEMPT, units=("tank",)) in r.consequences
    assert "tank may attempt a HD maneuver (O'Leary 2.3)" in consequence_lines(r)
    back, aph = r.state, Clock(1, "french", Phase.APh)
    r2 = resolve_shift(back, plan_dummy_shift(back, sid(back, "C3", kit), sid(back, "F5", kit), env, clock=aph), ScriptedDice([1, 1]), env, clock=aph)
    assert r2.hd_attempts == ()


def test_2_4_2_mortar_crew_and_spotter_shift_together_on_one_dr(kit):
    """O'Leary 2.4.2 (optional): a mortar crew and its spotter in an adjacent location shift as
    one stack with two dummy stacks, on a single DR; the worst TEM of each side counts."""
    from gwasl.rules.fog.shift import plan_group_dummy_shift

    s = kit.build(units=[ENEMY, unit("crew", "C3", "potential_dummy", "crew"), unit("spot", "C4", "potential_dummy", "leader")],
                  dummies=[dstack("G5", 2), dstack("G6", 3)], hexes={"C3": {"terrain": "woods"}, "C4": {"terrain": "woods"},
                                                                   "G5": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    plan = plan_group_dummy_shift(st, [(sid(st, "C3", kit), sid(st, "G5", kit)), (sid(st, "C4", kit), sid(st, "G6", kit))], env, clock=clk)
    assert plan.eligible and plan.drm == 0  # G6 is open ground: worst TEM 0
    r = resolve_shift(st, plan, ScriptedDice([2, 3]), env, clock=clk)
    assert r.state.unit("crew").hex.label == "G5" and r.state.unit("spot").hex.label == "G6"
    assert r.record.kind is LedgerKind.DUMMY and r.roll.dice == (2, 3) and r.public == ()  # one DR; a quiet shift
    bad = plan_group_dummy_shift(st, [(sid(st, "C3", kit), sid(st, "G5", kit)), (sid(st, "C3", kit), sid(st, "G6", kit))], env, clock=clk)
    assert not bad.eligible and "2.4.2" in bad.reason
    fail = resolve_shift(st, plan, ScriptedDice([6, 5]), env, clock=clk)
    assert fail.band == "status_lost" and not any(x.is_dummy for x in fail.state.stacks)
    with pytest.raises(ShiftError, match="2.4.2"):
        plan_group_dummy_shift(st, [(sid(st, "C3", kit), sid(st, "G5", kit))], env, clock=clk)


def test_2_4_garance_hip_unit_may_shift_into_a_trench_in_open_ground(kit):
    """O'Leary 2.4 with ASLGW 1.7.2: a garance-trousered HIP squad in a trench may shift to
    another trench hex of open ground in enemy LOS (it stays in the trench, not in Open
    Ground), but not to a bare open hex in enemy LOS."""
    s = kit.build(units=[ENEMY, unit("h", "C3", "hip", **{"in": "trench"})],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}, {"side": "french", "kind": "dummy_hip", "hex": "G6"}],
                  forts=[{"kind": "trench", "hexes": ["C3", "F5"], "owner": "french"}], date="1915-01-10")
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env(["F5", "G6"])
    assert plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk).eligible
    p = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("G6"), env, clock=clk)
    assert not p.eligible and "1.7.2" in p.reason


def test_2_3_no_emplacement_in_a_building_after_a_shift(kit):
    """O'Leary 2.3: emplaced after a shift only "in appropriate terrain" (not a building)."""
    s = kit.build(units=[ENEMY,
                         unit("g1", "C3", "potential_dummy", "support_weapon", size_class="small_gun", may_emplace=True)],
                  dummies=[dstack("F5", 2)], hexes={"F5": {"terrain": "stone_building"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    r = resolve_shift(st, plan_dummy_shift(st, sid(st, "C3", kit), sid(st, "F5", kit), env, clock=clk), ScriptedDice([1, 1]), env,
                      ShiftChoices(emplaced={"g1": True}), clock=clk)
    assert "emplaced" not in r.state.unit("g1").extra
    (refused,) = [d for d in r.consequences if d.what is DoneKind.NOT_EMPLACED]
    assert refused.units == ("g1",) and f"g1 may not be emplaced at {refused.hex} (O'Leary 2.3)" in consequence_lines(r)


def test_4_4_a_shifted_pillbox_chooses_its_ca(kit):
    """O'Leary 4.4: fortifications with a well-defined CA (pillboxes) choose it after a shift."""
    s = kit.build(units=[ENEMY], dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    pill = st.fortifications_at(kit.hx("C3"), "french")[0].id
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk), ScriptedDice([1, 1]), env,
                      ShiftChoices(ca={pill: 4}), clock=clk)
    assert r.state.fortifications_at(kit.hx("F5"), "french")[0].extra["ca"] == 4


def test_status_lost_gives_one_concealed_stack_per_location_of_the_hex(kit):
    """O'Leary 2.5 (11-12) with A12.1: HIP units that lose HIP but stay concealed form a
    "?" per Location: those IN a dugout do not share the ground's stack (ASLGW 2.2.1).
    (Found by scripts/aslgw_fight.py: a "?" over two Locations could not be moved.)"""
    s = kit.build(units=[ENEMY, unit("a", "H2", "hip"), unit("b", "H2", "hip", **{"in": "dugout"})],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "J4"}],
                  forts=[{"kind": "dugout", "hexes": ["H2"], "owner": "french"}], hexes={"H2": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.PFPh)
    env = kit.env(["H2"])
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("H2"), kit.hx("J4"), env, clock=clk), ScriptedDice([6, 6]), env, clock=clk)
    assert r.band == "status_lost"
    stacks = {(x.position, x.unit_ids) for x in r.state.stacks if x.unit_ids}
    assert stacks == {(Position.GROUND, ("a",)), (Position.DUGOUT, ("b",))}
