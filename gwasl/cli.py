"""The ``gwasl`` command line (CONTRACTS 4).

Each command lives in its own module under :mod:`gwasl.commands` and
registers itself through ``register(subparsers)``; this module only parses
arguments, dispatches, and turns every failure into one clear line on
stderr with exit status 2 (bad input) -- never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from gwasl import __version__
from gwasl.commands.common import safe_output
from gwasl.model.errors import GwaslError

# One module per command; each defines register(subparsers) which sets func=.
COMMAND_MODULES: tuple[str, ...] = (
    "gwasl.commands.validate",
    "gwasl.commands.los",
    "gwasl.commands.los_map",
    "gwasl.commands.command",
    "gwasl.commands.shift_preview",
    "gwasl.commands.render",
    "gwasl.commands.edit",
    "gwasl.commands.game",
    "gwasl.commands.library",
    "gwasl.commands.play",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own errors: exit 2, one line (CONTRACTS 4)
        print(f"{self.prog}: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gwasl", description="Editor and solitaire player for ASL: The Great War.")
    parser.add_argument("--version", action="version", version=f"gwasl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Every line a command prints, errors included, has its control characters
    # escaped and is cut when endless: text from a file never drives the terminal (issue 17.2).
    with safe_output():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except GwaslError as e:  # every refusal gwasl makes on purpose (UsageError among them): exit 2, one line
        print(f"gwasl {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gwasl: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # last resort: one line, never a traceback (GWASL_DEBUG=1 shows it)
        if os.environ.get("GWASL_DEBUG"):
            raise
        print(f"gwasl {args.command}: internal error: {type(e).__name__}: {e} (set GWASL_DEBUG=1 for details)", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
