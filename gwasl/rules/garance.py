"""The French garance trousers (ASLGW 1.7), concealment part (1.7.2, 1.7.3).

French infantry wore red trousers from 1914 until May 1915 (gwasl/resources/combat.json,
``garance``; we take 31 May 1915 as the last day, docs/rules-notes.md).  A unit
wearing them cannot remain concealed in an enemy LOS in Open Ground at any
range (1.7.2).  None of 1.7 applies in winter, in mud, mist or fog, or at
night (1.7.3).  The hindrance part (1.7.1) belongs to the LOS rules, which
call :func:`wears_garance`.

>>> import datetime
>>> from gwasl.model.scenario import *
>>> from gwasl.model.hexgrid import Hex
>>> s = Scenario("Marne", datetime.date(1914, 9, 6), MapData(5, 5), {"fr": Side("fr", Nationality.FRENCH)})
>>> wears_garance(s, Unit("f", "fr", UnitKind.SQUAD, Hex(0, 0)))
True
"""

from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HiddenStatus, Nationality, Position, Scenario, Unit, Weather
from gwasl.model.terrain import TableError, load_resource, terrain_table

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["GaranceRule", "GaranceConcealment", "garance_rule", "garance_exception", "wears_garance",
           "garance_concealment_loss", "in_open_ground", "parse_garance"]


@dataclass(frozen=True, slots=True)
class GaranceRule:
    nationality: Nationality
    worn_until: _dt.date
    weather: frozenset[Weather]
    winter: bool
    night: bool
    rule: str


def parse_garance(doc: Any) -> GaranceRule:
    """Validate the ``garance`` section of a decoded combat.json (ASLGW 1.7)."""
    g = doc.get("garance") if isinstance(doc, dict) else None
    if not isinstance(g, dict):
        raise TableError("combat.json: no 'garance' object")
    try:
        nat = Nationality(str(g.get("nationality")))
    except ValueError:
        raise TableError(f"combat.json garance.nationality: {g.get('nationality')!r} is not a nationality") from None
    try:
        until = _dt.date.fromisoformat(g["worn_until"])
    except (KeyError, TypeError, ValueError):
        raise TableError(f"combat.json garance.worn_until: {g.get('worn_until')!r} is not an ISO date") from None
    try:
        weather = frozenset(Weather(w) for w in g["cancelled_by_weather"])
    except (KeyError, TypeError, ValueError):
        raise TableError(f"combat.json garance.cancelled_by_weather: {g.get('cancelled_by_weather')!r} is not a list of weathers") from None
    flags = []
    for key in ("cancelled_by_winter", "cancelled_by_night"):
        if not isinstance(g.get(key), bool):
            raise TableError(f"combat.json garance.{key}: expected true/false, got {g.get(key)!r}")
        flags.append(g[key])
    if not isinstance(g.get("rule"), str):
        raise TableError("combat.json garance.rule: missing")
    return GaranceRule(nat, until, weather, flags[0], flags[1], g["rule"])


@lru_cache(maxsize=1)
def garance_rule() -> GaranceRule:
    """The garance data (ASLGW 1.7) of gwasl/resources/combat.json, loaded and validated once."""
    return parse_garance(load_resource("combat.json"))


def garance_exception(s: Scenario) -> str | None:
    """Why ASLGW 1.7 does not apply to this scenario (1.7.3), or None if it may.

    >>> import datetime
    >>> from gwasl.model.scenario import MapData
    >>> garance_exception(Scenario("t", datetime.date(1914, 12, 1), MapData(1, 1), {}, weather=Weather.MIST))
    'weather is mist (ASLGW 1.7.3)'
    """
    g = garance_rule()
    if g.winter and s.winter:
        return "winter scenario: the winter coat hides the trousers (ASLGW 1.7.3)"
    if s.weather in g.weather:
        return f"weather is {s.weather.value} (ASLGW 1.7.3)"
    if g.night and s.night:
        return "night scenario (ASLGW 1.7.3)"
    return None


def wears_garance(s: Scenario, unit: Unit) -> bool:
    """True when the garance rules of ASLGW 1.7 apply to ``unit``: French
    infantry (not a support weapon), a scenario dated up to 31 May 1915 (1.7,
    1.7.1), and no 1.7.3 exception (winter, mud, mist, fog, night).

    The LOS rules use it for the 1.7.1 hindrance; :func:`garance_concealment_loss`
    for 1.7.2.
    """
    g = garance_rule()
    side = s.sides.get(unit.side)
    if side is None or side.nationality is not g.nationality or not unit.is_infantry:
        return False
    if s.date > g.worn_until:
        return False
    return garance_exception(s) is None


def in_open_ground(s: Scenario, h: Hex, position: Position) -> bool:
    """Is a unit in ``position`` at ``h`` in Open Ground (A12.121, ASLGW 1.7.2, O'Leary 2.4)?

    The terrain table's ``open_ground`` flag (open and road: docs/rules-notes.md
    "Garance concealment at set-up"), and not inside a fortification (a trench,
    pillbox... is cover).  The one test of Open Ground: concealment, rout, fire, the
    fog layer and the set-up checks all call it.
    """
    return position is Position.GROUND and terrain_table()[s.map.terrain_at(h)].open_ground


@dataclass(frozen=True, slots=True)
class GaranceConcealment:
    loses_concealment: bool
    reason: str
    rule: str = "ASLGW 1.7.2"


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def garance_concealment_loss(s: Scenario, unit: Unit, in_enemy_los: bool, in_open_ground: bool,
                             concealed: bool | None = None) -> GaranceConcealment:
    """Whether ``unit`` loses its concealment because of its garance trousers (ASLGW 1.7.2).

    A unit wearing garance (:func:`wears_garance`) cannot remain concealed in
    an enemy LOS in Open Ground, even more than 16 hexes from any enemy (the
    classic range limit does not protect it).  ``in_enemy_los`` and
    ``in_open_ground`` come from the LOS rules.  Any hidden status (concealed,
    potential dummy, HIP) counts as concealment here (rules-notes).  ``concealed``
    says whether the unit is hidden now, when that is not its set-up ``hidden``
    status (the fog layer's: a unit about to be shifted is hidden, O'Leary 2.4).

    >>> import datetime
    >>> from gwasl.model.scenario import *
    >>> from gwasl.model.hexgrid import Hex
    >>> s = Scenario("t", datetime.date(1914, 8, 22), MapData(5, 5), {"fr": Side("fr", Nationality.FRENCH)})
    >>> u = Unit("f", "fr", UnitKind.SQUAD, Hex(0, 0), hidden=HiddenStatus.CONCEALED)
    >>> garance_concealment_loss(s, u, in_enemy_los=True, in_open_ground=True).loses_concealment
    True
    """
    if not (unit.hidden is not HiddenStatus.NONE if concealed is None else concealed):
        return GaranceConcealment(False, f"{unit.id} is not concealed")
    if not wears_garance(s, unit):
        why = garance_exception(s)
        return GaranceConcealment(False, why or f"{unit.id} does not wear garance trousers on {s.date.isoformat()}",
                                  "ASLGW 1.7.3" if why else "ASLGW 1.7")
    if not in_enemy_los:
        return GaranceConcealment(False, f"{unit.id} is in no enemy LOS")
    if not in_open_ground:
        return GaranceConcealment(False, f"{unit.id} is not in Open Ground")
    return GaranceConcealment(True, f"{unit.id} wears garance trousers in an enemy LOS in Open Ground, at any range")
