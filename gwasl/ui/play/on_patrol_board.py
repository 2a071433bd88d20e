"""The On Patrol board: draws a game's ``view()`` (docs/format/on-patrol.md) and lets the
player act from the legal list.

Ships are two-hex counters pointing along their heading (merchants grey,
capital ships dark grey, escorts blue), the submarine green with its depth,
detection markers in the submarine's colour (sighted, torpedo marker) or the
escorts' (contact, contact lost: hollow), torpedoes with their next run, the
assault zone and the six radials of every force in radial movement, the
diameter of a force in diameter movement, this turn's attacks and star
shells.  A notice says what is Harmon's and what is gwasl's stand-in.  The board
only reads views: with ``viewer="escorts"`` the true submarine is never drawn.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from gwasl.engine.session import LegalAction, Session
from gwasl.model.hexgrid import Hex, Layout
from gwasl.ui.play.boards import Board
from gwasl.ui.play.labels import MIN_PX, DrawnLabel, draw_label, ink_on, label_font

__all__ = ["OnPatrolBoard", "PatrolCanvas", "attach"]

SEA = QColor("#d9e8f2")
GRID = QColor("#c3d6e4")
COLOURS = {"merchant": QColor("#8a8a8a"), "capital": QColor("#4a4a4a"), "escort": QColor("#2f5fa8")}
SUB = QColor("#23703a")  # darker than the markers' green: its white label reads 4.5:1 (issue 26.9)
ESCORT_MARK = QColor("#2f5fa8")
SUB_MARK = QColor("#2e8b3d")
NOTICE = ("Harmon's automaton (formations, stations, Fleet Movement, Escort Action and Depth Combat "
          "tables, markers, radial and diameter movement, assault zones) follows his text, read where it "
          "is silent as docs/rules-notes.md says. SUBMARINE's own rules and charts are not available: the "
          "game under it is gwasl's stand-in, its numbers (search, attack, gunfire, ships, torpedoes) and "
          "mechanisms (escorts move before torpedoes, a gyro of 0 or 60 degrees only, firing at 100 feet "
          "or shallower once any ship is in sight and range) (docs/on-patrol.md).")


def _hex(label: str | None) -> Hex | None:
    return Hex.from_label(label) if label else None


def _harmon_dir(h: int) -> int:
    return h % 6


class PatrolCanvas(QWidget):
    """Paints one view dict; zooms to the ships, the boat and the markers."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: dict[str, Any] = {}
        self.setMinimumSize(480, 480)
        #: the hex size the user zoomed to, in pixels; None: fit the ships, the boat and the markers
        self.hex_px: float | None = None
        self.drawn: list[DrawnLabel] = []  # the labels of the last paint (tests measure them)
        #: each counter's hull as painted last, in widget pixels (tests check its label is inside)
        self.hulls: dict[str, QPainterPath] = {}

    def set_view(self, view: dict[str, Any]) -> None:
        self.view = view
        self.update()

    # -- geometry ------------------------------------------------------------------------
    def _focus(self) -> list[Hex]:
        v = self.view
        pts = [_hex(s["bow"]) for s in v.get("ships", [])]
        pts += [_hex(s["bow"]) for s in v.get("submarines", []) if s["status"] == "active"]
        pts += [_hex(m["bow"]) for m in v.get("markers", [])]
        pts += [_hex(t["hex"]) for t in v.get("torpedoes", [])]
        pts += [_hex(f["target"]) for f in v.get("forces", [])]
        return [p for p in pts if p is not None]

    def _layout(self) -> Layout:
        pts = self._focus() or [Hex(0, 0)]
        base = Layout(1.0)
        xs = [base.hex_to_pixel(h).x for h in pts]
        ys = [base.hex_to_pixel(h).y for h in pts]
        w, h = max(xs) - min(xs) + 8, max(ys) - min(ys) + 8
        size = self.hex_px if self.hex_px is not None else max(3.0, min(self.width() / w, self.height() / h))
        cx, cy = (max(xs) + min(xs)) / 2 * size, (max(ys) + min(ys)) / 2 * size
        from gwasl.model.hexgrid import Point

        return Layout(size, Point(self.width() / 2 - cx, self.height() / 2 - cy))

    def hex_size(self) -> float:
        """The hex size drawn now, in pixels."""
        return self._layout().size

    # -- painting ------------------------------------------------------------------------
    def paintEvent(self, event: Any) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), SEA)
        if not self.view:
            p.end()
            return
        lay = self._layout()
        self.drawn, self.hulls = [], {}
        self._grid(p, lay)
        for f in self.view.get("forces", []):
            self._force(p, lay, f)
        for a in self.view.get("attacks", []):
            self._attack(p, lay, a)
        for s in self.view.get("star_shells", []):
            c = lay.hex_to_pixel(Hex.from_label(s))
            p.setPen(QPen(QColor("#e0b000"), 1.5))
            p.setBrush(QColor(255, 230, 80, 70))
            p.drawEllipse(QPointF(c.x, c.y), lay.size * 3 * 1.5, lay.size * 3 * 1.5)
        for plan in self.view.get("plans", []):
            self._plan(p, lay, plan)
        for t in self.view.get("torpedoes", []):
            self._torpedo(p, lay, t)
        for m in self.view.get("markers", []):
            self._marker(p, lay, m)
        for s in self.view.get("ships", []):
            self._counter(p, lay, s["bow"], s["stern"], s["heading"], COLOURS.get(s["kind"], COLOURS["merchant"]),
                          s["id"], hollow=s["status"] != "afloat")
        for s in self.view.get("submarines", []):
            if s["status"] == "active":
                self._counter(p, lay, s["bow"], s["stern"], s["heading"], SUB, f"{s['id']} {s['depth']}ft")
        p.end()

    def _grid(self, p: QPainter, lay: Layout) -> None:
        if lay.size < 6:
            return
        p.setPen(QPen(GRID, 0.6))
        p.setBrush(Qt.BrushStyle.NoBrush)
        cols, rows = self.view["board"]["columns"], self.view["board"]["rows"]
        a, b = lay.pixel_to_hex(0, 0), lay.pixel_to_hex(self.width(), self.height())
        for q in range(max(0, a.q - 1), min(cols, b.q + 2)):
            for row in range(rows):
                h = Hex.from_offset(q, row)
                c = lay.hex_to_pixel(h)
                if -lay.size < c.y < self.height() + lay.size:
                    p.drawPolygon(QPolygonF([QPointF(pt.x, pt.y) for pt in lay.polygon(h)]))

    def _counter(self, p: QPainter, lay: Layout, bow: str, stern: str | None, heading: int, colour: QColor,
                 text: str, hollow: bool = False) -> None:
        """A ship or the boat: a hull from stern to bow with its label inside, along the hull.
        However far the board is zoomed out, the hull is drawn wide and long enough for a
        label MIN_PX high (issue 26.9: the boat's label ran off its hull)."""
        b = lay.hex_to_pixel(Hex.from_label(bow))
        d = _harmon_dir(heading)
        dx, dy = math.sin(math.radians(60 * d)), -math.cos(math.radians(60 * d))
        if stern:
            s = lay.hex_to_pixel(Hex.from_label(stern))
        else:
            s = type(b)(b.x - dx * lay.hex_height, b.y - dy * lay.hex_height)
        font = label_font(max(MIN_PX, int(lay.size * 0.55)))
        p.setFont(font)
        text_w = p.fontMetrics().horizontalAdvance(text) + 8
        w = max(lay.size * 0.55, (QFontMetricsF(font).height() + 6) / 2)
        length = math.hypot(b.x - s.x, b.y - s.y) + w  # the straight part, stern to where the bow narrows
        if length < text_w:  # a longer hull, about the same midpoint: the label fits inside
            extra = (text_w - length) / 2
            b = type(b)(b.x + dx * extra, b.y + dy * extra)
            s = type(s)(s.x - dx * extra, s.y - dy * extra)
        nx, ny = -dy * w, dx * w
        tip = QPointF(b.x + dx * w * 1.45, b.y + dy * w * 1.45)
        path = QPainterPath(QPointF(s.x + nx - dx * w, s.y + ny - dy * w))
        path.lineTo(QPointF(b.x + nx, b.y + ny))
        path.lineTo(tip)
        path.lineTo(QPointF(b.x - nx, b.y - ny))
        path.lineTo(QPointF(s.x - nx - dx * w, s.y - ny - dy * w))
        path.closeSubpath()
        p.setPen(QPen(colour.darker(140), 1.2))
        p.setBrush(Qt.BrushStyle.NoBrush if hollow else QBrush(colour))
        p.drawPath(path)
        self.hulls[text] = path
        p.setPen(ink_on(SEA) if hollow else ink_on(colour))
        mid = QPointF((b.x + s.x) / 2 - dx * w / 2, (b.y + s.y) / 2 - dy * w / 2)
        angle = math.degrees(math.atan2(dy, dx))
        if angle > 90 or angle < -90:  # never upside down
            angle += 180
        p.save()
        p.translate(mid)
        p.rotate(angle)
        half = max(text_w, length) / 2
        draw_label(p, QRectF(-half, -w, 2 * half, 2 * w), Qt.AlignmentFlag.AlignCenter, text, self.drawn)
        p.restore()

    def _marker(self, p: QPainter, lay: Layout, m: dict[str, Any]) -> None:
        colour = SUB_MARK if m["colour"] == "submarine" else ESCORT_MARK
        c = lay.hex_to_pixel(Hex.from_label(m["bow"]))
        p.setPen(QPen(colour, 2.0, Qt.PenStyle.DashLine))
        p.setBrush(Qt.BrushStyle.NoBrush if m["kind"] in ("inverted", "torpedo") else QColor(colour.red(), colour.green(), colour.blue(), 90))
        r = lay.size * 0.9
        p.drawRect(QRectF(c.x - r, c.y - r, 2 * r, 2 * r))
        if m.get("target"):
            t = lay.hex_to_pixel(Hex.from_label(m["target"]))
            p.drawLine(QPointF(t.x - r, t.y), QPointF(t.x + r, t.y))
            p.drawLine(QPointF(t.x, t.y - r), QPointF(t.x, t.y + r))

    def _force(self, p: QPainter, lay: Layout, f: dict[str, Any]) -> None:
        t = Hex.from_label(f["target"])
        c = lay.hex_to_pixel(t)
        if f["movement"] == "radial" or f.get("rammer"):
            p.setPen(QPen(QColor(200, 60, 60, 150), 1.0, Qt.PenStyle.DotLine))
            for d in range(6):  # the six radials (105.1.2)
                end = t
                for _ in range(40):
                    end = end.neighbour(d)
                e = lay.hex_to_pixel(end)
                p.drawLine(QPointF(c.x, c.y), QPointF(e.x, e.y))
            p.setPen(QPen(QColor(200, 60, 60), 1.5))
            p.setBrush(QColor(220, 80, 80, 40))
            for h in t.within(2):  # the assault zone (105.1.5)
                p.drawPolygon(QPolygonF([QPointF(pt.x, pt.y) for pt in lay.polygon(h)]))
        if f["movement"] == "diameter":
            p.setPen(QPen(QColor(60, 60, 200, 160), 1.2, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            for radius in (6, 12):
                ring = t.ring(radius)
                pts = [lay.hex_to_pixel(h) for h in ring] + [lay.hex_to_pixel(ring[0])]
                p.drawPolyline(QPolygonF([QPointF(pt.x, pt.y) for pt in pts]))

    def _plan(self, p: QPainter, lay: Layout, plan: dict[str, Any]) -> None:
        """The escort's last move (its reason is in the log)."""
        pts = [lay.hex_to_pixel(Hex.from_label(b)) for b in plan.get("path", [])]
        if len(pts) < 2:
            return
        p.setPen(QPen(QColor(47, 95, 168, 150), 1.5))
        for a, b in itertools.pairwise(pts):
            p.drawLine(QPointF(a.x, a.y), QPointF(b.x, b.y))

    def _attack(self, p: QPainter, lay: Layout, a: dict[str, Any]) -> None:
        c = lay.hex_to_pixel(Hex.from_label(a["hex"]))
        p.setPen(QPen(QColor("#602020"), 1.0))
        p.setBrush(QColor("#c04040") if a["weapon"] in ("dc", "kgun") else QColor("#e08030"))
        r = lay.size * (0.25 + 0.08 * min(a["count"], 6))
        p.drawEllipse(QPointF(c.x, c.y), r, r)

    def _torpedo(self, p: QPainter, lay: Layout, t: dict[str, Any]) -> None:
        c = lay.hex_to_pixel(Hex.from_label(t["hex"]))
        p.setPen(QPen(QColor("#202020"), 1.0, Qt.PenStyle.DashLine))
        last = c
        for h in t.get("path", []):
            n = lay.hex_to_pixel(Hex.from_label(h))
            p.drawLine(QPointF(last.x, last.y), QPointF(n.x, n.y))
            last = n
        p.setBrush(QColor("#202020"))
        p.drawEllipse(QPointF(c.x, c.y), lay.size * 0.3, lay.size * 0.3)


class OnPatrolBoard(Board):
    """The player window's On Patrol board (``gwasl.ui.play.boards``): the canvas, the turn,
    the stand-in notice, each escort's reason for its last move (mode, radial, vector,
    target) and the orders (double-click one to give it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.canvas = PatrolCanvas()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.notice = QLabel(NOTICE)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #7a4a00; font-size: 11px;")
        self.orders = QListWidget()
        self.orders.itemDoubleClicked.connect(self._order)
        self.act_button = QPushButton("Give the order")
        self.act_button.clicked.connect(self._order)
        self.escorts = QListWidget()
        self.escorts.setWordWrap(True)
        side = QWidget()
        col = QVBoxLayout(side)
        col.addWidget(self.status)
        col.addWidget(self.notice)
        col.addWidget(QLabel("Your orders"))
        col.addWidget(self.orders, 2)
        col.addWidget(self.act_button)
        col.addWidget(QLabel("The escorts' last moves, and why"))
        col.addWidget(self.escorts, 3)
        split = QSplitter()
        split.addWidget(self.canvas)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 380])
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(split)
        self._legal: list[LegalAction] = []

    #: View > 100%: hexes of this size in pixels (the size at which every label is drawn at its own size)
    ACTUAL_HEX_PX = 20.0

    def zoom_by(self, factor: float) -> None:
        self.canvas.hex_px = min(80.0, max(3.0, self.canvas.hex_size() * factor))
        self.canvas.update()

    def zoom_fit(self) -> None:
        self.canvas.hex_px = None
        self.canvas.update()

    def zoom_actual(self) -> None:
        self.canvas.hex_px = self.ACTUAL_HEX_PX
        self.canvas.update()

    def zoom_level(self) -> float:
        return self.canvas.hex_size() / self.ACTUAL_HEX_PX

    def show_view(self, view: dict[str, Any], legal: Sequence[LegalAction]) -> None:
        self.canvas.set_view(view)
        when = "night" if view["night"] else "day"
        head = f"{view['title']}\nTurn {view['turn']} of {view['turns']} ({when}), {view['phase']}"
        if view["over"] and view.get("result"):
            head += f"\n{view['result']['why']}"
        for s in view.get("submarines") or []:
            head += (f"\n{s['id']}: {s['depth']} ft, hull {s['hull'] - s['damage']}/{s['hull']}, "
                     f"tubes {sum(1 for t in s['tubes'] if t)}/{len(s['tubes'])}, reloads {s['reloads']}")
        for m in view.get("markers", []):
            head += f"\n{m['sub']} marker: {m['kind']} at {m['bow']}"
        self.status.setText(head)
        self.escorts.clear()
        for plan in sorted(view.get("plans", []), key=lambda p: p["order"]):
            self.escorts.addItem(f"{plan['ship']}: {plan['why']}")
        if not view.get("plans"):  # an empty list would look like a fault
            self.escorts.addItem("No escort has moved by itself: all move in formation with the convoy (Mode 1, 104.2.2, 104.3.1)")
        self.orders.clear()
        self._legal = list(legal)
        for la in self._legal:
            self.orders.addItem(la.shown.text)
        if self._legal:
            self.orders.setCurrentRow(0)
        self.act_button.setEnabled(bool(self._legal))

    def _order(self, *_args: Any) -> None:
        row = self.orders.currentRow()
        if 0 <= row < len(self._legal):
            self.action_requested.emit(self._legal[row].action)


def attach(board: OnPatrolBoard, session: Session[Any], viewer: str = "player") -> None:
    """Play ``session`` on ``board`` without the player window (orders go straight to the session)."""

    def redraw(*_args: Any) -> None:
        board.show_view(session.view(viewer), session.legal(viewer) if not session.status().over else [])

    board.action_requested.connect(lambda action: session.act(action, viewer))
    session.add_listener(redraw)
    redraw()
