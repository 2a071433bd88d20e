"""Chemical warfare (ASLGW 1.9): gas protection by date and side, the gas
Normal Task Check with the Table 5 DRMs, and every outcome of a gas attack.

The numbers and dates are in gwasl/resources/gas.json.  The gas NTC and the gas
MCs are the classic mechanisms of :mod:`gwasl.rules.morale`; a gas MC never
causes Heat of Battle (1.9.25).

>>> from gwasl.rules.dice import ScriptedDice
>>> attack = GasAttack.of("chlorine")
>>> [m.value for m in gas_ntc_modifiers(GasProtection.COTTON_PADS, attack)]
[1, -1]
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import GasProtection, Nationality, Scenario, Unit
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.dice import Dice, Modifier
from gwasl.rules.morale import CasualtyReduction, MoraleCheckResult, TaskCheckResult, morale_check, normal_task_check

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "GasAgent",
    "GasAttack",
    "GasError",
    "GasOutcome",
    "GasTable",
    "ProtectionDecision",
    "ProtectionState",
    "RemovalResult",
    "gas_ntc_modifiers",
    "gas_protection",
    "gas_table",
    "parse_gas_table",
    "protection_at_turn_end",
    "rally_phase_gas_check",
    "remove_protection",
    "resolve_gas_exposure",
]

_FILE = "gas.json"
NO_HOB = "gas MC (ASLGW 1.9.25)"


class GasError(GwaslError):
    """A gas attack or side that does not exist (unknown agent, unknown side)."""


@dataclass(frozen=True, slots=True)
class GasAgent:
    """One gas of ASLGW 1.9.13: an irritant, or a poison with its MC severity (1.9.23)."""

    name: str
    kind: str  # "irritant" or "poison"
    mc: str | None
    rule: str

    @property
    def poison_mc(self) -> str:
        """The MC a poison inflicts (ASLGW 1.9.23); gas.json gives one for every poison (checked at load)."""
        if self.mc is None:
            raise TableError(f"{_FILE}: gas {self.name!r} is not a poison and has no MC")
        return self.mc


@dataclass(frozen=True, slots=True)
class GasTable:
    no_protection_before: _dt.date
    allied_pads_month: tuple[int, int]
    masks_from: _dt.date
    default_when_silent: GasProtection
    allied: frozenset[Nationality]
    agents: Mapping[str, GasAgent]
    ntc_drm: Mapping[str, tuple[int, str]]
    ntc_rule: str
    protection_rule: str
    removal_mp: int
    cx_at_turn_end: bool
    wearing_rule: str


def _date(v: Any, where: str) -> _dt.date:
    try:
        return _dt.date.fromisoformat(v)
    except (TypeError, ValueError):
        raise TableError(f"{_FILE} {where}: {v!r} is not an ISO date") from None


def _int(d: dict[str, Any], key: str, where: str) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TableError(f"{_FILE} {where}.{key}: expected an integer, got {v!r}")
    return v


def parse_gas_table(doc: Any) -> GasTable:
    """Validate a decoded gas.json (ASLGW 1.9, Table 5); :class:`TableError` names the entry and field."""
    if not isinstance(doc, dict):
        raise TableError(f"{_FILE}: expected an object")
    for name in ("protection", "agents", "ntc_drm", "wearing"):
        if not isinstance(doc.get(name), dict):
            raise TableError(f"{_FILE}: no {name!r} object")
    p = doc["protection"]
    month = p.get("allied_cotton_pads_only_in")
    try:
        y, mo = (int(x) for x in str(month).split("-"))
        _dt.date(y, mo, 1)
    except ValueError:
        raise TableError(f"{_FILE} protection.allied_cotton_pads_only_in: {month!r} is not YYYY-MM") from None
    try:
        default = GasProtection(p.get("default_when_ob_silent"))
        allied = frozenset(Nationality(n) for n in p.get("allied_nationalities", None))
    except (ValueError, TypeError) as e:
        raise TableError(f"{_FILE} protection: {e}") from None
    agents = {}
    for name, a in doc["agents"].items():
        where = f"agents.{name}"
        if not isinstance(a, dict) or a.get("kind") not in ("irritant", "poison"):
            raise TableError(f"{_FILE} {where}.kind: must be 'irritant' or 'poison'")
        mc = a.get("mc")
        if a["kind"] == "poison" and mc not in ("1MC", "2MC", "3MC", "4MC", "5MC"):
            raise TableError(f"{_FILE} {where}.mc: a poison needs an MC severity such as '2MC', got {mc!r}")
        if not isinstance(a.get("rule"), str):
            raise TableError(f"{_FILE} {where}.rule: missing")
        agents[name] = GasAgent(name, a["kind"], mc if a["kind"] == "poison" else None, a["rule"])
    if "irritant" not in agents:
        raise TableError(f"{_FILE} agents: no 'irritant' entry (ASLGW 1.9.13)")
    drm = {}
    for key, v in doc["ntc_drm"].items():
        if key == "rule":
            continue
        if not isinstance(v, dict) or not isinstance(v.get("cause"), str):
            raise TableError(f"{_FILE} ntc_drm.{key}: needs 'drm' and 'cause'")
        drm[key] = (_int(v, "drm", f"ntc_drm.{key}"), v["cause"])
    w = doc["wearing"]
    cx = w.get("cx_at_turn_end")
    if not isinstance(cx, bool):
        raise TableError(f"{_FILE} wearing.cx_at_turn_end: expected true/false, got {cx!r}")
    rules = [str(doc[n].get("rule", "")) for n in ("protection", "ntc_drm", "wearing")]
    return GasTable(
        no_protection_before=_date(p.get("no_protection_before"), "protection.no_protection_before"),
        allied_pads_month=(y, mo),
        masks_from=_date(p.get("masks_by_default_from"), "protection.masks_by_default_from"),
        default_when_silent=default,
        allied=allied,
        agents=MappingProxyType(agents),
        ntc_drm=MappingProxyType(drm),
        protection_rule=rules[0],
        ntc_rule=rules[1],
        removal_mp=_int(w, "removal_mp", "wearing"),
        cx_at_turn_end=cx,
        wearing_rule=rules[2],
    )


@lru_cache(maxsize=1)
def gas_table() -> GasTable:
    """gwasl/resources/gas.json (ASLGW 1.9, Table 5), loaded and validated once."""
    return parse_gas_table(load_resource(_FILE))


# ---------------------------------------------------------------------------
# Protection by date and side (1.9.11, 1.9.12)


@dataclass(frozen=True, slots=True)
class ProtectionDecision:
    protection: GasProtection
    reason: str
    rule: str


def gas_protection(scenario: Scenario, side_id: str) -> ProtectionDecision:
    """The gas protection of a side at the scenario date (ASLGW 1.9.11, 1.9.12).

    - before 22 April 1915 nobody has any, whatever the OB says (1.9.11);
    - the side's ``gas_protection`` (OB or SSR) is used when given, except
      that Allied protection in April 1915 can only be cotton pads (1.9.12);
    - otherwise masks from June 1915 (1.9.11); from 22 April to 31 May 1915
      an OB that is silent means a mask (1.9.12), and cotton pads for the
      Allies in April 1915 (1.9.12).

    >>> import datetime, gwasl.model.scenario as sc
    >>> s = sc.Scenario("t", datetime.date(1915, 4, 24), sc.MapData(2, 2),
    ...     {"fr": sc.Side("fr", sc.Nationality.FRENCH), "de": sc.Side("de", sc.Nationality.GERMAN)})
    >>> gas_protection(s, "fr").protection.value, gas_protection(s, "de").protection.value
    ('cotton_pads', 'mask')
    """
    t = gas_table()
    side = scenario.sides.get(side_id)
    if side is None:
        raise GasError(f"side {side_id!r} is not a side of this scenario")
    d = scenario.date
    allied = side.nationality in t.allied
    april = (d.year, d.month) == t.allied_pads_month
    if d < t.no_protection_before:
        return ProtectionDecision(GasProtection.NONE, f"no gas protection exists before {t.no_protection_before.isoformat()}", "ASLGW 1.9.11")
    given = side.gas_protection
    if given is not None:
        if allied and april and given is GasProtection.MASK:
            return ProtectionDecision(
                GasProtection.COTTON_PADS,
                "the OB gives masks, but Allied protection in April 1915 can only be cotton pads",
                "ASLGW 1.9.12",
            )
        return ProtectionDecision(given, "given by the OB/SSR", "ASLGW 1.9.11")
    if d >= t.masks_from:
        return ProtectionDecision(GasProtection.MASK, f"masks by default from {t.masks_from.isoformat()}", "ASLGW 1.9.11")
    if allied and april:
        return ProtectionDecision(GasProtection.COTTON_PADS, "the OB is silent; Allied protection in April 1915 is cotton pads", "ASLGW 1.9.12")
    return ProtectionDecision(t.default_when_silent, "the OB is silent: a mask of some sort", "ASLGW 1.9.12")


# ---------------------------------------------------------------------------
# The attack and the gas NTC (1.9.13, 1.9.14)


@dataclass(frozen=True, slots=True)
class GasAttack:
    """The gases of one attack (ASLGW 1.9.13: an irritant and a poison may be mixed).

    >>> GasAttack.of("irritant", "phosgene").poison.mc
    '3MC'
    """

    agents: frozenset[str]

    @classmethod
    def of(cls, *names: str) -> GasAttack:
        t = gas_table()
        if not names:
            raise GasError("a gas attack needs at least one gas")
        for n in names:
            if n not in t.agents:
                raise GasError(f"unknown gas {n!r}; known: {', '.join(sorted(t.agents))}")
        return cls(frozenset(names))

    @property
    def irritant_used(self) -> bool:
        t = gas_table()
        return any(t.agents[a].kind == "irritant" for a in self.agents)

    @property
    def poison(self) -> GasAgent | None:
        """The poison with the most severe MC, or None for an irritant-only attack."""
        t = gas_table()
        poisons = [t.agents[a] for a in sorted(self.agents) if t.agents[a].kind == "poison"]
        return max(poisons, key=lambda a: int(a.poison_mc[0]), default=None)


def gas_ntc_modifiers(protection: GasProtection, attack: GasAttack) -> tuple[Modifier, ...]:
    """The Table 5 DRMs of a gas NTC (ASLGW 1.9.14): cotton pads +1, irritants
    +1, chlorine -1, yperite +1 (cumulative).

    >>> [(m.value) for m in gas_ntc_modifiers(GasProtection.MASK, GasAttack.of("irritant", "yperite"))]
    [1, 1]
    """
    t = gas_table()
    keys = []
    if protection is GasProtection.COTTON_PADS:
        keys.append("cotton_pads")
    if attack.irritant_used:
        keys.append("irritant")
    keys.extend(a for a in sorted(attack.agents) if a != "irritant")
    out = []
    for k in keys:
        if k in t.ntc_drm:
            v, cause = t.ntc_drm[k]
            out.append(Modifier(f"{cause} ({t.ntc_rule})", v))
    return tuple(out)


# ---------------------------------------------------------------------------
# Outcomes (1.9.14-1.9.25)


@dataclass(frozen=True, slots=True)
class GasOutcome:
    """What a gas attack (or a rally-phase retry) did to one unit, and why."""

    unit_id: str
    in_area: bool
    ntc: TaskCheckResult | None = None
    protected: bool = False  # protections on: no further effect from the gas
    pinned: bool = False  # for the rest of the turn (1.9.14)
    broken: bool = False
    concealment_lost: bool = False
    dm: bool = False  # DM while in the area (1.9.21, 1.9.23)
    mc: MoraleCheckResult | None = None
    casualty_reduction: CasualtyReduction | None = None
    labor_marker: bool = False  # 1.9.2: keeps trying outside the area
    retry_next_rally: bool = False
    heat_of_battle: bool = False  # never true: 1.9.25
    reasons: tuple[str, ...] = ()


def _current_morale(unit: Unit, morale: int, broken_morale: int) -> int:
    # ASLGW 1.11: a broken unit uses the second morale number.
    return broken_morale if unit.broken else morale


def _suffer(dice: Dice, unit: Unit, broken_morale: int, attack: GasAttack, why: list[str], ntc: TaskCheckResult | None) -> GasOutcome:
    poison = attack.poison
    if poison is None:
        why.append("irritant: the unit breaks, loses concealment and is DM while in the area (ASLGW 1.9.21)")
        return GasOutcome(unit.id, True, ntc=ntc, broken=True, concealment_lost=True, dm=True, reasons=tuple(why))
    why.append(f"poison ({poison.name}): the unit breaks, loses concealment, takes a {poison.mc} and is DM while in the area (ASLGW 1.9.23)")
    mc = morale_check(dice, unit.kind, broken_morale, broken=True, severity=poison.poison_mc,
                      cause=f"gas {poison.mc} ({poison.name}, ASLGW 1.9.23)", hob_exemption=NO_HOB)
    why.extend(mc.reasons)
    return GasOutcome(unit.id, True, ntc=ntc, broken=True, concealment_lost=True, dm=True, mc=mc,
                      casualty_reduction=mc.casualty_reduction, reasons=tuple(why))


def resolve_gas_exposure(
    dice: Dice,
    unit: Unit,
    morale: int,
    broken_morale: int,
    attack: GasAttack,
    protection: GasProtection,
    in_area: bool,
    los_to_area: bool = True,
    keep_trying: bool = True,
) -> GasOutcome:
    """Resolve a gas attack just resolved on one unit (ASLGW 1.9.14, 1.9.2, 1.9.21, 1.9.23).

    Units with protection in the area of effect, or with LOS on it, take a gas
    NTC with the Table 5 DRMs.  Pass: pinned for the rest of the turn and
    protected (1.9.14).  Fail in the area: the effects of the gas; fail outside
    it: a labor marker and another NTC next rally phase if ``keep_trying``
    (1.9.2).  A unit without any protection takes no NTC and suffers the
    effects if in the area (it has nothing to put on).  ``morale`` and
    ``broken_morale`` are the unit's two morale levels (ASLGW 1.11).

    >>> from gwasl.rules.dice import ScriptedDice
    >>> import gwasl.model.scenario as sc, gwasl.model.hexgrid as hg
    >>> u = sc.Unit("F1", "fr", sc.UnitKind.SQUAD, hg.Hex(0, 0))
    >>> o = resolve_gas_exposure(ScriptedDice([3, 3]), u, 7, 7, GasAttack.of("chlorine"), GasProtection.MASK, True)
    >>> o.ntc.roll.final, o.protected, o.pinned
    (5, True, True)
    """
    why: list[str] = []
    if not in_area and not los_to_area:
        return GasOutcome(unit.id, False, reasons=("neither in the area of effect nor in LOS of it: no gas NTC (ASLGW 1.9.14)",))
    if protection is GasProtection.NONE:
        if not in_area:
            return GasOutcome(unit.id, False, reasons=("no gas protection to put on, and outside the area: no effect (ASLGW 1.9.14)",))
        why.append("no gas protection: no gas NTC, the gas takes effect (ASLGW 1.9.11, 1.9.2)")
        return _suffer(dice, unit, broken_morale, attack, why, None)
    ntc = normal_task_check(dice, _current_morale(unit, morale, broken_morale), gas_ntc_modifiers(protection, attack),
                            cause="gas NTC (ASLGW 1.9.14)")
    why.extend(ntc.reasons)
    if ntc.passed:
        why.append("gas NTC passed: protections on, pinned for the rest of the turn, no further effect (ASLGW 1.9.14)")
        return GasOutcome(unit.id, in_area, ntc=ntc, protected=True, pinned=True, reasons=tuple(why))
    if in_area:
        why.append("gas NTC failed in the area of effect: the gas takes effect (ASLGW 1.9.2)")
        return _suffer(dice, unit, broken_morale, attack, why, ntc)
    if keep_trying:
        why.append("gas NTC failed outside the area: labor marker, new gas NTC next rally phase (ASLGW 1.9.2)")
        return GasOutcome(unit.id, False, ntc=ntc, labor_marker=True, retry_next_rally=True, reasons=tuple(why))
    why.append("gas NTC failed outside the area; the unit stops trying (ASLGW 1.9.2)")
    return GasOutcome(unit.id, False, ntc=ntc, reasons=tuple(why))


def rally_phase_gas_check(
    dice: Dice,
    unit: Unit,
    morale: int,
    broken_morale: int,
    attack: GasAttack,
    protection: GasProtection,
    in_area: bool,
) -> GasOutcome:
    """A rally-phase retry (ASLGW 1.9.22, 1.9.24, 1.9.2).

    In the area of effect: a new gas NTC; passed, the unit stays DM but the gas
    no longer affects it; failed, it takes a gas NMC (irritant, 1.9.22) or the
    gas's 2MC/3MC (poison, 1.9.24) and stays DM.  Outside it (a unit under a
    labor marker, 1.9.2): a new gas NTC; passed, protections are on and the
    labor marker goes; failed, it may try again next rally phase.  No gas MC
    ever causes Heat of Battle (1.9.25).

    >>> from gwasl.rules.dice import ScriptedDice
    >>> import gwasl.model.scenario as sc, gwasl.model.hexgrid as hg
    >>> u = sc.Unit("F1", "fr", sc.UnitKind.SQUAD, hg.Hex(0, 0), broken=True)
    >>> o = rally_phase_gas_check(ScriptedDice([4, 4, 5, 5]), u, 7, 6, GasAttack.of("irritant"), GasProtection.MASK, True)
    >>> o.ntc.passed, o.mc.severity, o.dm, o.casualty_reduction.to
    (False, 'NMC', True, 'half_squad')
    """
    if protection is GasProtection.NONE:
        raise GasError(f"unit {unit.id} has no gas protection to put on (ASLGW 1.9.22)")
    why: list[str] = []
    ntc = normal_task_check(dice, _current_morale(unit, morale, broken_morale), gas_ntc_modifiers(protection, attack),
                            cause="gas NTC, rally phase (ASLGW 1.9.22)")
    why.extend(ntc.reasons)
    if not in_area:
        if ntc.passed:
            why.append("gas NTC passed: protections on, labor marker removed (ASLGW 1.9.2)")
            return GasOutcome(unit.id, False, ntc=ntc, protected=True, reasons=tuple(why))
        why.append("gas NTC failed: labor marker stays, retry next rally phase (ASLGW 1.9.2)")
        return GasOutcome(unit.id, False, ntc=ntc, labor_marker=True, retry_next_rally=True, reasons=tuple(why))
    if ntc.passed:
        why.append("gas NTC passed: still DM, but no further effect from the gas (ASLGW 1.9.22, 1.9.24)")
        return GasOutcome(unit.id, True, ntc=ntc, protected=True, broken=unit.broken, dm=True, reasons=tuple(why))
    poison = attack.poison
    severity = poison.poison_mc if poison is not None else "NMC"
    rule = "ASLGW 1.9.24" if poison is not None else "ASLGW 1.9.22"
    why.append(f"gas NTC failed: gas {severity}, still DM ({rule})")
    mc = morale_check(dice, unit.kind, _current_morale(unit, morale, broken_morale), broken=unit.broken,
                      severity=severity, cause=f"gas {severity} ({rule})", hob_exemption=NO_HOB)
    why.extend(mc.reasons)
    return GasOutcome(unit.id, True, ntc=ntc, broken=unit.broken or mc.broke, dm=True, mc=mc,
                      casualty_reduction=mc.casualty_reduction, retry_next_rally=True, reasons=tuple(why))


# ---------------------------------------------------------------------------
# Wearing and removing protection (1.9.15, 1.9.16)


@dataclass(frozen=True, slots=True)
class ProtectionState:
    """Whether a unit wears its gas protection, and the CX it brings (ASLGW 1.9.15)."""

    unit_id: str
    worn: bool = True
    cx: bool = False


def protection_at_turn_end(state: ProtectionState) -> ProtectionState:
    """ASLGW 1.9.15: a unit wearing gas protection is CX at the end of the turn,
    and stays CX while it is on.

    >>> protection_at_turn_end(ProtectionState("F1")).cx
    True
    """
    if state.worn and gas_table().cx_at_turn_end:
        return replace(state, cx=True)
    return state


@dataclass(frozen=True, slots=True)
class RemovalResult:
    state: ProtectionState
    mp_cost: int
    cx_removed_at_end_of_mph: bool
    rule: str


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def remove_protection(state: ProtectionState) -> RemovalResult:
    """ASLGW 1.9.16: removing gas protection costs 1 MP in the unit's MPh; its
    CX marker is removed at the end of that MPh.

    >>> r = remove_protection(ProtectionState("F1", cx=True))
    >>> r.mp_cost, r.state.worn, r.cx_removed_at_end_of_mph
    (1, False, True)
    """
    if not state.worn:
        raise GasError(f"unit {state.unit_id} wears no gas protection to remove (ASLGW 1.9.16)")
    t = gas_table()
    return RemovalResult(replace(state, worn=False), t.removal_mp, state.cx, t.wearing_rule)
