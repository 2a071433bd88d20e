"""Batch figures for docs/on-patrol.md: ships sunk and submarine survival per policy and patrol,
with 95% intervals (CONTRACTS 6 plays the same games; this adds the game's own fields).

Run: python -m gwasl.games.on_patrol.figures [GAMES] [JOBS]
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gwasl.engine.batch import STEP_LIMIT, wilson
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameError, GameOptions, Seat
from gwasl.games.on_patrol.game import OnPatrolGame
from gwasl.games.on_patrol.policies import POLICIES
from gwasl.games.on_patrol.scenario import BUNDLED, load_bundled

__all__ = ["mean_ci", "patrol_result", "summary"]


def patrol_result(name: str, policy: str, seed: int) -> Mapping[str, Any]:
    """The result of one whole patrol, the submarine played by ``policy`` (as ``play_out`` does)."""
    game = OnPatrolGame()
    state = game.setup(load_bundled(name), GameOptions())
    dice = GameDice(seed)
    for ev in game.begin(state, dice):
        state = game.reduce(state, ev)
    for _ in range(STEP_LIMIT):
        st = game.status(state)
        if st.over:
            return dict(st.result or {})
        side = st.side or ""
        decide = game.automated(state).get(side) or POLICIES[policy]
        action = decide(Seat(game, state, game.viewer(state, side)), dice).action
        for ev in game.apply(state, action, dice):
            state = game.reduce(state, ev)
    raise GameError(f"{name} seed {seed}: no end")


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    h = 1.959963984540054 * sd / math.sqrt(n)
    return m, m - h, m + h


def _chunk(args: tuple[str, str, list[int]]) -> list[Mapping[str, Any]]:
    name, policy, seeds = args
    return [patrol_result(name, policy, s) for s in seeds]


def summary(games: int, jobs: int = 1) -> list[dict[str, Any]]:
    """One row per bundled patrol and policy, seeds 0..games-1."""
    rows = []
    for name in BUNDLED:
        for policy in POLICIES:
            t0 = time.perf_counter()
            seeds = list(range(games))
            if jobs > 1:
                size = max(1, games // (jobs * 4))
                with ProcessPoolExecutor(jobs) as pool:
                    parts = pool.map(_chunk, [(name, policy, seeds[i : i + size]) for i in range(0, games, size)])
                    results = [r for p in parts for r in p]
            else:
                results = _chunk((name, policy, seeds))
            sunk = [float(r["ships_sunk"]) for r in results]
            alive = sum(1 for r in results if r["sub_survived"])
            wins = sum(1 for r in results if r["winner"] == "submarine")
            m, lo, hi = mean_ci(sunk)
            rows.append({"patrol": name, "policy": policy, "games": games, "ships_sunk": (m, lo, hi),
                         "survival": (alive / games, *wilson(alive, games)), "wins": (wins / games, *wilson(wins, games)),
                         "mean_score": sum(float(r["score"]) for r in results) / games,
                         "seconds": time.perf_counter() - t0})
    return rows


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    jobs = int(argv[1]) if len(argv) > 1 else 1
    print("| patrol | policy | games | ships sunk (mean, 95% CI) | sub survives (95% CI) | sub wins (95% CI) | mean score |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in summary(games, jobs):
        s, v, w = r["ships_sunk"], r["survival"], r["wins"]
        print(f"| {r['patrol']} | {r['policy']} | {r['games']} | {s[0]:.2f} ({s[1]:.2f}-{s[2]:.2f}) | "
              f"{v[0]:.1%} ({v[1]:.1%}-{v[2]:.1%}) | {w[0]:.1%} ({w[1]:.1%}-{w[2]:.1%}) | {r['mean_score']:.1f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
