"""Fire in play (issue 12): Prep Fire, Defensive First Fire at the units that just moved
(A8.1) with FFMO/FFNAM (A4.6), Subsequent First Fire (A8.3), Final Protective Fire
(A8.31), Residual FP (A8.2), Final Fire (A8.4) and Advancing Fire (A7.25); fire
groups and leadership (ASLGW 1.3), TEM of deep trenches and dugouts (ASLGW 2.1.6,
2.2.2-2.2.4), garance (ASLGW 1.7.1), PBF without grenades (ASLGW 1.6.62), MMG/HMG
crews (ASLGW 1.6.2), flamethrowers (ASLGW 1.6.4), RoF and breakdown (ASLGW 1.6.1),
the NTC of ASLGW 1.3.2, area fire at "?" (A7.23) and HIP immunity (O'Leary 3.2.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.combat_support import causes, emitter, flat, of, rolls
from gwasl.engine.game import IllegalAction
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.records import (
    ConcealmentLost,
    EndPhase,
    Fire,
    FireNtc,
    FireResolved,
    Marked,
    Move,
    ResidualPlaced,
    WeaponChanged,
)
from gwasl.model.phases import Phase


def ift(events):
    return next(r for r in rolls(events) if "IFT" in r.cause)


def fires(s, viewer="player", mode=None, at=None):
    return [a.action for a in s.legal(viewer) if isinstance(a.action, Fire)
            and (mode is None or a.action.mode == mode) and (at is None or a.action.at == at)]


def crew(uid, hx, side="german", **kw):
    return {"id": uid, "side": side, "kind": "crew", "hex": hx, **kw}


def weapon(uid, hx, name, side="german", **kw):
    return {"id": uid, "side": side, "kind": "support_weapon", "weapon": name, "hex": hx, **kw}


# ---------------------------------------------------------------------------
# Prep Fire, fire groups, leadership


def test_prep_fire_offers_each_unit_the_stack_and_the_fire_group_with_its_leader_aslgw_1_3():
    """ASLGW 1.3: the leader's leadership applies in a fire phase only to units stacked with
    him: the B2 stack gets his -1, a fire group reaching over to C2 gets none."""
    d = doc([squad("G1", "B2"), squad("G2", "B2"), leader("GL", "B2", rating="9-1"), squad("G3", "C2"),
             squad("F", "E3", "french")])
    s = session(d)
    to_phase(s, "PFPh")
    opts = {a.firers for a in fires(s, at="E3")}
    assert ("G1", "GL") in opts and ("G1", "G2", "GL") in opts and ("G3",) in opts
    group = next(a for a in fires(s, at="E3") if set(a.firers) >= {"G1", "G2", "G3"})
    events = flat(s.act(group))
    roll = rolls(events)[0]
    assert not any("leadership" in c for c in causes(roll))
    fire = of(events, FireResolved)[0]
    assert "no leadership" in " ".join(fire.notes)
    s2 = session(d)
    to_phase(s2, "PFPh")
    roll2 = rolls(flat(s2.act(Fire(("G1", "G2", "GL"), "E3", "ground", "prep"))))[0]
    assert any(m.value == -1 and "leadership of GL" in m.cause and "ASLGW 1.3" in m.cause for m in roll2.modifiers)


def test_prep_fire_marks_the_firers_who_then_do_not_move_a3_3():
    s = session(doc([squad("G1", "B2"), leader("GL", "B2"), squad("F", "E3", "french")]))
    to_phase(s, "PFPh")
    events = flat(s.act(Fire(("G1", "GL"), "E3", "ground", "prep")))
    assert of(events, Marked)[0].mark == "prep"
    to_phase(s, "MPh")
    assert not [a for a in s.legal() if isinstance(a.action, Move) and "G1" in a.action.pieces]
    with pytest.raises(IllegalAction, match="A3.3"):
        s.act(Move(("G1",), "B3", "ground"))


def test_the_odds_of_a_fire_are_exact_and_the_roll_reads_the_same_table_a7_3():
    d = doc([squad("G1", "B2"), squad("G2", "B2"), leader("GL", "B2", rating="8-0"), squad("F", "D3", "french")],
            hexes={"D3": {"terrain": "woods"}})
    s = session(d, seed=5)
    to_phase(s, "PFPh")
    act = Fire(("G1", "G2", "GL"), "D3", "ground", "prep")
    odds = s.odds(act)
    assert abs(sum(o.p for o in odds) - 1) < 1e-12
    events = flat(s.act(act))
    roll, fire = ift(events), of(events, FireResolved)[0]
    assert [m.value for m in roll.modifiers] == [1]  # woods TEM +1 (B13); the 8-0 leader adds nothing
    got = fire.results[0].split(": ")[1]
    assert any(o.result == got and o.p > 0 for o in odds)
    # the attack the odds were built from is the one resolved: 8 FP at 2 hexes
    assert fire.fp == "8" and fire.final == roll.final


# ---------------------------------------------------------------------------
# Defensive First Fire, SFF, FPF, Residual FP


def _dff_session(**kw):
    # the French squad in B6 sees the German moving up column C in open ground
    d = doc([squad("G", "C2"), leader("GL", "C2"), squad("F", "B6", "french"), leader("FL", "B6", "french")], **kw)
    s = session(d, seed=kw.pop("seed", 1))
    to_phase(s, "MPh")
    return s


def test_the_defender_may_fire_at_the_unit_that_just_moved_with_ffmo_and_ffnam_a8_1_a4_6():
    s = _dff_session()
    assert not fires(s)  # nothing has moved yet
    s.act(Move(("G", "GL"), "C3", "ground"))
    first = fires(s, mode="first")
    assert first and all(a.at == "C3" for a in first)
    assert s.status().side == "german"  # the mover keeps the move; the defender's fire is listed beside it
    events = flat(s.act(next(a for a in first if "FL" in a.firers)))
    roll = rolls(events)[0]
    assert {"FFMO: moving in Open Ground (A4.6)", "FFNAM: not Assault Moving (A4.6)"} <= set(causes(roll))
    assert of(events, Marked)[0].mark == "first"
    assert of(events, ResidualPlaced)  # A8.2


def test_an_assault_move_spares_ffnam_a4_6():
    s = _dff_session()
    s.act(Move(("G", "GL"), "C3", "ground", "assault"))
    roll = rolls(flat(s.act(fires(s, mode="first")[0])))[0]
    assert not any("FFNAM" in c for c in causes(roll)) and any("FFMO" in c for c in causes(roll))


def test_the_chance_to_fire_at_a_mover_lapses_when_the_next_move_is_made_a8_1():
    s = _dff_session()
    s.act(Move(("G", "GL"), "C3", "ground"))
    assert fires(s, at="C3")
    s.act(Move(("G", "GL"), "C4", "ground"))
    assert fires(s) and not fires(s, at="C3")


def test_subsequent_first_fire_is_halved_within_normal_range_then_fpf_only_adjacent_a8_3_a8_31():
    s = _dff_session()
    s.act(Move(("G", "GL"), "C3", "ground"))
    s.act(Fire(("F", "FL"), "C3", "ground", "first"))
    sff = fires(s, mode="subsequent")
    assert sff
    ev = flat(s.act(sff[0]))
    fire = of(ev, FireResolved)[0]
    assert "Subsequent First Fire (A8.3)" in " ".join(fire.parts)
    assert of(ev, Marked)[0].mark == "final"
    if s.state.scenario.unit("G").broken:
        return
    # C4 is 2 hexes from B6: no FPF there; C5 is ADJACENT: FPF (A8.31)
    s.act(Move(("G", "GL"), "C4", "ground"))
    assert not fires(s, mode="fpf")
    if not any(u.id == "G" and not u.broken for u in s.state.scenario.units) or s.state.unit_play("G").pinned:
        return
    s.act(Move(("G", "GL"), "C5", "ground"))
    assert fires(s, mode="fpf")


def test_residual_fp_attacks_the_next_unit_entering_the_location_a8_2():
    d = doc([squad("G", "C2"), leader("GL", "C2"), squad("H", "B3"), leader("HL", "B3"), squad("F", "B6", "french"),
             leader("FL", "B6", "french")])
    s = session(d, seed=3)
    to_phase(s, "MPh")
    s.act(Move(("G", "GL"), "C3", "ground"))
    s.act(Fire(("F", "FL"), "C3", "ground", "first"))
    assert s.state.combat.residual.get(("C3", "ground"))
    events = flat(s.act(Move(("H", "HL"), "C3", "ground")))
    residual = [f for f in of(events, FireResolved) if f.mode == "residual"]
    assert residual and residual[0].at == "C3"
    assert any("Residual FP" in r.cause for r in rolls(events))
    s.act(EndPhase())
    assert not s.state.combat.residual  # it lasts the MPh only


def test_final_fire_in_the_dfph_and_advancing_fire_halved_after_moving_a8_4_a7_25():
    s = _dff_session()
    s.act(Move(("G", "GL"), "C3", "ground"))
    to_phase(s, "DFPh")
    assert s.status().side == "french"
    final = fires(s, mode="final")
    assert final and all(a.at == "C3" for a in final)
    s.act(EndPhase())
    assert s.state.phase is Phase.AFPh
    adv = next(a for a in fires(s, mode="advancing") if "G" in a.firers)
    fire = of(flat(s.act(adv)), FireResolved)[0]
    assert "Advancing Fire after moving (A7.25)" in " ".join(fire.parts)


# ---------------------------------------------------------------------------
# Command: the NTC to fire (ASLGW 1.3.2)


def test_an_out_of_command_unit_passes_an_ntc_to_prep_fire_unless_an_enemy_is_adjacent_aslgw_1_3_2():
    d = doc([squad("G", "B2"), squad("F", "D4", "french"), squad("N", "G7", "french")], game={"first_moves": "french"})
    s = session(d)
    to_phase(s, "PFPh", "french")
    ev = flat(s.act(Fire(("F",), "B2", "ground", "prep")))
    ntc = of(ev, FireNtc)
    assert ntc and ntc[0].unit == "F" and "ASLGW 1.3.2" in rolls(ev)[0].cause
    # a French squad ADJACENT to the German fires without the NTC
    d2 = doc([squad("G", "B2"), squad("F", "C2", "french")], game={"first_moves": "french"})
    s2 = session(d2)
    to_phase(s2, "PFPh", "french")
    assert not of(flat(s2.act(Fire(("F",), "B2", "ground", "prep"))), FireNtc)


# ---------------------------------------------------------------------------
# Terrain and hindrance


def test_garance_trousers_cancel_the_first_hindrance_aslgw_1_7_1():
    """ASLGW 1.7.1's example: Germans fire at French through brush: one brush hex between them
    gives no hindrance DRM, two give +1."""
    for brush, want in ((["C2"], 0), (["C2", "D3"], 1)):
        d = doc([squad("G", "B2"), squad("F", "E3", "french")], date="1914-09-06",
                hexes={h: {"terrain": "brush"} for h in brush})
        s = session(d)
        to_phase(s, "PFPh")
        sc = s.state.scenario
        parts, leaders, t = fr._parse(s.state, sc, Fire(("G",), "E3", "ground", "prep"))
        b = fr._build(s.state, sc, parts, leaders, t, "german", False, True)
        hind = [m.value for m in b.attack.modifiers if "hindrance" in m.cause]
        assert sum(hind) == want


def test_deep_trench_crest_gives_plus_three_and_in_cannot_be_seen_aslgw_2_1_6_2_1_5():
    forts = [{"kind": "deep_trench", "hexes": ["E3", "E4"], "owner": "french"}]
    d = doc([squad("G", "B2"), leader("GL", "B2"), squad("F", "E3", "french", **{"in": "deep_trench_crest"}),
             squad("H", "E4", "french", **{"in": "deep_trench"})], forts=forts)
    s = session(d)
    to_phase(s, "PFPh")
    assert {a.at for a in fires(s)} == {"E3"}  # E4 IN the deep trench is seen from its own hex only (2.1.5)
    roll = ift(flat(s.act(Fire(("G", "GL"), "E3", "deep_trench_crest", "prep"))))
    assert any(m.value == 3 and "ASLGW 2.1.6" in m.cause for m in roll.modifiers)


def test_fire_into_a_dugout_only_from_its_hex_is_tpbf_with_plus_two_and_out_of_it_plus_three_aslgw_2_2_2_2_2_4():
    forts = [{"kind": "dugout", "hexes": ["C3"], "owner": "french"}]
    d = doc([squad("G", "C3"), squad("F", "C3", "french", **{"in": "dugout"}), squad("H", "D3", "french")],
            forts=forts, game={"first_moves": "german"})
    s = session(d)
    to_phase(s, "PFPh")
    into = next(a for a in fires(s) if a.at_in == "dugout")
    sc = s.state.scenario
    parts, leaders, t = fr._parse(s.state, sc, into)
    b = fr._build(s.state, sc, parts, leaders, t, "german", False, True)
    assert b.attack.parts[0].fp == 12  # TPBF x3 (ASLGW 2.2.3; hand grenades in 1917)
    assert [m.value for m in b.attack.modifiers if "TEM" in m.cause] == [2]
    # the French in the dugout fires out: +3, no TPBF (2.2.4)
    to_phase(s, "DFPh")
    out = next(a for a in fires(s) if "F" in a.firers)
    parts, leaders, t = fr._parse(s.state, sc, out)
    b = fr._build(s.state, sc, parts, leaders, t, "french", False, True)
    assert any(m.value == 3 and "ASLGW 2.2.4" in m.cause for m in b.attack.modifiers)
    assert "TPBF" not in b.attack.parts[0].explain()


def test_pbf_without_hand_grenades_is_one_and_a_half_aslgw_1_6_62():
    d = doc([squad("G", "B2"), squad("F", "C2", "french")], date="1915-06-01")
    s = session(d)
    to_phase(s, "PFPh")
    sc = s.state.scenario
    parts, leaders, t = fr._parse(s.state, sc, Fire(("G",), "C2", "ground", "prep"))
    b = fr._build(s.state, sc, parts, leaders, t, "german", False, True)
    assert b.attack.parts[0].fp == 6 and "ASLGW 1.6.62" in b.attack.parts[0].explain()


# ---------------------------------------------------------------------------
# Support weapons


def test_mmg_and_hmg_fire_only_with_a_crew_aslgw_1_6_2():
    """ASLGW 1.6.2: with its crew gone, the squad left holding the MG08 may not fire it."""
    d = doc([crew("C", "B2"), weapon("MG", "B2", "MG08"), squad("S", "B2"), leader("GL", "B2"), squad("F", "E4", "french")])
    s = session(d)
    to_phase(s, "PFPh")
    assert "MG" in {f for a in fires(s) for f in a.firers}
    em = emitter(s, [])
    from gwasl.games.aslgw import effects as fx

    fx.eliminate(em, "C", "test")
    from gwasl.games.aslgw.state import AslgwState

    st: AslgwState = em.state
    from gwasl.engine.game import Viewer

    opts = fr.fire_options(st, Viewer("player", frozenset({"german", "french"})))
    assert opts and "MG" not in {f for a in opts for f in a.firers}


def test_rof_breakdown_and_repair_aslgw_1_6_1_a9_7_a9_72():
    d = doc([crew("C", "B2"), weapon("MG", "B2", "MG08"), leader("GL", "B2"), squad("F", "F5", "french")])
    s = session(d)
    to_phase(s, "PFPh")
    em = emitter(s, [2, 6, 3, 4, 3, 4])  # coloured 2 <= RoF 2: the MG08 keeps firing
    fr.resolve(em, Fire(("GL", "MG"), "F5", "ground", "prep"))
    fire = of(em.events, FireResolved)[0]
    assert fire.rof_kept == ("MG",) and "MG" not in of(em.events, Marked)[0].units
    em2 = emitter(s, [6, 5, 3, 4, 3, 4])  # original 11 >= B# 11: malfunction
    fr.resolve(em2, Fire(("GL", "MG"), "F5", "ground", "prep"))
    assert of(em2.events, WeaponChanged)[0].status == "malfunctioned"
    assert em2.state.combat.mark("MG").malfunctioned


def test_the_flamethrower_fires_alone_adjacent_without_tem_and_is_used_up_on_its_x_aslgw_1_6_4():
    d = doc([squad("G", "B2"), leader("GL", "B2"), weapon("FT", "B2", "Kleinflammenwerfer"), squad("F", "C2", "french"),
             squad("E", "D3", "french")], hexes={"C2": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "PFPh")
    ft = [a for a in fires(s) if "FT" in a.firers]
    assert ft and all(a.firers == ("FT",) and a.at == "C2" for a in ft)  # adjacent only (1.6.41 note 1)
    sc = s.state.scenario
    parts, leaders, t = fr._parse(s.state, sc, ft[0])
    b = fr._build(s.state, sc, parts, leaders, t, "german", False, True)
    assert b.attack.fp == 12 and not [m for m in b.attack.modifiers if "TEM" in m.cause]
    em = emitter(s, [4, 5] + [3, 4] * 5)
    fr.resolve(em, ft[0])
    assert of(em.events, WeaponChanged)[0].status == "used_up"
    assert not any(u.id == "FT" for u in em.state.scenario.units)


# ---------------------------------------------------------------------------
# The fog layer


def test_fire_at_a_concealed_location_is_area_fire_and_reveals_only_on_an_effect_a7_23_a12_121():
    d = doc([squad("G", "B2"), squad("G2", "B2"), leader("GL", "B2"), squad("F", "E3", "french", hidden="concealed")])
    s = session(d)
    to_phase(s, "PFPh")
    act = Fire(("G", "G2", "GL"), "E3", "ground", "prep")
    assert act in fires(s, viewer="german")
    miss = emitter(s, [6, 5])
    fr.resolve(miss, act)
    assert of(miss.events, FireResolved)[0].results == ('"?": no effect',) and not of(miss.events, ConcealmentLost)
    assert miss.state.fog.status_of("F").value == "concealed"
    hit = emitter(s, [1, 2, 3, 3])
    fr.resolve(hit, act)
    fire = of(hit.events, FireResolved)[0]
    assert fire.results[0].startswith('"?": ') and "no effect" not in fire.results[0]
    assert any(e.units == ("F",) for e in of(hit.events, ConcealmentLost))
    sc = s.state.scenario
    parts, leaders, t = fr._parse(s.state, sc, act)
    b = fr._build(s.state, sc, parts, leaders, t, "german", True, False)
    assert b.attack.group_fp('"?"') == Fraction(4)  # 8 FP halved (A7.23)


def test_hip_units_are_immune_and_no_target_o_leary_3_2_1():
    d = doc([squad("G", "B2"), leader("GL", "B2"), squad("F", "E3", "french", hidden="hip"), squad("V", "E3", "french")])
    s = session(d)
    to_phase(s, "PFPh")
    em = emitter(s, [1, 2] + [6] * 20)
    fr.resolve(em, Fire(("G", "GL"), "E3", "ground", "prep"))
    assert em.state.fog.status_of("F").value == "hip" and not em.state.scenario.unit("F").broken
    d2 = doc([squad("G", "B2"), squad("F", "E3", "french", hidden="hip")])
    s2 = session(d2)
    to_phase(s2, "PFPh")
    assert not fires(s2)


def test_residual_fp_attacks_a_platoon_member_entering_it_in_an_impulse_a8_2_aslgw_1_4_1():
    from games.aslgw.builders import actions
    from gwasl.games.aslgw.records import ImpulseStep

    units = [leader("PL", "B3", platoon="P")] + [squad(f"P{i}", "B3" if i < 3 else "B4", platoon="P") for i in range(6)]
    d = doc(units + [squad("F", "B6", "french"), leader("FL", "B6", "french"), squad("H", "C2"), leader("HL", "C2")],
            formations=[{"id": "P", "kind": "platoon", "leader": "PL"}])
    s = session(d, seed=2)
    to_phase(s, "MPh")
    s.act(Move(("H", "HL"), "C3", "ground"))
    s.act(Fire(("F", "FL"), "C3", "ground", "first"))
    assert s.state.combat.residual.get(("C3", "ground"))
    step = next(a for a in actions(s) if isinstance(a, ImpulseStep) and a.to == "C3")
    events = flat(s.act(step))
    assert any(f.mode == "residual" for f in of(events, FireResolved))


def test_a_platoon_member_broken_in_its_impulse_leaves_the_impulse_aslgw_1_4_11_a8_2():
    """Found by benchmarks/aslgw_fire.py: a member broken by Residual FP as it entered
    stayed among the impulse's movers, and the MPh could neither end nor go on."""
    from games.aslgw.builders import actions
    from gwasl.games.aslgw import effects as fx
    from gwasl.games.aslgw.records import ImpulseStep

    units = [leader("PL", "B3", platoon="P")] + [squad(f"P{i}", "B3" if i < 3 else "B4", platoon="P") for i in range(6)]
    d = doc(units + [squad("F", "J9", "french")], formations=[{"id": "P", "kind": "platoon", "leader": "PL"}])
    s = session(d)
    to_phase(s, "MPh")
    s.act(next(a for a in actions(s) if isinstance(a, ImpulseStep) and a.unit == "P0"))
    assert "P0" in s.state.impulse.steps
    em = emitter(s, [])
    fx.break_unit(em, "P0", "Residual FP (test)")
    assert em.state.impulse is None  # its only mover gone, the impulse is over
    for ev in em.events:
        s.state = s.game.reduce(s.state, ev)
    assert any(a.kind == "end_phase" for a in actions(s))
