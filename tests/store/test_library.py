"""The scenario library (CONTRACTS 7): bundled scenarios always indexed, folders added
with skipped files and reasons, search by text, front, nationality and dates."""

from __future__ import annotations

import json
import shutil

import pytest

from gwasl.cli import main
from gwasl.store.library import Library, LibraryError, bundled_scenario_dir


@pytest.fixture
def lib(tmp_path, monkeypatch):
    monkeypatch.setenv("GWASL_LIBRARY", str(tmp_path / "lib.sqlite"))
    with Library() as library:
        yield library


def _write(folder, name, **changes):
    src = json.loads((bundled_scenario_dir() / "bois-des-caures-1916.json").read_text())
    src.update(changes)
    (folder / name).write_text(json.dumps(src))


def test_bundled_scenarios_are_always_there(lib):
    files = {h.file for h in lib.search()}
    bundled = {str(p.resolve()) for p in bundled_scenario_dir().glob("*.json")}
    assert bundled and bundled <= files


def test_another_installs_bundled_scenarios_are_forgotten(tmp_path, monkeypatch):
    """A library shared by two installs lists the bundled scenarios once: those of the
    install that opens it (CONTRACTS 7). Folders the user added stay."""
    monkeypatch.setenv("GWASL_LIBRARY", str(tmp_path / "lib.sqlite"))
    other = tmp_path / "other-install" / "scenarios"
    shutil.copytree(bundled_scenario_dir(), other)
    mine = tmp_path / "mine"
    mine.mkdir()
    _write(mine, "a.json", id="mine-a", title="Mine")
    with Library() as library:
        library._index(other, bundled=True)  # what the other install's Library() did
        library.add(mine)
    with Library() as library:
        hits = library.search()
    titles = [h.title for h in hits]
    assert len(titles) == len(set(titles))  # once each
    assert not any(h.file.startswith(str(other.resolve())) for h in hits)
    assert any(h.id == "mine-a" for h in hits)
    assert {str(p.resolve()) for p in bundled_scenario_dir().glob("*.json")} <= {h.file for h in hits}


def test_add_folder_indexes_and_skips_with_reasons(lib, tmp_path):
    d = tmp_path / "mine"
    (d / "sub").mkdir(parents=True)
    _write(d, "a.json", id="X-1", title="Vimy Ridge, 9 April 1917", date="1917-04-09")
    _write(d / "sub", "b.json", id="X-2", title="Tannenberg patrol", date="1914-08-27", front="eastern")
    (d / "broken.json").write_text("{")
    (d / "notes.txt").write_text("not a scenario")
    added, skipped = lib.add(d)
    assert added == 2
    assert [s["file"] for s in skipped] == [str(d / "broken.json")] and skipped[0]["reason"]
    assert [h.id for h in lib.search("vimy")] == ["X-1"]
    assert [h.id for h in lib.search(front="eastern")] == ["X-2"]
    assert {h.id for h in lib.search(date_from="1917-01-01")} >= {"X-1"}
    assert "X-1" not in {h.id for h in lib.search(date_to="1916-12-31")}
    assert {h.id for h in lib.search(nationality="french")} >= {"X-1", "X-2"}
    assert lib.search(nationality="fren") == []  # a whole nationality, not a prefix


def test_moved_files_drop_out_of_results(lib, tmp_path):
    d = tmp_path / "m"
    d.mkdir()
    _write(d, "a.json", id="GONE-1", title="Gone")
    lib.add(d)
    shutil.rmtree(d)
    assert lib.search("gone") == []


def test_bad_dates_and_folders_are_clear_errors(lib, tmp_path):
    with pytest.raises(LibraryError, match="YYYY-MM-DD"):
        lib.search(date_from="yesterday")
    with pytest.raises(LibraryError, match="not a folder"):
        lib.add(tmp_path / "nope")


def test_cli_contract_shapes(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GWASL_LIBRARY", str(tmp_path / "lib.sqlite"))
    d = tmp_path / "s"
    d.mkdir()
    _write(d, "a.json", id="C-1", title="Chemin des Dames", date="1917-04-16")
    assert main(["library", "add", str(d), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"added": 1, "skipped": []}
    assert main(["library", "search", "chemin", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"scenarios": [{"id": "C-1", "title": "Chemin des Dames", "date": "1917-04-16", "file": str((d / "a.json").resolve())}]}
    assert main(["library", "search", "--from", "x"]) == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err
