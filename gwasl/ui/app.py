"""Starting the editor application."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from gwasl.editor.document import EditorDocument
from gwasl.model.scenario import Scenario
from gwasl.ui.mainwindow import MainWindow

__all__ = ["run_editor"]


def run_editor(path: str | None = None, scenario: Scenario | None = None) -> int:
    """Open the main window on ``path`` (already loaded as ``scenario``) and run until it closes."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("gwasl")
    app.setOrganizationName("gwasl")
    doc = EditorDocument(scenario, path) if scenario is not None else None
    win = MainWindow(doc)
    if path:
        win._remember(path)
    win.show()
    win.view_home()
    return app.exec()
