"""The player's legal actions in Combined Arms (CA Sequence of Play): the break and roll
orders of the enemy phase, each platoon's moves, pivots, withdrawal, exploitation,
commits and facings, and the mortar calls.  :class:`~.game.CombinedArmsGame` lists
them from here, and so do the batch policies (:mod:`.policies`, :mod:`.planner`,
:mod:`.tactics`), which need the rules, not the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gwasl.engine.record import Record
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.records import (
    BreakUnit,
    CallMortar,
    Commit,
    EndGame,
    EndPhase,
    Exploit,
    Face,
    Move,
    Pivot,
    Resolve,
    RollNext,
    Withdraw,
)
from gwasl.games.combined_arms.state import ARMOUR, FIRE, MOVE, OFFBOARD, UNIT_IDS, UNIT_KIND, State

__all__ = ["attacker_actions", "mortar_actions", "mortar_options", "option_action", "unit_actions", "unit_options"]


def attacker_actions(s: State) -> list[Record]:
    """The legal actions of the player (the attacker) now: a break or roll order pending in the
    enemy phase, else the move or fire phase's (CA Sequence of Play)."""
    out: list[Record] = []
    if s.breaks:
        return [BreakUnit(UNIT_IDS[i]) for i in R.infantry_in(s, s.break_hex)]
    if s.rolls:
        inf = R.unit_masks(s)[2]
        return [RollNext(r.hex) for r in s.rolls if inf >> B.index_of(r.hex) & 1]
    if s.phase == MOVE:
        for u in range(len(UNIT_IDS)):
            out.extend(unit_actions(s, u))
        out.append(EndPhase())
        if s.turn >= 2 and not s.acted:
            out.append(EndGame())
        return out
    if s.phase == FIRE:
        out.extend(mortar_actions(s))
        for u in range(len(UNIT_IDS)):
            out.extend(unit_actions(s, u))
        if s.group:
            out.append(Resolve())
        else:
            out.append(EndPhase())
    return out

def unit_actions(s: State, u: int) -> list[Record]:
    """The legal actions of platoon ``u`` now (move or fire phase, nothing pending)."""
    uid = UNIT_IDS[u]
    return [option_action(uid, o) for o in unit_options(s, u)]

def option_action(uid: str, option: tuple[Any, ...]) -> Record:
    """The action of platoon ``uid`` that a :func:`unit_options` tuple stands for."""
    return _OPTION[option[0]](uid, *option[1:])

def unit_options(s: State, u: int) -> list[tuple[Any, ...]]:
    """:func:`unit_actions` as plain tuples (the action's kind, then its fields after the
    unit), in the same order: batch policies build only the action they pick."""
    unit = s.units[u]
    out: list[tuple[Any, ...]] = []
    if not unit.fresh or unit.where < OFFBOARD or s.breaks or s.rolls:
        return out
    armour = UNIT_KIND[u] == ARMOUR
    if s.phase == MOVE:
        labels = B.LABELS
        out = [("move", labels[h], f if armour else None) for h, f, _how in R.unit_moves(s, u)]
        if armour and unit.where >= 0:
            out.extend(("pivot", f) for f in range(6) if f != unit.facing)
        if R.withdraw_allowed(s, u):
            out.append(("withdraw",))
        if R.exploit_allowed(s, u):
            out.append(("exploit",))
    elif s.phase == FIRE and not s.stage:
        for t in R.fire_targets(s, u):
            label = B.label(t)
            for f in R.fire_facings(s, u, t):
                out.append(("commit", label, f if armour else None))
        if armour and unit.where >= 0 and s.group_target < 0 and not s.faced >> u & 1:
            out.extend(("face", f) for f in range(6) if f != unit.facing)
    return out

def mortar_actions(s: State) -> list[Record]:
    """Your mortar calls open now: before any platoon fires, once a turn (CA Mortars)."""
    return [CallMortar(B.label(h), ammo) for h, ammo in mortar_options(s)]

def mortar_options(s: State) -> list[tuple[int, str]]:
    """:func:`mortar_actions` as (target hex, ammo), in the same order: batch policies
    build only the call they pick."""
    if s.phase != FIRE or s.stage or s.group_target >= 0 or s.engaged or s.own_fired == s.turn:
        return []
    out = [(h, "he") for h in R.own_mortar_targets(s, False)]
    if s.smoke_ammo > 0:
        out.extend((h, "smoke") for h in R.own_mortar_targets(s, True))
    return out


#: the action of each kind :func:`unit_options` names
_OPTION: dict[str, Callable[..., Record]] = {"move": Move, "pivot": Pivot, "withdraw": Withdraw, "exploit": Exploit,
                                             "commit": Commit, "face": Face}
