"""``gwasl render FILE --out PNG [--view VIEWER] [--width PX]`` (CONTRACTS 4).

Draws the map headless with the editor's own scene code; the offscreen Qt
platform is forced, so it works without a display.  ``--out`` is never a
folder, FIFO or device, and an existing file there that is not a PNG is
replaced only with ``--force`` (issue 18.1); a symlink is written through.
"""

from __future__ import annotations

import argparse

from gwasl.commands.common import UsageError, load_or_fail, parse_side
from gwasl.model.files import WrongFormatError, file_head
from gwasl.rules.fog.fields import FogFormatError, require_fog_fields


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw the map to a PNG (headless)", description="Draw a scenario's map as the editor shows it, headless, to a PNG file.")
    p.add_argument("file", help="scenario JSON file, or a game file (CONTRACTS 5: its current position)")
    p.add_argument("--out", required=True, metavar="PNG", help="PNG file to write")
    p.add_argument("--view", metavar="VIEWER",
                   help="'omniscient' (a scenario's default) or a side id: the map as that side may see it; "
                        "for a game also 'player' (its default): what the person at the desk may see "
                        "('omniscient' and a side id REVEAL SECRETS: what a game's --secret keeps from the player)")
    p.add_argument("--width", type=int, metavar="PX",
                   help="image width in pixels (default: twice the map's natural size, at most 16 megapixels)")
    p.add_argument("--force", action="store_true",
                   help="replace PNG even if it is an existing file that is not a PNG picture (never a folder, FIFO or device)")
    p.set_defaults(func=run)


def _is_game_file(path: str) -> bool:
    # Never open() the path here: a FIFO would block (issue 17.4); the loaders say what is wrong.
    return file_head(path) == b"SQLite format 3\x00"


def _run_game(args: argparse.Namespace) -> int:
    from gwasl.engine.game import PLAYER, GameError
    from gwasl.store.gamefile import GameFileError
    from gwasl.ui.play.render import render_game_png
    from gwasl.ui.render import RenderError

    if args.width is not None and args.width < 16:
        raise UsageError(f"--width {args.width}: choose 16 pixels or more")
    try:
        render_game_png(args.file, args.out, args.view or PLAYER, args.width, force=args.force)
    except (GameFileError, GameError) as e:
        raise UsageError(str(e)) from None
    except RenderError as e:
        hint = " (--force replaces it)" if isinstance(e.file_error, WrongFormatError) else ""
        raise UsageError(f"{e}{hint}") from None
    return 0


def run(args: argparse.Namespace) -> int:
    if _is_game_file(args.file):
        return _run_game(args)
    args.view = args.view or "omniscient"
    scenario = load_or_fail(args.file)
    try:
        require_fog_fields(scenario, args.file)  # a malformed hidden value is a format error, never drawn
    except FogFormatError as e:
        raise UsageError(str(e)) from None
    if args.view != "omniscient":
        parse_side(scenario, args.view)
    if args.width is not None and args.width < 16:
        raise UsageError(f"--width {args.width}: choose 16 pixels or more")
    from gwasl.ui.drawable import ViewUnavailableError  # Qt only inside the command (layering)
    from gwasl.ui.render import RenderError, render_png

    try:
        render_png(scenario, args.out, args.view, args.width, force=args.force)
    except RenderError as e:
        hint = " (--force replaces it)" if isinstance(e.file_error, WrongFormatError) else ""
        raise UsageError(f"{e}{hint}") from None
    except ViewUnavailableError as e:
        raise UsageError(str(e)) from None
    return 0
