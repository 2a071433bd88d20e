"""Each game's board in the player window: the one its Game class declares (``Game.board``).

A board is a widget that draws a view (the JSON of ``Game.view`` for the
window's viewer) and the legal actions, and asks for actions through its
``action_requested`` signal; it never sees the game's state.  A game
without a board of its own gets :class:`ViewBoard`, which shows the view as
a readable tree.  The three boards live beside this module:
``aslgw_board``, ``combined_arms_board``, ``on_patrol_board``.

A board that cannot be imported or built is never passed over in silence:
:func:`board_for` logs the error with its traceback and gives a
:class:`BrokenBoard`, which says in the window what failed (the game stays
playable from the action list); :func:`load_board` raises it instead.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from gwasl.engine.game import GameError
from gwasl.engine.session import LegalAction
from gwasl.games import game_for
from gwasl.model.errors import GwaslError

__all__ = ["Board", "BoardError", "BrokenBoard", "ViewBoard", "board_for", "game_name", "load_board"]

log = logging.getLogger(__name__)


class BoardError(GwaslError):
    """A game's board that could not be imported or built: the message names the board and
    what failed; the exception raised is its ``__cause__``."""


def game_name(ruleset: str) -> str:
    """The name players know ``ruleset``'s game by (its ``Game.display_name``; the ruleset's
    own name when the game cannot be loaded)."""
    try:
        return game_for(ruleset).display_name or ruleset
    except GameError:
        return ruleset


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

    # -- View > Zoom: a board with a map zooms it (a board without one ignores them) -------
    def zoom_by(self, factor: float) -> None:
        """Zoom the map by ``factor`` (View > Zoom in/out); the zoom is then kept through resizes."""

    def zoom_fit(self) -> None:
        """The whole map in the board (View > Fit), kept so as the board is resized."""

    def zoom_actual(self) -> None:
        """View > 100%: the map at its drawn size."""

    def zoom_level(self) -> float:
        """The map's scale now (1.0: 100%)."""
        return 1.0


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


class BrokenBoard(ViewBoard):
    """The board shown in place of one that failed: what failed, in words, above the view
    as a tree (the action list still plays the game)."""

    def __init__(self, problem: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.problem = problem
        self.notice = QLabel(f"{problem}\n\nThe game goes on from the Actions list; below is the game as a plain tree. "
                             "The error is in gwasl's log (the terminal that started it).")
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #a00; border: 1px solid #a00; padding: 6px")
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(0, self.notice)


def load_board(ruleset: str, parent: QWidget | None = None) -> Board:
    """The board ``ruleset``'s game declares (:attr:`gwasl.engine.game.Game.board`), or the
    readable tree when it declares none.

    Raises :class:`BoardError` naming the board and the error when it cannot be imported
    or built (and for a ruleset gwasl does not know)."""
    try:
        game = game_for(ruleset)
    except GameError as e:
        raise BoardError(f"no board for the game: {e}") from e
    target = game.board
    if not target:
        return ViewBoard(parent)
    module, _, name = target.partition(":")
    try:
        board = getattr(importlib.import_module(module), name)(parent)
    except Exception as e:  # whatever the board's code raised: the person is told, never a silent stand-in
        raise BoardError(f"The {game.display_name} board ({target}) could not be built: {type(e).__name__}: {e}") from e
    if not isinstance(board, Board):
        raise BoardError(f"The {game.display_name} board ({target}) is a {type(board).__name__}, not a Board")
    return board


def board_for(ruleset: str, parent: QWidget | None = None) -> Board:
    """The board of ``ruleset`` (:func:`load_board`); one that fails is logged with its
    traceback and a :class:`BrokenBoard` says in the window what failed."""
    try:
        return load_board(ruleset, parent)
    except BoardError as e:
        log.exception("the board of ruleset %r", ruleset)
        return BrokenBoard(str(e), parent)
