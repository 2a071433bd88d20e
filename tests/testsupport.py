"""Paths shared by tests: the repository, the shared spec, bundled scenarios (import as testsupport)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCENARIOS = ROOT / "scenarios"
# The schema is a shared contract; a copy ships in docs/ so tests run without ../shared.
SCHEMA_PATH = next(p for p in (SHARED / "spec" / "scenario-v1.schema.json", ROOT / "docs" / "format" / "scenario-v1.schema.json") if p.exists())
EXAMPLE_PATH = SCENARIOS / "bois-des-caures-1916.json"


def bundled_scenarios() -> list[Path]:
    return sorted(SCENARIOS.glob("*.json"))


@dataclass(frozen=True)
class CoverageRow:
    """One row of a rules-coverage table (docs/rules-coverage*.md)."""

    key: str
    implementation: str
    tests: str
    validate: str


def parse_coverage_rows(text: str, row_key: "re.Pattern[str]") -> list[CoverageRow]:
    """The rows ``| key | subject | implementation | tests | validate |`` whose key matches ``row_key``."""
    out = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not row_key.match(cells[0]):
            continue
        out.append(CoverageRow(cells[0], cells[2], cells[3], cells[4]))
    return out
