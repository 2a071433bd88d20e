"""The state of an On Patrol game: immutable values only; ``game.reduce`` is the only way it changes.

:class:`EscortView` is what Harmon's automaton reads: the surface ships, the
torpedoes, the detection markers and the modes, never the true submarine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, TypeVar

from gwasl.games.on_patrol.geometry import DIRS, Pose
from gwasl.model.hexgrid import Hex

__all__ = [
    "PHASES",
    "evolve",
    "AttackMark",
    "EscortView",
    "Force",
    "Marker",
    "PatrolState",
    "Ship",
    "Sub",
    "Torpedo",
    "hx",
    "lab",
]

#: Harmon's ten-phase turn (design notes: phases 6, 8 and 10 are fixed by 104.1.3's table)
PHASES: Mapping[int, str] = MappingProxyType({
    1: "convoy movement", 2: "escort movement", 3: "torpedo movement", 4: "gunfire", 5: "star shells",
    6: "search", 7: "anti-submarine attack resolution", 8: "submarine", 9: "reload", 10: "end of turn",
})


@lru_cache(maxsize=65536)
def hx(label: str) -> Hex:
    """The hex of a CONTRACTS 1 label (cached: records carry labels)."""
    return Hex.from_label(label)


@lru_cache(maxsize=65536)
def lab(h: Hex) -> str:
    return h.label


T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass value with ``changes`` (no re-validation: the fields are
    already checked values).  ``reduce`` runs for every event, and ``dataclasses.replace``
    re-running ``__init__`` on the whole state was most of a turn's time."""
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new


@dataclass(frozen=True)
class Ship:
    """A surface ship: a two-hex counter (bow and heading) with its class data."""

    id: str
    name: str
    cls: str
    kind: str  # merchant, capital, escort
    type: str
    nation: str
    vp: int
    hit_points: int
    max_speed: int
    pose: Pose
    speed: int = 0
    damage: int = 0
    status: str = "afloat"  # afloat, diw (dead in the water), sinking, sunk, left
    in_formation: bool = True
    torpedoed_turn: int = 0
    sinks_turn: int = 0
    halted: bool = False  # stopped by 104.3.3
    maneuver: tuple[int, ...] = ()  # pivots left of a Williamson turn (105.2)
    diameter: int = 0  # the diameter this escort follows (106.2.4), 0 when none
    diameter_target: Hex | None = None
    mk_x_used: int = 0
    rammed: bool = False

    @property
    def afloat(self) -> bool:
        return self.status in ("afloat", "diw", "sinking")

    @property
    def moving(self) -> bool:
        return self.status == "afloat"

    def hexes(self) -> tuple[Hex, Hex]:
        return self.pose.hexes()


@dataclass(frozen=True)
class Sub:
    """A submarine (the player's): pose, depth in feet, tubes and reloads."""

    id: str
    name: str
    cls: str
    nation: str
    vp: int
    pose: Pose
    depth: int
    hull: int
    tubes: tuple[str, ...]  # torpedo type loaded in each tube, "" when empty
    bow_tubes: int
    reloads: int
    reloading: tuple[tuple[int, str, int], ...] = ()  # (tube, type, ready on turn)
    damage: int = 0
    status: str = "active"  # active, sunk, escaped
    emergency_left: int = 0
    # this turn (phase 8)
    moved: int = 0
    pivots: int = 0
    dived: bool = False
    start: Pose | None = None
    emergency: bool = False  # moved at emergency speed this turn (or last, for the search)
    fired: tuple[int, ...] = ()
    sighted: bool = False  # sighted by night visual search (104.1.4 c) until it moves

    @property
    def active(self) -> bool:
        return self.status == "active"

    def hexes(self) -> tuple[Hex, Hex]:
        return self.pose.hexes()


@dataclass(frozen=True, slots=True)
class Marker:
    """A submarine marker of 104.1.3: ``kind`` is ``sub`` (the sub's colour), ``escort``
    (escorts' colour), ``inverted`` (contact lost) or ``torpedo`` (inverted torpedo marker)."""

    sub: str
    kind: str
    pose: Pose
    surfaced: bool = False
    seq: int = 0  # when the sighting began (orders double and triple contacts)

    @property
    def target(self) -> Hex:
        """The target hex (105.1.3): ahead of a submarine marker's bow; a torpedo marker's own hex."""
        return self.pose.bow if self.kind == "torpedo" else self.pose.ahead

    @property
    def facing(self) -> int:
        return self.pose.heading


@dataclass(frozen=True)
class Torpedo:
    id: str
    sub: str
    type: str
    pose: Pose  # bow = the torpedo's hex
    speed: int
    range: int
    run: int = 0

    def path(self) -> tuple[Hex, ...]:
        """The hexes it will run through next torpedo movement phase (108.2.1)."""
        h, d = self.pose.bow, DIRS[self.pose.heading]
        out = []
        for _ in range(max(0, min(self.speed, self.range - self.run))):
            h = h + d
            out.append(h)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class AttackMark:
    """Anti-submarine weapons fired into a hex this turn (resolved in phase 7)."""

    escort: str
    hex: Hex
    weapon: str  # dc, kgun, hedgehog, squid
    count: int
    mk_x: int = 0


@dataclass(frozen=True, slots=True)
class Force:
    """The Escort Action Table's result for one submarine marker (104.2.1): the mode,
    the target hex and facing, and the escorts detailed to it."""

    sub: str
    mode: int
    target: Hex
    facing: int
    bow: Hex  # the marker's bow hex (mode 5's rammer steers on it)
    escorts: tuple[str, ...]
    rammer: str = ""


@dataclass(frozen=True)
class PatrolState:
    scenario: Mapping[str, Any]
    title: str
    year: int
    night: bool
    turns: int
    columns: int
    rows: int
    convoy: str  # fleet movement row: slow-1, slow-2, fast-2, fast-3
    ships: tuple[Ship, ...]
    subs: tuple[Sub, ...]
    victory: Mapping[str, int]
    secret: frozenset[str] = frozenset()
    turn: int = 0
    phase: int = 0
    started: bool = False
    markers: tuple[Marker, ...] = ()
    torpedoes: tuple[Torpedo, ...] = ()
    attacks: tuple[AttackMark, ...] = ()
    star_shells: tuple[Hex, ...] = ()
    forces: tuple[Force, ...] = ()
    fleet_code: str = ""
    convoy_paths: frozenset[Hex] = frozenset()
    sonar_contacts: frozenset[str] = frozenset()
    first_launch_turn: int = 0
    capital_speed: int = 0
    avgas_until: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    plans: tuple[Mapping[str, Any], ...] = ()  # last escort movement reasons, for the board
    seq: int = 0
    torpedo_count: int = 0
    over: bool = False
    result: Mapping[str, Any] | None = None
    formation: int = 0

    @property
    def index(self) -> Mapping[str, int]:
        """Where each ship stands in ``ships`` (ships never change places)."""
        idx: Mapping[str, int] | None = self.__dict__.get("_index")
        if idx is None or len(idx) != len(self.ships):
            idx = {s.id: i for i, s in enumerate(self.ships)}
            self.__dict__["_index"] = idx
        return idx

    def ship(self, sid: str) -> Ship:
        try:
            return self.ships[self.index[sid]]
        except (KeyError, IndexError):
            raise KeyError(sid) from None

    def sub(self, sid: str) -> Sub:
        for s in self.subs:
            if s.id == sid:
                return s
        raise KeyError(sid)

    def with_ship(self, ship: Ship) -> PatrolState:
        ships = list(self.ships)
        ships[self.index[ship.id]] = ship
        return evolve(self, ships=tuple(ships))

    def with_sub(self, sub: Sub) -> PatrolState:
        return evolve(self, subs=tuple(sub if s.id == sub.id else s for s in self.subs))

    def marker(self, sid: str) -> Marker | None:
        for m in self.markers:
            if m.sub == sid:
                return m
        return None

    def on_board(self, h: Hex) -> bool:
        return h.on_board(self.columns, self.rows)

    @property
    def has_convoy(self) -> bool:
        return any(s.kind in ("merchant", "capital") for s in self.ships)


@dataclass(frozen=True)
class EscortView:
    """What the escorts know (Harmon's automaton reads only this): every surface ship,
    the torpedoes (visible, 102.3), the markers, the forces, this turn's convoy paths and
    attack markers.  No submarine position, depth or damage is in it."""

    turn: int
    night: bool
    year: int
    columns: int
    rows: int
    ships: tuple[Ship, ...]
    markers: tuple[Marker, ...]
    torpedoes: tuple[Torpedo, ...]
    forces: tuple[Force, ...]
    convoy_paths: frozenset[Hex]
    attacks: tuple[AttackMark, ...]
    sonar_contacts: frozenset[str]
    has_convoy: bool

    @classmethod
    def of(cls, s: PatrolState) -> EscortView:
        return cls(s.turn, s.night, s.year, s.columns, s.rows, s.ships, s.markers, s.torpedoes, s.forces,
                   s.convoy_paths, s.attacks, s.sonar_contacts, s.has_convoy)
