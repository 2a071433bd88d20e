"""Exact LOS geometry: the fine integer frame, custom obstacle outlines, and
the exact tests the fast kernel falls back on.

Frames
------
:mod:`gwasl.model.hexgrid` gives an integer "lattice" frame in which hex
centres are ``(3q, 2r + q)`` and corners are integer offsets
``(+-2, 0), (+-1, +-1)``.  This module multiplies it by :data:`FINE`, so a
custom outline (drawn in hex-local units, circumradius 1) can be snapped to
integer vertices too: a hex-local point ``(x, y)`` becomes
``(round(2*FINE*x), round(2*FINE*y/sqrt(3)))`` relative to the hex centre.
Every decision (does a line enter an outline, at which height) is then made
with integers and :class:`fractions.Fraction`, never with floats
(docs/rules-notes.md, "Exact geometry and custom outlines").

Shapely geometry for drawing and for the plain reference implementation is
built from the shared :class:`~gwasl.model.hexgrid.Layout`: see
:func:`layout_to_fine` and :func:`outline_pixels`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex, Layout, Point
from gwasl.model.scenario_io import quote

__all__ = [
    "FINE",
    "Outline",
    "OutlineError",
    "SIDE_CORNERS",
    "fine_centre",
    "hex_fine_corners",
    "parse_outline",
    "segment_enters_below",
    "layout_to_fine",
    "outline_pixels",
    "outline_from_pixels",
    "obstacle_polygons",
]

#: Fine grid: outline vertices snap to 1/(2*FINE) of a hex width horizontally.
FINE = 24

_SQRT3 = math.sqrt(3.0)

# Hex corners around the centre in the lattice frame (hexgrid), y down on screen.
_LATTICE_CORNERS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))

#: The six sides of a hex, indexed as the LOS kernel indexes them: side ``k``
#: (0..2) lies on the slab boundary ``n_k . p = +w_k`` and side ``k + 3`` on
#: ``n_k . p = -w_k``, with n = (1,1), (0,1), (1,-1) and w = 2, 1, 2.
#: Values: the side's two corners in the lattice frame.
SIDE_CORNERS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((2, 0), (1, 1)),
    ((1, 1), (-1, 1)),
    ((2, 0), (1, -1)),
    ((-2, 0), (-1, -1)),
    ((1, -1), (-1, -1)),
    ((-2, 0), (-1, 1)),
)


class OutlineError(GwaslError):
    """A custom obstacle outline that is not a simple polygon inside its hex."""


def fine_centre(h: Hex) -> tuple[int, int]:
    """Centre of ``h`` in the fine integer frame."""
    return (3 * h.q * FINE, (2 * h.r + h.q) * FINE)


def hex_fine_corners(h: Hex) -> tuple[tuple[int, int], ...]:
    """The six corners of ``h`` in the fine frame, clockwise on screen from east."""
    cx, cy = fine_centre(h)
    return tuple((cx + FINE * dx, cy + FINE * dy) for dx, dy in _LATTICE_CORNERS)


def _inside_hex(x: int, y: int) -> bool:
    """Closed hex around the origin, fine frame: |x+y| <= 2F, |y| <= F, |x-y| <= 2F."""
    return abs(x + y) <= 2 * FINE and abs(y) <= FINE and abs(x - y) <= 2 * FINE


#: A point with integer coordinates in the fine lattice frame.
_Pt = tuple[int, int]


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


def _convex_hull(pts: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Andrew's monotone chain, integers; collinear points dropped."""
    p = sorted(set(pts))
    if len(p) <= 2:
        return tuple(p)

    def half(seq: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for q in seq:
            while len(out) >= 2 and _cross(out[-1][0] - out[-2][0], out[-1][1] - out[-2][1], q[0] - out[-2][0], q[1] - out[-2][1]) <= 0:
                out.pop()
            out.append(q)
        return out

    lower = half(p)
    upper = half(reversed(p))
    return tuple(lower[:-1] + upper[:-1])


def _segments_cross_properly(a: _Pt, b: _Pt, c: _Pt, d: _Pt) -> bool:
    d1 = _cross(b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1])
    d2 = _cross(b[0] - a[0], b[1] - a[1], d[0] - a[0], d[1] - a[1])
    d3 = _cross(d[0] - c[0], d[1] - c[1], a[0] - c[0], a[1] - c[1])
    d4 = _cross(d[0] - c[0], d[1] - c[1], b[0] - c[0], b[1] - c[1])
    return ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4))


def _on_segment(p: _Pt, a: _Pt, b: _Pt) -> bool:
    if _cross(b[0] - a[0], b[1] - a[1], p[0] - a[0], p[1] - a[1]) != 0:
        return False
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


#: Most vertices one outline may have (docs/format/los.md).  A drawn obstacle
#: needs a few dozen; the fine grid of a hex has about 4,700 points in all.
MAX_OUTLINE_VERTICES = 256


def _is_simple(poly: Sequence[tuple[int, int]]) -> bool:
    """No two non-adjacent edges touch, adjacent edges meet only at their shared vertex.

    Shapely's (GEOS) validity test of the polygon: O(n log n), exact on these
    small integer coordinates (issue 17.7: the former pairwise test took
    seconds for a 2,000-vertex outline).
    """
    from shapely.geometry import Polygon  # only when an outline is read

    return bool(Polygon(poly).is_valid)


def _area2(poly: Sequence[tuple[int, int]]) -> int:
    return sum(_cross(poly[i][0], poly[i][1], poly[(i + 1) % len(poly)][0], poly[(i + 1) % len(poly)][1]) for i in range(len(poly)))


def _snap(x: float, y: float) -> tuple[int, int]:
    """Nearest fine-grid point inside the closed hex (hex-local x, y; circumradius 1)."""
    fx, fy = 2 * FINE * x, 2 * FINE * y / _SQRT3
    best = None
    for sx in (math.floor(fx), math.ceil(fx)):
        for sy in (math.floor(fy), math.ceil(fy)):
            if _inside_hex(sx, sy):
                d = (sx - fx) ** 2 + (sy - fy) ** 2
                if best is None or d < best[0]:
                    best = (d, sx, sy)
    if best is None:  # only possible for points already checked to be inside, so never
        raise OutlineError("vertex cannot be snapped inside the hex")
    return best[1], best[2]


# Frozen dataclasses whose generated methods are compiled together and cached
# (FrozenBatch: what every command pays at start-up, issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass


@dataclass(frozen=True, slots=True)
class Outline:
    """A custom blocking outline of one hex, snapped to the fine grid.

    ``vertices``: the polygon, fine-frame offsets from the hex centre.
    ``hull``: its convex hull (what a line crossing the whole hex sees:
    see :mod:`gwasl.rules.los_kernel`).  ``side_mask``: bit ``s`` set when
    the outline's boundary covers the whole side ``s`` of the hex
    (:data:`SIDE_CORNERS`), which matters for LOS along a hexside.
    """

    vertices: tuple[tuple[int, int], ...]
    hull: tuple[tuple[int, int], ...]
    side_mask: int

    @property
    def is_full_hex(self) -> bool:
        return self.side_mask == 0b111111


def parse_outline(value: Any, where: str) -> Outline:
    """Validate and snap an ``"outline"`` hex field (docs/format/los.md).

    ``where`` names the hex in messages.  Raises :class:`OutlineError`.

    >>> parse_outline([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], "K10").vertices
    ((-24, -14), (24, -14), (24, 14), (-24, 14))
    """
    if not isinstance(value, (list, tuple)) or len(value) < 3:
        raise OutlineError(f"hex {where}: outline must be a list of at least 3 [x, y] points")
    if len(value) > MAX_OUTLINE_VERTICES:
        raise OutlineError(f"hex {where}: outline has {len(value):,} points; at most {MAX_OUTLINE_VERTICES} are allowed")
    raw: list[tuple[float, float]] = []
    for i, p in enumerate(value):
        if (
            not isinstance(p, (list, tuple))
            or len(p) != 2
            or any(isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c) for c in p)
        ):
            raise OutlineError(f"hex {where}: outline point {i} must be [x, y] with two finite numbers, not {quote(p)}")
        x, y = float(p[0]), float(p[1])
        # Inside the closed hex of circumradius 1, with a little slack for editor rounding.
        eps = 1e-6
        if abs(y) > _SQRT3 / 2 + eps or abs(_SQRT3 * x + y) > _SQRT3 + eps or abs(_SQRT3 * x - y) > _SQRT3 + eps:
            raise OutlineError(f"hex {where}: outline point {i} ({x:g}, {y:g}) lies outside the hex (circumradius 1, centre 0,0)")
        raw.append((x, y))
    snapped: list[tuple[int, int]] = []
    for x, y in raw:
        s = _snap(x, y)
        if not snapped or snapped[-1] != s:
            snapped.append(s)
    if len(snapped) > 1 and snapped[0] == snapped[-1]:
        snapped.pop()
    if len(snapped) < 3 or _area2(snapped) == 0:
        raise OutlineError(f"hex {where}: outline has no area (at least 3 distinct points not on one line)")
    if not _is_simple(snapped):
        raise OutlineError(f"hex {where}: outline crosses or touches itself; draw a simple polygon")
    verts = tuple(snapped)
    return Outline(verts, _convex_hull(verts), _side_mask(verts))


def _side_mask(poly: Sequence[tuple[int, int]]) -> int:
    mask = 0
    n = len(poly)
    for s, ((x1, y1), (x2, y2)) in enumerate(SIDE_CORNERS):
        a = (x1 * FINE, y1 * FINE)
        b = (x2 * FINE, y2 * FINE)
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        spans = []
        for i in range(n):
            p, q = poly[i], poly[(i + 1) % n]
            if _cross(dx, dy, p[0] - a[0], p[1] - a[1]) == 0 and _cross(dx, dy, q[0] - a[0], q[1] - a[1]) == 0:
                tp = dx * (p[0] - a[0]) + dy * (p[1] - a[1])
                tq = dx * (q[0] - a[0]) + dy * (q[1] - a[1])
                spans.append((min(tp, tq), max(tp, tq)))
        spans.sort()
        reach = 0
        for lo, hi in spans:
            if lo > reach:
                break
            reach = max(reach, hi)
        if reach >= length2:
            mask |= 1 << s
    return mask


# ---------------------------------------------------------------------------
# Exact segment versus polygon, with heights
# ---------------------------------------------------------------------------
def _point_strictly_inside(px: Fraction, py: Fraction, poly: Sequence[tuple[int, int]]) -> bool:
    n = len(poly)
    inside = False
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        # On the boundary: not strictly inside.
        if (bx - ax) * (py - ay) - (by - ay) * (px - ax) == 0 and min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by):
            return False
        if (ay > py) != (by > py):
            xint = ax + (py - ay) * (bx - ax) / Fraction(by - ay)
            if px < xint:
                inside = not inside
    return inside


def segment_enters_below(
    a: tuple[int, int],
    b: tuple[int, int],
    poly: Sequence[tuple[int, int]],
    ha2: int,
    hb2: int,
    top2: int,
    at_top: bool = False,
) -> tuple[bool, Fraction | None]:
    """Does segment ``a``-``b`` (fine frame) pass through the interior of
    ``poly`` (fine frame, absolute) strictly below ``top2`` (``at_top``
    False: a hill's ground) or at or below it (``at_top`` True: a terrain
    obstacle, ASL A6.2)?

    Heights are in half levels at ``a`` and ``b``, varying linearly.  Exact:
    the segment is cut at every parameter where it meets the polygon's
    boundary, and each piece is inside or outside as a whole.  Only a
    stretch of positive length counts: a piece inside the polygon blocks
    when part of it is strictly below the top, or (``at_top``) when all of
    it is exactly at the top; a sloping line that reaches the top only at
    the polygon's boundary does not block.  Returns the answer and the
    entry parameter of the first such piece (CONTRACTS 3).

    >>> sq = [(0, -4), (4, -4), (4, 4), (0, 4)]
    >>> segment_enters_below((-8, 0), (8, 0), sq, 0, 0, 2)[0]
    True
    >>> segment_enters_below((-8, 4), (8, 4), sq, 0, 0, 2)[0]   # along an edge only
    False
    >>> segment_enters_below((-8, 0), (8, 0), sq, 2, 2, 2)[0], segment_enters_below((-8, 0), (8, 0), sq, 2, 2, 2, True)[0]
    (False, True)
    """
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    ts = {Fraction(0), Fraction(1)}
    n = len(poly)
    for i in range(n):
        (px, py), (qx, qy) = poly[i], poly[(i + 1) % n]
        ex, ey = qx - px, qy - py
        den = _cross(dx, dy, ex, ey)
        wx, wy = px - ax, py - ay
        if den != 0:
            t = Fraction(_cross(wx, wy, ex, ey), den)
            u = Fraction(_cross(wx, wy, dx, dy), den)
            if 0 <= t <= 1 and 0 <= u <= 1:
                ts.add(t)
        elif _cross(dx, dy, wx, wy) == 0:  # collinear: endpoints of the edge project onto the segment
            l2 = dx * dx + dy * dy
            for vx, vy in ((px, py), (qx, qy)):
                t = Fraction(dx * (vx - ax) + dy * (vy - ay), l2)
                if 0 <= t <= 1:
                    ts.add(t)
    order = sorted(ts)
    dh = hb2 - ha2
    for t0, t1 in itertools.pairwise(order):
        m = (t0 + t1) / 2
        if _point_strictly_inside(ax + m * dx, ay + m * dy, poly):
            lo, hi = sorted((ha2 + dh * t0, ha2 + dh * t1))
            # lo < top: part of the piece is below; hi <= top: all of it at or below.
            if lo < top2 or (at_top and hi <= top2):
                return True, t0
    return False, None


# ---------------------------------------------------------------------------
# Shapely-facing helpers (Layout is the one pixel layout)
# ---------------------------------------------------------------------------
def layout_to_fine(layout: Layout, x: float, y: float) -> tuple[int, int]:
    """Pixel point of ``layout`` to the fine integer frame, snapped.

    The fine frame is the affine image of the Layout's pixels:
    ``X = 2*FINE*(x - ox)/size``, ``Y = 2*FINE*(y - oy)/(sqrt(3)*size)``;
    Layout hex centres and corners land within rounding noise of integers
    and are snapped to them exactly.
    """
    fx = 2 * FINE * (x - layout.origin.x) / layout.size
    fy = 2 * FINE * (y - layout.origin.y) / (_SQRT3 * layout.size)
    return round(fx), round(fy)


def outline_pixels(layout: Layout, h: Hex, outline: Outline) -> tuple[Point, ...]:
    """The snapped outline of ``h`` as pixel points of ``layout`` (for drawing)."""
    c = layout.hex_to_pixel(h)
    return tuple(
        Point(c.x + vx * layout.size / (2 * FINE), c.y + vy * layout.size * _SQRT3 / (2 * FINE)) for vx, vy in outline.vertices
    )


def outline_from_pixels(layout: Layout, h: Hex, points: Iterable[tuple[float, float]]) -> list[list[float]]:
    """The ``"outline"`` field value for pixel ``points`` drawn over hex ``h``
    (hex-local units, rounded to 4 decimals; see docs/format/los.md).

    >>> lay = Layout(size=20.0)
    >>> c = lay.hex_to_pixel(Hex(0, 0))
    >>> outline_from_pixels(lay, Hex(0, 0), [(c.x - 10, c.y - 10), (c.x + 10, c.y - 10), (c.x, c.y + 10)])
    [[-0.5, -0.5], [0.5, -0.5], [0.0, 0.5]]
    """
    c = layout.hex_to_pixel(h)
    return [[round((x - c.x) / layout.size, 4), round((y - c.y) / layout.size, 4)] for x, y in points]


def obstacle_polygons(scenario: Any, layout: Layout) -> dict[Hex, Any]:
    """Shapely polygons, in ``layout``'s pixels, of every hex's blocking area:
    the whole hex for plain woods, buildings and rubble, the snapped outline
    where one is drawn.  For drawing (the LOS decisions use the exact frame).

    Raises :class:`OutlineError` for a malformed outline.
    """
    from shapely.geometry import Polygon

    from gwasl.model.terrain import terrain_table

    table = terrain_table()
    m = scenario.map
    out = {}
    for h in m:
        if table[m.terrain_at(h)].obstacle_height is None:
            continue
        d = m.hexes.get(h)
        value = d.extra.get("outline") if d is not None and d.extra else None
        if value is None:
            out[h] = Polygon(layout.polygon(h))
        else:
            out[h] = Polygon(outline_pixels(layout, h, parse_outline(value, h.label)))
    return out


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
