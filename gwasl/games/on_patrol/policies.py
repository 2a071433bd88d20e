"""Submarine policies for batch play (CONTRACTS 6): ``sensible`` (the default) and ``random``.

A policy reads only its seat: the board as the submarine's commander sees it
(104.1.2: everything on the board) and the legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Policy, Seat
from gwasl.engine.record import Record
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.geometry import DIRS
from gwasl.games.on_patrol.state import PatrolState, Ship, Sub
from gwasl.games.on_patrol.tables import tables
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex

__all__ = ["POLICIES", "pick", "random_policy", "sensible_policy"]


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


def _threat(st: PatrolState, sub: Sub) -> int:
    esc = [s.pose.bow.distance(sub.pose.bow) for s in st.ships if s.kind == "escort" and s.afloat]
    return min(esc) if esc else 99


def sensible_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """Fire at a ship a torpedo would meet (highest VP first); by day stay at 75 feet, at
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
        # 1: torpedoes that would meet a ship
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
