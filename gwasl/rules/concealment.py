"""Concealment lost by moving (A12.14; ASLGW 1.7.2 garance trousers).

A concealed unit that moves (but does not Assault Move, A4.61) into Open
Ground in the LOS of a Good Order enemy ground unit within 16 hexes loses
its concealment (A12.14; the range is resources/movement.json
``concealment_loss``).  A unit in garance trousers cannot stay concealed in
an enemy LOS in Open Ground at any range (ASLGW 1.7.2,
:func:`gwasl.rules.garance.garance_concealment_loss`), even when it Assault
Moves.  A dummy "?" that would lose concealment is removed (A12.14: a dummy
revealed is gone).

Open Ground here is open or road terrain with the unit on the ground (not in
a trench, foxhole, deep trench or dugout), the reading the fog layer's
consistency check (O'Leary 2.4) also uses.

>>> import datetime
>>> from gwasl.model.scenario import *
>>> from gwasl.model.hexgrid import Hex
>>> s = Scenario("t", datetime.date(1916, 7, 1), MapData(5, 5), {"fr": Side("fr", Nationality.FRENCH)})
>>> u = Unit("f", "fr", UnitKind.SQUAD, Hex(0, 0), hidden=HiddenStatus.CONCEALED)
>>> moving_concealment_loss(s, u, Hex(0, 0), Position.GROUND, assault_move=False, enemy_ranges=(3,)).lost
True
>>> moving_concealment_loss(s, u, Hex(0, 0), Position.GROUND, assault_move=True, enemy_ranges=(3,)).lost
False
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HiddenStatus, Position, Scenario, Terrain, Unit
from gwasl.rules.garance import garance_concealment_loss
from gwasl.rules.movement import movement_table

__all__ = ["ConcealmentLoss", "in_open_ground", "moving_concealment_loss"]

_OPEN = (Terrain.OPEN, Terrain.ROAD)


def in_open_ground(s: Scenario, h: Hex, position: Position) -> bool:
    """Open Ground for concealment: open or road terrain, on the ground of the hex."""
    return position is Position.GROUND and s.map.terrain_at(h) in _OPEN


@dataclass(frozen=True, slots=True)
class ConcealmentLoss:
    lost: bool
    reason: str
    rule: str


def moving_concealment_loss(s: Scenario, unit: Unit, h: Hex, position: Position, *, assault_move: bool,
                            enemy_ranges: Iterable[int]) -> ConcealmentLoss:
    """Whether concealed ``unit``, having just moved into ``(h, position)``, loses
    concealment (A12.14, ASLGW 1.7.2).

    ``enemy_ranges`` are the ranges of the Good Order enemy ground units that
    have LOS to the location (the caller decides which enemy units count: gwasl
    counts those the moving side knows of, docs/rules-notes.md).
    """
    ranges = sorted(enemy_ranges)
    hidden = unit if unit.hidden is not HiddenStatus.NONE else replace(unit, hidden=HiddenStatus.CONCEALED)
    if not in_open_ground(s, h, position):
        return ConcealmentLoss(False, f"{h} is not Open Ground", "A12.14")
    if not ranges:
        return ConcealmentLoss(False, f"no known enemy unit sees {h}", "A12.14")
    g = garance_concealment_loss(s, replace(hidden, hex=h, position=position), in_enemy_los=True, in_open_ground=True)
    if g.loses_concealment:
        return ConcealmentLoss(True, g.reason, g.rule)
    t = movement_table()
    if assault_move:
        return ConcealmentLoss(False, f"Assault Movement keeps concealment in Open Ground ({t.rules['assault_move']})", "A4.61")
    if ranges[0] > t.concealment_loss_range:
        return ConcealmentLoss(False, f"the nearest enemy that sees {h} is {ranges[0]} hexes away, beyond {t.concealment_loss_range}", "A12.14")
    return ConcealmentLoss(True, f"moved in Open Ground at {h} in the LOS of an enemy unit {ranges[0]} hex(es) away", "A12.14")
