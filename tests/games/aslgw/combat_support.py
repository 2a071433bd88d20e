"""Helpers for the fire and close combat tests: scripted dice through the game's own
event machinery, and short ways to reach a phase and read the log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.aslgw.playout import GAME
from gwasl.engine.dice import GameDice
from gwasl.engine.events import Rolled
from gwasl.engine.record import Record
from gwasl.engine.session import Session
from gwasl.games.aslgw import effects as fx


class ScriptedGameDice(GameDice):
    """The game's dice with given values: every roll is still logged and made an event."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(seed=0)
        self._values = list(values)

    def _die(self) -> int:
        self.position += 1
        if not self._values:
            raise AssertionError("scripted dice ran out")
        return self._values.pop(0)


def emitter(s: Session[Any], dice: Iterable[int]) -> fx.Emitter:
    """An :class:`~gwasl.games.aslgw.effects.Emitter` on the session's current state."""
    return fx.Emitter(s.state, ScriptedGameDice(dice), GAME.reduce)


def rolls(events: Iterable[Record]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled)]


def of(events: Iterable[Record], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def flat(entries: Iterable[Any]) -> list[Record]:
    return [ev for e in entries for ev in e.events]


def causes(roll: Rolled) -> list[str]:
    return [m.cause for m in roll.modifiers]
