"""Batch figures for docs/on-patrol.md: contact, ships sunk and submarine survival per policy and
patrol, with 95% intervals (CONTRACTS 6 plays the same games; this adds the game's own fields).
"Contact": the escorts detected the boat (a marker on it, 104.1.3) or it fired a torpedo.

Run: python -m gwasl.games.on_patrol.figures [GAMES] [JOBS]
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gwasl.engine.batch import STEP_LIMIT, wilson
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameError, GameOptions, Seat
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.game import OnPatrolGame
from gwasl.games.on_patrol.policies import POLICIES
from gwasl.games.on_patrol.scenario import BUNDLED, load_bundled

__all__ = ["mean_ci", "patrol_result", "summary"]


def patrol_result(name: str, policy: str, seed: int, source: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """The result of one whole patrol, the submarine played by ``policy`` (as ``play_out`` does),
    with what happened on the way: ``contact_turn``, the first turn the two sides met (the
    escorts detected the boat: a marker of either colour on it, 104.1.3; or it fired), None if
    never; ``first_torpedo_turn``; ``escort_torpedo_hits``.  ``source`` replaces the bundled
    scenario ``name`` (to try a set-up before bundling it)."""
    game = OnPatrolGame()
    state = game.setup(dict(source) if source is not None else load_bundled(name), GameOptions())
    dice = GameDice(seed)
    for ev in game.begin(state, dice):
        state = game.reduce(state, ev)
    contact: int | None = None
    first_torpedo: int | None = None
    escort_hits = 0
    escorts = {s.id for s in state.ships if s.kind == "escort"}
    for _ in range(STEP_LIMIT):
        st = game.status(state)
        if st.over:
            return {**dict(st.result or {}), "contact_turn": contact, "first_torpedo_turn": first_torpedo,
                    "escort_torpedo_hits": escort_hits}
        side = st.side or ""
        decide = game.automated(state).get(side) or POLICIES[policy]
        action = decide(Seat(game, state, game.viewer(state, side)), dice).action
        for ev in game.apply(state, action, dice):
            if contact is None and (isinstance(ev, R.TorpedoLaunched)
                                    or (isinstance(ev, R.MarkerSet) and ev.marker in ("sub", "escort"))):
                contact = state.turn
            if first_torpedo is None and isinstance(ev, R.TorpedoLaunched):
                first_torpedo = state.turn
            if isinstance(ev, R.ShipHit) and ev.ship in escorts and ev.why.startswith("torpedo"):
                escort_hits += 1
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
            contact = [r["contact_turn"] for r in results if r["contact_turn"] is not None]
            fired = sorted(r["first_torpedo_turn"] for r in results if r["first_torpedo_turn"] is not None)
            sunk = [float(r["ships_sunk"]) for r in results]
            alive = sum(1 for r in results if r["sub_survived"])
            wins = sum(1 for r in results if r["winner"] == "submarine")
            m, lo, hi = mean_ci(sunk)
            rows.append({"patrol": name, "policy": policy, "games": games, "ships_sunk": (m, lo, hi),
                         "survival": (alive / games, *wilson(alive, games)), "wins": (wins / games, *wilson(wins, games)),
                         "mean_score": sum(float(r["score"]) for r in results) / games,
                         "contact": (len(contact), *wilson(len(contact), games)),
                         "first_torpedo_median": statistics.median(fired) if fired else None,
                         "escort_torpedo_hits": sum(int(r["escort_torpedo_hits"]) for r in results),
                         "seconds": time.perf_counter() - t0})
    return rows


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    jobs = int(argv[1]) if len(argv) > 1 else 1
    print("| patrol | policy | games | contact | first torpedo (median turn) | ships sunk (mean, 95% CI) | "
          "sub survives (95% CI) | sub wins (95% CI) | mean score | torpedo hits on escorts |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in summary(games, jobs):
        s, v, w, c = r["ships_sunk"], r["survival"], r["wins"], r["contact"]
        ft = r["first_torpedo_median"]
        print(f"| {r['patrol']} | {r['policy']} | {r['games']} | {c[0]} ({c[1]:.0%}-{c[2]:.0%}) | {'-' if ft is None else ft} | "
              f"{s[0]:.2f} ({s[1]:.2f}-{s[2]:.2f}) | {v[0]:.1%} ({v[1]:.1%}-{v[2]:.1%}) | {w[0]:.1%} ({w[1]:.1%}-{w[2]:.1%}) | "
              f"{r['mean_score']:.1f} | {r['escort_torpedo_hits']} |")


if __name__ == "__main__":
    main(sys.argv[1:])
