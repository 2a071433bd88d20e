"""Control of Locations, hexes and buildings (ASL A26.1-26.15).

A :class:`ControlMap` says which side Controls each Location, hex and
building.  Control is gained at scenario start from the set-up areas and
single-side boards (26.11) and during play whenever an armed Good Order
Infantry MMC occupies a Location with no armed enemy ground unit there
(26.11), the hex only from ground level (26.13), the building from any
non-rooftop, non-subterranean level of any of its hexes (26.14); a hex with a
pillbox (or a dugout, a bunker in all respects, ASLGW 2.2) only by a side that
Controls the pillbox Location too (26.132).  Control
is kept until the opponent gains it (26.1).  Dummies neither gain nor deny
Control; concealed and HIP units do, and their Control need not be
declared until game end (26.15): each change records whether it was made
by a hidden unit, so each side's view can show Control as that side knows it.

The fire rules of 26.16 (Kindling) do not apply: gwasl's Great War play has
no Fire (docs/rules-notes.md).

Worked example (A26.15, building 22U3), abridged:

>>> V2, V3, U3 = (Hex.from_label(x) for x in ("V2", "V3", "U3"))
>>> building = {V2: "22U3", V3: "22U3", U3: "22U3"}
>>> locs = [Location(h, lv) for h in (V2, V3, U3) for lv in (0, 1)]
>>> cm = ControlMap.initial({"German": frozenset(building)}, locs, building)
>>> russian = Occupant("447", "Russian", Location(V2, 0))
>>> cm, changes = cm.update([russian], building)
>>> sorted(c.what for c in changes)
['building 22U3', 'hex V2', 'location V2 level 0']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["ControlChange", "ControlMap", "Controller", "Location", "Occupant", "can_gain_control", "denies_control"]


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A Location: a hex, a level (0 = ground, 1+ upper levels, -1 subterranean) and a
    ``place`` that separates Locations at one level (ASLGW dugouts, 2.2.1)."""

    hex: Hex
    level: int = 0
    place: str = ""
    rooftop: bool = False

    @property
    def text(self) -> str:
        where = f"location {self.hex.label} level {self.level}"
        return where + (f" {self.place}" if self.place else "") + (" rooftop" if self.rooftop else "")


@dataclass(frozen=True, slots=True)
class Occupant:
    """A unit as Control sees it (A26.11, 26.15).

    ``mmc`` and ``infantry``: an Infantry Multi-Man Counter (squad, half-squad,
    crew); ``good_order``: neither broken nor otherwise out of Good Order;
    ``armed``: not a prisoner/unarmed; ``ground``: a ground unit (not aircraft);
    ``dummy``: a dummy counter; ``hidden``: concealed or HIP (Control need not be
    declared); ``bypass``: in bypass (cannot gain building Control, 26.11).
    """

    id: str
    side: str
    location: Location
    mmc: bool = True
    infantry: bool = True
    good_order: bool = True
    armed: bool = True
    ground: bool = True
    dummy: bool = False
    hidden: bool = False
    bypass: bool = False


def can_gain_control(u: Occupant) -> bool:
    """A26.11/26.15: an armed Good Order Infantry MMC, not a dummy, not in bypass."""
    return u.mmc and u.infantry and u.good_order and u.armed and not u.dummy and not u.bypass


def denies_control(u: Occupant) -> bool:
    """A26.11/26.15: an armed enemy ground unit (broken or not, concealed or HIP) denies
    Control of its Location/hex/building; a dummy or a subterranean unit does not."""
    return u.armed and u.ground and not u.dummy and u.location.level >= 0


@dataclass(frozen=True, slots=True)
class Controller:
    """Who Controls something: ``side``, whether a hidden unit gained it (A26.15: need
    not be declared) and who Controlled it before, as the other side still believes."""

    side: str
    hidden: bool = False
    before: str | None = None


@dataclass(frozen=True, slots=True)
class ControlChange:
    """One gain of Control: ``what`` ('location V2 level 0', 'hex V2', 'building 22U3')."""

    what: str
    side: str
    before: str | None
    hidden: bool
    rule: str


Kind = Literal["location", "hex", "building"]


@dataclass(frozen=True, slots=True)
class ControlMap:
    """Control of every Location, hex and building that someone Controls (A26.1)."""

    locations: Mapping[Location, Controller] = field(default_factory=lambda: MappingProxyType({}))
    hexes: Mapping[Hex, Controller] = field(default_factory=lambda: MappingProxyType({}))
    buildings: Mapping[str, Controller] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def initial(cls, setup_areas: Mapping[str, frozenset[Hex]], locations: Iterable[Location],
                buildings: Mapping[Hex, str]) -> ControlMap:
        """A26.11: at scenario start a side Controls every Location, hex and building in
        its set-up area, except where both sides' set-up areas meet.  (A board on which
        only one side sets up is part of that side's set-up area: pass it so.)

        A building is Controlled when all its hexes are in one side's area only.
        """
        owner: dict[Hex, str | None] = {}
        for side, area in setup_areas.items():
            for h in area:
                owner[h] = side if h not in owner else None
        locs = {loc: Controller(s) for loc in locations if (s := owner.get(loc.hex))}
        hexes = {h: Controller(s) for h, s in owner.items() if s}
        by_building: dict[str, set[str | None]] = {}
        for h, b in buildings.items():
            by_building.setdefault(b, set()).add(owner.get(h))
        blds = {b: Controller(only) for b, s in by_building.items() if len(s) == 1 and (only := next(iter(s)))}
        return cls(MappingProxyType(locs), MappingProxyType(hexes), MappingProxyType(blds))

    def controller(self, kind: Kind, key: Location | Hex | str) -> Controller | None:
        tables: dict[str, Mapping[Any, Controller]] = {"location": self.locations, "hex": self.hexes, "building": self.buildings}
        return tables[kind].get(key)

    def update(self, occupants: Iterable[Occupant], buildings: Mapping[Hex, str],
               bunkers: Mapping[Hex, Iterable[Location]] | None = None) -> tuple[ControlMap, list[ControlChange]]:
        """Control after the units now on the map have had their chance to gain it (A26.11-26.15).

        Call it after every event that moves, breaks, reveals or removes a unit:
        Control is gained during movement (a unit need not end its phase there),
        and as soon as the last armed enemy unit leaves or is eliminated.

        ``bunkers`` gives the pillbox Locations of a hex (ASLGW 2.2: a dugout is a bunker in
        all respects, so a pillbox): A26.132, such a hex is gained only by a side that
        Controls its pillbox Location(s) as well, occupying the hex with no armed enemy
        ground unit there (a unit in the pillbox occupies the hex).
        """
        units = list(occupants)
        deny_loc: dict[Location, set[str]] = {}
        deny_hex: dict[Hex, set[str]] = {}
        deny_bld: dict[str, set[str]] = {}
        for u in units:
            if denies_control(u):
                deny_loc.setdefault(u.location, set()).add(u.side)
                deny_hex.setdefault(u.location.hex, set()).add(u.side)
                b = buildings.get(u.location.hex)
                if b is not None:
                    deny_bld.setdefault(b, set()).add(u.side)
        # copied only when something changes: a game re-judges Control after every unit
        # event, and most leave it as it was (benchmarks/game.py: this was most of a replay)
        tables: dict[str, dict[Any, Controller]] = {}
        current: dict[str, Mapping[Any, Controller]] = {"location": self.locations, "hex": self.hexes, "building": self.buildings}
        changes: list[ControlChange] = []

        def put(kind: str, key: Any, value: Controller) -> None:
            if kind not in tables:
                old = current[kind]
                # a read-only view's copy() copies the dict beneath without hashing every key again
                tables[kind] = old.copy() if isinstance(old, (dict, MappingProxyType)) else dict(old)
            tables[kind][key] = value

        def holder(kind: str, key: Any) -> Controller | None:
            return tables[kind].get(key) if kind in tables else current[kind].get(key)

        def gain(kind: str, key: Any, u: Occupant, rule: str) -> None:
            cur = holder(kind, key)
            if cur is not None and cur.side == u.side:
                if cur.hidden and not u.hidden:  # now declared by a unit the enemy sees
                    put(kind, key, Controller(u.side, False, None))
                return
            before = cur.side if cur is not None else None
            # a hidden gain: the other side still believes the Control it knew of (A26.15),
            # which is its own or the last it saw: ``before`` either way
            put(kind, key, Controller(u.side, u.hidden, before if u.hidden else None))
            what = key.text if kind == "location" else f"hex {key.label}" if kind == "hex" else f"building {key}"
            changes.append(ControlChange(what, u.side, before, u.hidden, rule))

        for u in sorted(units, key=lambda x: (x.hidden, x.id)):  # visible gains first
            if not can_gain_control(u):
                continue
            loc = u.location
            if loc.level < 0:
                continue  # subterranean: no Control of Locations above (26.14)
            if deny_loc.get(loc, set()) - {u.side}:
                continue
            gain("location", loc, u, "A26.11")
            if loc.level == 0 and not loc.rooftop and not (deny_hex.get(loc.hex, set()) - {u.side}):
                held = [holder("location", b) for b in (bunkers or {}).get(loc.hex, ())]
                if all(c is not None and c.side == u.side for c in held):
                    gain("hex", loc.hex, u, "A26.132" if held else "A26.13")
            b = buildings.get(loc.hex)
            if b is not None and not loc.rooftop and not (deny_bld.get(b, set()) - {u.side}):
                gain("building", b, u, "A26.14")
        if not tables:
            return self, changes

        def table(kind: str, old: Mapping[Any, Controller]) -> Mapping[Any, Controller]:
            return MappingProxyType(tables[kind]) if kind in tables else old

        new = replace(self, locations=table("location", self.locations), hexes=table("hex", self.hexes),
                      buildings=table("building", self.buildings))
        return new, changes

    def as_known_by(self, side: str | None) -> ControlMap:
        """Control as ``side`` knows it (``None``: the whole truth).  Control the other
        side gained with hidden units shows as the Control ``side`` last knew (A26.15)."""
        if side is None:
            return self

        def seen(table: Mapping[Any, Controller]) -> Mapping[Any, Controller]:
            out: dict[Any, Controller] = {}
            for k, c in table.items():
                if c.hidden and c.side != side:
                    if c.before is not None:
                        out[k] = Controller(c.before)
                else:
                    out[k] = Controller(c.side)
            return MappingProxyType(out)

        return ControlMap(seen(self.locations), seen(self.hexes), seen(self.buildings))

    def declared(self) -> ControlMap:
        """Control at game end, when all of it is declared (A26.15)."""
        def plain(table: Mapping[Any, Controller]) -> Mapping[Any, Controller]:
            return MappingProxyType({k: Controller(c.side) for k, c in table.items()})

        return ControlMap(plain(self.locations), plain(self.hexes), plain(self.buildings))


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
