"""The Bayonet Charge (ASLGW 1.5), gas (ASLGW 1.9), snipers (A14), concealment gain
(A12.12) and gwasl's fire policy for a side it keeps secret, in play (issue 12)."""

from __future__ import annotations

import pytest

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.combat_support import ScriptedGameDice, emitter, flat, of, rolls
from games.aslgw.playout import GAME
from gwasl.engine.events import Decided
from gwasl.engine.game import IllegalAction
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.records import (
    BayonetCharge,
    ChargeDeclared,
    ChargeImpulse,
    ChargeStep,
    ConcealmentGained,
    ConcealmentLost,
    EndChargeImpulse,
    EndPhase,
    Fire,
    FireConsidered,
    GasHidden,
    GasReleased,
    Move,
    ReleaseGas,
    SniperStruck,
    UnitHit,
)


def acts(s, kind, viewer="player"):
    return [a.action for a in s.legal(viewer) if isinstance(a.action, kind)]


# ---------------------------------------------------------------------------
# Bayonet Charge


def _charge_doc(**kw):
    units = [leader("FL", "D7", "french"), squad("F1", "D7", "french", hidden="concealed"), squad("F2", "E7", "french"),
             squad("G", "D2"), leader("GL", "D2")]
    # F1 is concealed in woods: garance trousers cannot stay concealed in Open Ground (ASLGW 1.7.2)
    return doc(units, date="1914-09-06", game={"first_moves": "french"}, hexes={"D7": {"terrain": "woods"}}, **kw)


def test_a_french_bch_is_declared_with_every_condition_checked_and_moves_by_impulses_aslgw_1_5():
    s = session(_charge_doc())
    to_phase(s, "MPh", "french")
    decl = [a for a in acts(s, BayonetCharge) if a.direction == 0]
    assert decl and set(decl[0].units) == {"FL", "F1", "F2"}  # the French need no density (ASLGW 1.11.2)
    ev = flat(s.act(decl[0]))
    assert of(ev, ChargeDeclared)[0].mf == 8.0  # A25.231
    assert "F1" in of(ev, ConcealmentLost)[0].units  # BCh units lose any concealment
    st = s.state
    assert all(st.combat.mark(u).bch for u in ("FL", "F1", "F2"))
    assert not [a for a in s.legal() if isinstance(a.action, Move)]  # only the charge moves now
    with pytest.raises(IllegalAction, match="ASLGW 1.5"):
        s.act(EndPhase())
    for uid in ("FL", "F1", "F2"):
        step = next(a for a in acts(s, ChargeStep) if a.unit == uid)
        s.act(step)
    ev = flat(s.act(EndChargeImpulse()))
    imp = of(ev, ChargeImpulse)[0]
    assert len(imp.moves) == 3 and s.state.combat.window is not None  # the German may fire at the chargers (A8.1)
    assert any(a.mode == "first" for a in acts(s, Fire))


def test_bch_units_have_morale_plus_one_and_no_pin_for_the_player_turn_aslgw_1_5():
    s = session(_charge_doc())
    to_phase(s, "MPh", "french")
    from gwasl.games.aslgw import effects as fx

    before = fx.morale_levels(s.state, s.state.scenario.unit("F2"))[0]
    s.act(next(a for a in acts(s, BayonetCharge) if a.direction == 0))
    assert fx.morale_levels(s.state, s.state.scenario.unit("F2"))[0] == before + 1
    em = emitter(s, [])
    fx.pin(em, "F2", "test")
    assert not em.events  # exempt from pin results


def test_a_german_bch_needs_two_mmc_per_hex_and_a_leader_aslgw_1_5():
    d = doc([leader("GL", "D2"), squad("G1", "D2"), squad("G2", "E2"), squad("F", "D7", "french")], date="1916-07-01")
    s = session(d)
    to_phase(s, "MPh")
    assert not acts(s, BayonetCharge)
    with pytest.raises(IllegalAction, match="average of 2 MMC"):
        s.act(BayonetCharge(("G1", "G2", "GL"), 3))


# ---------------------------------------------------------------------------
# Gas


def _gas_doc(**kw):
    units = [squad("G", "B2"), leader("GL", "B2"), squad("F", "E4", "french"), squad("H", "E5", "french", hidden="concealed"),
             squad("K", "J9", "french")]
    sides = {"german": {"nationality": "german", "gas": [{"agents": ["chlorine"], "hexes": ["E4", "E5"], "turn": 1}]},
             "french": {"nationality": "french"}}
    return doc(units, date="1916-07-01", sides=sides, **kw)


def test_gas_release_makes_every_unit_in_the_area_or_its_los_take_the_gas_ntc_aslgw_1_9_14():
    s = session(_gas_doc())
    to_phase(s, "PFPh")
    assert acts(s, ReleaseGas) == [ReleaseGas("german", 0)]
    ev = flat(s.act(ReleaseGas("german", 0)))
    assert of(ev, GasReleased)[0].hexes == ("E4", "E5")
    ntc = [r for r in rolls(ev) if "gas NTC" in r.cause]
    assert ntc and any("Chlorine" in m.cause or "chlorine" in m.cause.lower() for r in ntc for m in r.modifiers)
    # the concealed French squad's NTC is on its side's own dice, in one private event
    hidden = of(ev, GasHidden)
    assert hidden and hidden[0].side == "french"
    assert not acts(s, ReleaseGas)  # released once
    assert s.view()["gas"][0]["hexes"] == ["E4", "E5"]
    assert all(e["kind"] != "gas_hidden" for e in s.log("german"))


def test_a_failed_gas_ntc_in_a_poison_cloud_breaks_and_takes_the_mc_aslgw_1_9_23():
    s = session(_gas_doc())
    to_phase(s, "PFPh")
    em = emitter(s, [6, 6] * 10)
    from gwasl.games.aslgw.actions import gas as gp

    gp.resolve_release(em, ReleaseGas("german", 0))
    hits = {(e.unit, e.change) for e in of(em.events, UnitHit)}
    assert ("F", "broken") in hits
    assert any("gas 2MC" in r.cause and "ASLGW 1.9.23" in r.cause for r in rolls(em.events))


# ---------------------------------------------------------------------------
# Snipers, concealment gain


def test_an_original_dr_equal_to_the_enemy_san_activates_its_sniper_a14():
    d = doc([squad("G", "B2"), leader("GL", "B2"), squad("F", "E4", "french")], game={"san": {"french": 5}})
    s = session(d)
    to_phase(s, "PFPh")
    em = emitter(s, [2, 3, 4, 4] + [2, 5, 1] + [3, 4] * 4)
    fr.resolve(em, Fire(("G", "GL"), "E4", "ground", "prep"))
    snip = of(em.events, SniperStruck)
    assert snip and snip[0].side == "french" and snip[0].unit in ("G", "GL") and snip[0].effect == "casualty_reduction"


def test_units_out_of_known_enemy_los_in_concealment_terrain_gain_concealment_at_the_end_of_the_turn_a12_12():
    forts = [{"kind": "trench", "hexes": ["B2"], "owner": "german"}]
    d = doc([squad("G", "B2", **{"in": "trench"}), leader("GL", "B2", **{"in": "trench"}), squad("H", "D4"),
             squad("F", "J9", "french")], forts=forts, hexes={"E5": {"terrain": "woods"}, "F5": {"terrain": "woods"}}, game={"turns": 2})
    s = session(d)
    to_phase(s, "RPh", "french")
    gained = [e for e in s.log() if e["kind"] == "concealment_gained"]
    assert gained and set(gained[0]["units"]) == {"G", "GL"}
    assert s.state.fog.status_of("G").value == "concealed" and s.state.fog.status_of("H").value == "none"
    assert of(flat(s.entries), ConcealmentGained)


# ---------------------------------------------------------------------------
# gwasl's fire policy for a side it keeps secret


def test_a_secret_defender_fires_when_its_policy_decides_and_explains_it():
    """The secret French HIP squad is next to the German moving in: the policy fires
    (an ADJACENT target) and the firer is revealed.  The player reads why it fired
    (the fire showed the firer; issue 14: the kept-secret side's decisions with their
    "why"), never the candidates it weighed, which stay the French side's."""
    d = doc([squad("G", "C2"), leader("GL", "C2"), squad("F", "C4", "french", hidden="hip"), squad("K", "J9", "french")])
    s = session(d, secret=("french",))
    to_phase(s, "MPh")
    assert not acts(s, Fire)  # nothing of the secret side is ever offered to the player
    ev = flat(s.act(Move(("G", "GL"), "C3", "ground")))
    considered = of(ev, FireConsidered)
    assert len(considered) == 1 and considered[0].side == "french"
    assert any(c.units == ("F",) for c in of(ev, ConcealmentLost))
    seen = [e for e in s.log("player") if e["kind"] == "fire_policy"]
    assert len(seen) == 1 and seen[0]["text"].startswith("french's fire policy fires F at C3")
    assert "candidates" not in seen[0] and "ADJACENT" not in seen[0]["text"]
    own = [e for e in s.log("french") if e["kind"] == "fire_policy"]
    assert own and own[0]["text"].endswith("nothing of its can fire")  # why it stopped: the side's own
    assert "nothing of its can fire" not in seen[0]["text"]


def test_a_secret_side_s_prep_fire_is_decided_by_its_policy_with_its_reasons():
    d = doc([squad("G", "C5"), squad("F", "C3", "french"), leader("FL", "C3", "french"), squad("F2", "C3", "french")],
            game={"first_moves": "french"})
    s = session(d, secret=("french",))
    to_phase(s, "MPh", "french")
    decided = [e for e in flat(s.entries) if isinstance(e, Decided)]
    assert decided and "fire policy" in decided[0].why and decided[0].private_to == "french"


def test_the_player_reads_why_a_secret_side_fired_but_not_why_it_held_fire():
    """Issue 14 (the kept-secret side's decisions with their "why"): a fire's reason is
    public, since the fire reveals its firers and its target is the player's own (A12.15
    loss of concealment on firing); the candidates weighed and the reason to hold fire
    stay the secret side's."""
    d = doc([squad("G", "C4"), squad("F", "C3", "french"), leader("FL", "C3", "french"), squad("F2", "C3", "french")],
            game={"first_moves": "french"})
    s = session(d, secret=("french",))
    to_phase(s, "MPh", "french")
    decided = [e for e in flat(s.entries) if isinstance(e, Decided)]
    fired = [e for e in decided if "fires" in e.why]
    held = [e for e in decided if "ends the phase" in e.why]
    assert fired and all(e.public for e in fired) and held and not any(e.public for e in held)
    shown = [e for e in s.log("player") if e["kind"] == "decision"]
    assert [e["text"] for e in shown] == [f"french: {e.why}" for e in fired]
    assert all(set(e) == {"seq", "kind", "text", "side"} for e in shown)  # no candidates
    assert len([e for e in s.log("french") if e["kind"] == "decision"]) == len(decided)


def test_a_secret_side_releases_its_gas_when_it_may_aslgw_1_9():
    s = session(_gas_doc(), secret=("german",))
    to_phase(s, "MPh")
    assert any(isinstance(e, GasReleased) for e in flat(s.entries))
    decided = [e for e in flat(s.entries) if isinstance(e, Decided) and "gas" in e.why]
    assert decided and "ASLGW 1.9" in decided[0].why


def _one_gas(agent: str, date: str = "1916-07-01", french_protection: str | None = None, **kw):
    """A German release on E4-E5; a French squad in the area (F at E4) and one outside it in its LOS (K at J9)."""
    units = [squad("G", "B2"), leader("GL", "B2"), squad("F", "E4", "french"), squad("K", "J9", "french")]
    sides = {"german": {"nationality": "german", "gas": [{"agents": [agent], "hexes": ["E4", "E5"], "turn": 1}]},
             "french": {"nationality": "french", **({"gas_protection": french_protection} if french_protection else {})}}
    return doc(units, date=date, sides=sides, **kw)


def _released(s, dice):
    from gwasl.games.aslgw.actions import gas as gp

    to_phase(s, "PFPh")
    em = emitter(s, dice)
    gp.resolve_release(em, ReleaseGas("german", 0))
    return em


def test_a_failed_gas_ntc_in_an_irritant_cloud_breaks_with_dm_and_no_mc_aslgw_1_9_21():
    """ASLGW 1.9.21: an irritant (tear gas) failure breaks the unit, which stays DM in the
    area; no MC as with a poison gas (1.9.23)."""
    em = _released(session(_one_gas("irritant")), [6, 6] * 10)
    hits = {(e.unit, e.change) for e in of(em.events, UnitHit)}
    assert ("F", "broken") in hits
    assert not any("MC" in r.cause and "NTC" not in r.cause for r in rolls(em.events))  # no MC, only NTCs
    assert any("+1" in f"{m.value:+d}" and "irritant" in m.cause for r in rolls(em.events) for m in r.modifiers)  # Table 5 DRM
    assert em.state.unit_play("F").dm or ("F", "dm_on") in hits


def test_a_unit_outside_the_area_that_fails_gets_a_labor_marker_and_retries_each_rph_aslgw_1_9_2():
    """ASLGW 1.9.2: a unit in LOS of the cloud but outside it that fails its gas NTC is under a
    labor marker (no break); in the next RPh it tries again, and passing puts its protection on."""
    s = session(_one_gas("chlorine", game={"turns": 2}))
    em = _released(s, [6, 6] * 10)
    hits = {(e.unit, e.change) for e in of(em.events, UnitHit)}
    assert ("K", "labor") in hits and ("K", "broken") not in hits
    assert em.state.combat.mark("K").labor
    from gwasl.games.aslgw.actions import gas as gp

    em2 = fx.Emitter(em.state, ScriptedGameDice([1, 1] * 10), GAME.reduce)
    gp.rally_phase_events(em2)
    retry = [r for r in rolls(em2.events) if "K" in r.cause or "rally phase" in r.cause]
    assert retry and ("K", "gas_protected") in {(e.unit, e.change) for e in of(em2.events, UnitHit)}
    assert not em2.state.combat.mark("K").labor


def test_a_side_without_gas_protection_takes_no_ntc_the_gas_takes_effect_aslgw_1_9_11():
    """ASLGW 1.9.11-1.9.14: the NTC is the unit's chance to put its protection on; a side with
    none (an SSR leaves the French without any) takes no NTC: the poison gas breaks it and
    its 2MC follows (1.9.23)."""
    em = _released(session(_one_gas("chlorine", french_protection="none")), [3, 3] * 10)
    assert not any("gas NTC of F" in r.cause for r in rolls(em.events))
    hits = {(e.unit, e.change) for e in of(em.events, UnitHit)}
    assert ("F", "broken") in hits and any("2MC" in r.cause for r in rolls(em.events))


def test_a_hidden_unit_outside_the_area_that_fails_keeps_trying_unseen_aslgw_1_9_2():
    """ASLGW 1.9.2 for a concealed unit: its gas NTC is on its side's own dice; failed outside
    the area, it is under a labor marker that only its side knows of, and it tries again in
    the next RPh (on its own dice too); the enemy sees none of it."""
    units = [squad("G", "B2"), leader("GL", "B2"), squad("F", "E4", "french"), squad("K", "J9", "french", hidden="concealed")]
    sides = {"german": {"nationality": "german", "gas": [{"agents": ["chlorine"], "hexes": ["E4", "E5"], "turn": 1}]},
             "french": {"nationality": "french"}}
    for seed in range(1, 40):
        s = session(doc(units, date="1916-07-01", sides=sides, game={"turns": 2}), seed=seed)
        to_phase(s, "PFPh")
        ev = flat(s.act(ReleaseGas("german", 0)))
        hidden = [e for e in of(ev, GasHidden) if e.side == "french"]
        if hidden and hidden[0].labor:
            break
    else:
        raise AssertionError("no seed makes the concealed K fail its gas NTC")
    assert hidden[0].labor == ("K",) and s.state.combat.mark("K").labor
    assert s.state.fog.status_of("K").value == "concealed"  # not revealed: nothing happened to it in public
    seen = [u for u in s.view("german")["units"] if u.get("side") == "french"]
    assert seen and not any("labor" in u for u in seen)  # the enemy knows of no French labor marker
    assert all(e["kind"] != "gas_hidden" for e in s.log("german"))
    mine = [u for u in s.view("french")["units"] if u.get("id") == "K"]
    assert mine and mine[0]["labor"] is True
