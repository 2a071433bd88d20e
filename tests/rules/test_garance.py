"""ASLGW 1.7 garance trousers, concealment part: 1.7.2 (no concealment in an
enemy LOS in Open Ground at any range) and 1.7.3 (winter, mud, mist, fog,
night); the dates of 1.7 / 1.7.1 (1914 to May 1915)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HiddenStatus, MapData, Nationality, Scenario, Side, Unit, UnitKind, Weather
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules import garance as g


def scen(date=dt.date(1914, 9, 6), **kw):
    return Scenario("t", date, MapData(5, 5), {"fr": Side("fr", Nationality.FRENCH), "de": Side("de", Nationality.GERMAN)}, **kw)


FR = Unit("f", "fr", UnitKind.SQUAD, Hex(0, 0), hidden=HiddenStatus.CONCEALED)


@pytest.mark.parametrize("date, worn", [
    (dt.date(1914, 8, 2), True), (dt.date(1915, 4, 30), True),
    (dt.date(1915, 5, 31), True),  # "between 1914 and May 1915" (1.7.1): May included
    (dt.date(1915, 6, 1), False), (dt.date(1916, 2, 21), False),
])
def test_garance_dates_aslgw_1_7(date, worn):
    assert g.wears_garance(scen(date), FR) is worn
    assert g.garance_rule().worn_until == dt.date(1915, 5, 31)


def test_only_french_infantry_wears_it_aslgw_1_7():
    s = scen()
    assert not g.wears_garance(s, dataclasses.replace(FR, side="de"))
    assert not g.wears_garance(s, Unit("mg", "fr", UnitKind.SUPPORT_WEAPON, Hex(0, 0), weapon="St. Etienne"))
    assert g.wears_garance(s, Unit("l", "fr", UnitKind.LEADER, Hex(0, 0)))


@pytest.mark.parametrize("kw", [dict(winter=True), dict(weather=Weather.MUD), dict(weather=Weather.MIST),
                                dict(weather=Weather.FOG), dict(night=True)])
def test_exceptions_aslgw_1_7_3(kw):
    s = scen(**kw)
    assert not g.wears_garance(s, FR)
    r = g.garance_concealment_loss(s, FR, in_enemy_los=True, in_open_ground=True)
    assert not r.loses_concealment and r.rule == "ASLGW 1.7.3" and "1.7.3" in r.reason


def test_concealment_lost_in_enemy_los_in_open_ground_at_any_range_aslgw_1_7_2():
    s = scen()
    assert g.garance_concealment_loss(s, FR, True, True).loses_concealment
    assert g.garance_concealment_loss(s, dataclasses.replace(FR, hidden=HiddenStatus.HIP), True, True).loses_concealment
    assert not g.garance_concealment_loss(s, FR, False, True).loses_concealment
    assert not g.garance_concealment_loss(s, FR, True, False).loses_concealment
    assert not g.garance_concealment_loss(s, dataclasses.replace(FR, hidden=HiddenStatus.NONE), True, True).loses_concealment
    assert not g.garance_concealment_loss(scen(dt.date(1915, 7, 1)), FR, True, True).loses_concealment


def test_malformed_garance_table():
    doc = load_resource("combat.json")
    doc["garance"]["worn_until"] = "May 1915"
    with pytest.raises(TableError, match=r"garance\.worn_until"):
        g.parse_garance(doc)


def test_concealment_now_may_differ_from_the_set_up_status_aslgw_1_7_2():
    """ASLGW 1.7.2 with O'Leary 2.4: the fog layer asks about a unit hidden now (it gained
    concealment in play, or is about to shift) whatever its set-up ``hidden``: the same rule
    function answers (issue 10 item 11, one implementation of 1.7.2)."""
    plain = dataclasses.replace(FR, hidden=HiddenStatus.NONE)
    assert not g.garance_concealment_loss(scen(), plain, True, True).loses_concealment
    assert g.garance_concealment_loss(scen(), plain, True, True, concealed=True).loses_concealment
    assert not g.garance_concealment_loss(scen(), FR, True, True, concealed=False).loses_concealment
