"""Issue 23 item 3, "one place per game": the New game dialog, the store, the command line
(and the board lookup, tests/ui/play/test_board_lookup.py) take every ruleset from the
registry and read what its Game class declares: no ruleset name is written anywhere else.

The dialog is driven per ruleset as a user would (pytest-qt): each game shows its own
options only (the Great War's secret sides and Balance, A26.4, never for a solitaire game),
and a toy game registered here appears with its name, its bundled sources and its options."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLabel

from gwasl import games
from gwasl.cli import main
from gwasl.engine.game import SCENARIO_FILE, GameError, GameOptions, SourceKind
from gwasl.games import RULESETS, game_for
from gwasl.store.gamefile import load_source, open_game
from gwasl.ui.play.newgame import NewGameDialog
from testsupport import SCENARIOS
from ui.play import plantedgames
from ui.play.plantedgames import DeclaredToy

#: what each game shows below the seed, in order: (label beside it, or a check box's own words)
SHOWN = {
    "aslgw": ["gwasl keeps secret", "practice mode: take back past dice and reveals", "Balance (A26.4)",
              "gwasl plays (you the other side)"],
    "combined-arms": ["practice mode: take back past dice and reveals", "the easier game (no -1 per turn after 18)"],
    "on-patrol": ["practice mode: take back past dice and reveals"],
}
#: words only the Great War game's options use
GREAT_WAR_ONLY = ("gwasl keeps secret", "Balance (A26.4)", "gwasl plays (you the other side)")


def dialog(qtbot, tmp_path, **kw) -> NewGameDialog:
    dlg = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), **kw)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def option_rows(dlg: NewGameDialog) -> list[str]:
    """The words of each visible row after the seed's, as the person reads them."""
    QApplication.processEvents()  # a row added to a shown form is shown by the event loop
    form = dlg.form
    out = []
    for row in range(form.rowCount()):
        label = form.itemAt(row, form.ItemRole.LabelRole)
        field = form.itemAt(row, form.ItemRole.FieldRole)
        w = field.widget() if field is not None else None
        if w is None or not w.isVisible() or w in (dlg.ruleset, dlg.seed, dlg.out) or w.isAncestorOf(dlg.source) \
                or w.isAncestorOf(dlg.search):
            continue
        text = label.widget().text() if label is not None and isinstance(label.widget(), QLabel) else ""
        out.append(text or (w.text() if isinstance(w, QCheckBox) else ""))
    return out


def choose(qtbot, dlg: NewGameDialog, ruleset: str) -> None:
    dlg.ruleset.setCurrentIndex(dlg.ruleset.findData(ruleset))
    qtbot.waitUntil(lambda: dlg.ruleset_name == ruleset)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a library of the bundled scenarios only


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_each_game_shows_its_own_options_only(qtbot, tmp_path, home, ruleset):
    """Every game of the registry is offered under its display name; the rows after the seed
    are the chosen game's options, in its order, and the Great War's only for it."""
    src = {"ruleset": ruleset, "source_path": str(SCENARIOS / "ovillers-1916.json")} if ruleset == "aslgw" else {"ruleset": ruleset}
    dlg = dialog(qtbot, tmp_path, **src)
    names = [dlg.ruleset.itemText(i) for i in range(dlg.ruleset.count())]
    assert names[:3] == [game_for(n).display_name for n in RULESETS]
    assert option_rows(dlg) == SHOWN[ruleset] and dlg.ok_button.isEnabled()
    assert list(dlg.choices()) == [o.key for o in game_for(ruleset).options_offered]
    if ruleset != "aslgw":
        assert not any(w in option_rows(dlg) for w in GREAT_WAR_ONLY) and dlg.secret_checks == {}
    assert dlg.search.placeholderText() == game_for(ruleset).source_kind.search


def test_switching_games_rebuilds_the_options_and_keeps_practice(qtbot, tmp_path, home):
    """Choosing Combined Arms after a Great War scenario drops the secret sides and the Balance
    (A26.4) and shows the easier game (CA Victory); back again, they return; a ticked
    practice box stays ticked, as before the form was built from the games."""
    dlg = dialog(qtbot, tmp_path, source_path=str(SCENARIOS / "ovillers-1916.json"))
    qtbot.mouseClick(dlg.practice, Qt.MouseButton.LeftButton, pos=QPoint(8, dlg.practice.height() // 2))
    choose(qtbot, dlg, "combined-arms")
    assert option_rows(dlg) == SHOWN["combined-arms"] and dlg.practice.isChecked()
    easier = dlg.choice_widget("easier")
    assert isinstance(easier, QCheckBox) and easier.toolTip() == "CA Victory"
    easier.setChecked(True)
    assert dlg.choice_widget("balance") is None and dlg.choice_widget("secret") is None
    choose(qtbot, dlg, "aslgw")
    assert option_rows(dlg) == SHOWN["aslgw"] and dlg.practice.isChecked()
    assert isinstance(dlg.choice_widget("balance"), QComboBox) and sorted(dlg.secret_checks) == ["british", "german"]
    choose(qtbot, dlg, "combined-arms")
    assert dlg.choice_widget("easier").isChecked()  # as the person left it
    assert "terrain" in dlg.problem.text() and not dlg.ok_button.isEnabled()  # a Great War scenario is no CA board
    dlg.source.clear()
    dlg.source.editingFinished.emit()
    assert dlg.ok_button.isEnabled() and dlg.choice_widget("easier").isChecked()
    dlg.out.setText(str(tmp_path / "ca.game"))
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert dlg.created is not None
    assert dlg.created.session.options == GameOptions(frozenset(), True, dlg.created.session.options.extra)
    assert dict(dlg.created.session.options.extra) == {"easier": True}
    dlg.created.close()


class ScenarioToy(DeclaredToy):
    """A toy that says it starts from a Great War scenario file: the store reads it as one."""

    ruleset: ClassVar[str] = "toy-scenario"
    source_kind: ClassVar[SourceKind] = SourceKind(SCENARIO_FILE, "a Great War scenario", required=True)


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The declared toy registered for this test, with two bundled tracks of its own."""
    tracks = tmp_path / "tracks"
    tracks.mkdir()
    (tracks / "long.json").write_text(json.dumps({"title": "The long track", "traps": [9, 11]}), encoding="utf-8")
    (tracks / "short.json").write_text(json.dumps({"title": "The short track", "traps": [2, 3]}), encoding="utf-8")
    monkeypatch.setattr(plantedgames, "TRACKS", tracks)
    monkeypatch.setitem(games._EXTRA, "toy-declared", DeclaredToy())
    monkeypatch.setitem(games._EXTRA, "toy-scenario", ScenarioToy())
    return tracks


def test_a_registered_game_appears_in_the_dialog_with_its_source_and_options(qtbot, tmp_path, home, toy):
    dlg = dialog(qtbot, tmp_path)
    assert dlg.ruleset.findText("The toy race") >= 0
    choose(qtbot, dlg, "toy-declared")
    assert dlg.search.placeholderText() == "search the toy's tracks: title"
    assert [dlg.hits.item(i).text() for i in range(dlg.hits.count())] == ["The long track", "The short track"]
    assert dlg.problem.text() == "choose a toy track (JSON)" and not dlg.ok_button.isEnabled()  # it needs a source
    dlg.search.setText("short")
    assert dlg.hits.count() == 1
    qtbot.mouseClick(dlg.hits.viewport(), Qt.MouseButton.LeftButton, pos=dlg.hits.visualItemRect(dlg.hits.item(0)).center())
    assert dlg.source.text() == str(toy / "short.json") and dlg.ok_button.isEnabled() and not dlg.problem.text()
    assert option_rows(dlg) == ["gwasl runs blue", "gwasl keeps secret", "practice mode: take back past dice and reveals"]
    assert dlg.choice_widget("auto_blue").toolTip() == "toy rule 1" and sorted(dlg.secret_checks) == ["blue", "red"]
    dlg.choice_widget("auto_blue").setChecked(True)
    dlg.secret_checks["blue"].setChecked(True)
    dlg.out.setText(str(tmp_path / "toy.game"))
    dlg.start()
    gf = dlg.created
    assert gf is not None and gf.ruleset == "toy-declared" and gf.session.state.traps == (2, 3)
    assert gf.session.options == GameOptions(frozenset({"blue"}), False, gf.session.options.extra)
    assert dict(gf.session.options.extra) == {"auto_blue": True}
    gf.close()
    assert open_game(tmp_path / "toy.game").ruleset == "toy-declared"


def test_the_store_reads_the_source_kind_the_game_declares(tmp_path, toy):
    """load_source branched on the name "aslgw": now a toy declaring a Great War scenario
    file gets its file checked as one, and the declared toy's JSON is read as JSON."""
    track = toy / "long.json"
    assert load_source("toy-declared", str(track))["traps"] == [9, 11]
    with pytest.raises(GameError, match="not a valid scenario"):
        load_source("toy-scenario", str(track))
    assert load_source(ScenarioToy(), str(SCENARIOS / "ovillers-1916.json"))["title"]


def run(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    return rc, capsys.readouterr().err


def test_the_command_line_reads_the_source_and_options_the_game_declares(tmp_path, toy, capsys):
    """`gwasl game new` asks for a source where the game requires one, and takes the options
    it offers, each checked (a one-line error naming the flag, exit 2, no file)."""
    out = tmp_path / "t.game"
    rc, err = run(capsys, "game", "new", "--ruleset", "toy-declared", "--out", str(out))
    assert rc == 2 and err.strip().endswith("the toy-declared ruleset starts from a toy track (JSON): give its file as SOURCE")
    track = str(toy / "short.json")
    for argv, said in (
        (["--option", "easier=true"], "--option easier: The toy race offers no such option (its options: auto_blue, secret, practice)"),
        (["--option", "auto_blue=maybe"], "--option auto_blue: 'maybe' is not true or false"),
        (["--secret", "green"], "--secret: 'green' is not a side (red, blue)"),
        (["--option", "practice=true"], "--option practice: give it as --practice"),
    ):
        rc, err = run(capsys, "game", "new", track, "--ruleset", "toy-declared", "--out", str(out), *argv)
        assert rc == 2 and err.strip().endswith(said) and err.count("\n") == 1 and not out.exists(), (argv, err)
    rc, err = run(capsys, "game", "new", track, "--ruleset", "toy-declared", "--out", str(out), "--seed", "2",
                  "--option", "auto_blue=true", "--secret", "blue", "--practice")
    assert rc == 0, err
    with open_game(out) as gf:
        assert gf.session.options.secret == frozenset({"blue"}) and gf.session.options.practice
        assert dict(gf.session.options.extra) == {"auto_blue": True}
    rc, err = run(capsys, "game", "new", "--ruleset", "combined-arms", "--out", str(tmp_path / "ca.game"), "--secret", "defender")
    assert rc == 2 and "--secret: Combined Arms (Sabin) offers no such option" in err


def test_a_game_that_cannot_be_loaded_is_listed_and_says_why(qtbot, tmp_path, home, monkeypatch):
    """A ruleset whose package fails to import is not dropped from the list in silence: chosen,
    the dialog says what failed and cannot start it."""
    monkeypatch.setitem(RULESETS, "broken", "gwasl.games.no_such_game:Game")
    dlg = dialog(qtbot, tmp_path)
    assert dlg.ruleset.findData("broken") >= 0
    choose(qtbot, dlg, "broken")
    assert dlg.problem.text() == ("the broken ruleset is not available in this gwasl "
                                  "(ModuleNotFoundError: No module named 'gwasl.games.no_such_game')")
    assert not dlg.ok_button.isEnabled() and option_rows(dlg) == [] and dlg.hits.count() == 0
    choose(qtbot, dlg, "combined-arms")
    assert not dlg.problem.text() and dlg.ok_button.isEnabled() and option_rows(dlg) == SHOWN["combined-arms"]
