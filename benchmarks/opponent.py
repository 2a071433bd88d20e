"""Speed of gwasl's Great War opponent (issue 25, item 6), in memory.

One whole player turn of a side gwasl plays (RPh to CCPh: every decision of that side,
the rolls and the rules' work after each), timed from its first decision to the
next player turn, against a plain reference in the same run: the same player turn
played by the passive side (it ends every phase, passes every duty).  Times are CPU
seconds of this process (``time.process_time``): on a shared machine the wall clock
measures the neighbours; the wall-clock medians are printed beside them.  Both sides are
played by the opponent (so its turns have something to decide); the reference games
are passive against passive.  The figures are medians and maxima over every player
turn of each side in the seeds given; never asserted in tests.

The target (issue 25): on the largest bundled scenario a whole opponent player turn
takes at most 1 s at the median and never more than 3 s.

The largest scenario has no card, so the plan a card gives (the objectives it concentrates
on, the hexes it can fire at them from, issue 25 part D) is not exercised there:
``--carded`` times every carded bundled scenario too, one after the other.

Run: python -m benchmarks.opponent [--quick] [--seeds N] [--scenario NAME] [--carded]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Policy, Seat
from gwasl.games.aslgw.game import AslgwGame
from gwasl.games.aslgw.opponent import opponent, passive
from gwasl.scenarios import bundled_scenario

#: the largest bundled scenario (16 x 10 hexes, 19 counters)
LARGEST = "schwaben-redoubt-1916.json"


def player_turns(game: AslgwGame, src: dict, seed: int, policy: Policy,
                 decisions: list[float] | None = None) -> list[tuple[str, float, int, float]]:
    """Every player turn of one game with both sides played by ``policy``: (phasing side,
    CPU seconds from its first decision to the next player turn, decisions taken, wall seconds);
    ``decisions`` gets the CPU seconds of each decision alone (the policy's call)."""
    sides = game.sides(game.setup(src, GameOptions()))
    options = GameOptions(frozenset(sides), False, {"opponent": list(sides)})
    dice = GameDice(seed)
    state = game.begun(game.setup(src, options), dice)
    out: list[tuple[str, float, int, float]] = []
    current: tuple[int, str] | None = None
    t0, w0, n = 0.0, 0.0, 0
    for _ in range(20000):
        st = game.status(state)
        key = (state.turn, state.phasing)
        if key != current or st.over:
            if current is not None:
                out.append((current[1], time.process_time() - t0, n, time.perf_counter() - w0))
            current, t0, w0, n = key, time.process_time(), time.perf_counter(), 0
        if st.over or st.side is None:
            return out
        seat = Seat(game, state, game.viewer(state, st.side))
        auto = game.automated(state).get(st.side)
        decide = policy if auto is opponent else (auto or policy)
        c0 = time.process_time()
        d = decide(seat, dice)
        if decisions is not None:
            decisions.append(time.process_time() - c0)
        for ev in game.apply(state, d.action, dice):
            state = game.reduce(state, ev)
        n += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small scenario, one seed (the test suite's smoke run)")
    ap.add_argument("--seeds", type=int, default=4, help="games per policy (default 4)")
    ap.add_argument("--scenario", default=None, help=f"a bundled scenario file name (default {LARGEST})")
    ap.add_argument("--carded", action="store_true", help="also every carded bundled scenario (issue 25 part D)")
    args = ap.parse_args()
    name = args.scenario or ("rossignol-1914.json" if args.quick else LARGEST)
    seeds = range(1 if args.quick else args.seeds)
    for n in [name, *(CARDED if args.carded else ())]:
        _measure(n, seeds)


#: the bundled scenarios with a card (victory conditions to plan from)
CARDED = ("rossignol-1914.json", "ovillers-1916.json", "saint-julien-1915.json", "saint-quentin-1918.json")


def _measure(name: str, seeds: range) -> None:
    game = AslgwGame()
    src = json.loads(bundled_scenario(name).read_text(encoding="utf-8"))
    figures = {}
    for label, policy in (("opponent", opponent), ("passive (reference)", passive)):
        each: list[float] = []
        turns = [t for s in seeds for t in player_turns(game, src, s, policy, each)]
        secs = [t for _, t, _, _ in turns]
        decisions = [n for _, _, n, _ in turns]
        wall = [w for _, _, _, w in turns]
        figures[label] = statistics.median(secs)
        print(f"{name} {label:<20} {len(turns):4d} player turns: median {statistics.median(secs):7.3f} s, "
              f"max {max(secs):7.3f} s CPU, {statistics.median(decisions):5.0f} decisions (median); "
              f"wall median {statistics.median(wall):.3f} s; per decision {1000 * statistics.median(each):.2f} ms "
              f"median, {1000 * statistics.mean(each):.2f} ms mean, {1000 * max(each):.1f} ms max CPU")
    ratio = figures["opponent"] / figures["passive (reference)"]
    print(f"ratio opponent / passive player turn (median): {ratio:.1f}")


if __name__ == "__main__":
    main()
