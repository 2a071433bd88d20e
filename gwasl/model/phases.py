"""The ASL player-turn phases (A3), used by every phase-dependent rule.

>>> Phase.parse("MPh") is Phase.MPh
True
>>> [p.value for p in Phase][:3]
['RPh', 'PFPh', 'MPh']
"""

from __future__ import annotations

from enum import Enum

from gwasl.model.errors import GwaslError

__all__ = ["Phase", "PhaseError"]


class PhaseError(GwaslError):
    """Text that is not one of the eight phase abbreviations."""


class Phase(str, Enum):
    """Phases of a player turn in order (A3.1): Rally, Prep Fire, Movement,
    Defensive Fire, Advancing Fire, Rout, Advance, Close Combat."""

    RPh = "RPh"
    PFPh = "PFPh"
    MPh = "MPh"
    DFPh = "DFPh"
    AFPh = "AFPh"
    RtPh = "RtPh"
    APh = "APh"
    CCPh = "CCPh"

    @classmethod
    def parse(cls, text: str) -> Phase:
        for p in cls:
            if p.value.lower() == str(text).lower():
                return p
        raise PhaseError(f"{text!r} is not a phase; use one of {' '.join(p.value for p in cls)}")

    @property
    def index(self) -> int:  # type: ignore[override]  # deliberately not str.index: the phase's place in the turn
        return list(Phase).index(self)

    def __str__(self) -> str:
        return self.value
