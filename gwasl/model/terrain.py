"""The terrain table (TEM, MF cost, LOS effect of every terrain), from gwasl/resources/terrain.json.

Loaded and validated once; a malformed table raises :class:`TableError`
naming the entry and field.

>>> t = terrain_table()
>>> t[Terrain.WOODS].tem, t[Terrain.WOODS].obstacle_height, t[Terrain.BRUSH].hindrance
(1, 1.0, 1)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Any

from gwasl.model.scenario import FortificationKind, Terrain

__all__ = [
    "RESOURCES",
    "TableError",
    "TerrainInfo",
    "FortificationInfo",
    "terrain_table",
    "fortification_table",
    "load_resource",
]

# The tables are package data (gwasl/resources/), read through importlib.resources
# so an installed wheel finds them wherever it is run from.
RESOURCES: Traversable = files("gwasl.resources")


class TableError(Exception):
    """A rules data table in gwasl/resources/ is missing or malformed."""


def load_resource(name: str) -> Any:
    """Decode ``gwasl/resources/<name>``; :class:`TableError` if missing or not JSON."""
    path = RESOURCES / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TableError(f"rules table {path} is missing") from None
    except (OSError, ValueError) as e:
        raise TableError(f"rules table {path} cannot be read: {e}") from None


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

    @property
    def blocks_los(self) -> bool:
        return self.obstacle_height is not None


@dataclass(frozen=True, slots=True)
class FortificationInfo:
    kind: FortificationKind
    data: Mapping[str, Any]
    rule: str

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


def _need(d: dict, key: str, where: str, types: tuple[type, ...], allow_none: bool = False) -> Any:
    if key not in d:
        raise TableError(f"terrain.json {where}: missing {key!r}")
    v = d[key]
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, types):
        raise TableError(f"terrain.json {where}.{key}: expected {'/'.join(t.__name__ for t in types)}, got {v!r}")
    return v


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
        out[t] = TerrainInfo(t, tem, None if mf is None else float(mf), height, hind, rule)
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
        out[k] = FortificationInfo(k, MappingProxyType(dict(d)), d["rule"])
    missing = [k.value for k in FortificationKind if k not in out]
    if missing:
        raise TableError(f"terrain.json: no fortification entry for {', '.join(missing)}")
    return MappingProxyType(out)
