"""Issue 26: the Great War player window as a wargamer's table, each item driven through
the real widgets as a user would, the pictures checked on their rendered pixels:

1. the scenario card at New game and from the Scenario menu, with the live count (A26);
2. fire-state markers on the map and in hover text (A7, A8: Prep/First/Final Fire, A8.2
   Residual FP, CX A4.5, DM A10.62, pinned A7.8...);
3. what a selected action, log line or history step is about, outlined on the map; short
   ids on counters; the Actions list grouped by stack and unit;
4. a drag's target hexes marked with the MF a step costs and the MF left; a refused drag
   says why with its rule (ASLGW 1.4.1);
5. the LOS thread and the hex read-out over what the viewer knows (ASLGW 2.1.1; A6.2);
7. no stale text after an action or a Take back.
(Items 10 and 11: tests/ui/play/test_desktop_and_errors.py.)"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QHelpEvent, QImage
from PySide6.QtWidgets import QApplication, QToolTip

from games.aslgw.variants import hidden_variants
from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.model.hexgrid import Hex
from gwasl.store.gamefile import create_game, load_source
from gwasl.ui import style
from gwasl.ui.counters import STATUS_STYLE, counter_parts
from gwasl.ui.play.aslgw_board import AslgwBoard, drawing_from_game_view, mf_mark, public_scenario
from gwasl.ui.play.card import card_lines
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.newgame import NewGameDialog
from testsupport import ROOT, SCENARIOS
from ui.play.playhelp import choose, click_end_button, end_until, hexes, legal, phase, point, right_click, start
from ui.test_counters_readable import assert_readable


def zoom_on(board: AslgwBoard, label: str, scale: float = 1.6) -> None:
    """A readable zoom (counters about 55 px wide) centred on ``label``."""
    board.view.resetTransform()
    board.view.scale(scale, scale)
    c = board.scene.layout.hex_to_pixel(Hex.from_label(label))
    QApplication.processEvents()  # the scroll range follows the new scale on the next layout
    board.view.centerOn(c.x, c.y)
    QApplication.processEvents()


def grab(board: AslgwBoard) -> QImage:
    return board.view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def count_colour(img: QImage, colour: str, rect=None, tol: int = 0) -> int:
    want = QColor(colour)
    r = rect if rect is not None else img.rect()
    n = 0
    for y in range(max(0, r.top()), min(img.height(), r.bottom() + 1)):
        for x in range(max(0, r.left()), min(img.width(), r.right() + 1)):
            c = img.pixelColor(x, y)
            if abs(c.red() - want.red()) <= tol and abs(c.green() - want.green()) <= tol and abs(c.blue() - want.blue()) <= tol:
                n += 1
    return n


def view_rect(board: AslgwBoard, scene_rect):
    return board.view.mapFromScene(scene_rect).boundingRect()


def tooltip_at(board: AslgwBoard, pos) -> str:
    QToolTip.hideText()
    ev = QHelpEvent(QEvent.Type.ToolTip, pos, board.view.viewport().mapToGlobal(pos))
    board.view.viewportEvent(ev)
    text = QToolTip.text().replace("\xa0", " ")  # the plain-text tooltip keeps its spaces as nbsp
    QToolTip.hideText()  # a tooltip left open would take the next test's mouse moves
    return text


# -- 1. the scenario card ------------------------------------------------------------------
def test_the_card_at_new_game_and_from_the_scenario_menu_with_its_live_count(qtbot, window, tmp_path, monkeypatch):
    """A26: the card says what each side plays for; Saint-Julien's "german needs 4 exit VP"
    (A26.23) is on it before the first move, counted live in the player (F2)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    dlg = NewGameDialog(window, window.settings, source_path=str(SCENARIOS / "saint-julien-1915.json"))
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.card.isVisible()
    text = dlg.card.text()
    for words in ("Saint-Julien, 22 April 1915", "22 April 1915, western front", "Second Ypres",
                  "german: moves first", "british: sets up first", "4 game turns", "exited 4 VP",
                  "SSR 1: The British have no gas protection", "Balance (A26.4)", "german: Add one game turn."):
        assert words in text, (words, text)
    assert "R-1" not in text and "C-L" not in text  # the card never names a unit
    dlg.out.setText(str(tmp_path / "sj.game"))
    dlg.start()
    assert dlg.created is not None and not dlg.isVisible()
    window.set_controller(GameController(dlg.created))
    window.victory_dock.raise_()
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F2)  # Scenario > Scenario card
    qtbot.waitUntil(lambda: window.card.isVisible())
    assert "not met now: german has 0 EXIT VP, needs 4 (A26.23)" in window.card.text()
    assert "now turn 1 of 4" in window.card.text()
    # the count follows the view: every redraw shows the view's own count
    click_end_button(qtbot, window)
    view = window.controller.view()
    for row in view["victory_count"]["german"]:
        assert row["count"] in window.card.text()


def test_make_run_opens_a_carded_scenario_and_the_readme_says_how_to_play():
    """`make run` opens a complete scenario card (victory conditions, SSR, Balance: A26, A26.4)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    scenario = re.search(r"^SCENARIO \?= (\S+)", makefile, re.M)
    assert scenario
    src = load_source("aslgw", str(ROOT / scenario.group(1)))
    card = card_lines(src)
    game = src["game"]
    assert game["victory"] and game["ssr"] and game["balance"] and game["turns"], game
    assert src.get("description") and ("head", "Victory conditions") in card and ("text", "none") not in card
    assert "\nplay:" in makefile and "gwasl play $(SCENARIO)" in makefile  # make play: a game of the same scenario
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## How to play" in readme and "make play" in readme


# -- 2. fire-state markers -------------------------------------------------------------------
def test_prep_fire_marks_the_firer_on_the_map_and_in_its_hover_text(qtbot, window, tmp_path):
    """A8.1/A3.3: a unit that Prep Fires carries a Prep Fire marker until its phase ends; drawn
    from the view on its counter (pixels of the marker's fill inside the counter) and spelt in
    the counter's hover text."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", seed=1916, secret=("french",))
    click_end_button(qtbot, window)  # RPh -> PFPh
    assert phase(window)[1] == "PFPh"
    fire = next(la for la in legal(window, "fire") if len(la.action.to_json()["firers"]) == 1)
    firer = fire.action.to_json()["firers"][0]
    src, _ = hexes(board, fire)
    zoom_on(board, src)
    item = board.scene.stacks[Hex.from_label(src)]
    item.set_fanned(True)
    i = [f.key for f in item.stack.counters].index(firer)
    rect = view_rect(board, item.mapRectToScene(item.counter_rects()[i]))
    fill = STATUS_STYLE["Prep"][0]
    assert count_colour(grab(board), fill, rect) == 0
    assert right_click(qtbot, board, src) and fire.shown.text in board.last_menu
    choose(board, fire.shown.text)
    assert window.messages == []
    face = next(f for f in board.scene.stacks[Hex.from_label(src)].stack.counters if f.key == firer)
    assert face.status[:1] == ("Prep",) and face.label == firer
    item = board.scene.stacks[Hex.from_label(src)]
    item.set_fanned(True)
    i = [f.key for f in item.stack.counters].index(firer)
    rect = view_rect(board, item.mapRectToScene(item.counter_rects()[i]))
    assert count_colour(grab(board), fill, rect) >= 20  # the Prep chip is painted on that counter
    tip = tooltip_at(board, rect.center())
    assert "Prep Fire" in tip and "(A3.3)" in tip, tip
    # the readable layout: every chip's text fits, none is smaller than the minimum, none overlaps
    px = board.view.counter_px
    assert px >= style.DETAIL_COUNTER_PX
    assert "Prep" in assert_readable(face, px)


def test_markers_of_every_kind_and_residual_fp_from_a_view(qtbot, window, tmp_path):
    """A8.2 Residual FP with its value on its hex; CX (A4.5), DM (A10.62), pinned (A7.8),
    First/Final Fire (A8.1, A8.3) and own hidden units' "?"/HIP (O'Leary 2.1, 3) on the counters,
    readable at the opening zoom and in the hex read-out, drawn only from the view."""
    board = start(window, tmp_path, "bois-des-caures-1916.json")
    unit = {"side": "german", "kind": "squad", "class": "first_line", "in": "ground", "platoon": "G1"}
    view = {**window.controller.view(), "units": [
        {**unit, "id": "G1-1", "hex": "B2", "fire": "first", "cx": True},
        {**unit, "id": "G1-2", "hex": "B3", "fire": "final", "dm": True, "broken": True},
        {**unit, "id": "G1-3", "hex": "C3", "pinned": True, "hidden": "hip"},
        {**unit, "id": "G1-L", "hex": "D2", "kind": "leader", "rating": "9-1", "fire": "prep", "cx": True, "pinned": True,
         "dm": True, "hidden": "concealed"},
    ], "residual": [{"hex": "E3", "in": "ground", "fp": 4}], "concealed": []}
    d = drawing_from_game_view(view, public_scenario(window.controller.file.meta["source"]))
    faces = {f.key: f for st in d.stacks.values() for f in st.counters}
    assert faces["G1-1"].status == ("First", "CX") and faces["G1-2"].status == ("Final", "DM")
    assert faces["G1-3"].status == ("HIP", "Pin") and faces["G1-L"].status == ("?", "Prep", "CX", "DM", "Pin")
    for px in (style.READABLE_COUNTER_PX, 60.0, 90.0):
        for f in faces.values():
            shown = assert_readable(f, px)
            assert f.key in shown  # the short id the log uses
            if f.kind == "leader":
                assert "9-1" in shown  # the rating moves down when the markers take its row
    assert "+" in " ".join(assert_readable(faces["G1-L"], style.READABLE_COUNTER_PX))  # the rest counted, not dropped
    board.show_view(view, [])
    zoom_on(board, "E3")
    assert board.scene.hex_markers.marks[Hex.from_label("E3")] == (("Res FP", "4", "#ff9e6b"),)
    rect = view_rect(board, board.scene.hex_markers.rect_of(Hex.from_label("E3")))
    assert count_colour(grab(board), "#ff9e6b", rect) > rect.width() * rect.height() * 0.3
    qtbot.mouseMove(board.view.viewport(), point(board, "E3"))
    assert "Residual FP 4 (A8.2)" in board.readout.text()
    assert "Final Fire" in board.scene.stacks[Hex.from_label("B3")].toolTip().replace("\xa0", " ")


# -- 3. what an action, a log line, a history step is about -----------------------------------
def test_actions_grouped_by_stack_and_unit_and_what_is_picked_is_outlined(qtbot, window, tmp_path):
    """ASLGW 1.4.1: a platoon's impulse offers six steps per member; grouped under their stack
    and unit the list is short; picking an action, a log line or a history step outlines its
    units and hexes on the map."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", seed=1916, secret=("french",), practice=True)
    end_until(qtbot, window, 1, "MPh", "german")
    lst = window.actions_list
    las = window.controller.legal()
    assert lst.count() == len(las) and [lst.item(i).text() for i in range(lst.count())] == [la.shown.text for la in las]
    assert lst.topLevelItemCount() < len(las) / 3, (lst.topLevelItemCount(), len(las))
    heads = [lst.topLevelItem(i).text(0) for i in range(lst.topLevelItemCount())]
    assert any(re.match(r"C2: G1-L 9-1, .*G1-1 4-4-7", h) for h in heads), heads  # a stack in words
    step = legal(window, "impulse_step")[0]
    unit = step.action.to_json()["unit"]
    a, b = hexes(board, step)
    item = next(lst.item(i) for i in range(lst.count()) if lst.item(i).data(Qt.ItemDataRole.UserRole) == step)
    assert item.parent() is not None and item.parent().text(0).startswith(unit)  # under its unit
    lst.scrollToItem(item)
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=lst.visualItemRect(item).center())
    assert board.scene.focus.hexes == {Hex.from_label(a), Hex.from_label(b)}
    assert unit in board.scene.selected_units
    zoom_on(board, a, 1.2)
    img = grab(board)
    assert count_colour(img, "#1f5fd0", view_rect(board, board.scene.hex_rect(Hex.from_label(b))), tol=12) > 30
    # a group header: every unit and hex of its actions
    head = item.parent()
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=lst.visualItemRect(head).center())
    assert board.scene.selected_units == {unit}
    # a log line names units and hexes: clicking it outlines them
    window.request(step.action)
    log = window.controller.log()
    n = max(i for i, e in enumerate(log) if e["kind"] == "moved")
    block = window.log_list.document().findBlockByNumber(n)
    window.log_list.verticalScrollBar().setValue(window.log_list.verticalScrollBar().maximum())
    pos = window.log_list.blockBoundingGeometry(block).translated(window.log_list.contentOffset()).center().toPoint()
    qtbot.mouseClick(window.log_list.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert unit in board.scene.selected_units and Hex.from_label(b) in board.scene.focus.hexes
    # a history step: the event it ends on, outlined, and said in the status bar
    other = next(la for la in legal(window, "impulse_step") if la.action.to_json()["unit"] != unit)
    window.request(other.action)  # the move is no longer the last event
    at = window.controller.history.seqs.index(log[n]["seq"]) + 1  # the history position just after the move
    window.history_slider.setValue(at)
    assert not window.controller.live and window.controller.log()[-1]["seq"] == log[n]["seq"]
    assert Hex.from_label(b) in board.scene.focus.hexes and f"Event {at}:" in window.statusBar().currentMessage()


def test_counters_carry_the_short_id_the_log_uses(qtbot, window, tmp_path):
    """The log says "Prep Fire: G1-3, G1-4 at F4": each counter shows its id in its corner."""
    board = start(window, tmp_path, "bois-des-caures-1916.json")
    zoom_on(board, "C2")
    px = board.view.counter_px
    ids = {u["id"] for u in window.controller.view()["units"]}
    for st in board.scene.stacks.values():
        for f in st.stack.counters:
            if f.kind != "concealed":
                assert f.label == f.key and f.key in ids
                assert f.key in [p.text for p in counter_parts(f, px) if p.kind == "text"]


# -- 4. drag marks and refusals ---------------------------------------------------------------
def test_drag_marks_give_the_mf_cost_and_what_is_left_and_a_refusal_its_rule(qtbot, window, tmp_path):
    """A4.1 MF; ASLGW 1.4.1 (one hex per impulse): the target hexes read "1 MF / 5 left" in a box
    as wide as its words (the old mark read "M"); dropping two hexes away says why, with the rule."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", seed=1916, secret=("french",))
    end_until(qtbot, window, 1, "MPh", "german")
    step = legal(window, "impulse_step")[0]
    a, b = hexes(board, step)
    zoom_on(board, a, 1.5)
    vp = board.view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=point(board, a))
    marks = board.targets.marks
    text, _ = marks[Hex.from_label(b)]
    assert text == mf_mark(step.shown.text) and re.fullmatch(r"\d+ MF\n\d+ left", text), text
    assert mf_mark("Impulse of G1: G1-L C2 -> C3 (2 MF; 4 of 6 left after)") == "2 MF\n4 left"
    # the mark's box: dark, wide enough for "5 left" at a readable size, inside the target hex
    img = grab(board)
    box = view_rect(board, board.scene.hex_rect(Hex.from_label(b)))
    dark = sum(1 for y in range(box.top(), box.bottom()) for x in range(box.left(), box.right())
               if 0 <= x < img.width() and 0 <= y < img.height() and max(img.pixelColor(x, y).getRgb()[:3]) < 70)
    assert dark > 300, dark
    # a drop two hexes away: refused, in words, with the rule; nothing sent, no box to close
    far = next(h for h in ("F2", "F3", "E4", "F4") if Hex.from_label(h) not in marks)
    qtbot.mouseMove(vp, point(board, far))
    said = board.info.text()
    assert "one hex per impulse (ASLGW 1.4.1)" in said and "no move there now" not in said, said
    before = window.controller.history_length
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=point(board, far))
    assert window.controller.history_length == before and window.messages == []
    assert "ASLGW 1.4.1" in board.info.text()


# -- 5. LOS and the hex read-out -------------------------------------------------------------
def test_los_thread_and_hex_readout_in_the_player(qtbot, window, tmp_path):
    """ASLGW 2.1.1/A6.2: Shift+drag draws the thread over the terrain the viewer knows, with the
    blocking hex and its rule; hovering a hex reads its terrain, level and works."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", seed=1916, secret=("french",))
    zoom_on(board, "E4", 1.0)
    vp = board.view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, point(board, "C2"))
    qtbot.mouseMove(vp, point(board, "I5"))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, point(board, "I5"))
    t = board.scene.los_thread
    assert (t.a, t.b, t.state) == (Hex.from_label("C2"), Hex.from_label("I5"), "blocked")
    assert "blocked at D3" in board.info.text() and "A6.2" in board.info.text()
    assert window.controller.history_length == 2  # a LOS check moves nothing
    img = grab(board)
    assert count_colour(img, "#c62020", tol=20) > 50  # the red thread is drawn
    # the LOS thread button (V): a plain drag draws it too
    window.activateWindow()
    qtbot.keyClick(board.view, Qt.Key.Key_V)
    assert window.los_action.isChecked() and board.los_mode
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=point(board, "C2"))
    qtbot.mouseMove(vp, point(board, "C3"))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=point(board, "C3"))
    assert board.scene.los_thread.state == "clear" and board.info.text().startswith("LOS C2 -> C3: clear")
    qtbot.mouseMove(vp, point(board, "H6"))
    assert board.readout.text() == "H6 | open | level 0 | deep trench"  # the French inside are not shown
    qtbot.mouseMove(vp, point(board, "C2"))
    assert "woods" not in board.readout.text() and "G1-L" in board.readout.text()


def test_los_and_readout_are_the_same_whatever_the_secret_side_hides(qtbot, tmp_path):
    """CONTRACTS 5: twin games differing only in the French HIP and "?" placement (O'Leary 2.1,
    3) read the same LOS and hex read-out everywhere: a hidden unit never blocks or shows."""
    from ui.play.test_secret_twins import make_window

    doc = load_source("aslgw", str(SCENARIOS / "bois-des-caures-1916.json"))
    twins = dict(hidden_variants(doc, "french"))
    seen = []
    for i, src in enumerate((doc, twins["swap_hip H6<->J6"], twins["swap_stacks G6<->I6"])):
        d = tmp_path / f"t{i}"
        d.mkdir()
        win = make_window(qtbot, tmp_path, f"w{i}")
        win.set_controller(GameController(create_game(d / "g.game", game_for("aslgw"), src, 3,
                                                      GameOptions(frozenset({"french"})))))
        board = win.board
        hexes_ = sorted(board.public.map, key=lambda h: (h.column, h.row))
        out = []
        for h in hexes_:
            board.show_readout(h)
            board.show_los(Hex.from_label("C2"), h)
            out.append((board.readout.text(), board.info.text(), board.scene.los_thread.state))
        seen.append(out)
    assert seen[0] == seen[1] == seen[2]


# -- 7. no stale text ---------------------------------------------------------------------------
def test_the_hint_bar_and_status_follow_the_state_also_after_take_back(qtbot, window, tmp_path):
    """The odds shown for a fire go when it is fired and the phase moves on; after Take back
    (practice mode) neither bar describes the move undone."""
    board = start(window, tmp_path, "bois-des-caures-1916.json", seed=1916, secret=("french",), practice=True)
    click_end_button(qtbot, window)
    fire = legal(window, "fire")[0]
    src, _ = hexes(board, fire)
    right_click(qtbot, board, src)
    entry = next(a for a in board.menu.actions() if a.text().replace("&&", "&") == fire.shown.text)
    entry.hover()
    assert "%" in board.info.text()  # the odds, before the roll
    board.menu.close()
    entry.trigger()
    assert board.info.text() == ""  # the shot is fired: its odds are not this position's
    click_end_button(qtbot, window)
    assert board.info.text() == ""
    end_until(qtbot, window, 1, "MPh", "german")
    step = legal(window, "impulse_step")[0]
    _, b = hexes(board, step)
    window.request(step.action)
    moved = window.statusBar().currentMessage()
    assert moved and b in moved
    window.undo()
    assert window.messages == []
    said = window.statusBar().currentMessage()
    assert said.startswith("Taken back: turn 1, MPh") and b not in said
    assert board.info.text() == "" and b not in window.status_label.text()
    assert step in window.controller.legal()


def test_a_suggestion_shows_under_the_list_and_goes_with_its_position(qtbot, window, tmp_path):
    """Game > Suggest a move answers under the Actions list (no modal box; CA "Enemy Decisions"
    is the policy's own business); the answer goes once the position changes."""
    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions())
    window.set_controller(GameController(gf))
    assert not window.card_action.isEnabled() and not window.card_dock.isVisible()  # CA's rules are its card
    told = []
    window.tell = lambda title, text: told.append(title)  # a modal box would come through here
    window.suggest_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.advising, timeout=30000)  # worked out in another thread
    assert told == [] and window.suggest_label.isVisible()
    name, decision = gf.session.suggest()
    assert window.suggest_label.text().startswith(f"Suggest a move: gwasl's {name} policy would:")
    assert decision.why in window.suggest_label.text()
    la = window.actions_list.currentItem().data(Qt.ItemDataRole.UserRole)
    window.request(la.action)
    assert not window.suggest_label.isVisible()



def test_a_log_line_outlines_its_hexes_not_its_rule_numbers(qtbot, window, tmp_path):
    """A log line cites rules like hexes ("(A4.7)", "(B12)", "A7.3 IFT"): only the hexes it
    names and the units the view shows are outlined (A4.7 advance; the log's own words)."""
    board = start(window, tmp_path, "bois-des-caures-1916.json")
    board.highlight_event({"kind": "moved", "text": "french: a \"?\" of 3 counters move advancing (A4.7) F4 -> F5, 2 MF "
                                                    "(shellholes: 2 MF); G1-3 at C2 (A7.3 IFT, TEM: brush terrain (B12))"})
    assert board.scene.focus.hexes == {Hex.from_label(x) for x in ("F4", "F5", "C2", "D2")}  # D2: where G1-3 stands
    assert board.scene.selected_units == {"G1-3"}
    board.highlight_event(None)
    assert not board.scene.focus.hexes and not board.scene.selected_units
