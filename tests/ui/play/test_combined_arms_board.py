"""The Combined Arms board, driven as a user would, offscreen (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QPushButton

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Seat
from gwasl.engine.session import Session
from gwasl.games import game_for
from gwasl.games.combined_arms.records import Commit, EndGame, EndPhase, Move
from gwasl.ui.play.boards import board_for
from gwasl.ui.play.combined_arms_board import TERRAIN_COLOUR, CombinedArmsBoard, action_hex
from ui.play.finalhelp import answer_final_question

GAME = game_for("combined-arms")


@pytest.fixture()
def board(qtbot):
    b = CombinedArmsBoard()
    qtbot.addWidget(b)
    b.resize(1000, 640)
    b.show()
    return b


def _session_in_fire_phase(turn: int = 3) -> Session:
    s = Session.new(GAME, None, 2)  # a board the planner fights on
    pol = GAME.policies()["planner"]
    n = 0
    while (s.status().turn < turn or s.state.phase != "fire") and not s.status().over:
        s.act(pol(Seat(GAME, s.state, s.viewer("attacker")), GameDice(1, n)).action)
        n += 1
    return s


def _click(qtbot, board: CombinedArmsBoard, label: str) -> None:
    pos = board.view.mapFromScene(board.centre_of(label))
    qtbot.mouseClick(board.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(pos.x(), pos.y()))


def test_the_board_is_the_rulesets_board_in_the_player_window(qtbot):
    b = board_for("combined-arms")
    qtbot.addWidget(b)
    assert isinstance(b, CombinedArmsBoard)


def test_it_draws_the_view_hexes_counters_and_aids(board):
    s = Session.new(GAME, None, 5)
    board.show_view(s.view(), s.legal())
    assert len(board._centres) == 79
    texts = {i.text() for i in board.scene.items() if hasattr(i, "text")}
    assert "?" in texts and "1a" in texts and "9g" in texts
    assert "Turn 1: move phase, attacker to act" in board.status.text()
    buttons = [board.buttons.itemAt(i).widget().text() for i in range(board.buttons.count())]
    assert buttons == ["end your move phase"]


def test_clicking_a_rear_edge_hex_offers_the_entries_and_sends_the_choice(qtbot, board):
    s = Session.new(GAME, None, 5)
    board.show_view(s.view(), s.legal())
    _click(qtbot, board, "1c")
    assert "D1 enters at 1c" in board.last_menu
    chosen = next(a for a in board._menu.actions() if a.text() == "D1 enters at 1c")
    with qtbot.waitSignal(board.action_requested) as sig:
        chosen.trigger()
    assert sig.args == [Move("D1", "1c")]


def test_fire_attacks_show_their_odds_before_you_commit(qtbot, board):
    s = _session_in_fire_phase()
    board.odds = lambda a: s.odds(a)
    board.show_view(s.view(), s.legal())
    commits = [la for la in s.legal() if isinstance(la.action, Commit)]
    assert commits, "the position should offer a fire attack"
    target = commits[0].action.target
    _click(qtbot, board, target)
    with_odds = [t for t in board.last_menu if "fires at" in t]
    assert with_odds and all("%" in t for t in with_odds)
    p = sum(o.p for o in s.odds(commits[0].action))
    assert abs(p - 1) < 1e-9


def test_hexless_actions_are_buttons(qtbot, board):
    s = _session_in_fire_phase()
    board.show_view(s.view(), s.legal())
    buttons = [board.buttons.itemAt(i).widget() for i in range(board.buttons.count())]
    end = next(b for b in buttons if isinstance(b, QPushButton) and b.text() == "end your fire phase")
    with qtbot.waitSignal(board.action_requested) as sig:
        qtbot.mouseClick(end, Qt.MouseButton.LeftButton)
    assert sig.args == [EndPhase()]


def test_armour_arcs_and_spent_sides_are_drawn(board, tmp_path):
    s = _session_in_fire_phase(4)
    view = s.view()
    board.show_view(view, s.legal())
    armour = [u for u in view["units"] if u["kind"] == "armour" and u["where"] == "board"]
    paths = [i for i in board.scene.items() if type(i).__name__ == "QGraphicsPathItem" and i.brush().style() != Qt.BrushStyle.NoBrush]
    assert len(paths) == len(armour) > 0  # one filled wedge each (the road is an unfilled path)
    out = tmp_path / "ca.png"
    assert board.grab().save(str(out)) and out.stat().st_size > 10_000


def test_action_hex_reads_moves_attacks_rolls_and_units():
    units = {"A1": "3c"}
    assert action_hex({"kind": "move", "unit": "D1", "to": "1c"}, units) == "1c"
    assert action_hex({"kind": "commit", "unit": "D1", "target": "5f"}, units) == "5f"
    assert action_hex({"kind": "roll_next", "hex": "4d"}, units) == "4d"
    assert action_hex({"kind": "pivot", "unit": "A1", "facing": 2}, units) == "3c"
    assert action_hex({"kind": "end_phase"}, units) is None


def _choose(qtbot, board: CombinedArmsBoard, label: str, want) -> str:
    """Click hex ``label`` and pick the first entry of its menu that ``want`` accepts."""
    _click(qtbot, board, label)
    text = next(t for t in board.last_menu if want(t))
    next(a for a in board._menu.actions() if a.text() == text.replace("&", "&&")).trigger()
    return text


def _press(qtbot, board: CombinedArmsBoard, text: str) -> None:
    items = [lay.itemAt(i) for lay in (board.buttons, board.final_buttons) for i in range(lay.count())]
    for item in items:
        w = item.widget()
        if isinstance(w, QPushButton) and w.text() == text:
            qtbot.mouseClick(w, Qt.MouseButton.LeftButton)
            return
    raise AssertionError(f"no button {text!r}")


def test_a_whole_game_by_mouse_to_the_score(qtbot, tmp_path):
    """Issue 15 item 4: File > New game > Combined Arms, then platoons enter, move and fire
    by clicks on the board (each fire attack shows its odds first), the enemy answers with
    its "why" in the log, and the game is ended by its button and scored (CA Victory)."""
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from gwasl.ui.play.window import PlayerWindow

    win = PlayerWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    win.tell = lambda title, text: win.messages.append((title, text))
    qtbot.addWidget(win)
    win.show()

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        dlg.ruleset.setCurrentIndex(dlg.ruleset.findData("combined-arms"))
        dlg.seed.setValue(11)
        dlg.out.setText(str(tmp_path / "ca.game"))
        qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, fill)
    win.new_game_dialog()
    board = win.board
    assert isinstance(board, CombinedArmsBoard) and win.messages == []
    fired = moved = 0
    shown_outlook = False
    for _ in range(400):
        view = win.controller.view()
        if view["over"]:
            break
        legal = win.controller.legal()
        kinds = {la.action.kind for la in legal}
        pending = view.get("pending") or {}
        if "break" in kinds or "roll_next" in kinds:  # the player's choices in the enemy phase
            la = legal[0]
            label = la.action.hex if la.action.kind == "roll_next" else board._unit_hexes()[la.action.unit]
            _choose(qtbot, board, label, lambda t: True)
        elif view["phase"] == "move" and view["turn"] >= 4:
            answers = answer_final_question(qtbot, "Yes")  # the window asks first (issue 26.6)
            _press(qtbot, board, next(la.shown.text for la in legal if la.action.kind == "end_game"))
            assert answers and "cannot be taken back" in answers[0]
        elif view["phase"] == "move":
            moves = [la.action for la in legal if la.action.kind == "move" and la.action.unit[0] in "DA"]
            if moves and moved < 3 * view["turn"]:
                a = moves[0]
                _choose(qtbot, board, a.to, lambda t, u=a.unit: t.startswith(u))
                moved += 1
            else:
                _press(qtbot, board, "end your move phase")
        elif view["phase"] == "fire":
            if pending.get("attack"):
                _press(qtbot, board, next(la.shown.text for la in legal if la.action.kind == "resolve"))
                fired += 1
            else:
                commits = [la.action for la in legal if la.action.kind == "commit"]
                if commits and fired < view["turn"]:
                    text = _choose(qtbot, board, commits[0].target, lambda t: "fires at" in t)
                    assert "%" in text  # the odds, before committing
                else:
                    _press(qtbot, board, "end your fire phase")
        else:
            raise AssertionError(f"stuck in {view['phase']}: {sorted(kinds)}")
        if view["turn"] == 3 and view["phase"] == "move" and not shown_outlook:
            qtbot.wait(20)
            win.grab().save(str(tmp_path / "turn3.png"))
            assert view["end_now"]["mean"] > 0 and 0 <= view["end_now"]["win_chance"] <= 1
            shown_outlook = True
    view = win.controller.view()
    assert view["over"] and moved >= 3 and fired >= 1 and shown_outlook
    res = view["result"]
    assert f"you score {res['score']}" in board.status.text() and res["turns"] == 3
    log = [win.log_list.item(i).text() for i in range(win.log_list.count())]
    assert any("activate in order" in t or "enemy" in t for t in log)
    assert win.messages == []
    assert win.controller.file.path.exists()
    qtbot.wait(10)
    out = tmp_path / "end.png"
    assert board.grab().save(str(out))


def test_the_board_fills_its_view_with_the_road_and_a_terrain_key(qtbot, board):
    """CA The Playing Board: the central road runs through its hexes off both edges; every
    terrain the dice can give has a key entry; the board grows with the window."""
    s = Session.new(GAME, None, 5)
    view = s.view()
    board.show_view(view, s.legal())
    texts = {i.text() for i in board.scene.items() if hasattr(i, "text")}
    assert {"open farmland", "road", "poor going", "crest", "woods", "wooded crest", "farm", "smoke"} <= texts
    tracks = [i for i in board.scene.items() if type(i).__name__ == "QGraphicsPathItem" and i.brush().style() == Qt.BrushStyle.NoBrush]
    road = max(tracks, key=lambda i: i.path().boundingRect().height())
    first, last = board.centre_of(view["board"]["road"][0]), board.centre_of(view["board"]["road"][-1])
    span = road.path().boundingRect()
    assert span.top() < first.y() and span.bottom() > last.y()  # on and off both edges
    # the key's road swatch is the board's road: a road hex under the same track (issue 27 item 4)
    swatch = [i for i in tracks if i.path().boundingRect().height() < span.height() / 4]
    assert {i.pen().color().name() for i in swatch} == {i.pen().color().name() for i in tracks if i not in swatch}
    road_hex = [i for i in board.scene.items() if type(i).__name__ == "QGraphicsPolygonItem"
                and i.contains(i.mapFromScene(swatch[0].path().boundingRect().center()))
                and i.brush().color().name() == TERRAIN_COLOUR["road"].name()]
    assert road_hex
    sizes = []
    for w, h in ((700, 450), (1400, 900)):
        board.resize(w, h)
        qtbot.waitUntil(lambda w=w: board.view.viewport().width() > w // 2)
        qtbot.wait(10)
        shown = board.view.mapFromScene(board.scene.sceneRect()).boundingRect()
        vp = board.view.viewport().rect()
        assert shown.width() >= vp.width() - 4 or shown.height() >= vp.height() - 4  # fits one way exactly
        sizes.append(shown.width())
    assert sizes[1] > sizes[0] * 1.5


def test_the_aids_show_your_platoons_off_the_board_and_the_result(qtbot, board):
    """CA Movement / Victory: platoons start off the board, enter, and may end exploited,
    withdrawn or broken; the aids list each box, and a finished game says who won."""
    s = Session.new(GAME, None, 5)
    board.show_view(s.view(), s.legal())
    assert [len(b) for b in board.tracks.boxes()] == [14, 0, 0, 0]
    s.act(Move("D1", "1a"))
    board.show_view(s.view(), s.legal())
    assert "D1" not in board.tracks.boxes()[0] and len(board.tracks.boxes()[0]) == 13
    while (s.status().turn, s.status().phase) != (2, "move"):
        las = s.legal()
        s.act(next((la.action for la in las if la.action.kind == "end_phase"), las[0].action))
    s.act(EndGame())
    board.show_view(s.view(), s.legal())
    assert board.status.text().startswith("The game is over (")
    assert s.view()["result"]["winner"] in board.status.text()


def test_counters_tell_what_they_are_on_hover(board):
    """Figure 2: fresh or spent, potential or real; armour faces a hex corner."""
    s = _session_in_fire_phase(3)
    view = s.view()
    board.show_view(view, s.legal())
    tips = {i.toolTip() for i in board.scene.items() if type(i).__name__ == "QGraphicsRectItem" and i.toolTip()}
    e = view["enemy"][0]
    assert any(t.startswith(f"{e['hex']}: a {e['platoon']} enemy platoon, {'fresh' if e['fresh'] else 'spent'}") for t in tips)
    armour = next(u for u in view["units"] if u["kind"] == "armour" and u["where"] == "board")
    assert any(t.startswith(f"{armour['id']}: armour platoon facing {armour['facing_name']}") for t in tips)
