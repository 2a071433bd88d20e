"""``gwasl los-map FILE FROM [--from-in POS] [--json]`` (CONTRACTS 4): every hex FROM sees."""

from __future__ import annotations

import argparse

from gwasl.commands.common import UsageError, load_or_fail, parse_hex, print_json
from gwasl.commands.los import POS_HELP, parse_position
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("los-map", help="every hex a hex sees", description="Every hex that FROM sees (targets at ground level), FROM included.")
    p.add_argument("file", help="scenario JSON file")
    p.add_argument("from_hex", metavar="FROM", help="observer's hex, e.g. C2")
    p.add_argument("--from-in", type=parse_position, default=Position.GROUND, metavar="POS", help=f"observer's position: {POS_HELP}")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gwasl.rules.los import LosError, LosIndex, OutlineError  # numpy: only for the commands that need it

    s = load_or_fail(args.file)
    a = parse_hex(s, args.from_hex, "FROM")
    try:
        seen = LosIndex(s).visible_from(a, args.from_in)
    except (LosError, OutlineError) as e:
        raise UsageError(str(e)) from None
    ordered = [h for h in s.map if h in seen]  # column by column, as the map reads
    if args.json:
        print_json({"from": a.label, "visible": [h.label for h in ordered]})
        return 0
    m = s.map
    print(f"{a} ({args.from_in.value}) sees {len(ordered)} of {m.columns * m.rows} hexes  (@ observer, o seen, . not seen)")
    for row in range(m.rows):
        cells = []
        for col in range(m.columns):
            h = Hex.from_offset(col, row)
            cells.append("@" if h == a else ("o" if h in seen else "."))
        print(f"{row + 1:>4} " + "".join(cells))
    return 0
