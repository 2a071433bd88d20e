"""The emit-and-reduce helper every game's resolver uses (issue 23 item 4: once for all three).

A resolver makes an action's events one at a time; each is reduced into :attr:`Emitter.state`
at once, so the next rule it applies sees the effect of the last (a unit broken by the first
attack is broken for the second).  ``apply`` returns :attr:`Emitter.events`; the session
reduces the same events again from the same state, which is why a reducer must be pure.

>>> em = Emitter(0, None, lambda s, ev: s + 1)
>>> em.emit("a", "b"); em("c")
>>> em.state, em.events
(3, ['a', 'b', 'c'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["Emitter"]

S = TypeVar("S")


class Emitter(Generic[S]):
    """Events made one at a time, each reduced at once into :attr:`state`; ``dice`` the
    action's dice (the game's :class:`~gwasl.engine.dice.GameDice`), for the resolver's rolls."""

    __slots__ = ("_reduce", "dice", "events", "state")

    def __init__(self, state: S, dice: Any, reduce_fn: Callable[[S, Any], S]) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Any] = []
        self._reduce = reduce_fn

    def emit(self, *events: Any) -> None:
        for ev in events:
            self.events.append(ev)
            self.state = self._reduce(self.state, ev)

    def __call__(self, *events: Any) -> None:
        self.emit(*events)
