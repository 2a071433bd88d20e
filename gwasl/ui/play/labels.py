"""Readable labels on the solitaire boards (issue 26.9): at least :data:`MIN_PX` high, and
an ink chosen for a contrast of at least 4.5:1 (WCAG 2) against what it is drawn on.

A board that paints its own labels draws them through :func:`draw_label`, which keeps a
record of each (where it landed on the widget, its height, its ink) so that a test can
measure the rendered pixels under it."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFont, QFontInfo, QPainter

__all__ = ["MIN_PX", "DrawnLabel", "contrast", "draw_label", "ink_on", "label_font", "luminance"]

#: the smallest label height at the default window, pixels (the font's em height)
MIN_PX = 12


def luminance(c: QColor) -> float:
    """The relative luminance of ``c`` (WCAG 2)."""

    def lin(v: float) -> float:
        v /= 255.0
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.red()) + 0.7152 * lin(c.green()) + 0.0722 * lin(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    """The contrast ratio of two colours (WCAG 2: 1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(background: QColor, dark: QColor | None = None, light: QColor | None = None) -> QColor:
    """Whichever of a dark and a light ink reads better on ``background``."""
    d, lt = dark or QColor(20, 20, 20), light or QColor(255, 255, 255)
    return d if contrast(d, background) >= contrast(lt, background) else lt


def label_font(px: int = MIN_PX, bold: bool = False) -> QFont:
    """A label font ``px`` pixels high (pixels, not points: the same on every screen's dpi)."""
    f = QFont("Sans")
    f.setPixelSize(px)
    f.setBold(bold)
    return f


@dataclass(frozen=True)
class DrawnLabel:
    text: str
    rect: QRectF  # where its text landed, in the painted device's pixels
    px: float  # its height on the device, pixels
    ink: QColor


def draw_label(p: QPainter, rect: QRectF, flags: object, text: str, log: list[DrawnLabel] | None) -> None:
    """``p.drawText(rect, flags, text)``, kept in ``log`` as it landed on the device."""
    p.drawText(rect, flags, text)  # type: ignore[call-overload]
    if log is None or not text.strip():
        return
    t = p.worldTransform()
    box = QRectF(t.mapRect(QRectF(p.boundingRect(rect, flags, text))))  # type: ignore[call-overload]
    px = QFontInfo(p.font()).pixelSize() * (t.m22() ** 2 + t.m21() ** 2) ** 0.5
    log.append(DrawnLabel(text, box, px, QColor(p.pen().color())))
