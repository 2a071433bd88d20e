"""The player's legal actions in Combined Arms (CA Sequence of Play): the break and roll
orders of the enemy phase, each platoon's moves, pivots, withdrawal, exploitation,
commits and facings, and the mortar calls.  :class:`~.game.CombinedArmsGame` lists
them from here, and so do the batch policies (:mod:`.policies`, :mod:`.planner`,
:mod:`.tactics`), which need the rules, not the game.
"""

from __future__ import annotations

import itertools
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

__all__ = ["attacker_actions", "mortar_actions", "mortar_options", "option_action", "roll_order_matters", "unit_actions", "unit_options"]


def attacker_actions(s: State) -> list[Record]:
    """The legal actions of the player (the attacker) now: a break or roll order pending in the
    enemy phase, else the move or fire phase's (CA Sequence of Play)."""
    out: list[Record] = []
    if s.breaks:
        return [BreakUnit(UNIT_IDS[i]) for i in R.infantry_in(s, s.break_hex)]
    if s.rolls:
        inf = R.unit_masks(s)[2]
        if not roll_order_matters(s):
            return []  # rolled in the order given as soon as anything is applied (the game's _advance)
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
    """The legal actions of platoon ``u`` now (move or fire phase, nothing pending). (CA "Movement", "Fire Attacks".)"""
    uid = UNIT_IDS[u]
    return [option_action(uid, o) for o in unit_options(s, u)]

def option_action(uid: str, option: tuple[Any, ...]) -> Record:
    """The action of platoon ``uid`` that a :func:`unit_options` tuple stands for."""
    return _OPTION[option[0]](uid, *option[1:])

def unit_options(s: State, u: int) -> list[tuple[Any, ...]]:
    """:func:`unit_actions` as plain tuples (the action's kind, then its fields after the
    unit), in the same order: batch policies build only the action they pick. (CA "Movement", "Fire Attacks".)"""
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
    build only the call they pick. (CA "Mortars".)"""
    if s.phase != FIRE or s.stage or s.group_target >= 0 or s.engaged or s.own_fired == s.turn:
        return []
    out = [(h, "he") for h in R.own_mortar_targets(s, False)]
    if s.smoke_ammo > 0:
        out.extend((h, "smoke") for h in R.own_mortar_targets(s, True))
    return out


#: the action of each kind :func:`unit_options` names
_OPTION: dict[str, Callable[..., Record]] = {"move": Move, "pivot": Pivot, "withdraw": Withdraw, "exploit": Exploit,
                                             "commit": Commit, "face": Face}


def roll_order_matters(s: State) -> bool:
    """Whether the order of the pending rolls against your infantry can change anything ("Roll
    for each hex, in any desired order", CA Enemy Fire and Mortars): only where a platoon breaks
    can, since each pass of the loss track from 7 to 0 breaks a platoon of the hex whose roll made
    it.  For every set of hits the dice can give, every order is tried (3 hexes at most); when
    they all break the same number of platoons in each hex, nobody is asked."""
    inf = s.m_inf
    hexes: list[tuple[int, bool]] = []  # (losses if hit, certain) of each roll that may hit your infantry
    for r in s.rolls:
        h = B.index_of(r.hex)
        if not inf >> h & 1:
            continue
        ch = R.chances(sum(m.value for m in r.modifiers), r.need)
        if ch:
            hexes.append((r.losses * len(R.infantry_in(s, h)), ch == 6))
    if len(hexes) < 2 or s.losses + sum(a for a, _ in hexes) < 8:
        return False  # no roll can pass 7 -> 0, or only one roll may hit
    n = len(hexes)
    for hits in range(1 << n):
        if any(certain and not hits >> i & 1 for i, (_, certain) in enumerate(hexes)):
            continue
        chosen = [i for i in range(n) if hits >> i & 1]
        seen = set()
        for order in itertools.permutations(chosen):
            track, breaks = s.losses, [0] * n
            for i in order:
                total = track + hexes[i][0]
                breaks[i], track = total // 8, total % 8
            seen.add(tuple(breaks))
        if len(seen) > 1:
            return True
    return False
