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
from gwasl.model.scenario import (
    Fortification,
    FortificationKind,
    LeaderRating,
    Nationality,
    Position,
    Scenario,
    Unit,
    UnitClass,
    UnitKind,
)
from gwasl.model.scenario_io import ScenarioError, parse_scenario
from gwasl.ui import plain
from gwasl.ui.drawable import CounterFace, FortDrawing, MapDrawing, StackDrawing, counter_face
from gwasl.ui.mapscene import MapScene
from gwasl.ui.mapview import MapView
from gwasl.ui.play.boards import Board
from gwasl.ui.seen import Seen
from gwasl.ui.words import words

__all__ = ["AslgwBoard", "action_hexes", "drawing_from_game_view", "mf_mark", "public_scenario"]

_STATE_FLAGS = (("cx", "CX"), ("dm", "DM"), ("pinned", "Pin"), ("melee", "Melee"), ("ti", "TI"), ("bch", "BCh"),
                ("wounded", "Wnd"), ("malfunctioned", "Malf"))
#: the view's fire mark of a unit (A8.1) -> its marker
_FIRE_MARKS = {"prep": "Prep", "first": "First", "final": "Final", "fired": "Fired"}
#: an own unit's hidden status -> its marker (what the enemy sees of it, O'Leary 2.1, 3)
_HIDDEN_MARKS = {"concealed": "?", "potential_dummy": "PD", "hip": "HIP"}


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
        fire = _FIRE_MARKS.get(str(d.get("fire") or ""))
        if fire:
            flags = (fire, *flags)
        if d.get("hidden") not in (None, "none"):  # hidden from the enemy, known to the viewer (O'Leary 2.1)
            flags = (_HIDDEN_MARKS.get(str(d.get("hidden")), "?"), *flags)
        faces.setdefault(u.hex, []).append(replace(face, status=flags, label=u.id))
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


def action_hexes(action: dict[str, Any], view: dict[str, Any],
                 where: dict[str, Any] | None = None) -> tuple[Hex | None, Hex | None]:
    """Where an aslgw action starts and ends on the map, from its JSON and the view:
    a move from its pieces' hex (or its "?" pile) to ``to``; a shift between ``a`` and ``b``;
    a fire from its firers' hex to its target ``at``; a rally, repair, detach, bayonet
    charge or platoon order at its unit's hex; a close combat at ``at``; a gas release at
    the first hex of its area, taking gas protection off at the unit's hex.  ``where``: the
    view's units by id (:func:`_where`), when the caller asks about many actions of one view."""
    kind = action.get("kind")
    where = _where(view) if where is None else where
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
    if kind in ("fire", "fire_group"):  # a fire group is formed at its first firer's hex (A7.5)
        return _first(action.get("firers"), where), _hex(action.get("at"))
    if kind == "drop_fire_group":
        group = view.get("fire_group") or {}
        return _first(group.get("firers"), where), _hex(group.get("at"))
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
    if kind == "remove_gas_protection":
        return _hex(where.get(str(action.get("unit")))), None
    if kind == "release_gas":  # on the first hex of the attack's area (ASLGW 1.9)
        attack = next((g for g in view.get("gas_attacks") or () if g.get("side") == action.get("side")
                       and g.get("index") == action.get("index")), None)
        return (_hex((attack.get("hexes") or [None])[0]) if attack else None), None
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
    to fan its stack out and get the menu of that hex's actions.  With Shift held (or the
    LOS thread on), a drag draws a line of sight instead."""

    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, board: AslgwBoard) -> None:
        self.board = board
        self.source: Hex | None = None
        self.counter: str | None = None  # the counter pressed on, when one was
        self.los_from: Hex | None = None  # a LOS thread being drawn from here

    def activate(self) -> None:
        pass

    def deactivate(self) -> None:
        pass

    def press(self, h: Hex, pos: QPointF, mods: Any, button: Any) -> None:
        if self.board.los_mode or mods & Qt.KeyboardModifier.ShiftModifier:
            self.los_from = h
            self.board.show_los(h, h)
            return
        self.source = h
        _, face = self.board.scene.counter_at(pos)
        self.counter = face.key if face is not None and face.kind != "concealed" else None
        self.board.show_targets(h)

    def drag(self, h: Hex | None, pos: QPointF) -> None:
        if self.los_from is not None:
            if h is not None:
                self.board.show_los(self.los_from, h)
            return
        if self.source is not None:
            self.board.show_step(self.source, h, self.counter)

    def hover(self, h: Hex | None, pos: QPointF) -> None:
        self.board.show_readout(h)

    def release(self, h: Hex | None, pos: QPointF) -> None:
        if self.los_from is not None:
            self.los_from = None  # the thread stays until the next click or the next position
            return
        src, self.source = self.source, None
        self.board.show_targets(None)
        self.board.show_step(None, None)
        self.board.clear_los()
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
        self.view.setMinimumWidth(320)  # a narrow window or wide docks squeeze the docks, not the map
        self.tool = _PlayTool(self)
        self.view.set_tool(self.tool)
        self.targets = self.scene.highlight  # where the pressed stack may go
        self.info = QLabel()  # the hint bar: what a drag would do (or why not), a menu entry's odds, a LOS
        self.info.setTextFormat(Qt.TextFormat.PlainText)
        self.info.setContentsMargins(6, 2, 6, 2)
        self.info.setWordWrap(True)
        self.readout = QLabel()  # the hex under the mouse as the viewer knows it
        self.readout.setTextFormat(Qt.TextFormat.PlainText)
        self.readout.setContentsMargins(6, 2, 6, 2)
        self.readout.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.info)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.readout)
        self.public: Scenario | None = None
        self._view: dict[str, Any] = {}
        self._legal: Sequence[LegalAction] = ()
        self._ends: list[tuple[LegalAction, dict[str, Any], Hex | None, Hex | None]] = []
        self._groups: dict[int, tuple[tuple[str, str], ...]] = {}
        self._seen: Seen | None = None
        self._seen_key: Any = None
        self._placed = False
        self.last_menu: list[str] = []  # the texts of the last menu shown (tests read it)
        self.menu: QMenu | None = None
        self.odds: Callable[[Record], list[Outcome]] | None = None  # set by the window
        #: why an action (as JSON) may not be taken now, in the game's words with its rule (set by the window)
        self.why_not: Callable[[dict[str, Any]], str] | None = None
        self.los_mode = False  # a left drag draws a LOS thread instead of moving
        self.los_text = ""

    def zoom_by(self, factor: float) -> None:
        self.view.zoom_by(factor)

    def zoom_fit(self) -> None:
        self.view.fit()

    def zoom_actual(self) -> None:
        self.view.actual_size()

    def zoom_level(self) -> float:
        return self.view.zoom

    def set_source(self, source: dict[str, Any] | None) -> None:
        self.public = public_scenario(source) if isinstance(source, dict) else None

    def show_view(self, view: dict[str, Any], legal: Sequence[LegalAction]) -> None:
        self._view, self._legal = view, legal
        self._ends = []
        where = _where(view)  # once per view: every action is placed against it
        for la in legal:
            data = la.action.to_json()
            a, b = action_hexes(data, view, where)
            self._ends.append((la, data, a, b))
        self._groups = {}
        if self.tool.source is None:  # a new position: what the hint bar said was about the last one
            self.info.setText("")
        self.clear_los()
        self.scene.focus.set_hexes(())
        self.scene.set_selected_units(())
        if self.public is None:
            return
        new = drawing_from_game_view(view, self.public)
        self.scene.hex_markers.set_marks(_hex_markers(view))
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

    # -- what the viewer knows: the hex read-out and the LOS thread --------------------
    def seen(self) -> Seen | None:
        """The map as the window's viewer knows it: the public terrain with the fortifications
        the view shows (a hidden trench neither blocks nor shows) and the counters as drawn."""
        if self.public is None or self.scene.drawing is None:
            return None
        forts = tuple(_fortification(f) for f in self._view.get("fortifications") or ())
        key = (tuple(f for f in forts if f is not None), self._view.get("viewer"))
        if self._seen is None or self._seen_key != key:
            s = replace(self.public, map=replace(self.public.map, fortifications=key[0]))
            self._seen = Seen(str(self._view.get("viewer", "player")), s, self.scene.drawing)
            self._seen_key = key
        elif self._seen.drawing is not self.scene.drawing:
            self._seen = replace(self._seen, drawing=self.scene.drawing)
        return self._seen

    def show_readout(self, h: Hex | None) -> None:
        """The hex under the mouse: terrain, level, building, works and counters as the
        viewer knows them, with the hex's markers (Residual FP)."""
        seen = self.seen()
        if seen is None or h is None:
            self.readout.setText("")
            return
        text = seen.hex_text(h)
        for r in self._view.get("residual") or ():
            if r.get("hex") == h.label:
                text += f" | Residual FP {r.get('fp')} (A8.2)"
        self.readout.setText(text)

    def _position_at(self, h: Hex) -> Position:
        """Where a unit the viewer sees in ``h`` is (the first one listed), for a LOS from or to it."""
        for u in self._view.get("units") or ():
            if u.get("hex") == h.label:
                try:
                    return Position(u.get("in", "ground"))
                except ValueError:
                    break
        for c in self._view.get("concealed") or ():
            if c.get("hex") == h.label:
                try:
                    return Position(c.get("in", "ground"))
                except ValueError:
                    break
        return Position.GROUND

    def show_los(self, a: Hex, b: Hex) -> None:
        """The LOS thread from ``a`` to ``b`` over the map as the viewer knows it (ASLGW 2.1.1,
        2.1.5, 2.2.2; CONTRACTS 3), with its hindrances, blocking hex and rule in the hint bar."""
        from gwasl.rules import los as los_rules

        seen = self.seen()
        if seen is None:
            return
        from_in, to_in = self._position_at(a), self._position_at(b)
        try:
            r = seen.los(a, b, from_in, to_in)
        except (los_rules.LosError, los_rules.OutlineError):
            from_in = to_in = Position.GROUND
            try:
                r = seen.los(a, b)
            except (los_rules.LosError, los_rules.OutlineError) as e:
                self.scene.los_thread.set_thread(a, b, "pending", "?")
                self.los_text = f"LOS {a} -> {b}: {e}"
                self.info.setText(self.los_text)
                return
        state = "blocked" if not r.clear else "hindered" if r.hindrances else "clear"
        text = {"clear": "clear", "hindered": f"hindrance +{r.hindrance_drm or r.hindrances}",
                "blocked": f"blocked at {r.blocked_by}" if r.blocked_by else "blocked"}[state]
        self.scene.los_thread.set_thread(a, b, state, text)
        self.scene.blocker.set_hexes({r.blocked_by} if r.blocked_by is not None else set())
        where = "" if (from_in, to_in) == (Position.GROUND, Position.GROUND) else f" ({words(from_in)} -> {words(to_in)})"
        hind = "; ".join(f"{x.hex} +{x.drm} {x.cause}" for x in r.hindrance_hexes)
        self.los_text = (f"LOS {a} -> {b}{where}: {text}" + (f" ({hind})" if hind and state != "clear" else "")
                         + (f"; {r.reason}" if r.reason else ""))
        self.info.setText(self.los_text)

    def clear_los(self) -> None:
        if self.scene.los_thread.a is not None:
            self.scene.los_thread.set_thread(None, None)
            self.scene.blocker.set_hexes(())
            self.los_text = ""

    # -- actions by hex -------------------------------------------------------------
    def actions_at(self, h: Hex) -> list[LegalAction]:
        return [la for la, _, src, dst in self._ends if h in (src, dst)]

    def _steps(self, src: Hex) -> dict[Hex, list[LegalAction]]:
        out: dict[Hex, list[LegalAction]] = {}
        for la, data, a, b in self._ends:
            if data.get("kind") in DRAG_KINDS and a == src and b is not None:
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
        """Tint the hexes the stack at ``src`` may be dragged to, each marked with the MF the
        step costs and the MF left after it."""
        if src is None:
            self.targets.set_hexes(())
            return
        steps = self._steps(src)
        marks = {}
        for h, las in steps.items():
            mf = mf_mark(las[0].shown.text)
            if mf:
                marks[h] = (mf, QColor(20, 20, 20, 225))
        self.targets.set_hexes(steps, marks)

    def _candidate(self, src: Hex, dst: Hex, counter: str | None) -> dict[str, Any] | None:
        """The action a drag from ``src`` to ``dst`` asks for, as JSON: a legal step of the same
        counter sent elsewhere, retargeted; else a plain move of the counters seen at ``src``."""
        templates = [data for _, data, a, b in self._ends
                     if a == src and b is not None and data.get("kind") in DRAG_KINDS and data.get("kind") != "shift"]
        if counter is not None:
            templates = [d for d in templates if counter in _pieces(d)] or templates
        if templates:
            return {**templates[0], "to": dst.label, "to_in": "ground"}
        ids = [counter] if counter is not None else [str(u.get("id")) for u in self._view.get("units") or ()
                                                     if u.get("hex") == src.label and u.get("kind") != "support_weapon"]
        return {"kind": "move", "pieces": ids, "to": dst.label} if ids else None

    def refusal(self, src: Hex, dst: Hex, counter: str | None = None) -> str:
        """Why nothing may go from ``src`` to ``dst`` now, in the game's words and with its rule."""
        data = self._candidate(src, dst, counter)
        why = ""
        if data is not None and self.why_not is not None:
            why = self.why_not(data)
        if not why:
            why = f"nothing at {src} may move now ({self._view.get('phase', '')}, {self._view.get('side') or 'no one'} to act)"
        return f"{src.label} -> {dst.label}: not allowed: {why}"

    def show_step(self, src: Hex | None, h: Hex | None, counter: str | None = None) -> None:
        """While dragging: the step to ``h`` in the game's words, with the MF the moving
        units have spent and, once their allowance is fixed, have left; or why not."""
        if src is None:
            return
        if h is None or h == src:
            self.info.setText(f"Dragging from {src.label}: drop on a tinted hex to move there")
            return
        las = self._steps(src).get(h, [])
        if counter is not None:
            las = [la for la in las if counter in _pieces(la.action.to_json())] or las
        if not las:
            self.info.setText(self.refusal(src, h, counter))
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
        first, when a counter was dragged): one is sent, several are offered; none: the hint
        bar says why, with the rule."""
        found = self._steps(src).get(dst, [])
        if counter is not None:
            own = [la for la in found if counter in _pieces(la.action.to_json())]
            found = own or found
        if len(found) == 1:
            self.action_requested.emit(found[0].action)
        elif found:
            self._menu(found)
        else:
            self.info.setText(self.refusal(src, dst, counter))

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

    # -- the Actions dock's groups, and what is picked there or in the log ---------------
    def action_group(self, la: LegalAction) -> tuple[tuple[str, str], ...]:
        """The stack an action starts from (its hex, with the counters there in words), then
        the unit it moves or uses when the stack has several; none for phase-wide actions."""
        if not self._groups:
            self._make_groups()
        return self._groups.get(id(la), ())

    def _make_groups(self) -> None:
        where = self._stack_words()
        per_hex: dict[Hex, set[str]] = {}
        firsts: list[tuple[LegalAction, Hex | None, str]] = []
        for la, data, a, _ in self._ends:
            who = ", ".join(_pieces(data) or tuple(str(x) for x in data.get("firers") or data.get("units") or ()))
            firsts.append((la, a, who))
            if a is not None and who:
                per_hex.setdefault(a, set()).add(who)
        for la, a, who in firsts:
            if a is None:
                continue
            top = (f"hex:{a.label}", where.get(a, a.label))
            if who and len(per_hex.get(a, ())) > 1:
                self._groups[id(la)] = (top, (f"unit:{who}", self._unit_words(who)))
            else:
                self._groups[id(la)] = (top,)

    def _stack_words(self) -> dict[Hex, str]:
        """Each hex's stack in words: "C2: 9-1 leader G1-L, 1st 4-4-7 G1-1 ..."; a "?" as its size."""
        d = self.scene.drawing
        out: dict[Hex, str] = {}
        if d is None:
            return out
        for h, st in d.stacks.items():
            parts = []
            for f in reversed(st.counters):
                if f.kind == "concealed":
                    parts.append(f"? ({f.count or 1} counter{'s' if (f.count or 1) > 1 else ''})")
                else:
                    parts.append(" ".join(x for x in (f.key, f.rating or f.factors or f.title) if x))
            out[h] = f"{h.label}: " + ", ".join(parts)
        return out

    def _unit_words(self, who: str) -> str:
        faces = {f.key: f for st in (self.scene.drawing.stacks.values() if self.scene.drawing else ()) for f in st.counters}
        parts = []
        for uid in who.split(", "):
            f = faces.get(uid)
            parts.append(" ".join(x for x in (uid, f and (f.rating or f.factors or f.title)) if x))
        return ", ".join(parts)

    def _refs(self, data: dict[str, Any]) -> tuple[set[str], set[Hex]]:
        """The unit ids and hexes an action's or event's JSON names (those the view shows)."""
        shown = {str(u.get("id")) for u in self._view.get("units") or ()}
        units: set[str] = set()
        for key in ("pieces", "firers", "units"):
            v = data.get(key)
            if isinstance(v, list):
                units |= {str(x) for x in v}
        for key in ("unit", "weapon"):
            if isinstance(data.get(key), str):
                units.add(data[key])
        hexes = set()
        for key in ("to", "at", "a", "b", "from", "hex"):
            h = _hex(data[key]) if isinstance(data.get(key), str) else None
            if h is not None and self.public is not None and self.public.map.contains(h):
                hexes.add(h)
        for key in ("hexes", "path"):
            for x in data.get(key) or ():
                h = _hex(x)
                if h is not None and self.public is not None and self.public.map.contains(h):
                    hexes.add(h)
        return units & shown, hexes

    def highlight_actions(self, actions: Sequence[LegalAction]) -> None:
        """Outline the hexes and counters of the picked actions (an action, or a group)."""
        units: set[str] = set()
        hexes: set[Hex] = set()
        for la, data, a, b in self._ends:
            if any(la is x for x in actions):
                u, h = self._refs(data)
                units |= u
                hexes |= h | {x for x in (a, b) if x is not None}
        self._focus(units, hexes)

    def highlight_event(self, event: dict[str, Any] | None, bring_into_view: bool = True) -> None:
        """Outline what a log line names: the counters the view shows and the map's hexes,
        from the event's fields and its words (the line is the viewer's own)."""
        if not event:
            self._focus(set(), set(), False)
            return
        units, hexes = self._refs(event)
        text = str(event.get("text") or "")
        shown = {str(u.get("id")): u for u in self._view.get("units") or ()}
        for token in re.findall(r"[A-Za-z0-9][A-Za-z0-9_-]*", text):
            if token in shown:
                units.add(token)
        # hex labels, not rule numbers: "F4 -> F5" but neither "(A4.7)" nor "(B12)"
        for token in re.findall(r"(?<![\w.(-])([A-Z]{1,2}[0-9]{1,3})(?![\w.)-])", text):
            h = _hex(token)
            if h is not None and self.public is not None and self.public.map.contains(h):
                hexes.add(h)
        self._focus(units, hexes, bring_into_view)

    def _focus(self, units: set[str], hexes: set[Hex], bring_into_view: bool = True) -> None:
        where = {str(u.get("id")): _hex(u.get("hex")) for u in self._view.get("units") or ()}
        hexes = hexes | {h for u in units if (h := where.get(u)) is not None}
        self.scene.set_selected_units(units)
        self.scene.focus.set_hexes(hexes)
        if hexes and bring_into_view:  # bring the first of them into sight when it is off the view
            first = min(hexes, key=lambda h: (h.column, h.row))
            self.view.ensureVisible(self.scene.hex_rect(first), 20, 20)


def _fortification(f: dict[str, Any]) -> Fortification | None:
    """A fortification of the view as the model's value (for LOS over what the viewer knows)."""
    try:
        kind = FortificationKind(str(f.get("kind")))
    except ValueError:
        return None
    hexes = tuple(h for h in (_hex(x) for x in f.get("hexes", ())) if h is not None)
    ladders = tuple(h for h in (_hex(x) for x in f.get("ladders", ())) if h is not None)
    return Fortification(kind, hexes, f.get("owner"), ladders) if hexes else None


def _hex_markers(view: dict[str, Any]) -> dict[Hex, tuple[tuple[str, str, str], ...]]:
    """The markers of the view that belong to hexes: Residual FP with its value (A8.2)."""
    out: dict[Hex, list[tuple[str, str, str]]] = {}
    for r in view.get("residual") or ():
        h = _hex(r.get("hex"))
        if h is not None:
            where = "" if r.get("in", "ground") in ("ground", "hex") else f" {str(r.get('in')).replace('_', ' ')}"
            out.setdefault(h, []).append((f"Res FP{where}", str(r.get("fp")), "#ff9e6b"))
    return {h: tuple(v) for h, v in out.items()}


def mf_mark(text: str) -> str:
    """The mark of a drag's target hex, from the step's words: the MF it costs and, when the
    allowance is known, the MF left after it ("1 MF\n5 left" from "... (1 MF; 5 of 6 left after)")."""
    m = re.search(r"\(([0-9.]+) MF(?:; (-?[0-9.]+) of [0-9.]+ left after)?", text)
    if not m:
        return ""
    return f"{m.group(1)} MF" + (f"\n{m.group(2)} left" if m.group(2) is not None else "")

