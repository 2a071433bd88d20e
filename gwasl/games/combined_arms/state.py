"""The state of a Combined Arms game: an immutable value (Sabin, "The Units",
"Sequence of Play").  Only :meth:`CombinedArmsGame.reduce` makes a new one.

Hexes are board indices (:mod:`.board`); sets of hexes are bitmasks.  The
state holds no secret: a potential enemy counter is unknown to everyone until
its reveal roll decides it, so nothing about it is stored before that roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from gwasl.engine.events import Drm
from gwasl.model.errors import GwaslError

__all__ = [
    "ARMOUR",
    "BROKEN",
    "COMPANIES",
    "COMPANY_INDEX",
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
    "put",
    "setter",
    "with_enemy",
    "with_smoke",
    "with_units",
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
#: the index of each platoon's company in COMPANIES (-1 for MMGs and armour)
COMPANY_INDEX: tuple[int, ...] = tuple(COMPANIES.index(c) if c else -1 for c in UNIT_COMPANY)

# phases
SETUP, MOVE, FIRE, ENEMY, OVER = "setup", "move", "fire", "enemy", "over"


class Unit(NamedTuple):
    """One of your platoons: where it is (a hex, or OFFBOARD / WITHDRAWN /
    EXPLOITED / BROKEN), fresh or spent, and the faced corner (armour only, else -1)."""

    where: int
    fresh: bool = True
    facing: int = -1


class Counter(NamedTuple):
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


class State(NamedTuple):
    """The whole game: an immutable value (a named tuple, so a new state is cheap).

    The bitmasks after ``units``, ``enemy`` and ``smoke`` are derived from them
    (:func:`with_units`, :func:`with_enemy`, :func:`with_smoke` keep them in step)."""

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
    result: Mapping[str, Any] | None = None
    # derived: hexes with an enemy counter, with smoke; with any platoon of yours, a rifle
    # platoon, infantry, armour; and the rifle platoons of each company D, E, F
    enemy_mask: int = 0
    smoke_mask: int = 0
    m_any: int = 0
    m_rifle: int = 0
    m_inf: int = 0
    m_armour: int = 0
    m_company: tuple[int, int, int] = (0, 0, 0)

    def counter_at(self, h: int) -> Counter | None:
        if not self.enemy_mask >> h & 1:
            return None
        for c in self.enemy:
            if c.hex == h:
                return c
        return None


_FIELD = {name: i for i, name in enumerate(State._fields)}
_new = tuple.__new__


def put(s: State, **kw: Any) -> State:
    """``s`` with some fields changed (what ``_replace`` does, faster for this wide tuple)."""
    items = list(s)
    for k, v in kw.items():
        items[_FIELD[k]] = v
    return _new(State, items)


class SetterError(GwaslError):
    """A state setter over no field or over more than two."""


def setter(*names: str) -> Callable[..., State]:
    """:func:`put` for one or two fixed fields, the values given in order
    (``setter("stage", "firing")(s, "fire", 12)``): for the reducers of the most frequent
    events, which cannot afford put's keywords.  Raises :class:`SetterError` for no field or more than two."""
    idx = [_FIELD[n] for n in names]
    if len(idx) == 1:
        i = idx[0]

        def put1(s: State, v: Any) -> State:
            items = list(s)
            items[i] = v
            return _new(State, items)

        return put1
    if len(idx) == 2:
        i, j = idx

        def put2(s: State, v: Any, w: Any) -> State:
            items = list(s)
            items[i] = v
            items[j] = w
            return _new(State, items)

        return put2
    raise SetterError(f"setter takes one or two fields, not {len(idx)}")


def with_units(s: State, units: tuple[Unit, ...], **more: Any) -> State:
    """``s`` with these platoons, its unit bitmasks recomputed (and the fields ``more`` set)."""
    rifle = inf = arm = 0
    co = [0, 0, 0]
    for u, cat in zip(units, _CATEGORY):
        w = u.where
        if w >= 0:
            bit = 1 << w
            if cat == _ARMOUR_CAT:
                arm |= bit
            else:
                inf |= bit
                if cat != _MMG_CAT:
                    rifle |= bit
                    co[cat] |= bit
    return put(s, units=units, m_any=inf | arm, m_rifle=rifle, m_inf=inf, m_armour=arm, m_company=(co[0], co[1], co[2]),
               **more)


#: each platoon's category for the bitmasks: its company's index (rifle platoons), or MMG, or armour
_MMG_CAT, _ARMOUR_CAT = 3, 4
_CATEGORY: tuple[int, ...] = tuple(_ARMOUR_CAT if k == ARMOUR else _MMG_CAT if k == MMG else COMPANY_INDEX[i]
                                   for i, k in enumerate(UNIT_KIND))


def with_enemy(s: State, enemy: tuple[Counter, ...]) -> State:
    """``s`` with these enemy counters (kept in activation order), its enemy bitmask recomputed."""
    m = 0
    for c in enemy:
        m |= 1 << c.hex
    return put(s, enemy=enemy, enemy_mask=m)


def with_smoke(s: State, smoke: tuple[tuple[int, int], ...]) -> State:
    m = 0
    for h, _ in smoke:
        m |= 1 << h
    return put(s, smoke=smoke, smoke_mask=m)


def initial_state(easier: bool) -> State:
    """Before the board is diced: every platoon off the board and fresh, armour facing down.

    Your platoons begin off the board (CA "Movement"), fresh (CA "The Units")."""
    units = tuple(Unit(OFFBOARD, True, 4 if k == ARMOUR else -1) for k in UNIT_KIND)
    return with_units(State(easier=easier), units)
