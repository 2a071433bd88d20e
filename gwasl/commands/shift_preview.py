"""``gwasl shift-preview FILE HEX_A HEX_B --phase PH --phasing SIDE [--prior-shifts N]`` (CONTRACTS 4).

O'Leary 2.5: eligibility, the DRM with causes, and the exact chance of each
band of the shift table (all 36 outcomes, never sampled).
"""

from __future__ import annotations

import argparse

from gwasl.commands.common import UsageError, load_or_fail, parse_hex, parse_side, print_json
from gwasl.model.phases import Phase, PhaseError
from gwasl.rules.fog.fields import FogFormatError, require_fog_fields


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("shift-preview", help="O'Leary shift between two hidden stacks, with exact odds",
                       description="Eligibility, DRM and exact odds of an O'Leary 2.5 shift between the hidden "
                                   "stacks of the shifting side in two hexes.")
    p.add_argument("file", help="scenario JSON file")
    p.add_argument("hex_a", metavar="HEX_A")
    p.add_argument("hex_b", metavar="HEX_B")
    p.add_argument("--phase", required=True, metavar="PH", help=" ".join(x.value for x in Phase))
    p.add_argument("--phasing", required=True, metavar="SIDE", help="the phasing side")
    p.add_argument("--prior-shifts", type=int, default=0, metavar="N",
                   help="earlier shifts of the shifting side this phase (each +1, O'Leary 2.5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # LOS (numpy) only for the commands that need it: `gwasl` builds every command's parser.
    from gwasl.rules.fog.preview import PreviewError, preview_shift
    from gwasl.rules.los import LosError
    from gwasl.rules.los_geometry import OutlineError

    scenario = load_or_fail(args.file)
    try:
        require_fog_fields(scenario, args.file)
    except FogFormatError as e:
        raise UsageError(str(e)) from None
    try:
        phase = Phase.parse(args.phase)
    except PhaseError as e:
        raise UsageError(str(e)) from None
    phasing = parse_side(scenario, args.phasing)
    a = parse_hex(scenario, args.hex_a, "HEX_A")
    b = parse_hex(scenario, args.hex_b, "HEX_B")
    if args.prior_shifts < 0:
        raise UsageError(f"--prior-shifts must be 0 or more, not {args.prior_shifts}")
    try:
        result = preview_shift(scenario, a, b, phase, phasing, args.prior_shifts)
    except PreviewError as e:
        raise UsageError(str(e)) from None
    except (LosError, OutlineError) as e:  # a map whose LOS cannot be computed (bad outline ...)
        raise UsageError(f"{args.file}: {e}") from None
    out = result.as_json()
    if args.json:
        print_json(out)
        return 0
    print(f"shift {a} <-> {b} ({result.plan.kind.value}, {result.plan.side}): "
          + ("eligible" if out["eligible"] else f"not eligible: {out['reason']}"))
    for m in out["modifiers"]:
        print(f"  {m['value']:+d}  {m['cause']}")
    print(f"  DRM {out['drm']:+d}")
    for k, v in out["p"].items():
        print(f"  {k:12s} {v:.4f}")
    return 0
