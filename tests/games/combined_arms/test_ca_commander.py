"""The ``commander`` policy (gwasl/games/combined_arms/policies_commander.py, issue 27 item 12):
the plan of the board chosen from the exact chance of ending after turn 1, and the game ended
once ending now wins often enough (CA Victory, CA Sequence of Play)."""

from __future__ import annotations

from games.combined_arms.ca_support import GAME, hx, position
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Seat
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import policies_assault as PA
from gwasl.games.combined_arms import policies_commander as PC
from gwasl.games.combined_arms.records import EndGame
from gwasl.games.combined_arms.state import Counter

RAID = GAME.policies()["raid"]


def _decide(s, policy=PC.commander_policy, dice=None):
    return policy(Seat(GAME, s, GAME.viewer(s, "attacker"), quiet=True), dice or GameDice(0))


def _begun(seed: int):
    return GAME.begun(GAME.setup(None, GameOptions()), GameDice(seed))


def test_the_commander_is_a_batch_policy():
    assert GAME.policies()["commander"] is PC.commander_policy


def test_the_opening_chance_is_the_exact_chance_of_ending_after_turn_1():
    """CA Victory ("Reveal any enemy counters still unrevealed, and then score"), with the
    potential counters CA The Units places: worked out from the terrain alone, it is the end-now
    chance of the board as diced (seeds 0-2), and stays the same once counters are revealed."""
    for seed in (0, 1, 2):
        s = _begun(seed)
        assert PC.opening_chance(s) == O.win_chance(s, 1)
        assert PC.opening_chance(s._replace(enemy=())) == O.win_chance(s, 1)


def test_a_light_board_of_little_chance_is_swept_a_board_of_more_is_raided():
    """CA Victory: seed 2 (9 counters) wins 0.06% by ending after turn 1, so the battalion
    sweeps it; seed 0 (23 counters, 11.7%) and seed 1 (14 counters, 8.1%) are raided."""
    assert PC.sweeps(_begun(2)) and PA.light_board(_begun(2))
    assert not PC.sweeps(_begun(0)) and not PC.sweeps(_begun(1))
    s = _begun(2)
    assert _decide(s) == _decide(s, PA.assault_policy)
    s = _begun(0)
    assert _decide(s) == _decide(s, RAID)


def test_the_game_is_ended_once_ending_now_wins_often_enough_where_the_raid_fights_on():
    """CA Victory: 4 an enemy platoon broken, 2 one in play; 20 wins.  Five enemy platoons broken
    and a real one in play: ending now scores 22 for sure (CA Sequence of Play: you may end the
    game after any turn), while the raid, its company fresh and next to no counter, goes on."""
    s = position(units={"D1": (hx(0, -3), True, -1), "D2": (hx(1, -3), True, -1)},
                 enemy=[Counter(hx(0, 2), real=True)], turn=6, enemy_platoons_broken=5)
    assert O.win_chance(s, 5) == 1.0
    assert not isinstance(_decide(s, RAID).action, EndGame)
    d = _decide(s)
    assert isinstance(d.action, EndGame) and "CA Victory" in d.why


def test_below_the_mark_the_plan_decides():
    """The same position with one enemy platoon broken (ending scores 6): the plan's decision, here
    the sweep's (an open board places no counter, CA The Units: light, no chance by ending)."""
    s = position(units={"D1": (hx(0, -3), True, -1), "D2": (hx(1, -3), True, -1)},
                 enemy=[Counter(hx(0, 2), real=True)], turn=6, enemy_platoons_broken=1)
    assert O.win_chance(s, 5) < PC.END_AT and PC.sweeps(s)
    assert _decide(s) == _decide(s, PA.assault_policy)


def test_the_commander_draws_no_dice():
    """It reads only the seat's view (nothing in Combined Arms is hidden from you, CA Enemy
    Decisions: a potential counter is decided by its reveal roll): other dice, the same decision."""
    for seed in (0, 2):
        s = _begun(seed)
        assert _decide(s, dice=GameDice(0)) == _decide(s, dice=GameDice(99, 1234))
