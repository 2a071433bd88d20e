"""Issue 27 item 11: the advisor's plans show inline for On Patrol and the Great War as for
Combined Arms (tests/ui/play/test_suggest_panel.py), and a long suggestion in a window about
800 px tall scrolls in the Actions dock instead of being cut at the dock's bottom."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint

from gwasl.engine.advice import Candidate, candidates_of
from gwasl.engine.game import Decision, GameOptions
from gwasl.games import game_for
from gwasl.games.on_patrol.scenario import load_bundled
from gwasl.store.gamefile import create_game
from gwasl.ui.play.controller import GameController
from testsupport import SCENARIOS


def _on_patrol(tmp_path: Path):
    return create_game(tmp_path / "op.game", game_for("on-patrol"), copy.deepcopy(load_bundled("day-convoy")), 3,
                       GameOptions())


def _great_war(tmp_path: Path):
    import json

    doc = json.loads((SCENARIOS / "saint-julien-1915.json").read_text(encoding="utf-8"))
    return create_game(tmp_path / "gw.game", game_for("aslgw"), doc, 2,
                       GameOptions(frozenset({"british"}), False, {"opponent": "british"}))


@pytest.mark.parametrize("make", [_on_patrol, _great_war], ids=["on-patrol", "aslgw"])
def test_the_plans_show_inline_for_on_patrol_and_the_great_war(qtbot, window, tmp_path, make) -> None:
    """On Patrol 104.1.2 (the commander's plans) and A26 (the Great War's leaf): each plan's
    win chance, the rollouts it rests on and why, under the suggestion, in no modal box."""
    gf = make(tmp_path)
    window.set_controller(GameController(gf))
    told: list[str] = []
    window.tell = lambda title, text: told.append(title)
    window.suggest_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.advising, timeout=60000)
    assert told == [] and window.plans_label.isVisible()
    hint = gf.session.suggest()
    assert hint is not None
    ranked = candidates_of(hint[1])
    assert ranked and all(f"{c.plan}: {c.chance_text()} - {c.why}" in window.plans_label.text() for c in ranked)


def test_a_long_suggestion_scrolls_in_an_800_px_window_and_is_never_cut(qtbot, window, tmp_path) -> None:
    """At 1000 x 800 a suggestion of many plans is taller than the room under the Actions list:
    it scrolls (the scroll bar reaches every line), every label keeps its whole wrapped text,
    and the area ends inside the window (it was cut at the dock's bottom before)."""
    gf = _on_patrol(tmp_path)
    window.set_controller(GameController(gf))
    window.resize(1000, 800)
    qtbot.wait(50)
    hint = gf.session.suggest("sensible")
    assert hint is not None
    plans = tuple(Candidate(f"plan {i}", hint[1].action, "a reason long enough to wrap over several lines of the "
                                                          "Actions dock, as the Great War's fire plans do " * 2,
                            0.5 - i / 100, 10) for i in range(14))
    window._advised((gf.session.state, ("plan 0", Decision(hint[1].action, "the best plan", {"candidates": plans}))))
    area = window.suggest_area
    qtbot.waitUntil(lambda: window.plans_label.isVisible() and area.isVisible())
    qtbot.wait(50)
    bar = area.verticalScrollBar()
    assert area.widget().height() > area.viewport().height() and bar.maximum() > 0
    for label in (window.suggest_label, window.plans_label):
        assert label.height() >= label.heightForWidth(label.width()), label.objectName()
    bottom = area.mapTo(window, QPoint(0, area.height())).y()
    assert area.height() > 0 and bottom <= window.height()
    assert window.actions_list.height() > 40  # the list keeps room of its own
    bar.setValue(bar.maximum())  # the last plan's line can be reached
    last = window.plans_label.mapTo(area.viewport(), QPoint(0, window.plans_label.height())).y()
    assert last <= area.viewport().height() + 1
    assert window.grab().save(str(tmp_path / "suggest-800.png"))  # rendered offscreen: looked at by hand
