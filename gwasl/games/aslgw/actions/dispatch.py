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
from gwasl.games.aslgw.actions.memo import MISSING, StateMemo
from gwasl.games.aslgw.records import (
    COMBAT_ACTIONS,
    BayonetCharge,
    ChargeStep,
    CloseCombat,
    EndChargeImpulse,
    EndPhase,
    EndWindow,
    Fire,
    FireGroupAdd,
    FireGroupDrop,
    MinefieldChoice,
    Rally,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    Rout,
    RunWindow,
    Shift,
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


#: the lists already worked out, by state and viewer: the session, the seats, the opponent and
#: the menus list the same state's actions again (memo.py)
_LEGAL = StateMemo(64)


def legal(state: AslgwState, viewer: Viewer) -> list[Record]:
    """Every action of the side to act, as ``viewer`` knows the game (a pure function of both)."""
    kept = _LEGAL.get(state, viewer)
    if kept is MISSING:
        kept = tuple(_legal(state, viewer))
        _LEGAL.put(state, viewer, kept)
    return list(kept)


def _legal(state: AslgwState, viewer: Viewer) -> list[Record]:
    if state.over:
        return []
    side = turn.to_act(state)
    assert side is not None
    knows = viewer.sees_secrets_of(side)
    if state.minefield is not None:
        return sh.minefield_options(state) if knows and side not in state.secret else []
    if state.combat.group is not None:
        return fr.legal(state, viewer, side)  # a fire group being formed is fired or dropped first (A7.5)
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


def why_illegal(state: AslgwState, action: Record, viewer: Viewer) -> str:
    """Why ``action`` is not legal now, in words with the rule that forbids it, judged on
    what ``viewer`` knows (never the hidden truth): what holds the whole game first (a
    minefield choice, a shift window, a moving Bayonet Charge), then the action's own
    family, then what its family's list offers."""
    if state.over:
        return "the game is over (A26)"
    # worked out on the game as the viewer knows it: a refusal tells nothing hidden (CONTRACTS 5)
    state = knowledge.seen_state(state, viewer)
    return (_why_gate(state, action, viewer) or knowledge.unknown_piece(state, action, viewer)
            or turn.why_not(state, action) or _why_combat(state, action, viewer)
            or mv.why_not(state, action, viewer, turn.to_act(state)) or sh.why_not(state, action, viewer)
            or _why_family(state, action))


def _why_gate(state: AslgwState, action: Record, viewer: Viewer) -> str | None:
    """What keeps every other action waiting: an entered minefield (O'Leary 4.6.2), an open
    shift window (O'Leary 2.3, 3.3.2), a moving Bayonet Charge (ASLGW 1.5, A25.231)."""
    if state.minefield is not None and not isinstance(action, MinefieldChoice):
        return f"{state.minefield[1]} first chooses for the minefield just entered (O'Leary 4.6.2)"
    if state.windows and not isinstance(action, (Shift, EndWindow, RunWindow)):
        return f"{state.windows[0]}'s shift window is open: it shifts or ends the window first (O'Leary 2.3, 3.3.2)"
    if chg.active(state) and isinstance(action, (*mv.MOVEMENT, BayonetCharge, EndPhase)):
        return "a Bayonet Charge is moving: nothing else moves, and the phase waits, until it is over (ASLGW 1.5, A25.231)"
    return None


#: what each family's list offers, for an action no more precise check refused
_OFFERS: Mapping[type[Record], str] = {
    EndPhase: "the phase ends when nothing must happen first (A3)",
    Fire: "a fire is one unit, one Location's stack or a fire group of ADJACENT Locations, with a leader stacked with "
          "them directing it, at a Location the list names (A7.5, A7.53, ASLGW 1.3)",
    BayonetCharge: "a Bayonet Charge is declared by the phasing side in its MPh, by Good Order units that have not "
                   "moved, towards an enemy in a straight line (ASLGW 1.5, A25.23)",
    ChargeStep: "each BCh unit enters one ADJACENT hex ahead per impulse, within its MF (A25.231)",
    EndChargeImpulse: "a BCh impulse ends once its units have stepped (A25.231)",
    ReleaseGas: "gas is released as the card's SSR allows, by the phasing side in its PFPh or MPh (ASLGW 1.9)",
    RemoveGasMask: "gas protection is taken off in the phasing side's PFPh or MPh (ASLGW 1.9.16)",
    CloseCombat: "close combat is resolved in the CCPh where both sides show (A11)",
    Withdraw: "units in a Melee withdraw in the CCPh to an ADJACENT Location free of the enemy (A11.2)",
    Rally: "broken units rally in the RPh (A10.6)",
    Repair: "malfunctioned weapons are repaired in the RPh (A9.72)",
    Rout: "broken units rout in the RtPh (A10.5)",
}


def _why_family(state: AslgwState, action: Record) -> str:
    offer = _OFFERS.get(type(action))
    if offer is None:
        return f"{action.kind!r} is not an action gwasl offers now (see the legal actions)"
    return f"{action.kind.replace('_', ' ')} with these details is not among the legal actions now: {offer}"


#: a combat action's own check before the dry run, from what the viewer knows
_WHY: Mapping[type[Record], Callable[[AslgwState, Any, Viewer], str | None]] = {
    Rally: ry.why_illegal,
    Repair: ry.why_illegal,
    Rout: rt.why_illegal,
    CloseCombat: lambda s, a, v: ml.why_illegal(s, a),
    Withdraw: lambda s, a, v: ml.why_illegal(s, a),
}


def _why_combat(state: AslgwState, action: Record, viewer: Viewer) -> str | None:
    if isinstance(action, Fire):
        return fr.why_not(state, action, viewer)
    check = _WHY.get(type(action))
    why = check(state, action, viewer) if check is not None else None
    if why:
        return why
    if type(action) in _RESOLVE:
        # the rules' own reason, from a dry run on throw-away dice (nothing is kept)
        try:
            _resolve(state, action, GameDice(0))
        except (IllegalAction, FogRuleError) as e:  # a fog rule's refusal names its rule (O'Leary 3.2.2: HIP)
            return str(e)
        except (KeyError, ValueError) as e:
            return f"{e} is no unit or place of this game you can see; {_why_family(state, action)}"
    return None


# ---------------------------------------------------------------------------
# Apply


def _end_charge_impulse(em: fx.Emitter, act: EndChargeImpulse) -> None:
    chg.resolve_end_impulse(em, act)
    fr.after_move_em(em, list(em.events))


#: the actions resolved through an Emitter (fire and close combat, issue 12)
_RESOLVE: Mapping[type[Record], Callable[[fx.Emitter, Any], None]] = {
    Fire: fr.resolve,
    FireGroupAdd: fr.resolve_group_add,
    FireGroupDrop: fr.resolve_group_drop,
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


_ODDS: Mapping[type[Record], Callable[[AslgwState, Any, Viewer], list[Outcome]]] = _merged((
    {Fire: fr.fire_odds, Rally: ry.odds, Repair: ry.odds, Rout: rt.odds, CloseCombat: ml.odds, Withdraw: ml.withdraw_odds},
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
