"""Paired win rates of the attackers of issue 27 item 12, each against the previous best on
the same seeds (docs/combined-arms.md, docs/on-patrol.md).

* Combined Arms: a policy (``--policy``, default ``assault``; ``commander`` too) against
  ``raid`` on seeds S..S+N-1.  On a board of more than ``policies_assault.LIGHT`` counters
  ``assault`` takes the raid's every decision (tests/games/combined_arms/test_ca_assault.py
  plays both there and finds the same game), so for ``assault`` the raid's game is counted
  for both there; any other policy is played on every board.
* On Patrol: ``sensible`` against ``straight_course_policy`` (``sensible`` before issue 27
  item 12) on seeds 0..N-1 of each bundled patrol, with the contact rate of each.

Wins with Wilson 95% intervals; the paired difference (new minus old, board by board) with
its normal 95% interval; the boards won by one policy only.  Every figure depends on the
seeds only: ``--jobs 1`` and ``--jobs 2`` print the same (tests/games/test_attack_paired.py).

Run: python -m benchmarks.attack_paired combined-arms [GAMES] [SEED] [--policy P] [--against Q] [--jobs J] [--log FILE]
     (``--against Q``: a third policy played on every board too, ``P`` paired against it as well)
     python -m benchmarks.attack_paired on-patrol [GAMES] [--jobs J] [--log FILE]
     (``--summary FILE``: the figures of a --log's rows so far, over the seeds done without a gap;
     ``--quick``: 2 boards and 2 patrols, the smoke run of tests/test_benchmarks.py)
"""

from __future__ import annotations

import ast
import functools
import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.batch import STEP_LIMIT, play_out, wilson
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameError, GameOptions, Policy, Seat

Z = 1.959963984540054


def paired(old: Sequence[float], new: Sequence[float]) -> tuple[float, float, float]:
    """Mean of the paired differences new - old and its normal 95% interval."""
    d = [b - a for a, b in zip(old, new, strict=True)]
    n = len(d)
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    h = Z * sd / math.sqrt(n)
    return m, m - h, m + h


# -- Combined Arms ---------------------------------------------------------------------------------------
def _ca_chunk(seeds: list[int], log: str = "", policy: str = "assault", also: str = "") -> list[tuple[Any, ...]]:
    from gwasl.games import game_for
    from gwasl.games.combined_arms import rules as R
    from gwasl.games.combined_arms.policies import POLICIES
    from gwasl.games.combined_arms.policies_assault import LIGHT

    game = game_for("combined-arms")
    out = []
    for seed in seeds:
        terrain = game.begun(game.setup(None, GameOptions()), GameDice(seed)).terrain
        light = len(R.counter_hexes(terrain)) <= LIGHT
        a = play_out(game, POLICIES["raid"], seed)
        b = play_out(game, POLICIES[policy], seed) if light or policy != "assault" else a
        row: tuple[Any, ...] = (seed, a.won, b.won, a.score, b.score, light)
        if also:  # a third policy on the same board: the new one is paired against it too
            c = play_out(game, POLICIES[also], seed)
            row += (c.won, c.score)
        out.append(row)
        _log(log, out[-1])
    return out


def _log(path: str, row: Any) -> None:
    """One finished game's row, appended to ``path`` ('' none): a long batch on a busy machine
    leaves its figures so far (``--log FILE``)."""
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(repr(row) + "\n")


def combined_arms(games: int, seed: int = 0, jobs: int = 1, log: str = "", policy: str = "assault",
                  also: str = "") -> dict[str, Any]:
    """The paired figures of ``policy`` against ``raid`` on seeds ``seed .. seed+games-1``
    (and against ``also`` too, if given: ``--against P``)."""
    rows = _run(lambda seeds: _ca_chunk(seeds, log, policy, also), list(range(seed, seed + games)), jobs, log=log,
                policy=policy, also=also)
    return ca_figures(rows, games, seed)


def ca_figures(rows: list[tuple[Any, ...]], games: int, seed: int) -> dict[str, Any]:
    """The figures of :func:`combined_arms` from its rows (one a seed); the ``assault`` keys
    hold the policy compared with the raid, whichever it is (``--policy``); the ``also`` keys,
    where the rows have a third policy's game (``--against``), the same against it."""
    old = [float(r[1]) for r in rows]
    new = [float(r[2]) for r in rows]
    light = [r for r in rows if r[5]]
    extra: dict[str, Any] = {}
    if rows and len(rows[0]) > 6:
        third = [float(r[6]) for r in rows]
        extra = {"also_wins": int(sum(third)), "also_ci": wilson(int(sum(third)), games),
                 "also_difference": paired(third, new), "also_score_difference": paired([r[7] for r in rows], [r[4] for r in rows]),
                 "only_also": sum(1 for r in rows if r[6] and not r[2]), "only_new_vs_also": sum(1 for r in rows if r[2] and not r[6]),
                 "light_also_wins": sum(1 for r in light if r[6])}
    return extra | {
        "games": games, "seed": seed, "light_boards": len(light),
        "raid_wins": int(sum(old)), "assault_wins": int(sum(new)),
        "raid_ci": wilson(int(sum(old)), games), "assault_ci": wilson(int(sum(new)), games),
        "win_difference": paired(old, new),
        "score_difference": paired([r[3] for r in rows], [r[4] for r in rows]),
        "only_raid": sum(1 for r in rows if r[1] and not r[2]), "only_assault": sum(1 for r in rows if r[2] and not r[1]),
        "light_raid_wins": sum(1 for r in light if r[1]), "light_assault_wins": sum(1 for r in light if r[2]),
        "light_raid_mean": sum(r[3] for r in light) / len(light) if light else 0.0,
        "light_assault_mean": sum(r[4] for r in light) / len(light) if light else 0.0,
    }


# -- On Patrol -------------------------------------------------------------------------------------------------
def patrol(name: str, policy: Policy, seed: int) -> tuple[bool, float, int, bool, bool]:
    """One patrol: (won, score, ships sunk, survived, contact: the escorts detected the boat
    (a marker on it, 104.1.3) or it fired)."""
    from gwasl.games.on_patrol import records as R
    from gwasl.games.on_patrol.game import OnPatrolGame
    from gwasl.games.on_patrol.scenario import load_bundled

    game = OnPatrolGame()
    dice = GameDice(seed)
    state = game.begun(game.setup(load_bundled(name), GameOptions()), dice)
    contact = False
    for _ in range(STEP_LIMIT):
        st = game.status(state)
        if st.over:
            r = st.result or {}
            return r["winner"] == "submarine", float(r["score"]), int(r["ships_sunk"]), bool(r["sub_survived"]), contact
        side = st.side or ""
        decide = game.automated(state).get(side) or policy
        action = decide(Seat(game, state, game.viewer(state, side), quiet=True), dice).action
        for ev in game.apply(state, action, dice):
            if isinstance(ev, R.TorpedoLaunched) or (isinstance(ev, R.MarkerSet) and ev.marker in ("sub", "escort")):
                contact = True
            state = game.reduce(state, ev)
    raise GameError(f"{name} seed {seed}: no end")


def _op_chunk(args: tuple[str, list[int], str]) -> list[tuple[int, tuple[Any, ...], tuple[Any, ...]]]:
    from gwasl.games.on_patrol.policies import sensible_policy, straight_course_policy

    name, seeds, log = args
    out = []
    for s in seeds:
        out.append((s, patrol(name, straight_course_policy, s), patrol(name, sensible_policy, s)))
        _log(log, (name, *out[-1]))
    return out


def on_patrol(games: int, jobs: int = 1, names: Sequence[str] | None = None, log: str = "") -> list[dict[str, Any]]:
    """Per bundled patrol: the paired figures of ``sensible`` against its previous version."""
    from gwasl.games.on_patrol.scenario import BUNDLED

    out = []
    for name in names or BUNDLED:
        rows = _run(functools.partial(_op_seeds, name, log), list(range(games)), jobs, name, log)
        out.append(op_figures(name, rows, games))
    return out


def _op_seeds(name: str, log: str, seeds: list[int]) -> list[tuple[int, tuple[Any, ...], tuple[Any, ...]]]:
    return _op_chunk((name, seeds, log))


def op_figures(name: str, rows: list[tuple[int, tuple[Any, ...], tuple[Any, ...]]], games: int) -> dict[str, Any]:
    """The figures of one patrol of :func:`on_patrol` from its rows (one a seed)."""
    old = [float(r[1][0]) for r in rows]
    new = [float(r[2][0]) for r in rows]
    return {
        "patrol": name, "games": games,
        "old_wins": int(sum(old)), "new_wins": int(sum(new)),
        "old_ci": wilson(int(sum(old)), games), "new_ci": wilson(int(sum(new)), games),
        "win_difference": paired(old, new),
        "sunk_difference": paired([r[1][2] for r in rows], [r[2][2] for r in rows]),
        "old_sunk": sum(r[1][2] for r in rows) / games, "new_sunk": sum(r[2][2] for r in rows) / games,
        "old_survived": sum(1 for r in rows if r[1][3]), "new_survived": sum(1 for r in rows if r[2][3]),
        "old_contact": sum(1 for r in rows if r[1][4]), "new_contact": sum(1 for r in rows if r[2][4]),
    }


# -- running ---------------------------------------------------------------------------------------------------------
def _ca_logged(args: tuple[list[int], str, str, str]) -> list[tuple[Any, ...]]:
    return _ca_chunk(*args)


def _run(fn: Callable[[list[int]], list[Any]], seeds: list[int], jobs: int, name: str | None = None,
         log: str = "", policy: str = "assault", also: str = "") -> list[Any]:
    """``fn`` over the seeds, in chunks over ``jobs`` processes, the rows in seed order."""
    if jobs <= 1:
        return fn(seeds)
    size = max(1, math.ceil(len(seeds) / (jobs * 4)))
    chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    with ProcessPoolExecutor(jobs) as pool:
        if name is None:
            parts = list(pool.map(_ca_logged, [(c, log, policy, also) for c in chunks]))
        else:
            parts = list(pool.map(_op_chunk, [(name, c, log) for c in chunks]))
    return sorted((r for p in parts for r in p), key=lambda r: r[0])


def _pct(x: float) -> str:
    return f"{100 * x:+.1f}"


def main(argv: list[str]) -> None:
    jobs, log, policy, also = 1, "", "assault", ""
    if "--against" in argv:
        i = argv.index("--against")
        also = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if "--policy" in argv:
        i = argv.index("--policy")
        policy = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if "--jobs" in argv:
        i = argv.index("--jobs")
        jobs = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if "--log" in argv:
        i = argv.index("--log")
        log = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if "--quick" in argv:  # the smoke run of tests/test_benchmarks.py: a light and a heavy board, 2 patrols
        t0 = time.perf_counter()
        r = combined_arms(2, 2)
        print(f"Combined Arms seeds 2-3: raid {r['raid_wins']} wins, assault {r['assault_wins']} wins, "
              f"paired {_pct(r['win_difference'][0])} points")
        for o in on_patrol(2, names=["hunter-group"]):
            print(f"{o['patrol']}: 2 patrols, old {o['old_wins']} wins, new {o['new_wins']} wins, contact {o['new_contact']}")
        print(f"({time.perf_counter() - t0:.1f} s wall, jobs=1)")
        return
    summary = ""
    if "--summary" in argv:
        i = argv.index("--summary")
        summary = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    what = argv[0] if argv else "combined-arms"
    t0 = time.perf_counter()
    if what == "combined-arms":
        games = int(argv[1]) if len(argv) > 1 else 2000
        seed = int(argv[2]) if len(argv) > 2 else 0
        if summary:  # the rows of a --log so far: the seeds done without a gap from ``seed``
            done = {r[0]: r for r in (ast.literal_eval(x) for x in Path(summary).read_text().splitlines())}
            games = next(k for k in range(games + 1) if k == games or seed + k not in done)
            r = ca_figures([done[seed + k] for k in range(games)], games, seed)
        else:
            r = combined_arms(games, seed, jobs, log, policy, also)
        d, s = r["win_difference"], r["score_difference"]
        print(f"Combined Arms, seeds {seed}-{seed + games - 1} ({r['light_boards']} light boards):")
        print(f"  raid    {r['raid_wins']} wins, {r['raid_wins'] / games:.1%} ({r['raid_ci'][0]:.1%} - {r['raid_ci'][1]:.1%})")
        print(f"  {policy} {r['assault_wins']} wins, {r['assault_wins'] / games:.1%} "
              f"({r['assault_ci'][0]:.1%} - {r['assault_ci'][1]:.1%})")
        print(f"  paired win difference {_pct(d[0])} points ({_pct(d[1])} to {_pct(d[2])}); won by raid only "
              f"{r['only_raid']}, by {policy} only {r['only_assault']}")
        print(f"  paired score difference {s[0]:+.2f} ({s[1]:+.2f} to {s[2]:+.2f})")
        print(f"  light boards: raid {r['light_raid_wins']} wins, mean score {r['light_raid_mean']:.2f}; "
              f"{policy} {r['light_assault_wins']} wins, mean score {r['light_assault_mean']:.2f}")
        if "also_wins" in r:
            a, sa = r["also_difference"], r["also_score_difference"]
            name = also or "the third policy"
            print(f"  {name} {r['also_wins']} wins, {r['also_wins'] / games:.1%} ({r['also_ci'][0]:.1%} - {r['also_ci'][1]:.1%}); "
                  f"{policy} minus {name}: {_pct(a[0])} points ({_pct(a[1])} to {_pct(a[2])}); won by {name} only "
                  f"{r['only_also']}, by {policy} only {r['only_new_vs_also']}; score {sa[0]:+.2f} ({sa[1]:+.2f} to {sa[2]:+.2f}); "
                  f"light boards: {name} {r['light_also_wins']} wins")
    else:
        games = int(argv[1]) if len(argv) > 1 else 300
        if summary:
            logged: dict[str, dict[int, Any]] = {}
            for x in Path(summary).read_text().splitlines():
                row = ast.literal_eval(x)
                logged.setdefault(row[0], {})[row[1]] = row[1:]
            results = []
            for name, rows in logged.items():
                n = next(k for k in range(games + 1) if k == games or k not in rows)
                results.append(op_figures(name, [rows[k] for k in range(n)], n))
        else:
            results = on_patrol(games, jobs, log=log)
        for r in results:
            games = r["games"]
            d, s = r["win_difference"], r["sunk_difference"]
            print(f"{r['patrol']}: {games} patrols; old {r['old_wins']} wins {r['old_wins'] / games:.1%} "
                  f"({r['old_ci'][0]:.1%} - {r['old_ci'][1]:.1%}), new {r['new_wins']} wins {r['new_wins'] / games:.1%} "
                  f"({r['new_ci'][0]:.1%} - {r['new_ci'][1]:.1%}); paired {_pct(d[0])} points ({_pct(d[1])} to {_pct(d[2])}); "
                  f"ships sunk {r['old_sunk']:.2f} -> {r['new_sunk']:.2f} (paired {s[0]:+.2f}, {s[1]:+.2f} to {s[2]:+.2f}); "
                  f"survived {r['old_survived']} -> {r['new_survived']}; contact {r['old_contact']} -> {r['new_contact']}")
    print(f"({time.perf_counter() - t0:.0f} s wall, jobs={jobs})")


if __name__ == "__main__":
    main(sys.argv[1:])
