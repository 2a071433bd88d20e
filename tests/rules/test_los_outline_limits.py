"""Obstacle outlines from a file (issue 17.7): the simplicity test is shapely's
validity test, equal to the former pairwise test on every polygon, and an
outline has at most MAX_OUTLINE_VERTICES points (docs/format/los.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwasl.rules.los_geometry import MAX_OUTLINE_VERTICES, OutlineError, _is_simple, parse_outline


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _pairwise_is_simple(poly):
    """The former O(n^2) test, kept as the reference the shapely test must equal."""

    def proper(a, b, c, d):
        d1 = _cross(b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1])
        d2 = _cross(b[0] - a[0], b[1] - a[1], d[0] - a[0], d[1] - a[1])
        d3 = _cross(d[0] - c[0], d[1] - c[1], a[0] - c[0], a[1] - c[1])
        d4 = _cross(d[0] - c[0], d[1] - c[1], b[0] - c[0], b[1] - c[1])
        return ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4))

    def on(p, a, b):
        if _cross(b[0] - a[0], b[1] - a[1], p[0] - a[0], p[1] - a[1]) != 0:
            return False
        return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])

    n = len(poly)
    edges = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        a, b = edges[i]
        for j in range(i + 1, n):
            c, d = edges[j]
            adjacent = j == i + 1 or (i == 0 and j == n - 1)
            if proper(a, b, c, d):
                return False
            if adjacent:
                shared = b if j == i + 1 else a
                other_i = a if shared == b else b
                other_j = d if shared == c else c
                if on(other_j, a, b) or on(other_i, c, d):
                    return False
            elif on(c, a, b) or on(d, a, b) or on(a, c, d) or on(b, c, d):
                return False
    return True


def _area2(poly):
    return sum(_cross(*poly[i], *poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def _polygons():
    pt = st.tuples(st.integers(-6, 6), st.integers(-4, 4))
    return st.lists(pt, min_size=3, max_size=9).filter(
        lambda p: all(p[i] != p[(i + 1) % len(p)] for i in range(len(p))) and _area2(p) != 0
    )


@settings(max_examples=600, deadline=None)
@given(_polygons())
def test_shapely_validity_equals_the_pairwise_simplicity_test(poly):
    """Issue 17.7: one O(n log n) test instead of the quadratic one, deciding every polygon alike."""
    assert _is_simple(poly) == _pairwise_is_simple(poly)


@pytest.mark.parametrize(
    "poly, simple",
    [
        ([(0, 0), (4, 0), (4, 4), (0, 4)], True),
        ([(0, 0), (4, 4), (4, 0), (0, 4)], False),  # bow-tie: edges cross
        ([(0, 0), (4, 0), (2, 0), (2, 3)], False),  # folds back along itself
        ([(0, 0), (4, 0), (4, 4), (2, 0), (0, 4)], False),  # touches its own edge at a vertex
        ([(0, 0), (2, 0), (4, 0), (4, 4), (0, 4)], True),  # a straight vertex is fine
    ],
)
def test_simplicity_cases(poly, simple):
    assert _is_simple(poly) is simple is _pairwise_is_simple(poly)


def _square(n: int, r: float = 0.4) -> list[list[float]]:
    """A square of ``n`` points (n/4 along each side) inside the hex."""
    k = n // 4
    side = [-r + 2 * r * i / k for i in range(k)]
    return [[x, -r] for x in side] + [[r, y] for y in side] + [[-x, r] for x in side] + [[-r, -y] for y in side]


def test_an_outline_has_at_most_the_documented_number_of_points():
    """Issue 17.7: outlines of about 2,000 vertices took seconds each; the limit is documented in docs/format/los.md."""
    assert len(parse_outline(_square(MAX_OUTLINE_VERTICES), "K10").hull) == 4
    with pytest.raises(OutlineError, match=f"hex K10: outline has 2,000 points; at most {MAX_OUTLINE_VERTICES} are allowed"):
        parse_outline(_square(2000), "K10")


def test_a_bad_point_is_quoted_shortened():
    with pytest.raises(OutlineError) as ei:
        parse_outline([[0, 0], [0.5, 0], ["x" * 100_000, 0.5]], "K10")
    assert len(str(ei.value)) < 200 and "characters)" in str(ei.value)
