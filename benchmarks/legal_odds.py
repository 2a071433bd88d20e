"""Speed of the Great War legal lists and fire odds with their memos (issue 23 item 7), in memory.

The states of random games of the largest bundled scenario; at each state the legal list
is asked three times for each viewer (the session, the seat, the opponent ask it) and the
odds of each fire on it twice (the menu, the opponent), as play asks them.  Timed with
the memos (dispatch.legal, fire_odds: kept by state; fire_distribution: kept by attack;
the LOS index: kept by line) against a plain reference in the same run: the same
questions worked out afresh each time (the memos emptied before each question).
Both give the same answers (checked here, and in tests/games/aslgw/test_memo_same_answers.py).
CPU seconds of this process (``time.process_time``).

Run: python -m benchmarks.legal_odds [--seeds N] [--states N]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.game import GameOptions, Viewer
from gwasl.engine.session import Session
from gwasl.games.aslgw import knowledge
from gwasl.games.aslgw.actions import dispatch
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.game import AslgwGame
from gwasl.games.aslgw.records import Fire
from gwasl.rules import fire as fire_rules
from gwasl.rules import los as los_rules
from gwasl.scenarios import bundled_scenario

LARGEST = "schwaben-redoubt-1916.json"


def states(seed: int, limit: int) -> list[Any]:
    """The states of a random game (a random legal action, an end of phase now and then)."""
    src = json.loads(bundled_scenario(LARGEST).read_text(encoding="utf-8"))
    s = Session.new(AslgwGame(), src, seed, GameOptions(frozenset(), False))
    rng = random.Random(seed)
    out = [s.state]
    while not s.status().over and len(out) < limit:
        legal = s.legal()
        enders = [a for a in legal if a.action.kind in ("end_phase", "end_window", "end_impulse", "end_platoon")]
        a = rng.choice(enders) if enders and rng.random() < 0.15 else rng.choice(legal)
        s.act(a.action)
        out.append(s.state)
    return out


def _forget() -> None:
    dispatch._LEGAL.clear()
    fr._ODDS.clear()
    fr._PARTS.clear()
    fr._COMMAND.clear()
    mv._SCENARIO_FACTS.clear()
    mv._WORDED.clear()
    knowledge._SCENARIOS.clear()
    fire_rules._DISTRIBUTIONS.clear()
    with los_rules._CACHE_LOCK:
        for _m, _c, idx in los_rules._CACHE:
            idx._answers.clear()


def ask(sts: list[Any], afresh: bool) -> tuple[float, list[Any]]:
    answers: list[Any] = []
    t0 = time.process_time()
    for st in sts:
        viewers = [Viewer("player", frozenset(st.settings.order))] + [Viewer(x, frozenset({x})) for x in st.settings.order]
        for v in viewers:
            for _ in range(3):
                if afresh:
                    _forget()
                legal = dispatch.legal(st, v)
            answers.append(legal)
            for a in legal:
                if isinstance(a, Fire):
                    for _ in range(2):
                        if afresh:
                            _forget()
                        odds = fr.fire_odds(st, a, v)
                    answers.append(odds)
    return time.process_time() - t0, answers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--states", type=int, default=150)
    ap.add_argument("--quick", action="store_true", help="one seed, 10 states (the test suite's smoke run)")
    args = ap.parse_args()
    seeds, n = (1, 10) if args.quick else (args.seeds, args.states)
    sts = [st for seed in range(1, seeds + 1) for st in states(seed, n)]
    _forget()
    fresh_s, fresh = ask(sts, afresh=True)
    _forget()
    memo_s, kept = ask(sts, afresh=False)
    assert kept == fresh, "the memos changed an answer"
    print(f"{LARGEST}: {len(sts)} states, {len(fresh)} answers (legal lists and fire odds)")
    print(f"afresh (reference) {fresh_s:7.2f} s CPU")
    print(f"with the memos     {memo_s:7.2f} s CPU")
    print(f"ratio memos / afresh: {memo_s / fresh_s:.2f}")


if __name__ == "__main__":
    main()
