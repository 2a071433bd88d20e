"""Game files from strangers and from unkind disks (issue 28 items 6, 7 and 8; issue 26
item 12), through the command line in process: a name with ``?`` or ``%41`` names that
very file; a file holding a trigger, a view or anything but gwasl's tables is refused and
never written; a cell of the wrong type, a read-only folder, file or mount, a full disk or
a symbolic link that loops gets one line naming the file and what is wrong, exit 2 (never
"internal error", never "not a readable gwasl game file" for a game that can be read);
read-only commands never change the file; the game file alone is the whole game."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from gwasl.cli import main
from gwasl.store import gamefile
from gwasl.store.gamefile import open_game
from store.saves import new_file

#: the read-only commands ("end_phase": an action id of the games below, for odds)
READ_ONLY = [["show"], ["show", "--json"], ["legal"], ["log", "--json"], ["replay", "--check"], ["suggest"],
             ["odds", "end_phase"]]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def clean_refusal(rc: int, err: str, path: Path, *words: str) -> None:
    assert rc == 2, err
    assert "internal error" not in err and str(path) in err and err.count("\n") == 1, err
    for w in words:
        assert w in err, err


@pytest.fixture(scope="module")
def ca_game(tmp_path_factory) -> Path:
    """A Combined Arms game a few actions in (the defender has answered)."""
    p = tmp_path_factory.mktemp("ca") / "good.game"
    assert main(["game", "new", "--ruleset", "combined-arms", "--seed", "3", "--out", str(p)]) == 0
    for _ in range(3):
        assert main(["game", "act", str(p), '{"kind": "end_phase"}']) == 0
    return p


def copy(src: Path, dst: Path) -> Path:
    shutil.copyfile(src, dst)
    return dst


def sql(p: Path, *statements: str) -> None:
    con = sqlite3.connect(p)
    for s in statements:
        con.execute(s)
    con.commit()
    con.close()


def first_id(capsys, p: Path) -> str:
    rc, out, _ = run(capsys, "game", "legal", str(p), "--json")
    assert rc == 0
    import json

    return json.loads(out)["actions"][0]["id"]


# -- 6: by path, never a URL ---------------------------------------------------------------
def test_a_question_mark_in_a_name_names_that_file_not_another(ca_game, tmp_path, capsys):
    """Issue 28 item 6: ``gwasl game act 'victim.game?copy.game'`` modified victim.game (the
    name went into an SQLAlchemy URL, where ``?`` starts the query).  Now the file of that
    very name is played, and victim.game is untouched."""
    victim = copy(ca_game, tmp_path / "victim.game")
    odd = copy(ca_game, tmp_path / "victim.game?copy.game")
    before = victim.read_bytes()
    rc, _, err = run(capsys, "game", "act", str(odd), first_id(capsys, odd))
    assert rc == 0, err
    assert victim.read_bytes() == before
    with open_game(odd, "r") as gf, open_game(victim, "r") as v:
        assert len(gf.session.entries) > len(v.session.entries)


def test_a_percent_escape_in_a_name_is_part_of_the_name(ca_game, tmp_path, capsys):
    """Issue 28 item 6: a valid ``p%41.game`` was refused and an empty ``pA.game`` appeared."""
    p = copy(ca_game, tmp_path / "p%41.game")
    for command in (["show"], ["act", first_id(capsys, p)]):
        rc, _, err = run(capsys, "game", command[0], str(p), *command[1:])
        assert rc == 0, err
    assert sorted(x.name for x in tmp_path.iterdir() if not x.name.endswith(("-wal", "-shm"))) == ["p%41.game"]


def test_the_library_is_opened_by_its_path(tmp_path, monkeypatch, capsys):
    """Issue 28 item 6, the library too: ``$GWASL_LIBRARY`` with ``?`` and ``%41`` names that file."""
    lib = tmp_path / "lib?mode=ro%41.sqlite"
    monkeypatch.setenv("GWASL_LIBRARY", str(lib))
    rc, out, err = run(capsys, "library", "search", "caures")
    assert rc == 0 and "Caures" in out, err
    assert [x.name for x in tmp_path.iterdir()] == [lib.name] and lib.stat().st_size > 0


# -- 7: only gwasl's tables ------------------------------------------------------------------
HOSTILE_SCHEMA = {
    "trigger": ("CREATE TRIGGER wipe AFTER INSERT ON journal BEGIN DELETE FROM journal WHERE idx < NEW.idx; END",
                "a trigger 'wipe'"),
    "view": ("CREATE VIEW v AS SELECT * FROM journal", "a view 'v'"),
    "table": ("CREATE TABLE extra (x)", "a table 'extra'"),
    "index": ("CREATE INDEX kinds ON journal (kind)", "an index 'kinds'"),
    "statistics": ("ANALYZE", "a table 'sqlite_stat1'"),
    "computed-column": ("ALTER TABLE meta ADD COLUMN shout AS (upper(value))", "computed columns"),
    "other-columns": ("ALTER TABLE journal ADD COLUMN note TEXT", "columns"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_SCHEMA))
def test_a_file_holding_more_than_gwasls_tables_is_refused_and_never_written(ca_game, tmp_path, capsys, kind):
    """Issue 28 item 7: a trigger inside a received game wiped its history on the next
    ``act``, which exited 0.  Every command refuses such a file in one line saying what
    it holds, and the file is not changed (not even by ``act`` or ``undo``)."""
    statement, words = HOSTILE_SCHEMA[kind]
    p = copy(ca_game, tmp_path / "hostile.game")
    sql(p, statement)
    before = p.read_bytes()
    for command in ([*c] for c in (*READ_ONLY, ["act", "0"], ["undo"])):
        rc, _, err = run(capsys, "game", command[0], str(p), *command[1:])
        clean_refusal(rc, err, p, "not a gwasl game file", words)
        assert p.read_bytes() == before
    assert not Path(f"{p}-wal").exists() or Path(f"{p}-wal").stat().st_size == 0


# -- 8: clear words, exit 2 ---------------------------------------------------------------------
WRONG_CELLS = {
    "seq-as-text": ("UPDATE journal SET seq = 'x' WHERE idx = 1", "seq holds text"),
    "dice-as-blob": ("UPDATE journal SET dice = x'00' WHERE idx = 1", "dice holds binary data"),
    "grp-as-real": ("UPDATE journal SET grp = 1.5 WHERE idx = 1", "grp holds a number"),
    "negative-seq": ("UPDATE journal SET seq = -4 WHERE idx = 1", "seq holds"),
    "actor-as-blob": ("UPDATE journal SET actor = x'07' WHERE idx = 1", "actor holds binary data"),
    "events-as-blob": ("UPDATE journal SET events = x'5b5d' WHERE idx = 1", "events holds binary data"),
    "events-a-number": ("UPDATE journal SET events = 5 WHERE idx = 1", "events must be a list"),
    "undoes-as-blob": ("UPDATE journal SET undoes = x'5b5d' WHERE idx = 1", "undoes holds binary data"),
    "why-as-real": ("UPDATE journal SET why = 2.5 WHERE idx = 1", "altered"),  # text affinity: '2.5', a forged why
    "meta-as-blob": ("UPDATE meta SET value = x'37' WHERE key = 'seed'", "holds binary data"),
    "seq-renumbered": ("UPDATE journal SET seq = seq + 1 WHERE idx = 2", "numbered from"),
}


@pytest.mark.parametrize("kind", sorted(WRONG_CELLS))
def test_journal_cells_of_the_wrong_type_are_named_not_an_internal_error(ca_game, tmp_path, capsys, kind):
    """Issue 28 item 8: a ``seq`` stored as text ended ``log`` in "internal error:
    TypeError: can only concatenate str (not "int") to str".  Every cell is checked when
    the file opens: one line naming the file and the cell, exit 2."""
    statement, words = WRONG_CELLS[kind]
    p = copy(ca_game, tmp_path / "cells.game")
    sql(p, statement)
    before = p.read_bytes()
    for command in (*READ_ONLY, ["act", "0"]):
        rc, out, err = run(capsys, "game", command[0], str(p), *command[1:])
        if command[0] == "replay" and words == "altered":  # replay --check reports it: on stdout, exit 2
            assert rc == 2 and not err and "journal entry 1 was altered" in out
            continue
        clean_refusal(rc, err, p, words)
    assert p.read_bytes() == before


@contextlib.contextmanager
def read_only(path: Path):
    mode = path.stat().st_mode
    path.chmod(mode & 0o555)
    try:
        yield
    finally:
        path.chmod(mode)


def test_a_new_game_in_a_read_only_folder_is_refused_in_words(tmp_path, capsys):
    """Issue 28 item 8: ``game new --out`` into a read-only folder was an internal error."""
    folder = tmp_path / "ro"
    folder.mkdir()
    with read_only(folder):
        rc, _, err = run(capsys, "game", "new", "--ruleset", "combined-arms", "--out", str(folder / "g.game"))
    clean_refusal(rc, err, folder / "g.game", "cannot create the game", "read-only")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_game_that_can_be_read_but_not_written_says_so(ca_game, tmp_path, capsys, what):
    """Issue 28 item 8: a game in a read-only folder was "not a readable gwasl game file".
    It is readable: every read-only command answers; ``act`` and ``undo`` say it cannot be
    written, and why; the file is unchanged."""
    folder = tmp_path / "games"
    folder.mkdir()
    p = copy(ca_game, folder / "g.game")
    before = p.read_bytes()
    with read_only(folder if what == "folder" else p):
        for command in READ_ONLY:
            rc, out, err = run(capsys, "game", command[0], str(p), *command[1:])
            assert rc == 0 and out and not err, err
        for command in (["act", "0"], ["undo"]):
            rc, _, err = run(capsys, "game", command[0], str(p), *command[1:])
            clean_refusal(rc, err, p, "can read this game but cannot write it", "read-only")
            assert "not a readable" not in err
    assert p.read_bytes() == before


def test_a_full_disk_refuses_the_act_and_writes_nothing(ca_game, tmp_path, capsys, monkeypatch):
    """Issue 28 item 8, a full disk (SQLite's SQLITE_FULL, made here by capping the file
    at its size): ``act`` says the disk is full, nothing of the action is written, and the
    game still reads."""
    p = copy(ca_game, tmp_path / "g.game")
    real = gamefile._connect

    def capped(path, mode, immutable=False):
        con = real(path, mode, immutable)
        if mode == "w":
            pages = con.execute("PRAGMA page_count").fetchone()[0]
            con.execute(f"PRAGMA max_page_count = {pages}")
        return con

    monkeypatch.setattr(gamefile, "_connect", capped)
    with open_game(p, "r") as gf:
        n = len(gf.session.entries)
    rc, _, err = run(capsys, "game", "act", str(p), '{"kind": "end_phase"}')
    clean_refusal(rc, err, p, "nothing was written", "the disk is full")
    monkeypatch.undo()
    with open_game(p, "r") as gf:
        assert len(gf.session.entries) == n


def _mount_tmpfs(where: Path, size: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir()
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


@contextlib.contextmanager
def tmpfs(tmp_path: Path, size: str = "2m"):
    where = tmp_path / "mnt"
    if not _mount_tmpfs(where, size):
        pytest.skip("needs root and mount (a real read-only or full file system)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_read_only_mount_and_a_really_full_disk(ca_game, tmp_path, capsys):
    """The same on real file systems (when the tests may mount one): a game on a tmpfs
    remounted read-only reads (SQLite cannot make its WAL index there: gwasl reads the
    file as it is) and ``act`` names the read-only file system; on a full tmpfs ``act``
    says the disk is full and the game still reads."""
    with tmpfs(tmp_path) as mnt:
        p = copy(ca_game, mnt / "g.game")
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True, capture_output=True)
        for command in READ_ONLY:
            rc, out, err = run(capsys, "game", command[0], str(p), *command[1:])
            assert rc == 0 and out and not err, err
        rc, _, err = run(capsys, "game", "act", str(p), "0")
        clean_refusal(rc, err, p, "can read this game but cannot write it", "read-only file system")
        subprocess.run(["mount", "-o", "remount,rw", str(mnt)], check=True, capture_output=True)
        filler = mnt / "filler"
        with open(filler, "wb") as fh, contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        before = p.read_bytes()
        rc, _, err = run(capsys, "game", "act", str(p), '{"kind": "end_phase"}')
        if rc == 0:  # the action fit in what SQLite had already
            pytest.skip("the full disk still held the action")
        clean_refusal(rc, err, p, "the disk is full")
        assert p.read_bytes() == before
        rc, out, err = run(capsys, "game", "show", str(p))
        assert rc == 0, err


def test_library_add_on_a_symbolic_link_loop_names_it(tmp_path, monkeypatch, capsys):
    """Issue 28 item 8: ``library add`` on a symbolic link loop was an internal error
    (Path.resolve's RuntimeError).  A folder that is a loop: exit 2 naming it; loops
    inside a folder: listed as skipped, each named."""
    monkeypatch.setenv("GWASL_LIBRARY", str(tmp_path / "lib.sqlite"))
    (tmp_path / "loop").symlink_to("loop")
    rc, _, err = run(capsys, "library", "add", str(tmp_path / "loop"))
    clean_refusal(rc, err, tmp_path / "loop", "a symbolic link that loops")
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "a.json").symlink_to("b.json")
    (folder / "b.json").symlink_to("a.json")
    rc, out, err = run(capsys, "library", "add", str(folder))
    assert rc == 0 and "internal error" not in err, err
    assert f"skipped {folder / 'a.json'}: a symbolic link that loops" in out


# -- read-only commands; the file alone ------------------------------------------------------------
def test_read_only_commands_never_change_the_file(ca_game, tmp_path, capsys):
    """Issue 28 item 8: show, legal, log, odds, suggest and replay --check open the file
    read-only: its bytes stay as they were and no WAL is left with anything in it, also
    on a game whose last action still owes its replies (they are shown, not written)."""
    p = copy(ca_game, tmp_path / "g.game")
    with open_game(p, "r") as gf:
        owed_from = next(e.index for e in reversed(gf.session.entries) if e.kind == "act")
    for game in (p, copy(p, tmp_path / "cut.game")):
        if game.name == "cut.game":
            sql(game, f"DELETE FROM journal WHERE idx > {owed_from}")
        before = game.read_bytes()
        for command in READ_ONLY:
            rc, _, err = run(capsys, "game", command[0], str(game), *command[1:])
            assert rc in (0, 2) and "internal error" not in err, err
            assert game.read_bytes() == before, command
            wal = Path(f"{game}-wal")
            assert not wal.exists() or wal.stat().st_size == 0


def test_the_game_file_alone_is_the_whole_game_while_it_is_open(tmp_path):
    """Issue 26 item 12: an open game kept its recent moves in the ``-wal`` file beside it
    (1 MB after 22 On Patrol turns): a copy of the game file alone, taken while it was
    open, was turn 1.  After every action the WAL is checkpointed into the game file."""
    p = tmp_path / "g.game"
    with new_file("on-patrol", p) as gf:
        from store.saves import choose

        for step in range(12):
            a = choose(gf.session, step)
            if a is None:
                break
            gf.session.act(a)
            alone = copy(p, tmp_path / f"copy-{step}.game")  # the game file only, no -wal
            with open_game(alone, "r") as c:
                assert len(c.session.entries) == len(gf.session.entries)
                assert c.session.state == gf.session.state


def test_a_read_only_command_leaves_nothing_beside_the_game(ca_game, tmp_path, capsys):
    """A file no program has open is read as it is: no -wal or -shm file is left beside
    it by show, log or replay --check (a game in play keeps them; a look at one does not)."""
    p = copy(ca_game, tmp_path / "g.game")
    for command in READ_ONLY:
        rc, _, err = run(capsys, "game", command[0], str(p), *command[1:])
        assert rc == 0, err
    assert sorted(x.name for x in tmp_path.iterdir()) == ["g.game"]


def test_a_file_written_while_it_is_read_as_it_is_is_read_again(ca_game, tmp_path, monkeypatch):
    """Another gwasl acting while a read-only command reads the file as it is: the read is
    done again the usual way, and shows the game with that action."""
    p = copy(ca_game, tmp_path / "g.game")
    real = gamefile._read_all
    writers: list = []

    def read_then_meddle(engine, path):
        out = real(engine, path)
        if not writers:
            writers.append(None)
            writers[0] = open_game(p)  # stays open, as a player window would
            writers[0].session.act(writers[0].session.legal()[0].action)
        return out

    monkeypatch.setattr(gamefile, "_read_all", read_then_meddle)
    with open_game(p, "r") as gf:
        assert len(gf.session.entries) == len(writers[0].session.entries)
    writers[0].close()
