"""``gwasl render FILE --out PNG [--view VIEWER] [--width PX]`` (CONTRACTS 4).

Draws the map headless with the editor's own scene code; the offscreen Qt
platform is forced, so it works without a display.
"""

from __future__ import annotations

import argparse

from gwasl.cli import UsageError
from gwasl.commands.common import load_or_fail, parse_side
from gwasl.rules.fog.fields import FogFormatError, require_fog_fields


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw the map to a PNG (headless)", description="Draw a scenario's map as the editor shows it, headless, to a PNG file.")
    p.add_argument("file", help="scenario JSON file")
    p.add_argument("--out", required=True, metavar="PNG", help="PNG file to write")
    p.add_argument("--view", default="omniscient", metavar="VIEWER", help="'omniscient' (default) or a side id: the map as that side may see it")
    p.add_argument("--width", type=int, metavar="PX", help="image width in pixels (default: twice the map's natural size)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    scenario = load_or_fail(args.file)
    try:
        require_fog_fields(scenario, args.file)  # a malformed hidden value is a format error, never drawn
    except FogFormatError as e:
        raise UsageError(str(e)) from None
    if args.view != "omniscient":
        parse_side(scenario, args.view)
    if args.width is not None and not (16 <= args.width <= 20000):
        raise UsageError(f"--width {args.width}: choose between 16 and 20000 pixels")
    from gwasl.ui.drawable import ViewUnavailableError  # Qt only inside the command (layering)
    from gwasl.ui.render import RenderError, render_png

    try:
        render_png(scenario, args.out, args.view, args.width)
    except (RenderError, ViewUnavailableError) as e:
        raise UsageError(str(e)) from None
    return 0
