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
from gwasl.model.scenario import HiddenStatus, Position, Scenario, Unit
from gwasl.model.terrain import terrain_table
from gwasl.rules.combat_table import combat_table
from gwasl.rules.garance import garance_concealment_loss, in_open_ground
from gwasl.rules.movement import movement_table

__all__ = ["ConcealmentLoss", "concealment_terrain", "gains_concealment", "in_open_ground", "moving_concealment_loss"]


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


def concealment_terrain(s: Scenario, h: Hex, position: Position) -> bool:
    """A12.12 concealment terrain: a terrain with a positive TEM or a LOS
    hindrance, or a position IN a fortification (trench, deep trench, dugout,
    foxhole, pillbox); the thresholds are infantry_combat.json ``concealment``.

    >>> import datetime
    >>> from gwasl.model.scenario import MapData, HexData, Terrain
    >>> s = Scenario("t", datetime.date(1916, 7, 1), MapData(3, 3, hexes={Hex(1, 1): HexData(Terrain.GRAIN)}), {})
    >>> concealment_terrain(s, Hex(1, 1), Position.GROUND), concealment_terrain(s, Hex(0, 0), Position.GROUND)
    (True, False)
    """
    t = combat_table()
    info = terrain_table()[s.map.terrain_at(h)]
    if t.gain_in_fortification and position is not Position.GROUND:
        return True
    return info.tem >= t.gain_tem_at_least > 0 or (t.gain_in_hindrance and info.hindrance > 0)


def gains_concealment(s: Scenario, unit: Unit, *, broken: bool, in_melee: bool, seen: bool) -> ConcealmentLoss:
    """A12.12: whether ``unit`` gains concealment at the end of a player turn: Good
    Order, not in Melee, in concealment terrain, and out of the LOS of every
    Known Good Order enemy unit (``seen``: the caller's answer, from what the
    unit's side knows).  ASLGW 1.7.2 keeps a unit in garance trousers from
    concealment only in Open Ground, which is never concealment terrain.
    ``lost`` here reads "gains".
    """
    if broken:
        return ConcealmentLoss(False, f"{unit.id} is broken", "A12.12")
    if in_melee:
        return ConcealmentLoss(False, f"{unit.id} is in Melee", "A12.12")
    if not unit.is_infantry:
        return ConcealmentLoss(False, f"{unit.id} is not infantry", "A12.12")
    if not concealment_terrain(s, unit.hex, unit.position):
        return ConcealmentLoss(False, f"{unit.hex} is not concealment terrain", "A12.12")
    if seen:
        return ConcealmentLoss(False, f"{unit.id} is in the LOS of a Known Good Order enemy unit", "A12.12")
    return ConcealmentLoss(True, f"{unit.id} is in concealment terrain out of every known enemy LOS", "A12.12")
