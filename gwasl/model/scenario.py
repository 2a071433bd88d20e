"""Scenario domain objects: map, terrain, levels, buildings, fortifications,
sides, units, formations and fog-of-war dummies.

Every object is an immutable value.  Edits make a new scenario with
:func:`dataclasses.replace` or the ``with_*`` helpers, which is what lets the
editor's undo stack simply keep old values.  Mappings held by these objects
must be treated as read-only.

The JSON form is ``docs/format/scenario-v1.schema.json``; see
:mod:`gwasl.model.scenario_io` for reading and writing it.  Fields the schema
does not define are kept in each object's ``extra`` so that a load-save
round trip never drops what another tool wrote.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex

# The standard frozen dataclasses, their methods compiled together at the end of the
# module (FrozenBatch: what every command that reads a scenario pays at start-up).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

FORMAT_ID = "gwasl-scenario/1"


def _empty() -> Mapping[Any, Any]:
    """A fresh read-only empty mapping (dataclass default)."""
    return MappingProxyType({})


class Terrain(StrEnum):
    """Terrain of a hex (schema ``$defs/terrain``); rules data in gwasl/resources/terrain.json."""

    OPEN = "open"
    ROAD = "road"
    BRUSH = "brush"
    GRAIN = "grain"
    ORCHARD = "orchard"
    WOODS = "woods"
    SHELLHOLES = "shellholes"
    MARSH = "marsh"
    WOODEN_BUILDING = "wooden_building"
    STONE_BUILDING = "stone_building"
    WOODEN_RUBBLE = "wooden_rubble"
    STONE_RUBBLE = "stone_rubble"
    WATER = "water"


class Front(StrEnum):
    WESTERN = "western"
    EASTERN = "eastern"
    ITALIAN = "italian"
    OTHER = "other"


class Weather(StrEnum):
    CLEAR = "clear"
    MUD = "mud"
    MIST = "mist"
    FOG = "fog"


class FortificationKind(StrEnum):
    TRENCH = "trench"
    DEEP_TRENCH = "deep_trench"
    DUGOUT = "dugout"
    FOXHOLE = "foxhole"
    PILLBOX = "pillbox"
    WIRE = "wire"
    MINEFIELD = "minefield"


class Nationality(StrEnum):
    GERMAN = "german"
    FRENCH = "french"
    BRITISH = "british"
    US = "us"
    RUSSIAN = "russian"
    AUSTRO_HUNGARIAN = "austro_hungarian"
    ITALIAN = "italian"
    BELGIAN = "belgian"


class GasProtection(StrEnum):
    """ASLGW 1.9.11-1.9.12."""

    NONE = "none"
    COTTON_PADS = "cotton_pads"
    MASK = "mask"


class UnitKind(StrEnum):
    SQUAD = "squad"
    HALF_SQUAD = "half_squad"
    LEADER = "leader"
    HERO = "hero"
    CREW = "crew"
    SUPPORT_WEAPON = "support_weapon"


class UnitClass(StrEnum):
    """Squad classes of the ASLGW 1.11 nationality tables."""

    STOSSTRUPPEN = "stosstruppen"
    ELITE = "elite"
    FIRST_LINE = "first_line"
    SECOND_LINE = "second_line"
    LANDWEHR = "landwehr"
    TERRITORIAL = "territorial"


class Position(StrEnum):
    """Where in its hex a unit is (the schema's ``in``).

    >>> Position.DEEP_TRENCH_CREST.fortification
    <FortificationKind.DEEP_TRENCH: 'deep_trench'>
    >>> Position.GROUND.fortification is None
    True
    """

    GROUND = "ground"
    TRENCH = "trench"
    DEEP_TRENCH = "deep_trench"
    DEEP_TRENCH_CREST = "deep_trench_crest"
    DUGOUT = "dugout"
    FOXHOLE = "foxhole"
    PILLBOX = "pillbox"

    @property
    def fortification(self) -> FortificationKind | None:
        """The fortification this position is in, which must be in the hex (B27, ASLGW 2.1-2.2)."""
        if self is Position.GROUND:
            return None
        if self is Position.DEEP_TRENCH_CREST:
            return FortificationKind.DEEP_TRENCH
        return FortificationKind(self.value)


class HiddenStatus(StrEnum):
    """Fog-of-war status at set-up (O'Leary 2.1, 3.1)."""

    NONE = "none"
    CONCEALED = "concealed"
    POTENTIAL_DUMMY = "potential_dummy"
    HIP = "hip"


class FormationKind(StrEnum):
    PLATOON = "platoon"  # ASLGW 1.1: 6 squads
    HALF_PLATOON = "half_platoon"  # ASLGW 1.1: 3 squads
    COMBAT_GROUP = "combat_group"  # ASLGW 1.2.1: 2 squads


class DummyKind(StrEnum):
    DUMMY_STACK = "dummy_stack"  # O'Leary 2.1
    DUMMY_HIP = "dummy_hip"  # O'Leary 3.1
    DUMMY_MINEFIELD = "dummy_minefield"  # O'Leary 4.6.1


_RATING_RE = re.compile(r"^(10|[5-9])([+-])([0-3])$")


class LeaderRatingError(GwaslError):
    """A leader rating that is not morale then a signed modifier, e.g. '8-1'."""


@dataclass(frozen=True, slots=True)
class LeaderRating:
    """A leader's morale and leadership modifier, e.g. ``8-1`` (morale 8, -1 DRM).

    >>> LeaderRating.parse("9-1")
    LeaderRating(morale=9, modifier=-1)
    >>> str(LeaderRating.parse("6+1"))
    '6+1'
    """

    morale: int
    modifier: int

    @classmethod
    def parse(cls, text: str) -> LeaderRating:
        m = _RATING_RE.fullmatch(text) if isinstance(text, str) else None
        if not m:
            raise LeaderRatingError(
                f"leader rating {text!r} is not morale 5-10 then a modifier -3..+3, e.g. '8-1', '9-0', '6+1'"
            )
        sign = -1 if m.group(2) == "-" else 1
        return cls(int(m.group(1)), sign * int(m.group(3)))

    def __str__(self) -> str:
        return f"{self.morale}{'+' if self.modifier > 0 else '-'}{abs(self.modifier)}"


@dataclass(frozen=True, slots=True)
class HexData:
    """What a scenario says about one hex; ``None`` terrain means the map default."""

    terrain: Terrain | None = None
    level: int = 0
    building: str | None = None
    extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Fortification:
    kind: FortificationKind
    hexes: tuple[Hex, ...]
    owner: str | None = None
    ladders: tuple[Hex, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class MapData:
    columns: int
    rows: int
    default_terrain: Terrain = Terrain.OPEN
    hexes: Mapping[Hex, HexData] = field(default_factory=_empty)
    fortifications: tuple[Fortification, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=_empty)

    def contains(self, h: Hex) -> bool:
        return h.on_board(self.columns, self.rows)

    def __iter__(self) -> Iterator[Hex]:
        for c in range(self.columns):
            for r in range(self.rows):
                yield Hex.from_offset(c, r)

    def terrain_at(self, h: Hex) -> Terrain:
        d = self.hexes.get(h)
        return d.terrain if d is not None and d.terrain is not None else self.default_terrain

    def level_at(self, h: Hex) -> int:
        d = self.hexes.get(h)
        return d.level if d is not None else 0

    def building_at(self, h: Hex) -> str | None:
        d = self.hexes.get(h)
        return d.building if d is not None else None

    def fortifications_at(self, h: Hex) -> tuple[Fortification, ...]:
        return tuple(f for f in self.fortifications if h in f.hexes)

    def has_fortification(self, h: Hex, kind: FortificationKind) -> bool:
        return any(f.kind is kind and h in f.hexes for f in self.fortifications)

    def with_hex(self, h: Hex, data: HexData | None) -> MapData:
        """A copy with hex ``h`` set to ``data`` (``None`` removes the entry)."""
        hexes = dict(self.hexes)
        if data is None or data == HexData():
            hexes.pop(h, None)
        else:
            hexes[h] = data
        return replace(self, hexes=MappingProxyType(hexes))


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    nationality: Nationality
    gas_protection: GasProtection | None = None
    hand_grenades: bool | None = None
    extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Unit:
    """A counter on the map: squad, half-squad, leader, hero, crew or support weapon."""

    id: str
    side: str
    kind: UnitKind
    hex: Hex
    unit_class: UnitClass | None = None
    rating: LeaderRating | None = None
    weapon: str | None = None
    position: Position = Position.GROUND
    platoon: str | None = None
    broken: bool = False
    trench_armour: bool = False
    hidden: HiddenStatus = HiddenStatus.NONE
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @property
    def is_mmc(self) -> bool:
        """Multi-man counter: squad, half-squad or crew."""
        return self.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW)

    @property
    def is_smc(self) -> bool:
        """Single-man counter: leader or hero."""
        return self.kind in (UnitKind.LEADER, UnitKind.HERO)

    @property
    def is_infantry(self) -> bool:
        return self.kind is not UnitKind.SUPPORT_WEAPON


@dataclass(frozen=True, slots=True)
class Formation:
    """A platoon, half-platoon or combat group (ASLGW 1.1, 1.2)."""

    id: str
    kind: FormationKind
    leader: str | None = None
    extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Dummy:
    """A fog-of-war dummy placed at set-up (O'Leary 2.1, 3.1, 4.6.1)."""

    side: str
    kind: DummyKind
    hex: Hex
    counters: int | None = None
    extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A whole scenario: the value the editor edits and a game starts from."""

    title: str
    date: _dt.date
    map: MapData
    sides: Mapping[str, Side]
    units: tuple[Unit, ...] = ()
    formations: tuple[Formation, ...] = ()
    dummies: tuple[Dummy, ...] = ()
    id: str | None = None
    front: Front = Front.WESTERN
    weather: Weather = Weather.CLEAR
    winter: bool = False
    night: bool = False
    extra: Mapping[str, Any] = field(default_factory=_empty)

    # -- look-ups ---------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def units_of(self, side: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == side)

    def units_at(self, h: Hex) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.hex == h)

    def formation(self, formation_id: str) -> Formation:
        for f in self.formations:
            if f.id == formation_id:
                return f
        raise KeyError(formation_id)

    def members(self, formation_id: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.platoon == formation_id)

    def enemy_sides(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s != side)

    # -- edits (return new scenarios) ---------------------------------------------
    def with_units(self, units: Iterable[Unit]) -> Scenario:
        return replace(self, units=tuple(units))

    def with_unit(self, unit: Unit) -> Scenario:
        """Replace the unit with ``unit.id``, or append it if new."""
        units = list(self.units)
        for i, u in enumerate(units):
            if u.id == unit.id:
                units[i] = unit
                break
        else:
            units.append(unit)
        return replace(self, units=tuple(units))

    def without_unit(self, unit_id: str) -> Scenario:
        return replace(self, units=tuple(u for u in self.units if u.id != unit_id))

    def with_map(self, map_data: MapData) -> Scenario:
        return replace(self, map=map_data)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
