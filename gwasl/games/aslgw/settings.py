"""The turn record of a Great War scenario in play: the scenario's optional ``"game"``
object, read by :func:`gwasl.rules.turn_record.turn_record` (one implementation, which
``gwasl validate`` also checks), with bad fields reported as a :class:`GameError`."""

from __future__ import annotations

from gwasl.engine.game import GameError
from gwasl.model.scenario import Scenario
from gwasl.rules.turn_record import DEFAULT_TURNS, TurnRecord, TurnRecordError, turn_record

__all__ = ["DEFAULT_TURNS", "GameSettings", "SettingsError", "game_settings"]

GameSettings = TurnRecord


class SettingsError(GameError):
    """A ``"game"`` object that gwasl cannot play: names the field and the problem."""


def game_settings(s: Scenario) -> GameSettings:
    """The turn record of ``s``; :class:`SettingsError` names a bad field."""
    try:
        return turn_record(s)
    except TurnRecordError as e:
        raise SettingsError(str(e)) from None
