"""Helpers for the Combined Arms tests: positions built by hand, dice scripted
face by face, and a driver that plays the defender's steps as the Session does."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Seat
from gwasl.engine.record import Record
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.enemy import defender_policy
from gwasl.games.combined_arms.game import CombinedArmsGame
from gwasl.games.combined_arms.state import UNIT_IDS, Counter, State, Unit, initial_state, with_enemy, with_smoke, with_units

GAME = CombinedArmsGame()


def hx(q: int, r: int) -> int:
    return B.COORDS.index((q, r))


def lab(q: int, r: int) -> str:
    return B.label(hx(q, r))


class Script(GameDice):
    """Dice that show the given faces in order (the worked examples' rolls)."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def _die(self) -> int:
        if not self.faces:
            raise AssertionError("the scripted dice ran out: the game rolled more than the example")
        self.position += 1
        return self.faces.pop(0)


def position(terrain: Mapping[int, str] | None = None, units: Mapping[str, tuple[int, bool, int]] | None = None,
             enemy: Sequence[Counter] = (), **kw: Any) -> State:
    """A state on an open board (road in the middle) with the given terrain, platoons
    (id -> (hex, fresh, facing)) and enemy counters; other fields as keywords."""
    t = ["road" if B.ROAD_MASK >> i & 1 else "open" for i in range(B.N)]
    for h, name in (terrain or {}).items():
        t[h] = name
    m = R.terrain_masks(t)
    s = initial_state(kw.pop("easier", False))
    us = list(s.units)
    for uid, (h, fresh, facing) in (units or {}).items():
        us[UNIT_IDS.index(uid)] = Unit(h, fresh, facing)
    smoke = kw.pop("smoke", ())
    s = s._replace(terrain=tuple(t), blocks=m["blocks"], cover=m["cover"], hull=m["hull"],
                   no_armour=m["no_armour"], crest=m["crest"], **{"phase": "move", "turn": 5, **kw})
    return with_smoke(with_enemy(with_units(s, tuple(us)), tuple(sorted(enemy, key=lambda c: c.hex))), smoke)


def act(state: State, action: Record, faces: Iterable[int] = ()) -> tuple[State, list[Record]]:
    """Apply a player's action with scripted dice; every face must be used."""
    d = Script(faces)
    events = GAME.apply(state, action, d)
    assert not d.faces, f"unused faces {d.faces}"
    for e in events:
        state = GAME.reduce(state, e)
    return state, events


def enemy_step(state: State, faces: Iterable[int] = ()) -> tuple[State, Decision, list[Record]]:
    """One step of the defender, as the Session runs it (its tie-break dice first)."""
    d = Script(faces)
    decision = defender_policy(Seat(GAME, state, GAME.viewer(state, "defender")), d)
    events = GAME.apply(state, decision.action, d)
    assert not d.faces, f"unused faces {d.faces}"
    for e in events:
        state = GAME.reduce(state, e)
    return state, decision, events


def rolls(events: Sequence[Record]) -> list[tuple[int, int]]:
    """(die, final) of every roll among the events."""
    return [(e.dice[0], e.final) for e in events if e.kind == "roll"]


def unit(state: State, uid: str) -> Unit:
    return state.units[UNIT_IDS.index(uid)]
