"""Shared fixtures: the scenario schema and the shared example as a document; the mypy gate and
the benchmarks' smoke runs started in the background as soon as the suite is collected."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from testsupport import BENCH_RUN, EXAMPLE_PATH, MYPY_RUN, ROOT, SCHEMA_PATH, Background, mypy_command, start_quick_benchmarks

# Timing varies on shared CI machines; a property test fails on its property, never on a clock.
settings.register_profile("gwasl", deadline=None)
settings.load_profile("gwasl")


@pytest.fixture(scope="session")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture()
def example_doc() -> dict:
    return json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))


def _selected(session: pytest.Session, filename: str, test: str) -> bool:
    """Whether a test of that name in that file is to run (not in a --collect-only session)."""
    if session.config.option.collectonly:
        return False
    return any(item.path.name == filename and item.name.startswith(test) for item in session.items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Two slow children that need nothing from the suite start as soon as it is collected, each
    in its own process, so that they run on the other core while the suite runs; their tests wait
    for them and fail on what they report: mypy over gwasl (a minute cold) when
    tests/test_gates.py::test_mypy_is_clean is to run, the benchmarks' ``--quick`` runs when
    tests/test_benchmarks.py::test_benchmark_runs_and_prints_figures is."""
    if _selected(session, "test_gates.py", "test_mypy_is_clean"):
        session.config.stash[MYPY_RUN] = Background(mypy_command("-p", "gwasl"), cwd=ROOT)
    if _selected(session, "test_benchmarks.py", "test_benchmark_runs_and_prints_figures"):
        out = Path(tempfile.mkdtemp(prefix="gwasl-bench-")) / "runs.json"
        session.config.stash[BENCH_RUN] = (start_quick_benchmarks(out), out)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(MYPY_RUN, None)
    if run is not None:
        run.stop()
    bench = config.stash.get(BENCH_RUN, None)
    if bench is not None:
        bench[0].stop()
        shutil.rmtree(bench[1].parent, ignore_errors=True)
