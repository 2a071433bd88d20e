"""Rout (classic A10.5-A10.53; ASLGW adds trenches and dugouts as refuge).

In the RtPh a broken unit next to a Known Good Order enemy unit, or in Open
Ground in its LOS and normal range, must rout; any other broken unit may.
It routs with the routing MF (6, A10.5; ``rout.mf`` of the data) to the
nearest refuge (woods, building, rubble, or ASLGW's trenches, deep trenches,
dugouts, foxholes) that it may not ignore, never moving closer to a Known
enemy unit, broken or not, nor entering a hex of or ADJACENT to one (A10.51)
-- except the first hex out of a Location it shares with the enemy, which
is necessarily ADJACENT to it; Open Ground entered in the LOS and normal
range of a Known Good Order enemy costs an interdiction NMC.  The lists are
data (gwasl/resources/infantry_combat.json, ``rout``).

The enemy a routing unit reacts to are the Known enemy units its side knows
of (:class:`Threat`, the Good Order armed ones; ``known``, every Known one):
a hidden enemy never decides a rout, so a rout never tells what is hidden
(docs/rules-notes.md).

>>> import datetime
>>> from gwasl.model.scenario import MapData, Nationality, Scenario, Side, Unit, UnitKind
>>> from gwasl.model.hexgrid import Hex
>>> s = Scenario("t", datetime.date(1916, 7, 1), MapData(6, 6), {"a": Side("a", Nationality.GERMAN)})
>>> u = Unit("u", "a", UnitKind.SQUAD, Hex.from_label("C3"), broken=True)
>>> must_rout(s, u, [Threat(Hex.from_label("C4"), Position.GROUND, 4)], sees=lambda *a: True) is not None
True
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Scenario, Unit
from gwasl.rules.combat_table import combat_table
from gwasl.rules.concealment import in_open_ground
from gwasl.rules.movement import ends_movement, steps_from

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["RoutDestination", "SeesFn", "Threat", "interdictions", "must_rout", "rout_destinations", "rout_mf",
           "why_not_destination"]

#: LOS predicate ``(from_hex, to_hex, from_in, to_in) -> bool``
SeesFn = Callable[[Hex, Hex, Position, Position], bool]
Loc = tuple[Hex, Position]


@dataclass(frozen=True, slots=True)
class Threat:
    """A Known Good Order armed enemy unit, where it is and its normal range."""

    hex: Hex
    position: Position
    normal_range: int


@dataclass(frozen=True, slots=True)
class RoutDestination:
    """Where a routing unit may end: ``path`` the locations entered in order,
    ``mf`` their cost, ``refuge`` whether it is woods/building/entrenchment,
    ``low_crawl`` a one-location Low Crawl (A10.52)."""

    hex: Hex
    position: Position
    mf: float
    path: tuple[Loc, ...]
    refuge: bool
    low_crawl: bool = False


def rout_mf() -> int:
    """The MF a routing unit has (A10.5: 6, MMC and SMC alike; ``rout.mf`` of
    gwasl/resources/infantry_combat.json).

    >>> rout_mf()
    6
    """
    return combat_table().rout.mf


def must_rout(s: Scenario, unit: Unit, threats: Sequence[Threat], sees: SeesFn,
              known: Iterable[tuple[Hex, Position]] = ()) -> str | None:
    """Why ``unit`` (broken) must rout this RtPh (A10.5), or None when it need not.

    ``known``: every Known enemy unit's location, broken or not; one in the
    unit's own Location makes it rout too (A10.51: a routing unit may not stay
    with a Known enemy unit; docs/rules-notes.md, broken units sharing a Location).
    """
    for t in threats:
        d = t.hex.distance(unit.hex)
        if d <= 1:
            return f"a Known enemy unit is {'in its hex' if d == 0 else 'ADJACENT'} at {t.hex} (A10.5)"
    mine = _area(unit.position)
    for h, p in known:
        if h == unit.hex and _area(p) == mine:
            return f"a Known enemy unit shares its Location at {h} (A10.51)"
    if in_open_ground(s, unit.hex, unit.position):
        for t in threats:
            d = t.hex.distance(unit.hex)
            if d <= t.normal_range and sees(t.hex, unit.hex, t.position, unit.position):
                return f"in Open Ground in the LOS of a Known enemy unit at {t.hex}, {d} hexes away (A10.5)"
    return None


def _area(p: Position) -> str:
    """A hex's Locations for sharing: its dugout stands apart (ASLGW 2.2.1), the rest is one."""
    return "dugout" if p is Position.DUGOUT else "hex"


def _refuge(s: Scenario, h: Hex, pos: Position) -> bool:
    r = combat_table().rout
    return pos in r.refuge_positions or (pos is Position.GROUND and s.map.terrain_at(h) in r.refuge_terrain)


@dataclass(frozen=True, slots=True)
class _Limits:
    """What A10.51 forbids a routing unit from ``start``: ``near`` every hex of or ADJACENT
    to a Known enemy unit; ``first`` the hexes it may still enter as its first hex out
    of the start hex (ADJACENT only to the enemy in that hex); ``away`` each Known enemy
    hex with its distance from the start (never closer)."""

    start: Hex
    near: frozenset[Hex]
    first: frozenset[Hex]
    away: tuple[tuple[Hex, int], ...]

    def closer(self, h: Hex) -> Hex | None:
        """The Known enemy hex ``h`` is closer to than the start, or None."""
        for e, d in self.away:
            if h.distance(e) < d:
                return e
        return None


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _limits(unit: Unit, threats: Sequence[Threat], known: Iterable[tuple[Hex, Position]] | None) -> _Limits:
    enemy = {h for h, _ in known} if known is not None else set()
    enemy |= {t.hex for t in threats}
    start = unit.hex
    near = frozenset(enemy | {n for e in enemy for n in e.neighbours()})
    others = {e for e in enemy if e != start}
    first = frozenset(n for n in start.neighbours() if n not in others and not any(n.is_adjacent(e) for e in others))
    away = tuple(sorted(((e, e.distance(start)) for e in enemy), key=lambda x: (x[0].column, x[0].row)))
    return _Limits(start, near, first, away)


def _may_enter(lim: _Limits, frm: Hex, to: Hex) -> bool:
    if to == frm:
        return True  # within a hex: no new hex entered
    if lim.closer(to) is not None:
        return False
    if to in lim.near:
        return frm == lim.start and to in lim.first
    return True


def _reach(s: Scenario, unit: Unit, lim: _Limits, mf: float) -> dict[Loc, tuple[float, tuple[Loc, ...]]]:
    """Every location the rout may reach within ``mf`` (Dijkstra on the MF of each step),
    with its cost and path."""
    start: Loc = (unit.hex, unit.position)
    best: dict[Loc, tuple[float, tuple[Loc, ...]]] = {start: (0.0, ())}
    heap: list[tuple[float, int, int, str, Loc]] = [(0.0, unit.hex.column, unit.hex.row, unit.position.value, start)]
    while heap:
        cost, _, _, _, loc = heapq.heappop(heap)
        if cost > best[loc][0]:
            continue
        path = best[loc][1]
        if path and ends_movement(s, path[-2][0] if len(path) > 1 else start[0], loc[0]):
            continue  # wire ends the move (B26.4)
        for st in steps_from(s, loc[0], loc[1]):
            nxt: Loc = (st.to_hex, st.to_pos)
            if st.to_hex != loc[0] and (st.to_hex == unit.hex or not _may_enter(lim, loc[0], st.to_hex)):
                continue
            c = cost + st.cost.mf
            if c > mf:
                continue
            if nxt not in best or c < best[nxt][0]:
                best[nxt] = (c, path + (nxt,))
                heapq.heappush(heap, (c, st.to_hex.column, st.to_hex.row, st.to_pos.value, nxt))
    return best


def _ignorable(lim: _Limits, h: Hex) -> bool:
    """A10.51: a refuge no farther from some Known enemy unit than the start may be ignored."""
    return any(h.distance(e) <= d for e, d in lim.away)


def rout_destinations(s: Scenario, unit: Unit, threats: Sequence[Threat], mf: float,
                      known: Iterable[tuple[Hex, Position]] | None = None) -> tuple[RoutDestination, ...]:
    """Every legal end of ``unit``'s rout (A10.5, A10.51, A10.52).

    ``threats`` are the Known Good Order armed enemy units, ``known`` every Known
    enemy unit's location, broken or not (default: the threats).  The unit never
    moves closer to a Known enemy unit than it starts, nor enters a hex of or
    ADJACENT to one, except its first hex out of a hex it shares with the enemy;
    it never ends in such a hex.  If refuges it may not ignore (farther from every
    Known enemy than the start) are within ``mf``, only the nearest ones (fewest
    MF) are offered; otherwise any reachable location.  A Low Crawl of one
    location is offered where legal, never out of an enemy-occupied hex.
    """
    lim = _limits(unit, threats, known)
    best = _reach(s, unit, lim, mf)
    cands = [RoutDestination(h, p, c, path, _refuge(s, h, p)) for (h, p), (c, path) in best.items()
             if h != unit.hex and h not in lim.near]
    refuges = [d for d in cands if d.refuge and not _ignorable(lim, d.hex)]
    if refuges:
        low = min(d.mf for d in refuges)
        out = [d for d in refuges if d.mf == low]
    else:
        out = cands
    crawl = []
    shared = any(e == unit.hex for e, _ in lim.away)
    if combat_table().rout.low_crawl_locations and not shared:
        for st in steps_from(s, unit.hex, unit.position):
            if st.to_hex != unit.hex and st.to_hex not in lim.near and lim.closer(st.to_hex) is None:
                crawl.append(RoutDestination(st.to_hex, st.to_pos, st.cost.mf, ((st.to_hex, st.to_pos),),
                                             _refuge(s, st.to_hex, st.to_pos), low_crawl=True))
    key = lambda d: (d.low_crawl, d.mf, d.hex.column, d.hex.row, d.position.value)  # noqa: E731
    return tuple(sorted(out, key=key)) + tuple(sorted(crawl, key=key))


def why_not_destination(s: Scenario, unit: Unit, threats: Sequence[Threat], mf: float, to: Hex, to_in: Position,
                        low_crawl: bool, known: Iterable[tuple[Hex, Position]] | None = None) -> str:
    """Why ``unit`` may not rout to ``(to, to_in)`` (A10.5-A10.52), in words: the first rule
    that forbids it.  Only for a destination :func:`rout_destinations` does not offer."""
    lim = _limits(unit, threats, known)
    if not s.map.contains(to):
        return f"{to} is not on the map"
    if to == unit.hex:
        return f"a rout leaves its hex {to} (A10.5)"
    e = lim.closer(to)
    if e is not None:
        return f"{to} is closer than {unit.hex} to the Known enemy unit at {e}: a routing unit never moves closer to one (A10.51)"
    if to in lim.near:
        return f"{to} is in or ADJACENT to a Known enemy unit's hex: a routing unit may not end its rout there (A10.51)"
    if low_crawl:
        if any(h == unit.hex for h, _ in lim.away):
            return f"no Low Crawl out of a Location shared with the enemy: the unit must rout out of {unit.hex} (A10.52)"
        return f"a Low Crawl enters one ADJACENT Location; {to} ({to_in.value}) is not one it may enter from {unit.hex} (A10.52)"
    best = _reach(s, unit, lim, mf)
    if (to, to_in) not in best:
        return (f"{unit.id} cannot reach {to} ({to_in.value}) with its {mf:g} routing MF without moving closer to, into or "
                "ADJACENT to a Known enemy unit (A10.5, A10.51)")
    near = [d for d in rout_destinations(s, unit, threats, mf, known) if not d.low_crawl]
    if near and near[0].refuge:
        return (f"it must rout to the nearest woods, building or entrenchment it may not ignore: "
                f"{', '.join(sorted({d.hex.label for d in near}))} ({near[0].mf:g} MF, A10.51)")
    return f"{to} ({to_in.value}) is not a legal end of {unit.id}'s rout (A10.5, A10.51)"


def interdictions(s: Scenario, dest: RoutDestination, threats: Sequence[Threat], sees: SeesFn) -> tuple[tuple[Loc, Hex], ...]:
    """A10.53: each Open Ground location of the rout path entered in the LOS and
    normal range of a Known Good Order enemy unit (not by Low Crawl, A10.52),
    with the hex of the enemy that interdicts it."""
    if dest.low_crawl:
        return ()
    out = []
    for h, p in dest.path:
        if not in_open_ground(s, h, p):
            continue
        for t in threats:
            if h.distance(t.hex) <= t.normal_range and sees(t.hex, h, t.position, p):
                out.append(((h, p), t.hex))
                break
    return tuple(out)
