"""ASLGW 1.10 close combat: normal CC or HtH (1.10.1), melee turning into HtH
(1.10.11), the French -1 HtH DRM (1.11.2) and trench armour +1 (1.8)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Unit, UnitKind
from gwasl.rules import close_combat as cc


def u(i, pos=Position.GROUND, h=Hex(0, 0), armour=False):
    return Unit(i, "x", UnitKind.SQUAD, h, position=pos, trench_armour=armour)


def test_same_location_without_grenades_is_hth_aslgw_1_10_1():
    sep = cc.locations_separation([u("a")], [u("d")])
    assert sep is cc.Separation.SAME_LOCATION
    assert cc.close_combat_kind(sep, all_attackers_have_grenades=False).kind is cc.CCKind.HTH
    assert cc.close_combat_kind(sep, all_attackers_have_grenades=True).kind is cc.CCKind.NORMAL


@pytest.mark.parametrize("pos", [Position.TRENCH, Position.DEEP_TRENCH, Position.DUGOUT, Position.FOXHOLE])
def test_separated_locations_allow_normal_cc_aslgw_1_10_1(pos):
    sep = cc.locations_separation([u("a")], [u("d", pos)])
    assert sep is cc.Separation.ACCESSIBLE
    assert cc.close_combat_kind(sep, False).kind is cc.CCKind.NORMAL
    assert cc.close_combat_kind(cc.locations_separation([u("a")], [u("d")], wire_between=True), False).kind is cc.CCKind.NORMAL


def test_deep_trench_in_and_crest_are_one_location():
    assert cc.locations_separation([u("a", Position.DEEP_TRENCH_CREST)], [u("d", Position.DEEP_TRENCH)]) is cc.Separation.SAME_LOCATION


def test_melee_across_a_trench_turns_hth_but_not_across_wire_aslgw_1_10_11():
    assert cc.melee_kind(cc.Separation.ACCESSIBLE, False).kind is cc.CCKind.HTH
    assert cc.melee_kind(cc.Separation.ACCESSIBLE, True).kind is cc.CCKind.NORMAL  # HG exception
    assert cc.melee_kind(cc.Separation.OBSTRUCTED, False).kind is cc.CCKind.NORMAL
    assert cc.melee_kind(cc.Separation.SAME_LOCATION, False).kind is cc.CCKind.HTH
    assert cc.melee_kind(cc.Separation.ACCESSIBLE, False).rule == "ASLGW 1.10.11"


def test_cc_needs_one_hex():
    with pytest.raises(cc.CloseCombatError, match="one hex"):
        cc.locations_separation([u("a")], [u("d", h=Hex(1, 0))])
    with pytest.raises(cc.CloseCombatError):
        cc.locations_separation([], [u("d")])


def test_french_hth_drm_armour_and_cx_aslgw_1_11_2_1_8():
    mods = cc.cc_modifiers(cc.CCKind.HTH, -1, [u("d", armour=True)], attacker_cx=True)
    assert [m.value for m in mods] == [-1, 1, 1]
    assert "1.11.2" in mods[0].cause and "1.8" in mods[1].cause and "A4.51" in mods[2].cause
    # the French DRM is for HtH only
    assert [m.value for m in cc.cc_modifiers(cc.CCKind.NORMAL, -1, [u("d")])] == []


def test_classic_cc_otherwise_aslgw_1_10_12():
    """ASLGW 1.10.12: classic ASL CC otherwise; without HtH, armour or CX these rules add no DRM to the A11 CC."""
    assert cc.cc_modifiers(cc.CCKind.NORMAL, 0, [u("d")]) == ()
    assert cc.cc_modifiers(cc.CCKind.HTH, 0, [u("d")]) == ()  # a nationality without a HtH DRM
    d = cc.close_combat_kind(cc.Separation.ACCESSIBLE, all_attackers_have_grenades=False)
    assert (d.kind, d.rule) == (cc.CCKind.NORMAL, "ASLGW 1.10.1")


@given(st.sampled_from(list(cc.Separation)), st.booleans())
def test_grenades_always_allow_normal_cc(sep, hg):
    """ASLGW 1.10 close combat, 1.10.1/1.10.11: with every attacker carrying HG the CC is never forced to HtH."""
    for decide in (cc.close_combat_kind, cc.melee_kind):
        d = decide(sep, hg)
        if hg:
            assert d.kind is cc.CCKind.NORMAL
        assert d.rule.startswith("ASLGW 1.10")
