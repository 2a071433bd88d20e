"""Text from a file is shown as plain text, everywhere in the window.

Qt treats a tooltip, a label or a message box text as HTML as soon as it
looks like HTML, and HTML can name images: a unit id ``<img src='/dev/zero'>``
in a tooltip would make Qt read that path (an endless file hangs the editor).
Every string that can hold text from a scenario file reaches the screen
through this module:

- :func:`tooltip` for tooltips (of map stacks, table cells, actions);
- :func:`message` for dialogs (``QMessageBox`` set to plain text);
- :func:`plain_labels` for the labels of a widget tree;
- :func:`window_title` and :func:`action_text` for Qt's two other markups
  (the ``[*]`` placeholder and ``&`` mnemonics).

Item views, combo boxes, list widgets and the status bar draw plain text already.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # Qt's text helpers live in QtGui's part of the namespace
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

__all__ = ["tooltip", "message", "plain_labels", "window_title", "action_text"]


def tooltip(text: str) -> str:
    """``text`` as a tooltip Qt shows literally: escaped into explicit rich text.

    (A plain string cannot be forced to plain text in a tooltip; Qt guesses.
    Escaped HTML leaves it nothing to guess: every ``<`` is ``&lt;``.)
    """
    return GuiQt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpacePre) if text else ""


def message(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
    default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton,
) -> QMessageBox.StandardButton:
    """A modal message box whose text is shown as plain text; returns the button pressed."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    if default != QMessageBox.StandardButton.NoButton:
        box.setDefaultButton(default)
    return QMessageBox.StandardButton(box.exec())


def plain_labels(root: QWidget) -> None:
    """Every label under ``root`` shows its text literally."""
    for label in root.findChildren(QLabel):
        label.setTextFormat(Qt.TextFormat.PlainText)


def window_title(text: str) -> str:
    """``text`` for ``setWindowTitle`` next to a ``[*]`` placeholder: a literal ``[*]`` is doubled."""
    return text.replace("[*]", "[*][*]")


def action_text(text: str) -> str:
    """``text`` for a menu entry: a literal ``&`` is doubled so it is not taken as a shortcut mark."""
    return text.replace("&", "&&")
