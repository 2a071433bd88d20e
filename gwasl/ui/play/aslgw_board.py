"""The board of a Great War scenario in play: the editor's map drawing, from the view only.

Terrain comes from the scenario's public map (its hexes, levels, buildings
and outlines; never its units, dummies or fortifications); every counter,
"?" stack, fortification and minefield comes from the view of the window's
viewer.  The mouse: drag a stack (or one counter) to a hex to move it there;
click a stack for every action that concerns its hex (moves, shifts,
platoon impulses...); the actions' own words come from the legal list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QCursor, QMouseEvent
from PySide6.QtWidgets import QLabel, QMenu, QVBoxLayout, QWidget

from gwasl.engine.game import GameError, Outcome
from gwasl.engine.record import Record
from gwasl.engine.session import LegalAction
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import FortificationKind, LeaderRating, Nationality, Position, Scenario, Unit, UnitClass, UnitKind
from gwasl.model.scenario_io import ScenarioError, parse_scenario
from gwasl.ui import plain
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
    melee = {str(m.get("hex")) for m in view.get("melee") or () if isinstance(m, dict)}
    for d in sorted(view.get("units") or (), key=lambda u: (order.get(str(u.get("kind")), 9), str(u.get("id")))):
        u = _unit(d)
        if u is None:
            continue
        face = counter_face(public, u, designer=False)
        flags = tuple(text for key, text in _STATE_FLAGS
                      if d.get(key) or (key == "ti" and u.id in ti) or (key == "melee" and u.hex.label in melee))
        if d.get("hidden") not in (None, "none"):
            flags = ("?", *flags)  # hidden from the enemy, known to the viewer (O'Leary 2.1)
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


def _where(view: dict[str, Any]) -> dict[str, Any]:
    return {str(u.get("id")): u.get("hex") for u in view.get("units") or ()}


def _first(ids: Any, where: dict[str, Any]) -> Hex | None:
    """The hex of the first of ``ids`` the view shows."""
    for i in ids or ():
        if str(i) in where:
            return _hex(where[str(i)])
    return None


def action_hexes(action: dict[str, Any], view: dict[str, Any]) -> tuple[Hex | None, Hex | None]:
    """Where an aslgw action starts and ends on the map, from its JSON and the view:
    a move from its pieces' hex (or its "?" pile) to ``to``; a shift between ``a`` and ``b``;
    a fire from its firers' hex to its target ``at``; a rally, repair, detach, bayonet
    charge or platoon order at its unit's hex; a close combat at ``at``."""
    kind = action.get("kind")
    where = _where(view)
    if kind == "move":
        pieces = action.get("pieces") or ()
        src = _first(pieces, where)
        if src is None:
            hidden = view.get("hidden") or {}
            for layer in hidden.values():
                for s in layer.get("stacks", ()):
                    if s.get("id") in pieces or set(s.get("units", ())) & set(pieces):
                        src = _hex(s.get("hex"))
        return src, _hex(action.get("to"))
    if kind == "move_pile":
        return _hex(action.get("at")), _hex(action.get("to"))
    if kind in ("impulse_step", "rout"):
        return _hex(where.get(str(action.get("unit")))), _hex(action.get("to"))
    if kind == "shift":
        return _hex(action.get("a")), _hex(action.get("b"))
    if kind == "double_time":
        return _first(action.get("pieces"), where), None
    if kind == "fire":
        return _first(action.get("firers"), where), _hex(action.get("at"))
    if kind in ("rally", "detach"):
        return _hex(where.get(str(action.get("unit")))), None
    if kind == "repair":
        return _hex(where.get(str(action.get("weapon")))), None
    if kind == "bayonet_charge":
        return _first(action.get("units"), where), None
    if kind == "withdraw":
        return _hex(action.get("at")), _hex(action.get("to"))
    if kind == "close_combat":
        return _hex(action.get("at")), None
    if kind in ("end_impulse", "end_platoon"):
        members = [u.get("id") for u in view.get("units") or () if u.get("platoon") == action.get("platoon")]
        return _first(members, where), None
    return None, None


def _pieces(action: dict[str, Any]) -> tuple[str, ...]:
    """The counters an action names (a move's pieces, an impulse step's unit)."""
    pieces = action.get("pieces")
    if isinstance(pieces, list):
        return tuple(str(p) for p in pieces)
    unit = action.get("unit")
    return (str(unit),) if unit is not None else ()


#: the actions a drag sends: a stack (or "?" pile) going from one hex to the next
#: the actions whose exact outcome odds the menu shows before the roll
ODDS_KINDS = ("fire", "close_combat", "bayonet_charge", "rally")
DRAG_KINDS = ("move", "move_pile", "impulse_step", "rout", "withdraw", "shift")


class _PlayTool:
    """The board's mouse: press on a stack, release on another hex to move there (the
    MF of that step, spent and left, shown while dragging); press and release on one hex
    to fan its stack out and get the menu of that hex's actions."""

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
        if self.source is not None:
            self.board.show_step(self.source, h, self.counter)

    def hover(self, h: Hex | None, pos: QPointF) -> None:
        pass

    def release(self, h: Hex | None, pos: QPointF) -> None:
        src, self.source = self.source, None
        self.board.show_targets(None)
        self.board.show_step(None, None)
        if src is None or h is None:
            return
        if h == src:
            item = self.board.scene.stacks.get(h)
            if item is not None and len(item.stack.counters) > 1:
                item.toggle_pinned()  # a click spreads the stack out (and closes it again)
            self.board.menu_for(h)
        else:
            self.board.move_stack(src, h, self.counter)


class _PlayView(MapView):
    """The map view of play: a right click (press and release without dragging) opens the
    menu of the hex's actions; a right drag still pans."""

    def __init__(self, scene: MapScene, board: AslgwBoard) -> None:
        super().__init__(scene)
        self.board = board
        self._right_at: QPointF | None = None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            self._right_at = event.position()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        at, self._right_at = self._right_at, None
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.RightButton and at is not None:
            d = event.position() - at
            if abs(d.x()) + abs(d.y()) <= 4:
                pos = self.mapToScene(event.position().toPoint())
                h = self.mapscene.hex_at(pos)
                if h is None:
                    item, _ = self.mapscene.counter_at(pos)
                    h = item.stack.hex if item is not None else None
                if h is not None:
                    self.board.menu_for(h)


class AslgwBoard(Board):
    """A Great War scenario's map in play (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = MapScene()
        self.view = _PlayView(self.scene, self)
        self.tool = _PlayTool(self)
        self.view.set_tool(self.tool)
        self.targets = self.scene.highlight  # where the pressed stack may go
        self.info = QLabel()  # what a drag would do: the step, its MF, spent and left
        self.info.setTextFormat(Qt.TextFormat.PlainText)
        self.info.setContentsMargins(6, 2, 6, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.info)
        lay.addWidget(self.view, 1)
        self.public: Scenario | None = None
        self._view: dict[str, Any] = {}
        self._legal: Sequence[LegalAction] = ()
        self._placed = False
        self.last_menu: list[str] = []  # the texts of the last menu shown (tests read it)
        self.menu: QMenu | None = None
        self.odds: Callable[[Record], list[Outcome]] | None = None  # set by the window

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
        if changed or fort_hexes:
            self.scene.set_drawing(new, changed | fort_hexes, map_changed=bool(fort_hexes))
        else:
            self.scene.drawing = new

    # -- actions by hex -------------------------------------------------------------
    def actions_at(self, h: Hex) -> list[LegalAction]:
        out = []
        for la in self._legal:
            src, dst = action_hexes(la.action.to_json(), self._view)
            if h in (src, dst):
                out.append(la)
        return out

    def _steps(self, src: Hex) -> dict[Hex, list[LegalAction]]:
        out: dict[Hex, list[LegalAction]] = {}
        for la in self._legal:
            data = la.action.to_json()
            if data.get("kind") not in DRAG_KINDS:
                continue
            a, b = action_hexes(data, self._view)
            if a == src and b is not None:
                out.setdefault(b, []).append(la)
        return out

    #: how long gwasl's action stays lit on the map (issue 25)
    FLASH_MS = 600

    def flash(self, action: dict[str, Any]) -> list[Hex]:
        """Light up for a moment where an action of gwasl's side happened (who acted, where),
        as the player's view places it; returns the hexes lit."""
        hexes = [h for h in action_hexes(action, self._view) if h is not None]
        if hexes:
            self.targets.set_hexes(hexes)
            QTimer.singleShot(self.FLASH_MS, lambda: self.targets.set_hexes(()))
        return hexes

    def show_targets(self, src: Hex | None) -> None:
        """Tint the hexes the stack at ``src`` may be dragged to, each marked with its MF."""
        if src is None:
            self.targets.set_hexes(())
            return
        steps = self._steps(src)
        marks = {}
        for h, las in steps.items():
            mf = _mf(las[0].shown.text)
            if mf:
                marks[h] = (mf, QColor(20, 20, 20))
        self.targets.set_hexes(steps, marks)

    def show_step(self, src: Hex | None, h: Hex | None, counter: str | None = None) -> None:
        """While dragging: the step to ``h`` in the game's words, with the MF the moving
        units have spent and, once their allowance is fixed, have left."""
        if src is None:
            self.info.setText("")
            return
        if h is None or h == src:
            self.info.setText(f"Dragging from {src.label}: drop on a tinted hex to move there")
            return
        las = self._steps(src).get(h, [])
        if counter is not None:
            las = [la for la in las if counter in _pieces(la.action.to_json())] or las
        if not las:
            self.info.setText(f"{src.label} -> {h.label}: no move there now")
            return
        self.info.setText(las[0].shown.text + self._mf_spent(las[0].action.to_json()))

    def _mf_spent(self, data: dict[str, Any]) -> str:
        ids = set(_pieces(data))
        units = [u for u in self._view.get("units") or () if str(u.get("id")) in ids]
        if not units:
            return ""
        spent = max(float(u.get("mf_spent") or 0) for u in units)
        allowances = [float(u["allowance"]) for u in units if u.get("allowance") is not None]
        text = f"; MF spent so far {spent:g}"
        if allowances:
            text += f" of {min(allowances):g}, {min(allowances) - spent:g} left"
        return text

    def move_stack(self, src: Hex, dst: Hex, counter: str | None = None) -> None:
        """The actions that take something from ``src`` to ``dst`` (those that move ``counter``
        first, when a counter was dragged): one is sent, several are offered."""
        found = self._steps(src).get(dst, [])
        if counter is not None:
            own = [la for la in found if counter in _pieces(la.action.to_json())]
            found = own or found
        if len(found) == 1:
            self.action_requested.emit(found[0].action)
        elif found:
            self._menu(found)

    def odds_text(self, la: LegalAction) -> str:
        """The exact outcomes of a fire or close combat action, one per line ("" for others)."""
        if self.odds is None or la.action.kind not in ODDS_KINDS:
            return ""
        try:
            outcomes = self.odds(la.action)
        except GameError:
            return ""
        return "\n".join(f"{o.p:.1%} {o.result}" for o in outcomes)

    def menu_for(self, h: Hex) -> None:
        self._menu(self.actions_at(h))

    def _menu(self, actions: Sequence[LegalAction]) -> None:
        self.last_menu = [la.shown.text for la in actions]
        if not actions:
            return
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        for la in actions:
            a = QAction(la.shown.text.replace("&", "&&"), menu)
            a.triggered.connect(lambda _=False, act=la.action: self.action_requested.emit(act))
            odds = self.odds_text(la)
            if odds:  # a fire or close combat: its exact outcomes before the roll
                a.setToolTip(plain.tooltip(odds))
            a.hovered.connect(lambda text=la.shown.text, o=odds: self.info.setText(text + (": " + o.replace("\n", "; ") if o else "")))
            menu.addAction(a)
        self.menu = menu  # tests pick an entry from it
        menu.popup(QCursor.pos())


def _mf(text: str) -> str:
    """The MF an action's words give, e.g. "1 MF" from "Move G1-5 A1 -> A2 (1 MF)"."""
    m = re.search(r"\(([0-9.]+ MF)", text)
    return m.group(1) if m else ""
