"""Radials, vectors, assault zones, the Williamson turn, radial and diameter movement
(Harmon 105.1-105.4, 106), with hypothesis properties under the six rotations and the reflection."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from gwasl.games.on_patrol.geometry import (
    DIRS,
    Pose,
    assault_zone,
    assault_zone_priority,
    direction_between,
    harmon_heading,
    heading_from_harmon,
    reflect,
    rotate,
    sextant,
    turns_between,
    williamson_turns,
)
from gwasl.games.on_patrol.movement import diameter_steer, radial_steer
from gwasl.model.hexgrid import Hex

ORIGIN = Hex(0, 0)
coords = st.integers(-25, 25)
hexes = st.builds(Hex, coords, coords)
headings = st.integers(0, 5)
hands = st.sampled_from([1, -1])


def rot_pose(p: Pose, k: int) -> Pose:
    return Pose(rotate(p.bow, k), (p.heading + k) % 6)


def ref_pose(p: Pose) -> Pose:
    return Pose(reflect(p.bow), (-p.heading) % 6)


def radial_run(p: Pose, target: Hex, hand: int, n: int) -> list[Pose]:
    out, m = [], ()
    for _ in range(n):
        s = radial_steer(p, target, hand, m)
        m = s.maneuver
        p = p.step(s.turn)
        out.append(p)
    return out


def diameter_run(p: Pose, target: Hex, radius: int, hand: int, n: int) -> list[Pose]:
    out = []
    for _ in range(n):
        p = p.step(diameter_steer(p, target, radius, hand).turn)
        out.append(p)
    return out


def test_headings_are_harmons_1_to_6_with_3_and_6_opposite():
    """103.1: formations 7 and 10 sail on headings 3 and 6, perpendicular to their leaders' row."""
    assert [harmon_heading(d) for d in range(6)] == [6, 1, 2, 3, 4, 5]
    assert turns_between(heading_from_harmon(3), heading_from_harmon(6)) == 3
    assert DIRS[heading_from_harmon(3)] == Hex(0, 1)  # south: rows increase


@given(hexes)
def test_radials_105_1_2_every_hex_lies_in_one_sextant(v):
    """105.1.2: the six radials; every other hex sits between two of them, a*D(i) + b*D(i+1)."""
    if v == ORIGIN:
        return
    i, a, b = sextant(v)
    assert a >= 1 and b >= 0
    assert Hex(a * DIRS[i].q + b * DIRS[(i + 1) % 6].q, a * DIRS[i].r + b * DIRS[(i + 1) % 6].r) == v
    assert (b == 0) == (direction_between(ORIGIN, v) is not None)


def test_assault_zone_105_1_5_is_the_19_hexes_within_2():
    """105.1.5, 105.4.1: the target hex and every hex within two of it."""
    t = Hex(7, 3)
    zone = assault_zone(t)
    assert len(zone) == 19
    assert zone == {h for h in (Hex(q, r) for q in range(0, 15) for r in range(-5, 10)) if h.distance(t) <= 2}


@given(hexes, headings, hands)
def test_priority_105_4_4_orders_the_whole_zone(t, facing, hand):
    """105.4.4: target, then the inner ring from ahead (bow hex last), then the outer ring from
    straight ahead evenly to the rear; every hex once."""
    order = assault_zone_priority(t, facing, hand)
    assert len(order) == 19 and set(order) == assault_zone(t)
    assert order[0] == t
    ahead = DIRS[facing]
    assert order[1] == t + ahead
    assert {order[2], order[3]} == {t + DIRS[(facing + 1) % 6], t + DIRS[(facing - 1) % 6]}
    assert {order[4], order[5]} == {t + DIRS[(facing + 2) % 6], t + DIRS[(facing - 2) % 6]}
    assert order[6] == t + DIRS[(facing + 3) % 6]  # the sub marker's bow hex, last of the inner ring
    assert order[7] == t + ahead + ahead
    assert order[18] == t + DIRS[(facing + 3) % 6] + DIRS[(facing + 3) % 6]
    # the outer ring goes evenly both ways: each pair is mirror images about the facing line
    front = t + ahead
    dists = [order[k].distance(front + ahead) for k in range(7, 19)]
    assert dists == sorted(dists)


def test_priority_105_4_4_worked_order_facing_north():
    """105.4.4 for a marker heading north (Harmon 6) at target K10, starboard first."""
    t = Hex.from_label("K10")
    labels = [h.label for h in assault_zone_priority(t, 0, 1)]
    assert labels[:7] == ["K10", "K9", "L10", "J10", "L11", "J11", "K11"]
    assert labels[7] == "K8" and labels[-1] == "K12"


@given(st.integers(0, 5), hands)
def test_williamson_turn_105_2_ends_on_the_original_line_heading_the_other_way(h, hand):
    """105.2: pivot 60 degrees, two hexes, then pivot back before each of four hexes: the ship
    is back on the row of hexes it began in, on the opposite heading."""
    p = Pose(ORIGIN, h)
    for turn in williamson_turns(hand):
        p = p.step(turn)
    assert p.heading == (h + 3) % 6
    assert direction_between(ORIGIN, p.bow) == h  # on the original line, one hex ahead
    assert p.bow.distance(ORIGIN) == 1


@given(hexes, headings, hands)
def test_vector_105_1_4_reaches_its_radial_with_one_pivot_left(bow, heading, hand):
    """105.1.4, 105.3.2 b: once on a vector, the ship runs straight to the radial and one
    60-degree pivot then points it at the target hex."""
    target = ORIGIN
    p = Pose(bow, heading)
    if bow.distance(target) < 3:
        return
    m: tuple[int, ...] = ()
    for _ in range(60):  # turn onto the vector
        s = radial_steer(p, target, hand, m)
        if s.vector is not None and s.turn == 0 and p.heading == s.vector:
            break
        m = s.maneuver
        p = p.step(s.turn)
        if p.bow.distance(target) <= 2:
            return
    else:
        raise AssertionError("never settled on a vector")
    vec = p.heading
    while True:
        s = radial_steer(p, target, hand)
        if s.vector is None:
            break
        assert s.turn == 0 and s.vector == vec  # straight along the vector
        p = p.forward()
    assert direction_between(target, p.bow) is not None  # on a radial
    inward = direction_between(p.bow, target)
    assert abs(turns_between(p.heading, inward)) == 1  # one pivot left


@given(hexes, headings, hands)
def test_radial_movement_105_3_reaches_the_assault_zone(bow, heading, hand):
    """105.3.2: from anywhere, radial movement brings the bow into the assault zone."""
    p = Pose(bow, heading)
    run = radial_run(p, ORIGIN, hand, 80)
    assert any(q.bow.distance(ORIGIN) <= 2 for q in [p, *run])


@given(hexes, headings, hands, st.integers(0, 5), st.integers(1, 40))
def test_radial_movement_is_the_same_under_the_six_rotations(bow, heading, hand, k, n):
    """105.3: the rules name no compass point, so rotating the board rotates every move."""
    p, t = Pose(bow, heading), Hex(2, -1)
    a = [rot_pose(q, k) for q in radial_run(p, t, hand, n)]
    b = radial_run(rot_pose(p, k), rotate(t, k), hand, n)
    assert a == b


@given(hexes, headings, hands, st.integers(1, 40))
def test_radial_movement_mirrors_under_reflection_with_the_other_hand(bow, heading, hand, n):
    """105.3: a mirrored position moves as the mirror image when ties go the other way."""
    p, t = Pose(bow, heading), Hex(-3, 1)
    a = [ref_pose(q) for q in radial_run(p, t, hand, n)]
    b = radial_run(ref_pose(p), reflect(t), -hand, n)
    assert a == b


@given(hexes, headings, hands, st.integers(0, 5), st.sampled_from([6, 12]))
def test_diameter_movement_106_rotates_and_mirrors(bow, heading, hand, k, radius):
    """106.1.2, 106.2.2: diameter movement commutes with rotation; reflection turns the
    counter-clockwise diameter into the clockwise one."""
    p, t = Pose(bow, heading), ORIGIN
    run = diameter_run(p, t, radius, hand, 50)
    assert [rot_pose(q, k) for q in run] == diameter_run(rot_pose(p, k), t, radius, hand, 50)
    assert [ref_pose(q) for q in run] == diameter_run(ref_pose(p), t, radius, -hand, 50)


@given(hexes, headings, st.sampled_from([6, 12]), hands)
def test_diameter_106_1_2_arriving_from_outside_the_bow_stays_on_the_ring(bow, heading, radius, hand):
    """106.1.2 ("never having the bow hex leaving the path (the bow hex must always remain at the
    same distance as dictated)"), 106.2.2: a ship approaching from outside turns on its last
    approach hex so that it reaches the ring at most 60 degrees off the ring's course; from the
    first hex at the ring's distance its bow never leaves it (an escort arriving more than 60
    degrees off course used to stray 1-2 hexes inside)."""
    p = Pose(bow, heading)
    if bow.distance(ORIGIN) <= radius:
        return
    run = diameter_run(p, ORIGIN, radius, hand, 60)
    first = next(i for i, q in enumerate(run) if q.bow.distance(ORIGIN) == radius)
    assert first <= bow.distance(ORIGIN) - radius + 5
    assert all(q.bow.distance(ORIGIN) == radius for q in run[first:])


def test_diameter_106_1_2_a_worked_arrival_more_than_60_degrees_off_course():
    """106.1.2: on the 12-hex diameter, counter-clockwise: a ship two hexes out, heading 1, on
    the vector that meets the ring 120 degrees off the ring's course, turns on its last
    approach hex and keeps its bow on the ring from then on (it used to cross the ring and
    stray a hex inside before turning back out)."""
    p = Pose(Hex(-14, 2), heading_from_harmon(1))
    steer = diameter_steer(p.step(diameter_steer(p, ORIGIN, 12, 1).turn), ORIGIN, 12, 1)
    assert "last hex of the approach" in steer.why and "106.1.2" in steer.why
    run = diameter_run(p, ORIGIN, 12, 1, 8)
    assert [q.bow.distance(ORIGIN) for q in run] == [13, 12, 12, 12, 12, 12, 12, 12]


@given(hexes, headings, st.sampled_from([6, 12]))
def test_diameter_106_1_2_once_on_the_ring_the_bow_never_leaves_it(bow, heading, radius):
    """106.1.2: following the diameter, the bow stays at the same distance, turning 60 degrees
    at each radial; the ring is followed counter-clockwise (106.2.2)."""
    p = Pose(bow, heading)
    run = diameter_run(p, ORIGIN, radius, 1, 120)
    tail = run[-36:]
    assert all(q.bow.distance(ORIGIN) == radius for q in tail)
    # counter-clockwise on screen: the angle about the target decreases (clockwise numbering)
    for a, b in itertools.pairwise(tail):
        i, _ai, bi = sextant(a.bow)
        j, _aj, bj = sextant(b.bow)
        pos_a, pos_b = i * radius + bi, j * radius + bj
        assert (pos_a - pos_b) % (6 * radius) == 1
    turns = [turns_between(a.heading, b.heading) for a, b in itertools.pairwise(tail)]
    assert set(turns) <= {0, -1}
