"""A plain reference implementation of ground-level LOS with Shapely.

Used by the property tests and benchmarks/los.py to check
:mod:`gwasl.rules.los` and to measure its speed against.  Straightforward
on purpose: every obstacle is a Shapely polygon (built from the shared
:class:`~gwasl.model.hexgrid.Layout`, snapped to the exact fine frame of
:mod:`gwasl.rules.los_geometry`), and a LOS is a LineString tested against
each obstacle an STRtree says it may touch.  The 3-D part: for an obstacle
with top ``T`` only the piece of the line not above ``T`` (a terrain
obstacle) or below ``T`` (a hill's ground) is tested, its end computed as an
exact fraction and the geometry scaled so every coordinate stays an integer
(GEOS predicates on integer input are exact).

Same rules as the fast kernel (CONTRACTS 3, ASL A6.2, docs/rules-notes.md):
a hex blocks when the interior of that piece enters its blocking area's
interior; along a hexside, only when both hexes' blocking areas cover that
side.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import shapely
from shapely.geometry import LineString, Polygon

from gwasl.model.hexgrid import Hex, Layout
from gwasl.model.scenario import Scenario
from gwasl.model.terrain import terrain_table
from gwasl.rules.los_geometry import fine_centre, layout_to_fine, parse_outline

__all__ = ["ReferenceLos"]


class ReferenceLos:
    """Reference LOS for ground-level units on one scenario's map."""

    def __init__(self, scenario: Scenario, layout: Layout | None = None):
        self.scenario = scenario
        m = scenario.map
        lay = layout or Layout()
        table = terrain_table()
        levels = {h: m.level_at(h) for h in m}
        low = min(levels.values())
        # hex, ring, top2, full hex, at_top (a terrain obstacle: a level line at its top is blocked)
        self.obstacles: list[tuple[Hex, tuple[tuple[int, int], ...], int, bool, bool]] = []
        self.level2 = {h: 2 * lv for h, lv in levels.items()}
        for h in m:
            ring = tuple(layout_to_fine(lay, p.x, p.y) for p in lay.polygon(h))
            lv = levels[h]
            info = table[m.terrain_at(h)]
            if info.obstacle_height is not None:
                d = m.hexes.get(h)
                outline = d.extra.get("outline") if d is not None and d.extra else None
                top = 2 * lv + round(2 * info.obstacle_height)
                if outline is not None:
                    cx, cy = fine_centre(h)
                    o = parse_outline(outline, h.label)
                    self.obstacles.append((h, tuple((cx + x, cy + y) for x, y in o.vertices), top, False, True))
                    if lv > low:
                        self.obstacles.append((h, ring, 2 * lv, True, False))
                else:
                    self.obstacles.append((h, ring, top, True, True))
            elif lv > low:
                self.obstacles.append((h, ring, 2 * lv, True, False))
        self.polys = [Polygon(r) for _, r, _, _, _ in self.obstacles]
        self.tree = shapely.STRtree(self.polys)

    def clear(self, a: Hex, b: Hex) -> bool:
        """Ground-to-ground LOS from ``a`` to ``b``: True when clear."""
        if a == b:
            return True
        A = fine_centre(a)
        B = fine_centre(b)
        ha, hb = self.level2[a], self.level2[b]
        line = LineString([A, B])
        cands = self.tree.query(line)
        along: list[int] = []  # obstacles whose boundary the line runs along
        for j in cands:
            h, ring, top, _full, at_top = self.obstacles[j]
            if h in (a, b):
                continue
            sub = self._below(A, B, ha, hb, top, at_top)
            if sub is None:
                continue
            seg, scale = sub
            poly = Polygon([(x * scale, y * scale) for x, y in ring])
            if seg.relate_pattern(poly, "T********"):
                return False
            if seg.relate_pattern(poly.boundary, "1********"):
                along.append(j)
        # Hexside stretches: two obstacles of adjacent hexes both covering
        # their shared side, the line along it blocked by both.
        for i, j in ((i, j) for i in along for j in along if i < j):
            hi, ri, ti, _, ai = self.obstacles[i]
            hj, rj, tj, _, aj = self.obstacles[j]
            if not hi.is_adjacent(hj):
                continue
            ci, cj = set(Polygon(self._hex_ring(hi)).exterior.coords), set(Polygon(self._hex_ring(hj)).exterior.coords)
            shared = sorted(ci & cj)
            if len(shared) != 2:
                continue
            side = LineString(shared)
            if not (Polygon(ri).boundary.covers(side) and Polygon(rj).boundary.covers(side)):
                continue
            # Level at the lower top: blocked only if each hex at that top blocks at its top.
            low_top = min(ti, tj)
            sub = self._below(A, B, ha, hb, low_top, (ai or ti > low_top) and (aj or tj > low_top))
            if sub is None:
                continue
            seg, scale = sub
            side_s = LineString([(x * scale, y * scale) for x, y in shared])
            if seg.relate_pattern(side_s, "1********"):
                return False
        return True

    @staticmethod
    def _hex_ring(h: Hex) -> list[tuple[int, int]]:
        from gwasl.rules.los_geometry import hex_fine_corners

        return list(hex_fine_corners(h))

    @staticmethod
    def _below(A: tuple[int, int], B: tuple[int, int], ha: int, hb: int, top: int, at_top: bool) -> tuple[LineString, int] | None:
        """The piece of segment AB lower than ``top`` (``at_top``: not higher
        than it), scaled to integers.  A sloping line's piece is the same
        either way (its interior is strictly below); a level line at the top
        is kept whole only when ``at_top``."""
        if ha == hb:
            return (LineString([A, B]), 1) if ha < top or (at_top and ha == top) else None
        t = Fraction(top - ha, hb - ha)
        if hb > ha:
            if t <= 0:
                return None
            t0, t1 = Fraction(0), min(t, Fraction(1))
        else:
            if t >= 1:
                return None
            t0, t1 = max(t, Fraction(0)), Fraction(1)
        s = lcm(t0.denominator, t1.denominator)
        dx, dy = B[0] - A[0], B[1] - A[1]
        p0 = (A[0] * s + int(t0 * s) * dx, A[1] * s + int(t0 * s) * dy)
        p1 = (A[0] * s + int(t1 * s) * dx, A[1] * s + int(t1 * s) * dy)
        return LineString([p0, p1]), s
