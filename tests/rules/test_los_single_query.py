"""One LOS rule, two ways to ask it (CONTRACTS 3; ASL A6.2; ASLGW 2.1): a single query
traces its line in plain Python (no numpy, no templates of the whole map: issue 23 item 8),
bulk queries read the numpy index; both give the same answers.

Checked: the plain-integer template of one offset is exactly :func:`build_templates`'s
(every offset of a 41 x 41 window, hexside and vertex directions included); on every
bundled scenario's map, thousands of hex pairs get the same answer from a single query
made before any map template exists, from the bulk check, from the one-to-all map and
from a single query made once the map's templates are built.
"""

from __future__ import annotations

import random

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario_io import load_scenario
from gwasl.rules import los_kernel
from gwasl.rules.los import LosIndex
from gwasl.rules.los_kernel import build_templates, offset_template, offset_template_numpy
from testsupport import ROOT

SCENARIOS = sorted((ROOT / "gwasl" / "scenarios").glob("*.json"))


def test_one_offsets_plain_template_is_build_templates_own():
    """CONTRACTS 3: the hexes a line crosses, where it enters and leaves each, and the
    hexsides it runs along, for every offset up to 20 hexes away, from one vectorised build."""
    offsets = [(dq, dr) for dq in range(-20, 21) for dr in range(-20, 21)]
    t = build_templates([o[0] for o in offsets], [o[1] for o in offsets])
    ent = list(zip(*(a.tolist() for a in (t.hq, t.hr, t.hx, t.hy, t.n0, t.d0, t.n1, t.d1))))
    prs = list(zip(*(a.tolist() for a in (t.p1q, t.p1r, t.pk, t.u0n, t.u0d, t.u1n, t.u1d))))
    start, pstart = t.start.tolist(), t.pstart.tolist()
    with_pairs = 0
    for i, (dq, dr) in enumerate(offsets):
        want = (tuple(ent[start[i]:start[i + 1]]), tuple(prs[pstart[i]:pstart[i + 1]]))
        assert los_kernel._scalar_template(dq, dr) == want, (dq, dr)
        with_pairs += bool(want[1])
    assert with_pairs > 50  # lines along hexsides are among them
    assert offset_template(7, -3) == offset_template_numpy(7, -3)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_single_queries_bulk_and_one_to_all_agree_on_every_bundled_map(path, monkeypatch):
    """CONTRACTS 3 / ASL A6.2 / ASLGW 2.1: the same LOS rule however it is asked."""
    monkeypatch.setattr(los_kernel, "_BUILT", {})  # no map templates yet: single queries trace alone
    s = load_scenario(path)
    hexes = list(s.map)
    rng = random.Random(path.stem)
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(1500)]
    idx = LosIndex(s)
    alone = [idx.los(a, b) for a, b in pairs]
    assert "top_full" not in vars(idx)  # no numpy array was made for them
    assert los_kernel.peek_map_templates(s.map.columns, s.map.rows, 0) is None
    assert los_kernel.peek_map_templates(s.map.columns, s.map.rows, 1) is None
    bulk = idx.clear_many([a for a, _ in pairs], [b for _, b in pairs]).tolist()
    assert bulk == [r.clear for r in alone]
    assert 0 < sum(bulk) < len(bulk)  # both answers occur
    for a in rng.sample(hexes, 4):
        assert idx.visible_from(a) == {b for b in hexes if idx.los(a, b).clear}
    fresh = LosIndex(s)  # the map's templates are now built (some offsets at least): the other path
    assert [fresh.los(a, b) for a, b in pairs] == alone


def test_a_single_query_on_a_hill_and_an_outline_map_agrees_with_bulk(monkeypatch):
    """ASL A6.2: level lines at an obstacle's top, a hill's ground and drawn outlines
    (the exact fallback) answered alike by both paths."""
    from benchmarks.maps import random_scenario

    monkeypatch.setattr(los_kernel, "_BUILT", {})
    s = random_scenario(18, 14, seed=4, hills=14)
    hexes = list(s.map)
    rng = random.Random(4)
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(1500)]
    idx = LosIndex(s)
    alone = [idx.los(a, b) for a, b in pairs]
    assert idx.clear_many([a for a, _ in pairs], [b for _, b in pairs]).tolist() == [r.clear for r in alone]
    assert [LosIndex(s).los(a, b) for a, b in pairs] == alone
    assert Hex(0, 0) in idx.visible_from(Hex(0, 0))
