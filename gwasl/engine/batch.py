"""Batch play (CONTRACTS 6): whole games headless, the person's side played by a policy.

Games are played without a journal (the events are reduced as they come),
seed by seed, so the same arguments give the same figures whatever the
number of processes.

>>> wilson(50, 100)
(0.4038..., 0.5961...)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Game, GameError, GameOptions, Policy, Seat

__all__ = ["BatchResult", "GameResult", "batch", "play_out", "wilson"]

#: actions one batch game may take before it is called stuck
STEP_LIMIT = 200_000


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    won: bool
    score: float
    steps: int


@dataclass(frozen=True, slots=True)
class BatchResult:
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float
    games_per_s: float

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "win_rate": self.win_rate, "ci95": list(self.ci95),
                "mean_score": self.mean_score, "games_per_s": self.games_per_s}


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score 95% interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def play_out(game: Game[Any], policy: Policy, seed: int, options: GameOptions | None = None,
             source: Mapping[str, Any] | None = None) -> GameResult:
    """One whole game: ``policy`` plays whichever side is not automated."""
    dice = GameDice(seed)
    state = game.begun(game.setup(source, options or GameOptions()), dice)
    for step in range(STEP_LIMIT):
        st = game.status(state)
        if st.over:
            won, score = game.score(state)
            return GameResult(seed, won, score, step)
        if st.side is None:
            raise GameError(f"{game.ruleset} seed {seed}: no side to act and not over")
        auto = game.automated(state).get(st.side)
        decide = auto or policy
        # nobody reads a batch decision's why, nor the events: only the state after them
        decision = decide(Seat(game, state, game.viewer(state, st.side), quiet=True), dice)
        state = game.step(state, decision.action, dice)
    raise GameError(f"{game.ruleset} seed {seed}: no end after {STEP_LIMIT} actions")


def _play_chunk(args: tuple[Game[Any], str, list[int], dict[str, Any]]) -> list[GameResult]:
    # The game arrives pickled from the caller, so the engine never looks a ruleset up in
    # gwasl.games (a layer above it, docs/architecture.md "Layers").
    game, policy_name, seeds, opts = args
    policy = game.policies()[policy_name]
    options = GameOptions.from_json(opts)
    return [play_out(game, policy, s, options) for s in seeds]


def batch(game: Game[Any], games: int, seed: int = 0, policy: str | None = None, jobs: int = 1,
          options: GameOptions | None = None) -> BatchResult:
    """Play ``games`` games with seeds ``seed .. seed+games-1``; figures independent of ``jobs``."""
    policies = game.policies()
    if not policies:
        raise GameError(f"{game.ruleset} has no policies for batch play")
    name = policy or next(iter(policies))
    if name not in policies:
        raise GameError(f"unknown policy {name[:40]!r}: use one of {', '.join(policies)}")
    options = options or GameOptions()
    seeds = list(range(seed, seed + games))
    t0 = time.perf_counter()
    jobs = max(1, min(jobs, os.cpu_count() or 1, games or 1))
    if jobs == 1:
        results = [play_out(game, policies[name], s, options) for s in seeds]
    else:
        size = max(1, math.ceil(len(seeds) / (jobs * 4)))
        chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
        with ProcessPoolExecutor(jobs) as pool:
            parts = pool.map(_play_chunk, [(game, name, c, options.to_json()) for c in chunks])
            results = [r for part in parts for r in part]
    elapsed = time.perf_counter() - t0
    wins = sum(r.won for r in results)
    n = len(results)
    return BatchResult(n, wins, wins / n if n else 0.0, wilson(wins, n),
                       sum(r.score for r in results) / n if n else 0.0, n / elapsed if elapsed > 0 else float("inf"))
