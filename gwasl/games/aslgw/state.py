"""The state of a Great War scenario in play: an immutable value.

:class:`AslgwState` wraps the fog layer's :class:`~gwasl.rules.fog.state.FogState`
(the scenario with every unit where it truly is, and each side's hidden
layer) and adds what play needs: the turn record and the phase (A3), the
shift windows pending at the start of a phase, each unit's movement this
phase (:class:`UnitPlay`: MF spent, CX, Double Time, NTC...), the impulse of
a moving platoon (ASLGW 1.4.1), the public MF of "?" piles, the position of
each secret side's private dice stream, a pending minefield decision
(O'Leary 4.6.2), and the fog layer's bookkeeping: the shift ledger (O'Leary
2.5, 3.3.4, 3.3.5) and whether the phasing side has acted this phase (2.3,
5.1), passed with the :attr:`AslgwState.clock` to the fog rule functions.

Every state type is here: fire and close combat's part (:class:`CombatState`,
issue 12: a unit's marks, the defender's fire window, Residual FP, Melee, gas
clouds, a Bayonet Charge moving; pin and DM stay in :class:`UnitPlay`, broken
in the scenario's units) and Control and victory's (:class:`VictoryState`, A26).

The reduce of :mod:`gwasl.games.aslgw.actions.dispatch` is the only way it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.engine.record import Record
from gwasl.games.aslgw.settings import GameSettings
from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario
from gwasl.rules.card import ScenarioCard
from gwasl.rules.control import ControlMap, Occupant
from gwasl.rules.fog.state import Clock, FogState, ShiftRecord
from gwasl.rules.victory import Loss

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["FORMER_TYPE_NAMES", "Area", "AslgwState", "ChargeMove", "ChargeMover", "ChargeState", "CombatState", "FireGroupPlan", "FireWindow",
           "GasCloud", "Impulse", "ImpulseMember", "MoverMark", "PileKey", "ReduceFn", "UnitCombat", "UnitPlay", "VictoryState", "ro"]


def ro(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(d))


def _empty() -> Mapping[Any, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class UnitPlay:
    """A unit's state in play beyond the scenario's :class:`~gwasl.model.scenario.Unit`.

    Per phase: ``mf_spent``, ``allowance`` (fixed when it starts moving),
    ``moved`` (it has begun), ``done`` (its movement is over, A4.3),
    ``double_time``, ``no_double_time`` (left a deep trench without a ladder,
    ASLGW 2.1.3), ``cx_pending`` (CX at the end of the MPh, 2.1.3),
    ``ntc_failed``.  Per player turn: ``ntc_passed`` (ASLGW 1.3.2: it acts
    normally for the rest of the player turn).  Lasting: ``cx`` (A4.51),
    ``detached`` (a free squad by choice, ASLGW 1.4.13), ``pinned`` and ``dm``
    (set by fire, issue 12).
    """

    mf_spent: float = 0.0
    allowance: float | None = None
    moved: bool = False
    done: bool = False
    double_time: bool = False
    no_double_time: bool = False
    cx_pending: bool = False
    ntc_failed: bool = False
    ntc_passed: bool = False
    cx: bool = False
    detached: bool = False
    pinned: bool = False
    dm: bool = False

    def new_phase(self) -> UnitPlay:
        """What stays when a phase begins (the CX of 2.1.3 lands at the end of the MPh)."""
        return UnitPlay(cx=self.cx or self.cx_pending, ntc_passed=self.ntc_passed, detached=self.detached,
                        pinned=self.pinned, dm=self.dm)


@dataclass(frozen=True, slots=True)
class ImpulseMember:
    """A platoon member's step in the current impulse."""

    start: Hex
    start_in: Position
    to: Hex
    to_in: Position
    mf: float


@dataclass(frozen=True, slots=True)
class Impulse:
    """The impulse a platoon is moving (ASLGW 1.4.1): each member's step so far."""

    platoon: str
    steps: Mapping[str, ImpulseMember] = field(default_factory=_empty)
    detached: frozenset[str] = frozenset()


#: a "?" pile as every viewer may name it: side, hex, position, cloaking counters or not
PileKey = tuple[str, Hex, Position, bool]


# ---------------------------------------------------------------------------
# Fire and close combat (issue 12): AslgwState.combat

#: a Location a CC happens in: hex label and ``"dugout"`` or ``"hex"`` (ASLGW 2.2.1: a dugout stands apart)
Area = tuple[str, str]



@dataclass(frozen=True, slots=True)
class UnitCombat:
    """Marks of one unit or support weapon (see the module docstring).  ``fire``:
    ``""``, ``prep`` (A3.2; A3.3: no movement, A3.5: no Advancing Fire), ``first`` (A8.1),
    ``final`` (A8.3-A8.4: fired twice), ``fired`` (done for the phase)."""

    fire: str = ""
    moved: bool = False
    bch: bool = False
    charge_cc: bool = False
    wounded: bool = False
    gas_worn: bool = False
    gas_removed: bool = False
    labor: bool = False
    malfunctioned: bool = False
    withdrew: bool = False


@dataclass(frozen=True, slots=True)
class MoverMark:
    """Units that just entered a Location, as the defender may fire at them (A8.1):
    ``units`` real units (truth), ``dummies`` dummy stacks, ``assault`` whether
    they Assault Moved (no FFNAM, A4.6)."""

    hex: str
    pos: str
    units: tuple[str, ...]
    dummies: tuple[str, ...] = ()
    assault: bool = False


@dataclass(frozen=True, slots=True)
class FireWindow:
    """The defender ``side`` may fire at ``targets`` now (A8.1; ASLGW 1.4.1: a
    platoon's movers at the end of its impulse)."""

    side: str
    targets: tuple[MoverMark, ...]


@dataclass(frozen=True, slots=True)
class FireGroupPlan:
    """A fire group ``side`` is forming (A7.5): the parts picked so far (units' inherent
    FP, support weapons), its target and fire mode; it is fired or dropped before
    anything else happens."""

    side: str
    firers: tuple[str, ...]
    at: str
    at_in: str
    mode: str


@dataclass(frozen=True, slots=True)
class GasCloud:
    """A released gas (ASLGW 1.9): its agents, area, and the last game turn it stays."""

    side: str
    index: int
    agents: tuple[str, ...]
    hexes: tuple[str, ...]
    until_turn: int | None


@dataclass(frozen=True, slots=True)
class ChargeMover:
    """A BCh unit in its charge (Human Wave A25.231-A25.235 via ASLGW 1.5)."""

    unit: str
    mf_left: float
    active: bool = True
    ended: str = ""
    in_cc: bool = False


@dataclass(frozen=True, slots=True)
class ChargeMove:
    """One BCh unit's step in an impulse (in a :class:`ChargeImpulse` event)."""

    unit: str
    to: str
    to_in: str
    mf: float


@dataclass(frozen=True, slots=True)
class ChargeState:
    """A Bayonet Charge moving by impulses: its direction, movers, and the steps
    planned in the current impulse (unit -> (hex, position, MF))."""

    side: str
    direction: int
    movers: tuple[ChargeMover, ...]
    planned: Mapping[str, tuple[str, str, float]] = field(default_factory=_empty)

    def mover(self, unit: str) -> ChargeMover | None:
        return next((m for m in self.movers if m.unit == unit), None)

    @property
    def active(self) -> tuple[ChargeMover, ...]:
        return tuple(m for m in self.movers if m.active)


@dataclass(frozen=True, slots=True)
class CombatState:
    """Everything fire and close combat keep between events."""

    marks: Mapping[str, UnitCombat] = field(default_factory=_empty)
    residual: Mapping[tuple[str, str], int] = field(default_factory=_empty)
    window: FireWindow | None = None
    melee: frozenset[Area] = frozenset()
    cc_done: frozenset[Area] = frozenset()
    ambush_possible: frozenset[Area] = frozenset()
    ambush_concealed: frozenset[str] = frozenset()  # units under a "?" in those Locations at the start of the CCPh (A11.4)
    gas: tuple[GasCloud, ...] = ()
    released: frozenset[tuple[str, int]] = frozenset()
    charge: ChargeState | None = None
    charged: frozenset[str] = frozenset()  # sides that declared a BCh this MPh
    self_rallied: frozenset[str] = frozenset()  # sides that used their MMC self-rally this RPh (A10.61)
    rallied: frozenset[str] = frozenset()  # units that attempted to rally this RPh (A10.6: once each)
    routed: frozenset[str] = frozenset()  # units that routed this RtPh
    repaired: frozenset[str] = frozenset()  # weapons that attempted repair this RPh
    group: FireGroupPlan | None = None  # a fire group being formed (A7.5)

    def mark(self, uid: str) -> UnitCombat:
        return self.marks.get(uid, _NONE)




# ---------------------------------------------------------------------------
# Control and victory (A26): AslgwState.victory


@dataclass(frozen=True, slots=True)
class VictoryState:
    """``truth``: Control as it is; ``believed``: as each side (and :data:`PUBLIC`) knows it;
    ``losses``: units out of play; ``balance``: the side taking its Balance (A26.4)."""

    card: ScenarioCard = field(default_factory=ScenarioCard)
    truth: ControlMap = field(default_factory=ControlMap)
    believed: Mapping[str, ControlMap] = field(default_factory=_empty)
    losses: tuple[Loss, ...] = ()
    balance: str | None = None
    result: Mapping[str, Any] | None = None
    seen: tuple[Occupant, ...] = ()  # the units Control was last judged from (judging again would change nothing)


# ---------------------------------------------------------------------------
# The whole state


@dataclass(frozen=True, slots=True)
class AslgwState:
    """The whole truth of a game in play (see the module docstring)."""

    settings: GameSettings
    secret: frozenset[str]
    practice: bool
    fog: FogState
    hip_sides: frozenset[str] = frozenset()  # sides given HIP pieces at set-up (the enemy MPh window, O'Leary 3.3.2)
    layer_sides: frozenset[str] = frozenset()  # sides with any hidden piece at set-up
    turn: int = 1
    phasing: str = ""
    phase: Phase = Phase.RPh
    started: bool = False
    windows: tuple[str, ...] = ()
    play: Mapping[str, UnitPlay] = field(default_factory=_empty)
    impulse: Impulse | None = None
    platoons: frozenset[str] = frozenset()  # platoons moving by impulses this MPh (ASLGW 1.4.1, 1.4.15)
    platoons_done: frozenset[str] = frozenset()
    piles: Mapping[PileKey, float] = field(default_factory=_empty)  # public MF spent by "?" piles this phase
    private_dice: Mapping[str, int] = field(default_factory=_empty)
    minefield: tuple[str, str] | None = None  # (minefield id, owner) awaiting the owner's 4.6.2 choice
    over: bool = False
    why_over: str = ""
    combat: CombatState = field(default_factory=CombatState)  # fire and close combat (issue 12)
    victory: VictoryState = field(default_factory=VictoryState)  # Control, losses, the card's conditions (A26)
    # every shift DR made, in order (O'Leary 2.5, 3.3.4): the +1 per earlier shift, the phase a failure closes
    ledger: tuple[ShiftRecord, ...] = ()
    # a unit of the phasing side has moved/advanced/fired this phase: start-of-phase windows past (O'Leary 2.3, 5.1)
    acted: bool = False
    # sides gwasl plays (``--opponent``, batch play): each side then decides for its own units
    # only, and its choices in the other side's phases come first (gwasl/games/aslgw/seats.py)
    opponents: frozenset[str] = frozenset()
    # the private decisions of a side about its units the enemy could not see, as (side, units,
    # why), until those units are revealed and the why shown to all (seats.REDUCERS, ReasonShown)
    private_reasons: tuple[tuple[str, tuple[str, ...], str], ...] = ()

    @property
    def scenario(self) -> Scenario:
        return self.fog.scenario

    @property
    def clock(self) -> Clock:
        """Where the game is, as the fog rule functions read it (O'Leary 2.3, 2.5, 3.3.2, 5.1)."""
        return Clock(self.turn, self.phasing, self.phase, self.acted)

    def moved_units_of(self, side: str) -> AslgwState:
        """Units of ``side`` changed location other than by shifting: if ``side`` is phasing,
        the start-of-phase shift windows of this phase are past (O'Leary 2.3, 5.1)."""
        return replace(self, acted=True) if side == self.phasing and not self.acted else self

    @property
    def defender(self) -> str:
        return self.settings.other(self.phasing)

    def unit_play(self, unit_id: str) -> UnitPlay:
        return self.play.get(unit_id, _DEFAULT)

    def with_play(self, changes: Mapping[str, UnitPlay]) -> AslgwState:
        p = dict(self.play)
        for k, v in changes.items():
            if v == _DEFAULT:
                p.pop(k, None)
            else:
                p[k] = v
        return replace(self, play=ro(p))

    def private_position(self, side: str) -> int:
        return self.private_dice.get(side, 0)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


#: the state after an event: how a family resolving an action sees the game's reduce (an Emitter's)
ReduceFn = Callable[[AslgwState, Record], AslgwState]

_DEFAULT = UnitPlay()
_NONE = UnitCombat()

#: where a snapshot written before the package was cut by families (issue 23) names these types
#: (its ``module:qualname``): such a snapshot still opens (docs/architecture.md "Persistence")
FORMER_TYPE_NAMES: Mapping[str, type] = MappingProxyType({
    **{f"gwasl.games.aslgw.combat_state:{t.__name__}": t
       for t in (UnitCombat, MoverMark, FireWindow, GasCloud, ChargeMover, ChargeMove, ChargeState, CombatState)},
    "gwasl.games.aslgw.victory:VictoryState": VictoryState,
})
