"""Every worked example of O'Leary's "Solitaire Play of ASL", with the text's own numbers.

2.3.2; the four examples of 2.5 (final DR 7; 12 and 14; pillbox/cave -1;
halftrack/Tiger +2); 3.1.1; 3.3.3 (both); 3.3.5; 4.3 (both).
"""

from __future__ import annotations

from gwasl.model.phases import Phase
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.checks import dummy_hip_allotment
from gwasl.rules.fog.drm import ShiftFacts, shift_modifiers, total_drm
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import is_phase_closed, plan_dummy_shift, plan_hip_shift, prior_shifts
from gwasl.rules.fog.state import Clock, FogStatus, LedgerKind
from gwasl.rules.fog.status import player_turn_began
from gwasl.rules.validate import validate_scenario

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


def pd(uid, hexl, kind="squad", **kw):
    d = {"id": uid, "side": "french", "kind": kind, "hex": hexl, "hidden": "potential_dummy"}
    if kind in ("squad", "half_squad"):
        d["class"] = "first_line"
    if kind == "leader":
        d["rating"] = kw.pop("rating", "8-1")
    if kind == "support_weapon":
        d["weapon"] = kw.pop("weapon", "LMG")
    d.update(kw)
    return d


def hip(uid, hexl, kind="squad", **kw):
    d = pd(uid, hexl, kind, **kw)
    d["hidden"] = "hip"
    return d


def stack_at(st, label, kit):
    return next(s.id for s in st.stacks_at(kit.hx(label)))


# -- 2.3.2 -------------------------------------------------------------------------
def test_2_3_2_three_real_counters_need_a_dummy_stack_of_at_least_four_counters(kit):
    """O'Leary 2.3.2: 4-6-7 + LMG + 8-1 (3 real counters) may exchange with a dummy
    stack of at least 4 concealment counters, not 3."""
    s = kit.build(units=[ENEMY, pd("sq", "C3"), pd("lmg", "C3", "support_weapon"), pd("ldr", "C3", "leader")],
                  dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 4},
                           {"side": "french", "kind": "dummy_stack", "hex": "G5", "counters": 3}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env()
    a = stack_at(st, "C3", kit)
    assert st.stack(a).real_counters == 3
    assert plan_dummy_shift(st, a, stack_at(st, "F5", kit), env, clock=clk).eligible
    p = plan_dummy_shift(st, a, stack_at(st, "G5", kit), env, clock=clk)
    assert not p.eligible and "2.3.2" in p.reason


# -- 2.5 example 1: final DR 7 ---------------------------------------------------------------
def test_2_5_example_stone_building_to_woods_final_dr_7_shift_made(kit):
    """O'Leary 2.5: PD 4-6-7/LMG/8-1 in a stone building in enemy LOS, dummy of four
    in woods; DR 7, -1 (woods) +1 (LOS) = 7: the shift is made and more may follow."""
    s = kit.build(units=[ENEMY, pd("sq", "C3"), pd("lmg", "C3", "support_weapon"), pd("ldr", "C3", "leader")],
                  dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 4}],
                  hexes={"C3": {"terrain": "stone_building"}, "F5": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env(["C3"])
    plan = plan_dummy_shift(st, stack_at(st, "C3", kit), stack_at(st, "F5", kit), env, clock=clk)
    assert plan.eligible
    assert [m.value for m in plan.modifiers] == [-1, 1]
    r = resolve_shift(st, plan, ScriptedDice([3, 4]), env, clock=clk)
    assert r.roll.total == 7 and r.roll.final == 7 and r.band == "allowed"
    assert {st.unit(u).hex.label for u in ("sq", "lmg", "ldr")} == {"C3"}
    assert {r.state.unit(u).hex.label for u in ("sq", "lmg", "ldr")} == {"F5"}
    assert not is_phase_closed((r.record,), clk, "french", LedgerKind.DUMMY)
    assert prior_shifts((r.record,), clk, "french", LedgerKind.DUMMY) == 1


# -- 2.5 example 2: 12, and 14 with two earlier shifts ---------------------------------------
def _example_2_scenario(kit):
    units = [ENEMY, pd("sq", "C3"), pd("hs", "C3", "half_squad"), pd("hero", "C3", "hero"),
             pd("com", "C3", "leader", rating="10-0"),
             pd("x1", "H2"), pd("x2", "I2")]
    dummies = [{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 5},
               {"side": "french", "kind": "dummy_stack", "hex": "H4", "counters": 2},
               {"side": "french", "kind": "dummy_stack", "hex": "I4", "counters": 2}]
    return kit.build(units=units, dummies=dummies, hexes={"C3": {"terrain": "woods"}})


def test_2_5_example_final_dr_12_dummy_eliminated_pd_status_lost(kit):
    """O'Leary 2.5: 6-2-8, 2-4-7, 1-4-9 hero, 10-0 commissar in woods; dummy of 5 in OG in
    enemy LOS; APh; DR 11 +1 (LOS) = 12: no exchange, the dummy is eliminated, the other
    stack stays concealed but is no longer a potential dummy stack; the APh is closed."""
    s = _example_2_scenario(kit)
    st, clk = kit.at(s, "french", Phase.APh)
    env = kit.env(["F5"])
    a, b = stack_at(st, "C3", kit), stack_at(st, "F5", kit)
    plan = plan_dummy_shift(st, a, b, env, clock=clk)
    assert plan.eligible and [m.value for m in plan.modifiers] == [1]
    r = resolve_shift(st, plan, ScriptedDice([5, 6]), env, clock=clk)
    assert r.roll.final == 12 and r.band == "status_lost"
    assert all(x.id != b for x in r.state.stacks)
    left = r.state.stack(a)
    assert not left.potential_dummy and left.hex.label == "C3"
    assert all(r.state.status_of(u) is FogStatus.CONCEALED for u in ("sq", "hs", "hero", "com"))
    ledger = (r.record,)  # the game keeps the ledger (gwasl.games.aslgw.state.AslgwState.ledger)
    assert is_phase_closed(ledger, clk, "french", LedgerKind.DUMMY)
    assert not plan_dummy_shift(r.state, stack_at(r.state, "H2", kit), stack_at(r.state, "H4", kit), env,
                                clock=clk, ledger=ledger).eligible


def test_2_5_example_two_earlier_shifts_make_it_14_revealed_and_ti(kit):
    """O'Leary 2.5: the same with two pairs already shifted this APh: +2, final 14: the dummy
    is eliminated, the other stack loses concealment and PD status and becomes TI."""
    s = _example_2_scenario(kit)
    st, clk = kit.at(s, "french", Phase.APh)
    env = kit.env(["F5"])
    ledger: tuple = ()
    for x, y in (("H2", "H4"), ("I2", "I4")):
        plan = plan_dummy_shift(st, stack_at(st, x, kit), stack_at(st, y, kit), env, clock=clk, ledger=ledger)
        r = resolve_shift(st, plan, ScriptedDice([2, 2]), env, clock=clk)
        st, ledger = r.state, ledger + (r.record,)
    assert prior_shifts(ledger, clk, "french", LedgerKind.DUMMY) == 2
    a, b = stack_at(st, "C3", kit), stack_at(st, "F5", kit)
    plan = plan_dummy_shift(st, a, b, env, clock=clk, ledger=ledger)
    assert plan.drm == 3
    r = resolve_shift(st, plan, ScriptedDice([5, 6]), env, clock=clk)
    assert r.roll.final == 14 and r.band == "revealed"
    assert not r.state.stacks_at(kit.hx("F5")) and not r.state.stacks_at(kit.hx("C3"))
    assert all(r.state.status_of(u) is FogStatus.NONE for u in ("sq", "hs", "hero", "com"))
    assert {"sq", "hs", "hero", "com"} <= r.state.ti
    assert is_phase_closed(ledger + (r.record,), clk, "french", LedgerKind.DUMMY)
    # TI lasts for the remainder of the player turn only.
    assert not player_turn_began(r.state).ti


# -- 2.5 example 3: pillbox and cave, final DR -1 ---------------------------------------------
def test_2_5_example_pillbox_and_cave_drm_minus_4_final_minus_1_costs_no_later_plus_1(kit):
    """O'Leary 2.5: 4-4-8 in a 1+5+7 pillbox, dummy of 2 in a 1+4+6 cave, no enemy LOS:
    DRM -4 (worst TEM, the cave's, reversed); DR 3 gives -1: shift allowed, and later
    shifts this phase get no +1 from it."""
    assert [m.value for m in shift_modifiers(ShiftFacts(tem_a=5, tem_b=4))] == [-4]
    s = kit.build(units=[ENEMY, pd("sq", "C3", **{"in": "pillbox"}), pd("x1", "H2"), pd("x2", "I2")],
                  dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 2},
                           {"side": "french", "kind": "dummy_stack", "hex": "H4", "counters": 2}],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "tem": 5}])
    st, clk = kit.at(s, "french", Phase.MPh)
    # The cave is not a Great War fortification: its 1+4+6 TEM comes through the injected TEM function.
    def tem(scenario, h, pos, forts):
        from gwasl.rules.fog.env import default_location_tem
        return 4 if h == kit.hx("F5") else default_location_tem(scenario, h, pos, forts)
    env = kit.env([], location_tem=tem)
    plan = plan_dummy_shift(st, stack_at(st, "C3", kit), stack_at(st, "F5", kit), env, clock=clk)
    assert plan.facts.tem_a == 5 and plan.facts.tem_b == 4 and plan.drm == -4
    r = resolve_shift(st, plan, ScriptedDice([1, 2]), env, clock=clk)
    assert r.roll.total == 3 and r.roll.final == -1 and r.band == "allowed"
    assert prior_shifts((r.record,), clk, "french", LedgerKind.DUMMY) == 0
    nxt = plan_dummy_shift(r.state, stack_at(r.state, "H2", kit), stack_at(r.state, "H4", kit), env, clock=clk,
                           ledger=(r.record,))
    assert all("earlier shift" not in m.cause for m in nxt.modifiers)


# -- 2.5 example 4: halftrack and Tiger ------------------------------------------------------
def test_2_5_example_halftrack_and_tiger_in_woods_drm_plus_2(kit):
    """O'Leary 2.5: SPW 250/1 (small vehicle, +1) and Tiger (large vehicle, +3) both in woods out
    of enemy LOS: DRM +2 = -1 (woods) +3; the +1 is superseded by the larger starred DRM."""
    assert total_drm(ShiftFacts(tem_a=1, tem_b=1, size_classes=("small_vehicle", "large_vehicle"))) == 2
    s = kit.build(units=[ENEMY,
                         pd("spw", "C3", "support_weapon", weapon="SPW 250/1", size_class="small_vehicle"),
                         pd("tiger", "F5", "support_weapon", weapon="PzKpfw VIE", size_class="large_vehicle")],
                  hexes={"C3": {"terrain": "woods"}, "F5": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    plan = plan_dummy_shift(st, stack_at(st, "C3", kit), stack_at(st, "F5", kit), env, clock=clk)
    assert plan.eligible
    assert [m.value for m in plan.modifiers] == [-1, 3] and plan.drm == 2


# -- 3.1.1 ---------------------------------------------------------------------------------
def test_3_1_1_five_hip_squads_get_six_dummy_hip_counters(kit):
    """O'Leary 3.1.1: five HIP squads -> six dummy HIP counters; a seventh is refused."""
    units = [ENEMY] + [hip(f"h{i}", f"C{i + 3}") for i in range(5)]
    six = [{"side": "french", "kind": "dummy_hip", "hex": f"E{i + 1}"} for i in range(6)]
    s = kit.build(units=units, dummies=six)
    assert dummy_hip_allotment(s, "french") == 6
    assert validate_scenario(s).valid
    s7 = kit.build(units=units, dummies=six + [{"side": "french", "kind": "dummy_hip", "hex": "F1"}])
    report = validate_scenario(s7)
    assert not report.valid and any("3.1.1" in (f.rule or "") for f in report.errors)


def test_3_1_1_a_lone_hip_gun_gets_two_dummies_and_three_locations(kit):
    """O'Leary 3.1.1: a HIP AT gun and nothing else: two dummy HIP counters; with its set-up
    location it may be shifted among three distinct locations."""
    units = [ENEMY, hip("crew", "C3", "crew"), hip("gun", "C3", "support_weapon", weapon="37mm AT", size_class="small_gun")]
    dummies = [{"side": "french", "kind": "dummy_hip", "hex": "E2"}, {"side": "french", "kind": "dummy_hip", "hex": "G4"}]
    s = kit.build(units=units, dummies=dummies)
    assert dummy_hip_allotment(s, "french") == 2
    st, _clk = kit.at(s, "french", Phase.MPh)
    hip_hexes = {h for h in st.hidden_hexes("french") if st.hip_pieces_at(h, "french")}
    assert {h.label for h in hip_hexes} == {"C3", "E2", "G4"}


# -- 3.3.3 ----------------------------------------------------------------------------------
def _three_squads(kit):
    units = [ENEMY, hip("s1", "C3"), hip("s2", "C3"), hip("s3", "C3"), hip("ldr", "C3", "leader")]
    return kit.build(units=units, dummies=[{"side": "french", "kind": "dummy_hip", "hex": "G4"}])


def test_3_3_3_part_of_a_hip_stack_shifts_the_rest_keeps_hip_if_allowed(kit):
    """O'Leary 3.3 and 3.3.3: 3 4-5-7 and a leader; one squad and the leader shift to a lone dummy
    HIP; the two other squads keep HIP status."""
    s = _three_squads(kit)
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("G4"), env, movers_a=("s1", "ldr"), clock=clk)
    assert plan.eligible and plan.facts.both_hip
    r = resolve_shift(st, plan, ScriptedDice([2, 3]), env, clock=clk)
    assert r.band == "allowed"
    assert r.state.unit("s1").hex.label == "G4" and r.state.unit("ldr").hex.label == "G4"
    assert {u.id for u in r.state.hip_units_at(kit.hx("C3"), "french")} == {"s2", "s3"}
    assert [d.hex.label for d in r.state.dummy_hip] == ["C3"]  # the dummy HIP took the other end


def test_3_3_3_remaining_squads_keep_hip_whatever_the_result(kit):
    """O'Leary 3.3.3: "Regardless of the results of the shift attempt, the two remaining
    squads will retain their HIP status" -- even on 11-12, which costs the movers their HIP."""
    s = _three_squads(kit)
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("G4"), env, movers_a=("s1", "ldr"), clock=clk)
    r = resolve_shift(st, plan, ScriptedDice([6, 6]), env, clock=clk)  # 12 - 1 (both HIP) = 11
    assert r.roll.final == 11 and r.band == "status_lost"
    assert r.state.status_of("s2") is FogStatus.HIP and r.state.status_of("s3") is FogStatus.HIP
    assert r.state.status_of("s1") is FogStatus.CONCEALED and r.state.status_of("ldr") is FogStatus.CONCEALED
    assert not r.state.dummy_hip  # the dummy HIP counter of the attempt is eliminated


def test_3_3_3_six_six_six_to_a_five_three_six_that_stays_leaves_a_dummy_hip(kit):
    """O'Leary 3.3.3: HIP 6-6-6 shifts to the location of a HIP 5-3-6, which need not move;
    the 6-6-6's old location, now without HIP units, gets a dummy HIP counter."""
    s = kit.build(units=[ENEMY, hip("666", "C3"), hip("536", "G4")])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("G4"), env, clock=clk)
    assert plan.movers_b == ()
    r = resolve_shift(st, plan, ScriptedDice([3, 3]), env, clock=clk)
    assert r.band == "allowed"
    assert r.state.unit("666").hex.label == "G4" and r.state.unit("536").hex.label == "G4"
    assert [d.hex.label for d in r.state.dummy_hip] == ["C3"]


# -- 3.3.5 -----------------------------------------------------------------------------------
def test_3_3_5_failure_in_enemy_mph_closes_shifting_until_the_sides_pfph(kit):
    """O'Leary 3.3.5: the 6-6-6 / 5-3-6 shift fails in the enemy MPh: no other stack of that
    side may shift in that MPh or its DFPh (one phase for this purpose), but it may again
    in its upcoming PFPh."""
    s = kit.build(units=[ENEMY, hip("666", "C3"), hip("536", "G4"), hip("x", "B8")],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "J2"}])
    st, clk = kit.at(s, "german", Phase.MPh)
    env = kit.env([])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("G4"), env, clock=clk)
    r = resolve_shift(st, plan, ScriptedDice([4, 5]), env, clock=clk)  # 9 - 1 = 8: disallowed
    assert r.band == "disallowed"
    st, ledger = r.state, (r.record,)
    assert not plan_hip_shift(st, "french", kit.hx("B8"), kit.hx("J2"), env, clock=clk, ledger=ledger).eligible
    dfph = Clock(1, "german", Phase.DFPh)
    p = plan_hip_shift(st, "french", kit.hx("B8"), kit.hx("J2"), env, clock=dfph, ledger=ledger)
    assert not p.eligible and "3.3.5" in p.reason
    pfph = Clock(1, "french", Phase.PFPh)
    assert plan_hip_shift(st, "french", kit.hx("B8"), kit.hx("J2"), env, clock=pfph, ledger=ledger).eligible
    # The failed stack itself (not TI) may try again in that later phase.
    assert plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("G4"), env, clock=pfph, ledger=ledger).eligible


# -- 4.3 ------------------------------------------------------------------------------------
def test_4_3_pillbox_in_woods_to_foxhole_in_woods_tem_drm_minus_1(kit):
    """O'Leary 4.3: a 1+3+5 pillbox in woods shifts with a foxhole in other woods: the TEM
    DRM is -1 (woods); neither fortification's TEM is used."""
    s = kit.build(units=[ENEMY],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "tem": 3},
                         {"kind": "foxhole", "hexes": ["F5"], "owner": "french", "hidden": True}],
                  hexes={"C3": {"terrain": "woods"}, "F5": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    pill = st.fortifications_at(kit.hx("C3"), "french")[0].id
    fox = st.fortifications_at(kit.hx("F5"), "french")[0].id
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, movers_a=(pill,), movers_b=(fox,), clock=clk)
    assert plan.eligible
    tem = [m.value for m in plan.modifiers if "TEM" in m.cause]
    assert tem == [-1]
    r = resolve_shift(st, plan, ScriptedDice([1, 1]), env, clock=clk)
    assert r.state.fortifications_at(kit.hx("F5"), "french")[0].kind.value == "pillbox"
    assert r.state.fortifications_at(kit.hx("C3"), "french")[0].kind.value == "foxhole"


def test_4_3_fortified_stone_building_to_dummy_hip_in_stone_building_minus_3(kit):
    """O'Leary 4.3: a fortified location in a stone building shifts to a dummy HIP in another
    stone building: -3 (stone building); the fortification's own TEM is not used."""
    s = kit.build(units=[ENEMY],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "tem": 4}],
                  hexes={"C3": {"terrain": "stone_building"}, "F5": {"terrain": "stone_building"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk)
    assert [m.value for m in plan.modifiers if "TEM" in m.cause] == [-3]


def test_4_5_a_fortification_not_shifted_lends_its_tem(kit):
    """O'Leary 4.5 (last sentence): when only the units shift, the fortification they leave
    still counts for the TEM DRM."""
    s = kit.build(units=[ENEMY, hip("sq", "C3", **{"in": "pillbox"})],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}, {"side": "french", "kind": "dummy_hip", "hex": "G6"}],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "tem": 4}],
                  hexes={"C3": {"terrain": "woods"}, "F5": {"terrain": "stone_building"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, movers_a=("sq",), clock=clk)
    assert plan.facts.tem_a == 4 and [m.value for m in plan.modifiers if "TEM" in m.cause] == [-3]
    both = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk)
    assert both.facts.tem_a == 1  # pillbox shifted with the squad (4.5): woods only
