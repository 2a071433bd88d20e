"""Text from a file is shown literally, never as Qt rich text (issue 17 item 1).

A unit id ``<img src='/dev/zero'>`` would make Qt read /dev/zero (an endless
file) if a tooltip or dialog took it for HTML.  The tests plant such text in a
scenario and check that what each widget would render is the literal text and
that rendering it asks for no resource at all.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.ui.mainwindow import MainWindow
from testsupport import EXAMPLE_PATH

TRAP = "<img src='/dev/zero'>"
# Dialogs are really shown: their trap names a file that does not exist, so old code fails fast instead of hanging.
DIALOG_TRAP = "<img src='nx.png'>"
H = Hex.from_label


class _Recorder(QTextDocument):
    """A text document that records every resource (image, style sheet) layout asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []

    def loadResource(self, kind, name):
        self.loads.append(name.toString())
        return None


def shown_as(text: str) -> tuple[str, list[str]]:
    """What Qt displays for ``text`` in a tooltip (rich text when it looks like HTML), and the resources it loads."""
    doc = _Recorder()
    if GuiQt.mightBeRichText(text):
        doc.setHtml(text)
    else:
        doc.setPlainText(text)
    doc.setTextWidth(400)
    doc.size()  # lays the document out: images are fetched here
    return doc.toPlainText(), doc.loads


def _planted(tmp_path) -> str:
    d = json.loads(EXAMPLE_PATH.read_text())
    d["title"] = f"Trap {TRAP} [*] & co"
    for u in d["units"]:
        if u["id"] == "G1-5":  # the lone German squad in B2
            u["id"] = TRAP
    d["formations"][0]["id"] = "<b>G1</b>"
    for u in d["units"]:
        if u.get("platoon") == "G1":
            u["platoon"] = "<b>G1</b>"
    p = tmp_path / "trap.json"
    p.write_text(json.dumps(d))
    return str(p)


def test_planted_markup_in_stack_tooltips_and_lists_is_literal(make_window, tmp_path):
    w = make_window(EditorDocument.open(_planted(tmp_path)))
    tip = w.scene.stacks[H("B2")].toolTip()
    text, loads = shown_as(tip)
    assert loads == [] and TRAP in text
    for item in w.scene.stacks.values():
        assert shown_as(item.toolTip())[1] == []
    assert "platoon <b>G1</b>" in shown_as(w.scene.stacks[H("C2")].toolTip())[0]
    # the lists show the id as it is
    ids = [w.unit_model.index(r, 0).data() for r in range(w.unit_model.rowCount())]
    assert TRAP in ids
    # the window title keeps the title literally, "[*]" included
    assert w.windowHandle().title().startswith(f"Trap {TRAP} [*] & co - trap.json")
    # every label of the window is plain text
    assert all(lb.textFormat() == Qt.PlainText for lb in w.findChildren(QLabel))


def test_findings_tooltips_are_literal(make_window, tmp_path):
    d = json.loads(EXAMPLE_PATH.read_text())
    for u in d["units"]:
        if u["id"] == "G-FT":
            u["weapon"] = TRAP  # not a weapon of the tables: the finding quotes it
    p = tmp_path / "weapon.json"
    p.write_text(json.dumps(d))
    w = make_window(EditorDocument.open(p))
    w.run_validation()
    tips = [w.findings_model.index(r, 1).data(Qt.ToolTipRole) for r in range(w.findings_model.rowCount())]
    assert tips
    for tip in tips:
        assert shown_as(tip)[1] == []
    assert any(TRAP in shown_as(t)[0] for t in tips)


def test_the_cannot_open_dialog_quotes_the_field_literally(make_window, tmp_path):
    d = json.loads(EXAMPLE_PATH.read_text())
    d["units"][0]["hex"] = DIALOG_TRAP
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    w = make_window()
    w.warn = MainWindow.warn.__get__(w)  # the real dialog, not the fixture's recorder
    seen: list[tuple[Qt.TextFormat, str]] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, read_and_close)
            return
        seen.append((box.textFormat(), box.text()))
        box.done(QMessageBox.Ok)

    QTimer.singleShot(0, read_and_close)
    assert not w.open_path(str(bad), ask=False)
    assert seen and seen[0][0] == Qt.PlainText and DIALOG_TRAP in seen[0][1]


def test_the_unsaved_changes_question_is_plain_text(make_window, tmp_path):
    d = json.loads(EXAMPLE_PATH.read_text())
    d["title"] = DIALOG_TRAP
    p = tmp_path / "title.json"
    p.write_text(json.dumps(d))
    w = make_window(EditorDocument.open(p))
    w.ask_unsaved = MainWindow.ask_unsaved.__get__(w)
    seen: list[tuple[Qt.TextFormat, str]] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, read_and_close)
            return
        seen.append((box.textFormat(), box.text()))
        box.done(QMessageBox.Cancel)

    QTimer.singleShot(0, read_and_close)
    assert w.ask_unsaved() == QMessageBox.Cancel
    assert seen[0][0] == Qt.PlainText and DIALOG_TRAP in seen[0][1]

