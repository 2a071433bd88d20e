"""Rout (classic A10.5-A10.53; ASLGW adds trenches and dugouts as refuge).

In the RtPh a broken unit next to a Known Good Order enemy unit, or in Open
Ground in its LOS and normal range, must rout; any other broken unit may.
It routs with its own MF to the nearest refuge (woods, building, rubble, or
ASLGW's trenches, deep trenches, dugouts, foxholes) not closer to a Known
enemy, never entering or passing next to one; Open Ground entered in the LOS
and normal range of a Known Good Order enemy costs an interdiction NMC.  The
lists are data (gwasl/resources/infantry_combat.json, ``rout``).

The enemy a routing unit reacts to are the Known enemy units its side knows
of (:class:`Threat`): a hidden enemy never decides a rout, so a rout never
tells what is hidden (docs/rules-notes.md).

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Scenario, Unit
from gwasl.rules.combat_table import combat_table
from gwasl.rules.concealment import in_open_ground
from gwasl.rules.movement import ends_movement, steps_from

__all__ = ["RoutDestination", "SeesFn", "Threat", "interdictions", "must_rout", "rout_destinations"]

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


def must_rout(s: Scenario, unit: Unit, threats: Sequence[Threat], sees: SeesFn) -> str | None:
    """Why ``unit`` (broken) must rout this RtPh (A10.5), or None when it need not."""
    for t in threats:
        d = t.hex.distance(unit.hex)
        if d <= 1:
            return f"a Known enemy unit is {'in its hex' if d == 0 else 'ADJACENT'} at {t.hex} (A10.5)"
    if in_open_ground(s, unit.hex, unit.position):
        for t in threats:
            d = t.hex.distance(unit.hex)
            if d <= t.normal_range and sees(t.hex, unit.hex, t.position, unit.position):
                return f"in Open Ground in the LOS of a Known enemy unit at {t.hex}, {d} hexes away (A10.5)"
    return None


def _refuge(s: Scenario, h: Hex, pos: Position) -> bool:
    r = combat_table().rout
    return pos in r.refuge_positions or (pos is Position.GROUND and s.map.terrain_at(h) in r.refuge_terrain)


def _nearest(h: Hex, threats: Sequence[Threat]) -> int:
    return min((t.hex.distance(h) for t in threats), default=10**6)


def rout_destinations(s: Scenario, unit: Unit, threats: Sequence[Threat], mf: float) -> tuple[RoutDestination, ...]:
    """Every legal end of ``unit``'s rout (A10.5, A10.51, A10.52).

    The unit may not enter a hex holding or ADJACENT to a Known enemy unit, nor
    end closer to one than it starts.  If refuges are within ``mf``, only the
    nearest ones (fewest MF) are offered; otherwise any reachable location
    not closer.  A Low Crawl of one location is always offered where legal.
    """
    start: Loc = (unit.hex, unit.position)
    blocked = {t.hex for t in threats} | {n for t in threats for n in t.hex.neighbours()}
    base = _nearest(unit.hex, threats)
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
            if st.to_hex != unit.hex and st.to_hex in blocked:
                continue
            c = cost + st.cost.mf
            if c > mf:
                continue
            if nxt not in best or c < best[nxt][0]:
                best[nxt] = (c, best[loc][1] + (nxt,))
                heapq.heappush(heap, (c, st.to_hex.column, st.to_hex.row, st.to_pos.value, nxt))
    cands = [RoutDestination(h, p, c, path, _refuge(s, h, p)) for (h, p), (c, path) in best.items()
             if (h, p) != start and h != unit.hex and _nearest(h, threats) >= base]
    refuges = [d for d in cands if d.refuge]
    if refuges:
        low = min(d.mf for d in refuges)
        out = [d for d in refuges if d.mf == low]
    else:
        out = cands
    crawl = []
    if combat_table().rout.low_crawl_locations:
        for st in steps_from(s, unit.hex, unit.position):
            if st.to_hex != unit.hex and st.to_hex not in blocked and _nearest(st.to_hex, threats) >= base:
                crawl.append(RoutDestination(st.to_hex, st.to_pos, st.cost.mf, ((st.to_hex, st.to_pos),),
                                             _refuge(s, st.to_hex, st.to_pos), low_crawl=True))
    key = lambda d: (d.low_crawl, d.mf, d.hex.column, d.hex.row, d.position.value)  # noqa: E731
    return tuple(sorted(out, key=key)) + tuple(sorted(crawl, key=key))


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
