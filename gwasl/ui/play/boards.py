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

__all__ = ["BOARDS", "GAME_NAMES", "Board", "ViewBoard", "board_for", "game_name"]

#: ruleset -> "module:class" of its board (imported when first needed)
BOARDS: dict[str, str] = {
    "aslgw": "gwasl.ui.play.aslgw_board:AslgwBoard",
    "combined-arms": "gwasl.ui.combined_arms_board:CombinedArmsBoard",
    "on-patrol": "gwasl.ui.on_patrol_board:OnPatrolBoard",
}

#: ruleset -> the game's name as its players know it (window titles, messages)
GAME_NAMES: dict[str, str] = {
    "aslgw": "ASL: The Great War",
    "combined-arms": "Combined Arms",
    "on-patrol": "On Patrol",
}


def game_name(ruleset: str) -> str:
    """The display name of ``ruleset`` (the ruleset's own name when gwasl has none for it)."""
    return GAME_NAMES.get(ruleset, ruleset)


class Board(QWidget):
    """The drawing of one game: ``show_view`` redraws, ``action_requested`` asks.

    A board may also say where each action belongs (:meth:`action_group`, the Actions
    dock's groups) and show on its map what an action or a log line is about
    (:meth:`highlight_actions`, :meth:`highlight_event`); by default it does neither."""

    action_requested = Signal(object)

    def action_group(self, la: LegalAction) -> tuple[tuple[str, str], ...]:
        """The groups of ``la`` in the Actions dock, outermost first: (key, words) each."""
        return ()

    def highlight_actions(self, actions: Sequence[LegalAction]) -> None:
        """Show on the map the units and hexes ``actions`` concern (none: clear it)."""

    def highlight_event(self, event: dict[str, Any] | None, bring_into_view: bool = True) -> None:
        """Show on the map the units and hexes a log line (an event as the viewer sees it) names
        (``bring_into_view``: and scroll the first of them into sight)."""

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
