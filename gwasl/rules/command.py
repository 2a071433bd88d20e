"""Command (ASLGW 1.3, 1.4.13-1.4.15): command radius, In Command status, the
No Leader Penalty and the free squads' NTC DRM.

Radius is counted in hexes (range as CONTRACTS 1 measures it), with no LOS
needed: ASLGW 1.3.1 speaks only of a radius, as classic ASL's leadership
ranges do (docs/rules-notes.md, "Command radius is counted in hexes").

>>> from gwasl.model.scenario_io import scenario_from_text
>>> s = scenario_from_text('''{"format": "gwasl-scenario/1", "title": "t", "date": "1917-04-09",
...   "map": {"columns": 10, "rows": 10}, "sides": {"b": {"nationality": "british"}, "g": {"nationality": "german"}},
...   "formations": [{"id": "P1", "kind": "platoon", "leader": "L"}],
...   "units": [{"id": "L", "side": "b", "kind": "leader", "rating": "8-0", "hex": "E5", "platoon": "P1"},
...             {"id": "S1", "side": "b", "kind": "squad", "class": "first_line", "hex": "E8", "platoon": "P1"},
...             {"id": "S2", "side": "b", "kind": "squad", "class": "first_line", "hex": "E9", "platoon": "P1"}]}''')
>>> command_radius(s, s.unit("L"))
3
>>> r = command_status(s, "b")
>>> r.units["S1"].in_command, r.units["S2"].in_command, r.units["S2"].no_leader_penalty
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass as standard_dataclass
from dataclasses import field
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit, UnitClass, UnitKind
from gwasl.rules.organisation import (
    find_unit,
    formation_members,
    free_squad_ntc,
    is_entrenched,
    is_free_squad,
    led_platoons,
    organisation,
)
from gwasl.rules.units import base_command_radius, hero_command_radius, nationality_traits

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "CommandError",
    "CommandReport",
    "UnitCommand",
    "command_radius",
    "command_status",
    "is_elite_leader",
    "no_leader_ntc",
]

# ASLGW 1.3: a leader controls up to "the equivalent of 6 squads"; a half-squad
# is half a squad and a crew none (organisation data, gwasl.rules.organisation).
_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)

_ELITE = (UnitClass.ELITE, UnitClass.STOSSTRUPPEN)
_TRENCH_POSITIONS = (Position.TRENCH, Position.DEEP_TRENCH, Position.DEEP_TRENCH_CREST)


class CommandError(GwaslError):
    """A command question about something that is not a leader or not in the scenario."""


def is_elite_leader(scenario: Scenario, leader: Unit) -> bool:
    """A leader of elite troops (for ASLGW 1.3.12-1.3.13's elite Germans).

    Leaders carry no class; a leader is elite when ``"elite": true`` is set
    on it, or when every squad and half-squad of the formations he leads is
    elite or stosstruppen: his own ``platoon`` and every formation naming him
    in ``formations[].leader`` (:func:`gwasl.rules.organisation.led_platoons`;
    docs/rules-notes.md, "Elite leaders").
    """
    flag = leader.extra.get("elite") if leader.extra else None
    if isinstance(flag, bool):
        return flag
    mmc = [u for fid in led_platoons(scenario, leader) for u in formation_members(scenario, fid) if u.kind in _SQUADS]
    return bool(mmc) and all(u.unit_class in _ELITE for u in mmc)


def command_radius(scenario: Scenario, leader_unit: Unit | str) -> int:
    """Command radius in hexes of a leader or hero (ASLGW 1.3.11-1.3.13, 1.3.21).

    1914 to December 1915: 1 hex (1.3.11); 1916: 2 hexes (1.3.12); January
    1917 onwards: 3 hexes (1.3.13).  Elite Germans reach 2 hexes in January
    1915 and 3 hexes in January 1916.  A hero's radius is always 1 (1.3.21).
    """
    if isinstance(leader_unit, str):
        u = find_unit(scenario, leader_unit)
        if u is None:
            raise CommandError(f"unit {leader_unit!r} is not in this scenario")
    else:
        u = leader_unit
    if u.kind is UnitKind.HERO:
        return hero_command_radius()
    if u.kind is not UnitKind.LEADER:
        raise CommandError(f"unit {u.id} is a {u.kind.value}, not a leader or hero: it has no command radius (ASLGW 1.3.1)")
    radius = base_command_radius(scenario.date).radius
    side = scenario.sides.get(u.side)
    if side is not None and is_elite_leader(scenario, u):
        # Elite German leaders use the wider deployments a year early (1.3.12-1.3.13).
        early = nationality_traits(side.nationality).command_radius_override(UnitClass.ELITE, scenario.date)
        if early is not None:
            radius = max(radius, early)
    return radius


@dataclass(frozen=True, slots=True)
class UnitCommand:
    """Command status of one squad, half-squad or crew.

    ``in_command``: inside the radius of a friendly leader or hero who has
    room for it (ASLGW 1.3.1, 1.3); ``commanded_by``: that leader's id.
    ``no_leader_penalty``: ASLGW 1.3.2 applies (Out of Command, no hero
    with it (1.3.21), not in its own trenches (1.3.22)).  ``free``: a free
    squad or half-squad (1.4.13-1.4.15, decided by
    :func:`gwasl.rules.organisation.is_free_squad`).  ``ntc_drm``: the +1 a
    free squad adds to its NTC to move (1.4.13), 0 when it is In Command
    (1.4.14).  ``reason`` explains it in one line.
    """

    unit_id: str
    in_command: bool
    commanded_by: str | None
    no_leader_penalty: bool
    free: bool
    ntc_drm: int
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {
            "in_command": self.in_command,
            "commanded_by": self.commanded_by,
            "no_leader_penalty": self.no_leader_penalty,
            "free": self.free,
            "ntc_drm": self.ntc_drm,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class CommandReport:
    """ASLGW 1.3 command status of a side (or of every side)."""

    radius: Mapping[str, int]
    units: Mapping[str, UnitCommand]

    def as_json(self) -> dict[str, Any]:
        """The CONTRACTS 4 ``gwasl command`` object (with a few extra fields per unit)."""
        return {"radius": dict(self.radius), "units": {k: v.as_json() for k, v in self.units.items()}}


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


# ---------------------------------------------------------------------------
# Who commands whom: an exact assignment (ASLGW 1.3, 1.3.1, 1.3.3)
# ---------------------------------------------------------------------------
# Sizes are counted in half-squads, so a leader's room is whole: a squad takes
# 2, a half-squad 1, a crew nothing (it is not a squad, ASLGW 1.3).
_SIZE = {UnitKind.SQUAD: 2, UnitKind.HALF_SQUAD: 1, UnitKind.CREW: 0}


@standard_dataclass(slots=True)
class _Pool:
    """The Good Order leaders and heroes of one side standing in one hex with
    one radius: each unit within that radius of the hex may go to any of
    them, so the assignment treats them as one node of room ``2 * 6 * n``."""

    order: int
    hex: Hex
    radius: int
    leaders: list[Unit]
    platoons: frozenset[str]
    room: int = 0
    # First leader (by id) of each platoon led here, and in each position: a crew's pick.
    first_of: dict[str | None, Unit] = field(default_factory=dict)
    first_at: dict[Position, Unit] = field(default_factory=dict)


class _Assignment:
    """Units of each group assigned to pools, and the search that makes it maximum.

    Group ``g`` is the units of one hex and one size (``sizes[g]``: 1 or 2
    half-squads); ``missing[g]`` of them have no leader yet; ``reach[g]``
    lists the pools whose radius reaches them, in order of preference.
    ``flow[g][p]`` units of ``g`` are in pool ``p``, which has ``room[p]``
    half-squads of room left.
    """

    def __init__(self, sizes: list[int], missing: list[int], reach: list[list[int]], flow: list[dict[int, int]], room: list[int]):
        self.sizes, self.missing, self.reach, self.flow, self.room = sizes, missing, reach, flow, room
        self.inflow: list[dict[int, int]] = [{} for _ in room]
        for g, f in enumerate(flow):
            for p, n in f.items():
                if n:
                    self.inflow[p][g] = n
        # dead[p] = n: no chain of moves from pool p frees n (or more) half-squads of
        # room.  A failed search marks every pool it saw; those pools only lead to
        # one another, and a later augmenting path runs through live pools only, so
        # it changes neither their units nor their room: they stay dead (exactly so
        # with one size; with mixed sizes, after a swap, the marks are a heuristic).
        self.dead: dict[int, int] = {}

    def augment(self) -> None:
        """Make the assignment maximum by augmenting paths.

        For each missing unit a breadth-first search looks for a chain of
        moves: put the unit in a pool in its reach, move a whole unit already
        there to another pool in that unit's reach, and so on, until a pool
        has the room.  Units are never split, and a unit In Command stays In
        Command, except that a squad may give its place to two half-squads no
        leader could take otherwise (one more unit In Command, the same
        squad-equivalents) and is then placed elsewhere if it can be.

        Exact (the most units In Command) when the groups in play have one
        size (all squads, or all half-squads; crews take no room): it is then
        bipartite b-matching, where a missing unit without an augmenting path
        never gets one later (Berge; so are the ``dead`` pools).  With squads
        and half-squads competing for the same leaders the problem is NP-hard
        (it contains restricted-assignment scheduling with job sizes 1 and 2);
        the same search is then a heuristic (docs/rules-notes.md, "Who
        commands whom").
        """
        for g, z in enumerate(self.sizes):
            while self.missing[g] > 0 and self._augment_one(g, z):
                self.missing[g] -= 1
        halves = [g for g, z in enumerate(self.sizes) if z == 1]
        near_halves: dict[int, list[int]] = {}
        for g in halves:
            for p in self.reach[g]:
                near_halves.setdefault(p, []).append(g)
        for g in halves:
            while self.missing[g] > 0 and self._swap_in_halves(g, near_halves):
                pass

    def _augment_one(self, g: int, z: int) -> bool:
        room, reach = self.room, self.reach
        for p in reach[g]:
            if room[p] >= z:
                self._move(g, None, p, 1)
                return True
        # parent[p] = (previous pool or None, group moved into p, half-squads moved into p)
        parent: dict[int, tuple[int | None, int, int]] = {}
        need_at: dict[int, int] = {}
        queue: list[int] = []
        for p in reach[g]:
            self._visit(p, z - room[p], (None, g, z), parent, need_at, queue)
        head = 0
        while head < len(queue):
            a = queue[head]
            head += 1
            need = need_at[a]
            for h, n in self.inflow[a].items():
                zh = self.sizes[h]
                m = need if zh == 1 else 2  # half-squads move one by one, a squad whole
                if n * zh < m:
                    continue
                for b in reach[h]:
                    # A pool seen before is reached again only with a smaller need (mixed
                    # sizes) and never from its own descendants: a path holds each pool once.
                    if b == a or (b in need_at and (need_at[b] <= m - room[b] or self._is_ancestor(b, a, parent))):
                        continue
                    if room[b] >= m:
                        parent[b] = (a, h, m)
                        self._apply_path(b, parent)
                        return True
                    self._visit(b, m - room[b], (a, h, m), parent, need_at, queue)
        for p, n in need_at.items():
            self.dead[p] = min(self.dead.get(p, 3), n)
        return False

    def _visit(
        self,
        p: int,
        need: int,
        via: tuple[int | None, int, int],
        parent: dict[int, tuple[int | None, int, int]],
        need_at: dict[int, int],
        queue: list[int],
    ) -> None:
        """Queue pool ``p`` with ``need`` half-squads to free, unless it is known dead for
        that need or already queued with a need no larger."""
        if self.dead.get(p, 3) <= need or need_at.get(p, 3) <= need:
            return
        parent[p] = via
        need_at[p] = need
        queue.append(p)

    @staticmethod
    def _is_ancestor(b: int, a: int, parent: dict[int, tuple[int | None, int, int]]) -> bool:
        """Is pool ``b`` on the chain that leads to ``a`` (a path never visits a pool twice)?"""
        x: int | None = a
        while x is not None:
            if x == b:
                return True
            x = parent[x][0]
        return False

    def _apply_path(self, end: int, parent: dict[int, tuple[int | None, int, int]]) -> None:
        b: int | None = end
        while b is not None:
            a, h, m = parent[b]
            self._move(h, a, b, m // self.sizes[h])
            b = a

    def _move(self, h: int, a: int | None, b: int, units: int) -> None:
        """Move ``units`` of group ``h`` from pool ``a`` (None: not yet assigned) to pool ``b``."""
        half_squads = units * self.sizes[h]
        if a is not None:
            self._take(h, a, units)
        flow = self.flow[h]
        flow[b] = flow.get(b, 0) + units
        self.inflow[b][h] = flow[b]
        self.room[b] -= half_squads

    def _take(self, h: int, a: int, units: int) -> None:
        left = self.flow[h][a] - units
        self.flow[h][a] = left
        self.room[a] += units * self.sizes[h]
        if left:
            self.inflow[a][h] = left
        else:
            del self.inflow[a][h]

    def _swap_in_halves(self, g: int, near_halves: dict[int, list[int]]) -> bool:
        for p in self.reach[g]:
            squad = next((h for h in self.inflow[p] if self.sizes[h] == 2), None)
            if squad is None:
                continue
            other = g if self.missing[g] >= 2 else next((h for h in near_halves.get(p, ()) if h != g and self.missing[h]), None)
            if other is None:
                continue
            self._take(squad, p, 1)
            self.missing[squad] += 1
            for h in (g, other):
                self._move(h, None, p, 1)
                self.missing[h] -= 1
            if self._augment_one(squad, 2):
                self.missing[squad] -= 1
            return True
        return False


def _own_trench(trenches: set[tuple[Hex, str]], u: Unit) -> bool:
    """ASLGW 1.3.22: the unit is in a trench its own side dug (the fortification's ``owner``)."""
    return u.position in _TRENCH_POSITIONS and (u.hex, u.side) in trenches


@lru_cache(maxsize=8)
def _offsets(radius: int) -> tuple[tuple[int, int, int], ...]:
    """(dq, dr, distance) of every hex within ``radius``, nearest first."""
    o = Hex(0, 0)
    return tuple((h.q, h.r, k) for k in range(radius + 1) for h in o.ring(k))


def _pools_near(h: Hex, pools_at: dict[tuple[int, int], list[_Pool]], pools: list[_Pool], max_radius: int) -> list[tuple[int, _Pool]]:
    """(distance, pool) of the pools whose radius reaches ``h``, nearest first, then by leader id."""
    out: list[tuple[int, _Pool]] = []
    if len(pools) <= 3 * max_radius * (max_radius + 1) + 1:
        for p in pools:
            d = p.hex.distance(h)
            if d <= p.radius:
                out.append((d, p))
    else:
        q, r = h.q, h.r
        for dq, dr, d in _offsets(max_radius):
            for p in pools_at.get((q + dq, r + dr), ()):
                if d <= p.radius:
                    out.append((d, p))
    out.sort(key=lambda dp: (dp[0], dp[1].order))
    return out


def _pick(cands: list[Unit], start: dict[int, int], key: int, room: dict[str, int], size: int) -> Unit | None:
    """The first leader of ``cands`` with ``size`` room, from a pointer that only moves on
    (rooms only shrink while a pool is packed, so a skipped leader stays full)."""
    i = start.get(key, 0)
    while i < len(cands) and room[cands[i].id] < max(size, 1):
        i += 1
    start[key] = i
    return cands[i] if i < len(cands) else None


def _pack(pool: _Pool, units: list[Unit], capacity: int, led: dict[str, frozenset[str]]) -> dict[str, Unit]:
    """Give each unit the pool sent here to one of its leaders: squads first, so
    every leader's room stays even while they are placed and they all fit; a
    unit prefers a leader of its own platoon, then one in its Location (hex
    and position), then the lowest id."""
    room = {ld.id: capacity for ld in pool.leaders}
    by_platoon: dict[str, list[Unit]] = {}
    by_position: dict[Position, list[Unit]] = {}
    for x in pool.leaders:
        for fid in led.get(x.id, ()):
            by_platoon.setdefault(fid, []).append(x)
        by_position.setdefault(x.position, []).append(x)
    plat_keys = {fid: i for i, fid in enumerate(by_platoon)}
    pos_keys = {pos: len(plat_keys) + i for i, pos in enumerate(by_position)}
    start: dict[int, int] = {}
    out: dict[str, Unit] = {}
    for size in (2, 1):
        batch = [u for u in units if _SIZE[u.kind] == size]
        rest: list[Unit] = []
        for u in batch:
            ld: Unit | None = None
            if u.platoon in by_platoon:
                ld = _pick(by_platoon[u.platoon], start, plat_keys[u.platoon], room, size)
            if ld is None:
                rest.append(u)
            else:
                room[ld.id] -= size
                out[u.id] = ld
        for u in rest:
            ld = _pick(by_position[u.position], start, pos_keys[u.position], room, size) if u.position in by_position else None
            if ld is None:
                ld = _pick(pool.leaders, start, -1, room, size)
            if ld is None:  # cannot happen: the pool's room covers what was sent to it
                raise AssertionError(f"command pool {pool.hex} over its room")
            room[ld.id] -= size
            out[u.id] = ld
    return out


def _side_commanders(scenario: Scenario, own: list[Unit], radius: dict[str, int]) -> dict[str, Unit]:
    """Who commands each squad, half-squad and crew of one side (ASLGW 1.3, 1.3.1, 1.3.21).

    The most units In Command (see :meth:`_Assignment.augment`), starting from a greedy
    pass in order of preference -- a leader of the unit's own platoon, then a
    leader in its hex, then the nearest leader; squads before half-squads at
    each step; ties by leader id, then unit id -- so preferences hold wherever
    they cost no unit its command.  Which leader of a pool takes a unit:
    :func:`_pack`.
    """
    capacity = 2 * organisation().leader_max_squads
    led: dict[str, frozenset[str]] = {}
    by_key: dict[tuple[Hex, int], list[Unit]] = {}
    for u in own:
        if u.kind in (UnitKind.LEADER, UnitKind.HERO) and not u.broken:
            by_key.setdefault((u.hex, radius[u.id]), []).append(u)
            # Heroes act as leaders for the radius only (1.3.21): they lead no platoon.
            led[u.id] = frozenset(led_platoons(scenario, u)) if u.kind is UnitKind.LEADER else frozenset()
    if not by_key:
        return {}
    pools = []
    for (h, r), lds in by_key.items():
        lds.sort(key=lambda x: x.id)
        pool = _Pool(0, h, r, lds, frozenset().union(*(led[x.id] for x in lds)), capacity * len(lds))
        for x in lds:
            pool.first_at.setdefault(x.position, x)
            for fid in sorted(led[x.id]):
                pool.first_of.setdefault(fid, x)
        pools.append(pool)
    pools.sort(key=lambda p: p.leaders[0].id)
    pools_at: dict[tuple[int, int], list[_Pool]] = {}
    for i, p in enumerate(pools):
        p.order = i
        pools_at.setdefault((p.hex.q, p.hex.r), []).append(p)
    max_radius = max(p.radius for p in pools)
    near_cache: dict[Hex, list[tuple[int, _Pool]]] = {}

    def near(h: Hex) -> list[tuple[int, _Pool]]:
        got = near_cache.get(h)
        if got is None:
            got = near_cache[h] = _pools_near(h, pools_at, pools, max_radius)
        return got

    mmc = sorted((u for u in own if u.kind in _SIZE), key=lambda u: u.id)
    chief: dict[str, Unit] = {}
    # Crews use no room (1.3): a leader in reach is enough; own platoon's, then nearest.
    groups: dict[tuple[Hex, int], list[Unit]] = {}
    for u in mmc:
        if _SIZE[u.kind] == 0:
            cands = near(u.hex)
            if cands:
                mine = [p for _d, p in cands if u.platoon is not None and u.platoon in p.platoons]
                pool = mine[0] if mine else cands[0][1]
                chief[u.id] = pool.first_of.get(u.platoon) or pool.first_at.get(u.position) or pool.leaders[0]
        else:
            groups.setdefault((u.hex, _SIZE[u.kind]), []).append(u)
    # Greedy pass by preference, over (group, platoon) subgroups and pools.
    gkeys = list(groups)
    gindex = {k: i for i, k in enumerate(gkeys)}
    sub: dict[tuple[int, str | None], int] = {}
    for k, us in groups.items():
        for u in us:
            sk = (gindex[k], u.platoon)
            sub[sk] = sub.get(sk, 0) + 1
    edges = []
    for n_sub, ((g, plat), _count) in enumerate(sub.items()):
        h = gkeys[g][0]
        for d, p in near(h):
            prio = 0 if plat is not None and plat in p.platoons else (1 if d == 0 else 2)
            # Squads before half-squads at each preference, so a leader's room fills in
            # whole squads first and odd half-squads of room are not left scattered.
            edges.append((prio, -gkeys[g][1], d, p.order, n_sub, g, plat))
    edges.sort()
    left = dict(sub)
    room = [p.room for p in pools]
    sizes = [k[1] for k in gkeys]
    flow: list[dict[int, int]] = [{} for _ in gkeys]
    for _prio, _size, _d, pi, _n, g, plat in edges:
        n = min(left[(g, plat)], room[pi] // sizes[g])
        if n:
            left[(g, plat)] -= n
            room[pi] -= n * sizes[g]
            flow[g][pi] = flow[g].get(pi, 0) + n
    missing = [0] * len(gkeys)
    for (g, _plat), n in left.items():
        missing[g] += n
    reach = [[p.order for _d, p in near(k[0])] for k in gkeys]
    _Assignment(sizes, missing, reach, flow, room).augment()
    # Which units of each group go to which pool: own platoon's leaders first.
    sent: dict[int, list[Unit]] = {}
    for g, k in enumerate(gkeys):
        quota = {po: n for po, n in flow[g].items() if n}
        if not quota:
            continue
        order = [p.order for _d, p in near(k[0]) if p.order in quota]
        rest: list[Unit] = []
        for u in groups[k]:
            po: int | None = next((x for x in order if quota[x] and u.platoon is not None and u.platoon in pools[x].platoons), None)
            if po is None:
                rest.append(u)
            else:
                quota[po] -= 1
                sent.setdefault(po, []).append(u)
        for u in rest:
            po = next((x for x in order if quota[x]), None)
            if po is None:
                break  # the rest stay Out of Command
            quota[po] -= 1
            sent.setdefault(po, []).append(u)
    for po, us in sent.items():
        chief.update(_pack(pools[po], us, capacity, led))
    return chief


def command_status(scenario: Scenario, side: str | None = None) -> CommandReport:
    """Command status of every squad, half-squad and crew of ``side`` (all sides if None).

    ASLGW 1.3, 1.3.1: a unit is In Command inside a friendly leader's (or
    hero's, 1.3.21) command radius, if he has room for it: a leader controls
    the equivalent of 6 squads (1.3, 1.3.3).  The assignment puts the most
    units In Command (exact whenever the units competing for the same leaders
    are all squads or all half-squads; crews need no room), preferring the
    leader of the unit's own platoon, then one stacked with it, then the
    nearest (docs/rules-notes.md, "Who commands whom").  Broken leaders and
    heroes command no one.  A squad commanded by a leader in its Location is
    not free (1.4.14); one stacked with a leader who has no room for it is.
    Time and memory are near-linear in the units (benchmarks/command.py).
    """
    if side is not None and side not in scenario.sides:
        raise CommandError(f"side {side!r} is not a side of this scenario ({', '.join(scenario.sides)})")
    sides = [side] if side is not None else list(scenario.sides)
    trench_kinds = (FortificationKind.TRENCH, FortificationKind.DEEP_TRENCH)
    trenches = {(h, f.owner) for f in scenario.map.fortifications if f.kind in trench_kinds and f.owner is not None for h in f.hexes}
    formations = {f.id for f in scenario.formations}
    radius: dict[str, int] = {}
    units: dict[str, UnitCommand] = {}
    by_side: dict[str, list[Unit]] = {sd: [] for sd in sides}
    for u in scenario.units:
        if u.side in by_side:
            by_side[u.side].append(u)
    for sd in sides:
        own = by_side[sd]
        leaders = [u for u in own if u.kind in (UnitKind.LEADER, UnitKind.HERO)]
        for ld in leaders:
            radius[ld.id] = command_radius(scenario, ld)
        hero_hexes = {ld.hex for ld in leaders if ld.kind is UnitKind.HERO and not ld.broken}
        chief = _side_commanders(scenario, own, radius)
        for u in own:
            if u.kind not in _SIZE:
                continue
            boss = chief.get(u.id)
            in_cmd = boss is not None
            # ASLGW 1.4.14: a leader in its Location who commands it (1.3.21: heroes only lend a radius).
            stacked = boss is not None and boss.kind is UnitKind.LEADER and boss.hex == u.hex and boss.position is u.position
            hero_with = u.hex in hero_hexes
            trench = _own_trench(trenches, u)
            penalty = not in_cmd and not hero_with and not trench
            free = is_free_squad(scenario, u.id, stacked_leader_commands=stacked)  # ASLGW 1.4.13-1.4.15
            ntc = free_squad_ntc(stacked_with_leader=stacked, in_command=in_cmd, entrenched=is_entrenched(u))
            drm = ntc.drm if free else 0
            parts = []
            if boss is not None:
                parts.append(f"In Command: within {radius[boss.id]} hex(es) of {boss.id} (ASLGW 1.3.1)")
            else:
                parts.append("Out of Command: no leader within radius with room for it (ASLGW 1.3, 1.3.1, 1.3.2)")
            if not in_cmd and hero_with:
                parts.append("no No Leader Penalty: a hero is with it (ASLGW 1.3.21)")
            if not in_cmd and trench:
                parts.append("no No Leader Penalty: in its own trenches (ASLGW 1.3.22)")
            if u.platoon is not None and u.platoon not in formations:
                parts.append(f"its platoon {u.platoon!r} names no formation: counted as in no platoon")
            if free:
                parts.append(f"free squad: {ntc.reason} ({ntc.rule})")
            elif u.kind is not UnitKind.CREW and is_entrenched(u) and not u.broken:
                parts.append("entrenched: the free-squad rule does not apply (ASLGW 1.4.15)")
            units[u.id] = UnitCommand(u.id, in_cmd, boss.id if boss is not None else None, penalty, free, drm, "; ".join(parts))
    return CommandReport(MappingProxyType(radius), MappingProxyType(units))


def no_leader_ntc(status: UnitCommand, action: str, phase: Phase, enemy_adjacent: bool = False) -> bool:
    """Must this unit pass a NTC first (ASLGW 1.3.2 No Leader Penalty)?

    ``action`` is ``"move"`` or ``"fire"``.  Moving: in any movement phase
    other than the Rout Phase (MPh, APh).  Firing: in the Prep Fire Phase or
    as Defensive First Fire (during the enemy's MPh), except when an enemy
    unit is adjacent or in the same hex.  Free squads also test to move in
    the MPh (1.4.13), with :attr:`UnitCommand.ntc_drm`.
    """
    if action == "move":
        if status.free and phase is Phase.MPh:
            return True
        return status.no_leader_penalty and phase in (Phase.MPh, Phase.APh)
    if action == "fire":
        return status.no_leader_penalty and phase in (Phase.PFPh, Phase.MPh) and not enemy_adjacent
    raise CommandError(f"action must be 'move' or 'fire', not {action!r}")
