"""Who sees whom: submarine visibility (104.1.4), daylight at night (107), search (108.3),
the Submarine Visibility Table (104.1.5) and the Escort Action Table (104.2.1).

These read the true submarine (they are the rules, applied by the game); the
escorts' automaton never calls the ones that take a :class:`Sub`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gwasl.games.on_patrol.state import (
    EscortView,
    Force,
    Marker,
    PatrolState,
    Ship,
    Sub,
)
from gwasl.games.on_patrol.tables import Tables
from gwasl.model.hexgrid import Hex

__all__ = [
    "daylight_at",
    "diameter_for",
    "escort_action",
    "mode_of",
    "radar_target",
    "search_range",
    "sees",
    "sonar_target",
    "visible",
    "visual_target",
]


def _near(hexes: Iterable[Hex], spots: Iterable[Hex], r: int) -> bool:
    hs = tuple(hexes)
    return any(h.distance(s) <= r for h in hs for s in spots)


def daylight_at(state: PatrolState, hexes: Sequence[Hex], t: Tables) -> str | None:
    """Why daylight conditions prevail at any of ``hexes`` (None when they do not):
    a day scenario; at night a star shell (107.1, stand-in radius), within 7 hexes of a
    tanker torpedoed on an earlier turn (107.2.2), within 20 of a burning aviation-fuel
    tanker until the turn after it sinks, star shell phase included (107.2.3)."""
    if not state.night:
        return "day"
    if state.star_shells and _near(hexes, state.star_shells, t.c("star_shell_radius")):
        return "star shell (107.1)"
    for s in state.ships:
        if (s.type in ("tanker", "avgas") and 0 < s.torpedoed_turn < state.turn
                and _near(hexes, s.hexes(), t.c("torpedoed_visibility_range"))):
            return f"burning tanker {s.id} (107.2.2)"
        if s.type == "avgas" and s.torpedoed_turn and s.torpedoed_turn <= state.turn:
            until = state.avgas_until.get(s.id)
            lit = until is None or state.turn < until or (state.turn == until and state.phase <= 5)
            if lit and _near(hexes, s.hexes(), t.c("avgas_daylight_range")):
                return f"aviation fuel burning on {s.id} (107.2.3)"
    return None


def visible(state: PatrolState, sub: Sub, t: Tables) -> str | None:
    """104.1.4: why the submarine is visible, or None.  (a) on the surface or at 25 feet in
    daylight; (b) the same at night within four hexes of an enemy vessel, or seven of a
    vessel torpedoed on the previous turn and still afloat; (c) sighted under 47.0."""
    if not sub.active or sub.depth > t.c("visible_depth"):
        return None
    hexes = sub.hexes()
    why = daylight_at(state, hexes, t)
    if why:
        return f"{'surfaced' if sub.depth == 0 else 'at 25 feet'} in daylight ({why}, 104.1.4 a)"
    afloat = [s for s in state.ships if s.afloat]
    if any(_near(hexes, s.hexes(), t.c("night_visibility_range")) for s in afloat):
        return "within four hexes of an enemy vessel at night (104.1.4 b)"
    if any(s.torpedoed_turn == state.turn - 1 and s.torpedoed_turn > 0 and _near(hexes, s.hexes(), t.c("torpedoed_visibility_range"))
           for s in afloat):
        return "within seven hexes of a vessel torpedoed last turn (104.1.4 b)"
    if sub.sighted:
        return "sighted by night visual search (104.1.4 c, 47.0)"
    return None


def _range(ship: Ship, sub: Sub) -> int:
    return min(ship.pose.bow.distance(h) for h in sub.hexes())


def search_range(ship: Ship, sub: Sub) -> int:
    """Hexes from a searching ship's bow to the nearer hex of the submarine: the range of the
    radar and sonar searches every capable escort makes each turn (On Patrol 108.3.1, 108.3.2)."""
    return _range(ship, sub)


def sonar_target(t: Tables, ship: Ship, sub: Sub) -> tuple[int, list[tuple[str, int]]]:
    """The 2d6 number a sonar search must not exceed (0: no chance) and its DRMs (stand-in table).

    Escorts at Search Speed conduct sonar search each turn (On Patrol 104.2.1, 108.3)."""
    if sub.depth < t.c("depth_step"):
        return 0, []
    rng = _range(ship, sub)
    target = next((tg for mx, tg in t.sonar if rng <= mx), 0)
    mods: list[tuple[str, int]] = []
    if target:
        if sub.emergency:
            mods.append(("submarine at emergency speed", t.sonar_drm["submarine at emergency speed"]))
        if sub.moved == 0 and sub.start is not None and sub.start == sub.pose:
            mods.append(("submarine stopped", t.sonar_drm["submarine stopped"]))
        if sub.depth >= 200:
            mods.append(("submarine at 200 feet or deeper", t.sonar_drm["submarine at 200 feet or deeper"]))
    return target, mods


def radar_target(t: Tables, ship: Ship, sub: Sub) -> int:
    """Radar search (108.3.2): only a submarine at 25 feet or shallower (stand-in table)."""
    if sub.depth > t.c("radar_depth"):
        return 0
    rng = _range(ship, sub)
    return next((tg for depth, mx, tg in t.radar if sub.depth <= depth and rng <= mx), 0)


def visual_target(t: Tables, ship: Ship, sub: Sub) -> int:
    """Night visual search (47.0, stand-in table)."""
    rng = _range(ship, sub)
    return next((tg for depth, mx, tg in t.night_visual if sub.depth <= depth and rng <= mx), 0)


def sees(state: PatrolState, sub: Sub, ship: Ship, t: Tables) -> bool:
    """104.1.5 with the stand-in Submarine Visibility Table: whether ``sub`` may attack ``ship``."""
    if not ship.afloat:
        return False
    rng = min(a.distance(b) for a in sub.hexes() for b in ship.hexes())
    lit = daylight_at(state, ship.hexes(), t) is not None
    for max_depth, day, night in t.sub_visibility:
        if sub.depth <= max_depth:
            return rng <= (day if lit else night)
    return False


def mode_of(m: Marker | None) -> int:
    """The Escort Action Table's mode for a submarine marker (104.2.1)."""
    if m is None:
        return 1
    if m.kind == "torpedo":
        return 2
    if m.kind == "escort":
        return 3
    if m.kind == "sub":
        return 5 if m.surfaced else 4
    return 6


def escort_action(view: EscortView, t: Tables, hand: int = 1) -> list[Force]:
    """104.2.1 with double and triple contacts: one force per submarine marker, in the order
    the sightings began.  The second marker takes the nearest half (rounded down) of the
    escorts; a third takes the nearest half of each of the other two forces.  Mode 5's
    rammer is the force's escort nearest the marker's bow (108.1.5)."""
    from gwasl.games.on_patrol.movement import order_key

    escorts = [s for s in view.ships if s.kind == "escort" and s.afloat]
    markers = sorted(view.markers, key=lambda m: (m.seq, m.sub))
    if not markers:
        return []
    groups: list[list[Ship]] = [list(escorts)]
    for m in markers[1:]:
        new: list[Ship] = []
        for g in groups:
            g.sort(key=lambda s: (order_key(s.pose.bow, s.pose.heading, m.target), -s.vp, s.id))
            take = len(g) // 2
            new += g[:take]
            del g[:take]
        groups.append(new)
    out = []
    for m, g in zip(markers, groups, strict=True):
        mode = mode_of(m)
        rammer = ""
        if mode == 5 and g:
            rammer = min(g, key=lambda s: (order_key(s.pose.bow, s.pose.heading, m.pose.bow), -s.vp, s.id)).id
        out.append(Force(m.sub, mode, m.target, m.facing, m.pose.bow, tuple(sorted(s.id for s in g)), rammer))
    return out


def diameter_for(ship: Ship, target: Hex, t: Tables) -> int:
    """106.2.4: the diameter of 12 hexes, or 6 for a ship already within 12 of the target."""
    if ship.diameter and ship.diameter_target == target:
        return ship.diameter
    return t.c("diameter") if ship.pose.bow.distance(target) > t.c("diameter") else t.c("inner_diameter")
