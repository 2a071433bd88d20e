"""Shared fixtures: the scenario schema and the shared example as a document; the mypy gate
started in the background as soon as the suite is collected."""

from __future__ import annotations

import json

import pytest
from hypothesis import settings

from testsupport import EXAMPLE_PATH, MYPY_RUN, ROOT, SCHEMA_PATH, Background, mypy_command

# Timing varies on shared CI machines; a property test fails on its property, never on a clock.
settings.register_profile("gwasl", deadline=None)
settings.load_profile("gwasl")


@pytest.fixture(scope="session")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture()
def example_doc() -> dict:
    return json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """mypy over gwasl takes a minute cold: when tests/test_gates.py::test_mypy_is_clean is to run,
    start it now in its own process, so that it runs on the other core while the suite runs; the
    test waits for its result and fails on any error."""
    if any(item.name.startswith("test_mypy_is_clean") and item.path.name == "test_gates.py" for item in session.items):
        session.config.stash[MYPY_RUN] = Background(mypy_command("-p", "gwasl"), cwd=ROOT)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(MYPY_RUN, None)
    if run is not None:
        run.stop()
