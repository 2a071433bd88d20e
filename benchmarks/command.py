"""Command status speed and memory (issue 17): time and peak memory of
``command_status`` for 1,000 / 20,000 / 100,000 units, with the ratio against
a plain reference measured in the same run.

    python -m benchmarks.command [--sizes 1000 20000 100000] [--repeat 3]

Two layouts per size, both of platoons of one leader, six squads and one
half-squad (13 half-squads for a leader's 12: one unit of each platoon must
find room elsewhere or stay Out of Command), plus one crew per platoon:

* ``one hex``: every unit in one hex (the issue's file), so every leader
  reaches every unit;
* ``spread``: the platoons laid out at random across a square map sized for
  about 2.5 units a hex (20 x 20 for 1,000 units, 200 x 200 for 100,000),
  each platoon in a cluster of adjacent hexes, 5% of the leaders broken.

The reference is the plainest linear pass a command status needs: for
each squad, half-squad and crew, the first Good Order leader within radius
found by a dict look-up of the hexes around it (no 6-squad limit, no
assignment).  "ratio" is command_status time / reference time; a near-linear
command status keeps it roughly constant from 1,000 to 100,000 units.  Peak
memory is measured with tracemalloc in a separate run (it slows the code).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from types import MappingProxyType

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    Formation,
    FormationKind,
    LeaderRating,
    MapData,
    Nationality,
    Scenario,
    Side,
    Unit,
    UnitClass,
    UnitKind,
)
from gwasl.rules.command import command_status
from gwasl.rules.units import base_command_radius

DATE = _dt.date(1917, 6, 1)  # radius 3 (ASLGW 1.3.13)
PLATOON = 9  # leader, six squads, one half-squad, one crew


def scenario(n_units: int, layout: str, seed: int = 1) -> Scenario:
    """About ``n_units`` units of one side in platoons of :data:`PLATOON` (see the module doc)."""
    rng = random.Random(seed)
    units: list[Unit] = []
    formations: list[Formation] = []
    rating = LeaderRating.parse("8-0")
    # Spread: about 2.5 units a hex whatever the size (a square map, at most 200 x 200).
    side = min(200, max(8, round((n_units / 2.5) ** 0.5)))
    centre = Hex.from_offset(side // 2, side // 2)
    for k in range(max(1, n_units // PLATOON)):
        fid = f"P{k}"
        formations.append(Formation(fid, FormationKind.PLATOON, f"L{k}"))
        if layout == "one hex":
            hexes = [centre] * PLATOON
        else:
            c = Hex.from_offset(rng.randrange(1, side - 1), rng.randrange(1, side - 1))
            around = [x for x in c.within(1) if x.on_board(side, side)]
            hexes = [rng.choice(around) for _ in range(PLATOON)]
        broken = layout == "spread" and rng.random() < 0.05
        units.append(Unit(f"L{k}", "a", UnitKind.LEADER, hexes[0], rating=rating, platoon=fid, broken=broken))
        for i in range(6):
            units.append(Unit(f"S{k}-{i}", "a", UnitKind.SQUAD, hexes[1 + i], unit_class=UnitClass.FIRST_LINE, platoon=fid))
        units.append(Unit(f"H{k}", "a", UnitKind.HALF_SQUAD, hexes[7], unit_class=UnitClass.FIRST_LINE, platoon=fid))
        units.append(Unit(f"C{k}", "a", UnitKind.CREW, hexes[8]))
    sides = MappingProxyType({"a": Side("a", Nationality.BRITISH), "b": Side("b", Nationality.GERMAN)})
    return Scenario(f"{layout} {n_units}", DATE, MapData(side, side), sides, tuple(units), tuple(formations))


def reference(s: Scenario) -> int:
    """The plain linear pass: units with a Good Order leader within radius, no limit."""
    r = base_command_radius(s.date).radius
    leaders: dict[Hex, str] = {}
    for u in s.units:
        if u.kind is UnitKind.LEADER and not u.broken:
            leaders.setdefault(u.hex, u.id)
    near: dict[Hex, str | None] = {}
    n = 0
    for u in s.units:
        if u.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW):
            got = near.get(u.hex, "?")
            if got == "?":
                got = near[u.hex] = next((leaders[x] for x in u.hex.within(r) if x in leaders), None)
            n += got is not None
    return n


def fresh_status(s: Scenario) -> object:
    return command_status(replace(s), "a")


def fresh_reference(s: Scenario) -> object:
    return reference(replace(s))


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs (garbage collector off while timing)."""
    out = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
        gc.enable()
    return statistics.median(out)


def peak_mib(fn: Callable[[], object]) -> float:
    gc.collect()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    p = argparse.ArgumentParser(description="command status benchmark (issue 17)")
    p.add_argument("--sizes", type=int, nargs="+", default=[1_000, 20_000, 100_000])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="1,000 and 2,000 units, one run each (make test's smoke run)")
    a = p.parse_args()
    if a.quick:
        a.sizes, a.repeat = [1_000, 2_000], 1
    for layout in ("one hex", "spread"):
        for n in a.sizes:
            s = scenario(n, layout)
            report = command_status(s, "a")  # warm-up, and the figure printed
            inside = sum(st.in_command for st in report.units.values())
            # A fresh Scenario object each run: nothing cached from the last one.
            t = timed(partial(fresh_status, s), a.repeat)
            ref = timed(partial(fresh_reference, s), a.repeat)
            mem = peak_mib(partial(fresh_status, s))
            print(
                f"{layout:<7} {len(s.units):>6} units: command status {t:.3f} s ({t / len(s.units) * 1e6:.1f} us a unit), "
                f"peak {mem:.1f} MiB, {inside} In Command; plain pass {ref:.4f} s; ratio {t / ref:.1f}"
            )


if __name__ == "__main__":
    main()
