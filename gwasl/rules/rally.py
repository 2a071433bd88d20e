"""Rally and repair in the Rally Phase (classic A10.6-A10.7, A9.72; ASLGW 1.3).

ASLGW keeps classic rally (its foreword) and changes only whose leadership
counts: a leader's modifier applies to units stacked with him (ASLGW 1.3).
Every number is in gwasl/resources/infantry_combat.json (``rally``) and
asl_core.json (DM +4).  The outcome of a roll is read by one function,
:func:`rally_outcome`, which both :func:`rally_check` and
:func:`rally_distribution` use.

>>> from gwasl.model.scenario import Terrain
>>> mods = rally_modifiers(dm=True, leader_modifier=-1, self_rally_mmc=False, terrain=Terrain.WOODS, in_fortification=False)
>>> [(m.value) for m in mods]
[4, -1, -1]
>>> rally_outcome((3, 4), morale=7, drm=0), rally_outcome((6, 6), morale=9, drm=-5)
('rallied', 'casualty_reduction')
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.scenario import Terrain
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Dice, Modifier, Roll, as_modifiers
from gwasl.rules.ift import two_dice
from gwasl.rules.morale import dm_rally_modifier

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "RallyResult",
    "RepairResult",
    "rally_check",
    "rally_distribution",
    "rally_modifiers",
    "rally_outcome",
    "repair_check",
    "repair_distribution",
    "repair_outcome",
]


def rally_modifiers(*, dm: bool, leader_modifier: int | None, self_rally_mmc: bool, terrain: Terrain,
                    in_fortification: bool, leader_id: str = "leader") -> tuple[Modifier, ...]:
    """The DRMs of a rally attempt (A10.6, A10.61, A10.62; ASLGW 1.3).

    * DM +4 (A10.62);
    * the leadership of a Good Order leader stacked with the unit (ASLGW 1.3),
      ``leader_modifier`` None when there is none (or the unit rallies itself);
    * +1 for an MMC rallying itself with no leader (A10.61);
    * -1 in woods, a building or rubble, or IN a fortification (A10.61; the
      better of the two, they do not add).
    """
    t = combat_table().rally
    out: list[Modifier] = []
    d = dm_rally_modifier(dm)
    if d is not None:
        out.append(d)
    if leader_modifier:
        out.append(Modifier(f"leadership of {leader_id} (A10.6, ASLGW 1.3)", leader_modifier))
    if self_rally_mmc:
        out.append(Modifier("self-rally without a leader (A10.61)", t.self_rally_mmc_drm))
    terrain_drm = t.terrain_drm.get(terrain, 0)
    fort_drm = t.fortification_drm if in_fortification else 0
    best = min(terrain_drm, fort_drm)
    if best:
        where = f"in {terrain.value.replace('_', ' ')}" if terrain_drm <= fort_drm else "IN a fortification"
        out.append(Modifier(f"rallying {where} (A10.61)", best))
    return tuple(out)


def rally_outcome(dice: tuple[int, int], *, morale: int, drm: int) -> str:
    """``rallied`` (final DR <= morale), ``failed`` or, on an original 12,
    ``casualty_reduction`` (A10.61)."""
    original = dice[0] + dice[1]
    if original == 12 and combat_table().rally.original_12 == "casualty_reduction":
        return "casualty_reduction"
    return "rallied" if original + drm <= morale else "failed"


@dataclass(frozen=True, slots=True)
class RallyResult:
    roll: Roll
    morale: int
    outcome: str  # rallied / failed / casualty_reduction

    @property
    def rallied(self) -> bool:
        return self.outcome == "rallied"


def rally_check(dice: Dice, morale: int, modifiers: tuple[Modifier, ...], cause: str) -> RallyResult:
    """Roll a rally attempt (A10.6) and read it with :func:`rally_outcome`.

    >>> from gwasl.rules.dice import ScriptedDice
    >>> rally_check(ScriptedDice([3, 4]), 7, (), "rally").outcome
    'rallied'
    """
    roll = dice.DR(cause, as_modifiers(modifiers))
    return RallyResult(roll, morale, rally_outcome((roll.dice[0], roll.dice[1]), morale=morale, drm=roll.drm))


def rally_distribution(morale: int, drm: int) -> dict[str, Fraction]:
    """The exact chance of each rally outcome (A10.6; all 36 DR).

    >>> rally_distribution(7, 4)["rallied"]
    Fraction(1, 12)
    """
    out: dict[str, Fraction] = {}
    for d in two_dice():
        o = rally_outcome(d, morale=morale, drm=drm)
        out[o] = out.get(o, Fraction(0)) + Fraction(1, 36)
    return out


def repair_outcome(dr: int, repair_number: int) -> str:
    """A9.72: a malfunctioned weapon is repaired on a dr <= its R#, eliminated on a 6.

    >>> repair_outcome(1, 2), repair_outcome(4, 2), repair_outcome(6, 3)
    ('repaired', 'still malfunctioned', 'eliminated')
    """
    if dr == 6:
        return "eliminated"
    return "repaired" if dr <= repair_number else "still malfunctioned"


@dataclass(frozen=True, slots=True)
class RepairResult:
    roll: Roll
    outcome: str


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def repair_check(dice: Dice, repair_number: int, cause: str) -> RepairResult:
    """Roll a repair attempt (A9.72) and read it with :func:`repair_outcome`."""
    roll = dice.dr(cause)
    return RepairResult(roll, repair_outcome(roll.total, repair_number))


def repair_distribution(repair_number: int) -> dict[str, Fraction]:
    """The exact chance of each repair outcome (A9.72).

    >>> repair_distribution(2)["repaired"]
    Fraction(1, 3)
    """
    out: dict[str, Fraction] = {}
    for dr in range(1, 7):
        o = repair_outcome(dr, repair_number)
        out[o] = out.get(o, Fraction(0)) + Fraction(1, 6)
    return out
