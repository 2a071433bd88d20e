"""``commander``: the overall commander's two decisions, taken on the exact odds of ending
the game (issue 27 item 12): which attack the board calls for, and when to end the game.

Why (CA Victory: "You may end the game after turn 20 or any earlier turn. Reveal any enemy
counters still unrevealed, and then score ..."; 20 wins): at every moment you may end the
game the chance that ending now wins is known exactly, without dice
(:func:`.outlook.win_chance`: the final reveals of CA Enemy Decisions weighed, not rolled).

* The plan, chosen once from the board as diced (the potential counters it places, CA The
  Units): where ending after turn 1 would win at least :data:`RAID_FROM` of the time, the
  final reveals carry the game and the raid (:mod:`.tactics`) adds a few points for few
  losses; below it, on a light board (:func:`.policies_assault.light_board`), the reveals can
  hardly reach 20 and the battalion sweeps and exploits (:mod:`.policies_assault`); a heavy
  board of little chance is raided too (the sweep there won nothing on the tuning seeds,
  docs/combined-arms.md).
* The end: the game is ended the first time the exact chance that ending now wins reaches
  :data:`END_AT` (CA Sequence of Play: at a turn's start, before anything moves), even where
  the plan would fight on: the sweep never stops while it has platoons to fight with, and
  so could throw away a game it had won (a broken platoon of yours costs 2, each turn after
  18 one).  Otherwise the plan decides, its own ending included.

It reads only the state the seat shows (in Combined Arms nothing is hidden from you: a
potential counter is decided by its reveal roll, CA Enemy Decisions) and draws no dice.
"""

from __future__ import annotations

from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Seat
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms import tactics as T
from gwasl.games.combined_arms.policies_assault import assault_policy, light_board
from gwasl.games.combined_arms.records import EndGame
from gwasl.games.combined_arms.state import MOVE, Counter, State, initial_state, put, with_enemy

__all__ = ["END_AT", "RAID_FROM", "commander_policy", "opening_chance", "sweeps"]

#: the raid is the plan where ending after turn 1 would win at least this often (below it,
#: a light board is swept): gwasl's choice, tuned on seeds 1000-1299 (docs/combined-arms.md)
RAID_FROM = 0.02
#: the game is ended once ending now wins at least this often: gwasl's choice, tuned on
#: seeds 1000-1299 (docs/combined-arms.md)
END_AT = 0.5

_OPENING: dict[tuple[tuple[str, ...], bool], float] = {}


def opening_chance(s: State) -> float:
    """The exact chance that ending the game after turn 1 wins on this board, with every
    potential counter the terrain places (CA The Units) still unrevealed: the final reveals
    of CA Enemy Decisions scored by CA Victory.  The same all game long (the board as diced,
    not the counters left), so the plan chosen from it never changes."""
    key = (tuple(s.terrain), s.easier)
    p = _OPENING.get(key)
    if p is None:
        counters = tuple(Counter(h, atg=1 if R.atg_placed(s.terrain, h) else 0) for h in sorted(R.counter_hexes(s.terrain)))
        p = O.win_chance(with_enemy(put(initial_state(s.easier), terrain=s.terrain), counters), 1)
        if len(_OPENING) > 256:
            _OPENING.clear()
        _OPENING[key] = p
    return p


def sweeps(s: State) -> bool:
    """Whether the battalion sweeps this board (module docstring): a light board (the counters
    of CA The Units) where ending after turn 1 would win less than :data:`RAID_FROM` of the
    time (CA Victory)."""
    return light_board(s) and opening_chance(s) < RAID_FROM


def commander_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """End the game once ending now wins at least :data:`END_AT` of the time (CA Victory, CA
    Sequence of Play); else the plan of the board: the sweep (:mod:`.policies_assault`) or the
    raid (:mod:`.tactics`) (module docstring)."""
    s: State = seat.view()
    if s.phase == MOVE and s.turn >= 2 and not s.acted and not s.breaks and not s.rolls:
        p = O.win_chance(s, s.turn - 1)
        if p >= END_AT:
            return Decision(EndGame(), f"commander ends the game: ending now wins {p:.1%} of the time (CA Victory)")
    if sweeps(s):
        return assault_policy(seat, dice)
    return T.raid_policy(seat, dice)
