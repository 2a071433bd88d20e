"""Trench armour (ASLGW 1.8): +1 CC DRM for units attacking armoured
infantry; squads wearing it lose 1 MF and 1 PP.  Numbers in
gwasl/resources/combat.json (``trench_armour``).

>>> from gwasl.model.hexgrid import Hex
>>> from gwasl.model.scenario import UnitKind
>>> u = Unit("s", "de", UnitKind.SQUAD, Hex(0, 0), trench_armour=True)
>>> armoured_mf(4, u), armoured_pp(3, u), armour_cc_modifier([u]).value
(3, 2, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gwasl.model.scenario import Unit, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.dice import Modifier

__all__ = ["ArmourRule", "armour_rule", "armour_cc_modifier", "armoured_mf", "armoured_pp", "parse_armour"]


@dataclass(frozen=True, slots=True)
class ArmourRule:
    cc_drm: int
    mf_change: int
    pp_change: int
    kinds: frozenset[UnitKind]
    rule: str


def parse_armour(doc: Any) -> ArmourRule:
    """Validate the ``trench_armour`` section of a decoded combat.json (ASLGW 1.8)."""
    a = doc.get("trench_armour") if isinstance(doc, dict) else None
    if not isinstance(a, dict):
        raise TableError("combat.json: no 'trench_armour' object")
    nums = []
    for key in ("cc_drm_against_wearer", "mf_change", "pp_change"):
        v = a.get(key)
        if isinstance(v, bool) or not isinstance(v, int):
            raise TableError(f"combat.json trench_armour.{key}: expected an integer, got {v!r}")
        nums.append(v)
    raw: Any = a.get("applies_to_kinds")  # None or a non-list: TypeError below
    try:
        kinds = frozenset(UnitKind(k) for k in raw)
    except (TypeError, ValueError):
        raise TableError(f"combat.json trench_armour.applies_to_kinds: {a.get('applies_to_kinds')!r} is not a list of unit kinds") from None
    if not isinstance(a.get("rule"), str):
        raise TableError("combat.json trench_armour.rule: missing")
    return ArmourRule(nums[0], nums[1], nums[2], kinds, a["rule"])


@lru_cache(maxsize=1)
def armour_rule() -> ArmourRule:
    """The trench armour data (ASLGW 1.8) of gwasl/resources/combat.json, loaded and validated once."""
    return parse_armour(load_resource("combat.json"))


def armour_cc_modifier(defenders: Iterable[Unit]) -> Modifier | None:
    """ASLGW 1.8: a CC attack on armoured infantry suffers +1 DRM.

    It applies when any infantry unit attacked wears trench armour
    (rules-notes); None otherwise.
    """
    r = armour_rule()
    if any(u.trench_armour and u.is_infantry for u in defenders):
        return Modifier(f"defender wears trench armour ({r.rule})", r.cc_drm)
    return None


def _wearer(unit: Unit) -> bool:
    return unit.trench_armour and unit.kind in armour_rule().kinds


def armoured_mf(base_mf: int, unit: Unit) -> int:
    """ASLGW 1.8: a squad (or half-squad, rules-notes) in trench armour has 1 MF less."""
    return base_mf + armour_rule().mf_change if _wearer(unit) else base_mf


def armoured_pp(base_pp: int, unit: Unit) -> int:
    """ASLGW 1.8: a squad (or half-squad) in trench armour has 1 PP less (never below 0)."""
    return max(0, base_pp + armour_rule().pp_change) if _wearer(unit) else base_pp
