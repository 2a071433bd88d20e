"""Paths shared by tests: the repository, the source texts, bundled scenarios (import as testsupport)."""

from __future__ import annotations

import ast
import functools
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

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


def inline_local_refs(schema: dict) -> dict:
    """``schema`` with each local ``{"$ref": "#/$defs/NAME"}`` replaced by the definition it names
    (``allOf`` [the definition, the rest] where the reference has siblings, as JSON Schema 2020-12
    reads them) and ``$defs`` dropped: the same verdicts, without a reference lookup at every hex
    label of every document (jsonschema's registry look-ups were a third of the scenario fuzz's
    validation time).  A reference that is not local, or a definition that refers to itself,
    raises ValueError (it cannot be inlined)."""
    defs = schema.get("$defs", {})

    def inline(node: object, seen: tuple[str, ...]) -> object:
        if isinstance(node, list):
            return [inline(v, seen) for v in node]
        if not isinstance(node, dict):
            return node
        out = {k: inline(v, seen) for k, v in node.items() if k not in ("$ref", "$defs")}
        if "$ref" not in node:
            return out
        ref = node["$ref"]
        name = ref.removeprefix("#/$defs/")
        if not ref.startswith("#/$defs/") or name not in defs or name in seen:
            raise ValueError(f"cannot inline the reference {ref!r}")
        target = inline(defs[name], (*seen, name))
        return {"allOf": [target, out]} if out else target

    return inline(schema, ())  # type: ignore[return-value]


def scenario_validator():
    """The scenario schema's jsonschema validator (Draft 2020-12, dates checked), its local
    references inlined (:func:`inline_local_refs`); built once per process."""
    return _scenario_validator()


@functools.cache
def _scenario_validator():
    import jsonschema

    schema = inline_local_refs(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def bundled_scenarios() -> list[Path]:
    return sorted(SCENARIOS.glob("*.json"))


@dataclass(frozen=True)
class CoverageRow:
    """One row of a rules-coverage table (docs/rules-coverage*.md)."""

    key: str
    implementation: str
    tests: str
    validate: str
    #: the modules of gwasl/ that apply the rule in play (``games/aslgw/actions/rout.py``), or
    #: "— why none"; empty in a table without the column
    in_play: str = ""


def parse_coverage_rows(text: str, row_key: re.Pattern[str]) -> list[CoverageRow]:
    """The rows ``| key | subject | implementation | tests | validate |`` whose key matches
    ``row_key``, and those of a table with an in-play column after the implementation
    (``| key | subject | implementation | in play | tests | validate |``)."""
    out = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) not in (5, 6) or not row_key.match(cells[0]):
            continue
        if len(cells) == 6:
            out.append(CoverageRow(cells[0], cells[2], cells[4], cells[5], cells[3]))
        else:
            out.append(CoverageRow(cells[0], cells[2], cells[3], cells[4]))
    return out


#: a module named in an in-play cell, relative to gwasl/
IN_PLAY_MODULE = re.compile(r"`((?:[\w]+/)*[\w]+\.py)`")


def module_docstrings(path: Path) -> list[str]:
    """Every docstring of a module: its own, its classes', its functions' and methods'."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [d for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and (d := ast.get_docstring(n))]


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
    """A command started at once in a process of its own, its output kept in files of ``folder``
    (a full pipe would stall it): ``argv.json``, ``stdout``, ``stderr``, and ``rc`` written last,
    when it has ended; :meth:`result` waits for it.  Lets a slow child (the mypy gate, the
    benchmarks' smoke runs) run while the rest of the suite runs, on the machine's other core.
    Because its result is files, another process can wait for it too (:func:`child_result`):
    under pytest-xdist the controller starts the child and the worker that runs its test reads it."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str] | None = None, folder: Path | None = None) -> None:
        self.argv = argv
        self._own_folder = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="gwasl-child-")) if folder is None else folder
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "argv.json").write_text(json.dumps(argv), encoding="utf-8")
        with open(self.folder / "stdout", "w", encoding="utf-8") as out, open(self.folder / "stderr", "w", encoding="utf-8") as err:
            self._proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err, text=True)
        # the exit status is written by a thread that waits for the child, so that a process
        # that did not start it can tell it has ended
        self._recorder = threading.Thread(target=self._record, name="gwasl-child-" + Path(argv[0]).name, daemon=True)
        self._recorder.start()

    def _record(self) -> None:
        code = self._proc.wait()
        try:
            part = self.folder / "rc.part"
            part.write_text(str(code), encoding="utf-8")
            os.replace(part, self.folder / "rc")
        except OSError:  # the folder removed by stop(): nobody waits any more
            pass

    def result(self, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        self._proc.wait(timeout)
        self._recorder.join()
        return child_result(self.folder, timeout)

    def stop(self) -> None:
        """End it if it still runs (a session stopped early by -x or ^C); its files go with it
        when the folder was its own."""
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        self._recorder.join()
        if self._own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def child_started(folder: Path) -> bool:
    """Whether a :class:`Background` child was started with its files in ``folder``."""
    return (folder / "argv.json").exists()


def child_result(folder: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """What the :class:`Background` child of ``folder`` did, once it has ended (waited for, from
    any process, at most ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not (folder / "rc").exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the child of {folder} did not end within {timeout} s")
        time.sleep(0.1)
    def read(name: str) -> str:
        return (folder / name).read_text(encoding="utf-8")
    return subprocess.CompletedProcess(json.loads(read("argv.json")), int(read("rc")), read("stdout"), read("stderr"))


#: where the controller of an xdist run (pytest -n) keeps the background children's files; the
#: workers find the folder in their ``workerinput`` (tests/conftest.py)
CHILDREN = "gwasl_children"


#: test files that read the same games, played once per process (tests/games/aslgw/playout.py's
#: caches), and the name of their group: under pytest-xdist one worker runs a group's files
#: (tests/conftest.py), so that each game is played once in the run
SHARED_GAMES = {
    "tests/games/aslgw/test_bundled_victory.py": "aslgw-random-games",
    "tests/games/aslgw/test_playthrough.py": "aslgw-random-games",
}


#: CPU-seconds of the longest test files in a whole ``make test`` run (measured on the 2-core
#: machine the suite is timed on, fresh clone, 2026-11-27 04:00, per file: the worker's CPU and its
#: children's, tests/conftest.py's scheduler; after the round's cuts): the scheduler starts the
#: longest first; a file not named counts SECONDS_PER_TEST for each of its tests.  A stale figure
#: only makes the split less even, never a test fail.
FILE_SECONDS = {
    "tests/games/aslgw/test_twins_every_channel.py": 74,
    "tests/games/aslgw/test_advisor.py": 50,
    "tests/games/aslgw/test_opponent_twins.py": 33,
    "tests/store/test_gamefile.py": 25,  # 14 CPU-s, but its kill -9 tests wait on their children: 25 s wall
    "tests/commands/test_hostile_files.py": 22,  # 21 of them in its child processes
    "tests/model/test_scenario_io.py": 20,
    "tests/rules/fog/test_fog_view_invariance.py": 19,
    "tests/games/aslgw/test_playthrough.py": 19,
    "tests/commands/test_hostile_game_fuzz.py": 15,
    "tests/games/test_odds_conformance.py": 14,
    "tests/games/aslgw/test_bundled_cli.py": 14,
    "tests/model/test_hexgrid.py": 12,
    "tests/games/aslgw/test_bundled_victory.py": 12,
    "tests/games/aslgw/test_fight_playthrough.py": 10,
    "tests/ui/play/test_secret_twins.py": 7,
    "tests/games/aslgw/test_metamorphic.py": 7,
    "tests/rules/test_los_properties.py": 6,
    "tests/rules/test_los_huge_map.py": 6,
    "tests/store/test_kills.py": 6,
    "tests/games/on_patrol/test_patrols.py": 6,
    "tests/games/combined_arms/test_ca_batch.py": 5,
    "tests/ui/play/test_wargamers_table.py": 5,
    "tests/test_layering.py": 5,
    "tests/test_doctests.py": 4,
    "tests/commands/test_hostile_game_files.py": 4,
    "tests/test_wheel.py": 4,
    "tests/games/aslgw/test_metamorphic_combat.py": 4,
    "tests/ui/test_side_view.py": 4,
    "tests/games/on_patrol/test_advisor.py": 4,
    "tests/engine/test_advice_dice.py": 4,
    "tests/games/combined_arms/test_ca_golden.py": 4,
}
SECONDS_PER_TEST = 0.05
#: the files whose tests wait for a background child (the mypy gate, the benchmarks' smoke runs):
#: scheduled last, when the child, started with the suite, has (nearly) ended
WAIT_FOR_CHILDREN = ("tests/test_gates.py", "tests/test_benchmarks.py")


def scheduled_first(units: list[tuple[str, dict[str, bool]]]) -> list[tuple[str, dict[str, bool]]]:
    """The work units of an xdist run (scope -> its tests: a file, or a group of SHARED_GAMES)
    in the order to start them: those that wait for a background child last, the rest longest
    first (FILE_SECONDS), ties in the order given."""
    groups: dict[str, list[str]] = {}
    for file, group in SHARED_GAMES.items():
        groups.setdefault(group, []).append(file)

    def seconds(scope: str, tests: dict[str, bool]) -> float:
        files = groups.get(scope, [scope])
        known = [FILE_SECONDS[f] for f in files if f in FILE_SECONDS]
        if len(known) == len(files):
            return sum(known)
        return sum(known) + SECONDS_PER_TEST * len(tests)

    return sorted(units, key=lambda unit: (unit[0] in WAIT_FOR_CHILDREN, -seconds(*unit)))


def rewrite_tests_backwards(config: pytest.Config) -> int:
    """Write pytest's cached, assert-rewritten code of each test file this run collects and each
    conftest.py of tests/ that has none yet, the last file first; returns how many it wrote.  Under pytest-xdist every
    worker collects the whole suite: on a fresh clone both rewrote every test file at the same
    time (about 7 of a cold collection's 11 CPU-s each).  The second worker calls this before
    collecting, so the two meet in the middle and each file is rewritten about once; the code is
    what pytest's own import hook writes (its functions, this run's config) and reads back,
    checked against the source's hash.  Writes nothing where Python writes no bytecode, and
    gives up quietly if pytest's internals differ (the collection then rewrites, as before)."""
    if sys.dont_write_bytecode:
        return 0
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        roots = [(config.invocation_params.dir / a.split("::")[0]).resolve() for a in config.args] or [ROOT / "tests"]
        found = {*ROOT.joinpath("tests").rglob("test_*.py"), *ROOT.joinpath("tests").rglob("conftest.py")}
        # the files this run collects (its arguments, tests/ by default), and the conftest.py files it reads
        files = sorted((f for f in found if f.name == "conftest.py" or any(r == f or r in f.parents for r in roots)), reverse=True)
        written = 0
        for fn in files:
            cache_dir = rewrite.get_cache_dir(fn)
            pyc = cache_dir / (fn.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(fn, pyc) is not None or not rewrite.try_makedirs(cache_dir):
                continue
            source_hash, co = rewrite._rewrite_test(fn, config)
            written += rewrite._write_pyc(state, co, source_hash, pyc)
        return written
    except (ImportError, AttributeError, KeyError, TypeError):
        return 0


def children_folder(config: pytest.Config) -> Path | None:
    """The folder of the children the controller started, in a worker of an xdist run; else None."""
    folder = getattr(config, "workerinput", {}).get(CHILDREN)
    return Path(folder) if folder else None


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


# -- the benchmarks' smoke runs (tests/test_benchmarks.py) ---------------------------------------
#: a benchmark script: a module of benchmarks/ with a main block (the Makefile's bench target's rule)
BENCH_MAIN = re.compile(r'^if __name__ == "__main__":', re.M)

# Runs each benchmark named on its command line as ``python -m benchmarks.NAME --quick`` would
# (runpy, as __main__, with that argv), its stdout and stderr kept apart; writes what each printed
# and its exit status to the file named first, after each one, so a crash keeps the others' output.
_RUN_EACH_BENCHMARK = r"""
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
    return sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if BENCH_MAIN.search(p.read_text(encoding="utf-8")))


def start_quick_benchmarks(out: Path, folder: Path | None = None) -> Background:
    """Every benchmark's ``--quick`` run, one after the other in one child process (one start-up,
    one import of gwasl), what each printed written to ``out`` (JSON: name -> code, stdout, stderr);
    the child's own files in ``folder`` (:class:`Background`)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    # ui last: the only one that makes a QApplication, which then lives until the child ends
    names = sorted(bench_scripts(), key=lambda n: (n == "ui", n))
    return Background([sys.executable, "-c", _RUN_EACH_BENCHMARK, str(out), *names], cwd=ROOT, env=env, folder=folder)


#: where conftest.py keeps the benchmarks' smoke run and its output file, started with the suite
BENCH_RUN = pytest.StashKey[tuple[Background, Path]]()
