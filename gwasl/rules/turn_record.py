"""The turn record of a scenario (A3): how many game turns, which side moves first in
each, which sets up first; the optional ``"game"`` object of a scenario file
(docs/format/aslgw.md).

    "game": {"turns": 5, "first_moves": "german", "first_setup": "french"}

Every field is optional.  Without ``turns`` a scenario lasts 5 turns.  Without
``first_moves`` the fog extension's ``first_phasing`` decides (docs/format/fog.md),
else the first side of the file.  Without ``first_setup`` the side that does not
move first sets up first (the ASL custom: the defender sets up, the attacker moves
first).  :func:`turn_record` reads it for a game in play; :func:`check_turn_record`
reports a bad one in ``gwasl validate``.

>>> import datetime
>>> from gwasl.model.scenario import MapData, Nationality, Scenario, Side
>>> s = Scenario("t", datetime.date(1916, 2, 21), MapData(2, 2),
...              {"german": Side("german", Nationality.GERMAN), "french": Side("french", Nationality.FRENCH)})
>>> g = turn_record(s)
>>> g.turns, g.order, g.first_setup
(5, ('german', 'french'), 'french')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gwasl.model.errors import GwaslError
from gwasl.model.scenario import Scenario
from gwasl.model.scenario_io import Finding
from gwasl.rules.card import CARD_FIELDS
from gwasl.rules.fog.state import fog_extension
from gwasl.rules.validate import scenario_check

__all__ = ["DEFAULT_TURNS", "TurnRecord", "TurnRecordError", "check_turn_record", "turn_record"]

#: turns of a scenario whose file does not say (docs/format/aslgw.md)
DEFAULT_TURNS = 5
_MAX_TURNS = 99
_FIELDS = ("turns", "first_moves", "first_setup", *CARD_FIELDS)  # the card's fields: gwasl/rules/card.py


class TurnRecordError(GwaslError):
    """A ``"game"`` object that cannot be played: ``path`` names the field."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """``order``: the two sides in the order they move each game turn."""

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


def turn_record(s: Scenario) -> TurnRecord:
    """The turn record of ``s`` with the defaults above; :class:`TurnRecordError` names a bad field."""
    sides = list(s.sides)
    if len(sides) != 2:
        raise TurnRecordError("$.sides", f"a Great War scenario in play has two sides, this one has {len(sides)}")
    raw = s.extra.get("game", {})
    if not isinstance(raw, Mapping):
        raise TurnRecordError("$.game", 'must be an object, e.g. {"turns": 5, "first_moves": "german"}')
    unknown = sorted(set(raw) - set(_FIELDS))
    if unknown:
        raise TurnRecordError(f"$.game.{unknown[0]}", f"unknown field (use {', '.join(_FIELDS)})")
    turns = raw.get("turns", DEFAULT_TURNS)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= _MAX_TURNS:
        raise TurnRecordError("$.game.turns", f"must be a whole number of turns from 1 to {_MAX_TURNS}, not {turns!r}")

    def side(key: str, default: str) -> str:
        v = raw.get(key, default)
        if v not in s.sides:
            raise TurnRecordError(f"$.game.{key}", f"{str(v)[:40]!r} is not a side of this scenario ({', '.join(sides)})")
        return str(v)

    fog_first = fog_extension(s.extra).get("first_phasing")
    first = side("first_moves", str(fog_first) if fog_first in s.sides else sides[0])
    second = sides[1] if first == sides[0] else sides[0]
    return TurnRecord(turns, (first, second), side("first_setup", second))


@scenario_check
def check_turn_record(s: Scenario) -> Iterator[Finding]:
    """``gwasl validate``: a ``"game"`` object gwasl could not play (A3 turn record)."""
    if "game" not in s.extra:
        return
    try:
        turn_record(s)
    except TurnRecordError as e:
        yield Finding(e.path, f"{e.message} (A3 turn record, docs/format/aslgw.md)", "A3")
