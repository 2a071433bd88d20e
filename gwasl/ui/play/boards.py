"""Each game's board in the player window, chosen by ruleset.

A board is a widget that draws a view (the JSON of ``Game.view`` for the
window's viewer) and the legal actions, and asks for actions through its
``action_requested`` signal; it never sees the game's state.  A ruleset
without a board of its own gets :class:`ViewBoard`, which shows the view as
a readable tree.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from gwasl.engine.session import LegalAction

__all__ = ["BOARDS", "Board", "ViewBoard", "board_for"]

#: ruleset -> "module:class" of its board (imported when first needed)
BOARDS: dict[str, str] = {
    "aslgw": "gwasl.ui.play.aslgw_board:AslgwBoard",
    "combined-arms": "gwasl.ui.combined_arms_board:CombinedArmsBoard",
    "on-patrol": "gwasl.ui.on_patrol_board:OnPatrolBoard",
}


class Board(QWidget):
    """The drawing of one game: ``show_view`` redraws, ``action_requested`` asks."""

    action_requested = Signal(object)

    def set_source(self, source: dict[str, Any] | None) -> None:
        """The scenario the game started from, for what every player knows of it (a map's
        terrain); a board must take nothing else from it."""

    def show_view(self, view: dict[str, Any], legal: Sequence[LegalAction]) -> None:
        raise NotImplementedError


class ViewBoard(Board):
    """The view as a tree of its fields: every game is playable with it (through the
    action list), though a game's own board draws it far better."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["", ""])
        self.tree.setColumnCount(2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.tree)

    def show_view(self, view: dict[str, Any], legal: Sequence[LegalAction]) -> None:
        self.tree.clear()
        self._add(self.tree.invisibleRootItem(), view)
        self.tree.expandToDepth(0)
        self.tree.resizeColumnToContents(0)

    def _add(self, parent: QTreeWidgetItem, value: Any) -> None:
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for k, v in items:
            leaf = not isinstance(v, (dict, list))
            item = QTreeWidgetItem([str(k).replace("_", " "), "" if not leaf else _text(v)])
            parent.addChild(item)
            if not leaf:
                self._add(item, v)


def _text(v: Any) -> str:
    if v is None:
        return "-"
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


def board_for(ruleset: str, parent: QWidget | None = None) -> Board:
    """The board of ``ruleset`` (its own, or the readable tree when it has none)."""
    target = BOARDS.get(ruleset)
    if target:
        module, _, cls = target.partition(":")
        try:
            board: Board = getattr(importlib.import_module(module), cls)(parent)
            return board
        except (ImportError, AttributeError):
            pass
    return ViewBoard(parent)
