"""Helpers shared by the command-line commands."""

from __future__ import annotations

import json
import sys
from typing import Any

from gwasl.cli import UsageError
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import Scenario
from gwasl.model.scenario_io import ScenarioError, ScenarioFormatError, load_scenario


def load_or_fail(path: str) -> Scenario:
    """Load a scenario or raise :class:`UsageError` with a readable message."""
    try:
        return load_scenario(path)
    except ScenarioFormatError as e:
        # One line (CONTRACTS 4): the first problem, and where to see them all.
        first = e.findings[0] if e.findings else "not a scenario"
        more = f" (and {len(e.findings) - 1} more; 'gwasl validate {e.source}' lists them)" if len(e.findings) > 1 else ""
        raise UsageError(f"{e.source}: not a valid scenario: {first}{more}") from None
    except ScenarioError as e:
        raise UsageError(str(e)) from None


def parse_hex(scenario: Scenario, label: str, what: str = "hex") -> Hex:
    """A hex of the scenario's map, or :class:`UsageError` naming the bad label."""
    try:
        h = Hex.from_label(label)
    except HexLabelError as e:
        raise UsageError(f"{what} {label!r}: {e}") from None
    if not scenario.map.contains(h):
        raise UsageError(f"{what} {label} is outside the {scenario.map.columns} x {scenario.map.rows} map")
    return h


def parse_side(scenario: Scenario, side: str) -> str:
    if side not in scenario.sides:
        raise UsageError(f"side {side!r} is not a side of this scenario ({', '.join(scenario.sides)})")
    return side


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
