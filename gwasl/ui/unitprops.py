"""A counter's properties in the editor (right-click on it): side, kind, class, leader
rating, weapon, platoon, where it is in its hex, hidden status, broken, trench armour.

The dialog only gathers the fields changed; the window applies them as one edit (one undo
step) through :func:`gwasl.editor.document.update_units`, which judges them.  In a side's
view (read-only) the same dialog shows what that side knows, nothing editable.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from gwasl.model.scenario import HiddenStatus, LeaderRating, LeaderRatingError, Position, Scenario, Unit, UnitClass, UnitKind
from gwasl.ui import plain
from gwasl.ui.words import words

__all__ = ["UnitDialog"]


class UnitDialog(QDialog):
    """One unit's properties; :meth:`changes` gives the fields edited, by the model's names."""

    def __init__(self, scenario: Scenario, unit: Unit, editable: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.unit = unit
        self.setWindowTitle(plain.window_title(f"Counter {unit.id}"))
        form = QFormLayout()
        form.addRow("Id", QLabel(unit.id))
        form.addRow("Hex", QLabel(unit.hex.label))

        def combo(values: list[Any], current: Any) -> QComboBox:
            c = QComboBox()
            for v in values:
                c.addItem(words(v) if v is not None else "none", v)
            c.setCurrentIndex(max(0, c.findData(current)))
            return c

        self.side = combo(list(scenario.sides), unit.side)
        self.kind = combo(list(UnitKind), unit.kind)
        self.unit_class = combo([None, *UnitClass], unit.unit_class)
        self.rating = QLineEdit(str(unit.rating) if unit.rating else "")
        self.rating.setPlaceholderText("e.g. 9-1 (leaders and heroes)")
        self.weapon = QLineEdit(unit.weapon or "")
        self.platoon = combo([None, *(f.id for f in scenario.formations)], unit.platoon)
        self.position = combo(list(Position), unit.position)
        self.hidden = combo(list(HiddenStatus), unit.hidden)
        self.broken = QCheckBox("broken")
        self.broken.setChecked(unit.broken)
        self.armour = QCheckBox("trench armour (ASLGW 1.8)")
        self.armour.setChecked(unit.trench_armour)
        for label, w in (("Side", self.side), ("Kind", self.kind), ("Class", self.unit_class), ("Leader rating", self.rating),
                         ("Weapon", self.weapon), ("Platoon", self.platoon), ("In the hex", self.position),
                         ("Hidden", self.hidden), ("", self.broken), ("", self.armour)):
            form.addRow(label, w)
            w.setEnabled(editable)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setStyleSheet("color: #a00")
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                   if editable else QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        if not editable:
            note = QLabel("A side's view is read-only: edit in the designer's view (View > See the map as).")
            note.setWordWrap(True)
            lay.addWidget(note)
        lay.addLayout(form)
        lay.addWidget(self.problem)
        lay.addWidget(buttons)
        plain.plain_labels(self)

    def changes(self) -> dict[str, Any]:
        """The fields the user changed (raises LeaderRatingError, a ValueError, with a sentence for a bad rating)."""
        u = self.unit
        text = self.rating.text().strip()
        try:
            rating = LeaderRating.parse(text) if text else None
        except LeaderRatingError as e:
            raise LeaderRatingError(f"leader rating {text!r}: {e}") from None
        new = {
            "side": self.side.currentData(), "kind": self.kind.currentData(), "unit_class": self.unit_class.currentData(),
            "rating": rating, "weapon": self.weapon.text().strip() or None, "platoon": self.platoon.currentData(),
            "position": self.position.currentData(), "hidden": self.hidden.currentData(), "broken": self.broken.isChecked(),
            "trench_armour": self.armour.isChecked(),
        }
        return {k: v for k, v in new.items() if v != getattr(u, k)}

    def accept(self) -> None:
        try:
            self.changes()
        except ValueError as e:
            self.problem.setText(str(e))
            return
        super().accept()
