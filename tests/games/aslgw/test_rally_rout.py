"""Rally (A10.6-A10.7, ASLGW 1.3), DM (A10.62), repair (A9.72) and rout (A10.5-A10.53)
in play (issue 12)."""

from __future__ import annotations

import pytest

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.combat_support import causes, emitter, flat, of, rolls
from gwasl.engine.game import IllegalAction
from gwasl.games.aslgw.actions import rally as ry
from gwasl.games.aslgw.actions import rout as rt
from gwasl.games.aslgw.records import EndPhase, Rally, RallyResolved, Rout, Routed, UnitHit
from gwasl.model.phases import Phase


def acts(s, kind):
    return [a.action for a in s.legal() if isinstance(a.action, kind)]


def _broken(s, uid, dm=True):
    """Break ``uid`` through the game's own events (A10.3: broken and DM)."""
    em = emitter(s, [])
    from gwasl.games.aslgw import effects as fx

    fx.break_unit(em, uid, "test")
    for ev in em.events:
        s.state = s.game.reduce(s.state, ev)
    assert s.state.unit_play(uid).dm is dm


# ---------------------------------------------------------------------------
# Rally


def test_a_leader_rallies_the_broken_squad_stacked_with_him_with_dm_and_leadership_a10_6_a10_62_aslgw_1_3():
    d = doc([squad("G", "B2", broken=True), leader("L", "B2", rating="9-2"), squad("F", "C2", "french")],
            game={"turns": 2})
    s = session(d)
    s.state = s.state.with_play({"G": s.state.unit_play("G").__class__(dm=True)})
    assert s.status().phase == "RPh"
    act = Rally("G")
    assert act in acts(s, Rally)
    odds = {o.result: o.p for o in s.odds(act)}
    assert abs(sum(odds.values()) - 1) < 1e-12
    ev = flat(s.act(act))
    roll = rolls(ev)[0]
    assert {("DM (A10.62)", 4), ("leadership of L (A10.6, ASLGW 1.3)", -2)} <= {(m.cause, m.value) for m in roll.modifiers}
    res = of(ev, RallyResolved)[0]
    assert res.outcome in ("rallied", "failed", "casualty_reduction") and not res.self_rally
    assert Rally("G") not in acts(s, Rally)  # once per RPh (A10.6)


def test_an_mmc_without_a_leader_self_rallies_at_plus_one_and_only_one_per_side_a10_61():
    d = doc([squad("G", "B2", broken=True), squad("H", "D2", broken=True), squad("F", "J9", "french")])
    s = session(d)
    assert {a.unit for a in acts(s, Rally)} == {"G", "H"}
    ev = flat(s.act(Rally("G")))
    assert ("self-rally without a leader (A10.61)", 1) in [(m.cause, m.value) for m in rolls(ev)[0].modifiers]
    assert of(ev, RallyResolved)[0].self_rally
    assert not acts(s, Rally)  # german has used its self-rally this RPh
    with pytest.raises(IllegalAction, match="A10.61"):
        s.act(Rally("H"))


def test_both_sides_rally_in_every_rph_and_an_original_12_reduces_a10_6_a10_61():
    d = doc([squad("G", "B2"), squad("F", "H8", "french", broken=True), leader("FL", "H8", "french")])
    s = session(d)
    assert s.status().side == "german" and Rally("F") in acts(s, Rally)
    em = emitter(s, [6, 6])
    ry.resolve_rally(em, Rally("F"))
    hit = of(em.events, UnitHit)
    assert of(em.events, RallyResolved)[0].outcome == "casualty_reduction"
    assert hit[0].change == "reduced" and hit[0].to == "half_squad" and "A10.61" in hit[0].why


def test_dm_is_lost_as_the_rph_begins_unless_a_known_enemy_is_adjacent_a10_62():
    d = doc([squad("G", "B2"), leader("L", "B2"), squad("F", "B3", "french"), squad("E", "H8", "french")],
            game={"turns": 2})
    s = session(d)
    _broken(s, "F")
    _broken(s, "E")
    off = {e.unit for e in ry.dm_events(s.state)}
    assert off == {"E"}  # F is ADJACENT to a Known enemy: it stays DM
    d2 = doc([squad("G", "B2"), leader("L", "B2"), squad("E", "H8", "french")], game={"turns": 2})
    s2 = session(d2)
    _broken(s2, "E")
    to_phase(s2, "RPh", "french")
    assert not s2.state.unit_play("E").dm
    assert any(e["kind"] == "unit" and "A10.62" in e["text"] for e in s2.log())


# ---------------------------------------------------------------------------
# Rout


def test_a_broken_unit_next_to_a_known_enemy_must_rout_to_the_nearest_woods_before_the_rtph_ends_a10_5():
    d = doc([squad("G", "D4"), leader("L", "D4"), squad("F", "D5", "french", broken=True)],
            hexes={"D7": {"terrain": "woods"}, "A1": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "RtPh")
    assert rt.pending(s.state) == ["F"]
    assert EndPhase() not in [a.action for a in s.legal()]
    with pytest.raises(IllegalAction, match="A10.5"):
        s.act(EndPhase())
    routs = acts(s, Rout)
    full = [a for a in routs if not a.low_crawl]
    assert full and {a.to for a in full} == {"D7"}  # the nearest refuge, away from the enemy
    assert any(a.low_crawl for a in routs)
    ev = flat(s.act(full[0]))
    assert of(ev, Routed)[0].to == "D7" and s.state.scenario.unit("F").hex.label == "D7"
    s.act(EndPhase())
    assert s.state.phase is Phase.APh


def test_interdiction_costs_an_nmc_in_open_ground_in_enemy_los_and_its_odds_are_exact_a10_53():
    d = doc([squad("G", "D2"), leader("L", "D2"), squad("F", "D3", "french", broken=True)],
            hexes={"D6": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "RtPh")
    act = next(a for a in acts(s, Rout) if a.to == "D6" and not a.low_crawl)
    odds = s.odds(act)
    assert abs(sum(o.p for o in odds) - 1) < 1e-12 and {o.result for o in odds} >= {"arrives", "arrives casualty reduced"}
    ev = flat(s.act(act))
    assert any("interdiction" in r.cause and "A10.53" in r.cause for r in rolls(ev))


def test_a_unit_that_must_rout_and_cannot_is_eliminated_as_the_rtph_ends_a10_51():
    # F in a corner, enemies on every side: nowhere to go
    d = doc([squad("G", "A2"), squad("H", "B1"), leader("L", "B1"), squad("I", "B2"), squad("F", "A1", "french", broken=True)],
            columns=3, rows=3)
    s = session(d)
    to_phase(s, "RtPh")
    assert not acts(s, Rout) and not rt.pending(s.state)
    ev = flat(s.act(EndPhase()))
    gone = [e for e in of(ev, UnitHit) if e.change == "eliminated"]
    assert gone and gone[0].unit == "F" and "A10.51" in gone[0].why
    assert not any(u.id == "F" for u in s.state.scenario.units)


def test_a_routing_unit_never_enters_or_passes_next_to_a_known_enemy_a10_51():
    d = doc([squad("G", "E4"), leader("L", "E4"), squad("F", "D3", "french", broken=True)],
            hexes={"F5": {"terrain": "woods"}, "B1": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "RtPh")
    enemy_zone = {"E4", "E3", "E5", "D4", "D5", "F4", "F5"}
    for a in acts(s, Rout):
        assert a.to not in enemy_zone
    assert causes  # (helper used elsewhere)


# ---------------------------------------------------------------------------
# Rout: issue 24 item 1 (A10.5, A10.51), issue 23 item 4 (the interdiction NMC is morale_check's)


def _rtph(units, hexes=None, **kw):
    s = session(doc(units, hexes=hexes or {}, **kw))
    to_phase(s, "RtPh")
    return s


def _full(s, uid):
    return [a for a in acts(s, Rout) if a.unit == uid and not a.low_crawl]


def test_routing_infantry_has_six_mf_so_a_woods_hex_five_mf_away_is_its_destination_a10_5():
    """A10.5: a routing unit has 6 MF (not its 4 MF of the MPh): the woods of D9, 5 MF away
    along open ground (D6, D7, D8 1 MF each, woods 2), is the nearest refuge it must reach."""
    s = _rtph([squad("G", "D4"), leader("L", "D4"), squad("F", "D5", "french", broken=True)], {"D9": {"terrain": "woods"}})
    full = _full(s, "F")
    assert {a.to for a in full} == {"D9"}
    assert [d.mf for d in rt.destinations(s.state, s.state.scenario.unit("F")) if not d.low_crawl] == [5.0]
    em = emitter(s, [1, 2] * 3)  # passes its three interdiction NMCs (D6, D7, D8 in the open, A10.53)
    rt.resolve(em, full[0])
    assert of(em.events, Routed)[0].path == ("D6", "D7", "D8", "D9")


def test_a_broken_unit_in_the_location_of_a_good_order_enemy_routs_out_through_a_hex_adjacent_to_it_a10_51():
    """A10.51: a broken unit sharing its Location with a Known Good Order enemy unit (not in
    Melee) must rout, and may leave through an ADJACENT hex -- every hex around is ADJACENT
    to that enemy -- but may not stop there nor Low Crawl out; it is not eliminated."""
    s = _rtph([squad("G", "D5"), leader("L", "D5"), squad("F", "D5", "french", broken=True)], {"D8": {"terrain": "woods"}})
    assert rt.pending(s.state) == ["F"]
    routs = [a for a in acts(s, Rout) if a.unit == "F"]
    assert routs and not any(a.low_crawl for a in routs)
    assert {a.to for a in routs} == {"D8"}
    ev = flat(s.act(routs[0]))
    r = of(ev, Routed)[0]
    assert r.path[0] in {h.label for h in s.state.scenario.unit("G").hex.neighbours()} and r.to == "D8"
    assert not [e for e in of(flat(s.act(EndPhase())), UnitHit) if e.unit == "F"]
    assert s.state.scenario.unit("F").hex.label == "D8"


def test_a_routing_unit_never_moves_adjacent_to_nor_toward_a_broken_known_enemy_a10_51():
    """A10.51: the broken German squad B in D7 is a Known enemy unit: the woods of D6
    (ADJACENT to it, and closer to it than D4) and of D7 (its own Location) are no rout
    destination, though nearer than any other woods; F routs elsewhere, never closer to B."""
    s = _rtph([squad("G", "D3"), leader("L", "D3"), squad("B", "D7", broken=True), squad("F", "D4", "french", broken=True)],
              {"D6": {"terrain": "woods"}, "D7": {"terrain": "woods"}, "G3": {"terrain": "woods"}})
    b = s.state.scenario.unit("B").hex
    start = s.state.scenario.unit("F").hex
    routs = [a for a in acts(s, Rout) if a.unit == "F"]
    assert routs
    for a in routs:
        assert a.to not in ("D6", "D7")
    for d in rt.destinations(s.state, s.state.scenario.unit("F")):
        for h, _ in d.path:
            assert h.distance(b) > 1 and h.distance(b) >= start.distance(b)


def test_broken_units_of_both_sides_in_one_location_rout_out_and_the_melee_ends_a10_51_a11_15():
    """A Location where only broken units are left (here locked in Melee before they broke)
    holds nobody in Melee: nobody can fight there (A11.15).  Its broken units must rout out
    (A10.51, docs/rules-notes.md); once one side has left, the Melee is over, so no CCPh
    finds an unresolvable Melee there again."""
    from dataclasses import replace

    from gwasl.games.aslgw.records import MeleeChanged

    s = _rtph([squad("GB", "E5", broken=True), squad("FB", "E5", "french", broken=True), squad("G", "A1"), squad("F", "J9", "french")],
              {"H5": {"terrain": "woods"}, "B5": {"terrain": "woods"}})
    s.state = replace(s.state, combat=replace(s.state.combat, melee=frozenset({("E5", "hex")})))
    assert set(rt.pending(s.state)) == {"GB", "FB"}
    ev = flat(s.act(next(a for a in acts(s, Rout) if a.unit == "FB" and not a.low_crawl)))
    assert of(ev, MeleeChanged) == [MeleeChanged("E5", "hex", False)]
    assert ("E5", "hex") not in s.state.combat.melee
    assert "GB" not in rt.pending(s.state)  # nobody left with it: it may stay


def test_the_interdiction_nmc_is_morale_check_with_its_flags_issue_23_a10_53_a10_31(monkeypatch):
    """A10.53: the interdiction check is a broken unit's NMC, resolved by
    gwasl.rules.morale.morale_check: an original 12 eliminates a broken unit (A10.31, not a
    casualty reduction), and the odds follow the data's broken_unit_failing_is_casualty_reduced."""
    from dataclasses import replace

    from gwasl.rules import morale

    d = doc([squad("G", "D2"), leader("L", "D2"), squad("F", "D3", "french", broken=True)], hexes={"D6": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "RtPh")
    act = next(a for a in acts(s, Rout) if a.to == "D6" and not a.low_crawl)
    em = emitter(s, [6, 6] * 4)
    rt.resolve(em, act)
    hit = [e for e in of(em.events, UnitHit) if e.unit == "F"]
    assert hit[0].change == "eliminated" and "A10.31" in hit[0].why
    real = morale.asl_core()
    monkeypatch.setattr(morale, "asl_core", lambda: replace(real, broken_fail_cr=False))
    odds = {o.result: o.p for o in s.odds(act)}
    assert "arrives casualty reduced" not in odds  # a failure without an original 12 does nothing
    assert abs(sum(odds.values()) - 1) < 1e-12 and odds["eliminated on the way"] > 0


# ---------------------------------------------------------------------------
# Rally: issue 24 item 6 (A10.63, A7.8)


def test_only_the_attacker_may_self_rally_a_broken_mmc_a10_63():
    """A10.63: a broken MMC with no Good Order leader may try to rally itself only if it is
    the ATTACKER's; the DEFENDER's leaderless MMC waits for a leader, its SMC may still
    rally themselves."""
    d = doc([squad("G", "B2", broken=True), squad("F", "H8", "french", broken=True),
             leader("FL", "J9", "french", broken=True), squad("E", "A9", "french")], game={"turns": 2})
    s = session(d)
    assert s.status().phase == "RPh" and s.state.phasing == "german"
    got = {a.unit for a in acts(s, Rally)}
    assert "G" in got and "FL" in got and "F" not in got
    with pytest.raises(IllegalAction, match="A10.63"):
        s.act(Rally("F"))
    to_phase(s, "RPh", "french")
    assert "F" in {a.unit for a in acts(s, Rally)}  # the French are the ATTACKER now


def test_a_pinned_leader_lends_no_leadership_to_a_rally_a7_8():
    """A7.8: a pinned leader adds no DRM to others' rally: the squad stacked with him rallies
    as if he were not there (the ATTACKER's self-rally, +1)."""
    from dataclasses import replace

    d = doc([squad("G", "B2", broken=True), leader("L", "B2", rating="9-2"), squad("F", "H8", "french")], game={"turns": 2})
    s = session(d)
    s.state = s.state.with_play({"L": replace(s.state.unit_play("L"), pinned=True)})
    ev = flat(s.act(Rally("G")))
    mods = [(m.cause, m.value) for m in rolls(ev)[0].modifiers]
    assert not any("leadership of L" in c for c, _ in mods)
    assert ("self-rally without a leader (A10.61)", 1) in mods and of(ev, RallyResolved)[0].self_rally
