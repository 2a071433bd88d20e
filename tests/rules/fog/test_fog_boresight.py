"""O'Leary 6 (bore sighting by a third die) and 7 (pre-registered hexes)."""

from __future__ import annotations

import pytest

from gwasl.model.phases import Phase
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.boresight import ThirdDieError, bore_sight_die, pre_registration_die, scatter
from gwasl.rules.fog.words import line

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


def mg(uid, bs="undetermined"):
    return {"id": uid, "side": "french", "kind": "support_weapon", "weapon": "MG", "hex": "C3", "bore_sight": bs}


def _state(kit, *units):
    s = kit.build(units=[ENEMY, *units], fog={"oba": [{"id": "75mm", "side": "french", "pre_registered": "undetermined"}]})
    return kit.at(s, "french", Phase.PFPh)[0]


ANY = lambda h: True  # noqa: E731


@pytest.mark.parametrize("die", [1, 2])
def test_6_1_third_die_1_or_2_fixes_the_target_as_bore_sighted(kit, die):
    """O'Leary 6.1: 1-2: the target location is the bore-sighted location for this and later shots."""
    r = bore_sight_die(_state(kit, mg("m1")), ["m1"], kit.hx("F5"), ScriptedDice([die]), ANY)
    assert r.outcome == "fixed" and r.fixed == kit.hx("F5")
    assert r.state.bore_sight[0].hex == kit.hx("F5")
    with pytest.raises(ThirdDieError, match="already"):
        bore_sight_die(r.state, ["m1"], kit.hx("F6"), ScriptedDice([1]), ANY)


@pytest.mark.parametrize("die", [3, 4, 5])
def test_6_1_third_die_3_to_5_not_yet(kit, die):
    """O'Leary 6.1: 3-5: not (yet) the bore-sighted location."""
    r = bore_sight_die(_state(kit, mg("m1")), ["m1"], kit.hx("F5"), ScriptedDice([die]), ANY)
    assert r.outcome == "not_yet" and r.state.bore_sight[0].hex is None


def test_6_1_third_die_6_scatters_by_direction_and_distance(kit):
    """O'Leary 6.1: 6: a direction die and a distance die; the hex reached becomes it if it
    could be bore sighted, else it stays undetermined."""
    r = bore_sight_die(_state(kit, mg("m1")), ["m1"], kit.hx("E5"), ScriptedDice([6, 1, 2]), ANY)
    assert r.outcome == "scattered" and r.fixed == kit.hx("E3") and len(r.scatter_rolls) == 2
    r = bore_sight_die(_state(kit, mg("m1")), ["m1"], kit.hx("E5"), ScriptedDice([6, 4, 3]), lambda h: False)
    assert r.outcome == "scattered_off" and r.state.bore_sight[0].hex is None


def test_6_3_weapons_may_share_one_die_decided_before_the_throw(kit):
    """O'Leary 6.3: two weapons of a firing stack may use the same die."""
    r = bore_sight_die(_state(kit, mg("m1"), mg("m2")), ["m1", "m2"], kit.hx("F5"), ScriptedDice([2]), ANY)
    assert {b.unit_id: b.hex for b in r.state.bore_sight} == {"m1": kit.hx("F5"), "m2": kit.hx("F5")}
    assert r.members == ("m1", "m2") and r.roll.dice == (2,) and r.rule == "O'Leary 6.1"  # one die for both


def test_6_1_only_weapons_allowed_to_bore_sight_roll(kit):
    with pytest.raises(ThirdDieError, match="6.1"):
        bore_sight_die(_state(kit, mg("m1")), ["G"], kit.hx("F5"), ScriptedDice([1]), ANY)


def test_6_secret_the_enemy_log_shows_nothing(kit):
    """O'Leary 6 in a hidden-information game: the bore-sight die is the owner's secret."""
    r = bore_sight_die(_state(kit, mg("m1")), ["m1"], kit.hx("F5"), ScriptedDice([1]), ANY)
    assert r.side == "french" and line(r, "german") is None
    assert "F5" in (line(r, "french") or "") and line(r, "french") == line(r, "omniscient")


def test_7_1_pre_registration_die(kit):
    """O'Leary 7.1: after the AR, before accuracy: 1-2 the AR hex is pre-registered; 3-5 not;
    6 direction and distance."""
    st = _state(kit)
    r = pre_registration_die(st, "75mm", kit.hx("F5"), ScriptedDice([1]), ANY)
    assert r.fixed == kit.hx("F5") and r.state.pre_registration[0].hex == kit.hx("F5")
    assert r.rule == "O'Leary 7.1" and line(r, "german") is None and "pre-registered F5" in (line(r, "french") or "")
    r = pre_registration_die(st, "75mm", kit.hx("F5"), ScriptedDice([4]), ANY)
    assert r.fixed is None
    r = pre_registration_die(st, "75mm", kit.hx("E5"), ScriptedDice([6, 4, 1]), ANY)
    assert r.fixed == kit.hx("E6") == scatter(kit.hx("E5"), 4, 1)
    with pytest.raises(ThirdDieError):
        pre_registration_die(st, "105mm", kit.hx("F5"), ScriptedDice([1]), ANY)
