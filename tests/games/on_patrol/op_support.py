"""Helpers for the On Patrol tests: start a patrol, put ships and the submarine where a test wants them."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions
from gwasl.engine.record import Record
from gwasl.games.on_patrol.game import OnPatrolGame
from gwasl.games.on_patrol.geometry import Pose, heading_from_harmon
from gwasl.games.on_patrol.scenario import load_bundled
from gwasl.games.on_patrol.state import PatrolState
from gwasl.model.hexgrid import Hex

GAME = OnPatrolGame()


def started(name: str = "day-convoy", seed: int = 1, **changes: Any) -> PatrolState:
    """A bundled patrol after ``begin`` (scenario fields overridden by ``changes``)."""
    src = copy.deepcopy(load_bundled(name))
    src.update(changes)
    st = GAME.setup(src, GameOptions())
    for ev in GAME.begin(st, GameDice(seed)):
        st = GAME.reduce(st, ev)
    return st


def pose(label: str, harmon: int) -> Pose:
    return Pose(Hex.from_label(label), heading_from_harmon(harmon))


def put_ship(st: PatrolState, sid: str, label: str, harmon: int, **kw: Any) -> PatrolState:
    return st.with_ship(replace(st.ship(sid), pose=pose(label, harmon), **kw))


def put_sub(st: PatrolState, label: str, harmon: int, depth: int, sid: str = "U1", **kw: Any) -> PatrolState:
    return st.with_sub(replace(st.sub(sid), pose=pose(label, harmon), depth=depth, **kw))


def run(st: PatrolState, action: Record, seed: int = 5) -> tuple[PatrolState, list[Record]]:
    events = GAME.apply(st, action, GameDice(seed))
    for ev in events:
        st = GAME.reduce(st, ev)
    return st, events


def only_escorts(st: PatrolState, keep: set[str]) -> PatrolState:
    """Leave only the named escorts (the others marked sunk) and no convoy ships in the way."""
    ships = tuple(s if s.id in keep or s.kind != "escort" else replace(s, status="sunk") for s in st.ships)
    return replace(st, ships=ships)
