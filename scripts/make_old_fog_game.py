"""Re-record tests/store/data/aslgw-fog-ledger-6d8ee87.game with the code of commit 6d8ee87,
which kept the shift ledger and the turn clock in the fog layer (the format that file tests).

    git archive 6d8ee87 | tar -x -C OLD
    PYTHONPATH=OLD .venv/bin/python scripts/make_old_fog_game.py OLD out.game [--rng 4] [--actions 118]

Bois des Caures (the scenario as 6d8ee87 bundled it), seed 2, the French kept secret, random
actions of the player favouring platoon impulses, "?" orders and shifts, a snapshot every 25
events.  A DEFENDER's self-rally and Final Protective Fire are never chosen: issue 24 changed
both (A10.63: only the ATTACKER self-rallies an MMC; A8.31: the FPF NMC reads the FPF DR), so
such a journal would not replay with today's rules.  Today's code must then open the file and
find ``replay --check`` identical (tests/store/test_old_fog_snapshots.py).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

PREFERRED = ("impulse_step", "move_pile", "shift", "move", "detach", "end_impulse")
ENDERS = ("end_phase", "end_window", "end_impulse", "end_platoon")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="the source tree of commit 6d8ee87 (also on PYTHONPATH)")
    ap.add_argument("out", type=Path)
    ap.add_argument("--rng", type=int, default=4)
    ap.add_argument("--actions", type=int, default=118)
    a = ap.parse_args()
    import gwasl

    if not Path(gwasl.__file__).resolve().is_relative_to(a.old.resolve()):
        raise SystemExit(f"gwasl comes from {gwasl.__file__}, not from {a.old}: put {a.old} first on PYTHONPATH")
    from gwasl.engine.game import GameOptions
    from gwasl.games.aslgw.game import AslgwGame
    from gwasl.store.gamefile import create_game

    src = json.loads((a.old / "gwasl" / "scenarios" / "bois-des-caures-1916.json").read_text(encoding="utf-8"))
    g = create_game(a.out, AslgwGame(), src, 2, GameOptions(frozenset({"french"}), False))
    s = g.session
    s.snapshot_every = 25
    rng = random.Random(a.rng)
    for _ in range(a.actions):
        if s.status().over:
            break
        ok = [la for la in s.legal("player")
              if not (la.action.kind == "rally" and s.state.scenario.unit(la.action.unit).side != s.state.phasing)
              and not (la.action.kind == "fire" and la.action.mode == "fpf")]
        pref = [la for la in ok if la.action.kind in PREFERRED]
        enders = [la for la in ok if la.action.kind in ENDERS]
        if enders and rng.random() < 0.3:
            la = rng.choice(enders)
        elif pref and rng.random() < 0.7:
            la = rng.choice(pref)
        else:
            la = rng.choice(ok)
        s.act(la.action, "player")
    print(f"{a.out}: {len(s.entries)} entries, {s.status()}")
    g.close()


if __name__ == "__main__":
    main()
