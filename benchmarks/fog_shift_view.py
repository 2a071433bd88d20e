"""Speed of the fog-of-war layer: view(), shift planning and exact odds.

Prints figures and a ratio against a simple reference measured in the same
run (never asserted in tests):

* view(state, side) against ``scenario_to_dict(state.scenario)`` -- a view
  rebuilds a whitelisted copy, so it should cost about what writing the
  scenario out does;
* planning every shift between a side's hidden hexes (what the policy does
  each time) against computing the LOS of every enemy unit to those hexes;
* exact odds of one DRM (36 outcomes) against summing 36 integers.

Run: python benchmarks/fog_shift_view.py
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.model.phases import Phase
from gwasl.model.scenario_io import load_scenario, scenario_to_dict
from gwasl.rules.fog.env import FogEnv
from gwasl.rules.fog.odds import shift_band_odds
from gwasl.rules.fog.preview import plan_between
from gwasl.rules.fog.shift import ShiftError
from gwasl.rules.fog.state import FogState
from gwasl.rules.fog.status import advance_clock
from gwasl.rules.fog.view import view
from gwasl.scenarios import bundled_scenario


def timed(fn, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def main() -> None:
    s = load_scenario(bundled_scenario("bois-des-caures-1916.json"))
    st = advance_clock(FogState.from_scenario(s), 1, "german", Phase.MPh)
    env = FogEnv()
    v = timed(lambda: view(st, "german"), 300)
    ref = timed(lambda: scenario_to_dict(st.scenario), 300)
    print(f"view(state, 'german'):      {v * 1e6:9.1f} us   scenario_to_dict: {ref * 1e6:9.1f} us   ratio {v / ref:5.2f}")

    hexes = sorted(st.hidden_hexes("french"), key=lambda h: (h.column, h.row))

    def plan_all():
        for a in hexes:
            for b in hexes:
                with contextlib.suppress(ShiftError):
                    plan_between(st, "french", a, b, env, None)

    sees = env.sees(st.scenario)
    enemies = [u for u in st.scenario.units if u.side == "german"]

    def los_all():
        for h in hexes:
            for u in enemies:
                sees(u.hex, h)

    p = timed(plan_all, 30)
    r = timed(los_all, 30)
    print(f"plan {len(hexes)}x{len(hexes)} shifts:        {p * 1e3:9.2f} ms   LOS enemy->hexes: {r * 1e3:9.3f} ms   ratio {p / r:7.1f}")

    o = timed(lambda: shift_band_odds(3), 2000)
    z = timed(lambda: sum(a + b for a in range(1, 7) for b in range(1, 7)), 2000)
    print(f"shift_band_odds(3):         {o * 1e6:9.1f} us   sum of 36 DR:    {z * 1e6:9.1f} us   ratio {o / z:5.2f}")


if __name__ == "__main__":
    main()
