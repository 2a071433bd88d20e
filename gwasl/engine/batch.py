"""Batch play (CONTRACTS 6): whole games headless, the person's side played by a policy.

Games are played without a journal (the events are reduced as they come),
seed by seed, so the same arguments give the same figures whatever the
number of processes.

A game of two sides both played by policies (``side_policies``, the Great War
opponent of issue 25) asks each side's own policy whenever that side is to act,
before any side the game automates; the result then counts each side's wins.
A game that counts something per game (``Game.batch_counts(events)``, e.g. the
Great War's self-inflicted breaks) is played event by event and the counts summed.

>>> wilson(50, 100)
(0.4038..., 0.5961...)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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
    winner: str | None = None
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BatchResult:
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float
    games_per_s: float
    #: games won by each side, and the draws (``None``), when sides are played by policies
    by_side: Mapping[str, int] = field(default_factory=dict)
    #: each count summed over the games (``Game.batch_counts``)
    counts: Mapping[str, int] = field(default_factory=dict)
    #: the winner of each game by seed (``None``: a draw), when sides are played by policies:
    #: two batches on the same seeds are then compared seed by seed (paired)
    winners: Mapping[int, str | None] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": self.games, "wins": self.wins, "win_rate": self.win_rate,
                               "ci95": list(self.ci95), "mean_score": self.mean_score, "games_per_s": self.games_per_s}
        if self.by_side:
            out["by_side"] = {k: {"wins": v, "rate": v / self.games if self.games else 0.0,
                                  "ci95": list(wilson(v, self.games))} for k, v in self.by_side.items()}
        if self.winners:
            out["winners"] = {str(k): v for k, v in self.winners.items()}
        if self.counts:
            out["counts"] = dict(self.counts)
            out["per_game"] = {k: v / self.games if self.games else 0.0 for k, v in self.counts.items()}
        return out


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
             source: Mapping[str, Any] | None = None, side_policies: Mapping[str, Policy] | None = None,
             count: Callable[[Sequence[Any]], Mapping[str, int]] | None = None) -> GameResult:
    """One whole game: each side of ``side_policies`` by its policy, ``policy`` whichever
    other side is not automated; ``count``: what to count in each action's events."""
    dice = GameDice(seed)
    state = game.begun(game.setup(source, options or GameOptions()), dice)
    sides = side_policies or {}
    counts: dict[str, int] = {}
    for step in range(STEP_LIMIT):
        st = game.status(state)
        if st.over:
            won, score = game.score(state)
            winner = (st.result or {}).get("winner")
            return GameResult(seed, won, score, step, winner if isinstance(winner, str) else None, counts)
        if st.side is None:
            raise GameError(f"{game.ruleset} seed {seed}: no side to act and not over")
        decide = sides.get(st.side) or game.automated(state).get(st.side) or policy
        # nobody reads a batch decision's why, nor the events: only the state after them
        decision = decide(Seat(game, state, game.viewer(state, st.side), quiet=True), dice)
        if count is None:
            state = game.step(state, decision.action, dice)
            continue
        events = game.apply(state, decision.action, dice)
        for k, v in count(events).items():
            counts[k] = counts.get(k, 0) + v
        for ev in events:
            state = game.reduce(state, ev)
    raise GameError(f"{game.ruleset} seed {seed}: no end after {STEP_LIMIT} actions")


_Chunk = tuple[Game[Any], str, list[int], dict[str, Any], "Mapping[str, Any] | None", dict[str, str], bool]


def _play_chunk(args: _Chunk) -> list[GameResult]:
    # The game arrives pickled from the caller, so the engine never looks a ruleset up in
    # gwasl.games (a layer above it, docs/architecture.md "Layers").
    game, policy_name, seeds, opts, source, side_names, counting = args
    policies = game.policies()
    options = GameOptions.from_json(opts)
    sides = {s: policies[p] for s, p in side_names.items()}
    count = getattr(game, "batch_counts", None) if counting else None
    return [play_out(game, policies[policy_name], s, options, source, sides, count) for s in seeds]


def batch(game: Game[Any], games: int, seed: int = 0, policy: str | None = None, jobs: int = 1,
          options: GameOptions | None = None, source: Mapping[str, Any] | None = None,
          side_policies: Mapping[str, str] | None = None, counting: bool = False) -> BatchResult:
    """Play ``games`` games with seeds ``seed .. seed+games-1``; figures independent of ``jobs``.

    ``source``: the scenario (a Great War game needs one); ``side_policies``: a policy
    name per side, each side then played by its own (``policy`` plays any other);
    ``counting``: sum the game's ``batch_counts`` over the games."""
    policies = game.policies()
    if not policies:
        raise GameError(f"{game.ruleset} has no policies for batch play")
    name = policy or next(iter(policies))
    for n_ in [name, *(side_policies or {}).values()]:
        if n_ not in policies:
            raise GameError(f"unknown policy {n_[:40]!r}: use one of {', '.join(policies)}")
    options = options or GameOptions()
    seeds = list(range(seed, seed + games))
    t0 = time.perf_counter()
    jobs = max(1, min(jobs, os.cpu_count() or 1, games or 1))
    side_names = dict(side_policies or {})
    if jobs == 1:
        results = _play_chunk((game, name, seeds, options.to_json(), source, side_names, counting))
    else:
        size = max(1, math.ceil(len(seeds) / (jobs * 4)))
        chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
        # the process pool (multiprocessing, ~20 ms to import) only for a batch that uses it
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            parts = pool.map(_play_chunk, [(game, name, c, options.to_json(), source, side_names, counting) for c in chunks])
            results = [r for part in parts for r in part]
    elapsed = time.perf_counter() - t0
    wins = sum(r.won for r in results)
    n = len(results)
    by_side: dict[str, int] = {}
    if side_names:
        for k in (*sorted(side_names), "draw"):
            by_side[k] = 0
        for r in results:
            key = r.winner or "draw"  # a side without a policy of its own may win too
            by_side[key] = by_side.get(key, 0) + 1
    counts: dict[str, int] = {}
    for r in results:
        for k, v in r.counts.items():
            counts[k] = counts.get(k, 0) + v
    return BatchResult(n, wins, wins / n if n else 0.0, wilson(wins, n),
                       sum(r.score for r in results) / n if n else 0.0, n / elapsed if elapsed > 0 else float("inf"),
                       by_side, dict(sorted(counts.items())),
                       {r.seed: r.winner for r in results} if side_names else {})
