"""Hand grenades (ASLGW 1.6.61): which side has them in a scenario.

Hand grenades are general issue from 1 January 1916 on the western front
only; before that date, and on the other fronts, units suffer the No HG
effect (ASLGW 1.6.62, see :mod:`gwasl.rules.fire`).  A side's
``hand_grenades`` field in the scenario (the SSR/OB override the text allows:
"exceptions can exist by SSR") decides instead when it is present.

The date and the fronts are data (``gwasl/resources/weapons.json``, ``hand_grenades``).

>>> import datetime as dt
>>> hand_grenades_by_default(dt.date(1916, 1, 1), "western"), hand_grenades_by_default(dt.date(1915, 12, 31), "western")
(True, False)
>>> hand_grenades_by_default(dt.date(1917, 6, 1), "eastern")
False
"""

from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.scenario import Front, Scenario
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.units import as_date

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["GrenadeStatus", "hand_grenades_by_default", "hand_grenade_status", "has_hand_grenades", "parse_hand_grenades"]


@dataclass(frozen=True, slots=True)
class _HgRule:
    start: _dt.date
    fronts: frozenset[Front]
    rule: str


@dataclass(frozen=True, slots=True)
class GrenadeStatus:
    """Whether a side has hand grenades, and why (for the editor and logs)."""

    side: str
    has_hand_grenades: bool
    reason: str
    rule: str = "ASLGW 1.6.61"


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def parse_hand_grenades(doc: Any) -> _HgRule:
    """Validate the ``hand_grenades`` entry (ASLGW 1.6.61) of weapons.json (:class:`TableError` names the field)."""
    hg = doc.get("hand_grenades") if isinstance(doc, dict) else None
    if not isinstance(hg, dict):
        raise TableError("weapons.json: no 'hand_grenades' object")
    try:
        start = _dt.date.fromisoformat(hg.get("from", ""))
    except (TypeError, ValueError):
        raise TableError(f"weapons.json hand_grenades.from: expected a date 'YYYY-MM-DD', got {hg.get('from')!r}") from None
    fronts = hg.get("fronts")
    try:
        fr = frozenset(Front(f) for f in fronts)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise TableError(f"weapons.json hand_grenades.fronts: expected a list of fronts ({', '.join(f.value for f in Front)}), got {fronts!r}") from None
    rule = hg.get("rule")
    if not isinstance(rule, str):
        raise TableError("weapons.json hand_grenades.rule: expected text")
    return _HgRule(start, fr, rule)


@lru_cache(maxsize=1)
def _rule() -> _HgRule:
    return parse_hand_grenades(load_resource("weapons.json"))


def hand_grenades_by_default(when: Any, front: Front | str) -> bool:
    """ASLGW 1.6.61: from 1916 on, all units on the western front have HG;
    before 1916, or on another front, they do not."""
    r = _rule()
    return as_date(when) >= r.start and Front(front) in r.fronts


def hand_grenade_status(scenario: Scenario, side: str) -> GrenadeStatus:
    """:func:`has_hand_grenades` with the reason (ASLGW 1.6.61)."""
    s = scenario.sides[side]
    r = _rule()
    if s.hand_grenades is not None:
        return GrenadeStatus(side, s.hand_grenades, f"the scenario says side {side!r} {'has' if s.hand_grenades else 'has no'} hand grenades (SSR)", r.rule)
    has = hand_grenades_by_default(scenario.date, scenario.front)
    if scenario.front not in r.fronts:
        why = f"the {scenario.front.value} front has no general issue of hand grenades"
    elif has:
        why = f"{scenario.date.isoformat()} is on or after {r.start.isoformat()} on the {scenario.front.value} front"
    else:
        why = f"{scenario.date.isoformat()} is before {r.start.isoformat()}"
    return GrenadeStatus(side, has, why, r.rule)


def has_hand_grenades(scenario: Scenario, side: str) -> bool:
    """Whether ``side``'s units have hand grenades in ``scenario`` (ASLGW 1.6.61):
    the side's ``hand_grenades`` field if given, else date and front.

    Raises ``KeyError`` for a side the scenario does not have.
    """
    return hand_grenade_status(scenario, side).has_hand_grenades
