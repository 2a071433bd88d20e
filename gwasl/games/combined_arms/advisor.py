"""The Combined Arms advisor: Suggest a move ranks plans by rollouts (issue 27 item 11).

The plans are the game's own policies (``raid``, ``planner``, ``cautious``: each a way
to play on from here) and, where the rules allow it now, ending the game (CA Sequence
of Play: "You may end the game after ... any earlier turn").  Each plan's first action
is its policy's choice now; its win chance is:

* for ending now, the exact chance that the final reveals reach 20
  (:func:`.outlook.win_chance`, CA Victory; the same figure the final-step confirmation
  shows): no dice;
* for a policy, the mean over :data:`ROLLOUTS` rollouts: from the position as you see it
  (the state holds nothing you may not know: a potential counter is unknown to
  everyone until its reveal roll), the plan's policy plays your side and the game's
  defender its own (CA Enemy Decisions), on the advice dice
  (:class:`~gwasl.engine.advice.AdviceDice`, never the game's), rollout ``i`` of every
  plan on the same dice.  A rollout is scored by the same exact end-now chance when the
  policy ends the game (the stop value: no reveal dice rolled) or when it reaches the
  horizon, :data:`HORIZON` turns on, at a moment it could end the game (the leaf: the
  value of stopping there, which playing on can only raise for a plan that would stop
  when behind); a game that ends by itself scores 1 for a win, 0 else.

The suggestion is the plan of the highest win chance (the first listed on a tie).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gwasl.engine.advice import AdviceDice, Candidate
from gwasl.engine.game import Decision, Game, GameError, Policy, Seat
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms.records import EndGame
from gwasl.games.combined_arms.state import MOVE, PLAYER_SIDE, State

__all__ = ["BUDGET", "END_NOW", "HORIZON", "PLANS", "ROLLOUTS", "advise", "may_end"]

#: rollouts per plan: 3 plans at this count answer in under 2 s on the shared machine
#: (benchmarks/advice.py); gwasl's choice, not Sabin's
ROLLOUTS = 20
#: your decisions a plan's rollouts may make in all before no more are started (a plan
#: of slow decisions gets fewer rollouts): keeps a suggestion within 2 s; gwasl's choice
BUDGET = 150
#: turns a rollout plays on before it is scored by ending there: gwasl's choice
HORIZON = 2
#: the plan of ending the game now
END_NOW = "end now"
#: the policies tried as plans, in the order a tie goes to (``random`` is no plan)
PLANS = ("raid", "planner", "cautious")
_STEP_LIMIT = 5_000


def may_end(s: State) -> bool:
    """Whether you may end the game now (CA Sequence of Play: after a whole turn, before
    anything moves in the next one; no choice of yours pending)."""
    return s.phase == MOVE and s.turn >= 2 and not s.acted and not s.breaks and not s.rolls


def end_value(s: State) -> float:
    """The exact chance that ending now wins (CA Victory): the stop and leaf value."""
    return O.win_chance(s, s.turn - 1)


def rollout(game: Game[State], s: State, plan: Policy, dice: AdviceDice, horizon: int) -> tuple[float, int]:
    """One rollout of ``plan`` from ``s`` (after its first action), the defender playing by
    CA Enemy Decisions: 1 or 0 for a game that ends by itself, else the exact end-now
    chance (CA Victory) where the plan stops or the horizon turn is reached; and the
    number of your decisions it took."""
    automated = game.automated(s)
    mine_made = 0
    for _ in range(_STEP_LIMIT):
        st = game.status(s)
        if st.over:
            return (1.0 if game.score(s)[0] else 0.0), mine_made
        side = st.side
        assert side is not None
        mine = side == PLAYER_SIDE
        if mine and s.turn >= horizon and may_end(s):
            return end_value(s), mine_made
        decide = plan if mine else automated[side]
        d = decide(Seat(game, s, game.viewer(s, side), quiet=True), dice)
        if mine:
            mine_made += 1
            if isinstance(d.action, EndGame):
                return end_value(s), mine_made
        s = game.step(s, d.action, dice)
    return (end_value(s) if may_end(s) else 0.0), mine_made


def advise(game: Game[State], seat: Seat[Any], policies: Mapping[str, Policy], dice: AdviceDice,
           rollouts: int = ROLLOUTS, horizon: int = HORIZON, budget: int = BUDGET) -> Decision:
    """The plans ranked by their chance of the 20 points of CA Victory (module docstring):
    the best plan's first action, why, and every candidate in ``details["candidates"]``,
    best first."""
    s: State = seat.view()
    found: list[Candidate] = []
    if may_end(s):
        found.append(Candidate(END_NOW, EndGame(), "end the game now: the final reveals score (CA Victory)",
                               end_value(s), 0, exact=True))
    plans = [(name, policies[name]) for name in PLANS if name in policies] or list(policies.items())[:1]
    for name, policy in plans:
        first = policy(seat, dice)
        try:
            game.check_legal(s, first.action, seat.viewer)
        except GameError:
            continue  # a plan that cannot go on from a position another plan made
        if isinstance(first.action, EndGame):
            if not any(c.exact for c in found):
                found.append(Candidate(name, first.action, first.why, end_value(s), 0, exact=True))
            continue
        total, made, n = 0.0, 0, 0
        try:
            while n < rollouts and made < budget:
                n += 1
                d = dice.rollout(n)
                value, steps = rollout(game, game.step(s, first.action, d), policy, d, s.turn + horizon)
                total, made = total + value, made + steps
        except GameError:
            continue  # the policy lost its way in a position another plan made: no plan here
        found.append(Candidate(name, first.action, first.why, total / n, n))
    if not found:  # no plan could go on: the first policy's choice, unranked
        name, policy = next(iter(policies.items()))
        return policy(seat, dice)
    ranked = sorted(found, key=lambda c: -c.win_chance)  # stable: a tie keeps the listed order
    best = ranked[0]
    others = "; ".join(f"{c.plan} {c.chance_text()}" for c in ranked[1:])
    why = f"{best.why} (win chance {best.chance_text()}" + (f"; {others}" if others else "") + ")"
    return Decision(best.action, why, {"candidates": tuple(ranked)})
