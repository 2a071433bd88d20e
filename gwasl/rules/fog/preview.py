"""``shift-preview``: the O'Leary 2.5 shift between two hexes of a scenario, with exact odds.

Works on the scenario as set up, at the start of ``phase`` of ``phasing``'s
player turn: it finds the hidden pieces of one side in both hexes, picks the
kind of shift they allow (HIP 3.3, dummy/potential dummy 2.3, cloaked 5.1,
minefield 4.6), and returns eligibility, the DRM with causes, and the exact
chance of each band of the 2.5 table (CONTRACTS 4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario
from gwasl.rules.fog.drm import ShiftFacts, shift_modifiers
from gwasl.rules.fog.env import FogEnv
from gwasl.rules.fog.odds import shift_band_odds
from gwasl.rules.fog.shift import (
    ShiftPlan,
    plan_cloaked_shift,
    plan_dummy_shift,
    plan_hip_shift,
    plan_minefield_shift,
    prior_shifts,
)
from gwasl.rules.fog.state import Clock, ConcealStack, FogState, LedgerKind, ShiftRecord

__all__ = ["PreviewError", "ShiftPreview", "preview_shift"]


class PreviewError(GwaslError):
    """The two hexes hold no hidden stack of one side that could shift."""


@dataclass(frozen=True, slots=True)
class ShiftPreview:
    plan: ShiftPlan
    odds: Mapping[str, Fraction]

    def as_json(self) -> dict[str, Any]:
        """The CONTRACTS 4 ``shift-preview`` object."""
        return {
            "eligible": self.plan.eligible,
            "reason": self.plan.reason,
            "modifiers": [m.as_json() for m in self.plan.modifiers],
            "drm": self.plan.drm,
            "p": {k: float(v) for k, v in self.odds.items()},
        }


def _pairs(state: FogState, side: str, a: Hex, b: Hex, cloaked: bool) -> list[tuple[ConcealStack, ConcealStack]]:
    sa = [s for s in state.stacks_at(a, side) if s.cloaked == cloaked]
    sb = [s for s in state.stacks_at(b, side) if s.cloaked == cloaked]
    return [(x, y) for x in sa for y in sb]


def _best(plans: list[ShiftPlan]) -> ShiftPlan | None:
    for p in plans:
        if p.eligible:
            return p
    return plans[0] if plans else None


def plan_between(state: FogState, side: str, a: Hex, b: Hex, env: FogEnv, prior: int | None,
                 clock: Clock | None = None, ledger: Sequence[ShiftRecord] = ()) -> ShiftPlan:
    """The shift ``side``'s hidden pieces at ``a`` would make with those at ``b`` now
    (``clock``) after the shift DRs ``ledger`` (or ``prior`` earlier shifts). (O'Leary 2.3, 3.3, 5.1.)"""
    if state.hip_pieces_at(a, side) and state.hip_pieces_at(b, side):
        return plan_hip_shift(state, side, a, b, env, prior=prior, clock=clock, ledger=ledger)
    plans = [plan_dummy_shift(state, x.id, y.id, env, prior, clock=clock, ledger=ledger) for x, y in _pairs(state, side, a, b, False)]
    got = _best(plans)
    if got is None:
        got = _best([plan_cloaked_shift(state, x.id, y.id, env, prior, clock=clock, ledger=ledger) for x, y in _pairs(state, side, a, b, True)])
    if got is None:
        ma = [m for m in state.minefields_at(a, side) if not m.revealed]
        mb = [m for m in state.minefields_at(b, side) if not m.revealed]
        got = _best([plan_minefield_shift(state, x.id, y.id, env, prior, clock=clock, ledger=ledger) for x in ma for y in mb])
    if got is not None:
        return got
    # Hidden pieces of different kinds: never exchangeable (3.3.1), but still show the DRM.
    kind = LedgerKind.HIP if state.hip_pieces_at(a, side) else LedgerKind.DUMMY
    s = state.scenario
    facts = ShiftFacts(
        prior_shifts=prior_shifts(ledger, clock, side, kind) if prior is None else prior,
        tem_a=env.location_tem(s, a, Position.GROUND, ()),
        tem_b=env.location_tem(s, b, Position.GROUND, ()),
        enemy_los_a=env.in_enemy_los(s, side, a),
        enemy_los_b=env.in_enemy_los(s, side, b),
        lv_hindrance=s.weather.value in env.table.drm["lv_weather"],
        night=s.night,
    )
    return ShiftPlan(kind, side, a, b, eligible=False,
                     reason=f"the hidden pieces at {a} and {b} are of kinds that never exchange: HIP with HIP, "
                            "dummy and potential dummy stacks together, cloaked with cloaked, minefields with "
                            "minefields (O'Leary 3.3.1, 4.6, 5.1)",
                     facts=facts, modifiers=shift_modifiers(facts, env.table))


def preview_shift(scenario: Scenario, a: Hex, b: Hex, phase: Phase, phasing: str,
                  prior: int | None = None, env: FogEnv | None = None) -> ShiftPreview:
    """O'Leary 2.3-2.5 for the hidden stacks of one side at ``a`` and ``b``.

    Raises :class:`PreviewError` if ``a`` or ``b`` holds no hidden stack of the shifting side.
    """
    env = env or FogEnv()
    state = FogState.from_scenario(scenario)
    clock = Clock(1, phasing, phase)  # the start of the phase: no shift made yet
    owners = [side for side in scenario.sides if a in state.hidden_hexes(side)]
    if not owners:
        raise PreviewError(f"{a} holds no hidden stack (potential dummy, dummy, HIP, cloaked or minefield) of any side")
    both = [side for side in owners if b in state.hidden_hexes(side)]
    if not both:
        raise PreviewError(f"{b} holds no hidden stack of {' or '.join(owners)}, the side shifting from {a}")
    side = phasing if phasing in both else both[0]
    plan = plan_between(state, side, a, b, env, prior, clock)
    return ShiftPreview(plan, shift_band_odds(plan.drm, env.table))
