"""Checking overlays: LOS thread, hover LOS map, command radius.

They call the pure rule functions (gwasl.rules.los, gwasl.rules.command)
and only draw what those return.  A one-to-all LOS index is built once per
scenario value and reused while the mouse moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QColor

from gwasl.engine.editor import Change
from gwasl.model.hexgrid import Hex

if TYPE_CHECKING:  # pragma: no cover
    from gwasl.ui.mainwindow import MainWindow

__all__ = ["Checks", "RulesUnavailable"]


class RulesUnavailable(RuntimeError):
    """The LOS or command rules are not part of this build."""


def _los_module():
    try:
        from gwasl.rules import los
    except ImportError:
        raise RulesUnavailable("the LOS rules (gwasl.rules.los) are not part of this build") from None
    return los


def _command_module():
    try:
        from gwasl.rules import command
    except ImportError:
        raise RulesUnavailable("the command rules (gwasl.rules.command) are not part of this build") from None
    return command


class Checks:
    """Owns the checking overlays of one window; recomputes them when the scenario changes."""

    def __init__(self, window: "MainWindow") -> None:
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
        try:
            los = _los_module()
        except RulesUnavailable as e:
            scene.los_thread.set_thread(a, b, "pending", "LOS rules missing")
            self.win.show_message(str(e), error=True)
            return
        from_in, to_in = self.win.palette.positions()
        r = los.los(self.win.document.scenario, a, b, from_in, to_in)
        self.los_result = r
        if not r.clear:
            state = "blocked"
        elif r.hindrances:
            state = "hindered"
        else:
            state = "clear"
        blocked_by = getattr(r, "blocked_by", None)
        text = {"clear": "clear", "hindered": f"hindrance +{r.hindrances}", "blocked": f"blocked at {blocked_by}" if blocked_by else "blocked"}[state]
        scene.los_thread.set_thread(a, b, state, text)
        scene.blocker.set_hexes({blocked_by} if isinstance(blocked_by, Hex) else set())
        reason = getattr(r, "reason", None)
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
            self._index = _los_module().LosIndex(s)
            self._index_for = s
        return self._index

    def visible_from(self, h: Hex) -> frozenset[Hex]:
        from_in, _ = self.win.palette.positions()
        return self.index().visible_from(h, from_in=from_in)

    def show_los_map(self, h: Hex) -> None:
        self.los_map_from = h
        try:
            seen = self.visible_from(h)
        except RulesUnavailable as e:
            self.win.show_message(str(e), error=True)
            return
        m = self.win.document.scenario.map
        self.win.scene.los_map.set_hexes(x for x in m if x not in seen)
        self.win.scene.highlight.set_hexes({h})

    def clear_los_map(self) -> None:
        self.los_map_from = None
        self.win.scene.los_map.set_hexes(())
        self.win.scene.highlight.set_hexes(())

    # -- command radius --------------------------------------------------------------------
    def show_command(self, leader: str | None = None, side: str | None = None) -> None:
        self.command_for = {"leader": leader, "side": side}
        s = self.win.document.scenario
        try:
            command = _command_module()
        except RulesUnavailable as e:
            self.win.show_message(str(e), error=True)
            return
        if leader is not None:
            side = s.unit(leader).side
        status = command.command_status(s, side)
        leaders = [leader] if leader is not None else [u.id for u in s.units_of(side) if u.kind.value == "leader"]
        hexes: set[Hex] = set()
        for lid in leaders:
            radius = status.radius.get(lid) if hasattr(status, "radius") else None
            if radius is None:
                radius = command.command_radius(s, s.unit(lid))
            hexes.update(x for x in s.unit(lid).hex.within(radius) if s.map.contains(x))
        marks: dict[Hex, tuple[str, QColor]] = {}
        units = status.units if hasattr(status, "units") else status
        for uid, st in units.items():
            u = s.unit(uid)
            if leader is not None and getattr(st, "commanded_by", None) not in (leader, None) and u.platoon != s.unit(leader).platoon:
                continue
            ok = bool(getattr(st, "in_command", False))
            prev = marks.get(u.hex)
            if prev is None or not ok:
                marks[u.hex] = ("✓", QColor("#1b8a2f")) if ok else ("✗", QColor("#c62020"))
        self.win.scene.command_overlay.set_hexes(hexes, marks)
        n_in = sum(1 for st in units.values() if getattr(st, "in_command", False))
        self.win.show_message(f"Command (ASLGW 1.3): {n_in} of {len(units)} units in command" + (f" of {leader}" if leader else f" for {side}"))

    def clear_command(self) -> None:
        self.command_for = None
        self.win.scene.command_overlay.set_hexes(())
