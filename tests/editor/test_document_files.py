"""The editor document and the file it edits, on a real filesystem (issue 18.2, 18.3):
two documents on one file, a read-only file, a symlink."""

from __future__ import annotations

import os
import shutil

import pytest

from gwasl.editor import document as ed
from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Terrain
from gwasl.model.scenario_io import ScenarioChangedError, ScenarioReadOnlyError, load_scenario
from testsupport import EXAMPLE_PATH


@pytest.fixture()
def scenario_file(tmp_path):
    p = tmp_path / "s.json"
    shutil.copy(EXAMPLE_PATH, p)
    return p


def test_two_editors_on_one_file_the_second_save_does_not_discard_the_first(scenario_file):
    """Issue 18.3: the second save silently discarded the first one's edits."""
    a = EditorDocument.open(scenario_file)
    b = EditorDocument.open(scenario_file)
    b.apply(ed.paint_terrain, [Hex.from_label("A1")], Terrain.WOODS)
    b.save()
    a.apply(ed.paint_terrain, [Hex.from_label("B1")], Terrain.BRUSH)
    with pytest.raises(ScenarioChangedError, match="changed on disk since it was opened or last saved"):
        a.save()
    on_disk = load_scenario(scenario_file)
    assert on_disk.map.terrain_at(Hex.from_label("A1")) is Terrain.WOODS  # b's edit is still there
    assert a.dirty  # and a still holds its own edit, unsaved
    # Each editor's own saves never count as changes by someone else.
    b.apply(ed.paint_terrain, [Hex.from_label("C1")], Terrain.WOODS)
    b.save()
    b.save()
    # The user chose "overwrite": a's version replaces the file.
    a.save(overwrite_changed=True)
    assert load_scenario(scenario_file) == a.scenario and not a.dirty
    # Or "save as": another file never conflicts.
    with pytest.raises(ScenarioChangedError):
        b.save()
    b.save(scenario_file.with_name("b.json"))
    assert b.path == os.fspath(scenario_file.with_name("b.json"))


def test_a_document_made_from_a_loaded_scenario_knows_its_file(scenario_file):
    """`gwasl edit FILE` loads the file before the window opens; the document still notices later changes."""
    doc = EditorDocument(load_scenario(scenario_file), scenario_file)
    assert doc.identity is not None
    doc.save()
    other = EditorDocument.open(scenario_file)
    other.apply(ed.paint_terrain, [Hex.from_label("A1")], Terrain.WOODS)
    other.save()
    doc.apply(ed.paint_terrain, [Hex.from_label("A2")], Terrain.WOODS)
    with pytest.raises(ScenarioChangedError):
        doc.save()


def test_a_document_whose_file_already_differs_will_not_overwrite_it(scenario_file):
    s = load_scenario(scenario_file)
    assert EditorDocument(s).identity is None  # no file, nothing to protect
    other = EditorDocument.open(scenario_file)
    other.apply(ed.paint_terrain, [Hex.from_label("A1")], Terrain.WOODS)
    other.save()
    doc = EditorDocument(s, scenario_file)  # made from the older content
    with pytest.raises(ScenarioChangedError):
        doc.save()


def test_a_read_only_file_is_saved_only_when_the_user_agrees(scenario_file):
    """Issue 18.2: a read-only (0444) file was silently overwritten."""
    doc = EditorDocument.open(scenario_file)
    doc.apply(ed.paint_terrain, [Hex.from_label("A1")], Terrain.WOODS)
    scenario_file.chmod(0o444)
    with pytest.raises(ScenarioReadOnlyError, match="read-only"):
        doc.save()
    assert load_scenario(scenario_file).map.terrain_at(Hex.from_label("A1")) is Terrain.OPEN and doc.dirty
    doc.save(allow_read_only=True)
    assert load_scenario(scenario_file).map.terrain_at(Hex.from_label("A1")) is Terrain.WOODS
    assert oct(scenario_file.stat().st_mode & 0o777) == "0o444"


def test_saving_through_a_symlink_keeps_the_link(tmp_path, scenario_file):
    link = tmp_path / "link.json"
    link.symlink_to(scenario_file)
    doc = EditorDocument.open(link)
    doc.apply(ed.paint_terrain, [Hex.from_label("A1")], Terrain.WOODS)
    saved = doc.save()
    assert link.is_symlink() and saved.path == scenario_file
    assert load_scenario(scenario_file).map.terrain_at(Hex.from_label("A1")) is Terrain.WOODS
