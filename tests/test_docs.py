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
}
#: single public functions that implement no rule, and why
PLUMBING_FUNCTIONS: dict[str, str] = {
    'gwasl/games/on_patrol/summary.py:summary': 'the plain-text position `gwasl game show` prints (docs/contracts.md 5), no rule',
}
#: NOT DONE (issue 23 item 6): public functions that implement a rule, or load its table, and
#: do not cite it yet.  This list may only shrink: a function cited is removed from it (the test
#: below fails until it is), and a new function that does not cite its rule fails the test.
NOT_YET_CITED: frozenset[str] = frozenset({
    'gwasl/games/aslgw/opponent.py:morale',
    'gwasl/games/aslgw/opponent.py:opponent',
    'gwasl/games/aslgw/opponent.py:passive',
    'gwasl/games/aslgw/opponent.py:random_side',
    'gwasl/games/aslgw/opponent.py:automated',
    'gwasl/games/aslgw/seats.py:unit_side',
    'gwasl/games/aslgw/seats.py:duty',
    'gwasl/games/aslgw/seats.py:legal',
    'gwasl/games/aslgw/seats.py:why_not',
    'gwasl/games/aslgw/seats.py:apply_pass',
    'gwasl/games/aslgw/seats.py:pass_view',
    'gwasl/games/aslgw/seats.py:passed_view',
    'gwasl/rules/card.py:edge_hexes',
    'gwasl/rules/card.py:scenario_card',
    'gwasl/rules/card.py:card_problems',
    'gwasl/rules/checks_combat.py:Finding',
    'gwasl/rules/checks_units.py:Finding',
    'gwasl/rules/combat_table.py:parse_combat_table',
    'gwasl/rules/combat_table.py:combat_table',
    'gwasl/rules/dice.py:as_modifiers',
    'gwasl/rules/fire.py:parse_point_blank',
    'gwasl/rules/fire.py:total_fp',
    'gwasl/rules/fog/drm.py:total_drm',
    'gwasl/rules/fog/env.py:sees_from_index',
    'gwasl/rules/fog/env.py:default_env',
    'gwasl/rules/fog/policy.py:threat_map',
    'gwasl/rules/fog/preview.py:plan_between',
    'gwasl/rules/fog/state.py:fog_extension',
    'gwasl/rules/fog/words.py:consequence_lines',
    'gwasl/rules/fog/words.py:line',
    'gwasl/rules/fog/words.py:public_lines',
    'gwasl/rules/ift.py:two_dice',
    'gwasl/rules/los.py:visible_from',
    'gwasl/rules/los.py:check_outlines',
    'gwasl/rules/morale.py:parse_asl_core',
    'gwasl/rules/morale.py:to_json',
    'gwasl/rules/movement.py:parse_movement',
    'gwasl/rules/movement.py:movement_table',
    'gwasl/rules/movement.py:map_key',
    'gwasl/rules/movement.py:cached_step_cost',
    'gwasl/rules/organisation.py:parse_organisation',
    'gwasl/rules/organisation.py:find_unit',
    'gwasl/rules/organisation.py:formation_members',
    'gwasl/rules/stacking.py:stacking_problems_after',
    'gwasl/rules/turn_record.py:turn_record',
    'gwasl/rules/units.py:as_date',
    'gwasl/rules/units.py:parse_nationalities',
    'gwasl/rules/validate.py:scenario_check',
    'gwasl/rules/validate.py:validate_scenario',
    'gwasl/games/__init__.py:register_ruleset',
    'gwasl/games/__init__.py:rulesets',
    'gwasl/games/__init__.py:game_for',
    'gwasl/games/__init__.py:bundled_sources',
    'gwasl/games/aslgw/actions/bayonet_charge.py:options',
    'gwasl/games/aslgw/actions/bayonet_charge.py:resolve_declaration',
    'gwasl/games/aslgw/actions/bayonet_charge.py:resolve_step',
    'gwasl/games/aslgw/actions/close_combat.py:area_of',
    'gwasl/games/aslgw/actions/close_combat.py:areas',
    'gwasl/games/aslgw/actions/close_combat.py:pending',
    'gwasl/games/aslgw/actions/close_combat.py:options',
    'gwasl/games/aslgw/actions/close_combat.py:fx_loc',
    'gwasl/games/aslgw/actions/close_combat.py:resolve_cc',
    'gwasl/games/aslgw/actions/close_combat.py:odds',
    'gwasl/games/aslgw/actions/close_combat.py:why_illegal',
    'gwasl/games/aslgw/actions/fire.py:harm',
    'gwasl/games/aslgw/actions/fire.py:why_not',
    'gwasl/games/aslgw/actions/fire.py:after_move_em',
    'gwasl/games/aslgw/actions/fire.py:automated',
    'gwasl/games/aslgw/actions/gas.py:resolve_release',
    'gwasl/games/aslgw/actions/gas.py:resolve_removal',
    'gwasl/games/aslgw/actions/gas.py:expire',
    'gwasl/games/aslgw/actions/movement.py:carried',
    'gwasl/games/aslgw/actions/movement.py:allowance',
    'gwasl/games/aslgw/actions/movement.py:unit_blocker',
    'gwasl/games/aslgw/actions/movement.py:resolve_step',
    'gwasl/games/aslgw/actions/movement.py:dt_bonus',
    'gwasl/games/aslgw/actions/movement.py:start_play',
    'gwasl/games/aslgw/actions/movement.py:pile_stacks',
    'gwasl/games/aslgw/actions/movement.py:platoon_side',
    'gwasl/games/aslgw/actions/movement.py:impulse_members',
    'gwasl/games/aslgw/actions/movement.py:impulse_check',
    'gwasl/games/aslgw/actions/movement.py:why_not',
    'gwasl/games/aslgw/actions/movement.py:group',
    'gwasl/games/aslgw/actions/movement.py:odds',
    'gwasl/games/aslgw/actions/rally.py:options',
    'gwasl/games/aslgw/actions/rally.py:odds',
    'gwasl/games/aslgw/actions/rally.py:resolve_rally',
    'gwasl/games/aslgw/actions/rally.py:resolve_repair',
    'gwasl/games/aslgw/actions/rout.py:must',
    'gwasl/games/aslgw/actions/rout.py:destinations',
    'gwasl/games/aslgw/actions/rout.py:pending',
    'gwasl/games/aslgw/actions/shifts.py:plan_for',
    'gwasl/games/aslgw/actions/shifts.py:shift_options',
    'gwasl/games/aslgw/actions/shifts.py:resolve_player_shift',
    'gwasl/games/aslgw/actions/shifts.py:run_window',
    'gwasl/games/aslgw/actions/shifts.py:minefield_odds',
    'gwasl/games/aslgw/actions/shifts.py:resolve_minefield',
    'gwasl/games/aslgw/actions/shifts.py:side_view',
    'gwasl/games/aslgw/actions/shifts.py:window_policy',
    'gwasl/games/aslgw/actions/shifts.py:why_not',
    'gwasl/games/aslgw/effects.py:eliminate',
    'gwasl/games/aslgw/effects.py:pin',
    'gwasl/games/aslgw/effects.py:with_mark',
    'gwasl/games/aslgw/effects.py:mark_moved',
    'gwasl/games/aslgw/knowledge.py:env',
    'gwasl/games/aslgw/knowledge.py:is_hidden',
    'gwasl/games/aslgw/knowledge.py:known_scenario',
    'gwasl/games/aslgw/knowledge.py:pile_key',
    'gwasl/games/aslgw/knowledge.py:piles',
    'gwasl/games/aslgw/knowledge.py:side_knowledge',
    'gwasl/games/aslgw/knowledge.py:infantry',
    'gwasl/games/aslgw/knowledge.py:private_dice',
    'gwasl/games/aslgw/knowledge.py:secret_roll',
    'gwasl/games/aslgw/settings.py:game_settings',
    'gwasl/games/aslgw/state.py:ro',
    'gwasl/games/aslgw/victory.py:exit_loss',
    'gwasl/games/aslgw/victory.py:control_json',
    'gwasl/games/aslgw/victory.py:result_json',
    'gwasl/games/aslgw/victory.py:verdict_record',
    'gwasl/games/aslgw/victory.py:is_quiet',
    'gwasl/games/combined_arms/board.py:index_of',
    'gwasl/games/combined_arms/board.py:label',
    'gwasl/games/combined_arms/board.py:distance',
    'gwasl/games/combined_arms/board.py:bits',
    'gwasl/games/combined_arms/board.py:road_step',
    'gwasl/games/combined_arms/board.py:in_arc',
    'gwasl/games/combined_arms/board.py:corner_hexes',
    'gwasl/games/combined_arms/board.py:line_hexes',
    'gwasl/games/combined_arms/choices.py:unit_actions',
    'gwasl/games/combined_arms/choices.py:option_action',
    'gwasl/games/combined_arms/choices.py:unit_options',
    'gwasl/games/combined_arms/choices.py:mortar_options',
    'gwasl/games/combined_arms/enemy.py:pick',
    'gwasl/games/combined_arms/enemy.py:defender_policy',
    'gwasl/games/combined_arms/enemy.py:armour_choices',
    'gwasl/games/combined_arms/enemy.py:best_payoff',
    'gwasl/games/combined_arms/enemy.py:activation_decision',
    'gwasl/games/combined_arms/planner.py:by_phase',
    'gwasl/games/combined_arms/planner.py:threat_map',
    'gwasl/games/combined_arms/policies.py:choices',
    'gwasl/games/combined_arms/policies.py:random_policy',
    'gwasl/games/combined_arms/rules.py:chances',
    'gwasl/games/combined_arms/rules.py:terrain_masks',
    'gwasl/games/combined_arms/rules.py:unit_masks',
    'gwasl/games/combined_arms/rules.py:infantry_in',
    'gwasl/games/combined_arms/rules.py:friendly_broken',
    'gwasl/games/combined_arms/rules.py:armour_chances',
    'gwasl/games/combined_arms/rules.py:fresh_units_on_board',
    'gwasl/games/combined_arms/state.py:put',
    'gwasl/games/combined_arms/state.py:setter',
    'gwasl/games/combined_arms/state.py:with_units',
    'gwasl/games/combined_arms/state.py:with_enemy',
    'gwasl/games/combined_arms/state.py:with_smoke',
    'gwasl/games/combined_arms/state.py:initial_state',
    'gwasl/games/combined_arms/tables.py:load_terrain',
    'gwasl/games/combined_arms/tables.py:load_board',
    'gwasl/games/combined_arms/tactics.py:companies',
    'gwasl/games/combined_arms/tactics.py:stop_reason',
    'gwasl/games/on_patrol/automaton.py:escort_orders',
    'gwasl/games/on_patrol/combat.py:d66',
    'gwasl/games/on_patrol/combat.py:band',
    'gwasl/games/on_patrol/combat.py:attack_drms',
    'gwasl/games/on_patrol/combat.py:attack_result',
    'gwasl/games/on_patrol/combat.py:gun_target',
    'gwasl/games/on_patrol/combat.py:prolonged_result',
    'gwasl/games/on_patrol/detection.py:sonar_target',
    'gwasl/games/on_patrol/figures.py:mean_ci',
    'gwasl/games/on_patrol/figures.py:summary',
    'gwasl/games/on_patrol/figures.py:main',
    'gwasl/games/on_patrol/formation.py:along2',
    'gwasl/games/on_patrol/formation.py:lay_half',
    'gwasl/games/on_patrol/geometry.py:turns_between',
    'gwasl/games/on_patrol/geometry.py:direction_between',
    'gwasl/games/on_patrol/geometry.py:cross_sign',
    'gwasl/games/on_patrol/geometry.py:turn_toward',
    'gwasl/games/on_patrol/policies.py:pick',
    'gwasl/games/on_patrol/policies.py:random_policy',
    'gwasl/games/on_patrol/policies.py:sensible_policy',
    'gwasl/games/on_patrol/scenario.py:bundled',
    'gwasl/games/on_patrol/scenario.py:load_bundled',
    'gwasl/games/on_patrol/state.py:hx',
    'gwasl/games/on_patrol/state.py:lab',
    'gwasl/games/on_patrol/state.py:evolve',
    'gwasl/games/on_patrol/tables.py:load_tables',
    'gwasl/games/on_patrol/tables.py:tables',
    'gwasl/games/on_patrol/tables.py:stand_ins',
})


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
        if rel in PLUMBING_MODULES or f"{rel}:{name}" in PLUMBING_FUNCTIONS or f"{rel}:{name}" in NOT_YET_CITED:
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


def test_the_list_not_yet_cited_only_shrinks():
    """An entry of NOT_YET_CITED that exists and now cites its rule must leave the list."""
    docs = {f"{rel}:{name}": doc for rel, name, doc in public_functions()}
    cited = sorted(f for f in NOT_YET_CITED if f in docs and RULE_REFERENCE.search(docs[f]))
    gone = sorted(f for f in NOT_YET_CITED if f not in docs)
    assert not cited and not gone, f"remove from NOT_YET_CITED: {cited + gone}"


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
