"""Saved games: one SQLite file per game (docs/architecture.md "Persistence", CONTRACTS 5).

A game file holds its format version, the ruleset, the gwasl version that
made it and a fingerprint of the rules it was played under, the source
scenario, the seed, the options, the append-only journal and snapshots of
the state (every few hundred events, so a long game opens by reducing only
the entries after the newest one).  A snapshot is a cache: one whose digest
or content is wrong is passed over and the game opens from an older one, or
from the start.

An action and the automated replies it causes are committed together (WAL)
before the session changes its state, so a crash or ``kill -9`` loses nothing
that was shown, never leaves an action without its replies, and never leaves
a file that does not open; after every commit the WAL is checkpointed into
the game file, so the file alone (copied while the game is open) is the
whole game.  Each journal entry carries a hash chained to the one before it
and to the game's set-up (format 2), so an entry changed afterwards is named
when the file is opened.

A file from elsewhere may be damaged or hostile: it is opened by its path
(never a URL built from it), must hold exactly gwasl's tables (no trigger,
view or other table: nothing in it can run), and every failure to open,
read or write one is a :class:`GameFileError` with one line naming the file.
Opened for reading (``mode="r"``), it is opened read-only by SQLite itself:
``show``, ``log``, ``legal``, ``odds``, ``suggest`` and ``replay --check``
never change it.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import math
import os
import sqlite3
import stat
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from gwasl import __version__
from gwasl.engine.game import SCENARIO_FILE, Game, GameError, GameOptions
from gwasl.engine.journal import Entry, JournalError
from gwasl.engine.record import RecordError
from gwasl.engine.session import ReplayReport, Session, SessionError
from gwasl.engine.snapshot import Deferred
from gwasl.model.errors import GwaslError
from gwasl.model.files import FileError, FileReadError, check_regular_file, file_head, read_regular_file

__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_GAME_FILE", "GameChangedOnDisk", "GameCheck", "GameFile", "GameFileError",
           "create_game", "load_source", "open_game", "rules_fingerprint", "strict_loads"]

FORMAT = "gwasl-game"
#: 2: each journal entry carries ``chain``, and meta the ``rules`` fingerprint; 1 had neither
FORMAT_VERSION = 2
#: a game file larger than this is refused (a long game is a few MB)
MAX_GAME_FILE = 512 * 1024 * 1024
#: snapshots a game file keeps (the newest)
KEEP_SNAPSHOTS = 4
#: the largest scenario file of a solitaire game that ``load_source`` reads
MAX_SOURCE = 64 * 1024 * 1024
_ENTRY_KINDS = frozenset({"begin", "act", "auto", "take_back"})
#: the columns of gwasl's tables, by format (a file holding anything else is refused)
_META_COLUMNS = frozenset({"key", "value"})
_JOURNAL_COLUMNS = ("idx", "kind", "seq", "dice", "actor", "action", "grp", "undoes", "why", "events")
_JOURNAL_FORMATS = {frozenset(_JOURNAL_COLUMNS): 1, frozenset((*_JOURNAL_COLUMNS, "chain")): 2}
_TABLES = frozenset({"meta", "journal", "snapshot"})

#: called at the named points of a journal write with the file's path (tests place kills
#: there: "append:begin", "append:inserted" inside the transaction, "append:committed",
#: "append:checkpointed"); None in use
WRITE_HOOK: Callable[[str, Path], None] | None = None


class GameFileError(JournalError):
    """A game file that cannot be created, opened or written; the message names the file.

    The message is always one line (SQLite's own reports can span several).  When it
    is raised while acting, nothing of the action was written.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.splitlines()))


class GameChangedOnDisk(GameFileError):
    """Another program (another gwasl) wrote to the game since it was opened here: nothing
    was written; open the game again to go on from what is on disk."""


# gwasl's three tables, declared as the files made so far hold them (sqlite_master keeps
# this text): SQLite through the standard library's sqlite3, with no ORM to load first --
# every `gwasl game` command and the player window open a game file (issue 23 item 8).
#: one fact about the game (format, version, ruleset, seed, options, source)
_META_TABLE = 'CREATE TABLE meta (\n\t"key" VARCHAR NOT NULL, \n\tvalue VARCHAR NOT NULL, \n\tPRIMARY KEY ("key")\n)'
#: one journal entry; ``events`` is the JSON list of its event records; ``chain`` the hash
#: of the entry chained to the one before (format 2)
_JOURNAL_TABLE = ("CREATE TABLE journal (\n\tidx INTEGER NOT NULL, \n\tkind VARCHAR NOT NULL, \n\tseq INTEGER NOT NULL, "
                  "\n\tdice INTEGER NOT NULL, \n\tactor VARCHAR, \n\taction VARCHAR, \n\tgrp INTEGER NOT NULL, "
                  "\n\tundoes VARCHAR NOT NULL, \n\twhy VARCHAR, \n\tevents VARCHAR NOT NULL, \n\tchain VARCHAR, "
                  "\n\tPRIMARY KEY (idx)\n)")
#: the state after journal entry ``idx`` as the game encodes it; ``digest`` is the SHA-256
#: of ``state``, so a damaged snapshot is seen and passed over
_SNAPSHOT_TABLE = ("CREATE TABLE snapshot (\n\tidx INTEGER NOT NULL, \n\tdigest VARCHAR NOT NULL, "
                   "\n\tstate VARCHAR NOT NULL, \n\tPRIMARY KEY (idx)\n)")


def _digest(text_: str) -> str:
    return hashlib.sha256(text_.encode("utf-8")).hexdigest()


class NonFiniteNumberError(GwaslError):
    """NaN or Infinity in a game file's JSON (read back as GameFileError)."""


class DuplicateKeyError(GwaslError):
    """A key twice in one JSON object of a game file."""


def strict_loads(data: str | bytes, what: str) -> Any:
    """JSON with no duplicate keys and no non-finite numbers (a file must read back as written).

    Its hooks raise :class:`DuplicateKeyError` and :class:`NonFiniteNumberError`, read back as :class:`GameFileError`.
    """

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):  # rare: find the culprit only then (this runs for every object)
            seen: set[str] = set()
            for k, _v in items:
                if k in seen:
                    raise DuplicateKeyError(f"duplicate key {k[:40]!r}")
                seen.add(k)
        return out

    def const(name: str) -> Any:
        raise NonFiniteNumberError(f"non-finite number {name}")

    def flt(s: str) -> float:
        v = float(s)
        if not math.isfinite(v):
            raise NonFiniteNumberError(f"non-finite number {s[:20]}")
        return v

    if not isinstance(data, str | bytes):
        raise GameFileError(f"{what}: holds {_sql_type(data)} where gwasl writes JSON text")
    try:
        return json.loads(data, object_pairs_hook=pairs, parse_constant=const, parse_float=flt)
    except (ValueError, RecursionError) as e:
        raise GameFileError(f"{what}: {e}") from None


def _sql_type(v: object) -> str:
    return {type(None): "nothing (NULL)", int: "a number", float: "a number", str: "text", bytes: "binary data"}.get(
        type(v), type(v).__name__)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"), sort_keys=False)


# -- the hash chain (format 2) -------------------------------------------------------
def _genesis(meta_rows: Mapping[str, str]) -> str:
    """The chain's start: the hash of the game's set-up as stored (every meta row), so a
    changed seed, option or scenario breaks the chain at the first entry."""
    return _digest(json.dumps(sorted(meta_rows.items()), ensure_ascii=True, separators=(",", ":")))


def _link(prev: str, row: Sequence[Any]) -> str:
    """An entry's chain hash: the hash before it and its ten stored cells, exactly as stored."""
    return _digest(prev + "\n" + json.dumps(list(row), ensure_ascii=True, separators=(",", ":")))


# -- the rules a game is played under ---------------------------------------------------
_RULE_PARTS = ("engine", "rules", "model", "editor", "resources")


@functools.cache
def _fingerprint(ruleset: str, package: str) -> str:
    """Hash of the code and data files that decide how ``ruleset`` plays (see :func:`rules_fingerprint`)."""
    root = Path(__file__).resolve().parents[1]
    files: list[Path] = [root / "games" / "__init__.py"]
    for part in _RULE_PARTS:
        files += _sources(root / part)
    pkg = Path(package)
    files += _sources(pkg) if pkg.is_dir() else [pkg]
    h = hashlib.sha256(ruleset.encode())
    for f in sorted(set(files)):
        if f.suffix in (".py", ".json") and "__pycache__" not in f.parts and f.is_file():
            with contextlib.suppress(OSError):
                h.update(f"\n{f.relative_to(root) if f.is_relative_to(root) else f.name}\n".encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _sources(folder: Path) -> list[Path]:
    """The ``.py`` and ``.json`` files under ``folder``, bytecode folders not walked (they
    hold most of the files: listing them was most of the fingerprint's time)."""
    out = []
    for where, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [Path(where, n) for n in names if n.endswith((".py", ".json"))]
    return out


def rules_fingerprint(game: Game[Any]) -> str:
    """A short hash of what decides how ``game`` plays: the engine, the rules, the model,
    the editor, the resources and the game's own package (its code and its data tables).
    A game file records it when it is made; ``replay --check`` compares it, so a game
    that today's rules replay differently is reported as made under other rules, not as
    altered (issue 28 item 9)."""
    import sys

    module = sys.modules.get(type(game).__module__)
    where = Path(getattr(module, "__file__", "") or "")
    root = Path(__file__).resolve().parents[1] / "games"
    package = where.parent if where.parent != root and where.is_relative_to(root) else where
    return _fingerprint(game.ruleset, str(package))


# -- opening the file -----------------------------------------------------------------
Mode = Literal["r", "w"]


def _connect(path: Path, mode: Mode, immutable: bool = False) -> sqlite3.Connection:
    """A connection to the file at ``path``, by its path: a name holding ``?`` or ``%41``
    names that very file (issue 28 item 6).  Read-only (``"r"``) through a quoted
    ``file:`` URI with ``mode=ro``: SQLite itself then never writes the file."""
    absolute = os.fspath(path.absolute())  # starts with "/": never read as a URI
    if mode == "w":
        con = sqlite3.connect(absolute, uri=False, timeout=10, isolation_level=None, check_same_thread=False)
    else:
        uri = "file:" + urllib.parse.quote(absolute) + "?mode=ro" + ("&immutable=1" if immutable else "")
        con = sqlite3.connect(uri, uri=True, timeout=10, isolation_level=None, check_same_thread=False)
    try:
        # a file from elsewhere: no schema-level code, checked cells
        con.execute("PRAGMA trusted_schema=OFF")
        con.execute("PRAGMA cell_size_check=ON")
        if mode == "w":
            # WAL + NORMAL: a commit survives the process being killed (the kill -9 promise);
            # only a power cut may lose the last moves, and never corrupts the file
            con.execute("PRAGMA synchronous=NORMAL")
        else:
            con.execute("PRAGMA query_only=ON")
    except sqlite3.Error:
        con.close()
        raise
    return con


@contextlib.contextmanager
def _transaction(con: sqlite3.Connection, mode: Mode) -> Iterator[sqlite3.Connection]:
    """One transaction on the file's one connection (kept for the file's whole time open:
    opening and closing one per entry would checkpoint the WAL every time), committed when
    the block ends, rolled back when it raises.  Begun here, not by the sqlite3 module: a
    writer takes the write lock at once (BEGIN IMMEDIATE), so what it read to check the
    file is what it appends to."""
    con.execute("BEGIN IMMEDIATE" if mode == "w" else "BEGIN")
    try:
        yield con
        con.commit()
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            con.rollback()
        raise


def _permission_bits_forbid(st: os.stat_result) -> bool:
    """The permissions say "not to be written" (read for root too, as editors do: root may
    write anything, the owner's bit says whether it is meant to be)."""
    if not hasattr(os, "geteuid"):  # no owners and groups to read
        return not st.st_mode & stat.S_IWRITE
    uid = os.geteuid()
    if uid in (0, st.st_uid):
        bit = stat.S_IWUSR
    elif st.st_gid in (os.getegid(), *os.getgroups()):
        bit = stat.S_IWGRP
    else:
        bit = stat.S_IWOTH
    return not st.st_mode & bit


def _not_writable(p: Path) -> str | None:
    """Why gwasl cannot write the game at ``p`` (it can read it), or None."""
    try:
        if not _read_only_fs(p.absolute().parent) and (_permission_bits_forbid(os.stat(p)) or not os.access(p, os.W_OK)):
            return "the file is read-only"
    except OSError:
        return None
    return _folder_not_writable(p.absolute().parent, "a game in play keeps its -wal and -shm files beside it")


def _read_only_fs(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _folder_not_writable(folder: Path, why: str) -> str | None:
    """Why no file can be written in ``folder``, or None."""
    try:
        if _read_only_fs(folder):
            return f"it is on a read-only file system ({folder})"
        if _permission_bits_forbid(os.stat(folder)) or not os.access(folder, os.W_OK):
            return f"the folder {folder} is read-only ({why})"
    except OSError:
        return None
    return None


def _os_reason(e: OSError) -> str:
    if e.errno == errno.EROFS:
        return "the folder is on a read-only file system"
    if e.errno == errno.ENOSPC or e.errno == getattr(errno, "EDQUOT", -1):
        return "the disk is full"
    if isinstance(e, PermissionError):
        return "permission denied (the folder is read-only)"
    if e.errno == errno.ELOOP:
        return "a symbolic link that loops"
    return (e.strerror or str(e))[:200]


def _write_reason(p: Path, e: BaseException) -> str:
    """In words, why a write to the game at ``p`` failed."""
    orig = getattr(e, "orig", None) or e
    name = str(getattr(orig, "sqlite_errorname", ""))
    if name.startswith("SQLITE_FULL") or (name.startswith("SQLITE_IOERR") and _disk_full(p)):
        return "the disk is full"
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")) or isinstance(orig, PermissionError):
        return _not_writable(p) or "the file or its folder is read-only"
    if isinstance(orig, OSError):
        return _os_reason(orig)
    return _short(e)


def _disk_full(p: Path) -> bool:
    try:
        vfs = os.statvfs(p.absolute().parent)
    except (OSError, AttributeError):
        return False
    return vfs.f_bavail == 0 or vfs.f_favail == 0


def _short(e: BaseException) -> str:
    msg = (str(getattr(e, "orig", None) or e).splitlines() or [type(e).__name__])[0]
    return msg[:200]


class SqliteJournal:
    """The journal of an open game file: :meth:`append_all` commits (all of its entries
    or none) before it returns, then checkpoints the WAL into the game file.

    Opened read-only, it keeps what the session appends while the game is restored (the
    replies a journal cut short owes, :meth:`Session.finish`) in memory only, and refuses
    any later append.
    """

    keeps_snapshots = True

    def __init__(self, con: sqlite3.Connection, path: Path, entries: Sequence[Entry] = (),
                 snapshots: Sequence[tuple[int, Any]] = (), chain: str | None = None, mode: Mode = "w") -> None:
        self._con = con
        self._path = path
        self._entries = list(entries)
        self._snapshots = list(snapshots)
        self._chain = chain  # the hash of the last entry on disk (None: a format-1 file, no chain)
        self._mode = mode
        self._holding = mode == "r"  # in memory while restoring a read-only game, then refused
        self.held: list[Entry] = []  # entries kept in memory only (read-only)

    def seal(self) -> None:
        """No more appends to a game opened read-only."""
        self._holding = False

    def save_snapshot(self, index: int, state: Any) -> None:
        """Write a snapshot in its own transaction; a failure loses only the speed it buys."""
        if self._mode == "r":
            return
        data = _dumps(state)
        try:
            with _transaction(self._con, self._mode) as conn:
                if not _has_table(conn, "snapshot"):  # a file made before snapshots
                    conn.execute(_SNAPSHOT_TABLE)
                conn.execute("INSERT OR REPLACE INTO snapshot (idx, digest, state) VALUES (?, ?, ?)",
                             (index, _digest(data), data))
                # the newest few are all opening needs (older ones serve only after a take-back
                # past these): the file does not grow by a state every few hundred events
                conn.execute("DELETE FROM snapshot WHERE idx NOT IN (SELECT idx FROM snapshot ORDER BY idx DESC LIMIT ?)",
                             (KEEP_SNAPSHOTS,))
        except sqlite3.Error:
            return
        self._checkpoint()
        self._snapshots = [*sorted(x for x in self._snapshots if x[0] != index)[-(KEEP_SNAPSHOTS - 1):], (index, state)]

    def snapshots(self) -> Sequence[tuple[int, Any]]:
        return tuple(self._snapshots)

    def append(self, entry: Entry) -> None:
        self.append_all([entry])

    def append_all(self, entries: Sequence[Entry]) -> None:
        """Commit ``entries`` in one transaction, after checking that the file still ends
        where this session's journal ends (another gwasl may have written meanwhile):
        :class:`GameChangedOnDisk` or :class:`GameFileError`, nothing written, otherwise."""
        if not entries:
            return
        if self._mode == "r":
            if not self._holding:
                raise GameFileError(f"{self._path}: opened for reading only; nothing was written")
            self._entries.extend(entries)
            self.held.extend(entries)
            return
        rows, chain = [], self._chain
        for entry in entries:
            row = _row(entry)
            if chain is not None:
                chain = _link(chain, row)
            rows.append((*row, chain) if chain is not None else row)
        columns = ", ".join(_JOURNAL_COLUMNS) + (", chain" if chain is not None else "")
        insert = f"INSERT INTO journal ({columns}) VALUES ({', '.join('?' * len(rows[0]))})"
        last = len(self._entries) - 1
        hook = WRITE_HOOK
        try:
            if hook:
                hook("append:begin", self._path)
            with _transaction(self._con, self._mode) as conn:
                on_disk = conn.execute(
                    "SELECT idx" + (", chain" if self._chain is not None else "") + " FROM journal ORDER BY idx DESC LIMIT 1").fetchone()
                expected = (last, self._chain) if self._chain is not None else (last,)
                if (tuple(on_disk) != expected) if on_disk is not None else last != -1:
                    raise GameChangedOnDisk(f"{self._path}: the game changed on disk since it was opened (another gwasl?); "
                                            "nothing was written: open it again")
                conn.executemany(insert, rows)
                if hook:
                    hook("append:inserted", self._path)
        except sqlite3.IntegrityError:
            raise GameChangedOnDisk(f"{self._path}: the game changed on disk since it was opened (another gwasl?); "
                                    "nothing was written: open it again") from None
        except (sqlite3.Error, OSError) as e:
            raise GameFileError(f"{self._path}: cannot write the game, nothing was written: {_write_reason(self._path, e)}") from None
        self._chain = chain
        self._entries.extend(entries)
        if hook:
            hook("append:committed", self._path)
        self._checkpoint()
        if hook:
            hook("append:checkpointed", self._path)

    def _checkpoint(self) -> None:
        """Copy the WAL into the game file (issue 26 item 12): the file alone is then the
        whole game, should it be copied while open.  PASSIVE: never waits for a reader; a
        failure leaves the moves in the WAL, as safe, and the next commit copies them."""
        with contextlib.suppress(sqlite3.Error):
            self._con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def entries(self) -> Sequence[Entry]:
        return tuple(self._entries)


def _row(entry: Entry) -> tuple[Any, ...]:
    """An entry's ten cells as the file stores them (the order of ``_JOURNAL_COLUMNS``)."""
    return (entry.index, entry.kind, entry.seq, entry.dice, entry.actor,
            _dumps(dict(entry.action)) if entry.action is not None else None, entry.group,
            _dumps(list(entry.undoes)), entry.why, _dumps([e.to_json() for e in entry.events]))


@dataclass(frozen=True, slots=True)
class GameCheck:
    """What ``gwasl game replay --check`` found (issue 28 item 9).

    ``verdict``: ``identical``; ``altered`` (an entry no longer matches the hash chain
    it was written with: ``entry`` names it); ``older`` (the game was made under other
    rules than today's, which replay it differently: not a sign of tampering); or
    ``differs`` (today's rules made it and replay it differently, or a take-back that
    was not allowed).  ``report`` is the session's replay."""

    verdict: Literal["identical", "altered", "older", "differs"]
    report: ReplayReport
    entry: int | None = None
    made_by: Mapping[str, Any] | None = None

    @property
    def identical(self) -> bool:
        return self.verdict == "identical"

    def line(self) -> str:
        rep = self.report
        if self.verdict == "identical":
            return f"{rep.events} events: identical"
        if self.verdict == "altered":
            return (f"differs at event {rep.first_difference}: journal entry {self.entry} was altered after it was "
                    "written (it no longer matches the file's hash chain)")
        if self.verdict == "older":
            made = dict(self.made_by or {})
            by = f"older: made by gwasl {made.get('gwasl_version', '?')} (game format {made.get('format_version', '?')}"
            if made.get("rules"):  # its hash chain holds: the rules changed, the file did not
                return (f"{by}, rules {made['rules']}) under other rules than today's ({made.get('rules_now', '?')}), "
                        f"which replay it differently from event {rep.first_difference} ({rep.detail}); its journal "
                        "is as it was written (its hash chain holds)")
            return (f"{by}, before game files recorded their rules and a hash chain): today's rules replay it "
                    f"differently from event {rep.first_difference} ({rep.detail}); the rules it was played under are "
                    "not known, so this is not evidence that it was edited")
        return f"differs at event {rep.first_difference}: {rep.detail}"

    def to_json(self) -> dict[str, Any]:
        rep = self.report
        obj: dict[str, Any] = {"events": rep.events, "identical": self.identical, "first_difference": rep.first_difference}
        if self.identical:  # CONTRACTS 5's three keys
            return obj
        obj["verdict"] = self.verdict
        if rep.detail:
            obj["detail"] = rep.detail
        if self.entry is not None:
            obj["entry"] = self.entry
        if self.made_by is not None:
            obj["made_by"] = dict(self.made_by)
        return obj


class GameFile:
    """An open game file: its ruleset's :class:`Game` and the :class:`Session` over its journal.

    ``mode`` is ``"w"`` (acting writes the file) or ``"r"`` (read-only: nothing is ever
    written).  ``altered`` is the first journal entry that no longer matches the hash
    chain (only a file opened with ``altered_ok``; otherwise such a file is refused).
    """

    def __init__(self, path: Path, con: sqlite3.Connection, ruleset: str, game: Game[Any], session: Session[Any],
                 meta: Mapping[str, Any], mode: Mode = "w", altered: int | None = None) -> None:
        self.path = path
        self._con = con
        self.ruleset = ruleset
        self.game = game
        self.session = session
        self.meta = dict(meta)
        self.mode = mode
        self.altered = altered

    def close(self) -> None:
        self._con.close()
        con = getattr(self.session.journal, "_con", None)
        if con is not None:
            con.close()

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self) -> GameCheck:
        """``replay --check``: the hash chain, then a replay from the seed with today's
        rules (:meth:`Session.replay_check`, take-backs included); a replay that differs
        in a game made under other rules is reported as ``older``, with its version."""
        rep = self.session.replay_check()
        if self.altered is not None:
            first = next((e.seq for e in self.session.entries if e.index == self.altered), rep.first_difference)
            return GameCheck("altered", ReplayReport(rep.events, False, first, rep.detail, self.altered), self.altered)
        if rep.identical:
            return GameCheck("identical", rep)
        now = rules_fingerprint(self.game)
        made = {"gwasl_version": self.meta.get("gwasl_version"), "format_version": self.meta.get("format_version"),
                "rules": self.meta.get("rules"), "rules_now": now}
        if self.meta.get("rules") != now:
            return GameCheck("older", rep, rep.entry, made)
        return GameCheck("differs", rep, rep.entry, made)


def _write_meta(con: sqlite3.Connection, meta: Mapping[str, str]) -> None:
    with _transaction(con, "w") as conn:
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", list(meta.items()))


def create_game(path: str | os.PathLike[str], game: Game[Any], source: Mapping[str, Any] | None, seed: int,
                options: GameOptions, initial: Any = None) -> GameFile:
    """Start a new game in a new file at ``path`` (never replacing an existing file).

    The file is built beside ``path`` and linked into place only once its
    first entries are committed, so a crash leaves either nothing or a game
    that opens.  ``initial``: ``game.setup(source, options)`` when the caller has
    just made it; the game is set up (its scenario validated) once either way.
    """
    target = Path(path)
    tmp: Path | None = None
    try:
        if target.exists() or target.is_symlink():
            raise GameFileError(f"{target}: already exists; a new game needs a new file name")
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir():
            raise GameFileError(f"{target}: the folder {folder} does not exist")
        why = _folder_not_writable(folder, "the game cannot be written there")
        if why:
            raise GameFileError(f"{target}: cannot create the game: {why}")
        import tempfile  # only a new game's file needs it (issue 23 item 8: not every command)

        fd, tmpname = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        os.close(fd)
        tmp = Path(tmpname)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as a normal program creates a file
        con = _connect(tmp, "w")
        try:
            with _transaction(con, "w") as conn:
                for table in (_META_TABLE, _JOURNAL_TABLE, _SNAPSHOT_TABLE):
                    conn.execute(table)
            meta = {"format": FORMAT, "format_version": FORMAT_VERSION, "gwasl_version": __version__,
                    "rules": rules_fingerprint(game), "ruleset": game.ruleset, "seed": seed, "options": options.to_json(),
                    "source": source}
            stored = {k: _dumps(v) for k, v in meta.items()}
            _write_meta(con, stored)
            made = Session.new(game, source, seed, options, SqliteJournal(con, tmp, chain=_genesis(stored)), initial)
            # opened below from the file without a second set-up, if its set-up is the one written
            written = (_genesis(stored), made.state_at(None))
            con.execute("PRAGMA journal_mode=WAL").fetchall()
        finally:
            con.close()
        try:
            os.link(tmp, target)  # fails if the name was taken meanwhile: never overwrites
        except FileExistsError:
            raise GameFileError(f"{target}: already exists; a new game needs a new file name") from None
        except OSError:
            if target.exists():
                raise GameFileError(f"{target}: already exists; a new game needs a new file name") from None
            os.replace(tmp, target)
    except sqlite3.Error as e:
        raise GameFileError(f"{target}: cannot create the game: {_write_reason(target, e)}") from None
    except OSError as e:
        raise GameFileError(f"{target}: cannot create the game: {_os_reason(e)}") from None
    finally:
        if tmp is not None:
            for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                with contextlib.suppress(OSError):
                    p.unlink()
    return open_game(target, made=written)


def _quiet(p: Path) -> tuple[int, int, int] | None:
    """The file's identity while no program has it open (no ``-wal`` beside it: a game
    open in WAL mode always has one), or None."""
    if os.path.lexists(f"{p}-wal"):
        return None
    st = os.stat(p)
    return st.st_ino, st.st_size, st.st_mtime_ns


def _still_quiet(p: Path, token: tuple[int, int, int]) -> bool:
    """No program wrote to the file while it was read as it was (``_quiet``)."""
    wal = Path(f"{p}-wal")
    try:
        if wal.exists() and wal.stat().st_size > 0:
            return False
        st = os.stat(p)
    except OSError:
        return False
    return (st.st_ino, st.st_size, st.st_mtime_ns) == token


def _read_connection(p: Path) -> sqlite3.Connection:
    """A read-only connection; in a folder gwasl cannot write (a read-only folder, mount
    or full disk, where SQLite cannot make the WAL's index beside the file), the file is
    read as it is ("immutable"), unless its last moves are still in its ``-wal`` file."""
    con = _connect(p, "r")
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchall()
        return con
    except sqlite3.OperationalError as e:
        con.close()
        name = str(getattr(e, "sqlite_errorname", ""))
        if not name.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_READONLY")):
            raise
    wal = Path(f"{p}-wal")
    with contextlib.suppress(OSError):
        if wal.stat().st_size > 0:
            raise GameFileError(f"{p}: its last moves are still in {wal.name}, which gwasl cannot read in a folder it "
                                "cannot write (read-only or full); copy the game with its -wal file to a writable folder")
    return _connect(p, "r", immutable=True)


def _check_schema(conn: Any, p: Path) -> int:
    """Refuse a file that holds anything but gwasl's tables and their automatic indexes (a
    trigger, a view, another table or index: issue 28 item 7); returns the journal's
    format by its columns (1, or 2 with ``chain``)."""
    tables: set[str] = set()
    for type_, name, tbl, sql in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall():
        if (type_ == "table" and name in _TABLES and isinstance(sql, str)
                and " ".join(sql.split())[:13].upper() == "CREATE TABLE "):
            tables.add(name)
            continue
        if type_ == "index" and str(name).startswith("sqlite_autoindex_") and tbl in _TABLES and sql is None:
            continue
        what = {"trigger": "a trigger", "view": "a view", "index": "an index", "table": "a table"}.get(str(type_), "an object")
        raise GameFileError(f"{p}: not a gwasl game file: it holds {what} {str(name)[:40]!r}, which gwasl never writes "
                            "into a game file (nothing in a game file may run); it was not opened")
    if not {"meta", "journal"} <= tables:
        raise GameFileError(f"{p}: not a gwasl game file")
    version = 0
    for table in sorted(tables):
        columns = conn.execute(f"PRAGMA table_xinfo({table})").fetchall()
        names = frozenset(str(c[1]) for c in columns)
        if any(c[6] for c in columns):
            raise GameFileError(f"{p}: not a gwasl game file: its {table} table has computed columns")
        if (table == "meta" and names != _META_COLUMNS) or (table == "journal" and names not in _JOURNAL_FORMATS):
            raise GameFileError(f"{p}: not a gwasl game file: its {table} table has the columns "
                                f"{', '.join(sorted(names))[:120]}, not gwasl's")
        if table == "journal":
            version = _JOURNAL_FORMATS[names]
    return version


def open_game(path: str | os.PathLike[str], mode: Mode = "w", altered_ok: bool = False, *,
              made: tuple[str, Any] | None = None) -> GameFile:
    """Open a saved game and rebuild its session; :class:`GameFileError` for any file
    that is not a readable game of a format this gwasl understands.

    ``mode="w"`` (to play on) refuses, in words, a game gwasl can read but not write;
    the replies a journal cut short owes are made and written (:meth:`Session.finish`).
    ``mode="r"`` opens it read-only: the file is never changed (owed replies are made in
    memory only).  A journal entry that no longer matches the hash chain is refused,
    naming it, unless ``altered_ok`` (``replay --check`` reports it: :attr:`GameFile.altered`).
    ``made``: (the hash of a set-up, its state) from :func:`create_game`, which has just set
    the game up: used only when the file's set-up (its meta rows) hashes the same.
    """
    from gwasl.games import game_for

    p = Path(path)
    try:
        check_regular_file(p, MAX_GAME_FILE)  # never a FIFO, a device or a folder; bounded
    except FileReadError as e:
        raise GameFileError(f"{p}: cannot open: {e.reason}") from None
    except FileError as e:
        raise GameFileError(str(e)) from None
    head = file_head(p, 16)
    if head is None:
        raise GameFileError(f"{p}: cannot read it")
    if head != b"SQLite format 3\x00":
        raise GameFileError(f"{p}: not a gwasl game file")
    if mode == "w":
        why = _not_writable(p)
        if why:
            raise GameFileError(f"{p}: gwasl can read this game but cannot write it: {why}")
    con: sqlite3.Connection | None = None
    try:
        # read-only, a file no program has open is read as it is ("immutable": SQLite then
        # makes no -wal or -shm file beside it), and again the usual way should a program
        # have written to it meanwhile
        quiet = _quiet(p) if mode == "r" else None
        if quiet:
            con = _connect(p, "r", immutable=True)
            try:
                columns_version, meta_rows, rows, snap_rows = _read_all((con, mode), p)
            except (GameFileError, sqlite3.Error):
                if _still_quiet(p, quiet):
                    raise
                quiet = None  # written to while it was read: read again, the usual way
            if quiet and not _still_quiet(p, quiet):
                quiet = None
            if not quiet:
                _dispose(con)
                con = None
        if not quiet:
            con = _read_connection(p) if mode == "r" else _connect(p, "w")
            columns_version, meta_rows, rows, snap_rows = _read_all((con, mode), p)
        assert con is not None
        stored: dict[str, str] = {}
        for k, v in meta_rows:
            if not isinstance(k, str) or not isinstance(v, str):
                raise GameFileError(f"{p}: the game file is damaged (meta {str(k)[:20]!r} holds {_sql_type(v)}, not JSON text)")
            stored[k] = v
        meta = {k: strict_loads(v, f"{p}: meta {k}") for k, v in stored.items()}
        if meta.get("format") != FORMAT:
            raise GameFileError(f"{p}: not a gwasl game file")
        version = meta.get("format_version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise GameFileError(f"{p}: the game file has no format version")
        if version > FORMAT_VERSION:
            raise GameFileError(f"{p}: made by a newer gwasl ({meta.get('gwasl_version', '?')}, game format {version}); "
                                f"this is gwasl {__version__}, which reads game format {FORMAT_VERSION}")
        if version != columns_version:
            raise GameFileError(f"{p}: the game file is damaged (game format {version} with a journal of format {columns_version})")
        ruleset, seed = meta.get("ruleset"), meta.get("seed")
        if not isinstance(ruleset, str) or not isinstance(seed, int) or isinstance(seed, bool):
            raise GameFileError(f"{p}: the game file is damaged (ruleset or seed)")
        game = game_for(ruleset)
        options = GameOptions.from_json(meta.get("options", {}))
        source = meta.get("source")
        if source is not None and not isinstance(source, dict):
            raise GameFileError(f"{p}: the game file is damaged (source)")
        entries = _entries(rows, game, p)
        chain, altered = None, None
        if version >= 2:
            chain, altered = _follow_chain(stored, rows)
            if altered is not None and not altered_ok:
                what = "the game's set-up or journal entry 0" if altered == 0 else f"journal entry {altered}"
                raise GameFileError(f"{p}: {what} was altered after it was written (it no longer matches the file's "
                                    "hash chain); gwasl plays no altered game ('gwasl game replay --check' reports it)")
        journal = SqliteJournal(con, p, entries, _snapshots(snap_rows), chain, mode)
        try:
            initial = made[1] if made is not None and made[0] == _genesis(stored) else None
            session = Session.restore(game, source, seed, options, journal, initial=initial)
        except (GameFileError, GameError, SessionError, RecordError, sqlite3.Error, OSError):
            raise
        except Exception as e:  # the rules set up and reduce what a file from elsewhere holds: they may raise anything
            raise GameFileError(f"{p}: the game file is damaged: its game cannot be set up or replayed "
                                f"({type(e).__name__}: {_short(e)})") from None
        journal.seal()
    except GameFileError:
        _dispose(con)
        raise
    except (sqlite3.Error, OSError, UnicodeError) as e:  # a damaged header can fail to decode
        _dispose(con)
        orig = getattr(e, "orig", None) or e
        name = str(getattr(orig, "sqlite_errorname", ""))
        if mode == "w" and (name.startswith(("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM"))
                            or (name.startswith("SQLITE_IOERR") and _disk_full(p))):
            raise GameFileError(f"{p}: gwasl can read this game but cannot write it: {_write_reason(p, e)}") from None
        raise GameFileError(f"{p}: not a readable gwasl game file ({_short(e)})") from None
    except (GameError, SessionError, RecordError) as e:
        _dispose(con)
        raise GameFileError(f"{p}: the game file is damaged: {_short(e)}") from None
    return GameFile(p, con, ruleset, game, session, meta, mode, altered)


def _read_all(db: tuple[sqlite3.Connection, Mode], p: Path) -> tuple[int, Any, Any, list[Any]]:
    """In one read transaction on ``db`` (the connection and the mode it was opened in):
    the file checked (``quick_check``, the schema), its journal's format by its columns,
    its meta rows, journal rows and snapshot rows."""
    with _transaction(*db) as conn:
        first = conn.execute("PRAGMA quick_check").fetchone()
        check = first[0] if first is not None else None
        if check != "ok":
            raise GameFileError(f"{p}: the game file is damaged ({str(check)[:80]})")
        columns_version = _check_schema(conn, p)
        meta_rows = conn.execute("SELECT key, value FROM meta").fetchall()
        chain_col = ", chain" if columns_version == 2 else ""
        rows = conn.execute(f"SELECT {', '.join(_JOURNAL_COLUMNS)}{chain_col} FROM journal ORDER BY idx").fetchall()
        snap_rows = _snapshot_rows(conn) if _has_table(conn, "snapshot") else []
    return columns_version, meta_rows, rows, snap_rows


def _dispose(con: sqlite3.Connection | None) -> None:
    if con is not None:
        con.close()


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def _follow_chain(stored: Mapping[str, str], rows: Sequence[Any]) -> tuple[str, int | None]:
    """The chain's last hash as stored, and the first entry whose stored hash is not the
    hash of its cells chained to the one before (None: all hold)."""
    chain = _genesis(stored)
    for row in rows:
        chain = _link(chain, row[:10])
        if row[10] != chain:
            return str(rows[-1][10]), int(row[0])
    return chain, None


def _snapshot_rows(conn: sqlite3.Connection) -> list[Any]:
    """The snapshot table's rows, newest first; none if the table is not as gwasl writes it
    (a snapshot is a cache: a damaged one never stops a game from opening)."""
    try:
        return conn.execute("SELECT idx, digest, state FROM snapshot ORDER BY idx DESC").fetchall()
    except sqlite3.Error:
        return []


def _no_constant(name: str) -> Any:
    """json's hook for NaN and Infinity: raises :class:`NonFiniteNumberError`."""
    raise NonFiniteNumberError(f"non-finite number {name}")


def _snapshots(rows: Sequence[Any]) -> list[tuple[int, Any]]:
    """The snapshots whose digest matches, newest first, to be read when needed (the
    session decodes the newest first and passes over any that does not decode)."""
    out = []
    for idx, digest, data in rows:
        if not isinstance(idx, int) or not isinstance(data, str) or digest != _digest(data):
            continue
        # read when needed (opening decodes only the newest that holds); the digest matched and
        # the game checks what it decodes: plain (fast) JSON
        out.append((idx, Deferred(functools.partial(json.loads, data, parse_constant=_no_constant))))
    return out


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _entries(rows: Sequence[Any], game: Game[Any], p: Path) -> list[Entry]:
    """The journal's entries, each checked cell by cell (a cell of the wrong type is named,
    never a crash: issue 28 item 8), numbered from 0 without gaps, their events numbered on."""
    entries = []
    seq = 0
    for i, row in enumerate(rows):
        e = _entry(row, game, p)
        if e.index != i:
            raise GameFileError(f"{p}: the game file is damaged (journal entry {i} missing)")
        if e.seq != seq:
            raise GameFileError(f"{p}: journal entry {i}: its events are numbered from {e.seq}, not {seq} "
                                "(the game file is damaged)")
        seq = e.seq + len(e.events)
        entries.append(e)
    if not entries or entries[0].kind != "begin":
        raise GameFileError(f"{p}: the game file is damaged (no opening entry)")
    return entries


def _entry(row: Any, game: Game[Any], p: Path) -> Entry:
    idx, kind, seq, dice, actor, action_text, grp, undoes_text, why, events_text = row[:10]
    where = f"{p}: journal entry {idx}"
    if not _whole(idx):
        raise GameFileError(f"{p}: the game file is damaged (a journal entry numbered {_sql_type(idx)})")
    if kind not in _ENTRY_KINDS:
        raise GameFileError(f"{where}: unknown kind {str(kind)[:20]!r}")
    for name, v in (("seq", seq), ("dice", dice), ("grp", grp)):
        if not _whole(v) or v < 0:
            raise GameFileError(f"{where}: {name} holds {_sql_type(v)} ({str(v)[:20]!r}), not a whole number "
                                "(the game file is damaged)")
    for name, v in (("actor", actor), ("why", why), ("action", action_text), ("undoes", undoes_text), ("events", events_text)):
        if (v is not None or name in ("undoes", "events")) and not isinstance(v, str):
            raise GameFileError(f"{where}: {name} holds {_sql_type(v)}, not text (the game file is damaged)")
    raw = strict_loads(events_text, where)
    if not isinstance(raw, list):
        raise GameFileError(f"{where}: events must be a list")
    try:
        events = tuple(game.events.decode(e) for e in raw)
    except RecordError as e:
        raise GameFileError(f"{where}: {e}") from None
    action = strict_loads(action_text, where) if action_text is not None else None
    if action is not None and not isinstance(action, dict):
        raise GameFileError(f"{where}: the action must be an object")
    undoes = strict_loads(undoes_text, where)
    if not isinstance(undoes, list) or not all(_whole(u) for u in undoes):
        raise GameFileError(f"{where}: undoes must be a list of entry numbers")
    if any(u >= idx or u < 0 for u in undoes):
        raise GameFileError(f"{where}: a take-back can only name earlier entries")
    return Entry(idx, kind, seq, dice, events, actor, action, grp, tuple(undoes), why)


def load_source(ruleset: str | Game[Any], path: str) -> dict[str, Any]:
    """The source of a new game of ``ruleset`` (a name or the game) from a file, read as the
    game declares (:attr:`~gwasl.engine.game.Game.source_kind`): a checked Great War
    scenario, or a JSON object the game checks when it is set up.

    Raises :class:`GameError` with one line naming the file and the problem."""
    from gwasl.games import game_for

    game = game_for(ruleset) if isinstance(ruleset, str) else ruleset
    if game.source_kind.format == SCENARIO_FILE:
        from gwasl.model.scenario_io import ScenarioError, ScenarioFormatError, load_scenario, scenario_to_dict

        try:
            return dict(scenario_to_dict(load_scenario(path)))
        except ScenarioFormatError as e:
            first = e.findings[0] if e.findings else "not a scenario"
            raise GameError(f"{path}: not a valid scenario: {first}") from None
        except ScenarioError as e:
            raise GameError(str(e)) from None
    try:
        obj = strict_loads(read_regular_file(path, MAX_SOURCE).data, path)
    except FileError as e:
        raise GameError(str(e)) from None
    except GameFileError as e:
        raise GameError(f"{path}: {e}") from None
    if not isinstance(obj, dict):
        raise GameError(f"{path}: not a {game.ruleset} scenario (a JSON object)")
    return obj
