"""The actions and events of a Great War scenario in play (vocabulary in
docs/format/aslgw.md).

Actions are what a side asks for; events are the facts the game records.
Every event carries what each viewer needs to read it (``event_view`` has
no state): which units the enemy could see, how many "?" counters moved,
and the truth, which only viewers who know that side's secrets are shown.
Rolls of the shared stream are engine :class:`~gwasl.engine.events.Rolled`
events; rolls gwasl makes for a hidden layer kept secret from the player
come from that side's own stream and ride inside the one private event of
the order (:class:`SecretRoll`), so that what the player sees, down to the
event numbers and every later public die, does not depend on what is hidden
(CONTRACTS 5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from gwasl.engine.events import ENGINE_EVENTS, Drm
from gwasl.engine.record import Record, Registry

__all__ = [
    "ACTIONS",
    "EVENTS",
    "Attempt",
    "ConcealmentLost",
    "Detach",
    "Detached",
    "DoubleTime",
    "DoubleTimed",
    "DummyRemoved",
    "EndImpulse",
    "EndPhase",
    "EndPlatoon",
    "EndWindow",
    "Exit",
    "Exited",
    "HipRevealed",
    "ImpulseEnded",
    "ImpulseStep",
    "Judged",
    "MinefieldChoice",
    "MinefieldEntered",
    "MinefieldShifted",
    "Move",
    "MovePile",
    "Moved",
    "NtcTaken",
    "Opened",
    "Over",
    "PhaseBegan",
    "PlatoonDone",
    "Resolved",
    "RunWindow",
    "SecretRoll",
    "Shift",
    "ShiftResolved",
    "ShiftSeen",
    "ShiftWindow",
    "Stopped",
    "WindowEnded",
]

ACTIONS = Registry("aslgw action")
EVENTS = Registry("aslgw event", ENGINE_EVENTS)


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------
@ACTIONS.register
@dataclass(frozen=True)
class EndPhase(Record):
    """End the current phase (A3): the next phase, player turn or game turn begins."""

    kind: ClassVar[str] = "end_phase"


@ACTIONS.register
@dataclass(frozen=True)
class EndWindow(Record):
    """End ``side``'s shift window at the start of this phase (O'Leary 3.3.2: the enemy MPh)."""

    kind: ClassVar[str] = "end_window"
    side: str


@ACTIONS.register
@dataclass(frozen=True)
class RunWindow(Record):
    """gwasl's shift policy acts for ``side``, whose hidden layer it keeps, at this window
    (O'Leary 2.3, 3.3.2, 5.1; gwasl/rules/fog/policy.py)."""

    kind: ClassVar[str] = "shift_policy"
    side: str


@ACTIONS.register
@dataclass(frozen=True)
class Move(Record):
    """Move ``pieces`` (unit ids, and dummy stack ids of the mover's own hidden layer)
    one location: to hex ``to``, position ``to_in``.  ``mode``: ``normal``,
    ``assault`` (Assault Movement, A4.61) or ``advance`` (APh, A4.7).  ``blind``:
    ordered by a viewer who does not see the side's hidden layer (gwasl resolves
    it on the side's own dice and reveals what the truth forbids)."""

    kind: ClassVar[str] = "move"
    pieces: tuple[str, ...]
    to: str
    to_in: str = "ground"
    mode: str = "normal"
    blind: bool = False


@ACTIONS.register
@dataclass(frozen=True)
class MovePile(Record):
    """Move every "?" counter of ``side`` at ``at`` (position ``at_in``) one location, as
    ordered by someone who may not see beneath them; gwasl resolves it."""

    kind: ClassVar[str] = "move_pile"
    side: str
    at: str
    at_in: str
    cloaked: bool
    to: str
    to_in: str = "ground"
    mode: str = "normal"


@ACTIONS.register
@dataclass(frozen=True)
class DoubleTime(Record):
    """Declare Double Time for ``pieces``: +2 MF and CX at once (A4.5)."""

    kind: ClassVar[str] = "double_time"
    pieces: tuple[str, ...]


@ACTIONS.register
@dataclass(frozen=True)
class ImpulseStep(Record):
    """In the current impulse of ``platoon``, member ``unit`` enters the next location
    (ASLGW 1.4.1; one location per member and impulse)."""

    kind: ClassVar[str] = "impulse_step"
    platoon: str
    unit: str
    to: str
    to_in: str = "ground"
    blind: bool = False


@ACTIONS.register
@dataclass(frozen=True)
class EndImpulse(Record):
    """End the impulse: every moving member pays what the one that spent most spent,
    and formation must hold (ASLGW 1.4.1, 1.4.11)."""

    kind: ClassVar[str] = "end_impulse"
    platoon: str


@ACTIONS.register
@dataclass(frozen=True)
class Detach(Record):
    """Set ``unit`` free of ``platoon`` (ASLGW 1.4.13): it moves as a free squad once the
    platoon's movement is done."""

    kind: ClassVar[str] = "detach"
    platoon: str
    unit: str


@ACTIONS.register
@dataclass(frozen=True)
class EndPlatoon(Record):
    """The movement of ``platoon`` is done for this MPh (ASLGW 1.4.13: its free squads may move now)."""

    kind: ClassVar[str] = "end_platoon"
    platoon: str


@ACTIONS.register
@dataclass(frozen=True)
class Shift(Record):
    """A shift attempt (O'Leary 2.3, 3.3, 5.1): ``ledger`` ``dummy`` or ``cloaked``
    names two "?" stacks of ``side`` (ids ``a`` and ``b``); ``hip`` names two hexes."""

    kind: ClassVar[str] = "shift"
    ledger: str
    side: str
    a: str
    b: str


@ACTIONS.register
@dataclass(frozen=True)
class MinefieldChoice(Record):
    """O'Leary 4.6.2: the owner of the entered minefield tries to exchange it with
    ``other`` (a minefield id), or does not (``other`` null)."""

    kind: ClassVar[str] = "minefield_shift"
    minefield: str
    other: str | None = None


# ---------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SecretRoll(Record):
    """A roll from the private stream of a side whose hidden layer gwasl keeps: ``n``
    is the position of its first die in that stream."""

    kind: ClassVar[str] = "secret_roll"
    n: int
    cause: str
    dice: tuple[int, ...]
    modifiers: tuple[Drm, ...] = ()
    final: int = 0

    def explain(self) -> str:
        mods = "".join(f" {m.value:+d} ({m.cause})" for m in self.modifiers)
        return f"{self.cause}: {'+'.join(map(str, self.dice))}{mods} = {self.final}"


@EVENTS.register
@dataclass(frozen=True)
class Opened(Record):
    """The game opens: the scenario, its turn record and the sides gwasl keeps secret."""

    kind: ClassVar[str] = "opened"
    title: str
    turns: int
    order: tuple[str, str]
    first_setup: str
    secret: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class PhaseBegan(Record):
    """A phase of ``phasing``'s player turn begins (A3); ``windows``: sides whose shift
    window opens first (O'Leary 2.3, 3.3.2, 5.1)."""

    kind: ClassVar[str] = "phase"
    turn: int
    phasing: str
    phase: str
    windows: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class WindowEnded(Record):
    kind: ClassVar[str] = "window_closed"
    side: str


@EVENTS.register
@dataclass(frozen=True)
class Over(Record):
    """The last turn is over."""

    kind: ClassVar[str] = "over"
    why: str


@EVENTS.register
@dataclass(frozen=True)
class NtcTaken(Record):
    """A Normal Task Check to move (ASLGW 1.3.2, 1.4.13), rolled on the shared stream
    (the :class:`Rolled` event before it); ``private_to`` the unit's side while it is
    hidden from the enemy."""

    kind: ClassVar[str] = "ntc"
    side: str
    unit: str
    rule: str
    morale: int
    final: int
    passed: bool
    private_to: str | None = None


@EVENTS.register
@dataclass(frozen=True)
class Resolved(Record):
    """gwasl resolved an order given blind to ``side``'s "?" counters (or units whose
    side it keeps secret): the rolls it made on that side's stream and why."""

    kind: ClassVar[str] = "hidden_order"
    side: str
    rolls: tuple[SecretRoll, ...] = ()
    notes: tuple[str, ...] = ()
    passed: tuple[str, ...] = ()  # units that passed their NTC (ASLGW 1.3.2: for the player turn)
    failed: tuple[str, ...] = ()  # units that failed it (no move this phase)
    freed: tuple[str, ...] = ()  # platoon members that leave platoon movement as free squads (ASLGW 1.4.13)


@EVENTS.register
@dataclass(frozen=True)
class Moved(Record):
    """Pieces of ``side`` moved one location (A4.1): ``units`` (real, with the support
    weapons they carry) and ``dummies`` (dummy stack ids); ``shown`` the units the
    enemy sees and ``counters`` the "?" counters it sees move.  ``mf`` is the cost
    of the step (within a ``platoon``'s impulse it is charged at the impulse's end,
    ASLGW 1.4.1); ``ends`` when the
    step ends the movement (wire, Assault Move, advance); ``cx`` when it makes the
    movers CX at the end of the MPh (ASLGW 2.1.3)."""

    kind: ClassVar[str] = "moved"
    side: str
    units: tuple[str, ...]
    dummies: tuple[str, ...]
    shown: tuple[str, ...]
    counters: int
    frm: str
    frm_in: str
    to: str
    to_in: str
    mf: float
    mode: str = "normal"
    why: tuple[str, ...] = ()
    ends: bool = False
    cx: bool = False
    platoon: str | None = None


@EVENTS.register
@dataclass(frozen=True)
class DoubleTimed(Record):
    """A4.5: +2 MF, CX now."""

    kind: ClassVar[str] = "double_time"
    side: str
    units: tuple[str, ...]
    shown: tuple[str, ...]
    counters: int
    at: str


@EVENTS.register
@dataclass(frozen=True)
class ConcealmentLost(Record):
    """Units of ``side`` lose concealment (or HIP) and are seen for what they are."""

    kind: ClassVar[str] = "concealment_lost"
    side: str
    units: tuple[str, ...]
    at: str
    why: str
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class DummyRemoved(Record):
    """Dummy "?" counters of ``side`` are revealed and removed (A12.14, A12.15)."""

    kind: ClassVar[str] = "dummy_removed"
    side: str
    stacks: tuple[str, ...]
    at: str
    at_in: str
    counters: int
    why: str
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class HipRevealed(Record):
    """HIP pieces of ``side`` at ``at`` are revealed (O'Leary 3.4): units seen, dummy HIP
    removed, hidden fortifications known."""

    kind: ClassVar[str] = "hip_revealed"
    side: str
    at: str
    units: tuple[str, ...]
    dummies: int
    fortifications: tuple[str, ...]
    why: str
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class Stopped(Record):
    """Movers of ``side`` did not enter ``to``: a failed NTC, an order the truth made
    impossible, or hidden enemy units holding the location (A12.15).  ``ends``: their
    movement this phase is over."""

    kind: ClassVar[str] = "stopped"
    side: str
    units: tuple[str, ...]
    dummies: tuple[str, ...]
    shown: tuple[str, ...]
    counters: int
    at: str
    at_in: str
    to: str
    to_in: str
    why: str
    ends: bool = False
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class ImpulseEnded(Record):
    """ASLGW 1.4.1: the impulse is over; each moving member pays ``mf``."""

    kind: ClassVar[str] = "impulse"
    side: str
    platoon: str
    mf: float
    units: tuple[str, ...]
    detached: tuple[str, ...] = ()
    public: bool = True  # every mover seen by the enemy


@EVENTS.register
@dataclass(frozen=True)
class Detached(Record):
    kind: ClassVar[str] = "detached"
    side: str
    platoon: str
    unit: str
    public: bool = True


@EVENTS.register
@dataclass(frozen=True)
class PlatoonDone(Record):
    kind: ClassVar[str] = "platoon_done"
    side: str
    platoon: str
    public: bool = True


@dataclass(frozen=True)
class Attempt(Record):
    """One shift attempt of gwasl's policy (in a :class:`ShiftWindow`)."""

    kind: ClassVar[str] = "attempt"
    ledger: str
    a: str
    b: str
    roll: SecretRoll
    band: str
    why: str
    notes: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class ShiftWindow(Record):
    """gwasl's shift policy at ``side``'s window: every decision explained and every
    attempt with its roll (from ``side``'s stream).  Private to ``side``."""

    kind: ClassVar[str] = "shift_window"
    side: str
    phase: str
    attempts: tuple[Attempt, ...] = ()
    explanation: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class ShiftResolved(Record):
    """A shift attempt asked for by the player (O'Leary 2.5), rolled on the shared
    stream (the private :class:`Rolled` before it)."""

    kind: ClassVar[str] = "shift"
    side: str
    ledger: str
    a: str
    b: str
    dice: tuple[int, ...]
    final: int
    band: str
    notes: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class ShiftSeen(Record):
    """What the enemy sees of a shift's outcome (O'Leary 2.5: dummies removed, units revealed)."""

    kind: ClassVar[str] = "shift_seen"
    side: str
    lines: tuple[str, ...]
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class MinefieldEntered(Record):
    """A unit of ``by`` entered ``owner``'s minefield at ``at`` whose strength is not
    revealed (O'Leary 4.6.2): the owner may try to exchange it."""

    kind: ClassVar[str] = "minefield"
    owner: str
    by: str
    minefield: str
    at: str
    was_hidden: bool
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class MinefieldShifted(Record):
    """O'Leary 4.6.2: the owner's decision and, if it tried, the shift DR; both strengths
    are then revealed (the entered one alone when it did not try)."""

    kind: ClassVar[str] = "minefield_shift"
    owner: str
    minefield: str
    other: str | None
    dice: tuple[int, ...] = ()
    final: int = 0
    band: str = ""
    lines: tuple[str, ...] = ()
    reveals: bool = True


# ---------------------------------------------------------------------------
# Victory (A26): gwasl/games/aslgw/victory.py
# ---------------------------------------------------------------------------
@ACTIONS.register
@dataclass(frozen=True)
class Exit(Record):
    """Units leave the map through their side's exit area in the MPh (A26.23: exit VP)."""

    kind: ClassVar[str] = "exit"
    pieces: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class Exited(Record):
    """Units left the map through the exit area (A26.23): ``vp`` the exit VP they give;
    exiting shows them (a unit leaving the map is seen going)."""

    kind: ClassVar[str] = "exited"
    side: str
    units: tuple[str, ...]
    at: tuple[str, ...]
    vp: int


@EVENTS.register
@dataclass(frozen=True)
class Judged(Record):
    """The scenario's victory conditions judged (A26): at game end, or at once where the
    card says so.  ``met``: the sides whose conditions hold; ``details``: each condition's
    tally, every VP with its source; ``control_*``: Control at the end, all of it declared
    (A26.15)."""

    kind: ClassVar[str] = "victory"
    winner: str | None
    why: str
    immediate: bool
    met: tuple[str, ...]
    details: tuple[str, ...]
    cvp: Mapping[str, int]
    exit_vp: Mapping[str, int]
    control_hexes: Mapping[str, str]
    control_buildings: Mapping[str, str]
