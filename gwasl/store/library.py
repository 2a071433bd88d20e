"""The scenario library (CONTRACTS 7): an SQLite index of scenario files for search.

Bundled scenarios are always in it; ``gwasl library add FOLDER`` indexes
every scenario under a folder (each file is loaded and checked the way
``gwasl validate`` loads it; files that do not load are listed as skipped
with the reason).  Search by text (title or id), front, nationality and a
date range.  The index lives in ``$GWASL_LIBRARY`` or
``$XDG_DATA_HOME/gwasl/library.sqlite`` (``~/.local/share`` by default).
"""

from __future__ import annotations

import datetime as dt
import errno
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool
from sqlmodel import Field, Session, SQLModel, create_engine

from gwasl.model.errors import GwaslError
from gwasl.model.scenario_io import ScenarioError, ScenarioFormatError, load_scenario
from gwasl.scenarios import bundled_folder

__all__ = ["MAX_FILES", "Library", "LibraryError", "LibraryHit", "bundled_scenario_dir", "library_path"]

#: files one ``add`` looks at, at most (a folder of scenarios is tens to hundreds)
MAX_FILES = 20_000


class LibraryError(GwaslError):
    """The library cannot be opened or written, or a folder cannot be read."""


class ScenarioEntry(SQLModel, table=True):
    """One indexed scenario file."""

    __tablename__ = "scenario"
    file: str = Field(primary_key=True)
    scenario_id: str
    title: str
    date: str
    front: str
    nationalities: str  # ",german,french," so a LIKE finds one exactly
    bundled: bool = False
    mtime_ns: int = 0


@dataclass(frozen=True, slots=True)
class LibraryHit:
    id: str
    title: str
    date: str
    file: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "date": self.date, "file": self.file}


def library_path() -> Path:
    env = os.environ.get("GWASL_LIBRARY")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gwasl" / "library.sqlite"


def bundled_scenario_dir() -> Path:
    """Where the bundled scenarios are: package data (gwasl/scenarios), in a checkout and a wheel alike."""
    return bundled_folder()


def _scenario_files(folder: Path) -> Iterator[Path]:
    n = 0
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".json") and not name.startswith("."):
                n += 1
                if n > MAX_FILES:
                    raise LibraryError(f"{folder}: more than {MAX_FILES} JSON files; add a smaller folder")
                yield Path(root) / name


class Library:
    """An open library index."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or library_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # by its path, never a URL built from it: a '?' or '%41' in the name is part of the name
            where = os.fspath(self.path.absolute())
            self._engine = create_engine("sqlite://", poolclass=NullPool,
                                         creator=lambda: sqlite3.connect(where, uri=False, check_same_thread=False))
            SQLModel.metadata.create_all(self._engine, tables=[ScenarioEntry.__table__])  # type: ignore[attr-defined]  # sqlmodel declares no __table__
        except (SQLAlchemyError, OSError, sqlite3.Error) as e:
            raise LibraryError(f"{self.path}: cannot open the scenario library: {str(e).splitlines()[0][:200]}") from None
        self._index_bundled()

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _index_bundled(self) -> None:
        """Index this install's bundled scenarios and forget another install's: a library
        shared by two installs (a checkout and a wheel, say) would otherwise list every
        bundled scenario twice."""
        folder = bundled_scenario_dir()
        if not folder.is_dir():
            return
        here = str(folder.resolve()) + os.sep
        try:
            with Session(self._engine) as s:
                others = [e.file for e in s.exec(select(ScenarioEntry)).scalars()  # type: ignore[call-overload]
                          if e.bundled and not e.file.startswith(here)]
                if others:
                    s.exec(delete(ScenarioEntry).where(ScenarioEntry.file.in_(others)))  # type: ignore[call-overload, attr-defined]
                    s.commit()
        except SQLAlchemyError as e:
            raise LibraryError(f"{self.path}: cannot write the scenario library: {str(e).splitlines()[0][:200]}") from None
        self._index(folder, bundled=True)

    def add(self, folder: str | os.PathLike[str]) -> tuple[int, list[dict[str, str]]]:
        """Index every scenario file under ``folder``: (files added, [{"file", "reason"}] skipped)."""
        p = Path(folder)
        try:
            os.stat(p)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise LibraryError(f"{p}: a symbolic link that loops, not a folder") from None
        if not p.is_dir():
            raise LibraryError(f"{p}: not a folder")
        return self._index(p, bundled=False)

    def _index(self, folder: Path, bundled: bool) -> tuple[int, list[dict[str, str]]]:
        added, skipped = 0, []
        try:
            with Session(self._engine) as s:
                known = {e.file: e.mtime_ns for e in s.exec(select(ScenarioEntry)).scalars()}  # type: ignore[call-overload]
                for f in _scenario_files(folder):
                    try:
                        key = str(f.resolve())
                        mtime = f.stat().st_mtime_ns
                    except RuntimeError:  # Path.resolve's word for a link that loops
                        skipped.append({"file": str(f), "reason": "a symbolic link that loops"})
                        continue
                    except OSError as e:
                        reason = "a symbolic link that loops" if e.errno == errno.ELOOP else e.strerror or str(e)
                        skipped.append({"file": str(f), "reason": reason})
                        continue
                    if known.get(key) == mtime:
                        added += 1
                        continue
                    try:
                        sc = load_scenario(f)
                    except ScenarioFormatError as e:
                        first = str(e.findings[0]) if e.findings else "not a scenario"
                        skipped.append({"file": str(f), "reason": first[:300]})
                        continue
                    except ScenarioError as e:
                        skipped.append({"file": str(f), "reason": str(e)[:300]})
                        continue
                    nats = sorted({side.nationality.value for side in sc.sides.values()})
                    s.merge(ScenarioEntry(file=key, scenario_id=sc.id or f.stem, title=sc.title, date=sc.date.isoformat(),
                                          front=sc.front.value, nationalities="," + ",".join(nats) + ",",
                                          bundled=bundled, mtime_ns=mtime))
                    added += 1
                s.commit()
        except SQLAlchemyError as e:
            raise LibraryError(f"{self.path}: cannot write the scenario library: {str(e).splitlines()[0][:200]}") from None
        return added, skipped

    def search(self, text: str | None = None, front: str | None = None, nationality: str | None = None,
               date_from: str | None = None, date_to: str | None = None) -> list[LibraryHit]:
        """Scenarios matching every criterion given (text: in the title or id, any case)."""
        for label, d in (("--from", date_from), ("--to", date_to)):
            if d is not None:
                try:
                    dt.date.fromisoformat(d)
                except ValueError:
                    raise LibraryError(f"{label} {d[:30]!r}: write a date as YYYY-MM-DD") from None
        q: Any = select(ScenarioEntry)
        if text:
            like = f"%{text.lower()}%"
            q = q.where((ScenarioEntry.title.ilike(like)) | (ScenarioEntry.scenario_id.ilike(like)))  # type: ignore[attr-defined]
        if front:
            q = q.where(ScenarioEntry.front == front.lower())
        if nationality:
            q = q.where(ScenarioEntry.nationalities.contains(f",{nationality.lower()},"))  # type: ignore[attr-defined]
        if date_from:
            q = q.where(ScenarioEntry.date >= date_from)
        if date_to:
            q = q.where(ScenarioEntry.date <= date_to)
        q = q.order_by(ScenarioEntry.date, ScenarioEntry.title)
        with Session(self._engine) as s:
            found = list(s.exec(q).scalars())
            stale = [e.file for e in found if not Path(e.file).is_file()]
            if stale:  # a file moved away since it was indexed: forget it
                s.exec(delete(ScenarioEntry).where(ScenarioEntry.file.in_(stale)))  # type: ignore[call-overload, attr-defined]
                s.commit()
        return [LibraryHit(e.scenario_id, e.title, e.date, e.file) for e in found if e.file not in stale]
