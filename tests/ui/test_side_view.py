"""See the map as SIDE (issue 10 item 1): the scene and every read-out of the
window come from that side's fog-of-war view (gwasl.ui.seen.Seen), so nothing
a widget shows depends on a fact hidden from the side (O'Leary 3: HIP units,
dummy HIP; CONTRACTS 4: identical output for scenarios differing only in
hidden facts)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMenu,
    QWidget,
)

from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.ui.render import render_scene
from testsupport import EXAMPLE_PATH

H = Hex.from_label


def _hidden_variant() -> dict:
    """The example with every change hidden from the Germans (French HIP units and dummy HIP, O'Leary 3)."""
    d = json.loads(EXAMPLE_PATH.read_text())
    for u in d["units"]:
        if u["id"] == "F1-2":  # HIP squad in the H6 deep trench
            u.update({"class": "second_line", "broken": True})
        elif u["id"] == "F1-L":  # HIP leader: a better rating, a wider command radius (ASLGW 1.3)
            u["rating"] = "9-1"
        elif u["id"] == "F-MG":  # HIP crew in the dugout becomes an elite squad
            u.update({"kind": "squad", "class": "elite"})
        elif u["id"] == "F-MG-W":
            u["id"] = "F-HMG"
    d["units"].append({"id": "F1-9", "side": "french", "kind": "squad", "class": "first_line", "hex": "I6",
                       "in": "deep_trench", "platoon": "F1", "hidden": "hip"})
    d["dummies"][2]["hex"] = "L3"  # a dummy HIP counter elsewhere
    return d


def _open(make_window, tmp_path, doc: dict, folder: str):
    (tmp_path / folder).mkdir()
    p = tmp_path / folder / "scenario.json"  # same file name: the title bar shows it
    p.write_text(json.dumps(doc))
    return make_window(EditorDocument.open(p))


def _model_rows(view: QAbstractItemView) -> list[Any]:
    m = view.model()
    root = QModelIndex()
    cols = 1 if isinstance(m, QAbstractListModel) else m.columnCount(root)
    rows = [[m.headerData(c, Qt.Horizontal) for c in range(cols)]]
    for r in range(m.rowCount(root)):
        rows.append([(m.index(r, c, root).data(Qt.DisplayRole), m.index(r, c, root).data(Qt.ToolTipRole)) for c in range(cols)])
    sel = view.selectionModel()
    rows.append(sorted(i.row() for i in sel.selectedRows()) if sel is not None else None)
    return rows


def _widgets(win) -> list[Any]:
    """Every text a visible widget of the window shows, in a fixed order."""
    out: list[Any] = []
    for w in win.findChildren(QWidget):
        if not w.isVisibleTo(win):
            continue
        kind = type(w).__name__
        if isinstance(w, QLabel):
            out.append((kind, w.text(), w.toolTip()))
        elif isinstance(w, QAbstractButton):
            out.append((kind, w.text(), w.isEnabled(), w.toolTip()))
        elif isinstance(w, QComboBox):
            out.append((kind, w.currentText(), [w.itemText(i) for i in range(w.count())], w.isEnabled()))
        elif isinstance(w, (QLineEdit, QAbstractSpinBox)):
            out.append((kind, w.text(), w.isEnabled()))
        elif isinstance(w, QDockWidget):
            out.append((kind, w.windowTitle()))
        elif isinstance(w, QAbstractItemView) and w.model() is not None:
            out.append((kind, _model_rows(w), w.isEnabled()))
    return out


def _menus(win) -> list[Any]:
    def walk(actions) -> list[Any]:
        out = []
        for a in actions:
            sub = a.menu()
            out.append((a.text(), a.toolTip(), a.statusTip(), a.isEnabled(), a.isChecked(), walk(sub.actions()) if isinstance(sub, QMenu) else None))
        return out

    return walk(win.menuBar().actions())


def _scene(win) -> list[Any]:
    return [render_scene(win.scene, 700)] + [
        (h.label, it.toolTip(), it.stack.counters) for h, it in sorted(win.scene.stacks.items(), key=lambda x: x[0].label)
    ]


def _overlays(win) -> tuple[Any, ...]:
    sc = win.scene
    return (sorted(h.label for h in sc.command_overlay.hexes), sorted((h.label, m[0]) for h, m in sc.command_overlay.marks.items()),
            sorted(h.label for h in sc.los_map.hexes), sorted(h.label for h in sc.blocker.hexes), sc.los_thread.state, sc.los_thread.text)


def everything_shown(user, win) -> dict[str, Any]:
    """What a user can read in the window: drive the mouse over every hex, click with the checking tools."""
    for other in QApplication.topLevelWidgets():  # the pointer must reach this window, not one over it
        if other is not win and isinstance(other, type(win)):
            other.hide()
    win.show()
    user.qtbot.waitExposed(win)
    win.activateWindow()
    shown: dict[str, Any] = {"title": win.windowHandle().title(), "widgets": _widgets(win), "menus": _menus(win), "scene": _scene(win)}
    status = win.statusBar()
    labels = [h.label for h in win.document.scenario.map]
    stack_hexes = sorted(h.label for h in win.scene.stacks)
    hover = []
    user.hover(labels[-1])  # the pointer enters the map first
    for label in labels:
        user.hover(label)
        hover.append((label, status.currentMessage()))
    shown["hover"] = hover
    for tool, where in (("select", stack_hexes + ["A8"]), ("command", stack_hexes + ["A8", "L1"]), ("losmap", stack_hexes[:6])):
        user.tool(tool)
        clicks = []
        for label in where:
            user.click(label)
            clicks.append((label, status.currentMessage(), _overlays(win), sorted(win.selected_units), _widgets(win)))
            if tool == "select":
                user.click(label)  # close the stack again
        shown[tool] = clicks
    user.tool("los")
    user.drag(["C2", "H6"])
    shown["los"] = (status.currentMessage(), _overlays(win))
    user.tool("select")
    return shown


def test_no_widget_shows_a_fact_hidden_from_the_side(make_window, drive, tmp_path):
    base = json.loads(EXAMPLE_PATH.read_text())
    a = _open(make_window, tmp_path, base, "a")
    b = _open(make_window, tmp_path, _hidden_variant(), "b")
    ua, ub = drive(a), drive(b)
    for w in (a, b):
        w.set_viewer("german")
    german_a, german_b = everything_shown(ua, a), everything_shown(ub, b)
    for key in german_a:
        assert german_a[key] == german_b[key], key
    # The harness does see the difference where the viewer may know it.
    for w in (a, b):
        w.set_viewer("french")
    french_a, french_b = everything_shown(ua, a), everything_shown(ub, b)
    assert french_a["scene"] != french_b["scene"] and french_a["hover"] != french_b["hover"]
    assert french_a["command"] != french_b["command"]


def test_hovering_a_deep_trench_with_HIP_units_names_none_of_them_O_Leary_3(example_user, example_window):
    """F1-L and F1-2 are HIP in the H6 deep trench: the German status bar shows the trench, not them."""
    w, u = example_window, example_user
    u.hover("H6")
    assert "F1-2" in w.statusBar().currentMessage()  # the designer sees them
    w.set_viewer("german")
    u.hover("A1")
    u.hover("H6")
    text = w.statusBar().currentMessage()
    assert text.startswith("H6") and "deep trench" in text
    assert "F1-2" not in text and "F1-L" not in text and "HIP" not in text
    w.set_viewer("french")
    u.hover("A1")
    u.hover("H6")
    assert "F1-2 (HIP)" in w.statusBar().currentMessage()  # the French know their own


def test_the_other_sides_command_overlay_goes_and_never_ticks_HIP_hexes_ASLGW_1_3(example_user, example_window):
    w, u = example_window, example_user
    u.tool("command")
    u.click("H6")  # the French HIP leader, as the designer
    assert w.scene.command_overlay.hexes and H("H7") in w.scene.command_overlay.marks
    w.set_viewer("german")
    assert not w.scene.command_overlay.hexes and not w.scene.command_overlay.marks
    u.click("H6")  # nothing the Germans know leads there: their own side's radius instead
    marks = {h.label for h in w.scene.command_overlay.marks}
    assert marks and marks <= {"B2", "B3", "C2", "D2"}
    assert "german" in w.statusBar().currentMessage()


def test_a_sides_lists_hold_only_what_it_may_know(example_window):
    w = example_window
    w.set_viewer("german")
    ids = {w.unit_model.index(r, 0).data() for r in range(w.unit_model.rowCount())}
    assert ids == {u.id for u in w.document.scenario.units if u.side == "german"}
    assert [w.formation_model.index(r, 0).data() for r in range(w.formation_model.rowCount())] == ["G1"]
    assert w.findings_model.rowCount() == 0 and "designer" in w.validation_dock.windowTitle()
    assert not w.tool_actions["terrain"].isEnabled() and w.tool_actions["los"].isEnabled()
    w.set_viewer("omniscient")
    assert w.unit_model.rowCount() == len(w.document.scenario.units)
    assert w.tool_actions["terrain"].isEnabled()
