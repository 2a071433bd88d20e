"""Exact LOS geometry helpers: outline snapping, side coverage, exact polygon tests,
and the Shapely drawing helpers built from the shared Layout (CONTRACTS 3)."""

from __future__ import annotations

import copy

from shapely.geometry import Polygon

from gwasl.model.hexgrid import Hex, Layout
from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.los_geometry import (
    FINE,
    fine_centre,
    hex_fine_corners,
    layout_to_fine,
    obstacle_polygons,
    outline_from_pixels,
    outline_pixels,
    parse_outline,
    segment_enters_below,
)


def test_layout_pixels_snap_exactly_to_the_fine_frame():
    """Layout is the one pixel layout; its hex corners land on the integer frame."""
    for lay in (Layout(), Layout(size=17.3), Layout.for_map(25.0, margin=7.0)):
        for h in (Hex(0, 0), Hex(5, -2), Hex(130, -60)):
            c = lay.hex_to_pixel(h)
            assert layout_to_fine(lay, c.x, c.y) == fine_centre(h)
            assert {layout_to_fine(lay, p.x, p.y) for p in lay.polygon(h)} == set(hex_fine_corners(h))


def test_outline_round_trip_through_pixels():
    lay = Layout(size=40.0)
    h = Hex(3, 1)
    o = parse_outline([[-0.4, -0.3], [0.5, -0.2], [0.1, 0.6]], "D3")
    pts = outline_pixels(lay, h, o)
    again = parse_outline(outline_from_pixels(lay, h, pts), "D3")
    assert again.vertices == o.vertices


def test_side_mask_and_hull():
    y = 3**0.5 / 2
    o = parse_outline([[-0.5, y], [0.5, y], [0.0, 0.0]], "A1")  # covers the bottom side only
    assert o.side_mask == 1 << 1 and not o.is_full_hex
    notch = parse_outline([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [0.0, 0.0], [-0.5, 0.5]], "A1")
    assert len(notch.hull) == 4 and (0, 0) not in notch.hull


def test_segment_enters_below_is_exact_at_vertices_and_heights():
    tri = [(0, 0), (10, 10), (20, 0)]
    # Through the apex only: touches, never enters.
    assert not segment_enters_below((-10, 10), (30, 10), tri, 0, 0, 2)[0]
    # Through the interior, below the top.
    assert segment_enters_below((-10, 5), (30, 5), tri, 0, 0, 2)[0]
    # Rising line entering at t = 3/8 (x = 5) where h = 16 * 3/8 = 6: exactly the top, not below.
    assert not segment_enters_below((-10, 5), (30, 5), tri, 0, 16, 6)[0]
    assert segment_enters_below((-10, 5), (30, 5), tri, 0, 16, 7)[0]
    assert FINE == 24


def test_segment_enters_below_at_top_for_terrain_obstacles():
    """ASL A6.2 (docs/rules-notes.md): a terrain obstacle (``at_top``) blocks a stretch of positive
    length at or below its top; a hill's ground only one strictly below; one point never counts."""
    tri = [(0, 0), (10, 10), (20, 0)]
    # Level line exactly at the top through the interior: an obstacle blocks, a hill does not.
    assert segment_enters_below((-10, 5), (30, 5), tri, 6, 6, 6, True)[0]
    assert not segment_enters_below((-10, 5), (30, 5), tri, 6, 6, 6)[0]
    # Rising line at the top only where it enters (x = 5, t = 3/8): above inside, clear either way.
    assert not segment_enters_below((-10, 5), (30, 5), tri, 0, 16, 6, True)[0]
    # Falling line reaching the top only where it leaves (x = 15, t = 5/8, h = 16 - 16 * 5/8 = 6): clear.
    assert not segment_enters_below((-10, 5), (30, 5), tri, 16, 0, 6, True)[0]
    # Level line at the top along an edge, or through the apex only: touches, never enters.
    assert not segment_enters_below((-10, 0), (30, 0), tri, 6, 6, 6, True)[0]
    assert not segment_enters_below((-10, 10), (30, 10), tri, 6, 6, 6, True)[0]


def test_obstacle_polygons_for_drawing():
    doc = {
        "format": "gwasl-scenario/1",
        "title": "t",
        "date": "1916-07-01",
        "map": {
            "columns": 4,
            "rows": 4,
            "hexes": {
                "B2": {"terrain": "woods"},
                "C2": {"terrain": "woods", "outline": [[-0.3, -0.3], [0.3, -0.3], [0.0, 0.4]]},
                "A1": {"terrain": "brush"},
            },
        },
        "sides": {"a": {"nationality": "german"}, "b": {"nationality": "french"}},
        "units": [],
    }
    s = parse_scenario(copy.deepcopy(doc))
    lay = Layout(size=30.0)
    polys = obstacle_polygons(s, lay)
    assert set(polys) == {Hex.from_label("B2"), Hex.from_label("C2")}
    assert abs(polys[Hex.from_label("B2")].area - Polygon(lay.polygon(Hex.from_label("B2"))).area) < 1e-6
    assert polys[Hex.from_label("C2")].area < polys[Hex.from_label("B2")].area / 3
