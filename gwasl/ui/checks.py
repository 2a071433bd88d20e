"""Checking overlays: LOS thread, hover LOS map, command radius.

They ask the window's :class:`~gwasl.ui.seen.Seen` (which calls the pure
rule functions, gwasl.rules.los and gwasl.rules.command, on what the viewer
may know) and only draw what it returns.  A one-to-all LOS index is built
once per Seen and reused while the mouse moves.

On a map bigger than a board the hover LOS map is computed on a worker
thread (:class:`LosMapWorker`), so no mouse move waits for the LOS index or
the kernel's templates (tens to hundreds of milliseconds the first time on
16 boards): the overlay follows as soon as the answer is in, and an answer
for a hex the mouse has already left is dropped.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QColor

from gwasl.model.hexgrid import Hex
from gwasl.ui.words import words

if TYPE_CHECKING:  # pragma: no cover
    from gwasl.rules import los as los_rules
    from gwasl.ui.mapscene import MapScene
    from gwasl.ui.palette import Palette
    from gwasl.ui.seen import Seen


def _los_errors() -> tuple[type[Exception], ...]:
    """What the LOS rules refuse with; gwasl.rules.los (numpy) is loaded when an LOS is first
    asked for, not with the window (issue 26's start-up), and so only then named here."""
    from gwasl.rules import los as los_rules

    return (los_rules.LosError, los_rules.OutlineError)


class CheckedWindow(Protocol):
    """What the checks use of the window they draw on (the editor's MainWindow): a Protocol,
    so this module need not import the window that imports it."""

    @property
    def scene(self) -> MapScene: ...
    @property
    def palette(self) -> Palette: ...
    @property
    def seen(self) -> Seen: ...
    @property
    def destroyed(self) -> Any: ...  # the Qt signal of the window going away

    def show_message(self, text: str, error: bool = False) -> None: ...

__all__ = ["Checks", "LosMapWorker", "SYNC_LOS_MAP_HEXES"]

#: Maps of at most this many hexes (a board is 330) get their LOS map at once,
#: on the UI thread: the first query there, LOS index and templates included,
#: takes under 16 ms (benchmarks/ui.py); bigger maps use the worker.
SYNC_LOS_MAP_HEXES = 400


class LosMapWorker(QObject):
    """One daemon thread answering LOS-map requests, the newest first.

    :meth:`submit` replaces any request not started yet, so a moving mouse
    queues nothing; ``done(token, hex, result)`` is delivered on the UI
    thread (a queued signal), ``result`` being the frozenset of hexes seen or
    the message of a :class:`~gwasl.rules.los.LosError`.
    """

    done = Signal(int, object, object)

    def __init__(self) -> None:
        super().__init__()
        self._cv = threading.Condition()
        self._job: tuple[int, Any, Hex, Any] | None = None
        self._stopped = False
        self._index: los_rules.LosIndex | None = None
        self._thread = threading.Thread(target=self._run, name="gwasl-los-map", daemon=True)
        self._thread.start()

    def submit(self, token: int, scenario: Any, h: Hex, from_in: Any) -> None:
        with self._cv:
            self._job = (token, scenario, h, from_in)
            self._cv.notify()

    def stop(self) -> None:
        with self._cv:
            self._stopped = True
            self._cv.notify()

    def _run(self) -> None:
        while True:
            with self._cv:
                while self._job is None and not self._stopped:
                    self._cv.wait()
                if self._stopped:
                    return
                job, self._job = self._job, None
            assert job is not None
            token, scenario, h, from_in = job
            result: frozenset[Hex] | str
            from gwasl.rules import los as los_rules  # the worker's own first LOS loads it

            try:
                if self._index is None or self._index.scenario is not scenario:
                    self._index = los_rules.LosIndex(scenario)
                result = self._index.visible_from(h, from_in=from_in)
            except los_rules.LosError as e:
                result = str(e)
            try:
                self.done.emit(token, h, result)
            except RuntimeError:  # the window (and this QObject) is gone
                return


class Checks:
    """Owns the checking overlays of one window; recomputes them from the window's ``seen``."""

    def __init__(self, window: CheckedWindow) -> None:
        self.win = window
        self.los_ends: tuple[Hex, Hex] | None = None
        self.los_result: los_rules.LosResult | None = None
        self.los_map_from: Hex | None = None
        self.command_for: dict[str, str | None] | None = None
        self._worker: LosMapWorker | None = None
        self._los_map_token = 0
        #: The hex whose LOS map the overlay shows (None: none shown, or the answer is not in yet).
        self.los_map_shown: Hex | None = None

    def refresh(self) -> None:
        """The scenario or the viewer changed: redo whatever check is showing against what is seen now."""
        if self.los_ends is not None:
            self.show_los(*self.los_ends)
        if self.los_map_from is not None:
            self.show_los_map(self.los_map_from)
        if self.command_for is not None:
            self.show_command(**self.command_for)

    # -- LOS thread --------------------------------------------------------------------
    def show_los(self, a: Hex, b: Hex) -> None:
        scene = self.win.scene
        self.los_ends = (a, b)
        from_in, to_in = self.win.palette.positions()
        try:
            r = self.win.seen.los(a, b, from_in, to_in)
        except _los_errors() as e:  # e.g. "in a dugout" where there is none
            self.los_result = None
            scene.los_thread.set_thread(a, b, "pending", "?")
            scene.blocker.set_hexes(())
            self.win.show_message(str(e), error=True)
            return
        self.los_result = r
        if not r.clear:
            state = "blocked"
        elif r.hindrances:
            state = "hindered"
        else:
            state = "clear"
        blocked_by = r.blocked_by
        text = {"clear": "clear", "hindered": f"hindrance +{r.hindrances}", "blocked": f"blocked at {blocked_by}" if blocked_by else "blocked"}[state]
        scene.los_thread.set_thread(a, b, state, text)
        scene.blocker.set_hexes({blocked_by} if blocked_by is not None else set())
        reason = r.reason
        self.win.show_message(f"LOS {a} -> {b} ({words(from_in)} -> {words(to_in)}): {text}" + (f"; {reason}" if reason else ""))

    def clear_los(self) -> None:
        self.los_ends = None
        self.los_result = None
        self.win.scene.los_thread.set_thread(None, None)
        self.win.scene.blocker.set_hexes(())

    # -- LOS map ------------------------------------------------------------------------
    def visible_from(self, h: Hex) -> frozenset[Hex]:
        from_in, _ = self.win.palette.positions()
        return self.win.seen.visible_from(h, from_in)

    def show_los_map(self, h: Hex) -> None:
        self.los_map_from = h
        self._los_map_token += 1
        s = self.win.seen.scenario  # the map as the window's viewer knows it
        if s.map.columns * s.map.rows <= SYNC_LOS_MAP_HEXES:
            try:
                seen = self.visible_from(h)
            except _los_errors() as e:
                self.win.show_message(str(e), error=True)
                return
            self._draw_los_map(h, seen)
            return
        if self._worker is None:
            self._worker = LosMapWorker()
            self._worker.done.connect(self._los_map_done)
            self.win.destroyed.connect(self._worker.stop)
        from_in, _ = self.win.palette.positions()
        self._worker.submit(self._los_map_token, s, h, from_in)

    def _los_map_done(self, token: int, h: Hex, result: object) -> None:
        if token != self._los_map_token:  # the mouse has moved on, or the map changed
            return
        if isinstance(result, str):
            self.win.show_message(result, error=True)
            return
        assert isinstance(result, frozenset)
        self._draw_los_map(h, result)

    def _draw_los_map(self, h: Hex, seen: frozenset[Hex]) -> None:
        self.win.scene.los_map.set_hexes(x for x in self.win.scene.hex_polygons if x not in seen)
        self.win.scene.highlight.set_hexes({h})
        self.los_map_shown = h

    def clear_los_map(self) -> None:
        self.los_map_from = None
        self.los_map_shown = None
        self._los_map_token += 1
        self.win.scene.los_map.set_hexes(())
        self.win.scene.highlight.set_hexes(())

    # -- command radius --------------------------------------------------------------------
    def show_command(self, leader: str | None = None, side: str | None = None) -> None:
        """The command radius of ``leader`` or of ``side``'s leaders, as the window's viewer may know it (ASLGW 1.3)."""
        picture = self.win.seen.command(leader=leader, side=side)
        if picture is None:  # that leader or side is not (or no longer) known to the viewer
            self.clear_command()
            return
        self.command_for = {"leader": leader, "side": side}
        marks = {h: (IN_COMMAND if ok else OUT_OF_COMMAND) for h, ok in picture.marks.items()}
        self.win.scene.command_overlay.set_hexes(picture.hexes, marks)
        self.win.show_message(picture.text)

    def clear_command(self) -> None:
        self.command_for = None
        self.win.scene.command_overlay.set_hexes(())

    def clear_all(self) -> None:
        self.clear_los()
        self.clear_los_map()
        self.clear_command()


IN_COMMAND = ("✓", QColor("#1b8a2f"))
OUT_OF_COMMAND = ("✗", QColor("#c62020"))
