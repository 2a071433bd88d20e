"""The Combined Arms board: 79 pointy-topped hexes in 9 hexrows (Sabin, "The
Playing Board"), their labels, neighbours, ranges, forward arcs and exact lines
of fire.  Everything here depends only on the board's shape, so it is computed
once at import and shared by every game; a hex is an index 0..78 in reading
order (row 1 left to right, then row 2...), and sets of hexes are bitmasks.

Coordinates are axial (q, r) for pointy-topped hexes, r = hexrow - 5 growing
down the page; neighbour directions 0..5 are E, NE, NW, W, SW, SE and corner
k lies between directions k and k+1 (corner 0 is the top-right one).

Labels: the hexrow number (1 at the top) then the place in the row as a
letter from the left, so ``1a`` is the top-left hex, ``5f`` the centre and
``9g`` the bottom-right one (letters after digits, so a hex never reads like
a platoon: D1, A3...).

>>> label(0), label(CENTRE), label(N - 1)
('1a', '5f', '9g')
>>> distance(index_of("1a"), index_of("9g"))
10
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from gwasl.games.combined_arms.tables import ROAD_OFF_BOTTOM, ROAD_OFF_TOP, ROAD_PATH, ROW_WIDTHS, TableError
from gwasl.model import hexgrid as _grid
from gwasl.model.hexgrid import line_offsets

__all__ = [
    "ALL",
    "ARC",
    "CENTRE",
    "COORDS",
    "DIRECTIONS",
    "DIST",
    "EXIT_HEXES",
    "FORBIDDEN_EDGE",
    "LABELS",
    "LOF_BY_HEX",
    "LOF_INTERIOR",
    "LOF_NEAR",
    "LOF_PARTIAL",
    "N",
    "NEIGHBOURS",
    "NEIGHBOUR_MASK",
    "OFF_BOTTOM",
    "OFF_TOP",
    "OFF",
    "REAR_HEXES",
    "ROAD",
    "ROAD_MASK",
    "ROTATED",
    "ROW",
    "SIDE_EDGE",
    "THIRDS",
    "WITHIN2",
    "WITHIN5",
    "bits",
    "corner_hexes",
    "distance",
    "in_arc",
    "index_of",
    "label",
    "line_hexes",
    "road_step",
]

#: neighbour directions (dq, dr): E, NE, NW, W, SW, SE
# The board's directions E, NE, NW, W, SW, SE (counter-clockwise from east, as the module
# docstring says) are hexgrid's one table read from SE backwards: direction k is hexgrid's (2 - k).
DIRECTIONS: tuple[tuple[int, int], ...] = tuple((v.q, v.r) for v in (_grid.DIRECTIONS[(2 - k) % 6] for k in range(6)))

#: an off-board neighbour
OFF = -1


def _rows() -> list[tuple[int, int, int]]:
    """(r, q_min, width) per hexrow.  The rows are centred on the middle one, so
    the board is the hexes with |q| <= h, |q + r| <= h (h = half the widest row)."""
    h = (max(ROW_WIDTHS) - 1) // 2
    out = []
    for i, w in enumerate(ROW_WIDTHS):
        r = i - 4
        q_min, q_max = max(-h, -h - r), min(h, h - r)
        if q_max - q_min + 1 != w:
            raise TableError(f"board.json: row_widths[{i}]: hexrow {i + 1} of a centred board holds {q_max - q_min + 1} hexes")
        out.append((r, q_min, w))
    return out


COORDS: tuple[tuple[int, int], ...] = tuple((q, r) for r, q0, w in _rows() for q in range(q0, q0 + w))
N = len(COORDS)
_INDEX = {c: i for i, c in enumerate(COORDS)}
#: every hex of the board, as a bitmask
ALL = (1 << N) - 1
#: hexrow 1..9 of each hex
ROW: tuple[int, ...] = tuple(r + 5 for _, r in COORDS)
_PLACE = tuple(q - min(qq for qq, rr in COORDS if rr == r) + 1 for q, r in COORDS)
_LABELS = tuple(f"{ROW[i]}{chr(ord('a') + _PLACE[i] - 1)}" for i in range(N))
_BY_LABEL = {s: i for i, s in enumerate(_LABELS)}
#: each hex's label, by index (:func:`label`, for loops that cannot afford a call)
LABELS = _LABELS
CENTRE = _INDEX[(0, 0)]


def index_of(text: str) -> int:
    """The hex a label names; ``KeyError`` when the label is not on the board."""
    i = _BY_LABEL.get(text)
    return i if i is not None else _BY_LABEL[text.strip().lower()]


def label(i: int) -> str:
    return _LABELS[i]


def _at(q: int, r: int) -> int:
    return _INDEX.get((q, r), OFF)


#: per hex, its 6 neighbours by direction (OFF beyond the board)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(_at(q + dq, r + dr) for dq, dr in DIRECTIONS) for q, r in COORDS)
#: per hex, the bitmask of its on-board neighbours
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << n for n in ns if n != OFF) for ns in NEIGHBOURS)
#: the hex turned 180 degrees about the centre (the board and road are symmetric)
ROTATED: tuple[int, ...] = tuple(_INDEX[(-q, -r)] for q, r in COORDS)


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


_DIST: tuple[int, ...] = tuple(_dist(a, b) for a in COORDS for b in COORDS)
#: range between hexes a and b at index a * N + b (for loops that cannot afford a call)
DIST = _DIST


def distance(a: int, b: int) -> int:
    """Range in hexes between two board hexes. (CA "Fire Attacks": range counts hexes.)"""
    return _DIST[a * N + b]


def bits(mask: int) -> Iterable[int]:
    """The hexes of a bitmask, in index order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _mask(hexes: Iterable[int]) -> int:
    m = 0
    for h in hexes:
        m |= 1 << h
    return m


_ROW_HEXES = {row: [i for i in range(N) if ROW[i] == row] for row in range(1, 10)}
#: side edge hexes: the two end hexes of every hexrow ("Movement", "The Units")
SIDE_EDGE = _mask(h for hs in _ROW_HEXES.values() for h in (hs[0], hs[-1]))
#: side edge hexes of the 5 middle hexrows, which your platoons may not enter ("Movement")
FORBIDDEN_EDGE = _mask(h for row in range(3, 8) for h in (_ROW_HEXES[row][0], _ROW_HEXES[row][-1]))
#: your 7 rear edge hexes (you always attack from the top: see rules-notes)
REAR_HEXES = _mask(_ROW_HEXES[1])
#: the 3 central hexes of the enemy rear edge, the exploitation gateway ("Movement")
EXIT_HEXES = _mask(_ROW_HEXES[9][2:5])
#: hexes of the top, middle and bottom thirds (hexrows 1-3, 4-6, 7-9)
THIRDS = (_mask(h for row in (1, 2, 3) for h in _ROW_HEXES[row]),
          _mask(h for row in (4, 5, 6) for h in _ROW_HEXES[row]),
          _mask(h for row in (7, 8, 9) for h in _ROW_HEXES[row]))

#: the central road, top to bottom
ROAD: tuple[int, ...] = tuple(_INDEX[c] for c in ROAD_PATH)
ROAD_MASK = _mask(ROAD)
#: road hexsides as unordered pairs of hexes; -2 is the virtual hex off the top, -3 off the bottom
OFF_TOP, OFF_BOTTOM = -2, -3
_ROAD_CHAIN = (OFF_TOP, *ROAD, OFF_BOTTOM)
_ROAD_SIDES = {frozenset(p) for p in itertools.pairwise(_ROAD_CHAIN)}
_VIRTUAL = {OFF_TOP: ROAD_OFF_TOP, OFF_BOTTOM: ROAD_OFF_BOTTOM}


def _coord(i: int) -> tuple[int, int]:
    return _VIRTUAL[i] if i < 0 else COORDS[i]


def road_step(a: int, b: int) -> int | None:
    """The direction of the step a -> b when the hexside between them holds the road
    (either may be a virtual off-board hex, OFF_TOP or OFF_BOTTOM), else ``None``.

    The road gives armour its 2-hex move when both hexsides hold it (CA "Movement")."""
    if frozenset((a, b)) not in _ROAD_SIDES:
        return None
    (qa, ra), (qb, rb) = _coord(a), _coord(b)
    return DIRECTIONS.index((qb - qa, rb - ra))


def _in_arc(d: tuple[int, int], facing: int) -> bool:
    """Whether offset d lies in the closed 60-degree wedge about corner ``facing``:
    d = a*e1 + b*e2 with a, b >= 0, e1 and e2 the directions beside the corner."""
    e1, e2 = DIRECTIONS[facing % 6], DIRECTIONS[(facing + 1) % 6]
    det = e1[0] * e2[1] - e1[1] * e2[0]  # +-1: e1, e2 are a basis of the lattice
    a = (d[0] * e2[1] - d[1] * e2[0]) * det
    b = (e1[0] * d[1] - e1[1] * d[0]) * det
    return a >= 0 and b >= 0 and (a or b) != 0


#: per hex, the bitmask of the board hexes within 2 hexes of it (itself included)
WITHIN2: tuple[int, ...] = tuple(_mask(j for j in range(N) if _DIST[i * N + j] <= 2) for i in range(N))

#: per hex, the bitmask of the board hexes 1 to 5 hexes away (the range of every fire and spotting)
WITHIN5: tuple[int, ...] = tuple(_mask(j for j in range(N) if 1 <= _DIST[i * N + j] <= 5) for i in range(N))

def _arcs() -> tuple[tuple[int, ...], ...]:
    # each offset between two board hexes tested once per facing, not once per pair of hexes
    # (a fifth of the work at import: issue 23 item 8)
    span = max(max(abs(q), abs(r)) for q, r in COORDS) * 2
    wedge = [frozenset((dq, dr) for dq in range(-span, span + 1) for dr in range(-span, span + 1)
                       if _in_arc((dq, dr), f)) for f in range(6)]
    out = []
    for qi, ri in COORDS:
        masks = [0] * 6
        for j, (qj, rj) in enumerate(COORDS):
            d = (qj - qi, rj - ri)
            for f in range(6):
                if d in wedge[f]:
                    masks[f] |= 1 << j
        out.append(tuple(masks))
    return tuple(out)


#: ARC[h][f]: bitmask of the board hexes in the forward arc of armour in h facing corner f
ARC: tuple[tuple[int, ...], ...] = _arcs()


def in_arc(origin: int, facing: int, target: int) -> bool:
    """Whether ``target`` lies in the forward arc of armour in ``origin`` facing corner ``facing``
    (Figure 2: a 60-degree arc about the faced corner, its boundary rows included). (CA "The Units".)"""
    return bool(ARC[origin][facing] >> target & 1)


def corner_hexes(h: int, corner: int) -> tuple[int, ...]:
    """The 3 hexes sharing corner ``corner`` of ``h`` (mortar impacts): h and its
    neighbours in directions corner and corner+1, off-board ones as OFF.

    Mortars land in all 3 hexes sharing the diced corner (CA "Mortars")."""
    ns = NEIGHBOURS[h]
    return (h, ns[corner % 6], ns[(corner + 1) % 6])


def line_hexes(a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The intervening board hexes of the centre-to-centre segment a -> b: those
    whose interior it crosses, and those it touches only along part of a hexside.
    Hexes it touches only at a corner are in neither (Figure 5; rules-notes). (CA "Fire Attacks".)"""
    qa, ra = COORDS[a]
    qb, rb = COORDS[b]
    # hexgrid's exact line as offsets from a (no Hex values: the tables hold thousands of lines)
    met, sides = line_offsets(qb - qa, rb - ra)
    interior = tuple(i for dq, dr in met if (i := _at(qa + dq, ra + dr)) not in (OFF, a, b))
    touched = sorted({_at(qa + dq, ra + dr) for pair in sides for dq, dr in pair} - {OFF, a, b})
    return interior, tuple(touched)


def _lof_tables() -> tuple[dict[int, int], dict[int, int]]:
    interior: dict[int, int] = {}
    partial: dict[int, int] = {}
    for a in range(N):
        for b in range(N):
            if 2 <= _DIST[a * N + b] <= 5:
                full, part = line_hexes(a, b)
                interior[a * N + b] = _mask(full)
                partial[a * N + b] = _mask(part)
    return interior, partial


#: for each pair a*N+b at range 2..5: bitmask of the hexes whose interior the line
#: crosses, and of those it touches along part of a hexside (range 1 has none)
LOF_INTERIOR: dict[int, int]
LOF_PARTIAL: dict[int, int]


def _lof_by_hex() -> tuple[tuple[dict[int, tuple[int, int]], ...], tuple[int, ...]]:
    interior, partial = _built("LOF_INTERIOR"), _built("LOF_PARTIAL")
    by: list[dict[int, tuple[int, int]]] = []
    near: list[int] = []
    for a in range(N):
        tab: dict[int, tuple[int, int]] = {}
        for b in bits(WITHIN5[a]):
            k = a * N + b
            if _DIST[k] < 2:
                continue
            for x in bits(interior[k]):
                im, pm = tab.get(x, (0, 0))
                tab[x] = (im | 1 << b, pm)
            for x in bits(partial[k]):
                im, pm = tab.get(x, (0, 0))
                tab[x] = (im, pm | 1 << b)
        by.append(tab)
        near.append(_mask(tab))
    return tuple(by), tuple(near)


#: the same tables turned around, for one-to-all queries: LOF_BY_HEX[a][x] is (the targets
#: 2-5 hexes from a whose line crosses x's interior, those whose line touches x along part of
#: a hexside); LOF_NEAR[a] is the bitmask of the hexes x listed
LOF_BY_HEX: tuple[dict[int, tuple[int, int]], ...]
LOF_NEAR: tuple[int, ...]

#: the line-of-fire tables, each built on its first use (about 0.2 s: issue 23 item 8, a
#: command or window that draws no line of fire does not wait for them)
_LAZY = {"LOF_INTERIOR": ("LOF_INTERIOR", "LOF_PARTIAL"), "LOF_PARTIAL": ("LOF_INTERIOR", "LOF_PARTIAL"),
         "LOF_BY_HEX": ("LOF_BY_HEX", "LOF_NEAR"), "LOF_NEAR": ("LOF_BY_HEX", "LOF_NEAR")}


def _built(name: str) -> Any:
    """A line-of-fire table, built now if it was not yet."""
    return globals()[name] if name in globals() else __getattr__(name)


def __getattr__(name: str) -> Any:
    pair = _LAZY.get(name)
    if pair is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    built = _lof_tables() if pair[0] == "LOF_INTERIOR" else _lof_by_hex()
    globals().update(zip(pair, built, strict=True))
    return globals()[name]
