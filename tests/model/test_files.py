"""gwasl/model/files.py on a real filesystem: what is read (issue 17.4) and how
files are replaced (issue 18.1, 18.2, 18.3, 18.4).

atomic_target: the new file replaces the old only when complete; any failure
leaves the old file byte-identical and no temporary file behind."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from gwasl.model.files import (
    FileChangedError,
    FileReadError,
    FileTooLargeError,
    FileWriteError,
    NotRegularFileError,
    ReadOnlyFileError,
    WrongFormatError,
    atomic_target,
    check_output_path,
    file_identity,
    read_regular_file,
    remove_stale_temporaries,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


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
    with pytest.raises(FileWriteError, match="No space left"), atomic_target(f) as tmp:
        tmp.write_bytes(b"new")
    assert f.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_a_missing_folder_is_a_write_error(tmp_path):
    with pytest.raises(FileWriteError, match="No such file"), atomic_target(tmp_path / "no" / "s.json"):
        pass


# -- 17.4: only regular files are read, and at most MAX_FILE_BYTES ----------------------------
def test_a_fifo_is_refused_without_blocking(tmp_path):
    """Issue 17.4: reading a FIFO used to block forever; it is refused at once."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    t = time.monotonic()
    with pytest.raises(NotRegularFileError, match="FIFO"):
        read_regular_file(fifo)
    assert time.monotonic() - t < 5


def test_dev_zero_and_a_folder_are_refused(tmp_path):
    """Issue 17.4: /dev/zero used to be read until the process was killed."""
    with pytest.raises(NotRegularFileError, match="character device"):
        read_regular_file("/dev/zero")
    with pytest.raises(NotRegularFileError, match="folder"):
        read_regular_file(tmp_path)
    with pytest.raises(FileReadError, match="no such file"):
        read_regular_file(tmp_path / "missing.json")


def test_a_file_over_the_limit_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:  # sparse: no disk used
        fh.truncate(64 * 1024 * 1024 + 1)
    with pytest.raises(FileTooLargeError, match="67,108,865 bytes"):
        read_regular_file(big)
    small = tmp_path / "s.json"
    small.write_bytes(b"12345")
    with pytest.raises(FileTooLargeError):
        read_regular_file(small, max_bytes=4)
    c = read_regular_file(small, max_bytes=5)
    assert c.data == b"12345" and c.identity.size == 5 and c.identity == file_identity(small)


# -- 18.1: output paths --------------------------------------------------------------------
def test_an_export_never_replaces_a_file_of_another_format(tmp_path):
    """Issue 18.1: `render --out scenario.json` turned the scenario into a PNG."""
    scenario = tmp_path / "scenario.json"
    scenario.write_text('{"format": "gwasl-scenario/1"}')
    with pytest.raises(WrongFormatError, match="is a JSON file, not a PNG picture; it was not replaced"), atomic_target(scenario, ".png", kind="png") as tmp:
        tmp.write_bytes(PNG)
    assert scenario.read_text() == '{"format": "gwasl-scenario/1"}'
    assert [p.name for p in tmp_path.iterdir()] == ["scenario.json"]
    with atomic_target(scenario, ".png", kind="png", force=True) as tmp:  # the user insisted
        tmp.write_bytes(PNG)
    assert scenario.read_bytes() == PNG


def test_an_export_replaces_a_picture_of_its_format_and_an_empty_file(tmp_path):
    old = tmp_path / "map.png"
    old.write_bytes(PNG + b"old")
    empty = tmp_path / "new.png"
    empty.touch()
    for f in (old, empty):
        with atomic_target(f, ".png", kind="png") as tmp:
            tmp.write_bytes(PNG)
        assert f.read_bytes() == PNG


@pytest.mark.parametrize("force", [False, True])
def test_a_fifo_a_device_or_a_folder_is_never_replaced(tmp_path, force):
    """Issue 18.1: a device node was replaced (as root, --out /dev/null would replace /dev/null)."""
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.png"
    folder.mkdir()
    for target, what in ((fifo, "FIFO"), ("/dev/null", "character device"), (folder, "folder")):
        with pytest.raises(NotRegularFileError, match=what), atomic_target(target, ".png", kind="png", force=force) as tmp:
            tmp.write_bytes(PNG)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode) and folder.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.png", "pipe.png"]


def test_writing_through_a_symlink_changes_its_target(tmp_path):
    """Issue 18.1/18.2: a symlink was replaced by a file instead of written through."""
    real = tmp_path / "maps" / "map.png"
    real.parent.mkdir()
    real.write_bytes(PNG + b"old")
    link = tmp_path / "link.png"
    link.symlink_to(real)
    w = atomic_target(link, ".png", kind="png")
    with w as tmp:
        assert tmp.parent == real.parent  # the temporary file is beside the target: one filesystem
        tmp.write_bytes(PNG + b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == PNG + b"new" and w.written == real
    # A dangling link creates its target, as any editor does.
    dangling = tmp_path / "d.png"
    dangling.symlink_to(tmp_path / "made.png")
    with atomic_target(dangling, ".png") as tmp:
        tmp.write_bytes(PNG)
    assert dangling.is_symlink() and (tmp_path / "made.png").read_bytes() == PNG


def test_a_symlink_loop_is_refused(tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(FileWriteError, match="loops"), atomic_target(a, ".png"):
        pass
    assert a.is_symlink() and b.is_symlink()


def test_check_output_path_names_the_symlink_target(tmp_path):
    real = tmp_path / "r.svg"
    link = tmp_path / "l.svg"
    link.symlink_to(real)
    assert check_output_path(link, "svg") == real


# -- 18.2: saves ---------------------------------------------------------------------------
_KILLED_SAVE = textwrap.dedent(
    """
    import os, signal, sys
    from gwasl.model.files import atomic_target
    with atomic_target(sys.argv[1]) as tmp:
        tmp.write_text("half")
        os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_temporaries_of_a_killed_save_are_removed_by_the_next_save(tmp_path):
    """Issue 18.2: a SIGKILL during a save left .NAME.*.tmp files that were never removed."""
    f = tmp_path / "s.json"
    f.write_text("old")
    r = subprocess.run([sys.executable, "-c", _KILLED_SAVE, str(f)], capture_output=True)
    assert r.returncode == -signal.SIGKILL
    left = [p.name for p in tmp_path.iterdir() if p.name != "s.json"]
    assert len(left) == 1 and left[0].startswith(".s.json.") and left[0].endswith(".tmp")
    assert f.read_text() == "old"  # the kill never damaged the file
    # A save in progress in a live process (here: ours), an older gwasl's recent
    # temporary, and another file's temporaries are left alone.
    live = tmp_path / f".s.json.{os.getpid()}.abcd1234.tmp"
    live.write_text("in progress")
    recent_legacy = tmp_path / ".s.json.k2j4h5g6.tmp"
    recent_legacy.write_text("older gwasl, recent")
    old_legacy = tmp_path / ".s.json.zz99yy88.tmp"
    old_legacy.write_text("older gwasl, killed hours ago")
    two_hours_ago = time.time() - 7200
    os.utime(old_legacy, (two_hours_ago, two_hours_ago))
    other = tmp_path / ".t.json.12345.abcd1234.tmp"
    other.write_text("another file's")
    with atomic_target(f) as tmp:
        tmp.write_text("new")
    assert f.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["s.json", live.name, recent_legacy.name, other.name])


def test_remove_stale_temporaries_touches_only_our_pattern(tmp_path):
    f = tmp_path / "s.json"
    keep = [tmp_path / ".s.json.backup", tmp_path / ".s.json.999999999.abcd1234.tmp.bak", tmp_path / "s.json.1.abcd1234.tmp"]
    for p in keep:
        p.write_text("x")
    dead = tmp_path / ".s.json.999999999.abcd1234.tmp"  # no such pid
    dead.write_text("x")
    assert remove_stale_temporaries(f) == [dead]
    assert all(p.exists() for p in keep)


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_the_mode_any_program_would(tmp_path, umask):
    """Issue 18.2: new files were created 0600 whatever the umask."""
    old = os.umask(umask)
    try:
        f = tmp_path / "new.json"
        with atomic_target(f) as tmp:
            tmp.write_text("x")
        plain = tmp_path / "plain.txt"
        plain.write_text("x")  # what open() gives
    finally:
        os.umask(old)
    assert stat.S_IMODE(f.stat().st_mode) == 0o666 & ~umask == stat.S_IMODE(plain.stat().st_mode)


def test_an_existing_file_keeps_its_mode(tmp_path):
    f = tmp_path / "s.json"
    f.write_text("old")
    f.chmod(0o640)
    with atomic_target(f) as tmp:
        tmp.write_text("new")
    assert stat.S_IMODE(f.stat().st_mode) == 0o640


def test_a_read_only_file_is_not_replaced_unless_the_user_agrees(tmp_path):
    """Issue 18.2: a 0444 file was silently overwritten."""
    f = tmp_path / "s.json"
    f.write_text("old")
    f.chmod(0o444)
    with pytest.raises(ReadOnlyFileError, match="read-only"), atomic_target(f) as tmp:
        tmp.write_text("new")
    assert f.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["s.json"]
    with atomic_target(f, allow_read_only=True) as tmp:
        tmp.write_text("new")
    assert f.read_text() == "new" and stat.S_IMODE(f.stat().st_mode) == 0o444


def test_a_hard_link_that_cannot_be_kept_is_said(tmp_path):
    """Issue 18.2: replacing a file breaks its hard links; the save says so."""
    f = tmp_path / "s.json"
    f.write_text("old")
    other = tmp_path / "other-name.json"
    os.link(f, other)
    w = atomic_target(f)
    with w as tmp:
        tmp.write_text("new")
    assert f.read_text() == "new" and other.read_text() == "old"
    assert len(w.notes) == 1 and "1 other hard link" in w.notes[0] and "previous content" in w.notes[0]
    w2 = atomic_target(f)
    with w2 as tmp:
        tmp.write_text("again")
    assert w2.notes == []


# -- 18.3: two writers ---------------------------------------------------------------------
def test_a_file_changed_on_disk_since_it_was_read_is_not_replaced(tmp_path):
    """Issue 18.3: the second of two editors silently discarded the first one's save."""
    f = tmp_path / "s.json"
    f.write_text("v1")
    seen = read_regular_file(f).identity
    f.write_text("v2 by another editor")
    with pytest.raises(FileChangedError, match="changed on disk"), atomic_target(f, expect=seen) as tmp:
        tmp.write_text("v3")
    assert f.read_text() == "v2 by another editor"
    # Only content counts: a touch is no change.  The new identity is what we wrote.
    now = read_regular_file(f).identity
    os.utime(f, (1, 1))
    w = atomic_target(f, expect=now)
    with w as tmp:
        tmp.write_text("v3")
    assert w.identity == read_regular_file(f).identity
    # A file deleted meanwhile is simply written again: nothing is lost.
    f.unlink()
    with atomic_target(f, expect=w.identity) as tmp:
        tmp.write_text("v4")
    assert f.read_text() == "v4"


def test_a_change_during_the_write_is_noticed_before_the_replace(tmp_path):
    f = tmp_path / "s.json"
    f.write_text("v1")
    seen = read_regular_file(f).identity
    with pytest.raises(FileChangedError), atomic_target(f, expect=seen) as tmp:
        tmp.write_text("mine")
        f.write_text("theirs, meanwhile")
    assert f.read_text() == "theirs, meanwhile"


# -- 18.4: what is written is checked before it replaces anything ----------------------------
def test_a_failing_verify_leaves_the_target(tmp_path):
    f = tmp_path / "s.json"
    f.write_text("old")

    def verify(p):
        if p.read_text() != "good":
            raise ValueError("does not read back")

    with pytest.raises(ValueError, match="read back"), atomic_target(f, verify=verify) as tmp:
        tmp.write_text("bad")
    assert f.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["s.json"]
    with atomic_target(f, verify=verify) as tmp:
        tmp.write_text("good")
    assert f.read_text() == "good"


def test_file_head_never_blocks_on_a_fifo(tmp_path):
    """Issue 17.4: telling a game file from a scenario must not open a FIFO (it would wait for a writer)."""
    from gwasl.model.files import file_head

    fifo = tmp_path / "x.game"
    os.mkfifo(fifo)
    t = time.monotonic()
    assert file_head(fifo) is None and file_head("/dev/zero") is None and file_head(tmp_path) is None
    assert file_head(tmp_path / "missing") is None
    assert time.monotonic() - t < 5
    f = tmp_path / "g.game"
    f.write_bytes(b"SQLite format 3\x00rest")
    assert file_head(f) == b"SQLite format 3\x00"
