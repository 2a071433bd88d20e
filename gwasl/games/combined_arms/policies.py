"""Policies that play your side in batch play (CONTRACTS 6); the first is the default.

* ``random``: a random legal action, drawn in two steps: first uniformly among
  the platoons that can act and the phase's other choices (end the phase, end
  the game, call the mortars, resolve the attack), then uniformly among that
  choice's legal actions.  Pending choices (roll order, which platoon breaks)
  are uniform.
"""

from __future__ import annotations

from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Policy, Seat
from gwasl.engine.record import Record
from gwasl.games.combined_arms.records import EndGame, EndPhase, Resolve
from gwasl.games.combined_arms.state import FIRE, MOVE, UNIT_IDS, State

__all__ = ["POLICIES", "random_policy"]


class _Rng:
    """Policy randomness from the game's dice stream (so batch games replay from the seed)."""

    def __init__(self, dice: GameDice) -> None:
        self.dice = dice

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), from logged dice."""
        if n <= 1:
            return 0
        if n <= 6:
            return self.dice.randrange(n, "random policy")
        # compose base-6 digits with rejection
        span, k = 1, 0
        while span < n:
            span *= 6
            k += 1
        accepted = span - span % n
        while True:
            v = 0
            for _ in range(k):
                v = v * 6 + self.dice.dr("random policy").total - 1
            if v < accepted:
                return v % n


def _game() -> Any:
    from gwasl.games.combined_arms.game import CombinedArmsGame

    return CombinedArmsGame()


_GAME: Any = None


def game() -> Any:
    global _GAME
    if _GAME is None:
        _GAME = _game()
    return _GAME


def choices(s: State) -> list[list[Record]]:
    """The legal actions of the player now, grouped: one group per platoon that can act,
    the mortar calls, and each other action alone."""
    g = game()
    if s.breaks or s.rolls or s.phase not in (MOVE, FIRE):
        return [[a] for a in g._attacker_actions(s)]
    groups: list[list[Record]] = []
    for u in range(len(UNIT_IDS)):
        acts = g.unit_actions(s, u)
        if acts:
            groups.append(acts)
    if s.phase == FIRE:
        calls = g.mortar_actions(s)
        if calls:
            groups.append(calls)
        groups.append([Resolve()] if s.group else [EndPhase()])
    else:
        groups.append([EndPhase()])
        if s.turn >= 2 and not s.acted:
            groups.append([EndGame()])
    return groups


def random_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """A random legal action (module docstring)."""
    s: State = seat.view()
    rng = _Rng(dice)
    groups = choices(s)
    group = groups[rng.below(len(groups))]
    action = group[rng.below(len(group))]
    return Decision(action, "random")


POLICIES: dict[str, Policy] = {"random": random_policy}

