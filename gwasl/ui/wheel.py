"""The mouse wheel over a scrolling form scrolls the form, not the field under the pointer.

A combo box or spin box takes the wheel only once the user has clicked into
it (it has the focus); otherwise the wheel goes to the scroll area around it,
so scrolling down the palette never changes a choice by accident.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox, QWidget

__all__ = ["WheelScrollsForm", "wheel_scrolls_form"]


class WheelScrollsForm(QObject):
    """Event filter: a wheel event over an unfocused field is handed to ``area``."""

    def __init__(self, area: QAbstractScrollArea) -> None:
        super().__init__(area)
        self.area = area

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and not watched.hasFocus():
            QApplication.sendEvent(self.area.verticalScrollBar(), event)
            return True
        return False


def wheel_scrolls_form(area: QAbstractScrollArea) -> WheelScrollsForm:
    """Make every combo box and spin box inside ``area`` leave the wheel to it until clicked."""
    guard = WheelScrollsForm(area)
    for w in area.findChildren(QWidget):
        if isinstance(w, (QComboBox, QAbstractSpinBox)):
            # Qt's default (WheelFocus) would hand such a field the focus on the first wheel turn.
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.installEventFilter(guard)
    return guard
