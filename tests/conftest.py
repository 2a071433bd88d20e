"""Shared fixtures: the scenario schema and the shared example as a document."""

from __future__ import annotations

import json

import pytest
from hypothesis import settings

from testsupport import EXAMPLE_PATH, SCHEMA_PATH

# Timing varies on shared CI machines; a property test fails on its property, never on a clock.
settings.register_profile("gwasl", deadline=None)
settings.load_profile("gwasl")


@pytest.fixture(scope="session")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture()
def example_doc() -> dict:
    return json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
