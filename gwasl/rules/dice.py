"""Dice: one seeded object; every roll is logged with its cause and modifiers.

A game replays exactly from its seed (or from its log of rolls), and every
result can be explained: each :class:`Roll` records what was rolled, why,
which DRM applied and the final total.

>>> dice = Dice(seed=7)
>>> r = dice.DR("NTC", {"Out of Command (ASLGW 1.4.13)": 1})
>>> r.final == r.total + 1
True
>>> dice.log[-1] is r
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["Dice", "Modifier", "Modifiers", "Roll", "ScriptedDice", "DiceError", "as_modifiers", "random_selection"]


class DiceError(GwaslError):
    """A scripted die ran out of values or was given an impossible value."""


@dataclass(frozen=True, slots=True)
class Modifier:
    """One DRM with its cause, e.g. ``Modifier("+1 per earlier shift (O'Leary 2.5)", 1)``."""

    cause: str
    value: int

    def as_json(self) -> dict[str, Any]:
        return {"cause": self.cause, "value": self.value}


@dataclass(frozen=True, slots=True)
class Roll:
    """A logged roll: ``dice`` are the raw dice (one for a dr, two for a DR)."""

    seq: int
    cause: str
    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...] = ()

    @property
    def total(self) -> int:
        """Sum of the dice before modifiers (the "original" DR/dr)."""
        return sum(self.dice)

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def final(self) -> int:
        """Modified result."""
        return self.total + self.drm

    @property
    def is_doubles(self) -> bool:
        return len(self.dice) == 2 and self.dice[0] == self.dice[1]

    @property
    def colored(self) -> int:
        """The coloured die of a DR (the first die), as ASL uses for CR/Heat of Battle."""
        return self.dice[0]

    def explain(self) -> str:
        mods = "".join(f" {m.value:+d} ({m.cause})" for m in self.modifiers)
        dice = "+".join(str(d) for d in self.dice)
        return f"{self.cause}: {dice}{mods} = {self.final}"

    def as_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "cause": self.cause,
            "dice": list(self.dice),
            "modifiers": [m.as_json() for m in self.modifiers],
            "final": self.final,
        }


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


#: DRM as callers give them: ``{cause: value}``, :class:`Modifier` values, or none.
Modifiers: TypeAlias = "Mapping[str, int] | Iterable[Modifier] | None"


def as_modifiers(modifiers: Modifiers) -> tuple[Modifier, ...]:
    """DRM given as ``{cause: value}`` or as :class:`Modifier` values, as a tuple of Modifiers."""
    if not modifiers:
        return ()
    if isinstance(modifiers, Mapping):
        return tuple(Modifier(c, int(v)) for c, v in modifiers.items())
    return tuple(modifiers)


class Dice:
    """The one source of chance.  ``dr`` rolls one die, ``DR`` two.

    Seeded, so the same seed and the same sequence of calls give the same
    rolls; :attr:`log` keeps every roll in order.
    """

    def __init__(self, seed: int | None = None):
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self.log: list[Roll] = []

    def _die(self) -> int:
        return self._rng.randint(1, 6)

    def _record(self, cause: str, dice: tuple[int, ...], modifiers: Modifiers) -> Roll:
        roll = Roll(len(self.log), cause, dice, as_modifiers(modifiers))
        self.log.append(roll)
        return roll

    def dr(self, cause: str, modifiers: Mapping[str, int] | Iterable[Modifier] | None = None) -> Roll:
        """One die (a "dr"), logged with its cause."""
        return self._record(cause, (self._die(),), modifiers)

    def DR(self, cause: str, modifiers: Mapping[str, int] | Iterable[Modifier] | None = None) -> Roll:
        """Two dice (a "DR"), logged with its cause; the first die is the coloured die."""
        return self._record(cause, (self._die(), self._die()), modifiers)

    def again(self, roll: Roll, cause: str, modifiers: Mapping[str, int] | Iterable[Modifier] | None = None) -> Roll:
        """The dice of ``roll`` read again for a check whose Original DR is that roll's
        (e.g. the NMC of a Final Protective Fire, A8.31): no die is thrown; the reading
        is logged with its own cause and modifiers.

        >>> d = ScriptedDice([2, 5])
        >>> r = d.DR("FPF")
        >>> d.again(r, "NMC", {"leadership": -1}).final, len(d.log)
        (6, 2)
        """
        return Dice._record(self, cause, roll.dice, modifiers)


class ScriptedDice(Dice):
    """Dice that return given values in order: for worked examples and replays.

    >>> d = ScriptedDice([3, 4, 6])
    >>> d.DR("MC").total, d.dr("direction").total
    (7, 6)
    """

    def __init__(self, values: Sequence[int]):
        super().__init__(seed=0)
        for v in values:
            if not 1 <= int(v) <= 6:
                raise DiceError(f"a die shows 1-6, not {v}")
        self._values = list(values)

    def _die(self) -> int:
        if not self._values:
            raise DiceError("scripted dice ran out of values")
        return self._values.pop(0)


class NoCandidatesError(DiceError):
    """Random Selection among no candidates (ASL Index)."""


def random_selection(dice: Dice, candidates: Sequence[str], cause: str) -> tuple[str, tuple[Roll, ...]]:
    """Random Selection (ASL Index; used by A7.301, A7.302 and snipers A14.2): each
    candidate rolls a dr, the highest is selected, ties roll again among
    themselves.  Returns the selected id and every roll made, in order.

    >>> random_selection(ScriptedDice([2, 5, 5, 1, 4]), ["a", "b", "c"], "KIA")[0]
    'c'
    >>> random_selection(ScriptedDice([]), ["only"], "K/1")
    ('only', ())

    Raises :class:`NoCandidatesError` (Random Selection among no candidates, ASL Index).
    """
    if not candidates:
        raise NoCandidatesError("Random Selection among no candidates")
    pool = list(candidates)
    rolls: list[Roll] = []
    while len(pool) > 1:
        got = [(dice.dr(f"{cause}: Random Selection, {c}"), c) for c in pool]
        rolls.extend(r for r, _ in got)
        best = max(r.total for r, _ in got)
        pool = [c for r, c in got if r.total == best]
    return pool[0], tuple(rolls)
