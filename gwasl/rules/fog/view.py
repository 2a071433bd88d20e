"""What one side may see: ``view(state, viewer)``, a pure function built by whitelist.

Nothing of the state reaches a view unless this module copies it on
purpose.  A side sees its own units and hidden layer in full; of the enemy
it sees units that are neither concealed nor hidden, "?" stacks with their
counter counts (real and dummy alike, the potential dummy flag never), known
and revealed fortifications and minefields.  (The words of what happened are
not state: :mod:`gwasl.rules.fog.words` makes them from the rules' outcomes.)
``"omniscient"`` (the designer) sees everything, dummies told apart.

Sorting never uses a hidden fact: enemy stacks sort by side, hex, position
and count, never by an internal id.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    Formation,
    Fortification,
    FortificationKind,
    Front,
    HiddenStatus,
    MapData,
    Position,
    Scenario,
    Side,
    Unit,
    Weather,
)
from gwasl.model.viewers import OMNISCIENT
from gwasl.rules.fog.state import Clock, FogState, FogStatus, ShiftRecord

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "OMNISCIENT",
    "BoreSightView",
    "ConcealedStack",
    "DummyHipView",
    "FortificationView",
    "HiddenLayerView",
    "MinefieldView",
    "OwnStack",
    "PUBLIC_FORTIFICATION_EXTRA",
    "PUBLIC_UNIT_EXTRA",
    "SideView",
    "ViewError",
    "view",
]


# Unit fields beyond the schema's that an enemy may see on a visible counter.
PUBLIC_UNIT_EXTRA = ("size_class", "ca", "vca", "ce", "emplaced")
# Fortification fields beyond the schema's that another side may see on a known counter:
# its printed TEM and its covered arc.  Set-up hexes (4.2), tunnel exits (4.4.2) and cave
# complexes (4.4.1) stay the owner's.
PUBLIC_FORTIFICATION_EXTRA = ("tem", "ca")


class ViewError(GwaslError):
    """A viewer that is neither a side of the scenario nor "omniscient"."""


@dataclass(frozen=True, slots=True)
class ConcealedStack:
    """A "?" stack (or cloaking counter) as a viewer sees it.

    ``counters``: how many counters the stack shows, "?" included (for an
    enemy, all its "?" counters of one location and position together).  For an
    enemy stack ``dummy``, ``potential_dummy`` and ``unit_ids`` are ``None``
    (unknown); the omniscient view fills them in.
    """

    side: str
    hex: Hex
    position: Position
    counters: int
    cloaked: bool = False
    dummy: bool | None = None
    potential_dummy: bool | None = None
    unit_ids: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class OwnStack:
    """One of the viewer's own "?" stacks, with what only its owner knows."""

    side: str
    hex: Hex
    position: Position
    counters: int
    unit_ids: tuple[str, ...]
    dummy: bool
    potential_dummy: bool
    cloaked: bool


@dataclass(frozen=True, slots=True)
class DummyHipView:
    side: str
    hex: Hex


@dataclass(frozen=True, slots=True)
class FortificationView:
    """A fortification the viewer may see; ``hidden``: still hidden from the enemy."""

    kind: FortificationKind
    hexes: tuple[Hex, ...]
    owner: str | None
    hidden: bool = False
    tem: int | None = None


@dataclass(frozen=True, slots=True)
class MinefieldView:
    """A minefield counter the viewer may see; strengths are ``None`` until known to it."""

    side: str
    hex: Hex
    ap: int | None
    at: int | None
    dummy: bool | None
    known: bool
    revealed: bool


@dataclass(frozen=True, slots=True)
class BoreSightView:
    unit_id: str
    hex: Hex | None
    eligible: bool


@dataclass(frozen=True, slots=True)
class HiddenLayerView:
    """A side's own hidden layer (all sides' in the omniscient view)."""

    stacks: tuple[OwnStack, ...]
    hip_units: tuple[str, ...]
    dummy_hip: tuple[DummyHipView, ...]
    fortifications: tuple[FortificationView, ...]
    minefields: tuple[MinefieldView, ...]
    bore_sight: tuple[BoreSightView, ...]
    pre_registration: tuple[tuple[str, Hex | None], ...]
    ledger: tuple[ShiftRecord, ...]

    @property
    def potential_dummy_stacks(self) -> tuple[OwnStack, ...]:
        return tuple(s for s in self.stacks if s.potential_dummy)

    @property
    def dummy_stacks(self) -> tuple[OwnStack, ...]:
        return tuple(s for s in self.stacks if s.dummy)

    @property
    def cloaked_stacks(self) -> tuple[OwnStack, ...]:
        return tuple(s for s in self.stacks if s.cloaked)


@dataclass(frozen=True, slots=True)
class SideView:
    """Everything ``viewer`` may know.  ``scenario`` is a whitelisted scenario
    (visible units and fortifications only) that a map can draw directly."""

    viewer: str
    title: str
    date: _dt.date
    clock: Clock | None
    scenario: Scenario
    units: tuple[Unit, ...]
    concealed_stacks: tuple[ConcealedStack, ...]
    own_hidden: HiddenLayerView | None
    fortifications: tuple[FortificationView, ...]
    minefields: tuple[MinefieldView, ...]
    ti: tuple[str, ...]


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _hex_key(h: Hex) -> tuple[int, int]:
    return (h.column, h.row)


_STATUS_TO_HIDDEN = {
    FogStatus.NONE: HiddenStatus.NONE,
    FogStatus.CONCEALED: HiddenStatus.CONCEALED,
    FogStatus.POTENTIAL_DUMMY: HiddenStatus.POTENTIAL_DUMMY,
    FogStatus.HIP: HiddenStatus.HIP,
    FogStatus.CLOAKED: HiddenStatus.CONCEALED,
}


def view(state: FogState, viewer: str, *, clock: Clock | None = None, ledger: Sequence[ShiftRecord] = ()) -> SideView:
    """O'Leary's fog of war for ``viewer`` (a side id or ``"omniscient"``); ``clock`` and
    ``ledger`` are the game's (where it is, the shifts made), shown as they are and
    the ledger only for the sides whose hidden layer ``viewer`` sees.

    >>> from gwasl.model.scenario_io import load_scenario
    >>> from gwasl.scenarios import bundled_scenario
    >>> st = FogState.from_scenario(load_scenario(bundled_scenario("bois-des-caures-1916.json")))
    >>> v = view(st, "german")
    >>> sorted(u.id for u in v.units if u.side == "french")
    []
    >>> [(s.hex.label, s.counters) for s in v.concealed_stacks]
    [('F4', 3), ('G6', 2), ('H3', 2), ('I6', 2)]
    """
    sc = state.scenario
    omni = viewer == OMNISCIENT
    if not omni and viewer not in sc.sides:
        raise ViewError(f"viewer {viewer!r} is not a side of this scenario ({', '.join(sc.sides)}) nor 'omniscient'")

    def mine(side: str) -> bool:
        return omni or side == viewer

    public_forts = {(h, f.kind) for f in sc.map.fortifications for h in f.hexes}

    def shown_position(side: str, h: Hex, pos: Position) -> Position:
        if mine(side):
            return pos
        kind = pos.fortification
        # A position inside a fortification the viewer cannot see would reveal it.
        return pos if kind is None or (h, kind) in public_forts else Position.GROUND

    # -- units ------------------------------------------------------------------
    units = []
    for u in sc.units:
        st = state.status_of(u.id)
        if mine(u.side):
            extra = dict(u.extra)
            if st is FogStatus.CLOAKED:
                extra["cloaked"] = True
            else:
                extra.pop("cloaked", None)
            units.append(replace(u, hidden=_STATUS_TO_HIDDEN[st], extra=MappingProxyType(extra)))
        elif st is FogStatus.NONE:
            extra = {k: u.extra[k] for k in PUBLIC_UNIT_EXTRA if k in u.extra}
            units.append(Unit(
                id=u.id, side=u.side, kind=u.kind, hex=u.hex, unit_class=u.unit_class, rating=u.rating,
                weapon=u.weapon, position=shown_position(u.side, u.hex, u.position), platoon=u.platoon,
                broken=u.broken, trench_armour=u.trench_armour, hidden=HiddenStatus.NONE,
                extra=MappingProxyType(extra)))
    units.sort(key=lambda u: (u.side, _hex_key(u.hex), u.id))
    visible_ids = {u.id for u in units}

    # -- "?" stacks ----------------------------------------------------------------
    concealed = []
    for s in state.stacks:
        if not omni and s.side == viewer:
            continue
        concealed.append(ConcealedStack(
            s.side, s.hex, shown_position(s.side, s.hex, s.position), s.height, s.cloaked,
            s.is_dummy if omni else None, s.potential_dummy if omni else None,
            tuple(sorted(s.unit_ids)) if omni else None))
    if not omni:
        # O'Leary 2.2: only potential dummy stacks merge at the end of the CCPh, so how the
        # enemy's "?" counters of one location are grouped would tell real from dummy.  The
        # viewer sees each location's "?" counters (and cloaking counters) as one pile.
        piles: dict[tuple[Any, ...], int] = {}
        for c in concealed:
            k = (c.side, c.hex, c.position, c.cloaked)
            piles[k] = piles.get(k, 0) + c.counters
        concealed = [ConcealedStack(side, h, pos, n, cl) for (side, h, pos, cl), n in piles.items()]
    concealed.sort(key=lambda c: (c.side, _hex_key(c.hex), c.position.value, c.counters, c.cloaked,
                                  c.dummy is True, c.unit_ids or ()))

    # -- fortifications and minefields ------------------------------------------------
    forts = [FortificationView(f.kind, f.hexes, f.owner, False, _int(f.extra.get("tem"))) for f in sc.map.fortifications]
    forts += [FortificationView(f.kind, (f.hex,), f.side, True, f.tem) for f in state.fortifications if mine(f.side)]
    forts.sort(key=lambda f: (tuple(_hex_key(h) for h in f.hexes), f.kind.value, f.owner or "", f.hidden, f.tem or 0))
    mines = []
    for m in state.minefields:
        if mine(m.side):
            mines.append(MinefieldView(m.side, m.hex, m.ap, m.at, m.dummy, m.known, m.revealed))
        elif m.known or m.revealed:
            mines.append(MinefieldView(m.side, m.hex, m.ap if m.revealed else None, m.at if m.revealed else None,
                                       False if m.revealed else None, m.known, m.revealed))
    mines.sort(key=lambda m: (m.side, _hex_key(m.hex), m.known, m.revealed, m.ap or 0, m.at or 0, m.dummy is True))

    # -- own hidden layer --------------------------------------------------------------
    own = None
    layer_sides = set(sc.sides) if omni else {viewer}
    own = HiddenLayerView(
        stacks=tuple(sorted(
            (OwnStack(s.side, s.hex, s.position, s.height, tuple(sorted(s.unit_ids)), s.is_dummy, s.potential_dummy, s.cloaked)
             for s in state.stacks if s.side in layer_sides),
            key=lambda s: (s.side, _hex_key(s.hex), s.position.value, s.counters, s.unit_ids, s.cloaked))),
        hip_units=tuple(sorted(u.id for u in sc.units if u.side in layer_sides and state.status_of(u.id) is FogStatus.HIP)),
        dummy_hip=tuple(sorted((DummyHipView(d.side, d.hex) for d in state.dummy_hip if d.side in layer_sides),
                               key=lambda d: (d.side, _hex_key(d.hex)))),
        fortifications=tuple(f for f in forts if f.hidden and f.owner in layer_sides),
        minefields=tuple(m for m in mines if m.side in layer_sides),
        bore_sight=tuple(sorted((BoreSightView(b.unit_id, b.hex, b.eligible) for b in state.bore_sight if b.side in layer_sides),
                                key=lambda b: b.unit_id)),
        pre_registration=tuple(sorted(((p.module, p.hex) for p in state.pre_registration if p.side in layer_sides),
                                      key=lambda p: p[0])),
        ledger=tuple(r for r in ledger if r.side in layer_sides),
    )

    # -- whitelisted scenario for drawing ------------------------------------------------
    def shown_fortification(f: FortificationView) -> Fortification:
        if f.hidden:  # the viewer's own hidden fortification
            return Fortification(f.kind, f.hexes, f.owner, (),
                                 MappingProxyType({"hidden": True} | ({"tem": f.tem} if f.tem is not None else {})))
        x = next(x for x in sc.map.fortifications if x.kind is f.kind and x.hexes == f.hexes and x.owner == f.owner)
        if omni or (x.owner is not None and x.owner == viewer):
            return x
        # Another side's fortification, e.g. one revealed after a shift: only what is on
        # the counter (O'Leary 3.4, 4.4), never its set-up hexes, tunnel exit or complex.
        return Fortification(x.kind, x.hexes, x.owner, x.ladders,
                             MappingProxyType({k: x.extra[k] for k in PUBLIC_FORTIFICATION_EXTRA if k in x.extra}))

    visible_map_forts = tuple(shown_fortification(f) for f in forts)
    board = sc.map
    public_map = MapData(board.columns, board.rows, board.default_terrain, board.hexes, visible_map_forts)
    sides = MappingProxyType({k: Side(s.id, s.nationality, s.gas_protection, s.hand_grenades) for k, s in sc.sides.items()})
    formations = []
    for f in sc.formations:
        members = [u for u in sc.units if u.platoon == f.id]
        if any(u.id in visible_ids for u in members) or (members and mine(members[0].side)):
            formations.append(Formation(f.id, f.kind, f.leader if f.leader in visible_ids else None))
    public = Scenario(sc.title, sc.date, public_map, sides, tuple(units), tuple(formations), (), sc.id,
                      Front(sc.front), Weather(sc.weather), sc.winter, sc.night)

    ti = tuple(sorted(i for i in state.ti if i in visible_ids))
    return SideView(viewer, sc.title, sc.date, clock, public, tuple(units), tuple(concealed), own,
                    tuple(forts), tuple(mines), ti)


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None
