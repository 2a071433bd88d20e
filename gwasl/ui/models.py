"""Qt item models: thin adapters over the scenario the window shows (no state of their own).

Each model reads its scenario on demand from ``source`` (the window's
:class:`~gwasl.ui.seen.Seen`: the whole scenario for the designer, only
what a side may know in a side's view).  The window forwards the
document's change events after it has rebuilt what it shows, and the model
emits ``dataChanged`` for the rows an edit touched or a reset when rows came
or went; :meth:`_SourceModel.reset` redoes everything (a new viewer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from gwasl.editor.document import Change
from gwasl.model.scenario import Scenario, UnitKind
from gwasl.model.scenario_io import Finding
from gwasl.ui import plain, style
from gwasl.ui.words import user_text, where, words

__all__ = ["UnitTableModel", "FormationTableModel", "FindingsModel"]

_Index = QModelIndex | QPersistentModelIndex


class _SourceModel(QAbstractTableModel):
    HEADERS: tuple[str, ...] = ()

    def __init__(self, source: Callable[[], Scenario], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.source = source

    def reset(self) -> None:
        """Everything changed (another viewer, another document): rebuild every row."""
        self.beginResetModel()
        self._shown = self._keys()
        self.endResetModel()

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

    def on_change(self, change: Change) -> None:
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


class UnitTableModel(_SourceModel):
    """Every unit the viewer may see, one row each, in file order."""

    HEADERS = ("Unit", "Side", "Kind", "Class / rating / weapon", "Hex", "In", "Platoon", "Hidden", "Broken")

    def _keys(self) -> tuple[str, ...]:
        return tuple(u.id for u in self.source().units)

    def _relevant(self, change: Change) -> bool:
        return change.full or bool(change.units) or change.formations

    def unit_id(self, row: int) -> str:
        return self.source().units[row].id

    def row_of(self, unit_id: str) -> int:
        for i, u in enumerate(self.source().units):
            if u.id == unit_id:
                return i
        return -1

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        s = self.source()
        units = s.units
        if not index.isValid() or not 0 <= index.row() < len(units):
            return None
        u = units[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            detail = words(u.unit_class) if u.unit_class else str(u.rating) if u.rating else u.weapon or ""
            return (
                u.id,
                u.side,
                words(u.kind),
                detail,
                u.hex.label,
                words(u.position),
                u.platoon or "",
                words(u.hidden) if u.hidden.value != "none" else "",
                "yes" if u.broken else "",
            )[col]
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            side = s.sides.get(u.side)
            return QColor(style.counter_colours(side.nationality if side else None)[0])
        if role == Qt.ItemDataRole.UserRole:
            return u.id
        return None


class FormationTableModel(_SourceModel):
    """Platoons, half-platoons and combat groups (ASLGW 1.1, 1.2.1) with leader and strength, as the viewer may know them."""

    HEADERS = ("Formation", "Kind", "Leader", "Squads", "Side")

    def _keys(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.source().formations)

    def _relevant(self, change: Change) -> bool:
        return change.full or change.formations or bool(change.units)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        s = self.source()
        if not index.isValid() or not 0 <= index.row() < len(s.formations):
            return None
        f = s.formations[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            members = s.members(f.id)
            squads = sum(1 for u in members if u.kind is UnitKind.SQUAD) + sum(0.5 for u in members if u.kind is UnitKind.HALF_SQUAD)
            sides = sorted({u.side for u in members})
            return (f.id, words(f.kind), f.leader or "(none)", f"{squads:g}", ", ".join(sides))[index.column()]
        if role == Qt.ItemDataRole.UserRole:
            return f.id
        return None


class FindingsModel(QAbstractTableModel):
    """`gwasl validate` findings: severity, message, rule, and where (in words) (set by the validation dock)."""

    HEADERS = ("", "Finding", "Rule", "Where")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.findings: tuple[Finding, ...] = ()
        self.scenario: Scenario | None = None

    def set_findings(self, findings: tuple[Finding, ...], scenario: Scenario | None = None) -> None:
        """Show ``findings`` of ``scenario`` (its units and works name the places the paths point at)."""
        if findings == self.findings and scenario is self.scenario:
            return
        self.beginResetModel()
        self.findings = findings
        self.scenario = scenario
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
            return ("error" if f.severity == "error" else "warning", user_text(f.message, self.scenario), user_text(f.rule or ""),
                    where(f.path, self.scenario))[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 0:
            return QBrush(QColor("#b01010") if f.severity == "error" else QColor("#a06000"))
        if role == Qt.ItemDataRole.ToolTipRole:
            rule = f" [{f.rule}]" if f.rule and f.rule not in f.message else ""
            return plain.tooltip(user_text(f"{where(f.path, self.scenario)}: {f.message}{rule}", self.scenario))
        return None
