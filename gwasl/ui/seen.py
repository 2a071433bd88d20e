"""What one viewer may know, and every read-out a window shows, drawn from it.

A :class:`Seen` is built once per scenario value and viewer.  For the
designer (``omniscient``) it holds the whole scenario; for a side it holds
ONLY what the fog-of-war view (:func:`gwasl.rules.fog.view.view`) lets that
side know: its whitelisted scenario, the "?" piles of the enemy and its own
hidden layer.  The map scene draws ``seen.drawing``; the status bar, the
stack tooltips, the unit and formation lists and the check overlays (LOS,
LOS map, command radius) all read ``seen``, never the document, so a side's
window cannot show a fact hidden from that side.  A player window builds the
same object from a game's view with :meth:`Seen.from_view`.

No Qt here: plain values, tested headless.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules import command as command_rules
from gwasl.rules.fog.view import ConcealedStack, HiddenLayerView, SideView
from gwasl.ui.drawable import (
    OMNISCIENT,
    CounterFace,
    MapDrawing,
    ViewUnavailableError,
    drawing_from_scenario,
    drawing_from_view,
    side_view,
)
from gwasl.ui.words import words

if TYPE_CHECKING:  # LOS (numpy) is loaded by the checks that use it, not by every render
    from gwasl.rules import los as los_rules

__all__ = ["Seen", "CommandPicture", "OMNISCIENT", "ViewUnavailableError", "face_text"]


@dataclass(frozen=True, slots=True)
class CommandPicture:
    """The command-radius overlay (ASLGW 1.3): tinted hexes, in/out-of-command marks, one line of text.

    ``marks`` maps a hex to True (every unit shown there is in command) or
    False (one is not).
    """

    hexes: frozenset[Hex]
    marks: Mapping[Hex, bool]
    text: str


@dataclass(frozen=True, eq=False)
class Seen:
    """Everything one viewer may know of a scenario (see the module docstring)."""

    viewer: str
    scenario: Scenario
    drawing: MapDrawing
    concealed: tuple[ConcealedStack, ...] = ()
    own_hidden: HiddenLayerView | None = None
    _los_index: list[los_rules.LosIndex] = field(default_factory=list, repr=False)

    # -- building -------------------------------------------------------------------
    @classmethod
    def of(cls, scenario: Scenario, viewer: str = OMNISCIENT) -> Seen:
        """The designer's whole scenario, or what side ``viewer`` may know of it (O'Leary's fog of war).

        Raises :class:`KeyError` for a viewer that is not a side, and
        :class:`ViewUnavailableError` when the fog layer refuses the scenario.
        """
        if viewer == OMNISCIENT:
            return cls(OMNISCIENT, scenario, drawing_from_scenario(scenario))
        return cls.from_view(side_view(scenario, viewer))

    @classmethod
    def from_view(cls, v: SideView) -> Seen:
        """Built from a fog-of-war view alone (a game's ``view(state, viewer)`` gives one)."""
        return cls(v.viewer, v.scenario, drawing_from_view(v), v.concealed_stacks, v.own_hidden)

    @property
    def omniscient(self) -> bool:
        return self.viewer == OMNISCIENT

    def knows_all_of(self, side: str | None) -> bool:
        """True when the viewer knows ``side``'s units in full: the designer, or the side itself."""
        return self.omniscient or side == self.viewer

    # -- read-outs ------------------------------------------------------------------
    def units(self) -> tuple[Unit, ...]:
        """The units the viewer may list: all (designer), or its own and the enemy's visible ones."""
        return self.scenario.units

    def unit(self, unit_id: str) -> Unit | None:
        for u in self.scenario.units:
            if u.id == unit_id:
                return u
        return None

    def hex_text(self, h: Hex) -> str:
        """The status-bar line for hex ``h``: terrain, level, building, works and counters, as drawn."""
        d = self.drawing
        m = d.map
        parts = [h.label, words(m.terrain_at(h)), f"level {m.level_at(h)}"]
        if m.building_at(h):
            parts.append(f"building {m.building_at(h)}")
        for f in d.forts_at(h):
            text = words(f.kind)
            if f.marker == "hidden":
                text = f"hidden {text}"
            elif f.marker == "dummy":
                text = f"dummy {text}"
            parts.append(text)
        stack = d.stacks.get(h)
        if stack is not None:
            parts.append(", ".join(face_text(c) for c in reversed(stack.counters)))
        return " | ".join(parts)

    # -- checks -----------------------------------------------------------------------
    def los(self, a: Hex, b: Hex, from_in: Position = Position.GROUND, to_in: Position = Position.GROUND) -> los_rules.LosResult:
        """LOS over the map as the viewer knows it (its fortifications only; CONTRACTS 3)."""
        from gwasl.rules import los as los_rules

        return los_rules.los(self.scenario, a, b, from_in, to_in)

    def los_index(self) -> los_rules.LosIndex:
        """The one-to-all LOS index of the map as the viewer knows it, built once per Seen."""
        if not self._los_index:
            from gwasl.rules import los as los_rules

            self._los_index.append(los_rules.LosIndex(self.scenario))
        return self._los_index[0]

    def visible_from(self, h: Hex, from_in: Position = Position.GROUND) -> frozenset[Hex]:
        """Every hex ``h`` sees (one-to-all LOS)."""
        return self.los_index().visible_from(h, from_in=from_in)

    def command(self, leader: str | None = None, side: str | None = None) -> CommandPicture | None:
        """The command-radius overlay of one leader or of a whole side (ASLGW 1.3), as the viewer may know it.

        For a side the viewer knows in full: every leader's radius and each
        unit's In Command status.  For the enemy in a side's view: only the
        radius of the leaders it can see; whether their men are in command
        depends on units it cannot see, so no marks.  None when the leader is
        not known to the viewer.
        """
        s = self.scenario
        if leader is not None:
            lu = self.unit(leader)
            if lu is None or lu.kind is not UnitKind.LEADER:
                return None
            side = lu.side
        if side is None or side not in s.sides:
            return None
        leaders = [leader] if leader is not None else [u.id for u in s.units_of(side) if u.kind is UnitKind.LEADER]
        if not self.knows_all_of(side):
            hexes = self._radius_hexes(leaders, {})
            whose = f"of {leader}" if leader else f"of the {side} leaders {self.viewer} can see"
            return CommandPicture(hexes, {}, f"Command radius (ASLGW 1.3) {whose}; who is in command is not known to {self.viewer}")
        status = command_rules.command_status(s, side)
        hexes = self._radius_hexes(leaders, status.radius)
        marks: dict[Hex, bool] = {}
        for uid, st in status.units.items():
            u = s.unit(uid)
            if leader is not None and st.commanded_by != leader and (u.platoon is None or u.platoon != s.unit(leader).platoon):
                continue
            marks[u.hex] = marks.get(u.hex, True) and st.in_command
        n_in = sum(1 for st in status.units.values() if st.in_command)
        text = f"Command (ASLGW 1.3): {n_in} of {len(status.units)} units in command" + (f" of {leader}" if leader else f" for {side}")
        return CommandPicture(hexes, marks, text)

    def _radius_hexes(self, leaders: list[str], radius: Mapping[str, int]) -> frozenset[Hex]:
        s = self.scenario
        hexes: set[Hex] = set()
        for lid in leaders:
            r = radius.get(lid)
            if r is None:
                r = command_rules.command_radius(s, s.unit(lid))
            hexes.update(x for x in s.unit(lid).hex.within(r) if s.map.contains(x))
        return frozenset(hexes)


def face_text(f: CounterFace) -> str:
    """One counter in a line of text: its id (or "?"), the badge the viewer may see, its count."""
    if f.kind == "concealed":
        return f"? x{f.count or 1} ({f.side})"
    if f.kind in ("dummy_stack", "dummy_hip"):
        return words(f.kind) + (f" x{f.count}" if f.count else "")
    text = f.key
    if f.marker:
        text += f" ({'dummy' if f.marker == 'dummy' else f.marker})"
    if f.broken:
        text += " broken"
    return text
