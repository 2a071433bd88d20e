"""Fight the bundled Great War scenarios to their end many times (issue 12).

    .venv/bin/python scripts/aslgw_fight.py [--games N] [--seed S]

Each game takes a bundled scenario, a side kept secret or none, and a player: plain
random legal actions, or a random player that seeks the fight (close combat,
bayonet charges, fire, moves towards the enemy: tests/games/aslgw/combat_support.py).
Every game is played to its last turn and replayed from its journal
(``Session.replay_check``).  Prints the totals, the count of each kind of event
and any failure; exit 1 on an error or a replay that differs.
The test suite plays a sample (tests/games/aslgw/test_fight_playthrough.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from games.aslgw.combat_support import fight  # noqa: E402
from games.aslgw.playout import new_session, play, scenario_paths, source  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    paths = scenario_paths()
    kinds: Counter[str] = Counter()
    bad = actions = 0
    t0 = time.perf_counter()
    for i in range(args.games):
        p = rng.choice(paths)
        src = source(p)
        sides = list(src["sides"])
        secret = rng.choice([(), (sides[0],), (sides[1],)])
        seed, play_seed = rng.randrange(2**31), rng.randrange(2**31)
        style = rng.choice(("random", "fight"))
        try:
            s = new_session(src, seed, secret)
            actions += (fight if style == "fight" else play)(s, random.Random(play_seed))
            rep = s.replay_check()
            if not rep.identical:
                bad += 1
                print(f"REPLAY DIFFERS game {i}: {p.stem} secret={secret} seed={seed} play_seed={play_seed} {style}: {rep}", flush=True)
            kinds.update(e["kind"] for e in s.log("omniscient"))
        except Exception:
            bad += 1
            print(f"ERROR game {i}: {p.stem} secret={secret} seed={seed} play_seed={play_seed} {style}:\n{traceback.format_exc()}",
                  flush=True)
    dt = time.perf_counter() - t0
    print(f"{args.games} games to their end, {actions} actions, {bad} failures, {dt:.0f} s ({args.games / dt:.2f} games/s)")
    print("events: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
