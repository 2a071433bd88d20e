"""What ending the game now would score (CA Victory, the reveal rolls of CA Enemy
Decisions): the exact distribution of gwasl.games.combined_arms.outlook against the
game's own end, and the text's reading that a strong defence scores by itself."""

from __future__ import annotations

import pytest

from games.combined_arms.ca_support import GAME, position
from gwasl.engine.dice import GameDice
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.records import EndGame
from gwasl.games.combined_arms.state import Counter


def hx(label):
    return B.index_of(label)


def _end(state, seed):
    for e in GAME.apply(state, EndGame(), GameDice(seed)):
        state = GAME.reduce(state, e)
    return state.result


def test_one_counter_with_atgs_exact():
    """CA Enemy Decisions: platoon real on 5+ with +1 for the ATG counter (3 in 6), then its
    ATGs on 5+ with +2 now the platoon is revealed (4 in 6); CA Victory: 2 + 1."""
    s = position(enemy=[Counter(hx("5f"), atg=1)], turn=3, acted=False)
    assert O.end_now(s, 2) == pytest.approx({0: 1 / 2, 2: 1 / 2 * 2 / 6, 3: 1 / 2 * 4 / 6})


def test_the_minus_one_after_3_real_platoons():
    """CA Enemy Decisions: "Deduct 1 from both rolls if at least ... 3 real platoons have
    already been revealed": a bare potential platoon then needs a 6; 3 real ones score 6."""
    real = [Counter(hx(x), real=True) for x in ("6a", "6c", "6e")]
    s = position(enemy=[*real, Counter(hx("7b"))], turn=3, real_platoons_revealed=3)
    assert O.end_now(s, 2) == pytest.approx({6: 5 / 6, 8: 1 / 6})


def test_the_distribution_matches_the_games_own_end():
    """The final reveals the game rolls (CA Victory) follow the computed distribution:
    800 ends of the same position with different dice, against its mean and win chance."""
    cs = [Counter(hx(x), atg=1 if i % 3 else 0) for i, x in enumerate(("4a", "4c", "4e", "5b", "5d", "5h", "5j", "6a", "6c",
                                                                        "7b", "8d", "9a"))]
    s = position(enemy=[*cs, Counter(hx("9g"), real=True, atg=2)], turn=4, real_platoons_revealed=1, real_atgs_revealed=1,
                 enemy_platoons_broken=2)
    dist = O.end_now(s, 3)
    mean = sum(t * p for t, p in dist.items())
    var = sum((t - mean) ** 2 * p for t, p in dist.items())
    n = 800
    scores = [_end(s, seed)["score"] for seed in range(n)]
    assert abs(sum(scores) / n - mean) < 4 * (var / n) ** 0.5
    win = O.win_chance(s, 3)
    assert 0.05 < win < 0.95
    assert abs(sum(x >= R.WIN_SCORE for x in scores) / n - win) < 4 * (win * (1 - win) / n) ** 0.5


def test_a_strong_defence_wins_without_a_fight():
    """CA Victory scores 2 for each enemy platoon still in play and 1 for each real ATG, and
    the Design Notes say so on purpose: "You can even win if you stop attacking an
    unexpectedly strong defence before suffering too many losses."  9 real platoons and 2
    real ATGs, nothing of yours broken, ended after turn 1: 20, a win."""
    cs = [Counter(hx(x), real=True, atg=2 if i < 2 else 0) for i, x in
          enumerate(("4a", "4c", "4e", "5b", "5d", "5h", "6a", "6c", "7b"))]
    s = position(enemy=cs, turn=2, acted=False)
    res = _end(s, 0)
    assert res["score"] == 20 and res["winner"] == "attacker"
    assert O.end_now(s, 1) == {20: 1.0}


def test_odds_of_ending_the_game_give_the_final_score_and_the_chance_of_20():
    """CA Victory: ending reveals the unrevealed counters with their dice (CA Enemy
    Decisions), so ``odds`` of ending the game is the exact distribution of the final
    score, with the chance of the 20 needed to win.  4 broken platoons and 1 broken ATG
    counter score 18; the one potential counter with an ATG counter is unreal on 1-3 (18),
    a real platoon without ATGs on 4 with its +1 then 1-2 on the ATG roll with +2 (20), with
    real ATGs on 3-6 (21): 3/6, 1/6 x 2/6 + ... as in outlook's doctest, so 20 or more: 1/2."""
    s = position(enemy=[Counter(B.index_of("5f"), False, 1, False, True)], turn=5, enemy_platoons_broken=4,
                 enemy_atgs_broken=1)
    outcomes = GAME.odds(s, EndGame(), GAME.viewer(s, "attacker"))
    got = {o.result.split(",")[0]: round(o.p * 6, 9) for o in outcomes}
    assert got == {"you score 21": 2.0, "you score 20": 1.0, "you score 18": 3.0}
    assert all("(chance of 20 or more: 50.00%)" in o.result for o in outcomes)
    assert [o.result.split(",")[1].strip().split(" (")[0] for o in outcomes] == ["a win", "a win", "short of 20"]
    assert sum(o.p for o in outcomes) == pytest.approx(1)
