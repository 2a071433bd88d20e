"""``gwasl validate``: every check of a scenario, model and rules together.

Rule modules register checks with :func:`scenario_check`; each check is a
function ``Scenario -> Iterable[Finding]`` whose findings carry the rule
number they enforce (e.g. ``"ASLGW 1.6.2"``).  Registration happens when the
module is imported; :data:`CHECK_MODULES` lists the modules to import.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from gwasl.model.checks import check_references
from gwasl.model.scenario import Scenario
from gwasl.model.scenario_io import Finding

__all__ = ["ValidationReport", "scenario_check", "validate_scenario", "CHECK_MODULES"]

Check = Callable[[Scenario], Iterable[Finding]]

_CHECKS: list[Check] = []

# Rule modules whose import registers scenario checks.  Add yours here.
CHECK_MODULES: tuple[str, ...] = (
    "gwasl.rules.fog.checks",
    "gwasl.rules.checks_units",
    "gwasl.rules.checks_combat",
    "gwasl.rules.los",
    "gwasl.rules.turn_record",
    "gwasl.rules.sniper",
    "gwasl.rules.card",
)


def scenario_check(fn: Check) -> Check:
    """Decorator: register ``fn`` as a scenario check run by :func:`validate_scenario`."""
    if fn not in _CHECKS:
        _CHECKS.append(fn)
    return fn


@dataclass(frozen=True, slots=True)
class ValidationReport:
    errors: tuple[Finding, ...]
    warnings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        return not self.errors

    def as_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": [f.as_json() for f in self.errors],
            "warnings": [f.as_json() for f in self.warnings],
        }


def _load_check_modules() -> None:
    for name in CHECK_MODULES:
        importlib.import_module(name)


def validate_scenario(s: Scenario) -> ValidationReport:
    """Run every check.  Reference errors come first; rule checks run only on a
    scenario whose references hold (they assume units have real sides, etc.)."""
    _load_check_modules()
    found = list(check_references(s))
    if not any(f.severity == "error" for f in found):
        for check in _CHECKS:
            found.extend(check(s))
    errors = tuple(f for f in found if f.severity == "error")
    warnings = tuple(f for f in found if f.severity != "error")
    return ValidationReport(errors, warnings)
