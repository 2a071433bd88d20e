"""The turn record of a Great War scenario in play: the optional ``"game"``
object of a scenario file (docs/format/aslgw.md).

    "game": {"turns": 5, "first_moves": "german", "first_setup": "french"}

* ``turns``: game turns (each is one player turn of each side, A3);
* ``first_moves``: the side whose player turn comes first in every game turn;
* ``first_setup``: the side that sets up first (told to the players; the
  scenario file holds the set-up itself).

Every field is optional.  Without ``turns`` a scenario lasts 5 turns.
Without ``first_moves`` the fog extension's ``first_phasing`` decides
(docs/format/fog.md), else the first side of the file.  Without
``first_setup`` the side that does not move first sets up first (the ASL
custom: the defender sets up, the attacker moves first).

>>> import datetime
>>> from gwasl.model.scenario import MapData, Nationality, Scenario, Side
>>> s = Scenario("t", datetime.date(1916, 2, 21), MapData(2, 2),
...              {"german": Side("german", Nationality.GERMAN), "french": Side("french", Nationality.FRENCH)})
>>> g = game_settings(s)
>>> g.turns, g.order, g.first_setup
(5, ('german', 'french'), 'french')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gwasl.engine.game import GameError
from gwasl.model.scenario import Scenario
from gwasl.rules.fog.state import fog_extension

__all__ = ["DEFAULT_TURNS", "GameSettings", "SettingsError", "game_settings"]

#: turns of a scenario whose file does not say (docs/format/aslgw.md)
DEFAULT_TURNS = 5
_MAX_TURNS = 99


class SettingsError(GameError):
    """A ``"game"`` object that gwasl cannot play: names the field and the problem."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    """The turn record: ``order`` is the sides in the order they move each turn."""

    turns: int
    order: tuple[str, str]
    first_setup: str

    @property
    def first(self) -> str:
        return self.order[0]

    def other(self, side: str) -> str:
        return self.order[1] if side == self.order[0] else self.order[0]

    def to_json(self) -> dict[str, Any]:
        return {"turns": self.turns, "first_moves": self.order[0], "first_setup": self.first_setup}


def game_settings(s: Scenario) -> GameSettings:
    """The turn record of ``s`` (its ``"game"`` object with the defaults of
    docs/format/aslgw.md); :class:`SettingsError` names a bad field."""
    sides = list(s.sides)
    if len(sides) != 2:
        raise SettingsError(f"$.sides: a Great War scenario in play has two sides, this one has {len(sides)}")
    raw = s.extra.get("game", {})
    if not isinstance(raw, Mapping):
        raise SettingsError("$.game: must be an object, e.g. {\"turns\": 5, \"first_moves\": \"german\"}")
    known = {"turns", "first_moves", "first_setup"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise SettingsError(f"$.game.{unknown[0]}: unknown field (use {', '.join(sorted(known))})")
    turns = raw.get("turns", DEFAULT_TURNS)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= _MAX_TURNS:
        raise SettingsError(f"$.game.turns: must be a whole number of turns from 1 to {_MAX_TURNS}, not {turns!r}")

    def side(key: str, default: str) -> str:
        v = raw.get(key, default)
        if v not in s.sides:
            raise SettingsError(f"$.game.{key}: {str(v)[:40]!r} is not a side of this scenario ({', '.join(sides)})")
        return str(v)

    fog_first = fog_extension(s.extra).get("first_phasing")
    first = side("first_moves", str(fog_first) if fog_first in s.sides else sides[0])
    second = sides[1] if first == sides[0] else sides[0]
    return GameSettings(turns, (first, second), side("first_setup", second))
