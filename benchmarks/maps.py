"""Seeded generator of large random maps for benchmarks and property tests.

``random_scenario(columns, rows, seed=...)`` gives a valid scenario whose map
has, by default, about 25% blocking hexes (woods, buildings, rubble; half of
them drawn as custom outlines smaller than the hex), 10% hindrance hexes and
a few hills, so every code path of LOS is exercised.  The same seed always
gives the same map.  A helper of the benchmarks and tests, not a benchmark
itself: ``make bench`` runs only the scripts with a main block.
To write one to a file::

    python -c "from benchmarks.maps import random_scenario; from gwasl.model.scenario_io import save_scenario; \
save_scenario(random_scenario(132, 40, seed=1), 'big.json')"
"""

from __future__ import annotations

import datetime as _dt
import math
import random
from types import MappingProxyType

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HexData, MapData, Nationality, Scenario, Side, Terrain

__all__ = ["random_scenario", "random_outline"]

_BLOCKING = (Terrain.WOODS, Terrain.WOODS, Terrain.STONE_BUILDING, Terrain.WOODEN_BUILDING, Terrain.STONE_RUBBLE)
_HINDRANCE = (Terrain.BRUSH, Terrain.GRAIN, Terrain.ORCHARD)


def random_outline(rng: random.Random) -> list[list[float]]:
    """A star-shaped simple polygon inside the hex (hex-local units, circumradius 1)."""
    k = rng.randint(3, 8)
    # Evenly spread angles with jitter: sorted, never wrapping, so the polygon
    # stays simple even after its vertices snap to the fine grid.
    angles = [2 * math.pi * (i + rng.uniform(0.0, 0.6)) / k for i in range(k)]
    cx, cy = rng.uniform(-0.2, 0.2), rng.uniform(-0.15, 0.15)
    pts = []
    for a in angles:
        r = rng.uniform(0.25, 0.62)
        pts.append([round(cx + r * math.cos(a), 4), round(cy + r * math.sin(a), 4)])
    return pts


def random_scenario(
    columns: int,
    rows: int,
    seed: int = 1,
    blocking: float = 0.25,
    hindrance: float = 0.10,
    outline_share: float = 0.5,
    hills: int | None = None,
) -> Scenario:
    """A seeded random scenario of ``columns`` x ``rows`` hexes (see module doc)."""
    rng = random.Random(seed)
    levels: dict[Hex, int] = {}
    n_hills = hills if hills is not None else max(1, columns * rows // 400)
    for _ in range(n_hills):
        c = Hex.from_offset(rng.randrange(columns), rng.randrange(rows))
        for h in c.within(rng.randint(1, 3)):
            levels[h] = max(levels.get(h, 0), 1)
        if rng.random() < 0.4:
            levels[c] = 2
    hexes = {}
    for col in range(columns):
        for row in range(rows):
            h = Hex.from_offset(col, row)
            x = rng.random()
            extra = {}
            if x < blocking:
                t = rng.choice(_BLOCKING)
                if rng.random() < outline_share:
                    extra["outline"] = random_outline(rng)
            elif x < blocking + hindrance:
                t = rng.choice(_HINDRANCE)
            else:
                t = None
            lv = levels.get(h, 0)
            if t is not None or lv:
                hexes[h] = HexData(t, lv, None, MappingProxyType(extra))
    m = MapData(columns, rows, Terrain.OPEN, MappingProxyType(hexes))
    sides = {"a": Side("a", Nationality.GERMAN), "b": Side("b", Nationality.FRENCH)}
    return Scenario(f"random {columns}x{rows} seed {seed}", _dt.date(1916, 7, 1), m, MappingProxyType(sides))
