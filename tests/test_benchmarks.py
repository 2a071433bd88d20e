"""Every benchmark runs (issue 10 item 13): ``make bench`` runs each script of
benchmarks/ with a main block; here each runs with ``--quick`` (small maps,
few repeats), so a benchmark that needs arguments or crashes fails ``make test``.
Nothing here measures or asserts speed (benchmarks/ prints the figures).

All of them run one after the other in one child process (a fresh interpreter
started once, as ``python -m benchmarks.NAME --quick`` each as ``__main__``), so
the suite pays for one start-up and one import of gwasl, not one per script."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from testsupport import ROOT

# The same rule as the Makefile's bench target.
MAIN = re.compile(r'^if __name__ == "__main__":', re.M)

# Runs each benchmark named on its command line as ``python -m benchmarks.NAME --quick`` would
# (runpy, as __main__, with that argv), its stdout and stderr kept apart; writes what each printed
# and its exit status to the file named first, after each one, so a crash keeps the others' output.
_RUN_EACH = r"""
import contextlib, io, json, runpy, sys, traceback
out, results = sys.argv[1], {}
for name in sys.argv[2:]:
    stdout, stderr, code = io.StringIO(), io.StringIO(), 0
    sys.argv = [name, "--quick"]
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            runpy.run_module("benchmarks." + name, run_name="__main__", alter_sys=True)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    results[name] = {"code": code, "stdout": stdout.getvalue(), "stderr": stderr.getvalue()}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(results, f)
"""


def bench_scripts() -> list[str]:
    return sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if MAIN.search(p.read_text(encoding="utf-8")))


def test_the_benchmarks_make_bench_runs():
    assert {"los", "ui", "fog_shift_view"} <= set(bench_scripts())
    assert "maps" not in bench_scripts()  # a helper: random maps, no figures of its own


@pytest.fixture(scope="module")
def quick_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    """What each benchmark printed with ``--quick``, and the child's own output (for a crash)."""
    out = Path(tmp_path_factory.mktemp("bench")) / "runs.json"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    # ui last: the only one that makes a QApplication, which then lives until the child ends
    names = sorted(bench_scripts(), key=lambda n: (n == "ui", n))
    r = subprocess.run([sys.executable, "-c", _RUN_EACH, str(out), *names], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=1200)
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
