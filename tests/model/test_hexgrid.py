"""Hex grid: CONTRACTS 1 examples and properties of labels, distance, rings and exact lines."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwasl.model.hexgrid import (
    Hex,
    HexLabelError,
    Layout,
    column_index,
    column_letters,
    hex_line,
    iter_map,
)

H = Hex.from_label


# --- CONTRACTS 1 examples ----------------------------------------------------
def test_contracts_1_a1_touches_a2_b1_b2():
    on_map = {h.label for h in H("A1").neighbours() if h.on_board(20, 20)}
    assert on_map == {"A2", "B1", "B2"}


def test_contracts_1_b2_touches_b1_b3_a1_a2_c1_c2():
    assert {h.label for h in H("B2").neighbours()} == {"B1", "B3", "A1", "A2", "C1", "C2"}


@pytest.mark.parametrize("a,b,d", [("A1", "C1", 2), ("A1", "C3", 3), ("A1", "A5", 4)])
def test_contracts_1_distances(a, b, d):
    assert H(a).distance(H(b)) == d


def test_contracts_1_even_columns_stand_half_a_hex_lower():
    lay = Layout(size=10)
    a1, b1, c1 = (lay.hex_to_pixel(H(x)) for x in ("A1", "B1", "C1"))
    assert a1.y == pytest.approx(c1.y)
    assert b1.y == pytest.approx(a1.y - lay.hex_height / 2)


@pytest.mark.parametrize(
    "index,letters", [(0, "A"), (25, "Z"), (26, "AA"), (27, "AB"), (51, "AZ"), (52, "BA"), (701, "ZZ"), (702, "AAA"), (207, "GZ")]
)
def test_column_letters_bijective_base_26(index, letters):
    assert column_letters(index) == letters
    assert column_index(letters) == index


@pytest.mark.parametrize("bad", ["", "A", "1", "A0", "a1", "A01", "AAAA1", "A1000", "A1\n", " A1", "Ä1", "A-1", None, 7])
def test_bad_labels_raise_a_clear_error(bad):
    with pytest.raises(HexLabelError):
        Hex.from_label(bad)


@given(st.integers(0, 18277), st.integers(0, 998))
def test_label_round_trip(col, row):
    h = Hex.from_offset(col, row)
    assert (h.column, h.row) == (col, row)
    assert Hex.from_label(h.label) == h


coords = st.builds(Hex, st.integers(-60, 60), st.integers(-60, 60))


@given(coords, coords)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(coords, coords, coords)
def test_distance_triangle_inequality(a, b, c):
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(coords, st.integers(0, 6))
def test_ring_and_range_sizes(h, k):
    ring = h.ring(k)
    assert len(ring) == (6 * k if k else 1) == len(set(ring))
    assert all(h.distance(x) == k for x in ring)
    assert len(set(h.within(k))) == 3 * k * (k + 1) + 1


def test_neighbours_are_distinct_and_adjacent():
    h = H("K10")
    assert len(set(h.neighbours())) == 6
    assert all(h.distance(n) == 1 and h.direction_to(n) is not None for n in h.neighbours())


# --- Exact lines ---------------------------------------------------------------
def test_line_straight_down_a_column():
    assert [x.label for x in hex_line(H("A1"), H("A4")).hexes] == ["A1", "A2", "A3", "A4"]


def test_line_along_a_hexside_reports_the_pair_not_the_hexes():
    # A1 -> C1 runs exactly along the side between B1 and B2.
    line = hex_line(H("A1"), H("C1"))
    assert [x.label for x in line.hexes] == ["A1", "C1"]
    assert [(p.label, q.label) for p, q in line.hexside_pairs] == [("B1", "B2")]


def test_long_vertex_direction_line_alternates_hexsides_and_interiors():
    line = hex_line(H("A1"), H("G1"))
    assert [x.label for x in line.hexes] == ["A1", "C1", "E1", "G1"]
    assert {(p.label, q.label) for p, q in line.hexside_pairs} == {("B1", "B2"), ("D1", "D2"), ("F1", "F2")}


def test_line_to_itself():
    line = hex_line(H("C3"), H("C3"))
    assert line.hexes == (H("C3"),) and line.hexside_pairs == ()


def _adjacent_or_bridged(a: Hex, b: Hex, pairs) -> bool:
    if a.distance(b) == 1:
        return True
    return any(all(x.distance(y) == 1 for x in (a, b) for y in pair) for pair in pairs)


@settings(max_examples=200)
@given(coords, coords)
def test_line_properties_endpoints_contiguity_symmetry(a, b):
    line = hex_line(a, b)
    assert line.hexes[0] == a and line.hexes[-1] == b
    assert len(set(line.hexes)) == len(line.hexes)
    for x, y in zip(line.hexes, line.hexes[1:]):
        assert _adjacent_or_bridged(x, y, line.hexside_pairs), (x, y)
    back = hex_line(b, a)
    assert set(back.hexes) == set(line.hexes)
    assert set(back.hexside_pairs) == set(line.hexside_pairs)
    # Translation invariance.
    shift = Hex(7, -3)
    moved = hex_line(a + shift, b + shift)
    assert moved.hexes == tuple(h + shift for h in line.hexes)


def _reference_line(a: Hex, b: Hex, nudge: Fraction) -> list[Hex]:
    """Red Blob Games' hex_linedraw with a rational nudge, rounded exactly."""
    n = a.distance(b)
    out = []
    # Nudge both ends by (e, e, -2e) in cube coordinates, as Red Blob Games does.
    aq, ar = Fraction(a.q) + nudge, Fraction(a.r) + nudge
    bq, br = Fraction(b.q) + nudge, Fraction(b.r) + nudge
    for i in range(n + 1):
        t = Fraction(i, n) if n else Fraction(0)
        q = aq + (bq - aq) * t
        r = ar + (br - ar) * t
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex(int(rq), int(rr)))
    return out


@settings(max_examples=300)
@given(coords, coords, st.sampled_from([Fraction(1, 10**6), Fraction(-1, 10**6)]))
def test_supercover_contains_the_nudged_reference_line(a, b, nudge):
    line = hex_line(a, b)
    covered = set(line.hexes) | {h for p in line.hexside_pairs for h in p}
    assert set(_reference_line(a, b, nudge)) <= covered


@settings(max_examples=80)
@given(st.integers(-20, 20), st.integers(-20, 20))
def test_supercover_agrees_with_float_geometry_away_from_degenerate_cases(dq, dr):
    """A plain float test (points sampled along the segment, each placed in the
    hex with the nearest centre) never finds a hex the exact line misses.
    Points within 1e-9 of a hex boundary are ambiguous in floats and skipped:
    deciding those is exactly what the integer test is for."""
    a, b = Hex(0, 0), Hex(dq, dr)
    line = hex_line(a, b)
    if line.hexside_pairs:
        return
    lay = Layout(size=1.0)
    pa, pb = lay.hex_to_pixel(a), lay.hex_to_pixel(b)
    samples = 150 * max(1, a.distance(b))
    seen = set()
    for i in range(samples + 1):
        t = i / samples
        x, y = pa.x + (pb.x - pa.x) * t, pa.y + (pb.y - pa.y) * t
        h = lay.pixel_to_hex(x, y)
        dists = sorted(math.dist((x, y), lay.hex_to_pixel(n)) for n in (h, *h.neighbours()))
        if dists[1] - dists[0] > 1e-9:
            seen.add(h)
    assert seen <= set(line.hexes)


# --- Layout ----------------------------------------------------------------------
@given(coords, st.floats(5, 80))
def test_layout_round_trip_and_corners(h, size):
    lay = Layout(size=size)
    c = lay.hex_to_pixel(h)
    assert lay.pixel_to_hex(c.x, c.y) == h
    for p in lay.polygon(h):
        assert math.hypot(p.x - c.x, p.y - c.y) == pytest.approx(size)


def test_layout_for_map_puts_the_map_at_the_margin():
    lay = Layout.for_map(size=20, margin=5)
    xs, ys = [], []
    for h in iter_map(4, 3):
        for p in lay.polygon(h):
            xs.append(p.x)
            ys.append(p.y)
    assert min(xs) == pytest.approx(5) and min(ys) == pytest.approx(5)
    w, hgt = lay.map_size(4, 3)
    assert max(xs) - min(xs) == pytest.approx(w)
    assert max(ys) - min(ys) == pytest.approx(hgt)


@settings(max_examples=200)
@given(coords, coords)
def test_line_hexes_are_in_the_order_the_line_enters_them(a, b):
    """Exact Cyrus-Beck entry parameters never decrease along ``hexes`` (near a
    vertex, the order of projected centres would be wrong, e.g. offset (-14, -23))."""
    from gwasl.model.hexgrid import _entry_exit

    ax, ay = a.lattice_centre
    bx, by = b.lattice_centre
    ts = [_entry_exit(ax, ay, bx - ax, by - ay, h) for h in hex_line(a, b).hexes]
    assert ts == sorted(ts)
    assert all(t_in < t_out for t_in, t_out in ts[1:-1])


def test_entry_order_near_a_vertex():
    line = hex_line(Hex(0, 0), Hex(-14, -23))
    assert line.hexes[5:7] == (Hex(-1, -3), Hex(-2, -3))
