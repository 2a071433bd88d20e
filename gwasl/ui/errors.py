"""What went wrong with a file, in words a player understands (issue 26 item 11).

A saved game opened as a scenario is not "not UTF-8 text": it is a saved game, and the
player window opens it.  A scenario given to the player is a scenario to start a game
from.  A folder that cannot be written is read-only, full or forbidden, not "[Errno 30]"
with the name of a temporary file nobody asked for.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

__all__ = ["is_game_file", "is_scenario_file", "save_error_text"]

#: the first bytes of every SQLite database, hence of every gwasl game file
SQLITE_HEADER = b"SQLite format 3\x00"
#: a scenario is read whole only to tell what it is: files bigger than this are not looked into
MAX_PEEK = 64 * 1024 * 1024


def _regular(path: str | os.PathLike[str]) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)  # never open a FIFO or a device to look at it
    except OSError:
        return False


def is_game_file(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a gwasl saved game (an SQLite file gwasl can open)."""
    if not _regular(path):
        return False
    try:
        with open(path, "rb") as f:
            if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return False
    except OSError:
        return False
    from gwasl.store.gamefile import GameFileError, open_game

    try:
        open_game(path).close()
    except GameFileError:
        return False
    return True


def is_scenario_file(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` holds a gwasl scenario (its ``format`` says so), good or not."""
    if not _regular(path) or os.path.getsize(path) > MAX_PEEK:
        return False
    try:
        data = json.loads(Path(path).read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and str(data.get("format", "")).startswith("gwasl-scenario")


_WHY = {
    errno.EROFS: "the folder is on a read-only disk",
    errno.EACCES: "you may not write in that folder",
    errno.EPERM: "you may not write in that folder",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "your disk quota is used up",
    errno.ENOENT: "the folder does not exist",
    errno.ENOTDIR: "a file stands where the folder should be",
    errno.ENAMETOOLONG: "the name is too long",
}


def save_error_text(target: str | os.PathLike[str], e: BaseException) -> str:
    """Why a new game could not be saved as ``target``, in words: which folder, what is
    wrong with it, what to do (no error number, no temporary file's name)."""
    folder = Path(target).parent
    code = getattr(e, "errno", None)
    why = _WHY.get(code) if isinstance(code, int) else None
    if why is None:
        text = str(e)
        if "Read-only file system" in text:
            why = _WHY[errno.EROFS]
        elif "Permission denied" in text:
            why = _WHY[errno.EACCES]
        elif "No space left" in text:
            why = _WHY[errno.ENOSPC]
    if why is None:
        return str(e)
    return f"Cannot save the game in {folder}: {why}. Choose a folder you can write in under \"Save the game as\"."
