"""The words of the fog rules' outcomes, per viewer: the one place they are made.

Rule functions return typed outcomes (what happened, its dice, the rule); this
module turns one into the line a viewer may read, or ``None`` when the viewer
may not know it happened.  ``"omniscient"`` reads the whole truth; the side
the outcome belongs to reads its own line (for a shift DR: the roll with the
DRM that side knows, O'Leary 2.5); every other side reads the public line.
The aslgw game (its events' texts) and the editor's fog preview both call it.
"""

from __future__ import annotations

from gwasl.rules.fog.boresight import ThirdDieResult
from gwasl.rules.fog.shift import Seen, SeenKind, ShiftResult
from gwasl.rules.fog.status import (
    ConcealmentGained,
    ConcealmentLost,
    HipRevealed,
    PotentialDummiesMerged,
    PotentialDummyDropped,
)

__all__ = ["FogOutcome", "line", "public_lines", "seen_line"]

FogOutcome = (ShiftResult | ThirdDieResult | ConcealmentLost | ConcealmentGained | PotentialDummyDropped
              | PotentialDummiesMerged | HipRevealed)


def seen_line(f: Seen) -> str:
    """The words of one fact of a shift DR the other sides see (O'Leary 2.5, 4.2, 4.6.2, 5.2)."""
    units = ", ".join(f.units)
    match f.what:
        case SeenKind.DUMMY_REMOVED:
            return f"{'cloaking counter' if f.cloaked else 'concealed stack'} at {f.hex} removed: a dummy (O'Leary 2.5)"
        case SeenKind.REVEALED_TI:
            return f"{units} revealed at {f.hex}, TI (O'Leary 2.5)"
        case SeenKind.CLOAK_LOST:
            return f"cloaking counter at {f.hex} becomes a concealed stack of {f.counters} counters"
        case SeenKind.FORTIFICATION_REVEALED:
            return f"hidden {f.fortification} revealed at {f.hex} (O'Leary 2.5, 4.2)"
        case SeenKind.STACK_APPEARS:
            return f"a concealed stack of {f.counters} counters appears at {f.hex} (O'Leary 2.5)"
        case SeenKind.REVEALED:
            return f"{units} revealed at {f.hex} (O'Leary 2.5)"
        case SeenKind.MINEFIELD_DUMMY:
            return f"minefield counter at {f.hex} revealed: a dummy, removed (O'Leary 4.6.2)"
        case SeenKind.MINEFIELD_REVEALED:
            return f"minefield at {f.hex} revealed: {f.ap} AP, {f.at} AT (O'Leary 4.6.2)"


def _lines(o: FogOutcome) -> tuple[str | None, str, str | None, str | None]:
    """(actor, the truth, the actor's own line or None for the truth, the public line or None)."""
    if isinstance(o, ShiftResult):
        outcome = f" -> {o.band}: " + "; ".join(o.consequences)
        own = (o.shown_roll or o.roll).explain() + outcome
        return o.plan.side, o.roll.explain() + outcome, own, "; ".join(public_lines(o)) or None
    if isinstance(o, ThirdDieResult):
        what = "bore sighted" if o.rule == "O'Leary 6.1" else "pre-registered"
        return o.side, f"{o.roll.explain()} -> {o.outcome}" + (f": {what} {o.fixed}" if o.fixed else ""), None, None
    if isinstance(o, ConcealmentLost):
        text = f"{', '.join(o.units)} lose concealment at {', '.join(h.label for h in o.hexes)} ({o.cause})"
        return o.side, text, None, text
    if isinstance(o, ConcealmentGained):
        return (o.side, f"{', '.join(o.units)} at {o.hex} gain concealment", None,
                f"a concealed stack of {o.height} counters at {o.hex}")
    if isinstance(o, PotentialDummyDropped):
        return o.side, f"stack at {o.hex} drops potential dummy status (O'Leary 2.2)", None, None
    if isinstance(o, PotentialDummiesMerged):
        return o.side, f"{o.merged} potential dummy stack(s) merged at the end of the CCPh (O'Leary 2.2)", None, None
    parts = []
    if o.units:
        parts.append(f"{', '.join(o.units)} revealed")
    if o.dummies:
        parts.append(f"{o.dummies} dummy HIP counter(s) revealed and removed")
    if o.fortifications:
        parts.append(f"{', '.join(o.fortifications)} revealed")
    text = f"at {o.hex} ({o.cause}): " + "; ".join(parts) + " (O'Leary 3.4)"
    return o.side, text, None, text


def _happened(o: FogOutcome) -> bool:
    if isinstance(o, ConcealmentLost | ConcealmentGained):
        return bool(o.units)
    if isinstance(o, PotentialDummyDropped):
        return o.dropped
    if isinstance(o, PotentialDummiesMerged):
        return o.merged > 0
    if isinstance(o, HipRevealed):
        return bool(o.units or o.dummies or o.fortifications)
    return True


def line(o: FogOutcome, viewer: str) -> str | None:
    """The line ``viewer`` reads of ``o`` (a side id or ``"omniscient"``), or None."""
    if not _happened(o):
        return None
    actor, text, own, public = _lines(o)
    if viewer == "omniscient" or actor is None:
        return text
    if viewer == actor:
        return text if own is None else own
    return public


def public_lines(o: FogOutcome) -> tuple[str, ...]:
    """What every side but the outcome's own may read of it, one fact a line."""
    if isinstance(o, ShiftResult):
        return tuple(seen_line(f) for f in o.public)
    if not _happened(o):
        return ()
    public = _lines(o)[3]
    return (public,) if public else ()
