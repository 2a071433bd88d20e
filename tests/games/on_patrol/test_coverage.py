"""Every numbered rule of Harmon's On Patrol (101.1-108.3.2) is cited by at least one test of
tests/games/on_patrol (in its docstring or name), and the table in docs/on-patrol.md names the
code that implements it."""

from __future__ import annotations

import re
from pathlib import Path

from testsupport import ROOT, cites_rule_number, module_test_docstrings, source_text

HERE = Path(__file__).resolve().parent
SEED = source_text("seeds/001_e69ed8f62710a99a.txt")

#: the leaf rules of the text (a rule with sub-rules is covered by them)
RULES = [
    "101.1", "101.2", "101.3", "102.1", "102.2", "102.3", "102.4", "102.5", "103.1.1", "103.1.2", "103.2.1",
    "103.2.2", "103.2.3", "103.2.4", "103.2.5", "103.3.1", "103.3.2", "103.3.3", "104.1.1", "104.1.2",
    "104.1.3", "104.1.4", "104.1.5", "104.2.1", "104.2.2", "104.2.3", "104.2.4", "104.3.1", "104.3.2",
    "104.3.3", "104.4.1", "104.4.2", "104.4.3", "104.4.4", "104.4.5", "105.1.1", "105.1.2", "105.1.3",
    "105.1.4", "105.1.5", "105.2", "105.3.1", "105.3.2", "105.3.3", "105.3.4", "105.3.5", "105.4.1",
    "105.4.2", "105.4.3", "105.4.4", "105.4.5", "105.4.6", "105.4.7", "105.4.8", "105.4.9", "105.4.10",
    "105.4.11", "105.4.12", "106.1.1", "106.1.2", "106.2.1", "106.2.2", "106.2.3", "106.2.4", "107.1.1",
    "107.1.2", "107.1.3", "107.2.1", "107.2.2", "107.2.3", "108.1.1", "108.1.2", "108.1.3", "108.1.4",
    "108.1.5", "108.2.1", "108.2.2", "108.3.1", "108.3.2",
]


def all_tests() -> dict[str, str]:
    out = {}
    for path in sorted(HERE.glob("test_*.py")):
        for name, doc in module_test_docstrings(path).items():
            out[f"{path.name}::{name}"] = doc
    return out


def test_the_rule_list_is_the_texts():
    """The list above is every leaf rule number of the source text (when it is on this machine)."""
    if not SEED.exists():
        return
    text = SEED.read_text(encoding="utf-8")
    found = set(re.findall(r"(?m)^(?:- )?(1\d\d\.\d+(?:\.\d+)?)\b", text))
    leaves = {r for r in found if not any(o != r and o.startswith(r + ".") for o in found)}
    leaves = {r for r in leaves if not r.endswith(".0")}  # section titles (100.0 SOLITAIRE RULES ...)
    assert leaves == set(RULES)


def test_every_rule_is_cited_by_a_test():
    tests = all_tests()
    missing = [r for r in RULES if not any(cites_rule_number(r, name.split("::")[1], doc) for name, doc in tests.items())]
    assert not missing, f"rules no test cites: {missing}"


def test_the_coverage_table_names_every_rule():
    text = (ROOT / "docs" / "on-patrol.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"(?m)^\| (1\d\d\.\d+(?:\.\d+)?) \|", text))
    assert rows == set(RULES)
