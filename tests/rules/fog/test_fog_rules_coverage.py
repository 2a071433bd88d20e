"""Traceability of issue 5: docs/rules-coverage-fog.md has one row per numbered
rule of O'Leary's "Solitaire Play of ASL", per result row of the 2.5 shift
table and per 2.5 DRM; every function it names imports, every test it names
exists and cites the rule, and every ``gwasl validate`` check it names is
registered.

The rule numbers, table rows and DRM lines are parsed from the source text when
it is on this machine (testsupport.source_text); the checks of the table against the
code always run.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

import pytest

from gwasl.rules import validate
from testsupport import ROOT, CoverageRow, cites_rule_number, module_test_docstrings, parse_coverage_rows, resolve, source_text

_SEED = Path("seeds") / "000_a4bfaec0253cad28.txt"
SOURCE = source_text(str(_SEED))
COVERAGE = ROOT / "docs" / "rules-coverage-fog.md"

# The 2.5 table rows by their label in the text; "11-12" is the row whose label the
# source lost (docs/rules-notes.md "The 11-12 row of the 2.5 table"), found as the unlabelled consequence line.
TABLE_ROWS = ("<=0", "1-7", "8-10", "11-12", ">=13")
# The 2.5 DRM rows and the words of the source DRM line each one covers.
DRM_ROWS = {
    "previous shifts": "previous shift",
    "TEM": "worst TEM",
    "enemy LOS": "LOS of an enemy unit",
    "both HIP": "both stacks are HIP",
    "LV hindrance": "LV hindrance",
    "night": "at night",
    "emplaced gun": "emplaced Gun",
    "size": "(*)",
    "balance": "extra DRM of -1 or -2",
}

_ROW_KEY = re.compile(r"^(\d+(?:\.\d+)+|2\.5 table \S+|2\.5 DRM .+)$")
_FUNC = re.compile(r"`(gwasl(?:\.\w+)+):([A-Za-z_][A-Za-z_0-9.]*)`")
_TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


Row = CoverageRow


def parse_rows(text: str) -> list[Row]:
    return parse_coverage_rows(text, _ROW_KEY)


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    return tuple(parse_rows(COVERAGE.read_text(encoding="utf-8")))


def source_rule_numbers(text: str) -> list[str]:
    """Every rule the text numbers, in order: "(2.3.1) A potential ...".  A number in
    parentheses followed by a capital starts a rule; cross references such as
    "(2.4)." do not."""
    return [m.group(1) for m in re.finditer(r"\((\d+(?:\.\d+)+)\) ?(?=[A-Z])", text)]


def source_table_rows(text: str) -> list[str]:
    """The result rows of the 2.5 table, by label ("11-12" for the unlabelled one)."""
    block = text[text.index("Final DR\tConsequence"):text.index("This DR is modified")]
    out = []
    for line in block.splitlines()[1:]:
        if not line.strip():
            continue
        label = line.split("\t")[0].strip()
        out.append(label if label else "11-12")
    return out


def source_drm_lines(text: str) -> list[str]:
    """The DRM lines of 2.5 ("+1\\tFor each previous shift ...") and the balance remark."""
    block = text[text.index("DRM\tCause"):text.index("These DRM are cumulative")]
    lines = [line for line in block.splitlines()[1:] if line.strip()]
    remark = next(line for line in text.splitlines() if line.startswith("Remark: In scenarios that rely"))
    return lines + [remark]


def cites(rule: str, name: str, doc: str) -> bool:
    """Whether a test's name or docstring cites ``rule`` (table and DRM rows: 2.5)."""
    if rule.startswith("2.5 "):
        rule = "2.5"
    return cites_rule_number(rule, name, doc)


@cache
def _test_functions(path: str) -> dict[str, str]:
    return module_test_docstrings(ROOT / path)


_resolve = resolve


def _expected_keys(text: str) -> list[str]:
    numbers = source_rule_numbers(text)
    at = numbers.index("2.5") + 1
    extra = [f"2.5 table {r}" for r in source_table_rows(text)] + [f"2.5 DRM {k}" for k in DRM_ROWS]
    return numbers[:at] + extra + numbers[at:]


# ---------------------------------------------------------------------------
# The table against the source text


@pytest.mark.skipif(not SOURCE.exists(), reason="O'Leary source text not on this machine")
def test_every_rule_of_the_source_text_has_a_row():
    """O'Leary 2.1-7.2: one row per numbered rule, per 2.5 table row and per 2.5 DRM, in the text's order."""
    text = SOURCE.read_text(encoding="utf-8")
    assert len(source_rule_numbers(text)) == 44
    assert source_table_rows(text) == list(TABLE_ROWS)
    expected = _expected_keys(text)
    got = [r.key for r in rows()]
    assert sorted(set(expected) - set(got)) == [], "rules without a row"
    assert sorted(set(got) - set(expected)) == [], "rows for no rule of the text"
    assert got == expected, "rows out of the text's order, or duplicated"


@pytest.mark.skipif(not SOURCE.exists(), reason="O'Leary source text not on this machine")
def test_every_2_5_drm_line_of_the_text_has_its_row():
    """O'Leary 2.5: each DRM line of the text (seven plain, five starred, the balance remark) falls to one DRM row."""
    lines = source_drm_lines(SOURCE.read_text(encoding="utf-8"))
    assert len(lines) == 13
    owners = [[k for k, words in DRM_ROWS.items() if words in line] for line in lines]
    assert all(len(o) == 1 for o in owners), list(zip(lines, owners))
    assert {o[0] for o in owners} == set(DRM_ROWS)


# ---------------------------------------------------------------------------
# The table against the code


def test_rows_are_complete():
    """Every row names at least one function and one test; the table has all 58 rows."""
    bare = [r.key for r in rows() if not _FUNC.search(r.implementation) or not _TEST.search(r.tests)]
    assert bare == []
    assert len(rows()) == 44 + len(TABLE_ROWS) + len(DRM_ROWS)
    assert [r.key for r in rows() if r.key.startswith("2.5 table")] == [f"2.5 table {t}" for t in TABLE_ROWS]


@pytest.mark.parametrize("row", rows(), ids=lambda r: r.key)
def test_named_functions_exist(row):
    """Every ``module:function`` of a row imports."""
    for module, name in _FUNC.findall(row.implementation + " " + row.validate):
        assert callable(_resolve(module, name)), f"{row.key}: {module}:{name}"


@pytest.mark.parametrize("row", rows(), ids=lambda r: r.key)
def test_named_tests_exist_and_cite_the_rule(row):
    """Every ``file::test`` of a row exists and its name or docstring cites the row's rule."""
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
    assert named or row.validate.startswith("n/a"), f"{row.key}: validate column {row.validate!r}"


# ---------------------------------------------------------------------------
# The checker itself


def test_the_checker_catches_a_removed_row_and_a_renamed_test():
    """Removing a row (O'Leary 3.3.5) or renaming a cited test makes the checks above fail."""
    text = COVERAGE.read_text(encoding="utf-8")
    parsed = parse_rows(text)
    row = next(r for r in parsed if r.key == "3.3.5")
    without = parse_rows("\n".join(line for line in text.splitlines() if not line.startswith("| 3.3.5 |")))
    assert {r.key for r in parsed} - {r.key for r in without} == {"3.3.5"}
    if SOURCE.exists():
        assert "3.3.5" in _expected_keys(SOURCE.read_text(encoding="utf-8"))
    path, name = _TEST.findall(row.tests)[0]
    funcs = _test_functions(path)
    assert name in funcs and f"{name}_renamed" not in funcs
    assert cites("3.3.5", name, funcs[name])
    assert not cites("3.3.5", "test_something_else", "O'Leary 3.3.4 and 3.3.50")
    assert cites("2.5 DRM night", "test_2_5_night", "") and not cites("2.5 table 8-10", "test_2_4_x", "O'Leary 2.50")
