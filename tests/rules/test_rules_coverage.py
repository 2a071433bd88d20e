"""Traceability of issue 4: docs/rules-coverage.md has one row per numbered
rule of ASLGW v0.1.1, per entry of its "Classic ASL - Rules to be ignored"
list and per table (1-5); every function it names exists, every test it names
exists and cites the rule, and every ``gwasl validate`` check it names is
registered.

The rule numbers are parsed from the source text when it is on this machine
(testsupport.source_text); the checks of the table against the code always run.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

import pytest

from gwasl.model.terrain import load_resource
from gwasl.rules import validate
from testsupport import ROOT, CoverageRow, cites_rule_number, module_test_docstrings, parse_coverage_rows, resolve, source_text

_SEED = Path("seeds") / "004_4371414167e1669c.txt"
SOURCE = source_text(str(_SEED))
COVERAGE = ROOT / "docs" / "rules-coverage.md"
# Rows owned by the LOS/command work (issue 3): listed, not verified here.
OWNED_MARK = "LOS/command issue 3"
# The rule each table belongs to, which a test may cite instead of "Table N".
TABLE_RULES = {"Table 1": "1.6.1", "Table 2": "1.6.41", "Table 3": "1.6.5", "Table 4": "1.6.63", "Table 5": "1.9.14"}

_ROW_KEY = re.compile(r"^(\d+(?:\.\d+)+|ignored .+|Table \d)$")
_FUNC = re.compile(r"`([a-z_]+):([A-Za-z_][A-Za-z_0-9.]*)`")
_TEST = re.compile(r"`([\w/]+\.py)::(\w+)`")


Row = CoverageRow


def parse_rows(text: str) -> list[Row]:
    return parse_coverage_rows(text, _ROW_KEY)


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    return tuple(parse_rows(COVERAGE.read_text(encoding="utf-8")))


def source_rule_keys(text: str) -> list[str]:
    """Every rule the source text numbers, in order: headings such as
    ``### 1.2.11`` or ``**1.9.12**``, the ignored-rules list entries
    (``ignored A1.21 & A7.36``) and the tables (``Table 1`` .. ``Table 5``)."""
    found = [(m.start(), m.group(1)) for m in re.finditer(r"^(?:#+ *|\*\*)(\d+(?:\.\d+)+)", text, re.M)]
    start, end = text.index("Rules to be ignored"), text.index("That seems to be all")
    found += [(m.start(), "ignored " + m.group(1).strip())
              for m in re.finditer(r"^\*\*([ACD][^*]+)\*\*", text, re.M) if start < m.start() < end]
    found += [(m.start(), f"Table {m.group(1)}") for m in re.finditer(r"^Table ?(\d):", text, re.M)]
    return [key for _, key in sorted(found)]


def cites(rule: str, name: str, doc: str) -> bool:
    """Whether a test's name or docstring cites ``rule`` (a rule number, an
    ignored-list entry or a table)."""
    if rule.startswith("ignored "):
        numbers = re.findall(r"[A-D]\.?\d+(?:\.\d+)*", rule)
        return "ignored" in name or "ignored" in doc.lower() or any(n.replace(".", "") in doc.replace(".", "") for n in numbers)
    if rule.startswith("Table "):
        n = rule.split()[1]
        return f"table_{n}" in name or f"Table {n}" in doc or ("tables_3_4" in name and n in "34") \
            or cites(TABLE_RULES[rule], name, doc)
    return cites_rule_number(rule, name, doc)


@cache
def _test_functions(path: str) -> dict[str, str]:
    return module_test_docstrings(ROOT / "tests" / "rules" / path)


def _resolve(module: str, name: str):
    return resolve(f"gwasl.rules.{module}", name)


# ---------------------------------------------------------------------------
# The table against the source text


@pytest.mark.skipif(not SOURCE.exists(), reason="ASLGW source text not on this machine")
def test_every_rule_of_the_source_text_has_a_row():
    """ASLGW v0.1.1: one row per numbered rule (1.1 .. 2.2.4), ignored-list entry and table, in the text's order."""
    expected = source_rule_keys(SOURCE.read_text(encoding="utf-8"))
    assert len([k for k in expected if k[0].isdigit()]) == 76 and len(expected) == 76 + 9 + 5
    got = [r.key for r in rows()]
    assert sorted(set(expected) - set(got)) == [], "rules without a row"
    assert sorted(set(got) - set(expected)) == [], "rows for no rule of the text"
    assert got == expected, "rows out of the text's order, or duplicated"


def test_ignored_rows_match_the_ignored_rules_data():
    """ASLGW rules to be ignored: one row per entry of gwasl/resources/ignored_rules.json."""
    doc = load_resource("ignored_rules.json")
    ignored_rows = [r.key for r in rows() if r.key.startswith("ignored ")]
    numbers = [[re.sub(r"^([A-D])\.", r"\1", n) for n in re.findall(r"[A-D]\.?\d+(?:\.\d+)*", k)] for k in ignored_rows]
    assert numbers == [e["asl_rules"] for e in doc["rules"]]


# ---------------------------------------------------------------------------
# The table against the code


def test_rows_are_complete():
    """Every row not owned by the LOS/command work names at least one function and one test."""
    bare = [r.key for r in rows() if OWNED_MARK not in r.implementation
            and (not _FUNC.search(r.implementation) or not _TEST.search(r.tests))]
    assert bare == []
    assert len(rows()) >= 90


@pytest.mark.parametrize("row", rows(), ids=lambda r: r.key)
def test_named_functions_exist(row):
    """Every ``module:function`` of a row imports from gwasl.rules."""
    for module, name in _FUNC.findall(row.implementation + " " + row.validate):
        assert callable(_resolve(module, name)), f"{row.key}: {module}:{name}"


@pytest.mark.parametrize("row", rows(), ids=lambda r: r.key)
def test_named_tests_exist_and_cite_the_rule(row):
    """Every ``file::test`` of a row exists in tests/rules and its name or docstring cites the row's rule."""
    for path, name in _TEST.findall(row.tests):
        funcs = _test_functions(path)
        assert name in funcs, f"{row.key}: no test {path}::{name}"
        assert cites(row.key, name, funcs[name]), f"{row.key}: {path}::{name} does not cite it"


@pytest.mark.parametrize("row", rows(), ids=lambda r: r.key)
def test_validate_column_names_registered_checks(row):
    """The ``gwasl validate`` column names registered scenario checks, or says why there is none."""
    validate._load_check_modules()
    named = _FUNC.findall(row.validate)
    for module, name in named:
        assert _resolve(module, name) in validate._CHECKS, f"{row.key}: {module}:{name} is not a scenario check"
    assert named or row.validate.startswith(("n/a", "—")), f"{row.key}: validate column {row.validate!r}"


# ---------------------------------------------------------------------------
# The checker itself


def test_the_checker_catches_a_removed_row_and_a_renamed_test():
    """Removing a row or renaming a cited test makes the checks above fail."""
    text = COVERAGE.read_text(encoding="utf-8")
    parsed = parse_rows(text)
    row = next(r for r in parsed if r.key == "2.1.3")
    without = parse_rows("\n".join(line for line in text.splitlines() if not line.startswith("| 2.1.3 |")))
    assert {r.key for r in parsed} - {r.key for r in without} == {"2.1.3"}
    path, name = _TEST.findall(row.tests)[0]
    assert name in _test_functions(path) and f"{name}_renamed" not in _test_functions(path)
    assert cites("2.1.3", name, _test_functions(path)[name])
    assert not cites("2.1.3", "test_something_else", "ASLGW 2.1.4 and 2.1.30")
    assert cites("1.9.12", "test_x_aslgw_1_9_11_1_9_12", "") and not cites("1.1", "test_aslgw_1_11_2", "1.11.2")
    if SOURCE.exists():
        assert "2.1.3" in source_rule_keys(SOURCE.read_text(encoding="utf-8"))
