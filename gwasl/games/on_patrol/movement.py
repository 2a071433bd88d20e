"""Ship movement: fleet movement codes, radial and diameter movement, the Williamson turn.

Pure functions of poses and hexes.  A turn of movement is a list of steps,
each one hex forward with at most one 60-degree pivot before it ("one turn
per hex", 105.3.2 a); fleet codes may also pivot after the last hex (``1L``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from gwasl.games.on_patrol.geometry import (
    Pose,
    bearing_key,
    cross_sign,
    harmon_heading,
    ring_heading_ccw,
    sextant,
    turn_toward,
    turns_between,
    williamson_turns,
)
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex

__all__ = [
    "FleetOrder",
    "Steer",
    "Step",
    "avoidance_blocks",
    "diameter_steer",
    "execute_fleet",
    "fleet_order",
    "order_key",
    "plan_path",
    "radial_steer",
]


@dataclass(frozen=True, slots=True)
class FleetOrder:
    """A Fleet Movement Table result (104.3.1): pivot before, hexes, pivot after.
    ``hexes`` is None for ``M`` (the ship's emergency speed, 104.4.2)."""

    code: str
    before: int
    hexes: int | None
    after: int


class FleetCodeError(GwaslError):
    """A Fleet Movement Table code that is neither M nor a number."""


def fleet_order(code: str) -> FleetOrder:
    """Parse a Fleet Movement Table code: ``L1`` pivot left then move 1, ``1L`` move then
    pivot, ``2`` straight on, ``M``/``LM``/``MR`` at the emergency speed (104.3.1).

    >>> fleet_order("L2"), fleet_order("1R").after, fleet_order("MR").hexes is None
    (FleetOrder(code='L2', before=-1, hexes=2, after=0), 1, True)

    Raises :class:`FleetCodeError` (a Fleet Movement Table code that is neither M nor a number).
    """
    turn = {"L": -1, "R": 1}
    before = turn.get(code[:1], 0)
    after = turn.get(code[-1:], 0) if len(code) > 1 and before == 0 else 0
    core = code.strip("LR")
    if core == "M":
        return FleetOrder(code, before, None, after)
    if not core.isdigit():
        raise FleetCodeError(f"{code!r} is not a Fleet Movement Table code")
    return FleetOrder(code, before, int(core), after)


def avoidance_blocks(pose: Pose, stopped: Collection[Hex]) -> bool:
    """104.3.3: a ship moving by the Fleet Movement Table stops when it is within three hexes
    (inclusive, a two-hex gap) of a stopped ship and its next hex would bring its bow closer.

    >>> from gwasl.model.hexgrid import Hex
    >>> avoidance_blocks(Pose(Hex(0, 0), 3), [Hex(0, 3)]), avoidance_blocks(Pose(Hex(0, 0), 3), [Hex(0, 4)])
    (True, False)
    """
    if not stopped:
        return False
    near = min(pose.bow.distance(h) for h in stopped)
    if near > 3:
        return False
    nxt = pose.ahead
    return min(nxt.distance(h) for h in stopped) < near


@dataclass(frozen=True, slots=True)
class Step:
    """One hex of movement: the pivot made first, the pose after, and why."""

    turn: int
    pose: Pose
    why: str


@dataclass(frozen=True, slots=True)
class Steer:
    """A steering decision for one hex: the pivot wanted, why, and the rest of a Williamson turn."""

    turn: int
    why: str
    maneuver: tuple[int, ...] = ()
    radial: int | None = None
    vector: int | None = None


def _side_of_target(pose: Pose, target: Hex) -> int:
    return cross_sign(pose.heading, target - pose.bow)


def radial_steer(pose: Pose, target: Hex, hand: int = 1, maneuver: tuple[int, ...] = (), az: int = 2) -> Steer:
    """105.3: the pivot for the next hex of radial movement toward ``target``.

    Off a radial: turn (toward the target's side) onto the vector to the nearest radial
    and follow it (105.3.2 a); on a radial: one turn onto the target (105.3.2 b, c);
    facing away on a radial: a Williamson turn (105.3.3), except while the stern is still
    in the assault zone after a pass, which it leaves on the same course (105.4.9).
    ``radial`` and ``vector`` are direction indices (0 north, clockwise); the words number them
    as Harmon numbers headings (1-6, 6 north), as every view does."""
    if maneuver:
        return Steer(maneuver[0], "Williamson turn (105.2, 105.4.9)", maneuver[1:])
    v = pose.bow - target
    if v == Hex(0, 0):
        return Steer(0, "through the target hex (105.4.9)")
    i, a, b = sextant(v)
    h = pose.heading
    if b == 0:
        inward = (i + 3) % 6
        t = turns_between(h, inward)
        if t == 0:
            return Steer(0, f"on radial {harmon_heading(i)}, straight for the target hex (105.3.2 c)", radial=i)
        if abs(t) == 1:
            return Steer(t, f"on radial {harmon_heading(i)}: one turn onto the target hex (105.3.2 b)", radial=i)
        if pose.stern.distance(target) <= az:
            return Steer(0, "leaving the assault zone on the same course (105.4.9)", radial=i)
        w = williamson_turns(hand)
        return Steer(w[0], f"on radial {harmon_heading(i)} facing away: Williamson turn (105.3.3)", w[1:], radial=i)
    # candidates: (radial, vector heading, hexes along the vector)
    cands = [(i, (i + 4) % 6, b), ((i + 1) % 6, (i + 3) % 6, a)]
    cands.sort(key=lambda c: (c[2], abs(turns_between(h, c[1])), 0 if turns_between(h, c[1]) * hand > 0 else 1))
    radial, vec, _ = cands[0]
    t = turn_toward(h, vec, hand, _side_of_target(pose, target))
    why = (f"on the vector to radial {harmon_heading(radial)} (105.3.2 a)" if t == 0
           else f"turning onto the vector to radial {harmon_heading(radial)} (105.3.2 a)")
    return Steer(t, why, radial=radial, vector=vec)


def diameter_steer(pose: Pose, target: Hex, radius: int, hand: int = 1, az: int = 2) -> Steer:
    """106: the pivot for the next hex of diameter movement: radial movement toward the
    target until the bow is ``radius`` hexes from it, then follow that ring of hexes
    counter-clockwise (``hand`` -1 mirrors it), turning 60 degrees at each radial; a ship
    that starts inside the ring heads straight out to it (106.2.2, 106.2.4)."""
    v = pose.bow - target
    d = pose.bow.distance(target)
    h = pose.heading
    if d > radius:
        s = radial_steer(pose, target, hand, (), az)
        # no Williamson turn outside the ring: a ship facing away simply turns toward it
        if s.maneuver or "Williamson" in s.why:
            i, _, _ = sextant(v)
            t = turn_toward(h, (i + 3) % 6, hand, _side_of_target(pose, target))
            s = Steer(t, f"turning toward the diameter of {radius} (106.2.2)", radial=i)
        else:
            s = Steer(s.turn, s.why.replace("(105.3.2", "toward the diameter (106.2.2, 105.3.2"), radial=s.radial, vector=s.vector)
        return _arrival(pose, target, radius, hand, s) if d == radius + 1 else s
    if d == radius:
        want = _ring_heading(v, hand)
        t = turn_toward(h, want, hand)
        return Steer(t, f"following the diameter of {radius} {'counter-' if hand > 0 else ''}clockwise (106.1.2, 106.2.2)")
    # inside: head out to the ring along the outward direction needing least turning
    if v == Hex(0, 0):
        return Steer(0, f"heading out to the diameter of {radius} (106.2.4)")
    i, _, b = sextant(v)
    outs = [i] if b == 0 else [i, (i + 1) % 6]
    outs.sort(key=lambda o: (abs(turns_between(h, o)), 0 if turns_between(h, o) * hand > 0 else 1))
    t = turn_toward(h, outs[0], hand)
    return Steer(t, f"heading out to the diameter of {radius} (106.2.4)")


def _arrival(pose: Pose, target: Hex, radius: int, hand: int, s: Steer) -> Steer:
    """106.1.2 ("never having the bow hex leaving the path"): the last hex of the approach.  A
    ship reaching the ring more than 60 degrees off the ring's course would need two pivots
    there, one hex each, and stray inside it; so on this hex it takes the pivot that puts its
    bow on the ring at most 60 degrees off that course (the approach's own pivot when it does,
    else the least turn off the ring's course, then to ``hand``'s side)."""

    def off(t: int) -> int | None:
        p = pose.step(t)
        if p.bow.distance(target) != radius:
            return None
        return abs(turns_between(p.heading, _ring_heading(p.bow - target, hand)))

    mine = off(s.turn)
    if mine is None or mine <= 1:
        return s
    cands = [(e, 0 if t * hand > 0 else 1, t) for t in (-1, 0, 1) if t != s.turn and (e := off(t)) is not None and e <= 1]
    if cands:
        _, _, t = min(cands)
        return Steer(t, f"turning onto the diameter of {radius} on the last hex of the approach, so that the bow stays on it "
                        "(106.1.2, 106.2.2)", radial=s.radial, vector=s.vector)
    # no pivot reaches the ring on its course: stay outside one more hex, turning toward that course
    wait = []
    for t in (-1, 0, 1):
        p = pose.step(t)
        if p.bow.distance(target) > radius:
            wait.append((abs(turns_between(p.heading, _ring_heading(p.bow - target, hand))), 0 if t * hand > 0 else 1, t))
    if not wait:
        return s
    _, _, t = min(wait)
    return Steer(t, f"turning toward the course of the diameter of {radius} before reaching it, so that the bow stays on it "
                    "once there (106.1.2, 106.2.2)", radial=s.radial, vector=s.vector)


def _ring_heading(v: Hex, hand: int) -> int:
    if hand > 0:
        return ring_heading_ccw(v)
    i, _, _ = sextant(v)
    return (i + 2) % 6


def plan_path(start: Pose, speed: int, steer: Callable[[Pose, tuple[int, ...]], Steer], blocked: Callable[[Hex], bool],
              maneuver: tuple[int, ...] = (), hand: int = 1,
              target: Hex | None = None) -> tuple[list[Step], tuple[int, ...], list[Steer]]:
    """Up to ``speed`` hexes of movement, each with the pivot ``steer`` asks for.

    When the wanted hex is blocked (another ship, a depth-charged hex, a merchant's path,
    a torpedo: 105.4.8, 108.1.1-108.1.3, 108.2.1) the ship parallels its course as close
    as possible: the other pivots whose hex is next to the wanted one, nearest the target
    (105.4.8) first, then to starboard; failing that it slows and stops there.  Returns the steps, what is left of a
    Williamson turn, and the steering decisions taken."""
    pose, steps, decisions = start, [], []
    for _ in range(speed):
        s = steer(pose, maneuver)
        want = pose.step(s.turn)
        chosen: Pose | None = None
        turn = s.turn
        if not blocked(want.bow):
            chosen = want
        else:
            alts = []
            for t in (-1, 0, 1):
                if t == s.turn:
                    continue
                p = pose.step(t)
                if p.bow.distance(want.bow) <= 1 and not blocked(p.bow):
                    near = p.bow.distance(target) if target is not None else 0
                    alts.append((near, 0 if t * hand > 0 else 1, t, p))
            if alts:
                alts.sort(key=lambda x: (x[0], x[1]))
                _, _, turn, chosen = alts[0]
                s = Steer(turn, s.why + "; blocked, paralleling (105.4.8, 108.1.1)", (), s.radial, s.vector)
        if chosen is None:
            break
        maneuver = s.maneuver
        steps.append(Step(turn, chosen, s.why))
        decisions.append(s)
        pose = chosen
    return steps, maneuver, decisions


def order_key(bow: Hex, heading: int, target: Hex) -> tuple[int, object]:
    """105.4.5: nearer bows first; equally near, the bow pointing closer to the target first."""
    return (bow.distance(target), -bearing_key(heading, target - bow))


def execute_fleet(pose: Pose, order: FleetOrder, hexes: int, stopped: Sequence[Hex], occupied: Callable[[Hex], bool]) -> tuple[list[Pose], bool]:
    """One ship's Fleet Movement Table move (104.3.1): pivot, ``hexes`` forward, pivot.
    A forward hex is not taken when 104.3.3 stops the ship or the hex is occupied
    (108.1.4: no collision); turns are still made.  Returns the poses passed and
    whether the ship was stopped."""
    poses = []
    halted = False
    if order.before:
        pose = pose.pivot(order.before)
        poses.append(pose)
    for _ in range(hexes):
        if halted or avoidance_blocks(pose, stopped) or occupied(pose.ahead):
            halted = True
            continue
        pose = pose.forward()
        poses.append(pose)
    if order.after:
        pose = pose.pivot(order.after)
        poses.append(pose)
    return poses, halted
