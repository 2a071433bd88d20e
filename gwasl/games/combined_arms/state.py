"""The state of a Combined Arms game: an immutable value (Sabin, "The Units",
"Sequence of Play").  Only :meth:`CombinedArmsGame.reduce` makes a new one.

Hexes are board indices (:mod:`.board`); sets of hexes are bitmasks.  The
state holds no secret: a potential enemy counter is unknown to everyone until
its reveal roll decides it, so nothing about it is stored before that roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gwasl.engine.events import Drm

__all__ = [
    "ARMOUR",
    "BROKEN",
    "COMPANIES",
    "ENEMY",
    "EXPLOITED",
    "FIRE",
    "HexRoll",
    "MMG",
    "MOVE",
    "OFFBOARD",
    "OVER",
    "PLAYER_SIDE",
    "DEFENDER_SIDE",
    "RIFLE",
    "SETUP",
    "UNIT_IDS",
    "UNIT_KIND",
    "UNIT_COMPANY",
    "WITHDRAWN",
    "Counter",
    "State",
    "Unit",
    "initial_state",
]

PLAYER_SIDE = "attacker"
DEFENDER_SIDE = "defender"

# where a unit is, when not on a board hex (>= 0)
OFFBOARD = -1  # not yet entered
WITHDRAWN = -2
EXPLOITED = -3
BROKEN = -4

RIFLE, MMG, ARMOUR = "rifle", "mmg", "armour"
COMPANIES = ("D", "E", "F")
#: your 14 platoons ("The Units"): 9 rifle platoons in companies D, E, F; 2 MMG; 3 armour
UNIT_IDS: tuple[str, ...] = ("D1", "D2", "D3", "E1", "E2", "E3", "F1", "F2", "F3", "M1", "M2", "A1", "A2", "A3")
UNIT_KIND: tuple[str, ...] = tuple(RIFLE if u[0] in COMPANIES else MMG if u[0] == "M" else ARMOUR for u in UNIT_IDS)
UNIT_COMPANY: tuple[str | None, ...] = tuple(u[0] if u[0] in COMPANIES else None for u in UNIT_IDS)

# phases
SETUP, MOVE, FIRE, ENEMY, OVER = "setup", "move", "fire", "enemy", "over"


@dataclass(frozen=True, slots=True)
class Unit:
    """One of your platoons: where it is (a hex, or OFFBOARD / WITHDRAWN /
    EXPLOITED / BROKEN), fresh or spent, and the faced corner (armour only, else -1)."""

    where: int
    fresh: bool = True
    facing: int = -1


@dataclass(frozen=True, slots=True)
class Counter:
    """An enemy counter in a hex: the platoon potential or real, its ATGs
    (0 none, 1 potential, 2 real), whether ATGs were removed from the hex, and
    fresh or spent (ATGs share the platoon counter's status, "The Units")."""

    hex: int
    real: bool = False
    atg: int = 0
    atg_removed: bool = False
    fresh: bool = True


@dataclass(frozen=True)
class HexRoll:
    """One pending roll against a hex (enemy fire or mortar impact), rolled in
    the order the player chooses ("Enemy Fire", "Mortars": "in any desired order")."""

    hex: str
    cause: str
    modifiers: tuple[Drm, ...] = ()
    need: int = 2
    #: losses each of your infantry platoons in the hex suffers when hit
    losses: int = 1
    #: whether enemy counters in the hex become spent when hit (mortars)
    spends_enemy: bool = False


@dataclass(frozen=True, slots=True)
class State:
    easier: bool
    terrain: tuple[str, ...] = ()
    turned: bool = False
    # terrain bitmasks, derived from ``terrain`` when the board is diced
    blocks: int = 0
    cover: int = 0
    hull: int = 0
    no_armour: int = 0
    crest: int = 0
    units: tuple[Unit, ...] = ()
    enemy: tuple[Counter, ...] = ()
    turn: int = 0
    phase: str = SETUP
    stage: str = ""
    # the circular loss and ammo track (0-7) and the smoke ammo (4 turns)
    losses: int = 0
    ammo: int = 0
    smoke_ammo: int = 4
    # mortars: your target hex, its ammo and the turn it was placed; the enemy's target
    own_target: int = -1
    own_ammo: str = ""
    own_fired: int = 0
    enemy_target: int = -1
    enemy_fired: int = 0
    smoke: tuple[tuple[int, int], ...] = ()
    # the score's counts
    enemy_platoons_broken: int = 0
    enemy_atgs_broken: int = 0
    real_platoons_revealed: int = 0
    real_atgs_revealed: int = 0
    # this phase
    acted: bool = False
    group_target: int = -1
    group: tuple[tuple[int, int], ...] = ()
    engaged: int = 0
    faced: int = 0
    # enemy phase: counters in hexes <= cursor have been activated; the counter about to fire
    cursor: int = -1
    firing: int = -1
    # pending rolls the player orders, and breaks the player chooses
    rolls: tuple[HexRoll, ...] = ()
    roll_source: str = ""
    break_hex: int = -1
    breaks: int = 0
    result: Mapping[str, Any] | None = field(default=None)

    def counter_at(self, h: int) -> Counter | None:
        for c in self.enemy:
            if c.hex == h:
                return c
        return None

    @property
    def enemy_mask(self) -> int:
        m = 0
        for c in self.enemy:
            m |= 1 << c.hex
        return m

    @property
    def smoke_mask(self) -> int:
        m = 0
        for h, _ in self.smoke:
            m |= 1 << h
        return m


def initial_state(easier: bool) -> State:
    """Before the board is diced: every platoon off the board and fresh, armour facing down."""
    units = tuple(Unit(OFFBOARD, True, 4 if k == ARMOUR else -1) for k in UNIT_KIND)
    return State(easier=easier, units=units)
