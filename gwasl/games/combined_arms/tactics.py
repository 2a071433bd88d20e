"""``raid``: one rifle company assaults the enemy counters nearest your edge, one at a
time, under covering fire, and the game ends before a platoon of yours breaks.

Why it can beat doing nothing (CA Victory): the score counts 2 for an enemy platoon
in play and 4 for one broken, and your losses cost nothing until the circular loss
track passes from 7 to 0 and breaks a platoon (CA Enemy Fire).  So the raid spends
that free budget: it ends the game (CA Sequence of Play: "You may end the game after
... any earlier turn") once the losses reach :data:`LOSS_BUDGET` (unless a fresh platoon
of the company already stands next to its objective: it fires before the enemy phase,
and may pin it; then up to :data:`PUSH_ON`), or a platoon of yours breaks, or nothing is
left in reach.

The tactic (CA Fire Attacks, Enemy Fire, Mortars, Enemy Decisions):

* only one company (:data:`RAIDERS`) and the two MMGs enter, on turn 1 when the
  bombardment pins most counters that could see them; armour and the other companies
  stay off the board, where enemy fire and mortars cannot reach them (more companies
  and armour support were tried and lost points: docs/combined-arms.md);
* the objective is the enemy counter with 2 free hexes next to it that the company
  reaches most cheaply, a revealed platoon preferred, and one whose reveal in play would
  come before the -1 of CA Enemy Decisions that it would meet at the end
  (:func:`objective`, :func:`reveal_first_gain`);
* each platoon heads by the shortest way for its own hex next to the objective, never
  next to another counter (an adjacent counter is revealed and fires at range 1 with 2
  losses a platoon), one platoon a hex; it steps in only once two platoons of the
  company are one move away, so they step in together;
* the MMGs, which never move, pin the objective the turn the company steps in (moved
  platoons are spent and may not fire): a pinned counter becomes fresh in the enemy
  phase instead of firing, and is revealed there since your platoons are adjacent;
* the next turn the adjacent platoons of the company, and nothing else, fire at it,
  so a modified 4+ breaks it (:func:`assault_group`);
* the mortars (spotted by an MMG) and the MMGs otherwise pin the fresh counter that
  threatens the company most.

Each call returns one action from the state alone (a pure function).
"""

from __future__ import annotations

from collections import deque

from gwasl.engine.game import Decision
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.planner import by_phase, threat_map
from gwasl.games.combined_arms.records import CallMortar, Commit, EndGame, EndPhase, Move, Resolve
from gwasl.games.combined_arms.state import (
    BROKEN,
    COMPANIES,
    MMG,
    OFFBOARD,
    RIFLE,
    UNIT_COMPANY,
    UNIT_IDS,
    UNIT_KIND,
    State,
    with_enemy,
)

__all__ = ["LOSS_BUDGET", "assault_group", "objective", "raid_policy"]

#: the game ends at the start of a turn once the loss track shows this many: the next
#: enemy phase could take it past 7, which breaks a platoon (-2, CA Victory)
LOSS_BUDGET = 4
#: past the loss budget, an assault goes on while the loss track shows at most this many, if
#: a fresh platoon of the company stands next to its objective: it fires before the enemy
#: phase, and a counter it pins becomes fresh there instead of firing (CA Enemy Decisions)
PUSH_ON = 6
#: ...and has at least this many fresh platoons next to it
PUSH_GROUP = 1
#: how many platoons of the company must be one move away before they step in together
STEP_IN = 2
#: the raid is not begun where ending after turn 1 would win at least this often (the
#: fight risks that chance for a few points, CA Design Notes)
ENTER_BELOW = 1.01
#: no new objective is taken from this turn (each turn after 18 costs a point)
LAST_OBJECTIVE_TURN = 16
#: how many rifle companies raid at once: enemy fire hits one cluster a counter, and enemy
#: mortars one hex a turn, so the losses grow more slowly than the platoons exposed
RAIDERS = 1
#: how many turns of approach a sure enemy platoon is worth over an empty hex
REAL_BONUS = float(3)
#: weight, in turns of approach a point, of what revealing a counter now (ahead of its place
#: in the activation order of the final reveals) adds to the end-now mean score (0: unused)
REVEAL_FIRST = 25.0
#: weight of a hex's expected losses against one turn of approach
THREAT = 3.0

_MMGS = tuple(i for i in range(len(UNIT_IDS)) if UNIT_KIND[i] == MMG)


# -- the company and its objective ---------------------------------------------------------------
def company_members(s: State, co: str) -> list[int]:
    """The platoons of rifle company ``co`` still in play, on the board or waiting to enter
    (CA The Units: a battalion of three rifle companies of three platoons)."""
    return [i for i in range(len(UNIT_IDS)) if UNIT_COMPANY[i] == co and s.units[i].where >= OFFBOARD]


def companies(s: State) -> list[str]:
    """The raiding companies, at most :data:`RAIDERS` of them: those with at least 2 rifle
    platoons left, entered ones first (a company on the board goes on before a new one)."""
    keyed = []
    for k, co in enumerate(COMPANIES):
        m = company_members(s, co)
        if len(m) < 2:
            continue
        on = sum(1 for i in m if s.units[i].where >= 0)
        keyed.append(((-on, -len(m), k), co))
    return [co for _k, co in sorted(keyed)[:RAIDERS]]


def objectives(s: State, inf: list[float] | None = None) -> dict[str, int]:
    """Each raiding company's objective (:func:`objective`), no counter taken by two
    companies (CA Fire Attacks: rifle platoons of different companies may not engage the
    same hex); companies already next to their counter choose first."""
    if inf is None:
        inf = threat_map(s)[0]
    cos = companies(s)
    engaged = [co for co in cos if counter_next_to(s, co) >= 0]
    out: dict[str, int] = {}
    taken: set[int] = set()
    for co in engaged + [c for c in cos if c not in engaged]:
        t = objective(s, co, inf, taken)
        if t >= 0:
            out[co] = t
            taken.add(t)
    return out


def counter_next_to(s: State, co: str) -> int:
    """The enemy counter next to the company's platoons (-1: none): the one its adjacent
    platoons may assault (CA Combat)."""
    here = [s.units[i].where for i in company_members(s, co) if s.units[i].where >= 0]
    for c in s.enemy:
        if any(B.distance(h, c.hex) == 1 for h in here):
            return c.hex
    return -1


def approach_hexes(s: State, t: int, co: str) -> list[int]:
    """Hexes next to ``t`` the company may stand in without being next to another counter (a
    platoon next to a potential counter reveals it, CA Enemy Decisions)."""
    others = s.enemy_mask & ~(1 << t)
    out = []
    for h in B.bits(B.NEIGHBOUR_MASK[t]):
        if (s.enemy_mask | B.FORBIDDEN_EDGE) >> h & 1 or B.NEIGHBOUR_MASK[h] & others:
            continue
        if (s.m_rifle & ~s.m_company[COMPANIES.index(co)]) >> h & 1:
            continue
        out.append(h)
    return out


def approach_costs(s: State, co: str, inf: list[float]) -> list[float]:
    """Cost to reach each hex from where the company stands (your edge, before it enters; CA Movement):
    1 a move plus THREAT times the expected losses there; hexes next to a counter are
    reached but not passed."""
    INF = float("inf")
    dist = [INF] * B.N
    q: deque[int] = deque()
    here = [s.units[i].where for i in company_members(s, co) if s.units[i].where >= 0]
    if here:
        for h in here:
            dist[h] = 0.0
            q.append(h)
    else:
        for h in B.bits(B.REAR_HEXES):
            if not (s.enemy_mask >> h & 1):
                dist[h] = 1 + THREAT * inf[h]
                q.append(h)
    # a few passes of relaxation suffice on 79 hexes (costs are small and positive)
    while q:
        h = q.popleft()
        if B.NEIGHBOUR_MASK[h] & s.enemy_mask:
            continue  # do not walk on past a counter
        for n in B.NEIGHBOURS[h]:
            if n == B.OFF or (s.enemy_mask | B.FORBIDDEN_EDGE) >> n & 1:
                continue
            c = dist[h] + 1 + THREAT * inf[n]
            if c < dist[n] - 1e-9:
                dist[n] = c
                q.append(n)
    return dist


def objective(s: State, co: str, inf: list[float] | None = None, taken: set[int] | None = None) -> int:
    """The counter the company assaults (-1: none in reach): one with at least 2 free hexes
    next to it, the cheapest to reach (CA Movement: rifle platoons of one company may stack,
    but spread they suffer less, CA Enemy Fire), a counter already engaged kept first."""
    if inf is None:
        inf = threat_map(s)[0]
    taken = taken or set()
    kept = counter_next_to(s, co)  # the counter the company already stands next to
    if kept >= 0 and kept not in taken:
        return kept
    dist = approach_costs(s, co, inf)
    best: tuple[float, int] | None = None
    for c in s.enemy:
        if c.hex in taken or any(B.distance(c.hex, x) <= 2 for x in taken):
            continue  # another company's objective, or so near it that the raids would mix
        app = approach_hexes(s, c.hex, co)
        if len(app) < 2:
            continue
        costs = sorted(dist[h] for h in app)[:3]
        if costs[0] == float("inf"):
            continue
        # a revealed platoon is surely there to break; a potential one is real 1 time in 3
        # (1 in 2 with ATGs, CA Enemy Decisions)
        v = REAL_BONUS * (1.0 if c.real else 0.5 if c.atg else 1 / 3)
        if REVEAL_FIRST and not c.real:
            v += REVEAL_FIRST * reveal_first_gain(s, c.hex)
        key = (sum(costs) / len(costs) - v, c.hex)
        if best is None or key < best:
            best = key
    return -1 if best is None else best[1]


def reveal_first_gain(s: State, h: int) -> float:
    """What revealing the counter in ``h`` now, before the others, adds to the mean score
    of ending the game (CA Victory), the reveal rolls being in activation order and the -1
    coming once 3 real platoons or 2 real ATGs are out (CA Enemy Decisions)."""
    # the difference depends only on the counters (fresh or spent changes no reveal roll)
    # and the reveal counts: the rest of the score is the same either way (the raid never
    # exploits)
    key = (tuple(c[:4] for c in s.enemy), s.real_platoons_revealed, s.real_atgs_revealed)
    gains = _REVEAL_GAINS.get(key)
    if gains is None:
        if len(_REVEAL_GAINS) > 4096:
            _REVEAL_GAINS.clear()
        gains = _REVEAL_GAINS[key] = {-1: O.mean_score(s, s.turn)}
    if h not in gains:
        first = [c for c in s.enemy if c.hex == h]
        moved = with_enemy(s, tuple(first) + tuple(c for c in s.enemy if c.hex != h))
        gains[h] = O.mean_score(moved, s.turn) - gains[-1] if first and not first[0].real else 0.0
    return gains[h]


#: reveal_first_gain's figures by counters and reveal counts; -1 holds the end-now mean
_REVEAL_GAINS: dict[tuple[object, ...], dict[int, float]] = {}


# -- the move phase --------------------------------------------------------------------------
def stop_reason(s: State) -> str:
    """Why the raid ends the game now ('' to go on)."""
    if all(u.where == OFFBOARD for u in s.units):
        return "the raid was not begun"
    if any(u.where == BROKEN for u in s.units):
        return "a platoon of yours has broken: the losses now cost points (CA Victory)"
    if s.losses >= LOSS_BUDGET and not _pushing_on(s):
        return f"the loss track shows {s.losses}: the next enemy phase could break a platoon"
    objs = objectives(s)
    if not objs:
        return "no enemy counter is left in reach of a company"
    if s.turn > LAST_OBJECTIVE_TURN and not any(counter_next_to(s, co) >= 0 for co in objs):
        return "too late for another objective"
    return ""


def _pushing_on(s: State) -> bool:
    """Whether an assault next to its objective goes on past the loss budget."""
    if s.losses > PUSH_ON:
        return False
    for co in companies(s):
        t = counter_next_to(s, co)
        if t >= 0 and len([i for i in assault_group(s, t) if UNIT_COMPANY[i] == co]) >= PUSH_GROUP:
            return True
    return False


def _move(s: State) -> Decision:
    if not s.acted:
        if s.turn == 1:
            sure = O.win_chance(s, 1)
            if sure >= ENTER_BELOW:
                return Decision(EndPhase(), f"raid stays off the board: ending after turn 1 wins {sure:.1%} of the time")
        else:
            why = stop_reason(s)
            if why:
                return Decision(EndGame(), f"raid ends the game: {why}")
    inf = threat_map(s)[0]
    objs = objectives(s, inf)
    if not objs:
        return Decision(EndPhase(), "raid: no objective in reach")
    d = mmg_entry(s, list(objs.values()))
    if d is not None:
        return d
    # one platoon a hex: the MMGs' hexes too (enemy mortars pick the hex with most infantry)
    taken = {s.units[i].where for i in range(len(UNIT_IDS)) if s.units[i].where >= 0 and UNIT_KIND[i] != "armour"}
    moves = [m for co, t in objs.items() for m in company_moves(s, co, t, inf, taken)]
    if moves:
        _v, mv, why = max(moves, key=lambda x: x[0])
        return Decision(mv, "raid: " + why)
    return Decision(EndPhase(), "raid: the companies hold")


def _hops(s: State, goal: int, t: int) -> list[int]:
    """Moves from each hex to ``goal`` (next to objective ``t``), never through a hex with
    a counter or next to one other than ``t`` (it would be revealed and fire at range 1)."""
    far = 99
    out = [far] * B.N
    out[goal] = 0
    others = s.enemy_mask & ~(1 << t)
    q: deque[int] = deque([goal])
    while q:
        h = q.popleft()
        for n in B.NEIGHBOURS[h]:
            if n == B.OFF or out[n] != far or (s.enemy_mask | B.FORBIDDEN_EDGE) >> n & 1 or B.NEIGHBOUR_MASK[n] & others:
                continue
            out[n] = out[h] + 1
            q.append(n)
    return out


def company_moves(s: State, co: str, t: int, inf: list[float], taken: set[int]) -> list[tuple[float, Move, str]]:
    """The company's useful moves towards ``t``, best first (CA Movement): each platoon heads for its own
    hex next to ``t`` by the shortest way, into cover and away from fire on the way; the
    last step is taken only once the whole company is within 2 hexes (it steps in together)."""
    members = company_members(s, co)
    app = approach_hexes(s, t, co)
    if not app:
        return []
    hops = {a: _hops(s, a, t) for a in app}
    # ready to step in: two platoons (or the whole company, if smaller) one move away
    near = sum(1 for i in members if s.units[i].where >= 0 and min(hops[a][s.units[i].where] for a in app) <= 1)
    ready = near >= min(STEP_IN, len(members))
    claimed = {s.units[i].where for i in members if s.units[i].where >= 0 and B.distance(s.units[i].where, t) == 1}
    out: list[tuple[float, Move, str]] = []
    for i in members:
        u = s.units[i]
        if not u.fresh or (u.where >= 0 and B.distance(u.where, t) == 1):
            continue
        free = [a for a in app if a not in claimed] or app

        def togo(h: int, free: list[int] = free) -> int:
            return 99 if h == OFFBOARD else min(hops[a][h] for a in free)

        now = togo(u.where)
        for to, _f, _how in R.unit_moves(s, i):
            left = togo(to)
            if left >= now or (to in taken and to not in claimed and left > 0):
                continue
            if left == 0 and (not ready or to in claimed):
                continue
            v = -2.0 * left - THREAT * inf[to] + (0.3 if s.cover >> to & 1 else 0.0) + (5.0 if left == 0 else 0.0)
            out.append((v, Move(UNIT_IDS[i], B.label(to), None), f"{UNIT_IDS[i]} to {B.label(to)} for {B.label(t)} ({left} to go)"))
    out.sort(key=lambda x: -x[0])
    return out


def mmg_entry(s: State, targets: list[int]) -> Decision | None:
    """The MMGs enter (turn 1 only) a rear edge hex each, seeing the objectives if they can (CA Movement:
    units enter from your edge; CA Combat: the MMGs' lines of fire)."""
    if s.turn != 1:
        return None
    for m in _MMGS:
        if s.units[m].where != OFFBOARD or not s.units[m].fresh:
            continue
        used = {s.units[j].where for j in _MMGS}
        best: tuple[tuple[int, int, int], int] | None = None
        for to, _f, _how in R.unit_moves(s, m):
            if to in used:
                continue
            sees = sum(1 for t in targets if B.distance(to, t) <= 5 and R.line_of_fire(s, to, t) != R.BLOCKED)
            seen = sum(1 for c in s.enemy if B.distance(to, c.hex) <= 5 and R.line_of_fire(s, to, c.hex) != R.BLOCKED)
            key = (sees, -min(B.distance(to, t) for t in targets), seen)
            if best is None or key > best[0]:
                best = (key, to)
        if best is not None:
            return Decision(Move(UNIT_IDS[m], B.label(best[1]), None), f"raid: {UNIT_IDS[m]} enters {B.label(best[1])} to support")
    return None


# -- the fire phase ------------------------------------------------------------------------------
def assault_group(s: State, t: int) -> list[int]:
    """The platoons that assault ``t``: the fresh rifle platoons of one company next to it,
    and nothing else, so that every firer is adjacent and a modified 4+ breaks it
    (CA Fire Attacks: rifle platoons of different companies may not engage the same hex)."""
    by: dict[str | None, list[int]] = {}
    for i, u in enumerate(s.units):
        if UNIT_KIND[i] == RIFLE and u.fresh and u.where >= 0 and B.distance(u.where, t) == 1:
            by.setdefault(UNIT_COMPANY[i], []).append(i)
    if not by:
        return []
    return max(by.values(), key=len)


def raid_fire(s: State) -> Decision:
    """The raid's fire phase (CA Sequence of Play, CA Combat): an assault or MMG fire group being
    formed is completed and resolved; then the mortars, the MMGs and the company's adjacent
    platoons fire at the counters most worth pinning (:func:`pin_values`)."""
    objs = objectives(s)
    if s.group:
        first = s.group[0][0]
        tgt = s.group_target
        if UNIT_KIND[first] == RIFLE:
            for i in assault_group(s, tgt):
                if all(i != j for j, _ in s.group):
                    return Decision(Commit(UNIT_IDS[i], B.label(tgt), None), f"raid: {UNIT_IDS[i]} joins the assault on {B.label(tgt)}")
        elif UNIT_KIND[first] == MMG:
            for m in _MMGS:
                if s.units[m].fresh and s.units[m].where >= 0 and all(m != j for j, _ in s.group) \
                        and tgt in R.fire_targets(s, m):
                    return Decision(Commit(UNIT_IDS[m], B.label(tgt), None), f"raid: {UNIT_IDS[m]} joins the fire on {B.label(tgt)}")
        return Decision(Resolve(), "raid: resolve the attack")
    values = pin_values(s, set(objs.values()))
    # the mortars first (called before any platoon fires, CA Mortars), on the worst threat
    if not s.engaged and s.own_fired != s.turn:
        calls = [(values.get(h, 0.0), h) for h in R.own_mortar_targets(s, False)]
        calls = [c for c in calls if c[0] > 0]
        if calls:
            v, h = max(calls)
            return Decision(CallMortar(B.label(h), "he"), f"raid: mortars on {B.label(h)} (worth {v:.2f})")
    for co, t in objs.items():
        if s.engaged >> t & 1:
            continue
        group = [i for i in assault_group(s, t) if UNIT_COMPANY[i] == co]
        if group:
            return Decision(Commit(UNIT_IDS[group[0]], B.label(t), None),
                            f"raid: assault {B.label(t)} with the adjacent platoons of company {co} only")
    # the MMGs pin: an objective a company has just stepped next to, else the worst threat
    shots: list[tuple[float, int, int]] = []
    for m in _MMGS:
        if not s.units[m].fresh or s.units[m].where < 0:
            continue
        for h in R.fire_targets(s, m):
            p = R.chances(sum(x.value for x in R.own_fire_mods(s, m, h)), R.PIN_NEED) / 6
            shots.append((values.get(h, 0.0) * p, h, m))
    shots = [x for x in shots if x[0] > 0]
    if shots:
        v, h, m = max(shots)
        return Decision(Commit(UNIT_IDS[m], B.label(h), None), f"raid: {UNIT_IDS[m]} pins {B.label(h)} (worth {v:.2f})")
    return Decision(EndPhase(), "raid: nothing worth firing at")


def pin_values(s: State, objs: set[int]) -> dict[int, float]:
    """How much pinning each fresh counter is worth now: the objective, once the company
    stands next to it, most (pinned, it becomes fresh instead of firing, CA Enemy Decisions);
    others by the losses they may inflict on your infantry (payoffs of CA Enemy Decisions)."""
    inf = [u.where for i, u in enumerate(s.units) if u.where >= 0 and UNIT_KIND[i] != "armour"]
    out: dict[int, float] = {}
    for c in s.enemy:
        if not c.fresh:
            continue
        v = sum(R.payoff(s, c.hex, h)[0] for h in set(inf)) / 6
        if c.real or B.NEIGHBOUR_MASK[c.hex] & s.m_any:
            w = 1.0 if c.real else 0.4  # an adjacent potential counter is revealed on activation
        else:  # a potential counter opens fire only at a payoff of 6 (CA Enemy Decisions)
            best = max((R.payoff(s, c.hex, h)[0] for h in set(inf)), default=0)
            w = 0.4 if best >= R.REVEAL_PAYOFF else 0.05
        v *= w
        if c.hex in objs and B.NEIGHBOUR_MASK[c.hex] & s.m_rifle:
            v += 5.0
        out[c.hex] = v
    return out


raid_policy = by_phase(_move, raid_fire)
