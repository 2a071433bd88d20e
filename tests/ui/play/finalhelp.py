"""A user's answer to the window's question before a step that ends the game for good
(issue 26.6): the real message box, read and answered by a click on one of its buttons."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox


def answer_final_question(qtbot, button: str) -> list[str]:
    """Answer the next modal question by clicking ``button`` ("Yes" or "No"); the list
    returned gets the question's text once it has been asked."""
    asked: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):  # not up yet: the click that opens it is still on its way
            QTimer.singleShot(20, answer)
            return
        asked.append(box.text())
        std = QMessageBox.StandardButton.Yes if button == "Yes" else QMessageBox.StandardButton.No
        box.button(std).click()

    QTimer.singleShot(0, answer)
    return asked
