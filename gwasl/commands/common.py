"""Helpers shared by the command-line commands.

Everything a command prints goes through :func:`safe_output` (``gwasl.cli``
puts it around every command): text from a file (titles, ids, side names)
can never reach the terminal as control sequences (an ``ESC ]0;`` retitles
the terminal, ``ESC [2J`` clears it) nor as an endless line (issue 17.2,
17.3).  Control characters are written as escapes (``\\x1b``), a line longer
than :data:`MAX_LINE` characters is cut with the count of what was left out,
and :func:`print_json` writes exact JSON in which every such character is a
``\\uXXXX`` escape (the same JSON value, safe on a terminal).
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from gwasl.model.errors import GwaslError
from gwasl.model.text import escape_controls, quote, quote_list

if TYPE_CHECKING:
    from gwasl.model.hexgrid import Hex
    from gwasl.model.scenario import Scenario

__all__ = ["MAX_LINE", "UsageError", "escape_controls", "load_or_fail", "parse_hex", "parse_side", "print_json", "quote", "quote_list", "safe_output"]

#: Longest line of text output; the rest of a longer line is left out and counted.
MAX_LINE = 2000


class UsageError(GwaslError):
    """Bad command-line input (unknown hex, unknown side...): exit 2 with the message (CONTRACTS 4)."""


class _SafeText(io.TextIOBase):
    """A text stream that escapes control characters and cuts long lines, line by line."""

    def __init__(self, raw: TextIO) -> None:
        super().__init__()
        self.raw = raw
        self._column = 0  # characters written on the current line
        self._left_out = 0  # characters of the current line left out

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.raw, "encoding", None) or "utf-8"

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:  # for child processes that inherit the stream
        return self.raw.fileno()

    def write(self, s: str) -> int:
        parts = s.split("\n")
        for i, part in enumerate(parts):
            if i:
                self._end_line()
                self._raw_write("\n")
            if part:
                # a printable part has nothing to escape (every character escape_controls
                # escapes is one str.isprintable refuses): the scenario reader is not loaded for it
                shown = part if part.isprintable() else _escape(part)
                room = MAX_LINE - self._column
                if room > 0:
                    self._raw_write(shown[:room])
                    self._column += min(room, len(shown))
                self._left_out += max(0, len(shown) - max(room, 0))
        return len(s)

    def _end_line(self) -> None:
        if self._left_out:
            self._raw_write(f"... ({self._left_out:,} more characters)")
        self._column = self._left_out = 0

    def _raw_write(self, s: str) -> None:
        try:
            self.raw.write(s)
        except UnicodeEncodeError:  # a terminal that cannot show some letter: its escape instead
            enc = self.encoding
            self.raw.write(s.encode(enc, "backslashreplace").decode(enc))

    def flush(self) -> None:
        self.raw.flush()

    def close_line(self) -> None:
        """Say what was left out of an unfinished last line."""
        self._end_line()


def _escape(text: str) -> str:
    return escape_controls(text)


@contextmanager
def safe_output() -> Iterator[None]:
    """Within, everything printed to stdout and stderr is escaped and cut (see the module doc)."""
    out, err = sys.stdout, sys.stderr
    safe_out, safe_err = _SafeText(out), _SafeText(err)
    sys.stdout, sys.stderr = safe_out, safe_err  # type: ignore[assignment]
    try:
        yield
    finally:
        for s in (safe_out, safe_err):
            s.close_line()
        sys.stdout, sys.stderr = out, err


# Characters JSON may carry raw that a terminal would act on or that cannot be
# encoded: written as \uXXXX escapes, which stand for the same JSON value.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def _plain(o: Any) -> Any:
    """A read-only mapping or a set a view may hold, as JSON holds them (never an internal error)."""
    if isinstance(o, Mapping):
        return dict(o)
    if isinstance(o, set | frozenset):
        try:
            return sorted(o)
        except TypeError:
            return list(o)
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


def _json_text(obj: Any) -> str:
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(obj, indent=2, ensure_ascii=False, default=_plain))


def print_json(obj: Any) -> None:
    """Print ``obj`` as one JSON object: exact (never cut), with every control character escaped."""
    out = sys.stdout.raw if isinstance(sys.stdout, _SafeText) else sys.stdout
    text = _json_text(obj)
    try:
        out.write(text + "\n")
    except UnicodeEncodeError:
        out.write(json.dumps(obj, indent=2, ensure_ascii=True, default=_plain) + "\n")


def load_or_fail(path: str) -> Scenario:
    """Load a scenario or raise :class:`UsageError` with a readable message."""
    from gwasl.model.scenario_io import ScenarioError, ScenarioFormatError, load_scenario

    try:
        return load_scenario(path)
    except ScenarioFormatError as e:
        # One line (CONTRACTS 4): the first problem, and where to see them all.
        first = e.findings[0] if e.findings else "not a scenario"
        more = f" (and {len(e.findings) - 1} more; 'gwasl validate {e.source}' lists them)" if len(e.findings) > 1 else ""
        raise UsageError(f"{e.source}: not a valid scenario: {first}{more}") from None
    except ScenarioError as e:
        raise UsageError(str(e)) from None


def parse_hex(scenario: Scenario, label: str, what: str = "hex") -> Hex:
    """A hex of the scenario's map, or :class:`UsageError` naming the bad label."""
    from gwasl.model.hexgrid import Hex, HexLabelError

    try:
        h = Hex.from_label(label)
    except HexLabelError as e:
        raise UsageError(f"{what} {quote(label)}: {e}") from None
    if not scenario.map.contains(h):
        raise UsageError(f"{what} {label} is outside the {scenario.map.columns} x {scenario.map.rows} map")
    return h


def parse_side(scenario: Scenario, side: str) -> str:
    if side not in scenario.sides:
        raise UsageError(f"side {quote(side)} is not a side of this scenario ({quote_list(scenario.sides)})")
    return side
