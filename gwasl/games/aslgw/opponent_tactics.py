"""The Great War opponent's tactics (issue 25, part D): what a side reads off the map
before it fires or moves, from its own view only.

* :func:`threat`: the known enemy firepower that can see a hex, traced with the rules'
  own LOS (:class:`gwasl.rules.los.LosIndex`, CONTRACTS 3), by range (A7.21 Point
  Blank Fire, A7.22 long range) and through hindrances and the hex's own TEM (A6.2,
  B.1); a "?" pile counts by the counters it shows (A12.1), never by what is under it.
* :func:`fire_positions`: the hexes from which a unit could fire at an enemy-held
  objective next (LOS and normal range, A7.2), where the plan for a player turn sends
  its movers.
* :func:`focus`: the objectives the card needs most (A26.1), the ones a side concentrates
  on rather than spreading over every open objective.

Everything here is a pure function of what the caller passes: the side's known
scenario, the enemy units it sees and the "?" piles as counts.  The weights are
gwasl's own (docs/rules-notes.md, "gwasl's opponent reads the threat to a hex by LOS").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules.movement import map_key

__all__ = ["PILE_FP", "Shooter", "fire_positions", "focus", "los_clear", "shooters", "threat"]

#: what one counter of a "?" pile may fire with, in FP (gwasl's weight, not a rule: the
#: counter may be a dummy, A12.1, so half a 4-FP squad, at a squad's normal range of 4)
PILE_FP = 2.0
PILE_RANGE = 4
#: one DRM of hindrance or TEM (A6.2, B.1) costs about one column of the IFT, whose columns
#: grow by about half each (1, 2, 4, 6, 8, 12, 16...): gwasl's weight, not a rule
DRM_FACTOR = 2.0 / 3.0
#: the threat is given in the units of the earlier guess (a 4-FP squad next to a hex: 2)
SCALE = 0.25

_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)


@dataclass(frozen=True, slots=True)
class Shooter:
    """An enemy firer as a side knows it: where, in which position, its FP and normal range."""

    hex: Hex
    position: Position
    fp: float
    range: int


def shooters(sc: Scenario, theirs: Iterable[Unit], piles: Iterable[tuple[Hex, Position, int]]) -> list[Shooter]:
    """The known enemy firers: Good Order squads, half-squads and crews it sees (their
    printed FP and range, ASLGW 1.11), and each "?" pile by its counter count (:data:`PILE_FP`
    per counter below the "?"; A12.1: what is under it is not known)."""
    from gwasl.rules.units import UnitsError, unit_factors_of

    out: list[Shooter] = []
    for u in theirs:
        if u.broken:
            continue
        if u.kind in _SQUADS:
            try:
                f = unit_factors_of(sc, u)
                out.append(Shooter(u.hex, u.position, float(f.firepower), int(f.range)))
            except UnitsError:
                out.append(Shooter(u.hex, u.position, 2.0, 4))
        elif u.kind is UnitKind.CREW:
            out.append(Shooter(u.hex, u.position, 1.0, 2))
    for h, pos, height in piles:
        out.append(Shooter(h, pos, PILE_FP * max(1, height - 1), PILE_RANGE))
    return out


# the rules' LOS index of a known map, kept by the map's content (terrain LOS does not change in play)
_INDEX: dict[str, object] = {}
_LOS: dict[tuple[str, Hex, Hex, Position, Position], int | None] = {}


def _index(sc: Scenario) -> tuple[str, object]:
    key = map_key(sc.map)
    got = _INDEX.get(key)
    if got is None:
        from gwasl.rules.los import LosIndex  # numpy: loaded with the first LOS traced (issue 23 item 8)

        if len(_INDEX) > 8:
            _INDEX.clear()
            _LOS.clear()
        got = _INDEX[key] = LosIndex(sc)
    return key, got


def los_clear(sc: Scenario, a: Hex, b: Hex, a_in: Position = Position.GROUND,
              b_in: Position = Position.GROUND) -> int | None:
    """The hindrance DRM along the LOS from ``a`` to ``b`` (the rules' own LOS, CONTRACTS 3,
    ASLGW 2.1.5, 2.2.2), or ``None`` when it is blocked.  A position the known map does not
    show (a fortification still hidden) is read as the ground of its hex."""
    from gwasl.rules.los import LosError

    key, idx = _index(sc)
    k = (key, a, b, a_in, b_in)
    if k in _LOS:
        return _LOS[k]
    try:
        r = idx.los(a, b, a_in, b_in)  # type: ignore[attr-defined]
    except LosError:
        try:
            r = idx.los(a, b)  # type: ignore[attr-defined]
        except LosError:
            r = None
    out = None if r is None or not r.clear else int(r.hindrance_drm)
    if len(_LOS) > 200_000:
        _LOS.clear()
    _LOS[k] = out
    return out


def range_factor(d: int, normal: int) -> float:
    """A7.21 Point Blank Fire (ADJACENT or same Location: FP doubled), A7.22 long range
    (beyond normal range, up to twice it: FP halved), nothing beyond.

    >>> range_factor(1, 4), range_factor(4, 4), range_factor(6, 4), range_factor(9, 4)
    (2.0, 1.0, 0.5, 0.0)
    """
    if d <= 1:
        return 2.0
    if d <= normal:
        return 1.0
    if d <= 2 * normal:
        return 0.5
    return 0.0


def _tem(sc: Scenario, h: Hex, firer: Hex) -> int:
    from gwasl.rules.trenches import LocationError, location_tem

    try:
        return max(0, location_tem(sc, h, Position.GROUND, "direct", firer))
    except LocationError:  # a location the known map does not hold: no TEM read
        return 0


def threat(sc: Scenario, h: Hex, enemy: Sequence[Shooter], tem: bool = True) -> float:
    """The known enemy firepower that can actually fire at ``h`` (issue 25 D.1): each
    shooter whose LOS to ``h`` is clear (the rules' LOS), its FP by range (A7.21, A7.22),
    lessened by the hindrance DRM along the line and the TEM of ``h`` (A6.2, B.1) at
    :data:`DRM_FACTOR` a DRM; in the units of the earlier guess (:data:`SCALE`)."""
    # a pure function of the map (its LOS and TEM), the hex and the shooters: the same threat
    # is asked again decision after decision while nobody moves, so it is kept
    k = (map_key(sc.map), h, tuple(enemy), tem)
    got = _THREAT.get(k)
    if got is None:
        if len(_THREAT) > 50_000:
            _THREAT.clear()
        got = _THREAT[k] = _threat(sc, h, enemy, tem)
    return got


_THREAT: dict[tuple[str, Hex, tuple[Shooter, ...], bool], float] = {}


def _threat(sc: Scenario, h: Hex, enemy: Sequence[Shooter], tem: bool) -> float:
    t = 0.0
    for s in enemy:
        d = s.hex.distance(h)
        f = range_factor(d, s.range)
        if not f:
            continue
        hind = los_clear(sc, s.hex, h, s.position) if d > 0 else 0
        if hind is None:
            continue
        drm = hind + (_tem(sc, h, s.hex) if tem else 0)
        t += s.fp * f * DRM_FACTOR ** drm
    return t * SCALE


def fire_positions(sc: Scenario, at: Iterable[Hex], frm: Iterable[Hex], normal: int = 4) -> frozenset[Hex]:
    """Of the hexes ``frm``, those with a clear LOS within normal range (A7.2) of one of
    ``at`` (enemy-held objectives): where a mover can fire from next (Advancing Fire,
    A7.25, or next turn's Prep Fire)."""
    targets, frm = frozenset(at), frozenset(frm)
    # a pure function of the map's LOS and the hexes (in any order): asked again decision after decision
    k = (map_key(sc.map), targets, frm, normal)
    got = _POSITIONS.get(k)
    if got is None:
        if len(_POSITIONS) > 4096:
            _POSITIONS.clear()
        got = _POSITIONS[k] = frozenset(
            h for h in frm if any(0 < h.distance(t) <= normal and los_clear(sc, h, t) is not None for t in targets))
    return got


_POSITIONS: dict[tuple[str, frozenset[Hex], frozenset[Hex], int], frozenset[Hex]] = {}


def focus(open_: Iterable[Hex], need: int, cost: dict[Hex, float]) -> frozenset[Hex]:
    """A26.1: the objectives the card needs most: of the open objective hexes, the ``need``
    cheapest (by ``cost``: how far its units are and how much known fire guards it), each
    with the open objective hexes next to it (the same building or trench line: one way in
    is as good as another).  A side concentrates on these rather than spreading.

    >>> a, b, c = (Hex.from_label(x) for x in ("A1", "A2", "E5"))
    >>> sorted(h.label for h in focus([a, b, c], 1, {a: 3.0, b: 4.0, c: 1.0}))
    ['E5']
    >>> sorted(h.label for h in focus([a, b, c], 1, {a: 1.0, b: 4.0, c: 2.0}))
    ['A1', 'A2']
    """
    hexes = sorted(open_, key=lambda h: (cost.get(h, 0.0), h.column, h.row))
    chosen: set[Hex] = set()
    picked = 0
    for h in hexes:
        if picked >= max(1, need):
            break
        if h in chosen:
            continue
        chosen |= {x for x in hexes if x.distance(h) <= 1}
        picked += 1
    return frozenset(chosen)
