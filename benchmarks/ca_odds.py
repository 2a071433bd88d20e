"""Speed of Combined Arms' odds derived from the resolver (issue 23 item 4), in memory.

Prints medians and a ratio against a plain reference measured in the same run (never
asserted in tests):

* a fire attack's odds (``Game.odds`` of every commit and resolve offered in short games:
  every die of the game's own ``fire_step`` weighed) against one ``apply`` of the same
  action (one die sequence);
* ending the game's odds (every die of ``final_reveal_step``, counter by counter) against
  the policies' closed form of the same distribution (``outlook.end_now``).

Run: python -m benchmarks.ca_odds [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from gwasl.engine.dice import GameDice  # noqa: E402
from gwasl.engine.game import GameOptions, Seat  # noqa: E402
from gwasl.games import game_for  # noqa: E402
from gwasl.games.combined_arms.outlook import end_now  # noqa: E402
from gwasl.games.combined_arms.records import Commit, EndGame, Resolve  # noqa: E402


def median_us(fn: Callable[[], object], n: int) -> float:
    out = []
    for _ in range(max(1, n)):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out) * 1e6


def line(name: str, t: float, ref_name: str, ref: float) -> None:
    print(f"{name:<30} {t:9.1f} us   {ref_name:<30} {ref:9.1f} us   ratio {t / ref:7.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a few positions, a few repeats (a smoke run)")
    args = ap.parse_args()
    seeds, reps = ((1,), 1) if args.quick else ((1, 2, 3, 4), 5)
    game = game_for("combined-arms")
    policy = next(iter(game.policies().values()))
    attacks: list[tuple[object, object, object]] = []
    ends: list[tuple[object, object, object]] = []
    for seed in seeds:
        dice = GameDice(seed)
        state = game.begun(game.setup(None, GameOptions()), dice)
        for _ in range(400):
            st = game.status(state)
            if st.over or st.side is None:
                break
            viewer = game.viewer(state, st.side)
            for a in game.legal_actions(state, viewer):
                if isinstance(a, Commit | Resolve):
                    attacks.append((state, a, viewer))
                elif isinstance(a, EndGame):
                    ends.append((state, a, viewer))
            decide = game.automated(state).get(st.side) or policy
            state = game.step(state, decide(Seat(game, state, viewer, quiet=True), dice).action, dice)
    attacks = attacks[:: max(1, len(attacks) // (10 if args.quick else 60))]
    ends = ends[:: max(1, len(ends) // (3 if args.quick else 20))]
    print(f"combined-arms odds: {len(attacks)} attacks, {len(ends)} game ends")

    def all_odds(items: list[tuple[object, object, object]]) -> Callable[[], object]:
        return lambda: [game.odds(s, a, v) for s, a, v in items]  # type: ignore[arg-type]

    def all_applies() -> None:
        for s, a, _v in attacks:
            try:
                game.apply(s, a, GameDice(9))  # type: ignore[arg-type]
            except Exception:
                pass

    def all_closed_forms() -> None:
        for s, _a, _v in ends:
            end_now(s, s.turn - 1)  # type: ignore[arg-type, attr-defined]

    if attacks:
        line("attack odds (all, resolver)", median_us(all_odds(attacks), reps) / len(attacks), "one apply each",
             median_us(all_applies, reps) / len(attacks))
    if ends:
        line("end-game odds (resolver)", median_us(all_odds(ends), reps) / len(ends), "outlook.end_now (closed form)",
             median_us(all_closed_forms, reps) / len(ends))


if __name__ == "__main__":
    main()
