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
* Every rule row of docs/rules-coverage.md names the module of gwasl/ that applies it in
  play, whose docstrings cite it, or says why there is none.
"""

from __future__ import annotations

import ast
import re
import subprocess
from functools import cache
from pathlib import Path

from testsupport import IN_PLAY_MODULE, ROOT, module_docstrings, parse_coverage_rows

ARCHITECTURE = ROOT / "docs" / "architecture.md"
CONTRACTS = ROOT / "docs" / "contracts.md"
SCANNED = ("gwasl", "docs", "tests", "benchmarks", "scripts", "README.md")

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
        if not name or not path.is_file() or name == "tests/test_docs.py":  # this file spells the patterns
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
    'gwasl/rules/los_kernel.py': "the exact LOS kernel's templates and caches; the LOS rules (CONTRACTS 3) are in rules/los.py",
    'gwasl/rules/los_geometry.py': 'integer-frame hex geometry and drawing helpers for rules/los.py (CONTRACTS 3), no rule of its own',
    'gwasl/rules/fog/fields.py': 'JSON type tests of the fog fields of a scenario file (docs/format/fog.md), no rule',
    'gwasl/games/aslgw/views.py': 'views are whitelists of what a viewer sees (docs/architecture.md "Views"), no rule',
    'gwasl/games/combined_arms/views.py': 'views are whitelists of what a viewer sees (docs/architecture.md "Views"), no rule',
    'gwasl/games/aslgw/actions/dispatch.py': 'routes each action to the module of its rule, no rule of its own',
    'gwasl/games/__init__.py': 'the registry of rulesets (docs/contracts.md 5), no rule',
}
#: single public functions that implement no rule, and why
PLUMBING_FUNCTIONS: dict[str, str] = {
    'gwasl/games/on_patrol/summary.py:summary': 'the plain-text position `gwasl game show` prints (docs/contracts.md 5), no rule',
    'gwasl/games/aslgw/opponent.py:morale': "reads the morale for gwasl's opponent from rules/morale.unit_morale, which cites it; no rule of its own",
    'gwasl/games/aslgw/opponent.py:opponent': "gwasl's own opponent policy (docs/opponent.md): it picks a legal action; the rules are cited where judged",
    'gwasl/games/aslgw/opponent.py:passive': 'a reference policy for docs/opponent.md, no rule',
    'gwasl/games/aslgw/opponent.py:random_side': 'a reference policy for docs/opponent.md, no rule',
    'gwasl/games/aslgw/opponent.py:automated': 'which policy plays a side gwasl plays (docs/opponent.md), no rule',
    'gwasl/games/aslgw/seats.py:unit_side': "a lookup of a unit's side, no rule",
    'gwasl/games/aslgw/seats.py:apply_pass': 'the event of a side passing a duty gwasl gives it (seats.py), no rule',
    'gwasl/games/aslgw/seats.py:pass_view': 'how a pass is shown (docs/architecture.md "Views"), no rule',
    'gwasl/games/aslgw/seats.py:passed_view': 'how a pass is shown (docs/architecture.md "Views"), no rule',
    'gwasl/games/aslgw/actions/fire.py:harm': "a figure gwasl's fire policy weighs (docs/rules-notes.md), no rule",
    'gwasl/games/aslgw/actions/fire.py:automated': 'which policy fires for a side gwasl keeps secret, no rule of its own',
    'gwasl/games/aslgw/actions/shifts.py:side_view': 'the view a side\'s shift policy decides from (docs/architecture.md "Secrets"), no rule',
    'gwasl/games/aslgw/actions/shifts.py:window_policy': "gwasl's policy at a shift window, whose rules are cited in rules/fog/policy.py",
    'gwasl/games/aslgw/effects.py:with_mark': "state bookkeeping of a unit's combat marks, no rule",
    'gwasl/games/aslgw/effects.py:mark_moved': "state bookkeeping of a unit's combat marks, no rule",
    'gwasl/games/aslgw/knowledge.py:env': 'the cached fog environment (exact LOS, fog table), no rule',
    'gwasl/games/aslgw/knowledge.py:pile_key': 'a grouping key for "?" piles, no rule',
    'gwasl/games/aslgw/knowledge.py:infantry': 'a filter of units that are not support weapons, no rule',
    'gwasl/games/aslgw/knowledge.py:private_dice': 'a side\'s private dice stream (docs/architecture.md "Dice"), no rule',
    'gwasl/games/aslgw/knowledge.py:secret_roll': 'a roll as it rides in a private event (docs/architecture.md "Dice"), no rule',
    'gwasl/games/aslgw/settings.py:game_settings': 'reads the turn record through rules/turn_record.py, no rule of its own',
    'gwasl/games/aslgw/state.py:ro': 'a read-only mapping helper, no rule',
    'gwasl/games/aslgw/victory.py:result_json': 'the result as JSON for status output (docs/contracts.md 5), no rule',
    'gwasl/games/aslgw/victory.py:control_json': 'Control as JSON for status output (docs/contracts.md 5), no rule',
    'gwasl/games/aslgw/victory.py:is_quiet': 'which events the Control hook ignores, no rule',
    'gwasl/rules/checks_combat.py:Finding': 'builds a validate finding whose message names the rule its caller gives, no rule of its own',
    'gwasl/rules/checks_units.py:Finding': 'builds a validate finding whose message names the rule its caller gives, no rule of its own',
    'gwasl/rules/dice.py:as_modifiers': 'normalises DRM arguments (docs/architecture.md "Dice"), no rule',
    'gwasl/rules/fog/env.py:default_env': 'the default injected rule functions of the fog layer, no rule of its own',
    'gwasl/rules/fog/policy.py:threat_map': "a heuristic of gwasl's shift policy, beyond O'Leary (its module docstring), no rule",
    'gwasl/rules/fog/state.py:fog_extension': 'reads the fog extension object of a scenario file (docs/format/fog.md), no rule',
    'gwasl/rules/fog/words.py:consequence_lines': 'the words of an outcome per viewer (docs/architecture.md "Views"), no rule',
    'gwasl/rules/fog/words.py:line': 'the words of an outcome per viewer (docs/architecture.md "Views"), no rule',
    'gwasl/rules/fog/words.py:public_lines': 'the words of an outcome per viewer (docs/architecture.md "Views"), no rule',
    'gwasl/rules/ift.py:two_dice': 'the 36 outcomes of a DR that exact odds sum over, no rule',
    'gwasl/rules/los.py:check_outlines': "a format check of the scenario file's obstacle outlines (docs/format/los.md), no rule",
    'gwasl/rules/morale.py:to_json': 'encodes a result for the journal, no rule',
    'gwasl/rules/movement.py:map_key': "a cache key of a map's content, no rule",
    'gwasl/rules/organisation.py:find_unit': 'a look-up of a unit by id, no rule',
    'gwasl/rules/turn_record.py:turn_record': "reads the scenario's turn record (docs/format/aslgw.md), a format, not a rule",
    'gwasl/rules/units.py:as_date': 'converts a date argument, no rule',
    'gwasl/rules/validate.py:scenario_check': 'registers a check with gwasl validate (docs/contracts.md 4), no rule',
    'gwasl/rules/validate.py:validate_scenario': 'runs every registered check (docs/contracts.md 4); each check cites its rule',
    'gwasl/games/combined_arms/board.py:index_of': "a hex label's board index, no rule",
    'gwasl/games/combined_arms/board.py:label': "a board index's hex label, no rule",
    'gwasl/games/combined_arms/board.py:bits': 'iterates a hex bitmask, no rule',
    'gwasl/games/combined_arms/choices.py:option_action': 'builds the action a choice tuple stands for, no rule',
    'gwasl/games/combined_arms/planner.py:by_phase': "a heuristic attacker policy (planner.py's docstring), no rule",
    'gwasl/games/combined_arms/planner.py:threat_map': "a heuristic attacker policy (planner.py's docstring), no rule",
    'gwasl/games/combined_arms/policies.py:choices': 'groups the legal actions for batch policies, no rule',
    'gwasl/games/combined_arms/policies.py:random_policy': 'a batch policy (CONTRACTS 6), no rule',
    'gwasl/games/combined_arms/rules.py:unit_masks': "reads the state's unit bitmasks, no rule",
    'gwasl/games/combined_arms/rules.py:fresh_units_on_board': "a filter of the state's units, no rule",
    'gwasl/games/combined_arms/state.py:put': 'state bookkeeping, no rule',
    'gwasl/games/combined_arms/state.py:setter': 'state bookkeeping, no rule',
    'gwasl/games/combined_arms/state.py:with_units': 'state bookkeeping (bitmasks), no rule',
    'gwasl/games/combined_arms/state.py:with_enemy': 'state bookkeeping (bitmasks), no rule',
    'gwasl/games/combined_arms/state.py:with_smoke': 'state bookkeeping (bitmasks), no rule',
    'gwasl/games/combined_arms/tactics.py:companies': "the raid policy's heuristic (tactics.py's docstring), no rule",
    'gwasl/games/combined_arms/tactics.py:stop_reason': "the raid policy's heuristic (tactics.py's docstring), no rule",
    'gwasl/games/on_patrol/combat.py:band': "looks a value up in a die-roll table's bands, no rule",
    'gwasl/games/on_patrol/figures.py:mean_ci': 'batch figures for docs/on-patrol.md, no rule',
    'gwasl/games/on_patrol/figures.py:summary': 'batch figures for docs/on-patrol.md, no rule',
    'gwasl/games/on_patrol/figures.py:main': 'batch figures for docs/on-patrol.md, no rule',
    'gwasl/games/on_patrol/formation.py:along2': 'hex geometry for laying out formations, no rule',
    'gwasl/games/on_patrol/formation.py:lay_half': 'hex geometry for laying out formations, no rule',
    'gwasl/games/on_patrol/geometry.py:turns_between': "relative hex geometry (geometry.py's docstring), no rule",
    'gwasl/games/on_patrol/geometry.py:direction_between': "relative hex geometry (geometry.py's docstring), no rule",
    'gwasl/games/on_patrol/geometry.py:cross_sign': "relative hex geometry (geometry.py's docstring), no rule",
    'gwasl/games/on_patrol/geometry.py:turn_toward': "relative hex geometry (geometry.py's docstring), no rule",
    'gwasl/games/on_patrol/policies.py:pick': "a uniform choice for batch policies from the game's dice, no rule",
    'gwasl/games/on_patrol/policies.py:random_policy': 'a batch policy (CONTRACTS 6), no rule',
    'gwasl/games/on_patrol/policies.py:sensible_policy': 'a batch policy (CONTRACTS 6): a heuristic submarine commander, no rule',
    'gwasl/games/on_patrol/scenario.py:bundled': 'lists the bundled patrol files, no rule',
    'gwasl/games/on_patrol/scenario.py:load_bundled': 'reads a bundled patrol file, no rule',
    'gwasl/games/on_patrol/state.py:hx': "a hex label's hex (CONTRACTS 1), no rule",
    'gwasl/games/on_patrol/state.py:lab': "a hex's label (CONTRACTS 1), no rule",
    'gwasl/games/on_patrol/state.py:evolve': 'state bookkeeping, no rule',
    'gwasl/games/on_patrol/tables.py:stand_ins': "lists the stand-in rows for the docs and the game's window, no rule",
}


def module_functions(rel: str, source: str) -> list[tuple[str, str, str]]:
    """(module path, function name, docstring) of each module-level public function of ``source``."""
    return [(rel, node.name, ast.get_docstring(node) or "") for node in ast.parse(source).body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_")]


@cache
def public_functions() -> list[tuple[str, str, str]]:
    """(module path, function name, docstring) of every module-level public function."""
    out = []
    for package in RULE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            out += module_functions(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))
    return out


def citation_coverage(functions: list[tuple[str, str, str]] | None = None) -> tuple[int, int, list[str]]:
    """(citing, counted, the functions that should cite and do not) among ``functions``
    (every public function of RULE_PACKAGES by default)."""
    counted = citing = 0
    missing = []
    for rel, name, doc in public_functions() if functions is None else functions:
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


def test_a_new_uncited_public_function_fails_the_check():
    """Every public function of a rule module counts (no list of exceptions still to cite):
    one added without a rule reference is reported, one that cites is not, a private one is skipped."""
    added = module_functions("gwasl/games/aslgw/actions/rout.py", (
        "def low_crawl(u):\n    \"\"\"A broken unit may Low Crawl one Location.\"\"\"\n\n\n"
        "def low_crawl_cited(u):\n    \"\"\"A broken unit may Low Crawl one Location (A10.52).\"\"\"\n\n\n"
        "def _helper(u):\n    pass\n"))
    citing, counted, missing = citation_coverage(public_functions() + added)
    assert missing == ["gwasl/games/aslgw/actions/rout.py:low_crawl"]
    assert counted == citing + 1


def test_the_plumbing_lists_cite_no_rule():
    """A function listed as plumbing implements no rule: if its docstring cites one, it belongs
    with the rule functions, not in the list."""
    docs = {f"{rel}:{name}": doc for rel, name, doc in public_functions()}
    cited = sorted(f for f in PLUMBING_FUNCTIONS if RULE_REFERENCE.search(docs.get(f, "")))
    assert not cited, f"plumbing functions that cite a rule: {cited}"


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


# -- item 6: the in-play module of each rule of docs/rules-coverage.md ---------------------------

RULES_COVERAGE = ROOT / "docs" / "rules-coverage.md"
#: the rule rows of the ASLGW table (the same keys as tests/rules/test_rules_coverage.py)
_RULE_ROW = re.compile(r"^(\d+(?:\.\d+)+|ignored .+|Table \d)$")


def coverage_rows(text: str | None = None):
    return parse_coverage_rows(RULES_COVERAGE.read_text(encoding="utf-8") if text is None else text, _RULE_ROW)


@cache
def _docstrings(module: str) -> tuple[str, ...]:
    return tuple(" ".join(d.split()) for d in module_docstrings(ROOT / "gwasl" / module))


def module_cites(module: str, key: str) -> bool:
    """Whether some docstring of ``module`` (relative to gwasl/) cites the row's rule: its number
    (``2.1.3``, not ``2.1.31``), ``Table N``, or an ignored rule's ASL number (``A1.21``)."""
    docs = _docstrings(module)
    if key.startswith("Table "):
        return any(re.search(re.escape(key) + r"(?!\d)", d) for d in docs)
    if key.startswith("ignored "):
        numbers = [n.replace(".", "", 1) if n[1] == "." else n for n in re.findall(r"[A-D]\.?\d+(?:\.\d+)*", key)]
        return any(re.search(r"\b" + re.escape(n) + r"(?!\.?\d)", d) for n in numbers for d in docs)
    # not a classic rule's tail (A1.1, B27.41) nor a longer number (2.1.31)
    return any(re.search(r"(?<![\w.])" + re.escape(key) + r"(?!\.?\d)", d) for d in docs)


def in_play_problems(text: str | None = None) -> list[str]:
    """What is wrong with the in-play column: a row without it, a cell that names no module and
    says no reason, a module that does not exist or whose docstrings do not cite the row's rule."""
    bad = []
    for row in coverage_rows(text):
        modules = IN_PLAY_MODULE.findall(row.in_play)
        if row.in_play.startswith("—"):
            if modules or len(row.in_play.strip("— ")) < 10:
                bad.append(f"{row.key}: a row without an in-play module names none and says why: {row.in_play!r}")
            continue
        if not modules:
            bad.append(f"{row.key}: no in-play module named (or '— why none'): {row.in_play!r}")
        for m in modules:
            if not (ROOT / "gwasl" / m).is_file():
                bad.append(f"{row.key}: no module gwasl/{m}")
            elif not module_cites(m, row.key):
                bad.append(f"{row.key}: gwasl/{m} cites the rule in no docstring")
    return bad


def test_every_rule_names_its_in_play_module_which_cites_it():
    """Issue 23 item 6: docs/rules-coverage.md names, for each rule of ASLGW v0.1.1, the module that
    applies it in play; the module exists and one of its docstrings cites the rule."""
    rows = coverage_rows()
    assert len(rows) >= 90
    assert all(r.in_play for r in rows), "rows without the in-play column"
    assert in_play_problems() == []
    named = sum(1 for r in rows if IN_PLAY_MODULE.search(r.in_play))
    assert named >= 69, f"only {named} rules name an in-play module"  # 21 say why none (set-up only, not in play yet)


def test_the_in_play_check_catches_a_wrong_or_missing_module():
    """A module that does not cite the rule, one that does not exist, a bare dash and a row that
    lost its in-play cell are each reported."""
    head = "| Rule | Subject | Implementation | In play | Tests | validate |\n|---|---|---|---|---|---|\n"
    good = head + "| 1.9.14 | gas NTC | `gas:x` | `games/aslgw/actions/gas.py` | `t.py::t` | n/a |\n"
    assert in_play_problems(good) == []
    assert in_play_problems(good.replace("actions/gas.py", "actions/rout.py")) == [
        "1.9.14: gwasl/games/aslgw/actions/rout.py cites the rule in no docstring"]
    assert in_play_problems(good.replace("actions/gas.py", "actions/gaz.py")) == ["1.9.14: no module gwasl/games/aslgw/actions/gaz.py"]
    assert in_play_problems(good.replace("`games/aslgw/actions/gas.py`", "—"))
    assert in_play_problems(good.replace("`games/aslgw/actions/gas.py`", "gas.py"))
    five = "| 1.9.14 | gas NTC | `gas:x` | `t.py::t` | n/a |\n"
    assert [r.in_play for r in coverage_rows(five)] == [""]
    assert module_cites("games/aslgw/actions/gas.py", "Table 5") and not module_cites("games/aslgw/actions/gas.py", "Table 1")
    assert module_cites("games/aslgw/actions/movement.py", "1.3.12") and not module_cites("games/aslgw/actions/movement.py", "1.3.5")
    assert not module_cites("games/aslgw/actions/rout.py", "10.5")  # its docstrings cite A10.5, no ASLGW 10.5
    # an ignored row's ASL numbers, written "A.22.3" in the text's list: records.py cites A22.3, fire.py no A1.21
    assert module_cites("games/aslgw/records.py", "ignored A.22.3") and not module_cites("games/aslgw/actions/fire.py", "ignored A1.21 & A7.36")
