"""Every benchmark runs (issue 10 item 13): ``make bench`` runs each script of
benchmarks/ with a main block; here each runs with ``--quick`` (small maps,
few repeats), so a benchmark that needs arguments or crashes fails ``make test``.
Nothing here measures or asserts speed (benchmarks/ prints the figures)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from testsupport import ROOT

# The same rule as the Makefile's bench target.
MAIN = re.compile(r'^if __name__ == "__main__":', re.M)


def bench_scripts() -> list[str]:
    return sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if MAIN.search(p.read_text(encoding="utf-8")))


def test_the_benchmarks_make_bench_runs():
    assert {"los", "ui", "fog_shift_view"} <= set(bench_scripts())
    assert "maps" not in bench_scripts()  # a helper: random maps, no figures of its own


@pytest.mark.slow
@pytest.mark.parametrize("module", bench_scripts())
def test_benchmark_runs_and_prints_figures(module: str):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-m", f"benchmarks.{module}", "--quick"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"\d+(\.\d+)? (ms|us|s)\b", r.stdout), r.stdout
