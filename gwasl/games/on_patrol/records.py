"""On Patrol's events and actions (vocabulary in docs/format/on-patrol.md).

Positions are hex labels (CONTRACTS 1) and headings direction indexes 0-5
(0 north, clockwise; Harmon's heading is ``index or 6``).  An event whose
``secret`` class attribute is ``True`` concerns the true submarine and is
seen only by viewers who know the submarine side's secrets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from gwasl.engine.events import ENGINE_EVENTS
from gwasl.engine.record import Record, Registry

EVENTS = Registry("on-patrol event", ENGINE_EVENTS)
ACTIONS = Registry("on-patrol action")

SUB_SIDE = "submarine"
ESCORT_SIDE = "escorts"


# -- actions ----------------------------------------------------------------------------
@ACTIONS.register
@dataclass(frozen=True)
class ConvoyMove(Record):
    """Phase 1: roll the Fleet Movement Table and move the convoy (104.3)."""

    kind: ClassVar[str] = "convoy_move"


@dataclass(frozen=True)
class Drop:
    """Weapons one escort fires into one assault-zone hex (105.4.6).  (A plain value inside
    an action: nested values carry no kind of their own.)"""

    hex: str
    weapon: str  # dc, kgun, hedgehog, squid
    count: int
    mk_x: int = 0
    rank: int = 0  # the hex's place in 105.4.4's priority order (1 = the target hex)


@dataclass(frozen=True)
class EscortPlan:
    """One escort's move and attack for phase 2, with the reasons (105, 106, 108)."""

    ship: str
    mode: int
    movement: str  # radial, diameter, ram
    speed: int
    steps: tuple[tuple[int, str, int], ...]  # (pivot, bow, heading) per hex
    maneuver: tuple[int, ...]
    drops: tuple[Drop, ...]
    target: str
    radial: int | None
    vector: int | None
    priority: tuple[str, ...]
    order: int
    why: str


@ACTIONS.register
@dataclass(frozen=True)
class EscortOrders(Record):
    """Phase 2: every free escort's move and attack, decided by Harmon's automaton."""

    kind: ClassVar[str] = "escort_orders"
    plans: tuple[EscortPlan, ...] = ()


@ACTIONS.register
@dataclass(frozen=True)
class Resolve(Record):
    """Phases 3-7: torpedoes, gunfire, star shells, search, attack resolution."""

    kind: ClassVar[str] = "resolve"


@ACTIONS.register
@dataclass(frozen=True)
class EndTurn(Record):
    """Phase 10: sinkings, the end of the game, the Escort Action Table."""

    kind: ClassVar[str] = "end_turn"


@ACTIONS.register
@dataclass(frozen=True)
class Dive(Record):
    """Change depth (25-foot steps), once a turn."""

    kind: ClassVar[str] = "dive"
    sub: str
    depth: int


@ACTIONS.register
@dataclass(frozen=True)
class Move(Record):
    """One hex ahead, after a pivot of ``turn`` (-1 port, 0, +1 starboard)."""

    kind: ClassVar[str] = "move"
    sub: str
    turn: int = 0


@ACTIONS.register
@dataclass(frozen=True)
class Pivot(Record):
    """A pivot after a hex moved this turn (one turn per hex)."""

    kind: ClassVar[str] = "pivot"
    sub: str
    turn: int


@ACTIONS.register
@dataclass(frozen=True)
class Launch(Record):
    """Fire the torpedo in ``tube`` (bow tubes first), gyro-angled ``gyro`` x 60 degrees."""

    kind: ClassVar[str] = "launch"
    sub: str
    tube: int
    gyro: int = 0


@ACTIONS.register
@dataclass(frozen=True)
class Reload(Record):
    """Phase 9: start reloading an empty tube with a torpedo of ``type``."""

    kind: ClassVar[str] = "reload"
    sub: str
    tube: int
    type: str


@ACTIONS.register
@dataclass(frozen=True)
class EndPhase(Record):
    """End the submarine's phase (8 to 9, 9 to 10)."""

    kind: ClassVar[str] = "end_phase"


@ACTIONS.register
@dataclass(frozen=True)
class BreakOff(Record):
    """End the patrol now (the escorts may begin a prolonged attack, mode 7)."""

    kind: ClassVar[str] = "break_off"


# -- events -----------------------------------------------------------------------------
@EVENTS.register
@dataclass(frozen=True)
class PatrolChosen(Record):
    kind: ClassVar[str] = "patrol_chosen"
    scenario: Mapping[str, Any]


@EVENTS.register
@dataclass(frozen=True)
class FormationChosen(Record):
    kind: ClassVar[str] = "formation"
    formation: int
    why: str


@EVENTS.register
@dataclass(frozen=True)
class ShipPlaced(Record):
    kind: ClassVar[str] = "ship_placed"
    ship: str
    bow: str
    heading: int
    station: str
    speed: int


@EVENTS.register
@dataclass(frozen=True)
class SubPlaced(Record):
    kind: ClassVar[str] = "sub_placed"
    secret: ClassVar[bool] = True
    sub: str
    bow: str
    heading: int
    depth: int


@EVENTS.register
@dataclass(frozen=True)
class PhaseBegan(Record):
    kind: ClassVar[str] = "phase"
    turn: int
    phase: int


@EVENTS.register
@dataclass(frozen=True)
class FleetOrderSet(Record):
    kind: ClassVar[str] = "fleet_order"
    convoy: str
    code: str
    emergency_code: str = ""
    capital_speed: int = 0


@EVENTS.register
@dataclass(frozen=True)
class ShipMoved(Record):
    """A ship's move: the (bow, heading) after each pivot or hex, and why."""

    kind: ClassVar[str] = "ship_moved"
    ship: str
    path: tuple[tuple[str, int], ...]
    speed: int
    why: str
    halted: bool = False
    mode: int = 1
    movement: str = "formation"
    target: str = ""
    radial: int | None = None
    vector: int | None = None
    maneuver: tuple[int, ...] = ()
    order: int = 0


@EVENTS.register
@dataclass(frozen=True)
class ChargesDropped(Record):
    kind: ClassVar[str] = "attack_placed"
    escort: str
    hex: str
    weapon: str
    count: int
    mk_x: int = 0
    rank: int = 0  # 105.4.4 priority of the hex in its assault zone (1 = the target hex)


@EVENTS.register
@dataclass(frozen=True)
class ShipLeft(Record):
    kind: ClassVar[str] = "ship_left"
    ship: str


@EVENTS.register
@dataclass(frozen=True)
class TorpedoLaunched(Record):
    kind: ClassVar[str] = "torpedo_launched"
    sub: str
    torpedo: str
    type: str
    tube: int
    hex: str
    heading: int


@EVENTS.register
@dataclass(frozen=True)
class TorpedoMoved(Record):
    kind: ClassVar[str] = "torpedo_moved"
    torpedo: str
    path: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class TorpedoGone(Record):
    kind: ClassVar[str] = "torpedo_gone"
    torpedo: str
    why: str


@EVENTS.register
@dataclass(frozen=True)
class ShipHit(Record):
    """A torpedo or gunfire hit on a surface ship; ``status`` after it."""

    kind: ClassVar[str] = "ship_hit"
    ship: str
    damage: int
    total: int
    status: str
    why: str


@EVENTS.register
@dataclass(frozen=True)
class ShipSunk(Record):
    kind: ClassVar[str] = "ship_sunk"
    ship: str


@EVENTS.register
@dataclass(frozen=True)
class SubMoved(Record):
    kind: ClassVar[str] = "sub_moved"
    secret: ClassVar[bool] = True
    sub: str
    bow: str
    heading: int
    turn: int
    hexes: int
    emergency: bool = False


@EVENTS.register
@dataclass(frozen=True)
class SubDived(Record):
    kind: ClassVar[str] = "sub_depth"
    secret: ClassVar[bool] = True
    sub: str
    depth: int


@EVENTS.register
@dataclass(frozen=True)
class SubTurnBegan(Record):
    """Phase 8 opens: the submarines' per-turn counts start afresh."""

    kind: ClassVar[str] = "sub_turn"


@EVENTS.register
@dataclass(frozen=True)
class MarkerSet(Record):
    """A submarine marker placed, moved, inverted or removed (``kind`` ``none``), 104.1.3."""

    kind: ClassVar[str] = "marker"
    sub: str
    marker: str  # sub, escort, inverted, torpedo, none
    bow: str
    heading: int
    surfaced: bool
    why: str


@dataclass(frozen=True)
class ForceRec:
    """One force of the Escort Action Table's result (inside :class:`ModeSet`)."""

    sub: str
    mode: int
    target: str
    facing: int
    bow: str
    escorts: tuple[str, ...]
    rammer: str = ""
    diameters: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


@EVENTS.register
@dataclass(frozen=True)
class ModeSet(Record):
    """The Escort Action Table for the coming turn (104.2.1)."""

    kind: ClassVar[str] = "mode"
    forces: tuple[ForceRec, ...]
    why: str


@EVENTS.register
@dataclass(frozen=True)
class StarShells(Record):
    kind: ClassVar[str] = "star_shells"
    firer: str
    hexes: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class SearchDone(Record):
    """Phase 6 for one submarine: who searched, and what the escorts learnt."""

    kind: ClassVar[str] = "search"
    sub: str
    result: str  # visible, sighted, contact, missed
    sonar_contacts: tuple[str, ...] = ()
    radar_contacts: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class SubSighted(Record):
    """Night visual search (47.0) sighted the submarine: visible until it moves (104.1.4 c)."""

    kind: ClassVar[str] = "sub_sighted"
    sub: str


@EVENTS.register
@dataclass(frozen=True)
class AttackResolved(Record):
    """One attack on one hex (105.4.12): the Depth Combat Table's band, and its effect."""

    kind: ClassVar[str] = "attack_resolved"
    escort: str
    hex: str
    weapon: str
    band: str


@EVENTS.register
@dataclass(frozen=True)
class SubDamaged(Record):
    kind: ClassVar[str] = "sub_damaged"
    secret: ClassVar[bool] = True
    sub: str
    damage: int
    total: int
    why: str


@EVENTS.register
@dataclass(frozen=True)
class SubSunk(Record):
    kind: ClassVar[str] = "sub_sunk"
    sub: str
    why: str
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class SubEscaped(Record):
    kind: ClassVar[str] = "sub_escaped"
    sub: str
    why: str


@EVENTS.register
@dataclass(frozen=True)
class Rammed(Record):
    kind: ClassVar[str] = "rammed"
    ship: str
    sub: str


@EVENTS.register
@dataclass(frozen=True)
class ReloadStarted(Record):
    kind: ClassVar[str] = "reload_started"
    secret: ClassVar[bool] = True
    sub: str
    tube: int
    type: str
    ready: int


@EVENTS.register
@dataclass(frozen=True)
class TubeLoaded(Record):
    kind: ClassVar[str] = "tube_loaded"
    secret: ClassVar[bool] = True
    sub: str
    tube: int
    type: str


@EVENTS.register
@dataclass(frozen=True)
class CapitalEmergency(Record):
    kind: ClassVar[str] = "capital_emergency"
    speed: int


@EVENTS.register
@dataclass(frozen=True)
class GameOver(Record):
    kind: ClassVar[str] = "game_over"
    result: Mapping[str, Any]
    reveals: bool = True
