"""atomic_target: the new file replaces the old only when complete; any failure
leaves the old file byte-identical and no temporary file behind."""

from __future__ import annotations

import os

import pytest

from gwasl.model.files import atomic_target


def test_success_replaces_the_target(tmp_path):
    f = tmp_path / "map.png"
    f.write_bytes(b"old")
    with atomic_target(f, ".png") as tmp:
        assert tmp.parent == tmp_path and tmp != f
        tmp.write_bytes(b"new")
    assert f.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["map.png"]


def test_a_failing_body_leaves_the_target(tmp_path):
    f = tmp_path / "s.json"
    f.write_bytes(b"old")
    with pytest.raises(ValueError), atomic_target(f) as tmp:
        tmp.write_bytes(b"half")
        raise ValueError("renderer failed")
    assert f.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_a_failing_replace_leaves_the_target(tmp_path, monkeypatch):
    f = tmp_path / "s.json"
    f.write_bytes(b"old")

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError), atomic_target(f) as tmp:
        tmp.write_bytes(b"new")
    assert f.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_a_missing_folder_is_an_os_error(tmp_path):
    with pytest.raises(OSError), atomic_target(tmp_path / "no" / "s.json"):
        pass
