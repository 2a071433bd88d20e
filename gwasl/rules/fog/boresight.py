"""Undetermined bore-sighted locations and OBA pre-registered hexes (O'Leary 6, 7).

Instead of choosing at set-up, a weapon that may bore sight rolls an
optional third die each time it fires (6.1): 1-2 the target location is its
bore-sighted location from now on; 3-5 not yet; 6 a direction die and a
distance die move the point, and the hex reached becomes it if it could have
been bore sighted.  Several weapons firing together may share one die if the
grouping is chosen before the roll (6.3).  OBA modules do the same with their
pre-registered hex, after placing an AR and before the accuracy roll (7.1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.rules.dice import Dice, Roll
from gwasl.rules.fog.state import FogState
from gwasl.rules.fog.table import FogTable, fog_table

__all__ = ["ThirdDieResult", "ThirdDieError", "bore_sight_die", "pre_registration_die", "scatter"]

# (hex) -> could this hex hold the weapon's bore-sighted location / the module's pre-registered hex?
CandidateFn = Callable[[Hex], bool]


class ThirdDieError(GwaslError):
    """A third die asked for a weapon or module that cannot roll one."""


@dataclass(frozen=True, slots=True)
class ThirdDieResult:
    """Outcome of one third die: ``fixed`` is the hex now bore sighted / pre-registered, or None.

    ``side`` rolled it; the enemy learns nothing of it (a bore-sighted hex is secret
    until it matters, as in FTF play).  ``rule``: 6.1 (bore sight) or 7.1 (pre-registration)."""

    state: FogState
    roll: Roll
    outcome: str  # "fixed", "not_yet", "scattered", "scattered_off"
    fixed: Hex | None
    scatter_rolls: tuple[Roll, ...] = ()
    members: tuple[str, ...] = ()
    side: str = ""
    rule: str = "O'Leary 6.1"


def scatter(h: Hex, direction_die: int, distance_die: int) -> Hex:
    """O'Leary 6.1: the hex ``distance_die`` hexes from ``h`` in the direction of
    ``direction_die`` (1 = north, then clockwise, as the hexgrid directions).

    >>> scatter(Hex.from_label("E5"), 1, 2).label
    'E3'
    """
    out = h
    for _ in range(distance_die):
        out = out.neighbour(direction_die - 1)
    return out


def _third_die(dice: Dice, cause: str, target: Hex, could_be: CandidateFn, table: FogTable) -> tuple[str, Hex | None, Roll, tuple[Roll, ...]]:
    roll = dice.dr(cause)
    d = roll.total
    if d in table.third_die_fixes:
        return "fixed", target, roll, ()
    if d in table.third_die_not_yet:
        return "not_yet", None, roll, ()
    direction = dice.dr(f"{cause}: direction")
    distance = dice.dr(f"{cause}: distance")
    h = scatter(target, direction.total, distance.total)
    if could_be(h):
        return "scattered", h, roll, (direction, distance)
    return "scattered_off", None, roll, (direction, distance)


def bore_sight_die(state: FogState, unit_ids: Iterable[str], target: Hex, dice: Dice, could_be: CandidateFn,
                   table: FogTable | None = None) -> ThirdDieResult:
    """O'Leary 6.1-6.3: one optional third die for the weapons ``unit_ids`` (one weapon,
    or a group sharing the die, decided before it is thrown) firing at ``target``.

    Each weapon must still have an undetermined bore-sighted location and be
    eligible (6.1; 2.3: it has not changed location except by shifting).
    """
    t = table or fog_table()
    ids = tuple(unit_ids)
    recs = {b.unit_id: b for b in state.bore_sight}
    for i in ids:
        b = recs.get(i)
        if b is None:
            raise ThirdDieError(f"{i} may not bore sight (O'Leary 6.1)")
        if b.hex is not None:
            raise ThirdDieError(f"{i} already has its bore-sighted location {b.hex} (O'Leary 6.1)")
        if not b.eligible:
            raise ThirdDieError(f"{i} has changed location other than by shifting and lost bore sighting (O'Leary 2.3, 6.1)")
    if not ids:
        raise ThirdDieError("no weapon named for the third die (O'Leary 6.3)")
    cause = f"O'Leary 6.1 bore-sight third die for {', '.join(ids)} at {target}"
    outcome, fixed, roll, extra = _third_die(dice, cause, target, could_be, t)
    st = state
    if fixed is not None:
        st = replace(st, bore_sight=tuple(replace(b, hex=fixed) if b.unit_id in ids else b for b in st.bore_sight))
    return ThirdDieResult(st, roll, outcome, fixed, extra, ids, recs[ids[0]].side, "O'Leary 6.1")


def pre_registration_die(state: FogState, module: str, ar_hex: Hex, dice: Dice, could_be: CandidateFn,
                         table: FogTable | None = None) -> ThirdDieResult:
    """O'Leary 7.1: after placing an AR and before the accuracy roll, one optional die
    for an OBA module whose pre-registered hex is undetermined.  The AR may not be
    moved after this die."""
    t = table or fog_table()
    rec = next((p for p in state.pre_registration if p.module == module), None)
    if rec is None:
        raise ThirdDieError(f"OBA module {module!r} has no pre-registered hex to determine (O'Leary 7.1)")
    if rec.hex is not None:
        raise ThirdDieError(f"OBA module {module!r} is already pre-registered on {rec.hex} (O'Leary 7.1)")
    cause = f"O'Leary 7.1 pre-registration die for {module} at AR {ar_hex}"
    outcome, fixed, roll, extra = _third_die(dice, cause, ar_hex, could_be, t)
    st = state
    if fixed is not None:
        st = replace(st, pre_registration=tuple(replace(p, hex=fixed) if p.module == module else p
                                                for p in st.pre_registration))
    return ThirdDieResult(st, roll, outcome, fixed, extra, (module,), rec.side, "O'Leary 7.1")
