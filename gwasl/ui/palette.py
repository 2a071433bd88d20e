"""The tool palette dock: terrain, level, fortification, order of battle, dummies, LOS positions.

It holds only the user's choices for the next tool action; the scenario's
sides and formations are read from the document whenever they change.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gwasl.editor.document import Change, EditorDocument
from gwasl.model.scenario import DummyKind, FormationKind, FortificationKind, Position, Terrain, UnitClass, UnitKind
from gwasl.rules import units as _units
from gwasl.rules import weapons as _weapons
from gwasl.rules.fog.checks import dummy_allotment  # O'Leary 3.1.1/4.1: the validator's own count

__all__ = ["Palette", "known_weapons"]


def known_weapons(scenario, nationality: str | None) -> list[str]:
    """Support weapons the nationality may field at the scenario date (ASLGW 1.6 tables)."""
    out = []
    for w in _weapons.all_weapons():
        if nationality is None or _weapons.is_available(w, scenario.date, nationality):
            out.append(w.name)
    return out


def _opt(cls, v):
    """Combo data back to its enum (Qt hands StrEnum values back as plain text)."""
    return None if v is None else cls(v)


def _combo(values, current=None) -> QComboBox:
    c = QComboBox()
    for v in values:
        c.addItem(str(v.value if hasattr(v, "value") else v).replace("_", " "), v)
    if current is not None:
        c.setCurrentIndex(max(0, c.findData(current)))
    return c


class Palette(QWidget):
    """Choices for the editing tools (what the brush paints, which unit to place...)."""

    def __init__(self, document: EditorDocument, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        lay = QVBoxLayout(self)

        box = QGroupBox("Map")
        f = QFormLayout(box)
        self.terrain_box = _combo(list(Terrain), Terrain.WOODS)
        self.level_box = QSpinBox()
        self.level_box.setRange(-1, 10)
        self.level_box.setValue(1)
        self.building_edit = QLineEdit()
        self.building_edit.setPlaceholderText("building id (empty: a new one)")
        self.fort_box = _combo(list(FortificationKind), FortificationKind.TRENCH)
        self.owner_box = QComboBox()
        f.addRow("Terrain", self.terrain_box)
        f.addRow("Level", self.level_box)
        f.addRow("Building", self.building_edit)
        f.addRow("Fortification", self.fort_box)
        f.addRow("Owner", self.owner_box)
        lay.addWidget(box)

        box = QGroupBox("Order of battle")
        f = QFormLayout(box)
        self.side_box = QComboBox()
        self.nationality_label = QLabel()
        self.formation_box = QComboBox()
        self.formation_box.addItem("single unit", None)
        for k in FormationKind:
            self.formation_box.addItem(f"whole {k.value.replace('_', ' ')} with leader", k)
        self.kind_box = _combo(list(UnitKind), UnitKind.SQUAD)
        self.class_box = _combo(list(UnitClass), UnitClass.FIRST_LINE)
        self.rating_edit = QLineEdit("8-0")
        self.weapon_box = QComboBox()
        self.weapon_box.setEditable(True)
        self.platoon_box = QComboBox()
        self.factors_label = QLabel()
        self.factors_label.setWordWrap(True)
        f.addRow("Side", self.side_box)
        f.addRow("Nationality", self.nationality_label)
        f.addRow("Place", self.formation_box)
        f.addRow("Kind", self.kind_box)
        f.addRow("Class", self.class_box)
        f.addRow("Leader rating", self.rating_edit)
        f.addRow("Weapon", self.weapon_box)
        f.addRow("Platoon", self.platoon_box)
        f.addRow("Counter", self.factors_label)
        lay.addWidget(box)

        box = QGroupBox("Dummies (O'Leary)")
        f = QFormLayout(box)
        self.dummy_box = _combo(list(DummyKind), DummyKind.DUMMY_STACK)
        self.dummy_count = QSpinBox()
        self.dummy_count.setRange(1, 12)
        self.dummy_count.setValue(2)
        self.allotment_label = QLabel()
        self.allotment_label.setWordWrap(True)
        f.addRow("Dummy", self.dummy_box)
        f.addRow("Counters", self.dummy_count)
        f.addRow("Allotment", self.allotment_label)
        lay.addWidget(box)

        box = QGroupBox("Line of sight")
        f = QFormLayout(box)
        self.from_in = _combo(list(Position), Position.GROUND)
        self.to_in = _combo(list(Position), Position.GROUND)
        self.whole_side = QCheckBox("command: whole side")
        f.addRow("Observer in", self.from_in)
        f.addRow("Target in", self.to_in)
        lay.addWidget(box)
        lay.addStretch(1)

        self.side_box.currentIndexChanged.connect(self._side_changed)
        for w in (self.kind_box, self.class_box, self.formation_box):
            w.currentIndexChanged.connect(self._update_enabled)
        self.weapon_box.currentTextChanged.connect(self._update_enabled)
        document.subscribe(self._on_change)
        self._fill_sides()

    # -- choices -------------------------------------------------------------------
    def terrain(self) -> Terrain:
        return Terrain(self.terrain_box.currentData())

    def level(self) -> int:
        return self.level_box.value()

    def building(self) -> str | None:
        return self.building_edit.text().strip() or None

    def fortification(self) -> FortificationKind:
        return FortificationKind(self.fort_box.currentData())

    def owner(self) -> str | None:
        return self.owner_box.currentData()

    def side(self) -> str:
        return self.side_box.currentData()

    def dummy(self) -> tuple[DummyKind, int]:
        return DummyKind(self.dummy_box.currentData()), self.dummy_count.value()

    def positions(self) -> tuple[Position, Position]:
        return Position(self.from_in.currentData()), Position(self.to_in.currentData())

    def unit_spec(self) -> dict[str, Any]:
        return {
            "side": self.side(),
            "formation": _opt(FormationKind, self.formation_box.currentData()),
            "kind": UnitKind(self.kind_box.currentData()),
            "unit_class": UnitClass(self.class_box.currentData()),
            "rating": self.rating_edit.text().strip(),
            "weapon": self.weapon_box.currentText().strip() or None,
            "platoon": self.platoon_box.currentData(),
        }

    def select(self, box: QComboBox, value: Any) -> None:
        i = box.findData(value)
        if i >= 0:
            box.setCurrentIndex(i)

    # -- follow the document -----------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        if change.full or change.properties or change.formations:
            self._fill_sides()
        elif change.dummies or change.units:
            self._update_allotment()

    def _fill_sides(self) -> None:
        s = self.document.scenario
        cur = self.side_box.currentData()
        owner = self.owner_box.currentData()
        self.side_box.blockSignals(True)
        self.side_box.clear()
        self.owner_box.clear()
        self.owner_box.addItem("(no owner)", None)
        for sid, _side in s.sides.items():
            self.side_box.addItem(sid, sid)
            self.owner_box.addItem(sid, sid)
        self.side_box.setCurrentIndex(max(0, self.side_box.findData(cur)))
        self.owner_box.setCurrentIndex(max(0, self.owner_box.findData(owner)))
        self.side_box.blockSignals(False)
        self._side_changed()

    def _side_changed(self, *_: Any) -> None:
        s = self.document.scenario
        sid = self.side()
        side = s.sides.get(sid) if sid else None
        self.nationality_label.setText(side.nationality.value.replace("_", " ") if side else "")
        cur = self.platoon_box.currentData()
        self.platoon_box.clear()
        self.platoon_box.addItem("(none)", None)
        for f in s.formations:
            members = s.members(f.id)
            if not members or all(u.side == sid for u in members):
                self.platoon_box.addItem(f"{f.id} ({f.kind.value.replace('_', ' ')})", f.id)
        self.platoon_box.setCurrentIndex(max(0, self.platoon_box.findData(cur)))
        weapon = self.weapon_box.currentText()
        self.weapon_box.clear()
        self.weapon_box.addItems(known_weapons(s, side.nationality.value if side else None))
        self.weapon_box.setEditText(weapon)
        self._update_enabled()
        self._update_allotment()

    def _update_enabled(self, *_: Any) -> None:
        whole = self.formation_box.currentData() is not None
        kind = UnitKind(self.kind_box.currentData())
        self.kind_box.setEnabled(not whole)
        self.class_box.setEnabled(whole or kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD))
        self.rating_edit.setEnabled(whole or kind is UnitKind.LEADER)
        self.weapon_box.setEnabled(not whole and kind is UnitKind.SUPPORT_WEAPON)
        self.platoon_box.setEnabled(not whole and kind is not UnitKind.SUPPORT_WEAPON)
        self.factors_label.setText(self._factors_text())

    def _factors_text(self) -> str:
        """What the counter will show at the scenario date (ASLGW 1.11 tables)."""
        s = self.document.scenario
        sid = self.side()
        side = s.sides.get(sid) if sid else None
        kind = UnitKind(self.kind_box.currentData())
        if self.formation_box.currentData() is not None:
            kind = UnitKind.SQUAD
        if side is not None and kind is UnitKind.SUPPORT_WEAPON:
            w = _weapons.find_weapon(self.weapon_box.currentText().strip())
            if w is None:
                return "not a weapon of the ASLGW 1.6 tables"
            problems = _weapons.availability_problems(w, s.date, side.nationality)
            text = f"{w.fp}-{w.range}" if w.fp is not None else w.name
            return text + (f" ({problems[0].message}, {problems[0].rule})" if problems else f" ({w.rule})")
        if side is None or kind not in (UnitKind.SQUAD, UnitKind.HALF_SQUAD):
            return ""
        try:
            return f"{_units.unit_factors(s, side.nationality, UnitClass(self.class_box.currentData()), kind)} on {s.date.isoformat()}"
        except Exception as e:  # not in the tables at this date: say why
            return str(e)

    def _update_allotment(self) -> None:
        sid = self.side()
        if not sid or sid not in self.document.scenario.sides:
            self.allotment_label.setText("")
            return
        a = dummy_allotment(self.document.scenario, sid)
        warn = " (over the allotment!)" if a.dummy_hip_over else ""
        self.allotment_label.setText(
            f"HIP squad capacity {a.hip_squad_capacity:g}: dummy HIP {a.dummy_hip_placed} of {a.dummy_hip_allowed}{warn} (O'Leary 3.1.1, 4.1); "
            f"dummy stacks {a.dummy_stacks} using {a.concealment_counters} concealment counters; dummy minefields {a.dummy_minefields}"
        )
