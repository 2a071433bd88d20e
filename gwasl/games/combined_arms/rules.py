"""The rules of Combined Arms as pure functions of the state (Sabin, "Combined
Arms": a solitaire WW2 battalion assault).  The game, the defender AI, the
odds and the policies all call these; none keeps a copy.

The text has no rule numbers: citations name its sections ("The Playing
Board", "The Units", "Sequence of Play", "Victory", "Movement", "Fire
Attacks", "Enemy Fire", "Mortars", "Enemy Decisions") and figures, prefixed
"CA".  Readings of what the text leaves open are in docs/rules-notes.md,
"Combined Arms".

Chances in 6: a hit on a modified 2+ at -3 (Figure 7's D3), a side shot without ATGs
(5+ with +1):

>>> chances(-3, 2), chances(+1, 5)
(2, 3)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms.state import (
    ARMOUR,
    BROKEN,
    COMPANY_INDEX,
    EXPLOITED,
    MMG,
    OFFBOARD,
    RIFLE,
    UNIT_COMPANY,
    UNIT_IDS,
    UNIT_KIND,
    Counter,
    State,
    Unit,
)
from gwasl.games.combined_arms.tables import TERRAIN
from gwasl.rules.dice import Modifier

__all__ = [
    "BLOCKED",
    "CLEAR",
    "PARTIAL",
    "R_BOARD",
    "R_DECISIONS",
    "R_ENEMY_FIRE",
    "R_FIRE",
    "R_MORTARS",
    "R_MOVE",
    "R_SEQ",
    "R_UNITS",
    "R_VICTORY",
    "UnitMove",
    "armour_chances",
    "atg_placed",
    "can_enter",
    "chances",
    "clusters",
    "counter_hexes",
    "defensive_counts",
    "enemy_armour_attack",
    "enemy_infantry_attack",
    "enemy_mortar_fires_on",
    "enemy_mortar_targets",
    "enemy_spotters",
    "exploit_allowed",
    "fire_facings",
    "fire_reach",
    "fire_targets",
    "friendly_broken",
    "global_reveal_penalty",
    "atg_reveal_mods",
    "line_of_fire",
    "own_fire_effect",
    "own_fire_mods",
    "own_mortar_targets",
    "own_spotters",
    "payoff",
    "platoon_reveal_mods",
    "score",
    "spotted",
    "spotted_mask",
    "terrain_masks",
    "unit_masks",
    "unit_moves",
    "withdraw_allowed",
]

R_BOARD = "CA The Playing Board"
R_UNITS = "CA The Units"
R_SEQ = "CA Sequence of Play"
R_VICTORY = "CA Victory"
R_MOVE = "CA Movement"
R_FIRE = "CA Fire Attacks"
R_ENEMY_FIRE = "CA Enemy Fire"
R_MORTARS = "CA Mortars"
R_DECISIONS = "CA Enemy Decisions"

CLEAR, PARTIAL, BLOCKED = 0, 1, 2
_DIST = B.DIST

#: a reveal roll succeeds on a modified 5 or more (CA Enemy Decisions)
REVEAL_NEED = 5
#: your fire pins on a modified 2+, breaks on 4+ when all firers are adjacent (CA Fire Attacks)
PIN_NEED, BREAK_NEED = 2, 4
#: enemy fire: armour broken on 5+ without ATGs, 2+ with them; infantry hit on 2+ (CA Enemy Fire)
NO_ATG_NEED, ATG_NEED, INFANTRY_NEED = 5, 2, 2
#: the defended terrain a potential enemy counter goes in, and the ATG count (CA The Units)
ATG_MIN_OPEN = 3
#: payoff at which a potential platoon opens fire, and ATG chances at which they do (CA Enemy Decisions)
REVEAL_PAYOFF, REVEAL_ATG_CHANCES = 6, 2
LAST_TURN = 20
WIN_SCORE = 20
PENALTY_AFTER = 18


#: the modifiers of the rolls, made once (a Modifier is an immutable value): the same
#: causes and values the rolls log, without building them at every roll
_M_ARMOUR_FAR = Modifier(f"+1 armour not within 2 hexes of an enemy counter ({R_FIRE})", 1)
_M_UNREVEALED = Modifier(f"+1 target unrevealed and none of your platoons adjacent ({R_FIRE})", 1)
_M_OWN_PARTIAL = Modifier(f"-1 line of fire partly blocked ({R_FIRE}, Figure 5)", -1)
_M_OUTSIDE_ARC = Modifier(f"+1 outside the armour's forward arc ({R_ENEMY_FIRE})", 1)
_M_RIFLE_WITH_ARMOUR = Modifier(f"-1 rifle platoon in the armour's hex ({R_ENEMY_FIRE})", -1)
_M_ENEMY_PARTIAL = Modifier(f"-1 line of fire partly blocked ({R_ENEMY_FIRE})", -1)
_M_HULL_DOWN = Modifier(f"-1 armour hull down in a crest or farm hex ({R_ENEMY_FIRE})", -1)
_M_NO_COVER = Modifier(f"+1 target not in a wood, crest or farm ({R_ENEMY_FIRE})", 1)
_M_ATG_IN_HEX = Modifier(f"+1 ATG counter in the hex ({R_DECISIONS})", 1)
_M_REVEAL_PENALTY = Modifier(f"-1 at least 2 real ATGs or 3 real platoons already revealed ({R_DECISIONS})", -1)
_M_ATGS_REMOVED = Modifier(f"-1 ATGs removed from the hex ({R_DECISIONS})", -1)
_M_PLATOON_REVEALED = Modifier(f"+2 platoon already revealed ({R_DECISIONS})", 2)
#: the longest range on the board (the range tables below cover every range a caller might ask)
_MAX_RANGE = max(B.DIST)
_M_MMG_RANGE = tuple(Modifier(f"-{d // 2} range {d} for MMGs, 1 per full 2 hexes ({R_FIRE})", -(d // 2)) for d in range(_MAX_RANGE + 1))
_M_OWN_RANGE = tuple(Modifier(f"-{d} range {d} ({R_FIRE})", -d) for d in range(_MAX_RANGE + 1))
_M_ENEMY_RANGE = tuple(Modifier(f"-{d} range {d} ({R_ENEMY_FIRE})", -d) for d in range(_MAX_RANGE + 1))


_F = TypeVar("_F", bound=Callable[..., Any])


def _same_state(fn: _F) -> _F:
    """``fn(s, *args)`` remembered for the last state it was asked about.  A state is an
    immutable value, so the same object always gets the same answer; the reference kept
    means its id is never reused.  Batch play asks twice of each state: the policy lists
    a platoon's actions, then the step checks the one chosen.  Callers must not change the
    list returned (tests/games/combined_arms/test_ca_caches.py checks the answers)."""
    last: list[Any] = [None, {}]

    @functools.wraps(fn)
    def remembered(s: State, *args: Any) -> Any:
        if last[0] is not s:
            last[0], last[1] = s, {}
        memo = last[1]
        r = memo.get(args)
        if r is None:
            r = memo[args] = fn(s, *args)
        return r

    remembered.plain = fn  # type: ignore[attr-defined]
    return remembered  # type: ignore[return-value]


def chances(total_modifier: int, need: int) -> int:
    """Chances in 6 that one die plus ``total_modifier`` reaches ``need``. (CA "Fire Attacks", "Enemy Fire".)"""
    return max(0, min(6, 7 - need + total_modifier))


# -- the board ------------------------------------------------------------------
_MASK_NAMES = ("blocks", "cover", "hull", "no_armour", "crest", "defensive", "atg_open")
_FLAGS = {tid: (t.blocks_fire, t.cover, t.hull_down, not t.armour_may_enter, t.crest, t.defensive, t.counts_for_atg)
          for tid, t in TERRAIN.items()}


#: the last terrain terrain_masks was asked about, and its answer (set-up asks 2-3 times)
_LAST_MASKS: list[Any] = [None, {}]


def terrain_masks(terrain: Sequence[str]) -> dict[str, int]:
    """Bitmasks of the hexes whose terrain has each effect of terrain.json. (CA "The Playing Board".)"""
    key = tuple(terrain)
    if _LAST_MASKS[0] == key:
        return dict(_LAST_MASKS[1])
    out = _terrain_masks(key)
    _LAST_MASKS[0], _LAST_MASKS[1] = key, out
    return dict(out)


def _terrain_masks(terrain: Sequence[str]) -> dict[str, int]:
    by_kind: dict[str, int] = {}
    for i, tid in enumerate(terrain):
        by_kind[tid] = by_kind.get(tid, 0) | 1 << i
    masks = [0] * len(_MASK_NAMES)
    for tid, hexes in by_kind.items():
        for k, flag in enumerate(_FLAGS[tid]):
            if flag:
                masks[k] |= hexes
    return dict(zip(_MASK_NAMES, masks))


def defensive_counts(terrain: Sequence[str]) -> tuple[int, int, int]:
    """Crest, wood, wooded crest and farm hexes in the top, middle and bottom
    3 hexrows (CA The Units; Figure 1: 4 at the top, 5 at the bottom)."""
    d = terrain_masks(terrain)["defensive"]
    return ((d & B.THIRDS[0]).bit_count(), (d & B.THIRDS[1]).bit_count(), (d & B.THIRDS[2]).bit_count())


def counter_hexes(terrain: Sequence[str]) -> list[int]:
    """Hexes that get a potential enemy counter, the enemy holding the bottom third
    (the board is turned so that it does): every defended hex of the middle and
    bottom 3 hexrows (CA The Units)."""
    d = terrain_masks(terrain)["defensive"]
    return list(B.bits(d & (B.THIRDS[1] | B.THIRDS[2])))


def atg_placed(terrain: Sequence[str], h: int) -> bool:
    """Whether a potential ATG goes with the counter in ``h`` (CA The Units): at
    least 3 open, road or poor going neighbours, not counting the 2 nearer the
    enemy rear edge (the bottom: directions SW, SE) unless ``h`` is a side edge
    hex; off-board neighbours never count (Figure 4: '2 open hexes not behind')."""
    dirs: Iterable[int] = range(6) if B.SIDE_EDGE >> h & 1 else (0, 1, 2, 3)
    n = 0
    for d in dirs:
        j = B.NEIGHBOURS[h][d]
        if j != B.OFF and TERRAIN[terrain[j]].counts_for_atg:
            n += 1
    return n >= ATG_MIN_OPEN


# -- who is where -----------------------------------------------------------------
def unit_masks(s: State) -> tuple[int, int, int, int]:
    """Hexes holding any of your platoons, a rifle platoon, infantry (rifle or MMG), armour."""
    return s.m_any, s.m_rifle, s.m_inf, s.m_armour


def infantry_in(s: State, h: int) -> list[int]:
    """Your infantry platoons (unit indices) in hex ``h``. Rifle and MMG platoons both count as infantry (CA "The Units")."""
    if not s.m_inf >> h & 1:
        return []
    return [i for i, u in enumerate(s.units) if u.where == h and UNIT_KIND[i] != ARMOUR]


def friendly_broken(s: State) -> int:
    """How many of your platoons are broken: the enemy mortars' call reads it (CA "Enemy Decisions")."""
    return sum(1 for u in s.units if u.where == BROKEN)


# -- lines of fire ----------------------------------------------------------------
def line_of_fire(s: State, a: int, b: int, own: bool = False, rifle_mask: int | None = None) -> int:
    """CLEAR, PARTIAL or BLOCKED between hexes a and b (CA Fire Attacks, Figure 5).

    An intervening woods, crest, farm or smoke hex blocks when the line crosses
    its interior; touching one along part of a hexside is a partial block, and
    two partial blocks block.  For your own fire (``own``) an intervening hex
    with one of your rifle platoons blocks too, unless the firer or target is in
    a crest hex.  Range is checked by the caller.
    """
    key = a * B.N + b
    if _DIST[key] <= 1:
        return CLEAR
    blockers = s.blocks | s.smoke_mask
    if own and not (s.crest >> a & 1 or s.crest >> b & 1):
        blockers |= unit_masks(s)[1] if rifle_mask is None else rifle_mask
    if B.LOF_INTERIOR[key] & blockers:
        return BLOCKED
    n = (B.LOF_PARTIAL[key] & blockers).bit_count()
    return BLOCKED if n >= 2 else n


#: fire_reach's answers by (blocking hexes, origin): they change only with smoke and the board
_REACH: dict[tuple[int, int], tuple[int, int]] = {}


def fire_reach(s: State, frm: int) -> tuple[int, int]:
    """:func:`line_of_fire` from ``frm`` to every hex 1-5 hexes away at once, for lines that
    only terrain and smoke block (not your own fire): the bitmask of the hexes it is not
    BLOCKED to, and the bitmask of those among them it is PARTIAL to (CA Fire Attacks,
    Figure 5).  Kept per (blocking hexes, origin), the one owner of these answers;
    tests/games/combined_arms/test_ca_rules.py checks them against line_of_fire."""
    blockers = s.blocks | s.smoke_mask
    key = (blockers, frm)
    r = _REACH.get(key)
    if r is None:
        r = _reach(blockers, frm)
        if len(_REACH) > 20_000:
            _REACH.clear()
        _REACH[key] = r
    return r


def _reach(blockers: int, frm: int) -> tuple[int, int]:
    """:func:`fire_reach` computed: the blocking hexes near ``frm`` looked up in the tables."""
    tab = B.LOF_BY_HEX[frm]
    blocked = once = twice = 0
    for x in B.bits(blockers & B.LOF_NEAR[frm]):
        im, pm = tab[x]
        blocked |= im
        twice |= once & pm  # a second partial block blocks
        once |= pm
    clear = B.WITHIN5[frm] & ~(blocked | twice)
    return clear, once & clear


def spotted(s: State, spotter: int, target: int) -> bool:
    """Within a 1-5 hex line of fire of the spotter; intervening platoons and a
    single partial block are no hindrance (CA Mortars)."""
    return bool(spotted_mask(s, spotter) >> target & 1)


def spotted_mask(s: State, spotter: int) -> int:
    """The hexes :func:`spotted` from ``spotter``: within 1-5 hexes, the line of fire
    not blocked by terrain or smoke (CA Mortars)."""
    return fire_reach(s, spotter)[0]


def own_spotters(s: State) -> list[int]:
    """Hexes of your fresh infantry not adjacent to an enemy counter (CA Mortars)."""
    em = s.enemy_mask
    return sorted({u.where for i, u in enumerate(s.units)
                   if u.where >= 0 and u.fresh and UNIT_KIND[i] != ARMOUR and not B.NEIGHBOUR_MASK[u.where] & em})


def enemy_spotters(s: State) -> list[int]:
    """Hexes of fresh enemy counters, potential or real, not adjacent to any of your platoons (CA Mortars)."""
    mine = unit_masks(s)[0]
    return [c.hex for c in s.enemy if c.fresh and not B.NEIGHBOUR_MASK[c.hex] & mine]


# -- movement ---------------------------------------------------------------------
#: a move: (destination hex, facing afterwards or -1, how: enter, move, forward, reverse, road)
UnitMove = tuple[int, int, str]


def can_enter(s: State, u: int, h: int) -> bool:
    """Whether platoon ``u`` may enter hex ``h`` (CA Movement): no enemy counter,
    not a side edge hex of the 5 middle hexrows; a rifle platoon not with a rifle
    platoon of another company; armour not into poor going, woods or other armour."""
    return not _barred(s, u) >> h & 1


def _barred(s: State, u: int) -> int:
    """The hexes platoon ``u`` may not enter (:func:`can_enter`), as a bitmask."""
    barred = s.enemy_mask | B.FORBIDDEN_EDGE
    kind = UNIT_KIND[u]
    if kind == ARMOUR:
        return barred | s.no_armour | s.m_armour
    if kind == RIFLE:
        return barred | (s.m_rifle & ~s.m_company[COMPANY_INDEX[u]])
    return barred


def _armour_passes(s: State, u: int, h: int) -> bool:
    """The middle hex of a road move obeys the entry rules (rules-notes)."""
    return can_enter(s, u, h)


_TOP_ROAD = B.ROAD[0]
_BOTTOM_ROAD = B.ROAD[-1]


@_same_state
def unit_moves(s: State, u: int) -> list[UnitMove]:
    """Every move platoon ``u`` may make in the move phase (CA Movement), apart
    from withdrawing and exploiting: entering from off the board, one hex, and
    for armour a facing change then one hex into the forward arc, a reverse, or
    a 2-hex road move (also when entering)."""
    unit = s.units[u]
    if not unit.fresh or unit.where < OFFBOARD or s.phase != "move":
        return []
    kind = UNIT_KIND[u]
    out: list[UnitMove] = []
    barred = _barred(s, u)  # can_enter for every hex at once
    if unit.where == OFFBOARD:
        for h in B.bits(B.REAR_HEXES & ~barred):
            if kind == ARMOUR:
                # from the virtual row above: up-left source steps SE (facings 4, 5),
                # up-right source steps SW (facings 3, 4)
                out.extend((h, f, "enter") for f in (3, 4, 5))
            else:
                out.append((h, -1, "enter"))
        if kind == ARMOUR:
            mid = _TOP_ROAD
            d1 = B.road_step(B.OFF_TOP, mid)
            second = B.ROAD[1]
            d2 = B.road_step(mid, second)
            if d1 is not None and d2 is not None and not barred >> mid & 1 and not barred >> second & 1:
                out.extend((second, f, "road") for f in range(6) if d1 in (f, (f + 1) % 6) and d2 in (f, (f + 1) % 6))
        return out
    h = unit.where
    if kind == MMG:
        return []  # MMGs never move once entered, except to withdraw
    ns = B.NEIGHBOURS[h]
    if kind != ARMOUR:
        return [(t, -1, "move") for t in ns if t != B.OFF and not barred >> t & 1]
    f = unit.facing
    for d in range(6):
        t = ns[d]
        if t != B.OFF and not barred >> t & 1:
            out.append((t, (d - 1) % 6, "forward"))
            out.append((t, d, "forward"))
    for d in ((f + 3) % 6, (f + 4) % 6):
        t = ns[d]
        if t != B.OFF and not barred >> t & 1:
            out.append((t, f, "reverse"))
    fwd = (f, (f + 1) % 6)
    for d1 in fwd:
        m = ns[d1]
        if m == B.OFF or B.road_step(h, m) != d1 or barred >> m & 1:  # _armour_passes
            continue
        for d2 in fwd:
            t = B.NEIGHBOURS[m][d2]
            if t != B.OFF and B.road_step(m, t) == d2 and not barred >> t & 1:
                out.append((t, f, "road"))
    return out


def withdraw_allowed(s: State, u: int) -> bool:
    """A fresh platoon may withdraw by moving back off one of your rear edge hexes;
    armour also by a 2-hex road move from the second road hex (CA Movement)."""
    unit = s.units[u]
    if not unit.fresh or unit.where < 0:
        return False
    if B.REAR_HEXES >> unit.where & 1:
        return True
    return UNIT_KIND[u] == ARMOUR and unit.where == B.ROAD[1] and _road_off(s, u, unit.where, _TOP_ROAD, B.OFF_TOP)


def exploit_allowed(s: State, u: int) -> bool:
    """A fresh rifle or armour platoon may exploit by advancing off one of the 3
    central hexes of the enemy rear edge; armour also by a 2-hex road move from
    the road hex before it (CA Movement).  MMGs never move except to withdraw."""
    unit = s.units[u]
    if not unit.fresh or unit.where < 0 or UNIT_KIND[u] == MMG:
        return False
    if B.EXIT_HEXES >> unit.where & 1:
        return True
    return UNIT_KIND[u] == ARMOUR and unit.where == B.ROAD[-2] and _road_off(s, u, unit.where, _BOTTOM_ROAD, B.OFF_BOTTOM)


def _road_off(s: State, u: int, h: int, mid: int, off: int) -> bool:
    f = s.units[u].facing
    d1, d2 = B.road_step(h, mid), B.road_step(mid, off)
    fwd = (f, (f + 1) % 6)
    return d1 in fwd and d2 in fwd and _armour_passes(s, u, mid)


# -- your fire ----------------------------------------------------------------------
def fire_facings(s: State, u: int, target: int) -> tuple[int, ...]:
    """The facings with which platoon ``u`` may fire at ``target``: armour must end
    facing so that the target is in its forward arc (CA Fire Attacks); others (-1,)."""
    if UNIT_KIND[u] != ARMOUR:
        return (-1,)
    h = s.units[u].where
    return tuple(f for f in range(6) if B.ARC[h][f] >> target & 1)


@_same_state
def fire_targets(s: State, u: int) -> list[int]:
    """Hexes platoon ``u`` may fire at now (CA Fire Attacks): a fresh platoon on the
    board, a hex with an enemy counter 1-5 hexes away along a line of fire, not
    already attacked this phase unless by the group being committed, and not a
    hex engaged by a rifle platoon of another company."""
    unit = s.units[u]
    if s.phase != "fire" or s.stage or not unit.fresh or unit.where < 0 or s.rolls or s.breaks:
        return []
    if s.group_target >= 0:
        cands: Iterable[int] = (s.group_target,)
        if UNIT_KIND[u] == RIFLE:
            co = UNIT_COMPANY[u]
            if any(UNIT_KIND[j] == RIFLE and UNIT_COMPANY[j] != co for j, _ in s.group):
                return []
    else:
        cands = (c.hex for c in s.enemy if not s.engaged >> c.hex & 1)
    rifle = unit_masks(s)[1]
    h = unit.where
    out = []
    for t in cands:
        if 1 <= B.distance(h, t) <= 5 and line_of_fire(s, h, t, own=True, rifle_mask=rifle) != BLOCKED:
            out.append(t)
    return out


def own_fire_mods(s: State, u: int, target: int) -> list[Modifier]:
    """The modifiers of platoon ``u``'s roll against ``target`` (CA Fire Attacks and the play aid)."""
    unit = s.units[u]
    h = unit.where
    kind = UNIT_KIND[u]
    d = B.distance(h, target)
    anym, rifle, _, _ = unit_masks(s)
    mods: list[Modifier] = []
    if kind == ARMOUR:
        near = s.enemy_mask
        if s.enemy_target >= 0:
            near |= 1 << s.enemy_target
        if not B.WITHIN2[h] & near:
            mods.append(_M_ARMOUR_FAR)
    c = s.counter_at(target)
    if c is not None and not c.real and not B.NEIGHBOUR_MASK[target] & anym:
        mods.append(_M_UNREVEALED)
    if line_of_fire(s, h, target, own=True, rifle_mask=rifle) == PARTIAL:
        mods.append(_M_OWN_PARTIAL)
    if d >= 2 and B.NEIGHBOUR_MASK[target] & rifle:
        co = UNIT_COMPANY[u]
        for j, o in enumerate(s.units):
            if o.where >= 0 and UNIT_KIND[j] == RIFLE and UNIT_COMPANY[j] != co and B.NEIGHBOUR_MASK[target] >> o.where & 1:
                mods.append(Modifier(f"-1 rifle platoon {_uid(j)} of another company adjacent to the target ({R_FIRE}, play aid)", -1))
                break
    if kind == MMG:
        if d // 2:
            mods.append(_M_MMG_RANGE[d])
    else:
        mods.append(_M_OWN_RANGE[d])
    return mods


def own_fire_effect(final: int, all_adjacent: bool, infantry: bool) -> tuple[bool, bool, bool]:
    """(target spent, ATGs broken, platoon broken) for a modified roll (CA Fire Attacks):
    2+ pins; 4+ with every firer adjacent breaks ATGs, and the platoon when the firer is infantry."""
    brk = all_adjacent and final >= BREAK_NEED
    return final >= PIN_NEED, brk, brk and infantry


# -- enemy fire ---------------------------------------------------------------------
def _armour_terms(s: State, frm: int, u: int, with_atg: bool) -> tuple[bool, bool, bool, int] | None:
    """(outside the forward arc, rifle platoon with it or partly blocked, hull down, range) of
    enemy fire from ``frm`` at armour platoon ``u``, or ``None`` when it may not engage it:
    the numbers behind :func:`enemy_armour_attack`."""
    unit = s.units[u]
    ah = unit.where
    if ah < 0 or UNIT_KIND[u] != ARMOUR:
        return None
    d = B.distance(frm, ah)
    outside = not B.ARC[ah][unit.facing] >> frm & 1
    if not with_atg:
        if d != 1:
            return None
        return outside, bool(s.m_rifle >> ah & 1), False, 1
    if d > 5:
        return None
    lof = line_of_fire(s, frm, ah)
    if lof == BLOCKED:
        return None
    return outside, lof == PARTIAL, bool(s.hull >> ah & 1), d


def armour_chances(s: State, frm: int, u: int, with_atg: bool) -> int | None:
    """Chances in 6 that the enemy in ``frm`` breaks armour platoon ``u`` (None: it may not engage it). (CA "Enemy Fire".)"""
    t = _armour_terms(s, frm, u, with_atg)
    if t is None:
        return None
    if not with_atg:
        return chances(t[0] - t[1], NO_ATG_NEED)
    return chances(t[0] - t[1] - t[2] - t[3], ATG_NEED)


def enemy_armour_attack(s: State, frm: int, u: int, with_atg: bool) -> tuple[list[Modifier], int] | None:
    """The modifiers and the score needed for the enemy in ``frm`` to break armour
    platoon ``u``, or ``None`` when it may not engage it (CA Enemy Fire): without
    ATGs only adjacent armour, 5+ (+1 outside its forward arc, -1 with a rifle
    platoon in its hex); with ATGs up to 5 hexes along a line of fire, 2+ (+1
    outside the arc, -1 partly blocked, -1 hull down in a crest or farm, -1 per hex)."""
    t = _armour_terms(s, frm, u, with_atg)
    if t is None:
        return None
    outside, minus, hull, d = t
    mods: list[Modifier] = []
    if outside:
        mods.append(_M_OUTSIDE_ARC)
    if not with_atg:
        if minus:
            mods.append(_M_RIFLE_WITH_ARMOUR)
        return mods, NO_ATG_NEED
    if minus:
        mods.append(_M_ENEMY_PARTIAL)
    if hull:
        mods.append(_M_HULL_DOWN)
    mods.append(_M_ENEMY_RANGE[d])
    return mods, ATG_NEED


def _infantry_terms(s: State, frm: int, h: int) -> tuple[bool, bool, int] | None:
    """(no cover, partly blocked, range) of enemy infantry fire from ``frm`` at ``h``, or
    ``None`` when it may not engage it: the numbers behind :func:`enemy_infantry_attack`."""
    d = _DIST[frm * B.N + h]
    if not 1 <= d <= 5:
        return None
    lof = line_of_fire(s, frm, h)
    if lof == BLOCKED:
        return None
    return not s.cover >> h & 1, lof == PARTIAL, d


def enemy_infantry_attack(s: State, frm: int, h: int) -> tuple[list[Modifier], int] | None:
    """The modifiers and the losses per platoon of the enemy in ``frm`` firing at
    your infantry in ``h``, or ``None`` when it may not (CA Enemy Fire): a 1-5 hex
    line of fire ignoring your platoons; +1 if the hex has no wood, crest or farm,
    -1 partly blocked, -1 per hex; 1 loss each, 2 if the firers are adjacent."""
    terms = _infantry_terms(s, frm, h)
    if terms is None:
        return None
    open_, partial, d = terms
    mods: list[Modifier] = []
    if open_:
        mods.append(_M_NO_COVER)
    if partial:
        mods.append(_M_ENEMY_PARTIAL)
    mods.append(_M_ENEMY_RANGE[d])
    return mods, 2 if d == 1 else 1


def payoff(s: State, frm: int, h: int) -> tuple[int, int, int]:
    """(payoff, platoon weight, chances) of enemy infantry fire from ``frm`` at hex ``h``
    (CA Enemy Decisions): each infantry platoon counts 2 fresh, 1 spent; times the
    chances in 6 of success; trebled at 1 hex range."""
    terms = _infantry_terms(s, frm, h)
    if terms is None:
        return 0, 0, 0
    weight = infantry_weights(s).get(h, 0)
    p, ch = _payoff(weight, *terms)
    return p, weight, ch


def _payoff(weight: int, open_: bool, partial: bool, d: int) -> tuple[int, int]:
    """(payoff, chances) from the weight and the terms of :func:`_infantry_terms`."""
    ch = chances(open_ - partial - d, INFANTRY_NEED)
    return weight * ch * (3 if d == 1 else 1), ch


#: the platoons tuple the weights below were counted for (kept, so its id is never reused), and them
_WEIGHTS: list[object] = [None, {}]


def infantry_weights(s: State) -> dict[int, int]:
    """Each hex's infantry platoons counted 2 fresh, 1 spent (CA Enemy Decisions).  The
    enemy weighs them for every counter and hex in a state: counted once per set of platoons."""
    if _WEIGHTS[0] is s.units:
        return _WEIGHTS[1]  # type: ignore[return-value]
    w: dict[int, int] = {}
    for i, u in enumerate(s.units):
        if u.where >= 0 and UNIT_KIND[i] != ARMOUR:
            w[u.where] = w.get(u.where, 0) + (2 if u.fresh else 1)
    _WEIGHTS[0], _WEIGHTS[1] = s.units, w
    return w


#: clusters' answers for one set of platoons (kept, so its id is never reused), blocking
#: hexes and cover: [units, blockers, cover, {origin: clusters}]
_CLUSTERS: list[Any] = [None, 0, 0, {}]


def clusters(s: State, frm: int) -> list[tuple[tuple[int, ...], int]]:
    """Every cluster the enemy in ``frm`` may engage, with its total payoff: 1, 2 or
    3 mutually adjacent hexes each holding your infantry within a 1-5 hex line of
    fire (CA Enemy Fire).  Hexes it has no chance against are left out.  Remembered while
    the platoons, blocking hexes and cover stay the same (the activation plan and the fire
    decision ask in turn); callers must not change the list returned."""
    if not s.m_inf & fire_reach(s, frm)[0]:
        return []  # none of your infantry in reach: most counters, most of the time
    memo = _CLUSTERS
    blockers = s.blocks | s.smoke_mask
    if memo[0] is not s.units or memo[1] != blockers or memo[2] != s.cover:
        memo[0], memo[1], memo[2], memo[3] = s.units, blockers, s.cover, {}
    r: list[tuple[tuple[int, ...], int]] | None = memo[3].get(frm)
    if r is None:
        r = memo[3][frm] = _clusters(s, frm)
    return r


def _clusters(s: State, frm: int) -> list[tuple[tuple[int, ...], int]]:
    # payoff() for every hex of your infantry at once: the lines of fire from fire_reach
    clear, part = fire_reach(s, frm)
    targets = s.m_inf & clear
    if not targets:
        return []
    weights = infantry_weights(s)
    cover = s.cover
    base = frm * B.N
    hexes = {}
    for h in B.bits(targets):
        p = _payoff(weights.get(h, 0), not cover >> h & 1, bool(part >> h & 1), _DIST[base + h])[0]
        if p > 0:
            hexes[h] = p
    hs = list(hexes)  # in index order, as bits gives them
    out: list[tuple[tuple[int, ...], int]] = [((h,), hexes[h]) for h in hs]
    for ai, a in enumerate(hs):
        for bi in range(ai + 1, len(hs)):
            b = hs[bi]
            if not B.NEIGHBOUR_MASK[a] >> b & 1:
                continue
            out.append(((a, b), hexes[a] + hexes[b]))
            for c in hs[bi + 1:]:
                if B.NEIGHBOUR_MASK[a] >> c & 1 and B.NEIGHBOUR_MASK[b] >> c & 1:
                    out.append(((a, b, c), hexes[a] + hexes[b] + hexes[c]))
    return out


# -- revealing ----------------------------------------------------------------------
#: the reveal counts from which both reveal rolls take -1 (CA Enemy Decisions)
PENALTY_PLATOONS, PENALTY_ATGS = 3, 2


def global_reveal_penalty(s: State) -> bool:
    """At least 2 real ATGs or 3 real platoons revealed so far (CA Enemy Decisions)."""
    return s.real_atgs_revealed >= PENALTY_ATGS or s.real_platoons_revealed >= PENALTY_PLATOONS


def platoon_reveal_mods(s: State, c: Counter) -> list[Modifier]:
    """A platoon reveal roll (5+ real): +1 with an ATG counter in the hex, -1 if ATGs
    were removed from it, replaced by the -1 once 2 real ATGs or 3 real platoons
    have been revealed (CA Enemy Decisions; rules-notes)."""
    mods: list[Modifier] = []
    if c.atg:
        mods.append(_M_ATG_IN_HEX)
    if global_reveal_penalty(s):
        mods.append(_M_REVEAL_PENALTY)
    elif c.atg_removed:
        mods.append(_M_ATGS_REMOVED)
    return mods


def atg_reveal_mods(s: State, c: Counter) -> list[Modifier]:
    """An ATG reveal roll (5+ real, and the platoon with them): +2 if the platoon is
    already revealed; -1 once 2 real ATGs or 3 real platoons are revealed (CA Enemy Decisions)."""
    mods: list[Modifier] = []
    if c.real:
        mods.append(_M_PLATOON_REVEALED)
    if global_reveal_penalty(s):
        mods.append(_M_REVEAL_PENALTY)
    return mods


# -- mortars --------------------------------------------------------------------------
@_same_state
def own_mortar_targets(s: State, smoke: bool) -> list[int]:
    """Hexes your mortars may target now (CA Mortars): spotted by a fresh infantry
    platoon not adjacent to an enemy counter; for HE a hex with an enemy counter not
    next to any of your platoons; for smoke any hex without one of your platoons.
    After firing last turn, only the same or an adjacent hex."""
    spotters = own_spotters(s)
    if not spotters:
        return []
    anym = unit_masks(s)[0]
    if smoke:
        cands: Iterable[int] = B.bits(B.ALL & ~anym)
    else:
        cands = (c.hex for c in s.enemy if not B.NEIGHBOUR_MASK[c.hex] & anym)
    if s.own_fired == s.turn - 1 and s.own_target >= 0:
        near = B.NEIGHBOUR_MASK[s.own_target] | 1 << s.own_target
        cands = (h for h in cands if near >> h & 1)
    seen = 0
    for sp in spotters:
        seen |= spotted_mask(s, sp)
    return [h for h in cands if seen >> h & 1]


@_same_state
def enemy_mortar_targets(s: State) -> list[int]:
    """Hexes the enemy mortars may target (CA Mortars): holding your infantry,
    spotted by a fresh enemy counter not adjacent to your platoons, and not next
    to a real or potential enemy counter."""
    spotters = enemy_spotters(s)
    if not spotters:
        return []
    inf = unit_masks(s)[2]
    em = s.enemy_mask
    seen = 0
    for sp in spotters:
        seen |= spotted_mask(s, sp)
    return [h for h in B.bits(inf & seen) if not B.NEIGHBOUR_MASK[h] & em]


def enemy_mortar_fires_on(s: State) -> int:
    """The lowest die on which eligible enemy mortars fire: 6 if more of your platoons
    than enemy platoons (not ATGs) have been broken, else 5 (CA Enemy Decisions)."""
    return 6 if friendly_broken(s) > s.enemy_platoons_broken else 5


# -- victory ------------------------------------------------------------------------------
def score(s: State, last_turn: int, more_platoons: int = 0, more_atgs: int = 0) -> dict[str, int]:
    """The score (CA Victory): 1 per real ATG counter in play, 2 per enemy platoon in
    play or ATG counter broken, 4 per enemy platoon broken, 2 per exploiting platoon
    (beyond the broken enemy platoons only if no real enemy platoon remains), -2 per
    platoon of yours broken, and -1 per turn after 18 unless the game is the easier one.
    ``more_platoons`` and ``more_atgs`` are real counters that reveals not yet made
    would add (:mod:`.outlook` weighs the final reveals with them)."""
    atgs = more_atgs + sum(1 for c in s.enemy if c.atg == 2)
    platoons = more_platoons + sum(1 for c in s.enemy if c.real)
    exploited = sum(1 for u in s.units if u.where == EXPLOITED)
    counted = exploited if platoons == 0 else min(exploited, s.enemy_platoons_broken)
    broken = friendly_broken(s)
    late = 0 if s.easier else max(0, last_turn - PENALTY_AFTER)
    parts = {
        "real_atgs_in_play": atgs,
        "enemy_platoons_in_play": 2 * platoons,
        "atgs_broken": 2 * s.enemy_atgs_broken,
        "enemy_platoons_broken": 4 * s.enemy_platoons_broken,
        "exploiting": 2 * counted,
        "your_platoons_broken": -2 * broken,
        "turns_after_18": -late,
    }
    parts["total"] = sum(parts.values())
    return parts


def _uid(i: int) -> str:
    return UNIT_IDS[i]


def fresh_units_on_board(s: State) -> Iterable[tuple[int, Unit]]:
    return ((i, u) for i, u in enumerate(s.units) if u.where >= 0 and u.fresh)
