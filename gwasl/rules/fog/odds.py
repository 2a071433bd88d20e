"""Exact odds of each band of the O'Leary 2.5 shift table.

Counts all 36 outcomes of two dice; never samples.

>>> shift_band_odds(0)["allowed"]
Fraction(7, 12)
>>> sum(shift_band_odds(3).values())
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from itertools import product

from gwasl.rules.fog.table import BAND_NAMES, FogTable, fog_table

__all__ = ["shift_band_odds", "free_shift_odds"]


def shift_band_odds(drm: int, table: FogTable | None = None) -> Mapping[str, Fraction]:
    """O'Leary 2.5: the exact chance of each band for a total DRM ``drm``.

    Keys are the CONTRACTS 4 band names; the values sum to 1.

    >>> o = shift_band_odds(-1)   # the 2.5 pillbox/cave case needs <= 7 + 1
    >>> o["allowed"], o["revealed"]
    (Fraction(13, 18), Fraction(0, 1))
    """
    t = table or fog_table()
    counts = dict.fromkeys(BAND_NAMES, 0)
    for a, b in product(range(1, 7), repeat=2):
        counts[t.band_of(a + b + drm).band] += 1
    return {k: Fraction(v, 36) for k, v in counts.items()}


def free_shift_odds(drm: int, table: FogTable | None = None) -> Fraction:
    """O'Leary 2.5: the chance the final DR is <= 0, a shift that adds no +1 later."""
    t = table or fog_table()
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if not t.counts_as_shift(a + b + drm)), 36)
