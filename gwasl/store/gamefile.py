"""Saved games: one SQLite file per game (docs/architecture.md "Persistence", CONTRACTS 5).

A game file holds its format version, the ruleset, the gwasl version that
made it, the source scenario, the seed, the options, the append-only
journal and snapshots of the state (every few hundred events, so a long game
opens by reducing only the entries after the newest one).  A snapshot is a
cache: one whose digest or content is wrong is passed over and the game
opens from an older one, or from the start.  Each journal entry is committed (WAL) before the
session changes its state, so a crash or ``kill -9`` loses nothing that was
shown and never leaves a file that does not open.

A file from elsewhere may be damaged or hostile: every failure to open or
read one is a :class:`GameFileError` with one line naming the file.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy import insert, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool
from sqlmodel import Field, SQLModel, create_engine

from gwasl import __version__
from gwasl.engine.game import SCENARIO_FILE, Game, GameError, GameOptions
from gwasl.engine.journal import Entry
from gwasl.engine.record import RecordError
from gwasl.engine.session import Session, SessionError
from gwasl.engine.snapshot import Deferred
from gwasl.model.errors import GwaslError
from gwasl.model.files import FileError, FileReadError, check_regular_file, file_head, read_regular_file

__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_GAME_FILE", "GameFile", "GameFileError", "create_game", "load_source", "open_game", "strict_loads"]

FORMAT = "gwasl-game"
FORMAT_VERSION = 1
#: a game file larger than this is refused (a long game is a few MB)
MAX_GAME_FILE = 512 * 1024 * 1024
#: snapshots a game file keeps (the newest)
KEEP_SNAPSHOTS = 4
#: the largest scenario file of a solitaire game that ``load_source`` reads
MAX_SOURCE = 64 * 1024 * 1024
_ENTRY_KINDS = frozenset({"begin", "act", "auto", "take_back"})


class GameFileError(GwaslError):
    """A game file that cannot be created, opened or written; the message names the file.

    The message is always one line (SQLite's own reports can span several).
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.splitlines()))


class GameMeta(SQLModel, table=True):
    """One fact about the game (format, version, ruleset, seed, options, source)."""

    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


class JournalRow(SQLModel, table=True):
    """One journal entry; ``events`` is the JSON list of its event records."""

    __tablename__ = "journal"
    idx: int = Field(primary_key=True)
    kind: str
    seq: int
    dice: int
    actor: str | None = None
    action: str | None = None
    grp: int = 0
    undoes: str = "[]"
    why: str | None = None
    events: str = "[]"


class SnapshotRow(SQLModel, table=True):
    """The state after journal entry ``idx`` as the game encodes it; ``digest`` is the
    SHA-256 of ``state``, so a damaged snapshot is seen and passed over."""

    __tablename__ = "snapshot"
    idx: int = Field(primary_key=True)
    digest: str
    state: str


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

    try:
        return json.loads(data, object_pairs_hook=pairs, parse_constant=const, parse_float=flt)
    except (ValueError, RecursionError) as e:
        raise GameFileError(f"{what}: {e}") from None


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"), sort_keys=False)


def _engine(path: Path) -> Engine:
    # one connection for the file's whole time open: opening and closing one per entry
    # would checkpoint the WAL every time (tens of ms per action)
    eng = create_engine(f"sqlite:///{path}", poolclass=StaticPool, connect_args={"timeout": 10})

    @sa_event.listens_for(eng, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        # a file from elsewhere: no schema-level code, checked cells
        cur.execute("PRAGMA trusted_schema=OFF")
        cur.execute("PRAGMA cell_size_check=ON")
        # WAL + NORMAL: a commit survives the process being killed (the kill -9 promise);
        # only a power cut may lose the last moves, and never corrupts the file
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    return eng


class SqliteJournal:
    """The journal of an open game file: :meth:`append` commits before it returns."""

    def __init__(self, engine: Engine, path: Path, entries: Sequence[Entry] = (),
                 snapshots: Sequence[tuple[int, Any]] = ()) -> None:
        self._engine = engine
        self._path = path
        self._entries = list(entries)
        self._snapshots = list(snapshots)

    keeps_snapshots = True

    def save_snapshot(self, index: int, state: Any) -> None:
        """Write a snapshot in its own transaction; a failure loses only the speed it buys."""
        data = _dumps(state)
        try:
            with self._engine.begin() as conn:
                SnapshotRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]  # a file made before snapshots
                conn.execute(text("INSERT OR REPLACE INTO snapshot (idx, digest, state) VALUES (:i, :d, :s)"),
                             {"i": index, "d": _digest(data), "s": data})
                # the newest few are all opening needs (older ones serve only after a take-back
                # past these): the file does not grow by a state every few hundred events
                conn.execute(text("DELETE FROM snapshot WHERE idx NOT IN (SELECT idx FROM snapshot ORDER BY idx DESC LIMIT :k)"),
                             {"k": KEEP_SNAPSHOTS})
        except SQLAlchemyError:
            return
        self._snapshots = [*sorted(x for x in self._snapshots if x[0] != index)[-(KEEP_SNAPSHOTS - 1):], (index, state)]

    def snapshots(self) -> Sequence[tuple[int, Any]]:
        return tuple(self._snapshots)

    def append(self, entry: Entry) -> None:
        row = {
            "idx": entry.index, "kind": entry.kind, "seq": entry.seq, "dice": entry.dice, "actor": entry.actor,
            "action": _dumps(dict(entry.action)) if entry.action is not None else None, "grp": entry.group,
            "undoes": _dumps(list(entry.undoes)), "why": entry.why,
            "events": _dumps([e.to_json() for e in entry.events]),
        }
        try:
            with self._engine.begin() as conn:
                conn.execute(insert(JournalRow), [row])
        except IntegrityError:
            raise GameFileError(f"{self._path}: the game changed on disk while acting (another gwasl?); open it again") from None
        except SQLAlchemyError as e:
            raise GameFileError(f"{self._path}: cannot write the game: {_short(e)}") from None
        self._entries.append(entry)

    def entries(self) -> Sequence[Entry]:
        return tuple(self._entries)


def _short(e: BaseException) -> str:
    msg = str(getattr(e, "orig", None) or e).splitlines()[0]
    return msg[:200]


class GameFile:
    """An open game file: its ruleset's :class:`Game` and the :class:`Session` over its journal."""

    def __init__(self, path: Path, engine: Engine, ruleset: str, game: Game[Any], session: Session[Any],
                 meta: Mapping[str, Any]) -> None:
        self.path = path
        self._engine = engine
        self.ruleset = ruleset
        self.game = game
        self.session = session
        self.meta = dict(meta)

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_meta(engine: Engine, meta: Mapping[str, Any]) -> None:
    with engine.begin() as conn:
        conn.execute(insert(GameMeta), [{"key": k, "value": _dumps(v)} for k, v in meta.items()])


def create_game(path: str | os.PathLike[str], game: Game[Any], source: Mapping[str, Any] | None, seed: int,
                options: GameOptions) -> GameFile:
    """Start a new game in a new file at ``path`` (never replacing an existing file).

    The file is built beside ``path`` and linked into place only once its
    first entries are committed, so a crash leaves either nothing or a game
    that opens.
    """
    target = Path(path)
    if target.exists() or target.is_symlink():
        raise GameFileError(f"{target}: already exists; a new game needs a new file name")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise GameFileError(f"{target}: the folder {folder} does not exist")
    fd, tmpname = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    os.close(fd)
    tmp = Path(tmpname)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as a normal program creates a file
        engine = _engine(tmp)
        try:
            SQLModel.metadata.create_all(engine, tables=[GameMeta.__table__, JournalRow.__table__, SnapshotRow.__table__])  # type: ignore[attr-defined]  # sqlmodel declares no __table__
            meta = {"format": FORMAT, "format_version": FORMAT_VERSION, "gwasl_version": __version__,
                    "ruleset": game.ruleset, "seed": seed, "options": options.to_json(), "source": source}
            _write_meta(engine, meta)
            journal = SqliteJournal(engine, tmp)
            Session.new(game, source, seed, options, journal)
            with engine.begin() as conn:
                conn.execute(text("PRAGMA journal_mode=WAL"))
        finally:
            engine.dispose()
        try:
            os.link(tmp, target)  # fails if the name was taken meanwhile: never overwrites
        except FileExistsError:
            raise GameFileError(f"{target}: already exists; a new game needs a new file name") from None
        except OSError:
            if target.exists():
                raise GameFileError(f"{target}: already exists; a new game needs a new file name") from None
            os.replace(tmp, target)
    except (SQLAlchemyError, OSError) as e:
        raise GameFileError(f"{target}: cannot create the game: {_short(e)}") from None
    finally:
        for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
    return open_game(target)


def open_game(path: str | os.PathLike[str]) -> GameFile:
    """Open a saved game and rebuild its session; :class:`GameFileError` for any file
    that is not a readable game of a format this gwasl understands."""
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
    engine = _engine(p)
    try:
        with engine.begin() as conn:
            check = conn.execute(text("PRAGMA quick_check")).scalar()
            if check != "ok":
                raise GameFileError(f"{p}: the game file is damaged ({str(check)[:80]})")
            tables = {r[0] for r in conn.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))}
            if not {"meta", "journal"} <= tables:
                raise GameFileError(f"{p}: not a gwasl game file")
            meta_rows = conn.execute(select(GameMeta.key, GameMeta.value)).all()  # type: ignore[call-overload]
            rows = conn.execute(select(JournalRow).order_by(JournalRow.idx)).all()  # type: ignore[arg-type]
            snap_rows = _snapshot_rows(conn) if "snapshot" in tables else []
        meta = {str(k): strict_loads(v, f"{p}: meta {k}") for k, v in meta_rows}
        if meta.get("format") != FORMAT:
            raise GameFileError(f"{p}: not a gwasl game file")
        version = meta.get("format_version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise GameFileError(f"{p}: the game file has no format version")
        if version > FORMAT_VERSION:
            raise GameFileError(f"{p}: made by a newer gwasl ({meta.get('gwasl_version', '?')}, game format {version}); "
                                f"this is gwasl {__version__}, which reads game format {FORMAT_VERSION}")
        ruleset, seed = meta.get("ruleset"), meta.get("seed")
        if not isinstance(ruleset, str) or not isinstance(seed, int) or isinstance(seed, bool):
            raise GameFileError(f"{p}: the game file is damaged (ruleset or seed)")
        game = game_for(ruleset)
        options = GameOptions.from_json(meta.get("options", {}))
        source = meta.get("source")
        if source is not None and not isinstance(source, dict):
            raise GameFileError(f"{p}: the game file is damaged (source)")
        entries = [_entry(row, game, p) for row in rows]
        for i, e in enumerate(entries):
            if e.index != i:
                raise GameFileError(f"{p}: the game file is damaged (journal entry {i} missing)")
        if not entries or entries[0].kind != "begin":
            raise GameFileError(f"{p}: the game file is damaged (no opening entry)")
        session = Session.restore(game, source, seed, options, SqliteJournal(engine, p, entries, _snapshots(snap_rows)))
    except GameFileError:
        engine.dispose()
        raise
    except (SQLAlchemyError, OSError, UnicodeError) as e:  # a damaged header can fail to decode
        engine.dispose()
        raise GameFileError(f"{p}: not a readable gwasl game file ({_short(e)})") from None
    except (GameError, SessionError, RecordError) as e:
        engine.dispose()
        raise GameFileError(f"{p}: the game file is damaged: {_short(e)}") from None
    return GameFile(p, engine, ruleset, game, session, meta)


def _snapshot_rows(conn: Any) -> list[Any]:
    """The snapshot table's rows, newest first; none if the table is not as gwasl writes it
    (a snapshot is a cache: a damaged one never stops a game from opening)."""
    try:
        return list(conn.execute(text("SELECT idx, digest, state FROM snapshot ORDER BY idx DESC")).all())
    except SQLAlchemyError:
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


def _entry(row: Any, game: Game[Any], p: Path) -> Entry:
    where = f"{p}: journal entry {row.idx}"
    if row.kind not in _ENTRY_KINDS:
        raise GameFileError(f"{where}: unknown kind {str(row.kind)[:20]!r}")
    raw = strict_loads(row.events, where)
    if not isinstance(raw, list):
        raise GameFileError(f"{where}: events must be a list")
    try:
        events = tuple(game.events.decode(e) for e in raw)
    except RecordError as e:
        raise GameFileError(f"{where}: {e}") from None
    action = strict_loads(row.action, where) if row.action is not None else None
    if action is not None and not isinstance(action, dict):
        raise GameFileError(f"{where}: the action must be an object")
    undoes = strict_loads(row.undoes, where)
    if not isinstance(undoes, list) or not all(isinstance(u, int) and not isinstance(u, bool) for u in undoes):
        raise GameFileError(f"{where}: undoes must be a list of entry numbers")
    if any(u >= row.idx or u < 0 for u in undoes):
        raise GameFileError(f"{where}: a take-back can only name earlier entries")
    return Entry(row.idx, row.kind, row.seq, row.dice, events, row.actor, action, row.grp, tuple(undoes), row.why)


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
