"""Scenario checks of the fog extension fields and O'Leary's allotments (3.1.1, 4.1, 4.6.1)."""

from __future__ import annotations

import pytest

from gwasl.model.scenario_io import load_scenario, scenario_from_text, scenario_to_json
from gwasl.rules.fog.checks import dummy_hip_allotment, dummy_minefield_allotment
from gwasl.rules.validate import validate_scenario
from testsupport import EXAMPLE_PATH

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


def errors(s):
    return [(f.path, f.rule, f.message) for f in validate_scenario(s).errors]


def test_bundled_scenario_stays_valid():
    """O'Leary 3.1.1 on the bundled scenario: a HIP squad and crew (1.5 squad-equivalents, so 2) allow 3 dummy HIP."""
    s = load_scenario(EXAMPLE_PATH)
    assert validate_scenario(s).valid
    # French HIP: a squad and a crew (1.5 squad-equivalents -> 2), so up to 3 dummy HIP; it has 2.
    assert dummy_hip_allotment(s, "french") == 3


def test_extension_fields_round_trip(kit):
    """CONTRACTS 2: fog extension fields (docs/format/fog.md) survive a load-save round trip and validate."""
    s = kit.build(units=[ENEMY, {"id": "g", "side": "french", "kind": "support_weapon", "weapon": "75mm", "hex": "C3",
                                 "hidden": "hip", "size_class": "normal_gun", "emplaced": True, "bore_sight": "undetermined"}],
                  forts=[{"kind": "minefield", "hexes": ["E5"], "owner": "french", "hidden": True, "ap": 6, "at": 1}],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  fog={"shift_balance_drm": -1, "oba": [{"id": "75", "side": "french", "pre_registered": "undetermined"}]},
                  side_fog={"french": {"hip_squad_capacity": 1, "hidden_minefield": {"ap": 6, "at": 1}}})
    again = scenario_from_text(scenario_to_json(s))
    assert scenario_to_json(again) == scenario_to_json(s)
    assert validate_scenario(again).valid, errors(again)


def test_4_1_hidden_fortification_and_panji_add_dummy_hip(kit):
    """O'Leary 4.1: one dummy HIP per hidden fortification without HIP units or dummy HIP at
    start, and one per three panji hexsides."""
    s = kit.build(units=[ENEMY], forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True},
                                        {"kind": "trench", "hexes": ["D3", "D4"], "owner": "french", "hidden": True}],
                  side_fog={"french": {"panji_hexsides": 7}})
    assert dummy_hip_allotment(s, "french") == 3 + 2


def test_4_6_1_dummy_minefields_one_per_three_ap_and_one_per_at(kit):
    """O'Leary 4.6.1: 7 AP and 2 AT factors -> 2 + 2 dummy minefields; a fifth is refused."""
    four = [{"side": "french", "kind": "dummy_minefield", "hex": h} for h in ("B1", "B2", "B3", "B4")]
    forts = [{"kind": "minefield", "hexes": ["E5"], "owner": "french", "hidden": True, "ap": 7, "at": 2}]
    s = kit.build(units=[ENEMY], forts=forts, dummies=four)
    assert dummy_minefield_allotment(s, "french") == 4 and validate_scenario(s).valid
    s5 = kit.build(units=[ENEMY], forts=forts, dummies=four + [{"side": "french", "kind": "dummy_minefield", "hex": "B5"}])
    assert any(rule == "O'Leary 4.6.1" for _, rule, _ in errors(s5))


@pytest.mark.parametrize("kw,path,rule", [
    (dict(fog={"shift_balance_drm": -3}), "$.fog.shift_balance_drm", "O'Leary 2.5"),
    (dict(units=[ENEMY, {"id": "c", "side": "french", "kind": "squad", "class": "elite", "hex": "C3", "cloaked": True}]),
     "$.units[1].cloaked", "O'Leary 5"),
    (dict(units=[ENEMY, {"id": "c", "side": "french", "kind": "squad", "class": "elite", "hex": "C3", "size_class": "tank"}]),
     "$.units[1].size_class", "O'Leary 2.5"),
    (dict(units=[ENEMY, {"id": "c", "side": "french", "kind": "squad", "class": "elite", "hex": "C3", "bore_sight": "ZZ99"}]),
     "$.units[1].bore_sight", "O'Leary 6.1"),
    (dict(forts=[{"kind": "pillbox", "hexes": ["C3"], "hidden": True}]), "$.map.fortifications[0].owner", "O'Leary 4"),
    (dict(forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "setup_hexes": ["D3"]}]),
     "$.map.fortifications[0].hexes", "O'Leary 4.2"),
    (dict(forts=[{"kind": "minefield", "hexes": ["C3"], "owner": "french", "ap": -1}]), "$.map.fortifications[0].ap", "O'Leary 4.6.1"),
    (dict(dummies=[{"side": "french", "kind": "dummy_stack", "hex": "C3", "counters": 2, "in": "attic"}]), "$.dummies[0].in", "O'Leary 2.3"),
    (dict(units=[ENEMY, {"id": "c", "side": "french", "kind": "squad", "class": "elite", "hex": "C3", "hidden": "hip"}],
          side_fog={"french": {"hip_squad_capacity": 0}}), "$.sides.french.fog.hip_squad_capacity", "O'Leary 3.1.1"),
])
def test_bad_extension_fields_are_named_with_their_rule(kit, kw, path, rule):
    """CONTRACTS 2: each bad fog field is reported at its JSON path with the O'Leary rule it breaks."""
    kw.setdefault("units", [ENEMY])
    found = errors(kit.build(**kw))
    assert any(p == path and r == rule for p, r, _ in found), found


def test_4_1_a_fortifications_own_dummy_hip_does_not_count_against_it(kit):
    """O'Leary 4.1: a hidden pillbox earns one dummy HIP; placing that dummy in the pillbox's
    own location must not take the allotment away (it was 0 of 1 placed: "over")."""
    pillbox = {"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}
    own = kit.build(units=[ENEMY], forts=[pillbox], dummies=[{"side": "french", "kind": "dummy_hip", "hex": "C3"}])
    assert dummy_hip_allotment(own, "french") == 1 and validate_scenario(own).valid, errors(own)
    elsewhere = kit.build(units=[ENEMY], forts=[pillbox], dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}])
    assert dummy_hip_allotment(elsewhere, "french") == 1 and validate_scenario(elsewhere).valid


def test_4_1_a_fortification_set_up_with_hip_units_or_other_dummies_earns_none(kit):
    """O'Leary 4.1: a hidden fortification holding HIP units, or more dummy HIP than its own one
    (some from the 3.1.1 allotment), earns no dummy HIP of its own."""
    pillbox = {"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}
    hip = {"id": "h", "side": "french", "kind": "squad", "class": "first_line", "hex": "C3", "hidden": "hip"}
    with_unit = kit.build(units=[ENEMY, hip], forts=[pillbox])
    assert dummy_hip_allotment(with_unit, "french") == 2  # 3.1.1 only: capacity 1, plus one
    two = [{"side": "french", "kind": "dummy_hip", "hex": "C3"}] * 2
    crowded = kit.build(units=[ENEMY, dict(hip, hex="H6")], forts=[pillbox], dummies=two)
    assert dummy_hip_allotment(crowded, "french") == 2


def test_4_1_editor_palette_count_is_the_validators(kit):
    """O'Leary 3.1.1, 4.1 (issue 10 item 11): a lone hidden pillbox gives 1, not 0, wherever asked."""
    from gwasl.rules.fog.checks import dummy_allotment

    s = kit.build(units=[ENEMY], forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True}])
    a = dummy_allotment(s, "french")
    assert (a.hip_squad_capacity, a.dummy_hip_allowed, a.dummy_hip_placed) == (0, 1, 0)
    assert a.dummy_hip_allowed == dummy_hip_allotment(s, "french")
