"""Starting the editor application."""

from __future__ import annotations

import os
import sys
import time

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from gwasl.editor.document import EditorDocument
from gwasl.model.scenario import Scenario
from gwasl.ui.mainwindow import MainWindow

__all__ = ["run_editor", "startup_probe"]


def startup_probe(app: QCoreApplication) -> None:
    """With ``GWASL_STARTUP_PROBE`` set (benchmarks/startup.py), print when the window is up
    (the first turn of the event loop: it is shown and painted) and quit."""
    if not os.environ.get("GWASL_STARTUP_PROBE"):
        return
    from PySide6.QtCore import QTimer

    def visible() -> None:
        print(f"visible {time.time():.6f}", flush=True)
        app.quit()

    QTimer.singleShot(0, visible)


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
    startup_probe(app)
    return app.exec()
