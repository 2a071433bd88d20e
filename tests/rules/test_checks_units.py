"""`gwasl validate` checks of ASLGW 1.1-1.4, 1.6, 1.11 and the ignored classic rules."""

from __future__ import annotations

import copy
import datetime as dt
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gwasl.rules.checks_units as checks
from gwasl.cli import main
from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.validate import CHECK_MODULES, validate_scenario
from testsupport import EXAMPLE_PATH, bundled_scenarios

EXAMPLE = EXAMPLE_PATH
BASE = json.loads(EXAMPLE.read_text())


def doc():
    return copy.deepcopy(BASE)


def report(d):
    return validate_scenario(parse_scenario(d))


def unit(d, uid):
    return next(u for u in d["units"] if u["id"] == uid)


def rules(findings):
    return [(f.rule, f.path) for f in findings]


def test_module_registered():
    assert "gwasl.rules.checks_units" in CHECK_MODULES


def test_bundled_example_is_valid_without_warnings():
    """The shared example passes every check (its St. Etienne is a 1916 French MMG
    held by a crew, its Kleinflammenwerfer German and after October 1914)."""
    r = report(doc())
    assert r.valid and r.warnings == ()


# -- ASLGW 1.11 ------------------------------------------------------------------
def test_aslgw_1_11_1_stosstruppen_before_july_1915():
    """ASLGW 1.11.1 "available after June 1915": a Stosstruppen squad on 30 June 1915 is refused."""
    d = doc()
    d["date"] = "1915-06-30"
    unit(d, "G1-1")["class"] = "stosstruppen"
    r = report(d)
    assert ("ASLGW 1.11.1", "$.units[1].class") in rules(r.errors)
    assert any("1915-07-01" in f.message for f in r.errors)


def test_aslgw_1_11_class_missing_from_nationality_table():
    d = doc()
    unit(d, "F1-1")["class"] = "landwehr"
    (f,) = [f for f in report(d).errors if f.path == "$.units[9].class"]
    assert f.rule == "ASLGW 1.11.2" and "french has no landwehr" in f.message


def test_aslgw_1_11_nationality_without_table_warns_and_factors_field():
    d = doc()
    d["sides"]["french"]["nationality"] = "belgian"
    d["units"] = [u for u in d["units"] if u["id"] != "F-MG-W"]
    r = report(d)
    assert r.valid
    assert {f.path for f in r.warnings} == {"$.units[9].factors", "$.units[10].factors", "$.units[11].factors"}
    assert all(f.rule == "ASLGW 1.11" for f in r.warnings)
    for uid in ("F1-1", "F1-2", "F1-3"):
        unit(d, uid)["factors"] = "4-4-7/7"
    assert report(d).warnings == ()
    unit(d, "F1-1")["factors"] = "four"
    assert ("ASLGW 1.11", "$.units[9].factors") in rules(report(d).errors)


# -- ASLGW 1.6 -------------------------------------------------------------------
def test_aslgw_1_6_1_st_etienne_anachronism_after_1916():
    """ASLGW 1.6.1 note 8: the St. Etienne is gone after 1916."""
    d = doc()
    d["date"] = "1917-02-21"
    (f,) = [f for f in report(d).errors if f.path == "$.units[13].weapon"]
    assert f.rule == "ASLGW 1.6.1" and "after 1916-12-31" in f.message


def test_aslgw_1_6_4_flamethrower_too_early_and_foreign():
    """ASLGW 1.6.4: Kleinflammenwerfer from October 1914; Wex 1917; not French."""
    d = doc()
    d["date"] = "1914-09-06"
    assert ("ASLGW 1.6.4, 1.6.41", "$.units[7].weapon") in rules(report(d).errors)
    d = doc()
    unit(d, "G-FT")["weapon"] = "Wex"
    (f,) = report(d).errors
    assert f.rule == "ASLGW 1.6.41" and "1917-01-01" in f.message
    d = doc()
    unit(d, "F-MG-W")["side"] = "german"
    unit(d, "F-MG")["side"] = "german"
    assert any(f.rule == "ASLGW 1.6.1" and "french weapon, not german" in f.message for f in report(d).errors)
    unit(d, "F-MG-W")["captured"] = True
    assert report(d).valid


def test_aslgw_1_6_2_mmg_held_by_squad():
    """ASLGW 1.6.2: a MMG/HMG can only be operated by a crew."""
    d = doc()
    d["units"].append({"id": "G-MG", "side": "german", "kind": "support_weapon", "weapon": "MG08", "hex": "C2"})
    (f,) = report(d).errors
    assert f.rule == "ASLGW 1.6.2" and f.path == "$.units[14]" and "squad G1-1" in f.message
    d["units"].append({"id": "G-CR", "side": "german", "kind": "crew", "hex": "C2"})
    assert report(d).valid  # the crew holds it
    d["units"][-2]["held_by"] = "G1-2"
    (f,) = report(d).errors
    assert (f.rule, f.path) == ("ASLGW 1.6.2", "$.units[14].held_by")
    d["units"][-2]["held_by"] = "F1-2"
    assert [f.path for f in report(d).errors] == ["$.units[14].held_by"]
    d["units"][-2]["held_by"] = "nobody"
    assert "not a unit" in report(d).errors[0].message


def test_aslgw_1_6_2_lmg_held_by_squad_is_fine():
    d = doc()
    d["units"].append({"id": "G-LMG", "side": "german", "kind": "support_weapon", "weapon": "MG08/15", "hex": "C2", "held_by": "G1-1"})
    assert report(d).valid


def test_aslgw_1_6_32_mp18_cannot_be_captured():
    d = doc()
    d["date"] = "1918-03-21"
    d["units"] = [u for u in d["units"] if u["id"] != "F-MG-W"]
    d["units"].append({"id": "MP", "side": "french", "kind": "support_weapon", "weapon": "MP18", "hex": "H6", "captured": True})
    assert ("ASLGW 1.6.31, 1.6.32", "$.units[13].captured") not in rules(report(d).errors)
    assert ("ASLGW 1.6.32", "$.units[13].captured") in rules(report(d).errors)


def test_unknown_weapon_is_a_warning():
    d = doc()
    unit(d, "G-FT")["weapon"] = "Bren"
    r = report(d)
    assert r.valid and [(f.rule, f.path) for f in r.warnings] == [("ASLGW 1.6", "$.units[7].weapon")]


# -- ignored rules -----------------------------------------------------------------
@pytest.mark.parametrize("item,label", [("DC", "ASLGW ignored A23"), ("Molotov Cocktail", "ASLGW ignored A22.6"), ("WP", "ASLGW ignored A24.3")])
def test_ignored_support_weapons_flagged_unless_ssr(item, label):
    """ASLGW rules to be ignored: DC, MOL, WP are flagged unless an SSR allows them."""
    d = doc()
    d["units"].append({"id": "X", "side": "german", "kind": "support_weapon", "weapon": item, "hex": "C2"})
    (f,) = report(d).errors
    assert (f.rule, f.path) == (label, "$.units[14].weapon") and "SSR" in f.message
    d["ssr"] = {"allow": [item]}
    assert report(d).valid and report(d).warnings == ()
    d["ssr"] = {"allow": {"french": [item]}}
    assert not report(d).valid
    d["ssr"] = {"allow": {"german": [item]}}
    assert report(d).valid


def test_ssr_block_checked():
    d = doc()
    d["ssr"] = {"combat_groups": ["prussians"], "allow": ["Bren"], "half_platoons": "yes"}
    r = report(d)
    assert {f.path for f in r.errors} == {"$.ssr.combat_groups[0]", "$.ssr.half_platoons"}
    assert [f.path for f in r.warnings] == ["$.ssr.allow[0]"]
    d["ssr"] = "none"
    assert [f.path for f in report(d).errors] == ["$.ssr"]


# -- organisation ------------------------------------------------------------------
def test_aslgw_1_4_11_setup_formation_flagged():
    d = doc()
    unit(d, "G1-6")["hex"] = "B6"
    (f,) = report(d).errors
    assert (f.rule, f.path) == ("ASLGW 1.4.11", "$.units[6].hex")


def test_aslgw_1_4_11_squad_next_to_a_second_leader_of_its_platoon_is_in_formation():
    """ASLGW 1.4.11: "adjacent ... to a leader" -- a second leader of the platoon (its
    ``platoon`` field names G1; formations[].leader names G1-L) anchors G1-6."""
    d = doc()
    unit(d, "G1-6")["hex"] = "B6"
    d["units"].append({"id": "G1-L2", "side": "german", "kind": "leader", "rating": "8-0", "hex": "B7", "platoon": "G1"})
    assert report(d).valid


def test_aslgw_1_4_11_broken_squad_out_of_formation_is_fine():
    d = doc()
    unit(d, "G1-6")["hex"] = "B6"
    unit(d, "G1-6")["broken"] = True
    assert report(d).valid


def test_aslgw_1_1_platoon_of_seven_and_mixed_types():
    d = doc()
    d["units"].append({"id": "G1-7", "side": "german", "kind": "squad", "class": "first_line", "hex": "C2", "platoon": "G1"})
    assert [f.rule for f in report(d).errors] == ["ASLGW 1.1", "ASLGW 1.3"]
    d = doc()
    unit(d, "G1-2")["class"] = "second_line"
    (f,) = report(d).errors
    assert f.rule == "ASLGW 1.1" and "mixes squad types" in f.message and f.path == "$.formations[0]"


def _half_platoons(d, n, origin=None):
    """Replace the German platoon with n half-platoons of 3 squads each, in a row."""
    d["units"] = [u for u in d["units"] if not u["id"].startswith("G1")]
    d["formations"] = [f for f in d["formations"] if f["id"] != "G1"]
    for k in range(n):
        f = {"id": f"GH{k}", "kind": "half_platoon"}
        if origin:
            f["origin"] = origin
        d["formations"].append(f)
        for m in range(3):
            d["units"].append({"id": f"GH{k}-{m}", "side": "german", "kind": "squad", "class": "first_line", "hex": f"A{k + 1}", "platoon": f"GH{k}"})


def _platoons(d, n, start_col="F"):
    for k in range(n):
        d["formations"].append({"id": f"GP{k}", "kind": "platoon"})
        for m in range(6):
            d["units"].append(
                {
                    "id": f"GP{k}-{m}",
                    "side": "german",
                    "kind": "squad",
                    "class": "first_line",
                    "hex": f"{chr(ord(start_col) + m // 3)}{k + 1}",
                    "platoon": f"GP{k}",
                }
            )  # 3 a hex (A5.1)


def test_aslgw_1_1_half_platoon_conversions_25_percent():
    """ASLGW 1.1: 3 platoons + 2 half-platoons = 4 OB platoons, 1 converted: allowed.
    2 platoons + 2 half-platoons = 3 OB platoons: 25% is 0.75, none may convert."""
    d = doc()
    _half_platoons(d, 2)
    _platoons(d, 3)
    assert report(d).valid
    d = doc()
    _half_platoons(d, 2)
    _platoons(d, 2)
    (f,) = report(d).errors
    assert f.rule == "ASLGW 1.1" and "at most 25%, i.e. 0" in f.message


def test_aslgw_1_1_half_platoons_from_casualties_or_ssr_are_not_conversions():
    """ASLGW 1.1: half-platoons may also come from casualties or SSR."""
    d = doc()
    _half_platoons(d, 4, origin="casualties")
    assert report(d).valid
    d = doc()
    _half_platoons(d, 4)
    assert not report(d).valid
    d["ssr"] = {"half_platoons": ["german"]}
    assert report(d).valid
    d = doc()
    _half_platoons(d, 2, origin="ssr")
    assert report(d).valid
    d = doc()
    d["formations"][1]["origin"] = "battle"
    assert [f.path for f in report(d).errors] == ["$.formations[1].origin"]


def test_aslgw_1_2_combat_group_needs_ssr_and_elite():
    """ASLGW 1.2.11 (SSR, elite), 1.2.12 (Germans 1915-1917), 1.2.1 (stacked or adjacent)."""
    d = doc()
    d["formations"].append({"id": "CG", "kind": "combat_group"})
    d["units"] += [
        {"id": "CG-1", "side": "german", "kind": "squad", "class": "elite", "hex": "E2", "platoon": "CG"},
        {"id": "CG-2", "side": "german", "kind": "squad", "class": "elite", "hex": "E3", "platoon": "CG"},
    ]
    (f,) = report(d).errors
    assert (f.rule, f.path) == ("ASLGW 1.2.11", "$.formations[2]")
    d["ssr"] = {"combat_groups": ["german"]}
    assert report(d).valid
    d["units"][-1]["hex"] = "E5"
    assert {(f.rule, f.path) for f in report(d).errors} == {("ASLGW 1.2.1", "$.units[14].hex"), ("ASLGW 1.2.1", "$.units[15].hex")}
    d["units"][-1]["hex"] = "E3"
    d["date"] = "1914-12-01"
    assert [f.rule for f in report(d).errors] == ["ASLGW 1.2.12"]


def test_cli_reports_rule_numbers(capsys, tmp_path):
    """`gwasl validate --json` gives path, message and rule; exit 2 when invalid."""
    assert main(["validate", str(EXAMPLE), "--json"]) == 0
    capsys.readouterr()
    d = doc()
    unit(d, "G-FT")["weapon"] = "DC"
    p = tmp_path / "s.json"
    p.write_text(json.dumps(d))
    assert main(["validate", str(p), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["errors"] == [{"path": "$.units[7].weapon", "message": out["errors"][0]["message"], "rule": "ASLGW ignored A23"}]


def test_every_bundled_scenario_is_valid():
    """Every shipped scenario passes the unit, weapon and organisation checks."""
    for path in bundled_scenarios():
        r = validate_scenario(parse_scenario(json.loads(path.read_text())))
        assert r.valid, (path.name, [str(f) for f in r.errors])


def test_odd_field_values_are_findings_not_crashes():
    d = doc()
    unit(d, "F-MG-W")["captured"] = "yes"
    unit(d, "F-MG-W")["held_by"] = 5
    unit(d, "F1-1")["factors"] = 447
    d["formations"][1]["origin"] = ["x"]
    d["ssr"] = {"allow": {"german": "DC"}, "combat_groups": [3]}
    paths = {f.path for f in report(d).errors}
    assert {
        "$.units[13].captured",
        "$.units[13].held_by",
        "$.units[9].factors",
        "$.formations[1].origin",
        "$.ssr.allow.german",
        "$.ssr.combat_groups[0]",
    } <= paths


_MUTATIONS = st.lists(st.one_of(
    st.tuples(st.just("date"), st.dates(min_value=dt.date(1914, 1, 1), max_value=dt.date(1919, 6, 28))),
    st.tuples(st.just("nat"), st.sampled_from(["german", "french", "british", "us", "russian", "austro_hungarian", "italian", "belgian"])),
    st.tuples(st.just("class"), st.sampled_from(["stosstruppen", "elite", "first_line", "second_line", "landwehr", "territorial"])),
    st.tuples(st.just("weapon"), st.sampled_from(["MG08", "Lewis", "Vickers", "DC", "WP", "MP18", "BAR", "Schilt", "VB", "Bren", "Granatenwerfer"])),
    st.tuples(st.just("hex"), st.sampled_from(["A1", "B6", "C2", "L8", "H6"])),
    st.tuples(st.just("kind"), st.sampled_from(["platoon", "half_platoon", "combat_group"])),
    st.tuples(st.just("ssr"), st.sampled_from([{"combat_groups": True}, {"allow": ["DC"]}, {"half_platoons": ["german"]}, {}])),
), max_size=6)


@settings(max_examples=120, deadline=None)
@given(_MUTATIONS, st.randoms(use_true_random=False))
def test_mutated_examples_give_findings_with_paths_and_rules(mutations, rnd):
    """Whatever the dates, nationalities, classes, weapons and formations, the
    checks never crash and every finding they add names a JSON path and a rule."""
    d = doc()
    for what, v in mutations:
        if what == "date":
            d["date"] = v.isoformat()
        elif what == "nat":
            d["sides"][rnd.choice(["german", "french"])]["nationality"] = v
        elif what == "class":
            rnd.choice([u for u in d["units"] if u["kind"] == "squad"])["class"] = v
        elif what == "weapon":
            rnd.choice([u for u in d["units"] if u["kind"] == "support_weapon"])["weapon"] = v
        elif what == "hex":
            rnd.choice(d["units"])["hex"] = v
        elif what == "kind":
            rnd.choice(d["formations"])["kind"] = v
        else:
            d["ssr"] = v
    s = parse_scenario(d)
    for check in (checks.check_ssr_block, checks.check_unit_factors, checks.check_support_weapons, checks.check_ignored_rules, checks.check_formations):
        for f in check(s):
            assert f.path.startswith("$") and f.message
            assert f.rule and f.rule.startswith("ASLGW"), f


def test_aslgw_1_3_leader_leading_too_many_squads_across_formations():
    """ASLGW 1.3: the French 8-0 may also lead a second half-platoon (6 squads), not a platoon (9)."""
    d = doc()
    d["formations"].append({"id": "F2", "kind": "half_platoon", "leader": "F1-L", "origin": "casualties"})
    d["units"] += [{"id": f"F2-{k}", "side": "french", "kind": "squad", "class": "first_line", "hex": "I7", "platoon": "F2"} for k in range(3)]
    assert report(d).valid
    d["formations"][-1]["kind"] = "platoon"
    d["units"] += [
        {"id": f"F2-{k}", "side": "french", "kind": "squad", "class": "first_line", "hex": "I8", "platoon": "F2"}
        for k in range(3, 6)
    ]  # I7 holds 3 (A5.1)
    (f,) = report(d).errors
    assert (f.rule, f.path) == ("ASLGW 1.3", "$.units[8]") and "9 squads" in f.message


def test_rules_fields_survive_a_save_and_reload():
    """docs/format/rules.md fields (ssr, factors, held_by, captured, origin) are kept
    by a load-save round trip, so the checks give the same answer afterwards."""
    from gwasl.model.scenario_io import scenario_to_json
    d = doc()
    d["ssr"] = {"allow": {"german": ["DC"]}, "combat_groups": ["german"]}
    d["formations"][1]["origin"] = "casualties"
    d["units"].append({"id": "X", "side": "german", "kind": "support_weapon", "weapon": "DC", "hex": "C2", "held_by": "G1-1"})
    d["units"].append({"id": "Y", "side": "german", "kind": "support_weapon", "weapon": "Lewis", "hex": "C2", "captured": True})
    before = report(d)
    again = json.loads(scenario_to_json(parse_scenario(d)))
    after = report(again)
    assert before.valid and after.valid and before == after


def test_aslgw_1_6_2_leader_may_carry_an_mmg():
    """ASLGW 1.6.2 restricts operating, not carrying: a leader holding a MG08 is not flagged."""
    d = doc()
    d["units"].append({"id": "G-MG", "side": "german", "kind": "support_weapon", "weapon": "MG08", "hex": "C2", "held_by": "G1-L"})
    assert report(d).valid
    d["units"].append({"id": "G-HS", "side": "german", "kind": "half_squad", "class": "first_line", "hex": "E8"})
    d["units"].append({"id": "G-MG2", "side": "german", "kind": "support_weapon", "weapon": "Vickers", "hex": "E8", "captured": True})
    (f,) = report(d).errors
    assert f.rule == "ASLGW 1.6.2" and "half_squad G-HS" in f.message


# -- garance trousers at set-up (ASLGW 1.7.2) -----------------------------------------
def _marne(french_unit, date="1914-09-06", **top):
    d = {
        "format": "gwasl-scenario/1", "title": "Marne", "date": date, "map": {"columns": 12, "rows": 8, "hexes": {"F4": {"terrain": "woods"}}},
        "sides": {"german": {"nationality": "german"}, "french": {"nationality": "french"}},
        "units": [{"id": "G1", "side": "german", "kind": "squad", "class": "first_line", "hex": "B4"}, french_unit],
    }
    d.update(top)
    return d


def test_aslgw_1_7_2_concealed_french_in_open_ground_in_enemy_los_is_an_error():
    """ASLGW 1.7.2: the garance trouser prevents a unit from remaining concealed in an
    enemy LOS in Open Ground, even more than 16 hexes away: a 1914 French squad set
    up concealed in the open, seen by a German squad, is reported."""
    fr = {"id": "F1", "side": "french", "kind": "squad", "class": "first_line", "hex": "J6", "hidden": "concealed"}
    (f,) = [x for x in report(_marne(fr)).errors if x.rule == "ASLGW 1.7.2"]
    assert f.path == "$.units[1].hidden" and "F1" in f.message and "G1" in f.message and "Open Ground" in f.message
    for status in ("hip", "potential_dummy"):  # every hidden status (rules-notes, "Garance concealment")
        assert [x.rule for x in report(_marne({**fr, "hidden": status})).errors] == ["ASLGW 1.7.2"]


@pytest.mark.parametrize("change", [
    {"date": "1915-06-01"},  # no garance after May 1915 (ASLGW 1.7, rules-notes)
    {"winter": True},  # ASLGW 1.7.3
    {"hex": "J4"},  # behind the woods in F4: no enemy LOS
    {"hex": "J6", "terrain": "brush"},  # not Open Ground
    {"hidden": "none"},  # not concealed
    {"in": "trench"},  # inside a fortification: not Open Ground
])
def test_aslgw_1_7_2_no_finding_outside_its_conditions(change):
    """ASLGW 1.7.2 and 1.7.3: only concealed garance wearers, in Open Ground, in an enemy
    LOS, with no winter, mud, mist, fog or night."""
    fr = {"id": "F1", "side": "french", "kind": "squad", "class": "first_line", "hex": "J6", "hidden": "concealed"}
    top = {}
    if "date" in change or "winter" in change:
        top = change
    elif "terrain" in change:
        fr["hex"] = change["hex"]
    else:
        fr.update(change)
    d = _marne(fr, **top)
    if "terrain" in change:
        d["map"]["hexes"][change["hex"]] = {"terrain": change["terrain"]}
    if change.get("in") == "trench":
        d["map"]["fortifications"] = [{"kind": "trench", "hexes": ["J6"], "owner": "french"}]
    assert [x for x in report(d).errors if x.rule == "ASLGW 1.7.2"] == []
