"""``gwasl los FILE FROM TO [--from-in POS] [--to-in POS] [--json]`` (CONTRACTS 4)."""

from __future__ import annotations

import argparse

from gwasl.cli import UsageError
from gwasl.commands.common import load_or_fail, parse_hex, print_json
from gwasl.model.scenario import Position
from gwasl.rules.los import LosError, OutlineError, los

POSITIONS = [p.value for p in Position]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("los", help="line of sight between two hexes", description="Line of sight between two hexes (CONTRACTS 3).")
    p.add_argument("file", help="scenario JSON file")
    p.add_argument("from_hex", metavar="FROM", help="observer's hex, e.g. C2")
    p.add_argument("to_hex", metavar="TO", help="target's hex")
    p.add_argument("--from-in", choices=POSITIONS, default="ground", metavar="POS", help=f"observer's position: {', '.join(POSITIONS)}")
    p.add_argument("--to-in", choices=POSITIONS, default="ground", metavar="POS", help="target's position")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    s = load_or_fail(args.file)
    a = parse_hex(s, args.from_hex, "FROM")
    b = parse_hex(s, args.to_hex, "TO")
    try:
        r = los(s, a, b, args.from_in, args.to_in)
    except (LosError, OutlineError) as e:
        raise UsageError(str(e)) from None
    if args.json:
        print_json(r.as_json())
        return 0
    status = "clear" if r.clear else f"blocked by {r.blocked_by}"
    extra = f", {r.hindrances} hindrance(s), DRM +{r.hindrance_drm}" if r.hindrances else ""
    print(f"LOS {a} ({args.from_in}) -> {b} ({args.to_in}): {status}{extra}")
    print(f"  why: {r.reason}")
    print(f"  hexes crossed: {' '.join(h.label for h in r.hexes)}")
    return 0
