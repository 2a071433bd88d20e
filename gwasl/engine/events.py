"""Events every game shares: a die roll, an automated side's decision.

A game's own events live in its package and are registered in a registry
that extends :data:`ENGINE_EVENTS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from gwasl.engine.record import Record, Registry
from gwasl.rules.dice import Modifier, Roll

__all__ = ["ENGINE_EVENTS", "Decided", "Drm", "Rolled"]

ENGINE_EVENTS = Registry("engine event")


@dataclass(frozen=True)
class Drm(Record):
    """One die roll modifier and its cause, the cause naming its rule."""

    kind: ClassVar[str] = "drm"
    cause: str
    value: int


@ENGINE_EVENTS.register
@dataclass(frozen=True)
class Rolled(Record):
    """A roll of the game's dice (CONTRACTS 5: kind ``roll``, with ``dice``,
    ``modifiers`` and ``final``).

    ``n`` is the position of its first die in the game's stream; ``cause``
    says why it was rolled and which rule applies; ``private_to`` names the
    side whose secret the roll concerns (others see it only as the game's
    ``event_view`` allows), or ``None`` for a roll everyone sees.
    """

    kind: ClassVar[str] = "roll"
    n: int
    cause: str
    dice: tuple[int, ...]
    modifiers: tuple[Drm, ...] = ()
    final: int = 0
    private_to: str | None = None

    @classmethod
    def of(cls, roll: Roll, n: int, private_to: str | None = None) -> Rolled:
        mods = tuple(Drm(m.cause, m.value) for m in roll.modifiers)
        return cls(n, roll.cause, tuple(roll.dice), mods, roll.final, private_to)

    @property
    def total(self) -> int:
        return sum(self.dice)

    def explain(self) -> str:
        """``cause: 3+4 +1 (cause) = 8``."""
        mods = "".join(f" {m.value:+d} ({m.cause})" for m in self.modifiers)
        return f"{self.cause}: {'+'.join(map(str, self.dice))}{mods} = {self.final}"

    def data(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "modifiers": [{"cause": m.cause, "value": m.value} for m in self.modifiers],
                "final": self.final}

    def as_roll(self) -> Roll:
        return Roll(self.n, self.cause, self.dice, tuple(Modifier(m.cause, m.value) for m in self.modifiers))


@ENGINE_EVENTS.register
@dataclass(frozen=True)
class Decided(Record):
    """An automated side's decision: what it chose and why (candidates, scores,
    rule numbers in ``details``).  ``private_to`` as for :class:`Rolled`.

    ``public``: the policy declares its ``why`` (never its ``details``) free of hidden
    facts, because the action it explains shows them anyway (a fire reveals its
    firers): every viewer reads the why even when the side is kept secret."""

    kind: ClassVar[str] = "decision"
    side: str
    why: str
    details: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    private_to: str | None = None
    public: bool = False
