"""Infantry steps in play (gwasl.rules.movement): terrain MF (A4.1, chapter B), uphill
(B10.4), trenches (B27, B27.41), deep trenches (ASLGW 2.1.2, 2.1.3, called from
gwasl.rules.trenches), dugouts (ASLGW 2.2), wire (B26.4); stacking in play (A5.1,
ASLGW 2.1.4, 2.2.1); concealment lost by moving (A12.14, ASLGW 1.7.2)."""

from __future__ import annotations

import datetime as dt

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    Fortification,
    FortificationKind,
    HexData,
    HiddenStatus,
    MapData,
    Nationality,
    Position,
    Scenario,
    Side,
    Terrain,
    Unit,
    UnitKind,
    Weather,
)
from gwasl.model.terrain import TableError
from gwasl.rules import movement as m
from gwasl.rules.concealment import moving_concealment_loss
from gwasl.rules.stacking import stacking_problem, stacking_problems_after
from gwasl.rules.trenches import move_cost

H = Hex.from_label
G = Position.GROUND


def scenario(date=dt.date(1916, 7, 1), weather=Weather.CLEAR, winter=False) -> Scenario:
    hexes = {H("C3"): HexData(Terrain.WOODS), H("D3"): HexData(level=1), H("E3"): HexData(Terrain.WATER),
             H("B4"): HexData(Terrain.BRUSH)}
    forts = (
        Fortification(FortificationKind.TRENCH, (H("B2"), H("B3"))),
        Fortification(FortificationKind.DEEP_TRENCH, (H("F2"), H("F3")), "fr", (H("F3"),)),
        Fortification(FortificationKind.DUGOUT, (H("G4"),)),
        Fortification(FortificationKind.WIRE, (H("C5"),)),
        Fortification(FortificationKind.FOXHOLE, (H("A5"),)),
    )
    return Scenario("t", date, MapData(8, 8, hexes=hexes, fortifications=forts),
                    {"de": Side("de", Nationality.GERMAN), "fr": Side("fr", Nationality.FRENCH)},
                    weather=weather, winter=winter)


def test_terrain_mf_into_an_adjacent_hex_a4_1():
    """A4.1 with the terrain table: open 1, woods 2, brush 2; water cannot be entered (B21)."""
    s = scenario()
    assert m.step_cost(s, H("C2"), G, H("C3"), G).mf == 2.0
    assert m.step_cost(s, H("A4"), G, H("B4"), G).mf == 2.0
    assert m.step_cost(s, H("C2"), G, H("D2"), G).mf == 1.0
    with pytest.raises(m.StepError, match="cannot enter"):
        m.step_cost(s, H("E2"), G, H("E3"), G)
    with pytest.raises(m.StepError, match="not ADJACENT"):
        m.step_cost(s, H("A1"), G, H("C1"), G)


def test_uphill_doubles_the_terrain_cost_b10_4():
    """B10.4: into a higher hex the terrain cost counts twice; downhill it does not."""
    s = scenario()
    c = m.step_cost(s, H("C2"), G, H("D3"), G)
    assert c.mf == 2.0 and "B10.4" in c.reasons[-1]
    assert m.step_cost(s, H("D3"), G, H("D4"), G).mf == 1.0


def test_trench_entry_exit_and_connected_trenches_b27_41():
    """B27.41: 1 MF into or out of a trench within its hex; B27: 1 MF along connected
    trench hexes; from a trench to another hex means leaving it first."""
    s = scenario()
    assert m.step_cost(s, H("B2"), G, H("B2"), Position.TRENCH).mf == 1.0
    assert m.step_cost(s, H("B2"), Position.TRENCH, H("B2"), G).mf == 1.0
    assert m.step_cost(s, H("B2"), Position.TRENCH, H("B3"), Position.TRENCH).mf == 1.0
    with pytest.raises(m.StepError, match="leave the trench"):
        m.step_cost(s, H("B2"), Position.TRENCH, H("C2"), G)
    with pytest.raises(m.StepError, match="no trench"):
        m.step_cost(s, H("C2"), G, H("C2"), Position.TRENCH)
    assert m.step_cost(s, H("A5"), G, H("A5"), Position.FOXHOLE).mf == 1.0


def test_deep_trench_steps_are_aslgw_2_1_3_costs():
    """ASLGW 2.1.3 through gwasl.rules.trenches.move_cost (one implementation): into a
    deep trench from an adjacent hex: terrain + 2 MF; out of it: doubled, CX unless a ladder."""
    s = scenario()
    into = m.step_cost(s, H("E2"), G, H("F2"), Position.DEEP_TRENCH)
    assert into == move_cost(s, H("E2"), G, H("F2"), Position.DEEP_TRENCH)
    assert into.mf == 3.0
    out = m.step_cost(s, H("F2"), Position.DEEP_TRENCH, H("G2"), G)
    assert out.mf == 2.0 and out.cx_at_end_of_mph and not out.double_time_allowed
    ladder = m.step_cost(s, H("F3"), Position.DEEP_TRENCH, H("G3"), G)
    assert ladder.mf == 2.0 and not ladder.cx_at_end_of_mph
    assert m.step_cost(s, H("F2"), Position.DEEP_TRENCH, H("F3"), Position.DEEP_TRENCH).mf == 1.0
    with pytest.raises(m.StepError):
        m.step_cost(s, H("F2"), Position.DEEP_TRENCH, H("F2"), Position.DUGOUT)


def test_dugout_is_entered_within_its_hex_aslgw_2_2():
    """ASLGW 2.2: a dugout is a bunker of its hex: entered from the hex's ground for 1 MF (B27.41)."""
    s = scenario()
    assert m.step_cost(s, H("G4"), G, H("G4"), Position.DUGOUT).mf == 1.0
    with pytest.raises(m.StepError):
        m.step_cost(s, H("G3"), G, H("G4"), Position.DUGOUT)


def test_wire_ends_the_movement_b26_4():
    """B26.4: entering wire expends all remaining MF."""
    s = scenario()
    c = m.step_cost(s, H("C4"), G, H("C5"), G)
    assert "B26.4" in c.reasons[-1]
    assert m.ends_movement(s, H("C4"), H("C5")) and not m.ends_movement(s, H("C3"), H("C4"))


def test_steps_from_lists_every_legal_step():
    s = scenario()
    steps = {(st.to_hex.label, st.to_pos.value) for st in m.steps_from(s, H("B2"), G)}
    assert ("B2", "trench") in steps and ("B3", "trench") not in steps and ("B3", "ground") in steps


def test_the_movement_table_is_validated_at_load():
    import json

    from gwasl.model.terrain import RESOURCES

    doc = json.loads((RESOURCES / "movement.json").read_text())
    doc["uphill"]["factor"] = 0
    with pytest.raises(TableError, match="uphill.factor"):
        m.parse_movement(doc)
    with pytest.raises(TableError, match="trench_along"):
        m.parse_movement({k: v for k, v in doc.items() if k != "trench_along"})
    assert m.movement_table().concealed_pile_mf == 4


def sq(uid: str, pos: Position = G, kind: UnitKind = UnitKind.SQUAD, side: str = "de", h: str = "B2") -> Unit:
    return Unit(uid, side, kind, H(h), position=pos)


def test_stacking_limits_a5_1_and_deep_trench_aslgw_2_1_4():
    """A5.1: 3 squad-equivalents and 4 SMC; ASLGW 2.1.4: 2 squads in a deep trench."""
    assert stacking_problem([sq("a"), sq("b"), sq("c")], "hex") is None
    assert "A5.1" in (stacking_problem([sq(str(i)) for i in range(4)], "hex") or "")
    assert stacking_problem([sq("a"), sq("b"), sq("c"), sq("d", kind=UnitKind.HALF_SQUAD)], "hex") is not None
    assert stacking_problem([sq("a"), sq("b"), sq("d", kind=UnitKind.HALF_SQUAD), sq("e", kind=UnitKind.CREW)], "hex") is None
    assert stacking_problem([sq(str(i), kind=UnitKind.LEADER) for i in range(5)], "hex") is not None
    assert "ASLGW 2.1.4" in (stacking_problem([sq("a"), sq("b"), sq("c")], "deep_trench") or "")


def test_a_dugout_stacks_apart_from_its_hex_aslgw_2_2_1():
    """ASLGW 2.2.1: units in a dugout do not stack with those outside; each side counts apart."""
    units = [sq("a"), sq("b"), sq("c"), sq("e", side="fr"), sq("f", side="fr")]
    assert stacking_problems_after(units, "de", H("B2"), Position.DUGOUT, [sq("d", h="B3")]) is None
    assert stacking_problems_after(units, "de", H("B2"), G, [sq("d", h="B3")]) is not None
    # a unit already there is not counted twice
    assert stacking_problems_after(units, "de", H("B2"), G, [units[0]]) is None


def test_moving_in_open_ground_in_enemy_los_loses_concealment_a12_14():
    """A12.14: Open Ground, enemy LOS within 16 hexes, not Assault Moving: lost."""
    s = scenario()
    u = Unit("x", "de", UnitKind.SQUAD, H("C2"), hidden=HiddenStatus.CONCEALED)
    assert moving_concealment_loss(s, u, H("C2"), G, assault_move=False, enemy_ranges=(4,)).lost
    assert not moving_concealment_loss(s, u, H("C2"), G, assault_move=True, enemy_ranges=(4,)).lost
    assert not moving_concealment_loss(s, u, H("C2"), G, assault_move=False, enemy_ranges=(17,)).lost
    assert not moving_concealment_loss(s, u, H("C3"), G, assault_move=False, enemy_ranges=(2,)).lost
    assert not moving_concealment_loss(s, u, H("B2"), Position.TRENCH, assault_move=False, enemy_ranges=(2,)).lost


def test_garance_trousers_lose_concealment_at_any_range_aslgw_1_7_2():
    """ASLGW 1.7.2: French in garance (to May 1915) cannot stay concealed in an enemy LOS in
    Open Ground, even beyond 16 hexes and Assault Moving; 1.7.3: not in winter."""
    s = scenario(date=dt.date(1914, 9, 6))
    f = Unit("f", "fr", UnitKind.SQUAD, H("C2"), hidden=HiddenStatus.CONCEALED)
    r = moving_concealment_loss(s, f, H("C2"), G, assault_move=True, enemy_ranges=(20,))
    assert r.lost and r.rule == "ASLGW 1.7.2"
    assert not moving_concealment_loss(scenario(date=dt.date(1914, 12, 6), winter=True), f, H("C2"), G,
                                       assault_move=True, enemy_ranges=(20,)).lost
