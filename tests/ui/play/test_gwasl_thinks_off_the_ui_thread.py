"""Issue 25 item 6: the window stays responsive while gwasl thinks.  At the instant pace
and in Continue to my next decision, as at the paced speeds, gwasl's decisions are
worked out in another thread (``Session.automaton_decision``) and played on the UI
thread through the session (``Session.commit_decision``): the event loop goes on
(a timer fires) while gwasl is deciding."""

from __future__ import annotations

import json
import time
from typing import Any

from PySide6.QtCore import QTimer

from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.store.gamefile import create_game
from gwasl.ui.play.controller import GameController
from testsupport import SCENARIOS

#: how long each of gwasl's decisions is made to take here (its real cost: ~5 ms)
SLOW = 0.05


def _against_gwasl(window: Any, tmp_path: Any, qtbot: Any) -> tuple[GameController, list[tuple[bool, bool]]]:
    """A Rossignol game against gwasl's German, each of its decisions slowed down, and a
    timer of the UI thread noting (gwasl thinking, Continue under way) at each tick."""
    src = json.loads((SCENARIOS / "rossignol-1914.json").read_text(encoding="utf-8"))
    gf = create_game(tmp_path / "t.game", game_for("aslgw"), src, 3,
                     GameOptions(frozenset({"german"}), False, {"opponent": "german"}))
    window.set_controller(GameController(gf))
    c = window.controller
    decide = c.session.automaton_decision

    def slow() -> Any:
        time.sleep(SLOW)  # in gwasl's thread: the UI thread must not wait for it
        return decide()

    c.session.automaton_decision = slow  # type: ignore[method-assign]
    ticks: list[tuple[bool, bool]] = []
    timer = QTimer(window)
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append((c.thinking, window._continuing)))
    timer.start()
    return c, ticks


def _player_choice(c: GameController) -> Any:
    legal = c.legal()
    return next((la.action for la in legal if la.shown.kind in ("end_phase", "pass")), legal[0].action)


def test_at_the_instant_pace_the_event_loop_runs_while_gwasl_thinks(qtbot, window, tmp_path):
    c, ticks = _against_gwasl(window, tmp_path, qtbot)
    assert window.pace == "instant"
    for _ in range(60):
        assert window.request(_player_choice(c))
        qtbot.waitUntil(lambda: not window.gwasl_busy(), timeout=60000)
        if any(thinking for thinking, _ in ticks):
            break
    else:
        raise AssertionError("gwasl never answered")
    # the timer fired while gwasl was deciding: the UI thread was free
    assert any(thinking for thinking, _ in ticks)
    assert not c.gwasl_to_act()


def test_continue_to_my_next_decision_keeps_the_event_loop_running(qtbot, window, tmp_path):
    c, ticks = _against_gwasl(window, tmp_path, qtbot)
    for _ in range(80):
        window.continue_to_decision()
        qtbot.waitUntil(lambda: not window.gwasl_busy(), timeout=60000)
        if any(thinking and continuing for thinking, continuing in ticks) or c.session.status().over:
            break
        assert window.request(_player_choice(c))
        qtbot.waitUntil(lambda: not window.gwasl_busy(), timeout=60000)
    # gwasl answered within a Continue, and the timer fired meanwhile
    assert any(thinking and continuing for thinking, continuing in ticks)
    # and Continue still stops at the player's next choice
    if not c.session.status().over:
        assert {la.shown.kind for la in c.legal()} - {"end_phase", "end_window"}
