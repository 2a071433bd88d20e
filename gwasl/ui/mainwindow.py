"""The editor's main window: map, tools, docks, menus, files.

The window owns an :class:`~gwasl.editor.document.EditorDocument` and wires
Qt to it: actions call the document (undo/redo included), the scene and the
item models redraw from the document's change events.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QPointF, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from gwasl.editor import document as ed
from gwasl.editor.document import Change, EditorDocument
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import (
    Formation,
    FormationKind,
    HiddenStatus,
    Position,
    UnitKind,
)
from gwasl.model.scenario_io import Finding, ScenarioChangedError, ScenarioError, ScenarioFormatError, ScenarioReadOnlyError
from gwasl.rules.validate import validate_scenario
from gwasl.ui import plain
from gwasl.ui.checks import Checks
from gwasl.ui.drawable import OMNISCIENT, ViewUnavailableError
from gwasl.ui.errors import is_game_file
from gwasl.ui.helpmenu import add_help_menu
from gwasl.ui.mapscene import MapScene
from gwasl.ui.mapview import MapView
from gwasl.ui.models import FindingsModel, FormationTableModel, UnitTableModel
from gwasl.ui.palette import Palette
from gwasl.ui.properties import PropertiesDialog
from gwasl.ui.render import RenderError, export_png, export_svg
from gwasl.ui.seen import Seen
from gwasl.ui.tools import ALL_TOOLS, Tool
from gwasl.ui.unitprops import UnitDialog
from gwasl.ui.wheel import wheel_scrolls_form
from gwasl.ui.words import user_text, where, words

__all__ = ["MainWindow", "PropertiesDialog"]

MAX_RECENT = 8
MAX_FINDINGS_SHOWN = 12
# Tools that only look (select, checks): the ones left in a side's read-only view.
READ_ONLY_TOOLS = frozenset({"select", "los", "losmap", "command"})
FILTER = "Scenarios (*.json);;All files (*)"


class MainWindow(QMainWindow):
    """The scenario editor."""

    # The editing palette (a dock), which hides QWidget.palette(): gwasl never reads the Qt palette here.
    palette: Palette  # type: ignore[assignment]

    def __init__(self, document: EditorDocument | None = None, settings: QSettings | None = None) -> None:
        super().__init__()
        self.document = document or EditorDocument(ed.new_scenario())
        self.settings = settings if settings is not None else QSettings("gwasl", "gwasl")
        self.viewer = OMNISCIENT
        # What the window shows, for its viewer: every read-out draws from it (gwasl.ui.seen).
        self.seen = Seen.of(self.document.scenario)
        self.selected_units: frozenset[str] = frozenset()
        self.selected_hex: Hex | None = None
        self.findings: tuple[Finding, ...] = ()

        self.scene = MapScene(parent=self)
        self.view = MapView(self.scene, self)
        self.setCentralWidget(self.view)
        self.palette = Palette(self.document)
        self.checks = Checks(self)
        self.tools: dict[str, Tool] = {cls.name: cls(self) for cls in ALL_TOOLS}

        self._build_docks()
        self._build_actions()
        self._build_menus()
        self._restore_layout()
        plain.plain_labels(self)  # the palette's read-outs quote side ids and weapon names from the file
        self.view.hexHovered.connect(self._hovered)
        self.view.rightClicked.connect(self._right_clicked)
        self._hover_hex: Hex | None = None
        self.players: list[Any] = []  # player windows opened on a saved game from File > Open
        self.document.subscribe(self._on_change)
        self._validate_timer = QTimer(self)
        self._validate_timer.setSingleShot(True)
        self._validate_timer.setInterval(120)
        self._validate_timer.timeout.connect(self.run_validation)
        self.resize(QSize(1400, 900))
        self.resizeDocks([self.units_dock], [190], Qt.Orientation.Vertical)
        # The palette as narrow as its fields allow, the lists on the right narrow too: room for the map.
        palette_w = self.palette.minimumSizeHint().width() + self.palette_scroll.verticalScrollBar().sizeHint().width() + 6
        self.resizeDocks([self.palette_dock, self.formations_dock], [palette_w, 260], Qt.Orientation.Horizontal)
        self.set_tool("select")
        self._refresh_all()
        self.statusBar().showMessage("Ready")

    # ------------------------------------------------------------------ building
    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea, name: str) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(name)
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def _build_docks(self) -> None:
        scroll = QScrollArea()
        scroll.setWidget(self.palette)
        scroll.setWidgetResizable(True)
        self.palette_scroll = scroll
        self._palette_wheel = wheel_scrolls_form(scroll)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.palette_dock = self._dock("Palette", scroll, Qt.DockWidgetArea.LeftDockWidgetArea, "palette")

        # Units (order of battle) list
        w = QWidget()
        v = QVBoxLayout(w)
        self.unit_model = UnitTableModel(lambda: self.seen.scenario, self)
        self.unit_table = QTableView()
        self.unit_table.setModel(self.unit_model)
        self.unit_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.unit_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.unit_table.horizontalHeader().setResizeContentsPrecision(40)  # size columns from 40 rows, not thousands
        self.unit_table.verticalHeader().hide()
        self.unit_table.selectionModel().selectionChanged.connect(self._unit_table_selected)
        v.addWidget(self.unit_table)
        row = QHBoxLayout()
        self.hidden_box = QComboBox()
        for hs in HiddenStatus:
            self.hidden_box.addItem(words(hs), hs)
        set_hidden = QPushButton("Set hidden")
        self.unit_buttons = [self.hidden_box, set_hidden]
        set_hidden.clicked.connect(lambda: self.update_selected(hidden=HiddenStatus(self.hidden_box.currentData()), text="Set hidden status"))
        self.position_box = QComboBox()
        for p in Position:
            self.position_box.addItem(words(p), p)
        set_pos = QPushButton("Set position")
        set_pos.clicked.connect(lambda: self.update_selected(position=Position(self.position_box.currentData()), text="Set position"))
        broken = QPushButton("Broken on/off")
        broken.clicked.connect(self.toggle_broken)
        delete = QPushButton("Delete")
        delete.clicked.connect(self.delete_selected)
        self.unit_buttons += [self.position_box, set_pos, broken, delete]
        for x in (self.hidden_box, set_hidden, self.position_box, set_pos, broken, delete):
            row.addWidget(x)
        v.addLayout(row)
        self.units_dock = self._dock("Units", w, Qt.DockWidgetArea.BottomDockWidgetArea, "units")

        # Formations
        w = QWidget()
        v = QVBoxLayout(w)
        self.formation_model = FormationTableModel(lambda: self.seen.scenario, self)
        self.formation_table = QTableView()
        self.formation_table.setModel(self.formation_model)
        self.formation_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.formation_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.formation_table.verticalHeader().hide()
        self.formation_table.clicked.connect(self._formation_clicked)
        v.addWidget(self.formation_table)
        row = QHBoxLayout()
        self.formation_kind_box = QComboBox()
        for k in FormationKind:
            self.formation_kind_box.addItem(words(k), k)
        new_f = QPushButton("New from selection")
        new_f.setToolTip("Make the selected units a formation; a selected leader leads it (ASLGW 1.1, 1.2.1, 1.3.4)")
        new_f.clicked.connect(self.formation_from_selection)
        lead = QPushButton("Assign leader")
        lead.setToolTip("Make the selected leader the leader of the chosen formation")
        lead.clicked.connect(self.assign_leader)
        del_f = QPushButton("Delete")
        del_f.clicked.connect(self.delete_formation)
        self.formation_buttons = [self.formation_kind_box, new_f, lead, del_f]
        # Two rows of two: the dock stays narrow, and the map gets the width.
        row.addWidget(self.formation_kind_box)
        row.addWidget(new_f)
        v.addLayout(row)
        row = QHBoxLayout()
        row.addWidget(lead)
        row.addWidget(del_f)
        v.addLayout(row)
        self.formations_dock = self._dock("Formations", w, Qt.DockWidgetArea.RightDockWidgetArea, "formations")

        # Validation
        self.findings_model = FindingsModel(self)
        self.findings_table = QTableView()
        self.findings_table.setModel(self.findings_model)
        self.findings_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.findings_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.findings_table.verticalHeader().hide()
        self.findings_table.clicked.connect(self._finding_clicked)
        self.validation_dock = self._dock("Validation", self.findings_table, Qt.DockWidgetArea.RightDockWidgetArea, "validation")

        # History: every undo step by name; clicking one goes back (or forward) to it.
        self.history_list = QListWidget()
        self.history_list.itemClicked.connect(lambda item: self.document.go_to(self.history_list.row(item)))
        self.history_dock = self._dock("History", self.history_list, Qt.DockWidgetArea.RightDockWidgetArea, "history")
        self.tabifyDockWidget(self.formations_dock, self.history_dock)
        self.formations_dock.raise_()

    def _action(self, text: str, slot, shortcut=None, tip: str = "", checkable: bool = False) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        if tip:
            a.setStatusTip(tip)
            a.setToolTip(tip)
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        A = self._action
        self.act_new = A("&New", self.new_file, QKeySequence.StandardKey.New, "Start a new scenario")
        self.act_open = A("&Open...", self.open_file_dialog, QKeySequence.StandardKey.Open, "Open a scenario file")
        self.act_save = A("&Save", self.save, QKeySequence.StandardKey.Save, "Save the scenario")
        self.act_save_as = A("Save &As...", self.save_as, QKeySequence.StandardKey.SaveAs, "Save under another name")
        self.act_png = A("Export &PNG...", self.export_png_dialog, None, "Export the map as a PNG picture")
        self.act_svg = A("Export S&VG...", self.export_svg_dialog, None, "Export the map as an SVG drawing")
        self.act_quit = A("&Quit", self.close, QKeySequence("Ctrl+Q"))  # spelt out: some platforms bind no standard Quit key
        self.act_undo = A("&Undo", self.document.undo, QKeySequence("Ctrl+Z"), "Undo the last edit")
        self.act_redo = A("&Redo", self.document.redo, QKeySequence("Ctrl+Shift+Z"), "Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_delete = A("&Delete selected", self.delete_selected, QKeySequence.StandardKey.Delete, "Delete the selected counters")
        self.act_props = A("Scenario &properties...", self.edit_properties, QKeySequence("Ctrl+P"), "Title, date, front, weather, sides")
        self.act_zoom_in = A("Zoom &in", lambda: self.view.zoom_by(1.25), QKeySequence.StandardKey.ZoomIn)
        self.act_zoom_out = A("Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.StandardKey.ZoomOut)
        self.act_fit = A("&Fit map", self.view.fit, QKeySequence("Ctrl+0"), "The whole map in the window")
        self.act_home = A("&Readable counters", self.view_home, QKeySequence("Ctrl+1"), "Zoom so that counters are readable")
        self.act_actual = A("&100%", self.view.actual_size, None, "The map at its drawn size")
        self.tool_group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for name, tool in self.tools.items():
            a = A(tool.label, lambda checked=False, n=name: self.set_tool(n), tool.shortcut, tool.tip, checkable=True)
            self.tool_group.addAction(a)
            self.tool_actions[name] = a

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        for a in (self.act_new, self.act_open):
            m.addAction(a)
        self.recent_menu = m.addMenu("Open &recent")
        m.addSeparator()
        for a in (self.act_save, self.act_save_as):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_png)
        m.addAction(self.act_svg)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = mb.addMenu("&Edit")
        for a in (self.act_undo, self.act_redo, self.act_delete):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_props)
        m = mb.addMenu("&View")
        for a in (self.act_zoom_in, self.act_zoom_out, self.act_fit, self.act_actual, self.act_home):
            m.addAction(a)
        m.addSeparator()
        self.view_menu = m.addMenu("See the map &as")
        self.view_group = QActionGroup(self)
        m.addSeparator()
        for d in (self.palette_dock, self.units_dock, self.formations_dock, self.validation_dock, self.history_dock):
            m.addAction(d.toggleViewAction())
        m = mb.addMenu("&Tools")
        tb = self.addToolBar("Tools")
        tb.setObjectName("tools")
        for _name, a in self.tool_actions.items():
            m.addAction(a)
            tb.addAction(a)
        tb.addSeparator()
        for a in (self.act_undo, self.act_redo):
            tb.addAction(a)
        self.help_actions = add_help_menu(self, "Mouse: the current tool acts on a left click or drag; a right click on a counter "
                                                "opens its properties; a right or middle drag pans; the wheel zooms.")
        self._fill_recent()

    # ------------------------------------------------------------------ state sync
    def _on_change(self, change: Change) -> None:
        viewer = self.viewer
        self._redraw(change)
        # the status bar spoke of the hex before the edit: say it again as it is now
        if self._hover_hex is not None and self.seen.scenario.map.contains(self._hover_hex):
            self.statusBar().showMessage(self.seen.hex_text(self._hover_hex))
        # The lists and checks read self.seen: they follow only once it is rebuilt.
        if self.viewer != viewer:
            self._viewer_changed()
        else:
            self.unit_model.on_change(change)
            self.formation_model.on_change(change)
            self.checks.refresh()
        if change.full or change.properties:
            self._fill_view_menu()
        self._update_title()
        self._validate_timer.start()

    def _redraw(self, change: Change | None = None) -> None:
        """Rebuild :attr:`seen` for the current viewer and draw it (only the changed hexes when possible)."""
        s = self.document.scenario
        try:
            if self.seen.scenario is not s or self.seen.viewer != self.viewer:  # (the designer's Seen holds s itself)
                self.seen = Seen.of(s, self.viewer)
        except (ViewUnavailableError, KeyError) as e:
            if self.viewer != OMNISCIENT:
                self.show_message(str(e) if isinstance(e, ViewUnavailableError) else f"{self.viewer} is not a side of this scenario", error=True)
            self.viewer = OMNISCIENT
            self.seen = Seen.of(s, OMNISCIENT)
        drawing = self.seen.drawing
        if change is None or change.full or change.properties or self.viewer != OMNISCIENT:
            self.scene.set_drawing(drawing)
            return
        hexes = set(change.hexes)
        if change.map:
            for h in list(hexes):  # trench links and building outlines reach into neighbours
                hexes.update(h.neighbours())
        self.scene.set_drawing(drawing, hexes, map_changed=change.map)

    def _refresh_all(self) -> None:
        self._redraw(None)
        self._fill_view_menu()
        self._update_title()
        self._validate_timer.start()  # findings arrive just after the map shows
        self.view_home()

    def _update_title(self) -> None:
        s = self.seen.scenario
        name = Path(self.document.path).name if self.document.path else "untitled"
        seen = "" if self.viewer == OMNISCIENT else f" - map as {self.viewer} sees it"
        self.setWindowTitle(plain.window_title(f"{s.title} - {name}") + "[*]" + plain.window_title(f"{seen} - gwasl"))
        self.setWindowModified(self.document.dirty)
        self._fill_history()
        # Undo labels name the designer's edits (where a hidden unit went): designer's view only.
        editable = self.editable
        self.act_undo.setEnabled(editable and self.document.can_undo)
        self.act_redo.setEnabled(editable and self.document.can_redo)
        undo, redo = (user_text(self.document.undo_text), user_text(self.document.redo_text)) if editable else ("", "")
        self.act_undo.setText("&" + plain.action_text(f"Undo {undo}".strip()))
        self.act_redo.setText("&" + plain.action_text(f"Redo {redo}".strip()))

    def _fill_history(self) -> None:
        done, future = self.document.history, self.document.future
        self.history_list.clear()
        self.history_list.setEnabled(self.editable)
        if not self.editable:
            self.history_list.addItem("(the edit history shows in the designer's view)")
            return
        self.history_list.addItem("(opened)" if self.document.path else "(new scenario)")
        self.history_list.addItems([user_text(t) for t in done])
        for text in future:
            item = QListWidgetItem(user_text(text))
            item.setForeground(Qt.GlobalColor.gray)
            self.history_list.addItem(item)
        self.history_list.setCurrentRow(len(done))

    def _fill_view_menu(self) -> None:
        self.view_menu.clear()
        for a in self.view_group.actions():
            self.view_group.removeAction(a)
        for key, label in [(OMNISCIENT, "Designer (omniscient)")] + [(sid, f"As {sid} sees it") for sid in self.document.scenario.sides]:
            a = QAction(plain.action_text(label), self, checkable=True)
            a.setChecked(key == self.viewer)
            a.triggered.connect(lambda checked=False, k=key: self.set_viewer(k))
            self.view_group.addAction(a)
            self.view_menu.addAction(a)

    @property
    def editable(self) -> bool:
        """Edits happen in the designer's view only; a side's view is a read-only preview."""
        return self.seen.omniscient

    def set_viewer(self, viewer: str) -> None:
        """Designer mode or 'as side X sees it': the map and every read-out then come from that side's view."""
        self.viewer = viewer
        self._redraw(None)
        if self.viewer != viewer:
            self._fill_view_menu()
        self._viewer_changed()
        self._update_title()
        if self.viewer != OMNISCIENT:
            self.show_message(f"Showing only what {self.viewer} may know; editing is off until View > See the map as > Designer")

    def _viewer_changed(self) -> None:
        """Everything read from :attr:`seen` is redone for the new viewer; editing follows the view."""
        self.select_units(())
        self.select_hex(None)
        self.unit_model.reset()
        self.formation_model.reset()
        self.checks.refresh()
        editable = self.editable
        for name, a in self.tool_actions.items():
            a.setEnabled(editable or name in READ_ONLY_TOOLS)
        if not editable and self.view.tool is not None and self.view.tool.name not in READ_ONLY_TOOLS:
            self.set_tool("select")
        for a in (self.act_delete, self.act_props):
            a.setEnabled(editable)
        for w in self.unit_buttons + self.formation_buttons:
            w.setEnabled(editable)
        # The palette's editing choices and dummy allotment are the designer's; LOS positions stay.
        los_box = self.palette.from_in.parentWidget()
        for box in self.palette.findChildren(QGroupBox):
            box.setVisible(editable or box is los_box)
        self.run_validation()

    def run_validation(self) -> None:
        if not self.editable:
            # Findings name hidden units and works: the designer's view only.
            self.findings = ()
            self.findings_model.set_findings((), None)
            self.validation_dock.setWindowTitle("Validation: shown in the designer's view")
            return
        s = self.document.scenario
        report = validate_scenario(s)
        self.findings = report.errors + report.warnings
        self.findings_model.set_findings(self.findings, s)
        n_e, n_w = len(report.errors), len(report.warnings)
        self.validation_dock.setWindowTitle(f"Validation: {n_e} error{'s' if n_e != 1 else ''}, {n_w} warning{'s' if n_w != 1 else ''}")

    def show_message(self, text: str, error: bool = False) -> None:
        """One line in the status bar, in words (no JSON paths or file identifiers)."""
        self.statusBar().showMessage(("Cannot do that: " if error else "") + user_text(text, self.seen.scenario), 8000)

    # ------------------------------------------------------------------ selection
    def set_tool(self, name: str) -> None:
        self.view.set_tool(self.tools[name])
        self.tool_actions[name].setChecked(True)
        self.show_message(self.tools[name].tip)

    def select_units(self, ids: Iterable[str]) -> None:
        self.selected_units = frozenset(ids)
        self.scene.set_selected_units(self.selected_units)
        sel = self.unit_table.selectionModel()
        sel.blockSignals(True)
        self.unit_table.clearSelection()
        for uid in self.selected_units:
            row = self.unit_model.row_of(uid)
            if row >= 0:
                sel.select(self.unit_model.index(row, 0), sel.SelectionFlag.Select | sel.SelectionFlag.Rows)
        sel.blockSignals(False)

    def select_hex(self, h: Hex | None) -> None:
        self.selected_hex = h
        self.scene.selection.set_hexes({h} if h is not None else ())

    def forget_selection(self) -> None:
        """Drop the selection and every check overlay: they belonged to the document just replaced."""
        self.select_units(())
        self.select_hex(None)
        self.checks.clear_all()

    def _unit_table_selected(self, *_) -> None:
        rows = {i.row() for i in self.unit_table.selectionModel().selectedRows()}
        ids = [self.unit_model.unit_id(r) for r in sorted(rows)]
        self.selected_units = frozenset(ids)
        self.scene.set_selected_units(self.selected_units)
        if len(ids) == 1:
            h = self.seen.scenario.unit(ids[0]).hex
            self.select_hex(h)
            self.view.ensureVisible(self.scene.hex_rect(h))

    def _formation_clicked(self, index) -> None:
        fid = self.formation_model.data(index, Qt.ItemDataRole.UserRole)
        if fid:
            self.select_units(u.id for u in self.seen.scenario.members(fid))

    def _finding_clicked(self, index) -> None:
        f = self.findings_model.findings[index.row()]
        self.select_finding(f)

    def select_finding(self, f: Finding) -> None:
        """Select what a finding is about: its unit, hex, fortification, dummy or formation."""
        s = self.document.scenario
        m = re.match(r"^\$\.units\[(\d+)\]", f.path)
        if m and int(m.group(1)) < len(s.units):
            u = s.units[int(m.group(1))]
            self.select_units((u.id,))
            self._focus(u.hex)
            return
        m = re.match(r"^\$\.map\.hexes\.([A-Z]+\d+)", f.path)
        if m:
            with contextlib.suppress(HexLabelError):
                self._focus(Hex.from_label(m.group(1)))
            return
        m = re.match(r"^\$\.map\.fortifications\[(\d+)\]", f.path)
        if m and int(m.group(1)) < len(s.map.fortifications):
            self._focus(s.map.fortifications[int(m.group(1))].hexes[0])
            return
        m = re.match(r"^\$\.dummies\[(\d+)\]", f.path)
        if m and int(m.group(1)) < len(s.dummies):
            self._focus(s.dummies[int(m.group(1))].hex)
            return
        m = re.match(r"^\$\.formations\[(\d+)\]", f.path)
        if m and int(m.group(1)) < len(s.formations):
            members = s.members(s.formations[int(m.group(1))].id)
            self.select_units(u.id for u in members)
            if members:
                self._focus(members[0].hex)

    def view_home(self) -> None:
        """The opening zoom (readable counters), centred on the units shown."""
        units = self.seen.scenario.units
        lay = self.scene.layout
        if units:
            pts = [lay.hex_to_pixel(u.hex) for u in units]
            centre = QPointF(sum(p.x for p in pts) / len(pts), sum(p.y for p in pts) / len(pts))
        else:
            centre = self.scene.sceneRect().center()
        self.view.home(centre)

    def _focus(self, h: Hex) -> None:
        self.select_hex(h)
        if self.document.scenario.map.contains(h):
            self.view.centerOn(self.scene.layout.hex_to_pixel(h).x, self.scene.layout.hex_to_pixel(h).y)

    def _hovered(self, h: Hex | None) -> None:
        self._hover_hex = h
        if h is not None:
            self.statusBar().showMessage(self.seen.hex_text(h))

    def _right_clicked(self, pos: QPointF) -> None:
        """A right click on a counter opens its properties (a unit's; a "?" or a dummy has none to edit)."""
        _, face = self.scene.counter_at(pos)
        if face is None:
            return
        u = self.seen.unit(face.key)
        if u is None:
            self.show_message(f"{face.title}: no properties to edit here")
            return
        self.select_units((u.id,))
        self.edit_unit(u.id)

    def unit_dialog(self, unit_id: str) -> UnitDialog | None:
        u = self.seen.unit(unit_id)
        return UnitDialog(self.seen.scenario, u, self.editable, self) if u is not None else None

    def edit_unit(self, unit_id: str) -> bool:
        """The counter's properties dialog; its changes are one edit (one undo step)."""
        dlg = self.unit_dialog(unit_id)
        self.last_unit_dialog = dlg  # tests fill it in
        if dlg is None or dlg.exec() != QDialog.DialogCode.Accepted or not self.editable:
            return False
        changes = dlg.changes()
        return bool(changes) and self._run(ed.update_units, [unit_id], f"Change {unit_id}", **changes)

    # ------------------------------------------------------------------ unit edits
    def _run(self, edit, *args, **kw) -> bool:
        try:
            return self.document.apply(edit, *args, **kw)
        except ed.EditError as e:
            self.show_message(str(e), error=True)
            return False

    def update_selected(self, text: str = "Change units", **fields) -> None:
        if not self.selected_units:
            self.show_message("select counters first", error=True)
            return
        self._run(ed.update_units, self.selected_units, text, **fields)

    def toggle_broken(self) -> None:
        s = self.document.scenario
        ids = [u.id for u in s.units if u.id in self.selected_units and u.is_infantry]
        if ids:
            broken = not all(s.unit(i).broken for i in ids)
            self._run(ed.update_units, ids, "Broken" if broken else "Rally", broken=broken)

    def delete_selected(self) -> None:
        if self.selected_units:
            ids = set(self.selected_units)
            if self._run(ed.delete_units, ids):
                self.select_units(())

    def formation_from_selection(self) -> None:
        s = self.document.scenario
        members = [u for u in s.units if u.id in self.selected_units and u.kind is not UnitKind.SUPPORT_WEAPON]
        if not members:
            self.show_message("select the squads (and their leader) first", error=True)
            return
        leaders = [u for u in members if u.kind is UnitKind.LEADER]
        fid = ed.fresh_formation_id(s, members[0].side)
        f = Formation(fid, FormationKind(self.formation_kind_box.currentData()), leaders[0].id if leaders else None)
        self._run(ed.set_formation, f, [u.id for u in members])

    def _current_formation(self) -> str | None:
        idx = self.formation_table.currentIndex()
        return self.formation_model.data(self.formation_model.index(idx.row(), 0), Qt.ItemDataRole.UserRole) if idx.isValid() else None

    def assign_leader(self) -> None:
        fid = self._current_formation()
        s = self.document.scenario
        leaders = [u for u in s.units if u.id in self.selected_units and u.kind is UnitKind.LEADER]
        if fid is None or len(leaders) != 1:
            self.show_message("choose a formation in the list and select exactly one leader on the map", error=True)
            return
        from dataclasses import replace

        self._run(ed.set_formation, replace(s.formation(fid), leader=leaders[0].id))

    def delete_formation(self) -> None:
        fid = self._current_formation()
        if fid is not None:
            self._run(ed.delete_formation, fid)

    # ------------------------------------------------------------------ properties
    def edit_properties(self) -> None:
        dlg = PropertiesDialog(self.document.scenario, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.apply_properties(dlg.values())

    def apply_properties(self, values: dict) -> bool:
        """The dialog's values as one edit: one undo step, one change signal (map size and card included)."""
        return self._run(ed.set_properties, **values)

    # ------------------------------------------------------------------ files
    def ask_unsaved(self) -> QMessageBox.StandardButton:
        """Ask what to do with unsaved changes (tests replace this)."""
        return plain.message(
            self, QMessageBox.Icon.Question, "Unsaved changes", f"Save the changes to {self.document.scenario.title!r} first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save,
        )

    def warn(self, title: str, text: str) -> None:
        """A modal warning, its text shown literally (tests replace this)."""
        plain.message(self, QMessageBox.Icon.Warning, title, text)

    def ask_open_path(self) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, "Open scenario", self._last_dir(), FILTER)
        return path or None

    def ask_save_path(self, title: str = "Save scenario as", filt: str = FILTER, suffix: str = ".json") -> str | None:
        start = self.document.path or os.path.join(self._last_dir(), _slug(self.document.scenario.title) + suffix)
        if suffix != ".json":
            start = os.path.splitext(start)[0] + suffix
        path, _ = QFileDialog.getSaveFileName(self, title, start, filt)
        return path or None

    def _last_dir(self) -> str:
        return str(self.settings.value("last_dir", os.getcwd()))

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded or clean)."""
        if not self.document.dirty:
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_file(self) -> None:
        if self.maybe_save():
            self.forget_selection()
            self.document.replace_all(ed.new_scenario(), None)
            self.view_home()

    def open_file_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.ask_open_path()
        if path:
            self.open_path(path, ask=False)

    def open_path(self, path: str, ask: bool = True) -> bool:
        if ask and not self.maybe_save():
            return False
        try:
            doc = EditorDocument.open(path)
        except ScenarioError as e:
            if is_game_file(path):  # a saved game, not a scenario: the player opens it
                self.show_message(f"{path} is a saved game, not a scenario")
                if self.ask_open_in_player(path):
                    self.open_in_player(path)
                return False
            self.warn("Cannot open", _cannot_open(e))
            self.show_message(str(e), error=True)
            return False
        self.forget_selection()
        self.document.replace_all(doc.scenario, path, doc.identity)
        self._remember(path)
        self.view_home()
        return True

    def ask_open_in_player(self, path: str) -> bool:
        """Whether to open the saved game ``path`` in the player window (tests replace this)."""
        answer = plain.message(
            self, QMessageBox.Icon.Question, "A saved game",
            f"{path} is a saved game, not a scenario: the editor cannot open it.\n\nOpen it in the player window?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        return answer == QMessageBox.StandardButton.Yes

    def open_in_player(self, path: str) -> Any:
        """A player window on the saved game ``path``, beside this one."""
        from gwasl.ui.play.window import PlayerWindow

        win = PlayerWindow(self.settings)
        self.players.append(win)
        win.show()
        win.open_game_path(path)
        return win

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        path = self.ask_save_path()
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self._save_to(path)

    def ask_read_only(self, path: str) -> bool:
        """Whether to replace a read-only file (issue 18.2; tests replace this)."""
        answer = plain.message(
            self, QMessageBox.Icon.Question, "Read-only file", f"{path} is read-only.\n\nReplace it anyway?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def ask_changed_on_disk(self, path: str) -> str:
        """What to do with a file another program changed since it was opened or saved
        (issue 18.3): "reload", "overwrite", "save_as" or "cancel" (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "File changed on disk",
                          f"{path} was changed on disk since it was opened or last saved.", QMessageBox.StandardButton.NoButton, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText("Reload it (your changes are dropped), overwrite it with your version, or save yours under another name?")
        buttons: dict[object, str] = {
            box.addButton("Reload", QMessageBox.ButtonRole.DestructiveRole): "reload",
            box.addButton("Overwrite", QMessageBox.ButtonRole.AcceptRole): "overwrite",
            box.addButton("Save As...", QMessageBox.ButtonRole.ActionRole): "save_as",
            box.addButton(QMessageBox.StandardButton.Cancel): "cancel",
        }
        box.exec()
        return buttons.get(box.clickedButton(), "cancel")

    def _save_to(self, path: str) -> bool:
        overwrite_changed = allow_read_only = False
        while True:
            try:
                saved = self.document.save(path, overwrite_changed=overwrite_changed, allow_read_only=allow_read_only)
                break
            except ScenarioReadOnlyError:
                if not self.ask_read_only(path):
                    return False
                allow_read_only = True
            except ScenarioChangedError:
                choice = self.ask_changed_on_disk(path)
                if choice == "overwrite":
                    overwrite_changed = True
                elif choice == "reload":  # the user drops their changes for the file's
                    self.open_path(path, ask=False)
                    return False
                elif choice == "save_as":
                    return self.save_as()
                else:
                    return False
            except (ScenarioError, ed.EditError) as e:
                self.warn("Cannot save", user_text(str(e)))
                self.show_message(str(e), error=True)
                return False
        self._remember(path)
        self._update_title()
        self.show_message(" ".join((f"Saved {path}.", *saved.notes)))
        return True

    def export_png_dialog(self) -> None:
        path = self.ask_save_path("Export map as PNG", "PNG pictures (*.png)", ".png")
        if path:
            self.export(path)

    def export_svg_dialog(self) -> None:
        path = self.ask_save_path("Export map as SVG", "SVG drawings (*.svg)", ".svg")
        if path:
            self.export(path)

    def export(self, path: str) -> bool:
        """Export the map as shown (view mode included) to PNG or SVG, by the file's suffix."""
        try:
            if path.lower().endswith(".svg"):
                export_svg(self.scene, path, self.document.scenario.title)
            else:
                export_png(self.scene, path)
        except RenderError as e:
            self.warn("Cannot export", str(e))
            self.show_message(str(e), error=True)
            return False
        self.show_message(f"Exported {path}")
        return True

    def _remember(self, path: str) -> None:
        path = os.path.abspath(path)
        recent = [p for p in self.recent_files() if p != path]
        recent.insert(0, path)
        self.settings.setValue("recent", recent[:MAX_RECENT])
        self.settings.setValue("last_dir", os.path.dirname(path))
        self._fill_recent()

    def recent_files(self) -> list[str]:
        v: Any = self.settings.value("recent", [])
        if isinstance(v, str):
            return [v]
        return [str(p) for p in v] if isinstance(v, list) else []

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for p in files:
            a = self.recent_menu.addAction(plain.action_text(p))
            a.setToolTip(plain.tooltip(p))
            a.triggered.connect(lambda checked=False, path=p: self.open_path(path))
        self.recent_menu.setEnabled(bool(files))

    #: the settings key of the docks' layout (and the window's size), kept between sessions
    LAYOUT_KEY = "editor/layout"

    def _restore_layout(self) -> None:
        """The docks where the user left them last time (a bad or missing value: the default)."""
        state, geometry = self.settings.value(self.LAYOUT_KEY + "/state"), self.settings.value(self.LAYOUT_KEY + "/geometry")
        if isinstance(geometry, (bytes, bytearray, QByteArray)):
            self.restoreGeometry(QByteArray(geometry))
        if isinstance(state, (bytes, bytearray, QByteArray)):
            self.restoreState(QByteArray(state))

    def save_layout(self) -> None:
        self.settings.setValue(self.LAYOUT_KEY + "/state", self.saveState())
        self.settings.setValue(self.LAYOUT_KEY + "/geometry", self.saveGeometry())
        self.settings.sync()

    def closeEvent(self, event) -> None:
        if self.maybe_save():
            self.save_layout()
            event.accept()
        else:
            event.ignore()


def _cannot_open(e: ScenarioError) -> str:
    """The "Cannot open" dialog's text: the file, then every problem found, each saying where in words."""
    if not isinstance(e, ScenarioFormatError):
        return user_text(str(e))
    shown = e.findings[:MAX_FINDINGS_SHOWN]
    lines = [f"{e.source} is not a valid scenario file:"]
    lines += [f"- {where(f.path)}: {user_text(f.message)}" for f in shown]
    if len(e.findings) > len(shown):
        lines.append(f"... and {len(e.findings) - len(shown)} more (gwasl validate lists them all)")
    return "\n".join(lines)


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "scenario"
