"""The fog-of-war state: the scenario plus each side's hidden layer.

O'Leary's solitaire rules (2-7) let one player keep the "fog of war" by
giving hidden things several candidate locations and letting them *shift*
between those locations with a shift DR (2.5).  :class:`FogState` is the
whole truth the engine holds; :func:`gwasl.rules.fog.view.view` decides what
each side may see of it.

The hidden layer of each side:

* :class:`ConcealStack` -- a "?" stack: real units (plain concealed,
  potential dummy 2.1, or cloaked 5) or a dummy stack (2.1) with its
  counter count.  The number of counters the enemy sees (``height``) stays
  with the *location* when stacks exchange: a real stack that moves into a
  taller dummy stack's location takes that location's spare counters as
  dummies under its "?" (legal, ASL A12.1), and the dummy left behind
  shrinks to the old height.  O'Leary 2.3.2 (fewer real counters than the
  dummy's counters) is exactly what makes this possible, so an exchange
  never changes what the enemy sees.
* :class:`DummyHip` -- a dummy HIP counter (3.1).
* HIP units -- units whose :class:`FogStatus` is ``HIP`` (3.1).
* :class:`HiddenFortification` -- a hidden fortification counter (4).
* :class:`Minefield` -- hidden, dummy and known minefields (4.6).
* :class:`BoreSight` / :class:`PreRegistration` -- still undetermined bore
  sighted locations and OBA pre-registered hexes (6, 7).

Plus TI markers and the MF history the 2.4 consistency check needs.  The
shift ledger (:class:`ShiftRecord`, 2.5, 3.3.4, 3.3.5) and the turn
(:class:`Clock`) are the game's bookkeeping: the game keeps them and passes
them to the rule functions that need them.  Everything is an
immutable value; every change returns a new state.  There is no log: rule
functions return typed outcomes and :mod:`gwasl.rules.fog.words` makes their words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.phases import Phase
from gwasl.model.scenario import (
    DummyKind,
    FortificationKind,
    HiddenStatus,
    Position,
    Scenario,
    Unit,
)
from gwasl.rules.fog.fields import require_fog_fields

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "BoreSight",
    "Clock",
    "ConcealStack",
    "DummyHip",
    "FogState",
    "FogStatus",
    "HiddenFortification",
    "LedgerKind",
    "Minefield",
    "PreRegistration",
    "ShiftRecord",
    "fog_extension",
]


class FogStatus(StrEnum):
    """Fog-of-war status of a real unit (O'Leary 2.1, 3.1, 5)."""

    NONE = "none"
    CONCEALED = "concealed"
    POTENTIAL_DUMMY = "potential_dummy"
    HIP = "hip"
    CLOAKED = "cloaked"


class LedgerKind(StrEnum):
    """The strictly separate kinds of shift (O'Leary 3.3.4), each with its own ledger."""

    DUMMY = "dummy"  # potential dummy and dummy stacks, 2.3
    HIP = "hip"  # HIP units, dummy HIP counters, hidden fortifications, 3.3 and 4.2
    CLOAKED = "cloaked"  # cloaked units, 5.1
    MINEFIELD = "minefield"  # minefields on entry, 4.6


def _ro(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True, slots=True)
class ConcealStack:
    """A "?" stack of one side at one location.

    ``id`` is internal (never shown to the enemy).  ``unit_ids`` are the
    real units beneath the "?" (empty for a dummy stack); ``height`` is the
    number of counters the enemy sees, "?" included; ``potential_dummy``
    (2.1) and ``cloaked`` (5) give the stack's shifting ability.
    """

    id: str
    side: str
    hex: Hex
    position: Position
    unit_ids: tuple[str, ...]
    height: int
    potential_dummy: bool = False
    cloaked: bool = False

    @property
    def is_dummy(self) -> bool:
        return not self.unit_ids

    @property
    def real_counters(self) -> int:
        """O'Leary 2.3.2: the number of real counters being shifted."""
        return len(self.unit_ids)

    @property
    def padding(self) -> int:
        """Dummy counters beneath the "?" of a real stack (0 for a dummy stack)."""
        return self.height - len(self.unit_ids) - 1 if self.unit_ids else 0


@dataclass(frozen=True, slots=True)
class DummyHip:
    """A dummy HIP counter (O'Leary 3.1)."""

    id: str
    side: str
    hex: Hex


@dataclass(frozen=True, slots=True)
class HiddenFortification:
    """A fortification counter set up hidden (O'Leary 4); ``tem`` overrides the table TEM."""

    id: str
    side: str
    kind: FortificationKind
    hex: Hex
    tem: int | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Minefield:
    """One minefield counter (O'Leary 4.6): ``known`` minefields (F.7 "known") have a
    location the enemy sees; hidden ones (and every dummy) do not.  ``revealed``:
    the strength (and so the location) is public (4.6.2)."""

    id: str
    side: str
    hex: Hex
    ap: int
    at: int
    dummy: bool = False
    known: bool = False
    revealed: bool = False


@dataclass(frozen=True, slots=True)
class BoreSight:
    """A weapon allowed to bore sight whose location is decided by the third die (O'Leary 6).

    ``hex`` is ``None`` while undetermined; ``eligible`` is lost when its
    unit changes location other than by shifting (2.3)."""

    unit_id: str
    side: str
    hex: Hex | None = None
    eligible: bool = True


@dataclass(frozen=True, slots=True)
class PreRegistration:
    """An OBA module with a pre-registered hex still undetermined (O'Leary 7)."""

    module: str
    side: str
    hex: Hex | None = None


@dataclass(frozen=True, slots=True)
class Clock:
    """Where the game is: ``turn``, the ``phasing`` side, the ``phase``, and
    whether the phasing side has already moved/advanced/fired a unit in it
    (O'Leary 2.3 and 5.1 allow shifts only at the start of the phase)."""

    turn: int
    phasing: str
    phase: Phase
    acted: bool = False


@dataclass(frozen=True, slots=True)
class ShiftRecord:
    """One shift DR in the ledger of its side and kind (O'Leary 2.5, 3.3.4)."""

    turn: int
    phasing: str
    phase: Phase
    side: str
    kind: LedgerKind
    final: int
    band: str
    counted: bool  # adds +1 to later attempts (a shift made with a final DR > 0)
    closes: bool  # no other stack of this kind may shift this phase


#: gone from this module; a game snapshot written while FogState had its log still opens (gwasl.engine.snapshot)
SNAPSHOT_RETIRED_TYPES = ("LogEntry",)


def fog_extension(obj_extra: Mapping[str, Any]) -> Mapping[str, Any]:
    """The ``"fog"`` extension object of a scenario or side (docs/format/fog.md), or empty."""
    v = obj_extra.get("fog")
    return v if isinstance(v, Mapping) else MappingProxyType({})


_STATUS_OF = {
    HiddenStatus.NONE: FogStatus.NONE,
    HiddenStatus.CONCEALED: FogStatus.CONCEALED,
    HiddenStatus.POTENTIAL_DUMMY: FogStatus.POTENTIAL_DUMMY,
    HiddenStatus.HIP: FogStatus.HIP,
}

_STACKED = (FogStatus.CONCEALED, FogStatus.POTENTIAL_DUMMY, FogStatus.CLOAKED)


def _position(value: Any) -> Position:
    try:
        return Position(value) if value is not None else Position.GROUND
    except ValueError:
        return Position.GROUND


def _hex(value: Any) -> Hex | None:
    try:
        return Hex.from_label(value)
    except (HexLabelError, TypeError):
        return None


@dataclass(frozen=True, slots=True)
class FogState:
    """The scenario and every side's hidden layer (O'Leary 2-7), immutable.

    ``scenario`` holds every real unit where it truly is and the fortifications
    everyone knows; hidden fortifications and all minefields live in the
    hidden layer until revealed.
    """

    scenario: Scenario
    status: Mapping[str, FogStatus]
    stacks: tuple[ConcealStack, ...] = ()
    dummy_hip: tuple[DummyHip, ...] = ()
    fortifications: tuple[HiddenFortification, ...] = ()
    minefields: tuple[Minefield, ...] = ()
    bore_sight: tuple[BoreSight, ...] = ()
    pre_registration: tuple[PreRegistration, ...] = ()
    ti: frozenset[str] = frozenset()
    spent: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    # O'Leary 2.3: units, and dummy stacks (by stack id), that changed location other than by shifting.
    moved: frozenset[str] = frozenset()
    next_id: int = 1
    # ids issued in play per (side, prefix): see fresh_id, why one shared counter would leak
    issued: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # the English log rule functions used to append to (now typed outcomes, gwasl.rules.fog.words);
    # the shift ledger and the turn clock, game bookkeeping now kept by the game
    # (gwasl.games.aslgw.state.AslgwState.ledger, .acted; its decode_state migrates them)
    SNAPSHOT_RETIRED_FIELDS: ClassVar[tuple[str, ...]] = ("log", "ledger", "clock")

    # -- construction -----------------------------------------------------------
    @classmethod
    def from_scenario(cls, scenario: Scenario, source: str = "<scenario>") -> FogState:
        """The hidden layer as the scenario file sets it up (docs/format/fog.md).

        O'Leary 2.1: units marked ``potential_dummy`` (and ``concealed``)
        form "?" stacks per side, hex and position; ``dummies`` give dummy
        stacks, dummy HIP and dummy minefields; fortifications with
        ``"hidden": true`` and every minefield move into the hidden layer.

        Raises :class:`gwasl.rules.fog.fields.FogFormatError` (naming ``source``
        and each field) if a fog field is malformed: nothing below reads an
        unchecked value, so none can reach a view.
        """
        require_fog_fields(scenario, source)
        status: dict[str, FogStatus] = {}
        for u in scenario.units:
            st = _STATUS_OF[u.hidden]
            if u.extra.get("cloaked") is True:
                st = FogStatus.CLOAKED
            status[u.id] = st
        n = 0

        def new_id(prefix: str) -> str:
            nonlocal n
            n += 1
            return f"{prefix}{n}"

        stacks: list[ConcealStack] = []
        groups: dict[tuple[str, Hex, Position, FogStatus], list[str]] = {}
        for u in scenario.units:
            st = status[u.id]
            if st in _STACKED:
                groups.setdefault((u.side, u.hex, u.position, st), []).append(u.id)
        for (side, h, pos, st), ids in groups.items():
            cloaked = st is FogStatus.CLOAKED
            stacks.append(ConcealStack(new_id("s"), side, h, pos, tuple(ids), 1 if cloaked else len(ids) + 1,
                                       st is FogStatus.POTENTIAL_DUMMY, cloaked))
        dummy_hip: list[DummyHip] = []
        minefields: list[Minefield] = []
        for d in scenario.dummies:
            if d.kind is DummyKind.DUMMY_STACK:
                cloaked = d.extra.get("cloaked") is True
                stacks.append(ConcealStack(new_id("s"), d.side, d.hex, _position(d.extra.get("in")), (),
                                           1 if cloaked else int(d.counters or 1), False, cloaked))
            elif d.kind is DummyKind.DUMMY_HIP:
                dummy_hip.append(DummyHip(new_id("h"), d.side, d.hex))
            else:
                minefields.append(Minefield(new_id("m"), d.side, d.hex, 0, 0, dummy=True))
        # ids made in play start above the set-up's "?" stacks and dummies, never above the hidden
        # fortifications and minefields: how many of those a side has is its secret (CONTRACTS 5)
        public_ids = n
        forts: list[HiddenFortification] = []
        kept = []
        for f in scenario.map.fortifications:
            if f.kind is FortificationKind.MINEFIELD:
                known = f.extra.get("hidden") is not True
                ap, at = f.extra.get("ap", 0), f.extra.get("at", 0)
                for h in f.hexes:
                    minefields.append(Minefield(new_id("m"), f.owner or "", h, int(ap or 0), int(at or 0),
                                                known=known, revealed=known and f.extra.get("revealed") is True))
            elif f.extra.get("hidden") is True:
                tem = f.extra.get("tem")
                rest = {k: v for k, v in f.extra.items() if k not in ("hidden", "tem")}
                for h in f.hexes:
                    forts.append(HiddenFortification(new_id("f"), f.owner or "", f.kind, h,
                                                     tem if isinstance(tem, int) and not isinstance(tem, bool) else None,
                                                     MappingProxyType(rest)))
            else:
                kept.append(f)
        bore = []
        for u in scenario.units:
            bs = u.extra.get("bore_sight")
            if bs == "undetermined":
                bore.append(BoreSight(u.id, u.side, None, True))
            elif isinstance(bs, str) and (at := _hex(bs)) is not None:
                bore.append(BoreSight(u.id, u.side, at, True))
        prereg = []
        for m in fog_extension(scenario.extra).get("oba", ()) or ():
            if isinstance(m, Mapping) and isinstance(m.get("id"), str):
                pr = m.get("pre_registered")
                prereg.append(PreRegistration(m["id"], str(m.get("side", "")), _hex(pr) if pr != "undetermined" else None))
        map_data = replace(scenario.map, fortifications=tuple(kept))
        return cls(
            scenario=replace(scenario, map=map_data),
            status=_ro(status),
            stacks=tuple(stacks),
            dummy_hip=tuple(dummy_hip),
            fortifications=tuple(forts),
            minefields=tuple(minefields),
            bore_sight=tuple(bore),
            pre_registration=tuple(prereg),
            next_id=public_ids + 1,
        )

    # -- look-ups ---------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit:
        return self.scenario.unit(unit_id)

    def status_of(self, unit_id: str) -> FogStatus:
        return self.status.get(unit_id, FogStatus.NONE)

    def stack(self, stack_id: str) -> ConcealStack:
        for s in self.stacks:
            if s.id == stack_id:
                return s
        raise KeyError(stack_id)

    def stack_of_unit(self, unit_id: str) -> ConcealStack | None:
        for s in self.stacks:
            if unit_id in s.unit_ids:
                return s
        return None

    def stacks_at(self, h: Hex, side: str | None = None) -> tuple[ConcealStack, ...]:
        return tuple(s for s in self.stacks if s.hex == h and (side is None or s.side == side))

    def hip_units_at(self, h: Hex, side: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.scenario.units
                     if u.hex == h and u.side == side and self.status_of(u.id) is FogStatus.HIP)

    def dummy_hip_at(self, h: Hex, side: str) -> tuple[DummyHip, ...]:
        return tuple(d for d in self.dummy_hip if d.hex == h and d.side == side)

    def fortifications_at(self, h: Hex, side: str) -> tuple[HiddenFortification, ...]:
        return tuple(f for f in self.fortifications if f.hex == h and f.side == side)

    def hip_pieces_at(self, h: Hex, side: str) -> tuple[str, ...]:
        """Ids of every HIP piece of ``side`` at ``h``: HIP units, dummy HIP, hidden fortifications."""
        return (tuple(u.id for u in self.hip_units_at(h, side))
                + tuple(d.id for d in self.dummy_hip_at(h, side))
                + tuple(f.id for f in self.fortifications_at(h, side)))

    def minefield(self, mf_id: str) -> Minefield:
        for m in self.minefields:
            if m.id == mf_id:
                return m
        raise KeyError(mf_id)

    def minefields_at(self, h: Hex, side: str | None = None) -> tuple[Minefield, ...]:
        return tuple(m for m in self.minefields if m.hex == h and (side is None or m.side == side))

    def hidden_hexes(self, side: str) -> frozenset[Hex]:
        """Every hex holding a hidden piece of ``side`` that could shift."""
        out = {s.hex for s in self.stacks if s.side == side}
        out |= {u.hex for u in self.scenario.units if u.side == side and self.status_of(u.id) is FogStatus.HIP}
        out |= {d.hex for d in self.dummy_hip if d.side == side}
        out |= {f.hex for f in self.fortifications if f.side == side}
        out |= {m.hex for m in self.minefields if m.side == side and not m.revealed}
        return frozenset(out)

    # -- small functional updates ---------------------------------------------------
    def fresh_id(self, prefix: str, side: str) -> tuple[FogState, str]:
        """A new id for a piece of ``side`` made in play (a "?" stack ``s``, a dummy HIP ``h``).

        CONTRACTS 5: the number must not depend on anything hidden from a viewer.
        One counter shared by every side and kind let a secret side's hidden dummy
        HIP (O'Leary 3.3.3) shift the number of the enemy's next "?" stack, so each
        (side, prefix) has its own count, and the sides interleave above the set-up
        ids so no two pieces ever share an id: with sides (A, B), A's stacks are
        s{n}, s{n+3}, ... and B's s{n+1}, s{n+4}, ... (``n`` = ``next_id``).
        """
        sides = tuple(self.scenario.sides)
        k = sides.index(side) if side in sides else len(sides)
        key = f"{side}:{prefix}"
        count = self.issued.get(key, 0)
        issued = dict(self.issued)
        issued[key] = count + 1
        number = self.next_id + count * (len(sides) + 1) + k
        return replace(self, issued=_ro(issued)), f"{prefix}{number}"

    def with_status(self, changes: Mapping[str, FogStatus]) -> FogState:
        st = dict(self.status)
        st.update(changes)
        return replace(self, status=_ro(st))

    def with_stacks(self, stacks: Iterable[ConcealStack]) -> FogState:
        return replace(self, stacks=tuple(stacks))

    def with_units_moved(self, moves: Mapping[str, tuple[Hex, Position]]) -> FogState:
        """Units placed at new hexes and positions (a shift, not movement: no MF spent)."""
        units = tuple(
            replace(u, hex=moves[u.id][0], position=moves[u.id][1]) if u.id in moves else u
            for u in self.scenario.units
        )
        return replace(self, scenario=self.scenario.with_units(units))

    def without_bore_sight(self, unit_ids: Iterable[str]) -> FogState:
        """O'Leary 2.3: ``unit_ids`` are no longer eligible to bore sight (a location still undetermined)."""
        ids = set(unit_ids)
        return replace(self, bore_sight=tuple(replace(b, eligible=False) if b.unit_id in ids and b.hex is None else b
                                              for b in self.bore_sight))


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
