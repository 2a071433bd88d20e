"""Actions and events of fire and close combat in play (issue 12; vocabulary in
docs/format/aslgw.md), registered in the game's :data:`~gwasl.games.aslgw.records.ACTIONS`
and :data:`~gwasl.games.aslgw.records.EVENTS`.

Every die is an engine ``Rolled`` event just before the event that reads it.
The state changes an attack makes are spelled out one by one (:class:`UnitHit`,
:class:`WeaponChanged`...), so that :meth:`reduce` needs nothing but the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gwasl.engine.record import Record
from gwasl.games.aslgw.combat_state import ChargeMove
from gwasl.games.aslgw.records import ACTIONS, EVENTS, SecretRoll

__all__ = [
    "COMBAT_ACTIONS",
    "BayonetCharge",
    "ChargeDeclared",
    "ChargeImpulse",
    "ChargeStep",
    "ChargeStepped",
    "CloseCombat",
    "CloseCombatResolved",
    "ConcealmentGained",
    "EndChargeImpulse",
    "Fire",
    "FireConsidered",
    "FireNtc",
    "FireResolved",
    "FormationChanged",
    "GasHidden",
    "GasReleased",
    "Marked",
    "MeleeChanged",
    "Rally",
    "RallyResolved",
    "ReleaseGas",
    "RemoveGasMask",
    "Repair",
    "ResidualPlaced",
    "Rout",
    "Routed",
    "SniperStruck",
    "UnitHit",
    "WeaponChanged",
    "Withdraw",
    "Withdrew",
]


# ---------------------------------------------------------------------------
# Actions
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


COMBAT_ACTIONS = (Fire, ReleaseGas, RemoveGasMask, BayonetCharge, ChargeStep, EndChargeImpulse, Rally, Repair,
                  Rout, CloseCombat, Withdraw)


# ---------------------------------------------------------------------------
# Events
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
