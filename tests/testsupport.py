"""Paths shared by tests: the repository, the shared spec, bundled scenarios (import as testsupport)."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCENARIOS = ROOT / "gwasl" / "scenarios"
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


class Background:
    """A command started at once in a process of its own, its output kept in files (a full pipe
    would stall it); :meth:`result` waits for it.  Lets a slow gate (mypy) run while the rest of
    the suite runs, on the machine's other core."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.argv = argv
        self._out = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed by result or stop)
        self._err = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self._proc = subprocess.Popen(argv, cwd=cwd, stdout=self._out, stderr=self._err, text=True)
        self._done: subprocess.CompletedProcess[str] | None = None

    def result(self, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        if self._done is None:
            code = self._proc.wait(timeout)
            self._out.seek(0)
            self._err.seek(0)
            self._done = subprocess.CompletedProcess(self.argv, code, self._out.read(), self._err.read())
            self._out.close()
            self._err.close()
        return self._done

    def stop(self) -> None:
        """End it if it still runs (a session stopped early by -x or ^C)."""
        if self._done is None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._out.close()
        self._err.close()


#: mypy's cache in the checkout, where a plain ``mypy`` run by hand keeps it: warm after the first
#: run, and every error is still reported on every run (tests/test_gates.py plants errors under a
#: warm cache to show it).
MYPY_CACHE = ROOT / ".mypy_cache"


def mypy_command(*targets: str, cache_dir: Path = MYPY_CACHE) -> list[str]:
    """mypy as the gate of tests/test_gates.py runs it: the settings of pyproject.toml [tool.mypy],
    incremental, from the test venv."""
    return [sys.executable, "-m", "mypy", "--cache-dir", str(cache_dir), *targets]


#: where conftest.py keeps the gate's mypy run, started as soon as the suite is collected
MYPY_RUN = pytest.StashKey[Background]()
