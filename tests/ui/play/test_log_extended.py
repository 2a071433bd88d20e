"""The player's log is extended, not walked again, after each action (issue 26's redraw
leftover: walking a long game's thousands of events on every click cost the redraw
milliseconds): after any mix of actions, take-backs, history steps and viewers, the
controller's log is still the session's own (``Session.log``) up to the position shown."""

from __future__ import annotations

import random

from gwasl.engine.game import OMNISCIENT, PLAYER, GameOptions
from gwasl.games import game_for
from gwasl.store.gamefile import create_game, load_source
from gwasl.ui.play.controller import GameController
from testsupport import SCENARIOS


def _expected(c: GameController, name: str) -> list:
    seqs = [seq for seq, _ in c.session.effective()]
    upto = c.position
    return [e for e in c.session.log(name) if upto and e["seq"] <= seqs[upto - 1]]


def test_the_log_extended_after_each_click_is_the_sessions_log(qtbot, tmp_path):
    src = load_source("aslgw", str(SCENARIOS / "bois-des-caures-1916.json"))
    gf = create_game(tmp_path / "g.game", game_for("aslgw"), src, 3, GameOptions(practice=True))
    c = GameController(gf)
    s = c.session
    rng = random.Random(11)
    for i in range(40):
        s.act(rng.choice(s.legal()).action)
        assert c.log() == _expected(c, c.viewer)
        if i % 7 == 6:
            s.undo()  # a take-back cuts the history the last log covered
            assert c.log() == _expected(c, c.viewer)
        if i % 11 == 10:
            c.step_to(rng.randrange(c.history_length))  # back in history: a prefix of the log
            assert c.log() == _expected(c, c.viewer)
            c.step_to(c.history_length)
        if i == 20:
            c.set_viewer(OMNISCIENT)  # another viewer's words: a log of its own
            assert c.log() == _expected(c, OMNISCIENT)
        if i == 30:
            c.set_viewer(PLAYER)
    assert c.live and c.log() == s.log(PLAYER)
    c.close()
