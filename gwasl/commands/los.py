"""``gwasl los FILE FROM TO [--from-in POS] [--to-in POS] [--json]`` (CONTRACTS 4)."""

from __future__ import annotations

import argparse

from gwasl.commands.common import UsageError, load_or_fail, parse_hex, print_json
from gwasl.model.scenario import Position

POSITIONS = [p.value for p in Position]


def position_words(p: Position) -> str:
    """The words the editor shows for a position ("deep trench crest" for ``deep_trench_crest``)."""
    return p.value.replace("_", " ")


def parse_position(text: str) -> Position:
    """A ``--from-in``/``--to-in`` value: the schema's ``in`` value or the editor's words for it.

    ``deep_trench``, ``"deep trench"`` and ``Deep-Trench`` all name the same
    position, so what a user reads in the editor works on the command line.

    >>> parse_position("deep trench"), parse_position("DEEP_TRENCH_CREST")
    (<Position.DEEP_TRENCH: 'deep_trench'>, <Position.DEEP_TRENCH_CREST: 'deep_trench_crest'>)
    """
    key = "_".join(text.replace("-", " ").replace("_", " ").lower().split())
    try:
        return Position(key)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a position; use one of: {', '.join(repr(position_words(p)) for p in Position)}"
        ) from None


POS_HELP = "one of " + ", ".join(f'"{position_words(p)}"' for p in Position) + " (or the schema's value, e.g. deep_trench)"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("los", help="line of sight between two hexes", description="Line of sight between two hexes (CONTRACTS 3).")
    p.add_argument("file", help="scenario JSON file")
    p.add_argument("from_hex", metavar="FROM", help="observer's hex, e.g. C2")
    p.add_argument("to_hex", metavar="TO", help="target's hex")
    p.add_argument("--from-in", type=parse_position, default=Position.GROUND, metavar="POS", help=f"observer's position: {POS_HELP}")
    p.add_argument("--to-in", type=parse_position, default=Position.GROUND, metavar="POS", help="target's position, as --from-in")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gwasl.rules.los import LosError, OutlineError, los  # numpy: only for the commands that need it

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
    print(f"LOS {a} ({args.from_in.value}) -> {b} ({args.to_in.value}): {status}{extra}")
    print(f"  why: {r.reason}")
    print(f"  hexes crossed: {' '.join(h.label for h in r.hexes)}")
    return 0
