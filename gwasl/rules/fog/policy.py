"""An automatic shifting policy for the side the player is not moving.

Beyond O'Leary: on paper the solitaire player decides every shift and so
knows where everything is; the computer can decide for the hidden side and
keep the secret.  This policy decides which shift attempts to make, from
what that side may know (its own hidden layer in full, the enemy only
through :func:`gwasl.rules.fog.view.view`), and explains each decision: every
candidate with its DRM (O'Leary 2.5), exact odds, gain, risk and score.

Scoring, per candidate shift:

* threat of a hex: for each enemy counter the side can see,
  ``weight / (1 + range)``, x1.5 if it has LOS to the hex (an unknown "?"
  stack weighs half a squad);
* gain if the shift is made: the value of the real pieces moved times the
  drop in threat between their old and new locations (moving a HIP stack the
  enemy is about to search to a safer candidate scores high);
* risk: P(11-12) x the value lost with the status (dummies eliminated,
  potential dummy/HIP status gone) + P(>= 13) x the value revealed, and a
  small cost for closing the phase to further shifts (P(>= 8));
* score = P(allowed) x gain - risk, plus a seeded jitter below 0.001 that
  only breaks ties, so the same seed always makes the same choices.

A candidate is attempted only if its score is above ``threshold``.

The odds that score a candidate, and the DRM its explanation prints, come from
the DRM as the side knows it: the "+1 in the LOS of an enemy unit" is judged
from the enemy units it can see and from every enemy "?" pile (real or dummy
alike), never from hidden enemy units (:mod:`gwasl.rules.fog.knowledge`).  The
candidate's plan keeps the true DRM, which is the one the shift DR is rolled
with and is never printed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, UnitKind
from gwasl.rules.dice import Dice, Modifier
from gwasl.rules.fog.env import FogEnv, size_class_of
from gwasl.rules.fog.knowledge import known_state, shown_modifiers
from gwasl.rules.fog.odds import shift_band_odds
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import (
    ShiftPlan,
    ShiftResult,
    is_phase_closed,
    plan_cloaked_shift,
    plan_dummy_shift,
    plan_hip_shift,
    plan_minefield_shift,
    shift_window,
)
from gwasl.rules.fog.state import Clock, FogState, LedgerKind, Minefield, ShiftRecord
from gwasl.rules.fog.view import view

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["Candidate", "PolicyDecision", "choose_minefield_shift", "choose_shift", "known_state", "run_policy",
           "threat_map"]

_UNIT_VALUE = {
    UnitKind.SQUAD: 1.0,
    UnitKind.HALF_SQUAD: 0.5,
    UnitKind.CREW: 0.5,
    UnitKind.LEADER: 1.0,
    UnitKind.HERO: 0.5,
    UnitKind.SUPPORT_WEAPON: 0.3,
}
_DUMMY_COUNTER_VALUE = 0.15  # a dummy counter is worth something as a decoy
_CLOSE_COST = 0.1


@dataclass(frozen=True, slots=True)
class Candidate:
    """One shift the policy considered, with everything that went into its score.

    ``plan`` is the shift as the rules will roll it (true DRM, never shown);
    ``shown`` is its DRM as the side knows it, which ``odds`` and :meth:`explain` use.
    """

    plan: ShiftPlan
    odds: Mapping[str, Fraction]
    gain: float
    risk: float
    score: float
    shown: tuple[Modifier, ...] = ()

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        """The DRM as the shifting side knows them (O'Leary 2.5)."""
        return self.shown

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.shown)

    def explain(self) -> str:
        mods = ", ".join(f"{m.value:+d} {m.cause}" for m in self.shown) or "none"
        return (f"{self.plan.kind.value} {self.plan.hex_a}->{self.plan.hex_b}: score {self.score:+.3f} "
                f"(P(allowed) {float(self.odds['allowed']):.3f} x gain {self.gain:.2f} - risk {self.risk:.2f}); "
                f"DRM {self.drm:+d}: {mods}")


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    """What the policy decided and why: all candidates best first, and the choice."""

    side: str
    candidates: tuple[Candidate, ...]
    chosen: Candidate | None
    reason: str
    skipped: int = 0  # ineligible pairs left out

    def explain(self) -> str:
        lines = [f"{self.side}: {self.reason}"]
        lines += [("* " if c is self.chosen else "  ") + c.explain() for c in self.candidates]
        if self.skipped:
            lines.append(f"  ({self.skipped} ineligible pairs left out)")
        return "\n".join(lines)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _unit_value(state: FogState, unit_id: str, env: FogEnv) -> float:
    u = state.unit(unit_id)
    v = _UNIT_VALUE.get(u.kind, 0.5)
    return v + env.table.size_drm.get(size_class_of(u), 0) * 0.5


def threat_map(state: FogState, side: str, env: FogEnv, hexes: set[Hex]) -> dict[Hex, float]:
    """Threat to each hex from the enemy counters ``side`` can see (its own view only)."""
    v = view(state, side)
    sees = env.sees(state.scenario)
    enemies: list[tuple[Hex, float, Position]] = []
    for u in v.units:
        if u.side != side and u.is_infantry:
            enemies.append((u.hex, _UNIT_VALUE.get(u.kind, 0.5), u.position))
    for c in v.concealed_stacks:
        if c.side != side:
            enemies.append((c.hex, 0.5, c.position))
    out = {}
    for h in hexes:
        t = 0.0
        for eh, w, pos in enemies:
            factor = 1.5 if sees(eh, h, pos) else 1.0
            t += w * factor / (1 + eh.distance(h))
        out[h] = t
    return out


def _plans(state: FogState, side: str, env: FogEnv, c: Clock | None,
           ledger: Sequence[ShiftRecord]) -> tuple[list[ShiftPlan], int]:
    plans: list[ShiftPlan] = []
    skipped = 0
    if c is None:
        return plans, 0

    def open_(kind: LedgerKind) -> bool:
        return shift_window(c, side, kind) is None and not is_phase_closed(ledger, c, side, kind)

    def keep(p: ShiftPlan) -> None:
        nonlocal skipped
        if p.eligible:
            plans.append(p)
        else:
            skipped += 1

    if open_(LedgerKind.HIP):
        hip_hexes = sorted({h for h in state.hidden_hexes(side) if state.hip_pieces_at(h, side)}, key=lambda h: (h.column, h.row))
        for a in hip_hexes:
            real = tuple(u.id for u in state.hip_units_at(a, side))
            movers = real or None
            for b in hip_hexes:
                if b != a:
                    keep(plan_hip_shift(state, side, a, b, env, movers_a=movers, clock=c, ledger=ledger))
    own = sorted((s for s in state.stacks if s.side == side), key=lambda s: (s.hex.column, s.hex.row, s.position.value, s.id))
    if open_(LedgerKind.DUMMY):
        for sa in own:
            if sa.potential_dummy and not sa.cloaked:
                for sb in own:
                    if sb.id != sa.id and not sb.cloaked:
                        keep(plan_dummy_shift(state, sa.id, sb.id, env, clock=c, ledger=ledger))
    if open_(LedgerKind.CLOAKED):
        for sa in own:
            if sa.cloaked and not sa.is_dummy:
                for sb in own:
                    if sb.id != sa.id and sb.cloaked:
                        keep(plan_cloaked_shift(state, sa.id, sb.id, env, clock=c, ledger=ledger))
    return plans, skipped


def _moving_values(state: FogState, plan: ShiftPlan, env: FogEnv) -> tuple[float, float, float, float]:
    """Value of real pieces going a->b and b->a, and decoy value at a and b."""
    if plan.kind is LedgerKind.HIP:
        units = {u.id for u in state.scenario.units}
        va = sum(_unit_value(state, m, env) for m in plan.movers_a if m in units)
        vb = sum(_unit_value(state, m, env) for m in plan.movers_b if m in units)
        da = sum(_DUMMY_COUNTER_VALUE for m in plan.movers_a if m not in units)
        db = sum(_DUMMY_COUNTER_VALUE for m in plan.movers_b if m not in units)
        return va, vb, da, db
    ((ida, idb),) = plan.stack_pairs[:1]
    a, b = state.stack(ida), state.stack(idb)
    va = sum(_unit_value(state, u, env) for u in a.unit_ids)
    vb = sum(_unit_value(state, u, env) for u in b.unit_ids)
    da = _DUMMY_COUNTER_VALUE * a.height if a.is_dummy else 0.0
    db = _DUMMY_COUNTER_VALUE * b.height if b.is_dummy else 0.0
    return va, vb, da, db


def choose_shift(state: FogState, side: str, env: FogEnv, seed: int, threshold: float = 0.05, *,
                 clock: Clock | None, ledger: Sequence[ShiftRecord] = ()) -> PolicyDecision:
    """The shift attempt ``side`` should make now (``clock``), if any, with every candidate
    explained; ``ledger``: the shifts made so far (O'Leary 2.5, 3.3.4), kept by the game."""
    plans, skipped = _plans(state, side, env, clock, ledger)
    if not plans:
        return PolicyDecision(side, (), None, "no eligible shift now (window closed or no candidates)", skipped)
    hexes = {p.hex_a for p in plans} | {p.hex_b for p in plans}
    threat = threat_map(state, side, env, hexes)
    rng = random.Random(seed * 1_000_003 + len(ledger))
    known = known_state(state, side)
    cands = []
    for p in plans:
        shown = shown_modifiers(state, p, env, known)
        odds = shift_band_odds(sum(m.value for m in shown), env.table)
        va, vb, da, db = _moving_values(state, p, env)
        ta, tb = threat[p.hex_a], threat[p.hex_b]
        gain = va * (ta - tb) + vb * (tb - ta)
        # 11-12: dummies eliminated, status lost (half the value of real pieces); >= 13: all revealed.
        lost = da + db + 0.5 * (va + vb)
        revealed = da + db + (va * ta + vb * tb) + (va + vb)
        closes = 1 - odds["allowed"]
        risk = float(odds["status_lost"]) * lost + float(odds["revealed"]) * revealed + float(closes) * _CLOSE_COST
        score = float(odds["allowed"]) * gain - risk + rng.random() * 1e-3
        cands.append(Candidate(p, odds, gain, risk, score, shown))
    cands.sort(key=lambda c: (-c.score, c.plan.hex_a.column, c.plan.hex_a.row, c.plan.hex_b.column, c.plan.hex_b.row))
    best = cands[0]
    if best.score <= threshold:
        return PolicyDecision(side, tuple(cands), None,
                              f"no candidate scores above {threshold}: best is {best.score:+.3f}", skipped)
    return PolicyDecision(side, tuple(cands), best, f"attempt {best.plan.kind.value} shift {best.plan.hex_a}->{best.plan.hex_b}", skipped)


def run_policy(state: FogState, side: str, dice: Dice, env: FogEnv, seed: int, max_attempts: int = 6,
               threshold: float = 0.05, *, clock: Clock | None, ledger: Sequence[ShiftRecord] = ()
               ) -> tuple[FogState, tuple[PolicyDecision, ...], tuple[ShiftResult, ...]]:
    """Make the policy's shift attempts for ``side`` now (``clock``), one by one, until no
    candidate is worth it, a failure closes the phase, or ``max_attempts`` is reached.
    Each result's ``record`` joins the ``ledger`` for the next attempt (O'Leary 2.5)."""
    decisions = []
    results = []
    led = tuple(ledger)
    for _ in range(max_attempts):
        d = choose_shift(state, side, env, seed, threshold, clock=clock, ledger=led)
        decisions.append(d)
        if d.chosen is None:
            break
        r = resolve_shift(state, d.chosen.plan, dice, env, clock=clock)
        results.append(r)
        state = r.state
        led += (r.record,)
    return state, tuple(decisions), tuple(results)


_REVEAL_COST = 0.5  # a minefield whose strength is known is worth less to its owner


def choose_minefield_shift(state: FogState, entered_id: str, env: FogEnv, seed: int, vehicles: bool = False,
                           threshold: float = 0.05, *, clock: Clock | None,
                           ledger: Sequence[ShiftRecord] = ()) -> PolicyDecision:
    """O'Leary 4.6.2 for the computer: an enemy unit has entered minefield ``entered_id``;
    exchange it with another unrevealed minefield of its owner, or not.

    Gain: P(allowed) x (the other's factors - the entered one's), AP factors
    against infantry, AT against vehicles (a dummy has none); risk: the other
    minefield's strength is revealed whatever the DR (4.6.2).
    """
    m = state.minefield(entered_id)
    side = m.side
    cands = []
    skipped = 0
    rng = random.Random(seed * 1_000_003 + len(ledger))
    known = known_state(state, side)

    def factors(x: Minefield) -> int:
        return 0 if x.dummy else (x.at if vehicles else x.ap)

    for o in sorted(state.minefields, key=lambda x: (x.hex.column, x.hex.row, x.id)):
        if o.side != side or o.id == m.id:
            continue
        p = plan_minefield_shift(state, m.id, o.id, env, clock=clock, ledger=ledger)
        if not p.eligible:
            skipped += 1
            continue
        shown = shown_modifiers(state, p, env, known)
        odds = shift_band_odds(sum(m.value for m in shown), env.table)
        gain = float(factors(o) - factors(m))
        risk = _REVEAL_COST * (0 if o.dummy else 1)
        score = float(odds["allowed"]) * gain - risk + rng.random() * 1e-3
        cands.append(Candidate(p, odds, gain, risk, score, shown))
    cands.sort(key=lambda c: -c.score)
    if not cands:
        return PolicyDecision(side, (), None, "no other unrevealed minefield of the same type (O'Leary 4.6.2, 4.6.5)", skipped)
    best = cands[0]
    if best.score <= threshold:
        return PolicyDecision(side, tuple(cands), None, f"keep the minefield at {m.hex}: best score {best.score:+.3f}", skipped)
    return PolicyDecision(side, tuple(cands), best, f"exchange the minefield at {m.hex} with the one at {best.plan.hex_b}", skipped)
