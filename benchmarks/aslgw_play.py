"""Speed of a Great War scenario in play (ruleset aslgw), in memory (no SQLite).

Prints medians and a ratio against a simple reference measured in the same run
(never asserted in tests):

* ``view(state, side)`` against the fog layer's own side view it is built on
  (``gwasl.rules.fog.view.view``);
* ``legal_actions`` for the side to act in its MPh against costing one step of
  each of its units into each neighbour (``gwasl.rules.movement.step_cost``);
* one movement action, apply + reduce, against reducing a phase change;
* replaying a whole random game's journal (``Session.replay_check``), per event.

Run: python -m benchmarks.aslgw_play [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions
from gwasl.engine.session import Session
from gwasl.games.aslgw.game import AslgwGame
from gwasl.games.aslgw.records import ImpulseStep, Move, MovePile, PhaseBegan
from gwasl.model.scenario import Position
from gwasl.rules.fog.view import view as fog_view
from gwasl.rules.movement import StepError, step_cost
from gwasl.rules.trenches import LocationError
from gwasl.scenarios import bundled_scenario


def median_us(fn: Callable[[], object], n: int) -> float:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out) * 1e6


def line(name: str, t: float, ref_name: str, ref: float) -> None:
    print(f"{name:<34} {t:9.1f} us   {ref_name:<28} {ref:9.1f} us   ratio {t / ref:6.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one scenario, few repeats (the test suite's smoke run)")
    args = ap.parse_args()
    game = AslgwGame()
    names = ("bois-des-caures-1916.json",) if args.quick else ("bois-des-caures-1916.json", "schwaben-redoubt-1916.json")
    for name in names:
        bench(game, name, 10 if args.quick else 1)


def bench(game: AslgwGame, name: str, divide: int = 1) -> None:
    src = json.loads(Path(bundled_scenario(name)).read_text(encoding="utf-8"))
    s = Session.new(game, src, 1, GameOptions(frozenset({list(src["sides"])[1]})))
    while s.status().phase != "MPh":
        s.act(s.legal()[0].action)
    side = s.status().side
    assert side is not None
    print(f"== {name}: {side}'s MPh")
    viewer = game.viewer(s.state, side)
    line("view(state, side)", median_us(lambda: game.view(s.state, viewer), 200 // divide),
         "fog view(state, side)", median_us(lambda: fog_view(s.state.fog, side), 200 // divide))

    def legal() -> None:
        game._last_legal = None  # measure the listing, not the kept list
        game.legal_actions(s.state, viewer)

    units = [u for u in s.state.scenario.units if u.side == side]
    sc = s.state.scenario

    def cost_every_step() -> None:
        for u in units:
            for n in u.hex.neighbours():
                with contextlib.suppress(StepError, LocationError):
                    step_cost(sc, u.hex, u.position, n, Position.GROUND)

    line("legal_actions (side to act)", median_us(legal, 100 // divide), "step_cost of every unit's step", median_us(cost_every_step, 100 // divide))
    move = next(a for a in game.legal_actions(s.state, viewer) if isinstance(a, (Move, ImpulseStep, MovePile)))

    def apply_move() -> None:
        st = s.state
        for ev in game.apply(st, move, GameDice(1, s.dice_position)):
            st = game.reduce(st, ev)

    phase = PhaseBegan(s.state.turn, s.state.phasing, "DFPh")
    line("apply + reduce one move", median_us(apply_move, 100 // divide),
         "reduce a phase change", median_us(lambda: game.reduce(s.state, phase), 100 // divide))
    whole = Session.new(game, src, 2, GameOptions())
    rng = random.Random(2)
    while not whole.status().over:
        legal_now = whole.legal()
        enders = [a for a in legal_now if a.action.kind in ("end_phase", "end_window", "end_impulse", "end_platoon")]
        whole.act((rng.choice(enders) if enders and rng.random() < 0.15 else rng.choice(legal_now)).action)
    n = sum(len(e.events) for e in whole.entries)
    t = time.perf_counter()
    assert whole.replay_check().identical
    dt = time.perf_counter() - t
    print(f"{'replay_check of a whole game':<34} {dt * 1e6 / n:9.1f} us/event ({n} events, {dt:.2f} s)")


if __name__ == "__main__":
    main()
