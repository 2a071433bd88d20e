"""A small memo of answers worked out on a state: the legal lists and the odds are pure
functions of the state (an immutable value), the viewer and the action, and the session,
the seats, the opponent and the menus ask them again for the same state.

An answer is found by the state's identity (hashing a whole state would cost more than
some answers) and a hashable key; each entry keeps its state, so an id is never reused
while its entry lives.  Bounded: emptied when full.  Safe to share with the thread that
thinks for gwasl in the window: an entry is one tuple, put or read whole (the answers
themselves are immutable values).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

__all__ = ["StateMemo"]

_MISSING = object()


class StateMemo:
    """Answers by (state identity, key), at most ``size`` of them."""

    __slots__ = ("_entries", "_size")

    def __init__(self, size: int) -> None:
        self._entries: dict[tuple[int, Hashable], tuple[object, Any]] = {}
        self._size = size

    def get(self, state: object, key: Hashable) -> Any:
        """The answer kept for ``state`` and ``key``, else :data:`MISSING`."""
        try:
            entry = self._entries.get((id(state), key))
        except TypeError:  # an unhashable key is never kept
            return MISSING
        if entry is None or entry[0] is not state:
            return MISSING
        return entry[1]

    def put(self, state: object, key: Hashable, answer: Any) -> None:
        if len(self._entries) >= self._size:
            self._entries.clear()
        try:
            self._entries[(id(state), key)] = (state, answer)
        except TypeError:
            pass

    def clear(self) -> None:
        self._entries.clear()


MISSING: Any = _MISSING
