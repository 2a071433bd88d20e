"""The dispatcher: which family of actions lists, checks, resolves, prices and
reduces what, for :class:`~gwasl.games.aslgw.game.AslgwGame`.

It takes only what it needs -- the state, the dice, the viewer -- and never
the game: the reduce it hands to the families (an :class:`~gwasl.games.aslgw.effects.Emitter`
reduces each event as soon as it is made) is its own :func:`reduce`.  Each
action and each event has one handler, found by its type in the tables below,
which the families export (``APPLY``, ``ODDS``, ``REDUCERS``).

Fire, rally, rout, close combat, Bayonet Charge and gas resolve through an
Emitter (:data:`_RESOLVE`); movement, the turn and the fog layer return their
events (:data:`_APPLY`).  After a movement action's events come Residual FP
and the fire of a defender gwasl keeps secret (A8.1, A8.2); after any action,
an immediate victory the card allows (A26).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.events import Decided, Rolled
from gwasl.engine.game import GameError, IllegalAction, Outcome, Policy, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw import knowledge
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw.actions import bayonet_charge as chg
from gwasl.games.aslgw.actions import close_combat as ml
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.actions import gas as gp
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.actions import rally as ry
from gwasl.games.aslgw.actions import rout as rt
from gwasl.games.aslgw.actions import shifts as sh
from gwasl.games.aslgw.actions import turn
from gwasl.games.aslgw.records import (
    COMBAT_ACTIONS,
    BayonetCharge,
    ChargeStep,
    CloseCombat,
    EndChargeImpulse,
    EndPhase,
    EndWindow,
    Fire,
    Rally,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    Rout,
    Withdraw,
)
from gwasl.games.aslgw.state import AslgwState
from gwasl.model.phases import Phase
from gwasl.rules.fog.status import FogRuleError

__all__ = ["apply", "automated", "legal", "odds", "reduce", "why_illegal"]

#: the ruleset the messages name (AslgwGame.ruleset)
RULESET = "aslgw"


def _merged(tables: Iterable[Mapping[type[Record], Any]]) -> dict[type[Record], Any]:
    """One table from the families' own: a type handled twice is a mistake, caught at import."""
    out: dict[type[Record], Any] = {}
    for t in tables:
        for k, fn in t.items():
            if k in out:
                raise AssertionError(f"{k.__name__} has two handlers")
            out[k] = fn
    return out


# ---------------------------------------------------------------------------
# Legal actions


def legal(state: AslgwState, viewer: Viewer) -> list[Record]:
    """Every action of the side to act, as ``viewer`` knows the game (a pure function of both)."""
    if state.over:
        return []
    side = turn.to_act(state)
    assert side is not None
    knows = viewer.sees_secrets_of(side)
    if state.minefield is not None:
        return sh.minefield_options(state) if knows and side not in state.secret else []
    if state.windows:
        w = state.windows[0]
        if w in state.secret:
            return []
        return [*(sh.shift_options(state, w) if knows else []), EndWindow(w)]
    out: list[Record] = []
    if state.impulse is None:
        if turn.blocks_end(state) is None:
            out.append(EndPhase())
        if knows:
            out += sh.shift_options(state, side)
    # no other unit moves while a BCh is moving (ASLGW 1.5, A25.231)
    if state.phase in (Phase.MPh, Phase.APh) and not chg.active(state):
        out += mv.legal(state, side, viewer, knows)
    out += fr.legal(state, viewer, side)
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


def why_illegal(state: AslgwState, action: Record, viewer: Viewer) -> str | None:
    """Why ``action`` is not legal now, with the rule; None when there is no better reason
    than 'not in the list'."""
    if state.over:
        return "the game is over"
    # worked out on the game as the viewer knows it: a refusal tells nothing hidden (CONTRACTS 5)
    state = knowledge.seen_state(state, viewer)
    return (knowledge.unknown_piece(state, action, viewer) or turn.why_not(state, action)
            or _why_combat(state, action, viewer) or mv.why_not(state, action, viewer, turn.to_act(state))
            or sh.why_not(state, action, viewer))


#: a combat action's own check before the dry run
_WHY: Mapping[type[Record], Callable[[AslgwState, Any], str | None]] = {
    Rally: ry.why_illegal,
    Rout: rt.why_illegal,
    CloseCombat: ml.why_illegal,
    Withdraw: ml.why_illegal,
}


def _why_combat(state: AslgwState, action: Record, viewer: Viewer) -> str | None:
    if isinstance(action, Fire):
        return fr.why_not(state, action, viewer)
    check = _WHY.get(type(action))
    why = check(state, action) if check is not None else None
    if why:
        return why
    if type(action) in _RESOLVE:
        # the rules' own reason, from a dry run on throw-away dice (nothing is kept)
        try:
            _resolve(state, action, GameDice(0))
        except (IllegalAction, FogRuleError) as e:  # a fog rule's refusal names its rule (O'Leary 3.2.2: HIP)
            return str(e)
        except (KeyError, ValueError) as e:
            return f"{action.kind}: {e}"
    return None


# ---------------------------------------------------------------------------
# Apply


def _end_charge_impulse(em: fx.Emitter, act: EndChargeImpulse) -> None:
    chg.resolve_end_impulse(em, act)
    fr.after_move_em(em, list(em.events))


#: the actions resolved through an Emitter (fire and close combat, issue 12)
_RESOLVE: Mapping[type[Record], Callable[[fx.Emitter, Any], None]] = {
    Fire: fr.resolve,
    Rally: ry.resolve_rally,
    Repair: ry.resolve_repair,
    Rout: rt.resolve,
    CloseCombat: ml.resolve_cc,
    Withdraw: ml.resolve_withdraw,
    BayonetCharge: chg.resolve_declaration,
    ChargeStep: chg.resolve_step,
    EndChargeImpulse: _end_charge_impulse,
    ReleaseGas: gp.resolve_release,
    RemoveGasMask: gp.resolve_removal,
}
assert set(_RESOLVE) == set(COMBAT_ACTIONS)


def _end_phase(state: AslgwState, action: EndPhase, dice: GameDice) -> list[Record]:
    return turn.end_phase(state, dice, reduce)


#: the actions that return their events
_APPLY: Mapping[type[Record], Callable[[AslgwState, Any, GameDice], list[Record]]] = _merged(
    (mv.APPLY, sh.APPLY, {EndPhase: _end_phase}))


def _resolve(state: AslgwState, action: Record, dice: GameDice) -> list[Record]:
    em = fx.Emitter(state, dice, reduce)
    _RESOLVE[type(action)](em, action)
    return em.events


def apply(state: AslgwState, action: Record, dice: GameDice) -> list[Record]:
    """The events of ``action``; every roll made with ``dice`` is among them."""
    if state.over:
        raise IllegalAction("the game is over")
    if type(action) in _RESOLVE:
        events = _resolve(state, action, dice)
    else:
        handler = _APPLY.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action.kind!r} is not an action of {RULESET}")
        events = handler(state, action, dice)
        if isinstance(action, mv.MOVES):
            events = events + fr.after_move(state, events, dice, reduce)
    return events + vic.immediate_victory(state, events, reduce)


# ---------------------------------------------------------------------------
# Reduce


def _unchanged(state: AslgwState, event: Record) -> AslgwState:
    return state


_REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = _merged(
    ({Rolled: _unchanged, Decided: _unchanged}, turn.REDUCERS, mv.REDUCERS, sh.REDUCERS, knowledge.REDUCERS,
     fx.REDUCERS, fr.REDUCERS, ry.REDUCERS, rt.REDUCERS, ml.REDUCERS, chg.REDUCERS, gp.REDUCERS, vic.REDUCERS))


def reduce(state: AslgwState, event: Record) -> AslgwState:
    """The state after ``event``: the only way the state changes."""
    fn = _REDUCERS.get(type(event))
    if fn is None:
        raise GameError(f"{RULESET} cannot replay an event of kind {event.kind!r}")
    new = fn(state, event)
    # A26.11: Control is re-judged after every event that moves, breaks, reveals or removes a unit
    return new if vic.is_quiet(event) else vic.track(state, new)


# ---------------------------------------------------------------------------
# Odds and policies


def _no_dice(state: AslgwState, action: Record, viewer: Viewer) -> list[Outcome]:
    return []


_ODDS: Mapping[type[Record], Callable[[AslgwState, Any, Viewer], list[Outcome]]] = _merged((
    {Fire: fr.fire_odds, Rally: ry.odds, Repair: ry.odds, Rout: rt.odds, CloseCombat: ml.odds, Withdraw: _no_dice},
    sh.ODDS, mv.ODDS))


def odds(state: AslgwState, action: Record, viewer: Viewer) -> list[Outcome]:
    """The exact chance of each outcome of ``action`` as ``viewer`` knows the game (empty: no dice)."""
    fn = _ODDS.get(type(action))
    return fn(state, action, viewer) if fn is not None else []


def automated(state: AslgwState) -> Mapping[str, Policy]:
    """gwasl's policies for a side it keeps secret: at a minefield it entered (O'Leary
    4.6.2), at its shift windows, and its fire."""
    side = turn.to_act(state)
    if side is None or side not in state.secret:
        return {}
    if state.minefield is not None:
        return {side: sh.minefield_policy}
    if state.windows and state.windows[0] == side:
        return {side: sh.window_policy}
    return fr.automated(state, side)
