"""Advice: the private dice a hint draws its lookahead from, and a ranked suggestion.

A hint for the person at the desk (``gwasl game suggest``, Game > Suggest a move) may
look ahead: try a plan, roll its dice, see how it ends.  If it rolled the game's own
stream (:class:`~gwasl.engine.dice.GameDice` at the game's position) it would roll the
very dice the game is about to roll, and its advice would pass them on ("run now: the
die will be a 6").  So advice rolls :class:`AdviceDice`: a stream of its own, derived
from the game's seed, a fixed salt and the position by a one-way hash, with dice from a
digest of its own, so nothing about it says anything about the public stream's
coming dice (and a change to those dice changes nothing of it: the tests replace them).
The same moment of the same game gives the same stream, so a hint is reproducible.

>>> from gwasl.engine.dice import GameDice
>>> a, b = AdviceDice(7, 12), AdviceDice(7, 12)
>>> a.dr("x").dice == b.dr("x").dice and a.seed != 7
True
>>> AdviceDice(7, 12, rollout=1).seed != a.seed != AdviceDice(7, 13).seed
True

A ranked suggestion is a :class:`Candidate` per plan tried: its first action, its
reason, and its win chance with the number of rollouts it rests on (or exact, where
the game computes it without dice).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Policy, Seat
from gwasl.engine.record import Record

__all__ = ["ADVICE_SALT", "ADVISOR", "AdviceDice", "Advises", "Advisor", "Candidate", "candidates_of"]

#: the salt of the advice stream's seed and dice: another stream than the game's and its sides' private ones
ADVICE_SALT = "gwasl-advice"
_EIGHT = struct.Struct("<8Q")
#: the name a suggestion by an advisor goes by (where a single policy's goes by the policy's)
ADVISOR = "advisor"


class AdviceDice(GameDice):
    """The advice stream of the game of ``seed`` at dice position ``at`` (the public
    stream's position when the hint is asked), rollout ``rollout``: dice for lookahead
    that neither are nor predict the game's dice (module docstring).  ``rollout`` gives
    each rollout a stream of its own, the same for every plan tried (common dice, so
    plans are compared on the same luck)."""

    def __init__(self, seed: int, at: int = 0, rollout: int = 0) -> None:
        key = f"{ADVICE_SALT}:{seed}:{at}:{rollout}".encode()
        super().__init__(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"), 0)
        self._game_seed, self._at = seed, at

    def rollout(self, i: int) -> AdviceDice:
        """The stream of rollout ``i`` (from 1) at the same moment: independent of this one."""
        return AdviceDice(self._game_seed, self._at, i)

    def _die(self) -> int:
        # not GameDice's digest: the advice stream is made apart from the public stream's function
        pos = self.position
        block = pos // 8
        if block != self._block:
            d = hashlib.blake2b(f"{ADVICE_SALT}-dice:{self.seed}:{block}".encode(), digest_size=64).digest()
            self._block, self._faces = block, [x % 6 + 1 for x in _EIGHT.unpack(d)]
        self.position = pos + 1
        return self._faces[pos % 8]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One plan an advisor tried: its name, its first action, why (the plan's own reason),
    its win chance (``exact``: computed without dice; else the mean over ``rollouts``)."""

    plan: str
    action: Record
    why: str
    win_chance: float
    rollouts: int
    exact: bool = False

    def chance_text(self) -> str:
        """The win chance as a person reads it, with what it rests on."""
        if self.exact:
            return f"{self.win_chance:.1%} (exact)"
        return f"{self.win_chance:.1%} ({self.rollouts} rollouts)"

    def to_json(self) -> dict[str, Any]:
        return {"plan": self.plan, "action": self.action.to_json(), "why": self.why,
                "win_chance": round(self.win_chance, 4), "rollouts": self.rollouts, "exact": self.exact}


#: an advisor: ``advise(seat, policies, dice) -> Decision`` whose ``details["candidates"]``
#: holds the :class:`Candidate` list, best first; it rolls only ``dice`` (an AdviceDice)
class Advisor(Protocol):
    def __call__(self, seat: Seat[Any], policies: Mapping[str, Policy], dice: AdviceDice) -> Decision: ...


@runtime_checkable
class Advises(Protocol):
    """A game whose suggestion ranks plans by lookahead (:meth:`advisor`)."""

    def advisor(self) -> Advisor: ...


def candidates_of(decision: Decision) -> Sequence[Candidate]:
    """The ranked candidates of an advisor's decision (none for a single policy's)."""
    found = decision.details.get("candidates", ())
    return tuple(c for c in found if isinstance(c, Candidate))
