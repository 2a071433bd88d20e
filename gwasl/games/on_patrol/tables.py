"""The On Patrol data tables (data/base.json, data/ships.json), validated at load.

Every row carries ``source`` (``harmon``, ``designer-ruling``, ``derived`` or
``stand-in``) and ``rule``; :func:`stand_ins` lists the stand-in rows for the
docs and the game's window.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gwasl.engine.game import GameError

__all__ = [
    "SOURCES",
    "Band",
    "ShipClass",
    "SubClass",
    "OnPatrolTableError",
    "TableError",
    "Tables",
    "TorpedoType",
    "load_tables",
    "tables",
]

DATA = Path(__file__).resolve().parent / "data"
SOURCES = frozenset({"harmon", "designer-ruling", "derived", "stand-in"})


class OnPatrolTableError(GameError):
    """An On Patrol data table is missing or malformed."""


#: the name the game's modules import
TableError = OnPatrolTableError


@dataclass(frozen=True, slots=True)
class Band:
    """A row of a die-roll table: ``low..high`` gives ``result`` (and a number)."""

    low: int
    high: int
    result: str
    value: int


@dataclass(frozen=True, slots=True)
class ShipClass:
    cls: str
    name: str
    kind: str  # merchant, capital, escort
    type: str
    nation: str
    max_speed: int
    hit_points: int
    vp: int
    guns: int
    sonar: bool
    radar_from: int | None
    dc: int
    kguns: int
    hedgehog_from: int | None
    squid_from: int | None
    mk_x: bool


@dataclass(frozen=True, slots=True)
class SubClass:
    cls: str
    name: str
    nation: str
    surface_speed: int
    submerged_speed: int
    emergency_speed: int
    max_depth: int
    bow_tubes: int
    stern_tubes: int
    reloads: int
    hull: int
    vp: int
    torpedoes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TorpedoType:
    type: str
    name: str
    nation: str
    year_from: int
    speed: int
    range: int
    warhead: int
    duds: tuple[tuple[int, int], ...]  # (last year, dud on a die of this or less)

    def dud_on(self, year: int) -> int:
        for last, on in self.duds:
            if year <= last:
                return on
        return self.duds[-1][1]


@dataclass(frozen=True)
class Tables:
    constants: Mapping[str, int]
    fleet_movement: Mapping[str, tuple[int, bool, tuple[str, ...]]]
    depth_combat: tuple[Band, ...]
    escort_action: Mapping[int, Mapping[str, Any]]
    formations: Mapping[int, tuple[tuple[tuple[str, int], ...], int]]
    formation_by_ships: tuple[tuple[int, int, tuple[int, ...]], ...]
    sonar: tuple[tuple[int, int], ...]
    sonar_drm: Mapping[str, int]
    radar: tuple[tuple[int, int, int], ...]
    night_visual: tuple[tuple[int, int, int], ...]
    sub_visibility: tuple[tuple[int, int, int], ...]
    attack: tuple[Band, ...]
    attack_drm: Mapping[str, int]
    hedgehog: Mapping[str, int]
    gunfire: tuple[tuple[int, int], ...]
    prolonged_attack: tuple[Band, ...]
    surface: Mapping[str, ShipClass]
    submarines: Mapping[str, SubClass]
    torpedoes: Mapping[str, TorpedoType]
    rows: tuple[Mapping[str, Any], ...]  # every row with its table name, for the stand-in list

    def c(self, name: str) -> int:
        """A constant of data/base.json by name."""
        try:
            return self.constants[name]
        except KeyError:
            raise TableError(f"data/base.json has no constant {name!r}") from None


def _read(name: str) -> dict[str, Any]:
    path = DATA / name
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TableError(f"On Patrol data table {name} is missing") from None
    except (OSError, ValueError) as e:
        raise TableError(f"On Patrol data table {name} is not valid JSON: {e}") from None
    if not isinstance(obj, dict):
        raise TableError(f"On Patrol data table {name} must be an object")
    return obj


def _rows(obj: dict[str, Any], file: str, table: str, fields: Mapping[str, type | tuple[type, ...]]) -> list[dict[str, Any]]:
    rows = obj.get(table)
    if not isinstance(rows, list) or not rows:
        raise TableError(f"{file}: table {table!r} must be a non-empty list")
    for i, row in enumerate(rows):
        where = f"{file}: {table}[{i}]"
        if not isinstance(row, dict):
            raise TableError(f"{where} must be an object")
        if row.get("source") not in SOURCES:
            raise TableError(f"{where}.source must be one of {sorted(SOURCES)}")
        if not isinstance(row.get("rule"), str) or not row["rule"]:
            raise TableError(f"{where}.rule must name the rule the number comes from")
        for k, tp in fields.items():
            v = row.get(k)
            if not isinstance(v, tp) or (isinstance(v, bool) and tp is int):
                raise TableError(f"{where}.{k} must be {getattr(tp, '__name__', tp)}, not {v!r}")
    return rows


def _bands(rows: list[dict[str, Any]], value: str, where: str) -> tuple[Band, ...]:
    out = tuple(Band(r["low"], r["high"], r["result"], int(r[value]) if r.get(value) is not None else -1) for r in rows)
    for a, b in itertools.pairwise(out):
        if b.low <= a.high:
            raise TableError(f"{where}: bands {a.low}-{a.high} and {b.low}-{b.high} overlap")
    return out


def load_tables(base: dict[str, Any] | None = None, ships: dict[str, Any] | None = None) -> Tables:
    """Read and check both tables (the arguments replace the files, for tests).

    The tables of On Patrol: convoy formations (103.1 chart), the Escort Action Table (104.2.1), the Fleet
    Movement Table (104.3.1), the Depth Combat Table (105.4.12), and gwasl's stand-ins, each row with its source
    and rule."""
    b = base if base is not None else _read("base.json")
    s = ships if ships is not None else _read("ships.json")
    allrows: list[Mapping[str, Any]] = []

    def rows(obj: dict[str, Any], file: str, table: str, fields: Mapping[str, Any]) -> list[dict[str, Any]]:
        r = _rows(obj, file, table, fields)
        allrows.extend({"table": table, **x} for x in r)
        return r

    consts = {r["name"]: r["value"] for r in rows(b, "base.json", "constants", {"name": str, "value": int})}
    fleet = {r["convoy"]: (r["speed"], r["advanced"], tuple(r["codes"]))
             for r in rows(b, "base.json", "fleet_movement", {"convoy": str, "speed": int, "advanced": bool, "codes": list})}
    for name, (_, _, codes) in fleet.items():
        if len(codes) != 6:
            raise TableError(f"base.json: fleet_movement {name} needs six codes (one per die face)")
    dct = _bands(rows(b, "base.json", "depth_combat", {"low": int, "high": int, "result": str}), "offset", "depth_combat")
    eat = {r["mode"]: r for r in rows(b, "base.json", "escort_action", {"mode": int, "marker": str, "movement": str, "speed": str, "text": str})}
    forms: dict[int, tuple[tuple[tuple[str, int], ...], int]] = {}
    for r in rows(b, "base.json", "formations", {"formation": int, "leaders": list, "direction": int}):
        leaders = tuple((str(lab), int(n)) for lab, n in r["leaders"])
        if not 1 <= r["direction"] <= 6:
            raise TableError(f"base.json: formation {r['formation']} direction must be 1-6")
        forms[r["formation"]] = (leaders, r["direction"])
    fbs = tuple((r["low"], r["high"], tuple(r["formations"]))
                for r in rows(b, "base.json", "formation_by_ships", {"low": int, "high": int, "formations": list}))
    for _, _, fs in fbs:
        for f in fs:
            if f not in forms:
                raise TableError(f"base.json: formation_by_ships names unknown formation {f}")
    sonar = tuple((r["max_range"], r["target"]) for r in rows(b, "base.json", "sonar", {"max_range": int, "target": int}))
    sonar_drm = {r["cause"]: r["value"] for r in rows(b, "base.json", "sonar_drm", {"cause": str, "value": int})}
    radar = tuple((r["depth"], r["max_range"], r["target"]) for r in rows(b, "base.json", "radar", {"depth": int, "max_range": int, "target": int}))
    night = tuple((r["depth"], r["max_range"], r["target"]) for r in rows(b, "base.json", "night_visual", {"depth": int, "max_range": int, "target": int}))
    subvis = tuple((r["max_depth"], r["day"], r["night"]) for r in rows(b, "base.json", "sub_visibility", {"max_depth": int, "day": int, "night": int}))
    attack = _bands(rows(b, "base.json", "attack", {"low": int, "high": int, "result": str, "damage": int}), "damage", "attack")
    attack_drm = {r["name"]: r["value"] for r in rows(b, "base.json", "attack_drm", {"name": str, "value": int})}
    hedgehog = {r["name"]: r["value"] for r in rows(b, "base.json", "hedgehog", {"name": str, "value": int})}
    gunfire = tuple((r["max_range"], r["target"]) for r in rows(b, "base.json", "gunfire", {"max_range": int, "target": int}))
    prolonged = _bands(rows(b, "base.json", "prolonged_attack", {"low": int, "high": int, "result": str, "damage": int}), "damage", "prolonged_attack")

    opt_int = (int, type(None))
    surface = {}
    for r in rows(s, "ships.json", "surface", {"class": str, "name": str, "kind": str, "type": str, "nation": str,
                                              "max_speed": int, "hit_points": int, "vp": int, "guns": int, "sonar": bool,
                                              "radar_from": opt_int, "dc": int, "kguns": int, "hedgehog_from": opt_int,
                                              "squid_from": opt_int, "mk_x": bool}):
        if r["kind"] not in ("merchant", "capital", "escort"):
            raise TableError(f"ships.json: class {r['class']}: kind must be merchant, capital or escort")
        surface[r["class"]] = ShipClass(r["class"], r["name"], r["kind"], r["type"], r["nation"], r["max_speed"],
                                        r["hit_points"], r["vp"], r["guns"], r["sonar"], r["radar_from"], r["dc"],
                                        r["kguns"], r["hedgehog_from"], r["squid_from"], r["mk_x"])
    torps = {}
    for r in rows(s, "ships.json", "torpedoes", {"type": str, "name": str, "nation": str, "from": int, "speed": int,
                                                "range": int, "warhead": int, "duds": list}):
        duds = tuple((int(d["to"]), int(d["on"])) for d in r["duds"])
        torps[r["type"]] = TorpedoType(r["type"], r["name"], r["nation"], r["from"], r["speed"], r["range"], r["warhead"], duds)
    subs = {}
    for r in rows(s, "ships.json", "submarines", {"class": str, "name": str, "nation": str, "surface_speed": int,
                                                 "submerged_speed": int, "emergency_speed": int, "max_depth": int,
                                                 "bow_tubes": int, "stern_tubes": int, "reloads": int, "hull": int,
                                                 "vp": int, "torpedoes": list}):
        for t in r["torpedoes"]:
            if t not in torps:
                raise TableError(f"ships.json: submarine {r['class']} names unknown torpedo {t!r}")
        subs[r["class"]] = SubClass(r["class"], r["name"], r["nation"], r["surface_speed"], r["submerged_speed"],
                                    r["emergency_speed"], r["max_depth"], r["bow_tubes"], r["stern_tubes"], r["reloads"],
                                    r["hull"], r["vp"], tuple(r["torpedoes"]))
    t = Tables(consts, fleet, dct, eat, forms, fbs, sonar, sonar_drm, radar, night, subvis, attack, attack_drm,
               hedgehog, gunfire, prolonged, surface, subs, torps, tuple(allrows))
    for need in ("search_speed", "assault_zone_radius", "diameter", "inner_diameter", "board_columns", "board_rows"):
        t.c(need)
    return t


@lru_cache(maxsize=1)
def tables() -> Tables:
    """The package's tables, loaded once. (On Patrol 103.1, 104.2.1, 104.3.1, 105.4.12.)"""
    return load_tables()


def stand_ins() -> list[dict[str, Any]]:
    """Every stand-in row (table, what, rule): the numbers that are gwasl's, not Avalon Hill's."""
    out = []
    for r in tables().rows:
        if r["source"] == "stand-in":
            what = r.get("name") or r.get("class") or r.get("type") or r.get("cause") or r.get("formation") or r.get("max_range") or r.get("low")
            out.append({"table": r["table"], "what": str(what), "rule": r["rule"]})
    return out
