"""The editor core (gwasl.editor.document): edits as commands, undo/redo, strokes,
change events, dirty state, files -- all headless."""

from __future__ import annotations

import json

import pytest

from gwasl.editor import document as ed
from gwasl.editor.document import Change, EditError, EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    Dummy,
    DummyKind,
    Formation,
    FormationKind,
    FortificationKind,
    HiddenStatus,
    Terrain,
    Unit,
    UnitClass,
    UnitKind,
)
from gwasl.model.scenario_io import load_scenario, scenario_to_dict
from gwasl.rules.fog.checks import dummy_allotment
from testsupport import EXAMPLE_PATH

H = Hex.from_label


@pytest.fixture()
def doc() -> EditorDocument:
    return EditorDocument(ed.new_scenario())


def events(doc: EditorDocument) -> list[Change]:
    seen: list[Change] = []
    doc.subscribe(seen.append)
    return seen


def test_paint_undo_redo_and_the_change_event(doc):
    seen = events(doc)
    assert doc.apply(ed.paint_terrain, [H("C3"), H("C4")], Terrain.WOODS)
    assert doc.scenario.map.terrain_at(H("C3")) is Terrain.WOODS and doc.dirty
    assert seen[-1].hexes == {H("C3"), H("C4")} and seen[-1].map
    assert doc.undo_text == "Paint woods"
    doc.undo()
    assert doc.scenario.map.terrain_at(H("C3")) is Terrain.OPEN and not doc.dirty
    assert seen[-1].hexes == {H("C3"), H("C4")}
    doc.redo()
    assert doc.scenario.map.terrain_at(H("C4")) is Terrain.WOODS and doc.dirty


def test_a_brush_stroke_is_one_undo_step(doc):
    key = doc.begin_stroke()
    for label in ("A1", "A2", "A3", "B3"):
        doc.apply(ed.paint_terrain, [H(label)], Terrain.GRAIN, merge_key=key)
    doc.end_stroke()
    key2 = doc.begin_stroke()
    doc.apply(ed.paint_terrain, [H("F5")], Terrain.BRUSH, merge_key=key2)
    assert len(doc.history) == 2
    doc.undo()
    assert doc.scenario.map.terrain_at(H("F5")) is Terrain.OPEN
    assert doc.scenario.map.terrain_at(H("B3")) is Terrain.GRAIN
    doc.undo()
    assert not doc.scenario.map.hexes and not doc.can_undo


def test_painting_the_same_terrain_again_is_not_an_edit(doc):
    doc.apply(ed.paint_terrain, [H("C3")], Terrain.WOODS)
    assert doc.apply(ed.paint_terrain, [H("C3")], Terrain.WOODS) is False
    assert len(doc.history) == 1
    # The map's default terrain is stored as no entry at all.
    doc.apply(ed.paint_terrain, [H("C3")], Terrain.OPEN)
    assert H("C3") not in doc.scenario.map.hexes


def test_new_edit_after_undo_drops_the_redo_branch_and_the_clean_state(doc, tmp_path):
    doc.apply(ed.set_level, [H("B2")], 1)
    doc.save(tmp_path / "a.json")
    assert not doc.dirty
    doc.undo()
    assert doc.dirty
    doc.apply(ed.set_level, [H("B2")], 2)
    assert not doc.can_redo and doc.dirty
    doc.undo()
    assert doc.dirty  # the saved state (level 1) is gone for good


def test_edits_off_the_map_are_refused(doc):
    with pytest.raises(EditError, match="outside the 12 x 8 map"):
        doc.apply(ed.paint_terrain, [H("Z9")], Terrain.WOODS)
    assert not doc.can_undo


def test_building_grouping_A26_14(doc):
    doc.apply(ed.paint_terrain, [H("H2"), H("H3")], Terrain.STONE_BUILDING)
    doc.apply(ed.set_building, [H("H2"), H("H3")], "ferme")
    assert {doc.scenario.map.building_at(H(x)) for x in ("H2", "H3")} == {"ferme"}
    with pytest.raises(EditError, match="A26.14"):
        doc.apply(ed.set_building, [H("A1")], "ferme")
    # Painting a building hex into open ground takes it out of the building.
    doc.apply(ed.paint_terrain, [H("H3")], Terrain.OPEN)
    assert doc.scenario.map.building_at(H("H3")) is None


def test_obstacle_outline_is_the_hex_extra_field_in_hex_local_units(doc, tmp_path):
    pts = [(-0.5, -0.4), (0.5, -0.4), (0.6, 0.3), (-0.4, 0.5)]
    doc.apply(ed.set_outline, H("D4"), pts)
    path = tmp_path / "o.json"
    doc.save(path)
    raw = json.loads(path.read_text())
    assert raw["map"]["hexes"]["D4"]["outline"] == [[-0.5, -0.4], [0.5, -0.4], [0.6, 0.3], [-0.4, 0.5]]
    with pytest.raises(EditError, match="outside hex"):
        doc.apply(ed.set_outline, H("D4"), [(0, 0), (1.0, 0.5), (0, 0.5)])
    doc.apply(ed.set_outline, H("D4"), None)
    assert H("D4") not in doc.scenario.map.hexes


def test_trench_lines_join_and_ladders_need_a_deep_trench_ASLGW_2_1_3(doc):
    key = doc.begin_stroke()
    for x in ("G6", "H6", "I6"):
        doc.apply(ed.add_fortification, FortificationKind.DEEP_TRENCH, [H(x)], "french", merge_key=key)
    forts = doc.scenario.map.fortifications
    assert len(forts) == 1 and [h.label for h in forts[0].hexes] == ["G6", "H6", "I6"] and forts[0].owner == "french"
    doc.apply(ed.toggle_ladder, H("H6"))
    assert doc.scenario.map.fortifications[0].ladders == (H("H6"),)
    with pytest.raises(EditError, match="2.1.3"):
        doc.apply(ed.toggle_ladder, H("A1"))
    doc.apply(ed.remove_fortification, [H("H6")])
    f = doc.scenario.map.fortifications[0]
    assert H("H6") not in f.hexes and f.ladders == ()


def test_place_a_platoon_with_its_leader_in_one_step_ASLGW_1_1(doc):
    doc.apply(ed.place_platoon, "german", H("C2"), FormationKind.PLATOON, UnitClass.STOSSTRUPPEN, "9-1")
    s = doc.scenario
    f = s.formations[0]
    assert f.kind is FormationKind.PLATOON and s.unit(f.leader).rating.morale == 9
    members = s.members(f.id)
    assert sum(1 for u in members if u.kind is UnitKind.SQUAD) == 6  # ASLGW 1.1: six squads
    assert len(doc.history) == 1
    doc.undo()
    assert not doc.scenario.units and not doc.scenario.formations


def test_move_and_delete_units(doc):
    doc.apply(ed.place_platoon, "german", H("C2"), FormationKind.COMBAT_GROUP)
    ids = [u.id for u in doc.scenario.units]
    seen = events(doc)
    doc.apply(ed.move_units, ids[:2], H("D3"))
    assert {doc.scenario.unit(i).hex for i in ids[:2]} == {H("D3")}
    assert seen[-1].hexes == {H("C2"), H("D3")} and seen[-1].units == set(ids[:2])
    leader = doc.scenario.formations[0].leader
    doc.apply(ed.delete_units, [leader])
    assert doc.scenario.formations[0].leader is None
    doc.undo()
    assert doc.scenario.formations[0].leader == leader


def test_formation_manager_sets_members_and_leader(doc):
    from gwasl.model.scenario import LeaderRating

    units = [Unit("L1", "french", UnitKind.LEADER, H("H6"), rating=LeaderRating.parse("8-0"))] + [
        Unit(f"S{i}", "french", UnitKind.SQUAD, H("H6"), unit_class=UnitClass.FIRST_LINE) for i in range(3)
    ]
    doc.apply(ed.place_units, units)
    doc.apply(ed.set_formation, Formation("F1", FormationKind.HALF_PLATOON, "L1"), ["S0", "S1", "S2"])
    assert {u.id for u in doc.scenario.members("F1")} == {"L1", "S0", "S1", "S2"}
    doc.apply(ed.delete_formation, "F1")
    assert all(u.platoon is None for u in doc.scenario.units)


def test_hidden_status_and_dummy_allotment_OLeary_3_1_1(doc):
    units = [Unit(f"S{i}", "french", UnitKind.SQUAD, H("H6"), unit_class=UnitClass.FIRST_LINE) for i in range(2)]
    doc.apply(ed.place_units, units)
    doc.apply(ed.update_units, ["S0", "S1"], hidden="hip")
    assert all(u.hidden is HiddenStatus.HIP for u in doc.scenario.units)
    for x in ("J6", "K7", "K6", "L6"):
        doc.apply(ed.add_dummy, Dummy("french", DummyKind.DUMMY_HIP, H(x)))
    a = dummy_allotment(doc.scenario, "french")
    assert (a.hip_squad_capacity, a.dummy_hip_allowed, a.dummy_hip_placed, a.dummy_hip_over) == (2, 3, 4, True)
    doc.apply(ed.remove_dummy, 3)
    assert not dummy_allotment(doc.scenario, "french").dummy_hip_over
    with pytest.raises(EditError, match="2.3.2"):
        doc.apply(ed.add_dummy, Dummy("french", DummyKind.DUMMY_STACK, H("A1")))


def test_OLeary_example_hip_gun_and_crew_gets_two_dummies():
    """O'Leary 3.1.1 example: a lone HIP gun (its crew) is granted two dummy HIP counters."""
    s = ed.new_scenario().with_units([Unit("C", "french", UnitKind.CREW, H("A1"), hidden=HiddenStatus.HIP)])
    assert dummy_allotment(s, "french").dummy_hip_allowed == 2


def test_properties_and_resize(doc):
    import datetime as dt

    doc.apply(ed.set_properties, title="Verdun", date=dt.date(1916, 6, 1), winter=True)
    assert (doc.scenario.title, doc.scenario.winter) == ("Verdun", True)
    with pytest.raises(EditError):
        doc.apply(ed.set_properties, title="  ")
    doc.apply(ed.place_platoon, "german", H("K7"), FormationKind.COMBAT_GROUP)
    with pytest.raises(EditError, match="outside a 6 x 6 map"):
        doc.apply(ed.resize_map, 6, 6)
    doc.apply(ed.resize_map, 20, 10)
    assert (doc.scenario.map.columns, doc.scenario.map.rows) == (20, 10)


def test_save_open_round_trip_and_clean_state(tmp_path):
    doc = EditorDocument.open(EXAMPLE_PATH)
    doc.apply(ed.paint_terrain, [H("A1")], Terrain.MARSH)
    target = tmp_path / "copy.json"
    doc.save(target)
    assert not doc.dirty and doc.path == str(target)
    again = load_scenario(target)
    assert again == doc.scenario
    assert scenario_to_dict(again)["map"]["hexes"]["A1"] == {"terrain": "marsh"}


def test_save_without_a_path_asks_for_one(doc):
    with pytest.raises(EditError, match="Save As"):
        doc.save()


def test_a_command_for_an_old_state_is_refused(doc):
    stale = ed.paint_terrain(doc.scenario, [H("A1")], Terrain.WOODS)
    doc.apply(ed.paint_terrain, [H("B1")], Terrain.WOODS)
    with pytest.raises(EditError, match="another state"):
        doc.push(stale)
