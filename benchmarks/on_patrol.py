"""Speed of On Patrol's automaton: one turn of the escorts with 10 escorts and 30 merchants.

One turn is everything gwasl does for the surface side between two submarine
phases: the Fleet Movement Table and the convoy's unison move (phase 1),
Harmon's orders for every free escort computed from the escorts' view and
applied (phase 2), torpedoes, gunfire, star shells, search and attack
resolution (phases 3-7), and the end of turn with the Escort Action Table
(phase 10).  Measured with the escorts in formation (mode 1) and hunting a
sonar contact (mode 3: radial movement and attacks on the assault zone).
Target: 10 ms or less.

The plain reference, measured in the same run: moving 40 two-hex counters
one hex each and taking every escort's distance to the target hex, with
tuples and no rules, so the ratio says what the rules cost over touching
every ship once.

Run: python -m benchmarks.on_patrol
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Seat
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.game import OnPatrolGame, harmon
from gwasl.games.on_patrol.state import PatrolState

GAME = OnPatrolGame()
CLASSES = ("cargo", "tanker", "cargo", "fast-cargo", "cargo")
ESCORTS = ("v-and-w", "black-swan", "river", "river", "flower", "flower", "flower", "flower", "castle", "castle")


def scenario() -> dict:
    return {
        "format": "gwasl-on-patrol", "title": "benchmark", "year": 1943, "night": True, "turns": 500,
        "board": {"columns": 90, "rows": 90},
        "convoy": {"speed": "slow-1", "merchants": [{"id": f"M{i + 1}", "class": CLASSES[i % 5]} for i in range(30)]},
        "escorts": [{"id": f"E{i + 1}", "class": c} for i, c in enumerate(ESCORTS)],
        "submarines": [{"id": "U1", "class": "type-viic", "bow": "AS70", "heading": 6, "depth": 150}],
    }


def start(hunting: bool) -> PatrolState:
    st = GAME.setup(scenario(), GameOptions())
    dice = GameDice(1)
    for ev in GAME.begin(st, dice):
        st = GAME.reduce(st, ev)
    if hunting:
        lead = st.ship("M1").pose
        ahead = lead.bow
        for _ in range(14):
            ahead = ahead + (lead.ahead - lead.bow)
        st = GAME.reduce(st, R.MarkerSet("U1", "escort", ahead.label, lead.heading, False, "benchmark contact"))
        st = GAME.reduce(st, GAME._mode_set(st, "benchmark"))
    return st


def one_turn(st: PatrolState, dice: GameDice) -> PatrolState:
    """Phases 1-7 and 10 for the escorts (decisions included); the submarine only ends its phases."""
    for step in range(6):
        if st.over:
            break
        if step in (3, 4):
            action = R.EndPhase()
        else:
            action = harmon(Seat(GAME, st, GAME.viewer(st, "escorts")), dice).action
        for ev in GAME.apply(st, action, dice):
            st = GAME.reduce(st, ev)
    return st


def measure(hunting: bool, turns: int = 20) -> tuple[float, float]:
    """Median wall-clock and CPU time of one turn (CPU time is what the process itself used:
    on a machine shared with other work the wall clock also counts waiting for a core)."""
    wall, cpu = [], []
    for seed in range(3):
        st, dice = start(hunting), GameDice(seed + 10)
        for _ in range(turns):
            t, c = time.perf_counter(), time.process_time()
            st = one_turn(st, dice)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            if st.over:
                break
    wall.sort()
    cpu.sort()
    return wall[len(wall) // 2], cpu[len(cpu) // 2]


def reference(n: int = 2000) -> float:
    ships = [((q, 2 * q), 3) for q in range(40)]
    target = (20, 40)
    t = time.process_time()
    for _ in range(n):
        moved = []
        for (q, r), h in ships:
            bow = (q, r + 1)
            moved.append((bow, (bow[0], bow[1] - 1), h))
        dist = [max(abs(b[0] - target[0]), abs(b[1] - target[1]), abs(b[0] + b[1] - target[0] - target[1])) for b, _, _ in moved[:10]]
        assert dist
    return (time.process_time() - t) / n


def main() -> None:
    print(f"load average on this machine while measuring: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    ref = reference()
    for hunting in (False, True):
        wall, cpu = measure(hunting)
        name = "hunting (mode 3)  " if hunting else "in formation (1)  "
        print(f"one automaton turn, {name} 10 escorts + 30 merchants: {wall * 1e3:6.2f} ms wall, {cpu * 1e3:6.2f} ms CPU "
              f"(medians)   plain reference {ref * 1e6:6.1f} us   ratio {cpu / ref:5.0f}   target <= 10 ms: "
              f"{'met' if cpu <= 0.010 else 'NOT met'}")


if __name__ == "__main__":
    main()
