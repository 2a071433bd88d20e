"""ASLGW 1.6 weapons table (gwasl/resources/weapons.json): every number against the text,
availability by date and nationality, crews only for MMG/HMG, the MP18."""

from __future__ import annotations

import copy
import datetime as dt
import doctest
import json
import re

import pytest

import gwasl.rules.weapons as weapons
from gwasl.model.scenario_io import scenario_from_text
from gwasl.model.terrain import RESOURCES, TableError
from gwasl.rules.weapons import (
    MgClass,
    SupportWeaponLossError,
    UnknownWeaponError,
    WeaponKind,
    all_weapons,
    availability_problems,
    classify_mg,
    find_weapon,
    is_available,
    max_range,
    may_lose,
    may_operate,
    parse_weapons,
    require_may_lose,
    sw_holder,
    weapon,
)
from testsupport import source_text

SEED = source_text("seeds/004_4371414167e1669c.txt")

# ASLGW 1.6.1 Table 1: name, FP, range, RoF, PP, B#, R#.
TABLE_1 = [
    ("Browning", 6, 12, 3, 5, 12, 3),
    ("Chauchat", 2, 7, 1, 1, 10, 2),
    ("Hotchkiss", 4, 11, 2, 4, 12, 2),
    ("Hotchkiss HMG", 6, 12, 3, 5, 11, 3),
    ("Lewis", 2, 6, 1, 1, 11, 1),
    ("MG08", 6, 12, 2, 5, 11, 3),
    ("MG08/15", 2, 5, 2, 1, 11, 1),
    ("Pul. Maksima", 4, 10, 2, 5, 11, 2),
    ("St. Etienne", 4, 10, 1, 4, 10, 2),
    ("Vickers", 6, 14, 3, 5, 12, 3),
]
# ASLGW 1.6.41 Table 2: FT, FP, PP, X.
TABLE_2 = [("Kleinflammenwerfer", 12, 1, 9), ("Wex Flammenwerfer", 16, 2, 10), ("British FT", 16, 2, 10), ("Appareil Schilt", 20, 2, 10)]
# ASLGW 1.6.5 Table 3 and 1.6.63 Table 4: name, cal, min range, range, RoF, PP, B#, R#.
TABLES_3_4 = [("Granatenwerfer", 50, 2, 9, 1, 5, 11, 1), ("Tromblon VB", 50, None, 4, 1, 2, 11, 1)]


@pytest.mark.parametrize("row", TABLE_1, ids=[r[0] for r in TABLE_1])
def test_aslgw_1_6_1_table_1(row):
    """ASLGW 1.6.1 Table 1: FP, range, RoF, PP, B#/R# of all ten MG."""
    w = weapon(row[0])
    assert (w.name, w.fp, w.range, w.rof, w.pp, w.breakdown, w.repair) == row
    assert w.kind is WeaponKind.MG


@pytest.mark.parametrize("row", TABLE_2, ids=[r[0] for r in TABLE_2])
def test_aslgw_1_6_41_table_2(row):
    """ASLGW 1.6.41 Table 2: flamethrower FP, PP, X#."""
    w = weapon(row[0])
    assert (w.name, w.fp, w.pp, w.x) == row and w.kind is WeaponKind.FLAMETHROWER


@pytest.mark.parametrize("row", TABLES_3_4, ids=[r[0] for r in TABLES_3_4])
def test_aslgw_1_6_5_and_1_6_63_tables_3_4(row):
    """ASLGW 1.6.5 Table 3 (Granatenwerfer, range 2-9) and 1.6.63 Table 4 (VB, range 4)."""
    w = weapon(row[0])
    assert (w.name, w.calibre, w.min_range, w.range, w.rof, w.pp, w.breakdown, w.repair) == row


def test_aslgw_1_6_31_bar_and_mp18():
    """ASLGW 1.6.31: BAR and MP18 are FP 1, range 6, no RoF, 0 PP."""
    for name in ("BAR", "MP18"):
        w = weapon(name)
        assert (w.fp, w.range, w.rof, w.pp) == (1, 6, None, 0)


def test_aslgw_1_6_3_bar_and_mp18_are_support_weapons():
    """ASLGW 1.6.3: BAR and MP18 are normal SW of the last year of the war, light MG-like, for any squad."""
    for name, nat in (("BAR", "us"), ("MP18", "german")):
        w = weapon(name)
        assert (w.kind, w.mg_class, w.crew_only) == (WeaponKind.MG, MgClass.LMG, False)
        assert may_operate(w, "squad") and may_operate(w, "half_squad")
        assert not is_available(w, "1917-12-31", nat) and is_available(w, "1918-01-01", nat)


def test_data_file_has_exactly_the_text_weapons():
    """ASLGW 1.6: the table holds the text's 18 weapons and no others."""
    names = {w.name for w in all_weapons()}
    assert names == {r[0] for r in TABLE_1} | {r[0] for r in TABLE_2} | {r[0] for r in TABLES_3_4} | {"BAR", "MP18"}


@pytest.mark.skipif(not SEED.exists(), reason="ASLGW source text not on this machine")
def test_aslgw_1_6_tables_against_the_source_text():
    """ASLGW 1.6.1, 1.6.41, 1.6.5, 1.6.63 (Tables 1-4) and 1.6.31 (BAR, MP18): re-read from the source text."""
    text = SEED.read_text(encoding="utf-8")
    t1 = text[text.index("Table 1:"): text.index("<sup>1</sup>: is the M1917")]
    rows = re.findall(r"^(.+?)\t(\d+)\t<u>(\d+)</u>\t(\d+)\t(\d+)\t(\d+)/(\d+)$", t1, re.M)
    assert len(rows) == 10
    for (label, *nums), expected in zip(rows, TABLE_1):
        assert tuple(int(n) for n in nums) == expected[1:], label
    t2 = text[text.index("Table2:"): text.index("<sup>1</sup>: designed in 1900")]
    rows2 = re.findall(r"^(.+?)\t(\d+)\t(\d+)\t(\d+)$", t2, re.M)
    assert [tuple(int(n) for n in r[1:]) for r in rows2] == [r[1:] for r in TABLE_2]
    gw = re.search(r"Granatenwerfer \(Ger\).*?\t(\d+)\t(\d+) – (\d+)\t(\d+)\t(\d+)\t(\d+)/(\d+)", text)  # noqa: RUF001 (the text's own en dash)
    assert tuple(int(x) for x in gw.groups()) == TABLES_3_4[0][1:]
    vb = re.search(r"Tromblon VB \(Fr\).*?\t(\d+)\t(\d+)\t(\d+)\t(\d+)\t(\d+)/(\d+)", text)
    assert tuple(int(x) for x in vb.groups()) == (50, 4, 1, 2, 11, 1)
    bar = text[text.index("### 1.6.31"): text.index("### 1.6.32")]
    assert "firepower of 1, a range of 6 and no RoF and costs 0 PP" in bar


@pytest.mark.parametrize("name,nats,first,last", [
    ("Browning", {"us"}, "1917-01-01", None),  # 1.6.1 note 1
    ("Hotchkiss HMG", {"french"}, "1916-01-01", None),  # note 3
    ("Lewis", {"belgian", "british"}, "1915-01-01", None),  # note 4
    ("MG08/15", {"german"}, "1915-01-01", None),  # note 6
    ("St. Etienne", {"french"}, None, "1916-12-31"),  # note 8
    ("Vickers", {"british"}, None, None),
    ("Pul. Maksima", {"russian"}, None, None),
    ("Kleinflammenwerfer", {"german"}, "1914-10-01", None),  # 1.6.4
    ("Wex Flammenwerfer", {"german"}, "1917-01-01", None),
    ("British FT", {"british"}, "1916-07-01", "1916-07-31"),
    ("Appareil Schilt", {"french"}, "1917-01-01", None),
    ("Granatenwerfer", {"german"}, "1916-01-01", None),  # 1.6.5 note 1
    ("Tromblon VB", {"french", "british", "us", "belgian", "russian", "italian"}, "1915-01-01", None),  # 1.6.63
    ("BAR", {"us"}, "1918-01-01", None),  # 1.6.3 last year of the war
    ("MP18", {"german"}, "1918-01-01", None),
])
def test_aslgw_1_6_availability_data(name, nats, first, last):
    """ASLGW 1.6.1 notes, 1.6.3, 1.6.4, 1.6.5, 1.6.63: nationality and dates."""
    w = weapon(name)
    assert {n.value for n in w.nationalities} == nats
    assert w.available_from == (dt.date.fromisoformat(first) if first else None)
    assert w.available_until == (dt.date.fromisoformat(last) if last else None)


def test_aslgw_1_6_4_british_ft_only_in_july_1916():
    """ASLGW 1.6.4: the British FT exists only during the Somme offensive, July 1916."""
    assert not is_available("British FT", "1916-06-30", "british")
    assert is_available("British FT", "1916-07-01", "british")
    assert is_available("British FT", "1916-07-31", "british")
    issues = availability_problems("British FT", "1916-08-01", "british")
    assert [i.code for i in issues] == ["withdrawn"] and "1916-07-31" in issues[0].message


def test_aslgw_1_6_1_st_etienne_gone_after_1916_and_hotchkiss_hmg_from_1916():
    """ASLGW 1.6.1 notes 3 and 8."""
    assert is_available("St. Etienne", "1916-02-21", "french")
    assert [i.code for i in availability_problems("St. Etienne", "1917-01-01", "french")] == ["withdrawn"]
    assert [i.code for i in availability_problems("Hotchkiss HMG", "1915-09-25", "french")] == ["not_yet"]


def test_aslgw_1_6_4_kleinflammenwerfer_october_1914_adjacent_only():
    """ASLGW 1.6.4 (October 1914) and 1.6.41 note 1 (no long range: adjacent only)."""
    assert not is_available("Kleinflammenwerfer", "1914-09-30", "german")
    assert is_available("Kleinflammenwerfer", "1914-10-01", "german")
    k = weapon("Kleinflammenwerfer")
    assert k.adjacent_only and max_range(k) == 1
    assert not weapon("Appareil Schilt").adjacent_only and max_range("Schilt") == 2


def test_availability_wrong_nationality_and_captured():
    """ASLGW 1.6.1: Lewis is Belgian/British; a German Lewis is foreign unless captured (A21)."""
    issues = availability_problems("Lewis", "1917-04-09", "german")
    assert [i.code for i in issues] == ["nationality"] and "british" in issues[0].message
    assert availability_problems("Lewis", "1917-04-09", "german", captured=True) == ()
    assert [i.code for i in availability_problems("Tromblon VB", "1916-01-01", "german")] == ["nationality"]


def test_aslgw_1_6_2_mg_classes_and_crews():
    """ASLGW 1.6.2: MMG/HMG only by crews.  Classes by classic ASL FP sizes, and
    consistent with the text's own notes (Chauchat, Lewis, MG08/15 are LMG;
    'Hotchkiss / HMG' and the Vickers, 'the British HMG', are HMG)."""
    assert {w.name: w.mg_class.value for w in all_weapons() if w.kind is WeaponKind.MG} == {
        "Browning": "HMG", "Chauchat": "LMG", "Hotchkiss": "MMG", "Hotchkiss HMG": "HMG", "Lewis": "LMG",
        "MG08": "HMG", "MG08/15": "LMG", "Pul. Maksima": "MMG", "St. Etienne": "MMG", "Vickers": "HMG",
        "BAR": "LMG", "MP18": "LMG",
    }
    assert classify_mg(3) is MgClass.LMG and classify_mg(5) is MgClass.MMG
    for name in ("MG08", "Vickers", "Hotchkiss", "St. Etienne"):
        assert weapon(name).crew_only
        assert may_operate(name, "crew") and not may_operate(name, "squad") and not may_operate(name, "half_squad")
    assert may_operate("Lewis", "squad") and may_operate("Kleinflammenwerfer", "half_squad")


def test_aslgw_1_6_32_mp18_cannot_be_lost():
    """ASLGW 1.6.32: the MP18 cannot be abandoned, destroyed, captured or other."""
    for action in weapons.LOSS_ACTIONS:
        assert not may_lose("MP18", action)
        assert may_lose("BAR", action)
        with pytest.raises(SupportWeaponLossError, match="1.6.32"):
            require_may_lose("MP18", action)
    require_may_lose("BAR", "capture")
    with pytest.raises(ValueError, match="not one of"):
        may_lose("MP18", "eat")


def test_weapon_names_and_unknown():
    assert find_weapon("MG 08/15").name == "MG08/15"
    assert find_weapon("hotchkiss / hmg").name == "Hotchkiss HMG"
    assert find_weapon("Schilt").name == "Appareil Schilt"
    assert find_weapon("Bren") is None
    with pytest.raises(UnknownWeaponError, match="'Bren' is not a weapon of the ASLGW 1.6 tables"):
        weapon("Bren")


def _scn(units):
    return scenario_from_text(json.dumps({
        "format": "gwasl-scenario/1", "title": "t", "date": "1916-03-01", "map": {"columns": 5, "rows": 5},
        "sides": {"g": {"nationality": "german"}, "f": {"nationality": "french"}}, "units": units,
    }))


def test_sw_holder_prefers_crew_and_honours_held_by():
    """Which unit holds a SW at set-up (used by the ASLGW 1.6.2 check)."""
    s = _scn([
        {"id": "sq", "side": "g", "kind": "squad", "class": "elite", "hex": "B2"},
        {"id": "cr", "side": "g", "kind": "crew", "hex": "B2"},
        {"id": "mg", "side": "g", "kind": "support_weapon", "weapon": "MG08", "hex": "B2"},
        {"id": "mg2", "side": "g", "kind": "support_weapon", "weapon": "MG08", "hex": "B2", "held_by": "sq"},
        {"id": "lone", "side": "g", "kind": "support_weapon", "weapon": "MG08", "hex": "C3"},
        {"id": "deep", "side": "g", "kind": "support_weapon", "weapon": "MG08", "hex": "B2", "in": "trench"},
    ])
    by = {u.id: u for u in s.units}
    assert sw_holder(s, by["mg"]).id == "cr"
    assert sw_holder(s, by["mg2"]).id == "sq"
    assert sw_holder(s, by["lone"]) is None
    assert sw_holder(s, by["deep"]) is None


def _doc():
    return json.loads((RESOURCES / "weapons.json").read_text())


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["weapons"]["Lewis"].update(fp="2"), "weapons.Lewis.fp"),
    (lambda d: d["weapons"]["Lewis"].update(mg_class="HMG"), "weapons.Lewis.mg_class"),
    (lambda d: d["weapons"]["Lewis"].update(available_from="1915"), "weapons.Lewis.available_from"),
    (lambda d: d["weapons"]["Lewis"].update(nationalities=["martian"]), "weapons.Lewis.nationalities"),
    (lambda d: d["weapons"]["Wex Flammenwerfer"].pop("x"), "weapons.Wex Flammenwerfer.x"),
    (lambda d: d["weapons"]["Vickers"].update(aliases=["Lewis"]), "also used by Lewis"),
    (lambda d: d["weapons"]["Vickers"].update(kind="cannon"), "weapons.Vickers.kind"),
])
def test_weapons_table_validated_at_load(mutate, needle):
    d = copy.deepcopy(_doc())
    mutate(d)
    with pytest.raises(TableError, match=re.escape(needle)):
        parse_weapons(d)


def test_weapons_doctests():
    assert doctest.testmod(weapons).failed == 0


def test_aslgw_1_6_available_weapons_palette():
    """ASLGW 1.6: what each side may field on a date (editor palette)."""
    names = lambda d, n: [w.name for w in weapons.available_weapons(d, n)]  # noqa: E731
    assert names("1914-08-22", "german") == ["MG08"]
    assert names("1914-10-01", "german") == ["MG08", "Kleinflammenwerfer"]
    assert names("1918-03-21", "german") == ["MG08", "MG08/15", "MP18", "Kleinflammenwerfer", "Wex Flammenwerfer", "Granatenwerfer"]
    assert names("1916-02-21", "french") == ["Chauchat", "Hotchkiss", "Hotchkiss HMG", "St. Etienne", "Tromblon VB"]
    assert names("1918-09-26", "us") == ["Browning", "BAR", "Tromblon VB"]
