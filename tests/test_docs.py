"""The design inside the repository (issue 23, items 1 and 6).

* No tracked file of gwasl/, docs/, tests/, benchmarks/, scripts/ or README.md names a
  path outside the repository.  The one lookup of the source texts beside the checkout is
  ``testsupport.source_text`` (docs/architecture.md "Where each source document lives");
  the tests that use it skip when the texts are absent.
* Every "CONTRACTS N" citation names a section of docs/contracts.md, every
  ``docs/architecture.md "Section"`` citation a section of docs/architecture.md, and
  nothing cites the old DESIGN.md.
* Every public function of gwasl/rules and gwasl/games/* cites in its docstring the rule
  it implements, but for a short list of modules and functions that implement no rule.
"""

from __future__ import annotations

import ast
import re
import subprocess
from functools import cache
from pathlib import Path

from testsupport import ROOT

ARCHITECTURE = ROOT / "docs" / "architecture.md"
CONTRACTS = ROOT / "docs" / "contracts.md"
SCANNED = ("gwasl", "docs", "tests", "benchmarks", "scripts", "README.md")

# Written in pieces so that this file does not match itself.
_SH = "shared"
OUTSIDE = re.compile("|".join([
    re.escape("../" + _SH), re.escape("/" + "work/"), re.escape(_SH + "/"),
    re.escape("spec/" + "CONTRACTS"), re.escape("spec/" + "scenario-v1"), re.escape("DESIGN" + ".md"),
    r"\bseeds/README",
]))


@cache
def tracked_texts() -> dict[str, str]:
    out = subprocess.run(["git", "ls-files", "-z", *SCANNED], cwd=ROOT, capture_output=True, check=True).stdout
    texts = {}
    for name in out.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images
    return texts


def test_no_file_names_a_path_outside_the_repository():
    found = [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
             for name, text in tracked_texts().items() for m in OUTSIDE.finditer(text)]
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_the_outside_path_pattern_catches_what_it_should():
    for text in ("../" + _SH + "/spec/CONTRACTS.md", "/" + "work/" + _SH + "/seeds/004.txt",
                 _SH + "/DESIGN.md", "see DESIGN" + ".md", "spec/" + "scenario-v1.schema.json"):
        assert OUTSIDE.search(text), text
    assert not OUTSIDE.search("docs/format/scenario-v1.schema.json, docs/contracts.md, a shared key")


def _headings(path: Path) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^#{2,4} +(.+)$", path.read_text(encoding="utf-8"), re.M)]


def contract_sections() -> set[str]:
    return {m.group(1) for h in _headings(CONTRACTS) if (m := re.match(r"(\d+)\. ", h))}


def test_contracts_keeps_its_sections():
    """CONTRACTS 1-7: hex labels, scenario files, LOS, command line, games in play, batch, library."""
    assert contract_sections() == {str(n) for n in range(1, 8)}


def test_every_contracts_citation_names_a_section_of_docs_contracts():
    sections = contract_sections()
    bad = [f"{name}: CONTRACTS {m.group(1)}" for name, text in tracked_texts().items()
           for m in re.finditer(r"\bCONTRACTS (\d+)", text) if m.group(1) not in sections]
    assert not bad, "citations of no section of docs/contracts.md:\n" + "\n".join(bad)


def test_every_architecture_citation_names_a_section_of_docs_architecture():
    headings = set(_headings(ARCHITECTURE))
    bad = [f"{name}: {m.group(0)}" for name, text in tracked_texts().items()
           for m in re.finditer(r'docs/architecture\.md,? "([^"]+)"', text) if m.group(1) not in headings]
    assert not bad, "citations of no section of docs/architecture.md:\n" + "\n".join(bad)


def test_nothing_cites_the_old_design_file():
    bad = [f"{name}: {m.group(0)}" for name, text in tracked_texts().items()
           for m in re.finditer(r"\bDESIGN\b(?!_)", text)]
    assert not bad, "DESIGN citations (cite docs/architecture.md \"Section\"):\n" + "\n".join(bad)


def test_architecture_says_what_the_brief_asks():
    """Issue 23 item 1: layers, a game in play (state, actions, events, views, journal, dice,
    secrets), how to add a rule, a game, a board, where each source document lives."""
    headings = set(_headings(ARCHITECTURE))
    assert {"Layers", "A game in play", "State", "Actions", "Events", "Views", "Journal", "Dice", "Secrets",
            "Undo and history", "Persistence", "How to add a rule", "How to add a game", "How to add a board",
            "Where each source document lives"} <= headings


# -- item 6: every public rule function cites its rule ---------------------------------------

#: a rule reference: a source named (ASLGW, ASL, O'Leary, CA, On Patrol, Sabin, Harmon) or a rule
#: number (A10.5, A26.2, 2.1.3, 108.2.1)
RULE_REFERENCE = re.compile(r"\b(ASLGW|ASL|O'Leary|CA|Combined Arms|On Patrol|Sabin|Harmon)\b"
                            r"|\b[A-D]\d+(\.\d+)*\b|\b\d+\.\d+(\.\d+)*\b")
RULE_PACKAGES = ("gwasl/rules", "gwasl/games")

#: modules whose public functions implement no rule, and why
PLUMBING_MODULES: dict[str, str] = {
}
#: single public functions that implement no rule, and why
PLUMBING_FUNCTIONS: dict[str, str] = {
}


def public_functions() -> list[tuple[str, str, str]]:
    """(module path, function name, docstring) of every module-level public function."""
    out = []
    for package in RULE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_"):
                    out.append((rel, node.name, ast.get_docstring(node) or ""))
    return out


def citation_coverage() -> tuple[int, int, list[str]]:
    """(citing, counted, the functions that should cite and do not)."""
    counted = citing = 0
    missing = []
    for rel, name, doc in public_functions():
        if rel in PLUMBING_MODULES or f"{rel}:{name}" in PLUMBING_FUNCTIONS:
            continue
        counted += 1
        if RULE_REFERENCE.search(doc):
            citing += 1
        else:
            missing.append(f"{rel}:{name}")
    return citing, counted, missing


def test_every_public_rule_function_cites_its_rule():
    citing, counted, missing = citation_coverage()
    assert not missing, (f"{citing}/{counted} public rule functions cite their rule; these do not "
                         "(cite the rule, or list the function as plumbing with the reason):\n" + "\n".join(missing))


def test_the_plumbing_lists_name_what_exists():
    functions = {f"{rel}:{name}" for rel, name, _ in public_functions()}
    modules = {rel for rel, _, _ in public_functions()}
    assert set(PLUMBING_FUNCTIONS) <= functions
    assert set(PLUMBING_MODULES) <= modules
    assert all(reason.strip() for reason in [*PLUMBING_FUNCTIONS.values(), *PLUMBING_MODULES.values()])


def test_the_rule_reference_pattern():
    for doc in ("ASLGW 2.1.3", "O'Leary 2.5", "A10.5", 'CA "Enemy Decisions"', "On Patrol 108.2.1", "(A26.2)"):
        assert RULE_REFERENCE.search(doc), doc
    for doc in ("The view of a side.", "Encode the state as JSON."):
        assert not RULE_REFERENCE.search(doc), doc
