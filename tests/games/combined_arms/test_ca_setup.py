"""Setting up a Combined Arms game: dicing the board, the enemy's third, the
potential enemy counters and ATGs (CA The Playing Board, The Units, Figure 1)."""

from __future__ import annotations

import math
from collections import Counter as Tally

import pytest

from games.combined_arms.ca_support import GAME, hx, position
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameError, GameOptions
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R

P_DEFENDED = 10 / 36  # a total of 9, 10, 11 or 12 on 2 dice


def _figure_1_terrain() -> list[str]:
    """A board with Figure 1's counts: 2 farms, 2 wooded crests, 4 woods, 10 crests
    and 11 poor going; 4 defended hexes in the top 3 rows, 5 in the bottom 3."""
    t = ["road" if B.ROAD_MASK >> i & 1 else "open" for i in range(B.N)]
    free = [[i for i in B.bits(third & ~B.ROAD_MASK)] for third in B.THIRDS]
    defended = ["farm", "farm", "wooded_crest", "wooded_crest"] + ["woods"] * 4 + ["crest"] * 10
    per_third = [4, 9, 5]
    k = 0
    for third, n in enumerate(per_third):
        for i in free[third][::2][:n]:
            t[i] = defended[k]
            k += 1
    poor = [i for i in free[1][1::2]][:11]
    for i in poor:
        t[i] = "poor_going"
    return t


def _begin(source=None, seed=0):
    state = GAME.setup(source, GameOptions())
    events = GAME.begin(state, GameDice(seed))
    for e in events:
        state = GAME.reduce(state, e)
    return state, events


def test_figure_1_counts_give_14_counters_in_the_bottom_6_rows():
    """Figure 1: 18 defended hexes, 5 in the bottom 3 rows and 4 in the top 3, so the
    defenders occupy the bottom 6 rows and 14 potential counters are placed."""
    terrain = _figure_1_terrain()
    counts = Tally(terrain)
    assert (counts["farm"], counts["wooded_crest"], counts["woods"], counts["crest"], counts["poor_going"]) == (2, 2, 4, 10, 11)
    assert R.defensive_counts(terrain) == (4, 9, 5)
    state, events = _begin({"terrain": terrain})
    board = next(e for e in events if e.kind == "board")
    assert board.thirds == (4, 9, 5) and not board.turned
    assert len(state.enemy) == 14
    assert all(B.ROW[c.hex] >= 4 for c in state.enemy)
    assert not [e for e in events if e.kind == "roll"]  # a given board needs no dice (no tie)


def test_more_defended_hexes_at_the_top_turn_the_board():
    """CA The Units: the enemy holds the third with more defended hexes; gwasl turns the
    board 180 degrees so that you always attack from the top (rules-notes)."""
    terrain = _figure_1_terrain()
    flipped = [terrain[B.ROTATED[i]] for i in range(B.N)]
    state, events = _begin({"terrain": flipped})
    assert next(e for e in events if e.kind == "board").turned
    assert list(state.terrain) == terrain and len(state.enemy) == 14


def test_a_tie_between_the_thirds_is_diced():
    """CA The Units: 'decide randomly if there is a tie' -- one logged die, 1-3 top, 4-6 bottom."""
    terrain = _figure_1_terrain()
    bottom = [i for i in B.bits(B.THIRDS[2]) if terrain[i] in ("crest", "woods", "farm", "wooded_crest")]
    terrain[bottom[0]] = "open"
    assert R.defensive_counts(terrain)[0] == R.defensive_counts(terrain)[2] == 4
    _, events = _begin({"terrain": terrain}, seed=3)
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 1 and "tie" in rolls[0].cause
    assert next(e for e in events if e.kind == "board").turned == (rolls[0].final <= 3)


@pytest.mark.parametrize("seed", [1, 0, 2, 3, 4, 5, 6, 7])
def test_terrain_rolls_name_the_hexes_as_the_board_shows_them(seed):
    """CA The Playing Board: 2 dice for each of the 70 hexes off the road (7 or less open, 8
    poor going, 9 crest, 10 woods, 11 wooded crest, 12 farm).  The log names each rolled hex
    as the board shows it, after any turn (seed 1 is turned: its 10, woods, was logged as
    '1b' though the board shows it at 9f).  The tie's die, when there is one, comes last."""
    state, events = _begin(None, seed=seed)
    rolls = [e for e in events if e.kind == "roll"]
    terrain_rolls = [e for e in rolls if e.cause.startswith("terrain of ")]
    assert len(terrain_rolls) == 70 and rolls[:70] == terrain_rolls
    names = {7: "open", 8: "poor_going", 9: "crest", 10: "woods", 11: "wooded_crest", 12: "farm"}
    for e in terrain_rolls:
        hexlab = e.cause.split()[2]
        assert state.terrain[B.index_of(hexlab)] == names[max(7, e.final)], (hexlab, e.final)
    assert sorted(e.cause.split()[2] for e in terrain_rolls) == sorted(
        B.label(i) for i in range(B.N) if state.terrain[i] != "road")
    if seed == 1:
        assert state.turned and any(e.cause.startswith("terrain of 9f ") and e.final == 10 for e in terrain_rolls)


def test_atgs_need_3_open_neighbours_not_behind_figure_4():
    """CA The Units, Figure 4: a potential ATG goes with a counter next to at least 3 open,
    road or poor going hexes, not counting the 2 nearer the enemy rear edge (below),
    except in a side edge hex; 'only 2 open hexes not behind it' means no ATGs."""
    h = hx(0, 1)
    t = ["road" if B.ROAD_MASK >> i & 1 else "woods" for i in range(B.N)]
    t[h] = "woods"
    below = [B.NEIGHBOURS[h][4], B.NEIGHBOURS[h][5]]
    for n in below:
        t[n] = "open"
    ahead = [B.NEIGHBOURS[h][d] for d in (0, 1, 2, 3)]
    for n in ahead:
        if t[n] != "road":
            t[n] = "crest"
    opens = [n for n in ahead if t[n] == "road"]
    for n in ahead:
        if len(opens) < 2 and t[n] != "road":
            t[n] = "poor_going"
            opens.append(n)
    assert len(opens) == 2 and not R.atg_placed(t, h)
    spare = next(n for n in ahead if n not in opens)
    t[spare] = "open"
    assert R.atg_placed(t, h)
    # a side edge counter counts all its on-board neighbours, those behind it too:
    # the left end of hexrow 5 has 3 (right, up-right, down-right), one of them behind
    e = next(i for i in B.bits(B.SIDE_EDGE) if B.ROW[i] == 5)
    t2 = ["road" if B.ROAD_MASK >> i & 1 else "woods" for i in range(B.N)]
    on_board = [n for n in B.NEIGHBOURS[e] if n != B.OFF]
    assert len(on_board) == 3 and B.NEIGHBOURS[e][5] in on_board
    for n in on_board:
        t2[n] = "open"
    assert R.atg_placed(t2, e)
    t2[B.NEIGHBOURS[e][5]] = "woods"
    assert not R.atg_placed(t2, e)


def _exact() -> tuple[float, float]:
    """The exact mean number of potential counters and chance of a tie between the thirds."""
    p = P_DEFENDED
    pmf = [math.comb(21, k) * p**k * (1 - p) ** (21 - k) for k in range(22)]
    e_max = sum(pmf[x] * pmf[y] * max(x, y) for x in range(22) for y in range(22))
    return 28 * p + e_max, sum(q * q for q in pmf)


def test_exact_figures_are_14_76_counters_and_a_13_7_percent_tie():
    mean, tie = _exact()
    assert round(mean, 2) == 14.76 and round(tie, 3) == 0.137


@pytest.mark.slow
def test_seed_sweep_mean_counters_and_ties():
    """Over 2000 seeds the board dicing gives 14.76 potential counters on average and a
    tie between the top and bottom thirds 13.7% of the time, within sampling error
    (4 standard errors)."""
    mean, tie = _exact()
    n, counters, ties = 2000, [], 0
    s0 = GAME.setup(None, GameOptions())
    for seed in range(n):
        events = GAME.begin(s0, GameDice(seed))
        board = next(e for e in events if e.kind == "board")
        counters.append(len(next(e for e in events if e.kind == "counters").hexes))
        ties += board.thirds[0] == board.thirds[2]
        assert sum(1 for e in events if e.kind == "roll") == 70 + (board.thirds[0] == board.thirds[2])
    m = sum(counters) / n
    sd = math.sqrt(sum((c - m) ** 2 for c in counters) / (n - 1))
    assert abs(m - mean) < 4 * sd / math.sqrt(n), (m, mean)
    assert abs(ties / n - tie) < 4 * math.sqrt(tie * (1 - tie) / n), (ties / n, tie)


def test_a_bad_source_is_refused_with_a_clear_message():
    with pytest.raises(GameError, match="terrain"):
        GAME.setup({"terrain": ["open"] * 3}, GameOptions())
    bad = _figure_1_terrain()
    bad[B.ROAD[0]] = "open"
    with pytest.raises(GameError, match=r"terrain\[3\] \(1d\)"):
        GAME.setup({"terrain": bad}, GameOptions())
    with pytest.raises(GameError, match="easier"):
        GAME.setup(None, GameOptions(extra={"easier": "yes"}))


def test_position_helper_builds_a_consistent_state():
    s = position({hx(0, 0): "crest"})
    assert s.crest >> hx(0, 0) & 1 and s.blocks >> hx(0, 0) & 1
