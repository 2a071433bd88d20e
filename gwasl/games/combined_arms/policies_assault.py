"""``assault``: the raid where the board is heavy; on a light board, the battalion clears
every counter and exploits (issue 27 item 12).

Why (CA Victory): an enemy platoon scores 2 in play and 4 broken, and each exploiting
platoon scores 2, counted beyond the enemy platoons broken only if no real enemy platoon
remains in play.  On a board of many counters the final reveals alone score well and the
raid (:mod:`.tactics`) risks little for a few points.  On a light board (at most
:data:`LIGHT` counters) the reveals can never reach 20, so the game is won only by breaking
every real platoon and sending the battalion off the enemy edge: several companies at once,
each on its own objective (CA Fire Attacks: rifle platoons of different companies may not
engage the same hex), the game going on past the first break of a platoon of yours (each
costs 2, an enemy platoon broken and a platoon exploiting each bring 2 more), the armour
pinning from range and exploiting down the road once the counters that could hold ATGs are
gone.

The policy reads only the state the seat shows (in Combined Arms nothing is hidden: a
potential counter is decided by its reveal roll, CA Enemy Decisions), draws no dice, and
says in each decision why, citing the rule.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Seat
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms import tactics as T
from gwasl.games.combined_arms.planner import break_choice, roll_order, threat_map
from gwasl.games.combined_arms.records import CallMortar, Commit, EndGame, EndPhase, Exploit, Move, Resolve
from gwasl.games.combined_arms.state import (
    ARMOUR,
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

__all__ = ["LIGHT", "assault_policy", "light_board", "sweep_companies"]

#: a board of at most this many enemy counters is swept: the final reveals alone can
#: hardly score 20 there (2 a real platoon, 1 a real ATG, CA Victory)
LIGHT = 13
#: a company sweeps while it has this many rifle platoons left
SWEEP_MIN = 1
#: the last turn of the game: platoons head for the exit hexes in time to leave by it
#: (each turn after 18 costs a point, CA Victory)
LAST_TURN = 20
#: armour moves only into hexes where the chance of being broken this enemy phase is below this
ARMOUR_RISK = 0.05

#: one company at a time, as the raid (True), or every company on its own counter (False)
ONE_COMPANY = False

_MMGS = tuple(i for i in range(len(UNIT_IDS)) if UNIT_KIND[i] == MMG)
_ARMOUR = tuple(i for i in range(len(UNIT_IDS)) if UNIT_KIND[i] == ARMOUR)
_RULES = "CA Victory"


def light_board(s: State) -> bool:
    """Whether the board is swept: at most :data:`LIGHT` enemy counters placed (one in each
    defended hex of the enemy's two thirds of the board, CA The Units), counted from the
    terrain so that the answer stays the same as counters are revealed and removed."""
    return len(R.counter_hexes(s.terrain)) <= LIGHT


# -- companies and objectives ---------------------------------------------------------------------
def sweep_companies(s: State) -> list[str]:
    """Every company with a rifle platoon left, those on the board first (CA Fire Attacks:
    each company assaults its own counter, rifle platoons of different companies never the same)."""
    keyed = []
    for k, co in enumerate(COMPANIES):
        m = T.company_members(s, co)
        if len(m) < SWEEP_MIN:
            continue
        on = sum(1 for i in m if s.units[i].where >= 0)
        keyed.append(((-on, -len(m), k), co))
    return [co for _k, co in sorted(keyed)]


def _objectives(s: State, inf: list[float]) -> dict[str, int]:
    """Each company's objective: a company next to a counter keeps it; the others are matched
    to counters cheapest first over every (company, counter) pair (the cost of
    :func:`tactics.objective`: moves, expected losses on the way, the chance the counter is a
    real platoon), no counter taken by two companies nor next to another's objective (CA Fire
    Attacks: rifle platoons of different companies may not engage the same hex)."""
    cos = sweep_companies(s)
    out: dict[str, int] = {}
    taken: set[int] = set()
    for co in cos:
        t = T.counter_next_to(s, co)
        if t >= 0 and t not in taken:
            out[co] = t
            taken.add(t)
    pairs: list[tuple[float, int, str]] = []
    for co in cos:
        if co in out:
            continue
        dist = T.approach_costs(s, co, inf)
        for c in s.enemy:
            app = T.approach_hexes(s, c.hex, co)
            if len(app) < 2:
                continue
            costs = sorted(dist[h] for h in app)[:3]
            if costs[0] == float("inf"):
                continue
            v = T.REAL_BONUS * (1.0 if c.real else 0.5 if c.atg else 1 / 3)
            pairs.append((sum(costs) / len(costs) - v, c.hex, co))
    for _cost, h, co in sorted(pairs):
        if co in out or h in taken or any(B.distance(h, x) <= 1 for x in taken):
            continue
        out[co] = h
        taken.add(h)
    return out


# -- exploiting ---------------------------------------------------------------------------------------------
def exit_hops(s: State, strict: bool) -> list[int]:
    """Moves from each hex to an exit hex (CA Movement: exploit from the 3 central hexes of
    the enemy rear edge), never through a counter nor (``strict``) next to one, where it
    would be revealed and fire at range 1 (CA Enemy Decisions)."""
    far = 99
    out = [far] * B.N
    barred = s.enemy_mask | B.FORBIDDEN_EDGE
    near = 0
    if strict:
        for c in s.enemy:
            near |= B.NEIGHBOUR_MASK[c.hex]
    q: deque[int] = deque()
    for h in B.bits(B.EXIT_HEXES & ~barred & ~near):
        out[h] = 0
        q.append(h)
    while q:
        h = q.popleft()
        for n in B.NEIGHBOURS[h]:
            if n == B.OFF or out[n] != far or barred >> n & 1 or near >> n & 1:
                continue
            out[n] = out[h] + 1
            q.append(n)
    return out


def _exploit_counts(s: State) -> bool:
    """Whether one more exploiting platoon scores now (CA Victory: beyond the enemy platoons
    broken only if no real enemy platoon remains in play)."""
    exploited = sum(1 for u in s.units if u.where == EXPLOITED)
    return exploited < s.enemy_platoons_broken or not s.enemy


def _exploit_move(s: State, objs: dict[str, int]) -> Decision | None:
    """Exploit, or head for the exit hexes: a platoon whose company has no objective left,
    or that must leave now to be off the board by the last turn (CA Victory: 2 an exploiting
    platoon)."""
    hops = exit_hops(s, True)
    loose = exit_hops(s, False)
    best: tuple[tuple[int, int], Decision] | None = None
    for i, u in enumerate(s.units):
        if not u.fresh or u.where < OFFBOARD or UNIT_KIND[i] == MMG:
            continue
        co = UNIT_COMPANY[i]
        togo = hops[u.where] if u.where >= 0 else 99
        if u.where >= 0 and togo == 99:
            togo = loose[u.where]
        late = u.where >= 0 and s.turn + togo >= LAST_TURN
        free = UNIT_KIND[i] == ARMOUR or (co not in objs and (not s.enemy or _exploit_counts(s)))
        if not (free or late):
            continue
        if R.exploit_allowed(s, i) and (_exploit_counts(s) or late or not s.enemy):
            return Decision(Exploit(UNIT_IDS[i]), f"assault: {UNIT_IDS[i]} exploits off the enemy edge: 2 an exploiting "
                                                  f"platoon ({_RULES}; CA Movement)")
        if UNIT_KIND[i] == ARMOUR:
            continue  # armour moves by :func:`_armour_move`
        if u.where == OFFBOARD and not free:
            continue
        grid = hops if u.where < 0 or hops[u.where] < 99 else loose
        now = grid[u.where] if u.where >= 0 else 99
        for to, _f, _how in R.unit_moves(s, i):
            if grid[to] >= now:
                continue
            key = (grid[to], i)
            if best is None or key < best[0]:
                why = "its company has no objective left" if free else f"it must leave by turn {LAST_TURN}"
                best = (key, Decision(Move(UNIT_IDS[i], B.label(to), None),
                                      f"assault: {UNIT_IDS[i]} to {B.label(to)}, {grid[to]} from the exit hexes: {why} "
                                      f"(exploiting scores 2, {_RULES})"))
    return None if best is None else best[1]


# -- armour -------------------------------------------------------------------------------------------------
def _armour_move(s: State, arm: list[float]) -> Decision | None:
    """Armour comes on once its company of rifle platoons has entered, and advances towards
    the exit hexes only into hexes where no fresh counter could break it this enemy phase
    (CA Enemy Fire: ATGs at up to 5 hexes, platoons at 1), facing the enemy, to pin from
    range and to exploit (CA Movement: 2 hexes a move along the road)."""
    if not any(s.units[i].where >= 0 for i in range(len(UNIT_IDS)) if UNIT_KIND[i] == RIFLE):
        return None
    hops = exit_hops(s, False)
    best: tuple[tuple[int, float, int], Decision] | None = None
    for i in _ARMOUR:
        u = s.units[i]
        if not u.fresh or u.where < OFFBOARD:
            continue
        now = hops[u.where] if u.where >= 0 else 99
        for to, facing, how in R.unit_moves(s, i):
            if hops[to] >= now or arm[to] >= ARMOUR_RISK:
                continue
            key = (hops[to], arm[to], i)
            if best is None or key < best[0]:
                best = (key, Decision(Move(UNIT_IDS[i], B.label(to), facing),
                                      f"assault: {UNIT_IDS[i]} {how} to {B.label(to)}, {hops[to]} from the exit hexes, "
                                      f"out of reach of the fresh counters' fire (CA Enemy Fire)"))
    return None if best is None else best[1]


# -- the move phase ---------------------------------------------------------------------------------------
def _stop_reason(s: State) -> str:
    """Why the sweep ends the game now ('' to go on)."""
    if all(u.where == OFFBOARD for u in s.units):
        return "the sweep was not begun"
    left = [i for i, u in enumerate(s.units) if u.where >= OFFBOARD and UNIT_KIND[i] != MMG]
    if not left:
        return "no platoon is left to attack or exploit"
    if s.turn > 18 and not s.enemy and not any(s.units[i].where >= 0 for i in left):
        return "nothing more to gain, and each turn after 18 costs a point (CA Victory)"
    return ""


def _move(s: State) -> Decision:
    if not s.acted and s.turn >= 2:
        why = _stop_reason(s)
        if why:
            return Decision(EndGame(), f"assault ends the game: {why}")
    inf, arm, _by = threat_map(s)
    objs = T.objectives(s, inf) if ONE_COMPANY else _objectives(s, inf)
    d = T.mmg_entry(s, list(objs.values()) or [c.hex for c in s.enemy] or [B.ROAD[-1]])
    if d is not None:
        return d
    d = _exploit_move(s, objs)
    if d is not None:
        return d
    taken = {s.units[i].where for i in range(len(UNIT_IDS)) if s.units[i].where >= 0 and UNIT_KIND[i] != ARMOUR}
    moves = [m for co, t in objs.items() for m in T.company_moves(s, co, t, inf, taken)]
    if moves:
        _v, mv, why = max(moves, key=lambda x: x[0])
        return Decision(mv, f"assault: {why} (CA Movement; every company on its own counter, CA Fire Attacks)")
    d = _armour_move(s, arm)
    if d is not None:
        return d
    return Decision(EndPhase(), "assault: the companies hold")


# -- the fire phase ------------------------------------------------------------------------------------------
def _fire(s: State) -> Decision:
    if ONE_COMPANY:
        return T.raid_fire(s)
    inf = threat_map(s)[0]
    objs = _objectives(s, inf)
    if s.group:
        first = s.group[0][0]
        tgt = s.group_target
        if UNIT_KIND[first] == RIFLE:
            for i in T.assault_group(s, tgt):
                if all(i != j for j, _ in s.group):
                    return Decision(Commit(UNIT_IDS[i], B.label(tgt), None),
                                    f"assault: {UNIT_IDS[i]} joins the assault on {B.label(tgt)}: all firers adjacent, "
                                    f"so a 4+ breaks it (CA Fire Attacks)")
        else:
            for m in _MMGS + _ARMOUR:
                if s.units[m].fresh and s.units[m].where >= 0 and all(m != j for j, _ in s.group) \
                        and tgt in R.fire_targets(s, m) and _pin(s, m, tgt) > 0:
                    return Decision(_commit(s, m, tgt), f"assault: {UNIT_IDS[m]} joins the fire on {B.label(tgt)} "
                                                        f"(CA Fire Attacks)")
        return Decision(Resolve(), "assault: resolve the attack (CA Fire Attacks)")
    values = T.pin_values(s, set(objs.values()))
    if not s.engaged and s.own_fired != s.turn:
        calls = [(values.get(h, 0.0), h) for h in R.own_mortar_targets(s, False)]
        calls = [c for c in calls if c[0] > 0]
        if calls:
            v, h = max(calls)
            return Decision(CallMortar(B.label(h), "he"), f"assault: mortars on {B.label(h)} (worth {v:.2f}; CA Mortars)")
    # every company's adjacent platoons assault their objective, and any other counter they
    # stand next to (a spent or revealed one: breaking it scores 2 more, CA Victory)
    for co in COMPANIES:
        t = objs.get(co, -1)
        if t >= 0 and not s.engaged >> t & 1:
            group = [i for i in T.assault_group(s, t) if UNIT_COMPANY[i] == co]
            if group:
                return Decision(Commit(UNIT_IDS[group[0]], B.label(t), None),
                                f"assault: company {co} assaults {B.label(t)} with its adjacent platoons only, "
                                f"so a 4+ breaks it (CA Fire Attacks)")
    for c in s.enemy:
        if s.engaged >> c.hex & 1:
            continue
        group = T.assault_group(s, c.hex)
        if group:
            return Decision(Commit(UNIT_IDS[group[0]], B.label(c.hex), None),
                            f"assault: the platoons next to {B.label(c.hex)} assault it, so a 4+ breaks it (CA Fire Attacks)")
    shots: list[tuple[float, int, int]] = []
    for m in _MMGS + _ARMOUR:
        if not s.units[m].fresh or s.units[m].where < 0:
            continue
        for h in R.fire_targets(s, m):
            if s.engaged >> h & 1:
                continue
            shots.append((values.get(h, 0.0) * _pin(s, m, h), h, m))
    shots = [x for x in shots if x[0] > 0]
    if shots:
        v, h, m = max(shots)
        return Decision(_commit(s, m, h), f"assault: {UNIT_IDS[m]} pins {B.label(h)} (worth {v:.2f}): a pinned counter "
                                          f"becomes fresh instead of firing (CA Enemy Decisions)")
    return Decision(EndPhase(), "assault: nothing worth firing at")


def _pin(s: State, u: int, h: int) -> float:
    """The chance that platoon ``u`` pins ``h`` (a modified 2+, CA Fire Attacks); armour turns
    to face it as it fires (CA Fire Attacks: fresh armour may change facing in your fire phase)."""
    return R.chances(sum(x.value for x in R.own_fire_mods(s, u, h)), R.PIN_NEED) / 6


def _commit(s: State, u: int, h: int) -> Commit:
    if UNIT_KIND[u] != ARMOUR:
        return Commit(UNIT_IDS[u], B.label(h), None)
    facings = R.fire_facings(s, u, h)
    f = s.units[u].facing if s.units[u].facing in facings else facings[0]
    return Commit(UNIT_IDS[u], B.label(h), f)


# -- the policy ---------------------------------------------------------------------------------------------------
_RAID = T.raid_policy


def assault_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """The raid (:mod:`.tactics`) on a board of more than :data:`LIGHT` counters; on a light
    one every company sweeps and the battalion exploits (CA Victory: 4 an enemy platoon
    broken, 2 an exploiting platoon; module docstring)."""
    s: State = seat.view()
    if not light_board(s):
        return _RAID(seat, dice)
    if s.breaks:
        return break_choice(s)
    if s.rolls:
        return roll_order(s, seat.legal())
    if s.phase == MOVE:
        return _move(s)
    if s.phase == FIRE:
        return _fire(s)
    acts = seat.legal()
    return Decision(acts[0], "the only choice")

