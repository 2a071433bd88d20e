"""Submarine policies for batch play (CONTRACTS 6): ``sensible`` (the default) and ``random``.

A policy reads only its seat: the board as the submarine's commander sees it
(104.1.2: everything on the board) and the legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Policy, Seat
from gwasl.engine.record import Record
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.geometry import DIRS, Pose
from gwasl.games.on_patrol.movement import execute_fleet, fleet_order
from gwasl.games.on_patrol.state import PatrolState, Ship, Sub
from gwasl.games.on_patrol.tables import tables
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex

__all__ = [
    "POLICIES", "best_launch", "pick", "random_policy", "sensible_policy", "sensible_with", "shot_odds",
    "straight_course_policy",
]


class TooManyChoicesError(GwaslError):
    """A uniform choice among more than three dice can pick from."""


def pick(dice: GameDice, n: int, cause: str) -> int:
    """A uniform choice among ``n`` from the game's dice (rejection sampling, every die logged).

    Raises :class:`TooManyChoicesError` (a uniform choice among more than three dice can pick from).
    """
    if n <= 6:
        return dice.randrange(n, cause)
    dies = 2 if n <= 36 else 3
    space = 6 ** dies
    if n > space:
        raise TooManyChoicesError("too many choices")
    accepted = space - space % n
    while True:
        r = dice.DR(cause)
        v = (r.dice[0] - 1) * 6 + (r.dice[1] - 1)
        if dies == 3:
            v = v * 6 + dice.dr(cause).total - 1
        if v < accepted:
            return v % n


def random_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """Any legal action, uniformly (breaking off excepted, so the patrol runs its course)."""
    legal = [a for a in seat.legal() if not isinstance(a, R.BreakOff)]
    i = pick(dice, len(legal), "random submarine policy: which action")
    return Decision(legal[i], "random choice", {"choices": len(legal)})


def _hits(st: PatrolState, launch: R.Launch, sub: Sub) -> Ship | None:
    """The ship a torpedo fired now would meet if every ship held its course and speed."""
    t = tables()
    tp = t.torpedoes[sub.tubes[launch.tube]]
    if launch.tube < sub.bow_tubes:
        start, g = sub.pose.ahead, (sub.pose.heading + launch.gyro) % 6
    else:
        back = (sub.pose.heading + 3) % 6
        start, g = sub.pose.stern + DIRS[back], (back + launch.gyro) % 6
    d = DIRS[g]
    turns = tp.range // tp.speed
    # the turn in which the torpedo runs through each hex (it starts moving next turn)
    when = {Hex(start.q + d.q * j, start.r + d.r * j): (j - 1) // tp.speed + 1 for j in range(1, turns * tp.speed + 1)}
    reach = tp.range + 12
    for s in sorted(st.ships, key=lambda s: -s.vp):
        if not s.afloat or s.pose.bow.distance(start) > reach:
            continue
        v = DIRS[s.pose.heading]
        for k in range(1, turns + 1):
            bow = Hex(s.pose.bow.q + v.q * s.speed * k, s.pose.bow.r + v.r * s.speed * k)
            if when.get(bow) == k or when.get(Hex(bow.q - v.q, bow.r - v.r)) == k:
                return s
    return None


#: a torpedo is fired when the chance that it meets a ship is at least this (:func:`shot_odds`)
FIRE_AT = 0.4
#: ...and the VP it is expected to take (chance times the VP of the ship it meets) at least this
FIRE_VALUE = 0.5
#: torpedoes a boat fires in one phase 8 at most (a spread: each further one must add its own chance)
SPREAD = 3
#: turns of a torpedo's run weighed at all: further on, the convoy's course is too uncertain to aim at
MAX_TURNS = 4
#: turns of the convoy's Fleet Movement Table weighed exactly; later turns hold the course
#: (a torpedo of 5-8 hexes a turn meets a ship in sight within 2 turns)
LOOK_TURNS = 2


def _track(start: Hex, heading: int, speed: int, rng: int, run: int = 0) -> list[tuple[int, Hex, int]]:
    """The hexes a torpedo from ``start`` runs through: (turn from next, hex, run so far), in
    order (102.3: it moves in phase 3 of each following turn, ``speed`` hexes a turn)."""
    d = DIRS[heading]
    out = []
    h = start
    for j in range(1, rng - run + 1):
        h = Hex(h.q + d.q, h.r + d.r)
        out.append(((j - 1) // speed + 1, h, run + j))
    return out


def _launch_start(sub: Sub, launch: R.Launch) -> tuple[Hex, int]:
    if launch.tube < sub.bow_tubes:
        return sub.pose.ahead, (sub.pose.heading + launch.gyro) % 6
    back = (sub.pose.heading + 3) % 6
    return sub.pose.stern + DIRS[back], (back + launch.gyro) % 6


def _futures(st: PatrolState, turns: int) -> list[tuple[float, list[dict[str, tuple[Hex, Hex]]]]]:
    """Where each merchant and capital ship may stand after each of the next ``turns`` turns,
    with its chance: the convoy moves by the Fleet Movement Table, one die a turn for all
    (104.3.1), whatever the torpedoes (108.2.2); capital ships in emergency take the emergency
    row (104.4.2).  Ships not under way stay.  Turns past :data:`LOOK_TURNS` hold the course."""
    t = tables()
    codes = t.fleet_movement[st.convoy][2] if st.convoy in t.fleet_movement else ("0",) * 6
    ecodes = t.fleet_movement["emergency"][2]
    movers = [s for s in st.ships if s.kind != "escort" and s.afloat]
    out: list[tuple[float, list[dict[str, tuple[Hex, Hex]]]]] = []

    def go(k: int, poses: dict[str, Pose], p: float, seq: list[dict[str, tuple[Hex, Hex]]]) -> None:
        if k == turns:
            out.append((p, seq))
            return
        faces = range(6) if k < LOOK_TURNS else (2,)  # the third face reads straight on
        seen: dict[tuple[str, str], int] = {}
        for f in faces:
            key = (codes[f], ecodes[f])
            seen[key] = seen.get(key, 0) + 1
        for (code, ecode), n in seen.items():
            nxt: dict[str, Pose] = {}
            for s in movers:
                pose = poses[s.id]
                if s.status != "afloat" or not s.moving:
                    nxt[s.id] = pose
                    continue
                em = st.capital_speed > 0 and s.kind == "capital"
                order = fleet_order(ecode if em else code)
                hexes = min(st.capital_speed, s.max_speed) if em else (order.hexes or 0)
                path, _h = execute_fleet(pose, order, hexes, (), lambda _x: False)
                nxt[s.id] = path[-1] if path else pose
            go(k + 1, nxt, p * n / len(faces), [*seq, {i: q.hexes() for i, q in nxt.items()}])

    go(0, {s.id: s.pose for s in movers}, 1.0, [])
    return out


def shot_odds(st: PatrolState, tracks: Sequence[list[tuple[int, Hex, int]]]) -> tuple[list[float], list[list[str]]]:
    """The chance of each of the convoy's futures over the Fleet Movement Table (104.3.1; 108.2.2:
    the convoy ignores torpedoes), and for each torpedo track the ship it meets in each future
    ('' none).  Only merchants and capital ships count: escorts keep clear of a torpedo's path
    (108.2.1).  A torpedo meets the first ship whose hexes it runs through after that ship's
    move in the same turn, once armed (gwasl's stand-in torpedo movement, docs/on-patrol.md)."""
    if not tracks or not st.has_convoy:
        return [1.0], [[""] for _ in tracks]
    arming = tables().c("torpedo_arming")
    turns = min(max((tr[-1][0] for tr in tracks if tr), default=0), MAX_TURNS)
    futures = _futures(st, turns) if turns else [(1.0, [])]
    maps = [[{h: sid for sid, hx in turn.items() for h in hx} for turn in seq] for _p, seq in futures]
    hits: list[list[str]] = []
    for tr in tracks:
        row = []
        for m in maps:
            hit = ""
            for k, h, run in tr:
                if k > len(m):
                    break
                if run >= arming and h in m[k - 1]:
                    hit = m[k - 1][h]
                    break
            row.append(hit)
        hits.append(row)
    return [p for p, _s in futures], hits


def best_launch(st: PatrolState, sub: Sub, mine: Sequence[Record]) -> tuple[R.Launch, float, float, str] | None:
    """The launch of most expected VP (its chance of meeting each ship times the ship's VP),
    with its chance of a hit, that VP, and the ship it most often meets (104.1.5: only the
    launches the seat offers, at vessels in sight and range)."""
    t = tables()
    launches = [a for a in mine if isinstance(a, R.Launch)]
    if not launches:
        return None
    tracks: list[list[tuple[int, Hex, int]]] = []
    for a in launches:
        start, g = _launch_start(sub, a)
        tp = t.torpedoes[sub.tubes[a.tube]]
        tracks.append(_track(start, g, tp.speed, tp.range))
    probs, hits = shot_odds(st, tracks)
    vp = {s.id: s.vp for s in st.ships}
    best: tuple[R.Launch, float, float, str] | None = None
    for j, a in enumerate(launches):
        row = hits[j]
        p = sum(probs[f] for f, h in enumerate(row) if h)
        # each torpedo counts on its own: a second one on the same ship adds its damage
        # (two hits sink what one leaves dead in the water), so a spread is not discounted
        add = sum(probs[f] * vp[h] for f, h in enumerate(row) if h)
        ships: dict[str, float] = {}
        for f, h in enumerate(row):
            if h:
                ships[h] = ships.get(h, 0.0) + probs[f]
        target = max(ships, key=lambda k: ships[k]) if ships else ""
        if best is None or add > best[2]:
            best = (a, p, add, target)
    return best


def _threat(st: PatrolState, sub: Sub) -> int:
    esc = [s.pose.bow.distance(sub.pose.bow) for s in st.ships if s.kind == "escort" and s.afloat]
    return min(esc) if esc else 99


def sensible_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """The default submarine policy (:func:`sensible_with`), firing by :func:`_good_shot`."""
    return sensible_with(seat, _good_shot)


def straight_course_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """``sensible`` as it was before issue 27 item 12, for paired figures: it fires only where a
    torpedo would meet a ship that held its course and speed (:func:`_straight_shot`), at
    escorts too where there is no convoy (104.1.5: at vessels in sight and range)."""
    return sensible_with(seat, _straight_shot)


def _straight_shot(st: PatrolState, sub: Sub, mine: Sequence[Record]) -> Decision | None:
    best = None
    for a in mine:
        if isinstance(a, R.Launch) and len(sub.fired) < 3:
            hit = _hits(st, a, sub)
            if hit is not None and (hit.kind != "escort" or not st.has_convoy):
                score = hit.vp
                if best is None or score > best[0]:
                    best = (score, a, hit)
    if best is not None:
        return Decision(best[1], f"a torpedo now would meet {best[2].id if best[2] else '?'}")
    return None


def _good_shot(st: PatrolState, sub: Sub, mine: Sequence[Record]) -> Decision | None:
    """Fire where the chance of meeting a ship and the VP expected are good (:data:`FIRE_AT`,
    :data:`FIRE_VALUE`), up to :data:`SPREAD` torpedoes a phase (104.1.5, 104.3.1, 108.2.2)."""
    if len(sub.fired) >= SPREAD:
        return None
    shot = best_launch(st, sub, mine)
    if shot is None or shot[1] < FIRE_AT or shot[2] < FIRE_VALUE:
        return None
    a, p, add, target = shot
    return Decision(a, f"fire: {p:.0%} to meet a ship, most often {target}, {add:.1f} VP expected "
                       f"over the convoy's moves on the Fleet Movement Table (104.3.1, 108.2.2)",
                    {"hit_chance": round(p, 3), "vp_expected": round(add, 2), "target": target})


def sensible_with(seat: Seat[Any], shoot: Callable[[PatrolState, Sub, Sequence[Record]], Decision | None]) -> Decision:
    """The submarine's choices through its seat (On Patrol 104.1.2: what it sees; 104.1.5: launches
    only at vessels in sight and range), ``shoot`` deciding the launches (the default policy's
    :func:`_good_shot`; the advisor's plans pass their own).  Fire at a ship a torpedo would meet (highest VP first); by day stay at 75 feet, at
    night at 25 feet away from the escorts; once detected go deep and
    open the range (emergency speed only with an escort within three hexes); reload every
    empty tube; once something is sunk (or the torpedoes are gone) and contact is lost,
    break off the patrol."""
    st: PatrolState = seat.view()
    legal: Sequence[Record] = seat.legal()
    if st.phase == 9:
        rl = [a for a in legal if isinstance(a, R.Reload)]
        if rl:
            return Decision(rl[0], "reload an empty tube")
        return Decision(R.EndPhase(), "nothing to reload")
    scored = any(s.status in ("sinking", "sunk") for s in st.ships)
    if (any(isinstance(a, R.BreakOff) for a in legal)
            and all(not s.active or ((scored or _spent(s)) and _lost(st, s)) for s in st.subs)):
        return Decision(R.BreakOff(), "ships sunk (or no torpedoes left) and contact lost: slip away")
    for sub in st.subs:
        if not sub.active:
            continue
        mine = [a for a in legal if getattr(a, "sub", None) == sub.id]
        m = st.marker(sub.id)
        threat = _threat(st, sub)
        hunted = m is not None and m.kind in ("sub", "escort", "torpedo") and threat <= 12
        # 1: torpedoes
        d = shoot(st, sub, mine)
        if d is not None:
            return d
        # 2: depth
        if not sub.dived:
            if hunted:
                want = 300
            elif st.night:
                # at 25 feet (radar finds a surfaced boat far off), deep when an escort is close
                want = 25 if threat > 6 else 75
            else:
                want = 75
            dives = [a for a in mine if isinstance(a, R.Dive)]
            if dives and want != sub.depth:
                a = min(dives, key=lambda x: abs(x.depth - want))
                if abs(a.depth - want) < abs(sub.depth - want):
                    return Decision(a, f"{'evade deep' if hunted else 'approach'}: toward {want} ft")
        # 3: movement
        moves = [a for a in mine if isinstance(a, R.Move)]
        c = tables().submarines[sub.cls]
        normal = c.surface_speed if sub.depth == 0 else c.submerged_speed
        if moves and (sub.moved < normal or (hunted and threat <= 3)):
            mv = min(moves, key=lambda a: _move_score(st, sub, a, hunted))
            return Decision(mv, "evade the escorts" if hunted else "close the convoy")
    return Decision(R.EndPhase(), "end the phase")


def _spent(s: Sub) -> bool:
    return not any(s.tubes) and s.reloads == 0 and not s.reloading


def _lost(st: PatrolState, s: Sub) -> bool:
    m = st.marker(s.id)
    return m is None or m.kind in ("inverted", "torpedo")


def _move_score(st: PatrolState, sub: Sub, a: R.Move, hunted: bool) -> tuple[int, bool]:
    """Lower is better: away from the escorts and the target hex when hunted, else toward
    where the nearest target will be in three turns (keeping out of sight at night)."""
    p = sub.pose.step(a.turn)
    escorts = [s for s in st.ships if s.kind == "escort" and s.afloat]
    near = min((e.pose.bow.distance(p.bow) for e in escorts), default=99)
    m = st.marker(sub.id)
    if hunted:
        away = p.bow.distance(m.target) if m is not None else 0
        return (-min(near, 10) - away, a.turn != 0)
    targets = [s for s in st.ships if s.afloat and (s.kind != "escort" or not st.has_convoy)]
    if not targets:
        return (0, a.turn != 0)
    aim = min(targets, key=lambda s: (s.pose.bow.distance(sub.pose.bow), -s.vp))
    v = DIRS[aim.pose.heading]
    lead = Hex(aim.pose.bow.q + v.q * aim.speed * 3, aim.pose.bow.r + v.r * aim.speed * 3)
    danger = max(0, 7 - near) * 3 if st.night and sub.depth <= 25 else 0
    return (p.bow.distance(lead) + danger, a.turn != 0)


POLICIES: Mapping[str, Policy] = {"sensible": sensible_policy, "random": random_policy}
