"""Starting the player window."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from gwasl.ui.app import startup_probe
from gwasl.ui.play.window import PlayerWindow

__all__ = ["run_player"]


def run_player(path: str | None = None) -> int:
    """Open the player window (on ``path`` when given) and run until it closes."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("gwasl")
    app.setOrganizationName("gwasl")
    win = PlayerWindow()
    win.show()  # first: a question about the file (a scenario given as a game) has a window to belong to
    if path:
        win.open_game_path(path)
    else:
        win.new_game_dialog()
    startup_probe(app)
    return int(app.exec())
