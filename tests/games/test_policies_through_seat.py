"""Issue 23 item 3: "Policies play through the engine's Seat, never a private method of a
game."  A policy reads its side's view and the legal actions from the Seat it is given
(``seat.view()``, ``seat.legal()``, ``seat.odds()``); the code that plays policies (batch
play, the automata) hands them a Seat.  Checked on the source of every module where policies
live and every function that takes a ``seat``; the checker is tested on planted calls, so it
cannot pass by checking nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from testsupport import ROOT

GAMES = ROOT / "gwasl" / "games"
#: the modules of a game where its policies and their helpers live, and the engine's batch play
POLICY_MODULES = ("policies", "planner", "tactics", "enemy", "automaton", "figures")
#: named-tuple methods: public despite their underscore
NAMED_TUPLE = {"_replace", "_asdict", "_make"}


def _modules_bound(tree: ast.AST) -> set[str]:
    """Names the file binds to modules (``import x as y``, ``from pkg import module``)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = ROOT.joinpath(*node.module.split("."))
            out.update(a.asname or a.name for a in node.names
                       if base.joinpath(a.name).with_suffix(".py").exists() or (base / a.name / "__init__.py").exists())
    return out


def private_calls(source: str, whole_file: bool) -> list[str]:
    """Calls of another object's private method (``x._name(...)``, ``x`` not ``self``/``cls``
    nor a module) and reads of the Seat's private parts, in the file, or only inside
    functions that take a ``seat``."""
    tree = ast.parse(source)
    modules = _modules_bound(tree)
    scopes: list[ast.AST] = [tree] if whole_file else [
        f for f in ast.walk(tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(a.arg == "seat" for a in f.args.args)]
    found = []
    for scope in scopes:
        for node in ast.walk(scope):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "seat" \
                    and node.attr.startswith("_"):
                found.append(f"line {node.lineno}: {ast.unparse(node)} (the Seat's own)")
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            name, owner = node.func.attr, node.func.value
            if not name.startswith("_") or name.startswith("__") or name in NAMED_TUPLE:
                continue
            if isinstance(owner, ast.Name) and (owner.id in ("self", "cls") or owner.id in modules):
                continue
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}()")
    return found


def _files() -> list[tuple[Path, bool]]:
    out = [(ROOT / "gwasl" / "engine" / "batch.py", True)]
    for p in sorted(GAMES.rglob("*.py")):
        out.append((p, p.stem in POLICY_MODULES))
    return out


@pytest.mark.parametrize(("path", "whole_file"), _files(), ids=lambda x: str(x.relative_to(ROOT)) if isinstance(x, Path) else "")
def test_policies_call_no_private_method_of_a_game(path: Path, whole_file: bool):
    bad = private_calls(path.read_text(encoding="utf-8"), whole_file)
    assert not bad, f"{path.relative_to(ROOT)} plays past the Seat: " + "; ".join(bad)


@pytest.mark.parametrize(
    "planted",
    [
        "def _fire(s):\n    return game()._attacker_actions(s)\n",  # what Combined Arms' planner did
        "def f(s):\n    g = game()\n    return g._attacker_actions(s)\n",
        "class P:\n    def decide(self, seat, dice):\n        return seat._game.legal_actions(seat._state, seat.viewer)\n",
    ],
)
def test_the_checker_catches_a_planted_private_call(planted: str):
    assert private_calls(planted, whole_file=True)


def test_the_checker_allows_the_seat_self_modules_and_named_tuples():
    ok = ("from gwasl.games.aslgw.actions import movement as mv\nimport gwasl.games.combined_arms.rules as R\n"
          "def policy(seat, dice):\n    s = seat.view()\n    acts = seat.legal()\n    c = s.enemy[0]._replace(real=True)\n"
          "    return mv._enemy_in_the_way(s) or R._reach(s) or self._helper(acts)\n")
    assert private_calls(ok, whole_file=True) == []
    only_seat = "def helper(s):\n    return game()._attacker_actions(s)\n"
    assert private_calls(only_seat, whole_file=False) == []  # outside the policy modules, only what takes a seat
