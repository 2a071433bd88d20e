"""Issue 25 item 7 (in part): New game asks "Play: SIDE / SIDE / both sides (solitaire)";
choosing a side makes gwasl the other side's opponent, its secrets kept."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from gwasl.ui.play.newgame import NewGameDialog
from testsupport import SCENARIOS


def test_new_game_offers_to_play_one_side_against_gwasl(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    dlg = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                        source_path=str(SCENARIOS / "rossignol-1914.json"))
    qtbot.addWidget(dlg)
    items = [dlg.play_as.itemText(i) for i in range(dlg.play_as.count())]
    assert items == ["both sides (solitaire)", "french (gwasl plays german)", "german (gwasl plays french)"]
    assert "opponent" not in dlg.options().extra  # solitaire stays the default
    dlg.play_as.setCurrentIndex(1)
    dlg.out.setText(str(tmp_path / "ross.game"))
    dlg.start()
    gf = dlg.created
    assert gf is not None
    s = gf.session
    assert s.options.extra["opponent"] == "german" and "german" in s.options.secret
    assert s.status().side == "french"
    gf.close()
