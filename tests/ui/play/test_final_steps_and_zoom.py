"""Issue 26 items 6 and 8, driven as a user would: a step that ends the game for good is
asked about first, with the exact chances of its score; every board zooms from View."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QPushButton

from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.games.combined_arms.odds import end_game_odds
from gwasl.store.gamefile import create_game
from gwasl.ui.play.combined_arms_board import CombinedArmsBoard
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.on_patrol_board import OnPatrolBoard
from gwasl.ui.play.window import PlayerWindow
from ui.play.finalhelp import answer_final_question


def _ca_window_at_end_choice(window, tmp_path) -> CombinedArmsBoard:
    """A Combined Arms game played by the planner up to the first position that offers
    "end the game after turn N and score it" (CA Victory)."""
    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions())
    window.set_controller(GameController(gf))
    c = window.controller
    for _ in range(300):
        if any(la.action.kind == "end_game" for la in c.legal()):
            break
        suggestion = c.session.suggest("raid")  # the policy alone: the advisor's rollouts take seconds a position
        assert suggestion is not None
        c.act(suggestion[1].action)
    else:
        raise AssertionError("the game never offered to end")
    assert isinstance(window.board, CombinedArmsBoard)
    return window.board


def _final_button(board: CombinedArmsBoard) -> QPushButton:
    widgets = [board.final_buttons.itemAt(i).widget() for i in range(board.final_buttons.count())]
    buttons = [w for w in widgets if isinstance(w, QPushButton)]
    assert len(buttons) == 1 and buttons[0].text().startswith("end the game")
    return buttons[0]


def test_ending_a_combined_arms_game_asks_first_with_the_exact_score_and_stands_apart(qtbot, window, tmp_path):
    """CA Victory: ending the game reveals every enemy counter left and scores; take-back
    refuses afterwards, so the window asks, showing the distribution ``gwasl game odds GAME
    end_game`` gives (end_game_odds) and its mean, and the button is not among the phase buttons."""
    board = _ca_window_at_end_choice(window, tmp_path)
    button = _final_button(board)
    phase_texts = [board.buttons.itemAt(i).widget().text() for i in range(board.buttons.count())
                   if isinstance(board.buttons.itemAt(i).widget(), QPushButton)]
    assert not any(t.startswith("end the game") for t in phase_texts)
    qtbot.waitUntil(board.final_heading.isVisible)
    assert "cannot be taken back" in board.final_heading.text()
    # apart: the phase buttons are above, the final one under its heading further down
    assert button.mapTo(board, button.rect().topLeft()).y() > board.final_heading.mapTo(board, board.final_heading.rect().topLeft()).y()
    for i in range(board.buttons.count()):
        w = board.buttons.itemAt(i).widget()
        if isinstance(w, QPushButton):
            assert w.mapTo(board, w.rect().bottomLeft()).y() + 12 < button.mapTo(board, button.rect().topLeft()).y()

    c = window.controller
    state = c.session.state
    expected = end_game_odds(c.session.game, state, state.turn - 1)
    mean = c.view()["end_now"]["mean"]
    asked = answer_final_question(qtbot, "No")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(asked))
    question = asked[0]
    assert "cannot be taken back" in question
    assert f"you score {mean:.2f} on average" in question
    for o in expected[:12]:
        assert f"{o.p:7.2%}  {o.result}" in question
    assert not c.view()["over"], "No leaves the game as it was"

    asked = answer_final_question(qtbot, "Yes")
    qtbot.mouseClick(_final_button(board), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: c.view()["over"])
    ok, reason = c.session.undo_target()[0], c.session.undo_target()[1]
    assert ok == [] and reason is not None and "take-back stops there" in reason


def test_on_patrol_breaking_off_is_asked_about_and_no_keeps_the_patrol(qtbot, window, tmp_path):
    """On Patrol: breaking off ends the patrol for good (take-back refuses past its dice)."""
    gf = create_game(tmp_path / "op.game", game_for("on-patrol"), None, 3, GameOptions())
    window.set_controller(GameController(gf))
    c = window.controller
    offers = [la for la in c.legal() if la.action.kind == "break_off"]
    for _ in range(200):
        if offers or c.view()["over"]:
            break
        c.act(c.legal()[0].action)
        offers = [la for la in c.legal() if la.action.kind == "break_off"]
    if not offers:
        pytest.skip("this patrol never offered to break off")
    asked = answer_final_question(qtbot, "No")
    board = window.board
    assert isinstance(board, OnPatrolBoard)
    row = [la.action for la in board._legal].index(offers[0].action)
    board.orders.setCurrentRow(row)
    qtbot.mouseClick(board.act_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(asked))
    assert "cannot be taken back" in asked[0] and not c.view()["over"]


def test_practice_mode_asks_nothing(tmp_path):
    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions(practice=True))
    from gwasl.games.combined_arms.records import EndGame

    assert not GameController(gf).is_final(EndGame())


@pytest.mark.parametrize("ruleset", ["combined-arms", "on-patrol"])
def test_view_zoom_in_out_fit_and_100_on_the_solitaire_boards(qtbot, window, tmp_path, ruleset):
    """Issue 26.8: View > Zoom in (Ctrl++), Zoom out (Ctrl+-), Fit (Ctrl+0), 100%; the board
    fits on open and on resize until the user zooms."""
    gf = create_game(tmp_path / "g.game", game_for(ruleset), None, 3, GameOptions())
    window.set_controller(GameController(gf))
    board = window.board
    qtbot.wait(20)
    fitted = board.zoom_level()
    qtbot.keyClick(window, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert board.zoom_level() == pytest.approx(fitted * 1.25, rel=0.02)
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert board.zoom_level() == pytest.approx(fitted * 1.25 * 0.64, rel=0.02)
    window.zoom_actual_action.trigger()
    assert board.zoom_level() == pytest.approx(1.0)
    window.resize(1000, 700)  # a zoom the user chose survives a resize
    qtbot.wait(20)
    assert board.zoom_level() == pytest.approx(1.0)
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    small = board.zoom_level()
    assert small != pytest.approx(1.0)
    window.resize(1600, 1000)  # fitted: it follows the window
    qtbot.wait(20)
    assert board.zoom_level() > small * 1.1
    menu = next(m for m in window.menuBar().actions() if m.text() == "&View").menu()
    assert [a.text() for a in menu.actions()[:4]] == ["Zoom &in", "Zoom &out", "&Fit the map", "&100%"]


def test_the_great_war_map_zooms_from_view_and_follows_resizes_when_fitted(qtbot, window, tmp_path):
    from ui.play.playhelp import start

    board = start(window, tmp_path, "bois-des-caures-1916.json")
    window.zoom_fit_action.trigger()
    z = board.zoom_level()
    window.zoom_in_action.trigger()
    assert board.zoom_level() == pytest.approx(z * 1.25, rel=0.02)
    window.zoom_actual_action.trigger()
    assert board.zoom_level() == pytest.approx(1.0)
    window.zoom_fit_action.trigger()
    z = board.zoom_level()
    window.resize(1700, 1100)
    qtbot.wait(20)
    assert board.zoom_level() > z


def test_the_dock_layout_is_remembered(qtbot, tmp_path):
    settings = str(tmp_path / "layout.ini")
    win = PlayerWindow(QSettings(settings, QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.log_dock.hide()
    win.removeDockWidget(win.victory_dock)
    win.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, win.victory_dock)
    win.victory_dock.show()
    win.close()
    again = PlayerWindow(QSettings(settings, QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert not again.log_dock.isVisible()
    assert again.dockWidgetArea(again.victory_dock) == Qt.DockWidgetArea.LeftDockWidgetArea


def test_the_editor_has_100_percent_and_remembers_its_docks(qtbot, tmp_path):
    from gwasl.ui.mainwindow import MainWindow

    settings = str(tmp_path / "editor.ini")
    win = MainWindow(None, QSettings(settings, QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.show()
    win.act_actual.trigger()
    assert win.view.zoom == pytest.approx(1.0)
    win.act_zoom_in.trigger()
    assert win.view.zoom == pytest.approx(1.25)
    win.units_dock.hide()
    win.close()
    again = MainWindow(None, QSettings(settings, QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    again.show()
    assert not again.units_dock.isVisible()


def test_a_fanned_stack_at_the_views_edge_stays_inside_the_view(qtbot, window, tmp_path):
    """Issue 26.8: a clicked stack fans out past the view's edge; now the row moves inside."""
    from ui.play.playhelp import start

    board = start(window, tmp_path, "bois-des-caures-1916.json")
    view = board.view
    stacks = [it for it in board.scene.stacks.values() if len(it.stack.counters) > 2]
    assert stacks, "the scenario has a stack of three or more"
    item = stacks[0]
    view.zoom_by(2.0)
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    # scroll so that the stack at rest sits just inside the view's left edge, as a user pointing at it sees it
    rest = item.mapRectToScene(item.boundingRect())
    view.centerOn(rest.left() - 2 + seen.width() / 2, item.scenePos().y())
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(rest)
    item.set_fanned(True)
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    row = item.mapRectToScene(item.boundingRect())
    assert seen.contains(row), (seen, row)
