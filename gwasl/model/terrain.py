"""The terrain table (TEM, MF cost, LOS effect of every terrain), from gwasl/resources/terrain.json.

Loaded and validated once; a malformed table raises :class:`TableError`
naming the entry and field.

>>> t = terrain_table()
>>> t[Terrain.WOODS].tem, t[Terrain.WOODS].obstacle_height, t[Terrain.BRUSH].hindrance
(1, 1.0, 1)
>>> t[Terrain.STONE_RUBBLE].holds_building_id, t[Terrain.MARSH].allows_entrenchment
(True, False)
>>> fortification_table()[FortificationKind.PILLBOX].position
<Position.PILLBOX: 'pillbox'>
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import FortificationKind, Position, Terrain

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = [
    "RESOURCES",
    "TableError",
    "TerrainInfo",
    "FortificationInfo",
    "terrain_table",
    "fortification_table",
    "load_resource",
]

# The tables are package data (gwasl/resources/), read through the package's own loader
# (what importlib.resources and pkgutil.get_data read through) so an installed wheel
# finds them wherever it is run from.  ``RESOURCES``, the folder as importlib.resources
# sees it, is made when first asked for: importlib.resources and the zip readers it
# imports cost every command 15-20 ms at start-up (issue 23 item 8).
RESOURCES: Traversable


def __getattr__(name: str) -> Any:
    if name == "RESOURCES":
        from importlib.resources import files

        value = globals()["RESOURCES"] = files("gwasl.resources")
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class TableError(GwaslError):
    """A rules data table in gwasl/resources/ is missing or malformed."""


def load_resource(name: str) -> Any:
    """Decode ``gwasl/resources/<name>``; :class:`TableError` if missing or not JSON."""
    held = globals().get("RESOURCES")  # asked for (or pointed elsewhere): read through it
    path: Any
    if held is not None:
        path = held / name
    else:
        import gwasl.resources as package

        path = os.path.join(os.path.dirname(package.__file__ or ""), name)
    try:
        if held is not None:
            text = path.read_text(encoding="utf-8")
        else:
            loader: Any = package.__spec__.loader
            text = loader.get_data(path).decode("utf-8")
        return json.loads(text)
    except FileNotFoundError:
        raise TableError(f"rules table {path} is missing") from None
    except (OSError, ValueError) as e:
        raise TableError(f"rules table {path} cannot be read: {e}") from None


# Frozen dataclasses whose generated methods are compiled together and cached
# (FrozenBatch: what every command pays at start-up, issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass


@dataclass(frozen=True, slots=True)
class TerrainInfo:
    """Rules data of one terrain type.

    ``mf`` is the infantry MF cost to enter (``None``: infantry may not
    enter); ``obstacle_height`` the height in levels above the hex's ground
    of a LOS obstacle (``None``: not an obstacle); ``hindrance`` the LOS
    hindrance DRM it adds per hex crossed (0: none).
    """

    terrain: Terrain
    tem: int
    mf: float | None
    obstacle_height: float | None
    hindrance: int
    rule: str
    flags: frozenset[str] = frozenset()

    @property
    def blocks_los(self) -> bool:
        return self.obstacle_height is not None

    @property
    def is_building(self) -> bool:
        """B23: a building hex."""
        return "building" in self.flags

    @property
    def is_rubble(self) -> bool:
        """B24: rubble."""
        return "rubble" in self.flags

    @property
    def holds_building_id(self) -> bool:
        """A26.14: building and rubble hexes carry the id of the building they are (or were)."""
        return self.is_building or self.is_rubble

    @property
    def open_ground(self) -> bool:
        """Open Ground for concealment loss (O'Leary 2.4, ASLGW 1.7.2, A12.121)."""
        return "open_ground" in self.flags

    @property
    def allows_fortification(self) -> bool:
        """O'Leary 4.2: a fortification could be set up here (not in water, B21)."""
        return "no_fortification" not in self.flags

    @property
    def allows_entrenchment(self) -> bool:
        """B27.1: a trench, deep trench, dugout or foxhole can be dug here."""
        return "no_entrenchment" not in self.flags

    @property
    def allows_emplacement(self) -> bool:
        """O'Leary 2.3 (A12.34, C11.2): a gun may be emplaced here."""
        return "no_emplacement" not in self.flags


@dataclass(frozen=True, slots=True)
class FortificationInfo:
    """Rules data of one fortification kind: ``position``, the schema position of a unit
    inside it (None: nobody is inside it); ``dug``, an entrenchment (B27.1);
    ``covered_arc``, it has a CA (O'Leary 4.4); ``data`` every number of its row."""

    kind: FortificationKind
    data: Mapping[str, Any]
    rule: str
    position: Position | None = None
    dug: bool = False
    covered_arc: bool = False

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


def _need(d: dict[str, Any], key: str, where: str, types: tuple[type, ...], allow_none: bool = False) -> Any:
    if key not in d:
        raise TableError(f"terrain.json {where}: missing {key!r}")
    v = d[key]
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, types):
        raise TableError(f"terrain.json {where}.{key}: expected {'/'.join(t.__name__ for t in types)}, got {v!r}")
    return v


def _flag_names(doc: dict[str, Any]) -> frozenset[str]:
    names = doc.get("terrain_flags")
    if not isinstance(names, dict) or not all(isinstance(v, str) and v for v in names.values()):
        raise TableError("terrain.json: 'terrain_flags' must map each flag to the rule it comes from")
    return frozenset(names)


def _parse_terrain(doc: Any) -> Mapping[Terrain, TerrainInfo]:
    if not isinstance(doc, dict) or not isinstance(doc.get("terrain"), dict):
        raise TableError("terrain.json: no 'terrain' object")
    rows = doc["terrain"]
    out: dict[Terrain, TerrainInfo] = {}
    for name, d in rows.items():
        where = f"terrain.{name}"
        try:
            t = Terrain(name)
        except ValueError:
            raise TableError(f"terrain.json {where}: {name!r} is not a terrain of the scenario schema") from None
        if not isinstance(d, dict):
            raise TableError(f"terrain.json {where}: expected an object")
        tem = _need(d, "tem", where, (int,))
        mf = _need(d, "mf", where, (int, float), allow_none=True)
        los = _need(d, "los", where, (dict,))
        kind = los.get("kind")
        height = None
        hind = 0
        if kind == "obstacle":
            height = float(_need(los, "height", f"{where}.los", (int, float)))
            if height <= 0:
                raise TableError(f"terrain.json {where}.los.height must be > 0")
        elif kind == "hindrance":
            hind = _need(los, "drm", f"{where}.los", (int,))
            if hind <= 0:
                raise TableError(f"terrain.json {where}.los.drm must be > 0")
        elif kind != "clear":
            raise TableError(f"terrain.json {where}.los.kind must be clear, hindrance or obstacle, not {kind!r}")
        rule = _need(d, "rule", where, (str,))
        flags = _need(d, "flags", where, (list,))
        unknown = [f for f in flags if f not in _flag_names(doc)]
        if unknown:
            raise TableError(f"terrain.json {where}.flags: {unknown!r} not among terrain_flags ({', '.join(sorted(_flag_names(doc)))})")
        out[t] = TerrainInfo(t, tem, None if mf is None else float(mf), height, hind, rule, frozenset(flags))
    missing = [t.value for t in Terrain if t not in out]
    if missing:
        raise TableError(f"terrain.json: no entry for {', '.join(missing)}")
    return MappingProxyType(out)


@lru_cache(maxsize=1)
def terrain_table() -> Mapping[Terrain, TerrainInfo]:
    """Every terrain's :class:`TerrainInfo`, loaded and validated once."""
    return _parse_terrain(load_resource("terrain.json"))


@lru_cache(maxsize=1)
def fortification_table() -> Mapping[FortificationKind, FortificationInfo]:
    """Each fortification kind's rules data (TEM, MF, stacking) from terrain.json."""
    doc = load_resource("terrain.json")
    rows = doc.get("fortifications") if isinstance(doc, dict) else None
    if not isinstance(rows, dict):
        raise TableError("terrain.json: no 'fortifications' object")
    out = {}
    for name, d in rows.items():
        try:
            k = FortificationKind(name)
        except ValueError:
            raise TableError(f"terrain.json fortifications.{name}: not a fortification kind of the schema") from None
        if not isinstance(d, dict) or not isinstance(d.get("rule"), str):
            raise TableError(f"terrain.json fortifications.{name}: needs an object with a 'rule'")
        where = f"fortifications.{name}"
        pos = _need(d, "position", where, (str,), allow_none=True)
        try:
            position = None if pos is None else Position(pos)
        except ValueError:
            raise TableError(f"terrain.json {where}.position: {pos!r} is not a position of the scenario schema") from None
        if position is not None and position.fortification is not k:
            raise TableError(f"terrain.json {where}.position: a unit in {pos!r} is not inside a {name}")
        flags = []
        for key in ("dug", "covered_arc"):
            if not isinstance(d.get(key), bool):
                raise TableError(f"terrain.json {where}.{key}: expected true/false, got {d.get(key)!r}")
            flags.append(d[key])
        out[k] = FortificationInfo(k, MappingProxyType(dict(d)), d["rule"], position, flags[0], flags[1])
    missing = [k.value for k in FortificationKind if k not in out]
    if missing:
        raise TableError(f"terrain.json: no fortification entry for {', '.join(missing)}")
    return MappingProxyType(out)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
