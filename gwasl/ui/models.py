"""Qt item models: thin adapters over the editor document (no state of their own).

Each model reads ``document.scenario`` on demand and listens to the
document's change events, emitting ``dataChanged`` for the rows an edit
touched or a reset when rows came or went.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from gwasl.editor.document import Change, EditorDocument
from gwasl.model.scenario_io import Finding
from gwasl.ui import style

__all__ = ["UnitTableModel", "FormationTableModel", "FindingsModel"]

_Index = QModelIndex | QPersistentModelIndex


class _DocModel(QAbstractTableModel):
    HEADERS: tuple[str, ...] = ()

    def __init__(self, document: EditorDocument, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self._unsubscribe = document.subscribe(self._on_change)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def _keys(self) -> tuple[str, ...]:
        raise NotImplementedError

    def _relevant(self, change: Change) -> bool:
        raise NotImplementedError

    def _on_change(self, change: Change) -> None:
        if not self._relevant(change):
            return
        # Row set changed (added/removed/reordered): reset; else just repaint the touched rows.
        keys = self._keys()
        if change.full or keys != getattr(self, "_shown", None):
            self.beginResetModel()
            self._shown = keys
            self.endResetModel()
            return
        rows = [i for i, k in enumerate(keys) if k in change.units] if change.units and not change.formations else range(len(keys))
        rows = list(rows)
        if rows:
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), self.columnCount() - 1))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if parent.isValid():
            return 0
        if not hasattr(self, "_shown"):
            self._shown = self._keys()
        return len(self._shown)


class UnitTableModel(_DocModel):
    """Every unit of the scenario, one row each, in file order."""

    HEADERS = ("Unit", "Side", "Kind", "Class / rating / weapon", "Hex", "In", "Platoon", "Hidden", "Broken")

    def _keys(self) -> tuple[str, ...]:
        return tuple(u.id for u in self.document.scenario.units)

    def _relevant(self, change: Change) -> bool:
        return change.full or bool(change.units) or change.formations

    def unit_id(self, row: int) -> str:
        return self.document.scenario.units[row].id

    def row_of(self, unit_id: str) -> int:
        for i, u in enumerate(self.document.scenario.units):
            if u.id == unit_id:
                return i
        return -1

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        units = self.document.scenario.units
        if not index.isValid() or not 0 <= index.row() < len(units):
            return None
        u = units[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            detail = u.unit_class.value if u.unit_class else str(u.rating) if u.rating else u.weapon or ""
            return (
                u.id,
                u.side,
                u.kind.value,
                detail,
                u.hex.label,
                u.position.value,
                u.platoon or "",
                u.hidden.value if u.hidden.value != "none" else "",
                "yes" if u.broken else "",
            )[col]
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            side = self.document.scenario.sides.get(u.side)
            return QColor(style.counter_colours(side.nationality if side else None)[0])
        if role == Qt.ItemDataRole.UserRole:
            return u.id
        return None


class FormationTableModel(_DocModel):
    """Platoons, half-platoons and combat groups (ASLGW 1.1, 1.2.1) with leader and strength."""

    HEADERS = ("Formation", "Kind", "Leader", "Squads", "Side")

    def _keys(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.document.scenario.formations)

    def _relevant(self, change: Change) -> bool:
        return change.full or change.formations or bool(change.units)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        s = self.document.scenario
        if not index.isValid() or not 0 <= index.row() < len(s.formations):
            return None
        f = s.formations[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            members = s.members(f.id)
            squads = sum(1 for u in members if u.kind.value == "squad") + sum(0.5 for u in members if u.kind.value == "half_squad")
            sides = sorted({u.side for u in members})
            return (f.id, f.kind.value.replace("_", " "), f.leader or "(none)", f"{squads:g}", ", ".join(sides))[index.column()]
        if role == Qt.ItemDataRole.UserRole:
            return f.id
        return None


class FindingsModel(QAbstractTableModel):
    """`gwasl validate` findings: severity, message, rule, path (set by the validation dock)."""

    HEADERS = ("", "Finding", "Rule", "Where")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.findings: tuple[Finding, ...] = ()

    def set_findings(self, findings: tuple[Finding, ...]) -> None:
        if findings == self.findings:
            return
        self.beginResetModel()
        self.findings = findings
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.findings)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.findings):
            return None
        f = self.findings[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return ("error" if f.severity == "error" else "warning", f.message, f.rule or "", f.path)[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 0:
            return QBrush(QColor("#b01010") if f.severity == "error" else QColor("#a06000"))
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(f)
        return None
