"""The board of a Great War scenario in play: the editor's map drawing, from the view only.

Terrain comes from the scenario's public map (its hexes, levels, buildings
and outlines; never its units, dummies or fortifications); every counter,
"?" stack, fortification and minefield comes from the view of the window's
viewer.  The mouse: drag a stack (or one counter) to a hex to move it there;
click a stack for every action that concerns its hex (moves, shifts,
platoon impulses...); the actions' own words come from the legal list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import QMenu, QVBoxLayout, QWidget

from gwasl.engine.session import LegalAction
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import FortificationKind, LeaderRating, Nationality, Position, Scenario, Unit, UnitClass, UnitKind
from gwasl.model.scenario_io import ScenarioError, parse_scenario
from gwasl.ui.drawable import CounterFace, FortDrawing, MapDrawing, StackDrawing, counter_face
from gwasl.ui.mapscene import MapScene
from gwasl.ui.mapview import MapView
from gwasl.ui.play.boards import Board

__all__ = ["AslgwBoard", "action_hexes", "drawing_from_game_view", "public_scenario"]

_STATE_FLAGS = (("cx", "CX"), ("dm", "DM"), ("pinned", "Pin"), ("melee", "Melee"), ("ti", "TI"))


def public_scenario(source: dict[str, Any]) -> Scenario | None:
    """What everyone knows of a scenario before play: its map (terrain, levels, buildings,
    outlines), date and sides.  No unit, dummy, fortification or fog field survives."""
    try:
        s = parse_scenario(source, "the game's scenario")
    except (ScenarioError, ValueError, TypeError, KeyError):
        return None
    return replace(s, units=(), dummies=(), formations=(), map=replace(s.map, fortifications=()), extra=MappingProxyType({}))


def _hex(label: Any) -> Hex | None:
    try:
        return Hex.from_label(str(label))
    except HexLabelError:
        return None


def _unit(d: dict[str, Any]) -> Unit | None:
    h = _hex(d.get("hex"))
    if h is None:
        return None
    try:
        return Unit(
            id=str(d.get("id")), side=str(d.get("side")), kind=UnitKind(str(d.get("kind"))), hex=h,
            unit_class=UnitClass(d["class"]) if d.get("class") else None,
            rating=LeaderRating.parse(d["rating"]) if d.get("rating") else None,
            weapon=d.get("weapon"), position=Position(d.get("in", "ground")), platoon=d.get("platoon"),
            broken=bool(d.get("broken")), trench_armour=bool(d.get("trench_armour")),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def drawing_from_game_view(view: dict[str, Any], public: Scenario) -> MapDrawing:
    """The map drawing of a game view: its units face up, "?" stacks showing only their
    height, its fortifications and minefields; terrain from the public scenario."""
    faces: dict[Hex, list[CounterFace]] = {}
    order = {"support_weapon": 0, "crew": 1, "half_squad": 2, "squad": 3, "hero": 4, "leader": 5}
    ti = set(view.get("ti") or ())
    for d in sorted(view.get("units") or (), key=lambda u: (order.get(str(u.get("kind")), 9), str(u.get("id")))):
        u = _unit(d)
        if u is None:
            continue
        face = counter_face(public, u, designer=False)
        flags = tuple(text for key, text in _STATE_FLAGS if d.get(key) or (key == "ti" and u.id in ti))
        faces.setdefault(u.hex, []).append(replace(face, status=flags))
    for i, c in enumerate(view.get("concealed") or ()):
        h = _hex(c.get("hex"))
        if h is None:
            continue
        side = public.sides.get(str(c.get("side")))
        n = c.get("counters")
        faces.setdefault(h, []).append(CounterFace(
            key=f"?{i}", side=str(c.get("side")), nationality=side.nationality if side else None, kind="concealed",
            title="?", count=n if isinstance(n, int) and n > 1 else None))
    forts = []
    for f in view.get("fortifications") or ():
        hexes = tuple(h for h in (_hex(x) for x in f.get("hexes", ())) if h is not None)
        try:
            kind = FortificationKind(f.get("kind"))
        except ValueError:
            continue
        ladders = tuple(h for h in (_hex(x) for x in f.get("ladders", ())) if h is not None)
        forts.append(FortDrawing(kind, hexes, ladders, f.get("owner")))
    for m in view.get("minefields") or ():
        h = _hex(m.get("hex"))
        if h is not None:
            forts.append(FortDrawing(FortificationKind.MINEFIELD, (h,), owner=m.get("side")))
    nats: dict[str, Nationality] = {k: s.nationality for k, s in public.sides.items()}
    return MapDrawing(
        map=public.map,
        stacks=MappingProxyType({h: StackDrawing(h, tuple(cs)) for h, cs in faces.items()}),
        fortifications=tuple(forts),
        title=public.title,
        viewer=str(view.get("viewer", "player")),
        nationalities=MappingProxyType(nats),
    )


def action_hexes(action: dict[str, Any], view: dict[str, Any]) -> tuple[Hex | None, Hex | None]:
    """Where an aslgw action starts and ends on the map, from its JSON and the view:
    a move from its pieces' hex (or its "?" pile) to ``to``; a shift between ``a`` and ``b``."""
    kind = action.get("kind")
    where = {str(u.get("id")): u.get("hex") for u in view.get("units") or ()}
    if kind == "move":
        pieces = action.get("pieces") or ()
        src = next((where[p] for p in pieces if p in where), None)
        if src is None:
            hidden = view.get("hidden") or {}
            for layer in hidden.values():
                for s in layer.get("stacks", ()):
                    if s.get("id") in pieces or set(s.get("units", ())) & set(pieces):
                        src = s.get("hex")
        return _hex(src) if src else None, _hex(action.get("to"))
    if kind == "move_pile":
        return _hex(action.get("at")), _hex(action.get("to"))
    if kind == "impulse_step":
        return _hex(where.get(str(action.get("unit")))), _hex(action.get("to"))
    if kind == "shift":
        return _hex(action.get("a")), _hex(action.get("b"))
    if kind == "double_time":
        pieces = action.get("pieces") or ()
        src = next((where[p] for p in pieces if p in where), None)
        return (_hex(src) if src else None), None
    return None, None


def _pieces(action: dict[str, Any]) -> tuple[str, ...]:
    """The counters an action names (a move's pieces, an impulse step's unit)."""
    pieces = action.get("pieces")
    if isinstance(pieces, list):
        return tuple(str(p) for p in pieces)
    unit = action.get("unit")
    return (str(unit),) if unit is not None else ()


class _PlayTool:
    """The board's mouse: press on a stack, release on another hex to move there;
    press and release on one hex for the menu of that hex's actions."""

    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, board: AslgwBoard) -> None:
        self.board = board
        self.source: Hex | None = None
        self.counter: str | None = None  # the counter pressed on, when one was

    def activate(self) -> None:
        pass

    def deactivate(self) -> None:
        pass

    def press(self, h: Hex, pos: QPointF, mods: Any, button: Any) -> None:
        self.source = h
        _, face = self.board.scene.counter_at(pos)
        self.counter = face.key if face is not None and face.kind != "concealed" else None
        self.board.show_targets(h)

    def drag(self, h: Hex | None, pos: QPointF) -> None:
        pass

    def hover(self, h: Hex | None, pos: QPointF) -> None:
        pass

    def release(self, h: Hex | None, pos: QPointF) -> None:
        src, self.source = self.source, None
        if src is None or h is None:
            self.board.show_targets(None)
            return
        if h == src:
            self.board.menu_for(h)
        else:
            self.board.move_stack(src, h, self.counter)
        self.board.show_targets(None)


class AslgwBoard(Board):
    """A Great War scenario's map in play (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = MapScene()
        self.view = MapView(self.scene)
        self.tool = _PlayTool(self)
        self.view.set_tool(self.tool)
        self.targets = self.scene.highlight  # where the pressed stack may go
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.view)
        self.public: Scenario | None = None
        self._view: dict[str, Any] = {}
        self._legal: Sequence[LegalAction] = ()
        self._placed = False
        self.last_menu: list[str] = []  # the texts of the last menu shown (tests read it)

    def set_source(self, source: dict[str, Any] | None) -> None:
        self.public = public_scenario(source) if isinstance(source, dict) else None

    def show_view(self, view: dict[str, Any], legal: Sequence[LegalAction]) -> None:
        self._view, self._legal = view, legal
        if self.public is None:
            return
        new = drawing_from_game_view(view, self.public)
        old = self.scene.drawing
        if old is None or not self._placed:
            self.scene.set_drawing(new)
            self._placed = True
            self.view.home()
            return
        # redraw only what changed: an action's result is drawn at once even on a large map
        changed = {h for h in set(old.stacks) | set(new.stacks) if old.stacks.get(h) != new.stacks.get(h)}
        forts = set(old.fortifications) ^ set(new.fortifications)
        fort_hexes = {h for f in forts for h in f.hexes}
        self.scene.set_drawing(new, changed | fort_hexes, map_changed=bool(fort_hexes))

    # -- actions by hex -------------------------------------------------------------
    def actions_at(self, h: Hex) -> list[LegalAction]:
        out = []
        for la in self._legal:
            src, dst = action_hexes(la.action.to_json(), self._view)
            if h in (src, dst):
                out.append(la)
        return out

    def show_targets(self, src: Hex | None) -> None:
        hexes = set()
        if src is not None:
            for la in self._legal:
                a, b = action_hexes(la.action.to_json(), self._view)
                if a == src and b is not None:
                    hexes.add(b)
        self.targets.set_hexes(hexes)

    def move_stack(self, src: Hex, dst: Hex, counter: str | None = None) -> None:
        """The actions that take something from ``src`` to ``dst`` (those that move ``counter``
        first, when a counter was dragged): one is sent, several are offered."""
        found = []
        for la in self._legal:
            data = la.action.to_json()
            a, b = action_hexes(data, self._view)
            if a == src and b == dst:
                found.append(la)
        if counter is not None:
            own = [la for la in found if counter in _pieces(la.action.to_json())]
            found = own or found
        if len(found) == 1:
            self.action_requested.emit(found[0].action)
        elif found:
            self._menu(found)

    def menu_for(self, h: Hex) -> None:
        self._menu(self.actions_at(h))

    def _menu(self, actions: Sequence[LegalAction]) -> None:
        self.last_menu = [la.shown.text for la in actions]
        if not actions:
            return
        menu = QMenu(self)
        for la in actions:
            a = QAction(la.shown.text.replace("&", "&&"), menu)
            a.triggered.connect(lambda _=False, act=la.action: self.action_requested.emit(act))
            menu.addAction(a)
        menu.popup(QCursor.pos())
