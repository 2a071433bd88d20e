"""The Actions dock: the legal actions grouped by the stack and the unit they concern.

A Great War phase offers a hundred actions (six impulse steps for each member of a
platoon, a fire for each pair of hexes...): in one flat list nobody finds theirs.  The
board names each action's group (its stack's hex, then its unit, in words); actions with
no place on the map (End phase, a shift window) stay at the top.  A group header is no
action: activating it does nothing, selecting it shows its units on the map.

The widget keeps the reading side of a list (``count``, ``item(i)``, ``setCurrentRow``)
over the actions alone, in the order the game lists them, so callers that go through the
actions one by one need not know about the groups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from gwasl.engine.session import LegalAction

__all__ = ["ActionItem", "ActionsTree", "Group"]

#: a group: (key, words shown) -- the key stays the same while the words may change
Group = tuple[str, str]

#: a group of more actions than this starts folded, unless the user opened it
FOLD_OVER = 6


class ActionItem(QTreeWidgetItem):
    """One row: an action (its :class:`LegalAction` in ``UserRole``) or a group header.

    ``text()`` and ``data(role)`` read column 0 when no column is given, as a list's item does."""

    def text(self, column: int = 0) -> str:  # type: ignore[override]
        return super().text(column)

    def data(self, column: Any, role: Any = None) -> Any:  # type: ignore[override]
        if role is None:  # data(role): column 0
            return super().data(0, column)
        return super().data(column, role)

    def toolTip(self, column: int = 0) -> str:  # type: ignore[override]
        return super().toolTip(column)


class ActionsTree(QTreeWidget):
    """The legal actions under their groups (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setColumnCount(1)
        self.setUniformRowHeights(True)  # one line each: a long list lays out in no time
        self.setIndentation(14)
        self.setExpandsOnDoubleClick(True)
        self._actions: list[ActionItem] = []
        self._groups: dict[tuple[str, ...], ActionItem] = {}
        self._folded: dict[tuple[str, ...], bool] = {}  # the user's choice, kept across refills
        self.itemExpanded.connect(lambda it: self._remember(it, False))
        self.itemCollapsed.connect(lambda it: self._remember(it, True))

    def _remember(self, item: QTreeWidgetItem, folded: bool) -> None:
        key = item.data(0, Qt.ItemDataRole.UserRole + 1)
        if isinstance(key, tuple):
            self._folded[key] = folded

    # -- filling ---------------------------------------------------------------------
    def set_actions(self, legal: Sequence[LegalAction], groups: Iterable[Sequence[Group]]) -> None:
        """Show ``legal``, each under its ``groups`` path (outermost first; empty: top level)."""
        self.blockSignals(True)
        self.clear()
        self._actions = []
        self._groups = {}
        bold = QFont(self.font())
        bold.setBold(True)
        counts: dict[tuple[str, ...], int] = {}
        paths = [tuple(p) for p in groups]
        for path in paths:
            for i in range(1, len(path) + 1):
                key = tuple(k for k, _ in path[:i])
                counts[key] = counts.get(key, 0) + 1
        for la, path in zip(legal, paths, strict=True):
            parent: QTreeWidgetItem = self.invisibleRootItem()
            for i in range(len(path)):
                key = tuple(k for k, _ in path[: i + 1])
                g = self._groups.get(key)
                if g is None:
                    g = ActionItem([f"{path[i][1]}  ({counts[key]})"])
                    g.setData(0, Qt.ItemDataRole.UserRole + 1, key)
                    g.setFont(0, bold)
                    g.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                    parent.addChild(g)
                    self._groups[key] = g
                parent = g
            item = ActionItem([la.shown.text])
            item.setData(0, Qt.ItemDataRole.UserRole, la)
            item.setToolTip(0, la.shown.text)
            parent.addChild(item)
            self._actions.append(item)
        for key, g in self._groups.items():
            folded = self._folded.get(key, len(key) > 1 and counts[key] > FOLD_OVER)
            g.setExpanded(not folded)
        self.setCurrentIndex(QModelIndex())
        self.blockSignals(False)

    # -- a list's reading side, over the actions only -----------------------------------
    def count(self) -> int:
        return len(self._actions)

    def item(self, i: int) -> ActionItem:
        return self._actions[i]

    def action_items(self) -> list[ActionItem]:
        return list(self._actions)

    def groups(self) -> dict[tuple[str, ...], ActionItem]:
        return dict(self._groups)

    def setCurrentRow(self, i: int) -> None:
        if 0 <= i < len(self._actions):
            self.setCurrentItem(self._actions[i])
        else:
            self.setCurrentIndex(QModelIndex())

    def currentRow(self) -> int:
        cur = self.currentItem()
        return self._actions.index(cur) if isinstance(cur, ActionItem) and cur in self._actions else -1

    def scrollToItem(self, item: QTreeWidgetItem, hint: Any = QTreeWidget.ScrollHint.EnsureVisible) -> None:
        """Scroll to ``item``, unfolding the groups it is in (a user opens them to reach it)."""
        parent = item.parent()
        while parent is not None:
            parent.setExpanded(True)
            parent = parent.parent()
        super().scrollToItem(item, hint)

    def group_of(self, item: QTreeWidgetItem) -> list[LegalAction]:
        """The actions under a group header (or the action itself)."""
        la = item.data(0, Qt.ItemDataRole.UserRole)
        if la is not None:
            return [la]
        out: list[LegalAction] = []
        for i in range(item.childCount()):
            child = item.child(i)
            if child is not None:
                out += self.group_of(child)
        return out
