"""Stacking limits in play (A5.1; ASLGW 2.1.4, 2.2.1): how much of one side may
stand in one stacking location.

* A5.1: at most 3 squad-equivalents (a half-squad or crew counts 1/2) and 4
  SMC per side in a stacking location (resources/asl_core.json ``stacking``);
* ASLGW 2.1.4: a deep trench (IN and crest together) holds at most 2 squads;
* ASLGW 2.2.1: units in a dugout do not stack with those outside it.

The stacking locations of a hex are those of
:func:`gwasl.rules.trenches.separate_stacking_locations`.  ``gwasl validate``
(:mod:`gwasl.rules.checks_combat`) reports a set-up that breaks these limits;
the games refuse a move that would.

>>> from gwasl.model.hexgrid import Hex
>>> from gwasl.model.scenario import Unit, UnitKind, Position
>>> sq = lambda i, pos=Position.GROUND: Unit(i, "a", UnitKind.SQUAD, Hex(1, 1), position=pos)
>>> stacking_problem([sq("1"), sq("2"), sq("3")], "hex") is None
True
>>> stacking_problem([sq(str(i), Position.DEEP_TRENCH) for i in range(3)], "deep_trench")
'3 squad-equivalents in a deep trench; the limit is 2 squads (ASLGW 2.1.4)'
"""

from __future__ import annotations

from collections.abc import Iterable

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Unit, UnitKind
from gwasl.rules.morale import asl_core, stacking_equivalents
from gwasl.rules.trenches import DEEP_TRENCH_POSITIONS, deep_trench_stacking_limit

__all__ = ["location_key", "stacking_problem", "stacking_problems_after"]

_SMC = (UnitKind.LEADER, UnitKind.HERO)


def location_key(position: Position) -> str:
    """The stacking location a position belongs to in its hex: ``"dugout"`` (ASLGW
    2.2.1), ``"deep_trench"`` (IN and crest, ASLGW 2.1.4) or ``"hex"`` (the rest, A5.1),
    as :func:`gwasl.rules.trenches.separate_stacking_locations` groups them."""
    if position is Position.DUGOUT:
        return "dugout"
    if position in DEEP_TRENCH_POSITIONS:
        return "deep_trench"
    return "hex"


def stacking_problem(units: Iterable[Unit], where: str) -> str | None:
    """Why ``units`` (one side's, in one stacking location ``where``) break a stacking
    limit, or ``None``: 2 squads in a deep trench (ASLGW 2.1.4), else 3 squads and
    4 SMC (A5.1; a dugout has A5.1's limits, ASLGW 2.2.1 and rules-notes)."""
    mine = list(units)
    n = stacking_equivalents(mine)
    core = asl_core()
    if where == "deep_trench":
        limit = deep_trench_stacking_limit()
        if n > limit:
            return f"{n:g} squad-equivalents in a deep trench; the limit is {limit} squads (ASLGW 2.1.4)"
    elif n > core.stacking_squads:
        place = "a dugout" if where == "dugout" else "one location"
        return f"{n:g} squad-equivalents in {place}; the limit is {core.stacking_squads} squads ({core.rules['stacking']})"
    smc = sum(1 for u in mine if u.kind in _SMC)
    if smc > core.stacking_smc:
        return f"{smc} SMC in one location; the limit is {core.stacking_smc} ({core.rules['stacking']})"
    return None


def stacking_problems_after(units: Iterable[Unit], side: str, h: Hex, position: Position,
                            arriving: Iterable[Unit]) -> str | None:
    """Whether ``arriving`` units of ``side`` entering ``(h, position)`` would overstack
    it, given every unit on the map (``units``).  The arriving units are counted
    once, wherever they stand now (A5.1; ASLGW 2.1.4, 2.2.1)."""
    come = {u.id: u for u in arriving}
    key = location_key(position)
    there = [u for u in units if u.side == side and u.id not in come and u.hex == h and location_key(u.position) == key
             and u.kind is not UnitKind.SUPPORT_WEAPON]
    return stacking_problem(there + list(come.values()), key)
