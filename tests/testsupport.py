"""Paths shared by tests: the repository, the shared spec, bundled scenarios (import as testsupport)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCENARIOS = ROOT / "scenarios"
# The schema is a shared contract; a copy ships in docs/ so tests run without ../shared.
SCHEMA_PATH = next(p for p in (SHARED / "spec" / "scenario-v1.schema.json", ROOT / "docs" / "format" / "scenario-v1.schema.json") if p.exists())
EXAMPLE_PATH = SCENARIOS / "bois-des-caures-1916.json"


def bundled_scenarios() -> list[Path]:
    return sorted(SCENARIOS.glob("*.json"))
