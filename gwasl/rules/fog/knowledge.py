"""What a side knows of the enemy, and what it is shown of a shift DR, in one place.

O'Leary 2.5 gives the shift DR a "+1 if either location is in the LOS of an
enemy unit".  The DR itself is rolled with the whole truth (a hidden enemy
unit's LOS counts, as it would face to face); but what a side is *shown* --
the breakdown of its own DR in the log, the DRM and odds its policy reasons
with -- must come from what that side knows, or a hidden enemy unit would
show through the "+1" (issue 10).  Every such display is computed here:

* :func:`known_state` -- the state as a side knows the enemy (its own view);
* :func:`known_plan` -- a shift planned again on that state;
* :func:`shown_modifiers` / :func:`shown_roll` -- the DRM and the roll as the
  shifting side is shown them.

The policy (:mod:`gwasl.rules.fog.policy`) and the shift log
(:func:`gwasl.rules.fog.resolve.resolve_shift`) both call these; the play
engine's event views should too.
"""

from __future__ import annotations

from dataclasses import replace

from gwasl.model.scenario import Unit, UnitKind
from gwasl.rules.dice import Modifier, Roll
from gwasl.rules.fog.env import FogEnv
from gwasl.rules.fog.shift import (
    ShiftPlan,
    plan_cloaked_shift,
    plan_dummy_shift,
    plan_group_dummy_shift,
    plan_hip_shift,
    plan_minefield_shift,
)
from gwasl.rules.fog.state import FogState, LedgerKind
from gwasl.rules.fog.view import view

__all__ = ["known_plan", "known_state", "shown_modifiers", "shown_roll"]


def known_state(state: FogState, side: str) -> FogState:
    """The state as ``side`` knows the enemy (O'Leary 2.5, "an enemy unit"): its own units
    as they are, the enemy units its view shows, and one notional squad under each enemy
    "?" pile it sees (a "?" may hide a unit whatever it truly is); hidden enemy units are
    left out.  Only for what ``side`` is shown and reasons with, never for a roll."""
    v = view(state, side)
    units = [u for u in state.scenario.units if u.side == side]
    units += [u for u in v.units if u.side != side]
    units += [Unit(f"?{i}", c.side, UnitKind.SQUAD, c.hex, position=c.position)
              for i, c in enumerate(v.concealed_stacks) if c.side != side]
    return replace(state, scenario=state.scenario.with_units(units))


def known_plan(state: FogState, plan: ShiftPlan, env: FogEnv, known: FogState | None = None) -> ShiftPlan:
    """``plan`` planned again on what its side knows (:func:`known_state`): the same pieces,
    the same count of earlier shifts, the DRM as that side can work it out (O'Leary 2.5).

    ``known`` may pass a :func:`known_state` already built for ``plan.side``.
    """
    k = known if known is not None else known_state(state, plan.side)
    prior = plan.facts.prior_shifts
    if plan.pairs:
        return plan_group_dummy_shift(k, plan.pairs, env, prior)
    if plan.kind is LedgerKind.HIP:
        return plan_hip_shift(k, plan.side, plan.hex_a, plan.hex_b, env, movers_a=plan.movers_a,
                              movers_b=plan.movers_b, prior=prior)
    assert plan.a is not None and plan.b is not None  # every non-HIP plan names its two stacks
    if plan.kind is LedgerKind.MINEFIELD:
        return plan_minefield_shift(k, plan.a, plan.b, env, prior)
    if plan.kind is LedgerKind.CLOAKED:
        return plan_cloaked_shift(k, plan.a, plan.b, env, prior)
    return plan_dummy_shift(k, plan.a, plan.b, env, prior)


def shown_modifiers(state: FogState, plan: ShiftPlan, env: FogEnv, known: FogState | None = None) -> tuple[Modifier, ...]:
    """O'Leary 2.5: the DRM of ``plan`` as its side is shown them (enemy LOS from known enemy
    units and "?" piles only)."""
    return known_plan(state, plan, env, known).modifiers


def shown_roll(state: FogState, plan: ShiftPlan, roll: Roll, env: FogEnv) -> Roll:
    """The shift DR ``roll`` (rolled with the true DRM) as the shifting side is shown it:
    the same dice, the modifiers it knows (O'Leary 2.5)."""
    return Roll(roll.seq, roll.cause, roll.dice, shown_modifiers(state, plan, env))
