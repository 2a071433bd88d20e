"""Render the screenshots of docs/user-guide.md by driving the editor as the guide does.

It starts from an empty map and builds the shared example scenario (Bois des
Caures, 21 February 1916) with the editor's own tools -- the same clicks and
drags the guide describes -- taking a picture after each step.

Then it plays the example in the player window (File > New game with Saint-Julien's
card, a fire from the right-click menu, the markers of play, a drag with its MF marks,
a LOS thread, a log line outlined on the map, the history) and Saint-Julien to its
result, its card counted live on the way.

    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [--out docs/images] [--save built.json] [--only editor|play|solitaire]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from gwasl.model.hexgrid import Hex  # noqa: E402
from gwasl.model.scenario import (  # noqa: E402
    DummyKind,
    FormationKind,
    FortificationKind,
    HiddenStatus,
    Nationality,
    Position,
    Side,
    Terrain,
    UnitClass,
    UnitKind,
)


class Hands:
    """Mouse and keyboard on the real widgets (QTest events, as a user's)."""

    def __init__(self, win) -> None:
        self.win = win

    def point(self, label: str) -> QPoint:
        c = self.win.scene.layout.hex_to_pixel(Hex.from_label(label))
        return self.win.view.mapFromScene(c.x, c.y)

    def tool(self, name: str) -> None:
        self.win.tool_actions[name].trigger()

    def choose(self, combo, value) -> None:
        combo.setCurrentIndex(combo.findData(value))

    def click(self, label: str, mods=Qt.NoModifier) -> None:
        QTest.mouseClick(self.win.view.viewport(), Qt.LeftButton, mods, self.point(label))

    def drag(self, *labels: str) -> None:
        vp = self.win.view.viewport()
        QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, self.point(labels[0]))
        for label in labels[1:]:
            QTest.mouseMove(vp, self.point(label))
        QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, self.point(labels[-1]))

    def hover(self, label: str) -> None:
        QTest.mouseMove(self.win.view.viewport(), self.point(label))


def build_example(win, shot=lambda name: None) -> None:
    """Build the shared example scenario from an empty map with the editor's tools."""
    hands = Hands(win)
    app = QApplication.instance()
    win.new_file()
    # 1. Properties: title, date, front, winter; sides German and French.
    values = {
        "title": "Bois des Caures, 21 February 1916 (example)",
        "date": dt.date(1916, 2, 21), "winter": True,
        "sides": {"german": Side("german", Nationality.GERMAN), "french": Side("french", Nationality.FRENCH)},
        "columns": 12, "rows": 8,
    }
    win.apply_properties(values)
    win.view.fit()
    shot("01-new-scenario")
    # 2. Terrain: woods, shellholes, brush, the farm; the hill.
    hands.tool("terrain")
    hands.choose(win.palette.terrain_box, Terrain.WOODS)
    hands.drag("C3", "C4")
    hands.click("D3")
    hands.choose(win.palette.terrain_box, Terrain.SHELLHOLES)
    hands.drag("E5", "F5")
    hands.choose(win.palette.terrain_box, Terrain.BRUSH)
    hands.click("F4")
    hands.choose(win.palette.terrain_box, Terrain.STONE_BUILDING)
    hands.drag("H2", "H3")
    hands.tool("building")
    win.palette.building_edit.setText("ferme")
    hands.drag("H2", "H3")
    hands.tool("level")
    win.palette.level_box.setValue(1)
    hands.drag("J6", "K6", "K7")
    shot("02-terrain")
    # 3. Fortifications: the French deep trench with a ladder, a dugout, the wire.
    hands.tool("fortification")
    hands.choose(win.palette.fort_box, FortificationKind.DEEP_TRENCH)
    hands.choose(win.palette.owner_box, "french")
    hands.drag("G6", "H6", "I6")
    hands.click("H6", Qt.ControlModifier)
    hands.choose(win.palette.fort_box, FortificationKind.DUGOUT)
    hands.click("H7")
    hands.choose(win.palette.fort_box, FortificationKind.WIRE)
    hands.choose(win.palette.owner_box, None)
    hands.drag("G5", "H5", "I5")
    shot("03-fortifications")
    # 4. The German platoon with its 9-1 leader, spread out with the select tool; a flamethrower.
    hands.tool("unit")
    hands.choose(win.palette.side_box, "german")
    hands.choose(win.palette.formation_box, FormationKind.PLATOON)
    hands.choose(win.palette.class_box, UnitClass.FIRST_LINE)
    win.palette.rating_edit.setText("9-1")
    hands.click("C2")
    s = win.document.scenario
    squads = [u.id for u in s.units if u.kind is UnitKind.SQUAD]
    hands.tool("select")
    for uid, to in zip(squads[2:], ("D2", "D2", "B2", "B3")):
        win.select_units({uid})
        win._run(__import__("gwasl.editor.document", fromlist=["move_units"]).move_units, [uid], Hex.from_label(to))
    hands.tool("unit")
    hands.choose(win.palette.formation_box, None)
    hands.choose(win.palette.kind_box, UnitKind.SUPPORT_WEAPON)
    win.palette.weapon_box.setEditText("Kleinflammenwerfer")
    hands.click("C2")
    # 5. The French half-platoon in the deep trench with an 8-0; an MG crew in the dugout.
    hands.choose(win.palette.side_box, "french")
    hands.choose(win.palette.formation_box, FormationKind.HALF_PLATOON)
    win.palette.rating_edit.setText("8-0")
    hands.click("H6")
    fr = [u for u in win.document.scenario.units if u.side == "french"]
    leader = next(u.id for u in fr if u.kind is UnitKind.LEADER)
    fsq = [u.id for u in fr if u.kind is UnitKind.SQUAD]
    from gwasl.editor import document as ed

    win._run(ed.move_units, [fsq[0]], Hex.from_label("G6"))
    win._run(ed.move_units, [fsq[2]], Hex.from_label("I6"))
    win.select_units({leader, fsq[1]})
    win.update_selected(position=Position.DEEP_TRENCH, hidden=HiddenStatus.HIP, text="In the deep trench, hidden")
    win.select_units({fsq[0], fsq[2]})
    win.update_selected(position=Position.DEEP_TRENCH_CREST, hidden=HiddenStatus.POTENTIAL_DUMMY, text="At the crest, potential dummies")
    hands.choose(win.palette.formation_box, None)
    hands.choose(win.palette.kind_box, UnitKind.CREW)
    hands.click("H7")
    hands.choose(win.palette.kind_box, UnitKind.SUPPORT_WEAPON)
    win.palette.weapon_box.setEditText("St. Etienne")
    hands.click("H7")
    crew = [u.id for u in win.document.scenario.units if u.hex == Hex.from_label("H7")]
    win.select_units(crew)
    win.update_selected(position=Position.DUGOUT, hidden=HiddenStatus.HIP, text="In the dugout, hidden")
    win.select_units(())
    shot("04-units")
    # 6. Dummies: two dummy stacks and two dummy HIP counters for the French.
    hands.tool("dummy")
    hands.choose(win.palette.dummy_box, DummyKind.DUMMY_STACK)
    win.palette.dummy_count.setValue(3)
    hands.click("F4")
    win.palette.dummy_count.setValue(2)
    hands.click("H3")
    hands.choose(win.palette.dummy_box, DummyKind.DUMMY_HIP)
    hands.click("J6")
    hands.click("K7")
    shot("05-dummies")
    # 7. Checks: an LOS thread, the LOS map, the command radius.
    hands.tool("los")
    hands.drag("C2", "C5")
    shot("06-los-thread")
    hands.tool("losmap")
    hands.hover("I6")
    shot("07-los-map")
    hands.tool("command")
    hands.click("C2")
    shot("08-command")
    hands.tool("select")
    # 8. Validation: a mistake shows up at once, undo fixes it.
    win.select_units({squads[0], fsq[0]})
    win.formation_from_selection()
    win.run_validation()
    win.validation_dock.raise_()
    shot("09-validation")
    win.document.undo()
    win.run_validation()
    # 9. As the Germans see it.
    win.set_viewer("german")
    shot("10-german-view")
    win.set_viewer("omniscient")
    app.processEvents()


def play_shots(out: Path, written: list[Path]) -> None:
    """The player window, as the guide's "How to play a scenario" chapter uses it: the New game
    dialog with the scenario card, the opening position, the right-click menu with odds, the
    markers of play, a drag with its MF, a LOS thread, the log, the history, the card counted
    live, and a game's result."""
    import random
    import shutil

    from PySide6.QtGui import QPainter

    from gwasl.engine.game import GameOptions
    from gwasl.games import game_for
    from gwasl.store.gamefile import create_game, load_source
    from gwasl.ui.play.aslgw_board import action_hexes
    from gwasl.ui.play.controller import GameController
    from gwasl.ui.play.newgame import NewGameDialog
    from gwasl.ui.play.window import PlayerWindow

    app = QApplication.instance()
    scenarios = ROOT / "gwasl" / "scenarios"
    games = out / ".games"
    if games.exists():
        shutil.rmtree(games)
    games.mkdir()
    settings = QSettings(str(out / ".play.ini"), QSettings.IniFormat)

    def save(widget_or_image, name: str) -> None:
        app.processEvents()
        img = widget_or_image if hasattr(widget_or_image, "save") and not hasattr(widget_or_image, "grab") \
            else widget_or_image.grab()
        path = out / f"{name}.png"
        img.save(str(path))
        written.append(path)

    # File > New game, filled in as the guide says (in a scratch folder, so the paths are short):
    # first the card of a complete scenario beside the choices, then the Bois des Caures game
    here = os.getcwd()
    for name in ("bois-des-caures-1916.json", "saint-julien-1915.json"):
        shutil.copy(scenarios / name, games / name)
    os.chdir(games)
    os.environ["XDG_DATA_HOME"] = str(games)  # a library of the bundled scenarios only, not this machine's
    dlg = NewGameDialog(None, settings, source_path="saint-julien-1915.json")
    dlg.seed.setValue(1915)
    dlg.secret_checks["british"].setChecked(True)
    dlg.out.setText("saint-julien.game")
    dlg.resize(1100, 640)
    dlg.show()
    save(dlg, "11-new-game")
    dlg.close()
    dlg = NewGameDialog(None, settings, source_path="bois-des-caures-1916.json")
    dlg.seed.setValue(1916)
    dlg.secret_checks["french"].setChecked(True)
    dlg.out.setText("bois-des-caures.game")
    dlg.start()
    os.chdir(here)
    win = PlayerWindow(settings)
    win.tell = lambda title, text: win.messages.append((title, text))
    win.resize(1500, 950)
    win.show()
    assert dlg.created is not None
    win.set_controller(GameController(dlg.created))
    board = win.board
    save(win, "12-play-start")

    c = win.controller

    def legal(kind: str) -> list:
        return [la for la in c.legal() if la.action.kind == kind]

    def point(label: str) -> QPoint:
        ctr = board.scene.layout.hex_to_pixel(Hex.from_label(label))
        return board.view.mapFromScene(ctr.x, ctr.y)

    def ends(la) -> tuple[str, str | None]:
        a, b = action_hexes(la.action.to_json(), board._view)
        return a.label, (b.label if b else None)

    # Prep Fire from the right-click menu, the odds on the hovered entry
    win.end_phase()
    fire = legal("fire")[0]
    src, _ = ends(fire)
    QTest.mouseClick(board.view.viewport(), Qt.RightButton, Qt.NoModifier, point(src))
    menu = board.menu
    entry = next(a for a in menu.actions() if a.text().replace("&&", "&") == fire.shown.text)
    entry.hover()
    menu.setActiveAction(entry)
    app.processEvents()
    shot = win.grab().toImage()
    p = QPainter(shot)
    p.drawPixmap(board.mapTo(win, point(src)) + QPoint(12, 12), menu.grab())
    p.end()
    save(shot, "13-play-fire-menu")
    menu.close()
    entry.trigger()
    # the markers of play on the counters, their stacks fanned out as a click shows them: the
    # moment with the most of them (markers and Residual FP) of the Prep Fire and the turn after

    def markers_shot(best: list) -> None:
        view = c.view()
        marked = [it for it in board.scene.stacks.values() if any(f.status for f in it.stack.counters)
                  and len(it.stack.counters) > 1]
        score = sum(len(f.status) for it in board.scene.stacks.values() for f in it.stack.counters) \
            + 3 * len(view.get("residual") or ())
        if score <= (best[0] if best else 0):
            return
        at = [Hex.from_label(r["hex"]) for r in view.get("residual") or ()] + [it.stack.hex for it in marked] \
            + [it.stack.hex for it in board.scene.stacks.values() if any(f.status for f in it.stack.counters)]
        for it in marked:
            it.set_fanned(True)
        board.view.resetTransform()
        board.view.scale(2.2, 2.2)
        app.processEvents()
        pts = [board.scene.layout.hex_to_pixel(h) for h in at]  # between the markers, as far as they go
        board.view.centerOn(sum(q.x for q in pts) / len(pts), sum(q.y for q in pts) / len(pts))
        app.processEvents()
        best[:] = [score, win.grab().toImage()]
        for it in marked:
            it.set_fanned(False)
        board.view.home()

    best: list = []
    markers_shot(best)
    # on to the Movement Phase: a drag, the tinted hexes marked with their MF and what is left
    while c.status().phase != "MPh":
        win.end_phase()
    board.view.home()
    step = legal("impulse_step")[0]
    a, b = ends(step)
    vp = board.view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, point(a))
    QTest.mouseMove(vp, point(b))
    save(win, "14-play-drag")
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, point(b))
    # a line of sight, Shift+drag: blocked by the woods
    QTest.mousePress(vp, Qt.LeftButton, Qt.ShiftModifier, point("C2"))
    QTest.mouseMove(vp, point("I5"))
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.ShiftModifier, point("I5"))
    QTest.mouseMove(vp, point("H6"))
    save(win, "23-play-los")
    # a turn later: the log (a line clicked, its units outlined), the French "?" stacks; on the
    # way, the first moment a Residual FP lies on the map (the French defensive fire) is pictured
    rng = random.Random(3)
    while c.status().turn < 2 or c.status().phase != "MPh":
        las = c.legal()
        enders = [x for x in las if x.action.kind in ("end_phase", "end_window", "end_impulse")]
        win.request((rng.choice(enders) if enders and rng.random() < 0.5 else rng.choice(las)).action)
    board.view.home()
    log = c.log()
    n = max(i for i, e in enumerate(log) if e["kind"] in ("moved", "fire"))
    lv = win.log_list
    lv.verticalScrollBar().setValue(lv.verticalScrollBar().maximum())
    block = lv.document().findBlockByNumber(n)
    pos = lv.blockBoundingGeometry(block).translated(lv.contentOffset()).center().toPoint()
    QTest.mouseClick(lv.viewport(), Qt.LeftButton, Qt.NoModifier, pos)
    save(win, "15-play-log")
    win.history_slider.setValue(max(1, c.history_length // 3))
    win.add_bookmark()
    save(win, "16-play-history")
    win.go_live()
    win.close_game()
    # another Bois des Caures game, its first two turns played at random: the moment with the most
    # markers (Prep/First/Final Fire, CX, DM, Pin, a Residual FP) is the markers' picture
    win.set_controller(GameController(create_game(games / "markers.game", game_for("aslgw"),
                                                  load_source("aslgw", str(scenarios / "bois-des-caures-1916.json")), 1916,
                                                  GameOptions(frozenset({"french"})))))
    c = win.controller
    board = win.board
    rng = random.Random(3)
    while c.status().turn < 3 and not c.status().over:
        las = c.legal()
        enders = [x for x in las if x.action.kind in ("end_phase", "end_window", "end_impulse")]
        win.request((rng.choice(enders) if enders and rng.random() < 0.5 else rng.choice(las)).action)
        markers_shot(best)
    save(best[1], "22-play-markers")
    win.close_game()

    # a whole game to its result: Saint-Julien, its card counted live on the way, the victory panel
    gf = create_game(games / "saint-julien-played.game", game_for("aslgw"),
                     load_source("aslgw", str(scenarios / "saint-julien-1915.json")), 3, GameOptions(frozenset({"british"})))
    win.set_controller(GameController(gf))
    c = win.controller
    rng = random.Random(4)
    carded = False
    while not c.status().over:
        las = c.legal()
        enders = [x for x in las if x.action.kind in ("end_phase", "end_window", "end_impulse")]
        win.request((rng.choice(enders) if enders and rng.random() < 0.2 else rng.choice(las)).action)
        if not carded and c.status().turn >= 2 and not c.status().over:
            carded = True
            win.show_card()
            app.processEvents()
            app.processEvents()
            browser = win.card.browser  # the victory conditions and their count at the top of the card
            at = browser.cursorRect(browser.document().find("Victory conditions")).top()
            browser.verticalScrollBar().setValue(browser.verticalScrollBar().value() + at - 4)
            save(win, "21-play-card")
    win.victory_dock.raise_()
    save(win, "17-play-result")
    win.close_game()
    win.close()
    shutil.rmtree(games)
    (out / ".play.ini").unlink(missing_ok=True)


def solitaire_shots(out: Path, written: list[Path]) -> None:
    """The two solitaire games in the player window, as the guide's chapters 13 and 14 show
    them: Combined Arms mid-game with a fire attack's odds in its hex menu, and an On Patrol
    hunt with the escorts' reasons."""
    import copy
    import shutil

    from PySide6.QtGui import QPainter

    from gwasl.engine.dice import GameDice
    from gwasl.engine.game import GameOptions, Seat
    from gwasl.games import game_for
    from gwasl.games.on_patrol.scenario import load_bundled
    from gwasl.store.gamefile import create_game
    from gwasl.ui.play.controller import GameController
    from gwasl.ui.play.window import PlayerWindow

    app = QApplication.instance()
    games = out / ".solitaire"
    if games.exists():
        shutil.rmtree(games)
    games.mkdir()
    settings = QSettings(str(out / ".solitaire.ini"), QSettings.IniFormat)
    win = PlayerWindow(settings)
    win.tell = lambda title, text: None
    win.confirm_final = lambda action: True  # the policies play on: no question to answer
    win.resize(1500, 950)
    win.show()

    def save(img, name: str) -> None:
        app.processEvents()
        path = out / f"{name}.png"
        (img if hasattr(img, "save") and not hasattr(img, "grab") else img.grab()).save(str(path))
        written.append(path)

    def play(ruleset: str, source, seed: int, policy: str, until) -> GameController:
        g = game_for(ruleset)
        win.set_controller(GameController(create_game(games / f"{ruleset}.game", g, source, seed, GameOptions(frozenset()))))
        c = win.controller
        pol = g.policies()[policy]
        n = 0
        while not until(c) and not c.status().over:
            st = c.session.state
            win.request(pol(Seat(g, st, c.session.viewer(c.status().side or "")), GameDice(seed, n)).action)
            n += 1
        return c

    # Combined Arms, seed 2: the planner's attack, stopped in a fire phase with targets in reach
    c = play("combined-arms", None, 2, "planner",
             lambda c: c.status().turn >= 4 and c.status().phase == "fire"
             and any(la.action.kind == "commit" for la in c.legal()))
    board = win.board
    save(win, "18-combined-arms")
    target = next(la.action.to_json()["target"] for la in c.legal() if la.action.kind == "commit")
    pos = board.view.mapFromScene(board.centre_of(target))
    board.click_hex(target)
    shot = win.grab().toImage()
    p = QPainter(shot)
    p.drawPixmap(board.view.viewport().mapTo(win, pos) + QPoint(12, 12), board._menu.grab())
    p.end()
    board._menu.close()
    save(shot, "19-combined-arms-odds")
    # View > Zoom in twice (Ctrl++), on the attack's target: the counters at a glance
    win.zoom_in_action.trigger()
    win.zoom_in_action.trigger()
    board.view.centerOn(board.centre_of(target))
    save(win, "21-combined-arms-zoomed")
    win.close_game()

    # On Patrol: the day convoy with contact made, two turns into the hunt
    src = copy.deepcopy(load_bundled("day-convoy"))
    src["contact"] = True
    play("on-patrol", src, 4, "sensible", lambda c: c.status().turn >= 3)
    save(win, "20-on-patrol")
    win.close_game()
    win.close()
    shutil.rmtree(games)
    (out / ".solitaire.ini").unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "images"))
    ap.add_argument("--save", help="also save the built scenario here")
    ap.add_argument("--only", choices=("editor", "play", "solitaire"), help="one part of the guide's pictures only")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from gwasl.ui.mainwindow import MainWindow

    settings = QSettings(str(out / ".screenshots.ini"), QSettings.IniFormat)
    win = MainWindow(settings=settings)
    win.ask_unsaved = lambda: QMessageBox.Discard
    win.resize(1500, 950)
    win.show()
    app.processEvents()
    written = []

    def shot(name: str) -> None:
        win.run_validation()  # do not wait for the debounce timer
        app.processEvents()
        path = out / f"{name}.png"
        win.grab().save(str(path))
        written.append(path)

    if args.only in (None, "editor"):
        build_example(win, shot)
        if args.save:
            win._save_to(args.save)
    if args.only in (None, "play"):
        play_shots(out, written)
    if args.only in (None, "solitaire"):
        solitaire_shots(out, written)
    settings_file = out / ".screenshots.ini"
    if settings_file.exists():
        settings_file.unlink()
    for p in written:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
