"""The terrain table (gwasl/resources/terrain.json): every terrain of the schema, the
classic ASL chapter B values it cites, ASLGW 2.1.6 / 2.2.3 for deep trenches
and dugouts, and clear errors for a malformed table."""

from __future__ import annotations

import pytest

from gwasl.model import terrain as terrain_mod
from gwasl.model.scenario import FortificationKind, Terrain
from gwasl.model.terrain import TableError, _parse_terrain, fortification_table, load_resource, terrain_table

# (TEM, MF, obstacle height, hindrance) per the ASL Terrain Effects Chart (chapter B).
EXPECTED = {
    Terrain.OPEN: (0, 1, None, 0),
    Terrain.ROAD: (0, 1, None, 0),
    Terrain.BRUSH: (1, 2, None, 1),
    Terrain.GRAIN: (0, 1.5, None, 1),
    Terrain.ORCHARD: (0, 1, None, 1),
    Terrain.WOODS: (1, 2, 1, 0),
    Terrain.SHELLHOLES: (1, 2, None, 0),
    Terrain.MARSH: (0, 2, None, 0),
    Terrain.WOODEN_BUILDING: (2, 2, 1, 0),
    Terrain.STONE_BUILDING: (3, 2, 1, 0),
    Terrain.WOODEN_RUBBLE: (2, 3, 0.5, 0),
    Terrain.STONE_RUBBLE: (3, 3, 0.5, 0),
    Terrain.WATER: (0, None, None, 0),
}


def test_every_schema_terrain_has_its_chart_values():
    table = terrain_table()
    assert set(table) == set(Terrain)
    for t, (tem, mf, height, hind) in EXPECTED.items():
        info = table[t]
        assert (info.tem, info.mf, info.obstacle_height, info.hindrance) == (tem, mf, height, hind), t
        assert info.rule.startswith("B")


def test_contracts_3_woods_and_buildings_rise_one_level():
    table = terrain_table()
    assert all(table[t].obstacle_height == 1 for t in (Terrain.WOODS, Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING))
    assert not any(table[t].blocks_los for t in (Terrain.BRUSH, Terrain.GRAIN, Terrain.ORCHARD))


def test_aslgw_2_1_6_and_2_2_3_fortification_values():
    f = fortification_table()
    assert set(f) == set(FortificationKind)
    dt = f[FortificationKind.DEEP_TRENCH]
    assert (dt.get("tem"), dt.get("tem_oba"), dt.get("crest_tem"), dt.get("crest_tem_ovr_oba")) == (3, 5, 3, 4)  # ASLGW 2.1.6
    assert (dt.get("mf_enter"), dt.get("stacking_squads")) == (2, 2)  # ASLGW 2.1.3, 2.1.4
    dugout = f[FortificationKind.DUGOUT]
    assert (dugout.get("tem"), dugout.get("tem_oba"), dugout.get("firing_out_tem")) == (2, 6, 3)  # ASLGW 2.2.3, 2.2.4


def test_table_records_its_source():
    assert "chapter B" in load_resource("terrain.json")["source"]


@pytest.mark.parametrize(
    "doc,needle",
    [
        ({}, "no 'terrain'"),
        ({"terrain": {"jungle": {}}}, "'jungle' is not a terrain"),
        ({"terrain": {"woods": {"tem": "1", "mf": 2, "los": {"kind": "clear"}, "rule": "B13"}}}, "terrain.woods.tem"),
        ({"terrain": {"woods": {"tem": 1, "mf": 2, "los": {"kind": "wall"}, "rule": "B13"}}}, "los.kind"),
        ({"terrain": {"woods": {"tem": 1, "mf": 2, "los": {"kind": "obstacle", "height": 0}, "rule": "B13"}}}, "height must be > 0"),
        ({"terrain_flags": {}, "terrain": {"woods": {"tem": 1, "mf": 2, "los": {"kind": "clear"}, "rule": "B13", "flags": []}}},
         "no entry for open"),
        ({"terrain": {"woods": {"tem": 1, "mf": 2, "los": {"kind": "clear"}, "rule": "B13"}}}, "terrain.woods: missing 'flags'"),
        ({"terrain_flags": {"building": "B23"},
          "terrain": {"woods": {"tem": 1, "mf": 2, "los": {"kind": "clear"}, "rule": "B13", "flags": ["tall"]}}}, "'tall'"),
        ({"terrain_flags": {"building": ""},
          "terrain": {"woods": {"tem": 1, "mf": 2, "los": {"kind": "clear"}, "rule": "B13", "flags": ["building"]}}},
         "rule it comes from"),
    ],
)
def test_malformed_table_names_the_entry(doc, needle):
    with pytest.raises(TableError, match=needle):
        _parse_terrain(doc)


def test_missing_resource_is_a_table_error(monkeypatch, tmp_path):
    monkeypatch.setattr(terrain_mod, "RESOURCES", tmp_path)
    with pytest.raises(TableError, match="missing"):
        load_resource("terrain.json")


def test_terrain_flags_are_data_with_their_rule():
    """Issue 10 item 11: the building, rubble, Open Ground, entrenchment and emplacement sets
    are flags of terrain.json (B23, B24, B27.1, O'Leary 2.3, 2.4, 4.2), each flag citing its rule."""
    t = terrain_table()
    assert {x for x in Terrain if t[x].is_building} == {Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING}
    assert {x for x in Terrain if t[x].holds_building_id} == {Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING,
                                                              Terrain.WOODEN_RUBBLE, Terrain.STONE_RUBBLE}
    assert {x for x in Terrain if t[x].open_ground} == {Terrain.OPEN, Terrain.ROAD}
    assert {x for x in Terrain if not t[x].allows_entrenchment} == {
        Terrain.MARSH, Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING, Terrain.WOODEN_RUBBLE, Terrain.STONE_RUBBLE, Terrain.WATER}
    assert {x for x in Terrain if not t[x].allows_emplacement} == {
        Terrain.ROAD, Terrain.MARSH, Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING, Terrain.WOODEN_RUBBLE, Terrain.STONE_RUBBLE,
        Terrain.WATER}
    assert {x for x in Terrain if not t[x].allows_fortification} == {Terrain.WATER}
    assert all(load_resource("terrain.json")["terrain_flags"].values())


def test_fortification_positions_and_flags_are_data():
    """B27, B30, ASLGW 2.1-2.2, O'Leary 4.4: where a unit inside each fortification stands,
    which are dug, which have a CA; a position that is not inside its own kind is refused."""
    f = fortification_table()
    assert all(f[k].position is None or f[k].position.fortification is k for k in FortificationKind)
    assert {k for k in FortificationKind if f[k].position is None} == {FortificationKind.WIRE, FortificationKind.MINEFIELD}
    assert {k for k in FortificationKind if f[k].dug} == {
        FortificationKind.TRENCH, FortificationKind.DEEP_TRENCH, FortificationKind.DUGOUT, FortificationKind.FOXHOLE}
    assert {k for k in FortificationKind if f[k].covered_arc} == {FortificationKind.PILLBOX}


def test_a_fortification_row_placing_units_in_another_kind_is_refused(monkeypatch):
    doc = load_resource("terrain.json")
    doc["fortifications"]["trench"]["position"] = "pillbox"
    monkeypatch.setattr(terrain_mod, "load_resource", lambda name: doc)
    fortification_table.cache_clear()
    try:
        with pytest.raises(TableError, match="fortifications.trench.position"):
            fortification_table()
    finally:
        fortification_table.cache_clear()
