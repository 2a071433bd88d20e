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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from gwasl.model.errors import GwaslError
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
from gwasl.model.viewers import OMNISCIENT
from gwasl.rules import units as _units
from gwasl.rules import weapons as _weapons
from gwasl.rules.fog.state import FogState
from gwasl.rules.fog.view import SideView
from gwasl.rules.fog.view import view as fog_view

__all__ = [
    "CounterFace",
    "StackDrawing",
    "FortDrawing",
    "MapDrawing",
    "OMNISCIENT",
    "drawing_from_scenario",
    "drawing_for",
    "drawing_from_view",
    "side_view",
    "ViewUnavailableError",
    "counter_face",
    "unit_factors_text",
]


# Short enough for the top line of a counter beside its platoon badge.
_CLASS_SHORT = {
    "stosstruppen": "Stoss",
    "elite": "Elite",
    "first_line": "1st",
    "second_line": "2nd",
    "landwehr": "Lw",
    "territorial": "Terr",
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
    status: tuple[str, ...] = ()  # markers of play (gwasl.ui.counters.STATUS_WORDS): Prep, CX, DM, Pin...
    label: str | None = None  # the short id the log calls the counter by (play), shown in its top corner


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
    """The factors printed on ``unit``'s counter at the scenario date.

    Squads and half-squads: firepower-range-morale from the nationality
    tables (ASLGW 1.11) at the scenario date; support weapons: firepower and
    range from the weapon tables (ASLGW 1.6).  None when the tables have no
    entry (the counter then shows its class or weapon name only).
    """
    if unit.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD):
        try:
            return str(_units.unit_factors_of(scenario, unit))
        except (_units.UnitsError, KeyError, ValueError):
            return None
    if unit.kind is UnitKind.SUPPORT_WEAPON and unit.weapon:
        w = _weapons.find_weapon(unit.weapon)
        if w is not None and w.fp is not None:
            return f"{w.fp}-{w.range}"
    return None


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
    forts = [FortDrawing(f.kind, f.hexes, f.ladders, f.owner, "hidden" if f.extra.get("hidden") else None) for f in scenario.map.fortifications]
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


class ViewUnavailableError(GwaslError, RuntimeError):
    """A side's view cannot be built for this scenario (the fog-of-war layer refused it)."""


def side_view(scenario: Scenario, viewer: str) -> SideView:
    """What side ``viewer`` may know of ``scenario``: O'Leary's fog-of-war view of its set-up.

    Raises :class:`KeyError` for a viewer that is not a side and
    :class:`ViewUnavailableError` when the fog layer refuses the scenario.
    """
    if viewer not in scenario.sides:
        raise KeyError(viewer)
    try:
        return fog_view(FogState.from_scenario(scenario), viewer)
    except ValueError as e:
        raise ViewUnavailableError(f"cannot show the map as {viewer} sees it: {e}") from None


def drawing_for(scenario: Scenario, viewer: str = OMNISCIENT) -> MapDrawing:
    """The drawing for ``viewer``: ``omniscient`` or a side id (through the fog-of-war view)."""
    if viewer == OMNISCIENT:
        return drawing_from_scenario(scenario)
    return drawing_from_view(side_view(scenario, viewer))


def drawing_from_view(v: SideView) -> MapDrawing:
    """The map as ``v.viewer`` may see it, built ONLY from its fog-of-war ``SideView``.

    Visible units are drawn face up; enemy "?" stacks as concealment
    counters showing only their size (O'Leary 2.1); the viewer's own hidden
    layer (its dummy stacks and dummy HIP) with their markers, since the
    viewer knows them; fortifications and minefields only as the view lists them.
    """
    s = v.scenario
    faces: list[tuple[Hex, CounterFace]] = []
    for u in sorted(v.units, key=_stack_order):
        own = u.side == v.viewer
        face = counter_face(s, u, designer=own)
        faces.append((u.hex, face))
    for i, cs in enumerate(sorted(v.concealed_stacks, key=lambda c: (c.hex.column, c.hex.row, c.side, c.position.value))):
        side = s.sides.get(cs.side)
        faces.append((cs.hex, CounterFace(
            key=f"concealed:{i}", side=cs.side, nationality=side.nationality if side else None,
            kind="concealed", title="?", count=cs.counters if cs.counters > 1 else None,
        )))
    if v.own_hidden is not None:
        for i, st in enumerate(v.own_hidden.dummy_stacks):
            side = s.sides.get(st.side)
            faces.append((st.hex, CounterFace(key=f"own-dummy:{i}", side=st.side, nationality=side.nationality if side else None,
                                              kind="dummy_stack", title="Dummy", marker="dummy", count=st.counters)))
        for i, d in enumerate(v.own_hidden.dummy_hip):
            side = s.sides.get(d.side)
            faces.append((d.hex, CounterFace(key=f"own-dummy-hip:{i}", side=d.side, nationality=side.nationality if side else None,
                                              kind="dummy_hip", title="Dummy HIP", marker="dummy")))
    forts = []
    for f in s.map.fortifications:
        forts.append(FortDrawing(f.kind, f.hexes, f.ladders, f.owner, "hidden" if f.extra.get("hidden") else None))
    for mf in v.minefields:
        forts.append(FortDrawing(FortificationKind.MINEFIELD, (mf.hex,), owner=mf.side, marker="dummy" if mf.dummy else None))
    return MapDrawing(
        map=replace(s.map, fortifications=()),
        stacks=_stacks(faces),
        fortifications=tuple(forts),
        title=s.title,
        viewer=v.viewer,
        nationalities=MappingProxyType({k: x.nationality for k, x in s.sides.items()}),
    )
