"""Exact shift odds (O'Leary 2.5 table, CONTRACTS 4 bands) from all 36 outcomes."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from gwasl.rules.fog.odds import free_shift_odds, shift_band_odds

WAYS = {s: 6 - abs(s - 7) for s in range(2, 13)}  # ways to roll each DR total


def _by_hand(drm: int) -> dict[str, Fraction]:
    out = {"allowed": 0, "disallowed": 0, "status_lost": 0, "revealed": 0}
    for total, ways in WAYS.items():
        f = total + drm
        band = "allowed" if f <= 7 else "disallowed" if f <= 10 else "status_lost" if f <= 12 else "revealed"
        out[band] += ways
    return {k: Fraction(v, 36) for k, v in out.items()}


def test_2_5_odds_with_no_drm():
    """DRM 0: <=7 is 21/36, 8-10 is 12/36, 11-12 is 3/36, >=13 never."""
    assert shift_band_odds(0) == {"allowed": Fraction(21, 36), "disallowed": Fraction(12, 36),
                                  "status_lost": Fraction(3, 36), "revealed": Fraction(0)}


def test_2_5_odds_of_the_14_example_drm_plus_3():
    """The 2.5 example with two earlier shifts and enemy LOS: DRM +3; 13+ needs 10, 11 or 12: 6/36."""
    assert shift_band_odds(3)["revealed"] == Fraction(6, 36)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-15, max_value=15))
def test_odds_equal_a_hand_count_and_sum_to_one(drm):
    """O'Leary 2.5: the band odds equal a hand count of the 36 outcomes for any DRM."""
    o = shift_band_odds(drm)
    assert o == _by_hand(drm)
    assert sum(o.values()) == 1


def test_free_shift_odds():
    """O'Leary 2.5: final DR <= 0 needs DRM <= -2; with -4 (the pillbox/cave case) totals 2-4: 6/36."""
    assert free_shift_odds(-1) == 0
    assert free_shift_odds(-4) == Fraction(6, 36)
