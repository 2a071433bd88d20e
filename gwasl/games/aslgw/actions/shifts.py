"""The fog layer in play: O'Leary's shift attempts as actions at their windows
(2.3, 3.3.2, 5.1), gwasl's policy for a side whose hidden layer it keeps, and
the minefield shift on entry (4.6.2).

Every shift is planned on the shifting side's knowledge
(:func:`~gwasl.games.aslgw.knowledge.side_knowledge`): the +1 "in the LOS of
an enemy unit" counts the enemy units that side knows of and every enemy
"?" pile, never a hidden enemy (docs/rules-notes.md), and is rolled with
that DRM on the truth (:func:`gwasl.rules.fog.resolve.resolve_shift`).  The
game's reduce replays each result from its recorded dice, so the ledgers,
the phase closed on 8+, TI, eliminated dummies and lost status follow from
the events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Outcome, Seat, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.actions.memo import MISSING, StateMemo
from gwasl.games.aslgw.knowledge import env, private_dice, seat_knowledge, secret_roll, side_knowledge
from gwasl.games.aslgw.records import (
    Attempt,
    EndWindow,
    MinefieldChoice,
    MinefieldEntered,
    MinefieldShifted,
    RunWindow,
    Shift,
    ShiftResolved,
    ShiftSeen,
    ShiftWindow,
    WindowEnded,
)
from gwasl.games.aslgw.state import AslgwState, GasCloud, ro
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.phases import Phase
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.env import FogEnv
from gwasl.rules.fog.odds import shift_band_odds
from gwasl.rules.fog.policy import choose_minefield_shift, choose_shift
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import (
    ShiftError,
    ShiftPlan,
    is_phase_closed,
    plan_cloaked_shift,
    plan_dummy_shift,
    plan_hip_shift,
    plan_minefield_shift,
    shift_window,
)
from gwasl.rules.fog.state import Clock, FogState, LedgerKind, ShiftRecord
from gwasl.rules.fog.words import consequence_lines, public_lines

__all__ = [
    "APPLY",
    "LEDGERS",
    "MAX_POLICY_ATTEMPTS",
    "ODDS",
    "REDUCERS",
    "apply_minefield",
    "apply_shift",
    "has_window",
    "minefield_decision",
    "minefield_options",
    "minefield_policy",
    "plan_for",
    "resolve_minefield",
    "resolve_player_shift",
    "run_window",
    "shift_odds",
    "shift_options",
    "side_view",
    "fog_env",
    "why_not",
    "window_policy",
    "SideKnowledge",
]

LEDGERS = {"dummy": LedgerKind.DUMMY, "hip": LedgerKind.HIP, "cloaked": LedgerKind.CLOAKED}
#: shift attempts gwasl's policy may make in one window (as gwasl.rules.fog.policy.run_policy)
MAX_POLICY_ATTEMPTS = 6


def fog_env(state: AslgwState) -> FogEnv:
    """The fog layer's rule functions in this game: :func:`~gwasl.games.aslgw.knowledge.env`
    with movement's own MF allowance (:func:`~gwasl.games.aslgw.actions.movement.allowance`),
    so O'Leary 2.4's "could it have spent that MF" counts what play gives a unit (ASLGW 1.3:
    6 MF for a squad in formation with its leader), never a second reckoning."""
    return replace(env(), mf_allowance=lambda sc, u, group: mv.allowance(state, sc, u, group))


def plan_for(fog: FogState, ledger: str, side: str, a: str, b: str, clock: Clock,
             shifts: Sequence[ShiftRecord], fenv: FogEnv | None = None) -> ShiftPlan:
    """The plan of a shift named as the :class:`Shift` action names it, now (``clock``)
    after the shift DRs ``shifts`` (the game's ledger), with the rule functions ``fenv``
    (:func:`fog_env` of the game; default :func:`~gwasl.games.aslgw.knowledge.env`).  HIP:
    the real units at ``a`` shift (all its pieces if it holds none), as the policy plans them. (O'Leary 2.3, 3.3, 5.1.)"""
    e = fenv if fenv is not None else env()
    if ledger == "dummy":
        return plan_dummy_shift(fog, a, b, e, clock=clock, ledger=shifts)
    if ledger == "cloaked":
        return plan_cloaked_shift(fog, a, b, e, clock=clock, ledger=shifts)
    if ledger == "hip":
        ha, hb = Hex.from_label(a), Hex.from_label(b)
        real = tuple(u.id for u in fog.hip_units_at(ha, side))
        return plan_hip_shift(fog, side, ha, hb, e, movers_a=real or None, clock=clock, ledger=shifts)
    raise ShiftError(f"no {ledger!r} shifts: use one of {', '.join(LEDGERS)}")


def _ident(p: ShiftPlan) -> tuple[str, str, str]:
    if p.kind is LedgerKind.HIP:
        return "hip", p.hex_a.label, p.hex_b.label
    return p.kind.value, str(p.a), str(p.b)


def has_window(state: AslgwState, side: str) -> bool:
    """Whether a shift window of ``side`` is open now (O'Leary 2.3, 3.3.2, 5.1)."""
    c = state.clock
    return any(shift_window(c, side, k) is None for k in LEDGERS.values())


#: the attempts already planned, by state and side: every viewer's legal list of a state
#: asks them (they depend on no viewer; memo.py)
_OPTIONS = StateMemo(64)


def shift_options(state: AslgwState, side: str) -> list[Record]:
    """Every eligible shift attempt of ``side`` now, planned on its knowledge.

    (O'Leary 2.3, 3.3.2, 5.1: at the side's windows.)"""
    kept = _OPTIONS.get(state, side)
    if kept is MISSING:
        kept = tuple(_shift_options(state, side))
        _OPTIONS.put(state, side, kept)
    return list(kept)


def _shift_options(state: AslgwState, side: str) -> list[Record]:
    fog = state.fog
    c = state.clock
    known = side_knowledge(fog, side)
    out: list[Record] = []

    def open_(k: LedgerKind) -> bool:
        return shift_window(c, side, k) is None and not is_phase_closed(state.ledger, c, side, k)

    own = sorted((s for s in fog.stacks if s.side == side), key=lambda s: (s.hex.column, s.hex.row, s.position.value, s.id))
    if open_(LedgerKind.HIP):
        hexes = sorted({h for h in fog.hidden_hexes(side) if fog.hip_pieces_at(h, side)}, key=lambda h: (h.column, h.row))
        for a in hexes:
            for b in hexes:
                if a != b and _eligible(state, known, "hip", side, a.label, b.label):
                    out.append(Shift("hip", side, a.label, b.label))
    if open_(LedgerKind.DUMMY):
        for sa in own:
            if sa.potential_dummy and not sa.cloaked:
                for sb in own:
                    if sb.id != sa.id and not sb.cloaked and _eligible(state, known, "dummy", side, sa.id, sb.id):
                        out.append(Shift("dummy", side, sa.id, sb.id))
    if open_(LedgerKind.CLOAKED):
        for sa in own:
            if sa.cloaked and not sa.is_dummy:
                for sb in own:
                    if sb.id != sa.id and sb.cloaked and _eligible(state, known, "cloaked", side, sa.id, sb.id):
                        out.append(Shift("cloaked", side, sa.id, sb.id))
    return out


def _eligible(state: AslgwState, known: FogState, ledger: str, side: str, a: str, b: str) -> bool:
    try:
        return plan_for(known, ledger, side, a, b, state.clock, state.ledger, fog_env(state)).eligible
    except ShiftError:
        return False


def shift_odds(state: AslgwState, action: Shift) -> dict[str, Fraction]:
    """Exact odds of each band of the 2.5 table for the attempt (DRM as the side knows it)."""
    plan = plan_for(side_knowledge(state.fog, action.side), action.ledger, action.side, action.a, action.b,
                    state.clock, state.ledger, fog_env(state))
    return dict(shift_band_odds(plan.drm, env().table))


def resolve_player_shift(state: AslgwState, action: Shift, dice: GameDice) -> list[Record]:
    """A shift attempt the player asked for: rolled on the shared stream, the roll and
    result private to the shifting side, what the enemy sees of it public. (O'Leary 2.5: the shift DR.)"""
    fog = state.fog
    fenv = fog_env(state)
    plan = plan_for(side_knowledge(fog, action.side), action.ledger, action.side, action.a, action.b,
                    state.clock, state.ledger, fenv)
    r = resolve_shift(fog, plan, dice, fenv, clock=state.clock)
    events: list[Record] = [dice.event(r.roll, action.side),
                            ShiftResolved(action.side, action.ledger, action.a, action.b, tuple(r.roll.dice), r.roll.final,
                                          r.band, consequence_lines(r))]
    if r.public:
        events.append(ShiftSeen(action.side, public_lines(r)))
    return events


def apply_shift(state: AslgwState, side: str, ledger: str, a: str, b: str,
                dice: tuple[int, ...]) -> tuple[FogState, ShiftRecord]:
    """Replay a shift result from its dice (the game's reduce): the fog layer after it
    and the entry it adds to the ledger (O'Leary 2.5)."""
    fog = state.fog
    fenv = fog_env(state)
    plan = plan_for(side_knowledge(fog, side), ledger, side, a, b, state.clock, state.ledger, fenv)
    r = resolve_shift(fog, plan, ScriptedDice(list(dice)), fenv, clock=state.clock)
    return r.state, r.record


def run_window(state: AslgwState, side: str, seed: int) -> list[Record]:
    """gwasl's shift policy at ``side``'s window: it decides from the side's knowledge
    (:func:`gwasl.rules.fog.policy.choose_shift`), attempt after attempt, each roll
    from ``side``'s private stream; one private event holds every decision and
    roll, so the events the enemy sees do not depend on what was tried. (O'Leary 2.3, 3.3.2, 5.1.)"""
    fog = state.fog
    shifts = own_ledger(state, side)
    dice = private_dice(state, side, seed)
    attempts: list[Attempt] = []
    explained: list[str] = []
    seen: list[Record] = []
    fenv = fog_env(state)
    for _ in range(MAX_POLICY_ATTEMPTS):
        known = side_knowledge(fog, side)
        d = choose_shift(known, side, fenv, seed, clock=state.clock, ledger=shifts)
        explained.append(d.explain())
        if d.chosen is None:
            break
        ledger, a, b = _ident(d.chosen.plan)
        r = resolve_shift(fog, d.chosen.plan, dice, fenv, clock=state.clock)
        shifts += (r.record,)
        attempts.append(Attempt(ledger, a, b, secret_roll(dice, r.roll), r.band, d.reason, consequence_lines(r)))
        if r.public:
            seen.append(ShiftSeen(side, public_lines(r)))
        fog = r.state
    return [ShiftWindow(side, state.phase.value, tuple(attempts), tuple(explained)), *seen, WindowEnded(side)]


def minefield_options(state: AslgwState) -> list[Record]:
    """O'Leary 4.6.2: the owner's choices for the minefield just entered."""
    if state.minefield is None:
        return []
    mid, owner = state.minefield
    known = side_knowledge(state.fog, owner)
    out: list[Record] = [MinefieldChoice(mid, None)]
    for o in sorted(state.fog.minefields, key=lambda m: (m.hex.column, m.hex.row, m.id)):
        if o.side == owner and o.id != mid and \
                plan_minefield_shift(known, mid, o.id, env(), clock=state.clock, ledger=state.ledger).eligible:
            out.append(MinefieldChoice(mid, o.id))
    return out


def minefield_odds(state: AslgwState, action: MinefieldChoice) -> dict[str, Fraction]:
    """The chance of each shift DR result when a minefield's owner shifts it as a unit enters (O'Leary 4.6.2, 2.5)."""
    if action.other is None or state.minefield is None:
        return {}
    known = side_knowledge(state.fog, state.minefield[1])
    plan = plan_minefield_shift(known, action.minefield, action.other, env(), clock=state.clock, ledger=state.ledger)
    return dict(shift_band_odds(plan.drm, env().table))


def resolve_minefield(state: AslgwState, action: MinefieldChoice, dice: GameDice) -> list[Record]:
    """A unit entered an unrevealed minefield: its owner keeps it there or shifts it with the shift DR (O'Leary
    4.6.2, 4.6.3)."""
    assert state.minefield is not None
    mid, owner = state.minefield
    fog = state.fog
    m = fog.minefield(mid)
    if action.other is None:
        line = (f"dummy minefield at {m.hex} revealed and removed" if m.dummy
                else f"minefield at {m.hex}: its owner keeps it there; {m.ap} AP, {m.at} AT (O'Leary 4.6.2)")
        return [MinefieldShifted(owner, mid, None, lines=(line,))]
    plan = plan_minefield_shift(side_knowledge(fog, owner), mid, action.other, env(), clock=state.clock,
                                ledger=state.ledger)
    r = resolve_shift(fog, plan, dice, env(), clock=state.clock)
    return [dice.event(r.roll, owner),
            MinefieldShifted(owner, mid, action.other, tuple(r.roll.dice), r.roll.final, r.band, public_lines(r))]


def apply_minefield(state: AslgwState, owner: str, mid: str, other: str | None,
                    dice: tuple[int, ...]) -> tuple[FogState, tuple[ShiftRecord, ...]]:
    """Replay the owner's 4.6.2 choice: the fog layer after it and the ledger entry its
    shift DR adds (none if the owner kept the minefield there)."""
    fog = state.fog
    if other is None:
        m = fog.minefield(mid)
        if m.dummy:
            return replace(fog, minefields=tuple(x for x in fog.minefields if x.id != mid)), ()
        return replace(fog, minefields=tuple(replace(x, revealed=True) if x.id == mid else x for x in fog.minefields)), ()
    plan = plan_minefield_shift(side_knowledge(fog, owner), mid, other, env(), clock=state.clock, ledger=state.ledger)
    r = resolve_shift(fog, plan, ScriptedDice(list(dice)), env(), clock=state.clock)
    return r.state, (r.record,)


@dataclass(frozen=True, slots=True)
class SideKnowledge:
    """What a side's policy reads (``Game.policy_view``): the turn, the phase, a pending
    minefield choice, and the fog layer as that side knows it
    (:func:`~gwasl.games.aslgw.knowledge.seat_knowledge`: a pure function of that side's view,
    enemy "?" as where and how many only), nothing else of the state."""

    side: str
    turn: int
    phase: Phase
    minefield: tuple[str, str] | None
    fog: FogState
    clock: Clock
    ledger: tuple[ShiftRecord, ...]  # the side's own shift DRs: their count seeds the policy's ties
    #: its own units that have begun moving this phase and are not done (A4.1: a unit or
    #: stack finishes its move before another begins; moving another ends it)
    moving: frozenset[str] = frozenset()
    #: the gas clouds on the map and the releases made (ASLGW 1.9): public, as the map shows them
    gas: tuple[GasCloud, ...] = ()
    gas_released: frozenset[tuple[str, int]] = frozenset()


def own_ledger(state: AslgwState, side: str) -> tuple[ShiftRecord, ...]:
    """``side``'s own shift DRs (O'Leary 2.5, 3.3.4): all its policy may read of the
    ledger, since the enemy's DRs may be private to the enemy (a count of them would
    tell the policy how often a hidden enemy tried to shift)."""
    return tuple(r for r in state.ledger if r.side == side)


def side_view(state: AslgwState, side: str) -> SideKnowledge:
    moving = frozenset(uid for uid, up in state.play.items() if up.moved and not up.done and _unit_side(state, uid) == side)
    return SideKnowledge(side, state.turn, state.phase, state.minefield, seat_knowledge(state.fog, side),
                         state.clock, own_ledger(state, side), moving, state.combat.gas, state.combat.released)


def _unit_side(state: AslgwState, uid: str) -> str | None:
    try:
        return state.scenario.unit(uid).side
    except KeyError:
        return None


def minefield_decision(view: SideKnowledge, seed: int) -> tuple[MinefieldChoice, str, dict[str, object]]:
    """gwasl's choice for a minefield of a side whose hidden layer it keeps (O'Leary 4.6.2),
    from that side's knowledge only."""
    assert view.minefield is not None
    mid, _owner = view.minefield
    d = choose_minefield_shift(view.fog, mid, env(), seed, clock=view.clock, ledger=view.ledger)
    other = d.chosen.plan.b if d.chosen is not None else None
    return MinefieldChoice(mid, other), d.reason, {"candidates": [c.explain() for c in d.candidates]}


# ---------------------------------------------------------------------------
# gwasl's policies at a window and at a minefield, for a side whose hidden layer it keeps


def window_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """gwasl's shift policy at a window of a side whose hidden layer it keeps."""
    side = seat.viewer.name
    view = seat.view()
    return Decision(RunWindow(side),
                    f"gwasl keeps {side}'s hidden layer: its shift policy acts at the start of the {view.phase.value} "
                    "(O'Leary 2.3, 3.3.2, 5.1; gwasl/rules/fog/policy.py)",
                    {"window": view.phase.value, "turn": view.turn})


def minefield_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """gwasl's choice for an entered minefield of a side whose hidden layer it keeps (O'Leary 4.6.2)."""
    view = seat.view()
    action, why, details = minefield_decision(view, dice.seed)
    return Decision(action, why, details)


# ---------------------------------------------------------------------------
# The dispatcher's tables


def why_not(state: AslgwState, action: Record, viewer: Viewer) -> str | None:
    """Why a shift, a window's end or a minefield choice is not legal now, in words with its
    rule, from what ``viewer`` knows (a side's own hidden layer only to who sees it); None
    for an action of another family. (O'Leary 2.3, 3.3.2, 4.6.2.)"""
    if isinstance(action, RunWindow):
        return (f"gwasl's own shift policy acts at the windows of a side it keeps secret ({action.side} decides "
                "nothing there); a window is ended with end_window (O'Leary 2.3, 3.3.2)")
    if isinstance(action, EndWindow):
        return _why_end_window(state, action)
    if isinstance(action, Shift):
        return _why_shift(state, action, viewer)
    if isinstance(action, MinefieldChoice):
        return _why_minefield(state, action, viewer)
    return None


def _why_end_window(state: AslgwState, action: EndWindow) -> str:
    if not state.windows:
        return "no shift window is open now: one opens as a phase begins (O'Leary 2.3, 3.3.2)"
    w = state.windows[0]
    if w != action.side:
        return f"the shift window open now is {w}'s (O'Leary 2.3, 3.3.2)"
    return f"gwasl keeps {w}'s hidden layer: its policy acts at its window (O'Leary 2.3, 3.3.2)"


def _why_shift(state: AslgwState, action: Shift, viewer: Viewer) -> str:
    if not viewer.sees_secrets_of(action.side):
        return f"the shifts of {action.side} are its secret: gwasl decides them (O'Leary 2.3)"
    if action.side in state.secret:
        return f"gwasl keeps {action.side}'s hidden layer: its policy decides its shifts (O'Leary 2.3)"
    if state.minefield is not None:
        return "a minefield was just entered: its owner chooses first (O'Leary 4.6.2)"
    kind = LEDGERS.get(action.ledger)
    if kind is None:
        return f"no {action.ledger!r} shifts: dummy (O'Leary 2.3), hip (3.3) or cloaked (5.1)"
    c = state.clock
    window = shift_window(c, action.side, kind)
    if window:
        return window
    if state.windows and state.windows[0] != action.side:
        return f"the shift window open now is {state.windows[0]}'s (O'Leary 2.3, 3.3.2)"
    if state.impulse is not None:
        return f"platoon {state.impulse.platoon} is in the middle of an impulse: end it first (ASLGW 1.4.1)"
    if is_phase_closed(state.ledger, c, action.side, kind):
        return f"a failed {kind.value} shift already closed this phase to further {kind.value} shifts (O'Leary 2.5, 3.3.5)"
    try:
        plan = plan_for(side_knowledge(state.fog, action.side), action.ledger, action.side, action.a, action.b, c,
                        state.ledger, fog_env(state))
    except (ShiftError, HexLabelError, KeyError) as e:
        return f"{e} (O'Leary 2.3, 3.3)"
    if plan.reason:
        return plan.reason
    return f"this shift is not one {action.side} may make now (O'Leary 2.3-2.5, 3.3)"


def _why_minefield(state: AslgwState, action: MinefieldChoice, viewer: Viewer) -> str:
    if state.minefield is None:
        return "no minefield has just been entered: its owner chooses only then (O'Leary 4.6.2)"
    mid, owner = state.minefield
    if not viewer.sees_secrets_of(owner) or owner in state.secret:
        return f"the minefields of {owner} are its secret: gwasl decides (O'Leary 4.6.2)"
    if action.minefield != mid:
        return f"the minefield just entered is {mid} (O'Leary 4.6.2)"
    if action.other is None:
        return "the owner may keep the minefield where it is (O'Leary 4.6.2)"
    known = side_knowledge(state.fog, owner)
    try:
        plan = plan_minefield_shift(known, mid, action.other, fog_env(state), clock=state.clock, ledger=state.ledger)
    except (ShiftError, KeyError) as e:
        return f"{e} (O'Leary 4.6.2)"
    return plan.reason or f"the minefield {mid} may not shift to {action.other} now (O'Leary 4.6.2-4.6.5)"


def _end_window(state: AslgwState, action: EndWindow, dice: GameDice) -> list[Record]:
    return [WindowEnded(action.side)]


def _run_window(state: AslgwState, action: RunWindow, dice: GameDice) -> list[Record]:
    return run_window(state, action.side, dice.seed)


#: the events of each action of the fog layer
APPLY: Mapping[type[Record], Callable[[AslgwState, Any, GameDice], list[Record]]] = {
    EndWindow: _end_window,
    RunWindow: _run_window,
    Shift: resolve_player_shift,
    MinefieldChoice: resolve_minefield,
}


def _shift_outcomes(state: AslgwState, action: Shift, viewer: Viewer) -> list[Outcome]:
    return [Outcome(k, float(v)) for k, v in shift_odds(state, action).items()]


def _minefield_outcomes(state: AslgwState, action: MinefieldChoice, viewer: Viewer) -> list[Outcome]:
    return [Outcome(k, float(v)) for k, v in minefield_odds(state, action).items()]


ODDS: Mapping[type[Record], Callable[[AslgwState, Any, Viewer], list[Outcome]]] = {
    Shift: _shift_outcomes,
    MinefieldChoice: _minefield_outcomes,
}


def _shift_resolved(state: AslgwState, event: ShiftResolved) -> AslgwState:
    fog, rec = apply_shift(state, event.side, event.ledger, event.a, event.b, event.dice)
    return replace(state, fog=fog, ledger=state.ledger + (rec,))


def _shift_window(state: AslgwState, event: ShiftWindow) -> AslgwState:
    st = state
    pos = state.private_position(event.side)
    for a in event.attempts:
        fog, rec = apply_shift(st, event.side, a.ledger, a.a, a.b, a.roll.dice)
        st = replace(st, fog=fog, ledger=st.ledger + (rec,))
        pos = max(pos, a.roll.n + len(a.roll.dice))
    return replace(st, private_dice=ro({**state.private_dice, event.side: pos}))


def _window_ended(state: AslgwState, event: WindowEnded) -> AslgwState:
    w = list(state.windows)
    if event.side in w:
        w.remove(event.side)
    return replace(state, windows=tuple(w))


def _minefield_entered(state: AslgwState, event: MinefieldEntered) -> AslgwState:
    return replace(state, minefield=(event.minefield, event.owner))


def _minefield_shifted(state: AslgwState, event: MinefieldShifted) -> AslgwState:
    fog, rec = apply_minefield(state, event.owner, event.minefield, event.other, event.dice)
    return replace(state, fog=fog, minefield=None, ledger=state.ledger + rec)


def _unchanged(state: AslgwState, event: Record) -> AslgwState:
    return state


#: the state after each event of the fog layer in play
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    ShiftResolved: _shift_resolved,
    ShiftWindow: _shift_window,
    ShiftSeen: _unchanged,
    WindowEnded: _window_ended,
    MinefieldEntered: _minefield_entered,
    MinefieldShifted: _minefield_shifted,
}
