"""The one root of every error gwasl raises on purpose (issue 23 item 5).

Each failure is its own subclass of :class:`GwaslError`, documented where a
rule function raises it; catching ``GwaslError`` catches every refusal gwasl
means to make (bad input, an illegal action, a table that does not validate),
and nothing else.  It is a ``ValueError`` because every one of them is a value
the caller handed in, or read from a file, that gwasl will not take: code that
already catches ``ValueError`` around a parse keeps working.  The command line
turns it into one line on stderr and exit status 2.

>>> class NotAHexError(GwaslError):
...     '''A label that names no hex.'''
>>> isinstance(NotAHexError("Z99"), ValueError)
True
"""

from __future__ import annotations

__all__ = ["GwaslError"]


class GwaslError(ValueError):
    """Base of every error gwasl raises on purpose; each failure is its own subclass."""
