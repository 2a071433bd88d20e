"""ASLGW 1.5 Bayonet Charge: the declaration check returns every unmet
condition with its rule; the effects on BCh units for the player turn."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import (
    Fortification,
    FortificationKind,
    HiddenStatus,
    LeaderRating,
    MapData,
    Nationality,
    Position,
    Scenario,
    Side,
    Unit,
    UnitClass,
    UnitKind,
)
from gwasl.rules import bayonet as b
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.morale import morale_check

H = Hex.from_label
NORTH = 0
CLEAR = lambda *a: True  # noqa: E731


def squad(i, h, **kw):
    return Unit(i, "fr", UnitKind.SQUAD, H(h), unit_class=UnitClass.FIRST_LINE, **kw)


def leader(i, h):
    return Unit(i, "fr", UnitKind.LEADER, H(h), rating=LeaderRating(8, 0))


def scen(units, enemy_hex="D1", forts=()):
    enemy = (Unit("G", "de", UnitKind.SQUAD, H(enemy_hex), unit_class=UnitClass.FIRST_LINE),) if enemy_hex else ()
    return Scenario("t", dt.date(1914, 9, 6), MapData(12, 14, fortifications=forts),
                    {"fr": Side("fr", Nationality.FRENCH), "de": Side("de", Nationality.GERMAN)}, tuple(units) + enemy)


# six squads, two per hex, in the contiguous C5-D5-E5, with a leader
LINE = [squad("s1", "C5"), squad("s2", "C5"), squad("s3", "D5"), squad("s4", "D5"), squad("s5", "E5"),
        squad("s6", "E5"), leader("L", "D5")]
IDS = tuple(u.id for u in LINE)


def conditions(check):
    return [f.condition for f in check.failures]


def test_a_platoon_in_line_may_charge_aslgw_1_5():
    check = b.check_bch_declaration(scen(LINE), b.BChDeclaration(IDS, NORTH), CLEAR)
    assert check.ok, check.failures


def test_average_of_two_mmc_per_hex_over_three_hexes_and_french_exemption_aslgw_1_5_1_11_2():
    units = LINE[:5] + LINE[6:]  # 5 MMC over C5-D5-E5: average 5/3 < 2
    decl = b.BChDeclaration(tuple(u.id for u in units), NORTH)
    check = b.check_bch_declaration(scen(units), decl, CLEAR, french_exempt=False)
    assert conditions(check) == ["mmc_average"] and "1.5" in check.failures[0].rule
    assert b.check_bch_declaration(scen(units), decl, CLEAR, french_exempt=True).ok  # 1.11.2
    assert b.check_bch_declaration(scen(units), decl, CLEAR).ok  # a French side is exempt by its nationality (1.11.2)
    german = [dataclasses.replace(u, side="de") for u in units]
    g = Scenario("t", dt.date(1916, 2, 21), MapData(12, 14), {"fr": Side("fr", Nationality.FRENCH),
                 "de": Side("de", Nationality.GERMAN)}, tuple(german) + (squad("F", "D1"),))
    assert conditions(b.check_bch_declaration(g, decl, CLEAR)) == ["mmc_average"]  # Germans are not
    # 6 MMC but in two hexes only: still not three contiguous hexes
    two = [squad(f"t{i}", "C5" if i < 3 else "D5") for i in range(6)] + [leader("L", "C5")]
    check = b.check_bch_declaration(scen(two), b.BChDeclaration(tuple(u.id for u in two), NORTH), CLEAR, french_exempt=False)
    assert conditions(check) == ["mmc_average"]


def test_uneven_hexes_average_counts_aslgw_1_5():
    # 4 + 1 + 1 = 6 MMC over three contiguous hexes: an average of 2
    units = [squad(f"u{i}", "C5") for i in range(4)] + [squad("v", "D5"), squad("w", "E5"), leader("L", "D5")]
    assert b.check_bch_declaration(scen(units), b.BChDeclaration(tuple(u.id for u in units), NORTH), CLEAR).ok


def test_good_order_infantry_no_crews_aslgw_1_5():
    units = LINE + [squad("x", "E5", broken=True), Unit("c", "fr", UnitKind.CREW, H("C5"))]
    check = b.check_bch_declaration(scen(units), b.BChDeclaration(tuple(u.id for u in units), NORTH), CLEAR)
    by = {f.condition: f for f in check.failures}
    assert set(by) == {"good_order", "infantry_not_crew"}
    assert by["good_order"].unit_ids == ("x",) and by["infantry_not_crew"].unit_ids == ("c",)


def test_a_leader_is_needed_with_mmc_aslgw_1_5():
    units = LINE[:6]
    check = b.check_bch_declaration(scen(units), b.BChDeclaration(tuple(u.id for u in units), NORTH), CLEAR)
    assert conditions(check) == ["leader"]


def test_contiguous_chain_aslgw_1_5():
    units = LINE + [squad("far", "H5")]
    check = b.check_bch_declaration(scen(units), b.BChDeclaration(tuple(u.id for u in units), NORTH), CLEAR)
    assert conditions(check) == ["contiguous_chain"]
    assert "H5" in check.failures[0].message


def test_los_to_an_enemy_within_eight_hexes_ahead_aslgw_1_5():
    decl = b.BChDeclaration(IDS, NORTH)
    # enemy behind the chain (to the south): not "towards"
    assert conditions(b.check_bch_declaration(scen(LINE, "D9"), decl, CLEAR)) == ["los_to_enemy"]
    assert b.check_bch_declaration(scen(LINE, "D9"), b.BChDeclaration(IDS, 3), CLEAR).ok
    # 8 hexes ahead is in range; 9 is not (D5 -> D13 is 8 south; E5 -> E14 is 9)
    assert b.check_bch_declaration(scen(LINE, "D13"), b.BChDeclaration(IDS, 3), CLEAR).ok
    far = [u for u in LINE if u.hex in (H("C5"), H("D5"), H("E5"))]
    moved = [Unit(u.id, u.side, u.kind, H(u.hex.label.replace("5", "4")), u.unit_class, u.rating) for u in far]
    assert conditions(b.check_bch_declaration(scen(moved, "D13"), b.BChDeclaration(IDS, 3), CLEAR)) == ["los_to_enemy"]
    # a HIP enemy is not known to be there
    hip = scen(LINE).with_unit(Unit("G", "de", UnitKind.SQUAD, H("D1"), unit_class=UnitClass.FIRST_LINE, hidden=HiddenStatus.HIP))
    assert conditions(b.check_bch_declaration(hip, decl, CLEAR)) == ["los_to_enemy"]
    # the LOS predicate decides
    assert conditions(b.check_bch_declaration(scen(LINE), decl, lambda *a: False)) == ["los_to_enemy"]


def test_los_to_an_enemy_trench_suffices_aslgw_1_5():
    trench = (Fortification(FortificationKind.DEEP_TRENCH, (H("K1"),), "de"),)
    seen = []

    def los(fh, th, fp, tp):
        seen.append((fh, th, tp))
        return th == H("K1")

    # the only enemy unit is far behind; the enemy deep trench is seen
    assert b.check_bch_declaration(scen(LINE, None, trench), b.BChDeclaration(IDS, NORTH), los).ok
    assert (H("C5"), H("K1"), Position.GROUND) in seen
    own = (Fortification(FortificationKind.TRENCH, (H("K1"),), "fr"),)
    assert conditions(b.check_bch_declaration(scen(LINE, None, own), b.BChDeclaration(IDS, NORTH), los)) == ["los_to_enemy"]


def test_every_unmet_condition_is_reported_at_once_aslgw_1_5():
    units = [Unit("c", "fr", UnitKind.CREW, H("A1")), squad("s", "H8", broken=True)]
    check = b.check_bch_declaration(scen(units, None), b.BChDeclaration(("c", "s", "ghost"), NORTH, Phase.CCPh), CLEAR,
                                    french_exempt=False)
    assert set(conditions(check)) == {"phase", "units", "good_order", "infantry_not_crew", "mmc_average",
                                      "contiguous_chain", "leader", "los_to_enemy"}
    assert all(f.rule.startswith("ASLGW 1.5") for f in check.failures)


def test_effects_on_bch_units_aslgw_1_5():
    units = [u if u.id != "s1" else squad("s1", "C5", hidden=HiddenStatus.CONCEALED) for u in LINE]
    s, statuses = b.apply_bch(scen(units), b.BChDeclaration(IDS, NORTH))
    assert s.unit("s1").hidden is HiddenStatus.NONE  # concealment lost
    st0 = statuses[0]
    assert (st0.lax, st0.paatc_exempt, st0.morale_bonus, st0.until) == (True, True, 1, "end of the player turn")
    assert b.bch_morale(7, st0, broken=False) == 8 and b.bch_morale(7, st0, broken=True) == 7
    # pin immunity (exc. A25.23) and no Heat of Battle, through the classic MC
    r = morale_check(ScriptedDice([4, 4]), "squad", b.bch_morale(7, st0, False), pin_immune=st0.pin_immune)
    assert r.passed and not r.pinned
    r = morale_check(ScriptedDice([1, 1]), "squad", 8, hob_exemption=st0.heat_of_battle_exempt)
    assert not r.heat_of_battle
    with pytest.raises(b.BChError, match="ghost"):
        b.apply_bch(scen(LINE), b.BChDeclaration(("ghost",), NORTH))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(3, 8)), min_size=1, max_size=10))
def test_mmc_condition_matches_a_brute_force_reading(cells):
    """1.5: some three contiguous ADJACENT chain hexes hold >= 6 MMC."""
    units = [Unit(f"u{i}", "fr", UnitKind.SQUAD, Hex.from_offset(c, r), unit_class=UnitClass.FIRST_LINE)
             for i, (c, r) in enumerate(cells)] + [leader("L", "B4")]
    s = scen(units, None)
    check = b.check_bch_declaration(s, b.BChDeclaration(tuple(u.id for u in units), NORTH), CLEAR, french_exempt=False)
    hexes = {u.hex for u in units}
    count = {h: sum(1 for u in units if u.hex == h and u.kind is UnitKind.SQUAD) for h in hexes}
    ok = any(a != c and a.is_adjacent(m) and m.is_adjacent(c) and count[a] + count[m] + count[c] >= 6
             for a in hexes for m in hexes for c in hexes if len({a, m, c}) == 3)
    assert ("mmc_average" not in conditions(check)) == ok


def _north(movers, cost=1.0):
    return [b.BChStep(m.unit_id, m.hex.neighbour(NORTH), cost) for m in movers if m.active]


def test_bch_units_have_eight_mf_and_move_in_impulses_a25_231():
    """A25.231 (Human Wave, applied to a BCh by ASLGW 1.5): 8 MF each, every BCh unit enters a new hex each Impulse."""
    movers = b.bch_movers(scen(LINE), b.BChDeclaration(IDS, NORTH))
    assert {m.mf_left for m in movers} == {8.0} and len(movers) == 7
    r = b.bch_impulse(movers, NORTH, _north(movers, 2.0))  # e.g. brush
    assert r.ok and not r.over
    assert {m.unit_id: (m.hex.label, m.mf_left) for m in r.movers}["s3"] == ("D4", 6.0)
    # a unit that stays behind breaks A25.231, and nothing moves
    r2 = b.bch_impulse(r.movers, NORTH, _north(r.movers)[1:])
    assert [f.condition for f in r2.failures] == ["all_move"] and r2.failures[0].rule == "A25.231"
    assert r2.movers == r.movers


def test_bch_moves_ahead_one_adjacent_hex_within_its_mf_a25_231():
    """A25.231 via ASLGW 1.5: one ADJACENT hex ahead per Impulse, paid from the 8 MF."""
    (m,) = b.bch_movers(scen(LINE), b.BChDeclaration(("s3",), NORTH))
    for d, ok in ((0, True), (1, True), (5, True), (2, False), (3, False), (4, False)):
        r = b.bch_impulse([m], NORTH, [b.BChStep("s3", m.hex.neighbour(d), 1.0)])
        assert r.ok is ok, d
        if not ok:
            assert [f.condition for f in r.failures] == ["ahead"]
    r = b.bch_impulse([m], NORTH, [b.BChStep("s3", H("D3"), 1.0)])
    assert [f.condition for f in r.failures] == ["adjacent"]
    r = b.bch_impulse([b.BChMover("s3", H("D5"), 1.5)], NORTH, [b.BChStep("s3", H("D4"), 2.0)])
    assert [(f.condition, f.rule) for f in r.failures] == [("mf", "A25.231")]
    r = b.bch_impulse([m], NORTH, [b.BChStep("s3", H("D4"), 1.0), b.BChStep("s3", H("C4"), 1.0)])
    assert "one_hex_per_impulse" in [f.condition for f in r.failures]


def test_ending_the_bch_a25_235():
    """A25.235 via ASLGW 1.5: a unit stops being a BCh unit when broken, eliminated, a Guard, out of MF at the end
    of an Impulse, or in a Location with an armed Known enemy unit at the start of one (then in CC); the BCh ends
    when no BCh unit is left."""
    movers = [b.BChMover("a", H("C5"), 8.0), b.BChMover("b", H("D5"), 8.0), b.BChMover("c", H("E5"), 8.0),
              b.BChMover("d", H("F5"), 8.0), b.BChMover("e", H("G5"), 1.0)]
    r = b.bch_impulse(movers, NORTH, [b.BChStep(i, H(h), 1.0) for i, h in (("c", "E4"), ("e", "G4"))],
                      enemy_hexes=[H("D5")], broken=["a"], guards=["d"])
    assert r.ok, r.failures
    state = {m.unit_id: m for m in r.movers}
    assert not state["a"].active and "broken" in state["a"].ended
    assert not state["b"].active and state["b"].in_cc and "A25.235" in state["b"].ended
    assert not state["d"].active and "A25.234" in state["d"].ended
    assert state["c"].active and state["c"].hex == H("E4")
    assert not state["e"].active and "out of MF" in state["e"].ended and not r.over
    # an ex-BCh unit cannot go on with the charge
    r2 = b.bch_impulse(r.movers, NORTH, [b.BChStep("b", H("D4"), 1.0), b.BChStep("c", H("E3"), 1.0)])
    assert [f.condition for f in r2.failures] == ["not_bch_unit"]
    r3 = b.bch_impulse(r.movers, NORTH, [], eliminated=["c"])
    assert r3.ok and r3.over  # no BCh unit left: the BCh is over
