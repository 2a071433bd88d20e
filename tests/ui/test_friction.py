"""Editor friction (issue 10 item 16): the wheel over the palette, selection and
exports, export failures, files written through gwasl.model.files."""

from __future__ import annotations

import os

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QWheelEvent
from PySide6.QtWidgets import QApplication

from gwasl.model.files import atomic_target
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Terrain
from testsupport import EXAMPLE_PATH

H = Hex.from_label


def _wheel(widget, notches: int = -1) -> None:
    """One turn of the wheel with the pointer over ``widget`` (negative: towards the user)."""
    centre = QPointF(widget.rect().center())
    ev = QWheelEvent(centre, QPointF(widget.mapToGlobal(widget.rect().center())), QPoint(0, 0), QPoint(0, 120 * notches),
                     Qt.NoButton, Qt.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, ev)


def test_the_wheel_over_the_palette_scrolls_it_and_changes_no_choice(window, qtbot):
    bar = window.palette_scroll.verticalScrollBar()
    assert bar.maximum() > 0, "the palette must overflow its dock for this test"
    bar.setValue(0)
    terrain, level = window.palette.terrain_box, window.palette.level_box
    before = (terrain.currentIndex(), level.value())
    for w in (terrain, level, window.palette.fort_box):
        _wheel(w)
    assert (terrain.currentIndex(), level.value()) == before
    assert bar.value() > 0  # the palette scrolled instead
    # Once the user has clicked into a field, the wheel is its own again.
    terrain.setFocus()
    qtbot.waitUntil(terrain.hasFocus)
    _wheel(terrain)
    assert terrain.currentIndex() != before[0]


def test_new_and_open_forget_the_selection(example_user, example_window):
    u, w = example_user, example_window
    u.tool("select")
    u.click("B2")
    assert w.selected_units == {"G1-5"} and w.scene.selection.hexes == {H("B2")}
    w.checks.show_los(H("A1"), H("C5"))
    w.new_file()
    assert not w.selected_units and not w.scene.selected_units
    assert not w.scene.selection.hexes and w.selected_hex is None
    assert w.scene.los_thread.a is None
    u.click("B2")
    assert w.scene.selection.hexes == {H("B2")}
    assert w.open_path(str(EXAMPLE_PATH), ask=False)
    assert not w.scene.selection.hexes and not w.scene.selected_units


def test_exports_leave_the_selection_out(example_user, example_window, tmp_path):
    u, w = example_user, example_window
    u.tool("select")
    u.click("C2")  # selects a counter, the hex, and pins the stack fanned out
    assert w.selected_units and w.scene.selection.hexes and w.scene.stacks[H("C2")].fanned
    assert w.export(str(tmp_path / "selected.png")) and w.export(str(tmp_path / "selected.svg"))
    assert w.selected_units and w.scene.stacks[H("C2")].fanned  # the window keeps its selection
    w.forget_selection()
    w.scene.stacks[H("C2")].toggle_pinned()
    assert not w.scene.stacks[H("C2")].fanned
    assert w.export(str(tmp_path / "clean.png")) and w.export(str(tmp_path / "clean.svg"))
    assert QImage(str(tmp_path / "selected.png")) == QImage(str(tmp_path / "clean.png"))
    assert (tmp_path / "selected.svg").read_text() == (tmp_path / "clean.svg").read_text()


def test_a_failed_export_says_so_in_a_dialog(example_window, tmp_path):
    w = example_window
    assert not w.export(str(tmp_path / "no such folder" / "map.png"))
    assert w.warnings and w.warnings[-1][0] == "Cannot export" and "no such folder" in w.warnings[-1][1]
    assert not (tmp_path / "no such folder").exists()


def test_saves_and_exports_write_through_gwasl_model_files(example_user, example_window, tmp_path):
    """The file modes are gwasl.model.files' business: the editor's files get exactly its mode."""
    reference = tmp_path / "reference.bin"
    with atomic_target(reference) as tmp:
        tmp.write_bytes(b"x")
    w = example_window
    example_user.tool("terrain")
    w.palette.select(w.palette.terrain_box, Terrain.WOODS)
    example_user.click("A1")
    assert w._save_to(str(tmp_path / "saved.json"))
    assert w.export(str(tmp_path / "map.png")) and w.export(str(tmp_path / "map.svg"))
    mode = os.stat(reference).st_mode & 0o777
    for name in ("saved.json", "map.png", "map.svg"):
        assert os.stat(tmp_path / name).st_mode & 0o777 == mode, name
