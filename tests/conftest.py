"""Shared fixtures: the scenario schema and the shared example as a document; the mypy gate and
the benchmarks' smoke runs started in the background as soon as the suite is collected."""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from testsupport import (
    BENCH_RUN,
    CHILDREN,
    EXAMPLE_PATH,
    MYPY_RUN,
    ROOT,
    SCHEMA_PATH,
    SHARED_GAMES,
    Background,
    children_folder,
    mypy_command,
    rewrite_tests_backwards,
    scheduled_first,
    start_quick_benchmarks,
)

# Timing varies on shared CI machines; a property test fails on its property, never on a clock.
settings.register_profile("gwasl", deadline=None)
settings.load_profile("gwasl")

#: the tests that wait for a background child: (file, test name)
MYPY_TEST = ("test_gates.py", "test_mypy_is_clean")
BENCH_TEST = ("test_benchmarks.py", "test_benchmark_runs_and_prints_figures")
#: where the controller of an xdist run keeps the folder of the children's files
CHILDREN_FOLDER = pytest.StashKey[Path]()


@pytest.fixture(scope="session")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture()
def example_doc() -> dict:
    return json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))


def _start_children(config: pytest.Config, ids: list[tuple[str, str]], folder: Path | None = None) -> None:
    """Two slow children that need nothing from the suite start as soon as it is collected, each
    in its own process, so that they run on the other core while the suite runs; their tests wait
    for them and fail on what they report: mypy over gwasl (a minute cold) when
    tests/test_gates.py::test_mypy_is_clean is to run, the benchmarks' ``--quick`` runs when
    tests/test_benchmarks.py::test_benchmark_runs_and_prints_figures is.  ``ids`` are the
    selected tests as (file name, test name); ``folder``, where the children keep their files (a
    temporary folder each when None)."""
    if config.option.collectonly:
        return

    def selected(test: tuple[str, str]) -> bool:
        return any(filename == test[0] and name.startswith(test[1]) for filename, name in ids)

    if MYPY_RUN not in config.stash and selected(MYPY_TEST):
        config.stash[MYPY_RUN] = Background(mypy_command("-p", "gwasl"), cwd=ROOT, folder=folder and folder / "mypy")
    if BENCH_RUN not in config.stash and selected(BENCH_TEST):
        bench = folder / "bench" if folder else Path(tempfile.mkdtemp(prefix="gwasl-bench-"))
        config.stash[BENCH_RUN] = (start_quick_benchmarks(bench / "runs.json", folder and bench), bench / "runs.json")


def _one_parser_per_process() -> None:
    """``gwasl.cli.main`` called in-process parses with one parser per test process, made by
    ``build_parser`` the first time: rebuilding every command's options (argparse, gettext's
    look-ups) was most of the time of a short command run in-process, and the fuzz and
    whole-game tests run thousands.  A parser keeps nothing between parse_args calls (each
    makes its own namespace; the commands copy their list options); a command run as a real
    process still builds its own."""
    import gwasl.cli

    gwasl.cli.build_parser = functools.cache(gwasl.cli.build_parser)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The second worker of an xdist run writes the rewritten test files from the last one while
    the first collects from the first one (testsupport.rewrite_tests_backwards): on a fresh clone
    each file is rewritten about once instead of once per worker."""
    if getattr(session.config, "workerinput", {}).get("workerid") == "gw1":
        rewrite_tests_backwards(session.config)


def pytest_collection_finish(session: pytest.Session) -> None:
    _one_parser_per_process()
    if children_folder(session.config) is not None:
        return  # a worker of an xdist run: the controller started them (below)
    _start_children(session.config, [(item.path.name, item.name) for item in session.items])


# -- under pytest-xdist (make test runs pytest -n 2): the controller, which lives as long as the
# whole run, starts the children once, when a worker has collected the suite; the worker that
# runs a child's test reads its result from its files (testsupport.child_result).

@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # log: xdist's Producer; returns its scheduler
    """With ``--dist loadfile`` (make test): each test file run whole by one worker (its module
    fixtures built once), and the files of testsupport.SHARED_GAMES by the same one; the longest
    files first, those that wait for a background child last (testsupport.scheduled_first)."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class GroupedFiles(LoadFileScheduling):
        _ordered = False

        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return SHARED_GAMES.get(file, file)

        def _assign_work_unit(self, node) -> None:  # node: xdist's WorkerController
            # The whole queue is known at the first assignment: longest first (xdist's own order,
            # most tests first, started a one-test file of a minute last, and one worker ran it
            # alone at the end), so that the two workers end together.
            if not self._ordered:
                self._ordered = True
                order = list(self.workqueue.items())
                self.workqueue.clear()
                self.workqueue.update(scheduled_first(order))
            super()._assign_work_unit(node)

    return GroupedFiles(config, log)


def _controller_folder(config: pytest.Config) -> Path:
    if CHILDREN_FOLDER not in config.stash:
        config.stash[CHILDREN_FOLDER] = Path(tempfile.mkdtemp(prefix="gwasl-children-"))
    return config.stash[CHILDREN_FOLDER]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # node: xdist's WorkerController
    node.workerinput[CHILDREN] = str(_controller_folder(node.config))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids: list[str]) -> None:
    selected = [(Path(i.split("::")[0]).name, i.split("::", 1)[-1]) for i in ids]
    _start_children(node.config, selected, _controller_folder(node.config))


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(MYPY_RUN, None)
    if run is not None:
        run.stop()
    bench = config.stash.get(BENCH_RUN, None)
    if bench is not None:
        bench[0].stop()
        shutil.rmtree(bench[1].parent, ignore_errors=True)
    folder = config.stash.get(CHILDREN_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
