"""The Qt adapter over a game file's :class:`~gwasl.engine.session.Session`.

The window holds no game state of its own: the controller forwards actions
and take-backs to the session (which commits them to the game file first)
and emits one ``changed`` signal; every widget then redraws from the
session's views for the controller's viewer, at the live position or at the
history position the player stepped to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Signal

from gwasl.engine.game import PLAYER, Outcome, Status
from gwasl.engine.journal import Entry
from gwasl.engine.record import Record
from gwasl.engine.session import LegalAction, Session
from gwasl.store.gamefile import GameFile

__all__ = ["GameController"]


class GameController(QObject):
    """One open game: act, take back, step through history, all as one viewer."""

    changed = Signal()

    def __init__(self, game_file: GameFile, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.file = game_file
        self.session: Session[Any] = game_file.session
        self.viewer = PLAYER
        self._cursor: int | None = None  # None: live; else the seq of the last event shown
        self._history: list[int] = []
        self._cursor_state: Any = None
        self._refresh_history()
        self.session.add_listener(self._on_entries)

    # -- the session's news ------------------------------------------------------
    def _on_entries(self, _session: Session[Any], _entries: Sequence[Entry]) -> None:
        self._refresh_history()
        self._cursor = None
        self._cursor_state = None
        self.changed.emit()

    def _refresh_history(self) -> None:
        self._history = [seq for seq, _ in self.session.effective()]

    def close(self) -> None:
        self.session.remove_listener(self._on_entries)
        self.file.close()

    # -- viewer and history ----------------------------------------------------------
    def set_viewer(self, name: str) -> None:
        self.session.viewer(name)  # raises GameError for an unknown name
        self.viewer = name
        self.changed.emit()

    @property
    def live(self) -> bool:
        return self._cursor is None

    @property
    def history_length(self) -> int:
        return len(self._history)

    @property
    def position(self) -> int:
        """How many events of the history are shown (the whole history when live)."""
        if self._cursor is None:
            return len(self._history)
        return self._history.index(self._cursor) + 1 if self._cursor in self._history else 0

    def step_to(self, count: int) -> None:
        """Show the game as it stood after ``count`` events of its history (read-only)."""
        count = max(0, min(count, len(self._history)))
        if count == len(self._history):
            self._cursor, self._cursor_state = None, None
        else:
            self._cursor = self._history[count - 1] if count > 0 else -1
            self._cursor_state = self.session.state_at(self._cursor if count > 0 else None)
        self.changed.emit()

    def _state(self) -> Any:
        return self.session.state if self._cursor is None else self._cursor_state

    # -- what widgets draw ---------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        game = self.session.game
        state = self._state()
        return game.view(state, game.viewer(state, self.viewer))

    def status(self) -> Status:
        return self.session.game.status(self._state())

    def log(self) -> list[dict[str, Any]]:
        entries = self.session.log(self.viewer)
        if self._cursor is None:
            return entries
        return [e for e in entries if e["seq"] <= self._cursor]

    def legal(self) -> list[LegalAction]:
        """The legal actions of the person at the desk (none while browsing history)."""
        if self._cursor is not None:
            return []
        return self.session.legal(PLAYER)

    def odds(self, action: Record) -> list[Outcome]:
        return self.session.odds(action, PLAYER)

    # -- acting ---------------------------------------------------------------------------
    def act(self, action: Record) -> list[dict[str, Any]]:
        """Apply ``action`` as the player (IllegalAction says why not); returns what it showed."""
        entries = self.session.act(action, PLAYER)
        return self.session.shown(entries, self.viewer)

    def undo(self) -> tuple[bool, str | None]:
        ok, reason = self.session.undo()
        return ok, reason
