"""Paths shared by tests: the repository, the source texts, bundled scenarios (import as testsupport)."""

from __future__ import annotations

import ast
import importlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "gwasl" / "scenarios"
# The scenario schema (docs/contracts.md section 2) lives in the repository.
SCHEMA_PATH = ROOT / "docs" / "format" / "scenario-v1.schema.json"

# The one lookup of the source documents outside the repository (docs/architecture.md,
# "Where each source document lives"): the rule texts are not redistributed with gwasl, so
# the tests that compare data with them read them from the folder GWASL_SOURCES names, or
# from a folder "shared" beside the checkout (or beside the folder of its worktrees), and
# skip when they are absent.
SOURCE_FOLDERS = tuple(Path(p) for p in (os.environ.get("GWASL_SOURCES"),) if p) + (
    ROOT.parent / "shared", ROOT.parent.parent / "shared")


def source_text(name: str) -> Path:
    """The source document ``name`` (e.g. ``seeds/004_4371414167e1669c.txt``)
    from the first of SOURCE_FOLDERS that holds it; a path that does not exist when none does."""
    found = [folder / name for folder in SOURCE_FOLDERS if (folder / name).exists()]
    return found[0] if found else SOURCE_FOLDERS[0] / name
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


def parse_coverage_rows(text: str, row_key: re.Pattern[str]) -> list[CoverageRow]:
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


def cites_rule_number(rule: str, name: str, doc: str) -> bool:
    """Whether a test's docstring cites ``rule`` (e.g. "2.1.3", not "2.1.31"), or
    its name does (``..._2_1_3_...``)."""
    in_doc = re.search(r"(?<![\d.])" + re.escape(rule) + r"(?!\.?\d)", doc) is not None
    in_name = re.search(r"(?:^|_)" + rule.replace(".", "_") + r"(?:_|$)", name) is not None
    return in_doc or in_name


def module_test_docstrings(path: Path) -> dict[str, str]:
    """Each top-level test function of a test file, with its docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name: ast.get_docstring(n) or "" for n in tree.body if isinstance(n, ast.FunctionDef)}


def resolve(module: str, name: str):
    """``module:name`` (dotted name allowed, e.g. ``Class.method``) as an object."""
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj
