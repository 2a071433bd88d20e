"""The player window's controller: history positions drawn from kept states (issue 14
item 7, stepping through history fast) must be exactly the session's own replay, in any
order of steps and after take-backs; its log the session's log."""

from __future__ import annotations

import random

from gwasl.engine import history
from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.store.gamefile import create_game, load_source
from gwasl.ui.play.controller import GameController
from testsupport import SCENARIOS


def test_history_states_equal_the_sessions_replay_in_any_order(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(history, "CHECKPOINT", 4)
    monkeypatch.setattr(history, "MAX_KEPT", 10)  # pruning happens too
    game = game_for("aslgw")
    src = load_source("aslgw", str(SCENARIOS / "bois-des-caures-1916.json"))
    gf = create_game(tmp_path / "g.game", game, src, 3, GameOptions(frozenset({"french"}), practice=True))
    c = GameController(gf)
    s = c.session
    rng = random.Random(5)
    for i in range(45):
        legal = s.legal()
        s.act(rng.choice(legal).action)
        if i % 9 == 8:
            s.undo()  # take-backs leave kept states of events no longer in the history
    seqs = [seq for seq, _ in s.effective()]
    assert c.history_length == len(seqs) > 25
    counts = list(range(len(seqs) + 1))
    rng.shuffle(counts)
    for count in [*counts, *range(len(seqs), len(seqs) - 20, -1)]:
        c.step_to(count)
        expect = s.state_at(seqs[count - 1] if count else None)
        assert game.encode_state(c._state()) == game.encode_state(expect), count
        assert c.position == count
        assert c.log() == [e for e in s.log() if not count or e["seq"] <= seqs[count - 1]][: len(c.log())]
        assert [e["seq"] for e in c.log()] == [e["seq"] for e in s.log() if count and e["seq"] <= seqs[count - 1]]
    c.step_to(len(seqs))
    assert c.live and c.log() == s.log()
    c.close()


def test_idle_moments_prepare_the_history_of_a_game_just_opened(qtbot, tmp_path):
    """The first step back in a long game just opened costs no replay from the start: the
    history was reduced while the window was idle, a few ms at a time."""
    game = game_for("aslgw")
    src = load_source("aslgw", str(SCENARIOS / "bois-des-caures-1916.json"))
    gf = create_game(tmp_path / "g.game", game, src, 3, GameOptions(frozenset({"french"}), practice=True))
    rng = random.Random(2)
    for _ in range(60):
        gf.session.act(rng.choice(gf.session.legal()).action)
    c = GameController(gf)  # as when the file is opened: nothing kept yet
    n = c.history_length
    assert n > 3 * history.CHECKPOINT
    qtbot.waitUntil(lambda: not c._warmer.isActive(), timeout=20000)
    reduced = []
    real = type(game).reduce

    def counting(self, state, event):
        reduced.append(event)
        return real(self, state, event)

    type(game).reduce = counting
    try:
        for count in (n - 1, n // 2, 1, n - 2):
            reduced.clear()
            c.step_to(count)
            assert len(reduced) < history.CHECKPOINT, (count, len(reduced))
            assert game.encode_state(c._state()) == game.encode_state(c.session.state_at(c._history[count - 1]))
    finally:
        type(game).reduce = real
    # take-backs and new actions: the idle pass catches up, every position still exact
    c.step_to(c.history_length)
    for _ in range(2):
        c.session.undo()
    c.session.act(rng.choice(c.session.legal()).action)
    qtbot.waitUntil(lambda: not c._warmer.isActive(), timeout=20000)
    seqs = [seq for seq, _ in c.session.effective()]
    for count in range(len(seqs) - 1, 0, -7):
        c.step_to(count)
        assert game.encode_state(c._state()) == game.encode_state(c.session.state_at(seqs[count - 1])), count
    c.close()
