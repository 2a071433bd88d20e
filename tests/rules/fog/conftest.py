"""Builders for fog-of-war tests: small scenarios and explicit LOS predicates."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Scenario
from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.fog.env import FogEnv
from gwasl.rules.fog.state import Clock, FogState


def build_scenario(units: Iterable[dict] = (), dummies: Iterable[dict] = (), forts: Iterable[dict] = (),
                   hexes: dict | None = None, night: bool = False, date: str = "1916-06-01",
                   weather: str = "clear", fog: dict | None = None, side_fog: dict | None = None,
                   columns: int = 12, rows: int = 10, winter: bool = False) -> Scenario:
    sides: dict[str, Any] = {"german": {"nationality": "german"}, "french": {"nationality": "french"}}
    for side, f in (side_fog or {}).items():
        sides[side]["fog"] = f
    doc: dict[str, Any] = {
        "format": "gwasl-scenario/1", "title": "fog test", "date": date, "night": night, "weather": weather,
        "winter": winter,
        "map": {"columns": columns, "rows": rows, "hexes": hexes or {}, "fortifications": list(forts)},
        "sides": sides, "units": list(units), "dummies": list(dummies),
    }
    if fog is not None:
        doc["fog"] = fog
    return parse_scenario(doc)


def H(label: str) -> Hex:
    return Hex.from_label(label)


def sees_only(targets: Iterable[str]):
    """An explicit LOS predicate: an enemy sees exactly the listed hexes."""
    hexes = {H(t) for t in targets}

    def factory(_scenario):
        def sees(a, b, a_in=None, b_in=None):
            return b in hexes

        return sees

    return factory


def env_seeing(targets: Iterable[str] = (), **kw) -> FogEnv:
    return FogEnv(sees_factory=sees_only(targets), **kw)


def state_at(scenario: Scenario, phasing: str, phase: Phase, turn: int = 1) -> tuple[FogState, Clock]:
    """The scenario's fog layer and the clock at the start of ``phasing``'s ``phase``: the
    game keeps the clock (and the shift ledger) and passes them to the rule functions."""
    return FogState.from_scenario(scenario), Clock(turn, phasing, phase)


@pytest.fixture
def kit():
    class Kit:
        build = staticmethod(build_scenario)
        hx = staticmethod(H)
        env = staticmethod(env_seeing)
        at = staticmethod(state_at)

    return Kit
