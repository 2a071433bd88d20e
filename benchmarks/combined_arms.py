"""Speed of Combined Arms: whole games per second per core with the random policy.

Prints figures and ratios against a plain reference measured in the same run
(never asserted in tests):

* whole games (``gwasl.engine.batch.play_out``, the ``random`` policy, seeds
  0..N-1) per CPU second, i.e. per core, and the same games with every line
  of fire computed the plain way: the intervening hexes found afresh for each
  query by clipping the segment against each nearby hex in rational numbers,
  instead of the precomputed bitmask tables (identical answers, checked);
* the same games played by the plain step loop (every action's events built by
  ``apply`` and reduced one by one, every enemy decision explained in full, as
  ``play_out`` did before ``Game.step`` and quiet seats), interleaved with the
  fast loop in chunks so both see the same machine load; the figures of the
  two loops must be identical;
* one line-of-fire query, tables against the plain computation;
* a batch of games on 2 processes against 1 (same figures, wall time).

Run: python -m benchmarks.combined_arms [N | --quick]
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.batch import GameResult, batch, play_out
from gwasl.engine.dice import GameDice
from gwasl.engine.game import Game, GameOptions, Policy, Seat
from gwasl.games import game_for
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.policies import random_policy
from gwasl.games.combined_arms.state import State


def _classify(a: int, b: int, h: int) -> str | None:
    """Where segment a -> b meets hex h: 'interior', 'side' or None (corner or nothing)."""
    (qa, ra), (qb, rb), (qh, rh) = B.COORDS[a], B.COORDS[b], B.COORDS[h]
    lo, hi = Fraction(0), Fraction(1)
    forms = []
    for x, y in ((2, 1), (1, 2), (-1, 1)):
        c0, c1 = x * (qa - qh) + y * (ra - rh), x * (qb - qa) + y * (rb - ra)
        forms.append((c0, c1))
        if c1 == 0:
            if abs(c0) > 1:
                return None
        else:
            t1, t2 = Fraction(-1 - c0, c1), Fraction(1 - c0, c1)
            lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    if lo >= hi:
        return None
    tm = (lo + hi) / 2
    return "interior" if all(abs(c0 + tm * c1) < 1 for c0, c1 in forms) else "side"


def plain_line_of_fire(s: State, a: int, b: int, own: bool = False, rifle_mask: int | None = None) -> int:
    """The rule of :func:`gwasl.games.combined_arms.rules.line_of_fire`, computed the plain
    way for every query: every hex near the segment clipped in rationals."""
    blockers = s.blocks | s.smoke_mask
    if own and not (s.crest >> a & 1 or s.crest >> b & 1):
        blockers |= s.m_rifle if rifle_mask is None else rifle_mask
    return _plain_lof(blockers, a, b)


def plain_reach(blockers: int, frm: int) -> tuple[int, int]:
    """What :func:`gwasl.games.combined_arms.rules.fire_reach` computes on a miss of its
    cache, the plain way: a plain line of fire to every hex 1-5 hexes away."""
    clear = partial = 0
    for h in range(B.N):
        if 1 <= B.distance(frm, h) <= 5:
            lof = _plain_lof(blockers, frm, h)
            if lof != R.BLOCKED:
                clear |= 1 << h
                if lof == R.PARTIAL:
                    partial |= 1 << h
    return clear, partial


def _plain_lof(blockers: int, a: int, b: int) -> int:
    d = B.distance(a, b)
    if d <= 1:
        return R.CLEAR
    partial = 0
    for h in range(B.N):
        if h in (a, b) or not blockers >> h & 1 or B.distance(a, h) > d or B.distance(b, h) > d:
            continue
        where = _classify(a, b, h)
        if where == "interior":
            return R.BLOCKED
        if where == "side":
            partial += 1
    return R.BLOCKED if partial >= 2 else partial


def plain_play_out(game: Game[State], policy: Policy, seed: int) -> GameResult:
    """``play_out`` the plain way: apply's events reduced one by one, decisions explained."""
    state = game.setup(None, GameOptions())
    dice = GameDice(seed)
    for ev in game.begin(state, dice):
        state = game.reduce(state, ev)
    step = 0
    while not game.status(state).over:
        side = game.status(state).side
        assert side is not None
        decision = (game.automated(state).get(side) or policy)(Seat(game, state, game.viewer(state, side)), dice)
        for ev in game.apply(state, decision.action, dice):
            state = game.reduce(state, ev)
        step += 1
    won, score = game.score(state)
    return GameResult(seed, won, score, step)


def loops(n: int, chunk: int = 20) -> tuple[float, float, bool]:
    """CPU seconds of the fast and the plain loop over seeds 0..n-1, interleaved by chunk."""
    game = game_for("combined-arms")
    fast = plain = 0.0
    same = True
    for lo in range(0, n, chunk):
        seeds = range(lo, min(n, lo + chunk))
        t0 = time.process_time()
        a = [play_out(game, random_policy, s) for s in seeds]
        t1 = time.process_time()
        b = [plain_play_out(game, random_policy, s) for s in seeds]
        t2 = time.process_time()
        fast, plain = fast + t1 - t0, plain + t2 - t1
        same = same and a == b
    return fast, plain, same


def games(n: int) -> tuple[float, float, int]:
    game = game_for("combined-arms")
    t0, w0 = time.process_time(), time.perf_counter()
    steps = sum(play_out(game, random_policy, seed).steps for seed in range(n))
    return time.process_time() - t0, time.perf_counter() - w0, steps


def main() -> None:
    arg = sys.argv[1] if len(sys.argv) > 1 else "400"
    n = 40 if arg == "--quick" else int(arg)
    cpu, wall, steps = games(n)
    print(f"random games: {n} in {cpu:.2f} s CPU ({wall:.2f} s wall): {n / cpu:7.1f} games/s per core, "
          f"{steps / n:.0f} steps/game, {cpu / steps * 1e6:.0f} us/step")

    tf_loop, tp_loop, same_loop = loops(n)
    print(f"fast loop (Game.step, quiet seats) {n / tf_loop:7.1f} games/s per core   plain loop (apply + reduce, "
          f"explained) {n / tp_loop:7.1f}   ratio {tp_loop / tf_loop:4.2f}x   identical results: {same_loop}")

    fast, fast_reach = R.line_of_fire, R._reach
    R.line_of_fire, R._reach = plain_line_of_fire, plain_reach  # type: ignore[assignment]
    R._REACH.clear()
    try:
        m = max(20, n // 10)
        cpu_ref, _, _ = games(m)
    finally:
        R.line_of_fire, R._reach = fast, fast_reach  # type: ignore[assignment]
        R._REACH.clear()
    print(f"plain reference (lines of fire computed afresh, fire_reach's misses from them): {m / cpu_ref:7.1f} games/s "
          f"per core   ratio {(n / cpu) / (m / cpu_ref):5.1f}x")

    s = game_for("combined-arms").setup(None, __import__("gwasl.engine.game", fromlist=["GameOptions"]).GameOptions())
    from gwasl.engine.dice import GameDice

    g = game_for("combined-arms")
    for e in g.begin(s, GameDice(1)):
        s = g.reduce(s, e)
    pairs = [(a, b) for a in range(0, B.N, 3) for b in range(B.N) if 2 <= B.distance(a, b) <= 5]
    assert all(fast(s, a, b) == plain_line_of_fire(s, a, b) for a, b in pairs)
    assert all(R._reach(s.blocks | s.smoke_mask, a) == plain_reach(s.blocks | s.smoke_mask, a) for a in range(B.N))
    t = time.process_time()
    for a, b in pairs:
        fast(s, a, b)
    tf = (time.process_time() - t) / len(pairs)
    t = time.process_time()
    for a, b in pairs[:300]:
        plain_line_of_fire(s, a, b)
    tp = (time.process_time() - t) / 300
    print(f"one line of fire: tables {tf * 1e6:6.2f} us   plain {tp * 1e6:8.1f} us   ratio {tp / tf:6.0f}x "
          f"(same answer on {len(pairs)} pairs)")

    k = max(40, n // 4)
    one = batch(g, k, 0, "random", jobs=1)
    two = batch(g, k, 0, "random", jobs=2)
    same = (one.wins, one.mean_score) == (two.wins, two.mean_score)
    print(f"batch of {k}: jobs=1 {one.games_per_s:6.1f} games/s wall, jobs=2 {two.games_per_s:6.1f} games/s wall, "
          f"ratio {two.games_per_s / one.games_per_s:4.2f}, same figures: {same}")


if __name__ == "__main__":
    main()
