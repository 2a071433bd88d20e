"""Issue 27 item 11: the Suggest panel shows the advisor's plans inline (not in a modal box):
each plan's win chance with the rollouts it rests on and its reason, under the suggestion;
they go with the position."""

from __future__ import annotations

from gwasl.engine.advice import candidates_of
from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.store.gamefile import create_game
from gwasl.ui.play.controller import GameController


def test_the_plans_show_under_the_suggestion_and_go_with_the_position(qtbot, window, tmp_path):
    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions())
    window.set_controller(GameController(gf))
    told: list[str] = []
    window.tell = lambda title, text: told.append(title)
    window.suggest_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.advising, timeout=30000)  # worked out in another thread
    assert told == [] and window.plans_label.isVisible()
    _, decision = gf.session.suggest()
    ranked = candidates_of(decision)
    text = window.plans_label.text()
    assert ranked and all(f"{c.plan}: {c.chance_text()} - {c.why}" in text for c in ranked)
    assert "rollouts" in text
    qtbot.waitUntil(lambda: window.plans_label.height() > 0)
    for label in (window.suggest_label, window.plans_label):  # read whole, never clipped by the dock
        assert label.height() >= label.heightForWidth(label.width()), (label.objectName(), label.height())
    window.end_phase()
    assert not window.plans_label.isVisible()


def test_the_window_answers_while_the_advisor_weighs_and_drops_a_stale_hint(qtbot, window, tmp_path, monkeypatch):
    """The advisor's rollouts take up to seconds (issue 27 item 11): they run in another thread
    while the window goes on answering (a UI timer fires meanwhile), and a suggestion asked of
    a position the game has left is not shown."""
    import threading

    from PySide6.QtCore import QTimer

    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions())
    window.set_controller(GameController(gf))
    session = window.controller.session
    release = threading.Event()
    real = session.suggest

    def slow_suggest(policy=None):  # the advisor, held until the UI thread has shown it is free
        assert threading.current_thread() is not threading.main_thread()
        release.wait(20)
        return real(policy)

    monkeypatch.setattr(session, "suggest", slow_suggest)
    ticks: list[int] = []
    QTimer.singleShot(10, lambda: (ticks.append(1), release.set()))
    window.suggest_action.trigger()
    assert window.controller.advising and "weighing" in window.suggest_label.text()
    qtbot.waitUntil(lambda: not window.controller.advising, timeout=30000)
    assert ticks == [1] and window.plans_label.isVisible()
    # asked, then the game moves on before the answer: the answer is dropped
    release.clear()
    window.suggest_action.trigger()
    window.end_phase()
    release.set()
    qtbot.waitUntil(lambda: not window.controller.advising, timeout=30000)
    assert not window.suggest_label.isVisible() and not window.plans_label.isVisible()
