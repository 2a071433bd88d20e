"""A small stand-in line of sight for the shift DRM, used only while the real
LOS module (gwasl/rules/los.py) is not available.

O'Leary 2.5 needs one fact: is a location in the LOS of an enemy unit.  This
module answers it with the exact :func:`gwasl.model.hexgrid.hex_line`
supercover and the terrain table's obstacle heights (CONTRACTS 3): the line
runs from the observer's ground level to the target's; an intervening hex
blocks when its ground level plus its obstacle height rises strictly above
the line there; a stretch along a hexside blocks when both hexes of that
side would block.  ASLGW 2.1.5 and 2.2.2 (deep trench, dugout) limit LOS to
the unit's own hex.
"""

from __future__ import annotations

from fractions import Fraction

from gwasl.model.hexgrid import Hex, hex_line
from gwasl.model.scenario import Position, Scenario
from gwasl.model.terrain import terrain_table

__all__ = ["simple_sees"]

# ASLGW 2.1.5 (in a deep trench), 2.2.2 (in a dugout): LOS only within the hex.
_SEALED = (Position.DEEP_TRENCH, Position.DUGOUT)


def simple_sees(scenario: Scenario):
    """A ``SeesFn`` for ``scenario``: ``sees(a, b, a_in, b_in) -> bool`` (CONTRACTS 3 cases).

    Symmetric when both ends are in like positions; the end hexes never block.
    """
    table = terrain_table()
    m = scenario.map
    cache: dict[tuple[Hex, Hex], bool] = {}

    def top(h: Hex) -> Fraction:
        info = table[m.terrain_at(h)]
        return Fraction(m.level_at(h)) + Fraction(info.obstacle_height or 0)

    def blocks(h: Hex, a: Hex, b: Hex, za: int, zb: int) -> bool:
        n = a.distance(b)
        z = Fraction(za) + Fraction(zb - za) * Fraction(a.distance(h), n)
        return top(h) > z

    def clear(a: Hex, b: Hex) -> bool:
        key = (a, b) if (a.q, a.r) <= (b.q, b.r) else (b, a)
        got = cache.get(key)
        if got is not None:
            return got
        a, b = key
        za, zb = m.level_at(a), m.level_at(b)
        line = hex_line(a, b)
        ok = not any(blocks(h, a, b, za, zb) for h in line.hexes if h != a and h != b)
        if ok:
            ok = not any(blocks(x, a, b, za, zb) and blocks(y, a, b, za, zb)
                         for x, y in line.hexside_pairs if a not in (x, y) and b not in (x, y))
        cache[key] = ok
        return ok

    def sees(a: Hex, b: Hex, a_in: Position = Position.GROUND, b_in: Position = Position.GROUND) -> bool:
        if a == b:
            return True
        if a_in in _SEALED or b_in in _SEALED:
            return False
        return clear(a, b)

    return sees
