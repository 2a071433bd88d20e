"""The editor driven as a user would, offscreen (issue 6, deliverable 8)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import DummyKind, FormationKind, FortificationKind, HiddenStatus, Terrain, UnitClass, UnitKind
from gwasl.model.scenario_io import load_scenario

H = Hex.from_label


def test_paint_terrain_by_dragging_is_one_undo_step(user, window):
    user.tool("terrain")
    user.choose(window.palette.terrain_box, Terrain.WOODS)
    user.drag(["C3", "C4", "D4", "E5"])
    m = window.document.scenario.map
    assert {m.terrain_at(H(x)) for x in ("C3", "C4", "D4", "E5")} == {Terrain.WOODS}
    assert window.document.history == ("Paint woods",)
    assert window.isWindowModified()
    user.keys(Qt.Key_Z, Qt.ControlModifier)
    assert window.document.scenario.map.terrain_at(H("D4")) is Terrain.OPEN
    assert not window.isWindowModified()
    user.keys(Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.document.scenario.map.terrain_at(H("E5")) is Terrain.WOODS


def test_a_fast_drag_fills_the_hexes_between(user, window):
    user.tool("terrain")
    user.choose(window.palette.terrain_box, Terrain.GRAIN)
    user.drag(["A1", "A6"])
    m = window.document.scenario.map
    assert all(m.terrain_at(H(f"A{r}")) is Terrain.GRAIN for r in range(1, 7))


def test_level_tool_and_map_redraw(user, window):
    user.tool("level")
    window.palette.level_box.setValue(2)
    user.click("J6")
    assert window.document.scenario.map.level_at(H("J6")) == 2
    assert window.scene.drawing.map.level_at(H("J6")) == 2  # the scene drew the new value


def test_place_a_platoon_with_its_leader(user, window):
    user.tool("unit")
    user.choose(window.palette.side_box, "german")
    user.choose(window.palette.formation_box, FormationKind.PLATOON)
    user.choose(window.palette.class_box, UnitClass.STOSSTRUPPEN)
    window.palette.rating_edit.setText("9-1")
    user.click("C2")
    s = window.document.scenario
    f = s.formations[0]
    assert str(s.unit(f.leader).rating) == "9-1"
    assert [u.kind for u in s.members(f.id)].count(UnitKind.SQUAD) == 6
    # model/view: the unit list and the formation list show them, the map has one stack of 7
    assert window.unit_model.rowCount() == 7 and window.formation_model.rowCount() == 1
    assert len(window.scene.stacks[H("C2")].stack.counters) == 7
    # one more single squad into the platoon
    user.choose(window.palette.formation_box, None)
    user.choose(window.palette.kind_box, UnitKind.SQUAD)
    user.choose(window.palette.platoon_box, f.id)
    user.click("D2")
    assert window.document.scenario.units_at(H("D2"))[0].platoon == f.id
    assert window.unit_model.rowCount() == 8
    user.keys(Qt.Key_Z, Qt.ControlModifier)
    user.keys(Qt.Key_Z, Qt.ControlModifier)
    assert window.unit_model.rowCount() == 0 and H("C2") not in window.scene.stacks


def test_save_reopen_and_compare(user, window, make_window, tmp_path, monkeypatch):
    user.tool("terrain")
    user.choose(window.palette.terrain_box, Terrain.SHELLHOLES)
    user.drag(["E4", "E5"])
    user.tool("fortification")
    user.choose(window.palette.fort_box, FortificationKind.DEEP_TRENCH)
    user.choose(window.palette.owner_box, "french")
    user.drag(["G6", "H6", "I6"])
    user.click("H6", Qt.ControlModifier)  # ladder
    user.tool("unit")
    user.choose(window.palette.side_box, "french")
    user.choose(window.palette.formation_box, FormationKind.HALF_PLATOON)
    user.click("H6")
    target = tmp_path / "mine.json"
    monkeypatch.setattr(window, "ask_save_path", lambda *a, **k: str(target))
    window.act_save.trigger()
    assert target.exists() and not window.isWindowModified()
    assert window.recent_files()[0] == str(target)
    other = make_window(EditorDocument.open(target))
    assert other.document.scenario == window.document.scenario == load_scenario(target)
    f = other.document.scenario.map.fortifications[0]
    assert f.kind is FortificationKind.DEEP_TRENCH and f.ladders == (H("H6"),)


def test_move_and_delete_counters(example_user, example_window):
    u, w = example_user, example_window
    u.tool("select")
    u.drag(["B2", "B4"])  # drag the lone squad
    assert w.document.scenario.unit("G1-5").hex == H("B4")
    assert w.selected_units == {"G1-5"}
    u.keys(Qt.Key_Delete)
    assert "G1-5" not in {x.id for x in w.document.scenario.units}
    u.keys(Qt.Key_Z, Qt.ControlModifier)
    assert w.document.scenario.unit("G1-5").hex == H("B4")


def test_stack_fans_out_on_hover_and_click(example_user, example_window):
    item = example_window.scene.stacks[H("C2")]
    before = item.boundingRect().width()
    example_user.hover("C2")
    assert item.fanned and item.boundingRect().width() > 2 * before
    example_user.hover("K1")
    assert not item.fanned
    example_user.tool("select")
    example_user.click("C2")
    assert item.fanned and item.pinned


def test_validation_dock_updates_after_an_illegal_edit_and_click_selects(example_user, example_window, qtbot):
    w = example_window
    assert w.findings_model.rowCount() == 0 or all(f.severity != "error" for f in w.findings)
    # Put a German squad and a French squad in one formation: ASLGW 1.1 forbids mixing sides.
    w.select_units({"G1-5", "F1-1"})
    w.formation_from_selection()
    qtbot.waitUntil(lambda: any(f.severity == "error" for f in w.findings), timeout=3000)
    errors = [f for f in w.findings if f.severity == "error"]
    assert any("mixes units of sides" in f.message and f.rule == "ASLGW 1.1" for f in errors)
    assert "1 error" in w.validation_dock.windowTitle()
    row = next(i for i, f in enumerate(w.findings) if "mixes" in f.message)
    w.select_units(())
    w.findings_table.clicked.emit(w.findings_model.index(row, 1))
    assert w.selected_units == {"G1-5", "F1-1"}
    example_user.keys(Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not any(f.severity == "error" for f in w.findings), timeout=3000)


def test_hidden_status_dummies_and_allotment(example_user, example_window):
    w, u = example_window, example_user
    from PySide6.QtWidgets import QPushButton

    w.select_units({"G1-5"})
    u.choose(w.hidden_box, HiddenStatus.CONCEALED)
    button = next(b for b in w.findChildren(QPushButton) if b.text() == "Set hidden")
    u.qtbot.mouseClick(button, Qt.LeftButton)
    assert w.document.scenario.unit("G1-5").hidden is HiddenStatus.CONCEALED
    assert w.unit_model.data(w.unit_model.index(w.unit_model.row_of("G1-5"), 7)) == "concealed"
    broken = next(b for b in w.findChildren(QPushButton) if b.text() == "Broken on/off")
    u.qtbot.mouseClick(broken, Qt.LeftButton)
    assert w.document.scenario.unit("G1-5").broken
    assert any(c.broken for c in w.scene.stacks[H("B2")].stack.counters)
    u.tool("dummy")
    u.choose(w.palette.side_box, "french")
    u.choose(w.palette.dummy_box, DummyKind.DUMMY_STACK)
    w.palette.dummy_count.setValue(4)
    u.click("E7")
    d = w.document.scenario.dummies[-1]
    assert (d.kind, d.hex, d.counters) == (DummyKind.DUMMY_STACK, H("E7"), 4)
    assert "dummy stacks 3 using 9 concealment counters" in w.palette.allotment_label.text()
    assert "dummy HIP 2 of 3" in w.palette.allotment_label.text()  # HIP squad F1-2 (1) + crew (1/2) -> 2, plus one
    u.click("E7", Qt.ShiftModifier)
    assert len(w.document.scenario.dummies) == 4


def test_building_and_outline_tools(user, window):
    user.tool("terrain")
    user.choose(window.palette.terrain_box, Terrain.STONE_BUILDING)
    user.drag(["F3", "F4"])
    user.tool("building")
    user.drag(["F3", "F4"])
    m = window.document.scenario.map
    assert m.building_at(H("F3")) == m.building_at(H("F4")) is not None
    user.tool("outline")
    vp = window.view.viewport()
    user.qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, user.point("C5", -0.4, -0.3))
    for dx, dy in ((0.4, -0.3), (0.5, 0.3), (-0.3, 0.4)):
        user.qtbot.mouseMove(vp, user.point("C5", dx, dy))
    user.qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, user.point("C5", -0.3, 0.4))
    outline = window.document.scenario.map.hexes[H("C5")].extra["outline"]
    assert len(outline) >= 3 and all(abs(x) <= 1 and abs(y) <= 0.87 for x, y in outline)


def test_properties_change_title_date_and_sides(window):
    import datetime as dt

    from gwasl.ui.mainwindow import PropertiesDialog

    dlg = PropertiesDialog(window.document.scenario, window)
    dlg.title.setText("Fort Douaumont")
    dlg.winter.setChecked(True)
    dlg.columns.setValue(20)
    gas = dlg.sides.cellWidget(1, 2)  # the French: masks whatever the date says (ASLGW 1.9.11)
    gas.setCurrentIndex(gas.findData("mask"))
    grenades = dlg.sides.cellWidget(0, 3)
    grenades.setCurrentIndex(grenades.findData(False))
    values = dlg.values()
    assert values["date"] == dt.date(1916, 2, 21)
    window.apply_properties(values)
    s = window.document.scenario
    assert (s.title, s.winter, s.map.columns) == ("Fort Douaumont", True, 20)
    assert "Fort Douaumont" in window.windowTitle()
    assert s.sides["french"].gas_protection.value == "mask" and s.sides["german"].hand_grenades is False
    assert window.scene.drawing.map.columns == 20
    window.document.undo()
    window.document.undo()
    assert window.document.scenario.sides["french"].gas_protection is None
    assert window.scene.drawing.map.columns == 12


def test_unsaved_changes_prompt_on_close(user, window, monkeypatch):
    user.tool("terrain")
    user.click("B2")
    monkeypatch.setattr(window, "ask_unsaved", lambda: QMessageBox.Cancel)
    assert not window.close() and window.isVisible()
    monkeypatch.setattr(window, "ask_unsaved", lambda: QMessageBox.Discard)
    assert window.close()


def test_export_png_and_svg(example_window, tmp_path):
    assert example_window.export(str(tmp_path / "m.png"))
    assert example_window.export(str(tmp_path / "m.svg"))
    assert QImage(str(tmp_path / "m.png")).width() > 500
    svg = (tmp_path / "m.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


def test_new_and_open_and_recent(example_window, tmp_path, monkeypatch):
    from testsupport import bundled_scenarios

    w = example_window
    w.new_file()
    assert w.document.scenario.title == "New scenario" and w.document.path is None
    path = str(bundled_scenarios()[-1])
    assert w.open_path(path)
    assert w.document.path == path and w.recent_files()[0].endswith(bundled_scenarios()[-1].name)
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert not w.open_path(str(bad))
    assert w.warnings and w.warnings[-1][0] == "Cannot open" and "bad.json" in w.warnings[-1][1]
    assert w.document.path == path  # the open document is kept


def test_zoom_keys_and_fit(example_user, example_window):
    z = example_window.view.zoom
    example_user.keys(Qt.Key_Plus)
    assert example_window.view.zoom > z
    example_user.keys(Qt.Key_Minus)
    example_user.keys(Qt.Key_Minus)
    assert example_window.view.zoom < z


def test_history_list_goes_back_and_forward(user, window):
    user.tool("terrain")
    for label, t in (("A1", Terrain.WOODS), ("B1", Terrain.BRUSH), ("C1", Terrain.MARSH)):
        user.choose(window.palette.terrain_box, t)
        user.click(label)
    lst = window.history_list
    assert [lst.item(i).text() for i in range(lst.count())] == ["(new scenario)", "Paint woods", "Paint brush", "Paint marsh"]
    user.qtbot.mouseClick(lst.viewport(), Qt.LeftButton, Qt.NoModifier, lst.visualItemRect(lst.item(1)).center())
    m = window.document.scenario.map
    assert m.terrain_at(H("A1")) is Terrain.WOODS and m.terrain_at(H("B1")) is Terrain.OPEN
    assert window.document.future == ("Paint brush", "Paint marsh")
    window.document.go_to(3)
    assert window.document.scenario.map.terrain_at(H("C1")) is Terrain.MARSH


def test_a_failed_save_keeps_the_old_file_and_the_unsaved_state(example_user, example_window, tmp_path, monkeypatch):
    import gwasl.model.scenario_io as sio

    w = example_window
    target = tmp_path / "mine.json"
    assert w._save_to(str(target))
    before = target.read_bytes()
    example_user.tool("terrain")
    example_user.click("A1")
    monkeypatch.setattr(sio.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    assert not w.save()
    assert target.read_bytes() == before and w.isWindowModified()
    assert w.warnings[-1][0] == "Cannot save" and "unchanged" in w.warnings[-1][1]
    assert [p.name for p in tmp_path.iterdir()] == ["mine.json"]  # no temporary file left behind


def test_palette_shows_the_counter_of_the_scenario_date_ASLGW_1_11(example_window):
    """The example is 21 February 1916: German first line squads are 4-4-7 (ASLGW 1.11.1)."""
    from gwasl.rules.units import unit_factors

    p = example_window.palette
    p.select(p.side_box, "german")
    p.select(p.kind_box, UnitKind.SQUAD)
    p.select(p.class_box, UnitClass.FIRST_LINE)
    expected = str(unit_factors(example_window.document.scenario, "german", "first_line", "squad"))
    assert p.factors_label.text().startswith(expected)
    p.select(p.kind_box, UnitKind.SUPPORT_WEAPON)
    p.weapon_box.setEditText("Kleinflammenwerfer")
    assert "ASLGW" in p.factors_label.text()
    p.weapon_box.setEditText("Panzerfaust")
    assert "not a weapon" in p.factors_label.text()
    assert "MG08" in [p.weapon_box.itemText(i) for i in range(p.weapon_box.count())]
