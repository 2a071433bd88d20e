"""The type and lint gates, run by ``make test`` (issue 10 item 14).

ruff with the rule set of pyproject.toml ([tool.ruff]) over the whole tree,
mypy strict on gwasl/model and gwasl/rules and clean on the rest of gwasl
([tool.mypy]).  Each runs as a subprocess from the test venv, so CI's
``make test`` runs exactly what a developer runs by hand.  Each gate is also
run on a planted defect, so it cannot pass by checking nothing.

mypy runs incrementally with its cache in the checkout (``.mypy_cache``, as by
hand) and starts in the background as soon as the suite is collected
(tests/conftest.py), so its minute on a fresh clone overlaps the rest of the
suite; the planted defects run on a copy of that warm cache, which also shows
that a warm cache still reports a new module's errors and a changed module's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from testsupport import (
    FILE_SECONDS,
    MYPY_CACHE,
    MYPY_RUN,
    ROOT,
    SHARED_GAMES,
    WAIT_FOR_CHILDREN,
    Background,
    child_result,
    child_started,
    children_folder,
    mypy_command,
    rewrite_tests_backwards,
    scheduled_first,
)

BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    exe = BIN / name
    if not exe.exists():  # a venv made another way: fall back to PATH, but say so if absent
        found = shutil.which(name)
        assert found, f"{name} is not installed: it is in the test extras (pip install -e '.[test]')"
        return found
    return str(exe)


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    r = _run(_tool("ruff"), "check", "--no-cache", "--output-format", "concise", ".")
    assert r.returncode == 0, f"ruff check (rules in pyproject.toml [tool.ruff]):\n{r.stdout}{r.stderr}"


def test_ruff_gate_catches_a_planted_defect(tmp_path: Path) -> None:
    bad = tmp_path / "planted.py"
    bad.write_text("import os\nfrom typing import List\n\nx: List[int] = []\n", encoding="utf-8")
    r = _run(_tool("ruff"), "check", "--no-cache", "--output-format", "concise", "--config", str(ROOT / "pyproject.toml"), str(bad))
    assert r.returncode == 1
    assert "F401" in r.stdout and "UP035" in r.stdout


@pytest.fixture(scope="session")
def mypy_gate(pytestconfig: pytest.Config) -> subprocess.CompletedProcess[str]:
    """The gate's run of mypy over gwasl: the one conftest.py started when the suite was collected
    (by the controller of an xdist run; started here if it was not), waited for."""
    folder = children_folder(pytestconfig)
    if folder is not None and child_started(folder / "mypy"):
        return child_result(folder / "mypy")
    run = pytestconfig.stash.get(MYPY_RUN, None)
    if run is None:
        run = pytestconfig.stash[MYPY_RUN] = Background(mypy_command("-p", "gwasl"), cwd=ROOT)
    return run.result()


@pytest.mark.parametrize("package", ["gwasl"])
def test_mypy_is_clean(package: str, mypy_gate: subprocess.CompletedProcess[str]) -> None:
    """Strict on gwasl.model and gwasl.rules, the default checks on every other package ([tool.mypy])."""
    assert mypy_gate.args[-2:] == ["-p", package]
    assert mypy_gate.returncode == 0, f"mypy (settings in pyproject.toml [tool.mypy]):\n{mypy_gate.stdout}{mypy_gate.stderr}"


def _copy_with_warm_cache(tmp_path: Path) -> Path:
    """gwasl, pyproject.toml and the gate's mypy cache copied to ``tmp_path`` (the source tree is
    untouched); the copy's cache dir."""
    shutil.copytree(ROOT / "gwasl", tmp_path / "gwasl", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(MYPY_CACHE, tmp_path / ".mypy_cache")  # copy2: the cache's own times kept, so it stays warm
    return tmp_path / ".mypy_cache"


@pytest.mark.parametrize(
    ("module", "code"),
    [
        # strict packages: an unannotated function is an error
        ("gwasl.rules._planted", "def f(x):\n    return x\n"),
        ("gwasl.model._planted", "def f(x):\n    return x\n"),
        # every other package: a type error is an error
        ("gwasl.ui._planted", "def f() -> int:\n    return 'x'\n"),
        ("gwasl.commands._planted", "def f() -> int:\n    return 'x'\n"),
    ],
)
def test_mypy_gate_catches_a_planted_defect(tmp_path: Path, module: str, code: str, mypy_gate: subprocess.CompletedProcess[str]) -> None:
    """The same settings and command on a copy of the package with one planted module."""
    cache = _copy_with_warm_cache(tmp_path)
    (tmp_path / Path(*module.split("."))).with_suffix(".py").write_text(code, encoding="utf-8")
    r = _run(*mypy_command("-m", module, cache_dir=cache), cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "_planted.py" in r.stdout


def test_mypy_gate_with_a_warm_cache_sees_an_edited_module_and_reports_it_again(
        tmp_path: Path, mypy_gate: subprocess.CompletedProcess[str]) -> None:
    """The cache is no blind spot: a module it holds as checked, then edited to hold a type error,
    fails the gate's own command (``-p gwasl``), and fails it again on the next run, when the cache
    has seen the edit."""
    cache = _copy_with_warm_cache(tmp_path)
    common = tmp_path / "gwasl" / "commands" / "common.py"
    common.write_text(common.read_text(encoding="utf-8") + "\n\ndef _planted() -> int:\n    return 'x'\n", encoding="utf-8")
    for _ in range(2):
        r = _run(*mypy_command("-p", "gwasl", cache_dir=cache), cwd=tmp_path)
        assert r.returncode == 1, r.stdout + r.stderr
        assert "gwasl/commands/common.py" in r.stdout and "return-value" in r.stdout, r.stdout


def test_make_test_runs_the_slow_tests_too() -> None:
    """Tests marked ``slow`` (the longest hypothesis runs, the wheel install, the benchmark smoke runs)
    are marked to be found, not skipped: neither ``make test`` nor pytest's defaults deselect them."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    addopts = next(line for line in pyproject.splitlines() if line.startswith("addopts"))
    for text in (recipe.replace("python -m pytest", "python"), addopts):
        assert "-m " not in text and "not slow" not in text and "slow" not in text, text
    marked = [p for p in (ROOT / "tests").rglob("test_*.py") if "pytest.mark.slow" in p.read_text(encoding="utf-8")]
    assert len(marked) >= 4


def test_make_test_runs_the_suite_on_both_cores() -> None:
    """``make test`` runs pytest-xdist's workers, each test file whole on one of them (module fixtures
    and a file's shared games built once; tests/conftest.py makes each file a group), and the test
    extras install it."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "-n $(TEST_WORKERS)" in recipe and "--dist loadfile" in recipe, recipe
    assert re.search(r"^TEST_WORKERS \?= 2$", makefile, re.M)
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]["test"]
    assert any(req.startswith("pytest-xdist") for req in extras), extras
    assert all((ROOT / file).is_file() for file in SHARED_GAMES), SHARED_GAMES  # a moved file leaves its group


def test_the_workers_start_the_longest_files_first() -> None:
    """The scheduler of ``make test`` (tests/conftest.py) starts the longest files first and the
    files that wait for a background child last, so that the two workers end together; each
    measured file still exists (a moved file would fall back to its count of tests)."""
    longest = max(FILE_SECONDS, key=FILE_SECONDS.__getitem__)
    group = next(iter(SHARED_GAMES.values()))
    units = [
        ("tests/test_gates.py", {"g": False}),
        ("tests/a_short_file.py", {str(i): False for i in range(3)}),
        ("tests/many_quick_tests.py", {str(i): False for i in range(300)}),
        (group, {str(i): False for i in range(5)}),
        (longest, {"one": False}),
    ]
    order = [scope for scope, _ in scheduled_first(units)]
    assert order == [longest, group, "tests/many_quick_tests.py", "tests/a_short_file.py", "tests/test_gates.py"], order
    assert all((ROOT / file).is_file() for file in (*FILE_SECONDS, *WAIT_FOR_CHILDREN)), FILE_SECONDS


def test_the_second_workers_rewritten_tests_are_what_pytest_reads(pytestconfig: pytest.Config) -> None:
    """testsupport.rewrite_tests_backwards (the second xdist worker, before it collects) leaves for
    each test file the code pytest's own import hook would make of it, in the file the hook reads."""
    if sys.dont_write_bytecode:
        pytest.skip("Python writes no bytecode here (PYTHONDONTWRITEBYTECODE): nothing is written")
    from _pytest.assertion import rewrite

    rewrite_tests_backwards(pytestconfig)
    for fn in (ROOT / "tests" / "test_gates.py", ROOT / "tests" / "games" / "aslgw" / "test_playthrough.py"):
        pyc = rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)
        cached = rewrite._read_pyc(fn, pyc)
        assert cached is not None, pyc
        assert cached.co_code == rewrite._rewrite_test(fn, pytestconfig)[1].co_code, fn
