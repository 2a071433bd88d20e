"""Point Blank Fire multipliers with and without hand grenades (A7.21, A7.212,
ASLGW 1.6.62).

Infantry firing at a target within one hex has its FP doubled (PBF); at a
target in its own Location, tripled (TPBF).  Units without hand grenades
(ASLGW 1.6.61) get x1.5 for PBF, and their TPBF becomes a DPBF, x2
(ASLGW 1.6.62).  The multipliers are data (``gwasl/resources/weapons.json``,
``point_blank``).

>>> point_blank_multiplier(1, same_location=False, has_hand_grenades=True)
PointBlank(name='PBF', multiplier=Fraction(2, 1), rule='A7.21')
>>> point_blank_multiplier(0, same_location=True, has_hand_grenades=False)
PointBlank(name='DPBF', multiplier=Fraction(2, 1), rule='ASLGW 1.6.62')
>>> point_blank_multiplier(3, same_location=False, has_hand_grenades=False).multiplier
Fraction(1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gwasl.model.scenario import Scenario
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.grenades import has_hand_grenades

__all__ = ["PointBlank", "point_blank_multiplier", "point_blank_for", "parse_point_blank"]


@dataclass(frozen=True, slots=True)
class PointBlank:
    """The point-blank case of one attack: ``name`` is 'PBF', 'TPBF', 'DPBF' or
    ``None`` (beyond one hex), ``multiplier`` the exact FP factor."""

    name: str | None
    multiplier: Fraction
    rule: str | None


@dataclass(frozen=True, slots=True)
class _PbTable:
    pbf: Fraction
    tpbf: Fraction
    pbf_no_hg: Fraction
    dpbf: Fraction


def _mult(d: Any, key: str, where: str) -> Fraction:
    v = d.get(key) if isinstance(d, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 1 <= v <= 4:
        raise TableError(f"weapons.json point_blank.{where}.{key}: expected a multiplier 1-4, got {v!r}")
    return Fraction(str(v))


def parse_point_blank(doc: Any) -> _PbTable:
    """Validate the ``point_blank`` entry of weapons.json."""
    pb = doc.get("point_blank") if isinstance(doc, dict) else None
    if not isinstance(pb, dict):
        raise TableError("weapons.json: no 'point_blank' object")
    w, wo = pb.get("with_hand_grenades"), pb.get("without_hand_grenades")
    return _PbTable(_mult(w, "PBF", "with_hand_grenades"), _mult(w, "TPBF", "with_hand_grenades"),
                    _mult(wo, "PBF", "without_hand_grenades"), _mult(wo, "DPBF", "without_hand_grenades"))


@lru_cache(maxsize=1)
def _table() -> _PbTable:
    return parse_point_blank(load_resource("weapons.json"))


def point_blank_multiplier(range_hexes: int, *, same_location: bool, has_hand_grenades: bool) -> PointBlank:
    """FP multiplier for infantry fire at ``range_hexes`` (0: same hex).

    * ``same_location`` (range 0 and the same Location): TPBF x3 (A7.212), or
      DPBF x2 without hand grenades (ASLGW 1.6.62).
    * Otherwise within one hex: PBF x2 (A7.21), or x1.5 without hand grenades
      (ASLGW 1.6.62).
    * Beyond: x1.

    Rules that change which case applies pass ``same_location`` accordingly
    (firing into a dugout from its hex counts as same Location, ASLGW 2.2.3;
    firing out of one does not, ASLGW 2.2.4).
    """
    if range_hexes < 0:
        raise ValueError(f"range {range_hexes} is negative")
    if same_location and range_hexes != 0:
        raise ValueError("the same Location is at range 0")
    t = _table()
    if same_location:
        return PointBlank("TPBF", t.tpbf, "A7.212") if has_hand_grenades else PointBlank("DPBF", t.dpbf, "ASLGW 1.6.62")
    if range_hexes <= 1:
        return PointBlank("PBF", t.pbf, "A7.21") if has_hand_grenades else PointBlank("PBF", t.pbf_no_hg, "ASLGW 1.6.62")
    return PointBlank(None, Fraction(1), None)


def point_blank_for(scenario: Scenario, side: str, range_hexes: int, *, same_location: bool) -> PointBlank:
    """:func:`point_blank_multiplier` for a firer of ``side``, whose hand
    grenades come from the scenario (ASLGW 1.6.61-1.6.62)."""
    return point_blank_multiplier(range_hexes, same_location=same_location, has_hand_grenades=has_hand_grenades(scenario, side))
