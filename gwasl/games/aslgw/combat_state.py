"""The part of a game's state that fire and close combat add (issue 12): an
immutable value held in :attr:`gwasl.games.aslgw.state.AslgwState.combat`.

* :class:`UnitCombat` -- a unit's (or support weapon's) marks: its fire
  marker this player turn (Prep Fire, First Fire, Final Fire, A8.1), whether
  it moved this player turn (A7.25), a BCh unit (ASLGW 1.5), a wounded SMC
  (A17.2), gas protection worn or a labor marker (ASLGW 1.9.15, 1.9.2), a
  malfunctioned weapon (A9.7);
* :class:`FireWindow` -- the defender's chance to fire at units that just
  moved (A8.1 Defensive First Fire, SFF, FPF);
* Residual FP per location this MPh (A8.2), Locations locked in Melee (A11.15),
  gas clouds (ASLGW 1.9), a Bayonet Charge in progress (ASLGW 1.5), and the
  sub-step of a phase where the other side acts (its rally, its rout).

Pin and DM stay in :class:`~gwasl.games.aslgw.state.UnitPlay` (``pinned``,
``dm``), broken in the scenario's units, as the play engine laid out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Area", "ChargeMove", "ChargeMover", "ChargeState", "CombatState", "FireWindow", "GasCloud", "MoverMark", "UnitCombat"]

#: a Location a CC happens in: hex label and ``"dugout"`` or ``"hex"`` (ASLGW 2.2.1: a dugout stands apart)
Area = tuple[str, str]


def _empty() -> Mapping[Any, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class UnitCombat:
    """Marks of one unit or support weapon (see the module docstring).  ``fire``:
    ``""``, ``prep`` (A3.3: no movement, no Advancing Fire), ``first`` (A8.1),
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

    def mark(self, uid: str) -> UnitCombat:
        return self.marks.get(uid, _NONE)


_NONE = UnitCombat()
