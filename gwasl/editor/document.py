"""The scenario editor's core, without Qt: a document, its edits, undo and redo.

An :class:`EditorDocument` holds the current immutable
:class:`~gwasl.model.scenario.Scenario`.  Every edit is a pure function
``Scenario -> Scenario`` (the ``*_edit`` functions below) wrapped in one
:class:`Command` with ``do``/``undo``; the document keeps the undo stack,
the dirty flag and the file path, and tells its listeners exactly what
changed (:class:`Change`) so the map scene and the Qt item models update
only what they must.  The Qt layer (gwasl/ui) is a thin adapter over this.

A brush stroke is one command: commands pushed with the same ``merge_key``
(one per stroke) fold into the previous one.

>>> doc = EditorDocument(new_scenario())
>>> doc.apply(paint_terrain, [Hex.from_label("B2")], Terrain.WOODS)
True
>>> doc.scenario.map.terrain_at(Hex.from_label("B2")).value, doc.dirty
('woods', True)
>>> doc.undo()
True
>>> doc.scenario.map.terrain_at(Hex.from_label("B2")).value, doc.dirty
('open', False)
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from gwasl.model.errors import GwaslError
from gwasl.model.files import FileIdentity
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    Dummy,
    DummyKind,
    Formation,
    FormationKind,
    Fortification,
    FortificationKind,
    HexData,
    HiddenStatus,
    LeaderRating,
    LeaderRatingError,
    MapData,
    Nationality,
    Scenario,
    Side,
    Terrain,
    Unit,
    UnitClass,
    UnitKind,
)
from gwasl.model.scenario_io import Saved, ScenarioError, ScenarioReadError, open_scenario, save_scenario
from gwasl.model.terrain import terrain_table

__all__ = [
    "Change",
    "Command",
    "EditorDocument",
    "EditError",
    "new_scenario",
    "paint_terrain",
    "set_level",
    "set_building",
    "set_outline",
    "add_fortification",
    "remove_fortification",
    "toggle_ladder",
    "place_units",
    "move_units",
    "delete_units",
    "update_units",
    "set_formation",
    "delete_formation",
    "add_dummy",
    "remove_dummy",
    "set_properties",
    "resize_map",
    "place_platoon",
    "fresh_unit_id",
    "fresh_formation_id",
]


class EditError(GwaslError):
    """An edit that cannot be made (unknown unit, hex off the map, duplicate id...)."""


@dataclass(frozen=True, slots=True)
class Change:
    """What an edit changed, so views refresh only that.

    ``hexes``: hexes whose drawing changed (terrain, level, building,
    fortification or the units in them).  ``units``: ids of added, moved,
    changed or removed units.  The flags say which lists changed; ``full``
    asks views to rebuild everything (new document, map resized).
    """

    hexes: frozenset[Hex] = frozenset()
    units: frozenset[str] = frozenset()
    map: bool = False
    formations: bool = False
    dummies: bool = False
    properties: bool = False
    full: bool = False

    def union(self, other: Change) -> Change:
        return Change(
            self.hexes | other.hexes,
            self.units | other.units,
            self.map or other.map,
            self.formations or other.formations,
            self.dummies or other.dummies,
            self.properties or other.properties,
            self.full or other.full,
        )


FULL = Change(full=True, map=True, formations=True, dummies=True, properties=True)


@dataclass(frozen=True, slots=True)
class Command:
    """One undoable edit: the scenario before and after, what changed, and its name.

    Scenarios are immutable and share unchanged parts, so keeping both
    values is cheap and makes ``do``/``undo`` exact by construction.
    """

    text: str
    before: Scenario
    after: Scenario
    change: Change
    merge_key: Any = None

    def do(self) -> Scenario:
        return self.after

    def undo(self) -> Scenario:
        return self.before

    def merged_with(self, later: Command) -> Command:
        """This command followed by ``later`` as one step (one brush stroke)."""
        return Command(self.text, self.before, later.after, self.change.union(later.change), self.merge_key)

    @property
    def is_noop(self) -> bool:
        return self.before == self.after


Listener = Callable[[Change], None]


class EditorDocument:
    """The scenario being edited: current value, undo/redo stacks, dirty state, path."""

    def __init__(
        self, scenario: Scenario, path: str | os.PathLike[str] | None = None, identity: FileIdentity | None = None
    ) -> None:
        self._scenario = scenario
        self.path: str | None = os.fspath(path) if path is not None else None
        # The file as it was when opened or last saved: a save refuses to replace
        # a file someone else changed since (issue 18.3).
        if identity is None and self.path is not None:
            identity = _identity_if_same(self.path, scenario)
        self.identity: FileIdentity | None = identity
        self._undo: list[Command] = []
        self._redo: list[Command] = []
        self._clean_index: int | None = 0  # len(undo) at the last save/open; None: unreachable
        self._listeners: list[Listener] = []
        self._stroke = 0
        self._open_stroke: Any = None

    # -- files ------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> EditorDocument:
        """Load a scenario file (raises :class:`~gwasl.model.scenario_io.ScenarioError`)."""
        scenario, identity = open_scenario(path)
        return cls(scenario, path, identity)

    def save(
        self, path: str | os.PathLike[str] | None = None, *, overwrite_changed: bool = False, allow_read_only: bool = False
    ) -> Saved:
        """Write the scenario (atomically, checked by reading it back); the document becomes clean.

        Saving to the document's own file refuses to replace it when it changed
        on disk since it was opened or saved (:class:`~gwasl.model.scenario_io.ScenarioChangedError`)
        unless ``overwrite_changed``, and refuses a read-only file
        (:class:`~gwasl.model.scenario_io.ScenarioReadOnlyError`) unless
        ``allow_read_only``: the UI asks the user and calls again.
        """
        target = os.fspath(path) if path is not None else self.path
        if target is None:
            raise EditError("this scenario has no file yet; choose one with Save As")
        own_file = self.path is not None and os.path.abspath(target) == os.path.abspath(self.path)
        expect = self.identity if own_file and not overwrite_changed else None
        saved = save_scenario(self._scenario, target, expect=expect, allow_read_only=allow_read_only)
        self.path = target
        self.identity = saved.identity
        self._clean_index = len(self._undo)
        self._emit(Change(properties=True))
        return saved

    def replace_all(self, scenario: Scenario, path: str | os.PathLike[str] | None, identity: FileIdentity | None = None) -> None:
        """Start over on another scenario (New/Open): history cleared, clean."""
        self._scenario = scenario
        self.path = os.fspath(path) if path is not None else None
        self.identity = identity
        self._undo.clear()
        self._redo.clear()
        self._clean_index = 0
        self._emit(FULL)

    # -- state ---------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def dirty(self) -> bool:
        return self._clean_index != len(self._undo)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_text(self) -> str:
        return self._undo[-1].text if self._undo else ""

    @property
    def redo_text(self) -> str:
        return self._redo[-1].text if self._redo else ""

    @property
    def history(self) -> tuple[str, ...]:
        return tuple(c.text for c in self._undo)

    @property
    def future(self) -> tuple[str, ...]:
        """Names of the redoable edits, next one first."""
        return tuple(c.text for c in reversed(self._redo))

    def go_to(self, steps: int) -> None:
        """Undo or redo until exactly ``steps`` edits are applied (the history list's click)."""
        steps = max(0, min(steps, len(self._undo) + len(self._redo)))
        while len(self._undo) > steps:
            self.undo()
        while len(self._undo) < steps:
            self.redo()

    # -- events --------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(change)`` after every change; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, change: Change) -> None:
        for fn in list(self._listeners):
            fn(change)

    # -- strokes -------------------------------------------------------------------
    def begin_stroke(self) -> Any:
        """Start a brush stroke: edits pushed with the returned key merge into one step."""
        self._stroke += 1
        self._open_stroke = ("stroke", self._stroke)
        return self._open_stroke

    def end_stroke(self) -> None:
        self._open_stroke = None

    # -- undo stack ----------------------------------------------------------------
    def push(self, command: Command | None, merge_key: Any = None) -> bool:
        """Apply ``command`` and put it on the undo stack; False if it changed nothing."""
        if command is None or command.is_noop:
            return False
        if command.before is not self._scenario and command.before != self._scenario:
            raise EditError("this edit was prepared for another state of the scenario")
        key = merge_key if merge_key is not None else command.merge_key
        if key is not None:
            command = replace(command, merge_key=key)
        top = self._undo[-1] if self._undo else None
        if key is not None and top is not None and top.merge_key == key and self._clean_index != len(self._undo):
            self._undo[-1] = top.merged_with(command)
        else:
            if self._clean_index is not None and self._clean_index > len(self._undo):
                self._clean_index = None  # the saved state was on the redo branch we drop
            self._undo.append(command)
        self._redo.clear()
        self._scenario = command.do()
        self._emit(command.change)
        return True

    def undo(self) -> bool:
        if not self._undo:
            return False
        c = self._undo.pop()
        self._redo.append(c)
        self._scenario = c.undo()
        self._emit(c.change)
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        c = self._redo.pop()
        self._undo.append(c)
        self._scenario = c.do()
        self._emit(c.change)
        return True

    def apply(self, edit: Callable[..., Command | None], *args: Any, merge_key: Any = None, **kw: Any) -> bool:
        """Build an edit against the current scenario and push it: ``doc.apply(paint_terrain, hexes, t)``."""
        return self.push(edit(self._scenario, *args, **kw), merge_key=merge_key)


# ---------------------------------------------------------------------------
# New scenarios
# ---------------------------------------------------------------------------
#: The identity of a file that no longer holds what the document was made from.
_CHANGED = FileIdentity(0, -1, "")


def _identity_if_same(path: str, scenario: Scenario) -> FileIdentity | None:
    """The file's identity if it still holds ``scenario`` (a document made from an
    already-loaded scenario), a never-matching one if it holds something else,
    None if there is no file."""
    try:
        again, identity = open_scenario(path)
    except ScenarioReadError:
        return None if not os.path.lexists(path) else _CHANGED
    except ScenarioError:
        return _CHANGED
    return identity if again == scenario else _CHANGED


def new_scenario(
    columns: int = 12,
    rows: int = 8,
    date: _dt.date | None = None,
    sides: Mapping[str, Nationality] | None = None,
    title: str = "New scenario",
) -> Scenario:
    """An empty open map with two sides (German attacker, French defender by default)."""
    sides = sides or {"german": Nationality.GERMAN, "french": Nationality.FRENCH}
    if len(sides) < 2:
        raise EditError("a scenario needs at least two sides")
    return Scenario(
        title=title,
        date=date or _dt.date(1916, 2, 21),
        map=MapData(columns, rows),
        sides=MappingProxyType({k: Side(k, n) for k, n in sides.items()}),
    )


# ---------------------------------------------------------------------------
# Map edits
# ---------------------------------------------------------------------------
def _on_map(s: Scenario, hexes: Iterable[Hex]) -> list[Hex]:
    out = []
    for h in hexes:
        if not s.map.contains(h):
            raise EditError(f"hex {h} is outside the {s.map.columns} x {s.map.rows} map")
        out.append(h)
    return out


def _edit_hexes(s: Scenario, hexes: Iterable[Hex], fn: Callable[[HexData], HexData], text: str) -> Command | None:
    hs = _on_map(s, hexes)
    m = s.map
    entries = dict(m.hexes)
    changed = set()
    for h in hs:
        old = entries.get(h, HexData())
        new = fn(old)
        if new != old:
            changed.add(h)
            if new == HexData():
                entries.pop(h, None)
            else:
                entries[h] = new
    if not changed:
        return None
    after = s.with_map(replace(m, hexes=MappingProxyType(entries)))
    return Command(text, s, after, Change(hexes=frozenset(changed), map=True))


def paint_terrain(s: Scenario, hexes: Iterable[Hex], terrain: Terrain) -> Command | None:
    """Terrain brush: set the terrain of ``hexes`` (the map default is stored as no entry)."""
    value = None if terrain == s.map.default_terrain else Terrain(terrain)

    def fn(d: HexData) -> HexData:
        # A hex painted out of building terrain leaves its building (A26.14: a building is its building hexes).
        building = d.building if terrain_table()[Terrain(terrain)].holds_building_id else None
        return replace(d, terrain=value, building=building)

    return _edit_hexes(s, hexes, fn, f"Paint {Terrain(terrain).value.replace('_', ' ')}")


def set_level(s: Scenario, hexes: Iterable[Hex], level: int) -> Command | None:
    """Level tool: ground level of ``hexes`` (schema range -1..10)."""
    if not -1 <= level <= 10:
        raise EditError(f"level {level} is outside -1..10")
    return _edit_hexes(s, hexes, lambda d: replace(d, level=level), f"Set level {level}")


def set_building(s: Scenario, hexes: Iterable[Hex], building: str | None) -> Command | None:
    """Building grouping: hexes sharing an id form one building (A26.14); None ungroups."""
    hs = list(hexes)
    if building is not None:
        for h in hs:
            if not terrain_table()[s.map.terrain_at(h)].holds_building_id:
                raise EditError(f"hex {h} has no building or rubble to group (A26.14)")
    text = f"Group building {building}" if building else "Ungroup building"
    return _edit_hexes(s, hs, lambda d: replace(d, building=building), text)


def set_outline(s: Scenario, h: Hex, outline: list[tuple[float, float]] | None) -> Command | None:
    """Custom obstacle outline of one hex for LOS, stored as the hex's ``"outline"`` field.

    Points are hex-local: centre (0, 0), circumradius 1, x right, y down; each
    must lie inside the hex (|x| <= 1, |y| <= sqrt(3)/2).  None removes it.
    """
    if outline is not None:
        pts = [(round(float(x), 4), round(float(y), 4)) for x, y in outline]
        if len(pts) < 3:
            raise EditError("an obstacle outline needs at least three points")
        for x, y in pts:
            if not _inside_unit_hex(x, y):
                raise EditError(f"outline point ({x}, {y}) lies outside hex {h}")

    def fn(d: HexData) -> HexData:
        extra = dict(d.extra)
        if outline is None:
            extra.pop("outline", None)
        else:
            extra["outline"] = [[x, y] for x, y in pts]
        return replace(d, extra=MappingProxyType(extra))

    return _edit_hexes(s, [h], fn, "Set obstacle outline" if outline else "Clear obstacle outline")


def _inside_unit_hex(x: float, y: float) -> bool:
    # Flat-topped hex of circumradius 1: |y| <= sqrt3/2 and sqrt3*|x| + |y| <= sqrt3 (with a tolerance).
    s3 = 3 ** 0.5
    eps = 1e-6
    return abs(y) <= s3 / 2 + eps and s3 * abs(x) + abs(y) <= s3 + eps


def _with_forts(s: Scenario, forts: Iterable[Fortification]) -> Scenario:
    return s.with_map(replace(s.map, fortifications=tuple(forts)))


def add_fortification(s: Scenario, kind: FortificationKind, hexes: Iterable[Hex], owner: str | None = None) -> Command | None:
    """Add ``hexes`` to a fortification of ``kind``.

    Trench-like works (trench, deep trench, wire) join an existing one of the
    same kind and owner that touches the new hexes, so a dragged line is one
    work; the others get one entry per placement.
    """
    kind = FortificationKind(kind)
    hs = _on_map(s, hexes)
    if owner is not None and owner not in s.sides:
        raise EditError(f"owner {owner!r} is not a side of this scenario")
    forts = list(s.map.fortifications)
    new = [h for h in dict.fromkeys(hs) if not any(f.kind is kind and h in f.hexes for f in forts)]
    if not new:
        return None
    joined = False
    if kind in (FortificationKind.TRENCH, FortificationKind.DEEP_TRENCH, FortificationKind.WIRE):
        for i, f in enumerate(forts):
            if f.kind is kind and f.owner == owner and any(n in f.hexes for h in new for n in (h, *h.neighbours())):
                forts[i] = replace(f, hexes=f.hexes + tuple(new))
                joined = True
                break
    if not joined:
        forts.append(Fortification(kind, tuple(new), owner))
    return Command(f"Add {kind.value.replace('_', ' ')}", s, _with_forts(s, forts), Change(hexes=frozenset(new), map=True))


def remove_fortification(s: Scenario, hexes: Iterable[Hex], kind: FortificationKind | None = None) -> Command | None:
    """Remove fortifications (of ``kind``, or all) from ``hexes``; emptied works disappear."""
    hs = set(_on_map(s, hexes))
    forts = []
    changed: set[Hex] = set()
    for f in s.map.fortifications:
        if kind is not None and f.kind is not FortificationKind(kind):
            forts.append(f)
            continue
        keep = tuple(h for h in f.hexes if h not in hs)
        changed |= set(f.hexes) - set(keep)
        if keep:
            forts.append(replace(f, hexes=keep, ladders=tuple(h for h in f.ladders if h in keep)))
    if not changed:
        return None
    return Command("Remove fortification", s, _with_forts(s, forts), Change(hexes=frozenset(changed), map=True))


def toggle_ladder(s: Scenario, h: Hex) -> Command | None:
    """Put or take away a ladder in a deep-trench hex (ASLGW 2.1.3)."""
    forts = list(s.map.fortifications)
    for i, f in enumerate(forts):
        if f.kind is FortificationKind.DEEP_TRENCH and h in f.hexes:
            ladders = tuple(x for x in f.ladders if x != h) if h in f.ladders else f.ladders + (h,)
            forts[i] = replace(f, ladders=ladders)
            text = "Add ladder" if h in ladders else "Remove ladder"
            return Command(text, s, _with_forts(s, forts), Change(hexes=frozenset({h}), map=True))
    raise EditError(f"hex {h} has no deep trench for a ladder (ASLGW 2.1.3)")


# ---------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------
def fresh_unit_id(s: Scenario, prefix: str, taken: Iterable[str] = ()) -> str:
    """A unit id ``prefix-N`` not used in ``s`` (nor in ``taken``)."""
    used = {u.id for u in s.units} | set(taken)
    n = 1
    while f"{prefix}-{n}" in used:
        n += 1
    return f"{prefix}-{n}"


def place_units(s: Scenario, units: Iterable[Unit], text: str | None = None) -> Command | None:
    """Add new units (ids must be new, hexes on the map, sides known)."""
    us = list(units)
    if not us:
        return None
    ids = {u.id for u in s.units}
    for u in us:
        if u.id in ids:
            raise EditError(f"unit id {u.id!r} is already used")
        if u.side not in s.sides:
            raise EditError(f"side {u.side!r} is not a side of this scenario")
        _on_map(s, [u.hex])
        ids.add(u.id)
    after = s.with_units(s.units + tuple(us))
    t = text or (f"Place {us[0].kind.value.replace('_', ' ')}" if len(us) == 1 else f"Place {len(us)} units")
    return Command(t, s, after, Change(hexes=frozenset(u.hex for u in us), units=frozenset(u.id for u in us)))


def move_units(s: Scenario, ids: Iterable[str], to: Hex) -> Command | None:
    """Move units to hex ``to`` (set-up placement, not a game move)."""
    _on_map(s, [to])
    ids = set(ids)
    missing = ids - {u.id for u in s.units}
    if missing:
        raise EditError(f"no unit {sorted(missing)[0]!r}")
    hexes = {to}
    units = []
    for u in s.units:
        if u.id in ids and u.hex != to:
            hexes.add(u.hex)
            units.append(replace(u, hex=to))
        else:
            units.append(u)
    if len(hexes) == 1:
        return None
    return Command(f"Move {len(ids)} unit{'s' if len(ids) > 1 else ''} to {to}", s, s.with_units(units), Change(hexes=frozenset(hexes), units=frozenset(ids)))


def delete_units(s: Scenario, ids: Iterable[str]) -> Command | None:
    """Delete units; formations they led lose their leader, platoons keep the others."""
    ids = set(ids)
    gone = [u for u in s.units if u.id in ids]
    if not gone:
        return None
    after = s.with_units(u for u in s.units if u.id not in ids)
    forms = tuple(replace(f, leader=None) if f.leader in ids else f for f in s.formations)
    after = replace(after, formations=forms)
    return Command(
        f"Delete {len(gone)} unit{'s' if len(gone) > 1 else ''}",
        s,
        after,
        Change(hexes=frozenset(u.hex for u in gone), units=frozenset(ids), formations=forms != s.formations),
    )


def update_units(s: Scenario, ids: Iterable[str], text: str = "Change units", **fields: Any) -> Command | None:
    """Set fields (``broken``, ``hidden``, ``position``, ``platoon``, ``unit_class``...) of units."""
    ids = set(ids)
    allowed = {"broken", "hidden", "position", "platoon", "unit_class", "rating", "weapon", "trench_armour", "side", "kind"}
    bad = set(fields) - allowed
    if bad:
        raise EditError(f"cannot set {', '.join(sorted(bad))} of a unit here")
    if "platoon" in fields and fields["platoon"] is not None and fields["platoon"] not in {f.id for f in s.formations}:
        raise EditError(f"no formation {fields['platoon']!r}")
    if "hidden" in fields:
        fields["hidden"] = HiddenStatus(fields["hidden"])
    units, hexes = [], set()
    for u in s.units:
        if u.id in ids:
            nu = replace(u, **fields)
            if nu != u:
                hexes.add(u.hex)
            units.append(nu)
        else:
            units.append(u)
    if not hexes:
        return None
    return Command(text, s, s.with_units(units), Change(hexes=frozenset(hexes), units=frozenset(ids)))


# ---------------------------------------------------------------------------
# Formations (ASLGW 1.1, 1.2.1) and dummies (O'Leary 2.1, 3.1, 4.6.1)
# ---------------------------------------------------------------------------
def set_formation(s: Scenario, formation: Formation, members: Iterable[str] | None = None) -> Command | None:
    """Create or change a formation; ``members`` (if given) become exactly its units."""
    forms = [f for f in s.formations]
    for i, f in enumerate(forms):
        if f.id == formation.id:
            forms[i] = formation
            break
    else:
        forms.append(formation)
    after = replace(s, formations=tuple(forms))
    hexes: set[Hex] = set()
    uids: set[str] = set()
    if members is not None:
        want = set(members)
        unknown = want - {u.id for u in s.units}
        if unknown:
            raise EditError(f"no unit {sorted(unknown)[0]!r}")
        units = []
        for u in after.units:
            p = formation.id if u.id in want else (None if u.platoon == formation.id else u.platoon)
            if p != u.platoon:
                hexes.add(u.hex)
                uids.add(u.id)
                u = replace(u, platoon=p)
            units.append(u)
        after = after.with_units(units)
    if formation.leader is not None:
        try:
            leader = after.unit(formation.leader)
        except KeyError:
            raise EditError(f"no unit {formation.leader!r} to lead {formation.id}") from None
        if leader.platoon != formation.id:
            after = after.with_unit(replace(leader, platoon=formation.id))
            hexes.add(leader.hex)
            uids.add(leader.id)
    if after == s:
        return None
    return Command(f"Formation {formation.id}", s, after, Change(hexes=frozenset(hexes), units=frozenset(uids), formations=True))


def delete_formation(s: Scenario, formation_id: str) -> Command | None:
    if formation_id not in {f.id for f in s.formations}:
        return None
    members = s.members(formation_id)
    after = replace(s, formations=tuple(f for f in s.formations if f.id != formation_id))
    after = after.with_units(replace(u, platoon=None) if u.platoon == formation_id else u for u in after.units)
    return Command(
        f"Delete formation {formation_id}",
        s,
        after,
        Change(hexes=frozenset(u.hex for u in members), units=frozenset(u.id for u in members), formations=True),
    )


def add_dummy(s: Scenario, dummy: Dummy) -> Command | None:
    if dummy.side not in s.sides:
        raise EditError(f"side {dummy.side!r} is not a side of this scenario")
    _on_map(s, [dummy.hex])
    if dummy.kind is DummyKind.DUMMY_STACK and (dummy.counters is None or dummy.counters < 1):
        raise EditError("a dummy stack needs a number of counters (O'Leary 2.3.2)")
    after = replace(s, dummies=s.dummies + (dummy,))
    return Command(f"Add {dummy.kind.value.replace('_', ' ')}", s, after, Change(hexes=frozenset({dummy.hex}), dummies=True))


def remove_dummy(s: Scenario, index: int) -> Command | None:
    if not 0 <= index < len(s.dummies):
        return None
    d = s.dummies[index]
    after = replace(s, dummies=s.dummies[:index] + s.dummies[index + 1:])
    return Command(f"Remove {d.kind.value.replace('_', ' ')}", s, after, Change(hexes=frozenset({d.hex}), dummies=True))


# ---------------------------------------------------------------------------
# Properties and map size
# ---------------------------------------------------------------------------
_PROPERTY_FIELDS = {"title", "date", "front", "weather", "winter", "night", "id", "sides", "game", "columns", "rows"}


def _card_error(s: Scenario) -> str | None:
    """The first problem of ``s``'s turn record and card (A26; the parsers ``gwasl validate`` uses)."""
    from gwasl.rules.card import CardError, scenario_card
    from gwasl.rules.turn_record import TurnRecordError, turn_record

    try:
        turn_record(s)
        scenario_card(s)
    except (CardError, TurnRecordError) as e:
        rule = getattr(e, "rule", "")
        return f"{e.path}: {e.message}" + (f" ({rule})" if rule else "")
    return None


def set_properties(s: Scenario, **fields: Any) -> Command | None:
    """Scenario properties as one undoable edit: title, date, front, weather, winter, night,
    sides (with gas and grenade overrides), the map size (``columns``, ``rows``: see
    :func:`resize_map`) and ``game``, the turn record and scenario card (docs/format/aslgw.md:
    turns, who sets up and moves first, set-up and entry areas, victory conditions, SSRs,
    Balance, ELR and SAN; ``None`` removes it).  A card the game could not play is refused
    with the field and the rule it breaks (A26 via :func:`gwasl.rules.card.scenario_card`)."""
    bad = set(fields) - _PROPERTY_FIELDS
    if bad:
        raise EditError(f"unknown scenario properties: {', '.join(sorted(bad))}")
    if "title" in fields and not str(fields["title"]).strip():
        raise EditError("a scenario needs a title")
    if "sides" in fields:
        sides = fields["sides"]
        if len(sides) < 2:
            raise EditError("a scenario needs at least two sides")
        fields["sides"] = MappingProxyType(dict(sides))
    columns, rows = fields.pop("columns", None), fields.pop("rows", None)
    card_before = _card_error(s) if ("game" in fields or columns is not None) else None
    if "game" in fields:
        game = fields.pop("game")
        if game is not None and not isinstance(game, Mapping):
            raise EditError("the scenario card must be an object")
        extra = {k: v for k, v in s.extra.items() if k != "game"}
        if game:
            extra["game"] = json.loads(json.dumps(game))  # a plain JSON copy: the dialog's lists are its own
        fields["extra"] = MappingProxyType(extra)
    after = replace(s, **fields)
    resized = False
    if columns is not None and rows is not None:
        grown = resize_map(after, columns, rows)
        if grown is not None:
            after, resized = grown.after, True
    if after == s:
        return None
    if "extra" in fields or resized:
        problem = _card_error(after)
        if problem is not None and problem != card_before:
            raise EditError(f"scenario card: {problem}")
    full = "sides" in fields or "date" in fields or resized  # counters show nationality colours and date-dependent factors
    return Command("Scenario properties", s, after, FULL if full else Change(properties=True))


def resize_map(s: Scenario, columns: int, rows: int) -> Command | None:
    """Change the map size; refused while units, dummies or works stand on hexes that would vanish."""
    if not (1 <= columns <= 208 and 1 <= rows <= 200):
        raise EditError("a map is 1..208 columns by 1..200 rows")
    if (columns, rows) == (s.map.columns, s.map.rows):
        return None
    keep = lambda h: h.on_board(columns, rows)  # noqa: E731
    lost = [u.id for u in s.units if not keep(u.hex)] + [d.kind.value for d in s.dummies if not keep(d.hex)]
    lost += [f.kind.value for f in s.map.fortifications for h in f.hexes if not keep(h)]
    if lost:
        raise EditError(f"{lost[0]} stands outside a {columns} x {rows} map; move or delete it first")
    hexes = {h: d for h, d in s.map.hexes.items() if keep(h)}
    after = s.with_map(replace(s.map, columns=columns, rows=rows, hexes=MappingProxyType(hexes)))
    return Command(f"Resize map to {columns} x {rows}", s, after, FULL)


# ASLGW 1.1 (platoon of six squads, half-platoon of three) and 1.2.1 (combat group of two).
FORMATION_SQUADS = {FormationKind.PLATOON: 6, FormationKind.HALF_PLATOON: 3, FormationKind.COMBAT_GROUP: 2}


def fresh_formation_id(s: Scenario, side: str) -> str:
    """A formation id such as ``G2``: the side's initial and the next free number."""
    used = {f.id for f in s.formations} | {u.id.split("-")[0] for u in s.units}
    prefix = side[:1].upper() or "P"
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def place_platoon(
    s: Scenario,
    side: str,
    at: Hex,
    kind: FormationKind = FormationKind.PLATOON,
    unit_class: UnitClass = UnitClass.FIRST_LINE,
    rating: str = "8-0",
    squads: int | None = None,
    formation_id: str | None = None,
) -> Command | None:
    """Place a whole formation in one step: its leader and its squads (ASLGW 1.1, 1.2.1, 1.3.4).

    >>> s = new_scenario()
    >>> c = place_platoon(s, "german", Hex.from_label("C3"), FormationKind.COMBAT_GROUP)
    >>> [u.id for u in c.after.units], c.after.formations[0].leader
    (['G1-L', 'G1-1', 'G1-2'], 'G1-L')
    """
    if side not in s.sides:
        raise EditError(f"side {side!r} is not a side of this scenario")
    _on_map(s, [at])
    kind = FormationKind(kind)
    n = FORMATION_SQUADS[kind] if squads is None else squads
    if n < 1:
        raise EditError("a formation needs at least one squad")
    fid = formation_id or fresh_formation_id(s, side)
    if fid in {f.id for f in s.formations}:
        raise EditError(f"formation id {fid!r} is already used")
    try:
        lr = LeaderRating.parse(rating)
    except LeaderRatingError as e:
        raise EditError(str(e)) from None
    leader_id = fresh_unit_id(s, fid, ()) if f"{fid}-L" in {u.id for u in s.units} else f"{fid}-L"
    units = [Unit(leader_id, side, UnitKind.LEADER, at, rating=lr, platoon=fid)]
    taken = {leader_id}
    for _ in range(n):
        uid = fresh_unit_id(s, fid, taken)
        taken.add(uid)
        units.append(Unit(uid, side, UnitKind.SQUAD, at, unit_class=UnitClass(unit_class), platoon=fid))
    after = replace(s, formations=s.formations + (Formation(fid, kind, leader_id),), units=s.units + tuple(units))
    return Command(f"Place {kind.value.replace('_', ' ')} {fid}", s, after, Change(hexes=frozenset({at}), units=frozenset(taken), formations=True))
