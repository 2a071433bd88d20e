"""Harmon's automatic escorts (104.2, 105, 106, 108): phase 2's orders, from the escorts' view only.

:func:`escort_orders` reads an :class:`EscortView` (ships, torpedoes, markers,
the Escort Action Table's forces, this turn's convoy paths) and never the true
submarine.  It moves the free escorts one by one in 105.4.5's order, each by
radial (105.3) or diameter (106.2) movement, avoiding merchants' paths and
pivot hexes (108.1), torpedoes (108.2.1), other escorts and depth-charged
hexes (105.4.8), and plans each radial escort's attack on the assault zone
(105.4.1, 105.4.4, 105.4.6, 105.4.10, 105.4.11).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gwasl.games.on_patrol.detection import diameter_for
from gwasl.games.on_patrol.geometry import (
    Pose,
    assault_zone,
    assault_zone_priority,
    harmon_heading,
    sextant,
)
from gwasl.games.on_patrol.movement import (
    Steer,
    Step,
    diameter_steer,
    order_key,
    plan_path,
    radial_steer,
)
from gwasl.games.on_patrol.records import Drop, EscortOrders, EscortPlan
from gwasl.games.on_patrol.state import AttackMark, EscortView, Force, Ship, hx, lab
from gwasl.games.on_patrol.tables import Tables
from gwasl.model.hexgrid import Hex, scale

__all__ = ["Reach", "clear_of_torpedoes", "escort_orders", "load_of", "move_words", "reach", "spread_attacks"]

HAND = 1  # ties go to starboard; diameters run counter-clockwise (docs/rules-notes.md)


@dataclass(frozen=True)
class Reach:
    """Which assault-zone hexes each weapon of an escort can reach along its path this turn."""

    dc: tuple[Hex, ...]
    kgun: tuple[Hex, ...]
    hedgehog: tuple[Hex, ...]
    squid: tuple[Hex, ...]


def reach(poses: Sequence[Pose], zone: frozenset[Hex], ships_at: frozenset[Hex]) -> Reach:
    """The reach of each weapon (design notes; stand-in geometry): depth charges into each
    hex the stern leaves, K-guns into the beam hexes, the hedgehog two hexes ahead of the
    bow and the squid three, never into a hex holding a surface vessel (105.4.11)."""
    dc = [poses[k - 1].stern for k in range(1, len(poses))]
    kg = [h for p in poses for h in p.beam_hexes()]
    hh = [p.bow + scale(p.heading, 2) for p in poses]
    sq = [p.bow + scale(p.heading, 3) for p in poses]

    def keep(hs: list[Hex], atw: bool = False) -> tuple[Hex, ...]:
        out: list[Hex] = []
        for h in hs:
            if h in zone and h not in out and not (atw and h in ships_at):
                out.append(h)
        return tuple(out)

    return Reach(keep(dc), keep(kg), keep(hh, True), keep(sq, True))


def spread_attacks(r: Reach, load: dict[str, int], priority: Sequence[Hex], occupied: frozenset[Hex], mk_x: int = 0) -> list[Drop]:
    """105.4.6 and 105.4.10: at least one weapon in every reachable assault-zone hex, in
    105.4.4's priority, vacant hexes first; then every weapon able to reach is fired
    (105.4.11), spread as evenly as possible (six charges on three hexes: two each),
    higher-priority hexes taking the odd ones.  ``occupied`` are hexes already attacked."""
    rank = {h: i for i, h in enumerate(priority)}
    hexes_of = {"dc": r.dc, "kgun": r.kgun, "hedgehog": r.hedgehog, "squid": r.squid}
    left = {w: (load.get(w, 0) if hexes_of[w] else 0) for w in hexes_of}
    got: dict[tuple[Hex, str], int] = {}
    per_hex: dict[Hex, int] = {}
    order = ("dc", "kgun", "squid", "hedgehog")

    def put(h: Hex, w: str) -> None:
        got[(h, w)] = got.get((h, w), 0) + 1
        per_hex[h] = per_hex.get(h, 0) + 1
        left[w] -= 1

    reachable = sorted({h for hs in hexes_of.values() for h in hs}, key=lambda h: rank.get(h, 99))
    for h in reachable:  # coverage, in priority order, vacant hexes only
        if h in occupied or per_hex.get(h):
            continue
        cands = [w for w in order if left[w] > 0 and h in hexes_of[w]]
        if cands:
            put(h, min(cands, key=lambda w: (len(hexes_of[w]), order.index(w))))
    for w in order:  # the rest, evenly; into attacked hexes only when no vacant one is reachable
        while left[w] > 0:
            hs = hexes_of[w]
            if w == "dc":  # depth charges: as evenly as possible over every hex the stern leaves
                h = min(hs, key=lambda x: (got.get((x, w), 0), x in occupied, rank.get(x, 99)))
            else:  # 105.4.10: K-guns and ATW into other escorts' hexes only when nothing else is in reach
                h = min(hs, key=lambda x: (x in occupied, got.get((x, w), 0), rank.get(x, 99)))
            put(h, w)
    drops = []
    mk = mk_x
    for (h, w), n in sorted(got.items(), key=lambda kv: (rank.get(kv[0][0], 99), order.index(kv[0][1]))):
        m = 1 if (mk and w == "dc") else 0
        mk -= m
        drops.append(Drop(lab(h), w, n, m, rank.get(h, 98) + 1))
    return drops


def load_of(s: Ship, t: Tables, year: int) -> dict[str, int]:
    """The weapons an escort fires in one turn (102.5: unlimited supply; stand-in rates)."""
    c = t.surface[s.cls]
    return {"dc": c.dc, "kgun": c.kguns, "hedgehog": 1 if c.hedgehog_from and year >= c.hedgehog_from else 0,
            "squid": 1 if c.squid_from and year >= c.squid_from else 0}


def _forbidden(view: EscortView) -> set[Hex]:
    bad = set(view.convoy_paths)
    for tp in view.torpedoes:
        bad.add(tp.pose.bow)  # 108.2.1: never steam over a torpedo
    for a in view.attacks:
        if a.weapon in ("dc", "kgun"):  # 105.4.2: hedgehog hexes may be crossed
            bad.add(a.hex)
    return bad


def escort_orders(view: EscortView, t: Tables) -> EscortOrders:
    """Phase 2's orders for every free escort (see the module docstring).

    (On Patrol 104.2.1 modes, 105 radial and 106 diameter movement, 108 searches.)"""
    forces = {e: f for f in view.forces for e in f.escorts}
    free = [s for s in view.ships if s.kind == "escort" and s.moving and not s.in_formation and s.id in forces]
    free.sort(key=lambda s: (order_key(s.pose.bow, s.pose.heading, _aim(forces[s.id], s)), -s.vp, s.id))
    occupied: dict[str, tuple[Hex, Hex]] = {s.id: s.hexes() for s in view.ships if s.afloat}
    forbidden = _forbidden(view)
    torpedo_paths = {h for tp in view.torpedoes for h in tp.path()}
    attacks: list[AttackMark] = list(view.attacks)
    slowest: dict[str, int] = {}
    for f in view.forces:
        speeds = [s.max_speed for s in view.ships if s.id in f.escorts and s.moving and s.id != f.rammer]
        slowest[f.sub] = min(speeds) if speeds else 0
    ships_at = frozenset(h for s in view.ships if s.afloat for h in s.hexes())
    plans = []
    taken: set[Hex] = {h for hs in occupied.values() for h in hs}  # counters never share a hex
    for n, s in enumerate(free, 1):
        f = forces[s.id]
        mine = occupied[s.id]
        taken.difference_update(mine)
        plan = _plan(view, t, s, f, n, taken, forbidden, torpedo_paths, attacks, slowest[f.sub], ships_at)
        plans.append(plan)
        last = plan.steps[-1] if plan.steps else None
        pose = Pose(hx(last[1]), last[2]) if last else s.pose
        occupied[s.id] = pose.hexes()
        taken.update(occupied[s.id])
        for d in plan.drops:
            h = hx(d.hex)
            attacks.append(AttackMark(s.id, h, d.weapon, d.count, d.mk_x))
            if d.weapon in ("dc", "kgun"):
                forbidden.add(h)
    return EscortOrders(tuple(plans))


def clear_of_torpedoes(start: Pose, planned: list[Step], decisions: list[Steer], maneuver0: tuple[int, ...], least: int,
                       speed: int, blocked: Callable[[Hex], bool], paths: set[Hex],
                       target: Hex) -> tuple[list[Step], tuple[int, ...], list[Steer]]:
    """108.2.1: the move that keeps an escort out of the torpedoes' paths (``paths``: the hexes
    they will run through this turn) when its planned move (``planned``) would end in one, the
    escorts moving before the torpedoes (a stand-in order).  Every move of up to ``speed`` hexes
    (one 60-degree pivot per hex, no blocked hex entered) that ends with bow and stern clear is
    weighed: first those keeping at least ``least`` hexes of speed (two hexes of change a turn);
    among them the end nearest the planned end, then the path nearest the planned one hex by
    hex ("paralleling its former path as close as possible"), then the faster ("or by slowing"),
    then the end nearer the target, then starboard first.  A prefix of the planned move is one
    of them: slowing on the path.  None clear: the planned move, cut back as far as that helps."""
    want = [st.pose.bow for st in planned] or [start.bow]
    best: tuple[tuple[object, ...], list[Pose], list[int]] | None = None

    def walk(pose: Pose, poses: list[Pose], turns: list[int]) -> None:
        nonlocal best
        n = len(poses)
        if not (paths & {pose.bow, pose.stern}):
            end_off = pose.bow.distance(want[-1])
            off = sum(p.bow.distance(want[min(i, len(want) - 1)]) for i, p in enumerate(poses))
            pref = tuple(0 if t * HAND > 0 else 1 if t else 2 for t in turns)
            key = (0 if n >= least else 1, end_off, off, -n, pose.bow.distance(target), pref)
            if best is None or key < best[0]:
                best = (key, list(poses), list(turns))
        if n == speed:
            return
        for t in (0, HAND, -HAND):
            p = pose.step(t)
            if not blocked(p.bow):
                walk(p, [*poses, p], [*turns, t])

    walk(start, [], [])
    if best is None:  # nowhere clear: the old fallback, slowing along the plan
        steps, decs = list(planned), list(decisions)
        while steps and paths & set(steps[-1].pose.hexes()):
            steps.pop()
            decs.pop()
        return steps, (decs[-1].maneuver if decs else maneuver0), decs
    _, poses, turns = best
    n = len(poses)
    if poses == [st.pose for st in planned[:n]]:  # slowing on its own path
        return list(planned[:n]), (decisions[n - 1].maneuver if n else maneuver0), list(decisions[:n])
    why = "leaving its course to keep out of a torpedo's path, paralleling it as closely as possible (108.2.1)"
    steer = [Steer(t, why) for t in turns]
    return [Step(t, p, why) for t, p in zip(turns, poses, strict=True)], (), steer


def move_words(decisions: Sequence[Steer], end: Pose, target: Hex, radius: int = 0) -> list[str]:
    """The move made, in words: each stage of the steering in the order taken, a stage once
    however many hexes it lasted ("turning onto the vector to radial 5" and "on the vector to
    radial 5" are one stage), then where the move ended: heading, radial (Harmon's numbering,
    1-6, as headings) and distance from the target hex."""
    stages: list[str] = []
    for d in decisions:
        w = d.why.replace("turning onto the vector", "on the vector")
        if not stages or stages[-1] != w:
            stages.append(w)
    out = [", then ".join(stages)] if stages else ["does not move"]
    v = end.bow - target
    dist = end.bow.distance(target)
    if v == Hex(0, 0):
        where = "on the target hex"
    else:
        i, _a, b = sextant(v)
        where = (f"on radial {harmon_heading(i)}" if b == 0
                 else f"between radials {harmon_heading(i)} and {harmon_heading(i + 1)}") + f", {dist} hex{'es' if dist > 1 else ''} from the target"
        if radius and dist == radius:
            where += f", on the {radius}-hex diameter"
    out.append(f"ends at {lab(end.bow)} heading {harmon_heading(end.heading)}, {where}")
    return out


def _aim(f: Force, s: Ship) -> Hex:
    return f.bow if s.id == f.rammer else f.target


def _plan(view: EscortView, t: Tables, s: Ship, f: Force, order: int, others: set[Hex], forbidden: set[Hex],
          torpedo_paths: set[Hex], attacks: list[AttackMark], slowest: int, ships_at: frozenset[Hex]) -> EscortPlan:
    search = t.c("search_speed")
    az = t.c("assault_zone_radius")
    rammer = s.id == f.rammer
    target = _aim(f, s)
    movement = "ram" if rammer else ("diameter" if f.mode in (5, 6) else "radial")
    if movement == "diameter":
        want = search if f.mode == 6 else slowest
        speed_why = "search speed (106.2.3)" if f.mode == 6 else f"the slowest ship's full speed {slowest} (106.2.3)"
    elif f.mode == 2 or (f.mode == 3 and s.id in view.sonar_contacts):
        want = search
        speed_why = "search speed (104.2.1, 105.3.5)"
    else:
        want = s.max_speed
        speed_why = "full speed (104.2.1, 105.3.5)"
    step = t.c("max_speed_change")
    # 8.2.1, 31.1 (designer's ruling): speed changes by at most two hexes a turn
    speed = max(0, min(s.max_speed, max(s.speed - step, min(want, s.speed + step))))
    radius = diameter_for(s, target, t) if movement == "diameter" else 0

    def blocked(h: Hex) -> bool:
        return (not h.on_board(view.columns, view.rows)) or h in others or h in forbidden

    if movement == "diameter":
        def steer(p: Pose, m: tuple[int, ...]) -> Steer:
            return diameter_steer(p, target, radius, HAND, az)
        maneuver0: tuple[int, ...] = ()
    else:
        def steer(p: Pose, m: tuple[int, ...]) -> Steer:
            return radial_steer(p, target, HAND, m, az)
        maneuver0 = s.maneuver
    steps, maneuver, decisions = plan_path(s.pose, speed, steer, blocked, maneuver0, HAND, target)
    end = steps[-1].pose if steps else s.pose
    if torpedo_paths & set(end.hexes()):
        # 108.2.1: never end the move directly ahead of a torpedo: leave the path, paralleling it
        # as closely as possible, or slow so as not to be in its path
        steps, maneuver, decisions = clear_of_torpedoes(s.pose, steps, decisions, maneuver0, s.speed - step, speed, blocked,
                                                        torpedo_paths, target)
    drops: list[Drop] = []
    priority: tuple[Hex, ...] = ()
    if movement == "radial" and f.mode in (2, 3, 4):
        zone = assault_zone(target)
        priority = assault_zone_priority(target, f.facing, HAND)[: len(zone)]
        poses = [s.pose] + [st.pose for st in steps]
        r = reach(poses, zone, ships_at)
        occupied_now = frozenset(a.hex for a in attacks)
        mk = 1 if (t.surface[s.cls].mk_x and s.mk_x_used < t.c("mk_x_per_ship")) else 0
        drops = spread_attacks(r, load_of(s, t, view.year), priority, occupied_now, mk)
    # the radial and vector the move ended on (the last hex's steering), not its first hex's
    radial = next((d.radial for d in reversed(decisions) if d.radial is not None), None)
    vector = next((d.vector for d in reversed(decisions) if d.vector is not None), None)
    what = {"radial": "radial movement (105.3)", "diameter": f"diameter movement on the {radius}-hex diameter (106)",
            "ram": "radial movement on the submarine's bow to ram it (104.2.1 mode 5, 108.1.5)"}[movement]
    parts = [f"Mode {f.mode}: {what} at {speed_why[:-1]}: {speed} hexes), order {order} (105.4.5), target {lab(target)}"]
    parts.extend(move_words(decisions, steps[-1].pose if steps else s.pose, target, radius))
    if len(steps) < speed:
        parts.append(f"slowed to {len(steps)} to keep clear (105.4.8, 108.1, 108.2.1)")
    if drops:
        parts.append("attacks " + ", ".join(f"{d.count} {d.weapon}{' (Mk X)' if d.mk_x else ''} on {d.hex}" for d in drops)
                     + " (105.4.4, 105.4.6)")
    return EscortPlan(s.id, f.mode, movement, len(steps), tuple((st.turn, lab(st.pose.bow), st.pose.heading) for st in steps),
                      maneuver, tuple(drops), lab(target), radial, vector, tuple(lab(h) for h in priority[:1]), order,
                      "; ".join(parts))
