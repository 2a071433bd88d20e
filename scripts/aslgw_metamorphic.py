"""The CONTRACTS 5 metamorphic sweep for the aslgw ruleset over many playouts.

    .venv/bin/python scripts/aslgw_metamorphic.py [--runs N] [--seed S] [--steps K]

Each run takes a bundled scenario, one of its hidden-fact variants
(tests/games/aslgw/variants.py) and a viewer (the player with the hidden side kept
secret, or the other side without --secret), plays both games side by side with the
same random legal actions and compares everything the viewer is shown until a rule
reveals the difference.  Prints one line per leak and the totals; exit 1 on a leak.
The test suite runs a hypothesis sample of the same check (tests/games/aslgw/test_metamorphic.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from games.aslgw.metamorphic import Leak, cases, run  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=80)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    all_cases = cases()
    t0 = time.perf_counter()
    steps = revealed = leaks = 0
    for i in range(args.runs):
        case = rng.choice(all_cases)
        seed, play_seed = rng.randrange(2**31), rng.randrange(2**31)
        try:
            out = run(case, seed, play_seed, args.steps)
        except Leak as e:
            leaks += 1
            print(f"LEAK run {i}: {case} seed={seed} play_seed={play_seed}: {str(e)[:2000]}", flush=True)
            continue
        steps += out.steps
        revealed += out.revealed
    dt = time.perf_counter() - t0
    print(f"{args.runs} playouts, {steps} actions compared ({steps / max(1, args.runs):.1f} a playout), "
          f"{revealed} ended by a reveal, {leaks} leaks, {dt:.0f} s")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
