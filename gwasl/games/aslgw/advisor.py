"""The Great War advisor: Suggest a move ranks a few plans for the person's side by rollouts
(issue 27 item 11).

The plans (each a first action now, then gwasl's opponent plays on):

* ``opponent``: gwasl's opponent's choice for your side (:func:`.opponent.opponent`, the hint
  before the advisor);
* ``fire <firers> at <hex>``: up to :data:`OTHER_SHOTS` other fire options the opponent prices
  best (its own screening and pricing: expected effect less risk, A7-A8);
* ``move <pieces> to <hex>``: up to :data:`OTHER_MOVES` moves of the legal list other than the
  opponent's, by its own movement score (toward its goals, into cover, away from fire; A4);
* ``pass`` / ``end phase``: holding fire or ending the phase, where the legal list offers it
  and the opponent does otherwise.

What the rollouts start from: only what your seat knows (:func:`rollout_state`).  Where gwasl
keeps a side's secrets (a game against gwasl), the enemy's hidden units, dummy HIP counters,
hidden fortifications and unknown minefields are left out, Control is as your side believes it
(A26.15), and each enemy "?" pile is one stack of notional squads of the enemy's most common
squad class among the units you see (one squad per counter under the "?", at most
:data:`PILE_SQUADS`; none seen: a first-line squad): what a "?" may be (A12.1, O'Leary 2.1),
never what it is.  Where no side keeps secrets (solitaire with both sides open) the person at
the desk sees everything, and the rollouts start from the state.

Where a notional "?" has a choice to make first in the rollout state (a Defensive First Fire at
the unit that just moved, A8.1), its side's opponent makes it on the rollout's dice before the
plan's first action.  A rollout plays, on the advice dice
(:class:`~gwasl.engine.advice.AdviceDice`, never the game's; rollout ``i`` of every plan on the
same dice), both sides by the opponent (and the shift and window policies where the rules call
them) for the rest of this player turn and the enemy's next -- at most :data:`HORIZON`
decisions, and :data:`BUDGET` decisions over all of a plan's rollouts (fewer where many plans
share :data:`TOTAL_BUDGET`), so a suggestion stays within 2 s: late in a long phase the rollouts
cover only the next decisions, not the enemy's player turn (benchmarks/advice.py gives the
figures).  It is scored by its leaf value (:func:`leaf`): the card's victory conditions judged
as if the game ended there (A26: Control of the objectives as your side believes it, A26.15;
CVP, A26.221; exit VP, A26.23; A26.3 for a side without conditions), 1 for your side's win, 1/2
for a draw, 0 for a loss (a card without victory conditions names no winner: there the sign of
the CVP margin below stands in, gwasl's reading, docs/rules-notes.md); ties between plans go to
the opponent's own plan (a leaf judged as if the game ended now cannot see an attack's progress:
at Saint-Julien, with ties going to the CVP margin, the German attacker stood still and lost
games the opponent won), then to the larger CVP margin (enemy CVP lost less your own, broken
units counting half a squad's: an estimate, gwasl's), then to the order above.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from gwasl.engine.advice import AdviceDice, Candidate
from gwasl.engine.game import Decision, Game, GameError, Policy, Seat, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import opponent as opp
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw.knowledge import is_hidden, seen_state
from gwasl.games.aslgw.records import EndPhase, Fire, Move, Pass
from gwasl.games.aslgw.state import AslgwState
from gwasl.model.scenario import Unit, UnitClass, UnitKind
from gwasl.rules.fog.state import ConcealStack, FogStatus

__all__ = ["BUDGET", "HORIZON", "OTHER_MOVES", "OTHER_SHOTS", "PILE_SQUADS", "ROLLOUTS", "TOTAL_BUDGET", "advise", "leaf", "rollout_state"]

#: rollouts per plan: gwasl's choice (benchmarks/advice.py: a suggestion within 2 s CPU)
ROLLOUTS = 4
#: decisions one rollout plays at most (both sides'): gwasl's choice
HORIZON = 40
#: decisions all of one plan's rollouts may play before no more are started: gwasl's choice
BUDGET = 60
#: decisions all plans' rollouts may play in all, shared evenly among the plans: gwasl's choice
TOTAL_BUDGET = 240
#: other fire options tried besides the opponent's own: gwasl's choice
OTHER_SHOTS = 2
#: other moves tried (the opponent's movement score, best first, A4): gwasl's choice
OTHER_MOVES = 2
#: notional squads under one enemy "?" at most: gwasl's stand-in (a "?" may hide a stack, A12.1)
PILE_SQUADS = 2


def _typical_class(seen: AslgwState, enemy: str) -> UnitClass:
    """The enemy's most common squad class among its units the seat sees (first line if none)."""
    fog = seen.fog
    found = Counter(u.unit_class for u in fog.scenario.units
                    if u.side == enemy and u.kind is UnitKind.SQUAD and u.unit_class is not None
                    and not is_hidden(fog, u.id))
    return found.most_common(1)[0][0] if found else UnitClass.FIRST_LINE


def rollout_state(state: AslgwState, viewer: Viewer) -> AslgwState:
    """The state a rollout starts from: only what ``viewer`` (the person's seat) knows (module
    docstring; O'Leary 2.1 and A12.1: a "?" is where and how many, never what).  Two games that
    differ only in facts hidden from the viewer give equal states."""
    blind = [s for s in state.settings.order if not viewer.sees_secrets_of(s)]
    if not state.secret or not blind:
        return state
    seen = seen_state(state, viewer)
    fog = seen.fog
    notional: list[Unit] = []
    stacks: list[ConcealStack] = []
    status = dict(fog.status)
    typical = {side: _typical_class(seen, side) for side in blind}
    for st in fog.stacks:
        if st.side not in blind or st.unit_ids:
            stacks.append(st)
            continue
        ids = []
        for k in range(min(PILE_SQUADS, max(1, st.height - 1))):
            uid = f"{st.id} #{k + 1}"
            notional.append(Unit(uid, st.side, UnitKind.SQUAD, st.hex, unit_class=typical[st.side], position=st.position))
            status[uid] = FogStatus.CLOAKED if st.cloaked else FogStatus.CONCEALED
            ids.append(uid)
        stacks.append(replace(st, unit_ids=tuple(ids)))
    if not notional:
        return seen
    sc = fog.scenario.with_units((*fog.scenario.units, *notional))
    return replace(seen, fog=replace(fog, scenario=sc, stacks=tuple(stacks), status=MappingProxyType(status)))


def _margin(state: AslgwState, side: str) -> float:
    t = vic.cvp_tally(state, False)
    mine = sum(v for s, v in t.cvp.items() if s == side)
    theirs = sum(v for s, v in t.cvp.items() if s != side)
    units = state.fog.scenario.units
    broken = sum(0.5 if u.side == side else -0.5 for u in units if u.broken and u.is_mmc)
    return float(mine - theirs) - broken


def leaf(state: AslgwState, side: str) -> tuple[float, float]:
    """The leaf value of a rollout for ``side`` and its CVP margin (module docstring: A26)."""
    margin = _margin(state, side)
    if not state.victory.card.conditions():
        # a card without victory conditions names no winner: the CVP margin's sign stands in (gwasl's)
        return (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0), margin
    if state.over and state.victory.result is not None:
        winner = state.victory.result.get("winner")
    else:
        v = vic.verdict(state, True)
        winner = v.winner if v is not None else None
    value = 1.0 if winner == side else 0.5 if winner is None else 0.0
    return value, margin


@dataclass(frozen=True, slots=True)
class _Plan:
    name: str
    first: Decision


def _plans(seat: Seat[Any], base: Decision) -> list[_Plan]:
    legal: Sequence[Record] = seat.legal()
    out = [_Plan("opponent", base)]
    fires = [a for a in legal if isinstance(a, Fire)]
    if fires:
        for s in [s for s in opp.priced_fire(seat, fires) if s.action != base.action][:OTHER_SHOTS]:
            a = s.action
            out.append(_Plan(f"fire {'+'.join(a.firers)} at {a.at}",
                             Decision(a, f"{'+'.join(a.firers)} {a.mode} fire at {a.at}: expected effect {s.effect:.2f}, "
                                         f"risk {s.harm:.2f} (A7, A8)")))
    moves = [a for a in legal if isinstance(a, Move) and a != base.action]
    if moves:
        for m in opp.scored_moves(seat, moves)[:OTHER_MOVES]:
            a = m.action
            where = a.to + ("" if a.to_in == "ground" else f" {a.to_in}") + ("" if a.mode == "normal" else f" ({a.mode})")
            out.append(_Plan(f"move {'+'.join(a.pieces)} to {where}",
                             Decision(a, f"{'+'.join(a.pieces)} {a.mode} move to {a.to} (A4): the opponent's "
                                         f"score for it {m.score:.1f}")))
    hold = next((a for a in legal if isinstance(a, Pass)), None)
    if hold is not None and not isinstance(base.action, Pass):
        out.append(_Plan("pass", Decision(hold, "hold: pass this chance (A3)")))
    end = next((a for a in legal if isinstance(a, EndPhase)), None)
    if end is not None and not isinstance(base.action, EndPhase):
        out.append(_Plan("end phase", Decision(end, "end the phase now (A3)")))
    return out


def _rollout(game: Game[AslgwState], s: AslgwState, side: str, dice: AdviceDice, horizon: int) -> tuple[float, float, int]:
    """One rollout from ``s`` (after a plan's first action): both sides by the opponent until
    the enemy's next player turn is over, the game ends or ``horizon`` decisions are made."""
    start = (s.turn, s.phasing)
    turns_seen = 0
    last = start
    made = 0
    while made < horizon and not s.over:
        now = (s.turn, s.phasing)
        if now != last:
            turns_seen += 1
            last = now
            if turns_seen >= 2:
                break  # the enemy's next player turn is over
        st = game.status(s)
        who = st.side
        if who is None:
            break
        decide = game.automated(s).get(who, opp.opponent)
        try:
            d = decide(Seat(game, s, game.viewer(s, who), quiet=True), dice)
            s = game.step(s, d.action, dice)
        except GameError:
            break  # a notional "?" the rules cannot carry on with: scored where it stands
        made += 1
    value, margin = leaf(s, side)
    return value, margin, max(1, made)


def _to_side(game: Game[AslgwState], s: AslgwState, side: str, dice: AdviceDice) -> tuple[AslgwState, int]:
    """``s`` played on by the other sides (their opponent and window policies) until ``side`` is to act."""
    made = 0
    while made < HORIZON and not s.over:
        who = game.status(s).side
        if who is None or who == side:
            break
        d = game.automated(s).get(who, opp.opponent)(Seat(game, s, game.viewer(s, who), quiet=True), dice)
        try:
            s = game.step(s, d.action, dice)
        except GameError:
            break
        made += 1
    return s, made


def advise(game: Game[AslgwState], seat: Seat[Any], policies: Mapping[str, Policy], dice: AdviceDice,
           rollouts: int = ROLLOUTS, horizon: int = HORIZON, budget: int = BUDGET) -> Decision:
    """The plans for the seat's side ranked by the chance of the card's victory (A26; module
    docstring): the best plan's first action, why, and every candidate in ``details["candidates"]``."""
    side = seat.viewer.name
    base_policy = policies.get("opponent") or next(iter(policies.values()))
    base = base_policy(seat, dice)
    start: AslgwState = seat.known_state()  # what the seat knows, never the truth (rollout_state)
    found: list[tuple[Candidate, float]] = []
    plans = _plans(seat, base)
    each = min(budget, TOTAL_BUDGET // len(plans))  # the same budget for every plan: none favoured by its place
    for plan in plans:
        total, margins, made, n, tried = 0.0, 0.0, 0, 0, 0
        while tried < rollouts and made < each:
            tried += 1
            d = dice.rollout(tried)
            # a notional "?" may have a choice of its own first (a Defensive First Fire, A8.1): its side's
            # opponent makes it on the rollout's dice, then the plan's first action is taken
            s0, first = _to_side(game, start, side, d)
            made += first
            try:
                game.check_legal(s0, plan.first.action, seat.viewer)
                after = game.step(s0, plan.first.action, d)
            except GameError:
                continue  # the plan cannot be made in this rollout's position: no value from it
            n += 1
            value, margin, steps = _rollout(game, after, side, d, horizon)
            total, margins, made = total + value, margins + margin, made + steps
        if n:
            found.append((Candidate(plan.name, plan.first.action, f"{plan.first.why} (CVP margin {margins / n:+.1f})",
                                    total / n, n), margins / n))
    if not found:
        return base
    # a tie goes to the opponent's own plan: the leaf judges the game as if it ended now, which
    # cannot see an attack's progress, and the CVP margin alone would favour standing still
    ranked = [c for c, _ in sorted(found, key=lambda cm: (-cm[0].win_chance, cm[0].plan != "opponent", -cm[1]))]
    best = ranked[0]
    others = "; ".join(f"{c.plan} {c.chance_text()}" for c in ranked[1:])
    why = f"{best.why} (win chance {best.chance_text()}" + (f"; {others}" if others else "") + ")"
    return Decision(best.action, why, {"candidates": tuple(ranked)})
