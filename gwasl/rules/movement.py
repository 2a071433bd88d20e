"""Infantry movement one location at a time: the MF cost of a step, where a
step may go, and the classic movement numbers ASLGW builds on.

ASLGW 2.1.3 costs every move into, along and out of a deep trench
(:func:`gwasl.rules.trenches.move_cost`, called here, never copied); this
module adds the classic steps around it, with the numbers of
resources/movement.json:

* to an ADJACENT hex on the ground: the entered hex's terrain MF (terrain
  table), twice that uphill (B10.4);
* along connected trench hexes, staying in the trench: 1 MF (B27);
* into or out of a trench, foxhole, pillbox or dugout within its own hex:
  1 MF (B27.41, ``entrenchment`` of resources/asl_core.json; a dugout is a
  bunker entered like a pillbox, ASLGW 2.2);
* entering wire expends all remaining MF (B26.4).

A step from inside a classic entrenchment to another hex goes through the
ground of its own hex first (two steps), except along a trench.

>>> import datetime
>>> from gwasl.model.scenario import *
>>> H = Hex.from_label
>>> m = MapData(4, 4, hexes={H("B2"): HexData(Terrain.WOODS), H("B3"): HexData(level=1)},
...             fortifications=(Fortification(FortificationKind.TRENCH, (H("C2"), H("C3"))),))
>>> s = Scenario("t", datetime.date(1916, 7, 1), m, {})
>>> step_cost(s, H("B1"), Position.GROUND, H("B2"), Position.GROUND).mf
2.0
>>> step_cost(s, H("A3"), Position.GROUND, H("B3"), Position.GROUND).mf
2.0
>>> step_cost(s, H("C2"), Position.TRENCH, H("C3"), Position.TRENCH).mf
1.0
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FortificationKind, MapData, Position, Scenario
from gwasl.model.terrain import TableError, load_resource, terrain_table
from gwasl.rules.morale import asl_core
from gwasl.rules.trenches import (
    DEEP_TRENCH_POSITIONS,
    LocationError,
    MoveCost,
    move_cost,
)

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "MovementTable",
    "cached_step_cost",
    "map_key",
    "Step",
    "StepError",
    "movement_table",
    "parse_movement",
    "step_cost",
    "steps_from",
]

_FILE = "movement.json"


class StepError(LocationError):
    """A step that is not one legal location-to-location move (not adjacent, no
    such fortification, impassable terrain...)."""


@dataclass(frozen=True, slots=True)
class MovementTable:
    """The numbers of resources/movement.json, validated, each with its rule."""

    uphill_factor: int
    trench_along_mf: int
    wire_ends_movement: bool
    concealment_loss_range: int
    assault_move_locations: int
    concealed_pile_mf: int
    advance_locations: int
    rules: dict[str, str]


def _section(doc: dict[str, Any], name: str) -> dict[str, Any]:
    d = doc.get(name)
    if not isinstance(d, dict) or not isinstance(d.get("rule"), str):
        raise TableError(f"{_FILE}: {name!r} must be an object with a 'rule' text")
    return d


def _int(d: dict[str, Any], key: str, where: str, lo: int = 0) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise TableError(f"{_FILE} {where}.{key}: expected a whole number >= {lo}, got {v!r}")
    return v


def parse_movement(doc: Any) -> MovementTable:
    """Validate a decoded movement.json (:class:`TableError` names the entry and field).

    >>> parse_movement({"uphill": {"factor": 2}})
    Traceback (most recent call last):
    ...
    gwasl.model.terrain.TableError: movement.json: 'uphill' must be an object with a 'rule' text

    The classic movement numbers: B10.4 uphill, B27 along a trench, B26.4 wire, A12.14 concealment loss, A4.61
    Assault Movement, A4.7 advance.
    """
    if not isinstance(doc, dict):
        raise TableError(f"{_FILE}: expected an object")
    names = ("uphill", "trench_along", "wire", "concealment_loss", "assault_move", "concealed_pile_mf", "advance")
    sec = {n: _section(doc, n) for n in names}
    wire = sec["wire"].get("ends_movement")
    if not isinstance(wire, bool):
        raise TableError(f"{_FILE} wire.ends_movement: expected true or false, got {wire!r}")
    return MovementTable(
        uphill_factor=_int(sec["uphill"], "factor", "uphill", 1),
        trench_along_mf=_int(sec["trench_along"], "mf", "trench_along", 0),
        wire_ends_movement=wire,
        concealment_loss_range=_int(sec["concealment_loss"], "range", "concealment_loss", 0),
        assault_move_locations=_int(sec["assault_move"], "locations", "assault_move", 1),
        concealed_pile_mf=_int(sec["concealed_pile_mf"], "mf", "concealed_pile_mf", 1),
        advance_locations=_int(sec["advance"], "locations", "advance", 1),
        rules={n: sec[n]["rule"] for n in names},
    )


@lru_cache(maxsize=1)
def movement_table() -> MovementTable:
    """resources/movement.json, loaded and validated once. (B10.4, B27, B26.4, A4.61, A4.7.)"""
    return parse_movement(load_resource(_FILE))


#: the rule of each fortification a unit may be IN (for "there is none here")
_FORTIFICATION_RULE = {"trench": "B27", "foxhole": "B27", "pillbox": "B30", "deep_trench": "ASLGW 2.1", "dugout": "ASLGW 2.2"}

# Classic entrenchments entered and left within their own hex (B27.41; pillbox B30, dugout ASLGW 2.2).
_WITHIN_HEX = (Position.TRENCH, Position.FOXHOLE, Position.PILLBOX, Position.DUGOUT)


def _require(s: Scenario, h: Hex, pos: Position) -> None:
    if not s.map.contains(h):
        raise StepError(f"hex {h} is outside the {s.map.columns} x {s.map.rows} map")
    kind = pos.fortification
    if kind is not None and not s.map.has_fortification(h, kind):
        raise StepError(f"hex {h} has no {kind.value.replace('_', ' ')}, so no unit can be IN one there "
                        f"({_FORTIFICATION_RULE.get(kind.value, 'B27')})")


def _terrain_mf(s: Scenario, h: Hex) -> float:
    info = terrain_table()[s.map.terrain_at(h)]
    if info.mf is None:
        raise StepError(f"infantry cannot enter {h} ({info.terrain.value}, {info.rule})")
    return float(info.mf)


def _wire(s: Scenario, from_hex: Hex, to_hex: Hex, cost: MoveCost) -> MoveCost:
    t = movement_table()
    if from_hex != to_hex and t.wire_ends_movement and s.map.has_fortification(to_hex, FortificationKind.WIRE):
        return MoveCost(cost.mf, cost.cx_at_end_of_mph, cost.double_time_allowed,
                        cost.reasons + (f"wire in {to_hex}: entering it expends all remaining MF ({t.rules['wire']})",))
    return cost


def ends_movement(s: Scenario, from_hex: Hex, to_hex: Hex) -> bool:
    """Whether a step into ``to_hex`` expends all the unit's remaining MF (wire, B26.4)."""
    return from_hex != to_hex and movement_table().wire_ends_movement and s.map.has_fortification(to_hex, FortificationKind.WIRE)


def step_cost(s: Scenario, from_hex: Hex, from_pos: Position, to_hex: Hex, to_pos: Position) -> MoveCost:
    """The MF an infantry unit spends on one step (one location to the next).

    Deep trench steps are ASLGW 2.1.3's (:func:`gwasl.rules.trenches.move_cost`);
    the others are classic: terrain MF into an ADJACENT hex on the ground
    (twice uphill, B10.4), 1 MF along connected trench hexes (B27), 1 MF
    into or out of a trench, foxhole, pillbox or dugout within its hex
    (B27.41; ASLGW 2.2 for the dugout).  Raises :class:`StepError` for
    anything else (not adjacent, no such fortification, water...).
    """
    _require(s, from_hex, from_pos)
    _require(s, to_hex, to_pos)
    same = from_hex == to_hex
    if not same and not from_hex.is_adjacent(to_hex):
        raise StepError(f"{to_hex} is not ADJACENT to {from_hex}: units move one hex at a time (A4.1)")
    if from_pos in DEEP_TRENCH_POSITIONS or to_pos in DEEP_TRENCH_POSITIONS:
        open_or_deep = (Position.GROUND, *DEEP_TRENCH_POSITIONS)
        if from_pos not in open_or_deep:
            raise StepError(f"leave the {from_pos.value} of {from_hex} first (B27.41)")
        if to_pos not in open_or_deep:
            raise StepError(f"enter the ground of {to_hex} first, then its {to_pos.value} (B27.41)")
        try:
            cost = move_cost(s, from_hex, from_pos, to_hex, to_pos)
        except LocationError as e:
            raise StepError(str(e)) from None
        return _wire(s, from_hex, to_hex, _uphill(s, from_hex, to_hex, cost, from_pos, to_pos))
    if same:
        if from_pos is to_pos:
            raise StepError(f"no change of location in {from_hex}: a step enters another Location (A4.1)")
        if {from_pos, to_pos} - {Position.GROUND} and Position.GROUND in (from_pos, to_pos):
            inner = to_pos if from_pos is Position.GROUND else from_pos
            mf = float(asl_core().entrenchment_change_mf)
            verb = "into" if from_pos is Position.GROUND else "out of"
            return MoveCost(mf, False, True, (f"{verb} the {inner.value} of {from_hex}: {mf:g} MF (B27.41)",))
        raise StepError(f"from {from_pos.value} to {to_pos.value} in {from_hex}: go through the ground of the hex (B27.41)")
    if from_pos is Position.TRENCH and to_pos is Position.TRENCH:
        mf = float(movement_table().trench_along_mf)
        cost = MoveCost(mf, False, True, (f"along connected trench hexes: {mf:g} MF ({movement_table().rules['trench_along']})",))
        return _wire(s, from_hex, to_hex, cost)
    if from_pos is not Position.GROUND:
        raise StepError(f"leave the {from_pos.value} of {from_hex} first (B27.41)")
    if to_pos is not Position.GROUND:
        raise StepError(f"enter {to_hex} first, then its {to_pos.value} (B27.41)")
    t = _terrain_mf(s, to_hex)
    cost = MoveCost(t, False, True, (f"{s.map.terrain_at(to_hex).value}: {t:g} MF",))
    return _wire(s, from_hex, to_hex, _uphill(s, from_hex, to_hex, cost, from_pos, to_pos))


def _uphill(s: Scenario, from_hex: Hex, to_hex: Hex, cost: MoveCost, from_pos: Position, to_pos: Position) -> MoveCost:
    """B10.4: the terrain cost doubles into a higher hex (not along a trench, not within a hex)."""
    if from_hex == to_hex or s.map.level_at(to_hex) <= s.map.level_at(from_hex):
        return cost
    if from_pos in DEEP_TRENCH_POSITIONS and to_pos in DEEP_TRENCH_POSITIONS:
        return cost
    t = movement_table()
    extra = _terrain_mf(s, to_hex) * (t.uphill_factor - 1)
    return MoveCost(cost.mf + extra, cost.cx_at_end_of_mph, cost.double_time_allowed,
                    cost.reasons + (f"uphill to level {s.map.level_at(to_hex)}: terrain cost x{t.uphill_factor} (+{extra:g} MF, {t.rules['uphill']})",))


@dataclass(frozen=True, slots=True)
class Step:
    """One possible step: where to, and what it costs."""

    to_hex: Hex
    to_pos: Position
    cost: MoveCost


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


_STEPS_CACHE: dict[str, dict[tuple[Hex, Position], tuple[Step, ...]]] = {}
_KEYS: dict[int, tuple[object, str]] = {}


def map_key(m: MapData) -> str:
    """A key of a map's content (terrain, levels, fortifications), the same for equal maps:
    what caches of map-only facts (steps, LOS) are kept by."""
    got = _KEYS.get(id(m))
    if got is not None and got[0] is m:
        return got[1]
    key = repr((m.columns, m.rows, m.default_terrain, sorted(m.hexes.items(), key=lambda kv: (kv[0].q, kv[0].r)),
                m.fortifications, sorted(m.extra.items()) if m.extra else ()))
    if len(_KEYS) > 64:
        _KEYS.clear()
    _KEYS[id(m)] = (m, key)
    return key


def steps_from(s: Scenario, h: Hex, pos: Position) -> tuple[Step, ...]:
    """Every step an infantry unit at ``(h, pos)`` may take, in map order
    (positions within its own hex first, then the six neighbours).

    Steps depend on the map only, so they are kept per map (a few maps at a time).

    >>> import datetime
    >>> from gwasl.model.scenario import *
    >>> s = Scenario("t", datetime.date(1916, 7, 1), MapData(3, 3), {})
    >>> [st.to_hex.label for st in steps_from(s, Hex.from_label("A1"), Position.GROUND)]
    ['A2', 'B1', 'B2']
    """
    key = map_key(s.map)
    entry = _STEPS_CACHE.get(key)
    if entry is None:
        if len(_STEPS_CACHE) > 16:
            _STEPS_CACHE.clear()
        entry = _STEPS_CACHE[key] = {}
    got = entry.get((h, pos))
    if got is None:
        got = entry[(h, pos)] = _steps_from(s, h, pos)
    return got


def cached_step_cost(s: Scenario, from_hex: Hex, from_pos: Position, to_hex: Hex, to_pos: Position) -> MoveCost:
    """:func:`step_cost` looked up among :func:`steps_from` (kept per map); raises
    :class:`StepError` with the full reason when the step is not one. (ASLGW 2.1.3; B10.4, B27, B27.41.)"""
    for st in steps_from(s, from_hex, from_pos):
        if st.to_hex == to_hex and st.to_pos is to_pos:
            return st.cost
    return step_cost(s, from_hex, from_pos, to_hex, to_pos)


def _positions(s: Scenario, h: Hex) -> list[Position]:
    """The positions a hex offers: the ground, and those of its known fortifications."""
    kinds = {f.kind for f in s.map.fortifications_at(h)}
    return [p for p in Position if p.fortification is None or p.fortification in kinds]


def _steps_from(s: Scenario, h: Hex, pos: Position) -> tuple[Step, ...]:
    out: list[Step] = []
    targets: list[tuple[Hex, Position]] = [(h, p) for p in _positions(s, h) if p is not pos]
    for n in sorted(h.neighbours(), key=lambda x: (x.column, x.row)):
        if s.map.contains(n):
            targets.extend((n, p) for p in _positions(s, n))
    for th, tp in targets:
        try:
            out.append(Step(th, tp, step_cost(s, h, pos, th, tp)))
        except (StepError, LocationError):
            continue
    return tuple(out)
