"""The player window fixture of tests/ui/play (a test module may define its own)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from gwasl.ui.play.window import PlayerWindow


@pytest.fixture
def window(qtbot, tmp_path):
    win = PlayerWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    win.tell = lambda title, text: win.messages.append((title, text))  # no modal boxes in tests
    qtbot.addWidget(win)
    win.resize(1300, 850)
    win.show()
    qtbot.waitExposed(win)
    return win
