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
from typing import Any, NoReturn

from gwasl import __version__
from gwasl.commands.common import safe_output
from gwasl.model.errors import GwaslError

#: Every command: its name, the module that registers it (``register(subparsers)``, which
#: sets func=) and the one line ``gwasl --help`` shows for it.  A command's module is
#: imported only when that command runs (its rules, SQLite, Qt...): ``gwasl --help`` and
#: each command pay only for what they use (issue 23 item 8).  The line must be the one
#: the module's own parser declares (tests/commands/test_import_cost.py checks it).
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("gwasl.commands.validate", "load and check a scenario"),
    "los": ("gwasl.commands.los", "line of sight between two hexes"),
    "los-map": ("gwasl.commands.los_map", "every hex a hex sees"),
    "command": ("gwasl.commands.command", "command status of every squad, half-squad and crew"),
    "shift-preview": ("gwasl.commands.shift_preview", "O'Leary shift between two hidden stacks, with exact odds"),
    "render": ("gwasl.commands.render", "draw the map to a PNG (headless)"),
    "edit": ("gwasl.commands.edit", "open the scenario editor"),
    "game": ("gwasl.commands.game", "play a game: new, legal, act, show, log, replay, undo, odds, suggest, batch"),
    "library": ("gwasl.commands.library", "the scenario library: add a folder, search"),
    "play": ("gwasl.commands.play", "open the player window"),
}
#: One module per command, in the order ``gwasl --help`` lists them.
COMMAND_MODULES: tuple[str, ...] = tuple(module for module, _ in COMMANDS.values())


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own errors: exit 2, one line (CONTRACTS 4)
        print(f"{self.prog}: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


class _LazyCommands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The commands' subparsers: each listed by its name and help line, its module
    imported and registered only when the command is the one asked for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._modules: dict[str, str] = {}  # command -> its module, until it is registered

    def add_lazy(self, name: str, module: str, helptext: str) -> None:
        self.add_parser(name, help=helptext)
        self._modules[name] = module

    def load(self, name: str) -> None:
        """Register command ``name`` from its module, in its place in the listing."""
        module = self._modules.pop(name, None)
        if module is None:
            return
        where = next(i for i, a in enumerate(self._choices_actions) if a.dest == name)
        del self._choices_actions[where]
        del self._name_parser_map[name]
        importlib.import_module(module).register(self)
        self._choices_actions.insert(where, self._choices_actions.pop())

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if values:
            self.load(values[0])
        super().__call__(parser, namespace, values, option_string)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gwasl", description="Editor and solitaire player for ASL: The Great War.")
    parser.add_argument("--version", action="version", version=f"gwasl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, action=_LazyCommands)
    assert isinstance(sub, _LazyCommands)
    for name, (module, helptext) in COMMANDS.items():
        sub.add_lazy(name, module, helptext)
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
