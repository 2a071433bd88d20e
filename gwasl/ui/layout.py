"""A main window's dock layout and size, kept between sessions in QSettings (one place for
the editor and the player window)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow

__all__ = ["restore_layout", "save_layout"]


def restore_layout(window: QMainWindow, settings: QSettings, key: str) -> None:
    """The docks where the user left them last time (a bad or missing value: the default)."""
    state, geometry = settings.value(key + "/state"), settings.value(key + "/geometry")
    if isinstance(geometry, (bytes, bytearray, QByteArray)):
        window.restoreGeometry(QByteArray(geometry))
    if isinstance(state, (bytes, bytearray, QByteArray)):
        window.restoreState(QByteArray(state))


def save_layout(window: QMainWindow, settings: QSettings, key: str) -> None:
    settings.setValue(key + "/state", window.saveState())
    settings.setValue(key + "/geometry", window.saveGeometry())
    settings.sync()
