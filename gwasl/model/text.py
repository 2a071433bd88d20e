"""Text from a file, shown safely (issue 17.2, 17.3): escaped, quoted and cut for a message.

Its own small module (it needs only :mod:`re`): every command prints through it
(``gwasl.commands.common.safe_output``), so a command that reads no scenario does not
load the scenario reader to print a line (issue 23 item 8).  :mod:`gwasl.model.scenario_io`
offers the same functions under its name, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["QUOTE_LIMIT", "escape_controls", "quote", "quote_list", "shorten"]


# C0/C1 controls and DEL, bidi overrides and isolates, line/paragraph
# separators, and lone surrogates: characters that steer a terminal or
# reorder what is shown, or cannot be encoded at all.
_CONTROL_RE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_one(m: re.Match[str]) -> str:
    ch = m.group()
    if ch in _NAMED:
        return _NAMED[ch]
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def escape_controls(text: str) -> str:
    r"""``text`` with every control character written as an escape, so it can be shown anywhere.

    >>> escape_controls("\x1b]0;pwned\x07 title\u202e")
    '\\x1b]0;pwned\\x07 title\\u202e'
    >>> escape_controls("Bois des Caures, 21 février")
    'Bois des Caures, 21 février'
    """
    return _CONTROL_RE.sub(_escape_one, text)


#: Longest value quoted whole in a message; longer ones are cut and their length given.
QUOTE_LIMIT = 40


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A value from a file, quoted for a message: escaped, and cut with its length when long.

    >>> quote("K10"), quote(12)
    ("'K10'", '12')
    >>> quote("S" * 10_000_000)
    "'SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS...' (10,000,000 characters)"
    """
    if not isinstance(value, str):
        return shorten(repr(value), limit)
    if len(value) <= limit:
        return f"'{escape_controls(value)}'"
    return f"'{escape_controls(value[:limit])}...' ({len(value):,} characters)"


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Text from a file for a message, unquoted (an id): escaped, cut with its length when long.

    >>> shorten("G1-L"), shorten("x" * 100, 5)
    ('G1-L', 'xxxxx... (100 characters)')
    """
    if len(text) <= limit:
        return escape_controls(text)
    return f"{escape_controls(text[:limit])}... ({len(text):,} characters)"


def quote_list(values: Iterable[str], most: int = 10) -> str:
    """Values from a file for a message, each quoted (:func:`quote`), at most ``most`` of them.

    >>> quote_list(["german", "french"]), quote_list([])
    ("'german', 'french'", 'none defined')
    """
    vals = list(values)
    if not vals:
        return "none defined"
    shown = ", ".join(quote(v) for v in vals[:most])
    return shown + (f" and {len(vals) - most} more" if len(vals) > most else "")
