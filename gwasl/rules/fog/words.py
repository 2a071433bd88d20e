"""The words of the fog rules' outcomes, per viewer: the one place they are made.

Rule functions return typed outcomes (what happened, its dice, the rule); this
module turns one into the line a viewer may read, or ``None`` when the viewer
may not know it happened.  ``"omniscient"`` reads the whole truth; the side
the outcome belongs to reads its own line (for a shift DR: the roll with the
DRM that side knows, O'Leary 2.5); every other side reads the public line.
The aslgw game (its events' texts) and the editor's fog preview both call it.
"""

from __future__ import annotations

from gwasl.model.viewers import OMNISCIENT
from gwasl.rules.fog.boresight import ThirdDieResult
from gwasl.rules.fog.shift import Done, DoneKind, Seen, SeenKind, ShiftResult
from gwasl.rules.fog.status import (
    ConcealmentGained,
    ConcealmentLost,
    HipRevealed,
    PotentialDummiesMerged,
    PotentialDummyDropped,
)

__all__ = ["FogOutcome", "consequence_lines", "done_line", "line", "public_lines", "seen_line"]

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


def done_line(d: Done) -> str:
    """The words of one thing a shift DR did, as the shifting side reads it (O'Leary 2-5)."""
    units = ", ".join(d.units)
    match d.what:
        case DoneKind.NO_EXCHANGE:
            return "no exchange" + (f"; no other {d.kind} shift this phase (O'Leary 2.5)" if d.closes else "")
        case DoneKind.FREE_SHIFT:
            return "final DR <= 0: this shift adds no +1 to later attempts (O'Leary 2.5)"
        case DoneKind.HD_MAY_ATTEMPT:
            return f"{units} may attempt a HD maneuver (O'Leary 2.3)"
        case DoneKind.BORE_SIGHT_LOST:
            return f"{units} may no longer bore sight: a stack of this shift has moved other than by shifting (O'Leary 2.3)"
        case DoneKind.STACKS_EXCHANGE:
            return f"stacks at {d.hex} and {d.to} exchange locations"
        case DoneKind.SELF_EXCHANGE:
            return f"the stack at {d.hex} exchanges with itself"
        case DoneKind.DUMMY_HIP_MARKS:
            return f"a dummy HIP counter marks {d.hex}, left without HIP units or hidden fortifications (O'Leary 3.3.3, 4.2)"
        case DoneKind.HIP_PIECES:
            return f"{d.count} HIP piece(s) {d.hex}->{d.to}, {d.count_back} {d.to}->{d.hex}"
        case DoneKind.FORTIFICATION_CA:
            return f"{d.count} fortification CA chosen (O'Leary 4.4)"
        case DoneKind.TUNNEL_EXIT:
            return f"tunnel of the {d.kind} now at {d.hex} exits at {d.to} (O'Leary 4.4.2)"
        case DoneKind.TUNNEL_FOLLOWS:
            return f"tunnel from {d.hex} follows the {d.kind} to {d.to} (O'Leary 4.4.2)"
        case DoneKind.CAVE_PLACED:
            return f"{d.count} unit(s) placed in the changed cave complex without a shift DR (O'Leary 4.4.1)"
        case DoneKind.NOT_EMPLACED:
            return f"{units} may not be emplaced at {d.hex} (O'Leary 2.3)"
        case DoneKind.CHOICES_APPLIED:
            return "post-shift choices applied (O'Leary 2.3)"
        case DoneKind.DUMMY_ELIMINATED:
            return f"dummy stack at {d.hex} eliminated"
        case DoneKind.REVEALED_TI:
            return f"{units} at {d.hex} lose concealment and become TI"
        case DoneKind.CLOAK_LOST:
            return f"stack at {d.hex} loses cloaked status, stays concealed (O'Leary 5.2)"
        case DoneKind.POTENTIAL_DUMMY_LOST:
            return f"stack at {d.hex} loses potential dummy status for good, stays concealed (O'Leary 2.2)"
        case DoneKind.DUMMY_HIP_ELIMINATED:
            return f"dummy HIP at {d.hex} eliminated"
        case DoneKind.FORTIFICATION_REVEALED:
            return f"{d.kind} at {d.hex} revealed"
        case DoneKind.HIP_REVEALED_TI:
            return f"{units} at {d.hex} lose HIP and concealment and become TI"
        case DoneKind.HIP_STAYS_CONCEALED:
            return f"{units} at {d.hex} lose HIP, stay concealed"
        case DoneKind.HIP_REVEALED:
            return f"{units} at {d.hex} lose HIP and cannot be concealed there"
        case DoneKind.MINEFIELDS_EXCHANGE:
            return f"minefields at {d.hex} and {d.to} exchange locations"
        case DoneKind.MINEFIELD_NO_EXCHANGE:
            return "no exchange; further minefield shifts stay possible (O'Leary 4.6.3)"
        case DoneKind.MINEFIELD_DUMMY:
            return f"dummy minefield at {d.hex} revealed and removed"
        case DoneKind.MINEFIELD_REVEALED:
            return f"minefield at {d.hex} revealed: {d.ap} AP, {d.at} AT"


def consequence_lines(r: ShiftResult) -> tuple[str, ...]:
    """What a shift DR did, one line each, as the shifting side reads it."""
    return tuple(done_line(d) for d in r.consequences)


def _lines(o: FogOutcome) -> tuple[str | None, str, str | None, str | None]:
    """(actor, the truth, the actor's own line or None for the truth, the public line or None)."""
    if isinstance(o, ShiftResult):
        outcome = f" -> {o.band}: " + "; ".join(consequence_lines(o))
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
    if viewer == OMNISCIENT or actor is None:
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
