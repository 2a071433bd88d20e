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

Fire, rally, rout, close combat, Bayonet Charge and gas (issue 12) come after
movement, the fog layer and victory: every die is an engine ``Rolled`` event
just before the event that reads it, and the state changes an attack makes are
spelled out one by one (:class:`UnitHit`, :class:`WeaponChanged`...), so that
reducing needs nothing but the event.  Every record keeps its ``kind``, the
name journals store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from gwasl.engine.events import ENGINE_EVENTS, Drm
from gwasl.engine.record import Record, Registry
from gwasl.games.aslgw.state import ChargeMove
from gwasl.model.batched import FrozenBatch

# The standard frozen dataclasses, their methods compiled together at the end of the
# module (FrozenBatch: a tenth of a second less for every command that opens a game).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "ACTIONS",
    "COMBAT_ACTIONS",
    "EVENTS",
    "Attempt",
    "BayonetCharge",
    "ChargeDeclared",
    "ChargeImpulse",
    "ChargeStep",
    "ChargeStepped",
    "CloseCombat",
    "CloseCombatResolved",
    "ConcealmentGained",
    "ConcealmentLost",
    "Detach",
    "Detached",
    "DoubleTime",
    "DoubleTimed",
    "DummyRemoved",
    "EndChargeImpulse",
    "EndImpulse",
    "EndPhase",
    "EndPlatoon",
    "EndWindow",
    "Exit",
    "Exited",
    "Fire",
    "FireConsidered",
    "FireGroupAdd",
    "FireGroupDeclared",
    "FireGroupDrop",
    "FireGroupDropped",
    "FireNtc",
    "FireResolved",
    "FormationChanged",
    "GasHidden",
    "GasReleased",
    "HipRevealed",
    "ImpulseEnded",
    "ImpulseStep",
    "Judged",
    "Marked",
    "MeleeChanged",
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
    "Rally",
    "RallyResolved",
    "ReleaseGas",
    "RemoveGasMask",
    "Repair",
    "ResidualPlaced",
    "Resolved",
    "Rout",
    "Routed",
    "RunWindow",
    "SecretRoll",
    "Shift",
    "ShiftResolved",
    "ShiftSeen",
    "ShiftWindow",
    "SniperStruck",
    "Stopped",
    "UnitHit",
    "WeaponChanged",
    "WindowEnded",
    "Withdraw",
    "Withdrew",
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
    """The last turn is over; ``judged``: the verdict that ends it was just given (its
    line says why, the log says it once)."""

    kind: ClassVar[str] = "over"
    why: str
    judged: bool = False


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


# ---------------------------------------------------------------------------
# Fire and close combat (issue 12): actions
# ---------------------------------------------------------------------------
@ACTIONS.register
@dataclass(frozen=True)
class Fire(Record):
    """Fire at the Location ``at`` / ``at_in`` with ``firers``: units (their inherent
    FP), support weapons, and leaders directing the fire of units stacked with
    them (ASLGW 1.3).  ``mode``: ``prep`` (PFPh), ``first`` (Defensive First Fire,
    A8.1), ``subsequent`` (SFF, A8.3), ``fpf`` (Final Protective Fire, A8.31),
    ``final`` (DFPh, A8.4), ``advancing`` (AFPh, A7.25)."""

    kind: ClassVar[str] = "fire"
    firers: tuple[str, ...]
    at: str
    at_in: str = "ground"
    mode: str = "prep"


@ACTIONS.register
@dataclass(frozen=True)
class FireGroupAdd(Record):
    """Form a fire group one firer at a time (A7.5): ``firers`` the parts picked so far
    (the first one alone starts the group), fired at ``at`` / ``at_in`` in ``mode``
    once complete (a :class:`Fire` of the group)."""

    kind: ClassVar[str] = "fire_group"
    firers: tuple[str, ...]
    at: str
    at_in: str = "ground"
    mode: str = "prep"


@ACTIONS.register
@dataclass(frozen=True)
class FireGroupDrop(Record):
    """Give up the fire group being formed (nothing has fired)."""

    kind: ClassVar[str] = "drop_fire_group"


@ACTIONS.register
@dataclass(frozen=True)
class ReleaseGas(Record):
    """Release ``side``'s gas attack number ``index`` of the scenario (ASLGW 1.9; docs/format/aslgw.md)."""

    kind: ClassVar[str] = "release_gas"
    side: str
    index: int


@ACTIONS.register
@dataclass(frozen=True)
class RemoveGasMask(Record):
    """Remove ``unit``'s gas protection: 1 MF in its MPh (ASLGW 1.9.16)."""

    kind: ClassVar[str] = "remove_gas_protection"
    unit: str


@ACTIONS.register
@dataclass(frozen=True)
class BayonetCharge(Record):
    """Declare a Bayonet Charge of ``units`` towards hex direction ``direction``
    (0..5: N, NE, SE, S, SW, NW) in the MPh (ASLGW 1.5)."""

    kind: ClassVar[str] = "bayonet_charge"
    units: tuple[str, ...]
    direction: int


@ACTIONS.register
@dataclass(frozen=True)
class ChargeStep(Record):
    """In the current BCh impulse, ``unit`` enters ``to`` (A25.231 via ASLGW 1.5)."""

    kind: ClassVar[str] = "charge_step"
    unit: str
    to: str
    to_in: str = "ground"


@ACTIONS.register
@dataclass(frozen=True)
class EndChargeImpulse(Record):
    """End the BCh impulse: every BCh unit has entered a new hex (A25.231); the
    defender may then fire (ASLGW 1.5)."""

    kind: ClassVar[str] = "end_charge_impulse"


@ACTIONS.register
@dataclass(frozen=True)
class Rally(Record):
    """Attempt to rally broken ``unit`` (A10.6; ASLGW 1.3 leadership)."""

    kind: ClassVar[str] = "rally"
    unit: str


@ACTIONS.register
@dataclass(frozen=True)
class Repair(Record):
    """Attempt to repair malfunctioned ``weapon`` (A9.72)."""

    kind: ClassVar[str] = "repair"
    weapon: str


@ACTIONS.register
@dataclass(frozen=True)
class Rout(Record):
    """Rout broken ``unit`` to ``to`` / ``to_in`` (A10.5), by Low Crawl when ``low_crawl`` (A10.52)."""

    kind: ClassVar[str] = "rout"
    unit: str
    to: str
    to_in: str = "ground"
    low_crawl: bool = False


@ACTIONS.register
@dataclass(frozen=True)
class CloseCombat(Record):
    """Resolve the close combat in Location ``at`` (``area``: ``hex`` or ``dugout``,
    ASLGW 2.2.1): CC or Hand-to-Hand as ASLGW 1.10 decides, ambush (A11.4)."""

    kind: ClassVar[str] = "close_combat"
    at: str
    area: str = "hex"


@ACTIONS.register
@dataclass(frozen=True)
class Withdraw(Record):
    """``units`` withdraw from the Melee at ``at`` to ``to`` (A11.2)."""

    kind: ClassVar[str] = "withdraw"
    units: tuple[str, ...]
    at: str
    to: str
    to_in: str = "ground"


COMBAT_ACTIONS = (Fire, FireGroupAdd, FireGroupDrop, ReleaseGas, RemoveGasMask, BayonetCharge, ChargeStep, EndChargeImpulse, Rally, Repair,
                  Rout, CloseCombat, Withdraw)


# ---------------------------------------------------------------------------
# Fire and close combat (issue 12): events
# ---------------------------------------------------------------------------
@EVENTS.register
@dataclass(frozen=True)
class FireResolved(Record):
    """A fire attack read on the IFT (A7.3) after its roll: ``fp`` the total,
    ``column`` the IFT column used, ``drm`` and ``final``, one result per target
    group (``results``: ``label: result``), and the weapons that kept their RoF,
    malfunctioned or were used up.  ``parts`` explain each firer's FP."""

    kind: ClassVar[str] = "fire"
    side: str
    mode: str
    firers: tuple[str, ...]
    at: str
    at_in: str
    target_side: str
    fp: str
    drm: int
    final: int
    results: tuple[str, ...]
    parts: tuple[str, ...] = ()
    rof_kept: tuple[str, ...] = ()
    malfunctioned: tuple[str, ...] = ()
    used_up: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    #: the attack's FP and why (each firer's FP and the factors on it), as a player reads it
    fp_why: str = ""
    #: per target group, the IFT column the attack used and why (area fire A7.23, cowering A7.9)
    columns: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class FireGroupDeclared(Record):
    """``side``'s fire group so far (A7.5): its parts, target and mode."""

    kind: ClassVar[str] = "fire_group"
    side: str
    firers: tuple[str, ...]
    at: str
    at_in: str
    mode: str


@EVENTS.register
@dataclass(frozen=True)
class FireGroupDropped(Record):
    """``side`` gave up the fire group it was forming."""

    kind: ClassVar[str] = "fire_group_dropped"
    side: str


@EVENTS.register
@dataclass(frozen=True)
class FireNtc(Record):
    """ASLGW 1.3.2: an Out of Command unit's NTC to fire (the roll before it).  It shows
    the unit's command status, which may depend on hidden leaders: a reveal."""

    kind: ClassVar[str] = "fire_ntc"
    side: str
    unit: str
    morale: int
    final: int
    passed: bool
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class Marked(Record):
    """Fire markers (A8.1): ``units`` (and weapons) of ``side`` now carry ``mark``."""

    kind: ClassVar[str] = "marked"
    side: str
    units: tuple[str, ...]
    mark: str


@EVENTS.register
@dataclass(frozen=True)
class UnitHit(Record):
    """One change to one unit: ``broken`` (and DM), ``pinned``, ``reduced`` (``to``
    the new kind), ``wounded``, ``eliminated``, ``replaced`` (ELR, ``to`` the new
    class), ``rallied``, ``dm_off``, ``left_platoon``, ``gas_protected``,
    ``labor``, ``labor_off``, ``cx``; ``why`` with its rule.  ``private_to``:
    the unit's side while the unit is hidden from the enemy."""

    kind: ClassVar[str] = "unit"
    side: str
    unit: str
    change: str
    why: str
    to: str | None = None
    private_to: str | None = None


@EVENTS.register
@dataclass(frozen=True)
class WeaponChanged(Record):
    """A support weapon ``malfunctioned`` (A9.7), ``repaired`` or ``eliminated``
    (A9.72), ``used_up`` (a flamethrower, A22.3)."""

    kind: ClassVar[str] = "weapon"
    side: str
    weapon: str
    status: str
    why: str


@EVENTS.register
@dataclass(frozen=True)
class FormationChanged(Record):
    """A platoon reduced by casualties is a half-platoon (ASLGW 1.1)."""

    kind: ClassVar[str] = "formation"
    side: str
    formation: str
    to: str


@EVENTS.register
@dataclass(frozen=True)
class FireConsidered(Record):
    """gwasl's fire policy for ``side``, whose hidden layer it keeps, looked at the units
    that just moved (A8.1) and did not fire: why (every candidate with its odds).
    Private to ``side``; made after every move step while that side is the
    defender, so its presence tells nothing.  ``public``: the reason of each fire it
    made, which every viewer reads (the fire revealed its firers and its target is
    known; the candidates and the reason to hold fire stay private)."""

    kind: ClassVar[str] = "fire_policy"
    side: str
    why: str
    candidates: tuple[str, ...] = ()
    public: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class ResidualPlaced(Record):
    """Residual FP left in a Location for the rest of the MPh (A8.2)."""

    kind: ClassVar[str] = "residual"
    at: str
    at_in: str
    fp: int


@EVENTS.register
@dataclass(frozen=True)
class SniperStruck(Record):
    """``side``'s sniper, activated by an enemy attack (A14.1), strikes ``unit``
    with ``effect`` (A14.2; the dr before it)."""

    kind: ClassVar[str] = "sniper"
    side: str
    unit: str
    dr: int
    effect: str


@EVENTS.register
@dataclass(frozen=True)
class RallyResolved(Record):
    """A rally attempt's outcome (A10.6; the roll before it)."""

    kind: ClassVar[str] = "rally"
    side: str
    unit: str
    outcome: str
    self_rally: bool = False


@EVENTS.register
@dataclass(frozen=True)
class Routed(Record):
    """A broken unit routed along ``path`` to ``to`` (A10.5), by Low Crawl or not."""

    kind: ClassVar[str] = "rout"
    side: str
    unit: str
    path: tuple[str, ...]
    to: str
    to_in: str
    low_crawl: bool = False


@EVENTS.register
@dataclass(frozen=True)
class CloseCombatResolved(Record):
    """A CC in one Location (A11; ASLGW 1.10): its kind per side (CC or HtH, and
    why), the odds and outcome of each side's attack, the ambush if any."""

    kind: ClassVar[str] = "close_combat"
    at: str
    area: str
    lines: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class MeleeChanged(Record):
    """A Location is now locked in Melee (A11.15), or no longer."""

    kind: ClassVar[str] = "melee"
    at: str
    area: str
    locked: bool


@EVENTS.register
@dataclass(frozen=True)
class Withdrew(Record):
    """Units withdrew from a Melee (A11.2)."""

    kind: ClassVar[str] = "withdrew"
    side: str
    units: tuple[str, ...]
    at: str
    to: str
    to_in: str


@EVENTS.register
@dataclass(frozen=True)
class ConcealmentGained(Record):
    """Units of ``side`` at one Location gain concealment at the end of a player turn (A12.12)."""

    kind: ClassVar[str] = "concealment_gained"
    side: str
    at: str
    at_in: str
    units: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class GasReleased(Record):
    """``side`` releases gas ``index`` (ASLGW 1.9): its agents, area, and last turn."""

    kind: ClassVar[str] = "gas"
    side: str
    index: int
    agents: tuple[str, ...]
    hexes: tuple[str, ...]
    until_turn: int | None = None


@EVENTS.register
@dataclass(frozen=True)
class GasHidden(Record):
    """The gas NTCs of ``side``'s hidden units, rolled on its own dice (ASLGW 1.9.14,
    1.9.2): those that put their protection on (pinned for the turn, 1.9.14), those
    outside the area that failed and keep trying under a labor marker (1.9.2), and why.
    Private to ``side``; made once per gas check for every side with a hidden layer."""

    kind: ClassVar[str] = "gas_hidden"
    side: str
    rolls: tuple[SecretRoll, ...] = ()
    protected: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    labor: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class ChargeDeclared(Record):
    """A Bayonet Charge is declared (ASLGW 1.5): its units (8 MF each, A25.231) and direction."""

    kind: ClassVar[str] = "bayonet_charge"
    side: str
    units: tuple[str, ...]
    direction: int
    mf: float


@EVENTS.register
@dataclass(frozen=True)
class ChargeStepped(Record):
    """A BCh unit's planned step in the current impulse."""

    kind: ClassVar[str] = "charge_step"
    side: str
    unit: str
    to: str
    to_in: str
    mf: float


@EVENTS.register
@dataclass(frozen=True)
class ChargeImpulse(Record):
    """A BCh impulse ends (A25.231-A25.235): each mover's MF left, and those whose
    charge ended, with why."""

    kind: ClassVar[str] = "charge_impulse"
    side: str
    left: tuple[tuple[str, float], ...]
    ended: tuple[tuple[str, str], ...] = ()
    in_cc: tuple[str, ...] = ()
    over: bool = False
    moves: tuple[ChargeMove, ...] = ()


# ---------------------------------------------------------------------------
# Each side at its own seat (gwasl plays a side, issue 25): gwasl/games/aslgw/seats.py


@ACTIONS.register
@dataclass(frozen=True)
class Pass(Record):
    """``side`` lets a decision of its own go by while the other side is phasing:
    ``duty`` ``first_fire`` (no Defensive First Fire at the units that just moved,
    A8.1) or ``rally`` (no more rally or repair attempts this RPh, A10.6, A9.72)."""

    kind: ClassVar[str] = "pass"
    side: str
    duty: str


@EVENTS.register
@dataclass(frozen=True)
class ReasonShown(Record):
    """Why ``side`` made a decision about ``units`` the enemy could not see, shown to every
    side once they are all revealed (issue 25): the ``why`` its log gave its own side."""

    kind: ClassVar[str] = "reason_shown"
    side: str
    units: tuple[str, ...]
    why: str


@EVENTS.register
@dataclass(frozen=True)
class Passed(Record):
    """What a :class:`Pass` gives up: ``units`` that may not rally (or weapons not be
    repaired) this RPh, or the movers' fire window closed (A8.1)."""

    kind: ClassVar[str] = "passed"
    side: str
    duty: str
    units: tuple[str, ...] = ()


_BATCH.finish()  # every record above gets its __init__, __repr__, __eq__ and __hash__
