"""Control re-judged only where units came, went or changed (A26.11-26.15): the same
truth and the same beliefs as judging every unit after every event, over playouts of
every bundled scenario, with and without a side kept secret (hidden units)."""

from __future__ import annotations

import random

import pytest

import gwasl.games.aslgw.victory as vic
from games.aslgw.playout import new_session, pick, scenario_paths, source


@pytest.mark.parametrize("path", scenario_paths(), ids=lambda p: p.stem)
def test_incremental_control_equals_judging_every_unit_a26_11(path, monkeypatch):
    real = vic.settle
    compared = []

    def both(fog, v):
        monkeypatch.setattr(vic, "FULL_JUDGING", True)
        full = real(fog, v)
        monkeypatch.setattr(vic, "FULL_JUDGING", False)
        assert real(fog, v) == full
        compared.append(1)
        return full

    monkeypatch.setattr(vic, "settle", both)
    doc = source(path)
    for seed, secret in ((1, ()), (2, (next(iter(doc["sides"])),))):
        s = new_session(doc, seed, secret)
        rng = random.Random(seed)
        for _ in range(80):
            legal = s.legal()
            if s.status().over or not legal:
                break
            s.act(pick(legal, rng).action)
    assert len(compared) >= 5
