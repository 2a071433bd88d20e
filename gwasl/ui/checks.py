"""Checking overlays: LOS thread, hover LOS map, command radius.

They ask the window's :class:`~gwasl.ui.seen.Seen` (which calls the pure
rule functions, gwasl.rules.los and gwasl.rules.command, on what the viewer
may know) and only draw what it returns.  A one-to-all LOS index is built
once per Seen and reused while the mouse moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QColor

from gwasl.model.hexgrid import Hex
from gwasl.rules import los as los_rules
from gwasl.ui.words import words

if TYPE_CHECKING:  # pragma: no cover
    from gwasl.ui.mainwindow import MainWindow

__all__ = ["Checks"]


class Checks:
    """Owns the checking overlays of one window; recomputes them from the window's ``seen``."""

    def __init__(self, window: MainWindow) -> None:
        self.win = window
        self.los_ends: tuple[Hex, Hex] | None = None
        self.los_result: los_rules.LosResult | None = None
        self.los_map_from: Hex | None = None
        self.command_for: dict[str, str | None] | None = None

    def refresh(self) -> None:
        """The scenario or the viewer changed: redo whatever check is showing against what is seen now."""
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
            r = self.win.seen.los(a, b, from_in, to_in)
        except (los_rules.LosError, los_rules.OutlineError) as e:  # e.g. "in a dugout" where there is none
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
        self.win.show_message(f"LOS {a} -> {b} ({words(from_in)} -> {words(to_in)}): {text}" + (f"; {reason}" if reason else ""))

    def clear_los(self) -> None:
        self.los_ends = None
        self.los_result = None
        self.win.scene.los_thread.set_thread(None, None)
        self.win.scene.blocker.set_hexes(())

    # -- LOS map ------------------------------------------------------------------------
    def visible_from(self, h: Hex) -> frozenset[Hex]:
        from_in, _ = self.win.palette.positions()
        return self.win.seen.visible_from(h, from_in)

    def show_los_map(self, h: Hex) -> None:
        self.los_map_from = h
        try:
            seen = self.visible_from(h)
        except (los_rules.LosError, los_rules.OutlineError) as e:
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
        """The command radius of ``leader`` or of ``side``'s leaders, as the window's viewer may know it (ASLGW 1.3)."""
        picture = self.win.seen.command(leader=leader, side=side)
        if picture is None:  # that leader or side is not (or no longer) known to the viewer
            self.clear_command()
            return
        self.command_for = {"leader": leader, "side": side}
        marks = {h: (IN_COMMAND if ok else OUT_OF_COMMAND) for h, ok in picture.marks.items()}
        self.win.scene.command_overlay.set_hexes(picture.hexes, marks)
        self.win.show_message(picture.text)

    def clear_command(self) -> None:
        self.command_for = None
        self.win.scene.command_overlay.set_hexes(())

    def clear_all(self) -> None:
        self.clear_los()
        self.clear_los_map()
        self.clear_command()


IN_COMMAND = ("✓", QColor("#1b8a2f"))
OUT_OF_COMMAND = ("✗", QColor("#c62020"))
