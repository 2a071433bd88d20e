"""The Combined Arms board in the player window, drawn from ``show --json`` only.

Pointy-topped hexrows as in the printed game, terrain, the road and smoke;
your platoons and the enemy counters with their fresh (green) or spent (buff)
sides, ATGs with brown borders (Figure 2); each armour platoon's 60-degree
forward arc; mortar target counters; and beside the board the game's aids:
the turn track, the circular loss and ammo track and the smoke ammo.

Click a hex for every legal action that concerns it (moves into it, attacks
on it, mortar calls, rolls and choices); a fire attack shows its exact odds
before you commit when the window gives the board an ``odds`` function
(``board.odds = controller.odds``).  Actions with no hex (end the phase,
resolve, end the game) are buttons under the aids.  The board never sees the
game's state: only the view and the legal list.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QBrush, QColor, QCursor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from gwasl.engine.game import Outcome
from gwasl.engine.record import Record
from gwasl.engine.session import LegalAction
from gwasl.ui.play.boards import Board
from gwasl.ui.play.labels import MIN_PX, DrawnLabel, draw_label, ink_on, label_font

__all__ = ["CombinedArmsBoard", "action_hex"]

SIZE = 34.0  # hex circumradius, pixels
SQRT3 = math.sqrt(3.0)

TERRAIN_COLOUR = {
    "open": QColor(214, 226, 170), "road": QColor(200, 190, 160), "poor_going": QColor(170, 170, 110),
    "crest": QColor(205, 170, 105), "woods": QColor(70, 130, 70), "wooded_crest": QColor(95, 120, 55),
    "farm": QColor(190, 120, 90), None: QColor(230, 230, 230),
}
FRESH = QColor(40, 140, 60)  # green borders (Figure 2)
FRESH_INK = QColor(20, 100, 40)  # its text: a darker green, 4.5:1 or more on white (issue 26.9)
SPENT = QColor(200, 170, 110)  # buff borders
SPENT_FACE = QColor(238, 222, 180)  # the spent side's face
SPENT_INK = QColor(105, 70, 20)  # its text: dark brown on buff, never buff on tan (issue 26.9)
#: a platoon counter on the board, scene pixels (was 22x16: too small to read at the default window)
COUNTER_W, COUNTER_H = 30.0, 22.0
#: the road track: its edge, then its surface (width, colour), on the board and in the key alike
ROAD_PENS = ((9.0, QColor(120, 100, 70)), (6.0, QColor(225, 210, 170)))
ATG = QColor(140, 90, 40)  # brown borders


def hex_centre(x2: int, r: int) -> QPointF:
    """The centre of a hex from the view's ``x2`` (2q + r) and ``r``: rows 0.75 hex heights apart."""
    return QPointF(SQRT3 * SIZE * x2 / 2, 1.5 * SIZE * r)


def _corner(angle_deg: float, radius: float = SIZE) -> QPointF:
    a = math.radians(angle_deg)
    return QPointF(radius * math.cos(a), -radius * math.sin(a))


def hex_polygon(c: QPointF, radius: float = SIZE) -> QPolygonF:
    return QPolygonF([c + _corner(30 + 60 * k, radius) for k in range(6)])


def action_hex(a: dict[str, Any], units: dict[str, str | None]) -> str | None:
    """The hex an action concerns: where it goes, what it attacks or rolls, or the hex of its platoon."""
    for key in ("to", "target", "hex"):
        if isinstance(a.get(key), str):
            return str(a[key])
    unit = a.get("unit")
    if isinstance(unit, str):
        return units.get(unit)
    return None


class _Tracks(QWidget):
    """The play aids: the turn track, the circular loss and ammo track, the smoke ammo,
    and your platoons off the board."""

    #: the boxes of platoons not on the board: the view's ``where``, and the box's words
    BOXES = (("off", "to enter"), ("exploited", "exploited"), ("withdrawn", "withdrawn"), ("broken", "broken"))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: dict[str, Any] = {}
        self.drawn: list[DrawnLabel] = []  # the labels of the last paint (tests measure them)
        self.setMinimumSize(262, 560)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)

    def paintEvent(self, event: Any) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.drawn = []
        log = self.drawn
        ink = QColor(40, 40, 40)
        p.fillRect(self.rect(), QColor(248, 245, 235))
        tracks = self.view.get("tracks") or {}
        turn = int(tracks.get("turn") or 0)
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        centre = Qt.AlignmentFlag.AlignCenter
        p.setPen(QPen(ink))
        p.setFont(label_font(MIN_PX, bold=True))
        draw_label(p, QRectF(8, 2, 246, 16), left, "GAME TURN", log)
        p.setFont(label_font(MIN_PX))
        for t in range(1, 21):
            x, y = 8 + ((t - 1) % 10) * 24, 20 + ((t - 1) // 10) * 24
            box = QRectF(x, y, 22, 22)
            p.setBrush(QBrush(QColor(250, 215, 120) if t == turn else QColor(255, 255, 255)))
            p.setPen(QPen(QColor(170, 40, 40) if t > 18 else QColor(70, 70, 70)))
            p.drawRect(box)
            draw_label(p, box, centre, str(t), log)
        # the circular loss and ammo track
        p.setPen(QPen(ink))
        p.setFont(label_font(MIN_PX, bold=True))
        draw_label(p, QRectF(8, 70, 246, 16), left, "LOSS & AMMO TRACK", log)
        cx, cy, rad = 82.0, 152.0, 52.0
        losses, ammo = int(tracks.get("losses") or 0), int(tracks.get("ammo") or 0)
        for k in range(8):
            a = math.radians(90 - 45 * k)
            c = QPointF(cx + rad * math.cos(a), cy - rad * math.sin(a))
            box = QRectF(c.x() - 14, c.y() - 14, 28, 28)
            p.setBrush(QBrush(QColor(255, 255, 255)))
            p.setPen(QPen(QColor(70, 70, 70)))
            p.setFont(label_font(MIN_PX))
            p.drawEllipse(box)
            draw_label(p, box, centre, str(k), log)
            marks = [m for m, v in (("L", losses), ("A", ammo)) if v == k]
            p.setFont(label_font(MIN_PX, bold=True))
            for i, m in enumerate(marks):
                chip = QRectF(c.x() - 9 + 16 * i - 5 * (len(marks) - 1), c.y() + 10, 16, 16)
                p.setBrush(QBrush(QColor(190, 30, 30) if m == "L" else QColor(30, 70, 170)))
                p.setPen(Qt.PenStyle.NoPen)
                p.drawRect(chip)
                p.setPen(QPen(QColor(255, 255, 255)))
                draw_label(p, chip, centre, m, log)
        p.setPen(QPen(ink))
        p.setFont(label_font(MIN_PX))
        draw_label(p, QRectF(150, 118, 108, 44), Qt.AlignmentFlag.AlignLeft, "L losses\nA ammo fired", log)
        # smoke ammo
        smoke = int(tracks.get("smoke_ammo") or 0)
        p.setFont(label_font(MIN_PX, bold=True))
        draw_label(p, QRectF(8, 222, 246, 16), left, "SMOKE AMMO", log)
        p.setFont(label_font(MIN_PX))
        for k in range(5):
            box = QRectF(8 + 28 * k, 240, 26, 22)
            shade = QColor(170, 170, 170) if k == smoke else QColor(255, 255, 255)
            p.setBrush(QBrush(shade))
            p.setPen(QPen(QColor(70, 70, 70)))
            p.drawRect(box)
            p.setPen(QPen(ink_on(shade)))
            draw_label(p, box, centre, str(k), log)
        broken = self.view.get("enemy_broken") or {}
        score = (self.view.get("score_now") or {}).get("total")
        end = self.view.get("end_now")
        odds = (f"\nending now: {end['mean']:.1f} on average after the final reveals, "
                f"{end['win_chance']:.0%} to reach 20" if end else "")
        p.setPen(QPen(ink))
        draw_label(p, QRectF(8, 268, 250, 110), Qt.TextFlag.TextWordWrap,
                   f"enemy broken: {broken.get('platoons', 0)} platoons, {broken.get('atgs', 0)} ATGs\n"
                   f"score if it ended now (before the final reveals): {score if score is not None else '-'}" + odds, log)
        self._paint_boxes(p, 384)
        p.end()

    def boxes(self) -> list[list[str]]:
        """The platoons in each of :attr:`BOXES`, as the view has them."""
        units = [u for u in self.view.get("units") or () if u.get("where") != "board"]
        return [[str(u["id"]) for u in units if u.get("where") == where] for where, _ in self.BOXES]

    def _paint_boxes(self, p: QPainter, top: float) -> None:
        """Your platoons off the board, as on the printed aids' WITHDRAWN box: those still to
        enter, those exploited (CA Victory scores them), withdrawn (ammo) and broken."""
        log = self.drawn
        p.setPen(QPen(QColor(40, 40, 40)))
        p.setFont(label_font(MIN_PX, bold=True))
        draw_label(p, QRectF(8, top, 250, 16), Qt.AlignmentFlag.AlignVCenter, "YOUR PLATOONS OFF THE BOARD", log)
        y = top + 20
        for (where, words), ids in zip(self.BOXES, self.boxes(), strict=True):
            p.setPen(QPen(QColor(40, 40, 40)))
            p.setFont(label_font(MIN_PX))
            draw_label(p, QRectF(8, y, 90, 18), Qt.AlignmentFlag.AlignVCenter, f"{words}: {len(ids)}", log)
            p.setFont(label_font(MIN_PX, bold=True))
            for k, uid in enumerate(ids):
                box = QRectF(100 + 26 * (k % 6), y + 20 * (k // 6), 24, 18)
                colour = QColor(170, 40, 40) if where == "broken" else FRESH_INK
                p.setBrush(QBrush(QColor(255, 255, 255)))
                p.setPen(QPen(colour, 1.5))
                p.drawRect(box)
                draw_label(p, box, Qt.AlignmentFlag.AlignCenter, uid, log)
            y += 20 * max(1, (len(ids) + 5) // 6) + 4


class CombinedArmsBoard(Board):
    """Combined Arms in the player window (see the module docstring)."""

    #: label sizes in scene pixels: the board is fitted at about 1.2 scene pixels to the screen's at
    #: the default window, so each reads at least MIN_PX high there (measured in tests/ui/play)
    COUNTER_PX, HEX_LABEL_PX, LABEL_PX = 13, 11, 12
    #: the narrowest the map may be drawn (a saved dock layout once left it 70 px wide)
    MAP_MIN_PX = 320

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = QGraphicsScene(self)
        self.view = QGraphicsView(self.scene)
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.view.setBackgroundBrush(QBrush(QColor(245, 245, 240)))
        self.view.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self._fitted = True  # the whole board in view, on open and on every resize, until the user zooms
        # the map keeps room to be read: a narrow window or wide docks squeeze the docks, not the map
        self.view.setMinimumWidth(self.MAP_MIN_PX)
        self.tracks = _Tracks()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.buttons = QVBoxLayout()
        # ending the game is final: its button stands apart from the phase buttons, under its own
        # heading, and the window asks before it acts (issue 26.6)
        self.final_buttons = QVBoxLayout()
        self.final_heading = QLabel("Ending the game (cannot be taken back)")
        self.final_heading.setStyleSheet("color: #8a1c1c; font-weight: bold; margin-top: 18px;")
        self.final_heading.hide()
        side = QVBoxLayout()
        side.addWidget(self.tracks)
        side.addWidget(self.status)
        side.addLayout(self.buttons)
        side.addStretch(1)
        side.addWidget(self.final_heading)
        side.addLayout(self.final_buttons)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.view, 1)
        lay.addLayout(side)
        #: the exact odds of an action, when the window provides them (controller.odds)
        self.odds: Callable[[Record], list[Outcome]] | None = None
        self._view: dict[str, Any] = {}
        self._legal: Sequence[LegalAction] = ()
        self._centres: dict[str, QPointF] = {}
        self.last_menu: list[str] = []  # the texts of the last menu shown (tests read it)
        self.view.viewport().installEventFilter(self)

    # -- drawing ------------------------------------------------------------------------
    def show_view(self, view: dict[str, Any], legal: Sequence[LegalAction]) -> None:
        self._view, self._legal = view, legal
        self.scene.clear()
        self._centres = {}
        board = view.get("board") or {}
        for h in board.get("hexes", []):
            c = hex_centre(int(h["x2"]), int(h["r"]))
            self._centres[str(h["hex"])] = c
            self._draw_hex(h, c)
        self._draw_road([str(x) for x in board.get("road", [])])
        self._draw_key()
        self._draw_mortars(view)
        self._draw_enemy(view.get("enemy", []))
        self._draw_units(view.get("units", []))
        self.scene.setSceneRect(self.scene.itemsBoundingRect().adjusted(-10, -10, 10, 10))
        if self._fitted:  # a zoom the user chose is kept from one position to the next
            self._fit()
        self.tracks.view = view
        self.tracks.update()
        self.status.setText(self._status_text(view))
        self._make_buttons()

    def _fit(self) -> None:
        """The whole board, as large as the view allows."""
        if not self.scene.sceneRect().isEmpty():
            self.view.fitInView(self.scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def zoom_by(self, factor: float) -> None:
        self._fitted = False
        target = min(8.0, max(0.1, self.zoom_level() * factor))
        self.view.scale(target / self.zoom_level(), target / self.zoom_level())

    def zoom_fit(self) -> None:
        self._fitted = True
        self._fit()

    def zoom_actual(self) -> None:
        self._fitted = False
        self.view.resetTransform()

    def zoom_level(self) -> float:
        return self.view.transform().m11()

    def _draw_road(self, road: list[str]) -> None:
        """The central road as a track through its hexes' centres, on and off both edges."""
        pts = [self._centres[x] for x in road if x in self._centres]
        if len(pts) < 2:
            return
        path = QPainterPath(pts[0] + (pts[0] - pts[1]) * 0.6)
        for q in pts:
            path.lineTo(q)
        path.lineTo(pts[-1] + (pts[-1] - pts[-2]) * 0.6)
        self._road_track(path)

    def _road_track(self, path: QPainterPath, scale: float = 1.0) -> None:
        """The road's track (edge, then surface): the board and its key draw the same one."""
        for width, colour in ROAD_PENS:
            pen = QPen(colour, width * scale)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            self.scene.addPath(path, pen)

    def _draw_key(self) -> None:
        """A terrain key left of the board, drawn by the board's own hex painter."""
        if not self._centres:
            return
        # under the board, two rows of four: beside it the key made the whole board smaller (issue 26.9)
        xs = [c.x() for c in self._centres.values()]
        left = min(xs) + SIZE * 0.5
        top = max(c.y() for c in self._centres.values()) + SIZE * 1.7
        step = (max(xs) - min(xs)) / 4
        entries = [("open", "open farmland"), ("road", "road"), ("poor_going", "poor going"), ("crest", "crest"),
                   ("woods", "woods"), ("wooded_crest", "wooded crest"), ("farm", "farm"), ("smoke", "smoke")]
        for k, (terrain, words) in enumerate(entries):
            c = QPointF(left + (k % 4) * step, top + (k // 4) * SIZE * 1.3)
            fake = {"terrain": "open" if terrain == "smoke" else terrain, "road": terrain == "road", "smoke": terrain == "smoke"}
            self._draw_hex(fake, c, scale=0.55)
            t = self.scene.addSimpleText(words)
            t.setFont(label_font(self.LABEL_PX))
            t.setBrush(QBrush(QColor(45, 45, 45)))
            t.setPos(c.x() + SIZE * 0.6, c.y() - t.boundingRect().height() / 2)

    def _draw_hex(self, h: dict[str, Any], c: QPointF, scale: float = 1.0) -> None:
        """One hex with its terrain's marks; ``scale`` < 1 draws a key entry (no label, not clickable)."""
        terrain = h.get("terrain")
        key = scale < 1.0
        shape = hex_polygon(c, SIZE * scale)
        poly = self.scene.addPolygon(shape, QPen(QColor(120, 120, 100), 1.0), QBrush(TERRAIN_COLOUR.get(terrain, TERRAIN_COLOUR[None])))
        self._marks(terrain, c, scale)
        if key and h.get("road"):  # on the board the road is one track through its hexes (_draw_road)
            track = QPainterPath(QPointF(c.x(), c.y() - SIZE * scale))
            track.lineTo(QPointF(c.x(), c.y() + SIZE * scale))
            self._road_track(track, scale)
        if h.get("smoke"):
            self.scene.addPolygon(shape, QPen(Qt.PenStyle.NoPen), QBrush(QColor(150, 150, 150, 150)))
        if key:
            return
        poly.setData(0, h["hex"])
        poly.setToolTip(f"{h['hex']}: {str(terrain).replace('_', ' ')}" + (", road" if h.get("road") else "")
                        + (", smoke" if h.get("smoke") else ""))
        label = self.scene.addSimpleText(str(h["hex"]))
        label.setFont(label_font(self.HEX_LABEL_PX))
        # black or white, whichever reads on this terrain (dark grey on woods did not: issue 26.9)
        label.setBrush(QBrush(ink_on(TERRAIN_COLOUR.get(terrain, TERRAIN_COLOUR[None]))))
        label.setPos(c.x() - label.boundingRect().width() / 2, c.y() - SIZE * 0.95)

    def _marks(self, terrain: Any, c: QPointF, k: float) -> None:
        """A terrain's marks at scale ``k``: ridge line, farm building, poor going."""
        if terrain in ("crest", "wooded_crest"):  # a ridge line
            self.scene.addLine(c.x() - SIZE * 0.6 * k, c.y() + SIZE * 0.2 * k, c.x() + SIZE * 0.6 * k, c.y() + SIZE * 0.2 * k,
                               QPen(QColor(120, 80, 30), 2.5 * k))
        if terrain == "farm":
            self.scene.addRect(QRectF(c.x() - 7 * k, c.y() - 12 * k, 14 * k, 10 * k), QPen(QColor(90, 40, 20)), QBrush(QColor(150, 60, 40)))
        if terrain == "poor_going":
            for dx in (-10, 0, 10):
                self.scene.addLine(c.x() + (dx - 3) * k, c.y() + 14 * k, c.x() + (dx + 3) * k, c.y() + 14 * k, QPen(QColor(90, 90, 60), 1.5 * k))

    def _counter(self, c: QPointF, dx: float, dy: float, text: str, fresh: bool, border: QColor | None = None,
                 tip: str = "") -> None:
        rect = QRectF(c.x() + dx - COUNTER_W / 2, c.y() + dy - COUNTER_H / 2, COUNTER_W, COUNTER_H)
        colour = FRESH if fresh else SPENT
        item = self.scene.addRect(rect, QPen(border or colour, 2.0), QBrush(QColor(255, 255, 255) if fresh else SPENT_FACE))
        item.setToolTip(tip)
        t = self.scene.addSimpleText(text)
        t.setFont(label_font(self.COUNTER_PX, bold=True))
        t.setBrush(QBrush(FRESH_INK if fresh else SPENT_INK))
        br = t.boundingRect()
        t.setPos(rect.center().x() - br.width() / 2, rect.center().y() - br.height() / 2)

    def _draw_units(self, units: list[dict[str, Any]]) -> None:
        here: dict[str, list[dict[str, Any]]] = {}
        for u in units:
            if u.get("where") == "board" and u.get("hex") in self._centres:
                here.setdefault(str(u["hex"]), []).append(u)
        for h, us in here.items():
            c = self._centres[h]
            for i, u in enumerate(us):
                dx, dy = -16 + 32 * (i % 2), -2 + 20 * (i // 2) - 8 * (len(us) > 2)
                if u.get("kind") == "armour" and isinstance(u.get("facing"), int):
                    self._arc(c, int(u["facing"]), bool(u.get("fresh")))
                kind = {"rifle": f"rifle platoon of {u.get('company')} company", "mmg": "MMG platoon",
                        "armour": f"armour platoon facing {u.get('facing_name')}"}.get(str(u.get("kind")), str(u.get("kind")))
                self._counter(c, dx, dy, str(u["id"]), bool(u.get("fresh")),
                              tip=f"{u['id']}: {kind}, {'fresh' if u.get('fresh') else 'spent'}, in {h}")

    def _arc(self, c: QPointF, facing: int, fresh: bool) -> None:
        """The forward arc: the 60-degree wedge about the faced corner (Figure 2)."""
        mid = 30 + 60 * facing
        path = QPainterPath(c)
        path.lineTo(c + _corner(mid - 30, SIZE * 1.6))
        path.arcTo(QRectF(c.x() - SIZE * 1.6, c.y() - SIZE * 1.6, SIZE * 3.2, SIZE * 3.2), mid - 30, 60)
        path.closeSubpath()
        colour = QColor(FRESH if fresh else SPENT)
        colour.setAlpha(70)
        self.scene.addPath(path, QPen(QColor(40, 40, 40, 120), 1.0), QBrush(colour))

    def _draw_enemy(self, enemy: list[dict[str, Any]]) -> None:
        for e in enemy:
            c = self._centres.get(str(e.get("hex")))
            if c is None:
                continue
            fresh = bool(e.get("fresh"))
            state = "fresh" if fresh else "spent"
            self._counter(c, -16 if e.get("atg") else 0, 10, "?" if e.get("platoon") == "potential" else "Pl", fresh,
                          tip=f"{e.get('hex')}: a {e.get('platoon')} enemy platoon, {state}"
                              + (" (its ATGs were removed)" if e.get("atg_removed") else ""))
            if e.get("atg"):
                self._counter(c, 16, 10, "AT?" if e.get("atg") == "potential" else "ATG", fresh, ATG,
                              tip=f"{e.get('hex')}: {e.get('atg')} ATGs, {state} with their platoon")

    def _draw_mortars(self, view: dict[str, Any]) -> None:
        m = view.get("mortars") or {}
        for who, colour in (("yours", QColor(40, 80, 180)), ("enemy", QColor(190, 40, 40))):
            t = m.get(who)
            c = self._centres.get(str((t or {}).get("target")))
            if c is None:
                continue
            pen = QPen(colour, 2.0)
            self.scene.addEllipse(QRectF(c.x() - 20, c.y() - 20, 40, 40), pen)
            self.scene.addLine(c.x() - 24, c.y(), c.x() + 24, c.y(), pen)
            self.scene.addLine(c.x(), c.y() - 24, c.x(), c.y() + 24, pen)

    @staticmethod
    def _status_text(view: dict[str, Any]) -> str:
        if view.get("over"):
            lines = [f"The game is over ({view.get('result', {}).get('winner', '-')} wins)"]
        else:
            lines = [f"Turn {view.get('turn')}: {view.get('phase')} phase, {view.get('side') or '-'} to act"]
        pending = view.get("pending") or {}
        if pending.get("attack"):
            a = pending["attack"]
            lines.append(f"attack on {a['target']}: " + ", ".join(f["unit"] for f in a["firers"]))
        if pending.get("rolls"):
            lines.append(f"{pending['rolls']['source']}: choose the hex to roll next")
        if pending.get("break"):
            lines.append(f"choose the platoon in {pending['break']['hex']} that breaks")
        if view.get("over") and view.get("result"):
            lines.append(str(view["result"].get("why", "")))
        return "\n".join(lines)

    #: the actions that end the game for good (CA Victory): a button of their own, apart
    FINAL_KINDS = ("end_game",)

    def _make_buttons(self) -> None:
        for lay in (self.buttons, self.final_buttons):
            while lay.count():
                item = lay.takeAt(0)
                w = item.widget() if item is not None else None
                if w is not None:  # hidden at once: deleteLater waits for the event loop
                    w.hide()
                    w.deleteLater()
        finals = 0
        for la in self._legal:
            a = la.action.to_json()
            if action_hex(a, self._unit_hexes()) is None:
                b = QPushButton(la.shown.text)
                b.clicked.connect(lambda _=False, act=la.action: self.action_requested.emit(act))
                if la.action.kind in self.FINAL_KINDS:
                    b.setStyleSheet("color: #8a1c1c;")
                    self.final_buttons.addWidget(b)
                    finals += 1
                else:
                    self.buttons.addWidget(b)
        self.final_heading.setVisible(finals > 0)

    # -- actions by hex -------------------------------------------------------------------
    def _unit_hexes(self) -> dict[str, str | None]:
        return {str(u["id"]): u.get("hex") for u in self._view.get("units", [])}

    def actions_at(self, label: str) -> list[LegalAction]:
        """Every legal action that concerns the hex ``label``."""
        units = self._unit_hexes()
        return [la for la in self._legal if action_hex(la.action.to_json(), units) == label]

    def action_text(self, la: LegalAction) -> str:
        """The action's words, with the exact odds of a fire attack when they are known."""
        text = la.shown.text
        if self.odds is not None and la.action.kind in ("commit", "resolve"):
            try:
                outcomes = self.odds(la.action)
            except Exception:  # the odds are a courtesy: never let them stop a click
                outcomes = []
            if outcomes:
                text += "  [" + ", ".join(f"{o.result} {o.p:.0%}" for o in outcomes) + "]"
        return text

    def hex_at(self, pos: QPointF) -> str | None:
        for item in self.scene.items(pos):
            label = item.data(0)
            if isinstance(label, str):
                return label
        return None

    def click_hex(self, label: str) -> None:
        """A click on a hex: its actions in a menu (one action is not sent unasked)."""
        actions = self.actions_at(label)
        self.last_menu = [self.action_text(la) for la in actions]
        if not actions:
            return
        menu = QMenu(self)
        for la, text in zip(actions, self.last_menu, strict=True):
            act = QAction(text.replace("&", "&&"), menu)
            act.triggered.connect(lambda _=False, a=la.action: self.action_requested.emit(a))
            menu.addAction(act)
        menu.popup(QCursor.pos())
        self._menu = menu

    def eventFilter(self, obj: Any, event: Any) -> bool:
        from PySide6.QtCore import QEvent

        if obj is self.view.viewport() and event.type() == QEvent.Type.Resize and self._fitted:
            self._fit()  # the view's own size, once the layout has given it
        if obj is self.view.viewport() and event.type() == QEvent.Type.Wheel:
            steps = event.angleDelta().y() / 120.0
            if steps:
                self.zoom_by(1.15 ** steps)
            return True
        if obj is self.view.viewport() and event.type() == QEvent.Type.MouseButtonRelease:
            label = self.hex_at(self.view.mapToScene(event.position().toPoint()))
            if label is not None:
                self.click_hex(label)
                return True
        return super().eventFilter(obj, event)

    def centre_of(self, label: str) -> QPointF:
        return self._centres[label]
