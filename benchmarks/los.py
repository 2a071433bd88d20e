"""LOS speed (issue 3, deliverable 4): prints figures and the ratio against the
plain Shapely reference (gwasl.rules.los_reference) measured in the same run.

    python -m benchmarks.los [--columns 132 --rows 40 --seed 1] [--quick]

Map: benchmarks.maps.random_scenario, 16 boards (132 x 40 hexes), ~25%
blocking hexes (half of them custom outlines), ~10% hindrances, some hills.
Targets (issue 3): single query <= 50 us median; one-to-all <= 16 ms median;
bulk >= 250,000 checks/s; >= 40x the reference's throughput.

The templates are built lazily per offset (issue 10 item 13), so the figures
"including the build" are what a first query pays on a map size nothing has
queried yet: a single query builds its one offset, a first one-to-all the
offsets from its hex; the whole map's templates are timed for comparison.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
import shapely

from benchmarks.maps import random_scenario
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HexData, Terrain
from gwasl.rules import los_kernel
from gwasl.rules.los import LosIndex
from gwasl.rules.los_geometry import fine_centre
from gwasl.rules.los_kernel import map_templates
from gwasl.rules.los_reference import ReferenceLos


def _forget_templates() -> None:
    """Drop every template built so far: the next query pays its own build."""
    los_kernel._BUILT.clear()
    los_kernel.offset_template.cache_clear()


def main() -> None:
    p = argparse.ArgumentParser(description="LOS benchmark")
    p.add_argument("--columns", type=int, default=132)
    p.add_argument("--rows", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--single", type=int, default=3000, help="single queries timed")
    p.add_argument("--sources", type=int, default=40, help="one-to-all sources timed")
    p.add_argument("--bulk", type=int, default=400_000, help="pairs in the bulk run")
    p.add_argument("--reference", type=int, default=600, help="pairs run through the reference")
    p.add_argument("--cold", type=int, default=15, help="first queries timed with nothing built")
    p.add_argument("--quick", action="store_true", help="a small map and few queries (a smoke run, figures meaningless)")
    a = p.parse_args()
    if a.quick:
        a.columns, a.rows, a.single, a.sources, a.bulk, a.reference, a.cold = 20, 10, 50, 3, 2000, 30, 3

    s = random_scenario(a.columns, a.rows, seed=a.seed)
    m = s.map
    hexes = list(m)
    n_block = sum(1 for d in m.hexes.values() if d.terrain is not None and d.terrain.value in ("woods", "stone_building", "wooden_building", "stone_rubble"))
    n_outline = sum(1 for d in m.hexes.values() if d.extra.get("outline") is not None)
    n_hind = sum(1 for d in m.hexes.values() if d.terrain is not None and d.terrain.value in ("brush", "grain", "orchard"))
    n_hill = sum(1 for d in m.hexes.values() if d.level)
    print(f"map {a.columns} x {a.rows} = {len(hexes)} hexes: {n_block} blocking ({n_block / len(hexes):.0%}, {n_outline} drawn as outlines), "
          f"{n_hind} hindrance ({n_hind / len(hexes):.0%}), {n_hill} hill hexes")

    t = time.perf_counter()
    idx = LosIndex(s)
    print(f"LosIndex first build: {(time.perf_counter() - t) * 1e3:.1f} ms")

    # -- first queries on a map size nothing has queried: the build included -------------------
    rng = random.Random(a.seed + 1)
    cold_single, cold_one, cold_single_ref = [], [], []
    for _ in range(a.cold):
        x, y = rng.choice(hexes), rng.choice(hexes)
        _forget_templates()
        t0 = time.perf_counter_ns()
        idx.los(x, y)
        cold_single.append(time.perf_counter_ns() - t0)
        t0 = time.perf_counter_ns()
        idx.los(x, y)  # the same query again, its template now built
        cold_single_ref.append(time.perf_counter_ns() - t0)
        _forget_templates()
        t0 = time.perf_counter_ns()
        idx.visible_from(x)
        cold_one.append(time.perf_counter_ns() - t0)
    _forget_templates()
    t = time.perf_counter()
    for parity in (0, 1):
        map_templates(a.columns, a.rows, parity).ensure_all()
    whole_s = time.perf_counter() - t
    h0 = hexes[len(hexes) // 2]
    edited = s.with_map(m.with_hex(h0, HexData(Terrain.WOODS)))
    t = time.perf_counter()
    LosIndex(edited)
    print(f"LosIndex rebuild after a terrain edit: {(time.perf_counter() - t) * 1e3:.1f} ms")

    rng = random.Random(a.seed)
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(a.single)]
    for x, y in pairs[:200]:
        idx.los(x, y)  # warm the per-offset cache as a hovering user would
    times = []
    for x, y in pairs:
        t0 = time.perf_counter_ns()
        idx.los(x, y)
        times.append(time.perf_counter_ns() - t0)
    single_us = statistics.median(times) / 1e3

    srcs = [rng.choice(hexes) for _ in range(a.sources)]
    idx.visible_from(srcs[0])
    otimes = []
    for h in srcs:
        t0 = time.perf_counter_ns()
        idx.visible_from(h)
        otimes.append(time.perf_counter_ns() - t0)
    one_ms = statistics.median(otimes) / 1e6

    stride = a.rows + 2
    cols = np.array([rng.randrange(a.columns) for _ in range(2 * a.bulk)])
    rows = np.array([rng.randrange(a.rows) for _ in range(2 * a.bulk)])
    flat = (cols + 1) * stride + rows + 1
    fa, fb = flat[: a.bulk], flat[a.bulk:]
    t0 = time.perf_counter()
    bulk = idx.clear_many_flat(fa, fb)
    bulk_rate = a.bulk / (time.perf_counter() - t0)

    # Bulk on short lines (range <= 10), where many more lines are clear and
    # every hex of each line is examined.
    near_a, near_b = [], []
    while len(near_a) < a.bulk // 4:
        x = rng.choice(hexes)
        y = Hex(x.q + rng.randint(-10, 10), x.r + rng.randint(-10, 10))
        if m.contains(y) and x.distance(y) <= 10:
            near_a.append(idx.flat(x))
            near_b.append(idx.flat(y))
    t0 = time.perf_counter()
    near = idx.clear_many_flat(np.array(near_a), np.array(near_b))
    near_rate = len(near_a) / (time.perf_counter() - t0)

    ref = ReferenceLos(s)
    rpairs = pairs[: a.reference]
    t0 = time.perf_counter()
    rres = [ref.clear(x, y) for x, y in rpairs]
    ref_rate = len(rpairs) / (time.perf_counter() - t0)
    agree = sum(idx.los(x, y).clear == r for (x, y), r in zip(rpairs, rres))
    # Level lines between hill hexes of one level, where obstacles at the line's
    # height block (ASL A6.2) and hills do not: agreement in every path.
    hills_by_level: dict[int, list[Hex]] = {}
    for h in hexes:
        if m.level_at(h) > 0:
            hills_by_level.setdefault(m.level_at(h), []).append(h)
    lv_pools = [v for v in hills_by_level.values() if len(v) > 1]
    lpairs = [tuple(rng.sample(rng.choice(lv_pools), 2)) for _ in range(300)] if lv_pools else []
    lbulk = idx.clear_many([x for x, _ in lpairs], [y for _, y in lpairs]) if lpairs else []
    lagree = sum(ref.clear(x, y) == idx.los(x, y).clear == bool(f) for (x, y), f in zip(lpairs, lbulk))

    # For scale only: the fastest plain Shapely check, a prepared union of the
    # blocking polygons against each LineString, vectorised (2-D: ignores
    # heights, hexsides and grazing; not a correct LOS).
    polys = [shapely.Polygon(ring) for _h, ring, _top, _full, _at_top in ref.obstacles]
    union = shapely.union_all(polys)
    shapely.prepare(union)
    nflat = 100_000
    pa = np.array([fine_centre(x) for x, _ in pairs] * (nflat // len(pairs) + 1))[:nflat]
    pb = np.array([fine_centre(y) for _, y in pairs] * (nflat // len(pairs) + 1))[:nflat]
    lines = shapely.linestrings(np.stack([pa, pb], axis=1))
    t0 = time.perf_counter()
    shapely.intersects(union, lines)
    union_rate = nflat / (time.perf_counter() - t0)

    def mark(ok: bool) -> str:
        return "meets target" if ok else "MISSES target"

    cs_us = statistics.median(cold_single) / 1e3
    cr_us = statistics.median(cold_single_ref) / 1e3
    co_ms = statistics.median(cold_one) / 1e6
    print(f"single query including the build of its template (nothing built before), median of {a.cold}: {cs_us:.0f} us, "
          f"max {max(cold_single) / 1e3:.0f} us; the same query again: {cr_us:.0f} us; ratio {cs_us / cr_us:.1f}x")
    print(f"first one-to-all including the build of its hex's offsets (nothing built before), median of {a.cold}: {co_ms:.0f} ms, "
          f"max {max(cold_one) / 1e6:.0f} ms")
    print(f"reference: the whole map's templates, both parities (what a first one-to-all built before): {whole_s * 1e3:.0f} ms; "
          f"ratio whole / first one-to-all: {whole_s * 1e3 / co_ms:.0f}x")
    print(f"single query (LosIndex.los, full result), median: {single_us:.1f} us   [<= 50 us: {mark(single_us <= 50)}]")
    print(f"one source to every hex (visible_from), median: {one_ms:.2f} ms   [<= 16 ms: {mark(one_ms <= 16)}]")
    print(f"bulk checks (clear_many): {bulk_rate:,.0f} /s ({bulk.mean():.0%} clear)   [>= 250,000/s: {mark(bulk_rate >= 250_000)}]")
    print(f"bulk checks, short lines (range <= 10): {near_rate:,.0f} /s ({near.mean():.0%} clear)   [>= 250,000/s: {mark(near_rate >= 250_000)}]")
    print(f"reference (Shapely LineString vs each obstacle, STRtree): {ref_rate:,.0f} /s = {1e6 / ref_rate:.0f} us per check")
    print(f"ratio bulk / reference throughput: {bulk_rate / ref_rate:,.0f}x   [>= 40x: {mark(bulk_rate / ref_rate >= 40)}]")
    print(f"ratio single query / reference: {(1e6 / ref_rate) / single_us:,.0f}x faster per query")
    print(f"for scale, 2-D prepared Shapely union (inexact): {union_rate:,.0f} /s = {1e6 / union_rate:.1f} us per check; "
          f"bulk is {bulk_rate / union_rate:.1f}x that")
    print(f"agreement with the reference: {agree}/{len(rpairs)} pairs")
    print(f"agreement on level lines between hill hexes (single, bulk, reference): {lagree}/{len(lpairs)} pairs "
          f"({sum(1 for f in lbulk if not f)} blocked)")


if __name__ == "__main__":
    main()
