"""Status rules of the hidden layer (O'Leary 2.2, 3.2, 3.4, 5.2); the game keeps the turn clock.

All functions are pure.  Those that change what a side may learn return a typed
outcome (the new state, what happened, the rule): the words shown to each viewer
are made from it in one place, :mod:`gwasl.rules.fog.words`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Fortification, Position
from gwasl.rules.fog.state import Clock, ConcealStack, FogState, FogStatus

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "ConcealmentGained",
    "ConcealmentLost",
    "FogRuleError",
    "HipRevealed",
    "PotentialDummiesMerged",
    "PotentialDummyDropped",
    "attackable_units",
    "drop_potential_dummy",
    "gain_concealment",
    "lose_concealment",
    "may_be_attacked",
    "may_change_ca",
    "may_move_conventionally",
    "merge_potential_dummies",
    "move_units",
    "player_turn_began",
    "reveal_fortification",
    "reveal_hip",
]


class FogRuleError(GwaslError):
    """An action the fog rules forbid (e.g. moving a HIP unit conventionally, 3.2.2)."""


@dataclass(frozen=True, slots=True)
class ConcealmentLost:
    """``units`` of ``side`` lost concealment at ``hexes`` because of ``cause`` (none: nothing changed)."""

    state: FogState
    side: str | None
    units: tuple[str, ...]
    hexes: tuple[Hex, ...]
    cause: str
    rule: str = "O'Leary 2.2"


@dataclass(frozen=True, slots=True)
class ConcealmentGained:
    """``units`` of ``side`` at ``hex`` form a new "?" stack of ``height`` counters
    (none: nothing changed)."""

    state: FogState
    side: str | None
    units: tuple[str, ...]
    hex: Hex | None
    height: int
    rule: str = "A12.122, O'Leary 2.2"


@dataclass(frozen=True, slots=True)
class PotentialDummyDropped:
    """``side``'s stack at ``hex`` dropped its potential dummy status (``dropped`` False: it had none)."""

    state: FogState
    side: str
    hex: Hex
    dropped: bool
    rule: str = "O'Leary 2.2"


@dataclass(frozen=True, slots=True)
class PotentialDummiesMerged:
    """``merged`` potential dummy stacks of ``side`` joined another at the end of its CCPh."""

    state: FogState
    side: str
    merged: int
    rule: str = "O'Leary 2.2"


@dataclass(frozen=True, slots=True)
class HipRevealed:
    """HIP pieces of ``side`` at ``hex`` revealed by ``cause``: ``units``, ``dummies``
    dummy HIP counters (removed) and ``fortifications`` (their kinds)."""

    state: FogState
    side: str
    hex: Hex
    cause: str
    units: tuple[str, ...]
    dummies: int
    fortifications: tuple[str, ...]
    rule: str = "O'Leary 3.4"


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def player_turn_began(state: FogState) -> FogState:
    """A new player turn: TI markers last for the remainder of the player turn
    (O'Leary 2.5), so they go.  The game keeps the turn and phase itself and calls
    this when the phasing side or the turn changes."""
    return replace(state, ti=frozenset()) if state.ti else state


def lose_concealment(state: FogState, unit_ids: Iterable[str], cause: str) -> ConcealmentLost:
    """O'Leary 2.2 (A12.121): units lose concealment.  A potential dummy stack that
    loses concealment loses that status for good; a stack left with no real
    unit is gone (its dummy counters with it)."""
    ids = [i for i in unit_ids if state.status_of(i) in (FogStatus.CONCEALED, FogStatus.POTENTIAL_DUMMY, FogStatus.CLOAKED)]
    if not ids:
        return ConcealmentLost(state, None, (), (), cause)
    gone = set(ids)
    stacks = []
    for s in state.stacks:
        if gone & set(s.unit_ids):
            left = tuple(u for u in s.unit_ids if u not in gone)
            if left:
                stacks.append(replace(s, unit_ids=left, height=max(len(left) + 1, s.height - (len(s.unit_ids) - len(left)))))
            continue
        stacks.append(s)
    st = state.with_stacks(stacks).with_status({u: FogStatus.NONE for u in ids})
    where = tuple(sorted({st.unit(u).hex for u in ids}, key=lambda h: h.label))
    return ConcealmentLost(st, st.unit(ids[0]).side, tuple(ids), where, cause)


def gain_concealment(state: FogState, unit_ids: Iterable[str]) -> ConcealmentGained:
    """Units of one location gain concealment (A12.122): a plain "?" stack, never
    again a potential dummy stack (O'Leary 2.2)."""
    ids = [i for i in unit_ids if state.status_of(i) is FogStatus.NONE]
    if not ids:
        return ConcealmentGained(state, None, (), None, 0)
    units = [state.unit(i) for i in ids]
    if len({(u.side, u.hex, u.position) for u in units}) != 1:
        raise FogRuleError("units gaining concealment together must share side, hex and position")
    u0 = units[0]
    st, sid = state.fresh_id("s", u0.side)
    st = st.with_stacks(st.stacks + (ConcealStack(sid, u0.side, u0.hex, u0.position, tuple(ids), len(ids) + 1),))
    st = st.with_status({i: FogStatus.CONCEALED for i in ids})
    return ConcealmentGained(st, u0.side, tuple(ids), u0.hex, len(ids) + 1)


def drop_potential_dummy(state: FogState, stack_id: str) -> PotentialDummyDropped:
    """O'Leary 2.2: a potential dummy stack may drop that status at any time and stay concealed."""
    s = state.stack(stack_id)
    if not s.potential_dummy:
        return PotentialDummyDropped(state, s.side, s.hex, False)
    st = state.with_stacks(replace(x, potential_dummy=False) if x.id == stack_id else x for x in state.stacks)
    st = st.with_status({u: FogStatus.CONCEALED for u in s.unit_ids})
    return PotentialDummyDropped(st, s.side, s.hex, True)


def move_units(state: FogState, unit_ids: Iterable[str], to: Hex, position: Position, mf: float) -> FogState:
    """Conventional movement of units of one side, for the fog layer's bookkeeping.

    O'Leary 3.2.2: HIP units may not move conventionally.  2.2: concealed units
    leaving part of a potential dummy stack form a new potential dummy stack
    (a split); the "?" stack travels with them.  2.4: the MF spent is kept
    for the consistency check.  2.3: a unit that changes location other than
    by shifting loses its bore-sight eligibility.
    """
    ids = list(unit_ids)
    for i in ids:
        if state.status_of(i) is FogStatus.HIP:
            raise FogRuleError(f"{i} is HIP and may not move except by shifting (O'Leary 3.2.2)")
    st = state
    spent = dict(st.spent)
    for i in ids:
        spent[i] = max(spent.get(i, 0.0), float(mf))
    st = replace(st, spent=MappingProxyType(spent))
    # Concealed movers: whole stack moves, or a split into a new stack.
    by_stack: dict[str, list[str]] = {}
    for i in ids:
        s = st.stack_of_unit(i)
        if s is not None:
            by_stack.setdefault(s.id, []).append(i)
    stacks = list(st.stacks)
    for sid, movers in by_stack.items():
        s = st.stack(sid)
        k = stacks.index(s)
        if set(movers) == set(s.unit_ids):
            stacks[k] = replace(s, hex=to, position=position)
            spent[sid] = max(spent.get(sid, 0.0), float(mf))
        else:
            left = tuple(u for u in s.unit_ids if u not in movers)
            stacks[k] = replace(s, unit_ids=left, height=max(len(left) + 1, s.height - len(movers)))
            st, nid = replace(st, stacks=tuple(stacks)).fresh_id("s", s.side)
            stacks.append(ConcealStack(nid, s.side, to, position, tuple(movers),
                                       1 if s.cloaked else len(movers) + 1, s.potential_dummy, s.cloaked))
    st = replace(st, stacks=tuple(stacks), spent=MappingProxyType(spent), moved=st.moved | set(ids))
    st = st.with_units_moved({i: (to, position) for i in ids})
    return st.without_bore_sight(ids)


def move_dummy_stack(state: FogState, stack_id: str, to: Hex, position: Position, mf: float) -> FogState:
    """A dummy stack moves like a concealed stack (A12.1); its MF are kept (O'Leary 2.4)."""
    s = state.stack(stack_id)
    if not s.is_dummy:
        raise FogRuleError("move_dummy_stack moves dummy stacks; real units use move_units")
    spent = dict(state.spent)
    spent[stack_id] = max(spent.get(stack_id, 0.0), float(mf))
    st = state.with_stacks(replace(x, hex=to, position=position) if x.id == stack_id else x for x in state.stacks)
    return replace(st, spent=MappingProxyType(spent), moved=st.moved | {stack_id})  # its history, for 2.3


def merge_potential_dummies(state: FogState, side: str, clock: Clock | None) -> PotentialDummiesMerged:
    """O'Leary 2.2: at the end of ``side``'s CCPh (``clock``, the game's), potential dummy
    stacks sharing a location and position merge into one (their "?" counters stay in the stack)."""
    c = clock
    if c is None or c.phase is not Phase.CCPh or c.phasing != side:
        raise FogRuleError(f"potential dummy stacks merge at the end of {side}'s own CCPh (O'Leary 2.2)")
    groups: dict[tuple[Hex, Position], list[ConcealStack]] = {}
    for s in state.stacks:
        if s.side == side and s.potential_dummy and not s.cloaked:
            groups.setdefault((s.hex, s.position), []).append(s)
    drop: set[str] = set()
    merged: dict[str, ConcealStack] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        head = group[0]
        merged[head.id] = replace(head, unit_ids=sum((g.unit_ids for g in group), ()),
                                  height=sum(g.height for g in group))
        drop |= {g.id for g in group[1:]}
    if not merged:
        return PotentialDummiesMerged(state, side, 0)
    return PotentialDummiesMerged(state.with_stacks(merged.get(s.id, s) for s in state.stacks if s.id not in drop),
                                  side, len(drop))


def reveal_hip(state: FogState, side: str, h: Hex, cause: str) -> HipRevealed:
    """O'Leary 3.4: HIP pieces at ``h`` are revealed as conventional HIP units are
    (A12.3, e.g. by Search); a revealed dummy HIP counter is removed; a hidden
    fortification there becomes known."""
    units = state.hip_units_at(h, side)
    dummies = state.dummy_hip_at(h, side)
    forts = state.fortifications_at(h, side)
    if not (units or dummies or forts):
        return HipRevealed(state, side, h, cause, (), 0, ())
    st = state.with_status({u.id: FogStatus.NONE for u in units})
    st = replace(st, dummy_hip=tuple(d for d in st.dummy_hip if d not in dummies))
    for f in forts:
        st = reveal_fortification(st, f.id)
    return HipRevealed(st, side, h, cause, tuple(u.id for u in units), len(dummies),
                       tuple(f.kind.value for f in forts))


def may_be_attacked(state: FogState, unit_id: str) -> tuple[bool, str | None]:
    """O'Leary 3.2.1: HIP units (and dummy HIP) are immune to fire attacks on their
    location and to snipers."""
    if state.status_of(unit_id) is FogStatus.HIP:
        return False, f"{unit_id} is HIP: immune to fire and snipers (O'Leary 3.2.1)"
    return True, None


def attackable_units(state: FogState, h: Hex, side: str | None = None) -> tuple[str, ...]:
    """Units at ``h`` a fire attack or sniper may affect (O'Leary 3.2.1), sorted by id."""
    return tuple(sorted(u.id for u in state.scenario.units_at(h)
                        if (side is None or u.side == side) and may_be_attacked(state, u.id)[0]))


def may_move_conventionally(state: FogState, unit_id: str) -> tuple[bool, str | None]:
    """O'Leary 3.2.2: HIP units move out of their location only by shifting."""
    if state.status_of(unit_id) is FogStatus.HIP:
        return False, f"{unit_id} is HIP: it moves only by shifting (O'Leary 3.2.2)"
    return True, None


def may_change_ca(state: FogState, unit_id: str) -> tuple[bool, str | None]:
    """O'Leary 3.2.2: HIP units change CA only by shifting (2.3 choices)."""
    if state.status_of(unit_id) is FogStatus.HIP:
        return False, f"{unit_id} is HIP: it changes CA only by shifting (O'Leary 3.2.2)"
    return True, None


def reveal_fortification(st: FogState, fort_id: str) -> FogState:
    """O'Leary 3.4, 4: a revealed hidden fortification becomes a known one on the map."""
    f = next(x for x in st.fortifications if x.id == fort_id)
    extra = dict(f.extra)
    if f.tem is not None:
        extra["tem"] = f.tem
    known = Fortification(f.kind, (f.hex,), f.side or None, (), MappingProxyType(extra))
    m = st.scenario.map
    return replace(st,
                   fortifications=tuple(x for x in st.fortifications if x.id != fort_id),
                   scenario=st.scenario.with_map(replace(m, fortifications=m.fortifications + (known,))))
