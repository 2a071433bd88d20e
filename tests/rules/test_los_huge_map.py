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
