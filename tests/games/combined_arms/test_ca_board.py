"""The Combined Arms board and its lines of fire (CA The Playing Board, Fire Attacks,
Figure 5), and the validation of its data tables."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms.tables import TableError, load_board, load_terrain

AXIAL = {c: i for i, c in enumerate(B.COORDS)}


def test_board_is_9_hexrows_7_to_11_wide_with_70_diced_hexes_beside_the_road():
    """CA The Playing Board: 9 hexes deep, 7 to 11 wide, 70 hexes not on the central road."""
    widths = [sum(1 for r in B.ROW if r == row) for row in range(1, 10)]
    assert widths == [7, 8, 9, 10, 11, 10, 9, 8, 7]
    assert B.N == 79 and B.N - len(B.ROAD) == 70
    assert [B.ROW[h] for h in B.ROAD] == list(range(1, 10))
    assert all(B.distance(a, b) == 1 for a, b in itertools.pairwise(B.ROAD))
    # odd rows: the road is the middle hex; even rows zigzag right, left, right, left
    x2 = [2 * B.COORDS[h][0] + B.COORDS[h][1] for h in B.ROAD]
    assert x2 == [0, 1, 0, -1, 0, 1, 0, -1, 0]
    assert all(B.ROTATED[h] in B.ROAD for h in B.ROAD)


def test_thirds_hold_21_28_21_diced_hexes_and_edges():
    """Rows 1-3 and 7-9 hold 21 diced hexes each, 4-6 hold 28; 7 rear edge hexes,
    3 exit hexes, side edge hexes of the 5 middle rows forbidden (CA Movement)."""
    diced = [(t & ~B.ROAD_MASK).bit_count() for t in B.THIRDS]
    assert diced == [21, 28, 21]
    assert B.REAR_HEXES.bit_count() == 7 and B.EXIT_HEXES.bit_count() == 3
    assert sorted(B.label(h) for h in B.bits(B.EXIT_HEXES)) == ["9c", "9d", "9e"]
    assert B.FORBIDDEN_EDGE.bit_count() == 10


def _shadow(firer: tuple[int, int]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The hexes to which a line of fire from ``firer`` is fully or partly blocked by a
    blocking hex at (0, 0), as Figure 5 draws them: far ends within range 5 of the X
    and no nearer the black hex than the X is."""
    f, black = AXIAL[firer], AXIAL[(0, 0)]
    full, part = set(), set()
    for t in range(B.N):
        if t in (f, black) or not 2 <= B.distance(f, t) <= 5 or B.distance(black, t) < B.distance(black, f):
            continue
        interior, touched = B.line_hexes(f, t)
        if black in interior:
            full.add(B.COORDS[t])
        elif black in touched:
            part.add(B.COORDS[t])
    return full, part


def test_figure_5_shadows_golden_data():
    """CA Fire Attacks, Figure 5: with the nearer end adjacent, 2 away along a row and 2
    away along a spine, 12, 6 and 5 hexes are fully blocked within range 5, and exactly
    4 are partly blocked, all in the adjacent case (golden data: the caption, docs/rules-notes.md "Lines of fire: the missing Figure 5")."""
    full, part = _shadow((0, -1))
    assert full == {(0, 1), (1, 1), (0, 2), (1, 2), (2, 2), (-1, 2), (-1, 3), (0, 3), (1, 3), (-2, 4), (-1, 4), (0, 4)}
    assert part == {(1, 0), (-1, 1), (2, 1), (-2, 3)}
    full, part = _shadow((0, -2))
    assert full == {(1, 1), (-1, 2), (0, 2), (1, 2), (-1, 3), (0, 3)} and not part
    full, part = _shadow((1, -2))
    assert full == {(-2, 2), (-1, 2), (0, 2), (-2, 3), (-1, 3)} and not part


def _reference(a: int, b: int, h: int) -> str | None:
    """An independent exact classification of hex h against the segment a -> b, in
    rationals: the hex is |2dq+dr| <= 1, |dq+2dr| <= 1, |dr-dq| <= 1 about its centre;
    clip the segment to it and look at the middle of the clipped piece."""
    (qa, ra), (qb, rb), (qh, rh) = B.COORDS[a], B.COORDS[b], B.COORDS[h]
    lo, hi = Fraction(0), Fraction(1)
    forms = []
    for x, y in ((2, 1), (1, 2), (-1, 1)):
        c0, c1 = x * (qa - qh) + y * (ra - rh), x * (qb - qa) + y * (rb - ra)
        forms.append((c0, c1))
        if c1 == 0:
            if abs(c0) > 1:
                return None
        else:
            t1, t2 = Fraction(-1 - c0, c1), Fraction(1 - c0, c1)
            lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    if lo > hi:
        return None
    if lo == hi:
        return "corner"
    tm = (lo + hi) / 2
    return "interior" if all(abs(c0 + tm * c1) < 1 for c0, c1 in forms) else "side"


def test_line_of_fire_geometry_matches_an_independent_exact_reference():
    """CA Fire Attacks, Figure 5 (rules-notes): blocked when the line crosses a hex's
    interior, partly blocked along part of a hexside, nothing at a corner only; every
    pair of hexes at range 2-5 agrees with the rational reference above."""
    corners = 0
    offsets: dict[tuple[int, int], tuple[int, int]] = {}  # one pair per offset: the geometry is the same for all
    for a in range(B.N):
        for b in range(B.N):
            if 2 <= B.distance(a, b) <= 5:
                offsets.setdefault((B.COORDS[b][0] - B.COORDS[a][0], B.COORDS[b][1] - B.COORDS[a][1]), (a, b))
    assert len(offsets) == 84  # every offset at range 2-5 occurs on the board
    for a, b in offsets.values():
        interior, touched = B.line_hexes(a, b)
        d = B.distance(a, b)
        for h in range(B.N):
            if h in (a, b) or B.distance(a, h) > d or B.distance(b, h) > d:
                continue  # too far to touch the segment
            ref = _reference(a, b, h)
            corners += ref == "corner"
            assert (h in interior, h in touched) == (ref == "interior", ref == "side"), (a, b, h, ref)
    assert corners > 0  # corner-only contacts exist on the board and are ignored
    a, b, h = AXIAL[(-1, -4)], AXIAL[(0, 0)], AXIAL[(0, -3)]
    assert _reference(a, b, h) == "corner" and h not in B.line_hexes(a, b)[0] + B.line_hexes(a, b)[1]


def test_lines_of_fire_cut_both_ways():
    """Figure 6: 'the partly blocked line of fire cuts both ways': the blocking and partial
    sets of a -> b and b -> a are the same for every pair on the board."""
    for a in range(B.N):
        for b in range(B.N):
            if 2 <= B.distance(a, b) <= 5:
                assert B.LOF_INTERIOR[a * B.N + b] == B.LOF_INTERIOR[b * B.N + a]
                assert B.LOF_PARTIAL[a * B.N + b] == B.LOF_PARTIAL[b * B.N + a]


def test_forward_arc_is_a_closed_60_degree_wedge():
    """Figure 2: armour facing a corner has a 60-degree forward arc about it; its
    boundary rows are inside, so k+1 hexes at range k and the 2 hexes sharing the corner."""
    c = B.CENTRE
    for f in range(6):
        arc = B.ARC[c][f]
        for k in range(1, 5):
            assert sum(1 for t in B.bits(arc) if B.distance(c, t) == k) == k + 1
        near = {t for t in B.bits(arc) if B.distance(c, t) == 1}
        assert near == {B.NEIGHBOURS[c][f], B.NEIGHBOURS[c][(f + 1) % 6]}
    # facing the top-right corner (Figure 2) covers the hex to the right, not the one to the left
    assert B.in_arc(c, 0, B.NEIGHBOURS[c][0]) and not B.in_arc(c, 0, B.NEIGHBOURS[c][3])


def test_mortar_impacts_share_one_corner():
    """CA Mortars: the mortars land in the 3 hexes sharing the corner the die picks."""
    for corner in range(6):
        hs = B.corner_hexes(B.CENTRE, corner)
        assert hs[0] == B.CENTRE and len(set(hs)) == 3
        assert B.distance(hs[1], hs[2]) == 1


def test_labels_never_read_like_a_platoon():
    assert B.label(0) == "1a" and B.index_of("5F") == B.CENTRE
    with pytest.raises(KeyError):
        B.index_of("A1")


def test_damaged_tables_are_refused_with_the_field_named():
    good_t = {"dice": {str(i): "open" for i in range(2, 13)},
              "terrain": {k: {"name": k, **dict.fromkeys(("blocks_fire", "defensive", "cover", "hull_down", "armour_may_enter",
                                                          "counts_for_atg", "crest"), False)} for k in ("open", "road")}}
    load_terrain(good_t)
    bad = {**good_t, "dice": {**good_t["dice"], "9": "lava"}}
    with pytest.raises(TableError, match=r"dice\.9"):
        load_terrain(bad)
    bad2 = {**good_t, "terrain": {**good_t["terrain"], "open": {"name": "open", "blocks_fire": "no"}}}
    with pytest.raises(TableError, match=r"terrain\.open\.blocks_fire"):
        load_terrain(bad2)
    import json
    from importlib import resources

    board = json.loads(resources.files("gwasl.games.combined_arms").joinpath("board.json").read_text(encoding="utf-8"))
    load_board(board)
    broken = json.loads(json.dumps(board))
    broken["road"]["path"][4] = [1, 0]
    with pytest.raises(TableError, match="road"):
        load_board(broken)
    broken = json.loads(json.dumps(board))
    broken["row_widths"][0] = 8
    with pytest.raises(TableError, match="row_widths"):
        load_board(broken)
