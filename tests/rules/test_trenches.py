"""ASLGW 2.1 deep trenches and 2.2 dugouts: movement (2.1.3), stacking
(2.1.4, 2.2.1), TEM (2.1.6, 2.2.3), fire into/out of a dugout (2.2.3, 2.2.4)."""

from __future__ import annotations

import datetime as dt

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    Fortification,
    FortificationKind,
    HexData,
    MapData,
    Nationality,
    Position,
    Scenario,
    Side,
    Terrain,
    Unit,
    UnitKind,
)
from gwasl.model.scenario_io import load_scenario
from gwasl.rules import trenches as t
from testsupport import EXAMPLE_PATH

H = Hex.from_label


def scenario(ladders=(), terrain=None):
    dt_hexes = (H("B2"), H("C2"))
    hexes = {H("B2"): HexData(terrain or Terrain.OPEN), H("A2"): HexData(Terrain.WOODS), H("C1"): HexData(Terrain.WATER)}
    forts = (
        Fortification(FortificationKind.DEEP_TRENCH, dt_hexes, "fr", tuple(H(x) for x in ladders)),
        Fortification(FortificationKind.DUGOUT, (H("D2"),), "fr"),
        Fortification(FortificationKind.TRENCH, (H("A1"),), "de"),
    )
    return Scenario("t", dt.date(1916, 2, 21), MapData(6, 6, hexes=hexes, fortifications=forts),
                    {"de": Side("de", Nationality.GERMAN), "fr": Side("fr", Nationality.FRENCH)})


@pytest.mark.parametrize("terrain, expected", [(Terrain.OPEN, 3.0), (Terrain.BRUSH, 4.0), (Terrain.SHELLHOLES, 4.0)])
def test_entering_a_deep_trench_costs_two_mf_cumulative_with_the_hex_aslgw_2_1_3(terrain, expected):
    c = t.move_cost(scenario(terrain=terrain), H("B3"), Position.GROUND, H("B2"), Position.DEEP_TRENCH)
    assert c.mf == expected and not c.cx_at_end_of_mph
    assert "ASLGW 2.1.3" in c.reasons[0]
    # from the same hex: only the 2 MF of the deep trench
    assert t.move_cost(scenario(), H("B2"), Position.GROUND, H("B2"), Position.DEEP_TRENCH).mf == 2.0


def test_leaving_doubles_the_cost_cx_and_no_double_time_aslgw_2_1_3():
    c = t.move_cost(scenario(), H("B2"), Position.DEEP_TRENCH, H("A2"), Position.GROUND)  # woods 2 MF
    assert (c.mf, c.cx_at_end_of_mph, c.double_time_allowed) == (4.0, True, False)
    c = t.move_cost(scenario(), H("B2"), Position.DEEP_TRENCH_CREST, H("B2"), Position.GROUND)
    assert c.mf == 2.0 and c.cx_at_end_of_mph


def test_a_ladder_spares_cx_and_allows_double_time_aslgw_2_1_3():
    c = t.move_cost(scenario(ladders=["B2"]), H("B2"), Position.DEEP_TRENCH, H("A2"), Position.GROUND)
    assert (c.mf, c.cx_at_end_of_mph, c.double_time_allowed) == (4.0, False, True)
    # a ladder in another hex of the trench does not help
    c = t.move_cost(scenario(ladders=["C2"]), H("B2"), Position.DEEP_TRENCH, H("A2"), Position.GROUND)
    assert c.cx_at_end_of_mph


def test_bundled_example_ladder_hex_h6_aslgw_2_1_3():
    s = load_scenario(EXAMPLE_PATH)
    assert not t.move_cost(s, H("H6"), Position.DEEP_TRENCH, H("H5"), Position.GROUND).cx_at_end_of_mph
    assert t.move_cost(s, H("G6"), Position.DEEP_TRENCH, H("G5"), Position.GROUND).cx_at_end_of_mph


def test_in_to_crest_status_costs_one_mf_aslgw_2_1_1_b27_41():
    """ASLGW 2.1.1 crest status, costed by classic B27.41 (1 MF within the hex): no CX, no doubling."""
    for a, b in ((Position.DEEP_TRENCH, Position.DEEP_TRENCH_CREST), (Position.DEEP_TRENCH_CREST, Position.DEEP_TRENCH)):
        c = t.move_cost(scenario(), H("B2"), a, H("B2"), b)
        assert (c.mf, c.cx_at_end_of_mph, c.double_time_allowed) == (1.0, False, True)
        assert "B27.41" in c.reasons[0] and "2.1.1" in c.reasons[0]
    assert t.move_cost(scenario(), H("B2"), Position.DEEP_TRENCH, H("B2"), Position.DEEP_TRENCH).mf == 0.0
    # crest status is still in the trench: getting out from it is 2.1.3's doubled exit
    assert t.move_cost(scenario(), H("B2"), Position.DEEP_TRENCH_CREST, H("B3"), Position.GROUND).mf == 2.0


def test_along_the_trench_and_bad_moves_aslgw_2_1_2():
    """ASLGW 2.1.2: classic trench movement (1 MF along connected trench hexes) applies; impossible moves are errors."""
    assert t.move_cost(scenario(), H("B2"), Position.DEEP_TRENCH, H("C2"), Position.DEEP_TRENCH).mf == 1.0
    with pytest.raises(t.LocationError, match="no deep_trench"):
        t.move_cost(scenario(), H("B3"), Position.GROUND, H("B4"), Position.DEEP_TRENCH)
    with pytest.raises(t.LocationError, match="ADJACENT"):
        t.move_cost(scenario(), H("B5"), Position.GROUND, H("B2"), Position.DEEP_TRENCH)
    assert t.move_cost(scenario(), H("B3"), Position.GROUND, H("A2"), Position.GROUND).mf == 2.0  # woods
    with pytest.raises(t.LocationError, match="no deep trench"):
        t.move_cost(scenario(), H("A2"), Position.GROUND, H("A1"), Position.TRENCH)
    with pytest.raises(t.LocationError, match="cannot enter"):
        t.move_cost(scenario(), H("B2"), Position.DEEP_TRENCH, H("C1"), Position.GROUND)


@pytest.mark.parametrize("position, kind, expected", [
    (Position.DEEP_TRENCH_CREST, "direct", 3), (Position.DEEP_TRENCH_CREST, "ovr", 4), (Position.DEEP_TRENCH_CREST, "oba", 4),
    (Position.DEEP_TRENCH, "direct", 3), (Position.DEEP_TRENCH, "oba", 5), (Position.DEEP_TRENCH, "ovr", 5),
])
def test_deep_trench_tem_aslgw_2_1_6(position, kind, expected):
    assert t.location_tem(scenario(), H("B2"), position, kind) == expected
    assert t.location_tem_explained(scenario(), H("B2"), position, t.FireKind(kind)).rule == "ASLGW 2.1.6"


def test_deep_trench_tem_direct_fire_only_from_its_own_hex_aslgw_2_1_5():
    """ASLGW 2.1.5: LOS into a deep trench only from its own hex, so the +3 of 2.1.6
    applies to direct fire from that hex; from another hex the fire cannot happen
    (refused, as for a dugout, 2.2.2).  At crest status (2.1.1) the unit is seen
    like any unit of its hex: +3 from anywhere."""
    s = scenario()
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH, "direct", firer_hex=H("B2")) == 3
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH, "direct") == 3  # only its own hex can fire in
    with pytest.raises(t.LocationError, match=r"2\.1\.5"):
        t.location_tem(s, H("B2"), Position.DEEP_TRENCH, "direct", firer_hex=H("B5"))
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH_CREST, "direct", firer_hex=H("B5")) == 3
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH, "oba", firer_hex=H("B5")) == 5  # OBA needs no LOS from the firer


def test_dugout_tem_aslgw_2_2_3_2_2_2():
    """ASLGW 2.2.3: +6 OBA, +2 direct from its own hex; 2.2.2: no direct fire in from another hex."""
    s = scenario()
    assert t.location_tem(s, H("D2"), Position.DUGOUT, "oba") == 6
    assert t.location_tem(s, H("D2"), Position.DUGOUT, "direct", firer_hex=H("D2")) == 2
    assert t.location_tem(s, H("D2"), Position.DUGOUT, "direct") == 2  # only its own hex can fire in
    with pytest.raises(t.LocationError, match="2.2.2"):
        t.location_tem(s, H("D2"), Position.DUGOUT, "direct", firer_hex=H("D3"))
    with pytest.raises(t.LocationError, match="2.2.1"):
        t.location_tem(s, H("D2"), Position.DUGOUT, "ovr")


def test_ground_and_other_fortification_tem():
    s = scenario(terrain=Terrain.BRUSH)
    assert t.location_tem(s, H("A2"), Position.GROUND, "direct") == 1  # woods, B13
    assert t.location_tem(s, H("A1"), Position.TRENCH, "direct") == 2  # B27
    with pytest.raises(t.LocationError, match="outside"):
        t.location_tem(s, H("Z9"), Position.GROUND, "direct")
    with pytest.raises(ValueError):
        t.location_tem(s, H("A2"), Position.GROUND, "napalm")


def test_dugout_point_blank_aslgw_2_2_3_2_2_4():
    into = t.dugout_point_blank(False, True, True, attackers_have_grenades=True)
    assert (into.name, into.same_location) == ("TPBF", True)
    assert t.dugout_point_blank(False, True, True, attackers_have_grenades=False).name == "DPBF"  # 1.6.62
    out = t.dugout_point_blank(True, False, True, attackers_have_grenades=True)
    assert (out.name, out.same_location) == ("PBF", False)
    assert t.dugout_fire_out_drm(True) == 3 and t.dugout_fire_out_drm(False) == 0
    with pytest.raises(t.LocationError):
        t.dugout_point_blank(False, True, False, True)


def test_stacking_locations_dugout_apart_aslgw_2_2_1_and_limit_2_1_4():
    def u(i, k, pos, h="B2"):
        return Unit(i, "fr", UnitKind(k), H(h), position=pos)
    units = [u("1", "squad", Position.DEEP_TRENCH), u("2", "half_squad", Position.DEEP_TRENCH_CREST),
             u("3", "squad", Position.GROUND), u("4", "squad", Position.DUGOUT, "D2"), u("5", "squad", Position.GROUND, "D2")]
    locs = t.separate_stacking_locations(units)
    assert {k: [x.id for x in v] for k, v in locs.items()} == {
        (H("B2"), "deep_trench"): ["1", "2"], (H("B2"), "hex"): ["3"], (H("D2"), "dugout"): ["4"], (H("D2"), "hex"): ["5"]}
    assert t.deep_trench_stacking_limit() == 2
    assert t.deep_trench_overstacked(locs[(H("B2"), "deep_trench")]) is None  # 1.5
    assert t.deep_trench_overstacked(locs[(H("B2"), "deep_trench")] + (u("6", "crew", Position.DEEP_TRENCH),)) is None  # 2
    assert t.deep_trench_overstacked(locs[(H("B2"), "deep_trench")] + (u("7", "squad", Position.DEEP_TRENCH),)) == 2.5


def test_dugout_troops_do_not_stop_movement_outside_it_aslgw_2_2_1():
    """ASLGW 2.2.1: troops in a dugout cannot prevent enemy units from moving in their hex outside the dugout."""
    s = scenario()
    s = Scenario(s.title, s.date, s.map, s.sides, (
        Unit("f1", "fr", UnitKind.SQUAD, H("D2"), position=Position.DUGOUT),
        Unit("f2", "fr", UnitKind.SUPPORT_WEAPON, H("D2")),
        Unit("g1", "de", UnitKind.SQUAD, H("B2"), position=Position.DEEP_TRENCH)))
    assert t.enemies_in_the_way(s, "de", H("D2"), Position.GROUND) == ()
    assert [u.id for u in t.enemies_in_the_way(s, "de", H("D2"), Position.DUGOUT)] == ["f1"]
    assert [u.id for u in t.enemies_in_the_way(s, "fr", H("B2"), Position.GROUND)] == ["g1"]  # outside a dugout: in the way
    assert t.enemies_in_the_way(s, "fr", H("D2"), Position.DUGOUT) == ()  # own troops
    with pytest.raises(t.LocationError):
        t.enemies_in_the_way(s, "de", H("B3"), Position.DUGOUT)


SEED = __import__("testsupport").source_text("seeds/004_4371414167e1669c.txt")


@pytest.mark.skipif(not SEED.exists(), reason="ASLGW source text not on this machine")
def test_aslgw_2_1_and_2_2_numbers_against_the_source_text():
    """ASLGW 2.1.3 (2 MF in, doubled out), 2.1.4 (2 squads), 2.1.6 (crest +3/+4, IN +3/+5), 2.2.3 (+6 OBA,
    +2 direct), 2.2.4 (+3 firing out), re-read from the text and compared with what the rules return."""
    import re
    text = SEED.read_text(encoding="utf-8")
    sec = lambda a, b: text[text.index(a): text.index(b)]  # noqa: E731
    num = lambda pat, where: int(re.search(pat, where).group(1))  # noqa: E731
    words = {"two": 2}
    s213 = sec("#### 2.1.3", "#### 2.1.4")
    enter = words[re.search(r"INTO a deep Trench at the cost of (\w+) MF", s213).group(1)]
    assert "doubles the MF cost" in s213
    s = scenario()
    assert t.move_cost(s, H("B2"), Position.GROUND, H("B2"), Position.DEEP_TRENCH).mf == enter
    assert t.move_cost(s, H("B2"), Position.DEEP_TRENCH, H("A2"), Position.GROUND).mf == 2 * 2.0  # woods doubled
    assert t.deep_trench_stacking_limit() == num(r"Deep Trench is (\d) squads", sec("#### 2.1.4", "#### 2.1.5"))
    s216 = sec("#### 2.1.6", "## 2.2")
    crest, inside = s216.split("Units IN")
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH_CREST, "direct") == num(r"\+(\d) TEM against direct", crest)
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH_CREST, "ovr") == num(r"\+ ?(\d) TEM against OVR", crest)
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH_CREST, "oba") == num(r"\+ ?(\d) TEM against OVR and OBA", crest)
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH, "direct") == num(r"\+(\d) TEM against eventual direct", inside)
    assert t.location_tem(s, H("B2"), Position.DEEP_TRENCH, "oba") == num(r"\+(\d) TEM against OBA", inside)
    s223 = sec("### 2.2.3", "### 2.2.4")
    assert t.location_tem(s, H("D2"), Position.DUGOUT, "oba") == num(r"\+(\d) TEM against OBA", s223)
    assert t.location_tem(s, H("D2"), Position.DUGOUT, "direct", firer_hex=H("D2")) == num(r"\+(\d) TEM against direct", s223)
    assert t.dugout_fire_out_drm(True) == num(r"suffer a \+(\d) TEM", sec("### 2.2.4", "## CREDITS"))


@pytest.mark.parametrize("path", __import__("testsupport").bundled_scenarios(), ids=lambda p: p.name)
def test_location_tem_on_every_location_of_the_bundled_scenarios(path):
    """location_tem gives a TEM or a clear LocationError, never anything else (ASLGW 2.1.6, 2.2.3)."""
    s = load_scenario(path)
    seen = set()
    for h in s.map:
        for pos in Position:
            for kind in t.FireKind:
                try:
                    v = t.location_tem(s, h, pos, kind)
                except t.LocationError as e:
                    assert str(e)
                    continue
                assert 0 <= v <= 6
                seen.add((pos, kind, v))
    for f in s.map.fortifications:
        if f.kind is FortificationKind.DEEP_TRENCH:
            assert {(Position.DEEP_TRENCH, t.FireKind.OBA, 5), (Position.DEEP_TRENCH_CREST, t.FireKind.OVR, 4)} <= seen
        if f.kind is FortificationKind.DUGOUT:
            assert (Position.DUGOUT, t.FireKind.OBA, 6) in seen
