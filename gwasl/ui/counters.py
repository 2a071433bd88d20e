"""How a counter's face is laid out and painted, readable at the size it is shown.

:func:`counter_parts` lays one :class:`~gwasl.ui.drawable.CounterFace` out
as a list of parts (texts with their boxes and font sizes, chips, badges, the
unit symbol); :func:`paint_counter` paints exactly those parts.  Keeping the
layout apart from the painting lets a test check what a user can read: every
text fits its box, no two boxes overlap, and no text is drawn smaller than
:data:`~gwasl.ui.style.MIN_TEXT_PX` pixels on screen.

Two levels of detail, chosen by the counter's width on screen (``px``):

- full (``px >= DETAIL_COUNTER_PX``): title, designer badge (HIP, PD, ?,
  DUM), platoon badge (in play: the counter's short id), symbol or leader
  rating, position in the hex (DT, Crest...), factors; the markers of play
  (Prep Fire, CX, DM, Pin... :data:`STATUS_WORDS`) as chips in place of the symbol;
- plain (smaller): only what stays legible -- the factors, rating or "?"
  with its count, a coloured corner for the badge, a red band when broken.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF

from gwasl.ui import style
from gwasl.ui.drawable import CounterFace

__all__ = ["STATUS_STYLE", "STATUS_WORDS", "CounterPart", "counter_parts", "paint_counter", "font", "status_words", "text_fits"]

_HIDDEN_FACES = ("concealed", "dummy_stack", "dummy_hip")

#: the markers of play a counter carries (the codes of ``CounterFace.status``), in words with
#: the rule that puts them there: what a VASL player reads off the marker counters
STATUS_WORDS = {
    "Prep": "Prep Fire: fired in the PFPh, no move, no Advancing Fire (A3.3)",
    "First": "First Fire (A8.1)",
    "Final": "Final Fire: fired twice (A8.3, A8.4)",
    "Fired": "fired this phase (A8.1)",
    "CX": "CX: exhausted (A4.5)",
    "DM": "DM: Desperation Morale (A10.62)",
    "Pin": "pinned (A7.8)",
    "TI": "TI: Task Initiated",
    "Melee": "in Melee (A11.15)",
    "BCh": "Bayonet Charge (ASLGW 1.5)",
    "Wnd": "wounded (A17)",
    "Malf": "malfunctioned (A9.7)",
    "?": "concealed: the enemy sees a \"?\" (A12, O'Leary 2.1)",
    "HIP": "hidden in place: the enemy sees nothing (O'Leary 3)",
    "PD": "potential dummy: the enemy sees a \"?\" (O'Leary 2.1)",
}
#: fill and ink of each marker chip (dark ink on light fills: a contrast of at least 4.5:1)
STATUS_STYLE = {
    "Prep": ("#d8d8d8", "#101010"), "First": ("#ffffff", "#101010"), "Final": ("#ffc2c2", "#101010"),
    "Fired": ("#c8c8c8", "#101010"), "CX": ("#f4e04d", "#101010"), "DM": ("#ffb46b", "#101010"),
    "Pin": ("#ffffff", "#9a0000"), "TI": ("#cde8ff", "#101010"), "Melee": ("#ff9d9d", "#101010"),
    "BCh": ("#e6d3ff", "#101010"), "Wnd": ("#ffd6d6", "#101010"), "Malf": ("#ffd6d6", "#101010"),
    "?": ("#ffd84a", "#101010"), "HIP": ("#ffd84a", "#101010"), "PD": ("#ffd84a", "#101010"),
}


def status_words(code: str) -> str:
    """A marker's words for hover texts (its code when gwasl has none)."""
    return STATUS_WORDS.get(code, code)
_BADGE_FILL = {"dummy": "#f0a0c8"}  # every other designer badge (HIP, PD, ?) is yellow
_BADGE_TEXT = {"dummy": "DUM"}


def font(px: float, bold: bool = False) -> QFont:
    """The counters' font at ``px`` pixels (scene units)."""
    f = QFont("DejaVu Sans")
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


@dataclass(frozen=True, slots=True)
class CounterPart:
    """One piece of a counter face.

    ``kind``: ``"text"`` (``text`` in ``rect``, on ``fill`` when given, in a
    ``shape`` of ``"rect"``/``"round"``/``"circle"``), ``"symbol"`` (the
    unit-kind symbol in ``rect``), ``"band"`` (a red broken band),
    ``"corner"`` (a coloured corner standing for a badge too small to read) or
    ``"dot"`` (a dot in a marker's colour, for markers of play too small to spell).
    """

    kind: str
    rect: QRectF
    text: str = ""
    font_px: float = 0.0
    bold: bool = False
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter
    fill: str | None = None
    shape: str = "rect"
    ink: str | None = None


def text_fits(part: CounterPart) -> bool:
    """True when ``part``'s text, at its font, fits inside its box (what the elision guarantees)."""
    fm = QFontMetricsF(font(part.font_px, part.bold))
    return fm.horizontalAdvance(part.text) <= part.rect.width() + 0.01 and fm.ascent() + fm.descent() <= part.rect.height() * 1.2 + 0.01


def _elide(text: str, px: float, bold: bool, width: float) -> str:
    return QFontMetricsF(font(px, bold)).elidedText(text, Qt.TextElideMode.ElideRight, width)


def _advance(text: str, px: float, bold: bool) -> float:
    return QFontMetricsF(font(px, bold)).horizontalAdvance(text)


def _fitting(text: str, px: float, bold: bool, width: float) -> float:
    """``px``, or the largest smaller font (down to the legible minimum) at which ``text`` fits ``width``."""
    while px > style.MIN_TEXT_PX and _advance(text, px, bold) > width:
        px = max(style.MIN_TEXT_PX, px - 1)
    return px


def counter_parts(face: CounterFace, px: float) -> list[CounterPart]:
    """The parts of ``face`` for a counter ``px`` pixels wide on screen, in the counter's own
    pixel frame (0, 0, px, px): fonts are real screen pixels, so what fits here fits on screen."""
    rect = QRectF(0, 0, px, px)
    if px < style.DETAIL_COUNTER_PX:
        return _plain_parts(face, rect)
    return _full_parts(face, rect)


def _px(ratio: float, w: float) -> float:
    """A font size: ``ratio`` of the counter width, never under the legible minimum."""
    return max(style.MIN_TEXT_PX, ratio * w)


def _badge_text(face: CounterFace) -> str | None:
    return None if face.marker is None else _BADGE_TEXT.get(face.marker, face.marker)


def _full_parts(face: CounterFace, rect: QRectF) -> list[CounterPart]:
    w = rect.width()
    x, y = rect.left(), rect.top()
    out: list[CounterPart] = []
    pad = w * .05
    row_a = QRectF(x + pad, y + w * .04, w - 2 * pad, w * .21)
    left, right = row_a.left(), row_a.right()
    if face.broken:
        out.append(CounterPart("band", QRectF(x + w * .03, y + w * .03, w * .94, w * .23)))
    badge = _badge_text(face)
    if badge:
        fpx = _px(.16, w)
        chip = QRectF(left, row_a.top(), _advance(badge, fpx, True) + w * .08, row_a.height())
        out.append(CounterPart("text", chip, badge, fpx, True, fill=_BADGE_FILL.get(face.marker or "", "#ffd84a"), shape="round", ink="#111111"))
        left = chip.right() + w * .03
    if (face.label or face.platoon) and face.kind not in _HIDDEN_FACES:
        # Top right: in play the short id the log calls the counter by (G1-3), else the
        # platoon badge (ASLGW 1.1: the platoon a squad belongs to).
        label = face.label or (face.platoon or "")[-3:]
        fpx = _px(.15, w)
        # the id the log uses is read before the title: it may take the whole row
        width = min(_advance(label, fpx, True) + w * .08, (right - left) * (1.0 if face.label else .6))
        chip = QRectF(right - width, row_a.top(), width, row_a.height())
        out.append(CounterPart("text", chip, _elide(label, fpx, True, width), fpx, True, fill="#fff4c2", shape="round", ink="#101010"))
        right = chip.left() - w * .03
    if face.kind in _HIDDEN_FACES:
        if face.kind == "dummy_hip" and _advance("HIP", _px(.16, w), True) <= right - left:
            out.append(CounterPart("text", QRectF(left, row_a.top(), right - left, row_a.height()), "HIP", _px(.16, w), True,
                                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter))
        out.append(CounterPart("text", QRectF(x, y + w * .27, w, w * .47), "?", w * .4, True))
        if face.count:
            fpx = _px(.2, w)
            right_centre = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            out.append(CounterPart("text", QRectF(x + w * .5, y + w * .74, w * .45, w * .23), f"x{face.count}", fpx, True, right_centre))
        return out
    title = "BROKEN" if face.broken else face.title
    fpx = _px(.15 if face.broken else .17, w)
    if face.broken and _advance(title, fpx, True) > right - left:
        title = "BRK"  # the broken side's word, short enough beside the id
    shown = _elide(title, fpx, face.broken, right - left) if right > left else ""
    if shown == title or len(shown) >= 5:  # a title cut down to "Le…" says nothing: leave the space empty
        out.append(CounterPart("text", QRectF(left, row_a.top(), right - left, row_a.height()), shown, fpx, face.broken,
                               Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, ink="#ffffff" if face.broken else None))
    # Row B: where the unit is in its hex (DT, Crest...), then the symbol or the leader's rating;
    # a counter with markers of play shows them there instead of its symbol (its rating goes to row C).
    row_b = QRectF(x + pad, y + w * .29, w - 2 * pad, w * .33)
    row_c = QRectF(x + w * .03, y + w * .66, w * .94, w * .3)
    sym_left = row_b.left()
    if face.position:
        fpx = _px(.15, w)
        chip = QRectF(row_b.left(), row_b.top() + row_b.height() * .2, _advance(face.position, fpx, True) + w * .07, w * .2)
        out.append(CounterPart("text", chip, face.position, fpx, True, fill="#f3ecd6", shape="round", ink="#3a2a10"))
        sym_left = chip.right() + w * .03
    symbol = QRectF(sym_left, row_b.top(), row_b.right() - sym_left, row_b.height())
    rated = face.kind in ("leader", "hero") and face.rating
    if face.status:
        out += _status_chips(face.status, symbol, w)
        if rated and not face.factors:
            fpx = _fitting(str(face.rating), .26 * w, True, row_c.width())
            out.append(CounterPart("text", row_c, _elide(str(face.rating), fpx, True, row_c.width()), fpx, True))
            return out
    elif rated:
        fpx = _fitting(str(face.rating), .3 * w, True, symbol.width())  # a rating is never cut short
        out.append(CounterPart("text", symbol, _elide(str(face.rating), fpx, True, symbol.width()), fpx, True))
    elif face.kind != "leader":
        side = min(symbol.width(), symbol.height() * 1.5)
        out.append(CounterPart("symbol", QRectF(symbol.center().x() - side / 2, symbol.top(), side, symbol.height()), face.kind))
    # Row C: the factors (or a weapon's name when the tables give none).
    if face.factors:
        fpx = _px(.26, w)
        out.append(CounterPart("text", row_c, _elide(face.factors, fpx, True, row_c.width()), fpx, True))
    elif face.kind == "support_weapon":
        fpx = _px(.16, w)
        out.append(CounterPart("text", row_c, _elide(face.title, fpx, False, row_c.width()), fpx))
    return out


def _status_chips(status: tuple[str, ...], box: QRectF, w: float) -> list[CounterPart]:
    """The markers of play as chips flowing left to right in ``box`` (rows as its height
    allows); the ones that do not fit are counted in a last "+n" chip (the hover text
    lists them all)."""
    fpx = _px(.16, w)
    h = fpx * 1.3
    gap = w * .03
    rows = max(1, int((box.height() + gap) // (h + gap)))
    top = box.top() + (box.height() - (rows * h + (rows - 1) * gap)) / 2

    def width(text: str) -> float:
        return _advance(text, fpx, True) + w * .06

    placed: list[tuple[str, int, float]] = []  # (code, row, left)
    x, row = box.left(), 0
    for code in status:
        if x + width(code) > box.right() + .01 and x > box.left():
            row, x = row + 1, box.left()
        if row >= rows or x + width(code) > box.right() + .01:
            break
        placed.append((code, row, x))
        x += width(code) + gap
    more = ""
    while len(placed) < len(status):  # room for "+n" after the last chip kept, giving up chips for it
        more = f"+{len(status) - len(placed)}"
        at_row, at_x = (placed[-1][1], placed[-1][2] + width(placed[-1][0]) + gap) if placed else (0, box.left())
        if at_x + width(more) <= box.right() + .01:
            break
        if not placed:
            more = ""
            break
        placed.pop()
    out = []
    for code, r, left in placed:
        fill, ink = STATUS_STYLE.get(code, ("#f0f0f0", "#101010"))
        out.append(CounterPart("text", QRectF(left, top + r * (h + gap), width(code), h), code, fpx, True, fill=fill, shape="round", ink=ink))
    if more:
        at_row, at_x = (placed[-1][1], placed[-1][2] + width(placed[-1][0]) + gap) if placed else (0, box.left())
        out.append(CounterPart("text", QRectF(at_x, top + at_row * (h + gap), width(more), h), more, fpx, True,
                               fill="#ffffff", shape="round", ink="#101010"))
    return out


def _plain_parts(face: CounterFace, rect: QRectF) -> list[CounterPart]:
    w = rect.width()
    x, y = rect.left(), rect.top()
    out: list[CounterPart] = []
    if face.broken:
        out.append(CounterPart("band", QRectF(x + w * .03, y + w * .03, w * .94, w * .2)))
    if face.marker:
        out.append(CounterPart("corner", QRectF(x, y, w * .34, w * .34), fill=_BADGE_FILL.get(face.marker, "#ffd84a")))
    if face.kind in _HIDDEN_FACES:
        if face.count and w * .3 >= style.MIN_TEXT_PX:
            out.append(CounterPart("text", QRectF(x, y + w * .1, w * .62, w * .8), "?", w * .5, True))
            out.append(CounterPart("text", QRectF(x + w * .62, y + w * .45, w * .36, w * .45), str(face.count), w * .3, True))
        elif w * .5 >= style.MIN_TEXT_PX:
            out.append(CounterPart("text", QRectF(x, y + w * .1, w, w * .8), "?", w * .5, True))
        return out
    if face.status:  # too small for the markers' words: a dot in the marker's colour says there is one
        fill, _ = STATUS_STYLE.get(face.status[0], ("#f0f0f0", "#101010"))
        out.append(CounterPart("dot", QRectF(x + w * .7, y + w * .04, w * .26, w * .26), fill=fill))
    main = face.factors or (face.rating if face.kind in ("leader", "hero") else None)
    box = QRectF(x + w * .03, y + w * .36, w * .94, w * .5)
    fpx = _fitting(main, w * .32, True, box.width()) if main else 0.0
    if main and fpx >= style.MIN_TEXT_PX and _advance(main, fpx, True) <= box.width():
        out.append(CounterPart("text", box, main, fpx, True))
    else:  # too small to read: the unit's symbol says what it is
        out.append(CounterPart("symbol", QRectF(x + w * .2, y + w * .3, w * .6, w * .45), face.kind))
    return out


def paint_counter(p: QPainter, face: CounterFace, rect: QRectF, selected: bool = False, px: float | None = None) -> None:
    """One counter in ``rect`` (scene units): nationality colour, then its parts
    (:func:`counter_parts`) for a counter ``px`` pixels wide on screen."""
    fill, ink = style.counter_colours(face.nationality)
    w = rect.width()
    if px is None:
        px = w * p.worldTransform().m11()
    px = max(px, 1.0)
    if face.broken:
        fill = QColor(fill).darker(135)
    if face.kind in _HIDDEN_FACES:
        fill = QColor(fill).lighter(112)
    p.setPen(QPen(QColor("#ffcc00") if selected else QColor("#101010"), w * (.08 if selected else .035)))
    p.setBrush(fill)
    p.drawRoundedRect(rect, w * .08, w * .08)
    # The parts are laid out in screen pixels: paint them in the counter's pixel frame.
    p.save()
    p.translate(rect.topLeft())
    p.scale(w / px, w / px)
    w = px
    for part in counter_parts(face, px):
        r = part.rect
        if part.kind == "band":
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#c0281f"))
            p.drawRect(r)
        elif part.kind == "corner":
            p.setPen(QPen(QColor("#3a2a00"), w * .02))
            p.setBrush(QColor(part.fill or "#ffd84a"))
            p.drawPolygon(QPolygonF([r.topLeft() + QPointF(w * .04, w * .04), QPointF(r.right(), r.top() + w * .04), QPointF(r.left() + w * .04, r.bottom())]))
        elif part.kind == "symbol":
            _symbol(p, part.text, r, ink)
        elif part.kind == "dot":
            p.setPen(QPen(QColor("#101010"), w * .02))
            p.setBrush(QColor(part.fill or "#f0f0f0"))
            p.drawEllipse(r)
        else:
            if part.fill:
                p.setPen(QPen(QColor("#3a2a00"), w * .015))
                p.setBrush(QColor(part.fill))
                if part.shape == "circle":
                    p.drawEllipse(r)
                elif part.shape == "round":
                    p.drawRoundedRect(r, r.height() * .25, r.height() * .25)
                else:
                    p.drawRect(r)
            p.setPen(QColor(part.ink) if part.ink else ink)
            p.setFont(font(part.font_px, part.bold))
            p.drawText(r, part.align, part.text)
    p.restore()


def _symbol(p: QPainter, kind: str, r: QRectF, ink: QColor) -> None:
    """A small symbol of the unit kind (NATO-like box for squads, tripod for weapons)."""
    p.save()
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(ink, r.height() * .09))
    if kind == "support_weapon":
        cx, cy = r.center().x(), r.center().y()
        p.drawLine(QPointF(r.left(), cy - r.height() * .1), QPointF(r.right(), cy - r.height() * .25))
        p.drawLine(QPointF(cx, cy - r.height() * .15), QPointF(cx - r.width() * .25, r.bottom()))
        p.drawLine(QPointF(cx, cy - r.height() * .15), QPointF(cx + r.width() * .25, r.bottom()))
    else:
        box = QRectF(r.left() + r.width() * .1, r.top() + r.height() * .1, r.width() * .8, r.height() * .8)
        p.drawRect(box)
        p.drawLine(box.topLeft(), box.bottomRight())
        p.drawLine(box.bottomLeft(), box.topRight())
        if kind == "half_squad":
            p.drawLine(QPointF(box.center().x(), box.top()), QPointF(box.center().x(), box.bottom()))
        if kind == "crew":
            p.drawEllipse(box.center(), box.height() * .18, box.height() * .18)
    p.restore()
