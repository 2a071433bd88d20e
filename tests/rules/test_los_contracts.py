"""LOS rules: every case of CONTRACTS 3, ASLGW 2.1.1/2.1.5 (deep trench),
2.2.2 (dugout), 1.7.1/1.7.3 (garance trousers), LOS counters, hexsides,
vertices, heights and custom outlines (docs/format/los.md)."""

from __future__ import annotations

import copy

import pytest

from gwasl.model.hexgrid import Hex, hex_line
from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.los import (
    LosCounter,
    LosError,
    LosIndex,
    OutlineError,
    fire_hindrance,
    garance_applies,
    los,
)
from gwasl.rules.los_geometry import parse_outline
from gwasl.rules.los_reference import ReferenceLos
from gwasl.rules.validate import validate_scenario

H = Hex.from_label


def scen(hexes=None, forts=None, date="1916-07-01", columns=8, rows=8, default_terrain=None, **top):
    doc = {
        "format": "gwasl-scenario/1",
        "title": "LOS test",
        "date": date,
        "map": {"columns": columns, "rows": rows, "hexes": hexes or {}, "fortifications": forts or []},
        "sides": {"german": {"nationality": "german"}, "french": {"nationality": "french"}},
        "units": [],
    }
    if default_terrain is not None:
        doc["map"]["default_terrain"] = default_terrain
    doc.update(top)
    return parse_scenario(copy.deepcopy(doc))


# C1 -> C5 runs through the centres of C2, C3, C4 (one column).
A, B = H("C1"), H("C5")


def assert_all_paths(s, a, b, clear, counters=None):
    """Every LOS path gives the same answer ``clear`` for a -> b and b -> a: the single query,
    LosIndex.los, visible_from, visible_mask, clear_many (numpy kernel) and, without LOS counters,
    the plain Shapely reference."""
    idx = LosIndex(s, counters)
    got = {
        "los": los(s, a, b, counters=counters).clear,
        "los reversed": los(s, b, a, counters=counters).clear,
        "LosIndex.los": idx.los(a, b).clear,
        "visible_from": b in idx.visible_from(a),
        "visible_from reversed": a in idx.visible_from(b),
        "visible_mask": bool(idx.visible_mask(a)[b.column, b.row]),
        "clear_many": bool(idx.clear_many([a, b], [b, a]).all()),
        "clear_many any": bool(idx.clear_many([a, b], [b, a]).any()),
    }
    if counters is None:
        ref = ReferenceLos(s)
        got["reference"] = ref.clear(a, b)
        got["reference reversed"] = ref.clear(b, a)
    assert got == dict.fromkeys(got, clear), got


def test_line_passes_through_centres_of_the_column():
    assert [h.label for h in hex_line(A, B).hexes] == ["C1", "C2", "C3", "C4", "C5"]


@pytest.mark.parametrize("terrain", ["woods", "wooden_building", "stone_building"])
def test_contracts3_woods_or_building_at_same_level_blocks(terrain):
    """CONTRACTS 3: woods or a building on the line at the ends' level: blocked."""
    r = los(scen({"C3": {"terrain": terrain}}), A, B)
    assert not r.clear and r.blocked_by == H("C3")
    assert "C3" in r.reason and "CONTRACTS 3" in r.reason


@pytest.mark.parametrize("terrain", ["brush", "grain", "orchard"])
def test_contracts3_brush_grain_orchard_clear_one_hindrance_per_hex(terrain):
    """CONTRACTS 3: brush, grain or orchard instead: clear, one hindrance per hex."""
    s = scen({"C3": {"terrain": terrain}})
    r = los(s, A, B)
    assert r.clear and r.hindrances == 1 and r.blocked_by is None
    assert [h.hex for h in r.hindrance_hexes] == [H("C3")]
    s3 = scen({"C2": {"terrain": terrain}, "C3": {"terrain": terrain}, "C4": {"terrain": terrain}})
    assert los(s3, A, B).hindrances == 3


def test_contracts3_woods_between_two_hexes_two_levels_higher_is_clear():
    """CONTRACTS 3: the same woods between two hexes both two levels higher: clear."""
    s = scen({"C1": {"level": 2}, "C5": {"level": 2}, "C3": {"terrain": "woods"}})
    assert los(s, A, B).clear


def test_contracts3_hill_one_level_above_both_ends_blocks():
    """CONTRACTS 3: a hill hex one level above both ends, on the line: blocked."""
    r = los(scen({"C3": {"level": 1}}), A, B)
    assert not r.clear and r.blocked_by == H("C3") and "hill" in r.reason


def test_contracts3_end_hexes_never_block_or_hinder():
    """CONTRACTS 3: the start and end hexes never block or hinder their own LOS."""
    s = scen({"C1": {"terrain": "woods"}, "C5": {"terrain": "stone_building"}})
    assert los(s, A, B).clear
    s = scen({"C1": {"terrain": "brush"}, "C5": {"terrain": "grain"}})
    r = los(s, A, B)
    assert r.clear and r.hindrances == 0


def test_contracts3_symmetric_for_like_positions():
    """CONTRACTS 3: LOS is symmetric when both ends are in like positions."""
    s = scen({"D3": {"terrain": "woods"}, "C3": {"terrain": "brush"}, "B4": {"level": 1}})
    for a in s.map:
        for b in (H("A1"), H("H8"), H("E2")):
            r1, r2 = los(s, a, b), los(s, b, a)
            assert r1.clear == r2.clear, (a, b)
            if r1.clear:  # a blocked line lists only the hindrances before its block
                assert r1.hindrances == r2.hindrances and r1.hindrance_drm == r2.hindrance_drm


# ---------------------------------------------------------------------------
# ASL A6.2: a terrain obstacle blocks a line at or below its top; a hill only below
# ---------------------------------------------------------------------------
ON_HILLS = {"C1": {"level": 1}, "C5": {"level": 1}}


@pytest.mark.parametrize("terrain", ["woods", "wooden_building", "stone_building"])
def test_asl_a6_2_level1_ends_across_level0_woods_or_building_blocked(terrain):
    """ASL A6.2 (same-level obstacle) with CONTRACTS 3: two units on level-1 hills do not see
    each other across level-0 woods or a level-0 building, whose top is at level 1: the line
    runs at the top, not above it."""
    s = scen({**ON_HILLS, "C3": {"terrain": terrain}})
    r = los(s, A, B)
    assert not r.clear and r.blocked_by == H("C3")
    assert "top level 1" in r.reason and "A6.2" in r.reason
    assert_all_paths(s, A, B, clear=False)


def test_contracts3_level2_ends_across_level0_woods_clear():
    """CONTRACTS 3: the woods between two hexes both two levels higher: clear (above its top)."""
    s = scen({"C1": {"level": 2}, "C5": {"level": 2}, "C3": {"terrain": "woods"}})
    assert_all_paths(s, A, B, clear=True)


@pytest.mark.parametrize("terrain", ["brush", "grain", "orchard"])
def test_asl_a6_2_level1_ends_across_level0_hindrance_hindered_not_blocked(terrain):
    """docs/rules-notes.md "Hindrance height": a hindrance hinders a line at or below one level above
    its ground (A6.2's same-level principle, as for obstacles), so level-1 ends across a level-0
    brush, grain or orchard hex: clear with one hindrance; level-2 ends: clear, none."""
    r = los(scen({**ON_HILLS, "C3": {"terrain": terrain}}), A, B)
    assert r.clear and r.hindrances == 1 and [h.hex for h in r.hindrance_hexes] == [H("C3")]
    assert_all_paths(scen({**ON_HILLS, "C3": {"terrain": terrain}}), A, B, clear=True)
    r = los(scen({"C1": {"level": 2}, "C5": {"level": 2}, "C3": {"terrain": terrain}}), A, B)
    assert r.clear and r.hindrances == 0


def test_asl_a6_2_level1_plateau_hex_does_not_block_level1_ends():
    """CONTRACTS 3 / A6.2: two hexes on the same level-1 plateau see each other across a level-1
    hill hex (the line runs on its surface, not through it); one level higher still blocks."""
    s = scen({"C1": {"level": 1}, "C2": {"level": 1}, "C3": {"level": 1}, "C4": {"level": 1}, "C5": {"level": 1}})
    assert_all_paths(s, A, B, clear=True)
    assert los(s, A, B).hindrances == 0
    s = scen({**ON_HILLS, "C3": {"level": 2}})
    r = los(s, A, B)
    assert not r.clear and "hill" in r.reason
    assert_all_paths(s, A, B, clear=False)
    # Woods on the plateau rise to level 2: blocked.
    assert_all_paths(scen({**ON_HILLS, "C2": {"level": 1}, "C3": {"level": 1, "terrain": "woods"}}), A, B, clear=False)


def test_asl_a6_2_level1_observer_level0_target_behind_woods_adjacent_to_target():
    """ASL A6.2: a level-1 observer does not see a level-0 target behind level-0 woods next to it
    (the woods' top is the observer's level); from level 2 the line still dips into them
    (at C4's far edge it is at level 2 - 2 * 7/8 = 0.25)."""
    s = scen({"C1": {"level": 1}, "C4": {"terrain": "woods"}})
    r = los(s, A, B)
    assert not r.clear and r.blocked_by == H("C4")
    assert_all_paths(s, A, B, clear=False)
    assert_all_paths(scen({"C1": {"level": 2}, "C4": {"terrain": "woods"}}), A, B, clear=False)
    # The woods next to the observer instead, who is two levels up: heights 1.75 .. 1.25, above the top.
    assert_all_paths(scen({"C1": {"level": 2}, "C2": {"terrain": "woods"}}), A, B, clear=True)


def test_asl_a6_2_rubble_and_blocking_counter_at_their_top():
    """A6.2 for every terrain obstacle: level-0 rubble (top 0.5) between level-0 ends blocks,
    between level-1 ends does not; a blocking LOS counter one level high blocks level-1 ends."""
    assert_all_paths(scen({"C3": {"terrain": "stone_rubble"}}), A, B, clear=False)
    assert_all_paths(scen({**ON_HILLS, "C3": {"terrain": "wooden_rubble"}}), A, B, clear=True)
    blaze = {H("C3"): (LosCounter("blaze", blocks=True, height=1),)}
    assert_all_paths(scen(ON_HILLS), A, B, clear=False, counters=blaze)
    high = {H("C3"): (LosCounter("blaze", blocks=True, height=1),)}
    assert_all_paths(scen({"C1": {"level": 2}, "C5": {"level": 2}}), A, B, clear=True, counters=high)


def test_asl_a6_2_level_line_at_an_outline_top():
    """A6.2 with a custom outline: a level line at the outline's top is blocked where it enters the
    outline, not where it only touches its edge (docs/rules-notes.md)."""
    centre = [[-0.3, -0.3], [0.3, -0.3], [0.3, 0.3], [-0.3, 0.3]]
    edge = [[0.0, -0.3], [0.4, -0.3], [0.4, 0.3], [0.0, 0.3]]  # left edge exactly on the C1-C5 line
    assert_all_paths(scen({**ON_HILLS, "C3": {"terrain": "woods", "outline": centre}}), A, B, clear=False)
    assert_all_paths(scen({**ON_HILLS, "C3": {"terrain": "woods", "outline": edge}}), A, B, clear=True)
    # On a level-1 plateau hex the outline's top is level 2: still blocked; its open part is not.
    plateau = {**ON_HILLS, "C2": {"level": 1}, "C4": {"level": 1}}
    assert_all_paths(scen({**plateau, "C3": {"level": 1, "terrain": "woods", "outline": centre}}), A, B, clear=False)
    assert_all_paths(scen({**plateau, "C3": {"level": 1, "terrain": "woods", "outline": SMALL_NE}}), A, B, clear=True)


def test_asl_a6_2_level_line_along_a_hexside_at_the_tops():
    """Lines along hexsides (docs/rules-notes.md) with A6.2: level-1 ends along the B1|B2 side
    are blocked when both hexes are level-0 woods (each at its top), not when one is a level-1
    plateau hex (its ground does not block a line on its surface)."""
    a, c = H("A1"), H("C1")
    ends = {"A1": {"level": 1}, "C1": {"level": 1}}
    assert_all_paths(scen({**ends, "B1": {"terrain": "woods"}, "B2": {"terrain": "stone_building"}}), a, c, clear=False)
    assert_all_paths(scen({**ends, "B1": {"terrain": "woods"}, "B2": {"level": 1}}), a, c, clear=True)
    assert_all_paths(scen({**ends, "B1": {"level": 1}, "B2": {"level": 1}}), a, c, clear=True)
    assert_all_paths(scen({**ends, "B1": {"level": 2}, "B2": {"terrain": "woods"}}), a, c, clear=False)


def test_asl_a6_2_level_line_through_a_vertex_of_woods_at_its_top_is_clear():
    """A line through a vertex only touches the hexes meeting there, at any height (rules-notes)."""
    a, b, touched = _vertex_case()
    s = scen({a.label: {"level": 1}, b.label: {"level": 1}, touched.label: {"terrain": "woods"}}, columns=10, rows=12)
    assert_all_paths(s, a, b, clear=True)


# ---------------------------------------------------------------------------
# ASLGW 2.1.1 / 2.1.5 deep trenches, 2.2.2 dugouts
# ---------------------------------------------------------------------------
DT = [{"kind": "deep_trench", "hexes": ["C5"], "owner": "french"}, {"kind": "dugout", "hexes": ["C1"]}]


def test_aslgw_2_1_5_unit_in_deep_trench_seen_only_from_same_hex():
    """ASLGW 2.1.5: a unit IN a deep trench is seen only from its own hex and sees nothing out."""
    s = scen(forts=DT)
    r = los(s, H("C3"), B, to_in="deep_trench")
    assert not r.clear and r.blocked_by == B and "2.1.5" in r.reason
    assert not los(s, B, H("C3"), from_in="deep_trench").clear
    assert not los(s, B, H("C4"), from_in="deep_trench").clear  # even adjacent
    assert los(s, B, B, from_in="ground", to_in="deep_trench").clear
    assert LosIndex(s).visible_from(B, "deep_trench") == frozenset({B})


def test_aslgw_2_1_1_crest_status_sees_and_is_seen_like_any_unit_of_its_hex():
    """ASLGW 2.1.1: at crest status a unit sees out, and LOS stays reciprocal."""
    s = scen({"C3": {"terrain": "brush"}}, forts=DT)
    for pos in ("deep_trench_crest",):
        r1 = los(s, H("C3"), B, to_in=pos)
        r2 = los(s, B, H("C3"), from_in=pos)
        assert r1.clear and r2.clear
        assert los(s, A, B, to_in=pos) == los(s, A, B)
    s2 = scen({"C3": {"terrain": "woods"}}, forts=DT)
    assert not los(s2, A, B, to_in="deep_trench_crest").clear


def test_aslgw_2_2_2_dugout_los_only_within_its_own_hex():
    """ASLGW 2.2.2: LOS into and out of a dugout exists only within its own hex."""
    s = scen(forts=DT)
    r = los(s, A, B, from_in="dugout")
    assert not r.clear and r.blocked_by == A and "2.2.2" in r.reason
    assert not los(s, H("C3"), A, to_in="dugout").clear
    assert los(s, A, A, from_in="dugout", to_in="ground").clear
    assert LosIndex(s).visible_from(A, "dugout") == frozenset({A})


def test_positions_need_their_fortification():
    s = scen(forts=DT)
    with pytest.raises(LosError, match="C3 has no deep trench"):
        los(s, H("C3"), B, from_in="deep_trench")
    with pytest.raises(LosError, match="C5 has no dugout"):
        los(s, A, B, to_in="dugout")


def test_hex_off_the_map_is_an_error():
    with pytest.raises(LosError, match="outside the 8 x 8 map"):
        los(scen(), A, H("Z9"))


# ---------------------------------------------------------------------------
# Hexsides, vertices, heights
# ---------------------------------------------------------------------------
# A1 -> C1 runs exactly along the B1|B2 hexside.
def test_hexside_line_blocked_only_if_both_hexes_block():
    """rules-notes "Lines along hexsides": blocked only when both hexes of the side block."""
    a, c = H("A1"), H("C1")
    assert hex_line(a, c).hexside_pairs == ((H("B1"), H("B2")),)
    assert los(scen({"B1": {"terrain": "woods"}}), a, c).clear
    assert los(scen({"B2": {"terrain": "stone_building"}}), a, c).clear
    r = los(scen({"B1": {"terrain": "woods"}, "B2": {"terrain": "woods"}}), a, c)
    assert not r.clear and r.blocked_by == H("B1") and "hexside" in r.reason
    assert not los(scen({"B1": {"level": 1}, "B2": {"level": 1}}), a, c).clear
    assert los(scen({"B1": {"level": 1}}), a, c).clear


def test_hexside_line_hindered_once_if_either_hex_hinders():
    a, c = H("A1"), H("C1")
    r = los(scen({"B1": {"terrain": "woods"}, "B2": {"terrain": "brush"}}), a, c)
    assert r.clear and r.hindrances == 1 and r.hindrance_hexes[0].hex == H("B2")
    r = los(scen({"B1": {"terrain": "grain"}, "B2": {"terrain": "brush"}}), a, c)
    assert r.clear and r.hindrances == 1


def _vertex_case():
    """An offset whose segment passes through a hex vertex without running along a side."""
    for dq in range(1, 6):
        for dr in range(-6, 6):
            a, b = Hex(0, 4), Hex(dq, 4 + dr)
            hl = hex_line(a, b)
            if hl.hexside_pairs:
                continue
            ax, ay = a.lattice_centre
            bx, by = b.lattice_centre
            for h in {n for x in hl.hexes for n in x.neighbours()} - set(hl.hexes):
                for vx, vy in h.lattice_corners():
                    on = (bx - ax) * (vy - ay) - (by - ay) * (vx - ax) == 0
                    inside = min(ax, bx) < vx < max(ax, bx) or (ax == bx and min(ay, by) < vy < max(ay, by))
                    if on and inside:
                        return a, b, h
    raise AssertionError("no vertex case found")


def test_line_through_a_vertex_only_touches_no_hex():
    """rules-notes: a line through a vertex meets none of the hexes that only touch it there."""
    a, b, touched = _vertex_case()
    s = scen({touched.label: {"terrain": "woods"}}, columns=10, rows=12)
    assert a.on_board(10, 12) and b.on_board(10, 12)
    assert los(s, a, b).clear
    assert los(s, b, a).clear


def test_heights_observer_on_a_hill_sees_over_woods_far_below():
    # Observer two levels up, target one level up: the line stays above the level-0 woods' top (1).
    s = scen({"C1": {"level": 2}, "C5": {"level": 1}, "C3": {"terrain": "woods"}})
    assert los(s, A, B).clear
    # Target at level 0: at C3's far edge the line is at 2 - 2*(5/8) = 0.75 < 1, blocked.
    s = scen({"C1": {"level": 2}, "C3": {"terrain": "woods"}})
    assert not los(s, A, B).clear


def test_heights_hill_blocks_only_strictly_below_its_level():
    """CONTRACTS 3 / ASL A6.2: a hill's ground blocks only a line below it (the line may run on its surface)."""
    # C1 level 4 -> C3 level 0: C2 spans t in (1/4, 3/4), line heights 3 .. 1 (exactly 1 at its exit).
    a, c = H("C1"), H("C3")
    assert los(scen({"C1": {"level": 4}, "C2": {"level": 1}}), a, c).clear
    assert not los(scen({"C1": {"level": 4}, "C2": {"level": 2}}), a, c).clear
    # C1 level 2 -> C5 level 0 over a level-1 hill in C3 (heights 1.25 .. 0.75): blocked;
    # over one in C2 (heights 1.75 .. 1.25): clear.
    assert not los(scen({"C1": {"level": 2}, "C3": {"level": 1}}), A, B).clear
    assert los(scen({"C1": {"level": 2}, "C2": {"level": 1}}), A, B).clear


def test_heights_sloping_line_reaching_an_obstacle_top_only_at_its_far_edge_is_clear():
    """ASL A6.2 as recorded in docs/rules-notes.md: only a stretch of positive length at or below
    the top blocks; a sloping line that reaches the top at one point on the area's edge does not."""
    a, c = H("C1"), H("C3")
    # C1 level 4 -> C3 level 0 over level-0 woods in C2: heights 3 .. 1, exactly 1 only at C2's far edge.
    s = scen({"C1": {"level": 4}, "C2": {"terrain": "woods"}})
    assert_all_paths(s, a, c, clear=True)
    # Over a building whose top reaches one level higher (on a level-1 hill): heights 3 .. 1 < 2, blocked.
    assert_all_paths(scen({"C1": {"level": 4}, "C2": {"terrain": "stone_building", "level": 1}}), a, c, clear=False)
    # C1 level 2 -> C5 level 0 over level-0 woods in C3: the line reaches height 1 at C3's centre, then
    # runs below it: blocked (at or below the top over a stretch inside the woods).
    assert_all_paths(scen({"C1": {"level": 2}, "C3": {"terrain": "woods"}}), A, B, clear=False)


def test_rubble_is_half_a_level():
    s = scen({"C1": {"level": 1}, "C5": {"level": 1}, "C3": {"terrain": "stone_rubble", "level": 0}})
    assert los(s, A, B).clear
    assert not los(scen({"C3": {"terrain": "stone_rubble"}}), A, B).clear


# ---------------------------------------------------------------------------
# LOS counters (smoke ...) and ASLGW 1.7.1 garance
# ---------------------------------------------------------------------------
def test_smoke_counter_hinders_and_blocking_counter_blocks():
    s = scen()
    r = los(s, A, B, counters={H("C3"): (LosCounter("smoke", hindrance=3),)})
    assert r.clear and r.hindrances == 1 and r.hindrance_drm == 3 and "smoke" in r.reason
    r = los(s, A, B, counters={H("C3"): (LosCounter("blaze", blocks=True, height=2),)})
    assert not r.clear and r.blocked_by == H("C3") and "blaze" in r.reason
    # Counters in the end hexes do not hinder (CONTRACTS 3).
    assert los(s, A, B, counters={A: (LosCounter("smoke", hindrance=3),)}).hindrances == 0
    with pytest.raises(LosError):
        LosCounter("smoke", hindrance=-1)


def test_aslgw_1_7_1_garance_example_one_and_two_brush_hexes():
    """ASLGW 1.7.1 example: Germans fire on charging French across 1 brush hex: +0 instead
    of +1; across 2 brush hexes: +1 instead of +2."""
    one = scen({"C3": {"terrain": "brush"}}, date="1914-09-06")
    two = scen({"C3": {"terrain": "brush"}, "C4": {"terrain": "brush"}}, date="1914-09-06")
    r1, r2 = los(one, A, B), los(two, A, B)
    assert (r1.hindrance_drm, r2.hindrance_drm) == (1, 2)
    assert fire_hindrance(r1, one, "french") == 0
    assert fire_hindrance(r2, two, "french") == 1
    assert fire_hindrance(r2, two, "german") == 2  # only French troops wear garance


def test_aslgw_1_7_1_garance_dates_and_1_7_3_exceptions():
    """ASLGW 1.7.1: 1914 to May 1915 (inclusive); 1.7.3: not in winter, mud, mist, fog, night."""
    assert garance_applies(scen(date="1915-05-31"), "french")
    assert not garance_applies(scen(date="1915-06-01"), "french")
    assert garance_applies(scen(date="1914-08-20"), "french")
    for extra in ({"winter": True}, {"night": True}, {"weather": "mud"}, {"weather": "mist"}, {"weather": "fog"}):
        assert not garance_applies(scen(date="1914-09-06", **extra), "french"), extra
    with pytest.raises(LosError):
        garance_applies(scen(), "martians")


def test_fire_hindrance_on_blocked_los_is_an_error():
    s = scen({"C3": {"terrain": "woods"}})
    with pytest.raises(LosError, match="blocked"):
        fire_hindrance(los(s, A, B), s, "french")


# ---------------------------------------------------------------------------
# Custom outlines (docs/format/los.md)
# ---------------------------------------------------------------------------
SMALL_NE = [[0.1, -0.6], [0.6, -0.6], [0.6, -0.1], [0.1, -0.1]]  # a square in the upper right of the hex
CENTRE = [[-0.3, -0.3], [0.3, -0.3], [0.3, 0.3], [-0.3, 0.3]]


def test_outline_off_the_line_does_not_block_but_one_across_it_does():
    assert los(scen({"C3": {"terrain": "woods", "outline": SMALL_NE}}), A, B).clear
    r = los(scen({"C3": {"terrain": "woods", "outline": CENTRE}}), A, B)
    assert not r.clear and r.blocked_by == H("C3") and "outline" in r.reason


def test_outline_touching_the_line_only_at_its_edge_does_not_block():
    # x = 0 is exactly the C1-C5 line; a square with its left edge on it is only grazed.
    edge = [[0.0, -0.3], [0.4, -0.3], [0.4, 0.3], [0.0, 0.3]]
    assert los(scen({"C3": {"terrain": "woods", "outline": edge}}), A, B).clear
    cross = [[-0.03, -0.3], [0.4, -0.3], [0.4, 0.3], [-0.03, 0.3]]  # snaps 1/48 hex-width left: across
    assert not los(scen({"C3": {"terrain": "woods", "outline": cross}}), A, B).clear


def test_outline_along_a_hexside_counts_only_if_it_covers_the_whole_side():
    a, c = H("A1"), H("C1")
    # B1|B2 side: B1's bottom side, hex-local y = +sqrt(3)/2 from x = -0.5 to 0.5.
    y = 3**0.5 / 2
    whole = [[-0.5, y], [0.5, y], [0.3, 0.2], [-0.3, 0.2]]
    half = [[0.0, y], [0.5, y], [0.3, 0.2], [0.0, 0.2]]
    s = scen({"B1": {"terrain": "woods", "outline": whole}, "B2": {"terrain": "woods"}})
    assert not los(s, a, c).clear
    s = scen({"B1": {"terrain": "woods", "outline": half}, "B2": {"terrain": "woods"}})
    assert los(s, a, c).clear


def test_outline_crossed_at_its_tops_height_is_decided_exactly():
    # C1 level 2 -> C5 level 0: the line is at height 1 at C3's centre, higher before it.
    # A woods outline (top 1) only in C3's near half is passed above; one in its far half, below.
    near = [[-0.4, -0.8], [0.4, -0.8], [0.4, -0.1], [-0.4, -0.1]]
    far = [[-0.4, 0.1], [0.4, 0.1], [0.4, 0.8], [-0.4, 0.8]]
    s = scen({"C1": {"level": 2}, "C3": {"terrain": "woods", "outline": near}})
    assert los(s, A, B).clear
    s = scen({"C1": {"level": 2}, "C3": {"terrain": "woods", "outline": far}})
    assert not los(s, A, B).clear
    idx = LosIndex(s)
    assert B not in idx.visible_from(A)
    assert not idx.clear_many([A], [B])[0]


@pytest.mark.parametrize(
    "value,msg",
    [
        ([[0, 0], [0.5, 0]], "at least 3"),
        ("square", "at least 3"),
        ([[0, 0], [0.5, 0], ["x", 1]], "two finite numbers"),
        ([[0, 0], [1.5, 0], [0, 0.5]], "outside the hex"),
        ([[0, 0], [0.2, 0], [0.4, 0]], "no area"),
        ([[-0.5, -0.5], [0.5, 0.4], [0.5, -0.5], [-0.5, 0.2]], "crosses or touches itself"),
    ],
)
def test_outline_validation_names_the_hex(value, msg):
    with pytest.raises(OutlineError, match=f"hex K10: .*{msg}"):
        parse_outline(value, "K10")
    s = scen({"C3": {"terrain": "woods", "outline": value}})
    report = validate_scenario(s)
    assert not report.valid
    assert any(f.path == "$.map.hexes.C3.outline" and "C3" in f.message for f in report.errors)
    with pytest.raises(OutlineError, match="C3"):
        los(s, A, B)


def test_outline_on_clear_terrain_is_a_warning():
    report = validate_scenario(scen({"C3": {"terrain": "brush", "outline": CENTRE}}))
    assert report.valid and any("no effect" in f.message for f in report.warnings)


def test_outline_snaps_to_the_fine_grid_and_full_hex_outline_equals_plain_woods():
    o = parse_outline([[1, 0], [0.5, 3**0.5 / 2], [-0.5, 3**0.5 / 2], [-1, 0], [-0.5, -(3**0.5) / 2], [0.5, -(3**0.5) / 2]], "A1")
    assert o.is_full_hex and o.vertices[0] == (48, 0)
    s1 = scen({"C3": {"terrain": "woods"}})
    s2 = scen(
        {
            "C3": {
                "terrain": "woods",
                "outline": [
                    list(p) for p in [[1, 0], [0.5, 0.8660254], [-0.5, 0.8660254], [-1, 0], [-0.5, -0.8660254], [0.5, -0.8660254]]
                ],
            }
        }
    )
    for a in s1.map:
        assert los(s1, a, H("H8")).clear == los(s2, a, H("H8")).clear


def test_aslgw_1_7_1_garance_for_a_target_unit():
    """ASLGW 1.7.1 with the target given as a unit (who wears garance: gwasl.rules.garance)."""
    from gwasl.model.scenario import Unit, UnitKind

    s = scen({"C3": {"terrain": "brush"}}, date="1915-03-01")
    r = los(s, A, B)
    assert fire_hindrance(r, s, Unit("f1", "french", UnitKind.SQUAD, B)) == 0
    assert fire_hindrance(r, s, Unit("g1", "german", UnitKind.SQUAD, B)) == 1


def test_unknown_position_is_a_los_error():
    with pytest.raises(LosError, match="'roof' is not one of ground"):
        los(scen(), A, B, from_in="roof")


# ---------------------------------------------------------------------------
# The map's default terrain (issue 10, item 5): an obstacle hex replaces it
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("default", ["brush", "grain", "orchard"])
def test_contracts3_obstacle_hex_on_a_hindrance_default_map_adds_no_hindrance(default):
    """CONTRACTS 3: each brush/grain/orchard hex on the line is one hindrance; a
    rubble hex (and the open rest of an outlined woods hex, docs/format/los.md)
    is not one, even when the map's default terrain is a hindrance."""
    # Level-1 ends over level-0 wooden rubble (top 0.5): not blocked, not hindered.
    s = scen({"C1": {"level": 1}, "C5": {"level": 1}, "C3": {"terrain": "wooden_rubble"}}, default_terrain=default)
    r = los(s, A, B)
    assert r.clear and [h.hex for h in r.hindrance_hexes] == [H("C2"), H("C4")]
    assert fire_hindrance(r, s, "german") == 2
    # A woods outline the line misses: C3 is open ground there.
    s = scen({"C3": {"terrain": "woods", "outline": SMALL_NE}}, default_terrain=default)
    r = los(s, A, B)
    assert r.clear and [h.hex for h in r.hindrance_hexes] == [H("C2"), H("C4")]
    # Sloping line (C1 level 2 -> C5 level 0) passing above the near-half outline.
    near = [[-0.4, -0.8], [0.4, -0.8], [0.4, -0.1], [-0.4, -0.1]]
    s = scen({"C1": {"level": 2}, "C3": {"terrain": "woods", "outline": near}}, default_terrain=default)
    r = los(s, A, B)
    assert r.clear and [h.hex for h in r.hindrance_hexes] == [H("C4")]


@pytest.mark.parametrize("default", ["brush", "grain", "orchard"])
def test_hexside_line_between_obstacle_hexes_on_a_hindrance_default_map_is_not_hindered(default):
    """rules-notes "Lines along hexsides": the stretch is hindered when either hex
    hinders; two rubble hexes (or a woods outline not covering the side) do not,
    whatever the map's default terrain."""
    a, c = H("A1"), H("C1")
    s = scen({"A1": {"level": 1}, "C1": {"level": 1}, "B1": {"terrain": "stone_rubble"}, "B2": {"terrain": "wooden_rubble"}}, default_terrain=default)
    r = los(s, a, c)
    assert r.clear and r.hindrances == 0 and r.hindrance_drm == 0
    y = 3**0.5 / 2
    half = [[0.0, y], [0.5, y], [0.3, 0.2], [0.0, 0.2]]
    s = scen({"B1": {"terrain": "woods", "outline": half}, "B2": {"terrain": "woods"}}, default_terrain=default)
    r = los(s, a, c)
    assert r.clear and r.hindrances == 0
    # One hex of the pair at the default terrain still hinders once.
    s = scen({"A1": {"level": 1}, "C1": {"level": 1}, "B1": {"terrain": "stone_rubble"}}, default_terrain=default)
    r = los(s, a, c)
    assert r.clear and r.hindrances == 1 and r.hindrance_hexes[0].hex == H("B2")
