"""Fire and close combat in the turn (issue 12): the hooks the game calls.

:class:`~gwasl.games.aslgw.game.AslgwGame` stays the turn record and movement;
it asks this module, at a few well-separated points, for the actions fire,
rally, rout, close combat, Bayonet Charge and gas add to a phase, for their
events, odds and reductions, for what happens as a phase begins, and for
gwasl's fire policy of a side whose hidden layer it keeps.

The side to act never changes for fire at moving units: after a move, the
defender's Defensive First Fire at the units that just moved is listed with
the moving side's own actions, and lapses when the next move is made (A8.1).
A side gwasl keeps secret never gets such a list: its fire policy looks at
every move as its defender (:class:`FireConsidered`, a private event made
after every move, so its presence tells nothing) and decides its PFPh, DFPh
and AFPh fire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, IllegalAction, Outcome, Policy, Seat, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import charge as chg
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw import fire as fr
from gwasl.games.aslgw import gas_play as gp
from gwasl.games.aslgw import melee as ml
from gwasl.games.aslgw import rally as ry
from gwasl.games.aslgw import rout as rt
from gwasl.games.aslgw.combat_records import (
    COMBAT_ACTIONS,
    BayonetCharge,
    ChargeImpulse,
    ChargeStep,
    CloseCombat,
    ConcealmentGained,
    EndChargeImpulse,
    Fire,
    FireConsidered,
    Rally,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    ResidualPlaced,
    Rout,
    Withdraw,
)
from gwasl.games.aslgw.combat_state import FireWindow, MoverMark
from gwasl.games.aslgw.knowledge import env, is_hidden
from gwasl.games.aslgw.moves import carried
from gwasl.games.aslgw.records import EndPhase, ImpulseEnded, Moved, PhaseBegan
from gwasl.games.aslgw.state import AslgwState, ro
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, UnitKind
from gwasl.rules.concealment import gains_concealment
from gwasl.rules.fog.status import gain_concealment

if TYPE_CHECKING:
    from gwasl.games.aslgw.game import AslgwGame

__all__ = ["FIRE_THRESHOLD", "apply", "automated", "blocks_end", "legal", "odds", "phase_events", "reduce",
           "reduce_moved", "reduce_phase", "why_illegal"]

#: gwasl's fire policy fires when the chance of at least a 1MC-grade result reaches this (docs/rules-notes.md)
FIRE_THRESHOLD = 0.4


# ---------------------------------------------------------------------------
# Legal actions


def legal(game: AslgwGame, state: AslgwState, viewer: Viewer, side: str) -> list[Record]:
    """The combat actions ``side`` (the side to act) may take now, as ``viewer`` knows them."""
    out: list[Record] = []
    shooter = fr.firing_side(state)
    # a side gwasl keeps secret fires only by its policy, which looks through its own seat
    # (viewer named after it); nobody else is ever offered its fire
    own_seat = shooter not in state.secret or viewer.name == shooter
    if shooter is not None and own_seat and (shooter == side or state.phase is Phase.MPh):
        out += fr.fire_options(state, viewer)
    if state.phase is Phase.MPh and side == state.phasing:
        out += chg.options(state, viewer)
    if state.phase in (Phase.PFPh, Phase.MPh) and side == state.phasing:
        out += gp.options(state, viewer)
    if state.phase is Phase.RPh:
        out += ry.options(state, viewer)
    elif state.phase is Phase.RtPh:
        out += rt.options(state, viewer)
    elif state.phase is Phase.CCPh:
        out += ml.options(state, viewer)
    return out


def blocks_end(state: AslgwState) -> str | None:
    """Why the phase may not end yet, or None: a BCh still moving (A25.231), broken units
    that must rout and can (A10.5), close combats not yet resolved (A11)."""
    if chg.active(state):
        return "a Bayonet Charge is moving: its units enter a new hex each impulse until it is over (ASLGW 1.5, A25.231)"
    must = rt.pending(state)
    if must:
        return f"{', '.join(must)} must rout first (A10.5)"
    cc = ml.pending(state)
    if cc:
        return f"resolve the close combat in {', '.join(h for h, _ in cc)} first (A11)"
    return None


def why_illegal(game: AslgwGame, state: AslgwState, action: Record, viewer: Viewer) -> str | None:
    """Why a combat action is not legal now, with the rule (None: no better reason than
    'not in the list')."""
    if isinstance(action, Fire):
        return fr.why_not(state, action, viewer)
    if isinstance(action, Rally):
        try:
            why = ry.why_not(state, action)
        except KeyError:
            return f"no unit {action.unit[:40]!r}"
        if why:
            return why
    if isinstance(action, Rout) and state.phase is not Phase.RtPh:
        return "broken units rout in the RtPh (A10.5)"
    if isinstance(action, (CloseCombat, Withdraw)) and state.phase is not Phase.CCPh:
        return "close combat happens in the CCPh (A11)"
    if isinstance(action, COMBAT_ACTIONS):
        # the rules' own reason, from a dry run on throw-away dice (nothing is kept)
        try:
            apply(game, state, action, GameDice(0))
        except IllegalAction as e:
            return str(e)
        except (KeyError, ValueError) as e:
            return f"{action.kind}: {e}"
    return None


# ---------------------------------------------------------------------------
# Apply


def apply(game: AslgwGame, state: AslgwState, action: Record, dice: GameDice) -> list[Record] | None:
    """The events of a combat action, or None when ``action`` is not one."""
    if not isinstance(action, COMBAT_ACTIONS):
        return None
    em = fx.Emitter(state, dice, game.reduce)
    if isinstance(action, Fire):
        fr.resolve(em, action)
    elif isinstance(action, Rally):
        ry.resolve_rally(em, action)
    elif isinstance(action, Repair):
        ry.resolve_repair(em, action)
    elif isinstance(action, Rout):
        rt.resolve(em, action)
    elif isinstance(action, CloseCombat):
        ml.resolve_cc(em, action)
    elif isinstance(action, Withdraw):
        ml.resolve_withdraw(em, action)
    elif isinstance(action, BayonetCharge):
        chg.resolve_declaration(em, action)
    elif isinstance(action, ChargeStep):
        chg.resolve_step(em, action)
    elif isinstance(action, EndChargeImpulse):
        chg.resolve_end_impulse(em, action)
        _after_move_em(game, em, list(em.events))
    elif isinstance(action, ReleaseGas):
        gp.resolve_release(em, action)
    elif isinstance(action, RemoveGasMask):
        gp.resolve_removal(em, action)
    return em.events


def movement_paused(state: AslgwState) -> bool:
    """No other unit moves while a BCh is moving (ASLGW 1.5, A25.231)."""
    return chg.active(state)


def after_move(game: AslgwGame, state: AslgwState, events: Sequence[Record], dice: GameDice) -> list[Record]:
    """What follows a movement action's events: Residual FP attacks on the units that
    entered a Location holding it (A8.2), and gwasl's fire policy when the defender
    is a side it keeps secret (A8.1)."""
    if state.phase is not Phase.MPh:
        return []
    st = state
    for ev in events:
        st = game.reduce(st, ev)
    em = fx.Emitter(st, dice, game.reduce)
    _after_move_em(game, em, events)
    return em.events


def _after_move_em(game: AslgwGame, em: fx.Emitter, events: Sequence[Record]) -> None:
    for ev in events:
        if isinstance(ev, Moved) and ev.units:  # a platoon's members too, as each enters (A8.2)
            fr.residual_attack(em, ev.side, ev.units, Hex.from_label(ev.to), Position(ev.to_in), ev.mode == "assault")
        if isinstance(ev, ChargeImpulse):
            for cm in ev.moves:
                fr.residual_attack(em, ev.side, (cm.unit,), Hex.from_label(cm.to), Position(cm.to_in), False)
    moved = any((isinstance(ev, Moved) and ev.platoon is None) or isinstance(ev, (ImpulseEnded, ChargeImpulse)) for ev in events)
    if moved and em.state.combat.window is not None and em.state.defender in em.state.secret:
        _secret_first_fire(game, em)


def _secret_first_fire(game: AslgwGame, em: fx.Emitter) -> None:
    """gwasl's fire policy as the defender after a move (A8.1): fire while some option
    reaches the threshold (or its target is ADJACENT), else one private event."""
    side = em.state.defender
    fired: list[str] = []
    why, cands = "", ()
    for _ in range(24):
        state = em.state
        if state.combat.window is None:
            break
        choice, why, cands = _choose(game, state, game.viewer(state, side))
        if choice is None:
            break
        fired.append(why)
        fr.resolve(em, choice)
    em.emit(FireConsidered(side, "; ".join([*fired, why]) if why else "; ".join(fired), cands, tuple(fired)))


# ---------------------------------------------------------------------------
# gwasl's fire policy for a side it keeps secret


def _adjacent(state: AslgwState, act: Fire) -> bool:
    at = Hex.from_label(act.at)
    sc = state.scenario
    for i in act.firers:
        try:
            if sc.unit(i).hex.distance(at) <= 1:
                return True
        except KeyError:
            continue
    return False


def _choose(game: AslgwGame, state: AslgwState, viewer: Viewer) -> tuple[Fire | None, str, tuple[str, ...]]:
    """The fire policy (docs/rules-notes.md): among the side's legal fire, as it knows
    the game, take the one with the best chance of at least a 1MC-grade result; fire
    it if that chance is at least FIRE_THRESHOLD, or if its target is in the firers'
    hex or ADJACENT and the chance is above 0; otherwise hold fire."""
    best: tuple[float, bool, Fire] | None = None
    lines = []
    for a in fr.fire_options(state, viewer):
        if not isinstance(a, Fire):
            continue
        h = fr.harm(fr.fire_odds(state, a, viewer))
        adj = _adjacent(state, a)
        lines.append(f"{'+'.join(a.firers)} -> {a.at} ({a.mode}): {h:.0%}{' ADJACENT' if adj else ''}")
        key = (h, adj, a)
        if best is None or (h, adj) > (best[0], best[1]):
            best = key
    if best is not None and (best[0] >= FIRE_THRESHOLD or (best[1] and best[0] > 0)):
        return best[2], f"fires {'+'.join(best[2].firers)} at {best[2].at}: {best[0]:.0%} of at least a 1MC-grade result", tuple(lines)
    if best is None:
        return None, "nothing of its can fire", ()
    return None, f"holds fire: the best chance of at least a 1MC-grade result is {best[0]:.0%} (< {FIRE_THRESHOLD:.0%})", tuple(lines)


def _fire_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """gwasl decides the fire of a side it keeps secret in its PFPh, DFPh and AFPh,
    from that side's view only (its legal actions and their odds)."""
    legal_ = seat.legal()
    gas = next((a for a in legal_ if isinstance(a, ReleaseGas)), None)
    if gas is not None:
        return Decision(gas, f"gwasl's fire policy releases {gas.side}'s gas attack {gas.index + 1} as soon as it may (ASLGW 1.9)",
                        {"threshold": FIRE_THRESHOLD}, public=True)
    best: tuple[float, bool, Fire] | None = None
    lines = []
    for a in legal_:
        if not isinstance(a, Fire):
            continue
        h = fr.harm(seat.odds(a))
        adj = _near(seat, a)
        lines.append(f"{'+'.join(a.firers)} -> {a.at} ({a.mode}): {h:.0%}")
        if best is None or (h, adj) > (best[0], best[1]):
            best = (h, adj, a)
    if best is not None and (best[0] >= FIRE_THRESHOLD or (best[1] and best[0] > 0)):
        a = best[2]
        return Decision(a, f"gwasl's fire policy fires {'+'.join(a.firers)} at {a.at} ({a.mode}): {best[0]:.0%} chance of "
                           f"at least a 1MC-grade result", {"candidates": lines, "threshold": FIRE_THRESHOLD}, public=True)
    end = next(a for a in legal_ if isinstance(a, EndPhase))
    why = "nothing to fire" if best is None else f"best chance {best[0]:.0%} < {FIRE_THRESHOLD:.0%}, no ADJACENT target"
    return Decision(end, f"gwasl's fire policy ends the phase: {why}", {"candidates": lines, "threshold": FIRE_THRESHOLD})


def _near(seat: Seat[Any], a: Fire) -> bool:
    at = Hex.from_label(a.at)
    known = seat.view().fog.scenario  # the firing side's knowledge (Game.policy_view)
    return any(u.id in a.firers and u.hex.distance(at) <= 1 for u in known.units)


def automated(state: AslgwState, side: str) -> Mapping[str, Policy]:
    """The fire policy acts for a side gwasl keeps secret in its own PFPh and AFPh and
    in its DFPh as the defender."""
    if side not in state.secret:
        return {}
    if state.phase in (Phase.PFPh, Phase.AFPh) and side == state.phasing:
        return {side: _fire_policy}
    if state.phase is Phase.DFPh and side == state.defender:
        return {side: _fire_policy}
    return {}


# ---------------------------------------------------------------------------
# Odds


def odds(state: AslgwState, action: Record, viewer: Viewer) -> list[Outcome] | None:
    if isinstance(action, Fire):
        return fr.fire_odds(state, action, viewer)
    if isinstance(action, (Rally, Repair)):
        return ry.odds(state, action, viewer)
    if isinstance(action, Rout):
        return rt.odds(state, action, viewer)
    if isinstance(action, CloseCombat):
        return ml.odds(state, action, viewer)
    if isinstance(action, Withdraw):
        return []
    return None


# ---------------------------------------------------------------------------
# Phases and reduce


def phase_events(game: AslgwGame, state: AslgwState, dice: GameDice) -> list[Record]:
    """What happens as a phase begins (``state`` is just after its PhaseBegan): the units
    that had to rout and could not are eliminated as the APh begins (A10.51); DM is
    lost as a RPh begins (A10.62)."""
    em = fx.Emitter(state, dice, game.reduce)
    if state.phase is Phase.APh:
        before = replace(state, phase=Phase.RtPh)
        em.emit(*rt.end_events(before))
    if state.phase is Phase.RPh:
        em.emit(*concealment_gain(em.state))
        em.emit(*ry.dm_events(em.state))
        gp.rally_phase_events(em)
    return em.events


def concealment_gain(state: AslgwState) -> list[Record]:
    """A12.12: at the end of a player turn, each side's Good Order units not in Melee,
    in concealment terrain and out of the LOS of every Known Good Order enemy unit,
    gain concealment (per Location).  The enemy that counts is what the side knows."""
    sc = state.scenario
    fog = state.fog
    sees = env().sees(sc)
    out: list[Record] = []
    groups: dict[tuple[str, str, str], list[str]] = {}
    for u in sorted(sc.units, key=lambda x: x.id):
        if u.kind is UnitKind.SUPPORT_WEAPON or is_hidden(fog, u.id) or not sc.map.contains(u.hex):
            continue
        seen = any(e.side != u.side and e.kind is not UnitKind.SUPPORT_WEAPON and not e.broken and not is_hidden(fog, e.id)
                   and sees(e.hex, u.hex, e.position, u.position) for e in sc.units)
        melee = (u.hex.label, "dugout" if u.position is Position.DUGOUT else "hex") in state.combat.melee
        if gains_concealment(sc, u, broken=u.broken, in_melee=melee, seen=seen).lost:
            groups.setdefault((u.side, u.hex.label, u.position.value), []).append(u.id)
    for (side, h, p), ids in sorted(groups.items()):
        out.append(ConcealmentGained(side, h, p, tuple(ids)))
    return out


def reduce_phase(before: AslgwState, after: AslgwState, ev: PhaseBegan) -> AslgwState:
    """A new phase: the last movers' window and Residual FP are gone (A8.1, A8.2); each
    phase's once-only attempts start afresh (rally, repair, rout, CC); as the CCPh
    begins, where an ambush may happen (A11.4); a new player turn clears pins, fire
    markers and BCh status (A7.8, A8.1, ASLGW 1.5)."""
    c = after.combat
    ph = after.phase
    c = replace(c, window=None, residual=ro({}) if ph is not Phase.MPh else c.residual)
    if ph is Phase.RPh:
        c = replace(c, rallied=frozenset(), repaired=frozenset(), self_rallied=frozenset())
    if ph is Phase.RtPh:
        c = replace(c, routed=frozenset())
    if ph is Phase.CCPh:
        possible, concealed = ml.start_of_ccph(replace(after, combat=c))
        c = replace(c, cc_done=frozenset(), ambush_possible=possible, ambush_concealed=concealed)
    st = replace(after, combat=c)
    if before.phase is Phase.MPh and ph is not Phase.MPh:
        # ASLGW 1.9.16: the CX of gas protection taken off goes at the end of that MPh
        gone = [k for k, m in c.marks.items() if m.gas_removed]
        st = st.with_play({k: replace(st.unit_play(k), cx=False) for k in gone})
    new_turn = not before.started or ev.turn != before.turn or ev.phasing != before.phasing
    if new_turn:
        st = gp.expire(fx.new_player_turn(st))
    return st


def reduce_moved(before: AslgwState, after: AslgwState, ev: Record) -> AslgwState:
    """After a move: the units that just moved are the defender's targets (A8.1; a
    platoon's at the end of its impulse, ASLGW 1.4.1); they have moved this turn (A7.25)."""
    c = after.combat
    if isinstance(ev, Moved):
        c = fx.mark_moved(c, ev.units)
        if ev.platoon is not None or after.phase is not Phase.MPh:
            c = replace(c, window=None)
        else:
            c = replace(c, window=FireWindow(after.defender, (MoverMark(ev.to, ev.to_in, ev.units, ev.dummies, ev.mode == "assault"),)))
    elif isinstance(ev, ImpulseEnded):
        sc = after.scenario
        marks: dict[tuple[str, str], list[str]] = {}
        for uid in ev.units:
            try:
                u = sc.unit(uid)
            except KeyError:
                continue
            marks.setdefault((u.hex.label, u.position.value), []).append(uid)
        targets = tuple(MoverMark(h, p, tuple(sorted(us))) for (h, p), us in sorted(marks.items()))
        c = replace(c, window=FireWindow(after.defender, targets) if targets else None)
    return replace(after, combat=c)


def reduce(state: AslgwState, ev: Record) -> AslgwState | None:
    """The state after a combat event, or None when ``ev`` is not one."""
    if isinstance(ev, ConcealmentGained):
        sc = state.scenario
        units = [sc.unit(i) for i in ev.units]
        ids = [u.id for u in units] + [w.id for w in carried(sc, units) if not is_hidden(state.fog, w.id)]
        return replace(state, fog=gain_concealment(state.fog, ids).state)
    for fn in (fx.reduce, ry.reduce_rally, rt.reduce_rout, ml.reduce_melee, chg.reduce_charge, gp.reduce_gas):
        got = fn(state, ev)
        if got is not None:
            return got
    if isinstance(ev, ResidualPlaced):
        c = state.combat
        return replace(state, combat=replace(c, residual=ro({**c.residual, (ev.at, ev.at_in): ev.fp})))
    from gwasl.games.aslgw.combat_records import FireNtc, FireResolved, SniperStruck

    if isinstance(ev, FireNtc):
        up = state.unit_play(ev.unit)
        return state.with_play({ev.unit: replace(up, ntc_passed=True) if ev.passed else replace(up, ntc_failed=True)})
    if isinstance(ev, (FireResolved, SniperStruck, FireConsidered)):
        return state
    return None


