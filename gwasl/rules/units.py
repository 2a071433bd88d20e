"""Infantry units of the Great War: squad and half-squad factors by nationality,
class and date, and each nationality's special rules (ASLGW 1.11).

The numbers live in ``gwasl/resources/nationalities.json``; this module loads and
validates them once and answers three questions:

* :func:`unit_factors` -- the FP-range-morale/broken-morale of a squad or
  half-squad at a date (ASLGW 1.11; French factors change on 1 May 1915,
  Stosstruppen exist from 1 July 1915).
* :func:`nationality_traits` -- the special rules as flags (ASLGW 1.11.1-1.11.3,
  1.2.12, 1.3.12-1.3.13).
* :func:`elr_replacement` -- the class a unit becomes after an ELR failure
  (ASLGW 1.11.1 for Stosstruppen, classic A19.13 otherwise).

>>> str(unit_factors("1916-02-21", "german", "first_line", "squad"))
'4-4-7'
>>> unit_factors("1915-04-30", "french", "elite", "half_squad").printed
'1-3-8/8'
>>> nationality_traits("french").hth_drm
-1
"""

from __future__ import annotations

import datetime as _dt
import itertools
import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import Nationality, Scenario, Unit, UnitClass, UnitKind
from gwasl.model.terrain import TableError, load_resource

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "UnitsError",
    "NoUnitTableError",
    "UnknownUnitClassError",
    "UnitNotAvailableError",
    "UnitFactorsFormatError",
    "UnitFactors",
    "EarlyCommandRadius",
    "NationalityTraits",
    "InfantryMovement",
    "unit_factors",
    "unit_factors_of",
    "nationality_traits",
    "nationality_classes",
    "has_unit_table",
    "class_available_from",
    "elr_replacement",
    "infantry_movement",
    "combat_groups_from",
    "as_date",
    "available_classes",
    "elr_replaced_unit",
]


class UnitsError(GwaslError):
    """Base of every failure to give a unit its ASLGW 1.11 factors."""


class NoUnitTableError(UnitsError):
    """ASLGW 1.11 has no squad table for this nationality (russian, austro_hungarian,
    italian, belgian): the scenario must state the unit's factors."""


class UnknownUnitClassError(UnitsError):
    """The nationality's ASLGW 1.11 table has no such class (e.g. British Landwehr)."""


class UnitNotAvailableError(UnitsError):
    """The class does not exist yet at that date (Stosstruppen before July 1915)."""


class UnitFactorsFormatError(UnitsError):
    """A factor string that is not 'FP-range-morale' or 'FP-range-morale/broken'."""


_FACTORS_RE = re.compile(r"^(\d{1,2})-(\d{1,2})-(\d{1,2})(?:/(\d{1,2}))?$")


@dataclass(frozen=True, slots=True)
class UnitFactors:
    """A squad's or half-squad's printed factors (ASLGW 1.11).

    ``broken_morale`` is the number after the slash (ASLGW 1.11: "the second
    morale number").  ``str()`` gives the ASL counter form; :attr:`printed`
    adds the broken morale as the ASLGW tables print it.

    >>> f = UnitFactors.parse("4-4-7/7")
    >>> str(f), f.printed, f.firepower, f.broken_morale
    ('4-4-7', '4-4-7/7', 4, 7)
    """

    firepower: int
    range: int
    morale: int
    broken_morale: int

    @classmethod
    def parse(cls, text: str) -> UnitFactors:
        m = _FACTORS_RE.match(text) if isinstance(text, str) else None
        if not m:
            raise UnitFactorsFormatError(
                f"{text!r} is not unit factors written FP-range-morale/broken-morale, e.g. '4-4-7/7'"
            )
        fp, rng, ml, bml = m.groups()
        return cls(int(fp), int(rng), int(ml), int(bml) if bml is not None else int(ml))

    @property
    def printed(self) -> str:
        return f"{self.firepower}-{self.range}-{self.morale}/{self.broken_morale}"

    def __str__(self) -> str:
        return f"{self.firepower}-{self.range}-{self.morale}"


@dataclass(frozen=True, slots=True)
class EarlyCommandRadius:
    """An earlier-than-normal command radius for some classes (ASLGW 1.3.12-1.3.13)."""

    radius: int
    from_date: _dt.date
    classes: tuple[UnitClass, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class NationalityTraits:
    """A nationality's special rules as data (ASLGW 1.11).

    * ``hth_drm``: DRM to its Hand-to-Hand CC DR (French -1, ASLGW 1.11.2).
    * ``bayonet_charge_density_exempt``: may declare a BCh without the average of
      two MMC per hex over three hexes (French, ASLGW 1.11.2 / 1.5).
    * ``a25_43_45_apply``: classic A25.43, A25.44 and A25.45 apply (British, ASLGW 1.11.3).
    * ``early_combat_groups``: may have combat groups by SSR before the end of 1917
      (German, 1915-1917: ASLGW 1.11.1, 1.2.12); ``combat_groups_from`` is the first
      date they may exist at all.
    * ``early_wide_command``: elite troops get the wider command radius earlier
      (German, ASLGW 1.11.1, 1.3.12-1.3.13); ``early_command_radius`` says which
      radius from which date for which classes.
    """

    nationality: Nationality
    hth_drm: int
    bayonet_charge_density_exempt: bool
    a25_43_45_apply: bool
    early_combat_groups: bool
    combat_groups_from: _dt.date
    early_wide_command: bool
    early_command_radius: tuple[EarlyCommandRadius, ...]
    rule: str

    def command_radius_override(self, unit_class: UnitClass | str | None, when: _dt.date | str | Scenario) -> int | None:
        """The widest early radius this nationality's ``unit_class`` may use at
        ``when`` (ASLGW 1.3.12-1.3.13), or ``None`` if no early radius applies.

        >>> t = nationality_traits("german")
        >>> t.command_radius_override("elite", "1915-03-01"), t.command_radius_override("elite", "1916-01-01")
        (2, 3)
        >>> t.command_radius_override("first_line", "1916-01-01") is None
        True
        """
        if unit_class is None:
            return None
        cls = UnitClass(unit_class)
        d = as_date(when)
        radii = [e.radius for e in self.early_command_radius if cls in e.classes and d >= e.from_date]
        return max(radii) if radii else None


@dataclass(frozen=True, slots=True)
class InfantryMovement:
    """Classic movement factors used by ASLGW 1.3 (A4.1, A4.12)."""

    mmc_mf: int
    smc_mf: int
    leader_bonus_mf: int


@dataclass(frozen=True, slots=True)
class _Period:
    start: _dt.date | None
    until: _dt.date | None
    squad: UnitFactors
    half_squad: UnitFactors

    def covers(self, d: _dt.date) -> bool:
        return (self.start is None or d >= self.start) and (self.until is None or d <= self.until)


@dataclass(frozen=True, slots=True)
class _ClassEntry:
    unit_class: UnitClass
    available_from: _dt.date | None
    elr_replacement: UnitClass | None
    elr_rule: str
    periods: tuple[_Period, ...]


@dataclass(frozen=True, slots=True)
class _NationEntry:
    nationality: Nationality
    rule: str
    classes: Mapping[UnitClass, _ClassEntry] | None
    traits: NationalityTraits


@dataclass(frozen=True, slots=True)
class CommandRadiusPeriod:
    """From ``from_date`` (None: the start of the war) leaders have ``radius`` (ASLGW 1.3.11-1.3.13)."""

    radius: int
    from_date: _dt.date | None
    rule: str


@dataclass(frozen=True, slots=True)
class _Table:
    infantry: InfantryMovement
    nations: Mapping[Nationality, _NationEntry]
    command_periods: tuple[CommandRadiusPeriod, ...]
    hero_radius: int


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


# ---------------------------------------------------------------------------
# Loading and validating gwasl/resources/nationalities.json
# ---------------------------------------------------------------------------
def as_date(when: Any) -> _dt.date:
    """A date from a :class:`Scenario`, a ``date`` or an ISO string."""
    if isinstance(when, Scenario):
        return when.date
    if isinstance(when, _dt.datetime):
        return when.date()
    if isinstance(when, _dt.date):
        return when
    if isinstance(when, str):
        try:
            return _dt.date.fromisoformat(when)
        except ValueError:
            raise UnitsError(f"{when!r} is not a date written YYYY-MM-DD") from None
    raise UnitsError(f"expected a scenario, a date or 'YYYY-MM-DD', not {type(when).__name__}")


def _fail(where: str, msg: str) -> TableError:
    return TableError(f"nationalities.json {where}: {msg}")


def _date_required(v: Any, where: str) -> _dt.date:
    d = _date(v, where, allow_none=False)
    assert d is not None  # _date raises rather than return None when None is not allowed
    return d


def _date(v: Any, where: str, allow_none: bool = True) -> _dt.date | None:
    if v is None and allow_none:
        return None
    if not isinstance(v, str):
        raise _fail(where, f"expected a date 'YYYY-MM-DD'{' or null' if allow_none else ''}, got {v!r}")
    try:
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise _fail(where, f"{v!r} is not a date 'YYYY-MM-DD'") from None


def _get(d: Any, key: str, where: str, types: tuple[type, ...], allow_none: bool = False) -> Any:
    if not isinstance(d, dict):
        raise _fail(where, "expected an object")
    if key not in d:
        raise _fail(where, f"missing {key!r}")
    v = d[key]
    if v is None and allow_none:
        return None
    if (isinstance(v, bool) and bool not in types) or not isinstance(v, types):
        raise _fail(f"{where}.{key}", f"expected {'/'.join(t.__name__ for t in types)}, got {v!r}")
    return v


def _factors(v: Any, where: str) -> UnitFactors:
    if not isinstance(v, str):
        raise _fail(where, f"expected factors such as '4-4-7/7', got {v!r}")
    try:
        f = UnitFactors.parse(v)
    except UnitFactorsFormatError as e:
        raise _fail(where, str(e)) from None
    if "/" not in v:
        raise _fail(where, f"{v!r} lacks the broken morale after '/' (ASLGW 1.11)")
    return f


def _parse_class(name: str, d: Any, where: str, classes: set[str]) -> _ClassEntry:
    try:
        cls = UnitClass(name)
    except ValueError:
        raise _fail(where, f"{name!r} is not a unit class of the scenario schema") from None
    avail = _date(d.get("available_from") if isinstance(d, dict) else None, f"{where}.available_from")
    repl = _get(d, "elr_replacement", where, (str,), allow_none=True)
    if repl is not None and repl not in classes:
        raise _fail(f"{where}.elr_replacement", f"{repl!r} is not a class of this nationality")
    elr_rule = _get(d, "elr_rule", where, (str,))
    rows = _get(d, "periods", where, (list,))
    if not rows:
        raise _fail(f"{where}.periods", "needs at least one period")
    periods = []
    for i, p in enumerate(rows):
        pw = f"{where}.periods[{i}]"
        start = _date(_get(p, "from", pw, (str,), allow_none=True), f"{pw}.from")
        until = _date(_get(p, "until", pw, (str,), allow_none=True), f"{pw}.until")
        if start and until and until < start:
            raise _fail(pw, "'until' is before 'from'")
        periods.append(_Period(start, until, _factors(p.get("squad"), f"{pw}.squad"), _factors(p.get("half_squad"), f"{pw}.half_squad")))
    # Periods must tile time: no gap, no overlap (so every date has exactly one answer).
    for a, b in itertools.pairwise(periods):
        if a.until is None or b.start is None or b.start != a.until + _dt.timedelta(days=1):
            raise _fail(f"{where}.periods", "periods must follow each other without gap or overlap")
    if periods[0].start is not None or periods[-1].until is not None:
        raise _fail(f"{where}.periods", "the first period must start with null and the last end with null")
    return _ClassEntry(cls, avail, UnitClass(repl) if repl else None, elr_rule, tuple(periods))


def _parse_traits(nat: Nationality, d: Any, where: str, default_cg: _dt.date) -> NationalityTraits:
    if d is None:
        # The text gives these nationalities no special rules.
        return NationalityTraits(nat, 0, False, False, False, default_cg, False, (), "ASLGW 1.11")
    radii = []
    for i, e in enumerate(_get(d, "early_command_radius", where, (list,))):
        ew = f"{where}.early_command_radius[{i}]"
        r = _get(e, "radius", ew, (int,))
        if not 1 <= r <= 5:
            raise _fail(f"{ew}.radius", f"{r} is not a command radius 1-5")
        try:
            classes = tuple(UnitClass(c) for c in _get(e, "classes", ew, (list,)))
        except ValueError as ex:
            raise _fail(f"{ew}.classes", str(ex)) from None
        radii.append(EarlyCommandRadius(r, _date_required(_get(e, "from", ew, (str,)), f"{ew}.from"), classes, _get(e, "rule", ew, (str,))))
    cg = _date(_get(d, "combat_groups_from", where, (str,), allow_none=True), f"{where}.combat_groups_from")
    early_wide = _get(d, "early_wide_command", where, (bool,))
    if early_wide != bool(radii):
        raise _fail(f"{where}.early_wide_command", "must be true exactly when early_command_radius lists radii")
    return NationalityTraits(
        nationality=nat,
        hth_drm=_get(d, "hth_drm", where, (int,)),
        bayonet_charge_density_exempt=_get(d, "bayonet_charge_density_exempt", where, (bool,)),
        a25_43_45_apply=_get(d, "a25_43_45_apply", where, (bool,)),
        early_combat_groups=_get(d, "early_combat_groups", where, (bool,)),
        combat_groups_from=cg or default_cg,
        early_wide_command=early_wide,
        early_command_radius=tuple(radii),
        rule=_get(d, "rule", where, (str,)),
    )


def parse_nationalities(doc: Any) -> _Table:
    """Validate a decoded nationalities table; :class:`TableError` names the bad entry and field.

    The nationality tables of ASLGW 1.11, the combat group dates of ASLGW 1.2 and 1.2.12, the leader's +2 MF of
    ASLGW 1.3 and the early command radii of ASLGW 1.3.12-1.3.13."""
    if not isinstance(doc, dict):
        raise _fail("$", "expected an object")
    inf = _get(doc, "infantry", "$", (dict,))
    infantry = InfantryMovement(*(_get(inf, k, "infantry", (int,)) for k in ("mmc_mf", "smc_mf", "leader_bonus_mf")))
    default_cg = _date(_get(doc, "combat_groups_from_default", "$", (str,)), "combat_groups_from_default", False)
    rows = _get(doc, "nationalities", "$", (dict,))
    nations: dict[Nationality, _NationEntry] = {}
    for name, d in rows.items():
        where = f"nationalities.{name}"
        try:
            nat = Nationality(name)
        except ValueError:
            raise _fail(where, f"{name!r} is not a nationality of the scenario schema") from None
        rule = _get(d, "rule", where, (str,))
        raw_classes = _get(d, "classes", where, (dict,), allow_none=True)
        classes = None
        if raw_classes is not None:
            names = set(raw_classes)
            entries = [_parse_class(c, cd, f"{where}.classes.{c}", names) for c, cd in raw_classes.items()]
            classes = MappingProxyType({e.unit_class: e for e in entries})
        traits = _parse_traits(nat, d.get("traits"), f"{where}.traits", default_cg)  # type: ignore[arg-type]
        if d.get("traits") is not None and classes is None:
            raise _fail(where, "traits without a class table")
        nations[nat] = _NationEntry(nat, rule, classes, traits)
    missing = [n.value for n in Nationality if n not in nations]
    if missing:
        raise _fail("nationalities", f"no entry for {', '.join(missing)}")
    cr = _get(doc, "command_radius", "$", (dict,))
    periods = []
    for i, pd in enumerate(_get(cr, "periods", "command_radius", (list,))):
        where = f"command_radius.periods[{i}]"
        periods.append(CommandRadiusPeriod(_get(pd, "radius", where, (int,)), _date(pd.get("from"), where), _get(pd, "rule", where, (str,))))
    starts = [p.from_date or _dt.date.min for p in periods]
    if not periods or periods[0].from_date is not None or starts != sorted(starts):
        raise _fail("command_radius.periods", "must start with a period from null (the start of the war) and run in date order")
    hero = _get(cr, "hero", "command_radius", (int,))
    return _Table(infantry, MappingProxyType(nations), tuple(periods), hero)


@lru_cache(maxsize=1)
def _table() -> _Table:
    return parse_nationalities(load_resource("nationalities.json"))


# ---------------------------------------------------------------------------
# Public look-ups
# ---------------------------------------------------------------------------
def _nation(nationality: Nationality | str) -> _NationEntry:
    try:
        nat = Nationality(nationality)
    except ValueError:
        raise UnitsError(f"{nationality!r} is not a nationality ({', '.join(n.value for n in Nationality)})") from None
    return _table().nations[nat]


def has_unit_table(nationality: Nationality | str) -> bool:
    """Whether ASLGW 1.11 gives squad factors for ``nationality`` (1.11.1-1.11.4:
    German, French, British Commonwealth, US only).

    >>> has_unit_table("british"), has_unit_table("russian")
    (True, False)
    """
    return _nation(nationality).classes is not None


def nationality_classes(nationality: Nationality | str) -> tuple[UnitClass, ...]:
    """The squad classes of a nationality's ASLGW 1.11 table, best first.

    >>> [c.value for c in nationality_classes("french")]
    ['elite', 'first_line', 'second_line', 'territorial']
    """
    n = _nation(nationality)
    return tuple(n.classes) if n.classes is not None else ()


def _class_entry(nationality: Nationality | str, unit_class: UnitClass | str) -> _ClassEntry:
    n = _nation(nationality)
    if n.classes is None:
        raise NoUnitTableError(
            f"ASLGW 1.11 gives no squad factors for {n.nationality.value} units; "
            f"state them in the scenario (unit field 'factors', e.g. '4-4-7/7')"
        )
    try:
        cls = UnitClass(unit_class)
    except ValueError:
        raise UnknownUnitClassError(f"{unit_class!r} is not a unit class") from None
    entry = n.classes.get(cls)
    if entry is None:
        have = ", ".join(c.value for c in n.classes)
        raise UnknownUnitClassError(f"{n.nationality.value} has no {cls.value} class in {n.rule} (it has {have})")
    return entry


def class_available_from(nationality: Nationality | str, unit_class: UnitClass | str) -> _dt.date | None:
    """First date the class exists (ASLGW 1.11.1: Stosstruppen from 1 July 1915, "after June 1915"), or ``None``.

    >>> class_available_from("german", "stosstruppen")
    datetime.date(1915, 7, 1)
    """
    return _class_entry(nationality, unit_class).available_from


def unit_factors(
    scenario_or_date: Scenario | _dt.date | str,
    nationality: Nationality | str,
    unit_class: UnitClass | str,
    kind: UnitKind | str = UnitKind.SQUAD,
) -> UnitFactors:
    """The factors of a squad or half-squad of ``nationality`` and ``unit_class`` at
    the scenario date (ASLGW 1.11.1-1.11.4).

    French Elite and First Line are 3-4-x before 1 May 1915 and 4-4-x from that
    day on (ASLGW 1.11.2, "prior to May 1915"/"after"); Stosstruppen exist from
    1 July 1915 (ASLGW 1.11.1, "after June 1915").  Raises :class:`NoUnitTableError` for
    nationalities the text gives no table, :class:`UnknownUnitClassError` for a
    class the nationality lacks and :class:`UnitNotAvailableError` before a
    class exists.

    >>> unit_factors("1915-04-30", "french", "first_line").printed
    '3-4-7/7'
    >>> unit_factors("1915-05-01", "french", "first_line").printed
    '4-4-7/7'
    >>> unit_factors("1918-03-21", "german", "stosstruppen", "half_squad").printed
    '2-3-8/8'
    """
    d = as_date(scenario_or_date)
    entry = _class_entry(nationality, unit_class)
    k = UnitKind(kind)
    if k not in (UnitKind.SQUAD, UnitKind.HALF_SQUAD):
        raise UnitsError(f"ASLGW 1.11 gives factors for squads and half-squads, not a {k.value}")
    if entry.available_from is not None and d < entry.available_from:
        raise UnitNotAvailableError(
            f"{Nationality(nationality).value} {entry.unit_class.value} exist only from "
            f"{entry.available_from.isoformat()} (ASLGW 1.11.1), not on {d.isoformat()}"
        )
    for p in entry.periods:
        if p.covers(d):
            return p.squad if k is UnitKind.SQUAD else p.half_squad
    raise AssertionError("validated periods cover every date")  # pragma: no cover


def unit_factors_of(scenario: Scenario, unit: Unit) -> UnitFactors:
    """The factors of one squad or half-squad of a scenario (ASLGW 1.11).

    A unit's own ``factors`` field (docs/format/rules.md) wins over the table:
    it is how a scenario gives units of nationalities ASLGW 1.11 has no table for.
    """
    given = unit.extra.get("factors")
    if given is not None:
        return UnitFactors.parse(given)
    if unit.unit_class is None:
        raise UnitsError(f"{unit.kind.value} {unit.id} has no class")
    return unit_factors(scenario, scenario.sides[unit.side].nationality, unit.unit_class, unit.kind)


def nationality_traits(nationality: Nationality | str) -> NationalityTraits:
    """The special rules of a nationality (ASLGW 1.11.1-1.11.3).

    Nationalities the text gives no special rules (US, and those without a
    table) get neutral traits: no DRM, no exemption, no early combat groups.

    >>> t = nationality_traits("british")
    >>> t.a25_43_45_apply, t.hth_drm
    (True, 0)
    >>> nationality_traits("german").early_combat_groups
    True
    """
    return _nation(nationality).traits


def combat_groups_from(nationality: Nationality | str) -> _dt.date:
    """First date combat groups may exist for a nationality (ASLGW 1.2, 1.2.12):
    1915 for the Germans, September 1917 for the French, December 1917 otherwise.

    >>> combat_groups_from("french").isoformat(), combat_groups_from("us").isoformat()
    ('1917-09-01', '1917-12-01')
    """
    return _nation(nationality).traits.combat_groups_from


def elr_replacement(nationality: Nationality | str, unit_class: UnitClass | str) -> UnitClass | None:
    """The class a unit of ``unit_class`` is replaced by on ELR failure.

    Stosstruppen become First Line (ASLGW 1.11.1).  Other classes go one class
    down the nationality's table (classic A19.13); the lowest class has no
    lower one and returns ``None``.

    >>> elr_replacement("german", "stosstruppen").value
    'first_line'
    >>> elr_replacement("french", "territorial") is None
    True
    """
    return _class_entry(nationality, unit_class).elr_replacement


def base_command_radius(when: Scenario | _dt.date | str) -> CommandRadiusPeriod:
    """The leaders' command radius period in force at ``when`` (ASLGW 1.3.11-1.3.13).

    >>> [base_command_radius(d).radius for d in ("1915-12-31", "1916-01-01", "1916-12-31", "1917-01-01")]
    [1, 2, 2, 3]
    """
    d = as_date(when)
    current = _table().command_periods[0]
    for period in _table().command_periods:
        if period.from_date is None or d >= period.from_date:
            current = period
    return current


def hero_command_radius() -> int:
    """A hero's command radius, at any date (ASLGW 1.3.21).

    >>> hero_command_radius()
    1
    """
    return _table().hero_radius


def infantry_movement() -> InfantryMovement:
    """MMC and SMC movement factors and the leader bonus (A4.1, A4.12, ASLGW 1.3).

    >>> infantry_movement()
    InfantryMovement(mmc_mf=4, smc_mf=6, leader_bonus_mf=2)
    """
    return _table().infantry


def available_classes(when: Scenario | _dt.date | str, nationality: Nationality | str) -> tuple[UnitClass, ...]:
    """The squad classes a nationality may field at a date, best first, for the
    editor's palette (ASLGW 1.11; Stosstruppen only from July 1915, 1.11.1).

    >>> [c.value for c in available_classes("1915-05-31", "german")]
    ['elite', 'first_line', 'second_line', 'landwehr']
    >>> available_classes("1916-01-01", "italian")
    ()
    """
    d = as_date(when)
    n = _nation(nationality)
    if n.classes is None:
        return ()
    return tuple(c for c, e in n.classes.items() if e.available_from is None or d >= e.available_from)


def elr_replaced_unit(scenario: Scenario, unit: Unit) -> Unit | None:
    """The unit that replaces ``unit`` after an ELR failure: same counter with the
    lower class (:func:`elr_replacement`; ASLGW 1.11.1 for Stosstruppen), or
    ``None`` when its table has no lower class.  A unit with its own
    ``factors`` (a nationality without a table) has no table to step down."""
    if unit.kind not in (UnitKind.SQUAD, UnitKind.HALF_SQUAD) or unit.unit_class is None:
        raise UnitsError(f"{unit.id} is a {unit.kind.value}; ELR replacement here is for squads and half-squads")
    new = elr_replacement(scenario.sides[unit.side].nationality, unit.unit_class)
    return replace(unit, unit_class=new) if new is not None else None
