"""Fixtures for driving the editor window offscreen with pytest-qt."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.ui.mainwindow import MainWindow
from testsupport import EXAMPLE_PATH


@pytest.fixture(autouse=True)
def _settings_in_tmp(tmp_path_factory):
    """A window built without settings of its own (QSettings("gwasl", "gwasl")) keeps them
    in a temporary folder: no test reads or writes the user's recent files or dock layout."""
    where = str(tmp_path_factory.mktemp("settings"))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, where)
    yield


class Driver:
    """A user at the editor: clicks and drags on hexes, presses keys, picks tools."""

    def __init__(self, qtbot, win: MainWindow) -> None:
        self.qtbot = qtbot
        self.win = win

    def point(self, label: str, dx: float = 0.0, dy: float = 0.0) -> QPoint:
        lay = self.win.scene.layout
        c = lay.hex_to_pixel(Hex.from_label(label))
        x, y = c.x + dx * lay.size, c.y + dy * lay.size
        self.win.view.ensureVisible(x - 2, y - 2, 4, 4, 8, 8)  # a user scrolls to a hex before pointing at it
        return self.win.view.mapFromScene(x, y)

    def tool(self, name: str) -> None:
        self.win.tool_actions[name].trigger()

    def click(self, label: str, mods=Qt.NoModifier, dx: float = 0.0, dy: float = 0.0) -> None:
        self.qtbot.mouseClick(self.win.view.viewport(), Qt.LeftButton, mods, self.point(label, dx, dy))

    def drag(self, labels: list[str], mods=Qt.NoModifier) -> None:
        vp = self.win.view.viewport()
        self.qtbot.mousePress(vp, Qt.LeftButton, mods, self.point(labels[0]))
        for label in labels[1:]:
            self.qtbot.mouseMove(vp, self.point(label))
        self.qtbot.mouseRelease(vp, Qt.LeftButton, mods, self.point(labels[-1]))

    def hover(self, label: str) -> None:
        self.qtbot.mouseMove(self.win.view.viewport(), self.point(label))

    def keys(self, key, mods=Qt.NoModifier) -> None:
        self.qtbot.keyClick(self.win.view, key, mods)

    def choose(self, combo, value) -> None:
        i = combo.findData(value)
        assert i >= 0, value
        combo.setCurrentIndex(i)


@pytest.fixture()
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)


def _window(qtbot, doc, settings) -> MainWindow:
    win = MainWindow(doc, settings)
    # Closing at teardown must not wait on a modal "unsaved changes" box; tests of the prompt replace this.
    win.ask_unsaved = lambda: QMessageBox.Discard
    win.warnings = []
    win.warn = lambda title, text: win.warnings.append((title, text))
    qtbot.addWidget(win)
    win.resize(1300, 850)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    win.view.resetTransform()  # 1:1 zoom: every hex is big enough to hit
    return win


@pytest.fixture()
def window(qtbot, settings) -> MainWindow:
    return _window(qtbot, None, settings)


@pytest.fixture()
def example_window(qtbot, settings) -> MainWindow:
    return _window(qtbot, EditorDocument.open(EXAMPLE_PATH), settings)


@pytest.fixture()
def user(qtbot, window) -> Driver:
    return Driver(qtbot, window)


@pytest.fixture()
def example_user(qtbot, example_window) -> Driver:
    return Driver(qtbot, example_window)


@pytest.fixture()
def make_window(qtbot, settings):
    return lambda doc=None: _window(qtbot, doc, settings)


@pytest.fixture()
def drive(qtbot):
    """A user's hands on any window: ``drive(win).click("C2")``."""
    return lambda win: Driver(qtbot, win)
