"""The journal: the append-only record of a game in play.

Each :class:`Entry` is one step: the game's opening (``begin``), an action
asked for by the person at the desk (``act``), an action an automated side
chose (``auto``), or a take-back (``take_back``).  An entry holds the events
the step caused, numbered by ``seq`` across the whole journal, and where
the dice stream stood after it.  Nothing is ever removed: a take-back is an
entry that names the entries it takes back.

The engine keeps journals in memory (:class:`MemoryJournal`);
:mod:`gwasl.store` keeps them in a SQLite file.  Either way
:meth:`Journal.append` returns only once the entry is durable, and the
session appends before the state changes, so nothing shown is ever lost.
An action and the automated replies it causes are appended together
(:meth:`Journal.append_all`, where the journal has it): all are durable or
none is, so a crash never leaves an action without its replies.

A journal may also keep snapshots (:class:`SnapshotJournal`): the state after
an entry, encoded by the game, so a long game reopens by reducing only the
entries after the newest one.  A snapshot is a cache: losing or damaging one
loses nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol

from gwasl.engine.record import Record
from gwasl.model.errors import GwaslError

__all__ = ["Entry", "EntryKind", "Journal", "JournalError", "MemoryJournal", "SnapshotJournal", "append_all"]

EntryKind = Literal["begin", "act", "auto", "take_back"]


class JournalError(GwaslError):
    """The journal cannot keep an entry (the file cannot be written, another program
    wrote to it meanwhile...); nothing of what was being appended is kept."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One step of a game.

    ``actor`` is the viewer that asked (``act``) or the automated side
    (``auto``); ``action`` the action's JSON; ``events`` what it caused,
    their sequence numbers starting at ``seq``; ``dice`` the stream position
    after the step; ``group`` the index of the ``act`` entry whose
    consequences this entry belongs to (automated replies are taken back
    with it); ``undoes`` the entries a take-back takes back.
    """

    index: int
    kind: EntryKind
    seq: int
    dice: int
    events: tuple[Record, ...] = ()
    actor: str | None = None
    action: Mapping[str, Any] | None = None
    group: int = 0
    undoes: tuple[int, ...] = ()
    why: str | None = None
    meta: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def seqs(self) -> range:
        return range(self.seq, self.seq + len(self.events))


class Journal(Protocol):
    """Where a session's entries go; :meth:`append` is durable when it returns."""

    def append(self, entry: Entry) -> None: ...

    def entries(self) -> Sequence[Entry]: ...


def append_all(journal: Journal, entries: Sequence[Entry]) -> None:
    """Append ``entries`` at once: through the journal's own ``append_all`` (all durable or
    none) when it has one, else one by one."""
    together = getattr(journal, "append_all", None)
    if together is not None:
        together(entries)
        return
    for e in entries:
        journal.append(e)


class SnapshotJournal(Journal, Protocol):
    """A journal that also keeps snapshots: ``index`` is the entry the state is after,
    ``state`` the game's :meth:`~gwasl.engine.game.Game.encode_state` JSON."""

    @property
    def keeps_snapshots(self) -> bool: ...

    def save_snapshot(self, index: int, state: Any) -> None: ...

    def snapshots(self) -> Sequence[tuple[int, Any]]: ...


class JournalOrderError(GwaslError):
    """An entry appended out of its turn (its index is not the journal's length)."""


class MemoryJournal:
    """A journal held in memory (tests, batch play, previews); it keeps snapshots only
    when asked to (``snapshots=True``), as a file does."""

    def __init__(self, entries: Sequence[Entry] = (), snapshots: Sequence[tuple[int, Any]] | None = None) -> None:
        self._entries: list[Entry] = list(entries)
        self._snapshots: dict[int, Any] | None = dict(snapshots) if snapshots is not None else None

    @property
    def keeps_snapshots(self) -> bool:
        return self._snapshots is not None

    def save_snapshot(self, index: int, state: Any) -> None:
        if self._snapshots is not None:
            self._snapshots[index] = state

    def snapshots(self) -> Sequence[tuple[int, Any]]:
        return sorted((self._snapshots or {}).items())

    def append(self, entry: Entry) -> None:
        """Add ``entry`` at the end; raises :class:`JournalOrderError` if its index is not the next."""
        if entry.index != len(self._entries):
            raise JournalOrderError(f"journal entry {entry.index} appended at {len(self._entries)}")
        self._entries.append(entry)

    def append_all(self, entries: Sequence[Entry]) -> None:
        """All of ``entries`` or none (they are checked before any is kept); raises
        :class:`JournalOrderError` if they do not follow on."""
        for i, e in enumerate(entries):
            if e.index != len(self._entries) + i:
                raise JournalOrderError(f"journal entry {e.index} appended at {len(self._entries) + i}")
        for e in entries:
            self.append(e)

    def entries(self) -> Sequence[Entry]:
        return tuple(self._entries)
