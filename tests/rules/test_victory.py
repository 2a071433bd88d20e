"""Victory Points (A26.2-26.23), avoidance (A26.3), balance (A26.4) and judging."""

from __future__ import annotations

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.rules.control import ControlMap, Location, Occupant
from gwasl.rules.victory import ControlCondition, Loss, VPCondition, balance_dr_loser, judge, tally, unit_vp


@pytest.mark.parametrize(("kind", "mod", "vp"), [
    ("squad", 0, 2), ("crew", 0, 2), ("half_squad", 0, 1), ("leader", 0, 1), ("leader", 1, 1),
    ("leader", -1, 2), ("leader", -3, 4), ("hero", -1, 0), ("support_weapon", 0, 0),
])
def test_unit_vp_a26_211(kind, mod, vp):
    assert unit_vp(kind, mod) == vp


def test_cvp_for_eliminated_and_left_map_not_for_exit_a26_221():
    t = tally([Loss("a", "German", 2, "eliminated"), Loss("b", "German", 1, "left_map"),
               Loss("c", "German", 2, "exited"), Loss("d", "French", 2, "exited", broken=True)], ["German", "French"])
    assert dict(t.cvp) == {"German": 0, "French": 3}
    assert dict(t.exit_vp) == {"German": 2, "French": 0}  # broken personnel give no exit VP (A26.23)
    assert any("A26.23" in line for line in t.lines)


def test_capture_counts_normal_during_play_double_at_the_end_a26_222():
    t = tally([Loss("L", "French", 3, "captured")], ["German", "French"])
    assert t.cvp["German"] == 3
    end = t.at_game_end()
    assert end.cvp["German"] == 6 and end.at_game_end() is end
    assert any("doubled at game end" in line for line in end.lines)


def _control(side: str, *labels: str) -> ControlMap:
    units = [Occupant(f"u{i}", side, Location(Hex.from_label(h))) for i, h in enumerate(labels)]
    return ControlMap().update(units, {})[0]


def test_control_condition_and_avoidance_a26_3():
    conds = {"German": [ControlCondition("German", hexes=("B2", "C3"))]}
    t = tally([], ["German", "French"])
    v = judge(conds, _control("German", "B2"), t, ["German", "French"], over=True)
    assert v is not None and v.winner == "French" and "A26.3" in v.why
    assert judge(conds, _control("German", "B2"), t, ["German", "French"], over=False) is None
    v = judge(conds, _control("German", "B2", "C3"), t, ["German", "French"], over=False)
    assert v is not None and v.winner == "German"  # met at once (immediate)


def test_vp_condition_with_cap_and_margin():
    t = tally([Loss(f"s{i}", "French", 2, "eliminated") for i in range(5)], ["German", "French"])
    capped = {"German": [VPCondition("German", "cvp", 10, cap=8)]}
    v = judge(capped, ControlMap(), t, ["German", "French"], over=True)
    assert v is not None and v.winner == "French" and any("capped at 8 from 10" in d for d in v.details)
    margin = {"German": [VPCondition("German", "cvp", 4, more_than_enemy=True)], "French": [VPCondition("French", "cvp", 20)]}
    v = judge(margin, ControlMap(), t, ["German", "French"], over=True)
    assert v is not None and v.winner == "German"


def test_no_one_meets_both_sides_conditions_is_a_draw():
    conds = {"German": [VPCondition("German", "cvp", 5)], "French": [VPCondition("French", "cvp", 5)]}
    v = judge(conds, ControlMap(), tally([], ["German", "French"]), ["German", "French"], over=True)
    assert v is not None and v.winner is None and "draw" in v.why


def test_balance_dr_a26_4():
    assert balance_dr_loser({"Anna": 2, "Bert": 5}) == "Anna"
    assert balance_dr_loser({"Anna": 6, "Bert": 5}) == "Bert"
    assert balance_dr_loser({"Anna": 3, "Bert": 3}) is None
