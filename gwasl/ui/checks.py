"""Checking overlays: LOS thread, hover LOS map, command radius.

They call the pure rule functions (gwasl.rules.los, gwasl.rules.command)
and only draw what those return.  A one-to-all LOS index is built once per
scenario value and reused while the mouse moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QColor

from gwasl.editor.document import Change
from gwasl.model.hexgrid import Hex
from gwasl.rules import command as command_rules
from gwasl.rules import los as los_rules

if TYPE_CHECKING:  # pragma: no cover
    from gwasl.ui.mainwindow import MainWindow

__all__ = ["Checks"]


class Checks:
    """Owns the checking overlays of one window; recomputes them when the scenario changes."""

    def __init__(self, window: MainWindow) -> None:
        self.win = window
        self._index = None
        self._index_for = None
        self.los_ends: tuple[Hex, Hex] | None = None
        self.los_result = None
        self.los_map_from: Hex | None = None
        self.command_for: dict | None = None
        window.document.subscribe(self._on_change)

    def _on_change(self, change: Change) -> None:
        # Scenario changed: redo whatever check is showing, against the new scenario.
        if self.los_ends is not None:
            self.show_los(*self.los_ends)
        if self.los_map_from is not None:
            self.show_los_map(self.los_map_from)
        if self.command_for is not None:
            self.show_command(**self.command_for)

    # -- LOS thread --------------------------------------------------------------------
    def show_los(self, a: Hex, b: Hex) -> None:
        scene = self.win.scene
        self.los_ends = (a, b)
        from_in, to_in = self.win.palette.positions()
        try:
            r = los_rules.los(self.win.document.scenario, a, b, from_in, to_in)
        except los_rules.LosError as e:  # e.g. "in a dugout" where there is none
            self.los_result = None
            scene.los_thread.set_thread(a, b, "pending", "?")
            scene.blocker.set_hexes(())
            self.win.show_message(str(e), error=True)
            return
        self.los_result = r
        if not r.clear:
            state = "blocked"
        elif r.hindrances:
            state = "hindered"
        else:
            state = "clear"
        blocked_by = r.blocked_by
        text = {"clear": "clear", "hindered": f"hindrance +{r.hindrances}", "blocked": f"blocked at {blocked_by}" if blocked_by else "blocked"}[state]
        scene.los_thread.set_thread(a, b, state, text)
        scene.blocker.set_hexes({blocked_by} if blocked_by is not None else set())
        reason = r.reason
        self.win.show_message(f"LOS {a} -> {b} ({from_in.value} -> {to_in.value}): {text}" + (f"; {reason}" if reason else ""))

    def clear_los(self) -> None:
        self.los_ends = None
        self.los_result = None
        self.win.scene.los_thread.set_thread(None, None)
        self.win.scene.blocker.set_hexes(())

    # -- LOS map ------------------------------------------------------------------------
    def index(self):
        s = self.win.document.scenario
        if self._index is None or self._index_for is not s:
            self._index = los_rules.LosIndex(s)
            self._index_for = s
        return self._index

    def visible_from(self, h: Hex) -> frozenset[Hex]:
        from_in, _ = self.win.palette.positions()
        return self.index().visible_from(h, from_in=from_in)

    def show_los_map(self, h: Hex) -> None:
        self.los_map_from = h
        try:
            seen = self.visible_from(h)
        except los_rules.LosError as e:
            self.win.show_message(str(e), error=True)
            return
        self.win.scene.los_map.set_hexes(x for x in self.win.scene.hex_polygons if x not in seen)
        self.win.scene.highlight.set_hexes({h})

    def clear_los_map(self) -> None:
        self.los_map_from = None
        self.win.scene.los_map.set_hexes(())
        self.win.scene.highlight.set_hexes(())

    # -- command radius --------------------------------------------------------------------
    def show_command(self, leader: str | None = None, side: str | None = None) -> None:
        self.command_for = {"leader": leader, "side": side}
        s = self.win.document.scenario
        command = command_rules
        if leader is not None:
            side = s.unit(leader).side
        status = command.command_status(s, side)
        leaders = [leader] if leader is not None else [u.id for u in s.units_of(side) if u.kind.value == "leader"]
        hexes: set[Hex] = set()
        for lid in leaders:
            radius = status.radius.get(lid)
            if radius is None:
                radius = command.command_radius(s, s.unit(lid))
            hexes.update(x for x in s.unit(lid).hex.within(radius) if s.map.contains(x))
        marks: dict[Hex, tuple[str, QColor]] = {}
        units = status.units
        for uid, st in units.items():
            u = s.unit(uid)
            if leader is not None and st.commanded_by != leader and (u.platoon is None or u.platoon != s.unit(leader).platoon):
                continue
            ok = st.in_command
            prev = marks.get(u.hex)
            if prev is None or not ok:
                marks[u.hex] = ("✓", QColor("#1b8a2f")) if ok else ("✗", QColor("#c62020"))
        self.win.scene.command_overlay.set_hexes(hexes, marks)
        n_in = sum(1 for st in units.values() if st.in_command)
        self.win.show_message(f"Command (ASLGW 1.3): {n_in} of {len(units)} units in command" + (f" of {leader}" if leader else f" for {side}"))

    def clear_command(self) -> None:
        self.command_for = None
        self.win.scene.command_overlay.set_hexes(())
