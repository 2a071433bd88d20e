"""The turn in play (A3): the player turns with their eight phases, who is to act,
the shift windows at the start of a phase (O'Leary 2.3, 3.3.2, 5.1), "end phase"
and what happens as a phase begins: Concealment gained at the end of a player
turn (A12.12), units that had to rout and could not eliminated (A10.51), DM
lost (A10.62), gas checks in the RPh (ASLGW 1.9), the marks a new phase or a
new player turn clears; and the end of the last turn, when the card is judged
(A26).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw.actions import bayonet_charge as chg
from gwasl.games.aslgw.actions import close_combat as ml
from gwasl.games.aslgw.actions import gas as gp
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.actions import rally as ry
from gwasl.games.aslgw.actions import rout as rt
from gwasl.games.aslgw.actions import shifts as sh
from gwasl.games.aslgw.knowledge import env, is_hidden
from gwasl.games.aslgw.records import ConcealmentGained, EndPhase, Opened, Over, PhaseBegan
from gwasl.games.aslgw.state import AslgwState, ReduceFn, UnitPlay, ro
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, UnitKind
from gwasl.rules.concealment import gains_concealment
from gwasl.rules.fog.status import gain_concealment, merge_potential_dummies, player_turn_began

__all__ = ["PHASES", "REDUCERS", "begin", "blocks_end", "concealment_gain", "end_phase", "to_act", "why_not"]

PHASES = tuple(Phase)


def to_act(state: AslgwState) -> str | None:
    """The side whose decision the game waits for: a pending minefield choice (O'Leary
    4.6.2), a shift window at the start of the phase, the defender in its DFPh, else
    the phasing side."""
    if state.over:
        return None
    if state.minefield is not None:
        return state.minefield[1]
    if state.windows:
        return state.windows[0]
    return state.defender if state.phase is Phase.DFPh else state.phasing


def _windows(state: AslgwState, turn: int, phasing: str, phase: Phase) -> tuple[str, ...]:
    """Sides whose shift window opens at the start of this phase, as its own step: every
    window of a side gwasl keeps secret (its policy acts there), and the enemy MPh
    window of a side given HIP pieces (O'Leary 3.3.2), which is not the side to act."""
    probe = replace(state, turn=turn, phasing=phasing, phase=phase, acted=False)
    defender = state.settings.other(phasing)
    out = []
    for side in (phasing, defender):
        secret_window = side in state.secret and side in state.layer_sides and sh.has_window(probe, side)
        enemy_mph = side == defender and side not in state.secret and phase is Phase.MPh and side in state.hip_sides
        if secret_window or enemy_mph:
            out.append(side)
    return tuple(out)


def _next_phase(state: AslgwState) -> tuple[int, str, Phase] | None:
    i = PHASES.index(state.phase)
    if i + 1 < len(PHASES):
        return state.turn, state.phasing, PHASES[i + 1]
    if state.phasing == state.settings.first:
        return state.turn, state.settings.order[1], Phase.RPh
    if state.turn >= state.settings.turns:
        return None
    return state.turn + 1, state.settings.first, Phase.RPh


def begin(state: AslgwState) -> list[Record]:
    """The game opens: its turn record, and the first player turn's RPh (A3)."""
    st = state.settings
    return [Opened(state.scenario.title, st.turns, st.order, st.first_setup, tuple(sorted(state.secret))),
            PhaseBegan(1, st.first, Phase.RPh.value, _windows(state, 1, st.first, Phase.RPh))]


# ---------------------------------------------------------------------------
# End phase


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


def why_not(state: AslgwState, action: Record) -> str | None:
    """Why "end phase" is not legal now: a platoon's impulse under way (ASLGW 1.4.1), or :func:`blocks_end`."""
    if isinstance(action, EndPhase) and state.impulse is not None:
        return f"platoon {state.impulse.platoon} is in the middle of an impulse: end it first (ASLGW 1.4.1)"
    if isinstance(action, EndPhase) and blocks_end(state):
        return str(blocks_end(state))
    return None


def end_phase(state: AslgwState, dice: GameDice, reduce: ReduceFn) -> list[Record]:
    """The next phase begins, with what happens as it begins; after the last turn the
    scenario is over and its card judged (A26)."""
    nxt = _next_phase(state)
    if nxt is None:
        v = vic.verdict(state, over=True)
        if v is not None:
            return vic.verdict_events(state, v, immediate=False)
        return [Over(f"turn {state.settings.turns} is over: the scenario has ended (its card gives no victory conditions)")]
    turn, phasing, phase = nxt
    began = PhaseBegan(turn, phasing, phase.value, _windows(state, turn, phasing, phase))
    return [began, *_phase_events(reduce(state, began), dice, reduce)]


def _phase_events(state: AslgwState, dice: GameDice, reduce: ReduceFn) -> list[Record]:
    """What happens as a phase begins (``state`` is just after its PhaseBegan): the units
    that had to rout and could not are eliminated as the APh begins (A10.51); DM is
    lost as a RPh begins (A10.62)."""
    em = fx.Emitter(state, dice, reduce)
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


# ---------------------------------------------------------------------------
# Reduce


def _owner(state: AslgwState, piece: str) -> str | None:
    try:
        return state.scenario.unit(piece).side
    except KeyError:
        for s in state.fog.stacks:
            if s.id == piece:
                return s.side
    return None


def _begin_phase(state: AslgwState, e: PhaseBegan) -> AslgwState:
    phase = Phase(e.phase)
    fog = state.fog
    if state.started and state.phase is Phase.CCPh:
        # O'Leary 2.2: potential dummy stacks sharing a location merge at the end of their CCPh.
        fog = merge_potential_dummies(fog, state.phasing, state.clock).state
    new_turn = not state.started or e.turn != state.turn or e.phasing != state.phasing
    play = {}
    for k, up in state.play.items():
        nu = up.new_phase()
        if new_turn:
            owner = _owner(state, k)
            # A4.51 (gwasl's reading): CX lasts until its side's next player turn begins.
            nu = replace(nu, ntc_passed=False, cx=nu.cx and owner != e.phasing)
        if nu != UnitPlay():
            play[k] = nu
    # O'Leary 2.4: the MF a stack spent "at a previous point in the game" is its history: kept
    fog = player_turn_began(fog) if new_turn else fog
    st = replace(state, fog=fog, turn=e.turn, phasing=e.phasing, phase=phase, started=True, windows=e.windows,
                 acted=False, play=ro(play), impulse=None, platoons=frozenset(), platoons_done=frozenset(), piles=ro({}))
    if phase is Phase.MPh:
        st = mv.platoons_at_mph(st)
    return st


def _combat_at_phase(before: AslgwState, after: AslgwState, ev: PhaseBegan) -> AslgwState:
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


def _phase_began(state: AslgwState, event: PhaseBegan) -> AslgwState:
    return _combat_at_phase(state, _begin_phase(state, event), event)


def _over(state: AslgwState, event: Over) -> AslgwState:
    return replace(state, over=True, why_over=event.why)


def _concealment_gained(state: AslgwState, ev: ConcealmentGained) -> AslgwState:
    sc = state.scenario
    units = [sc.unit(i) for i in ev.units]
    ids = [u.id for u in units] + [w.id for w in mv.carried(sc, units) if not is_hidden(state.fog, w.id)]
    return replace(state, fog=gain_concealment(state.fog, ids).state)


def _unchanged(state: AslgwState, event: Record) -> AslgwState:
    return state


#: the state after each event of the turn
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    Opened: _unchanged,
    PhaseBegan: _phase_began,
    Over: _over,
    ConcealmentGained: _concealment_gained,
}
