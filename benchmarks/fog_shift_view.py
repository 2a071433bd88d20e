"""Speed of the fog-of-war layer: view(), shift planning and exact odds.

Prints figures and a ratio against a simple reference measured in the same
run (never asserted in tests):

* view(state, side) against ``scenario_to_dict(state.scenario)`` -- a view
  rebuilds a whitelisted copy, so it should cost about what writing the
  scenario out does;
* planning every shift between a side's hidden hexes (what the policy does
  each time) against computing the LOS of every enemy unit to those hexes;
* exact odds of one DRM (36 outcomes) against summing 36 integers;
* building the hidden layer (its fields checked first, issue 10) against
  writing the scenario out;
* resolving one shift (the roll, and the roll as the shifting side is shown
  it: its view and the shift planned again on what it knows) against
  planning that shift alone.

Run: python -m benchmarks.fog_shift_view [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario_io import load_scenario, scenario_to_dict
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.env import FogEnv
from gwasl.rules.fog.odds import shift_band_odds
from gwasl.rules.fog.preview import plan_between
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import ShiftError
from gwasl.rules.fog.state import Clock, FogState
from gwasl.rules.fog.view import view
from gwasl.scenarios import bundled_scenario


def timed(fn, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def main() -> None:
    p = argparse.ArgumentParser(description="fog-of-war layer benchmark")
    p.add_argument("--quick", action="store_true", help="few repeats (a smoke run, figures meaningless)")
    k = 0.02 if p.parse_args().quick else 1.0  # share of the repeats run

    def n(count: int) -> int:
        return max(1, int(count * k))

    s = load_scenario(bundled_scenario("bois-des-caures-1916.json"))
    st = FogState.from_scenario(s)
    clock = Clock(1, "german", Phase.MPh)
    env = FogEnv()
    v = timed(lambda: view(st, "german"), n(300))
    ref = timed(lambda: scenario_to_dict(st.scenario), n(300))
    print(f"view(state, 'german'):      {v * 1e6:9.1f} us   scenario_to_dict: {ref * 1e6:9.1f} us   ratio {v / ref:5.2f}")

    hexes = sorted(st.hidden_hexes("french"), key=lambda h: (h.column, h.row))

    def plan_all():
        for a in hexes:
            for b in hexes:
                with contextlib.suppress(ShiftError):
                    plan_between(st, "french", a, b, env, None, clock)

    sees = env.sees(st.scenario)
    enemies = [u for u in st.scenario.units if u.side == "german"]

    def los_all():
        for h in hexes:
            for u in enemies:
                sees(u.hex, h)

    p = timed(plan_all, n(30))
    r = timed(los_all, n(30))
    print(f"plan {len(hexes)}x{len(hexes)} shifts:        {p * 1e3:9.2f} ms   LOS enemy->hexes: {r * 1e3:9.3f} ms   ratio {p / r:7.1f}")

    o = timed(lambda: shift_band_odds(3), n(2000))
    z = timed(lambda: sum(a + b for a in range(1, 7) for b in range(1, 7)), n(2000))
    print(f"shift_band_odds(3):         {o * 1e6:9.1f} us   sum of 36 DR:    {z * 1e6:9.1f} us   ratio {o / z:5.2f}")

    f = timed(lambda: FogState.from_scenario(s), 300)
    print(f"FogState.from_scenario:     {f * 1e6:9.1f} us   scenario_to_dict: {ref * 1e6:9.1f} us   ratio {f / ref:5.2f}")

    fr, clock = st, Clock(1, "french", Phase.MPh)
    g6, f4 = (Hex.from_label(x) for x in ("G6", "F4"))
    plan = plan_between(fr, "french", g6, f4, env, None, clock)
    pl = timed(lambda: plan_between(fr, "french", g6, f4, env, None, clock), 100)
    rs = timed(lambda: resolve_shift(fr, plan, ScriptedDice([3, 4]), env, clock=clock), 100)
    print(f"resolve_shift + shown roll: {rs * 1e3:9.2f} ms   plan the shift:  {pl * 1e3:9.3f} ms   ratio {rs / pl:5.2f}")


if __name__ == "__main__":
    main()
