"""Scenario checks (``gwasl validate``) for deep trenches, dugouts, gas
protection and trench armour; each finding names its rule.

- ASLGW 2.1.4: at most 2 squad-equivalents in a deep trench (A5.1
  equivalence: a half-squad or crew counts 1/2, SMC and SW 0).
- A5.1 (classic stacking, ASLGW foreword): elsewhere at most 3
  squad-equivalents and 4 SMC per side in each stacking location (the hex
  outside any deep trench or dugout, and a dugout apart, 2.2.1).
- ASLGW 2.1, 2.2 (and B27, B30): a unit IN/at crest of a deep trench, in a
  dugout, trench, foxhole or pillbox needs that fortification in its hex.
- ASLGW 1.9.11, 1.9.12: no gas protection before 22 April 1915; Allied
  protection in April 1915 can only be cotton pads; from 22 April to 31 May
  1915 the OB should say what each side has (a warning names the default).
- ASLGW 1.8: trench armour is worn by infantry, not by a support weapon.
"""

from __future__ import annotations

from collections.abc import Iterator

from gwasl.model.scenario import GasProtection, Scenario, UnitKind
from gwasl.model.scenario_io import Finding as _Finding
from gwasl.rules.gas import gas_protection, gas_table
from gwasl.rules.morale import asl_core, stacking_equivalents
from gwasl.rules.trenches import POSITION_FORTIFICATION, deep_trench_stacking_limit, separate_stacking_locations
from gwasl.rules.validate import scenario_check

__all__ = ["check_deep_trench_stacking", "check_hex_stacking", "check_positions", "check_gas_protection", "check_trench_armour"]


def Finding(path: str, message: str, rule: str, severity: str = "error") -> _Finding:
    """A finding whose message also names its rule: CONTRACTS 4 promises only
    path and message in ``gwasl validate --json``."""
    return _Finding(path, f"{message} ({rule})", rule, severity)


@scenario_check
def check_deep_trench_stacking(s: Scenario) -> Iterator[_Finding]:
    """ASLGW 2.1.4: the stacking limit of a deep trench is 2 squads."""
    limit = deep_trench_stacking_limit()
    index = {u.id: i for i, u in enumerate(s.units)}
    for (h, where), units in sorted(separate_stacking_locations(s.units).items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if where != "deep_trench":
            continue
        for side in sorted({u.side for u in units}):
            mine = [u for u in units if u.side == side]
            n = stacking_equivalents(mine)
            if n > limit:
                first = index[mine[0].id]
                yield Finding(
                    f"$.units[{first}].in",
                    f"deep trench {h}: {n:g} squad-equivalents of side {side!r} ({', '.join(u.id for u in mine)}); "
                    f"the limit is {limit} squads (a half-squad or crew counts 1/2)",
                    "ASLGW 2.1.4",
                )


_SMC = (UnitKind.LEADER, UnitKind.HERO)


@scenario_check
def check_hex_stacking(s: Scenario) -> Iterator[_Finding]:
    """A5.1 (classic ASL, which ASLGW keeps outside deep trenches): each side
    may have at most 3 squad-equivalents and 4 SMC in a stacking location.
    The deep trench has its own limit (ASLGW 2.1.4, see
    :func:`check_deep_trench_stacking`); a dugout stacks apart from the rest
    of its hex (ASLGW 2.2.1) with the classic limits.  A scenario file is a
    set-up, where overstacking is not allowed.
    """
    core = asl_core()
    rule = core.rules["stacking"]
    index = {u.id: i for i, u in enumerate(s.units)}
    for (h, where), units in sorted(separate_stacking_locations(s.units).items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if where == "deep_trench":
            continue
        place = f"hex {h}" if where == "hex" else f"the dugout of {h}"
        for side in sorted({u.side for u in units}):
            mine = [u for u in units if u.side == side]
            path = f"$.units[{index[mine[0].id]}].hex"
            n = stacking_equivalents(mine)
            if n > core.stacking_squads:
                yield Finding(path, f"{place}: {n:g} squad-equivalents of side {side!r} "
                              f"({', '.join(u.id for u in mine if stacking_equivalents([u]))}); the limit is "
                              f"{core.stacking_squads} squads (a half-squad or crew counts 1/2)", rule)
            smc = [u.id for u in mine if u.kind in _SMC]
            if len(smc) > core.stacking_smc:
                yield Finding(path, f"{place}: {len(smc)} SMC of side {side!r} ({', '.join(smc)}); "
                              f"the limit is {core.stacking_smc} SMC", rule)


_POSITION_RULE = {
    "trench": "B27",
    "deep_trench": "ASLGW 2.1",
    "deep_trench_crest": "ASLGW 2.1.1",
    "dugout": "ASLGW 2.2",
    "foxhole": "B27",
    "pillbox": "B30",
}


@scenario_check
def check_positions(s: Scenario) -> Iterator[_Finding]:
    """A unit's position needs the fortification in its hex (ASLGW 2.1, 2.2; B27, B30)."""
    for i, u in enumerate(s.units):
        kind = POSITION_FORTIFICATION.get(u.position)
        if kind is not None and not s.map.has_fortification(u.hex, kind):
            yield Finding(f"$.units[{i}].in", f"unit {u.id} is {u.position.value} but hex {u.hex} has no {kind.value}",
                          _POSITION_RULE[u.position.value])


@scenario_check
def check_gas_protection(s: Scenario) -> Iterator[_Finding]:
    """ASLGW 1.9.11 (none before 22 April 1915) and 1.9.12 (Allies: cotton pads in April 1915)."""
    t = gas_table()
    for sid, side in s.sides.items():
        p = side.gas_protection
        path = f"$.sides.{sid}.gas_protection"
        if p is None and t.no_protection_before <= s.date < t.masks_from:
            yield Finding(f"$.sides.{sid}", f"side {sid!r}: before {t.masks_from.isoformat()} the OB should say whether "
                          f"it has gas protection; gwasl assumes {gas_protection(s, sid).protection.value}",
                          "ASLGW 1.9.11, 1.9.12", "warning")
        if p is None or p is GasProtection.NONE:
            continue
        if s.date < t.no_protection_before:
            yield Finding(path, f"side {sid!r} has {p.value}, but nobody has gas protection before "
                                f"{t.no_protection_before.isoformat()} (scenario date {s.date.isoformat()})", "ASLGW 1.9.11")
        elif (s.date.year, s.date.month) == t.allied_pads_month and side.nationality in t.allied and p is GasProtection.MASK:
            yield Finding(path, f"side {sid!r} ({side.nationality.value}) has masks, but Allied gas protection in "
                                "April 1915 can only be cotton pads", "ASLGW 1.9.12")


@scenario_check
def check_trench_armour(s: Scenario) -> Iterator[_Finding]:
    """ASLGW 1.8: trench armour is worn by infantry."""
    for i, u in enumerate(s.units):
        if u.trench_armour and u.kind is UnitKind.SUPPORT_WEAPON:
            yield Finding(f"$.units[{i}].trench_armour", f"support weapon {u.id} cannot wear trench armour", "ASLGW 1.8")
