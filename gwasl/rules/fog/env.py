"""What the shift rules need from the rest of the rules, injected.

O'Leary 2.5 needs LOS ("either location in the LOS of an enemy unit") and
location TEM; 2.4 needs to know when a unit would lose concealment at once
(ASLGW 1.7.2 garance trousers, a vehicle in Open Ground); 4.2 needs where a
fortification could have been set up.  Each is a small function type with a
default built from gwasl/resources/terrain.json, so the fog layer is testable with
explicit predicates and other modules can plug in better ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit, UnitKind
from gwasl.model.terrain import fortification_table, terrain_table
from gwasl.rules.fog.table import FogTable, fog_table
from gwasl.rules.garance import garance_concealment_loss, in_open_ground
from gwasl.rules.organisation import unit_mf_allowance
from gwasl.rules.trenches import FireKind, LocationError
from gwasl.rules.trenches import location_tem as trench_location_tem

__all__ = [
    "ConcealmentLossFn",
    "FogEnv",
    "LocationTemFn",
    "MfAllowanceFn",
    "PlacementFn",
    "SeesFn",
    "default_concealment_loss",
    "default_env",
    "default_location_tem",
    "default_mf_allowance",
    "default_placement",
    "sees_from_index",
    "size_class_of",
]


class SeesFn(Protocol):
    """LOS predicate: does a unit at ``a`` (in ``a_in``) see location ``b`` (in ``b_in``)?"""

    def __call__(self, a: Hex, b: Hex, a_in: Position = Position.GROUND, b_in: Position = Position.GROUND) -> bool: ...


# (scenario, hex, position, fortifications that count: (kind, tem override)) -> TEM
LocationTemFn = Callable[[Scenario, Hex, Position, tuple[tuple[FortificationKind, "int | None"], ...]], int]
# (scenario, unit, hex, position, in enemy LOS) -> reason the unit would lose concealment there, or None
ConcealmentLossFn = Callable[[Scenario, Unit, Hex, Position, bool], "str | None"]
# (scenario, fortification kind, hex, set-up hexes or None) -> may it be set up there?
PlacementFn = Callable[[Scenario, FortificationKind, Hex, "frozenset[Hex] | None"], bool]
# (scenario, unit, the ids of the units it would have moved with) -> the MF/MP it has in a phase
MfAllowanceFn = Callable[[Scenario, Unit, "tuple[str, ...]"], float]

def fortification_tem(kind: FortificationKind, position: Position | None = None, override: int | None = None) -> int:
    """TEM of a fortification from the terrain table (B27.1, B30, ASLGW 2.1.3, 2.2.4);
    ``override`` is a counter's own TEM, e.g. 5 for a 1+5+7 pillbox."""
    if override is not None:
        return override
    info = fortification_table()[kind]
    if kind is FortificationKind.DEEP_TRENCH and position is Position.DEEP_TRENCH_CREST:
        return int(info.get("crest_tem", info.get("tem", 0)))
    return int(info.get("tem", 0))


def default_location_tem(scenario: Scenario, h: Hex, position: Position,
                         forts: tuple[tuple[FortificationKind, int | None], ...]) -> int:
    """TEM of a location for the O'Leary 2.5 DRM.

    The location's TEM against direct fire from :func:`gwasl.rules.trenches.location_tem`
    (terrain, or the known fortification the position is in: ASLGW 2.1.6,
    2.2.3, B27, B30), then the better of that and each fortification in
    ``forts``, the ones the caller says count (a fortification that is itself
    being shifted is left out, O'Leary 4.3 and 4.5).  Air Burst and
    emplacement TEM never enter (2.5).

    >>> from gwasl.model.scenario import MapData, Scenario, Terrain
    >>> import datetime
    >>> s = Scenario("t", datetime.date(1916, 1, 1), MapData(3, 3, Terrain.WOODS), {})
    >>> default_location_tem(s, Hex(0, 0), Position.GROUND, ()), default_location_tem(s, Hex(0, 0), Position.GROUND, ((FortificationKind.PILLBOX, 5),))
    (1, 5)
    """
    try:
        tem = trench_location_tem(scenario, h, position, FireKind.DIRECT)
    except LocationError:
        # The position's fortification is hidden (not on the known map): terrain, then ``forts``.
        tem = terrain_table()[scenario.map.terrain_at(h)].tem
    for kind, override in forts:
        tem = max(tem, fortification_tem(kind, position, override))
    return tem


def size_class_of(unit: Unit) -> str:
    """The O'Leary 2.5 size class of a unit (docs/format/fog.md ``size_class``); infantry by default."""
    v = unit.extra.get("size_class")
    return v if isinstance(v, str) else "infantry"


def default_concealment_loss(scenario: Scenario, unit: Unit, h: Hex, position: Position,
                             in_enemy_los: bool) -> str | None:
    """Why ``unit`` would lose concealment at once at ``h`` (O'Leary 2.4), or None.

    ASLGW 1.7.2 (:func:`gwasl.rules.garance.garance_concealment_loss`, the one
    implementation): a unit in garance trousers cannot stay concealed in Open
    Ground in an enemy LOS.  O'Leary 2.4 example (ASL A12.121): a vehicle in
    Open Ground in an enemy LOS loses concealment.  Open Ground is
    :func:`gwasl.rules.garance.in_open_ground`'s (outside any fortification).
    """
    if not in_enemy_los or not in_open_ground(scenario, h, position):
        return None
    garance = garance_concealment_loss(scenario, unit, in_enemy_los, True, concealed=True)
    if garance.loses_concealment:
        return f"{unit.id} wears garance trousers and cannot stay concealed in Open Ground at {h} in enemy LOS ({garance.rule})"
    if size_class_of(unit) in fog_table().vehicle_sizes:
        return f"{unit.id} is a vehicle and would lose concealment in Open Ground at {h} in enemy LOS (O'Leary 2.4, A12.121)"
    return None


def default_mf_allowance(scenario: Scenario, unit: Unit, group: tuple[str, ...] = ()) -> float:
    """The MF/MP a unit has in a phase, for O'Leary 2.4's "could it have done what the stack
    did": its ``movement_allowance`` extension (a vehicle's MP, docs/format/fog.md); a
    support weapon is carried, so unlimited; otherwise the infantry allowance of
    :func:`gwasl.rules.organisation.unit_mf_allowance` -- the one of ASLGW 1.3 (6 MF for a
    squad in platoon formation with its leader, or with a leader), A4.1 and ASLGW 1.8.
    The game in play plugs in its own movement allowance instead (the same rule, with
    what the phase has fixed), so a shift and a move agree.

    >>> import datetime
    >>> from gwasl.model.scenario import MapData, UnitKind
    >>> u = Unit("s", "a", UnitKind.SQUAD, Hex(0, 0))
    >>> s = Scenario("t", datetime.date(1916, 1, 1), MapData(3, 3), {}, units=(u,))
    >>> default_mf_allowance(s, u)
    4.0
    """
    v = unit.extra.get("movement_allowance")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if unit.kind is UnitKind.SUPPORT_WEAPON:
        return float("inf")
    return float(unit_mf_allowance(scenario, unit.id).total)


def default_placement(scenario: Scenario, kind: FortificationKind, h: Hex, setup: frozenset[Hex] | None) -> bool:
    """O'Leary 4.2: could this fortification have been set up at ``h``?

    Only inside its set-up hexes when the scenario lists them; never in
    water; dug fortifications (trenches, dugouts, foxholes) not in marsh,
    buildings or rubble (B27.1).  The terrain and fortification facts are the
    tables' (``allows_fortification``, ``allows_entrenchment``, ``dug``).
    """
    if not scenario.map.contains(h):
        return False
    if setup is not None and h not in setup:
        return False
    t = terrain_table()[scenario.map.terrain_at(h)]
    if not t.allows_fortification:
        return False
    return t.allows_entrenchment or not fortification_table()[kind].dug


# ASLGW 2.1.5 (IN a deep trench), 2.2.2 (in a dugout): LOS only within the unit's own hex.
_SEALED = (Position.DEEP_TRENCH, Position.DUGOUT)


def sees_from_index(index: Any) -> SeesFn:
    """Adapt a prepared LOS index (``visible_from(hex) -> frozenset[Hex]``, as
    :class:`gwasl.rules.los.LosIndex` has) to the fog layer's :class:`SeesFn`.

    One-to-all LOS maps are cached per observer hex.  Positions other than
    IN a deep trench or a dugout see and are seen like the ground of their hex
    (CONTRACTS 3), so only those two are handled here; the index is always
    asked from the ground, which also spares it positions in fortifications
    that are still hidden (not on the known map).

    The LOS O'Leary 2.5 asks ("in the LOS of an enemy unit"), with IN a deep trench or a dugout seeing only
    within their own hex (ASLGW 2.1.5, 2.2.2).
    """
    cache: dict[Hex, frozenset[Hex]] = {}

    def sees(a: Hex, b: Hex, a_in: Position = Position.GROUND, b_in: Position = Position.GROUND) -> bool:
        if a == b:
            return True
        if a_in in _SEALED or b_in in _SEALED:
            return False
        seen = cache.get(a)
        if seen is None:
            seen = cache[a] = index.visible_from(a)
        return b in seen

    return sees


def _default_sees_factory(scenario: Scenario) -> SeesFn:
    """The rules' own exact LOS (gwasl.rules.los, CONTRACTS 3), prepared once per map."""
    from gwasl.rules.los import LosIndex  # numpy: loaded when LOS is first traced (issue 23 item 8)

    return sees_from_index(LosIndex(scenario))


@dataclass(frozen=True)
class FogEnv:
    """The injected rule functions the shift layer uses, plus the fog table."""

    sees_factory: Callable[[Scenario], SeesFn] = _default_sees_factory
    location_tem: LocationTemFn = default_location_tem
    concealment_loss: ConcealmentLossFn = default_concealment_loss
    placement: PlacementFn = default_placement
    table: FogTable = field(default_factory=fog_table)
    mf_allowance: MfAllowanceFn = default_mf_allowance
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def sees(self, scenario: Scenario) -> SeesFn:
        """The LOS predicate of a scenario's map, built once per map."""
        key = id(scenario.map)
        got = self._cache.get(key)
        if got is None or got[0] is not scenario.map:
            got = (scenario.map, self.sees_factory(scenario))
            self._cache[key] = got
        return got[1]

    def in_enemy_los(self, scenario: Scenario, side: str, h: Hex, position: Position = Position.GROUND,
                     exclude: Iterable[str] = ()) -> bool:
        """O'Leary 2.5: is location ``h`` in the LOS of a unit of another side?

        Infantry and vehicles see (the 2.4 T-34 example); a gun or other support
        weapon sees only through the infantry manning it, which is counted itself.
        """
        sees = self.sees(scenario)
        skip = set(exclude)
        vehicles = self.table.vehicle_sizes
        for u in scenario.units:
            if u.side != side and u.id not in skip and (u.is_infantry or size_class_of(u) in vehicles) \
                    and scenario.map.contains(u.hex) and sees(u.hex, h, u.position, position):
                return True
        return False


def default_env() -> FogEnv:
    return FogEnv()
