"""One-to-all LOS on a map too big to keep its templates (issue 17.8): the
observer's templates are built a band of columns at a time, so memory stays
bounded, and the answers are those of the kept-templates path."""

from __future__ import annotations

import pytest

from benchmarks.maps import random_scenario
from gwasl.rules import los_kernel
from gwasl.rules.los import LosIndex


@pytest.mark.parametrize("batch", [1, 7, 14 * 3, 10_000])
def test_batched_one_to_all_equals_the_kept_templates(monkeypatch, batch):
    s = random_scenario(18, 14, seed=3, hills=9)
    kept = LosIndex(s)
    observers = [h for i, h in enumerate(s.map) if i % 37 == 0]
    want = [kept.visible_from(h) for h in observers]
    monkeypatch.setattr(los_kernel, "MAX_MAP_OFFSETS", 10)
    monkeypatch.setattr(LosIndex, "_HUGE_MAP_BATCH", batch)
    huge = LosIndex(s)
    assert [huge.visible_from(h) for h in observers] == want


def _gully_map():
    """A 22 x 16 open map with a level -1 gully, a hill with a level 2 top, woods
    (full hexes and outlines) on the hill and in the gully: every kind of floor."""
    import dataclasses
    from types import MappingProxyType

    from gwasl.model.hexgrid import Hex
    from gwasl.model.scenario import HexData, Terrain

    s = random_scenario(22, 16, seed=11, blocking=0.08, hindrance=0.1, hills=3)
    hexes = dict(s.map.hexes)
    for col in range(3, 8):
        h = Hex.from_offset(col, 9)
        old = hexes.get(h)
        hexes[h] = HexData(old.terrain if old else None, -1, None, old.extra if old else MappingProxyType({}))
    hexes[Hex.from_offset(12, 4)] = HexData(Terrain.OPEN, 2, None, MappingProxyType({}))
    return dataclasses.replace(s, map=dataclasses.replace(s.map, hexes=MappingProxyType(hexes)))


@pytest.mark.parametrize("stages", [(None,), (1, None), (1, 2, None), (3, 5, None), (8, 32, None)])
@pytest.mark.parametrize("make", ["random", "gully", "smoke"])
def test_staged_pruned_one_to_all_equals_the_whole_templates(monkeypatch, stages, make):
    """Issue 17.8: on a huge map a one-to-all query tests each line's hexes a stretch at a time
    (near the observer first) and only the hexes that can block (LosIndex._may_block): the
    answers are those of the whole templates, whatever the stretches, with hills, a gully
    below the observers, outlines and blocking counters."""
    from gwasl.model.hexgrid import Hex
    from gwasl.rules.los import LosCounter

    counters = None
    if make == "random":
        s = random_scenario(20, 15, seed=5, hills=6)
    else:
        s = _gully_map()
        if make == "smoke":
            counters = {Hex.from_offset(6, 7): [LosCounter("blaze", blocks=True, height=2.0)], Hex.from_offset(9, 3): [LosCounter("smoke", hindrance=3)]}
    kept = LosIndex(s, counters)
    observers = [h for i, h in enumerate(s.map) if i % 23 == 0] + [Hex.from_offset(4, 9), Hex.from_offset(12, 4)]
    want = [kept.visible_from(h) for h in observers]
    monkeypatch.setattr(los_kernel, "MAX_MAP_OFFSETS", 10)
    monkeypatch.setattr(LosIndex, "_HUGE_MAP_STAGES", stages)
    monkeypatch.setattr(LosIndex, "_HUGE_MAP_BATCH", 50)
    huge = LosIndex(s, counters)
    assert [huge.visible_from(h) for h in observers] == want


def test_open_map_builds_no_template(monkeypatch):
    """On an open map at one level nothing can block (LosIndex._may_block is empty): a
    one-to-all query on a huge map builds no template at all and sees every hex."""
    from gwasl.model.hexgrid import Hex
    from gwasl.rules import los as los_module

    s = random_scenario(30, 20, seed=1, blocking=0.0, hindrance=0.2, hills=0)
    monkeypatch.setattr(los_kernel, "MAX_MAP_OFFSETS", 10)

    def no_build(*a, **k):
        raise AssertionError("templates built for an open map")

    monkeypatch.setattr(los_module, "templates_for", no_build)
    assert LosIndex(s).visible_from(Hex.from_offset(0, 0)) == frozenset(s.map)


def test_one_gully_hex_builds_templates_only_for_the_lines_into_it(monkeypatch):
    """Lines are grouped by their lower end: on an open map with one level -1 hex, only the
    line down into that hex can meet a hex above its lower end (the open hexes at level 0),
    so only its template is built; the answers are the kept templates' (the gully hex below
    the open ground around it is not seen)."""
    import dataclasses
    from types import MappingProxyType

    from gwasl.model.hexgrid import Hex
    from gwasl.model.scenario import HexData
    from gwasl.rules import los as los_module

    s = random_scenario(30, 20, seed=1, blocking=0.0, hindrance=0.0, hills=0)
    gully = Hex.from_offset(17, 11)
    s = dataclasses.replace(s, map=dataclasses.replace(s.map, hexes=MappingProxyType({gully: HexData(None, -1, None, MappingProxyType({}))})))
    want = LosIndex(s).visible_from(Hex.from_offset(0, 0))
    assert gully not in want and len(want) == 30 * 20 - 1
    monkeypatch.setattr(los_kernel, "MAX_MAP_OFFSETS", 10)
    built = []
    real = los_module.templates_for

    def counting(columns, rows, parity, dcol, drow, *a, **k):
        built.append(len(dcol))
        return real(columns, rows, parity, dcol, drow, *a, **k)

    monkeypatch.setattr(los_module, "templates_for", counting)
    assert LosIndex(s).visible_from(Hex.from_offset(0, 0)) == want
    assert sum(built) <= len(LosIndex._HUGE_MAP_STAGES)  # one line, once per stretch
