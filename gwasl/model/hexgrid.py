"""Hex grid: axial coordinates, ASL-style labels, exact lines, and one pixel layout.

The grid follows CONTRACTS section 1: flat-topped hexes standing in vertical
columns, "even-q" offset (columns A, C, E ... stand half a hex lower than
B, D, F ...).  Internally every hex is an axial coordinate ``Hex(q, r)``
(Red Blob Games, "Hexagonal Grids"), with ``q`` the column index.

Labels are column letters then a 1-based row number: ``A1``, ``K10``,
``AA3``.  Columns count in bijective base 26 (A..Z, AA..AZ, BA..ZZ, AAA..),
which is the only reading under which the scenario schema's 208 columns fit
its three-letter label pattern (docs/rules-notes.md, "Column letters").

>>> Hex.from_label("B2").label
'B2'
>>> sorted(h.label for h in Hex.from_label("A1").neighbours() if h.on_board(12, 8))
['A2', 'B1', 'B2']

Exact lines
-----------
Geometry that decides game results is computed in integers.  Scaling a
flat-topped hex of circumradius 1 by 2 horizontally and 2/sqrt(3)
vertically (an affine map, so it keeps incidence: which hexes a segment
meets, along which hexside it runs) puts every hex centre at
``(3q, 2r + q)`` and every corner at a centre plus one of
``(2,0) (1,1) (-1,1) (-2,0) (-1,-1) (1,-1)``: all integers.
:func:`hex_line` uses those coordinates, so floating-point noise never
decides whether a line touches a hex.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass as standard_dataclass
from functools import cmp_to_key, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError

__all__ = [
    "Hex",
    "HexLabelError",
    "HexLine",
    "Layout",
    "Point",
    "column_letters",
    "column_index",
    "hex_line",
    "line_offsets",
    "hex_line_hexes",
    "DIRECTIONS",
    "ORIGIN",
    "scale",
    "rotate",
    "reflect",
]

_LABEL_RE = re.compile(r"^([A-Z]{1,3})([1-9][0-9]{0,2})$")


class HexLabelError(GwaslError):
    """A hex label that is not column letters followed by a row number."""


def column_letters(index: int) -> str:
    """Column letters for a 0-based column index (bijective base 26).

    >>> [column_letters(i) for i in (0, 25, 26, 27, 51, 52, 701, 702)]
    ['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']
    """
    if index < 0:
        raise HexLabelError(f"column index {index} is negative")
    letters = []
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters.append(chr(ord("A") + rem))
    return "".join(reversed(letters))


def column_index(letters: str) -> int:
    """0-based column index of column letters; the inverse of :func:`column_letters`.

    >>> column_index("A"), column_index("AA"), column_index("GZ")
    (0, 26, 207)
    """
    if not letters or not letters.isascii() or not letters.isalpha() or not letters.isupper():
        raise HexLabelError(f"column {letters!r} is not upper-case letters A-Z")
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


# Axial direction vectors, flat-topped: N, NE, SE, S, SW, NW (screen y grows down).
_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (1, -1),
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
)


class RingRadiusError(GwaslError):
    """A ring of negative radius."""


# Frozen dataclasses whose generated methods are compiled together and cached
# (FrozenBatch: what every command pays at start-up, issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
    from fractions import Fraction
else:
    dataclass = _BATCH.dataclass


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """An axial hex coordinate: ``q`` is the column index, ``r`` the axial row.

    Immutable and hashable; compare and sort freely.

    >>> Hex.from_label("A1").distance(Hex.from_label("C3"))
    3
    """

    q: int
    r: int

    # -- offset (column, row) and labels ------------------------------------
    @classmethod
    def from_offset(cls, column: int, row: int) -> Hex:
        """Hex at 0-based ``column`` and 0-based ``row`` (even-q offset)."""
        return cls(column, row - ((column + (column & 1)) >> 1))

    @property
    def column(self) -> int:
        """0-based column index (A is 0)."""
        return self.q

    @property
    def row(self) -> int:
        """0-based row index (row 1 of a label is 0)."""
        return self.r + ((self.q + (self.q & 1)) >> 1)

    @classmethod
    def from_label(cls, label: str) -> Hex:
        """Parse a label such as ``"K10"`` (CONTRACTS 1).

        >>> Hex.from_label("B1")
        Hex(q=1, r=-1)
        """
        if not isinstance(label, str):
            raise HexLabelError(f"hex label must be text, not {type(label).__name__}")
        m = _LABEL_RE.fullmatch(label)
        if not m:
            raise HexLabelError(
                f"{label!r} is not a hex label (column letters A-Z then a row number, e.g. 'K10')"
            )
        return cls.from_offset(column_index(m.group(1)), int(m.group(2)) - 1)

    @property
    def label(self) -> str:
        """The CONTRACTS 1 label; hexes off the top or left edge have no label."""
        if self.q < 0 or self.row < 0:
            raise HexLabelError(f"{self!r} lies off the top/left edge and has no label")
        return f"{column_letters(self.q)}{self.row + 1}"

    def __str__(self) -> str:
        try:
            return self.label
        except HexLabelError:
            return f"({self.q},{self.r})"

    def on_board(self, columns: int, rows: int) -> bool:
        """True if this hex lies on a map of ``columns`` x ``rows`` hexes."""
        return 0 <= self.q < columns and 0 <= self.row < rows

    # -- axial arithmetic -----------------------------------------------------
    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` 0..5 (N, NE, SE, S, SW, NW)."""
        dq, dr = _DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, N first and clockwise."""
        return tuple(Hex(self.q + dq, self.r + dr) for dq, dr in _DIRECTIONS)

    def distance(self, other: Hex) -> int:
        """Range in hexes (CONTRACTS 1: A1-C1 is 2, A1-C3 is 3, A1-A5 is 4)."""
        dq = self.q - other.q
        dr = self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))

    def is_adjacent(self, other: Hex) -> bool:
        return self.distance(other) == 1

    def ring(self, radius: int) -> list[Hex]:
        """Hexes exactly ``radius`` away, clockwise from the north-most corner.

        Raises :class:`RingRadiusError` (a ring of negative radius).
        """
        if radius < 0:
            raise RingRadiusError("radius must be >= 0")
        if radius == 0:
            return [self]
        out = []
        # Start at the SW corner of the ring and walk the six sides.
        h = Hex(self.q + _DIRECTIONS[4][0] * radius, self.r + _DIRECTIONS[4][1] * radius)
        for side in range(6):
            for _ in range(radius):
                out.append(h)
                h = h.neighbour(side)
        return out

    def within(self, radius: int) -> list[Hex]:
        """All hexes within ``radius`` (inclusive), this one first."""
        out = [self]
        for k in range(1, radius + 1):
            out.extend(self.ring(k))
        return out

    def direction_to(self, other: Hex) -> int | None:
        """Direction index if ``other`` is adjacent, else None."""
        d = (other.q - self.q, other.r - self.r)
        try:
            return _DIRECTIONS.index(d)
        except ValueError:
            return None

    # -- exact integer geometry -------------------------------------------------
    @property
    def lattice_centre(self) -> tuple[int, int]:
        """Centre in the exact integer frame (see module docstring)."""
        return (3 * self.q, 2 * self.r + self.q)

    def lattice_corners(self) -> tuple[tuple[int, int], ...]:
        """The six corners in the exact integer frame, counter-clockwise from east."""
        x, y = self.lattice_centre
        return tuple((x + cx, y + cy) for cx, cy in _LATTICE_CORNERS)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__

# Corners of a hex around its centre in the integer frame, ordered by angle
# 0, 60, ..., 300 degrees with y pointing "up" in the frame's own orientation.
#: the six axial unit vectors as hexes, 0 = north then clockwise (flat-topped, as :meth:`Hex.neighbour`);
#: the one direction table of gwasl: On Patrol's headings and Combined Arms' board read it
DIRECTIONS: tuple[Hex, ...] = tuple(Hex(dq, dr) for dq, dr in _DIRECTIONS)
ORIGIN = Hex(0, 0)


def scale(d: int, k: int) -> Hex:
    """``k`` steps in direction ``d`` (0 = north, clockwise), as a vector.

    >>> scale(1, 3), scale(7, 3) == scale(1, 3)
    (Hex(q=3, r=-3), True)
    """
    v = DIRECTIONS[d % 6]
    return Hex(v.q * k, v.r * k)


def rotate(h: Hex, k: int = 1, centre: Hex = ORIGIN) -> Hex:
    """``h`` rotated ``k`` times 60 degrees clockwise about ``centre``.

    >>> rotate(DIRECTIONS[0]) == DIRECTIONS[1], rotate(DIRECTIONS[0], 6) == DIRECTIONS[0]
    (True, True)
    """
    v = h - centre
    q, r = v.q, v.r
    for _ in range(k % 6):
        q, r = -r, q + r
    return Hex(q, r) + centre


def reflect(h: Hex, centre: Hex = ORIGIN) -> Hex:
    """``h`` mirrored in the vertical line through ``centre`` (direction d becomes -d).

    >>> [DIRECTIONS.index(reflect(v)) for v in DIRECTIONS]
    [0, 5, 4, 3, 2, 1]
    """
    v = h - centre
    return Hex(-v.q, v.q + v.r) + centre


_LATTICE_CORNERS: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


# ---------------------------------------------------------------------------
# Exact lines
# ---------------------------------------------------------------------------
class HexLine(NamedTuple):
    """Hexes a centre-to-centre segment meets, computed exactly.

    ``hexes``: every hex whose *interior* the segment meets, ordered from
    the start hex to the end hex (both included).

    ``hexside_pairs``: for each stretch where the segment runs exactly
    *along* a hexside, the two hexes sharing that side, in order along the
    line.  Neither of those hexes' interiors is met there, so neither is in
    ``hexes`` on that account; LOS rules decide what such a stretch means
    (docs/rules-notes.md, "Lines along hexsides and through vertices").

    A segment that only passes *through a vertex* (touching the corners of
    hexes without running along a side) meets none of them: those hexes
    are in neither list.
    """

    hexes: tuple[Hex, ...]
    hexside_pairs: tuple[tuple[Hex, Hex], ...]


def _segment_meets_open_hex(ax: int, ay: int, bx: int, by: int, h: Hex) -> bool:
    """True if the closed segment AB meets the open interior of hex ``h``.

    Separating-axis test in integers: a segment and an open convex polygon
    are disjoint exactly when a line weakly separates them, and for a
    polygon and a segment the polygon's edge normals and the segment's own
    normal are the only candidate axes.
    """
    cx, cy = h.lattice_centre
    # Hex edge normals in the integer frame: the six edges have normals along
    # (1,3), (-1,3)... computed from consecutive corners.
    corners = [(cx + dx, cy + dy) for dx, dy in _LATTICE_CORNERS]
    axes = _AXES
    for nx, ny in axes:
        p_vals = [nx * x + ny * y for x, y in corners]
        s1 = nx * ax + ny * ay
        s2 = nx * bx + ny * by
        smin, smax = (s1, s2) if s1 <= s2 else (s2, s1)
        if smax <= min(p_vals) or max(p_vals) <= smin:
            return False
    # Segment normal.
    nx, ny = ay - by, bx - ax
    s = nx * ax + ny * ay
    p_vals = [nx * x + ny * y for x, y in corners]
    return not (max(p_vals) <= s or s <= min(p_vals))


def _edge_normals() -> tuple[tuple[int, int], ...]:
    out = []
    for i in range(3):  # opposite edges share an axis
        x1, y1 = _LATTICE_CORNERS[i]
        x2, y2 = _LATTICE_CORNERS[(i + 1) % 6]
        out.append((y2 - y1, x1 - x2))
    return tuple(out)


_AXES = _edge_normals()
_DIRECTION_SET = frozenset(_DIRECTIONS)


def _runs_along_side(ax: int, ay: int, bx: int, by: int, h1: Hex, h2: Hex) -> bool:
    """True if segment AB contains a stretch of positive length of the side h1|h2."""
    d = h1.direction_to(h2)
    if d is None:
        return False
    ox, oy = h2.lattice_centre
    # The shared side's two corners are the corners of h1 closest to h2's centre.
    corners = sorted(h1.lattice_corners(), key=lambda c: (c[0] - ox) ** 2 + (c[1] - oy) ** 2)[:2]
    (px, py), (qx, qy) = corners
    dx, dy = bx - ax, by - ay
    # Both side corners on the segment's supporting line?
    if dx * (py - ay) - dy * (px - ax) != 0 or dx * (qy - ay) - dy * (qx - ax) != 0:
        return False
    # Overlap of positive length between the side and the segment (param along AB).
    length2 = dx * dx + dy * dy
    tp = dx * (px - ax) + dy * (py - ay)
    tq = dx * (qx - ax) + dy * (qy - ay)
    lo, hi = min(tp, tq), max(tp, tq)
    return min(hi, length2) > max(lo, 0)


@lru_cache(maxsize=65536)
def _line_offsets(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[tuple[int, int], tuple[int, int]], ...]]:
    """Supercover of the segment from Hex(0,0) to Hex(dq,dr), as axial offsets.

    Translation-invariant, so cached per offset.  Worked on (q, r) pairs rather than
    :class:`Hex` values, and the entry parameters compared as integer ratios: the same
    answers for a fraction of the time (a board's lines of fire are built at once, issue
    23 item 8).
    """
    n = max(abs(dq), abs(dr), abs(dq + dr))
    if n == 0:
        return (((0, 0),), ())
    bx, by = 3 * dq, 2 * dr + dq  # the far centre in the lattice frame (the near one is the origin)
    # Candidates: hexes within 1 of the rounded straight line (the supercover is
    # always inside that band), then the exact test on each.
    candidates: set[tuple[int, int]] = set()
    for i in range(n + 1):
        # Round the axial point a + (b-a)*i/n with exact rational arithmetic.
        h = _axial_round_exact(dq * i, dr * i, n)
        q, r = h.q, h.r
        candidates.add((q, r))
        candidates.update((q + ddq, r + ddr) for ddq, ddr in _DIRECTIONS)
    met = [c for c in candidates if _meets_open(bx, by, c)]

    def t(c: tuple[int, int]) -> int:
        return bx * 3 * c[0] + by * (2 * c[1] + c[0])

    # Order by where the line enters each hex (then leaves it), exactly: near a
    # vertex the order of centres projected on the line can differ from it.
    bounds = {c: _entry_exit_at(0, 0, bx, by, c) for c in met}

    def entered(c1: tuple[int, int], c2: tuple[int, int]) -> int:
        return _compare_bounds(bounds[c1], bounds[c2])

    met.sort(key=cmp_to_key(entered))
    # Hexside stretches: a pair of adjacent candidates both not met whose shared
    # side lies on the segment.
    met_set = set(met)
    cand = sorted((c for c in candidates if c not in met_set), key=t)
    # (a side lies on the segment's line only when the line is the perpendicular bisector
    # of the two centres: they lie mirrored about it, their cross products with it opposite)
    side = [bx * (2 * r + q) - by * 3 * q for q, r in cand]
    pairs = []
    for i, c1 in enumerate(cand):
        for j in range(i + 1, len(cand)):
            c2 = cand[j]
            if (side[i] + side[j] == 0 and (c2[0] - c1[0], c2[1] - c1[1]) in _DIRECTION_SET
                    and _runs_along_side(0, 0, bx, by, Hex(*c1), Hex(*c2))):
                pairs.append((min(c1, c2), max(c1, c2)))
    pairs.sort(key=lambda p: (t(p[0]) + t(p[1]), p))  # along the line; within a pair, axial order
    return tuple(met), tuple(pairs)


def _meets_open(bx: int, by: int, c: tuple[int, int]) -> bool:
    """:func:`_segment_meets_open_hex` of the segment from the origin to (bx, by) and the hex at axial ``c``."""
    cx, cy = 3 * c[0], 2 * c[1] + c[0]
    corners = [(cx + dx, cy + dy) for dx, dy in _LATTICE_CORNERS]
    for nx, ny in _AXES:
        p_vals = [nx * x + ny * y for x, y in corners]
        s2 = nx * bx + ny * by
        smin, smax = (0, s2) if s2 >= 0 else (s2, 0)
        if smax <= min(p_vals) or max(p_vals) <= smin:
            return False
    nx, ny = -by, bx  # the segment's normal; the segment lies on nx*x + ny*y == 0
    p_vals = [nx * x + ny * y for x, y in corners]
    return not (max(p_vals) <= 0 or min(p_vals) >= 0)


def _entry_exit(ax: int, ay: int, dx: int, dy: int, h: Hex) -> tuple[Fraction, Fraction]:
    """Parameters t_in <= t_out (as exact fractions of the segment A + t*d, clipped
    to 0..1) between which the segment lies in the closed hex ``h`` (Cyrus-Beck)."""
    from fractions import Fraction

    lo_n, lo_d, hi_n, hi_d = _entry_exit_at(ax, ay, dx, dy, (h.q, h.r))
    return Fraction(lo_n, lo_d), Fraction(hi_n, hi_d)


def _compare_bounds(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    """-1, 0 or 1 as the bounds ``a`` (t_in, then t_out, as :func:`_entry_exit_at` gives them)
    come before, with or after ``b``: the order of their fractions, in integers."""
    for i in (0, 2):
        x, y = a[i] * b[i + 1], b[i] * a[i + 1]  # denominators are positive
        if x != y:
            return -1 if x < y else 1
    return 0


def _entry_exit_at(ax: int, ay: int, dx: int, dy: int, c: tuple[int, int]) -> tuple[int, int, int, int]:
    """:func:`_entry_exit` of the hex at axial ``c`` as integer ratios: t_in = n1/d1,
    t_out = n2/d2 as ``(n1, d1, n2, d2)``, denominators positive (no fractions module:
    a start-up's import, issue 23 item 8)."""
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    cx, cy = 3 * c[0], 2 * c[1] + c[0]
    # corners counter-clockwise in the lattice frame: inside is on the left
    for i in range(6):
        px, py = _LATTICE_CORNERS[i]
        qx, qy = _LATTICE_CORNERS[(i + 1) % 6]
        ex, ey = qx - px, qy - py
        px, py = cx + px, cy + py
        k0 = ex * (ay - py) - ey * (ax - px)
        k1 = ex * dy - ey * dx
        if k1 > 0 and -k0 * lo_d > lo_n * k1:  # t >= -k0/k1
            lo_n, lo_d = -k0, k1
        elif k1 < 0 and k0 * hi_d < hi_n * -k1:  # t <= k0/-k1
            hi_n, hi_d = k0, -k1
    return lo_n, lo_d, hi_n, hi_d


def _axial_round_exact(qn: int, rn: int, n: int) -> Hex:
    """Round the fractional axial point (qn/n, rn/n) to a hex, exactly.

    Ties (points on a hexside) go to either neighbour; callers only use this
    to seed candidates, and every candidate is then tested exactly.
    """
    sn = -qn - rn
    q = _round_div(qn, n)
    r = _round_div(rn, n)
    s = _round_div(sn, n)
    dq = abs(q * n - qn)
    dr = abs(r * n - rn)
    ds = abs(s * n - sn)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def _round_div(a: int, n: int) -> int:
    """Round a/n to the nearest integer, halves away from zero."""
    return (2 * a + n) // (2 * n)


def hex_line(a: Hex, b: Hex) -> HexLine:
    """The exact supercover of the centre-to-centre segment from ``a`` to ``b``.

    Every hex whose interior the segment meets, in order, end hexes included;
    plus the hex pairs whose common side the segment runs along.

    >>> [h.label for h in hex_line(Hex.from_label("A1"), Hex.from_label("A4")).hexes]
    ['A1', 'A2', 'A3', 'A4']

    A line along a hexside reports both hexes of each grazed side in
    ``hexside_pairs`` (here A1 to C1 runs along the B1|B2 side):

    >>> [(x.label, y.label) for x, y in hex_line(Hex.from_label("A1"), Hex.from_label("C1")).hexside_pairs]
    [('B1', 'B2')]
    """
    offs, pairs = _line_offsets(b.q - a.q, b.r - a.r)
    return HexLine(
        tuple(Hex(a.q + dq, a.r + dr) for dq, dr in offs),
        tuple((Hex(a.q + p[0], a.r + p[1]), Hex(a.q + o[0], a.r + o[1])) for p, o in pairs),
    )


def line_offsets(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[tuple[int, int], tuple[int, int]], ...]]:
    """:func:`hex_line` from ``Hex(0, 0)`` to ``Hex(dq, dr)`` as axial ``(q, r)`` offsets: the
    hexes met, then the hexside pairs; add them to any start hex's ``(q, r)`` (the line is the
    same wherever it starts).  For tables of many lines, which need no :class:`Hex` values.

    >>> line_offsets(0, 3)
    (((0, 0), (0, 1), (0, 2), (0, 3)), ())
    >>> line_offsets(2, -1)[1]
    (((1, -1), (1, 0)),)
    """
    return _line_offsets(dq, dr)


def hex_line_hexes(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """Shortcut for ``hex_line(a, b).hexes``."""
    return hex_line(a, b).hexes


# ---------------------------------------------------------------------------
# Pixel layout
# ---------------------------------------------------------------------------
class Point(NamedTuple):
    x: float
    y: float


_SQRT3 = math.sqrt(3.0)


@standard_dataclass(frozen=True, slots=True)
class Layout:
    """The one mapping from hexes to pixels, shared by the Qt scene and Shapely.

    Flat-topped hexes, ``size`` is the circumradius in pixels (centre to
    corner), ``origin`` the pixel position of the centre of ``Hex(0, 0)``
    (label A1).  Screen y grows downwards, so row 1 is at the top and
    columns B, D, F ... stand half a hex higher than A, C, E ...

    >>> lay = Layout(size=10.0)
    >>> lay.hex_to_pixel(Hex.from_label("B1")).y < lay.hex_to_pixel(Hex.from_label("A1")).y
    True
    """

    size: float = 30.0
    origin: Point = Point(0.0, 0.0)

    @classmethod
    def for_map(cls, size: float = 30.0, margin: float = 0.0) -> Layout:
        """A layout whose map's top-left hex corner sits at (margin, margin)."""
        # A1's top edge is sqrt(3)/2*size above its centre; B1 stands half a hex higher.
        return cls(size, Point(margin + size, margin + _SQRT3 * size))

    @property
    def hex_width(self) -> float:
        return 2.0 * self.size

    @property
    def hex_height(self) -> float:
        return _SQRT3 * self.size

    def hex_to_pixel(self, h: Hex) -> Point:
        x = self.size * 1.5 * h.q
        y = self.size * _SQRT3 * (h.r + h.q / 2.0)
        return Point(self.origin.x + x, self.origin.y + y)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing pixel (x, y) (nearest centre on a boundary)."""
        px = (x - self.origin.x) / self.size
        py = (y - self.origin.y) / self.size
        qf = (2.0 / 3.0) * px
        rf = (-1.0 / 3.0) * px + (_SQRT3 / 3.0) * py
        sf = -qf - rf
        q, r, s = round(qf), round(rf), round(sf)
        dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return Hex(int(q), int(r))

    def corner_offsets(self) -> tuple[Point, ...]:
        """Corner offsets from a centre, clockwise on screen from east."""
        return tuple(
            Point(self.size * math.cos(math.radians(60 * i)), self.size * math.sin(math.radians(60 * i)))
            for i in range(6)
        )

    def polygon(self, h: Hex) -> tuple[Point, ...]:
        """The six pixel corners of ``h``."""
        c = self.hex_to_pixel(h)
        return tuple(Point(c.x + o.x, c.y + o.y) for o in self.corner_offsets())

    def map_size(self, columns: int, rows: int) -> tuple[float, float]:
        """Pixel width and height of a ``columns`` x ``rows`` map drawn from this layout,
        measured from the layout's origin (A1 centre) minus one size/half height."""
        width = self.size * (1.5 * (columns - 1) + 2.0)
        height = self.hex_height * (rows + (0.5 if columns > 1 else 0.0))
        return width, height


def iter_map(columns: int, rows: int) -> Iterator[Hex]:
    """Every hex of a ``columns`` x ``rows`` map, column by column."""
    for c in range(columns):
        for r in range(rows):
            yield Hex.from_offset(c, r)
