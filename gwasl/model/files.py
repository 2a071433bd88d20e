"""Writing a file so that a failure never damages the one already there.

Scenario saves and the editor's PNG/SVG exports all write through
:func:`atomic_target`: the new content goes to a temporary file in the same
folder, which replaces the target only once it is complete.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = ["atomic_target"]


@contextmanager
def atomic_target(target: str | os.PathLike[str], suffix: str = ".tmp") -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on a normal exit it replaces ``target``.

    If the body raises (or the replace fails), the temporary file is removed
    and ``target`` is left exactly as it was; the exception propagates, so each
    caller turns it into its own error class.

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
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=folder)
    os.close(fd)
    path = Path(name)
    tmp: Path | None = path  # None once it has replaced the target
    try:
        yield path
        os.replace(path, target)
        tmp = None
    finally:
        if tmp is not None:
            with suppress(OSError):
                tmp.unlink()
