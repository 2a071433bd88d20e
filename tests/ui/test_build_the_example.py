"""Issue 6 "done when": the shared example scenario can be built from an empty map
with the editor alone.  The screenshot script does exactly that with mouse events
on the real widgets; here we check the result against the shipped example."""

from __future__ import annotations

import importlib.util
from collections import Counter

from gwasl.model.scenario_io import load_scenario
from gwasl.rules.validate import validate_scenario
from testsupport import EXAMPLE_PATH, ROOT


def _script():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_build_the_example_from_an_empty_map(window, tmp_path):
    shots = []
    _script().build_example(window, shots.append)
    assert len(shots) == 10
    built, example = window.document.scenario, load_scenario(EXAMPLE_PATH)
    assert validate_scenario(built).valid
    assert (built.title, built.date, built.winter) == (example.title, example.date, example.winter)
    assert built.map.hexes == example.map.hexes
    assert {(f.kind, f.hexes, f.owner, f.ladders) for f in built.map.fortifications} == {
        (f.kind, f.hexes, f.owner, f.ladders) for f in example.map.fortifications
    }
    assert {(d.side, d.kind, d.hex, d.counters) for d in built.dummies} == {(d.side, d.kind, d.hex, d.counters) for d in example.dummies}

    def setup(s):
        return Counter((u.side, u.kind, u.hex, u.position, u.hidden, u.unit_class, str(u.rating) if u.rating else None, u.weapon) for u in s.units)

    assert setup(built) == setup(example)
    assert sorted((f.kind, len(built.members(f.id))) for f in built.formations) == sorted((f.kind, len(example.members(f.id))) for f in example.formations)
    assert all(built.unit(f.leader).kind.value == "leader" for f in built.formations)
