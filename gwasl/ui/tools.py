"""Map tools: each turns mouse gestures on the map into editor commands.

A tool never changes the scenario itself: it builds an edit with the
functions of :mod:`gwasl.editor.document` and pushes it on the document, so
every tool action is one undo step (a drag with the brush is one stroke).
Checking tools (LOS thread, LOS map, command radius) only draw overlays.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QPointF, Qt

from gwasl.editor import document as ed
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Dummy, DummyKind, FortificationKind, Position, Unit, UnitKind

if TYPE_CHECKING:  # pragma: no cover
    from gwasl.ui.checks import Checks
    from gwasl.ui.mapscene import MapScene
    from gwasl.ui.palette import Palette
    from gwasl.ui.seen import Seen


class EditorWindow(Protocol):
    """What the tools use of the editor's window (the MainWindow): a Protocol, so this
    module need not import the window that imports it."""

    @property
    def document(self) -> ed.EditorDocument: ...
    @property
    def scene(self) -> MapScene: ...
    @property
    def palette(self) -> Palette: ...
    @property
    def seen(self) -> Seen: ...
    @property
    def checks(self) -> Checks: ...
    @property
    def selected_units(self) -> frozenset[str]: ...
    @property
    def editable(self) -> bool: ...

    def show_message(self, text: str, error: bool = False) -> None: ...
    def select_units(self, ids: Iterable[str]) -> None: ...
    def select_hex(self, h: Hex | None) -> None: ...

__all__ = [
    "Tool",
    "SelectTool",
    "TerrainTool",
    "LevelTool",
    "BuildingTool",
    "OutlineTool",
    "FortificationTool",
    "UnitTool",
    "DummyTool",
    "LosTool",
    "LosMapTool",
    "CommandTool",
]


class Tool:
    """Base tool: receives hex-level mouse events from the map view."""

    name = "tool"
    label = "Tool"
    shortcut = ""
    tip = ""
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, window: EditorWindow) -> None:
        self.win = window

    @property
    def doc(self) -> ed.EditorDocument:
        return self.win.document

    def activate(self) -> None:
        pass

    def deactivate(self) -> None:
        pass

    def press(self, h: Hex, pos: QPointF, mods: Qt.KeyboardModifier, button: Qt.MouseButton) -> None:
        pass

    def drag(self, h: Hex, pos: QPointF) -> None:
        pass

    def release(self, h: Hex | None, pos: QPointF) -> None:
        pass

    def hover(self, h: Hex | None, pos: QPointF) -> None:
        pass

    def run(self, edit, *args, merge_key=None, **kw) -> bool:
        """Push an edit; an :class:`~gwasl.editor.document.EditError` goes to the status bar, not a traceback."""
        try:
            return self.doc.apply(edit, *args, merge_key=merge_key, **kw)
        except ed.EditError as e:
            self.win.show_message(str(e), error=True)
            return False


# How far (in hex sizes) the pointer must travel between press and release for a drag.
DRAG_DISTANCE = 0.3


class SelectTool(Tool):
    """Select and move counters, VASL style.

    Press on a stack selects the whole stack, and dragging it moves the stack.
    A click opens the stack (its counters fanned out and pinned); then press
    on one counter to select just that one, and drag it to move it alone.
    Shift+click adds or removes one counter.  Clicks go to the counter drawn
    under the pointer, even where a fanned stack lies over a neighbouring hex.
    In a side's read-only view counters can be selected but not moved.
    """

    name = "select"
    label = "Select / move"
    shortcut = "S"
    tip = "Drag a stack to move it; click a stack to open it, then drag one counter; Shift+click adds a counter"
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, window: EditorWindow) -> None:
        super().__init__(window)
        self._from: Hex | None = None
        self._moving: tuple[str, ...] = ()
        self._on_counter = False
        self._narrow_to: str | None = None
        self._press_at = QPointF()

    def press(self, h, pos, mods, button) -> None:
        item, face = self.win.scene.counter_at(pos)
        if item is not None:
            h = item.stack.hex
        self.win.select_hex(h)
        self._from = h
        self._press_at = QPointF(pos)
        self._on_counter = face is not None
        self._narrow_to = None
        seen = self.win.seen
        if item is None or face is None or seen.unit(face.key) is None:  # empty spot, "?" or dummy counter: nothing to move
            if not (mods & Qt.KeyboardModifier.ShiftModifier):
                self.win.select_units(())
            self._moving = ()
            return
        if mods & Qt.KeyboardModifier.ShiftModifier:
            sel = set(self.win.selected_units)
            sel ^= {face.key}
            self.win.select_units(sel)
        elif item.pinned:
            # An opened stack: this counter alone -- unless it belongs to a selection the user
            # picked counter by counter (Shift), which a drag then moves together.
            whole = {c.key for c in item.stack.counters if seen.unit(c.key) is not None}
            if face.key not in self.win.selected_units or self.win.selected_units == whole:
                self.win.select_units((face.key,))
            else:
                self._narrow_to = face.key  # ...and a click without a drag selects it alone
        else:  # a closed stack: the whole stack
            self.win.select_units(c.key for c in item.stack.counters if seen.unit(c.key) is not None)
        self._moving = tuple(self.win.selected_units)

    def drag(self, h, pos) -> None:
        if self._moving and h is not None and self.win.editable and self._dragged(pos):
            self.win.scene.highlight.set_hexes({h})

    def _dragged(self, pos: QPointF) -> bool:
        # A click on a fanned counter lands in a neighbouring hex: a drag is told by distance, not by hex.
        d = pos - self._press_at
        return math.hypot(d.x(), d.y()) > self.win.scene.layout.size * DRAG_DISTANCE

    def release(self, h, pos) -> None:
        self.win.scene.highlight.set_hexes(())
        dragged = self._dragged(pos)
        if dragged and self._moving and h is not None and h != self._from and self.win.editable:
            self.run(ed.move_units, self._moving, h)
            self.win.select_hex(h)
        elif not dragged and self._from is not None:
            if self._narrow_to is not None:
                self.win.select_units((self._narrow_to,))
            item = self.win.scene.stacks.get(self._from)
            # A click opens a closed stack; a click beside the counters of an open one closes it.
            if item is not None and len(item.stack.counters) > 1 and (not item.pinned or not self._on_counter):
                item.toggle_pinned()
        self._moving = ()
        self._from = None
        self._narrow_to = None


class _StrokeTool(Tool):
    """A brush: press starts one stroke, every hex dragged over joins it (one undo step)."""

    def __init__(self, window: EditorWindow) -> None:
        super().__init__(window)
        self._key = None
        self._last: Hex | None = None

    def press(self, h, pos, mods, button) -> None:
        self._key = self.doc.begin_stroke()
        self._last = None
        self._apply(h, mods)

    def drag(self, h, pos) -> None:
        if self._key is not None and h is not None and h != self._last:
            # Fill the gap when the mouse skipped hexes in a fast drag.
            path = [h] if self._last is None else _hex_path(self._last, h)
            for x in path:
                self._apply(x, Qt.KeyboardModifier.NoModifier)

    def release(self, h, pos) -> None:
        self._key = None
        self.doc.end_stroke()

    def _apply(self, h: Hex, mods) -> None:
        self._last = h
        if self.doc.scenario.map.contains(h):
            self.paint(h, mods)

    def paint(self, h: Hex, mods) -> None:
        raise NotImplementedError


def _hex_path(a: Hex, b: Hex) -> list[Hex]:
    from gwasl.model.hexgrid import hex_line

    return list(hex_line(a, b).hexes[1:]) or [b]


class TerrainTool(_StrokeTool):
    name = "terrain"
    label = "Terrain brush"
    shortcut = "T"
    tip = "Paint terrain: click or drag (one drag is one undo step)"

    def paint(self, h, mods) -> None:
        self.run(ed.paint_terrain, [h], self.win.palette.terrain(), merge_key=self._key)


class LevelTool(_StrokeTool):
    name = "level"
    label = "Level"
    shortcut = "L"
    tip = "Set ground level: click or drag"

    def paint(self, h, mods) -> None:
        self.run(ed.set_level, [h], self.win.palette.level(), merge_key=self._key)


class BuildingTool(Tool):
    """Drag across building hexes to make them one building (A26.14); Shift+click ungroups."""

    name = "building"
    label = "Building grouping"
    shortcut = "B"
    tip = "Drag across building hexes to join them into one building; Shift+click to ungroup"

    def __init__(self, window) -> None:
        super().__init__(window)
        self._hexes: list[Hex] = []

    def press(self, h, pos, mods, button) -> None:
        if mods & Qt.KeyboardModifier.ShiftModifier:
            self.run(ed.set_building, [h], None)
            self._hexes = []
            return
        self._hexes = [h]
        self.win.scene.highlight.set_hexes(self._hexes)

    def drag(self, h, pos) -> None:
        if self._hexes and h is not None and h not in self._hexes:
            self._hexes.append(h)
            self.win.scene.highlight.set_hexes(self._hexes)

    def release(self, h, pos) -> None:
        if self._hexes:
            s = self.doc.scenario
            existing = [s.map.building_at(x) for x in self._hexes if s.map.building_at(x)]
            bid = self.win.palette.building() or (existing[0] if existing else _fresh_building_id(s))
            self.run(ed.set_building, self._hexes, bid)
        self._hexes = []
        self.win.scene.highlight.set_hexes(())


def _fresh_building_id(s) -> str:
    used = {d.building for d in s.map.hexes.values() if d.building}
    n = 1
    while f"b{n}" in used:
        n += 1
    return f"b{n}"


class OutlineTool(Tool):
    """Drag around the obstacle inside one hex to give it a custom LOS outline; Shift+click clears it."""

    name = "outline"
    label = "Obstacle outline"
    shortcut = "O"
    tip = "Drag around the obstacle inside a hex to draw its LOS outline; Shift+click clears"

    def __init__(self, window) -> None:
        super().__init__(window)
        self._hex: Hex | None = None
        self._points: list[tuple[float, float]] = []

    def press(self, h, pos, mods, button) -> None:
        if mods & Qt.KeyboardModifier.ShiftModifier:
            self.run(ed.set_outline, h, None)
            return
        self._hex = h
        self._points = [self._local(pos)]

    def _local(self, pos: QPointF) -> tuple[float, float]:
        lay = self.win.scene.layout
        assert self._hex is not None  # only called between press and release
        c = lay.hex_to_pixel(self._hex)
        x, y = (pos.x() - c.x) / lay.size, (pos.y() - c.y) / lay.size
        # keep the point inside the hex: pull it towards the centre if needed
        s3 = math.sqrt(3)
        k = max(abs(y) / (s3 / 2), (s3 * abs(x) + abs(y)) / s3, 1e-9)
        if k > 0.98:
            x, y = x * 0.98 / k, y * 0.98 / k
        return (round(x, 3), round(y, 3))

    def drag(self, h, pos) -> None:
        if self._hex is not None:
            p = self._local(pos)
            if not self._points or math.dist(p, self._points[-1]) > 0.08:
                self._points.append(p)

    def release(self, h, pos) -> None:
        if self._hex is not None and len(self._points) >= 3:
            self.run(ed.set_outline, self._hex, self._points)
        elif self._hex is not None:
            self.win.show_message("drag around the obstacle to draw an outline (at least three points)")
        self._hex = None
        self._points = []


class FortificationTool(_StrokeTool):
    """Place trench, deep trench, dugout, foxhole, pillbox, wire or minefield; drag lays a line.

    Shift+click removes that kind from the hex; Ctrl+click on a deep trench toggles a ladder (ASLGW 2.1.3).
    """

    name = "fortification"
    label = "Fortifications"
    shortcut = "F"
    tip = "Drag to lay fortifications; Shift+click removes; Ctrl+click a deep trench toggles a ladder"

    def press(self, h, pos, mods, button) -> None:
        kind = self.win.palette.fortification()
        if mods & Qt.KeyboardModifier.ControlModifier:
            self.run(ed.toggle_ladder, h)
            return
        if mods & Qt.KeyboardModifier.ShiftModifier:
            self.run(ed.remove_fortification, [h], kind)
            return
        super().press(h, pos, mods, button)

    def paint(self, h, mods) -> None:
        self.run(ed.add_fortification, self.win.palette.fortification(), [h], self.win.palette.owner(), merge_key=self._key)


class UnitTool(Tool):
    """Place counters from the order-of-battle palette: a unit, or a whole platoon with its leader."""

    name = "unit"
    label = "Place units"
    shortcut = "U"
    tip = "Click a hex to place the unit or formation chosen in the order-of-battle palette"

    def press(self, h, pos, mods, button) -> None:
        spec = self.win.palette.unit_spec()
        s = self.doc.scenario
        if spec["formation"] is not None:
            self.run(ed.place_platoon, spec["side"], h, spec["formation"], spec["unit_class"], spec["rating"])
            return
        kind = spec["kind"]
        prefix = {UnitKind.SUPPORT_WEAPON: "SW", UnitKind.LEADER: "L", UnitKind.HERO: "H", UnitKind.CREW: "C"}.get(kind, spec["side"][:1].upper())
        uid = ed.fresh_unit_id(s, prefix)
        from gwasl.model.scenario import LeaderRating

        unit = Unit(
            uid, spec["side"], kind, h,
            unit_class=spec["unit_class"] if kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD) else None,
            rating=LeaderRating.parse(spec["rating"]) if kind is UnitKind.LEADER else None,
            weapon=spec["weapon"] if kind is UnitKind.SUPPORT_WEAPON else None,
            position=_default_position(s, h),
            platoon=spec["platoon"] if kind is not UnitKind.SUPPORT_WEAPON else None,
        )
        if self.run(ed.place_units, [unit]):
            self.win.select_units((uid,))


def _default_position(s, h: Hex) -> Position:
    """A unit set up in a fortified hex starts inside the work (the designer can change it)."""
    for kind, pos in (
        (FortificationKind.DEEP_TRENCH, Position.DEEP_TRENCH_CREST),
        (FortificationKind.TRENCH, Position.TRENCH),
        (FortificationKind.PILLBOX, Position.PILLBOX),
        (FortificationKind.FOXHOLE, Position.FOXHOLE),
    ):
        if s.map.has_fortification(h, kind):
            return pos
    return Position.GROUND


class DummyTool(Tool):
    """Place dummy stacks, dummy HIP and dummy minefields (O'Leary 2.1, 3.1, 4.6.1); Shift+click removes."""

    name = "dummy"
    label = "Dummies"
    shortcut = "D"
    tip = "Click to place the dummy chosen in the palette; Shift+click removes dummies from a hex"

    def press(self, h, pos, mods, button) -> None:
        s = self.doc.scenario
        if mods & Qt.KeyboardModifier.ShiftModifier:
            for i in reversed([i for i, d in enumerate(s.dummies) if d.hex == h][:1]):
                self.run(ed.remove_dummy, i)
            return
        kind, counters = self.win.palette.dummy()
        side = self.win.palette.side()
        self.run(ed.add_dummy, Dummy(side, kind, h, counters if kind is DummyKind.DUMMY_STACK else None))


class LosTool(Tool):
    """Drag from hex to hex: the thread is coloured clear, hindered or blocked."""

    name = "los"
    label = "LOS thread"
    shortcut = "V"
    tip = "Drag from the observer's hex to the target's hex to check line of sight"

    def __init__(self, window) -> None:
        super().__init__(window)
        self._a: Hex | None = None

    def press(self, h, pos, mods, button) -> None:
        self._a = h
        self.win.checks.show_los(h, h)

    def drag(self, h, pos) -> None:
        if self._a is not None and h is not None:
            self.win.checks.show_los(self._a, h)

    def release(self, h, pos) -> None:
        self._a = None

    def deactivate(self) -> None:
        self.win.checks.clear_los()


class LosMapTool(Tool):
    """Everything the hex under the mouse can see (one-to-all LOS); click to pin a hex."""

    name = "losmap"
    label = "LOS map"
    shortcut = "M"
    tip = "Move the mouse: hexes the hex under it cannot see are shaded; click to pin"

    def __init__(self, window) -> None:
        super().__init__(window)
        self.pinned: Hex | None = None

    def press(self, h, pos, mods, button) -> None:
        self.pinned = None if self.pinned == h else h
        self.win.checks.show_los_map(h)

    def hover(self, h, pos) -> None:
        if self.pinned is None and h is not None:
            self.win.checks.show_los_map(h)

    def deactivate(self) -> None:
        self.pinned = None
        self.win.checks.clear_los_map()


class CommandTool(Tool):
    """Click a leader for his command radius; click elsewhere for a whole side (ASLGW 1.3)."""

    name = "command"
    label = "Command radius"
    shortcut = "C"
    tip = "Click a leader to see his command radius; click an empty hex for the whole side (ASLGW 1.3)"

    def press(self, h, pos, mods, button) -> None:
        seen = self.win.seen
        item, face = self.win.scene.counter_at(pos)
        clicked = seen.unit(face.key) if face is not None else None
        if clicked is not None and clicked.kind is UnitKind.LEADER:
            self.win.checks.show_command(leader=clicked.id)
            return
        here = item.stack.hex if item is not None else h
        leaders = [u for u in seen.scenario.units_at(here) if u.kind is UnitKind.LEADER]
        if leaders:
            self.win.checks.show_command(leader=leaders[-1].id)
        else:  # the palette's side for the designer; a side's own men in its view
            self.win.checks.show_command(side=self.win.palette.side() if seen.omniscient else seen.viewer)

    def deactivate(self) -> None:
        self.win.checks.clear_command()


ALL_TOOLS = (SelectTool, TerrainTool, LevelTool, BuildingTool, OutlineTool, FortificationTool, UnitTool, DummyTool, LosTool, LosMapTool, CommandTool)
