"""Weapons of the Great War (ASLGW 1.6): machine guns, BAR and MP18,
flamethrowers, the Granatenwerfer and the VB tromblon.

The table is ``gwasl/resources/weapons.json``, validated once at load.  Each
:class:`Weapon` knows its factors, who fielded it and when; the functions
here answer the questions the rules and ``gwasl validate`` ask:

* :func:`availability_problems` -- is a weapon anachronistic for a side at a
  date (ASLGW 1.6.1 notes, 1.6.4, 1.6.5, 1.6.63)?
* :func:`may_operate` -- MMG/HMG are operated only by crews (ASLGW 1.6.2).
* :func:`may_lose` -- the MP18 is never abandoned, destroyed or captured
  (ASLGW 1.6.32).
* :func:`sw_holder` -- which unit of a scenario holds a support weapon.

>>> w = weapon("MG08/15")
>>> (w.fp, w.range, w.rof, w.pp, w.breakdown, w.repair, w.mg_class.value)
(2, 5, 2, 1, 11, 1, 'LMG')
>>> weapon("st etienne").name
'St. Etienne'
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import Nationality, Scenario, Unit, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.units import as_date

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "WeaponKind",
    "MgClass",
    "Weapon",
    "WeaponIssue",
    "UnknownWeaponError",
    "SupportWeaponLossError",
    "weapon",
    "find_weapon",
    "all_weapons",
    "classify_mg",
    "availability_problems",
    "is_available",
    "may_operate",
    "may_lose",
    "require_may_lose",
    "max_range",
    "sw_holder",
    "LOSS_ACTIONS",
    "available_weapons",
    "keeps_inherent_fp",
]


class WeaponKind(StrEnum):
    MG = "mg"
    FLAMETHROWER = "flamethrower"
    MORTAR = "mortar"
    RIFLE_GRENADE = "rifle_grenade"


class MgClass(StrEnum):
    LMG = "LMG"
    MMG = "MMG"
    HMG = "HMG"


class UnknownWeaponError(GwaslError, KeyError):
    """A weapon name that is in none of the ASLGW 1.6 tables."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want the sentence
        return str(self.args[0])


class SupportWeaponLossError(GwaslError):
    """An attempt to abandon, destroy, capture or hand over a weapon that cannot
    be lost (the MP18, ASLGW 1.6.32)."""


# What 'or other' in ASLGW 1.6.32 covers: every way of parting with the weapon.
LOSS_ACTIONS: tuple[str, ...] = ("abandon", "destroy", "capture", "transfer", "drop", "malfunction")


@dataclass(frozen=True, slots=True)
class Weapon:
    """One row of the ASLGW 1.6 weapon tables.

    ``range`` is the normal range (for a mortar the maximum, ``min_range`` the
    minimum); ``long_range`` a flamethrower's long range (``None``: none,
    ASLGW 1.6.41 note 1).  ``available_from``/``available_until`` are inclusive
    (``None``: no limit in the text).  ``breakdown``/``repair`` are B#/R#,
    ``x`` a flamethrower's X#.
    """

    name: str
    kind: WeaponKind
    fp: int | None
    range: int
    pp: int
    nationalities: tuple[Nationality, ...]
    available_from: _dt.date | None
    available_until: _dt.date | None
    rule: str
    note: str
    mg_class: MgClass | None = None
    rof: int | None = None
    breakdown: int | None = None
    repair: int | None = None
    min_range: int | None = None
    long_range: int | None = None
    x: int | None = None
    calibre: int | None = None
    can_be_lost: bool = True
    aliases: tuple[str, ...] = ()

    @property
    def crew_only(self) -> bool:
        """ASLGW 1.6.2: MMG and HMG are operated only by a crew."""
        return self.mg_class in (MgClass.MMG, MgClass.HMG)

    @property
    def adjacent_only(self) -> bool:
        """ASLGW 1.6.41 note 1: a flamethrower without long range fires only into adjacent locations."""
        return self.kind is WeaponKind.FLAMETHROWER and self.long_range is None

    def available_on(self, when: Any) -> bool:
        d = as_date(when)
        return (self.available_from is None or d >= self.available_from) and (
            self.available_until is None or d <= self.available_until
        )


@dataclass(frozen=True, slots=True)
class WeaponIssue:
    """Why a weapon may not be in a side's OB at a date: ``code`` is one of
    ``not_yet``, ``withdrawn``, ``nationality``; ``rule`` the ASLGW rule."""

    code: str
    message: str
    rule: str


@dataclass(frozen=True, slots=True)
class _MgThresholds:
    lmg_max_fp: int
    mmg_max_fp: int


@dataclass(frozen=True, slots=True)
class _Table:
    weapons: Mapping[str, Weapon]  # by canonical name, in table order
    index: Mapping[str, Weapon]  # by normalised name or alias
    thresholds: _MgThresholds
    sw_with_inherent: Mapping[UnitKind, int]  # SW a unit may fire in one attack and keep its inherent FP (A7.351-A7.352)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _norm(name: str) -> str:
    """Name key: case, spaces, dots, hyphens and underscores do not matter ('St Etienne' = 'St. Etienne')."""
    return re.sub(r"[\s.\-_]", "", name.casefold())


def _fail(where: str, msg: str) -> TableError:
    return TableError(f"weapons.json {where}: {msg}")


def _int(d: dict[str, Any], key: str, where: str, allow_none: bool = False, lo: int = 0, hi: int = 99) -> int | None:
    if key not in d:
        if allow_none:
            return None
        raise _fail(where, f"missing {key!r}")
    v = d[key]
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise _fail(f"{where}.{key}", f"expected a whole number {lo}-{hi}{' or null' if allow_none else ''}, got {v!r}")
    return v


def _date(d: dict[str, Any], key: str, where: str) -> _dt.date | None:
    v = d.get(key)
    if v is None:
        return None
    if isinstance(v, str):
        try:
            return _dt.date.fromisoformat(v)
        except ValueError:
            pass
    raise _fail(f"{where}.{key}", f"expected a date 'YYYY-MM-DD' or null, got {v!r}")


def classify_mg(fp: int, lmg_max_fp: int = 3, mmg_max_fp: int = 5) -> MgClass:
    """LMG, MMG or HMG from firepower, by classic ASL sizes (ASLGW 1.6.2 needs
    the class; Table 1 gives only FP): up to 3 FP LMG, 4-5 MMG, 6+ HMG.

    >>> classify_mg(2), classify_mg(4), classify_mg(6)
    (<MgClass.LMG: 'LMG'>, <MgClass.MMG: 'MMG'>, <MgClass.HMG: 'HMG'>)
    """
    if fp <= lmg_max_fp:
        return MgClass.LMG
    if fp <= mmg_max_fp:
        return MgClass.MMG
    return MgClass.HMG


def parse_weapons(doc: Any) -> _Table:
    """Validate a decoded weapons table (ASLGW 1.6); :class:`TableError` names the entry and field."""
    if not isinstance(doc, dict) or not isinstance(doc.get("weapons"), dict):
        raise _fail("$", "no 'weapons' object")
    cl = doc.get("mg_classes")
    if not isinstance(cl, dict):
        raise _fail("$", "no 'mg_classes' object")
    th = _MgThresholds(_int(cl, "lmg_max_fp", "mg_classes"), _int(cl, "mmg_max_fp", "mg_classes"))  # type: ignore[arg-type]
    allied = doc.get("allied")
    if not isinstance(allied, list):
        raise _fail("$", "no 'allied' list")
    weapons: dict[str, Weapon] = {}
    index: dict[str, Weapon] = {}
    for name, d in doc["weapons"].items():
        where = f"weapons.{name}"
        if not isinstance(d, dict):
            raise _fail(where, "expected an object")
        try:
            kind = WeaponKind(d.get("kind", ""))
        except ValueError:
            raise _fail(f"{where}.kind", f"must be one of {', '.join(k.value for k in WeaponKind)}, got {d.get('kind')!r}") from None
        nats_raw = allied if d.get("nationalities") == "allied" else d.get("nationalities")
        if not isinstance(nats_raw, list) or not nats_raw:
            raise _fail(f"{where}.nationalities", f"expected a non-empty list of nationalities or 'allied', got {d.get('nationalities')!r}")
        try:
            nats = tuple(Nationality(n) for n in nats_raw)
        except ValueError as e:
            raise _fail(f"{where}.nationalities", str(e)) from None
        start, until = _date(d, "available_from", where), _date(d, "available_until", where)
        if start and until and until < start:
            raise _fail(where, "available_until is before available_from")
        mg_class = None
        fp = _int(d, "fp", where, allow_none=kind in (WeaponKind.MORTAR, WeaponKind.RIFLE_GRENADE), lo=1, hi=36)
        if kind is WeaponKind.MG:
            try:
                mg_class = MgClass(d.get("mg_class", ""))
            except ValueError:
                raise _fail(f"{where}.mg_class", f"must be LMG, MMG or HMG, got {d.get('mg_class')!r}") from None
            if mg_class is not classify_mg(fp, th.lmg_max_fp, th.mmg_max_fp):  # type: ignore[arg-type]
                raise _fail(f"{where}.mg_class", f"{mg_class.value} does not fit FP {fp} (mg_classes thresholds)")
        for k in ("rule", "note"):
            if not isinstance(d.get(k), str):
                raise _fail(f"{where}.{k}", "expected text")
        aliases = d.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise _fail(f"{where}.aliases", "expected a list of names")
        can_be_lost = d.get("can_be_lost", True)
        if not isinstance(can_be_lost, bool):
            raise _fail(f"{where}.can_be_lost", "expected true or false")
        w = Weapon(
            name=name, kind=kind, fp=fp, range=_int(d, "range", where, lo=1, hi=30),  # type: ignore[arg-type]
            pp=_int(d, "pp", where, lo=0, hi=10),  # type: ignore[arg-type]
            nationalities=nats, available_from=start, available_until=until, rule=d["rule"], note=d["note"],
            mg_class=mg_class, rof=_int(d, "rof", where, allow_none=True, lo=1, hi=4),
            breakdown=_int(d, "breakdown", where, allow_none=True, lo=2, hi=12),
            repair=_int(d, "repair", where, allow_none=True, lo=1, hi=6),
            min_range=_int(d, "min_range", where, allow_none=True, lo=0, hi=30),
            long_range=_int(d, "long_range", where, allow_none=True, lo=1, hi=30),
            x=_int(d, "x", where, allow_none=True, lo=2, hi=12),
            calibre=_int(d, "calibre", where, allow_none=True, lo=1, hi=500),
            can_be_lost=can_be_lost, aliases=tuple(aliases),
        )
        if kind is WeaponKind.FLAMETHROWER and w.x is None:
            raise _fail(f"{where}.x", "a flamethrower needs its X# (ASLGW 1.6.41 Table 2)")
        for key in (name, *aliases):
            k = _norm(key)
            if k in index and index[k].name != name:
                raise _fail(where, f"name {key!r} is also used by {index[k].name}")
            index[k] = w
        weapons[name] = w
    kept = doc.get("inherent_fp_with_sw")
    if not isinstance(kept, dict):
        raise _fail("$", "no 'inherent_fp_with_sw' object (A7.351-A7.352)")
    sw_with: dict[UnitKind, int] = {}
    for kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW, UnitKind.LEADER, UnitKind.HERO):
        sw_with[kind] = _int(kept, kind.value, "inherent_fp_with_sw", lo=0, hi=2)  # type: ignore[assignment]
    return _Table(MappingProxyType(weapons), MappingProxyType(index), th, MappingProxyType(sw_with))


@lru_cache(maxsize=1)
def _table() -> _Table:
    return parse_weapons(load_resource("weapons.json"))


def all_weapons() -> tuple[Weapon, ...]:
    """Every weapon of the ASLGW 1.6 tables, in table order (for the editor's lists)."""
    return tuple(_table().weapons.values())


def find_weapon(name: str) -> Weapon | None:
    """The weapon of the ASLGW 1.6 tables called ``name`` (or one of its aliases), or ``None``."""
    return _table().index.get(_norm(name)) if isinstance(name, str) else None


def weapon(name: str) -> Weapon:
    """The weapon of the ASLGW 1.6 tables called ``name``; :class:`UnknownWeaponError` lists the known names."""
    w = find_weapon(name)
    if w is None:
        known = ", ".join(_table().weapons)
        raise UnknownWeaponError(f"{name!r} is not a weapon of the ASLGW 1.6 tables ({known})")
    return w


def availability_problems(w: Weapon | str, when: Any, nationality: Nationality | str, captured: bool = False) -> tuple[WeaponIssue, ...]:
    """Why ``w`` is anachronistic or foreign for ``nationality`` at ``when``
    (empty when it is fine).  Dates: ASLGW 1.6.1 notes 1, 3, 4, 6, 8; 1.6.31;
    1.6.4; 1.6.5; 1.6.63.  ``captured`` weapons (A21) skip the nationality test.

    >>> [i.code for i in availability_problems("St. Etienne", "1917-04-16", "french")]
    ['withdrawn']
    >>> [i.rule for i in availability_problems("British FT", "1916-08-01", "british")]
    ['ASLGW 1.6.4, 1.6.41']
    """
    w = weapon(w) if isinstance(w, str) else w
    d = as_date(when)
    nat = Nationality(nationality)
    out = []
    if w.available_from is not None and d < w.available_from:
        span = f" until {w.available_until.isoformat()}" if w.available_until else ""
        out.append(WeaponIssue("not_yet", f"{w.name} is available only from {w.available_from.isoformat()}{span}, not on {d.isoformat()}", w.rule))
    if w.available_until is not None and d > w.available_until:
        out.append(WeaponIssue("withdrawn", f"{w.name} is no longer available after {w.available_until.isoformat()} (scenario date {d.isoformat()})", w.rule))
    if not captured and nat not in w.nationalities:
        who = ", ".join(n.value for n in w.nationalities)
        out.append(WeaponIssue("nationality", f"{w.name} is a {who} weapon, not {nat.value} (mark it 'captured' if it was taken from the enemy)", w.rule))
    return tuple(out)


def is_available(w: Weapon | str, when: Any, nationality: Nationality | str) -> bool:
    """True when the weapon may be in ``nationality``'s OB at ``when`` (ASLGW 1.6).

    >>> is_available("Hotchkiss HMG", "1915-12-31", "french"), is_available("Hotchkiss HMG", "1916-01-01", "french")
    (False, True)
    """
    return not availability_problems(w, when, nationality)


def may_operate(w: Weapon | str, unit_kind: UnitKind | str) -> bool:
    """Whether a unit of ``unit_kind`` may operate the weapon: MMG and HMG only
    by a crew (ASLGW 1.6.2); everything else by any infantry.

    >>> may_operate("MG08", "squad"), may_operate("MG08", "crew"), may_operate("MG08/15", "squad")
    (False, True, True)
    """
    w = weapon(w) if isinstance(w, str) else w
    k = UnitKind(unit_kind)
    if k is UnitKind.SUPPORT_WEAPON:
        return False
    return k is UnitKind.CREW if w.crew_only else True


def keeps_inherent_fp(unit_kind: UnitKind | str, sw_fired: int) -> bool:
    """Whether a unit firing ``sw_fired`` support weapons in one attack keeps its inherent
    FP in it (A7.351-A7.352): a squad may fire one SW and its inherent FP, two cost it
    its inherent FP; a crew, half-squad or SMC that fires any SW has no inherent FP in
    that attack (an MG08 crew fires the MG's 6 FP, not 6 + 2).  The numbers are
    weapons.json ``inherent_fp_with_sw``.

    >>> keeps_inherent_fp("squad", 1), keeps_inherent_fp("squad", 2), keeps_inherent_fp("crew", 1)
    (True, False, False)
    >>> keeps_inherent_fp("crew", 0)
    True
    """
    k = UnitKind(unit_kind)
    if sw_fired <= 0:
        return True
    return sw_fired <= _table().sw_with_inherent.get(k, 0)


class LossActionError(GwaslError):
    """A way of losing a SW that is not one of LOSS_ACTIONS (ASLGW 1.6.32)."""


def may_lose(w: Weapon | str, action: str) -> bool:
    """Whether the weapon may be parted with by ``action`` (one of
    :data:`LOSS_ACTIONS`).  The MP18 may not, whatever the action
    (ASLGW 1.6.32: it is not really a SW).

    >>> may_lose("MP18", "capture"), may_lose("BAR", "capture")
    (False, True)

    Raises :class:`LossActionError` (a way of losing a SW that is not one of LOSS_ACTIONS (ASLGW 1.6.32)).
    """
    if action not in LOSS_ACTIONS:
        raise LossActionError(f"{action!r} is not one of {', '.join(LOSS_ACTIONS)}")
    w = weapon(w) if isinstance(w, str) else w
    return w.can_be_lost


def require_may_lose(w: Weapon | str, action: str) -> None:
    """Raise :class:`SupportWeaponLossError` when :func:`may_lose` is false (ASLGW 1.6.32)."""
    w = weapon(w) if isinstance(w, str) else w
    if not may_lose(w, action):
        raise SupportWeaponLossError(f"the {w.name} cannot be {_past(action)}: it is part of the squad, not really a SW (ASLGW 1.6.32)")


def _past(action: str) -> str:
    return {"abandon": "abandoned", "destroy": "destroyed", "capture": "captured", "transfer": "transferred",
            "drop": "dropped", "malfunction": "malfunctioned"}[action]


def max_range(w: Weapon | str) -> int:
    """Longest range the weapon fires at: a flamethrower's long range, or 1 for
    the Kleinflammenwerfer which has none (ASLGW 1.6.41 note 1); else its range.

    >>> max_range("Kleinflammenwerfer"), max_range("Wex"), max_range("Vickers")
    (1, 2, 14)
    """
    w = weapon(w) if isinstance(w, str) else w
    return w.long_range if w.long_range is not None else w.range


_OPERATOR_ORDER = (UnitKind.CREW, UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.LEADER, UnitKind.HERO)


def sw_holder(scenario: Scenario, sw: Unit) -> Unit | None:
    """The unit that holds support weapon ``sw`` at set-up (needed by ASLGW 1.6.2).

    A ``held_by`` field (docs/format/rules.md) names it.  Without one, the SW
    belongs to a unit of its side in the same hex and position, preferring a
    crew, then a squad, half-squad, leader, hero (the order in which ASL
    players give SW to the unit able to fire them); ``None`` when it lies
    alone (unpossessed).
    """
    named = sw.extra.get("held_by")
    if isinstance(named, str):
        for u in scenario.units:
            if u.id == named:
                return u
        return None
    same = [u for u in scenario.units if u.side == sw.side and u.hex == sw.hex and u.position is sw.position and u.is_infantry]
    for kind in _OPERATOR_ORDER:
        for u in same:
            if u.kind is kind:
                return u
    return None



def available_weapons(when: Any, nationality: Nationality | str) -> tuple[Weapon, ...]:
    """Every weapon ``nationality`` may field at ``when`` (ASLGW 1.6), in table
    order, for the editor's palette.

    >>> [w.name for w in available_weapons("1916-07-01", "british")]
    ['Lewis', 'Vickers', 'British FT', 'Tromblon VB']
    """
    return tuple(w for w in all_weapons() if not availability_problems(w, when, nationality))
