"""On Patrol scenario files (docs/format/on-patrol.md): reading, checking, placing.

A bad file gets one :class:`ScenarioError` naming the field and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gwasl.engine.game import GameError
from gwasl.games.on_patrol.formation import (
    Layout,
    capital_slots,
    escort_stations,
    layout,
)
from gwasl.games.on_patrol.geometry import DIRS, Pose, heading_from_harmon
from gwasl.games.on_patrol.state import PatrolState, Ship, Sub
from gwasl.games.on_patrol.tables import Tables
from gwasl.model.hexgrid import Hex, HexLabelError

__all__ = ["BUNDLED", "PatrolScenarioError", "ScenarioError", "bundled", "load_bundled", "parse", "place_convoy"]

BUNDLED_DIR = Path(__file__).resolve().parent / "scenarios"
BUNDLED = ("day-convoy", "night-convoy", "hunter-group")
FORMAT = "gwasl-on-patrol"


class PatrolScenarioError(GameError):
    """An On Patrol scenario that cannot be played: names the field and the problem."""


#: the name the game's modules import
ScenarioError = PatrolScenarioError


def bundled() -> list[str]:
    return sorted(p.stem for p in BUNDLED_DIR.glob("*.json"))


def load_bundled(name: str) -> dict[str, Any]:
    path = BUNDLED_DIR / f"{name}.json"
    try:
        obj: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError(f"no bundled On Patrol patrol {name!r} (bundled: {', '.join(bundled())})") from None
    return obj


def _get(obj: Mapping[str, Any], key: str, tp: type | tuple[type, ...], path: str, default: Any = ...) -> Any:
    if key not in obj:
        if default is ...:
            raise ScenarioError(f"{path}.{key}: missing")
        return default
    v = obj[key]
    if not isinstance(v, tp) or (isinstance(v, bool) and tp is int):
        name = tp.__name__ if isinstance(tp, type) else " or ".join(t.__name__ for t in tp)
        raise ScenarioError(f"{path}.{key}: expected {name}, got {type(v).__name__}")
    return v


def _hex(label: Any, path: str, cols: int, rows: int) -> Hex:
    try:
        h = Hex.from_label(label)
    except HexLabelError as e:
        raise ScenarioError(f"{path}: {e}") from None
    if not h.on_board(cols, rows):
        raise ScenarioError(f"{path}: {label} is off the {cols}x{rows} board")
    return h


def _heading(v: Any, path: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
        raise ScenarioError(f"{path}: a heading is 1-6 (Harmon's numbering; 6 is north)")
    return heading_from_harmon(v)


def _ship(t: Tables, spec: Any, path: str, kinds: tuple[str, ...], year: int, nation: str | None) -> Ship:
    if not isinstance(spec, dict):
        raise ScenarioError(f"{path}: expected an object")
    sid = _get(spec, "id", str, path)
    cls = _get(spec, "class", str, path)
    c = t.surface.get(cls)
    if c is None:
        raise ScenarioError(f"{path}.class: unknown ship class {cls!r} (known: {', '.join(sorted(t.surface))})")
    if c.kind not in kinds:
        raise ScenarioError(f"{path}.class: {cls} is a {c.kind}, not a {' or '.join(kinds)}")
    name = _get(spec, "name", str, path, c.name)
    nat = _get(spec, "nation", str, path, nation or c.nation)
    if c.nation != "any" and nat != c.nation:
        raise ScenarioError(f"{path}.nation: the {cls} class is {c.nation}'s, not {nat}'s")
    return Ship(sid, name, cls, c.kind, c.type, nat, c.vp, c.hit_points, c.max_speed, Pose(Hex(0, 0), 0))


def parse(t: Tables, src: Mapping[str, Any], secret: frozenset[str] = frozenset()) -> PatrolState:
    """The state before placement (ships are placed by ``begin``: 103.1.2 may roll a die)."""
    if not isinstance(src, Mapping):
        raise ScenarioError("an On Patrol scenario must be a JSON object")
    src = _plain(src)
    if src.get("format", FORMAT) != FORMAT:
        raise ScenarioError(f"format: expected {FORMAT!r}, got {src.get('format')!r}")
    if _get(src, "version", int, "scenario", 1) > 1:
        raise ScenarioError("version: this scenario is newer than this gwasl understands")
    title = _get(src, "title", str, "scenario", "On Patrol")
    year = _get(src, "year", int, "scenario")
    if not 1939 <= year <= 1945:
        raise ScenarioError("scenario.year: On Patrol's data cover 1939-1945")
    night = _get(src, "night", bool, "scenario", False)
    turns = _get(src, "turns", int, "scenario", t.c("default_turns"))
    if not 1 <= turns <= 500:
        raise ScenarioError("scenario.turns: 1-500")
    board = _get(src, "board", dict, "scenario", {})
    cols = _get(board, "columns", int, "scenario.board", t.c("board_columns"))
    rows = _get(board, "rows", int, "scenario.board", t.c("board_rows"))
    if not (20 <= cols <= 200 and 20 <= rows <= 200):
        raise ScenarioError("scenario.board: columns and rows must be 20-200")
    ships: list[Ship] = []
    convoy = _get(src, "convoy", dict, "scenario", None)
    fleet = "fast-2"
    if convoy is not None:
        fleet = _get(convoy, "speed", str, "scenario.convoy", "slow-1")
        for i, m in enumerate(_get(convoy, "merchants", list, "scenario.convoy", [])):
            ships.append(_ship(t, m, f"scenario.convoy.merchants[{i}]", ("merchant",), year, None))
        for i, m in enumerate(_get(convoy, "capital_ships", list, "scenario.convoy", [])):
            ships.append(_ship(t, m, f"scenario.convoy.capital_ships[{i}]", ("capital",), year, None))
        if not ships:
            raise ScenarioError("scenario.convoy: a convoy needs merchants or capital ships")
    else:
        fleet = "fast-3" if _get(src, "advanced", bool, "scenario", False) else "fast-2"
    if fleet not in t.fleet_movement or fleet == "emergency":
        raise ScenarioError(f"scenario.convoy.speed: one of {', '.join(k for k in t.fleet_movement if k != 'emergency')}")
    escorts = _get(src, "escorts", list, "scenario", [])
    for i, e in enumerate(escorts):
        s = _ship(t, e, f"scenario.escorts[{i}]", ("escort",), year, None)
        if convoy is None:
            bow = _hex(_get(e, "bow", str, f"scenario.escorts[{i}]"), f"scenario.escorts[{i}].bow", cols, rows)
            s = Ship(**{**{f: getattr(s, f) for f in s.__dataclass_fields__}, "pose": Pose(bow, _heading(e.get("heading"), f"scenario.escorts[{i}].heading"))})
        ships.append(s)
    if convoy is None and not escorts:
        raise ScenarioError("scenario: a patrol needs a convoy or escorts")
    ids = [s.id for s in ships]
    subs_src = _get(src, "submarines", list, "scenario")
    if not 1 <= len(subs_src) <= 3:
        raise ScenarioError("scenario.submarines: one to three submarines (104.2.1: double and triple contacts)")
    subs = []
    for i, spec in enumerate(subs_src):
        path = f"scenario.submarines[{i}]"
        if not isinstance(spec, dict):
            raise ScenarioError(f"{path}: expected an object")
        sid = _get(spec, "id", str, path)
        ids.append(sid)
        cls = _get(spec, "class", str, path)
        c = t.submarines.get(cls)
        if c is None:
            raise ScenarioError(f"{path}.class: unknown submarine class {cls!r} (known: {', '.join(sorted(t.submarines))})")
        bow = _hex(_get(spec, "bow", str, path), f"{path}.bow", cols, rows)
        heading = _heading(spec.get("heading"), f"{path}.heading")
        depth = _get(spec, "depth", int, path, 50)
        if depth % t.c("depth_step") or not 0 <= depth <= c.max_depth:
            raise ScenarioError(f"{path}.depth: 0-{c.max_depth} feet in steps of 25")
        avail = [tp for tp in c.torpedoes if t.torpedoes[tp].year_from <= year]
        if not avail:
            raise ScenarioError(f"{path}: no torpedo of the {cls} is available in {year} (102.5)")
        tubes = _get(spec, "tubes", list, path, [avail[0]] * (c.bow_tubes + c.stern_tubes))
        if len(tubes) != c.bow_tubes + c.stern_tubes or any(tp not in avail for tp in tubes):
            raise ScenarioError(f"{path}.tubes: {c.bow_tubes + c.stern_tubes} torpedoes, each one of {', '.join(avail)} (102.5)")
        name = _get(spec, "name", str, path, c.name)
        subs.append(Sub(sid, name, cls, c.nation, c.vp, Pose(bow, heading), depth, c.hull, tuple(tubes), c.bow_tubes,
                        c.reloads, emergency_left=t.c("emergency_turns")))
    if len(set(ids)) != len(ids):
        dup = next(x for x in ids if ids.count(x) > 1)
        raise ScenarioError(f"scenario: id {dup!r} is used twice")
    vic = _get(src, "victory", dict, "scenario", {"marginal": 8, "substantial": 16, "decisive": 30})
    victory = {}
    for k in ("marginal", "substantial", "decisive"):
        victory[k] = _get(vic, k, int, "scenario.victory")
    if not victory["marginal"] <= victory["substantial"] <= victory["decisive"]:
        raise ScenarioError("scenario.victory: marginal <= substantial <= decisive")
    contact = _get(src, "contact", (bool, str), "scenario", False)
    if isinstance(contact, str) and contact != "lost":
        raise ScenarioError('scenario.contact: true (contact made), false (none) or "lost" (contact lost where the boat starts)')
    return PatrolState(MappingProxyType({"contact": contact, "lead_row": convoy.get("lead_row") if convoy else None,
                                         "formation": convoy.get("formation") if convoy else None,
                                         "description": src.get("description", "") if isinstance(src.get("description", ""), str) else ""}),
                       title, year, night, turns, cols, rows, fleet, tuple(ships), tuple(subs), MappingProxyType(victory), secret)


def _plain(v: Any) -> Any:
    """A scenario as plain dicts and lists (a journal hands it back frozen)."""
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def place_convoy(t: Tables, state: PatrolState, formation: int) -> tuple[Layout, list[tuple[Ship, Pose, str]]]:
    """103.1, 103.2, 103.3: the formation's slots for the convoy (capital ships first, by
    VP, in 103.3.2's order; merchants in the rest, front rows first, centre outwards), then
    the escorts on 103.2's stations by VP.  The whole convoy is moved ahead or astern along
    its heading as far as needed for every counter to be on the board."""
    convoy = [s for s in state.ships if s.kind in ("merchant", "capital")]
    escorts = sorted((s for s in state.ships if s.kind == "escort"), key=lambda s: (-s.vp, s.id))
    lead_row = state.scenario.get("lead_row")
    lay = layout(t, formation, len(convoy), state.columns // 2, lead_row if isinstance(lead_row, int) else None)
    rows = [len(c) for c in lay.columns]
    capitals = sorted((s for s in convoy if s.kind == "capital"), key=lambda s: (-s.vp, s.id))
    merchants = [s for s in convoy if s.kind == "merchant"]
    cap_slots = capital_slots(len(rows), rows, len(capitals))
    centre = (len(rows) - 1) // 2
    order = [centre] + [c for k in range(1, len(rows)) for c in (centre - k, centre + k) if 0 <= c < len(rows)]
    free = [(c, r) for r in range(max(rows)) for c in order if r < rows[c] and (c, r) not in cap_slots]
    placed: list[tuple[Ship, Pose, str]] = []
    for s, (c, r) in zip(capitals, cap_slots, strict=False):
        placed.append((s, Pose(lay.columns[c][r], lay.heading), f"column {c + 1} row {r + 1}"))
    for s, (c, r) in zip(merchants, free, strict=False):
        placed.append((s, Pose(lay.columns[c][r], lay.heading), f"column {c + 1} row {r + 1}"))
    for s, (name, pose) in zip(escorts, escort_stations(lay, len(escorts), t.c("station_side"), t.c("station_gap")), strict=True):
        placed.append((s, pose, f"station {name}"))
    shift = _fit(state, [p for _, p, _ in placed], lay.heading)
    if shift is None:
        raise ScenarioError(f"the convoy in formation {formation} with its escorts does not fit on the {state.columns}x{state.rows} board")
    d = DIRS[lay.heading]
    move = Hex(d.q * shift, d.r * shift)
    return lay, [(s, Pose(p.bow + move, p.heading), st) for s, p, st in placed]


def _fit(state: PatrolState, poses: list[Pose], heading: int) -> int | None:
    d = DIRS[heading]
    for k in sorted(range(-60, 61), key=lambda k: (abs(k), k)):
        v = Hex(d.q * k, d.r * k)
        if all(state.on_board(h + v) for p in poses for h in p.hexes()):
            return k
    return None
