"""``planner``: a heuristic attacker built on the tactic the text teaches.

A spent enemy counter becomes fresh *instead of* firing, so one pinned in your
fire phase cannot fire in the enemy phase, and stays spent through your next
move and fire phases.  The planner therefore:

* pins from a distance (mortars, MMGs, armour, and rifle platoons when the
  odds are good) the fresh counters that threaten your platoons and each rifle
  company's objective;
* moves rifle platoons adjacent to their objective only while it is spent,
  one platoon per hex, and assaults it with every adjacent platoon of the
  company and nothing else (so a 4+ breaks it);
* otherwise keeps platoons where fresh enemies cannot hit them, in cover,
  2-3 hexes from the objective; armour out of reach of possible ATGs;
* exploits from turn 14 while an exploiting platoon still scores, and ends the
  game when nothing more is to be gained (each turn after 18 costs a point),
  or at once when the battalion has been cut down;
* ends the game (on turn 1: stays off the board) once ending now would win 30%
  of the time, the final reveals weighed exactly by :mod:`.outlook` (CA Design
  Notes: "You can even win if you stop attacking an unexpectedly strong defence").

Each call returns one action from the state alone (a pure function).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Policy, Seat
from gwasl.engine.record import Record
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import choices as C
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.records import (
    BreakUnit,
    CallMortar,
    Commit,
    EndGame,
    EndPhase,
    Exploit,
    Move,
    Resolve,
    RollNext,
)
from gwasl.games.combined_arms.state import (
    ARMOUR,
    BROKEN,
    COMPANIES,
    EXPLOITED,
    FIRE,
    MMG,
    MOVE,
    OFFBOARD,
    RIFLE,
    UNIT_COMPANY,
    UNIT_IDS,
    UNIT_KIND,
    State,
)

__all__ = ["break_choice", "by_phase", "planner_policy", "roll_order", "threat_map"]

#: chance that a potential counter is real, for weighing threats (5+ on a die, +1 with ATGs)
P_REAL = 0.4
#: turn from which platoons with nothing to assault head for the exploitation gateway
EXPLOIT_FROM = 14
#: weights of the move evaluation
THREAT, STACK, COVER = 4.0, 1.5, 0.3
#: how much of its objective's fire a company expects its assault to stop
PIN_EXPECTED = 0.85
#: the game ends once this many of your platoons are broken
MAX_BROKEN = 2
#: from this turn the game ends when the attack has stalled or costs more than it gains
STALL_TURN = 3
#: the game ends (or is not begun) once ending it now wins this often: fighting on wins
#: less (tuned on seeds 1000-1299, measured on 0-999: docs/combined-arms.md)
STOP_AT = 0.3
#: on turn 1 the battalion enters only when ending after turn 1 would win less often than
#: this: fighting on loses more points than it gains on every kind of board measured
#: (docs/combined-arms.md), so it is worth its risk only where the reveals alone cannot win
ENTER_BELOW = 0.02


def by_phase(move: Callable[[State], Decision], fire: Callable[[State], Decision]) -> Policy:
    """An attacker policy from its move- and fire-phase choices: a break or roll order
    pending in the enemy phase is chosen by :func:`break_choice` and :func:`roll_order`,
    and any other moment has one action only."""

    def policy(seat: Seat[Any], dice: GameDice) -> Decision:
        s: State = seat.view()
        if s.breaks:
            return break_choice(s)
        if s.rolls:
            return roll_order(s, seat.legal())
        if s.phase == MOVE:
            return move(s)
        if s.phase == FIRE:
            return fire(s)
        acts = seat.legal()
        return Decision(acts[0], "the only choice")

    return policy


# -- threats --------------------------------------------------------------------------------------
def threat_map(s: State) -> tuple[list[float], list[float], dict[int, list[float]]]:
    """Expected losses a lone fresh rifle platoon would suffer in each hex (in total and by
    counter), and the chance armour there would be broken, from the counters fresh now."""
    inf = [0.0] * B.N
    arm = [0.0] * B.N
    by: dict[int, list[float]] = {}
    for c in s.enemy:
        if not c.fresh:
            continue
        mine = by.setdefault(c.hex, [0.0] * B.N)
        for h in B.bits(B.WITHIN5[c.hex]):
            d = B.distance(c.hex, h)
            att = R.enemy_infantry_attack(s, c.hex, h)
            if att is not None:
                ch = R.chances(sum(m.value for m in att[0]), R.INFANTRY_NEED)
                t = 0.0
                if c.real:
                    t = ch / 6 * att[1]
                elif d == 1 or 2 * ch >= R.REVEAL_PAYOFF:  # a potential counter fires if revealed
                    t = P_REAL * ch / 6 * att[1]
                inf[h] += t
                mine[h] += t
            if c.atg:
                lof = R.line_of_fire(s, c.hex, h)
                if lof != R.BLOCKED:
                    ch = R.chances(1 - d - (lof == R.PARTIAL) - (s.hull >> h & 1), R.ATG_NEED)  # a side shot, at worst
                    if c.atg == 2 or ch >= R.REVEAL_ATG_CHANCES:
                        arm[h] += (1.0 if c.atg == 2 else P_REAL * 0.6) * ch / 6
            if d == 1:
                arm[h] += (1.0 if c.real else P_REAL) * 3 / 6
    return inf, arm, by


# -- objectives ---------------------------------------------------------------------------------------
def _company(s: State, co: str) -> list[int]:
    return [i for i in range(len(UNIT_IDS)) if UNIT_COMPANY[i] == co and s.units[i].where >= OFFBOARD]


def _objectives(s: State) -> dict[str, int]:
    """Each company's objective: the enemy counter nearest its platoons that no other company
    has taken (rifle platoons of different companies may not engage the same hex)."""
    out: dict[str, int] = {}
    taken: set[int] = set()
    cos = [co for co in COMPANIES if _company(s, co)]
    cos.sort(key=lambda co: -len(_company(s, co)))
    for co in cos:
        hexes = [s.units[i].where for i in _company(s, co) if s.units[i].where >= 0] or [B.ROAD[0]]
        best: tuple[Any, ...] | None = None
        for c in s.enemy:
            if c.hex in taken:
                continue
            k = (min(B.distance(h, c.hex) for h in hexes), not c.fresh, B.ROW[c.hex], c.hex)
            if best is None or k < best:
                best = k
        if best is not None:
            out[co] = best[-1]
            taken.add(best[-1])
    return out


def _exploit_worth(s: State) -> bool:
    exploited = sum(1 for u in s.units if u.where == EXPLOITED)
    return exploited < s.enemy_platoons_broken or not any(c.real for c in s.enemy)


def _heading_out(s: State) -> bool:
    return s.turn >= EXPLOIT_FROM and _exploit_worth(s)


# -- the move phase -------------------------------------------------------------------------------------
def _move(s: State) -> Decision:
    if not s.acted:
        # CA Design Notes: "You can even win if you stop attacking an unexpectedly strong
        # defence": the final reveals alone may score 20 (:mod:`.outlook` weighs them)
        sure = O.win_chance(s, max(1, s.turn - 1))
        if s.turn == 1 and sure >= ENTER_BELOW:
            return Decision(EndPhase(), f"planner stays off the board: ending after turn 1 wins {sure:.1%} of the time, "
                                        f"more than the fight is worth")
        why = _stop(s, sure) if s.turn >= 2 else ""
        if why:
            return Decision(EndGame(), f"planner ends the game: {why}")
    inf, arm, by = threat_map(s)
    objectives = _objectives(s)
    best: tuple[float, Record, str] | None = None
    for u, unit in enumerate(s.units):
        if not unit.fresh or unit.where < OFFBOARD:
            continue
        if R.exploit_allowed(s, u) and _heading_out(s):
            return Decision(Exploit(UNIT_IDS[u]), f"{UNIT_IDS[u]} exploits while it scores")
        here = _value(s, u, unit.where, unit.facing, inf, arm, by, objectives)
        for to, facing, _how in R.unit_moves(s, u):
            v = _value(s, u, to, facing, inf, arm, by, objectives) - here
            if best is None or v > best[0]:
                armour = UNIT_KIND[u] == ARMOUR
                best = (v, Move(UNIT_IDS[u], B.label(to), facing if armour else None), f"{UNIT_IDS[u]} to {B.label(to)} ({v:+.2f})")
    if best is not None and best[0] > 0.05:
        return Decision(best[1], "planner: " + best[2])
    return Decision(EndPhase(), "planner: no move improves the position")


def _stop(s: State, sure: float) -> str:
    if all(u.where == OFFBOARD for u in s.units):
        return f"the battalion stayed off the board and the final reveals win {sure:.1%} of the time"
    if sure >= STOP_AT:
        return f"the final reveals alone win {sure:.0%} of the time"
    alive = [i for i, u in enumerate(s.units) if u.where >= OFFBOARD and UNIT_KIND[i] == RIFLE]
    if len(alive) <= 2:
        return "too few rifle platoons are left to attack"
    broken = sum(1 for u in s.units if u.where == BROKEN)
    if broken >= MAX_BROKEN:
        return "losses are mounting"
    if s.turn >= STALL_TURN and broken > s.enemy_platoons_broken:
        return f"by turn {s.turn} the attack costs more than it gains"
    objectives = _objectives(s)
    near = any(s.units[i].where >= 0 and B.distance(s.units[i].where, t) <= 2
               for co, t in objectives.items() for i in _company(s, co))
    if s.turn >= STALL_TURN and not near and not s.enemy_platoons_broken:
        return f"by turn {s.turn} no company has closed on its objective"
    if s.turn >= 19:
        busy = any(s.units[i].where >= 0 and B.NEIGHBOUR_MASK[s.units[i].where] & s.enemy_mask for i in alive)
        near_exit = _exploit_worth(s) and any(
            s.units[i].where >= 0 and min(B.distance(s.units[i].where, x) for x in B.bits(B.EXIT_HEXES)) <= 1
            for i in range(len(UNIT_IDS)) if UNIT_KIND[i] != MMG)
        if not busy and not near_exit:
            return "nothing more to gain, and each turn after 18 costs a point"
    return ""


def _value(s: State, u: int, h: int, facing: int, inf: list[float], arm: list[float], by: dict[int, list[float]],
           objectives: dict[str, int]) -> float:
    """How good hex ``h`` is for platoon ``u`` this turn (higher is better)."""
    kind = UNIT_KIND[u]
    if h == OFFBOARD:  # one step behind the best rear edge hex, out of harm's way
        zero = [0.0] * B.N
        return max(_value(s, u, e, 4, zero, zero, {}, objectives) for e in B.bits(B.REAR_HEXES)) - 0.75
    if kind == MMG:  # MMGs stay where they enter: pick a rear edge hex that sees many counters
        seen = sum(1 for c in s.enemy if 1 <= B.distance(h, c.hex) <= 5 and R.line_of_fire(s, h, c.hex, own=True) != R.BLOCKED)
        return 0.3 * seen - THREAT * inf[h]
    exit_d = min(B.distance(h, x) for x in B.bits(B.EXIT_HEXES))
    if kind == ARMOUR:
        v = -4 * arm[h] + 0.1 * sum(1 for c in s.enemy if B.ARC[h][facing] >> c.hex & 1 and B.distance(h, c.hex) <= 4)
        if _heading_out(s):
            return v - 0.6 * exit_d
        dmin = min((B.distance(h, c.hex) for c in s.enemy), default=6)
        return v - 0.3 * abs(dmin - 4)
    stack = sum(1 for j, o in enumerate(s.units) if j != u and o.where == h and UNIT_KIND[j] != ARMOUR)
    target = objectives.get(UNIT_COMPANY[u] or "", -1)
    # the objective is assaulted this turn by the company's adjacent platoons, whose fire
    # pins it (4+ on 2 dice: 8 in 9), so its own fire counts for little
    own = by.get(target)
    threat = inf[h] - (PIN_EXPECTED * own[h] if own is not None else 0.0)
    threat += _ambush(s, u, h, target)
    v = -THREAT * threat - STACK * stack + (COVER if s.cover >> h & 1 else 0.0)
    if _heading_out(s) and (target < 0 or s.turn >= 17):
        return v - 0.8 * exit_d
    if target < 0:
        return v - 0.4 * exit_d
    d = B.distance(h, target)
    strength = sum(1 for i in _company(s, UNIT_COMPANY[u] or "") if s.units[i].where >= OFFBOARD)
    want = 1 if strength >= 2 else 3
    v -= 0.7 * abs(d - want)
    for o in s.enemy:  # never next to another counter: it would be revealed and fire at range 1
        if o.hex != target and B.distance(h, o.hex) == 1 and o.fresh:
            v -= 1.0
    return v


def _ambush(s: State, u: int, h: int, target: int) -> float:
    """Expected losses from potential counters that the platoon in ``h`` and its neighbours
    would tempt into revealing themselves (a cluster payoff of 6 or more, CA Enemy Decisions)."""
    out = 0.0
    near = [x for j, o in enumerate(s.units) if j != u and (x := o.where) >= 0 and UNIT_KIND[j] != ARMOUR
            and B.NEIGHBOUR_MASK[h] >> x & 1]
    for c in s.enemy:
        if c.real or not c.fresh or c.hex == target or not B.WITHIN5[c.hex] >> h & 1 or B.distance(c.hex, h) == 1:
            continue
        _p, _w, ch = R.payoff(s, c.hex, h)
        if ch == 0:
            continue
        total = 2 * ch + sum(sorted((R.payoff(s, c.hex, x)[0] for x in set(near)), reverse=True)[:2])
        if total >= R.REVEAL_PAYOFF and 2 * ch < R.REVEAL_PAYOFF:  # the lone case is already in the threat map
            out += P_REAL * ch / 6
    return out


# -- the fire phase --------------------------------------------------------------------------------------
def _fire(s: State) -> Decision:
    if s.group:
        more = [a for a in C.attacker_actions(s) if isinstance(a, Commit) and _joins(s, a)]
        if more:
            return Decision(more[0], f"planner: {more[0].unit} joins the attack on {more[0].target}")
        return Decision(Resolve(), "planner: resolve the attack")
    if not s.engaged and s.own_fired != s.turn:
        call = _mortar_call(s)
        if call is not None:
            return call
    for choose in (_assault, _covering_fire):
        d = choose(s)
        if d is not None:
            return d
    return Decision(EndPhase(), "planner: nothing worth firing at")


def _assaulted(s: State) -> set[int]:
    """Enemy hexes next to a fresh rifle platoon: kept for the assault, no fire from afar."""
    out: set[int] = set()
    for i, u in enumerate(s.units):
        if u.where >= 0 and u.fresh and UNIT_KIND[i] == RIFLE:
            out |= set(B.bits(B.NEIGHBOUR_MASK[u.where] & s.enemy_mask & ~s.engaged))
    return out


def _joins(s: State, a: Commit) -> bool:
    t = B.index_of(a.target)
    u = UNIT_IDS.index(a.unit)
    if all(B.distance(s.units[g].where, t) == 1 for g, _ in s.group):
        return B.distance(s.units[u].where, t) == 1
    return UNIT_KIND[u] != RIFLE or _pin_chance(s, u, t) >= 0.5


def _pin_chance(s: State, u: int, t: int) -> float:
    return R.chances(sum(m.value for m in R.own_fire_mods(s, u, t)), R.PIN_NEED) / 6


def _targets(s: State) -> dict[int, float]:
    """How much pinning each counter is worth: the losses it may inflict on your platoons,
    and more for a company's objective (pinned, it can be approached and assaulted)."""
    inf_hexes = [u.where for i, u in enumerate(s.units) if u.where >= 0 and UNIT_KIND[i] != ARMOUR]
    objectives = set(_objectives(s).values())
    out: dict[int, float] = {}
    for c in s.enemy:
        if not c.fresh:
            continue
        w = 1.0 if c.real else P_REAL
        v = 0.0
        for h in set(inf_hexes):
            p = R.payoff(s, c.hex, h)[0]
            v += p / 6
        for i, u in enumerate(s.units):
            if UNIT_KIND[i] == ARMOUR and u.where >= 0 and R.enemy_armour_attack(s, c.hex, i, c.atg >= 1) is not None:
                v += 1.0
        if c.hex in objectives:
            v += 1.5
        out[c.hex] = w * v
    return out


def _assault(s: State) -> Decision | None:
    best: tuple[tuple[bool, int], Commit, int] | None = None
    for t in sorted(_assaulted(s)):
        c = s.counter_at(t)
        if c is None:
            continue
        by_co: dict[str | None, list[Commit]] = {}
        for u in range(len(UNIT_IDS)):
            if UNIT_KIND[u] == RIFLE and s.units[u].where >= 0 and B.distance(s.units[u].where, t) == 1:
                for a in C.unit_actions(s, u):
                    if isinstance(a, Commit) and a.target == B.label(t):
                        by_co.setdefault(UNIT_COMPANY[u], []).append(a)
        if not by_co:
            continue
        firers = max(by_co.values(), key=len)
        key = (not c.fresh, len(firers))
        if best is None or key > best[0]:
            best = (key, firers[0], t)
    if best is None:
        return None
    return Decision(best[1], f"planner: assault {B.label(best[2])} with the adjacent platoons of one company only")


def _covering_fire(s: State) -> Decision | None:
    assaulted = _assaulted(s)
    values = _targets(s)
    options: list[tuple[float, Commit]] = []
    for u, unit in enumerate(s.units):
        if not unit.fresh or unit.where < 0:
            continue
        for a in C.unit_actions(s, u):
            if not isinstance(a, Commit):
                continue
            t = B.index_of(a.target)
            if t in assaulted or values.get(t, 0.0) <= 0:
                continue
            p = _pin_chance(s, u, t)
            if UNIT_KIND[u] == RIFLE and (p < 0.5 or s.ammo == 7):
                continue  # rifle fire costs ammo: only good shots, never the one that withdraws the firer
            if p > 0:
                options.append((values[t] * p, a))
    if not options:
        return None
    v, a = max(options, key=lambda o: o[0])
    return Decision(a, f"planner: covering fire at {a.target} (worth {v:.2f})")


def _mortar_call(s: State) -> Decision | None:
    values = _targets(s)
    assaulted = _assaulted(s)
    scored = [(values.get(t, 0.0), t) for t in R.own_mortar_targets(s, False) if t not in assaulted]
    scored = [x for x in scored if x[0] > 0]
    if not scored:
        return None
    v, t = max(scored)
    return Decision(CallMortar(B.label(t), "he"), f"planner: mortars on {B.label(t)} (worth {v:.2f})")


# -- the enemy phase's choices ---------------------------------------------------------------------------
def roll_order(s: State, legal: Sequence[Record]) -> Decision:
    """Which attacked hex to roll for next, the attacker's choice ("Roll for each hex, in any
    desired order", CA Enemy Fire): the one with the fewest platoons first, among the
    ``legal`` actions (the seat's)."""
    acts = [a for a in legal if isinstance(a, RollNext)]
    a = min(acts, key=lambda r: len(R.infantry_in(s, B.index_of(r.hex))))
    return Decision(a, "planner: roll first where the fewest platoons stand")


def break_choice(s: State) -> Decision:
    """Which platoon breaks when losses pass from 7 to 0 ("one infantry platoon of your
    choice in the target hex", CA Enemy Fire): an MMG (it cannot move), else a spent one."""
    cands = R.infantry_in(s, s.break_hex)
    cands.sort(key=lambda i: (UNIT_KIND[i] != MMG, s.units[i].fresh))
    return Decision(BreakUnit(UNIT_IDS[cands[0]]), "planner: break an MMG, else a spent platoon")


planner_policy = by_phase(_move, _fire)
