"""The Combined Arms data tables, read from the JSON files beside this module
and validated at load (Sabin, "The Playing Board", "The Units").

* ``board.json``: the row widths, the central road's path, corner names and
  the mortar scatter numbering;
* ``terrain.json``: the 2-dice terrain table and what each terrain does.

A damaged table raises :class:`TableError` naming the file and the field.

>>> TERRAIN_BY_DICE[9], TERRAIN_BY_DICE[7]
('crest', 'open')
>>> TERRAIN["wooded_crest"].blocks_fire and not TERRAIN["wooded_crest"].armour_may_enter
True
"""

from __future__ import annotations

import itertools
import json
import os
from dataclasses import dataclass
from typing import Any

from gwasl.engine.game import GameError
from gwasl.model.hexgrid import Hex

__all__ = [
    "BOARD_DATA",
    "CORNER_NAMES",
    "ROAD_OFF_BOTTOM",
    "ROAD_OFF_TOP",
    "ROAD_PATH",
    "ROW_WIDTHS",
    "SCATTER_CORNER",
    "TERRAIN",
    "TERRAIN_BY_DICE",
    "CombinedArmsTableError",
    "TableError",
    "Terrain",
    "load_board",
    "load_terrain",
]


class CombinedArmsTableError(GameError):
    """A Combined Arms data table that is missing, damaged or inconsistent."""


#: the name the game's modules import
TableError = CombinedArmsTableError


@dataclass(frozen=True, slots=True)
class Terrain:
    """What one terrain does (terrain.json cites the section of each effect)."""

    id: str
    name: str
    blocks_fire: bool
    defensive: bool
    cover: bool
    hull_down: bool
    armour_may_enter: bool
    counts_for_atg: bool
    crest: bool


_FLAGS = ("blocks_fire", "defensive", "cover", "hull_down", "armour_may_enter", "counts_for_atg", "crest")


def _read(name: str) -> Any:
    # through the package's own loader, as gwasl.model.terrain reads the Great War's tables
    # (importlib.resources brings zipfile and tempfile: issue 23 item 8)
    import gwasl.games.combined_arms as package

    try:
        loader: Any = package.__spec__.loader
        text = loader.get_data(os.path.join(os.path.dirname(package.__file__ or ""), name)).decode("utf-8")
        return json.loads(text)
    except (OSError, ValueError) as e:
        raise TableError(f"combined_arms/{name}: cannot be read ({e})") from None


def _pair(value: Any, where: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise TableError(f"{where}: expected [q, r] integers")
    return (value[0], value[1])


def load_terrain(data: Any, name: str = "terrain.json") -> tuple[dict[int, str], dict[str, Terrain]]:
    """The dice table and the terrain effects, checked: every total 2..12 names a
    known terrain, every terrain has every effect as true/false, and the road exists. (CA "The Playing Board".)"""
    if not isinstance(data, dict) or not isinstance(data.get("terrain"), dict) or not isinstance(data.get("dice"), dict):
        raise TableError(f"{name}: expected objects 'dice' and 'terrain'")
    terrain: dict[str, Terrain] = {}
    for tid, row in data["terrain"].items():
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise TableError(f"{name}: terrain.{tid}: expected an object with a name")
        flags = {}
        for f in _FLAGS:
            if not isinstance(row.get(f), bool):
                raise TableError(f"{name}: terrain.{tid}.{f}: expected true or false")
            flags[f] = row[f]
        terrain[tid] = Terrain(tid, row["name"], **flags)
    if "road" not in terrain or "open" not in terrain:
        raise TableError(f"{name}: terrain must include 'open' and 'road'")
    dice: dict[int, str] = {}
    for total in range(2, 13):
        tid = data["dice"].get(str(total))
        if tid not in terrain:
            raise TableError(f"{name}: dice.{total}: {tid!r} is not a terrain of the table")
        dice[total] = tid
    extra = set(data["dice"]) - {str(t) for t in range(2, 13)} - {"about"}
    if extra:
        raise TableError(f"{name}: dice.{sorted(extra)[0]}: not a total of 2 dice")
    return dice, terrain


@dataclass(frozen=True, slots=True)
class BoardData:
    row_widths: tuple[int, ...]
    road: tuple[tuple[int, int], ...]
    road_off_top: tuple[int, int]
    road_off_bottom: tuple[int, int]
    corner_names: tuple[str, ...]
    scatter: dict[int, int]


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return Hex(*a).is_adjacent(Hex(*b))  # hexgrid's directions, whatever way the board names them


def load_board(data: Any, name: str = "board.json") -> BoardData:
    """The board layout, checked against the text: 9 rows, 7..11 wide, 79 hexes, a
    road of one hex per row whose consecutive hexes touch, the same turned 180
    degrees, and a scatter die that names each of the 6 corners once. (CA "The Playing Board", Figure 1.)"""
    if not isinstance(data, dict):
        raise TableError(f"{name}: expected an object")
    widths = data.get("row_widths")
    if not (isinstance(widths, list) and len(widths) == 9 and all(isinstance(w, int) for w in widths)):
        raise TableError(f"{name}: row_widths: expected 9 integers")
    if min(widths) != 7 or max(widths) != 11 or widths != widths[::-1] or sum(widths) - 9 != 70:
        raise TableError(f"{name}: row_widths: the board is 9 rows of 7 to 11 hexes, 70 of them off the road")
    road = data.get("road")
    if not isinstance(road, dict) or not isinstance(road.get("path"), list) or len(road["path"]) != 9:
        raise TableError(f"{name}: road.path: expected 9 hexes, one per row")
    path = tuple(_pair(p, f"{name}: road.path[{i}]") for i, p in enumerate(road["path"]))
    for i, (_q, r) in enumerate(path):
        if r != i - 4:
            raise TableError(f"{name}: road.path[{i}]: must lie in hexrow {i + 1} (r = {i - 4})")
    top = _pair(road.get("off_top"), f"{name}: road.off_top")
    bottom = _pair(road.get("off_bottom"), f"{name}: road.off_bottom")
    chain = (top, *path, bottom)
    for a, b in itertools.pairwise(chain):
        if not _adjacent(a, b):
            raise TableError(f"{name}: road: {list(a)} and {list(b)} do not touch")
    if tuple((-q, -r) for q, r in reversed(chain)) != chain:
        raise TableError(f"{name}: road: the road must look the same with the board turned 180 degrees")
    corners = data.get("corners", {}).get("names")
    if not (isinstance(corners, list) and len(corners) == 6 and all(isinstance(c, str) for c in corners)):
        raise TableError(f"{name}: corners.names: expected 6 names")
    die = data.get("scatter", {}).get("die_to_corner")
    if not isinstance(die, dict) or sorted(die) != [str(i) for i in range(1, 7)] or sorted(die.values()) != list(range(6)):
        raise TableError(f"{name}: scatter.die_to_corner: each die face 1-6 must name a different corner 0-5")
    return BoardData(tuple(widths), path, top, bottom, tuple(corners), {int(k): int(v) for k, v in die.items()})


TERRAIN_BY_DICE, TERRAIN = load_terrain(_read("terrain.json"))
BOARD_DATA = load_board(_read("board.json"))
ROW_WIDTHS = BOARD_DATA.row_widths
ROAD_PATH = BOARD_DATA.road
ROAD_OFF_TOP = BOARD_DATA.road_off_top
ROAD_OFF_BOTTOM = BOARD_DATA.road_off_bottom
CORNER_NAMES = BOARD_DATA.corner_names
SCATTER_CORNER = BOARD_DATA.scatter
