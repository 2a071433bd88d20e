"""The one seeded dice stream of a game in play.

Every die of a game comes from one stream addressed by position: die number
``n`` of seed ``s`` is a fixed function of ``(s, n)`` (BLAKE2b, eight dice
per digest).  So a game replays exactly from its seed, a saved game knows
where its stream stands from its journal alone, and a take-back never
rewinds the dice (the next roll after a take-back is a new one).

>>> a, b = GameDice(seed=42), GameDice(seed=42, position=2)
>>> first = a.DR("test").dice
>>> a.position == 2 and b.dr("next").dice[0] == a.dr("next").dice[0]
True
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Mapping

from gwasl.engine.events import Rolled
from gwasl.model.errors import GwaslError
from gwasl.rules.dice import Dice, Modifier, Roll

__all__ = ["GameDice", "die_at"]

_PER_DIGEST = 8
#: a digest read as its 8 little-endian 64-bit numbers, one per die (as die_at reads them)
_EIGHT = struct.Struct("<8Q")


def _digest(seed: int, block: int) -> bytes:
    return hashlib.blake2b(f"gwasl-dice:{seed}:{block}".encode(), digest_size=64).digest()


def die_at(seed: int, position: int) -> int:
    """Die number ``position`` (from 0) of the stream of ``seed``: 1-6."""
    d = _digest(seed, position // _PER_DIGEST)
    i = (position % _PER_DIGEST) * 8
    return int.from_bytes(d[i : i + 8], "little") % 6 + 1


class ChoicesError(GwaslError):
    """A uniform choice among more than one die can give in one roll."""


class GameDice(Dice):
    """A :class:`~gwasl.rules.dice.Dice` whose dice come from the game's stream.

    ``position`` counts the dice drawn since the game began (taken-back rolls
    included); :attr:`log` holds the rolls made through this object, which
    the session checks against the events an action produced.
    """

    def __init__(self, seed: int, position: int = 0) -> None:
        super().__init__(seed=seed)
        self.position = position
        self._block = -1
        self._faces: list[int] = []  # the dice of block ``_block``
        self._starts: list[int] = []  # stream position of each logged roll's first die

    def _record(self, cause: str, dice: tuple[int, ...], modifiers: Mapping[str, int] | Iterable[Modifier] | None) -> Roll:
        self._starts.append(self.position - len(dice))
        return super()._record(cause, dice, modifiers)

    def again(self, roll: Roll, cause: str, modifiers: Mapping[str, int] | Iterable[Modifier] | None = None) -> Roll:
        """:meth:`Dice.again`: the reading's event points at the same dice of the stream."""
        self._starts.append(self._starts[roll.seq])
        return Dice._record(self, cause, roll.dice, modifiers)

    def private(self, side: str, position: int = 0) -> GameDice:
        """The private stream of ``side`` at ``position``: dice a viewer must not see (a
        secret side's shift DR) come from it, so they move neither the public stream's
        positions nor anything else a viewer can count.  Its seed is derived from the
        game's and the side's id; the game keeps each side's position in its state.

        >>> d = GameDice(7)
        >>> p = d.private("german")
        >>> _ = p.dr("secret"); d.position, p.position
        (0, 1)
        >>> d.private("german").dr("again").dice == GameDice(7).private("german").dr("x").dice
        True
        """
        derived = int.from_bytes(hashlib.blake2b(f"gwasl-secret:{self.seed}:{side}".encode(), digest_size=8).digest(), "little")
        return GameDice(derived, position)

    def event(self, roll: Roll, private_to: str | None = None) -> Rolled:
        """The :class:`Rolled` event of a roll made with these dice (for an action's event list)."""
        return Rolled.of(roll, self._starts[roll.seq], private_to)

    def roll_events(self) -> list[Rolled]:
        """Every roll made with these dice, as events, in order."""
        return [self.event(r) for r in self.log]

    def _die(self) -> int:
        pos = self.position
        block = pos // _PER_DIGEST
        if block != self._block:
            d = _digest(self.seed, block)
            self._block, self._faces = block, [x % 6 + 1 for x in _EIGHT.unpack(d)]
        self.position = pos + 1
        return self._faces[pos % _PER_DIGEST]

    def unlogged(self, n: int = 1) -> int:
        """The sum of the next ``n`` dice of the stream, drawn without a logged roll: for
        batch play's quiet paths (``Game.step``, quiet seats), where nobody reads the rolls
        but the stream must move exactly as the logged rolls would move it.

        >>> a, b = GameDice(5), GameDice(5)
        >>> a.unlogged(2) == b.DR("x").total and a.position == b.position == 2 and not a.log
        True
        """
        if n == 1:
            return self._die()
        if n == 2:
            return self._die() + self._die()
        total = 0
        for _ in range(n):
            total += self._die()
        return total

    def randrange(self, n: int, cause: str) -> int:
        """A uniform choice among ``n`` (a tie-break), from dice of the stream, logged.

        Rolls one die at a time and rejects, so every choice is exactly uniform;
        each die used is a logged roll with ``cause``.

        Raises :class:`ChoicesError` (a uniform choice among more than one die can give in one roll).
        """
        if n <= 1:
            return 0
        if n <= 6:
            while True:
                r = self.dr(cause)
                accepted = 6 - 6 % n  # 1..accepted split into n equal runs
                if r.total <= accepted:
                    return (r.total - 1) * n // accepted
        raise ChoicesError("randrange over more than 6 choices: roll in steps")
