"""ASLGW 1.11 unit factors and nationality special rules (gwasl/resources/nationalities.json).

The expected values below are transcribed from ASLGW v0.1.1 section 1.11 as
printed; a second test re-reads the source text itself when it is available.
"""

from __future__ import annotations

import copy
import datetime as dt
import doctest
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gwasl.rules.units as units
from gwasl.model.scenario_io import scenario_from_text
from gwasl.model.terrain import RESOURCES, TableError
from gwasl.rules.units import (
    NoUnitTableError,
    UnitFactors,
    UnitFactorsFormatError,
    UnitNotAvailableError,
    UnknownUnitClassError,
    combat_groups_from,
    elr_replacement,
    has_unit_table,
    infantry_movement,
    nationality_classes,
    nationality_traits,
    parse_nationalities,
    unit_factors,
    unit_factors_of,
)
from testsupport import source_text

SEED = source_text("seeds/004_4371414167e1669c.txt")

# (nationality, class, date, squad, half-squad) exactly as ASLGW 1.11 prints them.
TEXT_1_11 = [
    ("german", "stosstruppen", "1915-07-01", "4-4-8/8", "2-3-8/8"),  # 1.11.1, "after June 1915"
    ("german", "elite", "1914-08-01", "4-4-8/8", "2-3-8/7"),
    ("german", "first_line", "1914-08-01", "4-4-7/7", "2-3-7/6"),
    ("german", "second_line", "1914-08-01", "4-3-7/6", "2-2-7/6"),
    ("german", "landwehr", "1914-08-01", "3-3-6/5", "1-2-6/5"),
    ("french", "elite", "1915-04-30", "3-4-8/8", "1-3-8/8"),  # 1.11.2, prior to May 1915
    ("french", "elite", "1915-05-01", "4-4-8/8", "2-3-8/8"),  # after
    ("french", "first_line", "1915-04-30", "3-4-7/7", "1-3-7/6"),
    ("french", "first_line", "1915-05-01", "4-4-7/7", "2-3-7/6"),
    ("french", "second_line", "1914-08-01", "3-4-7/7", "1-3-7/6"),
    ("french", "second_line", "1918-08-01", "3-4-7/7", "1-3-7/6"),
    ("french", "territorial", "1916-02-21", "3-3-7/6", "1-2-7/6"),
    ("british", "elite", "1916-07-01", "4-5-8/8", "2-4-8/8"),  # 1.11.3
    ("british", "first_line", "1916-07-01", "4-4-7/7", "2-3-7/6"),
    ("british", "second_line", "1916-07-01", "4-3-6/6", "2-2-6/5"),
    ("us", "elite", "1918-06-06", "4-4-8/8", "2-3-8/7"),  # 1.11.4
    ("us", "first_line", "1918-06-06", "4-4-7/7", "2-3-7/6"),
    ("us", "second_line", "1918-06-06", "3-3-6/6", "1-2-6/5"),
]


@pytest.mark.parametrize("nat,cls,date,squad,half", TEXT_1_11)
def test_aslgw_1_11_factors_match_text(nat, cls, date, squad, half):
    """ASLGW 1.11.1 (German), 1.11.2 (French), 1.11.3 (British), 1.11.4 (US): every squad and half-squad entry."""
    assert unit_factors(date, nat, cls, "squad").printed == squad
    assert unit_factors(date, nat, cls, "half_squad").printed == half


def test_aslgw_1_11_data_file_has_exactly_the_text_entries():
    """ASLGW 1.11: the data file holds these classes and no others, and every
    period's numbers appear in the transcription above."""
    doc = json.loads((RESOURCES / "nationalities.json").read_text())
    seen = set()
    for nat, entry in doc["nationalities"].items():
        for cls, c in (entry["classes"] or {}).items():
            for p in c["periods"]:
                date = p["from"] or (p["until"] or "1916-06-01")
                seen.add((nat, cls, p["squad"], p["half_squad"]))
                assert any(r[:2] == (nat, cls) and r[3:] == (p["squad"], p["half_squad"]) for r in TEXT_1_11), (nat, cls, date)
    assert seen == {(r[0], r[1], r[3], r[4]) for r in TEXT_1_11}


def _text_section(text: str, start: str, end: str) -> str:
    return text[text.index(start): text.index(end, text.index(start))]


@pytest.mark.skipif(not SEED.exists(), reason="ASLGW source text not on this machine")
def test_aslgw_1_11_numbers_against_the_source_text():
    """ASLGW 1.11: parse the factor strings of the source text and compare them,
    in order, with the data file (every number checked against the text)."""
    text = SEED.read_text(encoding="utf-8")
    pattern = re.compile(r"\d-\d-\d/\d")
    sections = {
        "german": _text_section(text, "### 1.11.1 German", "### 1.11.2"),
        "french": _text_section(text, "### 1.11.2 French", "### 1.11.3"),
        "british": _text_section(text, "### 1.11.3 British", "### 1.11.4"),
        "us": _text_section(text, "### 1.11.4 US", "## 2 Terrain"),
    }
    doc = json.loads((RESOURCES / "nationalities.json").read_text())
    for nat, sec in sections.items():
        in_text = pattern.findall(sec)
        in_data = []
        for c in doc["nationalities"][nat]["classes"].values():
            if len(c["periods"]) == 1:
                in_data += [c["periods"][0]["squad"], c["periods"][0]["half_squad"]]
            else:  # the French text prints both squads first, then both half-squads
                in_data += [p["squad"] for p in c["periods"]] + [p["half_squad"] for p in c["periods"]]
        assert in_data == in_text, nat


def test_aslgw_1_11_2_french_boundary_is_1_may_1915():
    """ASLGW 1.11.2: 'prior to May 1915' ends on 30 April; 1 May 1915 has the new factors."""
    assert str(unit_factors(dt.date(1915, 4, 30), "french", "elite")) == "3-4-8"
    assert str(unit_factors(dt.date(1915, 5, 1), "french", "elite")) == "4-4-8"
    assert str(unit_factors(dt.date(1914, 8, 22), "french", "first_line", "half_squad")) == "1-3-7"


def test_aslgw_1_11_1_stosstruppen_after_june_1915():
    """ASLGW 1.11.1: Stosstruppen are 'available after June 1915': from 1 July 1915 (the text
    writes "From June 1915" when it means June included, 1.9.11; docs/rules-notes.md)."""
    for day in ("1915-05-31", "1915-06-01", "1915-06-30"):
        with pytest.raises(UnitNotAvailableError, match="1915-07-01"):
            unit_factors(day, "german", "stosstruppen")
    assert str(unit_factors("1915-07-01", "german", "stosstruppen")) == "4-4-8"


def test_aslgw_1_11_1_stosstruppen_become_first_line_after_elr_failure():
    """ASLGW 1.11.1: Stosstruppen become 1st Line on ELR failure (not Elite)."""
    assert elr_replacement("german", "stosstruppen").value == "first_line"
    assert elr_replacement("german", "elite").value == "first_line"
    assert elr_replacement("german", "second_line").value == "landwehr"
    assert elr_replacement("us", "second_line") is None


def test_aslgw_1_11_unknown_class_and_nationality_without_table():
    """ASLGW 1.11 has tables for German, French, British and US only."""
    with pytest.raises(UnknownUnitClassError, match="british has no landwehr"):
        unit_factors("1916-01-01", "british", "landwehr")
    for nat in ("russian", "austro_hungarian", "italian", "belgian"):
        assert not has_unit_table(nat)
        assert nationality_classes(nat) == ()
        with pytest.raises(NoUnitTableError, match="factors"):
            unit_factors("1916-01-01", nat, "first_line")
        t = nationality_traits(nat)
        assert (t.hth_drm, t.bayonet_charge_density_exempt, t.a25_43_45_apply, t.early_combat_groups, t.early_wide_command) == (0, False, False, False, False)


def test_unit_factors_rejects_crews_and_bad_dates():
    """ASLGW 1.11 gives squads and half-squads only."""
    with pytest.raises(units.UnitsError, match="crew"):
        unit_factors("1916-01-01", "german", "elite", "crew")
    with pytest.raises(units.UnitsError, match="YYYY-MM-DD"):
        unit_factors("21 Feb 1916", "german", "elite")


def test_unit_factors_value_type():
    """ASLGW 1.11: factors print as ASL counters ('4-4-7') and parse back."""
    f = UnitFactors.parse("4-5-8/8")
    assert (f.firepower, f.range, f.morale, f.broken_morale) == (4, 5, 8, 8)
    assert str(f) == "4-5-8" and f.printed == "4-5-8/8"
    assert UnitFactors.parse("3-4-7").broken_morale == 7
    with pytest.raises(UnitFactorsFormatError):
        UnitFactors.parse("4-4")


def test_aslgw_1_11_traits():
    """ASLGW 1.11.1 (German early CG and wide command), 1.11.2 (French -1 HtH,
    BCh density exemption), 1.11.3 (British A25.43-45)."""
    fr, ge, br, us = (nationality_traits(n) for n in ("french", "german", "british", "us"))
    assert fr.hth_drm == -1 and fr.bayonet_charge_density_exempt
    assert not ge.bayonet_charge_density_exempt and ge.hth_drm == 0
    assert br.a25_43_45_apply and not fr.a25_43_45_apply and not us.a25_43_45_apply
    assert ge.early_combat_groups and ge.early_wide_command
    assert not fr.early_combat_groups and not br.early_wide_command


def test_aslgw_1_3_12_1_3_13_german_elite_early_radius():
    """ASLGW 1.3.12: elite Germans may use radius 2 from January 1915;
    1.3.13: radius 3 from January 1916."""
    ge = nationality_traits("german")
    assert ge.command_radius_override("elite", "1914-12-31") is None
    assert ge.command_radius_override("elite", "1915-01-01") == 2
    assert ge.command_radius_override("stosstruppen", "1916-01-01") == 3
    assert ge.command_radius_override("first_line", "1917-01-01") is None
    assert nationality_traits("french").command_radius_override("elite", "1917-06-01") is None


def test_aslgw_1_2_combat_groups_dates():
    """ASLGW 1.2 (end of 1917, September for the French) and 1.2.12 (Germans 1915)."""
    assert combat_groups_from("german") == dt.date(1915, 1, 1)
    assert combat_groups_from("french") == dt.date(1917, 9, 1)
    assert combat_groups_from("british") == dt.date(1917, 12, 1)


def test_a4_infantry_movement_data():
    """A4.1/A4.12 and ASLGW 1.3: 4 MF, 6 MF for SMC, +2 with a leader."""
    assert infantry_movement() == units.InfantryMovement(4, 6, 2)


def _scenario(nationality: str, extra: str = "") -> object:
    return scenario_from_text(json.dumps({
        "format": "gwasl-scenario/1", "title": "t", "date": "1916-03-01",
        "map": {"columns": 5, "rows": 5},
        "sides": {"a": {"nationality": nationality}, "b": {"nationality": "german"}},
        "units": [{"id": "s", "side": "a", "kind": "squad", "class": "first_line", "hex": "A1", **({"factors": extra} if extra else {})}],
    }))


def test_unit_factors_of_scenario_unit_and_factors_field():
    """ASLGW 1.11: a scenario unit gets its table factors; a 'factors' field
    supplies them for a nationality without a table."""
    s = _scenario("british")
    assert unit_factors_of(s, s.units[0]).printed == "4-4-7/7"
    r = _scenario("russian", "4-4-7/6")
    assert unit_factors_of(r, r.units[0]).printed == "4-4-7/6"
    with pytest.raises(NoUnitTableError):
        unit_factors_of(_scenario("russian"), _scenario("russian").units[0])


def _doc():
    return json.loads((RESOURCES / "nationalities.json").read_text())


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["nationalities"]["german"]["classes"]["elite"]["periods"][0].update(squad="4-4"), "german.classes.elite.periods[0].squad"),
    (lambda d: d["nationalities"]["german"]["classes"]["elite"]["periods"][0].update(squad="4-4-8"), "broken morale"),
    (lambda d: d["nationalities"]["french"]["classes"]["elite"]["periods"][1].update({"from": "1915-05-02"}), "without gap"),
    (lambda d: d["nationalities"].pop("belgian"), "no entry for belgian"),
    (lambda d: d["nationalities"]["german"]["classes"]["elite"].update(elr_replacement="conscript"), "elr_replacement"),
    (lambda d: d["nationalities"]["german"]["traits"].update(hth_drm="-1"), "traits.hth_drm"),
    (lambda d: d["nationalities"]["german"]["traits"].update(early_wide_command=False), "early_wide_command"),
    (lambda d: d["nationalities"]["german"]["classes"].update(green={}), "'green' is not a unit class"),
])
def test_nationalities_table_validated_at_load(mutate, needle):
    """Tables are validated at load with a message naming entry and field."""
    d = copy.deepcopy(_doc())
    mutate(d)
    with pytest.raises(TableError, match=re.escape(needle)):
        parse_nationalities(d)


def test_units_doctests():
    assert doctest.testmod(units).failed == 0


def test_aslgw_1_11_available_classes_for_the_editor():
    """ASLGW 1.11.1: the German palette gains Stosstruppen on 1 July 1915 ("after June 1915")."""
    assert "stosstruppen" not in [c.value for c in units.available_classes("1915-06-30", "german")]
    assert next(c.value for c in units.available_classes("1915-07-01", "german")) == "stosstruppen"
    assert [c.value for c in units.available_classes("1918-01-01", "us")] == ["elite", "first_line", "second_line"]


def test_aslgw_1_11_1_elr_replaced_unit():
    """ASLGW 1.11.1: a Stosstruppen squad failing ELR becomes a First Line squad (4-4-7)."""
    s = scenario_from_text(json.dumps({
        "format": "gwasl-scenario/1", "title": "t", "date": "1918-03-21", "map": {"columns": 3, "rows": 3},
        "sides": {"g": {"nationality": "german"}, "b": {"nationality": "british"}},
        "units": [{"id": "st", "side": "g", "kind": "squad", "class": "stosstruppen", "hex": "A1"},
                  {"id": "b2", "side": "b", "kind": "half_squad", "class": "second_line", "hex": "A1"},
                  {"id": "L", "side": "b", "kind": "leader", "rating": "8-0", "hex": "A1"}],
    }))
    new = units.elr_replaced_unit(s, s.units[0])
    assert new.unit_class.value == "first_line" and new.id == "st"
    assert unit_factors_of(s, new).printed == "4-4-7/7"
    assert units.elr_replaced_unit(s, s.units[1]) is None
    with pytest.raises(units.UnitsError, match="leader"):
        units.elr_replaced_unit(s, s.units[2])


def _reference(nat, cls, date, kind):
    """The ASLGW 1.11 table read straight from TEXT_1_11 (latest row not after the date)."""
    rows = [r for r in TEXT_1_11 if r[:2] == (nat, cls)]
    if len(rows) > 1:  # French elite/first line: row dates are the last old day and the first new day
        row = rows[0] if date <= dt.date(1915, 4, 30) else rows[1]
    else:
        row = rows[0]
    return row[3] if kind == "squad" else row[4]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted({r[:2] for r in TEXT_1_11})),
    st.dates(min_value=dt.date(1914, 7, 28), max_value=dt.date(1918, 11, 11)),
    st.sampled_from(["squad", "half_squad"]),
)
def test_aslgw_1_11_every_date_has_exactly_the_text_factors(natcls, date, kind):
    """ASLGW 1.11: for any war date, the factors are the text's (or the class does not exist yet)."""
    nat, cls = natcls
    if nat == "german" and cls == "stosstruppen" and date < dt.date(1915, 7, 1):
        with pytest.raises(UnitNotAvailableError):
            unit_factors(date, nat, cls, kind)
        return
    assert unit_factors(date, nat, cls, kind).printed == _reference(nat, cls, date, kind)
