"""The scenario properties dialog edits the whole card (issue 13 item 1; A26, A26.3, A26.4,
A19.1, A14.1), driven as a user would: Ctrl+P opens it, the user types into its cells,
OK makes one undo step; a card the game could not play keeps the dialog open with the
field named; undo and redo restore and replay the card."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLineEdit, QPushButton, QTableWidget

from gwasl.editor import document as ed
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Terrain
from gwasl.model.scenario_io import load_scenario
from gwasl.rules.card import scenario_card
from gwasl.rules.turn_record import turn_record
from gwasl.scenarios import bundled_scenario, bundled_scenarios
from gwasl.ui.properties import PropertiesDialog


def _type_cell(qtbot, table: QTableWidget, row: int, col: int, text: str) -> None:
    """Double-click the cell, select what it holds, type ``text``, press Enter."""
    table.scrollToItem(table.item(row, col))
    rect = table.visualItemRect(table.item(row, col))
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    editors = [w for w in table.viewport().findChildren(QLineEdit) if w.isVisible() and w.objectName() != "qt_spinbox_lineedit"]
    assert len(editors) == 1, "the double-click opens the cell's editor"
    editor = editors[0]
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key_Return)
    QApplication.processEvents()  # the delegate commits the text on Enter by a queued call
    assert table.item(row, col).text() == text


def _row(table: QTableWidget, side: str) -> int:
    return next(r for r in range(table.rowCount()) if table.item(r, 0).text() == side)


def _fill(qtbot, dlg: PropertiesDialog) -> None:
    dlg.tabs.setCurrentIndex(1)
    dlg.turns.setFocus()
    dlg.turns.selectAll()
    qtbot.keyClicks(dlg.turns, "6")
    dlg.first_moves.setCurrentIndex(dlg.first_moves.findData("german"))
    t = dlg.card_sides
    g, f = _row(t, "german"), _row(t, "french")
    _type_cell(qtbot, t, g, 1, "west half")
    _type_cell(qtbot, t, f, 1, "G6 H6")
    _type_cell(qtbot, t, g, 2, "west edge")
    t.cellWidget(g, 3).setValue(4)  # ELR
    t.cellWidget(f, 4).setValue(3)  # SAN
    _type_cell(qtbot, t, f, 5, "Add one game turn.")
    t.cellWidget(f, 6).setValue(1)
    v = dlg.victory
    _type_cell(qtbot, v, _row(v, "german"), 1, "control buildings ferme; control hexes G6")
    qtbot.mouseClick(v.cellWidget(_row(v, "french"), 3), Qt.LeftButton)  # the French win by avoidance (A26.3)
    dlg.add_ssr("1", "", "")
    _type_cell(qtbot, dlg.ssr, 0, 1, "Night falls.")
    _type_cell(qtbot, dlg.ssr, 0, 2, "$.night")


def test_the_dialog_edits_the_whole_card_in_one_undo_step(qtbot, window):
    doc = window.document
    doc.apply(ed.paint_terrain, [Hex.from_label("G6")], Terrain.STONE_BUILDING)
    doc.apply(ed.set_building, [Hex.from_label("G6")], "ferme")
    steps = len(doc.history)
    changes = []
    doc.subscribe(changes.append)
    done = []

    def user() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, PropertiesDialog)
        try:
            _fill(qtbot, dlg)
            qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.LeftButton)
            done.append(dlg.isVisible() and dlg.error.text())
        except Exception as e:  # reported below: a modal dialog left open would hang the test
            done.append(repr(e))
        finally:
            if dlg.isVisible():
                dlg.reject()

    QTimer.singleShot(0, user)
    qtbot.keyClick(window, Qt.Key_P, Qt.ControlModifier)  # Scenario > Properties
    assert done == [False], done  # accepted and closed
    assert len(doc.history) == steps + 1 and len(changes) == 1
    s = doc.scenario
    card, tr = scenario_card(s), turn_record(s)
    assert (tr.turns, tr.first) == (6, "german")
    assert card.setup["french"] == {Hex.from_label("G6"), Hex.from_label("H6")} and len(card.entry["german"]) == s.map.rows
    assert card.elr["german"] == 4 and card.san["french"] == 3 and card.balance["french"].turns == 1
    assert card.victory["german"].conditions[0].buildings == ("ferme",) and card.victory["french"].avoid
    assert card.ssr[0].text == "Night falls." and card.ssr[0].fields == ("$.night",)
    doc.undo()
    assert "game" not in doc.scenario.extra
    doc.redo()
    assert scenario_card(doc.scenario) == card
    # the dialog opened again shows the card as it is: OK without a change changes nothing
    dlg = PropertiesDialog(doc.scenario, window)
    assert dlg.problem() is None
    assert not window.apply_properties(dlg.values()) and len(doc.history) == steps + 1


def test_a_bad_card_keeps_the_dialog_open_and_names_the_field(qtbot, window):
    doc = window.document
    dlg = PropertiesDialog(doc.scenario, window)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.tabs.setCurrentIndex(1)
    v = dlg.victory
    _type_cell(qtbot, v, _row(v, "german"), 1, "control buildings mairie")
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.LeftButton)
    assert dlg.isVisible() and "mairie" in dlg.error.text() and "A26.14" in dlg.error.text()
    _type_cell(qtbot, dlg.card_sides, _row(dlg.card_sides, "french"), 1, "west edge")
    _type_cell(qtbot, v, _row(v, "german"), 1, "control hexes A1")
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.LeftButton)
    assert dlg.isVisible() and "board half" in dlg.error.text()
    _type_cell(qtbot, dlg.card_sides, _row(dlg.card_sides, "french"), 1, "east half")
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.LeftButton)
    assert not dlg.isVisible() and dlg.error.text() == "", dlg.error.text()
    assert doc.history == ()  # the dialog alone edits nothing: the window applies its values


@pytest.mark.parametrize("name", sorted(p.name for p in bundled_scenarios()))
def test_every_bundled_card_reads_back_unchanged(qtbot, name):
    """Opening the dialog on a bundled scenario and pressing OK changes nothing: every card
    field it shows is written back as it was (A26 card, docs/format/aslgw.md)."""
    s = load_scenario(bundled_scenario(name))
    dlg = PropertiesDialog(s)
    qtbot.addWidget(dlg)
    assert dlg.problem() is None
    assert ed.set_properties(s, **dlg.values()) is None


def test_a_side_added_on_the_first_tab_gets_its_card_row(qtbot, window):
    dlg = PropertiesDialog(window.document.scenario, window)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    add = next(b for b in dlg.findChildren(QPushButton) if b.text() == "Add side")
    qtbot.mouseClick(add, Qt.LeftButton)
    _type_cell(qtbot, dlg.sides, dlg.sides.rowCount() - 1, 0, "belgian")
    dlg.tabs.setCurrentIndex(1)
    assert _row(dlg.card_sides, "belgian") >= 0 and _row(dlg.victory, "belgian") >= 0
    assert dlg.first_moves.findData("belgian") > 0
    _type_cell(qtbot, dlg.card_sides, _row(dlg.card_sides, "belgian"), 1, "A1")
    assert dlg.card()["setup"]["belgian"] == {"hexes": ["A1"]}
