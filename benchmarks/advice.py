"""Speed of Suggest a move in Combined Arms (issue 27 item 11: at most 2 s for one position).

Prints, over positions of whole games (seeds 0..N-1, played by ``raid``; every
``EVERY``-th position of your side), the time of one ``Session.suggest()`` -- the
advisor ranking the plans by rollouts on the advice dice -- in CPU seconds (per core)
and in wall seconds, median and worst; and against it the plain reference, the old
one-policy suggestion (``raid``'s choice alone, ``suggest("raid")``), at the same
positions, and the ratio.  Figures only: nothing is asserted.

Run: python -m benchmarks.advice [N | --quick]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.advice import candidates_of
from gwasl.engine.session import Session
from gwasl.games import game_for

EVERY = 4


def positions(games: int, every: int) -> list[Session]:
    """Sessions stopped at every ``every``-th position of your side in games played by raid."""
    game = game_for("combined-arms")
    out = []
    for seed in range(games):
        s = Session.new(game, None, seed)
        k = 0
        while not s.status().over:
            hint = s.suggest("raid")
            assert hint is not None
            if k % every == 0:
                out.append(Session.restore(game, None, seed, s.options, s.journal))
            s.act(hint[1].action)
            k += 1
    return out


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    games = 1 if quick else int(next((a for a in argv if a.isdigit()), "6"))
    every = 12 if quick else EVERY
    at = positions(games, every)
    if quick:
        at = at[:2]
    cpu, wall, plain, rollouts = [], [], [], []
    for s in at:
        t0, c0 = time.perf_counter(), time.process_time()
        hint = s.suggest()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
        assert hint is not None
        rollouts.append(sum(c.rollouts for c in candidates_of(hint[1])))
        c0 = time.process_time()
        s.suggest("raid")
        plain.append(time.process_time() - c0)
    med = statistics.median
    print(f"positions: {len(at)} (seeds 0-{games - 1}, every {every}th of your side's, games played by raid)")
    print(f"advisor, CPU per position: median {med(cpu):.3f} s, worst {max(cpu):.3f} s")
    print(f"advisor, wall per position: median {med(wall):.3f} s, worst {max(wall):.3f} s")
    print(f"rollouts per position: median {med(rollouts):.0f}, fewest {min(rollouts)}, most {max(rollouts)}")
    print(f"plain reference (one policy, raid alone), CPU: median {med(plain) * 1000:.2f} ms, worst {max(plain) * 1000:.2f} ms")
    print(f"ratio advisor / one policy (medians): {med(cpu) / max(med(plain), 1e-9):.0f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
