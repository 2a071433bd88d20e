"""Where Combined Arms games are won and lost (issue 27 item 12, seventh round): each policy's
games traced, the score split by its sources (CA Victory) and the exact chance that ending
now wins (``outlook.win_chance``) at each turn's start, by kind of board.

Per game: the board (counters placed, the exact chance that ending after turn 1 wins), the
turn the game ended, the exact win chance at that moment (no reveal dice: the figure the
played win averages to), the played score and its parts, and the end-now chance at each
turn's start.  Figures depend on the seeds only.

Run: python -m benchmarks.ca_trace GAMES [SEED] [--policies raid,commander] [--jobs J]
     (``--quick``: seeds 2-3, the raid alone: the smoke run of tests/test_benchmarks.py)
"""

from __future__ import annotations

import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.batch import STEP_LIMIT
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameError, GameOptions, Seat

Z = 1.959963984540054


def trace(policy: str, seed: int) -> dict[str, Any]:
    """One game of ``policy`` on ``seed``, traced (module docstring)."""
    from gwasl.games import game_for
    from gwasl.games.combined_arms import outlook as O
    from gwasl.games.combined_arms import rules as R
    from gwasl.games.combined_arms.policies import POLICIES
    from gwasl.games.combined_arms.policies_breakthrough import exploit_scores
    from gwasl.games.combined_arms.policies_commander import opening_chance
    from gwasl.games.combined_arms.records import EndGame
    from gwasl.games.combined_arms.state import ARMOUR, MOVE, UNIT_KIND, put

    game = game_for("combined-arms")
    dice = GameDice(seed)
    state = game.begun(game.setup(None, GameOptions()), dice)
    counters = len(R.counter_hexes(state.terrain))
    opening = opening_chance(state)
    curve: list[float] = []
    seen: set[int] = set()
    exact, end_turn = -1.0, 0
    plus2 = armour = -1.0
    decide = POLICIES[policy]
    for _ in range(STEP_LIMIT):
        st = game.status(state)
        if st.over:
            break
        s = state
        if st.side == "attacker" and s.phase == MOVE and not s.acted and s.turn >= 2 and s.turn not in seen:
            seen.add(s.turn)
            curve.append(O.win_chance(s, s.turn - 1))
        pol = game.automated(state).get(st.side or "") or decide
        d = pol(Seat(game, state, game.viewer(state, st.side or ""), quiet=True), dice)
        if isinstance(d.action, EndGame):
            last = s.turn - 1 if s.phase == MOVE and not s.acted else s.turn
            exact, end_turn = O.win_chance(s, last), last
            if exploit_scores(s):  # one more exploiting platoon would score 2: the same shift as
                # one more ATG counter broken (2, CA Victory), which changes no reveal roll
                plus2 = O.win_chance(put(s, enemy_atgs_broken=s.enemy_atgs_broken + 1), last)
                armour = min(armour_route(s, i)[1] for i in range(len(s.units)) if UNIT_KIND[i] == ARMOUR and s.units[i].where >= -1)
        state = game.step(state, d.action, dice)
    else:
        raise GameError(f"seed {seed}: no end")
    won, score = game.score(state)
    if exact < 0:  # ended by itself after turn 20
        exact, end_turn = float(won), 20
    parts = R.score(state, end_turn)
    return {"seed": seed, "policy": policy, "counters": counters, "opening": opening, "won": won, "score": score,
            "exact": exact, "plus2": plus2, "armour_risk": armour, "end_turn": end_turn, "parts": parts, "curve": curve}


def armour_route(s: Any, i: int) -> tuple[int, float]:
    """(moves, summed chance of being broken) of armour platoon ``i``'s way to the exit hexes
    (CA Movement: never into poor going, woods or a counter's hex; 2 hexes a move counted),
    the safest of the shortest, from the fresh counters' fire as :func:`.planner.threat_map`
    weighs it (CA Enemy Fire, at worst a side shot): whether armour could exploit instead of
    infantry, which would spare the loss track."""
    from collections import deque

    from gwasl.games.combined_arms import board as B
    from gwasl.games.combined_arms.planner import threat_map

    barred = s.enemy_mask | B.FORBIDDEN_EDGE | s.no_armour
    grid = [99] * B.N
    q: deque[int] = deque()
    for h in B.bits(B.EXIT_HEXES & ~barred):
        grid[h] = 0
        q.append(h)
    while q:
        h = q.popleft()
        for n in B.NEIGHBOURS[h]:
            if n != B.OFF and grid[n] == 99 and not barred >> n & 1:
                grid[n] = grid[h] + 1
                q.append(n)
    arm = threat_map(s)[1]
    h = s.units[i].where
    risk, hexes = 0.0, 0
    if h < 0:
        entries = [x for x in B.bits(B.REAR_HEXES) if grid[x] < 99]
        if not entries:
            return 99, 1.0
        h = min(entries, key=lambda x: (grid[x], arm[x]))
        risk, hexes = arm[h], 1
    if grid[h] >= 99:
        return 99, 1.0
    while grid[h] > 0:
        h = min((x for x in B.NEIGHBOURS[h] if x != B.OFF and grid[x] < grid[h]), key=lambda x: (grid[x], arm[x]))
        risk += arm[h]
        hexes += 1
    return (hexes + 1) // 2 + 1, risk


def _chunk(args: tuple[list[str], list[int]]) -> list[dict[str, Any]]:
    pols, seeds = args
    return [trace(p, s) for s in seeds for p in pols]


def main(argv: list[str]) -> None:
    t0 = time.perf_counter()
    jobs, pols = 1, ["raid", "commander"]
    if "--quick" in argv:  # the smoke run of tests/test_benchmarks.py: a light and a heavy board
        argv = ["2", "2", "--policies", "raid"]
    if "--jobs" in argv:
        i = argv.index("--jobs")
        jobs = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if "--policies" in argv:
        i = argv.index("--policies")
        pols = argv[i + 1].split(",")
        argv = argv[:i] + argv[i + 2:]
    games = int(argv[0]) if argv else 40
    seed = int(argv[1]) if len(argv) > 1 else 1000
    seeds = list(range(seed, seed + games))
    size = max(1, math.ceil(games / (jobs * 4)))
    chunks = [(pols, seeds[i:i + size]) for i in range(0, games, size)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            rows = [r for part in pool.map(_chunk, chunks) for r in part]
    else:
        rows = [r for c in chunks for r in _chunk(c)]
    by = {(r["policy"], r["seed"]): r for r in rows}
    print(f"seeds {seed}-{seed + games - 1}")
    for kind, keep in (("heavy (>13 counters)", lambda r: r["counters"] > 13), ("light", lambda r: r["counters"] <= 13),
                       ("all", lambda r: True)):
        base = [by[pols[0], s] for s in seeds if keep(by[pols[0], s])]
        if not base:
            continue
        print(f"{kind}: {len(base)} boards, ending after turn 1 expects {sum(r['opening'] for r in base):.2f} wins")
        for p in pols:
            rs = [by[p, r["seed"]] for r in base]
            n = len(rs)
            mean = {k: sum(r["parts"][k] for r in rs) / n for k in rs[0]["parts"]}
            d = [r["exact"] - b["exact"] for r, b in zip(rs, [by[pols[0], x["seed"]] for x in base], strict=True)]
            md = sum(d) / n
            sd = math.sqrt(sum((x - md) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
            print(f"  {p}: wins {sum(r['won'] for r in rs)}, exact {sum(r['exact'] for r in rs):.2f} "
                  f"(paired vs {pols[0]} {100 * md:+.2f} +- {100 * Z * sd / math.sqrt(n):.2f} pts), "
                  f"score {sum(r['score'] for r in rs) / n:.2f}, ended after turn {sum(r['end_turn'] for r in rs) / n:.1f}")
            up = [r for r in rs if r["plus2"] >= 0]
            print(f"     ended with an enemy platoon broken and no exploiting platoon for it: {len(up)} games; one more "
                  f"exploiting platoon would add {sum(r['plus2'] - r['exact'] for r in up):.2f} expected wins; an armour "
                  f"platoon's way out summed a chance of being broken under 0.3 in {sum(1 for r in up if 0 <= r['armour_risk'] < 0.3)}"
                  f", under 1 in {sum(1 for r in up if 0 <= r['armour_risk'] < 1)}")
            print("     parts " + ", ".join(f"{k} {v:.2f}" for k, v in mean.items() if k != "total"))
            longest = max(len(r["curve"]) for r in rs)
            if longest:
                at = [sum(r["curve"][t] if t < len(r["curve"]) else r["exact"] for r in rs) / n for t in range(min(longest, 12))]
                print("     end-now chance at turns 2..: " + " ".join(f"{100 * x:.1f}" for x in at))

    print(f"({time.perf_counter() - t0:.1f} s wall, jobs={jobs})")


if __name__ == "__main__":
    main(sys.argv[1:])
