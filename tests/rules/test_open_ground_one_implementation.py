"""ASLGW 1.7.2's Open Ground has one implementation (gwasl.rules.garance.in_open_ground): the
fog layer's O'Leary 2.4 consistency test (a unit that would lose concealment at once) calls it
instead of its own copy of the test."""

from __future__ import annotations

import datetime

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HiddenStatus, MapData, Nationality, Position, Scenario, Side, Unit, UnitKind
from gwasl.rules.fog import env


def _french_1914() -> tuple[Scenario, Unit]:
    s = Scenario("t", datetime.date(1914, 8, 22), MapData(5, 5), {"fr": Side("fr", Nationality.FRENCH)})
    return s, Unit("f", "fr", UnitKind.SQUAD, Hex(1, 1), hidden=HiddenStatus.CONCEALED)


def test_garance_in_open_ground_loses_concealment_ASLGW_1_7_2():
    s, u = _french_1914()
    why = env.default_concealment_loss(s, u, Hex(1, 1), Position.GROUND, True)
    assert why is not None and "ASLGW 1.7.2" in why
    assert env.default_concealment_loss(s, u, Hex(1, 1), Position.GROUND, False) is None


def test_the_fog_layer_asks_garance_what_open_ground_is(monkeypatch):
    """The fog layer decides nothing about Open Ground itself: with the garance rule's
    answer changed, its answer changes (ASLGW 1.7.2; one implementation per rule)."""
    s, u = _french_1914()
    asked = []

    def nowhere_open(scenario, h, position):
        asked.append((h, position))
        return False

    monkeypatch.setattr(env, "in_open_ground", nowhere_open)
    assert env.default_concealment_loss(s, u, Hex(1, 1), Position.GROUND, True) is None
    assert asked == [(Hex(1, 1), Position.GROUND)]
