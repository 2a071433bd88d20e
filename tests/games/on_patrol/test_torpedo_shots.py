"""The submarine's torpedo shots in the ``sensible`` policy (issue 27 item 12): fired by the
chance of meeting a ship over the convoy's moves on the Fleet Movement Table (104.3.1,
108.2.2), never at escorts that keep clear of a torpedo's path (108.2.1)."""

from __future__ import annotations

from games.on_patrol.op_support import GAME, started
from gwasl.engine.dice import GameDice
from gwasl.engine.game import Seat
from gwasl.games.on_patrol import policies as P
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.movement import execute_fleet, fleet_order
from gwasl.games.on_patrol.tables import tables


def test_104_3_1_the_chance_of_a_hit_weighs_every_face_of_the_fleet_movement_table():
    """104.3.1: one die a turn moves the whole convoy by its row of the Fleet Movement Table;
    108.2.2: it moves so whatever the torpedoes.  A torpedo running through the hex a merchant's
    bow reaches by going straight on meets it on the faces that go straight on (2 of 6 at
    least), not on every face as the straight-course reckoning of the old policy assumed."""
    st = started("day-convoy")
    m = next(s for s in st.ships if s.kind == "merchant")
    codes = tables().fleet_movement[st.convoy][2]
    straight = fleet_order(codes[2])
    path, _h = execute_fleet(m.pose, straight, straight.hexes or 0, (), lambda _x: False)
    bow = path[-1].bow
    probs, hits = P.shot_odds(st, [[(1, bow, 5)]])
    assert abs(sum(probs) - 1.0) < 1e-9
    p = sum(pr for pr, h in zip(probs, hits[0], strict=True) if h)
    assert 2 / 6 - 1e-9 <= p < 1.0
    # the same reckoning face by face: the share of faces whose move puts a ship on that hex
    faces = 0
    for code in codes:
        o = fleet_order(code)
        ends = []
        for s in st.ships:
            if s.kind == "escort" or not s.moving:
                ends.extend(s.pose.hexes())
                continue
            q, _ = execute_fleet(s.pose, o, o.hexes or 0, (), lambda _x: False)
            ends.extend((q[-1] if q else s.pose).hexes())
        faces += bow in ends
    assert abs(p - faces / 6) < 1e-9


def test_108_2_1_no_torpedo_is_wasted_on_escorts_that_keep_clear():
    """108.2.1: an escort leaves its path or slows rather than steam over a torpedo or end its
    move ahead of one; so with no convoy (the hunter group) a torpedo meets nothing, and the
    boat keeps its torpedoes and its position hidden (104.1.3: a launch places a torpedo marker,
    which the escorts hunt).  The old policy fired at the escorts of seed 0 on the straight-
    course reckoning; the policy does not."""
    st = started("hunter-group", seed=0)
    dice = GameDice(0)
    checked = 0
    for _ in range(400):
        status = GAME.status(st)
        if status.over or checked >= 3:
            break
        side = status.side or ""
        auto = GAME.automated(st).get(side)
        seat = Seat(GAME, st, GAME.viewer(st, side))
        if auto is None:
            old = P.straight_course_policy(seat, dice)
            if isinstance(old.action, R.Launch):
                checked += 1
                assert not isinstance(P.sensible_policy(seat, dice).action, R.Launch)
            action = old.action
        else:
            action = auto(seat, dice).action
        for ev in GAME.apply(st, action, dice):
            st = GAME.reduce(st, ev)
    assert checked >= 1
