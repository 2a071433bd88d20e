"""The map templates of the LOS kernel are built lazily per offset (issue 10 item 13).

A one-to-all query builds only the offsets from its own hex that no query
built before, so the first LOS-map hover on a big map costs tens of
milliseconds instead of the whole map's seconds; the answers are the same as
with the complete templates (CONTRACTS 3 through gwasl.rules.los).
"""

from __future__ import annotations

import random
import threading

import numpy as np

from benchmarks.maps import random_scenario
from gwasl.model.hexgrid import Hex
from gwasl.rules import los_kernel
from gwasl.rules.los import LosIndex


def _fresh(columns: int, rows: int, seed: int) -> LosIndex:
    # A map size no other test uses, with its templates dropped: every test starts from nothing built.
    for parity in (0, 1):
        los_kernel._BUILT.pop((columns, rows, parity), None)
    return LosIndex(random_scenario(columns, rows, seed=seed, hills=3))


def test_one_to_all_builds_only_its_own_offsets():
    C, R = 23, 13
    idx = _fresh(C, R, seed=5)
    h = Hex.from_offset(10, 6)
    idx.visible_from(h)
    mt = los_kernel.peek_map_templates(C, R, h.column & 1)
    assert mt is not None and not mt.complete
    assert mt.n_built == C * R  # one offset per target hex, h itself included
    assert los_kernel.peek_map_templates(C, R, (h.column + 1) & 1) is None  # the other parity: untouched
    # A neighbour in a column of the same parity shares all but one row of offsets.
    idx.visible_from(Hex.from_offset(10, 7))
    assert mt.n_built == C * R + C


def test_lazy_templates_give_the_answers_of_complete_ones():
    C, R = 21, 15
    idx = _fresh(C, R, seed=11)
    rng = random.Random(11)
    hexes = list(idx.scenario.map)
    sources = rng.sample(hexes, 8)
    lazy = [idx.visible_from(h) for h in sources]
    a_s = [rng.choice(hexes) for _ in range(500)]
    b_s = [rng.choice(hexes) for _ in range(500)]
    lazy_bulk = idx.clear_many(a_s, b_s)
    lazy_single = [idx.los(a, b) for a, b in zip(a_s[:150], b_s[:150])]
    idx.prepare()
    for parity in (0, 1):
        mt = los_kernel.peek_map_templates(C, R, parity)
        assert mt is not None and mt.complete
    assert [idx.visible_from(h) for h in sources] == lazy
    assert list(idx.clear_many(a_s, b_s)) == list(lazy_bulk)
    assert [idx.los(a, b) for a, b in zip(a_s[:150], b_s[:150])] == lazy_single
    assert any(len(v) < len(hexes) for v in lazy) and lazy_bulk.any() and not lazy_bulk.all()


def test_lazy_pools_hold_the_same_templates_as_one_batch():
    """Offsets built in several calls, in any order, equal the same offsets built at once."""
    C, R = 9, 7
    mt = los_kernel.LazyMapTemplates(C, R, 1)
    order = np.random.default_rng(2).permutation(mt.n_offsets)
    for chunk in np.array_split(order, 7):
        mt.ensure(chunk)
    assert mt.complete and mt.ensure_all() == 0
    k = 2 * R - 1
    allo = np.arange(mt.n_offsets)
    once = los_kernel.templates_for(C, R, 1, allo // k - (C - 1), allo % k - (R - 1))
    for o in range(mt.n_offsets):
        s, e, s1, e1 = mt.start[o], mt.end[o], once.start[o], once.end[o]
        for name in ("rel", "n0", "d0", "n1", "d1"):
            assert getattr(mt, name)[s:e].tolist() == getattr(once, name)[s1:e1].tolist()
        ps, pe, ps1, pe1 = mt.pstart[o], mt.pend[o], once.pstart[o], once.pend[o]
        for name in ("p1rel", "p2rel", "pk", "u0n", "u0d", "u1n", "u1d"):
            assert getattr(mt, name)[ps:pe].tolist() == getattr(once, name)[ps1:pe1].tolist()


def test_queries_while_another_thread_completes_the_templates():
    """The UI answers hovers while a worker builds the rest (LosIndex.prepare): same answers."""
    C, R = 25, 17
    idx = _fresh(C, R, seed=3)
    rng = random.Random(3)
    sources = rng.sample(list(idx.scenario.map), 12)
    want = [LosIndex(idx.scenario).visible_from(h) for h in sources]  # shares the templates: warm them first
    for parity in (0, 1):
        los_kernel._BUILT.pop((C, R, parity), None)
    builder = threading.Thread(target=idx.prepare)
    builder.start()
    got = [idx.visible_from(h) for h in sources]
    builder.join()
    assert got == want
