"""``gwasl validate FILE [--json]`` (CONTRACTS 4): exit 0 valid, 2 invalid."""

from __future__ import annotations

import argparse

from gwasl.commands.common import print_json
from gwasl.model.scenario_io import Finding, ScenarioFormatError, ScenarioReadError, load_scenario
from gwasl.rules.validate import ValidationReport, validate_scenario


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="load and check a scenario", description="Load a scenario file and check it against the format and the rules.")
    p.add_argument("file", help="scenario JSON file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def validate_file(path: str) -> ValidationReport:
    """Validate a file; unreadable or malformed files give an invalid report."""
    try:
        scenario = load_scenario(path)
    except ScenarioReadError as e:
        return ValidationReport((Finding("$", e.message),), ())
    except ScenarioFormatError as e:
        return ValidationReport(tuple(e.findings), ())
    return validate_scenario(scenario)


def run(args: argparse.Namespace) -> int:
    report = validate_file(args.file)
    if args.json:
        print_json(report.as_json())
    else:
        if report.valid:
            print(f"{args.file}: valid" + (f", {len(report.warnings)} warning(s)" if report.warnings else ""))
        else:
            print(f"{args.file}: invalid, {len(report.errors)} error(s)")
        for f in report.errors:
            print(f"  error   {f}")
        for f in report.warnings:
            print(f"  warning {f}")
    return 0 if report.valid else 2
