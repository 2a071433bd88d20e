"""The data tables (every number with its source), the Depth Combat Table (105.4.12),
formations (103.1), escort stations (103.2) and capital ships (103.3)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from itertools import pairwise, product

import pytest

from gwasl.games.on_patrol.combat import depth_combat
from gwasl.games.on_patrol.formation import (
    abreast,
    along2,
    capital_slots,
    escort_stations,
    formation_choices,
    layout,
    station_order,
)
from gwasl.games.on_patrol.geometry import DIRS, heading_from_harmon
from gwasl.games.on_patrol.tables import DATA, SOURCES, TableError, load_tables, stand_ins, tables
from gwasl.model.hexgrid import Hex

T = tables()


def test_every_row_names_its_source_and_rule():
    """Every base-game number carries harmon, designer-ruling, derived or stand-in, and a rule."""
    assert T.rows
    assert {r["source"] for r in T.rows} <= SOURCES
    assert all(r["rule"] for r in T.rows)
    assert {r["source"] for r in T.rows} == SOURCES  # all four kinds are used
    assert stand_ins() and all(s["rule"] for s in stand_ins())


def test_a_row_without_a_source_is_refused():
    base = json.loads((DATA / "base.json").read_text())
    bad = copy.deepcopy(base)
    del bad["sonar"][0]["source"]
    with pytest.raises(TableError, match=r"sonar\[0\].source"):
        load_tables(bad)
    bad = copy.deepcopy(base)
    bad["depth_combat"][1]["low"] = 20
    with pytest.raises(TableError, match="overlap"):
        load_tables(bad)


def test_depth_combat_table_105_4_12_bands_are_a_quarter_each():
    """105.4.12: the d66 roll's four bands 11-23, 24-36, 41-53, 54-66 are 9 of 36 outcomes each."""
    counts: dict[str, int] = {}
    for a, b in product(range(1, 7), repeat=2):
        r = depth_combat(T, (a, b)).result
        counts[r] = counts.get(r, 0) + 1
    assert {k: Fraction(v, 36) for k, v in counts.items()} == {
        "miss": Fraction(1, 4), "within 50 feet": Fraction(1, 4), "within 25 feet": Fraction(1, 4), "same depth": Fraction(1, 4)}
    assert depth_combat(T, (2, 3)).result == "miss" and depth_combat(T, (2, 4)).result == "within 50 feet"
    assert depth_combat(T, (5, 3)).result == "within 25 feet" and depth_combat(T, (5, 4)).result == "same depth"


def test_fleet_movement_table_104_3_1_rows():
    """104.3.1: slow convoy speed 1 rolls L1 R1 1 1 1L 1R; the asterisked rows are the advanced game's."""
    assert T.fleet_movement["slow-1"] == (1, False, ("L1", "R1", "1", "1", "1L", "1R"))
    assert T.fleet_movement["fast-3"][1] is True and T.fleet_movement["slow-2"][1] is True
    assert T.fleet_movement["emergency"][2] == ("LM", "RM", "M", "M", "ML", "MR")


def test_formations_103_1_harmons_chart():
    """103.1 chart: formations 7-10 by their bow hexes and directions."""
    assert T.formations[7] == ((("E20", 2), ("M20", 2), ("U20", 2)), 3)
    assert T.formations[8] == ((("X22", 3),), 1)
    assert T.formations[9] == ((("E20", 2), ("M20", 1), ("U20", 2)), 3)
    assert T.formations[10] == ((("I40", 2), ("Q40", 2)), 6)


@pytest.mark.parametrize("ships, forms", [(3, (8,)), (4, (10,)), (5, (9,)), (6, (7,)), (12, (3, 4)), (18, (1,)), (30, (1,))])
def test_formation_choice_103_1_1_and_12_ships_103_1_2(ships, forms):
    """103.1.1: the formation follows from the number of ships; 103.1.2: twelve roll for 3 or 4."""
    assert formation_choices(T, ships) == forms


@pytest.mark.parametrize("formation", range(1, 11))
def test_layout_keeps_harmons_shape(formation):
    """103.1: leaders 8 columns apart on one row, every column on the formation's heading,
    ships 4 hexes bow to bow; the layout is only moved, never reshaped."""
    leaders, direction = T.formations[formation]
    n = sum(c for _, c in leaders)
    lay = layout(T, formation, n, 36)
    h = heading_from_harmon(direction)
    assert lay.heading == h
    given = sorted(Hex.from_label(lab) for lab, _ in leaders)
    placed = sorted(col[0] for col in lay.columns)
    shift = placed[0] - given[0]
    assert [g + shift for g in given] == placed
    for col in lay.columns:
        for a, b in pairwise(col):
            assert a - b == Hex(4 * DIRS[h].q, 4 * DIRS[h].r)
    assert sum(len(c) for c in lay.columns) == n


def test_station_order_103_2_b_only_with_an_even_number():
    """103.2 chart: A first; B only with an even number of escorts; then C, D, E, F in pairs."""
    assert station_order(1) == ["A"]
    assert station_order(2) == ["A", "B"]
    assert station_order(3) == ["A", "C-left", "C-right"]
    assert station_order(10) == ["A", "B", "C-left", "C-right", "D-left", "D-right", "E-left", "E-right", "F-left", "F-right"]
    assert station_order(13)[-4:] == ["C1-left", "C1-right", "C2-left", "C2-right"] and len(station_order(13)) == 13


@pytest.mark.parametrize("formation, escorts", [(f, e) for f in range(1, 11) for e in range(1, 15)])
def test_escort_stations_103_2_for_every_formation_and_count(formation, escorts):
    """103.2: the chart's stations for every formation and escort count: A's stern six hexes
    ahead of the lead (a 5-hex gap), C eight hexes abreast of the lead, the screen symmetrical,
    no two counters on one hex, none on a convoy ship."""
    leaders, _ = T.formations[formation]
    lay = layout(T, formation, sum(c for _, c in leaders), 36)
    st = dict(escort_stations(lay, escorts, 8, 5))
    assert list(st) == station_order(escorts)
    h = lay.heading
    convoy = {x for col in lay.columns for b in col for x in (b, b - DIRS[h])}
    used = [x for p in st.values() for x in p.hexes()]
    assert len(used) == len(set(used)) and not (set(used) & convoy)
    lead = lay.columns[len(lay.columns) // 2][0]
    assert along2(st["A"].stern, lead, h) == 2 * 6 or len(lay.columns) % 2 == 0
    if "C-left" in st:
        assert st["C-left"].bow == lay.columns[0][0] + abreast(h, -8)
        assert st["C-right"].bow == lay.columns[-1][0] + abreast(h, 8)
    for name, p in st.items():  # symmetry: every left station has its right twin, level with it
        if name.endswith("-left"):
            twin = st[name[:-5] + "-right"]
            assert along2(p.bow, twin.bow, h) == 0
    assert ("B" in st) == (escorts % 2 == 0)


def test_capital_ships_103_3_2_centre_first_then_outwards_then_outer_columns():
    """103.3.2 a-c: leads from the centre column outward (nearest left, then right), then the
    outermost columns equally, an odd one at the rear of the centre column."""
    assert capital_slots(3, [3, 3, 3], 1) == [(1, 0)]
    assert capital_slots(3, [3, 3, 3], 3) == [(1, 0), (0, 0), (2, 0)]
    assert capital_slots(3, [3, 3, 3], 5) == [(1, 0), (0, 0), (2, 0), (0, 1), (2, 1)]
    assert capital_slots(3, [3, 3, 3], 6) == [(1, 0), (0, 0), (2, 0), (0, 1), (2, 1), (1, 2)]


def test_the_docs_say_which_numbers_are_stand_ins():
    """Every table holding stand-in numbers is named in docs/on-patrol.md's stand-in list, and
    the count the docs give is the tables' own."""
    from testsupport import ROOT

    text = (ROOT / "docs" / "on-patrol.md").read_text(encoding="utf-8")
    words = {"constants": "patrol length", "formations": "formations 1-6", "formation_by_ships": "does not cover",
             "sonar": "sonar", "sonar_drm": "emergency speed", "radar": "radar", "night_visual": "night visual search",
             "sub_visibility": "Submarine Visibility Table", "attack": "depth charge attack", "attack_drm": "Mk X",
             "hedgehog": "hedgehog", "gunfire": "gunfire", "prolonged_attack": "prolonged attack",
             "surface": "hit points", "torpedoes": "dud numbers", "submarines": "hull points"}
    tables_with_stand_ins = {r["table"] for r in stand_ins()}
    assert tables_with_stand_ins <= set(words)
    for table in tables_with_stand_ins:
        assert words[table] in text, table
    assert f"({len(stand_ins())} rows)" in text
