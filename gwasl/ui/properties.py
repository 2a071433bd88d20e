"""The editor's scenario properties dialog: the scenario's own fields (title, date, front,
weather, map size, sides) and its whole card (the ``"game"`` object, docs/format/aslgw.md):
turns, who sets up and moves first, set-up and entry areas (A26.11), victory conditions
(A26), SSRs with their flags, Balance (A26.4), ELR (A19.1) and SAN (A14.1) per side.

Its values become one editor command (:func:`gwasl.editor.document.set_properties`): one
undo step, one change signal.  OK with a card the game could not play keeps the dialog
open with the problem named (the same parser as ``gwasl validate``)."""

from __future__ import annotations

import copy
import datetime as _dt
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gwasl.editor import document as ed
from gwasl.editor.card_text import CardTextError, area_text, conditions_text, parse_area, parse_conditions
from gwasl.model.scenario import Front, GasProtection, Nationality, Scenario, Side, Weather
from gwasl.rules.card import ELR_RANGE, SAN_RANGE
from gwasl.rules.turn_record import DEFAULT_TURNS
from gwasl.ui.words import user_text, words

__all__ = ["PropertiesDialog"]

#: columns of the per-side card table
CARD_COLUMNS = ("Side", "Set-up area (A26.11)", "Entry area (A2.6)", "ELR (A19.1)", "SAN (A14.1)",
                "Balance (A26.4)", "Balance turns", "Balance CVP")
VICTORY_COLUMNS = ("Side", "Conditions (A26)", "Immediate", "Avoid (A26.3)", "Text")
SSR_COLUMNS = ("Id", "Text", "Flags")


class PropertiesDialog(QDialog):
    """Title, date, front, weather, winter, night, map size, sides with nationality and
    overrides (tab "Scenario"); the scenario card (tab "Card")."""

    def __init__(self, scenario: Scenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Scenario properties")
        self.scenario = scenario
        raw = scenario.extra.get("game", {})
        self._game: dict[str, Any] = copy.deepcopy(dict(raw)) if isinstance(raw, Mapping) else {}
        outer = QVBoxLayout(self)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs)
        self._build_scenario_tab(scenario)
        self._build_card_tab(scenario)
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        outer.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        outer.addWidget(buttons)

    # ------------------------------------------------------------------ the scenario's own fields
    def _build_scenario_tab(self, scenario: Scenario) -> None:
        page = QWidget()
        f = QFormLayout(page)
        self.title = QLineEdit(scenario.title)
        self.date = QDateEdit(QDate(scenario.date.year, scenario.date.month, scenario.date.day))
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.date.setCalendarPopup(True)
        self.front = QComboBox()
        for front in Front:
            self.front.addItem(words(front), front)
        self.front.setCurrentIndex(self.front.findData(scenario.front))
        self.weather = QComboBox()
        for weather in Weather:
            self.weather.addItem(words(weather), weather)
        self.weather.setCurrentIndex(self.weather.findData(scenario.weather))
        self.winter = QCheckBox("winter")
        self.winter.setChecked(scenario.winter)
        self.night = QCheckBox("night")
        self.night.setChecked(scenario.night)
        self.columns = QSpinBox()
        self.columns.setRange(1, 208)
        self.columns.setValue(scenario.map.columns)
        self.rows = QSpinBox()
        self.rows.setRange(1, 200)
        self.rows.setValue(scenario.map.rows)
        f.addRow("Title", self.title)
        f.addRow("Date", self.date)
        f.addRow("Front", self.front)
        f.addRow("Weather", self.weather)
        row = QHBoxLayout()
        row.addWidget(self.winter)
        row.addWidget(self.night)
        f.addRow("", _wrap(row))
        row = QHBoxLayout()
        row.addWidget(self.columns)
        row.addWidget(QLabel("columns x"))
        row.addWidget(self.rows)
        row.addWidget(QLabel("rows"))
        f.addRow("Map", _wrap(row))
        self.sides = QTableWidget(0, 4)
        self.sides.setHorizontalHeaderLabels(["Side id", "Nationality", "Gas protection (1.9.11)", "Grenades (1.6.61)"])
        self.sides.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for sid, side in scenario.sides.items():
            self._add_side_row(sid, side)
        f.addRow("Sides", self.sides)
        row = QHBoxLayout()
        add = QPushButton("Add side")
        add.clicked.connect(lambda: self._add_side_row(f"side{self.sides.rowCount() + 1}", Side("", Nationality.BRITISH)))
        row.addWidget(add)
        f.addRow("", _wrap(row))
        self.tabs.addTab(page, "Scenario")

    def _add_side_row(self, sid: str, side: Side) -> None:
        r = self.sides.rowCount()
        self.sides.insertRow(r)
        self.sides.setItem(r, 0, QTableWidgetItem(sid))
        nat = QComboBox()
        for n in Nationality:
            nat.addItem(words(n), n)
        nat.setCurrentIndex(nat.findData(side.nationality))
        gas = QComboBox()
        gas.addItem("from the date", None)
        for g in GasProtection:
            gas.addItem(words(g), g)
        gas.setCurrentIndex(max(0, gas.findData(side.gas_protection)))
        gren = QComboBox()
        gren.addItem("from date and front", None)
        gren.addItem("yes", True)
        gren.addItem("no", False)
        gren.setCurrentIndex({None: 0, True: 1, False: 2}[side.hand_grenades])
        self.sides.setCellWidget(r, 1, nat)
        self.sides.setCellWidget(r, 2, gas)
        self.sides.setCellWidget(r, 3, gren)

    def _combo(self, row: int, column: int) -> QComboBox:
        w = self.sides.cellWidget(row, column)
        assert isinstance(w, QComboBox)  # _add_side_row puts a combo box in every such cell
        return w

    # ------------------------------------------------------------------ the card
    def _build_card_tab(self, scenario: Scenario) -> None:
        g = self._game
        page = QWidget()
        f = QFormLayout(page)
        self.turns = QSpinBox()
        self.turns.setRange(0, 99)
        self.turns.setSpecialValueText(f"default ({DEFAULT_TURNS})")
        turns = g.get("turns")
        self.turns.setValue(turns if isinstance(turns, int) and not isinstance(turns, bool) and 0 < turns <= 99 else 0)
        self.first_moves = QComboBox()
        self.first_moves.addItem("default (the fog extension's, else the first side)", None)
        self.first_setup = QComboBox()
        self.first_setup.addItem("default (the side that does not move first)", None)
        for sid in scenario.sides:
            self.first_moves.addItem(sid, sid)
            self.first_setup.addItem(sid, sid)
        self.first_moves.setCurrentIndex(max(0, self.first_moves.findData(g.get("first_moves"))))
        self.first_setup.setCurrentIndex(max(0, self.first_setup.findData(g.get("first_setup"))))
        f.addRow("Game turns (A3)", self.turns)
        f.addRow("Moves first", self.first_moves)
        f.addRow("Sets up first", self.first_setup)
        self.card_sides = QTableWidget(0, len(CARD_COLUMNS))
        self.card_sides.setHorizontalHeaderLabels(list(CARD_COLUMNS))
        self.card_sides.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.victory = QTableWidget(0, len(VICTORY_COLUMNS))
        self.victory.setHorizontalHeaderLabels(list(VICTORY_COLUMNS))
        self.victory.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for sid in scenario.sides:
            self._add_card_side(sid)
            self._add_victory_side(sid)
        f.addRow(QLabel("Per side: areas are 'west half' / 'east edge' or hex labels"))
        f.addRow(self.card_sides)
        f.addRow(QLabel("Victory: 'control hexes G6 H6', 'control 1 of buildings ferme', 'cvp 6 cap 10', "
                        "'exit 4 edge east'; several joined by ';'"))
        f.addRow(self.victory)
        self.ssr = QTableWidget(0, len(SSR_COLUMNS))
        self.ssr.setHorizontalHeaderLabels(list(SSR_COLUMNS))
        self.ssr.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.ssr.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        ssrs = g.get("ssr", [])
        for r in ssrs if isinstance(ssrs, list) else []:
            if isinstance(r, Mapping):
                flags = r.get("fields", [])
                self.add_ssr(str(r.get("id", "")), str(r.get("text", "")),
                             " ".join(str(x) for x in flags) if isinstance(flags, list) else "")
        f.addRow(QLabel("Special Scenario Rules (flags: $.night, $.winter, $.weather, $.front, "
                        "$.sides.<side>.gas_protection ...)"))
        f.addRow(self.ssr)
        row = QHBoxLayout()
        add = QPushButton("Add SSR")
        add.clicked.connect(lambda: self.add_ssr(str(self.ssr.rowCount() + 1), "", ""))
        remove = QPushButton("Remove SSR")
        remove.clicked.connect(self._remove_ssr)
        row.addWidget(add)
        row.addWidget(remove)
        f.addRow("", _wrap(row))
        self.tabs.addTab(page, "Card")
        self.tabs.currentChanged.connect(lambda _i: self._sync_card_sides())

    def _side_ids(self) -> list[str]:
        out = []
        for r in range(self.sides.rowCount()):
            cell = self.sides.item(r, 0)
            sid = (cell.text() if cell is not None else "").strip()
            if sid:
                out.append(sid)
        return out

    def _sync_card_sides(self) -> None:
        """Sides added on the first tab get their card rows and can be chosen to move or set up first."""
        for sid in self._side_ids():
            if all(self._text(self.card_sides, r, 0) != sid for r in range(self.card_sides.rowCount())):
                self._add_card_side(sid)
                self._add_victory_side(sid)
            for box in (self.first_moves, self.first_setup):
                if box.findData(sid) < 0:
                    box.addItem(sid, sid)

    def _side_raw(self, key: str, sid: str) -> Any:
        per = self._game.get(key, {})
        return per.get(sid) if isinstance(per, Mapping) else None

    def _add_card_side(self, sid: str) -> None:
        t = self.card_sides
        r = t.rowCount()
        t.insertRow(r)
        name = QTableWidgetItem(sid)
        name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
        t.setItem(r, 0, name)
        t.setItem(r, 1, QTableWidgetItem(area_text(self._side_raw("setup", sid))))
        t.setItem(r, 2, QTableWidgetItem(area_text(self._side_raw("entry", sid))))
        for col, key, (low, high) in ((3, "elr", ELR_RANGE), (4, "san", SAN_RANGE)):
            spin = QSpinBox()
            spin.setRange(low - 1, high)
            spin.setSpecialValueText("none")
            v = self._side_raw(key, sid)
            spin.setValue(v if isinstance(v, int) and not isinstance(v, bool) and low <= v <= high else low - 1)
            t.setCellWidget(r, col, spin)
        bal = self._side_raw("balance", sid)
        bal = bal if isinstance(bal, Mapping) else {}
        t.setItem(r, 5, QTableWidgetItem(str(bal.get("text", ""))))
        for col, key, (low, high) in ((6, "turns", (-5, 5)), (7, "cvp", (0, 99))):
            spin = QSpinBox()
            spin.setRange(low, high)
            v = bal.get(key, 0)
            spin.setValue(v if isinstance(v, int) and low <= v <= high else 0)
            t.setCellWidget(r, col, spin)

    def _add_victory_side(self, sid: str) -> None:
        t = self.victory
        r = t.rowCount()
        t.insertRow(r)
        name = QTableWidgetItem(sid)
        name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
        t.setItem(r, 0, name)
        v = self._side_raw("victory", sid)
        v = v if isinstance(v, Mapping) else {}
        conds = v.get("conditions", [])
        t.setItem(r, 1, QTableWidgetItem(conditions_text(conds) if conds else ""))
        for col, key in ((2, "immediate"), (3, "avoid")):
            box = QCheckBox()
            box.setChecked(v.get(key, key == "avoid" and bool(v) and not conds) is True)
            t.setCellWidget(r, col, box)
        t.setItem(r, 4, QTableWidgetItem(str(v.get("text", ""))))

    def add_ssr(self, sid: str, text: str, flags: str) -> None:
        r = self.ssr.rowCount()
        self.ssr.insertRow(r)
        for col, value in enumerate((sid, text, flags)):
            self.ssr.setItem(r, col, QTableWidgetItem(value))

    def _remove_ssr(self) -> None:
        r = self.ssr.currentRow()
        if r >= 0:
            self.ssr.removeRow(r)

    def _text(self, table: QTableWidget, r: int, c: int) -> str:
        item = table.item(r, c)
        return item.text().strip() if item is not None else ""

    def _spin(self, table: QTableWidget, r: int, c: int) -> int:
        w = table.cellWidget(r, c)
        assert isinstance(w, QSpinBox)  # _add_card_side puts a spin box in every such cell
        return w.value()

    def _check(self, table: QTableWidget, r: int, c: int) -> bool:
        w = table.cellWidget(r, c)
        assert isinstance(w, QCheckBox)  # _add_victory_side puts a check box in every such cell
        return w.isChecked()

    def card(self) -> dict[str, Any]:
        """The ``"game"`` object the card tab says (fields it does not show are kept as they were);
        :class:`CardTextError` names a line it cannot read."""
        g = {k: v for k, v in self._game.items()
             if k not in ("turns", "first_moves", "first_setup", "setup", "entry", "victory", "ssr", "balance", "elr", "san")}
        if self.turns.value():
            g["turns"] = self.turns.value()
        for key, box in (("first_moves", self.first_moves), ("first_setup", self.first_setup)):
            if box.currentData() is not None:
                g[key] = box.currentData()
        per: dict[str, dict[str, Any]] = {k: {} for k in ("setup", "entry", "elr", "san", "balance", "victory")}
        t = self.card_sides
        for r in range(t.rowCount()):
            sid = self._text(t, r, 0)
            for col, key in ((1, "setup"), (2, "entry")):
                try:
                    area = parse_area(self._text(t, r, col), key)
                except CardTextError as e:
                    raise CardTextError(f"{sid}'s {key.replace('setup', 'set-up')} area: {e}") from None
                if area is not None:
                    per[key][sid] = area
            for col, key, low in ((3, "elr", ELR_RANGE[0]), (4, "san", SAN_RANGE[0])):
                if self._spin(t, r, col) >= low:
                    per[key][sid] = self._spin(t, r, col)
            text = self._text(t, r, 5)
            if text:
                bal: dict[str, Any] = {"text": text}
                for col, key in ((6, "turns"), (7, "cvp")):
                    if self._spin(t, r, col):
                        bal[key] = self._spin(t, r, col)
                per["balance"][sid] = bal
        v = self.victory
        for r in range(v.rowCount()):
            sid = self._text(v, r, 0)
            try:
                conds = parse_conditions(self._text(v, r, 1))
            except CardTextError as e:
                raise CardTextError(f"{sid}'s victory conditions: {e}") from None
            body: dict[str, Any] = {}
            if conds:
                body["conditions"] = conds
            if self._check(v, r, 2):
                body["immediate"] = True
            if self._check(v, r, 3):
                body["avoid"] = True
            if self._text(v, r, 4):
                body["text"] = self._text(v, r, 4)
            if body:
                per["victory"][sid] = body
        for key in ("setup", "entry", "victory"):
            if per[key]:
                g[key] = per[key]
        ssrs: list[dict[str, Any]] = []
        for r in range(self.ssr.rowCount()):
            text = self._text(self.ssr, r, 1)
            if not text:
                continue
            entry: dict[str, Any] = {"id": self._text(self.ssr, r, 0) or str(len(ssrs) + 1), "text": text}
            flags = self._text(self.ssr, r, 2).replace(",", " ").split()
            if flags:
                entry["fields"] = flags
            ssrs.append(entry)
        if ssrs:
            g["ssr"] = ssrs
        for key in ("balance", "elr", "san"):
            if per[key]:
                g[key] = per[key]
        return g

    # ------------------------------------------------------------------ result
    def values(self) -> dict[str, Any]:
        """The edit's fields for :func:`gwasl.editor.document.set_properties`."""
        d = self.date.date()
        sides = {}
        for r in range(self.sides.rowCount()):
            cell = self.sides.item(r, 0)
            sid = (cell.text() if cell is not None else "").strip()
            if not sid:
                continue
            old = self.scenario.sides.get(sid)
            sides[sid] = Side(
                sid,
                Nationality(self._combo(r, 1).currentData()),
                _opt_gas(self._combo(r, 2).currentData()),
                self._combo(r, 3).currentData(),
                old.extra if old is not None else Side(sid, Nationality.GERMAN).extra,
            )
        return {
            "title": self.title.text().strip(),
            "date": _dt.date(d.year(), d.month(), d.day()),
            "front": Front(self.front.currentData()),
            "weather": Weather(self.weather.currentData()),
            "winter": self.winter.isChecked(),
            "night": self.night.isChecked(),
            "sides": sides,
            "columns": self.columns.value(),
            "rows": self.rows.value(),
            "game": self.card() or None,
        }

    def problem(self) -> str | None:
        """Why OK would be refused (a line the card cannot read, or a card the game cannot play)."""
        try:
            ed.set_properties(self.scenario, **self.values())
        except (CardTextError, ed.EditError) as e:
            return user_text(str(e))
        return None

    def accept(self) -> None:
        problem = self.problem()
        if problem is not None:
            self.error.setText(problem)
            return
        self.error.setText("")
        super().accept()


def _opt_gas(v: Any) -> GasProtection | None:
    return None if v is None else GasProtection(v)


def _wrap(layout: QHBoxLayout) -> QWidget:
    w = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    w.setLayout(layout)
    return w
