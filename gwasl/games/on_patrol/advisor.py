"""The On Patrol advisor: Suggest a move ranks the commander's plans by rollouts (issue 27 item 11).

What the rollouts start from: the submarine's commander sees the whole board (104.1.2),
and the state holds nothing more (the ships, markers, torpedoes and the escorts' last
orders are all on the board; the coming dice are in no state), so the policy view of the
submarine's seat -- the state -- is the position as the player knows it.

The plans (each a first action now, then ``sensible`` plays the boat on):

* ``sensible``: the game's own policy's choice (:mod:`.policies`);
* ``fire now``: where a torpedo may be launched and ``sensible`` holds fire, the launch of
  most expected VP over the convoy's moves (104.1.5, 104.3.1, 108.2.2);
* ``hold fire``: where ``sensible`` fires, the rest of this submarine phase played without
  launching (then ``sensible`` again from the next turn);
* ``go deep``: the deepest depth change offered (104.1.4: out of sight; 105.4.12: the Depth
  Combat Table reads the depth);
* ``launch depth``: the depth change nearest 75 feet, shallow enough to launch (designer's
  ruling: 100 feet at most), where the boat is deeper or ``sensible`` takes it deeper;
* ``break off``: where the patrol may be broken off (the game ends now, its result as it
  stands after the prolonged attack on a boat still in contact, mode 7).

Each plan's win chance is the mean over :data:`ROLLOUTS` rollouts on the advice dice
(:class:`~gwasl.engine.advice.AdviceDice`, never the game's), rollout ``i`` of every plan on
the same dice; the escorts play by Harmon's automaton (their only choice).  A rollout ends
when the patrol ends (1 if the submarine wins, by the scenario's victory levels, else 0) or
:data:`HORIZON` turns on, where it is scored by its leaf value (:func:`leaf`): 1 if the
patrol's result as it then stands is a victory for the submarine -- the VP of ships sunk or
sinking (each ship's Victory Point value, 103.3.3) less the VP of a submarine lost, against
the patrol's levels (gwasl's scoring, docs/on-patrol.md) -- and the boat is still on patrol,
else 0.  The leaf leaves out what ending there would roll (the
prolonged attack on a boat still in contact, mode 7): it is an estimate, not the end value.
Ties (often every plan at 0 before contact) go to a plan that plays on rather than
breaking off (the horizon cuts playing on short, never breaking off), then to the higher
mean score, then to the order above.  Each candidate's reason ends with its mean score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from gwasl.engine.advice import AdviceDice, Candidate
from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Game, GameError, Policy, Seat
from gwasl.engine.record import Record
from gwasl.games.on_patrol import policies as P
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.state import PatrolState
from gwasl.games.on_patrol.tables import tables


class _Judges(Protocol):
    """The game's result of a patrol as it stands (``OnPatrolGame.result``: imported from the
    game, the advisor would make an import cycle)."""

    def result(self, st: PatrolState, why: str) -> Mapping[str, Any]: ...


__all__ = ["BUDGET", "HORIZON", "ROLLOUTS", "advise", "leaf"]

#: rollouts per plan (benchmarks/advice.py: a suggestion within 2 s CPU); gwasl's choice
ROLLOUTS = 10
#: turns a rollout plays on before it is scored by its leaf value: gwasl's choice
HORIZON = 5
#: turns all of one plan's rollouts may play in all before no more are started (the escorts'
#: automaton costs most of a turn): keeps a suggestion within 2 s; gwasl's choice
BUDGET = 36
_STEP_LIMIT = 4_000
_SUB = R.SUB_SIDE
#: the depth the ``launch depth`` plan steers toward (``sensible``'s day depth; 100 feet is the launch limit)
_LAUNCH_DEPTH = 75


def leaf(game: Game[PatrolState], s: PatrolState) -> tuple[float, float]:
    """The leaf value of a rollout and its score: 1 if the patrol as it stands is the
    submarine's victory (the Victory Point values, 103.3.3, of ships sunk or sinking, less the VP
    of a lost boat, against the patrol's victory levels) with a boat still on patrol, else 0."""
    if s.over and s.result is not None:
        return (1.0 if s.result.get("winner") == _SUB else 0.0), float(s.result.get("score", 0))
    res = cast(_Judges, game).result(s, "")
    alive = any(sub.active for sub in s.subs)
    return (1.0 if res["winner"] == _SUB and alive else 0.0), float(res["score"])


@dataclass(frozen=True, slots=True)
class _Plan:
    name: str
    first: Decision
    #: plays the boat for the rest of this phase (``None``: ``sensible``)
    now: Policy | None = None


def _hold(seat: Seat[Any], dice: GameDice) -> Decision:
    d = P.sensible_with(seat, lambda *_a: None)
    return Decision(d.action, f"hold fire: {d.why}", d.details)


def _plans(seat: Seat[Any], sensible: Policy, dice: AdviceDice) -> list[_Plan]:
    st: PatrolState = seat.view()
    legal: Sequence[Record] = seat.legal()
    base = sensible(seat, dice)
    out = [_Plan("sensible", base)]
    if st.phase != 8:
        return out
    fires = isinstance(base.action, R.Launch)
    for sub in st.subs:
        if not sub.active:
            continue
        mine = [a for a in legal if getattr(a, "sub", None) == sub.id]
        if fires:
            out.append(_Plan("hold fire", _hold(seat, dice), _hold))
        else:
            shot = P.best_launch(st, sub, mine)
            if shot is not None and shot[2] > 0:
                a, p, add, target = shot
                out.append(_Plan("fire now", Decision(a, f"fire now: {p:.0%} to meet a ship, most often {target}, "
                                                         f"{add:.1f} VP expected (104.3.1, 108.2.2)")))
        dives = [a for a in mine if isinstance(a, R.Dive)]
        if dives:
            deep = max(dives, key=lambda a: a.depth)
            if deep.depth > sub.depth:
                out.append(_Plan("go deep", Decision(deep, f"go deep: to {deep.depth} ft, out of sight (104.1.4)")))
            limit = tables().c("torpedo_max_launch_depth")
            near = min(dives, key=lambda a: abs(a.depth - _LAUNCH_DEPTH))
            base_deeper = isinstance(base.action, R.Dive) and base.action.depth > limit
            if near.depth <= limit and (sub.depth > limit or base_deeper):
                out.append(_Plan("launch depth", Decision(near, f"stay able to fire: to {near.depth} ft "
                                                                f"(launch at {limit} ft or less, designer's ruling)")))
        break  # one boat's variants: the first on patrol
    if any(isinstance(a, R.BreakOff) for a in legal) and not isinstance(base.action, R.BreakOff):
        out.append(_Plan("break off", Decision(R.BreakOff(), "break off the patrol now: the result as it stands")))
    seen: set[Record] = set()
    unique = []
    for p in out:
        if p.first.action not in seen:
            seen.add(p.first.action)
            unique.append(p)
    return unique


def rollout(game: Game[PatrolState], s: PatrolState, plan: _Plan, sensible: Policy, dice: AdviceDice,
            horizon: int) -> tuple[float, float, int]:
    """One rollout from ``s`` (after the plan's first action), the escorts by Harmon's automaton
    (On Patrol 104.2, 105, 106): its value, score and the number of turns played (module docstring)."""
    automated = game.automated(s)
    turn, phase = s.turn, s.phase
    for _ in range(_STEP_LIMIT):
        if s.over:
            break
        if s.turn >= horizon and s.phase == 1:
            break
        side = game.status(s).side
        assert side is not None
        if side == _SUB:
            now = plan.now is not None and s.turn == turn and s.phase == phase
            decide = plan.now if now and plan.now is not None else sensible
        else:
            decide = automated[side]
        d = decide(Seat(game, s, game.viewer(s, side), quiet=True), dice)
        s = game.step(s, d.action, dice)
    value, score = leaf(game, s)
    return value, score, max(1, s.turn - turn)


def advise(game: Game[PatrolState], seat: Seat[Any], policies: Mapping[str, Policy], dice: AdviceDice,
           rollouts: int = ROLLOUTS, horizon: int = HORIZON, budget: int = BUDGET) -> Decision:
    """The commander's plans ranked by their chance of the patrol's victory (On Patrol 104.1.2:
    from the board as the commander sees it; module docstring):
    the best plan's first action, why, and every candidate in ``details["candidates"]``."""
    s: PatrolState = seat.view()
    sensible = policies.get("sensible") or next(iter(policies.values()))
    found: list[tuple[Candidate, float]] = []
    for plan in _plans(seat, sensible, dice):
        try:
            game.check_legal(s, plan.first.action, seat.viewer)
        except GameError:
            continue
        total, scores, made, n = 0.0, 0.0, 0, 0
        while n < rollouts and made < budget:
            n += 1
            d = dice.rollout(n)
            value, score, steps = rollout(game, game.step(s, plan.first.action, d), plan, sensible, d, s.turn + horizon)
            total, scores, made = total + value, scores + score, made + steps
        found.append((Candidate(plan.name, plan.first.action, f"{plan.first.why} (mean score {scores / n:.1f})",
                                total / n, n), scores / n))
    if not found:
        return sensible(seat, dice)
    ranked = [c for c, _ in sorted(found, key=lambda cs: (-cs[0].win_chance, isinstance(cs[0].action, R.BreakOff),
                                                           -cs[1]))]
    best = ranked[0]
    others = "; ".join(f"{c.plan} {c.chance_text()}" for c in ranked[1:])
    why = f"{best.why} (win chance {best.chance_text()}" + (f"; {others}" if others else "") + ")"
    return Decision(best.action, why, {"candidates": tuple(ranked)})
