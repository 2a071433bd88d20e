"""Issue 28 items 2 and 5 in the player window: a game another gwasl changed on disk is
offered for reloading (before, the window refused 55 actions in a row and never
reloaded); the New game dialog shows the dice seed only on request while gwasl keeps a
side secret (the seed gives every die of the game)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSettings, Qt

from gwasl.store.gamefile import open_game
from gwasl.ui.play.newgame import NewGameDialog
from store.saves import choose, new_file
from testsupport import SCENARIOS


def _on_disk(p) -> int:
    with open_game(p, "r") as gf:
        return len(gf.session.entries)


def _play_first_action(qtbot, window) -> None:
    """Select the first entry of the Actions list and press Enter, as a player would."""
    window.actions_list.setFocus()
    window.actions_list.setCurrentRow(0)
    qtbot.keyClick(window.actions_list, Qt.Key.Key_Return)


def test_a_game_changed_on_disk_is_offered_for_reload(window, qtbot, tmp_path):
    p = tmp_path / "g.game"
    new_file("combined-arms", p, seed=3).close()
    assert window.open_game_path(str(p))
    asked: list[tuple[str, str]] = []
    answer = [False]
    window.ask = lambda title, text: (asked.append((title, text)), answer[0])[1]
    with open_game(p) as other:  # another gwasl plays on the same game
        other.session.act(choose(other.session, 0))
    on_disk = _on_disk(p)
    assert len(window.controller.session.entries) < on_disk

    _play_first_action(qtbot, window)  # refused: the game changed on disk; declined: nothing reloaded
    assert asked and asked[-1][0] == "The game changed on disk" and "nothing was written" in asked[-1][1]
    assert _on_disk(p) == on_disk and len(window.controller.session.entries) < on_disk

    answer[0] = True
    _play_first_action(qtbot, window)  # refused again; accepted: the window shows the game as on disk
    assert len(asked) == 2 and _on_disk(p) == on_disk
    assert len(window.controller.session.entries) == on_disk
    assert window.windowTitle() and window.actions_list.count() > 0

    _play_first_action(qtbot, window)  # and the player plays on from there
    assert len(asked) == 2 and _on_disk(p) == len(window.controller.session.entries) > on_disk


def test_the_seed_is_shown_only_on_request_while_a_side_is_kept_secret(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    dlg = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                        source_path=str(SCENARIOS / "ovillers-1916.json"))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert dlg.seed.isVisible() and not dlg.seed_details.isVisible()
    box = dlg.secret_checks["german"]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert box.isChecked()
    assert not dlg.seed.isVisible() and dlg.seed_details.isVisible()  # the seed would tell every die
    qtbot.mouseClick(dlg.seed_details, Qt.MouseButton.LeftButton)  # Details (for bug reports)
    assert dlg.seed.isVisible()
    qtbot.mouseClick(dlg.seed_details, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert not box.isChecked() and dlg.seed.isVisible() and not dlg.seed_details.isVisible()
