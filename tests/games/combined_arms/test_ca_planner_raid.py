"""The ``raid`` policy (gwasl/games/combined_arms/tactics.py): each tactic it takes from
the rules, on positions built by hand, and its batch games."""

from __future__ import annotations

import pytest

from games.combined_arms.ca_support import GAME, hx, position
from gwasl.engine.batch import batch, play_out
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Seat
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import tactics as T
from gwasl.games.combined_arms.records import Commit, EndGame, EndPhase, Move
from gwasl.games.combined_arms.state import OFFBOARD, UNIT_IDS, Counter

U = UNIT_IDS.index
RAID = GAME.policies()["raid"]


def _decide(s):
    return RAID(Seat(GAME, s, GAME.viewer(s, "attacker"), quiet=True), GameDice(0))


def test_the_assault_uses_only_the_adjacent_platoons_of_one_company():
    """CA Fire Attacks: a 4+ breaks the target only when every firer is adjacent, and rifle
    platoons of different companies may not engage the same hex; so the assault group is
    the company's adjacent fresh platoons, never a platoon 2 hexes away, an MMG, or a
    platoon of another company."""
    t = hx(0, 0)
    n = list(B.bits(B.NEIGHBOUR_MASK[t]))
    s = position(units={"D1": (n[0], True, -1), "D2": (n[1], True, -1), "D3": (hx(0, -2), True, -1),
                        "E1": (n[3], True, -1), "M1": (n[4], True, -1)},
                 enemy=[Counter(t, real=True)], phase="fire")
    assert sorted(T.assault_group(s, t)) == [U("D1"), U("D2")]
    d = _decide(s)
    assert isinstance(d.action, Commit) and d.action.target == B.label(t) and d.action.unit in ("D1", "D2")


def test_spent_platoons_do_not_assault():
    """CA Fire Attacks: only fresh platoons fire (a platoon that moved is spent)."""
    t = hx(0, 0)
    n = list(B.bits(B.NEIGHBOUR_MASK[t]))
    s = position(units={"D1": (n[0], False, -1), "D2": (n[1], False, -1)}, enemy=[Counter(t, real=True)], phase="fire")
    assert T.assault_group(s, t) == []


def test_the_mmgs_pin_the_objective_the_company_has_just_stepped_next_to():
    """CA Enemy Decisions: a spent counter becomes fresh instead of firing; so the turn the
    company steps in (its platoons spent by the move), the MMGs fire at the objective."""
    t = hx(0, 0)
    n = list(B.bits(B.NEIGHBOUR_MASK[t]))
    far = next(h for h in B.bits(B.REAR_HEXES) if 2 <= B.distance(h, t) <= 5)
    # the company below the objective, out of the MMG's line of fire (your own rifle
    # platoons block your fire, CA Fire Attacks)
    s = position(units={"D1": (n[-1], False, -1), "D2": (n[-2], False, -1), "M1": (far, True, -1)},
                 enemy=[Counter(t, real=True), Counter(hx(3, 2))], phase="fire", own_fired=5)
    d = _decide(s)
    assert d.action == Commit("M1", B.label(t), None)


def test_the_raid_ends_the_game_before_the_loss_track_can_wrap():
    """CA Enemy Fire: the 8th loss (the circular track passing from 7 to 0) breaks a platoon,
    -2 (CA Victory); the first 7 cost nothing.  With LOSS_BUDGET on the track at the start
    of a turn the raid ends the game (CA Sequence of Play: you may end it after any turn);
    one loss fewer, it goes on."""
    t = hx(0, 0)
    units = {"D1": (hx(0, -2), True, -1), "D2": (hx(1, -2), True, -1), "M1": (B.ROAD[0], True, -1)}
    s = position(units=units, enemy=[Counter(t)], turn=4, losses=T.LOSS_BUDGET)
    assert isinstance(_decide(s).action, EndGame)
    s = position(units=units, enemy=[Counter(t)], turn=4, losses=T.LOSS_BUDGET - 1)
    assert not isinstance(_decide(s).action, EndGame)


def test_a_broken_platoon_ends_the_raid():
    """CA Victory: once a platoon of yours is broken, further losses cost 2 points a platoon."""
    from gwasl.games.combined_arms.state import BROKEN

    s = position(units={"D1": (hx(0, -2), True, -1), "D2": (BROKEN, False, -1)}, enemy=[Counter(hx(0, 0))], turn=4)
    assert isinstance(_decide(s).action, EndGame)


def test_the_company_steps_in_together():
    """CA Enemy Fire: a counter fires at range 1 for 2 losses a platoon; a platoon that steps
    next to the objective alone takes that fire alone and cannot break it (a 4+ breaks only
    when every firer is adjacent, and one die rarely makes it).  So no platoon steps in
    until two of the company are one move away."""
    t = hx(0, 0)
    s = position(units={"D1": (hx(0, -2), True, -1), "D2": (B.ROAD[0], True, -1), "D3": (B.ROAD[0], False, -1)},
                 enemy=[Counter(t)], turn=4)
    for _ in range(4):
        d = _decide(s)
        if isinstance(d.action, EndPhase):
            break
        assert isinstance(d.action, Move) and B.distance(B.index_of(d.action.to), t) >= 2, d
        s = GAME.step(s, d.action, GameDice(0))
    # both one move away now: the next moves step in, one platoon a hex
    s = position(units={"D1": (hx(0, -2), True, -1), "D2": (hx(1, -2), True, -1)}, enemy=[Counter(t)], turn=4)
    d = _decide(s)
    assert isinstance(d.action, Move) and B.distance(B.index_of(d.action.to), t) == 1


def test_only_the_company_and_the_mmgs_enter():
    """The raid keeps armour and the other companies off the board (no counter may fire at
    platoons off the board, CA Enemy Fire): after turn 1 only one company and the MMGs stand
    on it, one platoon a hex."""
    s = GAME.setup(None, GameOptions())
    d = GameDice(1005)
    for e in GAME.begin(s, d):
        s = GAME.reduce(s, e)
    while s.turn == 1 and s.phase == "move":
        s = GAME.step(s, _decide(s).action, d)
    on = [UNIT_IDS[i] for i, u in enumerate(s.units) if u.where >= 0]
    assert {"M1", "M2"} <= set(on) and len({u[0] for u in on if u[0] in "DEF"}) == 1
    assert all(s.units[U(u)].where == OFFBOARD for u in ("A1", "A2", "A3"))
    hexes = [s.units[U(u)].where for u in on]
    assert len(hexes) == len(set(hexes))


def test_raid_games_replay_from_the_seed():
    a = play_out(GAME, RAID, 1005, GameOptions())
    assert a == play_out(GAME, RAID, 1005, GameOptions()) and a.steps > 20


@pytest.mark.slow
def test_raid_jobs_give_the_same_figures():
    """CONTRACTS 6: the same arguments give the same figures whatever the number of processes."""
    one = batch(GAME, 8, 1000, "raid", jobs=1)
    two = batch(GAME, 8, 1000, "raid", jobs=2)
    assert (one.wins, one.ci95, one.mean_score) == (two.wins, two.ci95, two.mean_score)


def test_a_revealed_platoon_is_the_better_objective():
    """CA Victory: a broken enemy platoon scores 4 instead of 2; a potential counter proves
    real only on a 5+ (CA Enemy Decisions), so of two counters equally far and both spent
    (neither can fire on the way in) the raid takes the one revealed as a real platoon."""
    a, b = hx(-2, 0), hx(2, 0)  # mirror images about the road: equally far from your edge
    for real in (a, b):
        s = position(enemy=[Counter(a, real=real == a, fresh=False), Counter(b, real=real == b, fresh=False)], turn=1)
        assert T.objective(s, "D") == real


def test_no_objective_whose_free_hexes_are_all_next_to_another_counter():
    """CA Enemy Decisions: a counter adjacent to your platoons is revealed when activated,
    and fires at range 1 for 2 losses a platoon (CA Enemy Fire); the raid never stands next
    to a counter other than its objective, so a counter ringed by others is no objective."""
    t = hx(0, 0)
    ring = [h for h in B.bits(B.NEIGHBOUR_MASK[t])]
    s = position(enemy=[Counter(t)] + [Counter(h) for h in ring[:3]], turn=1)
    assert T.objective(s, "D") != t
    assert all(not (B.NEIGHBOUR_MASK[h] & (s.enemy_mask & ~(1 << t))) for h in T.approach_hexes(s, t, "D"))


def test_an_assault_next_to_its_objective_goes_on_past_the_loss_budget():
    """CA Sequence of Play: your fire phase comes before the enemy phase, and a counter
    your fire pins becomes fresh there instead of firing (CA Enemy Decisions); so with a
    fresh platoon of the company next to its objective the raid fires once more although
    the loss track shows LOSS_BUDGET.  At 7 the next loss breaks a platoon (CA Enemy Fire),
    and a spent platoon cannot fire: then it ends the game."""
    t = hx(0, 0)
    n = list(B.bits(B.NEIGHBOUR_MASK[t]))
    units = {"D1": (n[0], True, -1), "D2": (hx(0, -3), True, -1), "M1": (B.ROAD[0], True, -1)}
    s = position(units=units, enemy=[Counter(t, real=True)], turn=4, losses=T.LOSS_BUDGET)
    assert T.stop_reason(s) == "" and not isinstance(_decide(s).action, EndGame)
    s = position(units=units, enemy=[Counter(t, real=True)], turn=4, losses=7)
    assert isinstance(_decide(s).action, EndGame)
    spent = {**units, "D1": (n[0], False, -1)}
    s = position(units=spent, enemy=[Counter(t, real=True)], turn=4, losses=T.LOSS_BUDGET)
    assert isinstance(_decide(s).action, EndGame)


def test_revealing_a_counter_before_the_minus_one_is_worth_its_reveal_chance():
    """CA Enemy Decisions: a platoon is real on 5+, -1 if its ATGs were removed, that -1
    replaced by the -1 once 3 real platoons are revealed; the final reveals go in activation
    order (CA Victory).  With 2 real platoons out, X (ATGs removed: real on a 6 either way)
    then Y: Y is real 1/6 x 1/6 + 5/6 x 2/6 = 11/36 of the time; revealed first, 12/36.  A
    real platoon in play scores 2, so revealing Y first adds 2/36 to the end-now mean, and
    X first adds nothing."""
    a, b = hx(-2, 0), hx(2, 0)  # mirror images about the road: equally far from your edge
    x, y = min(a, b), max(a, b)  # position() keeps the counters in hex order: x activates first
    s = position(enemy=[Counter(x, atg_removed=True, fresh=False), Counter(y, fresh=False)], turn=1,
                 real_platoons_revealed=2)
    assert [c.hex for c in s.enemy] == [x, y]
    assert T.reveal_first_gain(s, y) == pytest.approx(2 / 36)
    assert T.reveal_first_gain(s, x) == pytest.approx(0.0)
    # equally far and equally likely real otherwise: the raid takes Y, to reveal it first
    assert T.objective(s, "D") == y
