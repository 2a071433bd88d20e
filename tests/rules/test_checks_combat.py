"""``gwasl validate`` checks of gwasl.rules.checks_combat: ASLGW 2.1.4 deep
trench stacking, positions needing their fortification (2.1, 2.2), gas
protection dates (1.9.11, 1.9.12), trench armour (1.8)."""

from __future__ import annotations

import json

from gwasl.cli import main
from testsupport import EXAMPLE_PATH, bundled_scenarios


def validate(capsys, tmp_path, doc):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    code = main(["validate", str(p), "--json"])
    return code, json.loads(capsys.readouterr().out)


def rules(report):
    out = []
    for e in report["errors"]:
        assert e["message"].endswith(f"({e['rule']})")  # CONTRACTS 4 shows only path and message
        out.append(e["rule"])
    return out


def example():
    return json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))


def test_bundled_scenarios_stay_valid(capsys):
    for p in bundled_scenarios():
        assert main(["validate", str(p)]) == 0, capsys.readouterr().out


def test_deep_trench_stacking_limit_aslgw_2_1_4(capsys, tmp_path):
    doc = example()
    # H6 holds leader F1-L and squad F1-2 in the deep trench; add a squad and a half-squad: 2.5 squads
    doc["units"] += [
        {"id": "X1", "side": "french", "kind": "squad", "class": "first_line", "hex": "H6", "in": "deep_trench"},
        {"id": "X2", "side": "french", "kind": "half_squad", "class": "first_line", "hex": "H6", "in": "deep_trench_crest"},
    ]
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 2 and "ASLGW 2.1.4" in rules(rep)
    msg = next(e["message"] for e in rep["errors"] if e.get("rule") == "ASLGW 2.1.4")
    assert "H6" in msg and "2.5" in msg
    # a half-squad instead of the added squad: exactly 2 squad-equivalents, valid
    doc["units"][-2] = {"id": "X1", "side": "french", "kind": "half_squad", "class": "first_line", "hex": "H6", "in": "deep_trench"}
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 0, rep


def test_dugout_units_do_not_count_in_the_hex_aslgw_2_2_1(capsys, tmp_path):
    doc = example()
    # the dugout of H7 already holds the crew F-MG: 2.5 squad-equivalents, plus 3 squads outside it
    doc["units"] += [{"id": f"D{i}", "side": "french", "kind": "squad", "class": "first_line", "hex": "H7", "in": "dugout"}
                     for i in range(2)]
    doc["units"] += [{"id": f"G{i}", "side": "french", "kind": "squad", "class": "first_line", "hex": "H7"} for i in range(3)]
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 0, rep


def test_position_needs_its_fortification_aslgw_2_1_2_2(capsys, tmp_path):
    doc = example()
    doc["units"].append({"id": "X", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1", "in": "deep_trench"})
    doc["units"].append({"id": "Y", "side": "german", "kind": "squad", "class": "first_line", "hex": "A2", "in": "dugout"})
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 2 and {"ASLGW 2.1", "ASLGW 2.2"} <= set(rules(rep))


def test_gas_protection_dates_aslgw_1_9_11_1_9_12(capsys, tmp_path):
    doc = example()
    doc["date"] = "1915-04-01"
    doc["sides"]["german"]["gas_protection"] = "mask"
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 2 and "ASLGW 1.9.11" in rules(rep)
    doc["date"] = "1915-04-25"
    doc["sides"]["french"]["gas_protection"] = "mask"
    code, rep = validate(capsys, tmp_path, doc)
    assert rules(rep).count("ASLGW 1.9.12") == 1 and "ASLGW 1.9.11" not in rules(rep)  # Germans may have masks
    doc["sides"]["french"]["gas_protection"] = "cotton_pads"
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 0 and rep["warnings"] == [], rep
    # 1.9.11: before June 1915 the OB must say; a silent OB gets a warning naming the default
    del doc["sides"]["french"]["gas_protection"]
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 0 and any("cotton_pads" in w["message"] and w["path"] == "$.sides.french" for w in rep["warnings"])


def test_trench_armour_on_a_support_weapon_aslgw_1_8(capsys, tmp_path):
    doc = example()
    doc["units"][7]["trench_armour"] = True  # G-FT
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 2 and "ASLGW 1.8" in rules(rep)


RULE_MODULES = ["morale", "gas", "bayonet", "garance", "armour", "close_combat", "trenches", "checks_combat"]


def test_every_rule_function_cites_its_rule():
    """COMMON code standards: each public rule function's docstring names the rule it implements."""
    import importlib
    import inspect
    import re

    cite = re.compile(r"ASLGW \d|\b[AB]\d+(\.\d+)*\b|ASL Index")
    missing = []
    for name in RULE_MODULES:
        mod = importlib.import_module(f"gwasl.rules.{name}")
        for attr in mod.__all__:
            obj = getattr(mod, attr)
            public_rule = inspect.isfunction(obj) and not attr.startswith("parse_") and attr not in ("asl_core", "to_json")
            if public_rule and not cite.search(obj.__doc__ or ""):
                missing.append(f"{name}.{attr}")
    assert not missing


def test_hex_stacking_limits_a5_1(capsys, tmp_path):
    """A5.1 (classic stacking, kept by ASLGW outside deep trenches): 3 squad-equivalents and 4 SMC per side."""
    doc = example()
    def sq(i, kind="squad", h="A1", pos="ground"):
        return {"id": i, "side": "german", "kind": kind, "hex": h, "in": pos,
                **({"class": "first_line"} if kind in ("squad", "half_squad") else {})}
    doc["units"] += [sq("S1"), sq("S2"), sq("S3")]
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 0, rep  # exactly 3 squads
    doc["units"].append(sq("H1", "half_squad"))
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 2 and rules(rep) == ["A5.1"]
    assert "hex A1: 3.5 squad-equivalents" in rep["errors"][0]["message"]
    doc["units"][-1] = sq("C1", "crew", "A2")  # a crew elsewhere, plus five SMC in A1
    doc["units"] += [{"id": f"L{i}", "side": "german", "kind": "leader", "hex": "A1", "rating": "8-0"} for i in range(4)]
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 0, rep  # 4 SMC is the limit
    doc["units"].append({"id": "L9", "side": "german", "kind": "hero", "hex": "A1"})
    code, rep = validate(capsys, tmp_path, doc)
    assert rules(rep) == ["A5.1"] and "5 SMC" in rep["errors"][0]["message"]


def test_dugout_has_the_classic_limit_apart_from_its_hex_a5_1_aslgw_2_2_1(capsys, tmp_path):
    """ASLGW 2.2.1: a dugout stacks apart from its hex, with the A5.1 limit of its own."""
    doc = example()
    doc["units"] += [{"id": f"D{i}", "side": "french", "kind": "squad", "class": "first_line", "hex": "H7", "in": "dugout"}
                     for i in range(3)]  # with the crew F-MG already there: 3.5
    code, rep = validate(capsys, tmp_path, doc)
    assert code == 2 and rules(rep) == ["A5.1"] and "dugout of H7: 3.5 squad-equivalents" in rep["errors"][0]["message"]
