"""History stepping (docs/architecture.md "A game in play": a read-only step to any event): every position
History gives is exactly Session.state_at of the same event, in any order of steps, after
take-backs, with pruning, and when warmed ahead a budget at a time."""

from __future__ import annotations

import random

from engine.toygame import ToyGame
from gwasl.engine import history
from gwasl.engine.game import GameOptions
from gwasl.engine.history import History
from gwasl.engine.session import Session


def _played(n: int, seed: int = 3) -> Session:
    s = Session.new(ToyGame(), {"traps": [5, 7]}, seed, GameOptions(practice=True))
    rng = random.Random(seed)
    for i in range(n):
        legal = s.legal()
        if not legal:
            break
        s.act(rng.choice(legal).action)
        if i % 7 == 6:
            s.undo()
    return s


def test_every_position_is_the_sessions_own(monkeypatch):
    monkeypatch.setattr(history, "CHECKPOINT", 3)
    monkeypatch.setattr(history, "MAX_KEPT", 5)  # pruning happens too
    s = _played(40)
    h = History(s)
    assert len(h) == len(list(s.effective())) > 10
    counts = list(range(len(h) + 1))
    random.Random(1).shuffle(counts)
    near = None
    for count in counts:
        state = h.state_after(count, near)
        assert state == s.state_at(h.seqs[count - 1] if count else None), count
        near = (count, state)


def test_warming_ahead_keeps_states_that_make_each_step_short(monkeypatch):
    monkeypatch.setattr(history, "CHECKPOINT", 4)
    s = _played(60)
    h = History(s)
    while not h.warm(0.0005):
        pass
    reduced = []
    game = s.game
    real = type(game).reduce

    def counting(self, state, event):
        reduced.append(event)
        return real(self, state, event)

    expected = {count: s.state_at(h.seqs[count - 1] if count else None) for count in range(len(h) + 1)}
    monkeypatch.setattr(type(game), "reduce", counting)
    for count in range(len(h), -1, -5):
        reduced.clear()
        assert h.state_after(count) == expected[count]
        assert len(reduced) < history.CHECKPOINT, count  # from the kept state at or before it
