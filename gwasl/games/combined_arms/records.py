"""The actions and events of Combined Arms (docs/format/combined-arms.md lists
every ``kind``).  Hexes are labels (``1a`` .. ``9g``), platoons their ids
(``D1`` .. ``A3``); a facing is a corner 0-5 (0 top-right, counter-clockwise)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from gwasl.engine.events import ENGINE_EVENTS
from gwasl.engine.record import Record, Registry
from gwasl.games.combined_arms.state import HexRoll
from gwasl.model.batched import FrozenBatch

# The standard frozen dataclasses, their methods compiled together at the end of the
# module (FrozenBatch: every Combined Arms command, batch play too, starts faster).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["ACTIONS", "EVENTS"]

ACTIONS = Registry("combined-arms action")
EVENTS = Registry("combined-arms event", ENGINE_EVENTS)


# -- your actions -------------------------------------------------------------------
@ACTIONS.register
@dataclass(frozen=True)
class Move(Record):
    """Enter the board or move (armour: to ``facing``; a 2-hex road move when ``to`` is 2 away)."""

    kind: ClassVar[str] = "move"
    unit: str
    to: str
    facing: int | None = None


@ACTIONS.register
@dataclass(frozen=True)
class Pivot(Record):
    """Armour changes facing without moving, in the move phase (it becomes spent)."""

    kind: ClassVar[str] = "pivot"
    unit: str
    facing: int


@ACTIONS.register
@dataclass(frozen=True)
class Withdraw(Record):
    kind: ClassVar[str] = "withdraw"
    unit: str


@ACTIONS.register
@dataclass(frozen=True)
class Exploit(Record):
    kind: ClassVar[str] = "exploit"
    unit: str


@ACTIONS.register
@dataclass(frozen=True)
class CallMortar(Record):
    """Call your mortars on a spotted hex before your platoons fire; ``ammo`` is ``he`` or ``smoke``."""

    kind: ClassVar[str] = "mortar"
    target: str
    ammo: str = "he"


@ACTIONS.register
@dataclass(frozen=True)
class Commit(Record):
    """Commit a fresh platoon to fire at a hex (armour: ending with ``facing``)."""

    kind: ClassVar[str] = "commit"
    unit: str
    target: str
    facing: int | None = None


@ACTIONS.register
@dataclass(frozen=True)
class Resolve(Record):
    """Roll for every platoon committed against the hex, in the order committed."""

    kind: ClassVar[str] = "resolve"


@ACTIONS.register
@dataclass(frozen=True)
class Face(Record):
    """Fresh armour changes facing in the fire phase without firing (it stays fresh)."""

    kind: ClassVar[str] = "face"
    unit: str
    facing: int


@ACTIONS.register
@dataclass(frozen=True)
class EndPhase(Record):
    kind: ClassVar[str] = "end_phase"


@ACTIONS.register
@dataclass(frozen=True)
class EndGame(Record):
    """End the game after the turn just played (CA Victory)."""

    kind: ClassVar[str] = "end_game"


@ACTIONS.register
@dataclass(frozen=True)
class RollNext(Record):
    """Roll next for this hex of the pending enemy fire or mortar impacts."""

    kind: ClassVar[str] = "roll_next"
    hex: str


@ACTIONS.register
@dataclass(frozen=True)
class BreakUnit(Record):
    """Choose the infantry platoon broken when the loss track passes from 7 to 0."""

    kind: ClassVar[str] = "break"
    unit: str


# -- the defender's actions -------------------------------------------------------------
@ACTIONS.register
@dataclass(frozen=True)
class EnemyMortar(Record):
    """The enemy mortars target a hex, or hold fire (``target`` null)."""

    kind: ClassVar[str] = "enemy_mortar"
    target: str | None = None


@ACTIONS.register
@dataclass(frozen=True)
class Activate(Record):
    """Activate the next enemy counters in order: every one but the last only
    recovers or holds; the last makes the chosen reveal tests."""

    kind: ClassVar[str] = "activate"
    hexes: tuple[str, ...]
    platoon_test: bool = False
    atg_test: bool = False


@ACTIONS.register
@dataclass(frozen=True)
class EnemyFire(Record):
    """A fresh revealed enemy platoon fires: at one armour platoon (or none), then at a cluster of hexes."""

    kind: ClassVar[str] = "enemy_fire"
    hex: str
    armour: str | None = None
    cluster: tuple[str, ...] = ()


# -- events ---------------------------------------------------------------------------
@EVENTS.register
@dataclass(frozen=True)
class BoardDiced(Record):
    """The terrain of every hex (reading order, after any turn); the defended
    hexes per third as diced; whether the board was turned so you attack from the top."""

    kind: ClassVar[str] = "board"
    terrain: tuple[str, ...]
    thirds: tuple[int, int, int]
    turned: bool


@EVENTS.register
@dataclass(frozen=True)
class CountersPlaced(Record):
    kind: ClassVar[str] = "counters"
    hexes: tuple[str, ...]
    atgs: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class PhaseBegun(Record):
    kind: ClassVar[str] = "phase"
    turn: int
    phase: str


@EVENTS.register
@dataclass(frozen=True)
class StageSet(Record):
    """Where the phase stands: the enemy's ``mortar``, ``activate``, ``fire`` (with the firing hex) or ``mortar_fall`` stage."""

    kind: ClassVar[str] = "stage"
    stage: str
    firing: str | None = None


@EVENTS.register
@dataclass(frozen=True)
class Moved(Record):
    kind: ClassVar[str] = "moved"
    unit: str
    to: str | None
    facing: int | None
    how: str


@EVENTS.register
@dataclass(frozen=True)
class Left(Record):
    """A platoon leaves the board: ``withdrawn`` or ``exploited``."""

    kind: ClassVar[str] = "left"
    unit: str
    how: str
    why: str


@EVENTS.register
@dataclass(frozen=True)
class Spent(Record):
    kind: ClassVar[str] = "spent"
    units: tuple[str, ...]
    why: str


@EVENTS.register
@dataclass(frozen=True)
class Recovered(Record):
    kind: ClassVar[str] = "recovered"
    units: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class Faced(Record):
    kind: ClassVar[str] = "faced"
    unit: str
    facing: int


@EVENTS.register
@dataclass(frozen=True)
class Committed(Record):
    kind: ClassVar[str] = "committed"
    unit: str
    target: str
    facing: int | None


@EVENTS.register
@dataclass(frozen=True)
class AttackDone(Record):
    kind: ClassVar[str] = "attack_done"
    target: str


@EVENTS.register
@dataclass(frozen=True)
class EnemySpent(Record):
    kind: ClassVar[str] = "enemy_spent"
    hex: str
    why: str


@EVENTS.register
@dataclass(frozen=True)
class EnemyRecovered(Record):
    kind: ClassVar[str] = "enemy_recovered"
    hexes: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class Activated(Record):
    """Enemy counters up to and including ``hex`` have been activated this phase."""

    kind: ClassVar[str] = "activated"
    hex: str
    notes: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class Revealed(Record):
    """A reveal roll decided a potential platoon (``platoon``) or its ATGs (``atg``)."""

    kind: ClassVar[str] = "revealed"
    hex: str
    what: str
    real: bool
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class EnemyBroken(Record):
    kind: ClassVar[str] = "enemy_broken"
    hex: str
    what: str


@EVENTS.register
@dataclass(frozen=True)
class TrackMoved(Record):
    """The loss, ammo or smoke ammo counter moved to ``value`` (``wrapped``: passed from 7 to 0)."""

    kind: ClassVar[str] = "track"
    track: str
    value: int
    wrapped: bool = False


@EVENTS.register
@dataclass(frozen=True)
class UnitBroken(Record):
    kind: ClassVar[str] = "broken"
    unit: str
    why: str


@EVENTS.register
@dataclass(frozen=True)
class MortarTarget(Record):
    """A mortar target counter placed (``hex``) or lifted (null) by ``side``."""

    kind: ClassVar[str] = "mortar_target"
    side: str
    hex: str | None
    ammo: str = "he"


@EVENTS.register
@dataclass(frozen=True)
class MortarFell(Record):
    kind: ClassVar[str] = "mortar_fell"
    side: str
    target: str
    corner: int
    hexes: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class SmokeChanged(Record):
    kind: ClassVar[str] = "smoke"
    placed: tuple[str, ...] = ()
    cleared: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class RollsPending(Record):
    """Rolls against hexes that the player may order (enemy fire, mortar impacts)."""

    kind: ClassVar[str] = "rolls"
    source: str
    rolls: tuple[HexRoll, ...]


@EVENTS.register
@dataclass(frozen=True)
class HexRolled(Record):
    kind: ClassVar[str] = "hex_rolled"
    hex: str
    hit: bool


@EVENTS.register
@dataclass(frozen=True)
class BreakPending(Record):
    kind: ClassVar[str] = "break_pending"
    hex: str
    count: int


@EVENTS.register
@dataclass(frozen=True)
class GameOver(Record):
    kind: ClassVar[str] = "game_over"
    result: Mapping[str, Any]


_BATCH.finish()  # every record above gets its __init__, __repr__, __eq__ and __hash__
