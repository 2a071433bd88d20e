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
    assert told == [] and window.plans_label.isVisible()
    _, decision = gf.session.suggest()
    ranked = candidates_of(decision)
    text = window.plans_label.text()
    assert ranked and all(f"{c.plan}: {c.chance_text()} - {c.why}" in text for c in ranked)
    assert "rollouts" in text
    window.end_phase()
    assert not window.plans_label.isVisible()
