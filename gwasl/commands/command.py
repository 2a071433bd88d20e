"""``gwasl command FILE [--side SIDE] [--json]`` (CONTRACTS 4): ASLGW 1.3 command status."""

from __future__ import annotations

import argparse
import sys

from gwasl.commands.common import UsageError, load_or_fail, parse_side, print_json
from gwasl.model.scenario import Unit
from gwasl.rules.command import CommandError, command_status


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "command",
        help="command status of every squad, half-squad and crew",
        description="ASLGW 1.3 command radius of every leader and In Command status of every squad, half-squad and crew.",
    )
    p.add_argument("file", help="scenario JSON file")
    p.add_argument("--side", help="only this side (a side id of the file)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    s = load_or_fail(args.file)
    side = parse_side(s, args.side) if args.side is not None else None
    try:
        report = command_status(s, side)
    except CommandError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print_json(report.as_json())
        return 0
    by_id: dict[str, Unit] = {}
    for u in s.units:
        by_id.setdefault(u.id, u)
    lines = [f"{s.title} ({s.date.isoformat()}): command radius"]
    for lid, r in report.radius.items():
        u = by_id[lid]
        lines.append(f"  {lid:<12} {u.kind.value:<7} {u.hex.label:<5} radius {r}")
    lines.append("units:")
    for uid, st in report.units.items():
        u = by_id[uid]
        flag = "In Command" if st.in_command else "Out of Command"
        by = f" by {st.commanded_by}" if st.commanded_by else ""
        pen = ", No Leader Penalty" if st.no_leader_penalty else ""
        drm = f", free: NTC +{st.ntc_drm}" if st.ntc_drm else ""
        lines.append(f"  {uid:<12} {u.kind.value:<10} {u.hex.label:<5} {flag}{by}{pen}{drm}")
        lines.append(f"      {st.reason}")
    # One write, built in one pass (a dict of units, not a search per unit: linear in the units).
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
