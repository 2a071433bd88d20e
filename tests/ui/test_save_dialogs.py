"""The editor's save path on a real filesystem (issue 18.2, 18.3): a read-only file
is replaced only when the user agrees; a file another editor changed offers
reload / overwrite / save as; a PNG export never replaces a scenario."""

from __future__ import annotations

import shutil

import pytest

from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Terrain
from gwasl.model.scenario_io import load_scenario
from testsupport import EXAMPLE_PATH


@pytest.fixture()
def scenario_file(tmp_path):
    p = tmp_path / "s.json"
    shutil.copy(EXAMPLE_PATH, p)
    return p


def _paint(window, label: str, terrain: Terrain) -> None:
    from gwasl.editor import document as ed

    window._run(ed.paint_terrain, [Hex.from_label(label)], terrain)


def test_save_over_a_read_only_file_asks_first(make_window, scenario_file):
    win = make_window(EditorDocument.open(scenario_file))
    asked: list[str] = []
    win.ask_read_only = lambda path: asked.append(path) or False
    _paint(win, "A1", Terrain.WOODS)
    scenario_file.chmod(0o444)
    win.act_save.trigger()
    assert asked == [str(scenario_file)] and win.document.dirty
    assert load_scenario(scenario_file).map.terrain_at(Hex.from_label("A1")) is Terrain.OPEN
    win.ask_read_only = lambda path: True  # "Replace it anyway"
    win.act_save.trigger()
    assert not win.document.dirty and load_scenario(scenario_file).map.terrain_at(Hex.from_label("A1")) is Terrain.WOODS


@pytest.mark.parametrize("choice", ["cancel", "overwrite", "reload", "save_as"])
def test_a_file_changed_by_another_editor_offers_reload_overwrite_save_as(make_window, scenario_file, tmp_path, choice):
    first = make_window(EditorDocument.open(scenario_file))
    second = make_window(EditorDocument.open(scenario_file))
    _paint(second, "A1", Terrain.WOODS)
    second.act_save.trigger()
    _paint(first, "B1", Terrain.BRUSH)
    asked: list[str] = []
    first.ask_changed_on_disk = lambda path: asked.append(path) or choice
    elsewhere = tmp_path / "mine.json"
    first.ask_save_path = lambda *a, **k: str(elsewhere)
    first.act_save.trigger()
    assert asked == [str(scenario_file)]
    on_disk = load_scenario(scenario_file)
    if choice == "overwrite":
        assert on_disk == first.document.scenario and not first.document.dirty
    else:  # the other editor's save is kept
        assert on_disk.map.terrain_at(Hex.from_label("A1")) is Terrain.WOODS
    if choice == "reload":
        assert first.document.scenario == on_disk and not first.document.dirty
    if choice == "save_as":
        assert load_scenario(elsewhere) == first.document.scenario and first.document.path == str(elsewhere)
    if choice == "cancel":
        assert first.document.dirty and not elsewhere.exists()


def test_export_png_never_replaces_the_scenario(example_window, tmp_path):
    """Issue 18.1: the editor's PNG export goes through the same checks as `render --out`."""
    target = tmp_path / "s.json"
    shutil.copy(EXAMPLE_PATH, target)
    assert example_window.export(str(target).removesuffix(".json") + ".png")
    fake = tmp_path / "not-a-picture.png"
    fake.write_bytes(target.read_bytes())
    assert not example_window.export(str(fake))
    assert fake.read_bytes() == target.read_bytes()
    assert "not a PNG picture" in example_window.statusBar().currentMessage()


def test_status_bar_says_when_a_hard_link_was_not_kept(make_window, scenario_file, tmp_path):
    import os

    os.link(scenario_file, tmp_path / "other.json")
    win = make_window(EditorDocument.open(scenario_file))
    _paint(win, "A1", Terrain.WOODS)
    win.act_save.trigger()
    assert "hard link" in win.statusBar().currentMessage()
