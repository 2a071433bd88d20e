"""The Great War opponent's decisions, recorded to compare before and after a speed change.

A change that only makes the opponent (gwasl.games.aslgw.opponent and what it calls) cheaper
must leave every decision the same: action, why, details and whether it is public.  This
plays opponent-vs-opponent games on every bundled scenario for a few seeds (at most
``--decisions`` decisions each) and a few advisor suggests (Saint-Julien, the person playing
the Germans), and writes one line per decision and the hash of each game's events.

Run: python -m benchmarks.opponent_identity --out OUT.jsonl [--seeds N] [--decisions N] [--suggests N]
[--compare BEFORE.jsonl] (``--quick``: one small game, the suite's smoke run).  It prints the CPU
seconds of the games and of the suggests, and with ``--compare`` the first line that differs
from the earlier record.  Never asserted in tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.advice import candidates_of
from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, GameOptions, Seat
from gwasl.engine.session import Session
from gwasl.games.aslgw.game import AslgwGame
from gwasl.games.aslgw.opponent import opponent
from gwasl.scenarios import bundled_scenario

SCENARIOS = ("rossignol-1914.json", "ovillers-1916.json", "saint-julien-1915.json", "saint-quentin-1918.json",
             "bois-des-caures-1916.json", "schwaben-redoubt-1916.json")


def _plain(x: Any) -> Any:
    """A decision's details as text that compares exactly (floats by repr)."""
    if hasattr(x, "to_json"):
        return _plain(x.to_json())
    if isinstance(x, dict) or hasattr(x, "items"):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, float):
        return repr(x)
    if isinstance(x, (str, int, bool)) or x is None:
        return x
    return repr(x)


def _line(where: str, d: Decision) -> str:
    return json.dumps({"at": where, "action": d.action.to_json(), "why": d.why, "public": d.public,
                       "details": _plain(d.details)}, sort_keys=True)


def games(out: list[str], seeds: int, limit: int, scenarios: tuple[str, ...] = SCENARIOS) -> None:
    game = AslgwGame()
    for name in scenarios:
        src = json.loads(bundled_scenario(name).read_text(encoding="utf-8"))
        for seed in range(seeds):
            sides = game.sides(game.setup(src, GameOptions()))
            options = GameOptions(frozenset(sides), False, {"opponent": list(sides)})
            dice = GameDice(seed)
            state = game.begun(game.setup(src, options), dice)
            h = hashlib.sha256()
            for i in range(limit):
                st = game.status(state)
                if st.over or st.side is None:
                    break
                seat = Seat(game, state, game.viewer(state, st.side))
                auto = game.automated(state).get(st.side)
                d = (auto or opponent)(seat, dice)
                out.append(_line(f"{name}:{seed}:{i}", d))
                for ev in game.apply(state, d.action, dice):
                    h.update(json.dumps(ev.to_json(), sort_keys=True).encode())
                    state = game.reduce(state, ev)
            out.append(json.dumps({"game": f"{name}:{seed}", "events": h.hexdigest(), "turn": state.turn}))


def suggests(out: list[str], n: int) -> None:
    game = AslgwGame()
    src = json.loads(bundled_scenario("saint-julien-1915.json").read_text(encoding="utf-8"))
    s = Session.new(game, src, 1, GameOptions(frozenset({"british"}), False, {"opponent": "british"}))
    for i in range(n):
        base = s.suggest("opponent")
        if base is None:
            break
        if s.status().side == "german" and len(s.legal()) > 1 and i % 3 == 0:
            hint = s.suggest()
            if hint is not None:
                out.append(_line(f"suggest:{i}:{hint[0]}", hint[1]))
                out.append(json.dumps({"candidates": [c.to_json() for c in candidates_of(hint[1])]}))
        out.append(_line(f"base:{i}", base[1]))
        s.act(base[1].action)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None, help="where to write the record (JSON lines)")
    ap.add_argument("--compare", default=None, help="an earlier record: say whether this one is the same")
    ap.add_argument("--quick", action="store_true", help="one small game of 40 decisions, no suggests")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=800)
    ap.add_argument("--suggests", type=int, default=30)
    args = ap.parse_args()
    out: list[str] = []
    t0 = time.process_time()
    if args.quick:
        games(out, 1, 40, ("rossignol-1914.json",))
    else:
        games(out, args.seeds, args.decisions)
    t1 = time.process_time()
    suggests(out, 0 if args.quick else args.suggests)
    t2 = time.process_time()
    text = "\n".join(out) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(f"{len(out)} lines; games {t1 - t0:.2f} s CPU, suggests {t2 - t1:.2f} s CPU")
    if args.compare:
        before = Path(args.compare).read_text(encoding="utf-8").splitlines()
        now = text.splitlines()
        diff = next((i for i, (a, b) in enumerate(zip(before, now)) if a != b), None)
        if diff is None and len(before) == len(now):
            print("identical to", args.compare)
        else:
            i = diff if diff is not None else min(len(before), len(now))
            print(f"DIFFERS from {args.compare} at line {i + 1}")
            sys.exit(1)


if __name__ == "__main__":
    main()
