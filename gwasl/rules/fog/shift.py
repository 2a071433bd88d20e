"""Shifting (O'Leary 2.3-2.5, 3.3, 4.2-4.6, 5.1): windows, eligibility,
consistency, the shift DR and its consequences.

Every shift goes in two steps, both pure:

1. ``plan_*_shift`` looks at a :class:`FogState` and returns a
   :class:`ShiftPlan`: is the shift eligible (and if not, why, with the
   rule), and the DRM with their causes.
2. :func:`resolve_shift` rolls the shift DR with a :class:`gwasl.rules.dice.Dice`
   and returns a :class:`ShiftResult`: the new state, the roll, the band of
   the 2.5 table and every consequence in words.

The four kinds of shift keep separate ledgers (3.3.4): dummy/potential
dummy stacks, HIP pieces (units, dummy HIP, hidden fortifications, 4.2),
cloaked stacks, and minefields (4.6.3-4.6.4: never closed by a failure).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Fortification, FortificationKind, Position, Scenario, Unit, UnitKind
from gwasl.model.terrain import fortification_table, terrain_table
from gwasl.rules.dice import Dice, Modifier, Roll
from gwasl.rules.fog.drm import ShiftFacts, shift_modifiers
from gwasl.rules.fog.env import FogEnv, size_class_of
from gwasl.rules.fog.state import (
    Clock,
    ConcealStack,
    DummyHip,
    FogState,
    FogStatus,
    HiddenFortification,
    LedgerKind,
    ShiftRecord,
    fog_extension,
)
from gwasl.rules.fog.table import FogTable
from gwasl.rules.units import infantry_movement

__all__ = [
    "Done",
    "DoneKind",
    "Seen",
    "SeenKind",
    "ShiftChoices",
    "ShiftError",
    "ShiftPlan",
    "ShiftResult",
    "closure_key",
    "is_phase_closed",
    "movement_allowance",
    "plan_cloaked_shift",
    "plan_dummy_shift",
    "plan_group_dummy_shift",
    "plan_hip_shift",
    "plan_minefield_shift",
    "prior_shifts",
    "resolve_shift",
    "shift_window",
]


class ShiftError(Exception):
    """A shift request that names no such stack or piece, or resolves an ineligible plan."""


@dataclass(frozen=True, slots=True)
class ShiftPlan:
    """A proposed shift: who, where, whether it is eligible, and its DRM."""

    kind: LedgerKind
    side: str
    hex_a: Hex
    hex_b: Hex
    a: str | None = None  # conceal stack id (dummy/cloaked kinds) or minefield id
    b: str | None = None
    movers_a: tuple[str, ...] = ()  # HIP pieces going from hex_a to hex_b
    movers_b: tuple[str, ...] = ()  # HIP pieces going from hex_b to hex_a
    eligible: bool = True
    reason: str | None = None
    facts: ShiftFacts = field(default_factory=ShiftFacts)
    modifiers: tuple[Modifier, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()  # O'Leary 2.4.2: several stack pairs on one DR

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def stack_pairs(self) -> tuple[tuple[str, str], ...]:
        """The stack (or minefield) pairs of a dummy, cloaked or minefield plan: ``pairs`` of a
        grouped shift (2.4.2), else ``(a, b)``."""
        if self.pairs:
            return self.pairs
        if self.a is None or self.b is None:
            raise ShiftError(f"a {self.kind.value} shift names no stacks")
        return ((self.a, self.b),)


@dataclass(frozen=True, slots=True)
class ShiftChoices:
    """What the shifted pieces choose right after a successful shift (O'Leary 2.3, 4.4).

    ``ca``: covered arc (0-5, hexgrid directions) of a gun, vehicle (TCA) or
    fortification with a CA; ``vca``: vehicle VCA; ``ce``: vehicle CE (True)
    or BU (False); ``emplaced``: guns allowed to emplace at start (2.3);
    ``enter_fortification``: HIP units may be considered inside a
    fortification that shifts into their location (4.4); ``tunnel_exits``:
    a new far exit for the tunnel of a shifted fortification (4.4.2);
    ``complex_moves``: units inside a cave complex placed in another
    fortification of the complex, keyed by unit id (4.4.1).
    """

    ca: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    vca: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    ce: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    emplaced: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    enter_fortification: bool = True
    tunnel_exits: Mapping[str, Hex] = field(default_factory=lambda: MappingProxyType({}))
    complex_moves: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


class SeenKind(StrEnum):
    """What the other sides see of a shift DR (its words: :func:`gwasl.rules.fog.words.seen_line`)."""

    DUMMY_REMOVED = "dummy_removed"  # a "?" stack or cloaking counter was a dummy: removed (2.5 11-12)
    REVEALED_TI = "revealed_ti"  # units revealed and TI (2.5 >= 13)
    CLOAK_LOST = "cloak_lost"  # a cloaking counter becomes a concealed stack (2.5, 5.2)
    FORTIFICATION_REVEALED = "fortification_revealed"  # a hidden fortification revealed (2.5, 4.2)
    STACK_APPEARS = "stack_appears"  # HIP units lose HIP and stay concealed (2.5)
    REVEALED = "revealed"  # HIP units lose HIP and cannot be concealed there (2.5)
    MINEFIELD_DUMMY = "minefield_dummy"  # a minefield counter was a dummy: removed (4.6.2)
    MINEFIELD_REVEALED = "minefield_revealed"  # a minefield's strength revealed (4.6.2)


@dataclass(frozen=True, slots=True)
class Seen:
    """One fact of a shift DR every other side sees (O'Leary 2.5, 4.2, 4.6.2, 5.2), at ``hex``."""

    what: SeenKind
    hex: Hex
    units: tuple[str, ...] = ()
    counters: int = 0  # the "?" stack's height (STACK_APPEARS, CLOAK_LOST)
    cloaked: bool = False  # DUMMY_REMOVED: it was a cloaking counter
    fortification: str = ""  # FORTIFICATION_REVEALED: its kind
    ap: int = 0  # MINEFIELD_REVEALED
    at: int = 0


class DoneKind(StrEnum):
    """What a shift DR did, as the shifting side reads it (words: :func:`gwasl.rules.fog.words.done_line`)."""

    NO_EXCHANGE = "no_exchange"  # 2.5 8+ (closes: no other shift of ``kind`` this phase)
    FREE_SHIFT = "free_shift"  # 2.5: final DR <= 0 adds no +1 to later attempts
    HD_MAY_ATTEMPT = "hd_may_attempt"  # 2.3: vehicles on a crest line
    BORE_SIGHT_LOST = "bore_sight_lost"  # 2.3
    STACKS_EXCHANGE = "stacks_exchange"  # 2.5 <= 7
    SELF_EXCHANGE = "self_exchange"
    DUMMY_HIP_MARKS = "dummy_hip_marks"  # 3.3.3, 4.2
    HIP_PIECES = "hip_pieces"  # 3.3: ``count`` pieces hex->to, ``count_back`` to->hex
    FORTIFICATION_CA = "fortification_ca"  # 4.4
    TUNNEL_EXIT = "tunnel_exit"  # 4.4.2
    TUNNEL_FOLLOWS = "tunnel_follows"  # 4.4.2
    CAVE_PLACED = "cave_placed"  # 4.4.1
    NOT_EMPLACED = "not_emplaced"  # 2.3
    CHOICES_APPLIED = "choices_applied"  # 2.3
    DUMMY_ELIMINATED = "dummy_eliminated"  # 2.5 11+
    REVEALED_TI = "revealed_ti"  # 2.5 13+
    CLOAK_LOST = "cloak_lost"  # 5.2
    POTENTIAL_DUMMY_LOST = "potential_dummy_lost"  # 2.2
    DUMMY_HIP_ELIMINATED = "dummy_hip_eliminated"  # 2.5 11+
    FORTIFICATION_REVEALED = "fortification_revealed"  # 2.5, 4.2
    HIP_REVEALED_TI = "hip_revealed_ti"  # 2.5 13+
    HIP_STAYS_CONCEALED = "hip_stays_concealed"  # 2.5 11-12
    HIP_REVEALED = "hip_revealed"  # 2.5 11-12
    MINEFIELDS_EXCHANGE = "minefields_exchange"  # 4.6.2
    MINEFIELD_NO_EXCHANGE = "minefield_no_exchange"  # 4.6.3
    MINEFIELD_DUMMY = "minefield_dummy"  # 4.6.2
    MINEFIELD_REVEALED = "minefield_revealed"  # 4.6.2


@dataclass(frozen=True, slots=True)
class Done:
    """One thing a shift DR did, as the shifting side (and the omniscient view) reads it."""

    what: DoneKind
    hex: Hex | None = None
    to: Hex | None = None
    units: tuple[str, ...] = ()
    count: int = 0
    count_back: int = 0
    kind: str = ""  # the ledger (NO_EXCHANGE), the fortification's kind (FORTIFICATION_REVEALED, TUNNEL_*)
    ap: int = 0
    at: int = 0
    closes: bool = False  # NO_EXCHANGE: no other shift of ``kind`` this phase


@dataclass(frozen=True, slots=True)
class ShiftResult:
    """The outcome of a shift DR: new state, the roll, the 2.5 band and what happened."""

    state: FogState
    plan: ShiftPlan
    roll: Roll
    band: str
    consequences: tuple[Done, ...]
    record: ShiftRecord  # the new entry of its ledger: the game appends it (O'Leary 2.5, 3.3.4)
    hd_attempts: tuple[str, ...] = ()  # vehicles that may now attempt a HD maneuver (2.3)
    shown_roll: Roll | None = None  # the roll as the shifting side is shown it (knowledge.shown_roll)
    public: tuple[Seen, ...] = ()  # what every other side sees of the attempt (nothing for a quiet shift)
    rule: str = "O'Leary 2.5"

    @property
    def shifted(self) -> bool:
        return self.band == "allowed"


# ---------------------------------------------------------------------------
# Windows and ledgers
# ---------------------------------------------------------------------------
def shift_window(clock: Clock, side: str, kind: LedgerKind) -> str | None:
    """Why ``side`` may not make a ``kind`` shift now, or None if the window is open.

    O'Leary 2.3: dummy and potential dummy stacks at the start of their own MPh
    or APh, before any friendly unit has moved/advanced.  3.3.2: HIP pieces in
    their own PFPh, MPh and APh, and in the enemy MPh and their own DFPh.
    5.1: cloaked units at the start of their own MPh, AFPh or APh.  4.6.4:
    minefields whenever a unit enters them.

    >>> shift_window(Clock(1, "german", Phase.MPh), "french", LedgerKind.HIP) is None
    True
    >>> shift_window(Clock(1, "german", Phase.MPh), "french", LedgerKind.DUMMY)
    "dummy and potential dummy stacks shift only at the start of their own MPh or APh (O'Leary 2.3)"
    """
    own = clock.phasing == side
    if kind is LedgerKind.MINEFIELD:
        return None
    if kind is LedgerKind.DUMMY:
        if not own or clock.phase not in (Phase.MPh, Phase.APh):
            return "dummy and potential dummy stacks shift only at the start of their own MPh or APh (O'Leary 2.3)"
        if clock.acted:
            return f"a friendly unit has already moved/advanced this {clock.phase.value} (O'Leary 2.3)"
        return None
    if kind is LedgerKind.HIP:
        if own and clock.phase in (Phase.PFPh, Phase.MPh, Phase.APh):
            return None
        if not own and clock.phase in (Phase.MPh, Phase.DFPh):
            return None
        return "HIP units and dummy HIP shift only in their own PFPh, MPh, APh, the enemy MPh and their DFPh (O'Leary 3.3.2)"
    if not own or clock.phase not in (Phase.MPh, Phase.AFPh, Phase.APh):
        return "cloaked units shift only at the start of their own MPh, AFPh or APh (O'Leary 5.1)"
    if clock.acted:
        return f"a friendly unit has already acted this {clock.phase.value} (O'Leary 5.1)"
    return None


def closure_key(clock: Clock, side: str, kind: LedgerKind) -> str:
    """The phase a failed shift closes.  O'Leary 3.3.5: for HIP pieces the enemy
    MPh and their own DFPh count as one phase."""
    if kind is LedgerKind.HIP and clock.phasing != side and clock.phase in (Phase.MPh, Phase.DFPh):
        return "MPh+DFPh"
    return clock.phase.value


def _same_phase(r: ShiftRecord, clock: Clock) -> bool:
    return r.turn == clock.turn and r.phasing == clock.phasing and r.phase is clock.phase


def prior_shifts(ledger: Sequence[ShiftRecord], clock: Clock | None, side: str, kind: LedgerKind) -> int:
    """O'Leary 2.5: earlier shifts of ``side`` this phase (``clock``) in the ``kind``
    ledger (3.3.4), leaving out shifts whose final DR was <= 0.  The game keeps the
    ``ledger`` and the ``clock`` (gwasl.games.aslgw.state.AslgwState)."""
    c = clock
    if c is None:
        return 0
    return sum(1 for r in ledger if r.side == side and r.kind is kind and r.counted and _same_phase(r, c))


def is_phase_closed(ledger: Sequence[ShiftRecord], clock: Clock | None, side: str, kind: LedgerKind) -> bool:
    """O'Leary 2.5 (final DR >= 8) and 3.3.5: has a failed shift in ``ledger`` closed
    the phase ``clock`` is in?"""
    c = clock
    if c is None:
        return False
    key = closure_key(c, side, kind)
    return any(
        r.side == side and r.kind is kind and r.closes and r.turn == c.turn and r.phasing == c.phasing
        and closure_key(replace(c, phase=r.phase), side, kind) == key
        for r in ledger
    )


# ---------------------------------------------------------------------------
# Facts for the DRM
# ---------------------------------------------------------------------------
def movement_allowance(unit: Unit, table: FogTable | None = None) -> float:
    """MF/MP allowance of a unit for the 2.4 consistency check: its ``movement_allowance``
    extension, else A4.1 (:func:`gwasl.rules.units.infantry_movement`: MMC 4, SMC 6);
    support weapons are carried, so unlimited."""
    v = unit.extra.get("movement_allowance")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if unit.kind is UnitKind.SUPPORT_WEAPON:
        return float("inf")
    mv = infantry_movement()
    return float(mv.smc_mf if unit.is_smc else mv.mmc_mf)


def _forts_counting(state: FogState, side: str, h: Hex, positions: Iterable[Position],
                    shifted: Iterable[str] = (), hidden_all: bool = False) -> tuple[tuple[FortificationKind, int | None], ...]:
    """Fortifications whose TEM counts for a location (O'Leary 4.3, 4.5): known ones a unit
    there is in, and the side's hidden ones not being shifted (all of them for HIP
    locations, 4.4, else only those a unit is in)."""
    kinds_in = {p.fortification for p in positions} - {None}
    out = []
    for known in state.scenario.map.fortifications_at(h):
        if known.kind in kinds_in:
            tem = known.extra.get("tem")
            out.append((known.kind, tem if isinstance(tem, int) and not isinstance(tem, bool) else None))
    skip = set(shifted)
    for hidden in state.fortifications_at(h, side):
        if hidden.id not in skip and (hidden_all or hidden.kind in kinds_in):
            out.append((hidden.kind, hidden.tem))
    return tuple(out)


def _lv(scenario: Scenario, table: FogTable) -> bool:
    return scenario.weather.value in table.drm["lv_weather"]


def _balance(scenario: Scenario) -> int:
    v = fog_extension(scenario.extra).get("shift_balance_drm", 0)
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _emplaced(units: Iterable[Unit], table: FogTable) -> bool:
    return any(u.extra.get("emplaced") is True and size_class_of(u) in table.gun_sizes for u in units)


def _units(state: FogState, ids: Iterable[str]) -> list[Unit]:
    by_id = {u.id: u for u in state.scenario.units}
    return [by_id[i] for i in ids if i in by_id]


def _spent(state: FogState, ids: Iterable[str]) -> float:
    return max((state.spent.get(i, 0.0) for i in ids), default=0.0)


def _consistency(state: FogState, env: FogEnv, side: str, going: list[tuple[list[Unit], Hex, Position]],
                 histories: list[tuple[float, list[Unit], str]]) -> str | None:
    """O'Leary 2.4: refuse a shift after which a stack would lose concealment at
    once, or that contradicts what a stack has already done (MF spent)."""
    for units, h, pos in going:
        if not units:
            continue
        los = env.in_enemy_los(state.scenario, side, h, pos)
        for u in units:
            why = env.concealment_loss(state.scenario, u, h, pos, los)
            if why:
                return f"{why}; the shift would cost its concealment at once (O'Leary 2.4)"
    for spent, takers, where in histories:
        for u in takers:
            allowed = movement_allowance(u, env.table)
            if spent > allowed:
                return (f"the stack at {where} has already spent {spent:g} MF, more than {u.id}'s "
                        f"{allowed:g} (O'Leary 2.4)")
    return None


def _plan(kind: LedgerKind, side: str, a_hex: Hex, b_hex: Hex, reasons: list[str], facts: ShiftFacts,
          env: FogEnv, **kw: Any) -> ShiftPlan:
    return ShiftPlan(kind, side, a_hex, b_hex, eligible=not reasons, reason=reasons[0] if reasons else None,
                     facts=facts, modifiers=shift_modifiers(facts, env.table), **kw)


def _window_reasons(clock: Clock | None, ledger: Sequence[ShiftRecord], side: str, kind: LedgerKind) -> list[str]:
    out = []
    if clock is not None:
        why = shift_window(clock, side, kind)
        if why:
            out.append(why)
    if kind is not LedgerKind.MINEFIELD and is_phase_closed(ledger, clock, side, kind):
        out.append(f"a failed {kind.value} shift already closed this phase to further {kind.value} shifts (O'Leary 2.5, 3.3.5)")
    return out


# ---------------------------------------------------------------------------
# Plans
# ---------------------------------------------------------------------------
def plan_dummy_shift(state: FogState, a_id: str, b_id: str, env: FogEnv, prior: int | None = None,
                     *, clock: Clock | None = None, ledger: Sequence[ShiftRecord] = ()) -> ShiftPlan:
    """O'Leary 2.3-2.4: exchange a potential dummy or dummy stack with another.

    2.3.1 complete stacks only; 2.3.2 a potential dummy stack with a dummy stack
    of strictly more counters than its real counters; 2.3.3 two potential
    dummy stacks with equal real counters; 2.3.4 two dummy stacks of equal
    counters; a potential dummy stack may exchange with itself (2.3).
    """
    try:
        a, b = state.stack(a_id), state.stack(b_id)
    except KeyError as e:
        raise ShiftError(f"no concealed stack {e.args[0]!r}") from None
    side = a.side
    reasons: list[str] = []
    if b.side != side:
        reasons.append("both stacks must belong to the shifting side (O'Leary 2.3)")
    if a.cloaked or b.cloaked:
        reasons.append("cloaked stacks shift with other cloaking counters (O'Leary 5.1)")
    reasons += _window_reasons(clock, ledger, side, LedgerKind.DUMMY)
    for s in (a, b):
        if not s.is_dummy and not s.potential_dummy:
            reasons.append(f"the stack at {s.hex} is concealed but not a potential dummy stack (O'Leary 2.2, 2.3)")
    if a.id == b.id:
        if a.is_dummy:
            reasons.append("only a potential dummy stack may exchange with itself (O'Leary 2.3)")
    elif not a.is_dummy and b.is_dummy:
        if not a.real_counters < b.height:
            reasons.append(f"{a.real_counters} real counters need a dummy stack of more than {a.real_counters} "
                           f"counters; the one at {b.hex} has {b.height} (O'Leary 2.3.2)")
    elif a.is_dummy and not b.is_dummy:
        if not b.real_counters < a.height:
            reasons.append(f"{b.real_counters} real counters need a dummy stack of more than {b.real_counters} "
                           f"counters; the one at {a.hex} has {a.height} (O'Leary 2.3.2)")
    elif not a.is_dummy and not b.is_dummy:
        if a.real_counters != b.real_counters:
            reasons.append(f"potential dummy stacks of {a.real_counters} and {b.real_counters} real counters "
                           "cannot exchange (O'Leary 2.3.3)")
    elif a.height != b.height:
        reasons.append(f"dummy stacks of {a.height} and {b.height} counters cannot exchange (O'Leary 2.3.4)")
    if a.id != b.id:
        reasons += _incomplete_locations(state, a, b)
    ti = [i for i in a.unit_ids + b.unit_ids if i in state.ti]
    if ti:
        reasons.append(f"{', '.join(ti)} are TI (O'Leary 2.5)")
    ua, ub = _units(state, a.unit_ids), _units(state, b.unit_ids)
    if a.id != b.id:
        why = _consistency(state, env, side, [(ua, b.hex, b.position), (ub, a.hex, a.position)],
                           [(_spent(state, b.unit_ids + (b.id,)), ua, str(b.hex)),
                            (_spent(state, a.unit_ids + (a.id,)), ub, str(a.hex))])
        if why:
            reasons.append(why)
    facts = _stack_facts(state, env, side, a, b, ua + ub,
                         prior_shifts(ledger, clock, side, LedgerKind.DUMMY) if prior is None else prior)
    return _plan(LedgerKind.DUMMY, side, a.hex, b.hex, reasons, facts, env, a=a.id, b=b.id)


def _incomplete_locations(state: FogState, a: ConcealStack, b: ConcealStack) -> list[str]:
    """O'Leary 2.3.1: "the entire stack in one location must be exchanged for a complete stack
    in the second location".  Every "?" stack of the side in a location (its hex, whatever the
    portion) is that location's stack; one that would stay behind makes the exchange partial."""
    out = []
    for s in (a, b):
        left = [x for x in state.stacks_at(s.hex, s.side) if x.id not in (a.id, b.id) and not x.cloaked]
        if left:
            out.append(f"the stack at {s.hex} is not the location's complete stack: {len(left)} more \"?\" stack(s) "
                       f"of {s.side} would stay behind (O'Leary 2.3.1)")
    return out


def plan_group_dummy_shift(state: FogState, pairs: Iterable[tuple[str, str]], env: FogEnv,
                           prior: int | None = None, *, clock: Clock | None = None, ledger: Sequence[ShiftRecord] = ()) -> ShiftPlan:
    """O'Leary 2.4.2 (optional, at the player's discretion): potential dummy stacks in
    separate locations (e.g. a mortar crew and its spotter) shift together with as many
    dummy/potential dummy stacks, on one shift DR.

    Each pair must be eligible on its own; the DRM takes the worst TEM of
    each side's locations, enemy LOS of any of them, and the largest size.
    """
    pairs = tuple(pairs)
    if len(pairs) < 2:
        raise ShiftError("a grouped shift needs two or more pairs of stacks (O'Leary 2.4.2)")
    plans = [plan_dummy_shift(state, a, b, env, prior, clock=clock, ledger=ledger) for a, b in pairs]
    ids = [x for p in pairs for x in p]
    reasons = [p.reason for p in plans if not p.eligible and p.reason]
    if len(set(ids)) != len(ids):
        reasons.append("each stack may appear in only one pair of a grouped shift (O'Leary 2.4.2)")
    if len({p.side for p in plans}) != 1:
        reasons.append("a grouped shift is made by one side (O'Leary 2.4.2)")
    f = [p.facts for p in plans]
    facts = ShiftFacts(
        prior_shifts=f[0].prior_shifts,
        tem_a=min(x.tem_a for x in f),
        tem_b=min(x.tem_b for x in f),
        enemy_los_a=any(x.enemy_los_a for x in f),
        enemy_los_b=any(x.enemy_los_b for x in f),
        lv_hindrance=f[0].lv_hindrance,
        night=f[0].night,
        emplaced_gun=any(x.emplaced_gun for x in f),
        size_classes=tuple(c for x in f for c in x.size_classes),
        balance_drm=f[0].balance_drm,
    )
    return _plan(LedgerKind.DUMMY, plans[0].side, plans[0].hex_a, plans[0].hex_b, reasons, facts, env,
                 a=pairs[0][0], b=pairs[0][1], pairs=pairs)


def plan_cloaked_shift(state: FogState, a_id: str, b_id: str, env: FogEnv, prior: int | None = None,
                       *, clock: Clock | None = None, ledger: Sequence[ShiftRecord] = ()) -> ShiftPlan:
    """O'Leary 5.1: units under a cloaking counter shift to the location of any other cloaking counter."""
    try:
        a, b = state.stack(a_id), state.stack(b_id)
    except KeyError as e:
        raise ShiftError(f"no cloaked stack {e.args[0]!r}") from None
    side = a.side
    reasons: list[str] = []
    if not a.cloaked or not b.cloaked:
        reasons.append("both stacks must be under cloaking counters (O'Leary 5.1)")
    if a.is_dummy:
        reasons.append("the shifting stack must hold cloaked units (O'Leary 5.1)")
    if b.side != side:
        reasons.append("both stacks must belong to the shifting side (O'Leary 5.1)")
    if a.id == b.id:
        reasons.append("a cloaked stack shifts to another cloaking counter (O'Leary 5.1)")
    reasons += _window_reasons(clock, ledger, side, LedgerKind.CLOAKED)
    ti = [i for i in a.unit_ids + b.unit_ids if i in state.ti]
    if ti:
        reasons.append(f"{', '.join(ti)} are TI (O'Leary 2.5)")
    ua, ub = _units(state, a.unit_ids), _units(state, b.unit_ids)
    why = _consistency(state, env, side, [(ua, b.hex, b.position), (ub, a.hex, a.position)],
                       [(_spent(state, b.unit_ids + (b.id,)), ua, str(b.hex)),
                        (_spent(state, a.unit_ids + (a.id,)), ub, str(a.hex))])
    if why:
        reasons.append(why)
    facts = _stack_facts(state, env, side, a, b, ua + ub,
                         prior_shifts(ledger, clock, side, LedgerKind.CLOAKED) if prior is None else prior)
    return _plan(LedgerKind.CLOAKED, side, a.hex, b.hex, reasons, facts, env, a=a.id, b=b.id)


def _stack_facts(state: FogState, env: FogEnv, side: str, a: ConcealStack, b: ConcealStack, units: list[Unit],
                 prior: int) -> ShiftFacts:
    s = state.scenario
    t = env.table
    return ShiftFacts(
        prior_shifts=prior,
        tem_a=env.location_tem(s, a.hex, a.position, _forts_counting(state, side, a.hex, [a.position])),
        tem_b=env.location_tem(s, b.hex, b.position, _forts_counting(state, side, b.hex, [b.position])),
        enemy_los_a=env.in_enemy_los(s, side, a.hex, a.position),
        enemy_los_b=env.in_enemy_los(s, side, b.hex, b.position),
        both_hip=False,
        lv_hindrance=_lv(s, t),
        night=s.night,
        emplaced_gun=_emplaced(units, t),
        size_classes=tuple(size_class_of(u) for u in units if u.extra.get("size_class") is not None),
        balance_drm=_balance(s),
    )


def _hip_default_movers_b(state: FogState, side: str, hex_b: Hex) -> tuple[str, ...]:
    # 3.3.3: HIP units at the destination need not move; a lone dummy HIP counter is exchanged.
    if state.hip_units_at(hex_b, side):
        return ()
    return tuple(d.id for d in state.dummy_hip_at(hex_b, side))


def plan_hip_shift(state: FogState, side: str, hex_a: Hex, hex_b: Hex, env: FogEnv,
                   movers_a: Iterable[str] | None = None, movers_b: Iterable[str] | None = None,
                   prior: int | None = None, *, clock: Clock | None = None, ledger: Sequence[ShiftRecord] = ()) -> ShiftPlan:
    """O'Leary 3.3 and 4.2: HIP pieces (units, dummy HIP, hidden fortifications) exchange
    locations with another HIP location, whatever the counter counts (3.3.3).

    ``movers_a``: the pieces at ``hex_a`` that shift (default all: part of a
    stack may shift, 3.3.3); ``movers_b``: the pieces at ``hex_b`` that go
    the other way (default: none if HIP units are there, else its dummy HIP).
    """
    pieces_a = state.hip_pieces_at(hex_a, side)
    if not pieces_a:
        raise ShiftError(f"no HIP unit, dummy HIP or hidden fortification of {side} at {hex_a}")
    pieces_b = state.hip_pieces_at(hex_b, side)
    ma = tuple(pieces_a) if movers_a is None else tuple(movers_a)
    mb = _hip_default_movers_b(state, side, hex_b) if movers_b is None else tuple(movers_b)
    for m in ma:
        if m not in pieces_a:
            raise ShiftError(f"{m} is not a HIP piece of {side} at {hex_a}")
    for m in mb:
        if m not in pieces_b:
            raise ShiftError(f"{m} is not a HIP piece of {side} at {hex_b}")
    reasons: list[str] = []
    if not ma:
        reasons.append("at least one HIP piece must shift (O'Leary 3.3.3)")
    if hex_a == hex_b:
        reasons.append("HIP pieces exchange with another location (O'Leary 3.3.3)")
    if not pieces_b:
        reasons.append(f"{hex_b} holds no HIP unit or dummy HIP counter of {side} (O'Leary 3.3, 4.2)")
    reasons += _window_reasons(clock, ledger, side, LedgerKind.HIP)
    ti = [i for i in ma + mb if i in state.ti]
    if ti:
        reasons.append(f"{', '.join(ti)} are TI (O'Leary 2.5)")
    forts = {f.id: f for f in state.fortifications}
    s = state.scenario
    for fid, dest in [(m, hex_b) for m in ma] + [(m, hex_a) for m in mb]:
        f = forts.get(fid)
        if f is not None:
            setup = _setup_hexes(f)
            if not env.placement(s, f.kind, dest, setup):
                reasons.append(f"a {f.kind.value} could not have been set up at {dest} (O'Leary 4.2)")
    ua, ub = _units(state, ma), _units(state, mb)
    going = [([u], hex_b, _landing_position(state, side, u, hex_b, ma, mb)) for u in ua]
    going += [([u], hex_a, _landing_position(state, side, u, hex_a, mb, ma)) for u in ub]
    why = _consistency(state, env, side, going,
                       [(_spent(state, mb), ua, str(hex_b)), (_spent(state, ma), ub, str(hex_a))])
    if why:
        reasons.append(why)
    pos_a = [u.position for u in state.hip_units_at(hex_a, side)]
    pos_b = [u.position for u in state.hip_units_at(hex_b, side)]
    # The location's own position (e.g. in a deep trench, ASLGW 2.1.5) decides LOS and TEM.
    la = ua[0].position if ua else (pos_a[0] if pos_a else Position.GROUND)
    lb = pos_b[0] if pos_b else Position.GROUND
    shifted = ma + mb
    t = env.table
    fort_sizes = tuple("fortification" for m in shifted if m in forts)
    facts = ShiftFacts(
        prior_shifts=prior_shifts(ledger, clock, side, LedgerKind.HIP) if prior is None else prior,
        tem_a=env.location_tem(s, hex_a, la, _forts_counting(state, side, hex_a, pos_a, shifted, True)),
        tem_b=env.location_tem(s, hex_b, lb, _forts_counting(state, side, hex_b, pos_b, shifted, True)),
        enemy_los_a=env.in_enemy_los(s, side, hex_a, la),
        enemy_los_b=env.in_enemy_los(s, side, hex_b, lb),
        both_hip=True,
        lv_hindrance=_lv(s, t),
        night=s.night,
        emplaced_gun=_emplaced(ua + ub, t),
        size_classes=tuple(size_class_of(u) for u in ua + ub if u.extra.get("size_class") is not None) + fort_sizes,
        balance_drm=_balance(s),
    )
    return _plan(LedgerKind.HIP, side, hex_a, hex_b, reasons, facts, env, movers_a=ma, movers_b=mb)


def _landing_position(state: FogState, side: str, u: Unit, dest: Hex, coming: Iterable[str], leaving: Iterable[str]) -> Position:
    """Where in ``dest`` a shifting HIP unit ends up: still inside its kind of fortification
    if one is there after the shift (known, hidden and staying, or shifting in with it),
    else on the ground (O'Leary 2.3, 4.4)."""
    kind = u.position.fortification
    if kind is None:
        return u.position
    leave, come = set(leaving), set(coming)
    present = {f.kind for f in state.scenario.map.fortifications_at(dest)}
    present |= {f.kind for f in state.fortifications_at(dest, side) if f.id not in leave}
    present |= {f.kind for f in state.fortifications if f.id in come}
    return u.position if kind in present else Position.GROUND


def _setup_hexes(f: HiddenFortification) -> frozenset[Hex] | None:
    labels = f.extra.get("setup_hexes")
    if not isinstance(labels, (list, tuple)):
        return None
    out = set()
    for x in labels:
        try:
            out.add(Hex.from_label(x))
        except Exception:  # checks.py reports bad labels; here they simply never match
            continue
    return frozenset(out)


def plan_minefield_shift(state: FogState, entered_id: str, other_id: str, env: FogEnv,
                         prior: int | None = None, *, clock: Clock | None = None, ledger: Sequence[ShiftRecord] = ()) -> ShiftPlan:
    """O'Leary 4.6.2-4.6.5: when a unit enters a minefield whose strength is not
    revealed, its owner may try to exchange it with another unrevealed minefield
    of the same type (hidden with hidden, known with known)."""
    try:
        m, o = state.minefield(entered_id), state.minefield(other_id)
    except KeyError as e:
        raise ShiftError(f"no minefield {e.args[0]!r}") from None
    side = m.side
    reasons: list[str] = []
    if o.side != side:
        reasons.append("both minefields must belong to the same side (O'Leary 4.6.2)")
    if m.id == o.id:
        reasons.append("a minefield exchanges with another minefield counter (O'Leary 4.6.2)")
    if m.revealed or o.revealed:
        reasons.append("only minefields whose strength is not revealed may shift (O'Leary 4.6.2)")
    if m.known != o.known:
        reasons.append("hidden mines exchange only with hidden mines, known with known (O'Leary 4.6.5)")
    s = state.scenario
    t = env.table
    facts = ShiftFacts(
        prior_shifts=prior_shifts(ledger, clock, side, LedgerKind.MINEFIELD) if prior is None else prior,
        tem_a=env.location_tem(s, m.hex, Position.GROUND, ()),
        tem_b=env.location_tem(s, o.hex, Position.GROUND, ()),
        enemy_los_a=True,  # the entering enemy unit is in the location
        enemy_los_b=env.in_enemy_los(s, side, o.hex),
        both_hip=not m.known and not o.known,
        lv_hindrance=_lv(s, t),
        night=s.night,
        size_classes=("fortification",),
        balance_drm=_balance(s),
    )
    return _plan(LedgerKind.MINEFIELD, side, m.hex, o.hex, reasons, facts, env, a=m.id, b=o.id)


# ---------------------------------------------------------------------------
# Resolution
# ---------------------------------------------------------------------------
def resolve_shift(state: FogState, plan: ShiftPlan, dice: Dice, env: FogEnv,
                  choices: ShiftChoices | None = None, *, clock: Clock | None = None) -> ShiftResult:
    """O'Leary 2.5: roll the shift DR for an eligible plan and apply the table.

    <= 7: the pieces exchange (<= 0: the shift adds no +1 to later attempts);
    8-10: no exchange, and no other shift of this kind this phase; 11-12:
    also potential dummy/HIP/cloaked status is lost and dummies are
    eliminated; >= 13: also concealment is lost and both stacks become TI
    for the rest of the player turn.  Minefields (4.6.2-4.6.3): only the
    exchange is decided, and both strengths are revealed whatever the DR.
    """
    if not plan.eligible:
        raise ShiftError(f"shift {plan.hex_a}-{plan.hex_b} is not allowed: {plan.reason}")
    choices = choices or ShiftChoices()
    _check_reanchoring(state, plan, choices)
    t = env.table
    roll = dice.DR(f"O'Leary 2.5 shift DR: {plan.kind.value} {plan.hex_a}-{plan.hex_b} ({plan.side})", plan.modifiers)
    band = t.band_of(roll.final)
    c = clock or Clock(1, plan.side, Phase.MPh)
    is_mf = plan.kind is LedgerKind.MINEFIELD
    rec = ShiftRecord(c.turn, c.phasing, c.phase, plan.side, plan.kind, roll.final, band.band,
                      counted=band.shift and t.counts_as_shift(roll.final),
                      closes=band.closes_phase and not is_mf)
    st = state
    notes: list[Done] = []
    public: list[Seen] = []
    hd: tuple[str, ...] = ()
    if is_mf:
        st = _minefield_outcome(st, plan, band.shift, notes, public)
    elif band.shift:
        st, hd = _exchange(st, plan, choices, env, notes)
    else:
        notes.append(Done(DoneKind.NO_EXCHANGE, kind=plan.kind.value, closes=band.closes_phase))
        if band.status_lost:
            st = _lose_status(st, plan, env, band.revealed, notes, public)
    if band.shift and roll.final <= t.free_shift_max:
        notes.append(Done(DoneKind.FREE_SHIFT))
    # The truth for the omniscient view; the shifting side sees the same dice with the DRM it
    # knows (a hidden enemy unit's LOS must not show through the +1, O'Leary 2.5).
    from gwasl.rules.fog.knowledge import shown_roll  # knowledge plans shifts: imported here, not above

    shown = shown_roll(state, plan, roll, env)
    return ShiftResult(st, plan, roll, band.band, tuple(notes), rec, hd, shown, tuple(public),
                       "O'Leary 4.6.2" if is_mf else "O'Leary 2.5")


def _exchange(st: FogState, plan: ShiftPlan, choices: ShiftChoices, env: FogEnv,
              notes: list[Done]) -> tuple[FogState, tuple[str, ...]]:
    moved: list[str] = []
    if plan.kind in (LedgerKind.DUMMY, LedgerKind.CLOAKED):
        for pa, pb in plan.stack_pairs:
            st, m = _swap_stacks(st, pa, pb, notes)
            moved += m
    else:
        st, moved = _hip_exchange(st, plan, choices, notes)
        st = _reanchor(st, plan, choices, notes)
        st = _fortification_ca(st, plan, choices, notes)
    st = _apply_choices(st, moved, choices, notes, env.table)
    hd = tuple(u for u in moved if _is_vehicle(st.unit(u), env) and st.scenario.map.hexes.get(st.unit(u).hex)
               and st.scenario.map.hexes[st.unit(u).hex].extra.get("crest_line") is True)
    if hd:
        notes.append(Done(DoneKind.HD_MAY_ATTEMPT, units=hd))
    return st, hd


def _swap_stacks(st: FogState, a_id: str, b_id: str, notes: list[Done]) -> tuple[FogState, list[str]]:
    """O'Leary 2.3: exchange two "?" stacks (or one with itself); the counter count the enemy
    sees and the portion of the location stay with each location; the MF history goes too (2.4)."""
    a, b = st.stack(a_id), st.stack(b_id)
    # 2.3: bore sighting survives a shift only if neither stack has changed location other
    # than by shifting (a unit's history is its own; a dummy stack's is kept by stack id).
    history = set(a.unit_ids + b.unit_ids) | {s.id for s in (a, b) if s.is_dummy}
    sighting = [x.unit_id for x in st.bore_sight if x.unit_id in a.unit_ids + b.unit_ids and x.eligible and x.hex is None]
    if sighting and history & st.moved:
        st = st.without_bore_sight(sighting)
        notes.append(Done(DoneKind.BORE_SIGHT_LOST, units=tuple(sighting)))
    if a.id != b.id:
        # A dummy stack's movement history goes with its content, which changes stack id here.
        flags = {a.id: b.id in st.moved, b.id: a.id in st.moved}
        st = replace(st, moved=(st.moved - set(flags)) | {k for k, v in flags.items() if v})
        # The height ("?" counters the enemy sees) and position stay with the location.
        new_a = replace(a, unit_ids=b.unit_ids, potential_dummy=b.potential_dummy)
        new_b = replace(b, unit_ids=a.unit_ids, potential_dummy=a.potential_dummy)
        st = st.with_stacks(new_a if s.id == a.id else new_b if s.id == b.id else s for s in st.stacks)
        moves = {u: (b.hex, b.position) for u in a.unit_ids}
        moves.update({u: (a.hex, a.position) for u in b.unit_ids})
        st = st.with_units_moved(moves)
        spent = dict(st.spent)
        sa, sb = _spent(st, a.unit_ids + (a.id,)), _spent(st, b.unit_ids + (b.id,))
        for u in a.unit_ids:
            spent[u] = sb
        for u in b.unit_ids:
            spent[u] = sa
        st = replace(st, spent=MappingProxyType(spent))
        moved = list(a.unit_ids + b.unit_ids)
        notes.append(Done(DoneKind.STACKS_EXCHANGE, a.hex, b.hex))
    else:
        moved = list(a.unit_ids)
        notes.append(Done(DoneKind.SELF_EXCHANGE, a.hex))
    return st, moved


def _is_vehicle(u: Unit, env: FogEnv) -> bool:
    return size_class_of(u) in env.table.vehicle_sizes


def _hip_exchange(st: FogState, plan: ShiftPlan, choices: ShiftChoices, notes: list[Done]) -> tuple[FogState, list[str]]:
    side, ha, hb = plan.side, plan.hex_a, plan.hex_b
    # 3.3.3, 4.2: a hidden fortification is "the equivalent of an HIP unit in every respect".
    had_real = {h: bool(st.hip_units_at(h, side) or st.fortifications_at(h, side)) for h in (ha, hb)}
    dest = {m: hb for m in plan.movers_a}
    dest.update({m: ha for m in plan.movers_b})
    unit_ids = {u.id for u in st.scenario.units}
    moves = {m: (h, st.unit(m).position) for m, h in dest.items() if m in unit_ids}
    st = st.with_units_moved(moves)
    st = replace(st,
                 dummy_hip=tuple(replace(d, hex=dest[d.id]) if d.id in dest else d for d in st.dummy_hip),
                 fortifications=tuple(replace(f, hex=dest[f.id]) if f.id in dest else f for f in st.fortifications))
    arrived_forts = {h: [f for f in st.fortifications if f.id in dest and f.hex == h] for h in (ha, hb)}
    # Positions: a unit stays in a fortification only if one of that kind is at its new hex;
    # 4.4: HIP units may be considered inside a fortification that shifted into their location.
    fixes = {}
    for h in (ha, hb):
        present = {f.kind for f in st.scenario.map.fortifications_at(h)} | {f.kind for f in st.fortifications_at(h, side)}
        for u in st.hip_units_at(h, side):
            pos = u.position
            if pos.fortification is not None and pos.fortification not in present:
                pos = Position.GROUND
            if pos is Position.GROUND and choices.enter_fortification and arrived_forts[h]:
                pos = _position_in(arrived_forts[h][0].kind)
            if pos is not u.position:
                fixes[u.id] = (h, pos)
    st = st.with_units_moved(fixes)
    for h in (ha, hb):
        # 3.3.3 (and 4.2): a location left devoid of HIP units and hidden fortifications is
        # marked with a dummy HIP counter, so a shift never removes a location from play.
        if had_real[h] and not st.hip_pieces_at(h, side):
            st, did = st.fresh_id("h", side)
            st = replace(st, dummy_hip=st.dummy_hip + (DummyHip(did, side, h),))
            notes.append(Done(DoneKind.DUMMY_HIP_MARKS, h))
    notes.append(Done(DoneKind.HIP_PIECES, ha, hb, count=len(plan.movers_a), count_back=len(plan.movers_b)))
    return st, [m for m in dest if m in unit_ids]


def _fortification_ca(st: FogState, plan: ShiftPlan, choices: ShiftChoices, notes: list[Done]) -> FogState:
    """O'Leary 4.4: a shifted fortification with a well-defined CA chooses it at once."""
    movers = set(plan.movers_a) | set(plan.movers_b)
    picked = {f.id for f in st.fortifications if f.id in movers and f.id in choices.ca
              and fortification_table()[f.kind].covered_arc}
    if not picked:
        return st
    forts = tuple(replace(f, extra=MappingProxyType(dict(f.extra) | {"ca": int(choices.ca[f.id]) % 6}))
                  if f.id in picked else f for f in st.fortifications)
    notes.append(Done(DoneKind.FORTIFICATION_CA, count=len(picked)))
    return replace(st, fortifications=forts)


def _check_reanchoring(state: FogState, plan: ShiftPlan, choices: ShiftChoices) -> None:
    """Refuse, before any die is rolled, tunnel exits and complex moves the rules do not allow."""
    if not (choices.tunnel_exits or choices.complex_moves):
        return
    movers = set(plan.movers_a) | set(plan.movers_b)
    forts = {f.id: f for f in state.fortifications}
    for fid, h in choices.tunnel_exits.items():
        f = forts.get(fid)
        if f is None or fid not in movers or "tunnel" not in f.extra:
            raise ShiftError(f"{fid} is not a shifting fortification with a tunnel (O'Leary 4.4.2)")
        if not state.scenario.map.contains(h) or h == (plan.hex_b if fid in plan.movers_a else plan.hex_a):
            raise ShiftError(f"tunnel exit {h} must be another hex of the map (O'Leary 4.4.2, B8.6)")
    complexes = {forts[m].extra.get("complex") for m in movers if m in forts} - {None}
    for uid, fid in choices.complex_moves.items():
        target = forts.get(fid)
        if not complexes or target is None or target.extra.get("complex") not in complexes:
            raise ShiftError(f"{fid} is not a fortification of a cave complex changed by this shift (O'Leary 4.4.1)")
        try:
            u = state.unit(uid)
        except KeyError:
            raise ShiftError(f"no unit {uid!r}") from None
        inside = [f for f in state.fortifications_at(u.hex, plan.side)
                  if f.extra.get("complex") == target.extra.get("complex") and u.position.fortification is f.kind]
        if u.side != plan.side or not inside:
            raise ShiftError(f"{uid} is not inside the cave complex (O'Leary 4.4.1)")


def _reanchor(st: FogState, plan: ShiftPlan, choices: ShiftChoices, notes: list[Done]) -> FogState:
    """O'Leary 4.4.1-4.4.2 after a fortification shifted: its tunnel stays connected to it
    (and may take a new far exit); a tunnel of another fortification that ended in it
    follows it; units of its cave complex may be placed in any fortification of the complex."""
    movers = set(plan.movers_a) | set(plan.movers_b)
    moved = [f for f in st.fortifications if f.id in movers]
    if not moved:
        return st
    old_hex = {f.id: (plan.hex_a if f.id in plan.movers_a else plan.hex_b) for f in moved}
    forts = []
    for f in st.fortifications:
        extra = dict(f.extra)
        if f.id in choices.tunnel_exits:
            extra["tunnel"] = choices.tunnel_exits[f.id].label
            notes.append(Done(DoneKind.TUNNEL_EXIT, f.hex, choices.tunnel_exits[f.id], kind=f.kind.value))
        elif f.id not in movers:
            for m in moved:
                if extra.get("tunnel") == old_hex[m.id].label and m.hex != old_hex[m.id]:
                    extra["tunnel"] = m.hex.label
                    notes.append(Done(DoneKind.TUNNEL_FOLLOWS, f.hex, m.hex, kind=m.kind.value))
        forts.append(replace(f, extra=MappingProxyType(extra)) if extra != dict(f.extra) else f)
    st = replace(st, fortifications=tuple(forts))
    if choices.complex_moves:
        by_id = {f.id: f for f in st.fortifications}
        moves = {uid: (by_id[fid].hex, _position_in(by_id[fid].kind))
                 for uid, fid in choices.complex_moves.items()}
        st = st.with_units_moved(moves)
        notes.append(Done(DoneKind.CAVE_PLACED, count=len(moves)))
    return st


def _position_in(kind: FortificationKind) -> Position:
    """Where a unit placed inside a fortification of ``kind`` stands (terrain.json ``position``);
    on the ground for one nobody is inside (wire, minefield)."""
    return fortification_table()[kind].position or Position.GROUND


def _apply_choices(st: FogState, moved: list[str], choices: ShiftChoices, notes: list[Done], table: FogTable) -> FogState:
    """O'Leary 2.3: after a shift a vehicle picks TCA/VCA and CE/BU, a gun its CA and
    emplacement (if it could emplace at start); other pieces choose nothing."""
    if not (choices.ca or choices.vca or choices.ce or choices.emplaced):
        return st
    t_gun = table.gun_sizes
    t_veh = table.vehicle_sizes
    units = []
    for u in st.scenario.units:
        extra = dict(u.extra)
        if u.id in moved:
            cls = size_class_of(u)
            if u.id in choices.ca and (cls in t_gun or cls in t_veh):
                extra["ca"] = int(choices.ca[u.id]) % 6
            if u.id in choices.vca and cls in t_veh:
                extra["vca"] = int(choices.vca[u.id]) % 6
            if u.id in choices.ce and cls in t_veh:
                extra["ce"] = bool(choices.ce[u.id])
            if u.id in choices.emplaced and cls in t_gun:
                if not choices.emplaced[u.id]:
                    extra.pop("emplaced", None)
                elif u.extra.get("may_emplace") is True and terrain_table()[st.scenario.map.terrain_at(u.hex)].allows_emplacement:
                    extra["emplaced"] = True
                else:
                    notes.append(Done(DoneKind.NOT_EMPLACED, u.hex, units=(u.id,)))
        units.append(replace(u, extra=MappingProxyType(extra)) if extra != dict(u.extra) else u)
    notes.append(Done(DoneKind.CHOICES_APPLIED))
    return replace(st, scenario=st.scenario.with_units(units))


def _lose_status(st: FogState, plan: ShiftPlan, env: FogEnv, revealed: bool, notes: list[Done],
                 public: list[Seen]) -> FogState:
    """2.5 results 11-12 (status lost) and >= 13 (revealed, TI)."""
    from gwasl.rules.fog.status import lose_concealment

    side = plan.side
    if plan.kind in (LedgerKind.DUMMY, LedgerKind.CLOAKED):
        ids = list(dict.fromkeys(x for p in plan.stack_pairs for x in p))
        # Public lines in map order: which stack started the attempt is the shifter's secret.
        ids.sort(key=lambda i: (st.stack(i).hex.column, st.stack(i).hex.row))
        for sid in ids:
            s = st.stack(sid)
            if s.is_dummy:
                st = st.with_stacks(x for x in st.stacks if x.id != sid)
                notes.append(Done(DoneKind.DUMMY_ELIMINATED, s.hex))
                public.append(Seen(SeenKind.DUMMY_REMOVED, s.hex, cloaked=s.cloaked))
                continue
            if revealed:
                st = lose_concealment(st, s.unit_ids, "shift DR >= 13 (O'Leary 2.5)").state
                st = replace(st, ti=st.ti | set(s.unit_ids))
                notes.append(Done(DoneKind.REVEALED_TI, s.hex, units=s.unit_ids))
                public.append(Seen(SeenKind.REVEALED_TI, s.hex, s.unit_ids))
            elif s.cloaked:
                new = replace(s, cloaked=False, potential_dummy=False, height=len(s.unit_ids) + 1)
                st = st.with_stacks(new if x.id == sid else x for x in st.stacks)
                st = st.with_status({u: FogStatus.CONCEALED for u in s.unit_ids})
                notes.append(Done(DoneKind.CLOAK_LOST, s.hex))
                public.append(Seen(SeenKind.CLOAK_LOST, s.hex, counters=new.height))
            else:
                new = replace(s, potential_dummy=False)
                st = st.with_stacks(new if x.id == sid else x for x in st.stacks)
                st = st.with_status({u: FogStatus.CONCEALED for u in s.unit_ids})
                notes.append(Done(DoneKind.POTENTIAL_DUMMY_LOST, s.hex))
        return st
    # HIP pieces: the movers of both locations.
    pieces = list(plan.movers_a) + list(plan.movers_b)
    unit_ids = {u.id for u in st.scenario.units}
    units = [i for i in pieces if i in unit_ids]
    for d in [d for d in st.dummy_hip if d.id in pieces]:
        notes.append(Done(DoneKind.DUMMY_HIP_ELIMINATED, d.hex))
    st = replace(st, dummy_hip=tuple(d for d in st.dummy_hip if d.id not in pieces))
    for f in [f for f in st.fortifications if f.id in pieces]:
        st = reveal_fortification(st, f.id)
        notes.append(Done(DoneKind.FORTIFICATION_REVEALED, f.hex, kind=f.kind.value))
        public.append(Seen(SeenKind.FORTIFICATION_REVEALED, f.hex, fortification=f.kind.value))
    # one "?" per Location: units IN a dugout or a deep trench do not share the stack of the ground (A12.1)
    by_loc: dict[tuple[Hex, Position], list[str]] = {}
    for u in units:
        by_loc.setdefault((st.unit(u).hex, st.unit(u).position), []).append(u)
    for (h, _pos), ids in sorted(by_loc.items(), key=lambda kv: (kv[0][0].column, kv[0][0].row, kv[0][1].value)):
        if revealed:
            st = st.with_status({u: FogStatus.NONE for u in ids})
            st = replace(st, ti=st.ti | set(ids))
            notes.append(Done(DoneKind.HIP_REVEALED_TI, h, units=tuple(ids)))
            public.append(Seen(SeenKind.REVEALED_TI, h, tuple(ids)))
            continue
        keep = [u for u in ids if not env.concealment_loss(
            st.scenario, st.unit(u), h, st.unit(u).position, env.in_enemy_los(st.scenario, side, h, st.unit(u).position))]
        lost = [u for u in ids if u not in keep]
        if keep:
            st, sid = st.fresh_id("s", side)
            pos = st.unit(keep[0]).position
            st = st.with_stacks(st.stacks + (ConcealStack(sid, side, h, pos, tuple(keep), len(keep) + 1),))
            st = st.with_status({u: FogStatus.CONCEALED for u in keep})
            notes.append(Done(DoneKind.HIP_STAYS_CONCEALED, h, units=tuple(keep)))
            public.append(Seen(SeenKind.STACK_APPEARS, h, counters=len(keep) + 1))
        if lost:
            st = st.with_status({u: FogStatus.NONE for u in lost})
            notes.append(Done(DoneKind.HIP_REVEALED, h, units=tuple(lost)))
            public.append(Seen(SeenKind.REVEALED, h, tuple(lost)))
    return st


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


def _minefield_outcome(st: FogState, plan: ShiftPlan, exchange: bool, notes: list[Done], public: list[Seen]) -> FogState:
    ((a, b),) = plan.stack_pairs
    m, o = st.minefield(a), st.minefield(b)
    if exchange:
        m2, o2 = replace(m, hex=o.hex, revealed=True), replace(o, hex=m.hex, revealed=True)
        notes.append(Done(DoneKind.MINEFIELDS_EXCHANGE, m.hex, o.hex))
    else:
        m2, o2 = replace(m, revealed=True), replace(o, revealed=True)
        notes.append(Done(DoneKind.MINEFIELD_NO_EXCHANGE))
    kept = []
    # Report in map order, never in entered/other order: the order would tell the enemy
    # whether the two counters exchanged, which the shift DR keeps secret (4.6.2).
    for x in sorted((m2, o2), key=lambda x: (x.hex.column, x.hex.row)):
        if x.dummy:
            notes.append(Done(DoneKind.MINEFIELD_DUMMY, x.hex))
            public.append(Seen(SeenKind.MINEFIELD_DUMMY, x.hex))
        else:
            kept.append(x)
            notes.append(Done(DoneKind.MINEFIELD_REVEALED, x.hex, ap=x.ap, at=x.at))
            public.append(Seen(SeenKind.MINEFIELD_REVEALED, x.hex, ap=x.ap, at=x.at))
    st = replace(st, minefields=tuple(x for x in st.minefields if x.id not in (m.id, o.id)) + tuple(kept))
    return st
