"""Stepping through a game's history fast (docs/architecture.md "A game in play": history is a read-only
step to any event).

:meth:`Session.state_at` rebuilds a position from the session's snapshots (one every few
hundred events).  A viewer that steps event by event, like the player window's history
slider, wants every position within a few reduces: :class:`History` keeps the state after
every ``CHECKPOINT``-th event of the history in force (states are immutable values, so
keeping one costs a reference) and reduces on from the nearest one.  ``warm`` does that
work ahead, a time budget at a time, so a caller with idle moments (the window's event
loop) pays for it before the first step back.

>>> from gwasl.engine.history import CHECKPOINT
>>> CHECKPOINT
16
"""

from __future__ import annotations

import time
from typing import Any, Generic, TypeVar

from gwasl.engine.record import Record
from gwasl.engine.session import Session

__all__ = ["CHECKPOINT", "MAX_KEPT", "History"]

#: one history state kept every this many events (stepping back costs at most as many reduces)
CHECKPOINT = 16
#: past this many kept states, the states of single actions go; every CHECKPOINT-th stays
MAX_KEPT = 2048

S = TypeVar("S")


class History(Generic[S]):
    """The events in force of ``session`` (``seqs``, ``events``) and the states after any
    number of them, each exactly ``session.state_at`` of the same position."""

    def __init__(self, session: Session[S]) -> None:
        self.session = session
        self.seqs: list[int] = []
        self.events: list[Record] = []
        # event count -> (seq of its last event, state); a take-back leaves stale ones, which
        # the seq check rejects
        self._kept: dict[int, tuple[int, S]] = {}
        self._warm: tuple[int, int, S] | None = None  # (event count, seq of its last event, state)
        self.refresh()

    def __len__(self) -> int:
        return len(self.seqs)

    def refresh(self) -> None:
        """Read the history in force again (after new entries or a take-back)."""
        pairs = list(self.session.effective())
        self.seqs = [seq for seq, _ in pairs]
        self.events = [ev for _, ev in pairs]

    def keep(self, count: int, state: S) -> None:
        """Keep ``state`` as the state after ``count`` events of the history."""
        self._kept[count] = (self.seqs[count - 1] if count else -1, state)
        if len(self._kept) > MAX_KEPT:
            for n in [n for n in self._kept if n % CHECKPOINT and n != count]:
                del self._kept[n]

    def _kept_at_or_before(self, count: int) -> tuple[int, S] | None:
        best: tuple[int, S] | None = None
        for n, (seq, state) in self._kept.items():
            valid = n <= count and (n == 0 or (n <= len(self.seqs) and self.seqs[n - 1] == seq))
            if valid and (best is None or n > best[0]):
                best = (n, state)
        return best

    def _start(self, count: int) -> tuple[int, S]:
        start = self._kept_at_or_before(count)
        if start is None:
            self.keep(0, self.session.state_at(None))
            start = (0, self._kept[0][1])
        return start

    def _reduce_on(self, count: int, state: S, upto: int, deadline: float | None = None) -> tuple[int, S]:
        game = self.session.game
        while count < upto and (deadline is None or time.perf_counter() < deadline):
            state = game.reduce(state, self.events[count])
            count += 1
            if count % CHECKPOINT == 0:
                self.keep(count, state)
        return count, state

    def state_after(self, count: int, near: tuple[int, Any] | None = None) -> S:
        """The state after ``count`` events of the history, reduced from the nearest kept
        state at or before it, or from ``near`` (a ``(count, state)`` the caller holds, e.g.
        the position shown now) when that is nearer."""
        if self._kept_at_or_before(count) is None and near is None:
            # nothing kept yet: one pass over the whole history, keeping its checkpoints
            n, state = self._start(0)
            self._reduce_on(n, state, len(self.seqs))
        start = self._start(count)
        if near is not None and start[0] < near[0] <= count:
            start = near
        return self._reduce_on(start[0], start[1], count)[1]

    def warm(self, budget: float) -> bool:
        """Reduce the history on from where the last call stopped, for ``budget`` seconds at
        most, keeping every CHECKPOINT-th state; True when it has reached the live position."""
        n, warm = len(self.seqs), self._warm
        if warm is None or warm[0] > n or (warm[0] and self.seqs[warm[0] - 1] != warm[1]):
            # first time, or a take-back changed the history under it: on from the last state
            # kept before where it had got to (every one before that still holds)
            count, state = self._start(0 if warm is None else min(warm[0], n))
        else:
            count, state = warm[0], warm[2]
        count, state = self._reduce_on(count, state, n, time.perf_counter() + budget)
        self._warm = (count, self.seqs[count - 1] if count else -1, state)
        return count >= n
