"""Shifting (O'Leary 2.3-2.5, 3.3, 4.2-4.6, 5.1): windows, eligibility,
consistency and the plan of a shift DR; the types of its result.

Every shift goes in two steps, both pure:

1. ``plan_*_shift`` (here) looks at a :class:`FogState` and returns a
   :class:`ShiftPlan`: is the shift eligible (and if not, why, with the
   rule), and the DRM with their causes.
2. :func:`gwasl.rules.fog.resolve.resolve_shift` rolls the shift DR with a :class:`gwasl.rules.dice.Dice`
   and returns a :class:`ShiftResult`: the new state, the roll, the band of
   the 2.5 table and every consequence in words.

The four kinds of shift keep separate ledgers (3.3.4): dummy/potential
dummy stacks, HIP pieces (units, dummy HIP, hidden fortifications, 4.2),
cloaked stacks, and minefields (4.6.3-4.6.4: never closed by a failure).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit
from gwasl.rules.dice import Modifier, Roll
from gwasl.rules.fog.drm import ShiftFacts, shift_modifiers
from gwasl.rules.fog.env import FogEnv, size_class_of
from gwasl.rules.fog.state import (
    Clock,
    ConcealStack,
    FogState,
    HiddenFortification,
    LedgerKind,
    ShiftRecord,
    fog_extension,
)
from gwasl.rules.fog.table import FogTable
from gwasl.rules.organisation import NoMfError

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

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
    "plan_cloaked_shift",
    "plan_dummy_shift",
    "plan_group_dummy_shift",
    "plan_hip_shift",
    "plan_minefield_shift",
    "prior_shifts",
    "spent_mf",
    "shift_window",
]


class ShiftError(GwaslError):
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


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


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


def spent_mf(state: FogState, ids: Iterable[str]) -> float:
    """The most MF any of ``ids`` has spent this phase (O'Leary 2.5, 3.3.1)."""
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
    # "had the shift taken place at the start of the game": a taker is judged where it stands
    # and where the shift puts it, the better of the two (ASLGW 1.3's formation MF are where a
    # unit is; gwasl keeps no record of where each MF of a history was spent)
    placed = state.with_units_moved({u.id: (h, pos) for units, h, pos in going for u in units}).scenario
    for spent, takers, where in histories:
        if spent <= 0:
            continue
        group = tuple(u.id for u in takers)
        for u in takers:
            # the one MF allowance of movement (ASLGW 1.3: 6 in formation with its leader), env.mf_allowance
            try:
                allowed = max(env.mf_allowance(state.scenario, u, group), env.mf_allowance(placed, placed.unit(u.id), group))
            except NoMfError:
                continue  # a carried weapon has no MF of its own: its possessor's are judged (ASLGW 1.3)
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
                           [(spent_mf(state, b.unit_ids + (b.id,)), ua, str(b.hex)),
                            (spent_mf(state, a.unit_ids + (a.id,)), ub, str(a.hex))])
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
                       [(spent_mf(state, b.unit_ids + (b.id,)), ua, str(b.hex)),
                        (spent_mf(state, a.unit_ids + (a.id,)), ub, str(a.hex))])
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
                       [(spent_mf(state, mb), ua, str(hex_b)), (spent_mf(state, ma), ub, str(hex_a))])
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
