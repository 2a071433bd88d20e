"""What the map draws, as plain values: one description per hex, stack and fortification.

The map scene and ``gwasl render`` draw ONLY a :class:`MapDrawing`.  It is
built either from the whole scenario (the designer's omniscient mode,
:func:`drawing_from_scenario`) or from what one side may see
(:func:`drawing_from_view`, built from the fog-of-war ``SideView``), so a
side's preview cannot show anything that side does not know: hidden facts
never reach the drawing code.

This module imports no Qt; it is plain data and can be tested headless.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Iterable, Mapping

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    DummyKind,
    FortificationKind,
    HiddenStatus,
    MapData,
    Nationality,
    Position,
    Scenario,
    Unit,
    UnitKind,
)

__all__ = [
    "CounterFace",
    "StackDrawing",
    "FortDrawing",
    "MapDrawing",
    "OMNISCIENT",
    "drawing_from_scenario",
    "counter_face",
    "unit_factors_text",
]

OMNISCIENT = "omniscient"

_CLASS_SHORT = {
    "stosstruppen": "Stoss",
    "elite": "Elite",
    "first_line": "1st Line",
    "second_line": "2nd Line",
    "landwehr": "Landwehr",
    "territorial": "Territ.",
}
_KIND_TITLE = {
    UnitKind.SQUAD: "Squad",
    UnitKind.HALF_SQUAD: "HS",
    UnitKind.LEADER: "Leader",
    UnitKind.HERO: "Hero",
    UnitKind.CREW: "Crew",
    UnitKind.SUPPORT_WEAPON: "SW",
}
_POSITION_TAG = {
    Position.GROUND: "",
    Position.TRENCH: "Tr",
    Position.DEEP_TRENCH: "DT",
    Position.DEEP_TRENCH_CREST: "Crest",
    Position.DUGOUT: "Dug",
    Position.FOXHOLE: "Fox",
    Position.PILLBOX: "Pbx",
}
_HIDDEN_TAG = {
    HiddenStatus.NONE: None,
    HiddenStatus.CONCEALED: "?",
    HiddenStatus.POTENTIAL_DUMMY: "PD",
    HiddenStatus.HIP: "HIP",
}


@dataclass(frozen=True, slots=True)
class CounterFace:
    """One counter as drawn: everything printed on it, nothing else.

    ``kind`` is a unit kind value, or ``"concealed"`` for a concealment
    counter whose contents the viewer does not know, or a dummy kind value
    (designer mode only).  ``marker`` is the designer's hidden-status badge
    (``HIP``, ``PD``, ``?``), never set in a side's view.
    """

    key: str
    side: str
    nationality: Nationality | None
    kind: str
    title: str
    factors: str | None = None
    rating: str | None = None
    platoon: str | None = None
    broken: bool = False
    position: str = ""
    marker: str | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class StackDrawing:
    """The counters in one hex, bottom first (the order they are stacked)."""

    hex: Hex
    counters: tuple[CounterFace, ...]


@dataclass(frozen=True, slots=True)
class FortDrawing:
    """A fortification to draw; ``marker`` flags hidden ones in designer mode."""

    kind: FortificationKind
    hexes: tuple[Hex, ...]
    ladders: tuple[Hex, ...] = ()
    owner: str | None = None
    marker: str | None = None


@dataclass(frozen=True, slots=True)
class MapDrawing:
    """Everything the map scene draws.

    ``map`` supplies terrain, levels, buildings and custom outlines (all
    public knowledge); its ``fortifications`` are emptied, so the drawing
    code can only draw the ones listed in ``fortifications``.
    """

    map: MapData
    stacks: Mapping[Hex, StackDrawing]
    fortifications: tuple[FortDrawing, ...]
    title: str = ""
    viewer: str = OMNISCIENT
    nationalities: Mapping[str, Nationality] = field(default_factory=lambda: MappingProxyType({}))

    def forts_at(self, h: Hex) -> tuple[FortDrawing, ...]:
        return tuple(f for f in self.fortifications if h in f.hexes)


def unit_factors_text(scenario: Scenario, unit: Unit) -> str | None:
    """The factors printed on ``unit``'s counter at the scenario date, if known.

    Squads and half-squads take their factors from the nationality tables
    (ASLGW 1.11) through :mod:`gwasl.rules.units` once that module exists;
    until then the counter shows its class only.
    """
    try:
        from gwasl.rules import units as _units  # optional until the units rules land
    except ImportError:
        return None
    if unit.kind not in (UnitKind.SQUAD, UnitKind.HALF_SQUAD) or unit.unit_class is None:
        return None
    side = scenario.sides.get(unit.side)
    if side is None:
        return None
    try:
        f = _units.unit_factors(scenario, side.nationality, unit.unit_class, unit.kind)
    except Exception:  # not available at this date / no table: the counter shows no factors
        return None
    return str(f)


def counter_face(scenario: Scenario, unit: Unit, *, designer: bool) -> CounterFace:
    """The face of ``unit``'s counter; ``designer`` adds the hidden-status badge."""
    side = scenario.sides.get(unit.side)
    nat = side.nationality if side is not None else None
    if unit.kind is UnitKind.SUPPORT_WEAPON:
        title = unit.weapon or "SW"
    elif unit.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD):
        cls = _CLASS_SHORT.get(unit.unit_class.value, "") if unit.unit_class else ""
        title = cls if unit.kind is UnitKind.SQUAD else f"HS {cls}".strip()
    else:
        title = _KIND_TITLE[unit.kind]
    return CounterFace(
        key=unit.id,
        side=unit.side,
        nationality=nat,
        kind=unit.kind.value,
        title=title,
        factors=unit_factors_text(scenario, unit),
        rating=str(unit.rating) if unit.rating is not None else None,
        platoon=unit.platoon,
        broken=unit.broken,
        position=_POSITION_TAG[unit.position],
        marker=_HIDDEN_TAG[unit.hidden] if designer else None,
    )


def _stack_order(u: Unit) -> tuple[int, str]:
    # Leaders and heroes on top of the squads they lead, weapons under their owners: ASL stacking habit.
    order = {UnitKind.SUPPORT_WEAPON: 0, UnitKind.CREW: 1, UnitKind.HALF_SQUAD: 2, UnitKind.SQUAD: 3, UnitKind.HERO: 4, UnitKind.LEADER: 5}
    return (order[u.kind], u.id)


def _stacks(faces: Iterable[tuple[Hex, CounterFace]]) -> Mapping[Hex, StackDrawing]:
    by_hex: dict[Hex, list[CounterFace]] = {}
    for h, c in faces:
        by_hex.setdefault(h, []).append(c)
    return MappingProxyType({h: StackDrawing(h, tuple(cs)) for h, cs in by_hex.items()})


def drawing_from_scenario(scenario: Scenario) -> MapDrawing:
    """The designer's omniscient drawing: every unit, dummy and fortification."""
    faces: list[tuple[Hex, CounterFace]] = []
    for u in sorted(scenario.units, key=_stack_order):
        faces.append((u.hex, counter_face(scenario, u, designer=True)))
    forts = [FortDrawing(f.kind, f.hexes, f.ladders, f.owner) for f in scenario.map.fortifications]
    for i, d in enumerate(scenario.dummies):
        side = scenario.sides.get(d.side)
        nat = side.nationality if side is not None else None
        if d.kind is DummyKind.DUMMY_MINEFIELD:
            forts.append(FortDrawing(FortificationKind.MINEFIELD, (d.hex,), owner=d.side, marker="dummy"))
            continue
        title = "Dummy" if d.kind is DummyKind.DUMMY_STACK else "Dummy HIP"
        faces.append((d.hex, CounterFace(
            key=f"dummy:{i}", side=d.side, nationality=nat, kind=d.kind.value, title=title,
            marker="dummy", count=d.counters,
        )))
    return MapDrawing(
        map=replace(scenario.map, fortifications=()),
        stacks=_stacks(faces),
        fortifications=tuple(forts),
        title=scenario.title,
        viewer=OMNISCIENT,
        nationalities=MappingProxyType({k: s.nationality for k, s in scenario.sides.items()}),
    )


class ViewUnavailableError(RuntimeError):
    """A side's view was asked for but the fog-of-war layer is not available."""


def drawing_for(scenario: Scenario, viewer: str = OMNISCIENT) -> MapDrawing:
    """The drawing for ``viewer``: ``omniscient`` or a side id (through the fog-of-war view)."""
    if viewer == OMNISCIENT:
        return drawing_from_scenario(scenario)
    if viewer not in scenario.sides:
        raise KeyError(viewer)
    raise ViewUnavailableError("the 'as a side sees it' view needs the fog-of-war rules (gwasl.rules.fog.view), which have not landed in this build")
