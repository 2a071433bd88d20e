"""Policies that play your side in batch play (CONTRACTS 6); the first is the default.

* ``commander`` (the default: the best measured, docs/combined-arms.md): the raid or the
  sweep chosen per board from the exact chance of ending after turn 1, and the game ended
  once ending now wins often enough (:mod:`.policies_commander`).
* ``raid``: one rifle company assaults the nearest counters under MMG and mortar cover
  (:mod:`.tactics`).
* ``cautious``: stays off the board and ends the game after turn 1, so the final
  reveals alone score.
* ``planner``: the fighting heuristic of :mod:`.planner`.
* ``assault``: the raid on a board of more than 13 counters; on a lighter one every company
  assaults, the game goes on past a break and the battalion exploits (:mod:`.policies_assault`;
  not better than the raid as measured, docs/combined-arms.md).
* ``breakthrough``: the commander, and where the raid has broken an enemy platoon, rifle
  platoons exploit off the enemy edge instead of the game ending, while the loss track allows
  (:mod:`.policies_breakthrough`; seventh round, docs/combined-arms.md).
* ``random``: a random legal action, drawn in two steps: first uniformly among
  the platoons that can act and the phase's other choices (end the phase, end
  the game, call the mortars, resolve the attack), then uniformly among that
  choice's legal actions.  Pending choices (roll order, which platoon breaks)
  are uniform.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, GameError, Policy, Seat
from gwasl.engine.record import Record
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import choices as C
from gwasl.games.combined_arms.records import CallMortar, EndGame, EndPhase, Resolve
from gwasl.games.combined_arms.state import FIRE, MOVE, OFFBOARD, UNIT_IDS, State

__all__ = ["POLICIES", "random_policy"]


class _Rng:
    """Policy randomness from the game's dice stream, so batch games replay from the seed:
    one logged die per decision, whose stream position seeds a small generator (a 64-bit
    linear congruential one, plenty for picking among a few dozen choices)."""

    _MUL, _INC, _MASK = 6364136223846793005, 1442695040888963407, (1 << 64) - 1

    def __init__(self, dice: GameDice, quiet: bool = False) -> None:
        # a quiet seat (batch play) draws the same die without a logged roll
        d = dice.unlogged() if quiet else dice.dr("random policy").total
        self._x = (dice.seed * 1_000_003 + dice.position * 7 + d) & self._MASK

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (n is small, so the modulo bias is negligible)."""
        if n <= 1:
            return 0
        self._x = (self._x * self._MUL + self._INC) & self._MASK
        return (self._x >> 33) % n


def choices(s: State) -> list[list[Record]]:
    """The legal actions of the player now, grouped: one group per platoon that can act,
    the mortar calls, and each other action alone."""
    if s.breaks or s.rolls or s.phase not in (MOVE, FIRE):
        return [[a] for a in C.attacker_actions(s)]
    groups: list[list[Record]] = []
    for u in range(len(UNIT_IDS)):
        acts = C.unit_actions(s, u)
        if acts:
            groups.append(acts)
    if s.phase == FIRE:
        calls = C.mortar_actions(s)
        if calls:
            groups.append(calls)
        groups.append([Resolve()] if s.group else [EndPhase()])
    else:
        groups.append([EndPhase()])
        if s.turn >= 2 and not s.acted:
            groups.append([EndGame()])
    return groups


def random_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """A random legal action (module docstring).  The choice is drawn by rejection:
    a choice without a legal action is dropped and the draw repeated, which gives the
    same distribution as listing every group first, without building every list."""
    s: State = seat.view()
    rng = _Rng(dice, seat.quiet)
    if s.breaks or s.rolls or s.phase not in (MOVE, FIRE):
        acts = seat.legal()
        return Decision(acts[rng.below(len(acts))], "random", _NO_DETAILS)
    # the choices: a platoon that may act (its index), or one of the phase's other choices
    move = s.phase == MOVE
    pool = [u for u, unit in enumerate(s.units) if unit.fresh and (unit.where >= 0 or (move and unit.where == OFFBOARD))]
    if move:
        pool.append(_END_PHASE)
        if s.turn >= 2 and not s.acted:
            pool.append(_END_GAME)
    else:
        pool.append(_MORTARS)
        pool.append(_RESOLVE_OR_END)
    while pool:
        k = rng.below(len(pool))
        c = pool[k]
        if c >= 0:
            opts = C.unit_options(s, c)
            if opts:  # only the action picked is built
                return Decision(C.option_action(UNIT_IDS[c], opts[rng.below(len(opts))]), "random", _NO_DETAILS)
        else:
            acts = _OTHER[c](s)
            if acts:
                return Decision(acts[rng.below(len(acts))], "random", _NO_DETAILS)
        pool.pop(k)
    raise GameError("combined-arms: the player has no legal action")


_NO_DETAILS: Mapping[str, Any] = MappingProxyType({})
# the phase's choices other than a platoon's, in the order they join the pool
_MORTARS, _RESOLVE_OR_END, _END_PHASE, _END_GAME = -1, -2, -3, -4
_OTHER: dict[int, Callable[[State], Sequence[Record]]] = {
    _MORTARS: lambda s: _Calls(C.mortar_options(s)),
    _RESOLVE_OR_END: lambda s: [Resolve()] if s.group else [EndPhase()],
    _END_PHASE: lambda s: [EndPhase()],
    _END_GAME: lambda s: [EndGame()],
}


class _Calls(Sequence[Record]):
    """The mortar calls as a sequence that builds only the call picked."""

    __slots__ = ("_opts",)

    def __init__(self, opts: list[tuple[int, str]]) -> None:
        self._opts = opts

    def __len__(self) -> int:
        return len(self._opts)

    def __getitem__(self, i: Any) -> Any:
        h, ammo = self._opts[i]
        return CallMortar(B.label(h), ammo)


def cautious_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """Never enters the board and ends the game after turn 1: the final reveals alone
    score every real enemy platoon and ATG left in play (CA Victory).  A reference for
    what the other policies add by fighting."""
    s: State = seat.view()
    if s.phase == MOVE and s.turn >= 2 and not s.acted:
        return Decision(EndGame(), "cautious: end the game and let the final reveals score")
    if s.breaks or s.rolls:
        acts = seat.legal()
        return Decision(acts[0], "cautious: the first choice")
    return Decision(EndPhase(), "cautious: stay off the board")


def _planner() -> Policy:
    from gwasl.games.combined_arms.planner import planner_policy

    return planner_policy


def _assault() -> Policy:
    from gwasl.games.combined_arms.policies_assault import assault_policy

    return assault_policy


def _commander() -> Policy:
    from gwasl.games.combined_arms.policies_commander import commander_policy

    return commander_policy


def _breakthrough() -> Policy:
    from gwasl.games.combined_arms.policies_breakthrough import breakthrough_policy

    return breakthrough_policy


def _raid() -> Policy:
    from gwasl.games.combined_arms.tactics import raid_policy

    return raid_policy


#: the batch policies, best first (measured paired on seeds 0-1999: docs/combined-arms.md)
POLICIES: dict[str, Policy] = {"commander": _commander(), "breakthrough": _breakthrough(), "raid": _raid(),
                               "assault": _assault(), "cautious": cautious_policy, "planner": _planner(), "random": random_policy}

