"""The Qt adapter over a game file's :class:`~gwasl.engine.session.Session`.

The window holds no game state of its own: the controller forwards actions
and take-backs to the session (which commits them to the game file first)
and emits one ``changed`` signal; every widget then redraws from the
session's views for the controller's viewer, at the live position or at the
history position the player stepped to.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from gwasl.engine.dice import GameDice
from gwasl.engine.game import PLAYER, Decision, GameError, IllegalAction, Outcome, Status
from gwasl.engine.history import History
from gwasl.engine.journal import Entry
from gwasl.engine.record import Record
from gwasl.engine.session import LegalAction, Session
from gwasl.store.gamefile import GameFile

__all__ = ["WARM_BUDGET", "GameController"]

#: the longest the history is reduced for at one idle moment (seconds of the UI thread)
WARM_BUDGET = 0.004


class GameController(QObject):
    """One open game: act, take back, step through history, all as one viewer."""

    changed = Signal()
    #: gwasl's side decided in the thinking thread (state, decision, dice): committed on the UI thread
    thought = Signal(object)
    #: gwasl's decision is committed (what the player is shown of it), or ``[]`` when the game moved on
    answered = Signal(object)
    #: a suggestion worked out in the advising thread: (the state it read, the hint, ``None`` or an error)
    advised = Signal(object)

    def __init__(self, game_file: GameFile, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.file = game_file
        self.session: Session[Any] = game_file.session
        self.viewer = PLAYER
        self._cursor: int | None = None  # None: live; else the seq of the last event shown
        self._cursor_state: Any = None
        self._count = 0  # how many events the history position shows (while not live)
        # the history in force and its kept states: stepping one event is one reduce
        self.history = History(self.session)
        self._shown: dict[tuple[str, int], dict[str, Any] | None] = {}  # (viewer, seq) -> the event as shown
        # the log drawn last, to extend rather than walk again (a long game has thousands of
        # events and each action adds a few): its viewer, the seqs it covers, its lines, and
        # after each of those seqs how many lines there were
        self._log_viewer: str | None = None
        self._log_seqs: list[int] = []
        self._log_lines: list[dict[str, Any]] = []
        self._log_ends: list[int] = [0]
        self.session.add_listener(self._on_entries)
        # while the player looks at the board, the history is reduced a few ms at a time
        # (History.warm): the first step back in a long game just opened is then as quick
        # as the others
        self._warmer = QTimer(self)
        self._warmer.setInterval(0)
        self._warmer.timeout.connect(self._warm_step)
        self._warmer.start()
        self.thinking = False  # gwasl's side is deciding in another thread
        self.advising = False  # a suggestion is being worked out in another thread
        self._workers: list[threading.Thread] = []  # the threads thinking or advising
        self.thought.connect(self._commit_thought)

    # -- the session's news ------------------------------------------------------
    def _on_entries(self, _session: Session[Any], _entries: Sequence[Entry]) -> None:
        self.history.refresh()
        self._cursor = None
        self._cursor_state = None
        self.history.keep(len(self.history), self.session.state)
        if not self._warmer.isActive():
            self._warmer.start()  # the new events' checkpoints, between the player's clicks
        self.changed.emit()

    def _warm_step(self) -> None:
        if self.history.warm(WARM_BUDGET):
            self._warmer.stop()

    @property
    def _history(self) -> list[int]:
        """The seqs of the events in force (``History.seqs``)."""
        return self.history.seqs

    def close(self) -> None:
        self._warmer.stop()
        for t in self._workers:
            t.join(timeout=10)  # an answer is for this game: let it finish before the file goes
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
        return len(self._history) if self._cursor is None else self._count

    def step_to(self, count: int) -> None:
        """Show the game as it stood after ``count`` events of its history (read-only)."""
        count = max(0, min(count, len(self._history)))
        if count == len(self._history):
            self._cursor, self._cursor_state = None, None
        else:
            self._cursor_state = self.state_after(count)
            self._cursor = self._history[count - 1] if count > 0 else -1
            self._count = count
        self.changed.emit()

    def state_after(self, count: int) -> Any:
        """The state after ``count`` events of the history (``History.state_after``, from
        the position shown now when that is nearest)."""
        near = (self._count, self._cursor_state) if self._cursor is not None else None
        return self.history.state_after(count, near)

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
        """The history's events as the viewer sees them (``Session.log``), up to the position
        shown; each event's words are computed once (an event and a viewer fix them), and the
        log of the last call is extended, not walked again, where the history still begins
        with the events it covers (an action adds a few; a take-back cuts it)."""
        upto = len(self._history) if self._cursor is None else self._count
        seqs = self._history
        if self._log_viewer != self.viewer:
            self._log_viewer, self._log_seqs, self._log_lines, self._log_ends = self.viewer, [], [], [0]
        kept = self._shared_prefix(seqs)
        if kept < len(self._log_seqs):
            del self._log_seqs[kept:]
            del self._log_ends[kept + 1:]
            del self._log_lines[self._log_ends[-1]:]
        game = self.session.game
        v = None
        for seq, ev in zip(seqs[kept:upto], self.history.events[kept:upto], strict=True):
            key = (self.viewer, seq)
            if key not in self._shown:
                if v is None:
                    v = self.session.viewer(self.viewer)
                sh = game.event_view(ev, v)
                self._shown[key] = {"seq": seq, **sh.to_json()} if sh is not None else None
            e = self._shown[key]
            if e is not None:
                self._log_lines.append(e)
            self._log_seqs.append(seq)
            self._log_ends.append(len(self._log_lines))
        return self._log_lines[:self._log_ends[upto]]

    def _shared_prefix(self, seqs: list[int]) -> int:
        """How many seqs the last log covers that ``seqs`` begins with (list slices compared in C;
        a shared prefix of n implies one of every m < n, so halving finds the longest)."""
        have = self._log_seqs
        n = min(len(have), len(seqs))
        if have[:n] == seqs[:n]:
            return n
        lo, hi = 0, n  # have[:lo] == seqs[:lo], have[:hi] != seqs[:hi]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if have[lo:mid] == seqs[lo:mid]:
                lo = mid
            else:
                hi = mid
        return lo

    def legal(self) -> list[LegalAction]:
        """The legal actions of the person at the desk (none while browsing history)."""
        if self._cursor is not None:
            return []
        return self.session.legal(PLAYER)

    def odds(self, action: Record) -> list[Outcome]:
        return self.session.odds(action, PLAYER)

    #: the steps that end a game at the player's word: Combined Arms' "end the game after turn N
    #: and score it" (CA Victory) and On Patrol's breaking off the patrol
    FINAL_KINDS = ("end_game", "break_off")
    #: the steps that may end a game by the way (the last phase of the last turn)
    ENDING_KINDS = ("end_phase", "end_turn", "end_window", "end_impulse")

    def is_final(self, action: Record) -> bool:
        """Whether ``action`` ends the game and cannot be taken back (it rolls dice or reveals a
        hidden fact, so take-back refuses afterwards: docs/architecture.md "Undo and history"); in practice
        mode nothing is final.  An end of phase is tried on a copy of the state with dice of
        its own (never the game's stream): it is final when the game is then over."""
        if self.session.options.practice:
            return False
        if action.kind in self.FINAL_KINDS:
            return True
        if action.kind not in self.ENDING_KINDS:
            return False
        game, state = self.session.game, self.session.state
        try:
            events = game.apply(state, action, GameDice(0x26).private("lookahead"))
            for ev in events:
                state = game.reduce(state, ev)
        except (GameError, KeyError, ValueError, TypeError):  # the game refuses it: it will say why when sent
            return False
        return game.status(state).over and any(game.irreversible(ev) for ev in events)

    def why_not(self, data: dict[str, Any]) -> str:
        """Why the action ``data`` (its JSON) may not be taken now, as the game says it to the
        person at the desk (with the rule that forbids it); "" when it may."""
        if self._cursor is not None:
            return "you are looking at an earlier position; press Live to play on"
        try:
            action = self.session.find_action(data)
        except IllegalAction as e:
            return str(e)
        game, state = self.session.game, self.session.state
        if any(la.action == action for la in self.legal()):
            return ""
        try:
            return game.why_illegal(state, action, self.session.viewer(PLAYER))
        except (GameError, KeyError, ValueError, TypeError) as e:  # a half-made action the game cannot read
            return str(e)

    def suggest(self) -> tuple[str, Decision] | None:
        """What the game's own best policy would do now, and why (none while browsing)."""
        if self._cursor is not None:
            return None
        return self.session.suggest()

    def advise(self) -> bool:
        """Work out :meth:`suggest` in another thread (the Combined Arms advisor's rollouts take
        up to seconds), so the window keeps answering meanwhile: ``advised`` brings back the
        state it was asked at and the hint.  The hint reads only the session's immutable
        state; it is for that state alone (the window drops it if the game moved on).  False
        while browsing the history or already advising."""
        if self._cursor is not None or self.advising:
            return False
        self.advising = True
        state = self.session.state

        def work() -> None:
            try:
                out: Any = self.session.suggest()
            except Exception as e:  # the UI thread shows it (an unknown policy, a game error...)
                out = e
            self.advised.emit((state, out))  # queued to the UI thread

        self._workers = [t for t in self._workers if t.is_alive()]
        self._workers.append(threading.Thread(target=work, name="gwasl-advises", daemon=True))
        self._workers[-1].start()
        return True

    def advice_done(self) -> None:
        self.advising = False

    # -- acting ---------------------------------------------------------------------------
    def act(self, action: Record, paced: bool = False) -> list[dict[str, Any]]:
        """Apply ``action`` as the player (IllegalAction says why not); returns what it showed.
        ``paced``: gwasl's answers wait for :meth:`auto_step`, one at a time."""
        entries = self.session.act(action, PLAYER, automata=not paced)
        return self.session.shown(entries, self.viewer)

    @property
    def against_gwasl(self) -> bool:
        """Whether gwasl plays a side of this game entirely (``--opponent``, issue 25)."""
        return bool(self.session.options.extra.get("opponent"))

    def gwasl_to_act(self) -> bool:
        """Whether gwasl's side is to act (its next action waits for :meth:`auto_step`)."""
        return self._cursor is None and self.session.automaton_to_act()

    def think(self) -> bool:
        """Decide gwasl's next action in another thread, so the window keeps answering; the
        decision is committed on the UI thread through the session (``answered`` then).
        False when gwasl is not to act or is already thinking."""
        if self.thinking or not self.gwasl_to_act():
            return False
        self.thinking = True

        def work() -> None:
            try:
                out: Any = self.session.automaton_decision()
            except Exception as e:  # the UI thread shows it (a game error, a damaged file...)
                out = e
            self.thought.emit(out)  # queued to the UI thread

        self._workers = [t for t in self._workers if t.is_alive()]
        self._workers.append(threading.Thread(target=work, name="gwasl-thinks", daemon=True))
        self._workers[-1].start()
        return True

    def _commit_thought(self, out: Any) -> None:
        self.thinking = False
        if isinstance(out, Exception):
            self.answered.emit(out)
            return
        entry = self.session.commit_decision(*out) if out is not None else None
        self.answered.emit(self.session.shown([entry], self.viewer) if entry is not None else [])

    def auto_step(self) -> list[dict[str, Any]]:
        """gwasl's next action for its side, if it is to act; what the player is shown of it."""
        entry = self.session.auto_step()
        return self.session.shown([entry], self.viewer) if entry is not None else []

    #: kinds of action that only move the game on: a list of these alone is no decision
    PASSING = ("end_phase", "end_window")

    def continue_to_decision(self, limit: int = 200) -> list[dict[str, Any]]:
        """Pass through the phases where the player has nothing to decide (issue 25): end
        each while its only action is to end it, never past a choice, a fire
        opportunity or a roll of the player's (any other action in the list stops it).
        Returns what the player was shown on the way."""
        shown: list[dict[str, Any]] = []
        for _ in range(limit):
            if self._cursor is not None or self.session.status().over:
                break
            legal = self.legal()
            if not legal or any(la.shown.kind not in self.PASSING for la in legal):
                break
            shown += self.act(legal[0].action)
        return shown

    def continue_step(self) -> list[dict[str, Any]] | None:
        """One step of :meth:`continue_to_decision` for a window that keeps answering: the
        player's only action when it is to end a phase or window (gwasl's answers then wait
        for :meth:`think`), or ``None`` at a choice of the player's, the result, the history
        or gwasl's turn."""
        if self._cursor is not None or self.session.status().over or self.gwasl_to_act():
            return None
        legal = self.legal()
        if not legal or any(la.shown.kind not in self.PASSING for la in legal):
            return None
        return self.act(legal[0].action, paced=True)

    def undo(self) -> tuple[bool, str | None]:
        ok, reason = self.session.undo()
        return ok, reason
