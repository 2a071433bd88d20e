"""Batch play over worker processes (CONTRACTS 6: the same figures whatever J).

The game is sent to the workers pickled, so gwasl.engine never imports
gwasl.games, a layer above it (docs/architecture.md "Layers"; tests/test_layering.py)."""

from __future__ import annotations

from typing import ClassVar

from engine.toygame import Run, ToyGame
from gwasl.engine.batch import batch
from gwasl.engine.game import Decision, GameOptions


def _runner(seat, dice):
    return Decision(Run(), "always run")


class Racer(ToyGame):
    """The toy game with a batch policy for red; module-level so workers can unpickle it."""

    def policies(self):
        return {"runner": _runner}

    def player_side(self, state):
        return "red"


def test_batch_figures_do_not_depend_on_jobs():
    opts = GameOptions(extra={"auto_blue": True})
    one = batch(Racer(), 24, seed=5, options=opts, jobs=1)
    two = batch(Racer(), 24, seed=5, options=opts, jobs=2)
    assert (one.games, one.wins, one.win_rate, one.ci95, one.mean_score) == (two.games, two.wins, two.win_rate, two.ci95, two.mean_score)
    assert one.games == 24


class _Counting(Racer):
    """Racer whose batch seats are recorded, and whose step is the default's."""

    seats: ClassVar[list[bool]] = []

    def policies(self):
        def runner(seat, dice):
            _Counting.seats.append(seat.quiet)
            return Decision(Run(), "always run")
        return {"runner": runner}


def test_play_out_uses_step_and_quiet_seats():
    """play_out reaches the state by Game.step (apply then reduce by default), and tells the
    policy nobody reads its explanation; the figures equal the plain apply/reduce loop's."""
    from gwasl.engine.batch import play_out
    from gwasl.engine.dice import GameDice
    from gwasl.engine.game import Seat

    opts = GameOptions(extra={"auto_blue": True})
    g = _Counting()
    r = play_out(g, g.policies()["runner"], 7, opts)
    assert _Counting.seats and all(_Counting.seats)
    s = g.setup(None, opts)
    d = GameDice(7)
    for e in g.begin(s, d):
        s = g.reduce(s, e)
    steps = 0
    while not g.status(s).over:
        side = g.status(s).side
        dec = (g.automated(s).get(side) or g.policies()["runner"])(Seat(g, s, g.viewer(s, side)), d)
        s2 = g.step(s, dec.action, GameDice(7, d.position))
        for e in g.apply(s, dec.action, d):
            s = g.reduce(s, e)
        assert s2 == s
        steps += 1
    assert (r.steps, r.won, r.score) == (steps, *g.score(s))
