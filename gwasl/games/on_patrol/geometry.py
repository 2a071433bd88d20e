"""Hex geometry of On Patrol: two-hex ships, headings, radials, vectors, assault zones.

Everything here is relative geometry on gwasl's axial grid
(:class:`~gwasl.model.hexgrid.Hex`, CONTRACTS 1), with no board and no game
state, so it can be rotated and reflected in property tests.

Headings are Harmon's 1-6 (3 and 6 opposite, 103.1): heading ``h`` points to
axial direction ``h % 6`` of :mod:`gwasl.model.hexgrid` (0 north, then
clockwise on screen), so 6 is north, 1 north-east ... 3 south
(docs/rules-notes.md, "On Patrol: headings").  Internally a heading is the
direction index 0-5; :func:`harmon_heading` converts for display.

``hand`` is the turning preference used to break exact ties (+1 clockwise,
i.e. to starboard; -1 counter-clockwise).  Every function that breaks a tie
between left and right takes it, so a reflected position with the opposite
hand gives the reflected result (tested with hypothesis).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import DIRECTIONS, ORIGIN, Hex, reflect, rotate, scale

__all__ = [
    "DIRS",
    "Pose",
    "assault_zone",
    "assault_zone_priority",
    "bearing_key",
    "direction_between",
    "harmon_heading",
    "heading_from_harmon",
    "reflect",
    "ring_heading_ccw",
    "rotate",
    "sextant",
    "turn_toward",
    "turns_between",
    "williamson_turns",
]

#: axial unit vectors, 0 = north then clockwise: gwasl.model.hexgrid's one table
DIRS: tuple[Hex, ...] = DIRECTIONS


def harmon_heading(d: int) -> int:
    """Harmon's heading number (1-6) of direction index ``d``: north is 6 (103.1)."""
    return (d % 6) or 6


class HeadingError(GwaslError):
    """A Harmon heading outside 1-6."""


def heading_from_harmon(h: int) -> int:
    """Direction index of Harmon's heading ``h`` (1-6).

    Raises :class:`HeadingError` (a Harmon heading outside 1-6).
    """
    if not 1 <= h <= 6:
        raise HeadingError(f"a heading is 1-6, not {h}")
    return h % 6



def turns_between(a: int, b: int) -> int:
    """Signed number of 60-degree pivots from heading ``a`` to ``b``, in -2..3
    (+ clockwise); 3 means opposite."""
    t = (b - a) % 6
    return t - 6 if t > 3 else t


@dataclass(frozen=True, slots=True)
class Pose:
    """A two-hex counter: its bow hex and heading; the stern is the hex behind the bow."""

    bow: Hex
    heading: int

    @property
    def stern(self) -> Hex:
        return self.bow + DIRS[(self.heading + 3) % 6]

    @property
    def ahead(self) -> Hex:
        """Hex "B" of the Submarine Log: the hex ahead of the bow (105.1.3)."""
        return self.bow + DIRS[self.heading]

    def hexes(self) -> tuple[Hex, Hex]:
        return (self.bow, self.stern)

    def beam_hexes(self) -> tuple[Hex, Hex]:
        """The two hexes adjoining both bow and stern (108.1.2's pivot hexes): starboard, port."""
        return (self.bow + DIRS[(self.heading + 2) % 6], self.bow + DIRS[(self.heading + 4) % 6])

    def pivot(self, turn: int) -> Pose:
        """Pivot the stern about the bow by ``turn`` 60-degree steps (+ clockwise)."""
        return Pose(self.bow, (self.heading + turn) % 6)

    def forward(self, n: int = 1) -> Pose:
        return Pose(self.bow + scale(self.heading, n), self.heading)

    def step(self, turn: int) -> Pose:
        """One hex of movement with its pivot first (one turn per hex)."""
        return self.pivot(turn).forward()


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` along which ``b`` lies on a straight hex line, or None."""
    v = b - a
    if v == ORIGIN:
        return None
    n = a.distance(b)
    for d in range(6):
        if scale(d, n) == v:
            return d
    return None


class SextantError(GwaslError):
    """The sextant of the target's own hex, which has none."""


def sextant(v: Hex) -> tuple[int, int, int]:
    """``v`` (not the origin) as ``a*D(i) + b*D(i+1)`` with ``a >= 1``, ``b >= 0``:
    returns ``(i, a, b)``.  ``b == 0`` means ``v`` lies on radial ``i`` (105.1.2).

    Raises :class:`SextantError` (the sextant of the target's own hex, which has none).
    """
    for i in range(6):
        di, dj = DIRS[i], DIRS[(i + 1) % 6]
        det = di.q * dj.r - di.r * dj.q
        a = (v.q * dj.r - v.r * dj.q) // det
        b = (di.q * v.r - di.r * v.q) // det
        if a >= 1 and b >= 0 and Hex(a * di.q + b * dj.q, a * di.r + b * dj.r) == v:
            return (i, a, b)
    raise SextantError("the target hex itself has no sextant")




def _centre2(v: Hex) -> tuple[int, int]:
    """Twice the true centre of ``v`` scaled so that x = 3q, y = sqrt(3)(2r + q): returns (3q, 2r+q)."""
    return (3 * v.q, 2 * v.r + v.q)


def bearing_key(heading: int, v: Hex) -> Fraction:
    """How closely heading ``heading`` points at offset ``v``: the signed squared cosine of the
    angle, exactly (larger is closer).  Exact so that ties are real ties (105.4.5)."""
    hx, hy = _centre2(DIRS[heading])
    vx, vy = _centre2(v)
    # true dot = (hx*vx + 3*hy*vy)/4 since y carries a factor sqrt(3)
    dot = hx * vx + 3 * hy * vy
    nv = vx * vx + 3 * vy * vy
    if nv == 0:
        return Fraction(1)
    sign = 1 if dot > 0 else -1 if dot < 0 else 0
    return Fraction(sign * dot * dot, nv)


def cross_sign(heading: int, v: Hex) -> int:
    """+1 when ``v`` lies to starboard (clockwise) of ``heading``, -1 to port, 0 ahead or astern."""
    hx, hy = _centre2(DIRS[heading])
    vx, vy = _centre2(v)
    c = hx * vy - hy * vx  # screen y grows downward: positive = clockwise
    return (c > 0) - (c < 0)


def turn_toward(heading: int, desired: int, hand: int, side_hint: int = 0) -> int:
    """The one pivot (-1, 0, +1) that brings ``heading`` closer to ``desired``; an
    about-turn (3 steps) turns toward ``side_hint`` when given, else ``hand``."""
    t = turns_between(heading, desired)
    if t == 0:
        return 0
    if t == 3:
        return side_hint if side_hint else hand
    return 1 if t > 0 else -1


def assault_zone(target: Hex) -> frozenset[Hex]:
    """The target hex and every hex within two of it (105.1.5, 105.4.1): 19 hexes."""
    return frozenset(target.within(2))


@cache
def _priority_offsets(facing: int, hand: int) -> tuple[Hex, ...]:
    f = facing
    out = [ORIGIN, DIRS[f]]
    # inner ring: ahead, the two hexes beside ahead, the two rear sides, the marker's bow last (105.4.4 b)
    for k in (1, 2):
        out += [DIRS[(f + hand * k) % 6], DIRS[(f - hand * k) % 6]]
    out.append(DIRS[(f + 3) % 6])
    # outer ring: straight ahead, then evenly both ways from front to rear (105.4.4 c)
    ring = _ring2_clockwise_from(f)
    order = [0]
    for k in range(1, 6):
        order += [k, 12 - k] if hand > 0 else [12 - k, k]
    order.append(6)
    out += [ring[i] for i in order]
    return tuple(out)


def _ring2_clockwise_from(f: int) -> list[Hex]:
    """The 12 hexes at distance 2, clockwise, starting straight ahead along ``f``."""
    out = []
    for k in range(6):
        d = (f + k) % 6
        corner = scale(d, 2)
        out.append(corner)
        out.append(corner + DIRS[(d + 2) % 6])
    return out


def assault_zone_priority(target: Hex, facing: int, hand: int = 1) -> tuple[Hex, ...]:
    """The 19 assault-zone hexes in 105.4.4's order for a marker facing ``facing``:
    the target hex; the inner ring from the hex ahead, its two neighbours beside
    the target, the two rear sides, the marker's bow hex last; the outer ring
    from straight ahead evenly both ways to the rear.  Between left and right,
    ``hand`` goes first (+1: starboard)."""
    return tuple(target + o for o in _priority_offsets(facing % 6, 1 if hand >= 0 else -1))


def williamson_turns(hand: int) -> tuple[int, ...]:
    """The pivots of a Williamson turn (105.2), one per hex moved: pivot 60 degrees
    toward ``hand``, move 2, then pivot back before each of the next 4 moves.  It
    ends on the original line of hexes, one hex ahead, heading the other way."""
    return (hand, 0, -hand, -hand, -hand, -hand)


def ring_heading_ccw(v: Hex) -> int:
    """Heading that follows the ring through offset ``v`` counter-clockwise on screen
    (106.1.2, 106.2.2): between radials i and i+1 it is D(i-1); on radial i it turns to D(i-2)."""
    i, _, b = sextant(v)
    if b == 0:
        return (i - 2) % 6
    return (i - 1) % 6
