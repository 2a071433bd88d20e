"""Classic ASL morale mechanisms that ASLGW relies on: task checks (NTC, PTC),
morale checks (NMC, 1MC..5MC), pin, casualty reduction, Heat of Battle, CX,
Desperation Morale and stacking equivalents.

ASLGW v0.1.1 says it is "exactly like playing classic ASL" except for its own
rules, and uses these mechanisms without restating them (gas NTC 1.9.14, gas
2MC/3MC 1.9.23, no Heat of Battle on a gas MC 1.9.25, BCh pin immunity 1.5,
deep trench CX 2.1.3, stacking 2.1.4).  They are implemented here in their
standard form; every number is in gwasl/resources/asl_core.json.

Every resolution takes the :class:`~gwasl.rules.dice.Dice` object and
returns a value that says why (the logged roll with each DRM and its cause,
and the reasons for the outcome).

>>> from gwasl.rules.dice import ScriptedDice
>>> r = morale_check(ScriptedDice([4, 4]), "squad", morale=7, severity="1MC")
>>> r.roll.final, r.passed, r.broke
(9, False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import Scenario, Unit, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Dice, Modifier, Modifiers, Roll, ScriptedDice, as_modifiers
from gwasl.rules.units import UnitsError, unit_factors_of

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "unit_morale",
    "AslCore",
    "CasualtyReduction",
    "MoraleCheckResult",
    "TaskCheckResult",
    "asl_core",
    "parse_asl_core",
    "casualty_reduction",
    "cx_attack_modifier",
    "dm_rally_modifier",
    "double_time_mf",
    "elr_failure",
    "leader_loss_modifier",
    "heat_of_battle_triggered",
    "morale_check",
    "normal_task_check",
    "ntc_pass_chance",
    "pin_task_check",
    "severity_drm",
    "stacking_equivalents",
    "to_json",
]

_FILE = "asl_core.json"


@dataclass(frozen=True, slots=True)
class AslCore:
    """The numbers of gwasl/resources/asl_core.json, validated."""

    ptc_pins: bool
    ntc_pins: bool
    severity: Mapping[str, int]
    pin_on_equal: bool
    cr_original_dr: int
    broken_fail_cr: bool
    broken_12: str
    hob_original_dr: int
    hob_exempt_kinds: frozenset[str]
    casualty_reduction: Mapping[str, str]
    cx_attack_drm: int
    double_time_mf: int
    dm_rally_drm: int
    entrenchment_change_mf: int
    human_wave_mf: int
    stacking_squads: int
    stacking_smc: int
    squad_equivalent: Mapping[str, float]
    rules: Mapping[str, str]


def _section(doc: dict[str, Any], name: str) -> dict[str, Any]:
    d = doc.get(name)
    if not isinstance(d, dict):
        raise TableError(f"{_FILE}: no {name!r} object")
    if not isinstance(d.get("rule"), str):
        raise TableError(f"{_FILE} {name}: missing 'rule' text")
    return d


def _get(d: dict[str, Any], key: str, where: str, typ: type) -> Any:
    if key not in d:
        raise TableError(f"{_FILE} {where}: missing {key!r}")
    v = d[key]
    ok = isinstance(v, typ) and (typ is bool or not isinstance(v, bool))
    if typ is float:
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
    if not ok:
        raise TableError(f"{_FILE} {where}.{key}: expected {typ.__name__}, got {v!r}")
    return v


def parse_asl_core(doc: Any) -> AslCore:
    """Validate a decoded asl_core.json; :class:`TableError` names entry and field.

    The classic numbers of asl_core.json: task checks (NTC, PTC; pin A7.8), MC (A10.3, A10.31), Heat of Battle (A15.1),
    casualty reduction (A7.302), CX (A4.51), Double Time (A4.5), DM (A10.62), Human Wave (A25.231), stacking
    (A5.1), entrenchments (B27.41)."""
    if not isinstance(doc, dict):
        raise TableError(f"{_FILE}: expected an object")
    tc = _section(doc, "task_check")
    mc = _section(doc, "morale_check")
    hob = _section(doc, "heat_of_battle")
    cr = _section(doc, "casualty_reduction")
    cx = _section(doc, "cx")
    dt = _section(doc, "double_time")
    dm = _section(doc, "desperation_morale")
    st = _section(doc, "stacking")
    en = _section(doc, "entrenchment")
    hw = _section(doc, "human_wave")
    pins = _get(tc, "pin_on_failure", "task_check", dict)
    sev = _get(mc, "severity_drm", "morale_check", dict)
    for k, v in sev.items():
        if isinstance(v, bool) or not isinstance(v, int):
            raise TableError(f"{_FILE} morale_check.severity_drm.{k}: expected int, got {v!r}")
    kinds = {k.value for k in UnitKind} | {"wounded"}
    red = {k: v for k, v in cr.items() if k != "rule"}
    for k, v in red.items():
        if k not in kinds:
            raise TableError(f"{_FILE} casualty_reduction.{k}: not a unit kind")
        if not isinstance(v, str) or v not in kinds | {"eliminated"}:
            raise TableError(f"{_FILE} casualty_reduction.{k}: {v!r} is not a unit kind, 'wounded' or 'eliminated'")
    b12 = _get(mc, "original_12_on_broken_unit", "morale_check", str)
    if b12 not in ("eliminated", "casualty_reduction"):
        raise TableError(f"{_FILE} morale_check.original_12_on_broken_unit: 'eliminated' or 'casualty_reduction', not {b12!r}")
    hob_exempt = _get(hob, "exempt_kinds", "heat_of_battle", list)
    for k in hob_exempt:
        if k not in {u.value for u in UnitKind}:
            raise TableError(f"{_FILE} heat_of_battle.exempt_kinds: {k!r} is not a unit kind")
    eq = _get(st, "squad_equivalent", "stacking", dict)
    for k in UnitKind:
        v = eq.get(k.value)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TableError(f"{_FILE} stacking.squad_equivalent.{k.value}: expected a number, got {v!r}")
    return AslCore(
        ptc_pins=_get(pins, "PTC", "task_check.pin_on_failure", bool),
        ntc_pins=_get(pins, "NTC", "task_check.pin_on_failure", bool),
        severity=MappingProxyType(dict(sev)),
        pin_on_equal=_get(mc, "pin_if_final_dr_equals_morale", "morale_check", bool),
        cr_original_dr=_get(mc, "casualty_reduction_original_dr", "morale_check", int),
        broken_fail_cr=_get(mc, "broken_unit_failing_is_casualty_reduced", "morale_check", bool),
        broken_12=b12,
        hob_original_dr=_get(hob, "trigger_original_dr", "heat_of_battle", int),
        hob_exempt_kinds=frozenset(hob_exempt),
        casualty_reduction=MappingProxyType(red),
        cx_attack_drm=_get(cx, "own_attack_drm", "cx", int),
        double_time_mf=_get(dt, "mf_bonus", "double_time", int),
        dm_rally_drm=_get(dm, "rally_drm", "desperation_morale", int),
        entrenchment_change_mf=_get(en, "mf_change_within_hex", "entrenchment", int),
        human_wave_mf=_get(hw, "mf", "human_wave", int),
        stacking_squads=_get(st, "squads_per_location", "stacking", int),
        stacking_smc=_get(st, "smc_per_location", "stacking", int),
        squad_equivalent=MappingProxyType({k: float(v) for k, v in eq.items()}),
        rules=MappingProxyType({name: doc[name]["rule"] for name in (
            "task_check", "morale_check", "heat_of_battle", "casualty_reduction", "cx", "double_time",
            "desperation_morale", "stacking", "entrenchment", "human_wave")}),
    )


@lru_cache(maxsize=1)
def asl_core() -> AslCore:
    """The classic ASL numbers (gwasl/resources/asl_core.json), loaded and validated once."""
    return parse_asl_core(load_resource(_FILE))


def to_json(value: Any) -> Any:
    """A result value as plain JSON data (for the game journal): dataclasses
    become objects, enums their values, rolls their :meth:`Roll.as_json`.

    >>> from gwasl.rules.dice import ScriptedDice
    >>> to_json(normal_task_check(ScriptedDice([1, 2]), 7))["roll"]["final"]
    3
    """
    if isinstance(value, Roll):
        return value.as_json()
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [to_json(v) for v in value]
        return sorted(items) if isinstance(value, (frozenset, set)) else items
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


# ---------------------------------------------------------------------------
# Task checks


@dataclass(frozen=True, slots=True)
class TaskCheckResult:
    """A Normal or Pin Task Check: ``passed`` when final DR <= morale."""

    kind: str  # "NTC" or "PTC"
    roll: Roll
    morale: int
    passed: bool
    pinned: bool
    reasons: tuple[str, ...]


def _task_check(dice: Dice, kind: str, morale: int, modifiers: Modifiers, cause: str) -> TaskCheckResult:
    core = asl_core()
    roll = dice.DR(cause, as_modifiers(modifiers))
    passed = roll.final <= morale
    pins = core.ptc_pins if kind == "PTC" else core.ntc_pins
    pinned = (not passed) and pins
    why = [f"{kind}: final DR {roll.final} {'<=' if passed else '>'} morale {morale}: {'passed' if passed else 'failed'}"]
    if pinned:
        why.append(f"a failed {kind} pins the unit ({core.rules['task_check']})")
    return TaskCheckResult(kind, roll, morale, passed, pinned, tuple(why))


def normal_task_check(dice: Dice, morale: int, modifiers: Modifiers = None, cause: str = "NTC") -> TaskCheckResult:
    """Normal Task Check (classic ASL, used by ASLGW 1.3.2, 1.4.13, 1.9.14).

    Passed when the final DR is at most the unit's morale; a failure has only
    the consequences the calling rule gives it (no pin, no break).

    >>> from gwasl.rules.dice import ScriptedDice
    >>> normal_task_check(ScriptedDice([3, 4]), 7, {"free squad (ASLGW 1.4.13)": 1}).passed
    False
    """
    return _task_check(dice, "NTC", morale, modifiers, cause)


def ntc_pass_chance(morale: int, modifiers: Modifiers = None) -> Fraction:
    """The exact chance of passing :func:`normal_task_check` -- the resolver itself, over
    the 36 DR -- so odds never keep a copy of the task check (issue 23).

    >>> ntc_pass_chance(7), ntc_pass_chance(7, {"free squad (ASLGW 1.4.13)": 1})
    (Fraction(7, 12), Fraction(5, 12))
    """
    mods = as_modifiers(modifiers)
    passed = sum(1 for a in range(1, 7) for b in range(1, 7) if normal_task_check(ScriptedDice([a, b]), morale, mods).passed)
    return Fraction(passed, 36)


def pin_task_check(dice: Dice, morale: int, modifiers: Modifiers = None, cause: str = "PTC") -> TaskCheckResult:
    """Pin Task Check (classic ASL, A7.8): like an NTC, but failing pins the unit.

    >>> from gwasl.rules.dice import ScriptedDice
    >>> pin_task_check(ScriptedDice([5, 4]), 8).pinned
    True
    """
    return _task_check(dice, "PTC", morale, modifiers, cause)


# ---------------------------------------------------------------------------
# Morale checks


@dataclass(frozen=True, slots=True)
class CasualtyReduction:
    """What casualty reduction makes of a unit (A7.302, A17.2)."""

    from_kind: str
    to: str  # a unit kind, "wounded" or "eliminated"
    rule: str

    @property
    def eliminated(self) -> bool:
        return self.to == "eliminated"


class CasualtyReductionError(GwaslError):
    """Casualty reduction asked of a unit kind it does not apply to (A7.302)."""


def casualty_reduction(kind: UnitKind | str, wounded: bool = False) -> CasualtyReduction:
    """Casualty reduction per classic ASL (A7.302; SMC A17.2).

    A squad becomes a half-squad; a half-squad or crew is eliminated; a
    leader or hero is wounded, and eliminated if already wounded.

    >>> casualty_reduction("squad").to, casualty_reduction("leader", wounded=True).to
    ('half_squad', 'eliminated')

    Raises :class:`CasualtyReductionError` (casualty reduction asked of a unit kind it does not apply to (A7.302)).
    """
    core = asl_core()
    k = "wounded" if wounded else (kind.value if isinstance(kind, UnitKind) else str(kind))
    if k not in core.casualty_reduction:
        raise CasualtyReductionError(f"casualty reduction does not apply to a {k}")
    return CasualtyReduction(k, core.casualty_reduction[k], core.rules["casualty_reduction"])


class SeverityError(GwaslError):
    """A morale check severity the table does not list."""


def severity_drm(severity: str) -> int:
    """DRM of an MC's severity: NMC +0, 2MC +2, 3MC +3 (A10.3).

    >>> severity_drm("3MC")
    3

    Raises :class:`SeverityError` (a morale check severity the table does not list).
    """
    table = asl_core().severity
    if severity not in table:
        raise SeverityError(f"{severity!r} is not a morale check severity ({', '.join(table)})")
    return table[severity]


def heat_of_battle_triggered(roll: Roll, exemption: str | None = None) -> tuple[bool, str]:
    """Whether an MC roll triggers Heat of Battle (A15.1: original DR 2), and why.

    ``exemption`` names a rule that removes it (ASLGW 1.9.25 gas MC, ASLGW 1.5
    BCh units); an exempt original 2 does not trigger it.

    >>> from gwasl.rules.dice import ScriptedDice
    >>> heat_of_battle_triggered(ScriptedDice([1, 1]).DR("MC"), "gas MC (ASLGW 1.9.25)")
    (False, 'original DR 2, but no Heat of Battle: gas MC (ASLGW 1.9.25)')
    """
    core = asl_core()
    if roll.total != core.hob_original_dr:
        return False, ""
    if exemption:
        return False, f"original DR {roll.total}, but no Heat of Battle: {exemption}"
    return True, f"original DR {roll.total}: Heat of Battle ({core.rules['heat_of_battle']})"


@dataclass(frozen=True, slots=True)
class MoraleCheckResult:
    """Outcome of one MC, with the logged roll and every reason."""

    severity: str
    roll: Roll
    morale: int
    was_broken: bool
    passed: bool
    broke: bool
    pinned: bool
    casualty_reduction: CasualtyReduction | None
    heat_of_battle: bool
    reasons: tuple[str, ...]

    @property
    def eliminated(self) -> bool:
        return self.casualty_reduction is not None and self.casualty_reduction.eliminated


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def morale_check(
    dice: Dice,
    kind: UnitKind | str,
    morale: int,
    broken: bool = False,
    severity: str = "NMC",
    modifiers: Modifiers = None,
    cause: str | None = None,
    pin_immune: str | None = None,
    hob_exemption: str | None = None,
    wounded: bool = False,
    original: Roll | None = None,
) -> MoraleCheckResult:
    """Resolve a morale check per classic ASL (A10.3, A10.31, A7.8, A15.1).

    - the severity adds its DRM (a 2MC adds +2, a 3MC +3);
    - final DR <= morale passes; a Good Order unit that passes with a final
      DR equal to its morale is pinned (A7.8) unless ``pin_immune`` names the
      rule that spares it (e.g. a BCh unit, ASLGW 1.5);
    - a failure breaks a Good Order unit; a broken unit that fails suffers
      casualty reduction (A10.3);
    - an original 12 always fails (A10.31): a Good Order unit breaks and is
      casualty reduced, a broken unit is eliminated;
    - an original 2 triggers Heat of Battle (A15.1) unless ``hob_exemption``
      names the rule that removes it (ASLGW 1.9.25, 1.5) or the unit is a
      hero or crew (A15.1);
    - ``original``: a roll whose Original DR this MC uses instead of a new DR
      (the NMC of a Final Protective Fire uses the FPF attack's, A8.31).

    >>> from gwasl.rules.dice import ScriptedDice
    >>> r = morale_check(ScriptedDice([6, 6]), "squad", 8)
    >>> r.broke, r.casualty_reduction.to
    (True, 'half_squad')
    """
    core = asl_core()
    sev = severity_drm(severity)
    mods = ([Modifier(f"{severity} (A10.3)", sev)] if sev else []) + list(as_modifiers(modifiers))
    why_cause = cause or f"{severity} (morale {morale})"
    roll = dice.DR(why_cause, mods) if original is None else dice.again(original, why_cause, mods)
    why: list[str] = []
    original_12 = roll.total == core.cr_original_dr
    passed = roll.final <= morale and not original_12
    if original_12:
        why.append(f"original DR {roll.total}: the MC fails whatever the morale (A10.31)")
    else:
        why.append(f"final DR {roll.final} {'<=' if passed else '>'} morale {morale}: {'passed' if passed else 'failed'}")
    broke = False
    cr = None
    pinned = False
    if not passed:
        if broken and original_12 and core.broken_12 == "eliminated":
            k = kind.value if isinstance(kind, UnitKind) else str(kind)
            cr = CasualtyReduction(k, "eliminated", "A10.31")
            why.append("a broken unit rolling an original 12 on an MC is eliminated (A10.31)")
        elif broken:
            if core.broken_fail_cr or original_12:
                cr = casualty_reduction(kind, wounded)
                why.append("a broken unit that fails an MC is casualty reduced (A10.3)")
        else:
            broke = True
            why.append("a Good Order unit that fails an MC breaks (A10.3)")
            if original_12:
                cr = casualty_reduction(kind, wounded)
                why.append("an original 12 also casualty-reduces it (A10.31)")
    elif not broken and core.pin_on_equal and roll.final == morale:
        if pin_immune:
            why.append(f"final DR equals morale, but no pin: {pin_immune}")
        else:
            pinned = True
            why.append("passed with final DR equal to morale: pinned (A7.8)")
    k = kind.value if isinstance(kind, UnitKind) else str(kind)
    if hob_exemption is None and k in core.hob_exempt_kinds:
        hob_exemption = f"a {k} is not subject to Heat of Battle ({core.rules['heat_of_battle']})"
    hob, hob_why = heat_of_battle_triggered(roll, hob_exemption)
    if hob_why:
        why.append(hob_why)
    return MoraleCheckResult(severity, roll, morale, broken, passed, broke, pinned, cr, hob, tuple(why))


# ---------------------------------------------------------------------------
# CX, DM, stacking


def cx_attack_modifier(cx: bool) -> Modifier | None:
    """The DRM a CX unit adds to its own attacks (A4.51): +1, or None if not CX.

    >>> cx_attack_modifier(True)
    Modifier(cause='attacker is CX (A4.51)', value=1)
    """
    if not cx:
        return None
    core = asl_core()
    return Modifier(f"attacker is CX ({core.rules['cx']})", core.cx_attack_drm)


def double_time_mf() -> int:
    """MF a unit gains by Double Time (A4.5), which makes it CX."""
    return asl_core().double_time_mf


def dm_rally_modifier(dm: bool) -> Modifier | None:
    """The rally DRM of a Desperation Morale unit (A10.62): +4, or None.

    >>> dm_rally_modifier(True).value
    4
    """
    if not dm:
        return None
    core = asl_core()
    return Modifier(f"DM ({core.rules['desperation_morale']})", core.dm_rally_drm)


def stacking_equivalents(units: Iterable[Unit]) -> float:
    """Stacking size of ``units`` in squad-equivalents (A5.1): a squad counts 1,
    a half-squad or a crew 1/2; SMC and support weapons do not count.

    >>> from gwasl.model.hexgrid import Hex
    >>> u = lambda i, k: Unit(i, "a", UnitKind(k), Hex(0, 0))
    >>> stacking_equivalents([u("1", "squad"), u("2", "half_squad"), u("3", "crew"), u("4", "leader")])
    2.0
    """
    eq = asl_core().squad_equivalent
    return sum(eq[u.kind.value] for u in units)


# ---------------------------------------------------------------------------
# Leader loss and ELR (A10.2, A19.13)


def leader_loss_modifier(leader_modifier: int, leader_id: str) -> Modifier:
    """The DRM of a Leader Loss MC or Task Check (A10.2): the lost leader's
    leadership reversed (a -1 leader lost gives +1; a leader with no or an
    adverse modifier gives +0).  The number comes from the leader's rating;
    whether LLMC apply is gwasl/resources/infantry_combat.json ``leader_loss``.

    >>> leader_loss_modifier(-2, "L").value, leader_loss_modifier(1, "L").value
    (2, 0)
    """
    return Modifier(f"leader {leader_id} lost: LLMC/LLTC (A10.2)", max(0, -leader_modifier))


def elr_failure(final_dr: int, morale: int, elr: int) -> bool:
    """A19.13: a Good Order MMC that fails an MC by more than its side's ELR is
    replaced by a lower-quality unit (ASLGW 1.11.1 for Stosstruppen).

    >>> elr_failure(11, 7, 3), elr_failure(12, 8, 3), elr_failure(10, 7, 3)
    (True, True, False)
    """
    return final_dr - morale > elr


_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)


def unit_morale(scenario: Scenario, u: Unit) -> tuple[int, int]:
    """A unit's Good Order and broken morale before any marker changes it (ASLGW 1.11:
    the number after the slash): the unit's own ``morale`` field; a squad's from the
    nationality's unit table (ASLGW 1.11); a leader's rating; a crew's or a hero's from the
    firers of resources/infantry_combat.json (A1.123, A17.1), which also serve a squad whose
    nationality the table does not list.  The one source of a unit's morale: rally, fire's
    morale checks and the NTC to move (ASLGW 1.3.2) all read it.

    >>> from gwasl.model.scenario import Unit, UnitKind
    >>> from gwasl.model.hexgrid import Hex
    >>> unit_morale(None, Unit("c", "german", UnitKind.CREW, Hex(0, 0)))  # type: ignore[arg-type]
    (8, 8)
    """
    given = u.extra.get("morale")
    if isinstance(given, int) and not isinstance(given, bool):
        return given, given
    if u.kind in _SQUADS:
        try:
            f = unit_factors_of(scenario, u)
            return f.morale, f.broken_morale
        except UnitsError:
            pass
    elif u.kind is UnitKind.LEADER and u.rating is not None:
        return u.rating.morale, u.rating.morale
    elif u.kind is UnitKind.HERO:
        h = combat_table().firer("hero")
        return h.morale, h.broken_morale
    c = combat_table().firer("crew")
    return c.morale, c.broken_morale
