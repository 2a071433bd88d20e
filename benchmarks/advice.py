"""Speed of Suggest a move (issue 27 item 11: at most 2 s for one position), per game.

Prints, for each game, over positions of whole games played by the game's own base
policy (every ``EVERY``-th position of the person's side), the time of one
``Session.suggest()`` -- the advisor ranking the plans by rollouts on the advice dice -- in
CPU seconds (per core) and in wall seconds, median and worst, the rollouts it rests on, and
against it the plain reference, the old one-policy suggestion (the base policy's choice
alone, ``suggest(base)``), at the same positions, and the ratio.  Figures only: nothing is
asserted.

* Combined Arms: seeds 0..N-1, played by ``raid``;
* On Patrol: the three bundled patrols, seeds 0..N-1 each, played by ``sensible``;
* the Great War: the largest bundled scenario (Schwaben Redoubt, 19 counters) and
  Saint-Julien, against gwasl (``--opponent``) on each side in turn, seeds 0..N-1, the
  person's side played by ``opponent``.

Run: python -m benchmarks.advice [N] [--quick] [combined-arms|on-patrol|aslgw ...]
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.advice import candidates_of
from gwasl.engine.game import GameOptions
from gwasl.engine.session import Session
from gwasl.games import game_for

EVERY = {"combined-arms": 4, "on-patrol": 40, "aslgw": 8}
BASE = {"combined-arms": "raid", "on-patrol": "sensible", "aslgw": "opponent"}
#: decisions of the person's side played in one Great War game at most (a position every EVERY)
GW_DECISIONS = 120
ROOT = Path(__file__).resolve().parents[1]


def _starts(ruleset: str, games: int) -> Iterator[tuple[str, Session[Any]]]:
    game = game_for(ruleset)
    if ruleset == "combined-arms":
        for seed in range(games):
            yield f"seed {seed}", Session.new(game, None, seed)
    elif ruleset == "on-patrol":
        from gwasl.games.on_patrol.scenario import BUNDLED, load_bundled

        for name in BUNDLED:
            for seed in range(games):
                yield f"{name} seed {seed}", Session.new(game, copy.deepcopy(load_bundled(name)), seed)
    else:
        for name in ("schwaben-redoubt-1916", "saint-julien-1915"):
            doc = json.loads((ROOT / "gwasl" / "scenarios" / f"{name}.json").read_text(encoding="utf-8"))
            sides = game.sides(Session.new(game, doc, 0, GameOptions()).state)
            for seed in range(games):
                for opp in sides:
                    yield (f"{name} vs {opp} seed {seed}",
                           Session.new(game, doc, seed, GameOptions(frozenset({opp}), False, {"opponent": opp})))


def positions(ruleset: str, games: int, every: int, limit: int) -> list[Session[Any]]:
    """Sessions stopped at every ``every``-th position of the person's side in games played by the base policy."""
    game = game_for(ruleset)
    base = BASE[ruleset]
    out: list[Session[Any]] = []
    for _label, s in _starts(ruleset, games):
        k = 0
        most = GW_DECISIONS if ruleset == "aslgw" else 10**6
        while not s.status().over and k < most:
            hint = s.suggest(base)
            if hint is None:
                break
            if k % every == 0:
                out.append(Session.restore(game, s.source, s.seed, s.options, s.journal))
                if len(out) >= limit:
                    return out
            s.act(hint[1].action)
            k += 1
    return out


def measure(ruleset: str, games: int, quick: bool) -> None:
    every = EVERY[ruleset] * (3 if quick else 1)
    at = positions(ruleset, 1 if quick else games, every, 2 if quick else 10**6)
    cpu, wall, plain, rollouts = [], [], [], []
    for s in at:
        t0, c0 = time.perf_counter(), time.process_time()
        hint = s.suggest()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
        assert hint is not None
        rollouts.append(sum(c.rollouts for c in candidates_of(hint[1])))
        c0 = time.process_time()
        s.suggest(BASE[ruleset])
        plain.append(time.process_time() - c0)
    med = statistics.median
    print(f"== {ruleset}: {len(at)} positions (every {every}th of the person's side, games played by {BASE[ruleset]})")
    print(f"advisor, CPU per position: median {med(cpu):.3f} s, worst {max(cpu):.3f} s; "
          f"{sum(c > 2.0 for c in cpu)} over 2 s")
    print(f"advisor, wall per position: median {med(wall):.3f} s, worst {max(wall):.3f} s")
    print(f"rollouts per position (all plans): median {med(rollouts):.0f}, fewest {min(rollouts)}, most {max(rollouts)}")
    print(f"plain reference (one policy, {BASE[ruleset]} alone), CPU: median {med(plain) * 1000:.2f} ms, "
          f"worst {max(plain) * 1000:.2f} ms")
    print(f"ratio advisor / one policy (medians): {med(cpu) / max(med(plain), 1e-9):.0f}x")


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    games = int(next((a for a in argv if a.isdigit()), "6"))
    chosen = [a for a in argv if a in BASE] or list(BASE)
    for ruleset in chosen:
        measure(ruleset, games if ruleset == "combined-arms" else max(1, games // 3), quick)


if __name__ == "__main__":
    main(sys.argv[1:])
