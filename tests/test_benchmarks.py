"""Every benchmark runs (issue 10 item 13): ``make bench`` runs each script of
benchmarks/ with a main block; here each runs with ``--quick`` (small maps,
few repeats), so a benchmark that needs arguments or crashes fails ``make test``.
Nothing here measures or asserts speed (benchmarks/ prints the figures).

All of them run one after the other in one child process (a fresh interpreter
started once, as ``python -m benchmarks.NAME --quick`` each as ``__main__``), so
the suite pays for one start-up and one import of gwasl, not one per script; the
child starts as soon as the suite is collected (tests/conftest.py) and runs while
the other tests do."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from testsupport import BENCH_RUN, bench_scripts, child_result, child_started, children_folder, start_quick_benchmarks


def test_the_benchmarks_make_bench_runs():
    assert {"los", "ui", "fog_shift_view"} <= set(bench_scripts())
    assert "maps" not in bench_scripts()  # a helper: random maps, no figures of its own


@pytest.fixture(scope="module")
def quick_runs(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    """What each benchmark printed with ``--quick`` (the child conftest.py started when the suite
    was collected, by the controller of an xdist run; started here if it was not), and the child's
    own output (for a crash)."""
    folder = children_folder(pytestconfig)
    if folder is not None and child_started(folder / "bench"):
        r, out = child_result(folder / "bench", timeout=1200), folder / "bench" / "runs.json"
    else:
        started = pytestconfig.stash.get(BENCH_RUN, None)
        if started is None:
            out = tmp_path_factory.mktemp("bench") / "runs.json"
            started = pytestconfig.stash[BENCH_RUN] = (start_quick_benchmarks(out), out)
        child, out = started
        r = child.result(timeout=1200)
    runs = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    return runs, f"child exit {r.returncode}\n{r.stdout}{r.stderr}"


@pytest.mark.slow
@pytest.mark.parametrize("module", bench_scripts())
def test_benchmark_runs_and_prints_figures(module: str, quick_runs: tuple[dict[str, Any], str]):
    runs, child = quick_runs
    assert module in runs, f"benchmarks.{module} did not run: {child}"
    run = runs[module]
    assert run["code"] == 0, run["stdout"] + run["stderr"]
    assert re.search(r"\d+(\.\d+)? (ms|us|s)\b", run["stdout"]), run["stdout"]
