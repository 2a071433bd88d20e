"""Issue 26 items 10 and 11: desktop conventions in both windows (Quit and Ctrl+Q, Help menus
with the user guide, rules references, shortcuts and About, a right-click on an editor counter
opening its properties, the editor's status bar following an edit, window titles by name) and
error messages in words (a saved game opened in the editor, a scenario given to the player,
a read-only folder at New game, the xcb libraries `make run` needs), driven as a user would."""

from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog, QMessageBox

import gwasl
from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.model.scenario import Terrain
from gwasl.store.gamefile import create_game, load_source
from gwasl.ui.errors import save_error_text
from gwasl.ui.helpmenu import HelpWindow
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.newgame import NewGameDialog
from gwasl.ui.play.window import PlayerWindow
from gwasl.ui.unitprops import UnitDialog
from gwasl.ui.xcb import debian_package, missing_from_ldd, missing_xcb_libraries
from testsupport import ROOT, SCENARIOS


@pytest.fixture
def player(qtbot, tmp_path):
    win = PlayerWindow(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    win.tell = lambda title, text: win.messages.append((title, text))
    qtbot.addWidget(win)
    win.resize(1300, 850)
    win.show()
    qtbot.waitExposed(win)
    return win


def game(tmp_path, name="saint-julien-1915.json", file="g.game"):
    return create_game(tmp_path / file, game_for("aslgw"), load_source("aslgw", str(SCENARIOS / name)), 3, GameOptions())


def menu_titles(win) -> list[str]:
    return [a.text() for a in win.menuBar().actions()]


# -- 10. desktop conventions -------------------------------------------------------------------
def test_the_player_quits_by_ctrl_q_and_file_quit(qtbot, player, tmp_path):
    player.set_controller(GameController(game(tmp_path)))
    file_menu = player.menuBar().actions()[0].menu()
    assert "&Quit" in [a.text() for a in file_menu.actions()]
    player.activateWindow()
    qtbot.keyClick(player, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not player.isVisible())
    assert player.controller is None  # the game file is closed with the window


@pytest.mark.parametrize("which", ["player", "editor"])
def test_help_menus_guide_rules_shortcuts_about(qtbot, player, example_window, tmp_path, which):
    win = player if which == "player" else example_window
    if which == "player":
        win.set_controller(GameController(game(tmp_path)))
    assert "&Help" in menu_titles(win)
    help_menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&Help")
    names = [a.text() for a in help_menu.actions()]
    assert names == ["&User guide", "&Rules references", "&Keyboard shortcuts", "&About gwasl"]
    texts = {}
    for a in help_menu.actions():
        a.trigger()
        w = win.help_window
        assert isinstance(w, HelpWindow) and w.isVisible() and not w.isModal()  # beside the map, never in the way
        texts[a.text()] = w.text()
        w.close()
    assert "gwasl user guide" in texts["&User guide"] and "How to play" in texts["&User guide"]
    assert all(k in texts["&Rules references"] for k in ("ASLGW", "O'Leary", "A26", "Combined Arms", "On Patrol"))
    assert f"gwasl {gwasl.__version__}" in texts["&About gwasl"]
    shortcuts = texts["&Keyboard shortcuts"]
    assert "Ctrl+Q" in shortcuts and "Quit" in shortcuts and "F1" in shortcuts
    if which == "player":
        assert "F2" in shortcuts and "Scenario card" in shortcuts and "Shift+drag" in shortcuts
    else:
        assert "right click on a counter" in shortcuts
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)  # the help windows just closed had the focus
    qtbot.keyClick(win, Qt.Key.Key_F1)
    assert win.help_window.isVisible() and "gwasl user guide" in win.help_window.text()
    win.help_window.close()


def test_right_click_on_an_editor_counter_opens_its_properties(qtbot, example_window, drive, monkeypatch):
    """A right click (no drag) on a counter: its properties; the change is one undo step."""
    w = example_window
    u = next(x for x in w.document.scenario.units if x.kind.value == "squad" and not x.broken)
    shown = []

    def fill_in(dlg: UnitDialog) -> int:
        shown.append(dlg)
        dlg.broken.setChecked(True)
        return QDialog.DialogCode.Accepted.value

    monkeypatch.setattr(UnitDialog, "exec", fill_in)
    item = w.scene.stacks[u.hex]
    item.set_fanned(True)  # the counter itself under the pointer
    i = [f.key for f in item.stack.counters].index(u.id)
    r = item.mapRectToScene(item.counter_rects()[i])
    w.view.ensureVisible(r)
    pos = w.view.mapFromScene(r.center())
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.RightButton, pos=pos)
    assert shown and shown[0].unit.id == u.id and shown[0].windowTitle() == f"Counter {u.id}"
    assert w.document.scenario.unit(u.id).broken
    assert w.act_undo.text() == f"&Undo Change {u.id}"
    w.document.undo()
    assert not w.document.scenario.unit(u.id).broken
    # a bad leader rating is refused in the dialog, in words
    dlg = UnitDialog(w.document.scenario, u, True, w)
    dlg.rating.setText("nine")
    dlg.accept()
    assert dlg.result() != QDialog.DialogCode.Accepted.value and "leader rating 'nine'" in dlg.problem.text()


def test_the_editor_status_bar_follows_an_edit(qtbot, example_window, drive):
    w = example_window
    user = drive(w)
    user.hover("D1")  # the pointer comes to E2 from elsewhere: a move Qt reports
    user.hover("E2")
    assert w.statusBar().currentMessage().startswith("E2 | open")
    user.tool("terrain")
    user.choose(w.palette.terrain_box, Terrain.BRUSH)
    user.click("E2")
    assert w.document.scenario.map.terrain_at(user_hex("E2")) is Terrain.BRUSH
    msg = w.statusBar().currentMessage()
    assert msg.startswith("E2 | brush"), msg  # not the terrain before the edit


def user_hex(label):
    from gwasl.model.hexgrid import Hex

    return Hex.from_label(label)


def test_window_titles_name_the_game_not_its_ruleset_id(player, tmp_path):
    player.set_controller(GameController(game(tmp_path)))
    assert player.windowTitle() == "Saint-Julien, 22 April 1915 - g.game - gwasl"
    gf = create_game(tmp_path / "ca.game", game_for("combined-arms"), None, 7, GameOptions())
    player.set_controller(GameController(gf))
    assert player.windowTitle() == "Combined Arms (Sabin) - ca.game - gwasl" and "combined-arms" not in player.windowTitle()
    assert "aslgw" not in player.windowTitle()


# -- 11. errors in words -----------------------------------------------------------------------
def test_a_saved_game_opened_in_the_editor_offers_the_player(qtbot, window, tmp_path):
    gf = game(tmp_path)
    path = str(gf.path)
    gf.close()
    asked = []
    window.ask_open_in_player = lambda p: asked.append(p) or True
    assert not window.open_path(path, ask=False)
    assert asked == [path] and window.warnings == []  # no "not UTF-8 text (bad byte at offset ...)"
    player = window.players[-1]
    qtbot.addWidget(player)
    assert player.isVisible() and str(player.controller.file.path) == path
    assert "Saint-Julien" in player.windowTitle()
    player.close()
    # a file that is neither says what is wrong with it, as before
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe junk")
    assert not window.open_path(str(bad), ask=False)
    assert window.warnings and "UTF-8" in window.warnings[-1][1]


def test_a_scenario_given_to_the_player_offers_a_new_game_from_it(player, tmp_path, monkeypatch):
    scenario = str(SCENARIOS / "saint-julien-1915.json")
    asked, started = [], []
    player.ask_new_game_from = lambda p: asked.append(p) or True
    player.new_game_dialog = lambda source_path=None: started.append(source_path)
    assert not player.open_game_path(scenario)
    assert asked == [scenario] and started == [scenario] and player.messages == []  # not "not a gwasl game file"
    # the dialog it opens starts from that scenario, its card shown
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    dlg = NewGameDialog(player, player.settings, source_path=scenario)
    assert dlg.ok_button.isEnabled() and "Saint-Julien" in dlg.card.text()
    dlg.close()
    # `gwasl play SCENARIO` reaches the window instead of refusing the file
    from gwasl import cli
    from gwasl.commands import play

    opened = []
    monkeypatch.setattr(play, "start_window_probe", lambda: lambda: None)
    monkeypatch.setattr("gwasl.ui.play.app.run_player", lambda p: opened.append(p) or 0)
    assert cli.main(["play", scenario]) == 0 and opened == [scenario]
    junk = tmp_path / "junk.game"
    junk.write_text("junk")
    assert cli.main(["play", str(junk)]) == 2 and len(opened) == 1


# the words are the game store's (issue 28 item 8), which names the folder's trouble before the window sees an errno
@pytest.mark.parametrize("code, words", [(errno.EROFS, "read-only file system"), (errno.EACCES, "the folder is read-only"),
                                         (errno.ENOSPC, "the disk is full")])
def test_a_new_game_in_a_folder_that_cannot_be_written_says_so_in_words(qtbot, player, tmp_path, monkeypatch, code, words):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "ro"
    folder.mkdir()

    def refuse(*a, **k):
        raise OSError(code, os.strerror(code), str(folder / ".sj.game.k3j4.tmp"))

    monkeypatch.setattr("tempfile.mkstemp", refuse)  # the game file imports tempfile when it makes a new file
    dlg = NewGameDialog(player, player.settings, source_path=str(SCENARIOS / "saint-julien-1915.json"))
    qtbot.addWidget(dlg)
    dlg.out.setText(str(folder / "sj.game"))
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    text = dlg.problem.text()
    assert dlg.created is None and words in text and str(folder) in text, text
    assert "Errno" not in text and ".tmp" not in text and "k3j4" not in text
    assert save_error_text(folder / "x.game", ValueError("odd")) == "odd"  # anything else as it was said


def test_xcb_libraries_missing_are_named_exactly():
    """Qt blames libxcb-cursor0 whatever is missing; the linker's own list is the truth."""
    sample = ("\tlibQt6XcbQpa.so.6 => /x/libQt6XcbQpa.so.6 (0x1)\n\tlibxcb-cursor.so.0 => /lib/libxcb-cursor.so.0 (0x2)\n"
              "\tlibxcb-icccm.so.4 => not found\n\tlibxcb-keysyms.so.1 => not found\n\tlibxcb-icccm.so.4 => not found\n")
    assert missing_from_ldd(sample) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert [debian_package(x) for x in ("libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxkbcommon-x11.so.0",
                                        "libxcb-cursor.so.0")] == ["libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0",
                                                                   "libxcb-cursor0"]


@pytest.mark.skipif(not sys.platform.startswith("linux") or not missing_xcb_libraries(),
                    reason="this machine has every library Qt's X11 plugin needs")
def test_gwasl_edit_names_exactly_the_missing_xcb_libraries():
    """`make run` (gwasl edit) on a machine missing some of Qt's xcb libraries names those, and
    only those, with their packages (here: as this machine's linker reports them)."""
    missing = missing_xcb_libraries()
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":99"
    r = subprocess.run([sys.executable, "-m", "gwasl", "edit", str(ROOT / "gwasl/scenarios/saint-julien-1915.json")],
                       capture_output=True, text=True, env=env, timeout=120, check=False)
    assert r.returncode == 2
    line = r.stderr.strip()
    assert "\n" not in line and "libxcb-cursor0 is needed" not in line, line
    for lib in missing:
        assert lib in line and debian_package(lib) in line, line
    named = set(__import__("re").findall(r"lib[\w.+-]*\.so\.\d+", line))
    assert named == set(missing), line


def test_modal_questions_are_plain_text(player, monkeypatch):
    """The two new questions show the file name literally (plain text boxes)."""
    seen = []
    monkeypatch.setattr("gwasl.ui.plain.message", lambda parent, icon, title, text, *a: seen.append(text) or QMessageBox.StandardButton.No)
    assert not player.ask_new_game_from("<b>x</b>.json")
    assert seen and "<b>x</b>.json is a scenario" in seen[0]
