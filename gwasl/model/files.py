"""Reading and writing user files so that nothing hostile is read and nothing is lost.

One module for every file gwasl reads or writes (scenario files, PNG/SVG
exports, the game store's files next), so each follows the same rules
(issues 17 and 18; docs/format/files.md says them for users):

Reading (:func:`read_regular_file`): only a regular file is opened (a FIFO,
a device such as ``/dev/zero``, a folder or a socket is refused without
reading a byte), at most :data:`MAX_FILE_BYTES`, and the caller gets the
bytes together with the file's :class:`FileIdentity` (mtime, size, hash) so
a later save can tell whether someone else changed the file meanwhile.

Writing (:class:`atomic_target`): the new content goes to a temporary file
beside the target, which replaces the target only once it is complete and
checked, so a failure or a kill never leaves a partial file.  Besides:

- a symbolic link is written through: its target is replaced, the link stays;
- anything that is not a regular file (FIFO, device, folder) is never replaced;
- an existing file that is not of the format being written (``kind``) is not
  replaced unless the caller forces it (``render --force``);
- a read-only file is not replaced unless the caller says the user agreed;
- with ``expect``, a file that changed on disk since it was read is not
  replaced (two editors on one file);
- a new file gets the mode any program would give it (0666 less the umask),
  an existing file keeps its mode (and, where allowed, its owner and group);
- stale temporary files of an earlier save of the same file that was killed
  are removed;
- a file with several hard links is replaced by a new file (only the name
  written to gets the new content): :attr:`atomic_target.notes` says so.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass as standard_dataclass
from dataclasses import field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError

__all__ = [
    "MAX_FILE_BYTES",
    "FileIdentity",
    "FileContent",
    "FileError",
    "FileReadError",
    "NotRegularFileError",
    "FileTooLargeError",
    "ReadOnlyFileError",
    "FileChangedError",
    "WrongFormatError",
    "FileWriteError",
    "OUTPUT_KINDS",
    "read_regular_file",
    "check_regular_file",
    "file_identity",
    "identity_of_bytes",
    "content_kind",
    "file_head",
    "check_output_path",
    "atomic_target",
]

_SNIFF_HEAD = 16

#: Largest file gwasl reads: a scenario is kilobytes, the largest legal map
#: with every hex described is a few megabytes.
MAX_FILE_BYTES = 64 * 1024 * 1024

#: Temporary files left by a save whose process no longer runs are removed at
#: once; those of an unknown process (older gwasl versions, another machine
#: on a shared folder) only once they are this old, so a save in progress
#: elsewhere is never disturbed.
STALE_AFTER_S = 3600.0


# Frozen dataclasses whose generated methods are compiled together and cached
# (FrozenBatch: what every command pays at start-up, issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass


@dataclass(frozen=True, slots=True)
class FileIdentity:
    """What a file was when gwasl read or wrote it: enough to notice any later change."""

    mtime_ns: int
    size: int
    sha256: str


@dataclass(frozen=True, slots=True)
class FileContent:
    """The bytes of a file and its identity at the time they were read."""

    data: bytes
    identity: FileIdentity


class FileError(GwaslError):
    """A file cannot be read or written as asked; ``str()`` is one line naming the file."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class FileReadError(FileError):
    """The file is missing, unreadable or failed while being read."""


class NotRegularFileError(FileError):
    """A folder, FIFO, device or socket where a regular file is needed (never read or replaced)."""


class FileTooLargeError(FileError):
    """The file is larger than :data:`MAX_FILE_BYTES` (or the caller's limit)."""


class ReadOnlyFileError(FileError):
    """The file to replace is read-only; replace it only if the user agrees (``allow_read_only``)."""


class FileChangedError(FileError):
    """The file changed on disk since it was read or saved (another program or editor wrote it)."""


class WrongFormatError(FileError):
    """The existing file is not of the format being written (e.g. a scenario where a PNG goes)."""


class FileWriteError(FileError):
    """Writing failed (full disk, no permission...); the existing file is unchanged."""


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def _kind_of_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _not_regular(path: str | os.PathLike[str], mode: int) -> NotRegularFileError:
    return NotRegularFileError(path, f"is {_kind_of_mode(mode)}, not a regular file")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def identity_of_bytes(st: os.stat_result, data: bytes) -> FileIdentity:
    return FileIdentity(st.st_mtime_ns, len(data), _sha256(data))


def _read_error(path: str | os.PathLike[str], e: OSError) -> FileReadError:
    if isinstance(e, FileNotFoundError):
        return FileReadError(path, "no such file")
    if isinstance(e, PermissionError):
        return FileReadError(path, "permission denied")
    return FileReadError(path, f"cannot be read ({e.strerror or e})")


def _too_large(path: str | os.PathLike[str], size: int, max_bytes: int) -> FileTooLargeError:
    return FileTooLargeError(path, f"is {size:,} bytes; gwasl reads files of at most {max_bytes:,} bytes")


def check_regular_file(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> os.stat_result:
    """The status of ``path`` if it is a regular file of at most ``max_bytes``, without opening it.

    For files read by another library (the game store's SQLite): the same refusals
    as :func:`read_regular_file`, :class:`NotRegularFileError`,
    :class:`FileTooLargeError` or :class:`FileReadError`.

    >>> check_regular_file("/dev/zero")
    Traceback (most recent call last):
    ...
    gwasl.model.files.NotRegularFileError: /dev/zero: is a character device, not a regular file
    """
    try:
        st = os.stat(path)
    except OSError as e:
        raise _read_error(path, e) from None
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, st.st_mode)
    if st.st_size > max_bytes:
        raise _too_large(path, st.st_size, max_bytes)
    return st


def read_regular_file(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> FileContent:
    """The bytes of ``path`` and its identity, if it is a regular file of at most ``max_bytes``.

    Raises :class:`NotRegularFileError` (folder, FIFO, ``/dev/zero``...)
    before reading anything, :class:`FileTooLargeError`, or
    :class:`FileReadError`; never blocks on a FIFO and never reads more
    than ``max_bytes + 1`` bytes.

    >>> read_regular_file("/dev/zero")
    Traceback (most recent call last):
    ...
    gwasl.model.files.NotRegularFileError: /dev/zero: is a character device, not a regular file
    """
    check_regular_file(path, max_bytes)
    try:
        # O_NONBLOCK: should the path become a FIFO between stat and open, open does not wait for a writer.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
    except OSError as e:
        raise _read_error(path, e) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:  # it grew while we read
            raise FileTooLargeError(path, f"is over {max_bytes:,} bytes; gwasl reads files of at most {max_bytes:,} bytes")
    except OSError as e:
        raise FileReadError(path, f"cannot be read ({e.strerror or e})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    return FileContent(data, identity_of_bytes(st, data))


def file_identity(path: str | os.PathLike[str]) -> FileIdentity | None:
    """The identity of the file at ``path`` now, or None when nothing is there.

    Raises :class:`NotRegularFileError` for a folder, FIFO or device and
    :class:`FileReadError` when the file cannot be read.  Any size (it hashes
    in chunks): it also serves for pictures gwasl wrote.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise FileReadError(path, f"cannot be read ({e.strerror or e})") from None
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, st.st_mode)
    h = hashlib.sha256()
    size = 0
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            while chunk := fh.read(1 << 20):
                h.update(chunk)
                size += len(chunk)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise FileReadError(path, f"cannot be read ({e.strerror or e})") from None
    return FileIdentity(st.st_mtime_ns, size, h.hexdigest())


def file_head(path: str | os.PathLike[str], size: int = _SNIFF_HEAD) -> bytes | None:
    """The first ``size`` bytes of ``path`` if it is a readable regular file, else None.

    For telling file kinds apart (a game file from a scenario) without ever
    blocking on a FIFO or reading a device.

    >>> file_head("/dev/zero") is None
    True
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, size)
    except OSError:
        return None
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------
# Output formats: what an existing file looks like, so an export never replaces a scenario
# ---------------------------------------------------------------------------
def _is_png(head: bytes) -> bool:
    return head.startswith(b"\x89PNG\r\n\x1a\n")


def _is_svg(head: bytes) -> bool:
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return (text.startswith(b"<?xml") or text.startswith(b"<svg") or text.startswith(b"<!--")) and b"<svg" in head.lower()


def _is_sqlite(head: bytes) -> bool:
    return head.startswith(b"SQLite format 3\x00")


def _is_json_object(head: bytes) -> bool:
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


#: Formats gwasl writes, each with a test of a file's first bytes and its name in messages.
OUTPUT_KINDS: dict[str, tuple[Callable[[bytes], bool], str]] = {
    "png": (_is_png, "a PNG picture"),
    "svg": (_is_svg, "an SVG drawing"),
    "sqlite": (_is_sqlite, "an SQLite database"),
    "json": (_is_json_object, "a JSON file"),
}

_SNIFF_BYTES = 4096


def content_kind(head: bytes) -> str:
    """A short description of what a file starting with ``head`` is, for messages.

    >>> content_kind(b'{"format": "gwasl-scenario/1"}')
    'a JSON file'
    >>> content_kind(b"")
    'an empty file'
    """
    if not head:
        return "an empty file"
    for test, name in OUTPUT_KINDS.values():
        if test(head):
            return name
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(head) - 4:  # a character cut at the end of the sample is still text
            return "a binary file"
    return "a text file"


def _resolve(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` must change: symbolic links followed to their target."""
    p = Path(path)
    if not os.path.islink(p):
        return p
    real = Path(os.path.realpath(p))
    if os.path.islink(real):  # realpath stops on a loop
        raise FileWriteError(path, "is a symbolic link that loops; nothing was written")
    return real


def check_output_path(path: str | os.PathLike[str], kind: str | None = None, force: bool = False) -> Path:
    """Where writing ``path`` will go (its symlink target), if gwasl may replace what is there.

    Refuses (always) a folder, FIFO, device or socket: :class:`NotRegularFileError`;
    and (unless ``force``) an existing non-empty file that is not of ``kind``
    (a key of :data:`OUTPUT_KINDS`): :class:`WrongFormatError`.
    """
    target = _resolve(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as e:
        raise FileWriteError(path, f"cannot be checked ({e.strerror or e}); nothing was written") from None
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFileError(path, f"is {_kind_of_mode(st.st_mode)}, not a regular file; gwasl never replaces it")
    if kind is not None and not force and st.st_size > 0:
        test, name = OUTPUT_KINDS[kind]
        try:
            with open(target, "rb") as fh:
                head = fh.read(_SNIFF_BYTES)
        except OSError:
            head = b""  # unreadable: the write itself will say why
        if head and not test(head):
            raise WrongFormatError(path, f"exists and is {content_kind(head)}, not {name}; it was not replaced")
    return target


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------
def _read_only(st: os.stat_result, path: Path) -> bool:
    """The file's own permissions forbid writing it (checked for root too, as editors do)."""
    if hasattr(os, "geteuid"):
        uid = os.geteuid()
        if st.st_uid == uid:
            bit = stat.S_IWUSR
        elif st.st_gid in (os.getegid(), *os.getgroups()):
            bit = stat.S_IWGRP
        else:
            bit = stat.S_IWOTH
        if uid == 0:  # root may write anything; the owner's bit says whether it is meant to be
            bit = stat.S_IWUSR
        if not st.st_mode & bit:
            return True
    return not os.access(path, os.W_OK)


def _tmp_pattern(name: str, suffix: str) -> re.Pattern[str]:
    # Ours: .NAME.PID.RANDOM8SUFFIX; older gwasl (tempfile.mkstemp): .NAME.RANDOM8SUFFIX
    return re.compile(r"\." + re.escape(name) + r"\.(?:(\d+)\.)?[a-z0-9_]{8}" + re.escape(suffix))


def _pid_running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: leave its file alone
    return True


def remove_stale_temporaries(target: str | os.PathLike[str], suffix: str = ".tmp") -> list[Path]:
    """Remove our own temporary files of ``target`` left by saves that were killed; return them.

    Only regular files owned by this user and named as :class:`atomic_target`
    names them are touched; one whose process still runs is kept.
    """
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    pattern = _tmp_pattern(target.name, suffix)
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for n in names:
        m = pattern.fullmatch(n)
        if m is None:
            continue
        p = folder / n
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "geteuid") and st.st_uid != os.geteuid()):
            continue
        pid = m.group(1)
        stale = (not _pid_running(int(pid))) if pid is not None else (now - st.st_mtime > STALE_AFTER_S)
        if pid is not None and now - st.st_mtime > 24 * STALE_AFTER_S:
            stale = True  # the pid was reused long since
        if stale:
            try:
                p.unlink()
                removed.append(p)
            except OSError:
                pass
    return removed


def _new_file_mode() -> int:
    """The mode a new file gets: 0666 less the umask, read without changing it (Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return -1  # unknown: keep what os.open(..., 0o666) gave, which the umask already shaped


@standard_dataclass
class atomic_target:
    """A temporary path beside ``target`` that replaces it on a normal exit, checks first.

    ``with atomic_target(path) as tmp:`` the body writes the whole new content
    to ``tmp``; on exit ``verify(tmp)`` runs (if given), and only then does
    ``tmp`` replace the file.  If anything raises, the temporary file is
    removed and ``target`` is left exactly as it was; the exception
    propagates (a :class:`FileError` for the checks below, the body's own
    errors as they are), so each caller turns it into its own message.

    Checks before anything is written: the target (symlinks followed) is a
    regular file or absent; it is of ``kind`` unless ``force``; it is not
    read-only unless ``allow_read_only``; it still has identity ``expect``
    when given (checked again just before the replace).  After the exit,
    ``written`` is the file that was replaced (the symlink's target),
    ``identity`` its new identity and ``notes`` what the user should know
    (a hard link that could not be kept).

    >>> import tempfile as _t, pathlib as _p
    >>> d = _p.Path(_t.mkdtemp()); f = d / "a.txt"; _ = f.write_text("old")
    >>> try:
    ...     with atomic_target(f) as tmp:
    ...         _ = tmp.write_text("half")
    ...         raise OSError("disk full")
    ... except OSError:
    ...     pass
    >>> f.read_text(), sorted(p.name for p in d.iterdir())
    ('old', ['a.txt'])
    """

    target: str | os.PathLike[str]
    suffix: str = ".tmp"
    kind: str | None = None
    force: bool = False
    allow_read_only: bool = False
    expect: FileIdentity | None = None
    verify: Callable[[Path], None] | None = None
    written: Path | None = field(default=None, init=False)
    identity: FileIdentity | None = field(default=None, init=False)
    notes: list[str] = field(default_factory=list, init=False)
    _tmp: Path | None = field(default=None, init=False, repr=False)
    _old: os.stat_result | None = field(default=None, init=False, repr=False)

    def __enter__(self) -> Path:
        real = check_output_path(self.target, self.kind, self.force)
        try:
            old: os.stat_result | None = os.stat(real)
        except FileNotFoundError:
            old = None
        except OSError as e:
            raise FileWriteError(self.target, f"cannot be checked ({e.strerror or e}); nothing was written") from None
        if old is not None and not self.allow_read_only and _read_only(old, real):
            raise ReadOnlyFileError(self.target, "is read-only; it was not replaced")
        self._check_unchanged(real)
        folder = real.parent if str(real.parent) else Path(".")
        remove_stale_temporaries(real, self.suffix)
        while True:
            tmp = folder / f".{real.name}.{os.getpid()}.{os.urandom(4).hex()}{self.suffix}"  # secrets.token_hex(4), without importing secrets
            try:
                # 0o666: the kernel applies the umask (and default ACLs) as for any new file.
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            except FileExistsError:
                continue
            except OSError as e:
                raise FileWriteError(self.target, f"cannot be written ({e.strerror or e}); nothing was changed") from None
            os.close(fd)
            break
        self._tmp, self._old, self.written = tmp, old, real
        return tmp

    def _check_unchanged(self, real: Path) -> None:
        if self.expect is None:
            return
        now = file_identity(real)
        if now is not None and now.sha256 != self.expect.sha256:
            raise FileChangedError(self.target, "was changed on disk since it was opened or last saved; it was not replaced")

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        tmp, real, old = self._tmp, self.written, self._old
        assert tmp is not None and real is not None
        try:
            if et is None:
                try:
                    self._finish(tmp, real, old)
                except OSError as e:
                    raise FileWriteError(self.target, f"could not be written ({e.strerror or e}); the existing file is unchanged") from None
                tmp = None
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    tmp.unlink()

    def _finish(self, tmp: Path, real: Path, old: os.stat_result | None) -> None:
        if old is not None:  # keep the file's mode, and its owner and group where allowed
            os.chmod(tmp, stat.S_IMODE(old.st_mode))
            if hasattr(os, "chown"):
                try:
                    os.chown(tmp, old.st_uid, old.st_gid)
                except OSError:
                    with contextlib.suppress(OSError):
                        os.chown(tmp, -1, old.st_gid)
        else:
            mode = _new_file_mode()
            if mode >= 0:  # a writer (Qt) may have recreated the file with its own mode
                os.chmod(tmp, mode)
        try:
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        except OSError as e:
            if e.errno not in (errno.EINVAL, errno.EROFS):
                raise
        if self.verify is not None:
            self.verify(tmp)
        self._check_unchanged(real)
        if old is not None and old.st_nlink > 1:
            others = old.st_nlink - 1
            self.notes.append(
                f"{real} had {others} other hard link{'s' if others > 1 else ''}; the saved file is a new file "
                f"under this name only, the other name{'s' if others > 1 else ''} still show{'' if others > 1 else 's'} the previous content"
            )
        # Taken from the temporary file: the rename keeps content and mtime, and
        # a write by someone else right after ours must not count as ours.
        self.identity = file_identity(tmp)
        os.replace(tmp, real)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
