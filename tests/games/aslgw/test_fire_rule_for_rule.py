"""Fire in play, rule for rule (issue 24, items 2-5, 8, 13): a crew that fires its MG has
no inherent FP in that attack (A7.351-A7.352), Sustained Fire (A9.3), Residual FP
(A8.2), Advancing Fire halved for every firer (A7.25), fire groups of any firers in
ADJACENT Locations formed one firer at a time (A7.5), and the fire line as a player
reads it."""

from __future__ import annotations

import pytest

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.combat_support import ScriptedGameDice, emitter, flat, of, rolls
from games.aslgw.playout import GAME
from gwasl.engine.game import IllegalAction, Viewer
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.records import (
    EndPhase,
    Fire,
    FireGroupAdd,
    FireGroupDrop,
    FireResolved,
    Marked,
    Move,
    ResidualPlaced,
)

ALL = Viewer("player", frozenset({"german", "french"}))


def crew(uid, hx, side="german", **kw):
    return {"id": uid, "side": side, "kind": "crew", "hex": hx, **kw}


def weapon(uid, hx, name, side="german", **kw):
    return {"id": uid, "side": side, "kind": "support_weapon", "weapon": name, "hex": hx, **kw}


def fires(s, viewer="player"):
    return [a.action for a in s.legal(viewer) if isinstance(a.action, Fire)]


def kinds(s, viewer="player"):
    return {a.action.kind for a in s.legal(viewer)}


# ---------------------------------------------------------------------------
# Item 2: A7.351-A7.352


def test_a_crew_firing_its_mg08_has_no_inherent_fp_in_that_attack_a7_352():
    """A7.352: a crew (half-squad, SMC) that fires a SW loses its inherent FP: the MG08
    crew fires 6 FP (the MG's), not 6 + 2; its 2 FP alone is another option."""
    d = doc([crew("C", "B2"), weapon("MG", "B2", "MG08"), squad("F", "D3", "french")])
    s = session(d)
    to_phase(s, "PFPh")
    opts = {a.firers for a in fires(s)}
    assert ("MG",) in opts and ("C",) in opts
    assert not any({"C", "MG"} <= set(f) for f in opts)
    fire = of(flat(s.act(Fire(("MG",), "D3", "ground", "prep"))), FireResolved)[0]
    assert fire.fp == "6"
    assert any("C fires MG and no inherent FP of its own (A7.351-A7.352)" in n for n in fire.notes)
    s2 = session(d)
    to_phase(s2, "PFPh")
    with pytest.raises(IllegalAction, match="A7.351-A7.352"):
        s2.act(Fire(("C", "MG"), "D3", "ground", "prep"))


def test_ovillers_two_mg08_teams_fire_twelve_not_sixteen_a7_352():
    """The issue's figure: two MG08 teams stacked fire 12 FP (their MGs), not 16."""
    d = doc([crew("C1", "B2"), weapon("M1", "B2", "MG08", held_by="C1"), crew("C2", "B2"), weapon("M2", "B2", "MG08", held_by="C2"),
             squad("F", "D3", "french")])
    s = session(d)
    to_phase(s, "PFPh")
    stack = next(a for a in fires(s) if {"M1", "M2"} <= set(a.firers))
    assert not {"C1", "C2"} & set(stack.firers)
    sc = s.state.scenario
    parts, leaders, t = fr._parse(s.state, sc, stack)
    assert fr._build(s.state, sc, parts, leaders, t, "german", False, True).attack.fp == 12


def test_a_squad_fires_one_sw_and_keeps_its_inherent_fp_a7_351():
    d = doc([squad("G", "B2"), weapon("L", "B2", "MG08/15"), squad("F", "D3", "french")], date="1916-06-01")
    s = session(d)
    to_phase(s, "PFPh")
    both = next(a for a in fires(s) if set(a.firers) == {"G", "L"})
    sc = s.state.scenario
    parts, leaders, t = fr._parse(s.state, sc, both)
    assert fr._build(s.state, sc, parts, leaders, t, "german", False, True).attack.fp == 4 + 2


# ---------------------------------------------------------------------------
# Item 3: A9.3 Sustained Fire


def _mg_first_fired():
    """The German MG08 in B5 First Fires at the French who moved to C3 in the woods (an
    original 9: no effect, no RoF kept as coloured 5 > RoF 2); the state after it, the MG
    marked First Fire."""
    d = doc([squad("F", "C2", "french"), leader("FL", "C2", "french"), crew("GC", "B5"), weapon("GMG", "B5", "MG08"),
             leader("GL", "B5", rating="6+1"), squad("GG", "H9")], game={"first_moves": "french"},
            hexes={"C3": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "MPh")
    s.act(Move(("F", "FL"), "C3", "ground"))
    first = next(a for a in fires(s) if a.mode == "first" and a.firers == ("GMG",))
    em = emitter(s, [5, 4])
    fr.resolve(em, first)
    assert of(em.events, Marked)[0].units == ("GC", "GMG") and not em.state.combat.mark("GMG").malfunctioned
    return em.state


def test_an_mg_in_subsequent_first_fire_keeps_no_rate_of_fire_a9_3():
    """A9.3 Sustained Fire: half FP, no RoF: a coloured 1 (<= the MG08's RoF 2) keeps
    nothing in SFF."""
    st = _mg_first_fired()
    sff = next(a for a in fr.fire_options(st, ALL) if isinstance(a, Fire) and a.mode == "subsequent" and a.firers == ("GMG",))
    em = fx.Emitter(st, ScriptedGameDice([1, 6] + [2, 3] * 4), GAME.reduce)
    fr.resolve(em, sff)
    fire = of(em.events, FireResolved)[0]
    assert fire.rof_kept == () and fire.fp == "3"
    assert "Sustained Fire, no RoF, B# 9 (A9.3)" in " ".join(fire.parts)


def test_an_original_10_breaks_an_mg08_under_sustained_fire_a9_3():
    """A9.3: the B# is lowered by 2 under Sustained Fire: the MG08's B# 11 becomes 9."""
    st = _mg_first_fired()
    sff = next(a for a in fr.fire_options(st, ALL) if isinstance(a, Fire) and a.mode == "subsequent" and a.firers == ("GMG",))
    em = fx.Emitter(st, ScriptedGameDice([4, 6] + [2, 3] * 4), GAME.reduce)
    fr.resolve(em, sff)
    assert of(em.events, FireResolved)[0].malfunctioned == ("GMG",)
    assert em.state.combat.mark("GMG").malfunctioned


def _leader_lmg_first_fired(kind="leader"):
    """The German leader (or hero) GL in B5 holds the MG08/15 and First Fires it at the
    French who moved to C3 in the woods: the state after it, the LMG marked First Fire."""
    smc = leader("GL", "B5", rating="8-0") if kind == "leader" else {"id": "GL", "side": "german", "kind": "hero", "hex": "B5"}
    d = doc([squad("F", "C2", "french"), leader("FL", "C2", "french"), smc, weapon("LMG", "B5", "MG08/15", held_by="GL"),
             squad("GG", "H9")], game={"first_moves": "french"}, hexes={"C3": {"terrain": "woods"}}, date="1916-06-01")
    s = session(d)
    to_phase(s, "MPh")
    s.act(Move(("F", "FL"), "C3", "ground"))
    first = next(a for a in fires(s) if a.mode == "first" and a.firers == ("LMG",))
    em = emitter(s, [5, 4])
    fr.resolve(em, first)
    assert em.state.combat.mark("LMG").fire == "first"
    return em.state


@pytest.mark.parametrize("kind", ["leader", "hero"])
def test_no_smc_may_use_sustained_fire_a9_3(kind):
    """A9.3: "no SMC may use Sustained Fire": a leader or hero who First Fired his LMG is
    offered no Subsequent First Fire with it (a crew's MG is: the test above), and a fire
    naming it is refused with the rule in words."""
    st = _leader_lmg_first_fired(kind)
    assert not [a for a in fr.fire_options(st, ALL) if isinstance(a, Fire) and "LMG" in a.firers]
    sff = Fire(("LMG",), "C3", "ground", "subsequent")
    with pytest.raises(IllegalAction, match=r"LMG is held by GL: a .* may not fire a MG as Sustained Fire: no SMC may use "
                                            r"Sustained Fire \(A9\.3\)"):
        GAME.apply(st, sff, ScriptedGameDice([1, 6]))


# ---------------------------------------------------------------------------
# Item 4: A8.2 Residual FP after area fire at a "?"


def test_residual_fp_after_area_fire_at_a_concealed_mover_is_half_the_unhalved_column_a8_2():
    """A8.2 (gwasl's reading, docs/rules-notes.md): two squads' 8 FP at a "?" read the 4
    column (area fire, A7.23) and leave Residual FP 4 -- half the 8 column -- not 2."""
    d = doc([squad("G", "C2", hidden="concealed"), squad("F1", "C5", "french"), squad("F2", "C5", "french"),
             leader("FL", "C5", "french")], hexes={"C2": {"terrain": "woods"}, "C3": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "MPh")
    s.act(Move(("G",), "C3", "ground"))
    act = next(a for a in fires(s) if a.mode == "first" and {"F1", "F2"} <= set(a.firers))
    em = emitter(s, [6, 6])
    fr.resolve(em, act)
    fire = of(em.events, FireResolved)[0]
    assert 'area fire at a "?" (A7.23) \u00d7½ = 4 FP -> 4 column' in fire.columns[0]
    assert of(em.events, ResidualPlaced)[0].fp == 4


# ---------------------------------------------------------------------------
# Item 5: A7.25


def test_advancing_fire_is_halved_for_a_unit_that_did_not_move_a7_25():
    """A7.25: every Advancing Fire is halved, not only a unit's that moved."""
    d = doc([squad("G", "B2"), squad("F", "D3", "french")])
    s = session(d)
    to_phase(s, "AFPh")
    act = next(a for a in fires(s) if a.firers == ("G",))
    fire = of(flat(s.act(act)), FireResolved)[0]
    assert fire.fp == "2" and "Advancing Fire (A7.25) \u00d7½" in fire.fp_why


# ---------------------------------------------------------------------------
# Item 8: A7.5 fire groups formed one firer at a time


def _three_in_line():
    # B2, B3, B4 are ADJACENT in a line: B2 and B4 are not ADJACENT to each other; the 6+1
    # leader keeps them in command (no NTC to fire, ASLGW 1.3.2) but directs no fire
    d = doc([squad("G1", "B2"), squad("G2", "B3"), leader("GL", "B3", rating="6+1"), squad("G3", "B4"),
             squad("F", "E3", "french")])
    s = session(d)
    to_phase(s, "PFPh")
    return s


def test_any_firers_in_adjacent_locations_form_a_fire_group_one_at_a_time_a7_5():
    s = _three_in_line()
    starts = [a.action for a in s.legal() if isinstance(a.action, FireGroupAdd)]
    assert FireGroupAdd(("G1",), "E3", "ground", "prep") in starts
    s.act(FireGroupAdd(("G1",), "E3", "ground", "prep"))
    legal = [a.action for a in s.legal()]
    assert Fire(("G1",), "E3", "ground", "prep") in legal and FireGroupDrop() in legal
    assert FireGroupAdd(("G1", "G2"), "E3", "ground", "prep") in legal
    assert FireGroupAdd(("G1", "G3"), "E3", "ground", "prep") not in legal  # B4 is not ADJACENT to B2
    assert "end_phase" not in kinds(s)  # the group is fired or dropped first
    s.act(FireGroupAdd(("G1", "G2"), "E3", "ground", "prep"))
    assert FireGroupAdd(("G1", "G2", "G3"), "E3", "ground", "prep") in [a.action for a in s.legal()]
    fire = of(flat(s.act(Fire(("G1", "G2"), "E3", "ground", "prep"))), FireResolved)[0]
    assert fire.firers == ("G1", "G2") and fire.fp == "8"
    assert s.state.combat.group is None and "end_phase" in kinds(s)


def test_firers_that_are_not_in_one_chain_are_no_fire_group_a7_5():
    s = _three_in_line()
    with pytest.raises(IllegalAction, match="A7.5"):
        s.act(Fire(("G1", "G3"), "E3", "ground", "prep"))


def test_a_fire_group_being_formed_may_be_dropped_a7_5():
    s = _three_in_line()
    s.act(FireGroupAdd(("G2",), "E3", "ground", "prep"))
    s.act(FireGroupDrop())
    assert s.state.combat.group is None and "end_phase" in kinds(s)
    assert not s.state.combat.mark("G2").fire


def test_a_step_rolls_no_dice_and_the_group_so_far_has_its_odds_a7_5():
    """Forming a group rolls nothing (no odds, the engine's contract); firing the group as
    it stands is listed with its exact odds."""
    s = _three_in_line()
    s.act(FireGroupAdd(("G1",), "E3", "ground", "prep"))
    assert s.odds(FireGroupAdd(("G1", "G2"), "E3", "ground", "prep")) == []
    s.act(FireGroupAdd(("G1", "G2"), "E3", "ground", "prep"))
    odds = s.odds(Fire(("G1", "G2"), "E3", "ground", "prep"))
    assert odds and abs(sum(o.p for o in odds) - 1) < 1e-12


def test_two_squads_may_move_without_their_stacked_leader_a4_a7_5():
    s = session(doc([squad("G1", "B2"), squad("G2", "B2"), leader("GL", "B2"), squad("F", "H9", "french")]))
    to_phase(s, "MPh")
    assert any(isinstance(a.action, Move) and a.action.pieces == ("G1", "G2") for a in s.legal())


# ---------------------------------------------------------------------------
# Item 13: the fire line as a player reads it


def test_the_fire_line_shows_the_fp_the_column_and_why_a7_3():
    """Two squads at long range: 8 FP halved (A7.22) -> 4 FP on the 4 column."""
    d = doc([squad("G1", "B2"), squad("G2", "B2"), leader("GL", "B2"), squad("F", "B8", "french")],
            hexes={"B5": {"terrain": "brush"}})
    s = session(d)
    to_phase(s, "PFPh")
    events = flat(s.act(Fire(("G1", "G2", "GL"), "B8", "ground", "prep")))
    fire = of(events, FireResolved)[0]
    text = GAME.event_view(fire, ALL).text
    assert "G1, G2 8 FP, long range (A7.22) \u00d7½ = 4 FP -> 4 column" in text
    # a 1917 French target wears no garance trousers: the hindrance is a plain one (ASLGW 1.7)
    assert [m.cause for m in rolls(events)[0].modifiers] == ["LOS hindrance (A6.7)"]


def test_a_fire_marker_reads_in_words_a3_5():
    s = session(doc([squad("G", "B2"), squad("F", "D3", "french")]))
    to_phase(s, "AFPh")
    events = flat(s.act(next(a for a in fires(s) if a.firers == ("G",))))
    text = GAME.event_view(of(events, Marked)[0], ALL).text
    assert "fired fire" not in text and "marked as having fired this phase (A3.5)" in text
    s.act(EndPhase())


def test_no_internal_field_name_in_the_words_of_a_deep_trench_exit_aslgw_2_1_3():
    """The MF of leaving a deep trench cite the rule, not terrain.json's field names."""
    import datetime as dt

    from gwasl.model.hexgrid import Hex
    from gwasl.model.scenario import (
        Fortification,
        FortificationKind,
        HexData,
        MapData,
        Nationality,
        Position,
        Scenario,
        Side,
        Terrain,
    )
    from gwasl.rules import trenches

    H = Hex.from_label
    sc = Scenario("t", dt.date(1916, 2, 21), MapData(6, 6, hexes={H("A2"): HexData(Terrain.WOODS)},
                                                     fortifications=(Fortification(FortificationKind.DEEP_TRENCH, (H("B2"),), "fr"),)),
                  {"de": Side("de", Nationality.GERMAN), "fr": Side("fr", Nationality.FRENCH)})
    for to, pos in ((H("A2"), Position.GROUND), (H("B2"), Position.GROUND)):
        words = " ".join(trenches.move_cost(sc, H("B2"), Position.DEEP_TRENCH, to, pos).reasons)
        assert "mf_" not in words and "ASLGW 2.1.3" in words


def test_rallying_in_a_fortification_reads_in_words_a10_61():
    from gwasl.model.scenario import Terrain
    from gwasl.rules.rally import rally_modifiers

    fort = rally_modifiers(dm=False, leader_modifier=None, self_rally_mmc=False, terrain=Terrain.OPEN, in_fortification=True)
    woods = rally_modifiers(dm=False, leader_modifier=None, self_rally_mmc=False, terrain=Terrain.WOODS, in_fortification=False)
    assert [m.cause for m in fort] == ["rallying IN a fortification (A10.61)"]
    assert [m.cause for m in woods] == ["rallying in woods (A10.61)"]


def test_the_verdict_is_read_once_in_the_log_a26():
    """The game's end: the verdict's line says why; the end of the game does not repeat it."""
    d = doc([squad("G1", "J5"), squad("F1", "A1", "french")],
            game={"first_moves": "german", "turns": 1, "victory": {"german": {"conditions": [{"exit": {"at_least": 2, "edge": "east"}}],
                                                                             "immediate": True}, "french": {"avoid": True}}})
    s = session(d)
    to_phase(s, "MPh", "german")
    s.act(next(a.action for a in s.legal() if a.action.kind == "exit"))
    why = s.status().result["why"]
    texts = [e["text"] for e in s.log("omniscient")]
    assert sum(why in t for t in texts) == 1 and texts[-1] == "The game is over (A26)"


def test_the_garance_label_names_the_rule_only_where_it_applied_aslgw_1_7_1():
    """ASLGW 1.7.1: French in garance trousers (1914) -- the first hindrance hex is ignored
    and the DRM says so; the same line in 1917 is a plain hindrance (1.7.3: no garance)."""
    for date, cause, notes in (("1914-09-06", "LOS hindrance (A6.7; the first hindrance hex ignored: French in garance "
                                              "trousers, ASLGW 1.7.1)", ()),
                               ("1917-04-09", "LOS hindrance (A6.7)", ())):
        d = doc([squad("G", "B2"), squad("F", "E3", "french")], date=date, hexes={h: {"terrain": "brush"} for h in ("C2", "D3")})
        s = session(d)
        to_phase(s, "PFPh")
        sc = s.state.scenario
        parts, leaders, t = fr._parse(s.state, sc, Fire(("G",), "E3", "ground", "prep"))
        b = fr._build(s.state, sc, parts, leaders, t, "german", False, True)
        assert [m.cause for m in b.attack.modifiers if "hindrance" in m.cause] == [cause] and b.notes == notes
    one = doc([squad("G", "B2"), squad("F", "E3", "french")], date="1914-09-06", hexes={"C2": {"terrain": "brush"}})
    s = session(one)
    to_phase(s, "PFPh")
    parts, leaders, t = fr._parse(s.state, s.state.scenario, Fire(("G",), "E3", "ground", "prep"))
    b = fr._build(s.state, s.state.scenario, parts, leaders, t, "german", False, True)
    assert b.notes == ("the only hindrance hex is ignored: French in garance trousers (ASLGW 1.7.1)",)


def test_a_crew_firing_fpf_with_its_mg_alone_takes_the_nmc_a8_31_a7_352():
    """A8.31: the units firing FPF take an NMC -- a crew firing its MG alone too, though it
    puts no inherent FP into the attack (A7.352)."""
    from gwasl.engine.dice import GameDice

    st = _mg_first_fired()
    sff = next(a for a in fr.fire_options(st, ALL) if isinstance(a, Fire) and a.mode == "subsequent" and a.firers == ("GMG",))
    em = fx.Emitter(st, ScriptedGameDice([5, 2]), GAME.reduce)  # original 7 < B# 9: no breakdown, no effect
    fr.resolve(em, sff)
    st = em.state
    for ev in GAME.apply(st, Move(("F", "FL"), "B4", "ground"), GameDice(0)):
        st = GAME.reduce(st, ev)
    fpf = next(a for a in fr.fire_options(st, ALL) if isinstance(a, Fire) and a.mode == "fpf" and a.firers == ("GMG",))
    em2 = fx.Emitter(st, ScriptedGameDice([6, 6] + [3, 3] * 6), GAME.reduce)
    fr.resolve(em2, fpf)
    assert any("Final Protective Fire" in r.cause and "(A8.31)" in r.cause and "GC" in r.cause for r in rolls(em2.events))
