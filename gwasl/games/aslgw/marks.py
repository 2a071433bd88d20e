"""What fire and close combat marks forbid a unit's movement (issue 12), for
:func:`gwasl.games.aslgw.moves.unit_blocker`: Prep Fire (A3.3: a unit that
fired in the PFPh does not move in the MPh), a BCh unit (it moves with the
charge, ASLGW 1.5), a unit in Melee or that ended a BCh in CC (A11.15,
A25.235: no advance out; a unit in Melee leaves only by withdrawal, A11.2)."""

from __future__ import annotations

from gwasl.games.aslgw.state import AslgwState
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Unit

__all__ = ["move_blocker"]


def move_blocker(state: AslgwState, u: Unit) -> str | None:
    """Why the marks keep ``u`` from moving now, or None."""
    mk = state.combat.mark(u.id)
    if state.phase is Phase.MPh:
        if mk.fire == "prep":
            return f"{u.id} fired in the Prep Fire Phase: it does not move (A3.3)"
        if mk.bch:
            return f"{u.id} is a BCh unit: it moves with the charge (ASLGW 1.5)"
    if state.phase in (Phase.MPh, Phase.APh) and \
            (u.hex.label, "dugout" if u.position is Position.DUGOUT else "hex") in state.combat.melee:
        return f"{u.id} is locked in Melee: it leaves only by withdrawing in the CCPh (A11.15, A11.2)"
    if state.phase is Phase.APh and mk.charge_cc:
        return f"{u.id} ended its BCh in CC: it does not advance out (A25.235)"
    return None
