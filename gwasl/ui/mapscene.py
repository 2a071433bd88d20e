"""The map as a QGraphicsScene, drawn from a :class:`~gwasl.ui.drawable.MapDrawing`.

Geometry comes from the shared :class:`~gwasl.model.hexgrid.Layout`, the same
object the LOS geometry uses.  The scene keeps no scenario state of its own:
it draws whatever drawing it was last given, and :meth:`MapScene.set_drawing`
repaints only the hexes that changed.

Items, bottom to top: the terrain/fortification layer (one item that paints
only the exposed hexes, so a 16-board map stays fast), overlays (LOS map,
command radius, selection), unit stacks (one item per hex, fanning out on
hover or click) and the LOS thread.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from typing import Any, ClassVar, NamedTuple

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QGraphicsScene, QStyleOptionGraphicsItem

from gwasl.model.hexgrid import Hex, Layout, Point
from gwasl.model.scenario import FortificationKind, MapData, Terrain
from gwasl.ui import plain, style
from gwasl.ui.counters import paint_counter, status_words
from gwasl.ui.drawable import CounterFace, MapDrawing, StackDrawing

__all__ = ["MapScene", "MapLayer", "StackItem", "HexOverlay", "HexMarkers", "LosThreadItem", "make_layout"]

_SQRT3 = math.sqrt(3.0)
STACK_RAISE = 0.2  # a stack stands this many hex sizes above the hex centre


def make_layout(size: float = style.HEX_SIZE) -> Layout:
    return Layout.for_map(size=size, margin=style.MARGIN)


def _font(px: float, bold: bool = False) -> QFont:
    f = QFont("DejaVu Sans")
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


class _Geometry:
    """Hex-local shapes (centre at 0,0) for one hex size, built once."""

    def __init__(self, layout: Layout) -> None:
        s = layout.size
        self.size = s
        self.layout = layout
        self.hex = QPolygonF([QPointF(p.x, p.y) for p in layout.corner_offsets()])
        self.hex_path = QPainterPath()
        self.hex_path.addPolygon(self.hex)
        self.hex_path.closeSubpath()
        # Edge midpoints towards each neighbour direction (N, NE, SE, S, SW, NW) in screen coordinates.
        h = s * _SQRT3 / 2
        self.edge_mid = []
        for d in range(6):
            n = Hex(0, 0).neighbour(d)
            c = layout.hex_to_pixel(n)
            o = layout.hex_to_pixel(Hex(0, 0))
            vx, vy = c.x - o.x, c.y - o.y
            ln = math.hypot(vx, vy)
            self.edge_mid.append(QPointF(vx / ln * h, vy / ln * h))
        # The two corners of the hexside facing direction d.
        corners = [QPointF(p.x, p.y) for p in layout.corner_offsets()]
        self.edge = []
        for d in range(6):
            m = self.edge_mid[d]
            pair = sorted(corners, key=lambda c: (c.x() - m.x()) ** 2 + (c.y() - m.y()) ** 2)[:2]
            self.edge.append((pair[0], pair[1]))
        self.patterns = {t: self._pattern(t) for t in Terrain}

    def _pattern(self, t: Terrain) -> list[tuple[QPainterPath, QBrush, QPen]]:
        """The texture drawn inside a hex of terrain ``t``: (path, fill, outline) layers."""
        s = self.size
        out: list[tuple[QPainterPath, QBrush, QPen]] = []
        nopen = QPen(Qt.PenStyle.NoPen)
        if t is Terrain.WOODS:
            canopy = QPainterPath()
            for x, y, r in (
                (0, 0, 0.34),
                (-0.42, -0.3, 0.27),
                (0.42, -0.3, 0.27),
                (-0.42, 0.3, 0.27),
                (0.42, 0.3, 0.27),
                (0, -0.55, 0.22),
                (0, 0.55, 0.22),
                (-0.72, 0, 0.2),
                (0.72, 0, 0.2),
            ):
                canopy.addEllipse(QPointF(x * s, y * s), r * s, r * s)
            canopy = canopy.simplified()
            out.append((canopy, QBrush(QColor("#4f8a3c")), QPen(QColor("#2c5a20"), s * .035)))
            dots = QPainterPath()
            for (x, y) in ((-.1, -.08), (.12, .1), (-.45, -.25), (.4, .32), (-.38, .36), (.45, -.28), (0, -.5), (.05, .52)):
                dots.addEllipse(QPointF(x * s, y * s), .05 * s, .05 * s)
            out.append((dots, QBrush(QColor("#2f6624")), nopen))
        elif t is Terrain.ORCHARD:
            trees = QPainterPath()
            for i in (-1, 0, 1):
                for j in (-1, 0, 1):
                    x, y = i * .48 * s + (j % 2) * .12 * s, j * .42 * s
                    trees.addEllipse(QPointF(x, y), .13 * s, .13 * s)
            out.append((trees, QBrush(QColor("#79a653")), QPen(QColor("#3d6a2a"), s * .03)))
        elif t is Terrain.BRUSH:
            tufts = QPainterPath()
            for (x, y) in ((-.5, -.3), (0, -.5), (.5, -.3), (-.25, 0), (.25, 0), (-.5, .35), (0, .45), (.5, .35), (.7, 0), (-.7, 0)):
                cx, cy = x * s, y * s
                tufts.moveTo(cx - .09 * s, cy - .07 * s)
                tufts.lineTo(cx, cy + .05 * s)
                tufts.lineTo(cx + .09 * s, cy - .07 * s)
                tufts.moveTo(cx, cy + .05 * s)
                tufts.lineTo(cx, cy - .1 * s)
            out.append((tufts, QBrush(Qt.BrushStyle.NoBrush), QPen(QColor("#5e7330"), s * .04)))
        elif t is Terrain.GRAIN:
            lines = QPainterPath()
            for k in range(-6, 7):
                x = k * .22 * s
                lines.moveTo(x - .6 * s, .9 * s)
                lines.lineTo(x + .6 * s, -.9 * s)
            clip = QPainterPath()
            clip.addPolygon(self.hex)
            out.append((_clip_lines(lines, clip), QBrush(Qt.BrushStyle.NoBrush), QPen(QColor("#c9a94e"), s * .035)))
        elif t is Terrain.SHELLHOLES:
            craters = QPainterPath()
            for (x, y, r) in ((-.38, -.28, .2), (.35, -.35, .16), (.05, .1, .24), (-.45, .38, .14), (.48, .33, .18)):
                craters.addEllipse(QPointF(x * s, y * s), r * s, r * s * .8)
            out.append((craters, QBrush(QColor("#9b7a52")), QPen(QColor("#5e4326"), s * .04)))
            pits = QPainterPath()
            for (x, y, r) in ((-.38, -.26, .08), (.35, -.34, .06), (.05, .12, .1), (.48, .34, .07)):
                pits.addEllipse(QPointF(x * s, y * s), r * s, r * s * .8)
            out.append((pits, QBrush(QColor("#6b4f30")), nopen))
        elif t is Terrain.MARSH:
            m = QPainterPath()
            for (x, y) in ((-.5, -.4), (.2, -.45), (-.2, -.1), (.5, -.05), (-.55, .3), (.15, .35), (.55, .45)):
                cx, cy = x * s, y * s
                m.moveTo(cx - .17 * s, cy)
                m.lineTo(cx + .17 * s, cy)
                for dx in (-.07, 0, .07):
                    m.moveTo(cx + dx * s, cy)
                    m.lineTo(cx + dx * 1.6 * s, cy - .13 * s)
            out.append((m, QBrush(Qt.BrushStyle.NoBrush), QPen(QColor("#3f7d74"), s * .035)))
        elif t is Terrain.WATER:
            w = QPainterPath()
            for y in (-.45, -.15, .15, .45):
                w.moveTo(-.55 * s, y * s)
                for k in range(4):
                    x0 = (-.55 + k * .28) * s
                    w.quadTo(QPointF(x0 + .07 * s, (y - .08) * s), QPointF(x0 + .14 * s, y * s))
                    w.quadTo(QPointF(x0 + .21 * s, (y + .08) * s), QPointF(x0 + .28 * s, y * s))
            out.append((w, QBrush(Qt.BrushStyle.NoBrush), QPen(QColor("#e8f2fb"), s * .035)))
        elif t in (Terrain.WOODEN_RUBBLE, Terrain.STONE_RUBBLE):
            stone = t is Terrain.STONE_RUBBLE
            rubble = QPainterPath()
            for (x, y, a) in ((-.4, -.2, .16), (.1, -.4, .12), (.35, -.05, .18), (-.1, .2, .14), (.3, .4, .1), (-.45, .35, .1), (0, -.05, .1)):
                poly = QPolygonF([QPointF((x + a * math.cos(k * 2.1 + x * 5)) * s, (y + a * math.sin(k * 2.1 + y * 5)) * s) for k in range(3)])
                rubble.addPolygon(poly)
                rubble.closeSubpath()
            fill = QColor("#8d8a84") if stone else QColor("#9a6b40")
            out.append((rubble, QBrush(fill), QPen(QColor("#3a3530"), s * .03)))
        return out


def _clip_lines(lines: QPainterPath, clip: QPainterPath) -> QPainterPath:
    """Line segments of ``lines`` clipped to the convex ``clip`` polygon (QPainterPath.intersected fills)."""
    poly = clip.toFillPolygon()
    out = QPainterPath()
    n = lines.elementCount()
    i = 0
    while i + 1 < n:
        a, b = lines.elementAt(i), lines.elementAt(i + 1)
        seg = _clip_segment(QPointF(a.x, a.y), QPointF(b.x, b.y), poly)
        if seg:
            out.moveTo(seg[0])
            out.lineTo(seg[1])
        i += 2
    return out


def _clip_segment(p: QPointF, q: QPointF, poly: QPolygonF):
    # Cyrus-Beck against a convex polygon (counter-clockwise or clockwise: handled by the sign test).
    t0, t1 = 0.0, 1.0
    d = q - p
    pts = [poly.at(i) for i in range(poly.count())]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    cx = sum(v.x() for v in pts) / len(pts)
    cy = sum(v.y() for v in pts) / len(pts)
    for i in range(len(pts)):
        a, b = pts[i], pts[(i + 1) % len(pts)]
        nx, ny = b.y() - a.y(), a.x() - b.x()
        if nx * (cx - a.x()) + ny * (cy - a.y()) < 0:
            nx, ny = -nx, -ny  # normal points inwards
        num = nx * (p.x() - a.x()) + ny * (p.y() - a.y())
        den = nx * d.x() + ny * d.y()
        if den == 0:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (p + d * t0, p + d * t1)


class _Cell(NamedTuple):
    """One hex as the map layer paints it."""

    hex: Hex
    centre: Point
    poly: QPolygonF
    terrain: Terrain
    fill: QColor
    tint: QColor | None  # the level tint, None at level 0
    sloped: bool  # off level 0 or next to such a hex: may need contour edges
    outline: Any  # the hex's "outline" field as the file gives it, or None


class MapLayer(QGraphicsItem):
    """Terrain, levels, contours, buildings, roads, fortifications, grid and labels.

    One item for the whole map that paints only the hexes in the exposed
    rectangle; at low zoom it leaves out textures and labels.
    """

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._scene = scene
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        # The map is drawn once per zoom into a pixmap; hovering, overlays and
        # counters then repaint over a blit instead of redrawing every hex.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue(0)
        self._building_paths: dict[str, tuple[QPainterPath, bool]] | None = None
        self._rect = QRectF()
        self._cells_for: MapData | None = None
        self._levels: dict[Hex, int] = {}
        self._sloped: frozenset[Hex] = frozenset()
        self._columns: dict[int, list[_Cell]] = {}

    def set_map_rect(self, rect: QRectF) -> None:
        self.prepareGeometryChange()
        self._rect = QRectF(rect)

    def boundingRect(self) -> QRectF:
        return self._rect

    def invalidate_buildings(self) -> None:
        self._building_paths = None

    # -- geometry helpers ---------------------------------------------------------
    def hexes_in(self, rect: QRectF) -> list[Hex]:
        return [cell.hex for cell in self.cells_in(rect)]

    def _span(self, m: MapData, rect: QRectF) -> tuple[range, range]:
        """The columns and rows of ``m`` whose hexes' drawing may meet ``rect``."""
        lay = self._scene.layout
        s, hh = lay.size, lay.hex_height
        ox, oy = lay.origin
        c0 = max(0, math.floor((rect.left() - ox - s) / (1.5 * s)))
        c1 = min(m.columns - 1, math.ceil((rect.right() - ox + s) / (1.5 * s)))
        r0 = max(0, math.floor((rect.top() - oy - hh) / hh))
        r1 = min(m.rows - 1, math.ceil((rect.bottom() - oy + hh) / hh) + 1)
        return range(c0, c1 + 1), range(r0, r1 + 1)

    def cells_in(self, rect: QRectF) -> list[_Cell]:
        """The map's hexes whose drawing may meet ``rect``, column by column, with what
        painting them needs (built once per map and column, see :meth:`_column`)."""
        d = self._scene.drawing
        if d is None:
            return []
        cols, rows = self._span(d.map, rect)
        out: list[_Cell] = []
        if rows:
            for c in cols:
                out.extend(self._column(d.map, c)[rows.start : rows.stop])
        return out

    def _buildings(self) -> dict[str, tuple[QPainterPath, bool]]:
        """One outline per building id: hex footprints joined across shared hexsides (A26.14)."""
        if self._building_paths is not None:
            return self._building_paths
        d = self._scene.drawing
        if d is None:
            return {}
        lay = self._scene.layout
        s = lay.size
        groups: dict[str, list[Hex]] = {}
        for h, hd in d.map.hexes.items():
            if hd.terrain in (Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING):
                groups.setdefault(hd.building or f"@{h.label}", []).append(h)
        paths: dict[str, tuple[QPainterPath, bool]] = {}
        for bid, hexes in groups.items():
            members = set(hexes)
            path = QPainterPath()
            for h in hexes:
                c = lay.hex_to_pixel(h)
                part = QPainterPath()
                part.addRect(QRectF(c.x - .5 * s, c.y - .5 * s, s, s))
                path = path.united(part)
                for n in h.neighbours():
                    if n in members and not bid.startswith("@"):
                        nc = lay.hex_to_pixel(n)
                        bridge = QPainterPath()
                        # a band from centre to neighbour centre, as wide as the footprint
                        vx, vy = nc.x - c.x, nc.y - c.y
                        ln = math.hypot(vx, vy)
                        px, py = -vy / ln * .42 * s, vx / ln * .42 * s
                        bridge.addPolygon(
                            QPolygonF(
                                [
                                    QPointF(c.x + px, c.y + py),
                                    QPointF(nc.x + px, nc.y + py),
                                    QPointF(nc.x - px, nc.y - py),
                                    QPointF(c.x - px, c.y - py),
                                ]
                            )
                        )
                        bridge.closeSubpath()
                        path = path.united(bridge)
            stone = any(d.map.terrain_at(h) is Terrain.STONE_BUILDING for h in hexes)
            paths[bid] = (path.simplified(), stone)
        self._building_paths = paths
        return paths

    def _column(self, m: MapData, col: int) -> list[_Cell]:
        """The cells of column ``col`` of map ``m`` (a 208 x 200 map has 41,600 hexes: each
        looked up once per map, not once per drawing pass; a new map starts afresh)."""
        if self._cells_for is not m:
            levels = {h: hd.level for h, hd in m.hexes.items() if hd.level}
            sloped = set(levels)  # a contour needs a hex off level 0 or next to one
            for h in levels:
                sloped.update(h.neighbours())
            self._cells_for, self._levels, self._sloped, self._columns = m, levels, frozenset(sloped), {}
        cells = self._columns.get(col)
        if cells is None:
            lay, shape = self._scene.layout, self._scene.geom.hex
            levels, sloped, described = self._levels, self._sloped, m.hexes
            default, fills = m.default_terrain, style.TERRAIN_FILL
            cells = []
            for row in range(m.rows):
                h = Hex.from_offset(col, row)
                c = lay.hex_to_pixel(h)
                hd = described.get(h)
                near_slope = bool(sloped) and h in sloped
                if hd is None:  # most hexes of a large map: the default terrain at level 0
                    cells.append(_Cell(h, c, shape.translated(c.x, c.y), default, fills[default], None, near_slope, None))
                    continue
                t = hd.terrain if hd.terrain is not None else default
                tint = style.level_tint(hd.level)
                cells.append(_Cell(h, c, shape.translated(c.x, c.y), t, fills[t], tint, near_slope, hd.extra.get("outline")))
            self._columns[col] = cells
        return cells

    # -- painting -------------------------------------------------------------------
    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        sc = self._scene
        d = sc.drawing
        if d is None:
            return
        lay, g = sc.layout, sc.geom
        s = lay.size
        m = d.map
        rect = option.exposedRect
        lod = option.levelOfDetailFromTransform(p.worldTransform())
        cells = self.cells_in(rect)
        detail = lod > 0.45
        p.setRenderHint(QPainter.RenderHint.Antialiasing, detail)

        # 1. terrain fills and textures
        p.setPen(Qt.PenStyle.NoPen)
        brush = None
        for cell in cells:
            if cell.fill is not brush:  # the same colour object: set once for a run of one terrain
                brush = cell.fill
                p.setBrush(brush)
            p.drawPolygon(cell.poly)
        if detail:
            for cell in cells:
                layers = g.patterns.get(cell.terrain)
                if not layers:
                    continue
                c = cell.centre
                p.save()
                p.translate(c.x, c.y)
                for path, fill, pen in layers:
                    p.setBrush(fill)
                    p.setPen(pen)
                    p.drawPath(path)
                p.restore()
        # 2. roads: a band from each road hex to its road neighbours
        road_pen = QPen(QColor("#8f8672"), .42 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        road_in = QPen(QColor("#d9d2bd"), .3 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        roads = [cell for cell in cells if cell.terrain is Terrain.ROAD]
        for pen in (road_pen, road_in):
            p.setPen(pen)
            for cell in roads:
                h, c = cell.hex, cell.centre
                links = [dn for dn, n in enumerate(h.neighbours()) if m.contains(n) and m.terrain_at(n) is Terrain.ROAD]
                if not links:
                    p.drawLine(QPointF(c.x - .5 * s, c.y), QPointF(c.x + .5 * s, c.y))
                for dn in links:
                    e = g.edge_mid[dn]
                    p.drawLine(QPointF(c.x, c.y), QPointF(c.x + e.x(), c.y + e.y()))
        # 3. level tint and contour edges
        p.setPen(Qt.PenStyle.NoPen)
        for cell in cells:
            if cell.tint is not None:
                p.setBrush(cell.tint)
                p.drawPolygon(cell.poly)
        contour = QPen(style.CONTOUR, .09 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        p.setPen(contour)
        for cell in cells:
            if not cell.sloped:
                continue
            h, c = cell.hex, cell.centre
            lv = m.level_at(h)
            for dn, n in enumerate(h.neighbours()):
                if m.contains(n) and m.level_at(n) < lv:
                    a, b = g.edge[dn]
                    # drawn just inside the higher hex, like a contour line hugging the crest
                    k = .9
                    p.drawLine(QPointF(c.x + a.x() * k, c.y + a.y() * k), QPointF(c.x + b.x() * k, c.y + b.y() * k))
        # 4. custom obstacle outlines (LOS): hex-local units, circumradius 1
        for cell in cells:
            outline = cell.outline
            if outline and isinstance(outline, list) and len(outline) >= 3:
                c = cell.centre
                try:
                    poly = QPolygonF([QPointF(c.x + float(x) * s, c.y + float(y) * s) for x, y in outline])
                except (TypeError, ValueError):
                    continue
                p.setBrush(QColor(60, 40, 20, 60))
                p.setPen(QPen(QColor("#5a2d0c"), .05 * s, Qt.PenStyle.DashLine))
                p.drawPolygon(poly)
        # 5. grid (under buildings and works, which stand on the map)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(style.GRID, max(.035 * s, 0.0)))
        for cell in cells:
            p.drawPolygon(cell.poly)
        # 6. buildings
        if any(cell.terrain in (Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING) for cell in cells):
            for _bid, (path, stone) in self._buildings().items():
                if not path.boundingRect().intersects(rect):
                    continue
                p.setBrush(QColor("#a19d97") if stone else QColor("#b4794a"))
                p.setPen(QPen(QColor("#1d1b18"), .07 * s))
                p.drawPath(path)
                if detail:
                    p.save()
                    p.setClipPath(path)
                    p.setPen(QPen(QColor(40, 30, 20, 90), .03 * s))
                    br = path.boundingRect()
                    step = .16 * s
                    x = br.left() - br.height()
                    while x < br.right():
                        p.drawLine(QPointF(x, br.bottom()), QPointF(x + br.height(), br.top()))
                        x += step
                    p.restore()
        # 7. fortifications
        cols, rows = self._span(m, rect)
        for f in d.fortifications:
            fh = [h for h in f.hexes if h.column in cols and h.row in rows]
            if fh:
                _draw_fortification(p, sc, f, fh, detail)
        # 8. labels and levels
        if detail:
            p.setPen(style.LABEL)
            p.setFont(_font(.27 * s))
            hh = lay.hex_height
            for cell in cells:
                c = cell.centre
                p.drawText(QRectF(c.x - s, c.y - hh / 2 + .02 * s, 2 * s, .32 * s), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, cell.hex.label)


def _fort_links(members: AbstractSet[Hex], h: Hex) -> list[int]:
    """Directions from ``h`` to the other hexes of its work (``members``: the work's hexes, as a set)."""
    return [dn for dn, n in enumerate(h.neighbours()) if n in members]


def _draw_fortification(p: QPainter, sc: MapScene, f, hexes: Iterable[Hex], detail: bool) -> None:
    lay, g = sc.layout, sc.geom
    s = lay.size
    members = frozenset(f.hexes)  # once per work, not per hex (issue 17.6: a work may list many hexes)
    for h in hexes:
        c = lay.hex_to_pixel(h)
        cx, cy = c.x, c.y
        if f.marker == "hidden" and detail:
            # A work still hidden from the enemy (O'Leary 4): tagged for its owner and the designer.
            p.setPen(QColor("#6a3d9a"))
            p.setFont(_font(.18 * s, True))
            p.drawText(QRectF(cx - s, cy + .58 * s, 2 * s, .24 * s), Qt.AlignmentFlag.AlignHCenter, "hidden " + f.kind.value.replace("_", " "))
        kind = f.kind
        if kind in (FortificationKind.TRENCH, FortificationKind.DEEP_TRENCH, FortificationKind.WIRE):
            links = _fort_links(members, h)
            segs = [(QPointF(cx, cy), QPointF(cx + g.edge_mid[dn].x(), cy + g.edge_mid[dn].y())) for dn in links]
            if not segs:
                segs = [(QPointF(cx - .6 * s, cy + .25 * s), QPointF(cx + .6 * s, cy + .25 * s))]
            if kind is FortificationKind.WIRE:
                p.setPen(QPen(QColor("#2b2b2b"), .035 * s))
                for a, b in segs:
                    p.drawLine(a, b)
                    n = max(2, int(math.hypot(b.x() - a.x(), b.y() - a.y()) / (.2 * s)))
                    for i in range(n + 1):
                        t = i / n
                        x, y = a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t
                        arm = .08 * s
                        p.drawLine(QPointF(x - arm, y - arm), QPointF(x + arm, y + arm))
                        p.drawLine(QPointF(x - arm, y + arm), QPointF(x + arm, y - arm))
                continue
            deep = kind is FortificationKind.DEEP_TRENCH
            outer = QPen(QColor("#1f150b") if deep else QColor("#5a3b1e"), (.34 if deep else .2) * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            inner = QPen(QColor("#6e4e2e") if deep else QColor("#a98154"), (.18 if deep else .09) * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            for pen in (outer, inner):
                p.setPen(pen)
                for a, b in segs:
                    p.drawLine(a, b)
            # parapet ticks: the crenellated trench line of wargame maps
            if detail:
                p.setPen(QPen(outer.color(), .045 * s))
                half = (.2 if deep else .13) * s
                for a, b in segs:
                    vx, vy = b.x() - a.x(), b.y() - a.y()
                    ln = math.hypot(vx, vy) or 1
                    ux, uy = vx / ln, vy / ln
                    nx, ny = -uy, ux
                    along = .1 * s
                    while along < ln:
                        x, y = a.x() + ux * along, a.y() + uy * along
                        p.drawLine(QPointF(x + nx * half, y + ny * half), QPointF(x + nx * (half + .1 * s), y + ny * (half + .1 * s)))
                        along += .17 * s
            if deep and h in f.ladders:
                _draw_ladder(p, cx + .6 * s, cy + .38 * s, s)
        elif kind is FortificationKind.DUGOUT:
            r = QRectF(cx - .3 * s, cy + .4 * s, .6 * s, .34 * s)
            p.setPen(QPen(QColor("#140d06"), .05 * s))
            p.setBrush(QColor("#4b3520"))
            p.drawRect(r)
            p.setBrush(QColor("#0b0703"))
            door = QPainterPath()
            door.moveTo(cx - .1 * s, cy + .74 * s)
            door.lineTo(cx - .1 * s, cy + .58 * s)
            door.arcTo(QRectF(cx - .1 * s, cy + .48 * s, .2 * s, .2 * s), 180, -180)
            door.lineTo(cx + .1 * s, cy + .74 * s)
            door.closeSubpath()
            p.drawPath(door)
            p.setPen(QPen(QColor("#c8a070"), .03 * s))
            p.drawLine(QPointF(cx - .27 * s, cy + .46 * s), QPointF(cx + .27 * s, cy + .46 * s))
        elif kind is FortificationKind.FOXHOLE:
            p.setPen(QPen(QColor("#3e2a15"), .06 * s))
            p.setBrush(QColor("#7a5a38"))
            for dx in (-.22, .22):
                p.drawEllipse(QPointF(cx + dx * s, cy + .62 * s), .16 * s, .09 * s)
        elif kind is FortificationKind.PILLBOX:
            poly = QPolygonF([QPointF(cx + x * s, cy + y * s) for x, y in ((-.3, .78), (-.36, .5), (0, .36), (.36, .5), (.3, .78))])
            p.setPen(QPen(QColor("#111111"), .07 * s))
            p.setBrush(QColor("#8e8c86"))
            p.drawPolygon(poly)
            p.setPen(QPen(QColor("#111111"), .07 * s))
            p.drawLine(QPointF(cx - .15 * s, cy + .55 * s), QPointF(cx + .15 * s, cy + .55 * s))
        elif kind is FortificationKind.MINEFIELD:
            dummy = f.marker == "dummy"
            p.setPen(QPen(QColor("#b3261e"), .06 * s, Qt.PenStyle.DashLine))
            p.setBrush(QColor(179, 38, 30, 30))
            p.drawPolygon(QPolygonF([QPointF(cx + v.x() * .78, cy + v.y() * .78) for v in (g.hex.at(i) for i in range(g.hex.count()))]))
            p.setPen(QPen(QColor("#4a0f0b"), .03 * s))
            p.setBrush(QColor("#b3261e") if not dummy else Qt.BrushStyle.NoBrush)
            for dx, dy in ((-.3, -.35), (.3, -.35), (0, .45)):
                mx, my = cx + dx * s, cy + dy * s
                p.drawEllipse(QPointF(mx, my), .08 * s, .08 * s)
                for spoke in range(4):
                    ang = spoke * math.pi / 4
                    p.drawLine(
                        QPointF(mx + math.cos(ang) * 0.12 * s, my + math.sin(ang) * 0.12 * s),
                        QPointF(mx - math.cos(ang) * 0.12 * s, my - math.sin(ang) * 0.12 * s),
                    )
            if dummy and detail:
                p.setPen(QColor("#b3261e"))
                p.setFont(_font(.2 * s, True))
                p.drawText(QRectF(cx - s, cy - .62 * s, 2 * s, .25 * s), Qt.AlignmentFlag.AlignHCenter, "dummy")


def _draw_ladder(p: QPainter, x: float, y: float, s: float) -> None:
    """ASLGW 2.1.3 ladder mark: two rails and three rungs."""
    p.setPen(QPen(QColor("#f3e6c8"), .05 * s))
    h, w = .42 * s, .16 * s
    p.drawLine(QPointF(x - w / 2, y - h / 2), QPointF(x - w / 2, y + h / 2))
    p.drawLine(QPointF(x + w / 2, y - h / 2), QPointF(x + w / 2, y + h / 2))
    for k in (-1, 0, 1):
        p.drawLine(QPointF(x - w / 2, y + k * h / 3.2), QPointF(x + w / 2, y + k * h / 3.2))


# ---------------------------------------------------------------------------
# Counters and stacks
# ---------------------------------------------------------------------------
def _describe(f: CounterFace) -> str:
    """One line per counter for the stack's tooltip, top counter first; its markers of play
    in words with their rules (Prep Fire, CX, DM...)."""
    parts = [f.key if not f.key.startswith(("dummy:", "concealed:", "own-")) else f.title, f.title]
    for x in (f.factors, f.rating, f.platoon and f"platoon {f.platoon}", f.position, f.marker, f.count and f"{f.count} counters",
              f.broken and "broken"):
        if x:
            parts.append(str(x))
    line = " ".join(dict.fromkeys(parts))
    return line + "".join(f"; {status_words(code)}" for code in f.status)


class StackItem(QGraphicsObject):
    """The counters of one hex, stacked ASL-style; hovering or clicking fans them out."""

    STEP = 0.13
    #: Tallest stack drawn through a pixmap cache (see __init__).
    CACHED_HEIGHT = 24

    def __init__(self, scene: MapScene, stack: StackDrawing) -> None:
        super().__init__()
        self._mapscene = scene
        self.stack = stack
        self.fanned = False
        self.pinned = False
        self._fan_shift = QPointF()  # how far the fanned row moves to stay inside the view
        self.setAcceptHoverEvents(True)
        # A cached stack is a pixmap of its bounding box, which grows with the square of
        # its height (2,000 counters: over a gigabyte; 20,000: no pixmap at all, so
        # nothing drawn, issue 17.5): only stacks of a usual height are cached.
        if len(stack.counters) <= self.CACHED_HEIGHT:
            self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        else:  # drawn directly: paint skips the counters outside the exposed area
            self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setZValue(20)
        self.setToolTip(plain.tooltip("\n".join(_describe(f) for f in reversed(stack.counters))))
        c = scene.layout.hex_to_pixel(stack.hex)
        # above centre, so fortification symbols in the lower part of the hex stay visible
        self.setPos(c.x, c.y - scene.layout.size * STACK_RAISE)

    @property
    def counter_size(self) -> float:
        return self._mapscene.layout.size * style.COUNTER_SCALE

    def counter_rects(self) -> list[QRectF]:
        w = self.counter_size
        n = len(self.stack.counters)
        if self.fanned and n > 1:
            gap = w * 1.06
            x0 = -gap * (n - 1) / 2 - w / 2 + self._fan_shift.x()
            y0 = -w / 2 - w * .15 + self._fan_shift.y()
            return [QRectF(x0 + i * gap, y0, w, w) for i in range(n)]
        step = w * self.STEP
        base_x = -w / 2 - step * (n - 1) / 2
        base_y = -w / 2 + step * (n - 1) / 2
        return [QRectF(base_x + i * step, base_y - i * step, w, w) for i in range(n)]

    def boundingRect(self) -> QRectF:
        r = QRectF()
        for cr in self.counter_rects():
            r = r.united(cr)
        w = self.counter_size
        return r.adjusted(-w * .12, -w * .12, w * .12, w * .12)

    def face_at(self, pos: QPointF) -> CounterFace | None:
        """The counter under ``pos`` (item coordinates), top-most first."""
        for face, r in reversed(list(zip(self.stack.counters, self.counter_rects()))):
            if r.contains(pos):
                return face
        return None

    def set_fanned(self, on: bool) -> None:
        if on == self.fanned:
            return
        self.prepareGeometryChange()
        self.fanned = on
        self._fan_shift = self._inside_view_shift() if on else QPointF()
        self.setZValue(40 if on else 20)
        self.update()

    def _inside_view_shift(self) -> QPointF:
        """How far to move the fanned row so that all of it shows in the view it is seen in
        (a stack at the view's edge would fan out past it, issue 26.8); none when no view
        shows the scene or the row is wider than the view."""
        views = self._mapscene.views()
        if not views:
            return QPointF()
        v = views[0]
        seen = v.mapToScene(v.viewport().rect()).boundingRect()
        self._fan_shift = QPointF()
        row = self.mapRectToScene(self.boundingRect())
        dx = 0.0  # sideways only: the row is no taller than the stack at rest, which the user points at
        if row.width() <= seen.width():
            dx = max(0.0, seen.left() - row.left()) or min(0.0, seen.right() - row.right())
        # never so far that the counters at rest, under the pointer, leave the row (it would fold again)
        reach = max(0.0, row.width() / 2 - self.counter_size * 0.4)
        return QPointF(max(-reach, min(reach, dx)), 0.0)

    def hoverEnterEvent(self, event) -> None:
        if len(self.stack.counters) > 1:
            self.set_fanned(True)

    def hoverLeaveEvent(self, event) -> None:
        if not self.pinned:
            self.set_fanned(False)

    def toggle_pinned(self) -> None:
        self.pinned = not self.pinned
        self.set_fanned(self.pinned)

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        selected = self._mapscene.selected_units
        w = self.counter_size
        px = w * option.levelOfDetailFromTransform(p.worldTransform())  # the counter's width on screen
        # Counters off the exposed area or off the scene (a tall stack runs off the map) are not drawn.
        exposed = option.exposedRect.intersected(self.mapRectFromScene(self._mapscene.sceneRect()))
        exposed = exposed.adjusted(-w * .2, -w * .2, w * .2, w * .2)  # with the shadow
        for face, r in zip(self.stack.counters, self.counter_rects()):
            if not exposed.intersects(r):
                continue
            # a drop shadow gives the stack its depth
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0, 70))
            p.drawRoundedRect(r.translated(w * .05, w * .05), w * .08, w * .08)
            paint_counter(p, face, r, face.key in selected, px)


# ---------------------------------------------------------------------------
# Overlays
# ---------------------------------------------------------------------------
class HexOverlay(QGraphicsItem):
    """Tints a set of hexes (LOS map, command radius, selection, findings)."""

    def __init__(self, scene: MapScene, brush: QColor, pen: QPen | None = None, z: float = 10) -> None:
        super().__init__()
        self._mapscene = scene
        self.brush = QBrush(brush)
        self.pen = pen or QPen(Qt.PenStyle.NoPen)
        self.hexes: frozenset[Hex] = frozenset()
        self.marks: dict[Hex, tuple[str, QColor]] = {}
        self.setZValue(z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._rect = QRectF()
        self._path = QPainterPath()
        self.marks_item = MarksItem(self)

    def set_hexes(self, hexes: Iterable[Hex], marks: dict[Hex, tuple[str, QColor]] | None = None) -> None:
        new = frozenset(hexes)
        if new == self.hexes and not marks and not self.marks:
            return
        self.prepareGeometryChange()
        self.marks_item.prepareGeometryChange()
        self.hexes = new
        self.marks = dict(marks or {})
        lay, g = self._mapscene.layout, self._mapscene.geom
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.WindingFill)
        # a few hexes (an outline, a drag's targets) are placed directly: the whole map's polygons
        # (tenths of a second on 16 boards) are built only for a tint over many hexes
        polys = self._mapscene.hex_polygons if len(new) > 64 else {}
        for h in new:
            poly = polys.get(h)
            if poly is None:
                c = lay.hex_to_pixel(h)
                poly = g.hex.translated(c.x, c.y)
            path.addPolygon(poly)
        self._path = path
        # as big as the hexes tinted (their outline and marks included): a change repaints
        # those hexes, not the whole map (a history step outlines one event's hexes)
        pad = lay.size * .25 + self.pen.widthF()
        self._rect = path.boundingRect().adjusted(-pad, -pad, pad, pad) if new else QRectF()
        self.update()
        self.marks_item.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setBrush(self.brush)
        p.setPen(self.pen)
        # A tint over whole hexes needs no antialiasing, and filling a path of
        # a thousand hexes without it is several times faster (hover LOS map).
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.drawPath(self._path)


class MarksItem(QGraphicsItem):
    """The marks of a :class:`HexOverlay` (in/out of command), drawn above the counters at rest."""

    def __init__(self, overlay: HexOverlay) -> None:
        super().__init__()
        self.overlay = overlay
        self.setZValue(30)  # over stacks at rest (20), under a fanned-out stack (40)

    def boundingRect(self) -> QRectF:
        return self.overlay.boundingRect()

    def paint(self, p: QPainter, option, widget=None) -> None:
        lay = self.overlay._mapscene.layout
        s = lay.size
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for h, (text, colour) in self.overlay.marks.items():
            c = lay.hex_to_pixel(h)
            if len(text) <= 2 and "\n" not in text:  # a sign (in or out of command): a disc
                # bottom right of the hex, beside the stack's lower corner
                r = QRectF(c.x + .34 * s, c.y + .29 * s, .42 * s, .42 * s)
                p.setPen(QPen(QColor("#111111"), .03 * s))
                p.setBrush(colour)
                p.drawEllipse(r)
                p.setPen(QColor("#ffffff"))
                p.setFont(_font(.3 * s, True))
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
                continue
            # words (a step's MF and what is left): a box as wide as its longest line, across
            # the bottom of the hex under the stack, light on dark so it reads on any terrain
            lines = text.split("\n")
            f = _font(.3 * s, True)
            p.setFont(f)
            fm = p.fontMetrics()
            width = max(fm.horizontalAdvance(t) for t in lines) + .16 * s
            height = fm.height() * len(lines) + .08 * s
            r = QRectF(c.x - width / 2, c.y + .82 * s - height, width, height)
            p.setPen(QPen(QColor("#111111"), .03 * s))
            p.setBrush(colour)
            p.drawRoundedRect(r, .1 * s, .1 * s)
            p.setPen(QColor("#ffffff"))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)


class HexMarkers(QGraphicsItem):
    """Markers that belong to a hex, not to a counter (Residual FP with its value, A8.2):
    a marker across the bottom of the hex, under the counters' stack, drawn over them."""

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._mapscene = scene
        self.marks: dict[Hex, tuple[tuple[str, str, str], ...]] = {}  # hex -> (title, value, fill)
        self.setZValue(31)

    def set_marks(self, marks: dict[Hex, tuple[tuple[str, str, str], ...]]) -> None:
        if marks == self.marks:
            return
        self.prepareGeometryChange()
        self.marks = dict(marks)
        self.update()

    def rect_of(self, h: Hex, i: int = 0) -> QRectF:
        """Where the ``i``-th marker of hex ``h`` is drawn (scene coordinates)."""
        s = self._mapscene.layout.size
        c = self._mapscene.layout.hex_to_pixel(h)
        return QRectF(c.x - .62 * s, c.y + .4 * s - i * .44 * s, 1.24 * s, .42 * s)

    def boundingRect(self) -> QRectF:
        r = QRectF()
        for h, ms in self.marks.items():
            for i in range(len(ms)):
                r = r.united(self.rect_of(h, i))
        return r.adjusted(-2, -2, 2, 2)

    def paint(self, p: QPainter, option, widget=None) -> None:
        s = self._mapscene.layout.size
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for h, ms in self.marks.items():
            for i, (title, value, fill) in enumerate(ms):
                r = self.rect_of(h, i)
                p.setPen(QPen(QColor("#101010"), .035 * s))
                p.setBrush(QColor(fill))
                p.drawRoundedRect(r, .1 * s, .1 * s)
                p.setPen(QColor("#101010"))
                p.setFont(_font(.27 * s, True))
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, f"{title} {value}")


class LosThreadItem(QGraphicsItem):
    """The LOS thread: a line from hex centre to hex centre, coloured by its result."""

    COLOURS: ClassVar[dict[str, QColor]] = {
        "clear": QColor("#1b8a2f"),
        "hindered": QColor("#e09a00"),
        "blocked": QColor("#c62020"),
        "pending": QColor("#404040"),
    }

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._mapscene = scene
        self.a: Hex | None = None
        self.b: Hex | None = None
        self.state = "pending"
        self.text = ""
        self.setZValue(60)

    def set_thread(self, a: Hex | None, b: Hex | None, state: str = "pending", text: str = "") -> None:
        self.prepareGeometryChange()
        self.a, self.b, self.state, self.text = a, b, state, text
        self.update()

    def boundingRect(self) -> QRectF:
        if self.a is None or self.b is None:
            return QRectF()
        lay = self._mapscene.layout
        pa, pb = lay.hex_to_pixel(self.a), lay.hex_to_pixel(self.b)
        s = lay.size
        return QRectF(QPointF(min(pa.x, pb.x), min(pa.y, pb.y)), QPointF(max(pa.x, pb.x), max(pa.y, pb.y))).adjusted(-4 * s, -s, 4 * s, s)

    def paint(self, p: QPainter, option, widget=None) -> None:
        if self.a is None or self.b is None:
            return
        lay = self._mapscene.layout
        s = lay.size
        pa, pb = lay.hex_to_pixel(self.a), lay.hex_to_pixel(self.b)
        colour = self.COLOURS.get(self.state, self.COLOURS["pending"])
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(QPen(QColor(255, 255, 255, 200), .16 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawLine(QPointF(pa.x, pa.y), QPointF(pb.x, pb.y))
        p.setPen(QPen(colour, .08 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawLine(QPointF(pa.x, pa.y), QPointF(pb.x, pb.y))
        p.setBrush(colour)
        for q in (pa, pb):
            p.drawEllipse(QPointF(q.x, q.y), .12 * s, .12 * s)
        if self.text:
            p.setFont(_font(.36 * s, True))
            r = QRectF(pb.x + .25 * s, pb.y - .25 * s, 7 * s, .55 * s)
            fm_w = p.fontMetrics().horizontalAdvance(self.text) + .3 * s
            r.setWidth(fm_w)
            p.setPen(QPen(colour, .04 * s))
            p.setBrush(QColor(255, 255, 255, 230))
            p.drawRoundedRect(r, .1 * s, .1 * s)
            p.setPen(colour)
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, self.text)


# ---------------------------------------------------------------------------
# The scene
# ---------------------------------------------------------------------------
class MapScene(QGraphicsScene):
    """The map scene; draws the last :class:`MapDrawing` it was given."""

    hexHovered = Signal(object)

    def __init__(self, layout: Layout | None = None, parent=None) -> None:
        super().__init__(parent)
        self.layout = layout or make_layout()
        self.geom = _Geometry(self.layout)
        self.drawing: MapDrawing | None = None
        self.selected_units: frozenset[str] = frozenset()
        self.setBackgroundBrush(style.BACKGROUND)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.map_layer = MapLayer(self)
        self.addItem(self.map_layer)
        self.stacks: dict[Hex, StackItem] = {}
        self.los_map = HexOverlay(self, QColor(20, 20, 40, 120), z=12)  # tints hexes NOT seen
        self.command_overlay = HexOverlay(self, QColor(40, 120, 220, 60), QPen(QColor(30, 90, 200, 160), 1.5), z=11)
        # Tool feedback (LOS map observer, drop target, building being grouped): part of a check.
        self.highlight = HexOverlay(self, QColor(255, 200, 0, 70), QPen(QColor("#e0a000"), 3), z=14)
        # The selected hex: the user's pointer, never part of an exported picture.
        self.selection = HexOverlay(self, QColor(255, 200, 0, 50), QPen(QColor("#e0a000"), 3), z=13)
        self.blocker = HexOverlay(self, QColor(200, 30, 30, 90), QPen(QColor("#b01010"), 3), z=15)
        # What a selected action, log line or history step is about (the player window).
        self.focus = HexOverlay(self, QColor(40, 110, 230, 45), QPen(QColor("#1f5fd0"), 4), z=16)
        self.hex_markers = HexMarkers(self)
        self.los_thread = LosThreadItem(self)
        for it in (self.los_map, self.command_overlay, self.highlight, self.selection, self.blocker, self.focus,
                   self.hex_markers, self.los_thread):
            self.addItem(it)
            if isinstance(it, HexOverlay):
                self.addItem(it.marks_item)

    @property
    def hex_polygons(self) -> dict:
        """Every map hex's polygon in scene coordinates, built once per map size."""
        d = self.drawing
        key = (d.map.columns, d.map.rows) if d is not None else None
        if getattr(self, "_polys_key", None) != key:
            self._polys_key = key
            self._polys = {}
            if d is not None:
                for h in d.map:
                    c = self.layout.hex_to_pixel(h)
                    self._polys[h] = self.geom.hex.translated(c.x, c.y)
        return self._polys

    def map_rect(self) -> QRectF:
        d = self.drawing
        if d is None:
            return QRectF()
        w, h = self.layout.map_size(d.map.columns, d.map.rows)
        return QRectF(style.MARGIN, style.MARGIN, w, h)

    def hex_at(self, pos: QPointF) -> Hex | None:
        """The map hex under scene position ``pos``, or None off the map."""
        if self.drawing is None:
            return None
        h = self.layout.pixel_to_hex(pos.x(), pos.y())
        return h if self.drawing.map.contains(h) else None

    def counter_at(self, pos: QPointF) -> tuple[StackItem | None, CounterFace | None]:
        """The counter drawn at scene position ``pos`` and its stack, or (None, None).

        A fanned-out stack lies over its neighbours' hexes, so what is under
        the pointer is decided by the counters drawn there (top-most first),
        not by the hex the point falls in.
        """
        here = self.hex_at(pos)
        for item in sorted(self.stacks.values(), key=lambda it: (-it.zValue(), it.stack.hex != here)):
            local = item.mapFromScene(pos)
            if item.boundingRect().contains(local):
                face = item.face_at(local)
                if face is not None:
                    return item, face
        return None, None

    def hex_rect(self, h: Hex) -> QRectF:
        c = self.layout.hex_to_pixel(h)
        s = self.layout.size
        return QRectF(c.x - 1.6 * s, c.y - 1.6 * s, 3.2 * s, 3.2 * s)

    def set_drawing(self, drawing: MapDrawing, hexes: Iterable[Hex] | None = None, *, map_changed: bool = True) -> None:
        """Show ``drawing``; repaint only ``hexes`` (and their stacks) when given."""
        old = self.drawing
        self.drawing = drawing
        if hexes is None or old is None or (old.map.columns, old.map.rows) != (drawing.map.columns, drawing.map.rows):
            rect = self.map_rect()
            self.map_layer.set_map_rect(rect)
            self.map_layer.invalidate_buildings()
            self.setSceneRect(rect.adjusted(-style.MARGIN, -style.MARGIN, style.MARGIN, style.MARGIN))
            for it in self.stacks.values():
                self.removeItem(it)
            self.stacks.clear()
            for _h, st in drawing.stacks.items():
                self._add_stack(st)
            self.map_layer.update()
            return
        assert hexes is not None and old is not None  # not a full redraw
        changed = set(hexes)
        if map_changed:
            if any(h in drawing.map.hexes or h in old.map.hexes for h in changed):
                self.map_layer.invalidate_buildings()
            for h in changed:
                self.map_layer.update(self.hex_rect(h))
        for h in changed:
            item = self.stacks.pop(h, None)
            if item is not None:
                self.removeItem(item)
            shown = drawing.stacks.get(h)
            if shown is not None:
                self._add_stack(shown)

    def _add_stack(self, st: StackDrawing) -> None:
        item = StackItem(self, st)
        self.addItem(item)
        self.stacks[st.hex] = item

    @contextmanager
    def for_export(self) -> Iterator[None]:
        """The scene as a picture of the map: no selection, no fanned-out stack.

        Selection and fanning are where the user is pointing, not part of the map,
        so File > Export leaves them out (and puts them back afterwards).
        """
        selected, shown, focused = self.selected_units, self.selection.isVisible(), self.focus.isVisible()
        fanned = [it for it in self.stacks.values() if it.fanned]
        self.set_selected_units(())
        self.selection.setVisible(False)
        self.focus.setVisible(False)
        for it in fanned:
            it.set_fanned(False)
        try:
            yield
        finally:
            for it in fanned:
                it.set_fanned(True)
            self.selection.setVisible(shown)
            self.focus.setVisible(focused)
            self.set_selected_units(selected)

    def set_selected_units(self, ids: Iterable[str]) -> None:
        new = frozenset(ids)
        if new == self.selected_units:
            return
        self.selected_units = new
        for item in self.stacks.values():
            item.update()
