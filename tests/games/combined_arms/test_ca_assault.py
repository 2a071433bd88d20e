"""The ``assault`` policy (gwasl/games/combined_arms/policies_assault.py, issue 27 item 12):
the raid on heavy boards; on a light board every company fights, the game goes on past a
break, and the battalion exploits."""

from __future__ import annotations

from games.combined_arms.ca_support import GAME, hx, position
from gwasl.engine.batch import play_out
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Seat
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import policies_assault as PA
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.planner import threat_map
from gwasl.games.combined_arms.records import EndGame, Exploit, Move
from gwasl.games.combined_arms.state import BROKEN, UNIT_IDS, WITHDRAWN, Counter

RAID = GAME.policies()["raid"]


def _decide(s, policy=PA.assault_policy):
    return policy(Seat(GAME, s, GAME.viewer(s, "attacker"), quiet=True), GameDice(0))


def _terrain(seed: int) -> tuple[str, ...]:
    return GAME.begun(GAME.setup(None, GameOptions()), GameDice(seed)).terrain


def test_a_light_board_is_counted_from_the_terrain():
    """CA The Units: a potential counter goes in every defended hex of the enemy's two thirds
    of the board; a board of at most LIGHT of them is swept.  Counted from the terrain, the
    answer stays the same as counters are revealed and removed (seed 2: 9 counters; seed 0: 23)."""
    assert len(R.counter_hexes(_terrain(2))) == 9 and len(R.counter_hexes(_terrain(0))) == 23
    s = GAME.begun(GAME.setup(None, GameOptions()), GameDice(2))
    assert PA.light_board(s) and PA.light_board(s._replace(enemy=()))
    assert not PA.light_board(GAME.begun(GAME.setup(None, GameOptions()), GameDice(0)))


def test_on_a_heavy_board_the_assault_plays_the_raid():
    """Where the final reveals alone may win (more than LIGHT counters, CA Victory) the assault
    takes the raid's every decision: the same game, step for step (seeds 0 and 1: 23 and 14
    counters).  benchmarks/attack_paired.py counts the raid's game for both there."""
    for seed in (0, 1):
        assert len(R.counter_hexes(_terrain(seed))) > PA.LIGHT
        assert play_out(GAME, PA.assault_policy, seed) == play_out(GAME, RAID, seed)


def test_the_sweep_goes_on_past_a_broken_platoon_where_the_raid_stops():
    """CA Victory: a broken platoon of yours costs 2, an enemy platoon broken brings 2 more than
    one in play and opens the road to exploiting (2 a platoon); on a light board the reveals
    cannot reach 20, so the sweep fights on where the raid ends the game."""
    s = position(units={"D1": (hx(0, -2), True, -1), "D2": (BROKEN, False, -1), "E1": (hx(2, -3), True, -1)},
                 enemy=[Counter(hx(0, 0), real=True)], turn=4)
    assert PA.light_board(s)
    assert isinstance(_decide(s, RAID).action, EndGame)
    d = _decide(s)
    assert not isinstance(d.action, EndGame) and "CA " in d.why


def test_a_platoon_on_an_exit_hex_exploits_once_it_scores():
    """CA Movement: a platoon exploits by advancing off one of the 3 central hexes of the enemy
    rear edge; CA Victory: 2 an exploiting platoon, beyond the enemy platoons broken only if no
    real enemy platoon remains.  With one enemy platoon broken and none exploiting yet, a rifle
    platoon whose company has nothing left to assault exploits."""
    exit_hex = next(iter(B.bits(B.EXIT_HEXES)))
    s = position(units={"D1": (exit_hex, True, -1)}, enemy=[], turn=12, enemy_platoons_broken=1)
    d = _decide(s)
    assert d.action == Exploit("D1") and "CA Victory" in d.why


def test_armour_advances_towards_the_exit_out_of_reach_of_fire():
    """CA Enemy Fire: an ATG breaks armour at up to 5 hexes, a platoon without ATGs only at 1;
    the armour comes on with the infantry and moves down the board only into hexes where no
    fresh counter could break it this enemy phase, to exploit (CA Movement)."""
    gone = {u: (WITHDRAWN, False, -1) for u in UNIT_IDS if u[0] in "DEFM" and u != "D1"}
    s = position(units={"D1": (hx(0, -3), False, -1), **gone}, enemy=[Counter(hx(0, 2), atg=2)], turn=6)
    d = _decide(s)
    assert isinstance(d.action, Move) and d.action.unit.startswith("A") and "CA Enemy Fire" in d.why
    arm = threat_map(s)[1]
    assert arm[B.index_of(d.action.to)] < PA.ARMOUR_RISK


def test_the_assault_draws_no_dice():
    """Policies read only their side's view and draw their lookahead from a private stream;
    the assault looks ahead not at all, so the game's dice are untouched by its decisions."""
    s = position(units={"D1": (hx(0, -2), True, -1), "D2": (hx(1, -2), True, -1)}, enemy=[Counter(hx(0, 0))], turn=4)
    dice = GameDice(7)
    PA.assault_policy(Seat(GAME, s, GAME.viewer(s, "attacker")), dice)
    assert dice.position == 0
