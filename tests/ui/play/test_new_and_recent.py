"""Issue 14 item 1: File > New game (scenario, seed, secret side, practice, Balance) and
Open recent, driven through the dialog's and the window's own widgets."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSettings, Qt

from gwasl.ui.play.controller import GameController
from gwasl.ui.play.newgame import NewGameDialog
from testsupport import SCENARIOS


def test_new_game_takes_the_seed_secret_side_practice_and_balance(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a library of the bundled scenarios only
    dlg = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                        source_path=str(SCENARIOS / "ovillers-1916.json"))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert sorted(dlg.secret_checks) == ["british", "german"] and dlg.ok_button.isEnabled()
    dlg.seed.setValue(1234)
    for box in (dlg.secret_checks["german"], dlg.practice):  # a click on the box itself
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    balance = dlg.choice_widget("balance")  # A26.4, an option the Great War game declares
    balance.setCurrentIndex(balance.findData("british"))
    dlg.source.editingFinished.emit()  # what the scenario box says each time it loses focus
    assert dlg.secret_checks["german"].isChecked() and dlg.choice_widget("balance").currentData() == "british"
    dlg.out.setText(str(tmp_path / "ovillers.game"))
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    gf = dlg.created
    assert gf is not None and (tmp_path / "ovillers.game").exists()
    s = gf.session
    assert s.seed == 1234 and s.options.secret == frozenset({"german"}) and s.options.practice
    assert dict(s.options.extra) == {"balance": "british"}
    gf.close()


def test_on_patrol_offers_its_bundled_patrols_and_combined_arms_none(qtbot, tmp_path, monkeypatch):
    """Choosing On Patrol lists its bundled patrols where the Great War library was; a
    click picks one. Combined Arms needs no scenario (CA The Playing Board: diced)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    dlg = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(dlg)
    assert dlg.hits.count() > 0  # the Great War library
    dlg.ruleset.setCurrentIndex(dlg.ruleset.findData("on-patrol"))
    titles = [dlg.hits.item(i).text() for i in range(dlg.hits.count())]
    assert any(t.startswith("Night convoy") for t in titles) and len(titles) == 3
    dlg.search.setText("night")
    assert dlg.hits.count() == 1
    qtbot.mouseClick(dlg.hits.viewport(), Qt.MouseButton.LeftButton, pos=dlg.hits.visualItemRect(dlg.hits.item(0)).center())
    assert dlg.source.text().endswith("night-convoy.json") and not dlg.problem.text() and dlg.ok_button.isEnabled()
    dlg.out.setText(str(tmp_path / "night.game"))
    dlg.start()
    assert dlg.created is not None and dlg.created.session.view()["night"]
    dlg.created.close()
    dlg2 = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), ruleset="combined-arms")
    qtbot.addWidget(dlg2)
    assert dlg2.hits.count() == 0 and "seed" in dlg2.search.placeholderText() and dlg2.ok_button.isEnabled()


def test_new_game_says_what_is_wrong_and_makes_no_file(qtbot, tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text("{not json", encoding="utf-8")
    dlg = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), source_path=str(bad))
    qtbot.addWidget(dlg)
    assert dlg.problem.text() and "\n" not in dlg.problem.text() and not dlg.ok_button.isEnabled()
    # an existing game file is never replaced
    dlg.source.setText(str(SCENARIOS / "rossignol-1914.json"))
    dlg._source_changed()
    taken = tmp_path / "taken.game"
    taken.write_bytes(b"mine")
    dlg.out.setText(str(taken))
    dlg.start()
    assert dlg.created is None and "exists" in dlg.problem.text() and taken.read_bytes() == b"mine"


def test_open_recent_reopens_a_game_where_it_was_left(qtbot, window, tmp_path):
    from ui.play.playhelp import start

    start(window, tmp_path, "rossignol-1914.json")
    window.end_phase()
    where, path = window.turn_label.text(), str(window.controller.file.path)
    window.close_game()
    assert window.recent_games()[0] == path
    entry = next(a for a in window.recent_menu.actions() if a.text().replace("&&", "&") == path)
    entry.trigger()
    assert isinstance(window.controller, GameController) and window.turn_label.text() == where
