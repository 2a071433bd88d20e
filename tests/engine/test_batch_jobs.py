"""Batch play over worker processes (CONTRACTS 6: the same figures whatever J).

The game is sent to the workers pickled, so gwasl.engine never imports
gwasl.games, a layer above it (DESIGN.md; tests/test_layering.py)."""

from __future__ import annotations

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
