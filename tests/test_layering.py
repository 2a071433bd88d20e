"""docs/architecture.md "Layers", every arrow of it: ui > commands > store > games > editor
> engine > rules > model, each layer importing only the layers below it; Qt
(PySide6) only in ui; SQL (sqlmodel, SQLAlchemy, sqlite3) only in store.

Every import of every module counts: at the top, inside functions (lazy
imports), under ``if TYPE_CHECKING:``, relative imports, and
``importlib.import_module("...")`` with a literal name.  The data packages
(gwasl.resources, gwasl.scenarios) and the package root may be imported from
any layer and import no layer themselves.  gwasl/cli.py is the command line's
dispatcher, so it is part of the commands layer; gwasl/__main__.py stands
above every layer.

One arrow is bent on purpose, and only this way: a command that opens a
window or draws the map (``gwasl edit``, ``play``, ``render``) imports the ui
inside the function that needs it, never at module level, so every other
command runs without loading Qt.  The checker is tested on planted imports,
so this test cannot pass vacuously.

No import cycles either (issue 23): the graph of every import between gwasl's
modules, counted as above (lazy, under ``TYPE_CHECKING``, relative,
``import_module`` literals), has no strongly connected component of more than
one module.  "from gwasl.rules import los" is an edge to the package
``gwasl.rules`` and to the module ``gwasl.rules.los``; importing a submodule
is not counted as importing its parent package's ``__init__`` (Python does run
it first, but an ``__init__`` that imports none of its submodules, as every one
in gwasl, cannot close a cycle that way), while an ``__init__`` that does import
its submodules has those edges like any module.  Where two modules need each
other, a Protocol, a function passed in, or a third module serves.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from testsupport import ROOT

GWASL = ROOT / "gwasl"

#: The layers of docs/architecture.md, lowest first: a layer may import its own modules and those of lower layers.
LAYERS = ("model", "rules", "engine", "editor", "games", "store", "commands", "ui")
#: Importable from any layer; they import no layer.
DATA = ("gwasl.resources", "gwasl.scenarios")
#: Above every layer: ``python -m gwasl``.
ENTRY = ("gwasl.__main__",)
#: Modules outside the layer folders that belong to a layer.
IN_LAYER = {"gwasl.cli": "commands"}
QT = ("PySide6", "shiboken6", "PyQt5", "PyQt6", "PySide2")
SQL = ("sqlmodel", "sqlalchemy", "sqlite3")


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@functools.cache
def _is_module(name: str) -> bool:
    """Is ``name`` a module or package of the source tree ("from gwasl.rules import los" imports one)?"""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imported_modules(source: str, module: str, filename: str = "<src>") -> list[tuple[str, bool]]:
    """Every module ``source`` (the module ``module``) imports, anywhere in the file,
    with whether the import is lazy (inside a function)."""
    package = module if filename.endswith("__init__.py") else module.rpartition(".")[0]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((a.name, lazy) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, lazy))
            # "from gwasl.rules import los" imports the module gwasl.rules.los
            found.extend((f"{target}.{a.name}", lazy) for a in node.names if _is_module(f"{target}.{a.name}"))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            found.extend((a.value, lazy) for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str))
        inner = lazy or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(ast.parse(source, filename), False)
    return found


def layer_of(module: str) -> str | None:
    """The layer of a gwasl module, "data", "entry", "root", or None for a module outside gwasl."""
    if not _under(module, ("gwasl",)):
        return None
    if _under(module, DATA):
        return "data"
    if _under(module, ENTRY):
        return "entry"
    if module in IN_LAYER:
        return IN_LAYER[module]
    parts = module.split(".")
    if len(parts) == 1:
        return "root"
    if parts[1] in LAYERS:
        return parts[1]
    raise AssertionError(f"{module} is in no layer of docs/architecture.md: add it to LAYERS, DATA or ENTRY")


def violations(source: str, module: str, filename: str = "<src>") -> list[str]:
    """What ``module``'s imports break of the layering (docs/architecture.md "Layers"), one line each."""
    mine = layer_of(module)
    out: list[str] = []
    for name, lazy in imported_modules(source, module, filename):
        if _under(name, QT) and mine not in ("ui", "entry"):
            out.append(f"{module} imports {name}: Qt only in gwasl.ui")
        if _under(name, SQL) and mine not in ("store", "entry"):
            out.append(f"{module} imports {name}: SQL only in gwasl.store")
        theirs = layer_of(name)
        if theirs is None or theirs in ("root", "data") or mine == "entry":
            continue
        if mine in ("data", "root"):
            out.append(f"{module} imports {name}: {'data packages' if mine == 'data' else 'the package root'} import no layer")
        elif theirs == "ui" and mine == "commands" and lazy:
            continue  # a command that opens a window or draws the map (module doc)
        elif theirs == "entry" or LAYERS.index(theirs) > LAYERS.index(mine):
            out.append(f"{module} ({mine}) imports {name} ({theirs}): imports point down only ({' > '.join(reversed(LAYERS))})")
    return out


def gwasl_modules() -> list[tuple[str, Path]]:
    out = []
    for p in sorted(GWASL.rglob("*.py")):
        rel = p.relative_to(ROOT).with_suffix("")
        out.append((".".join(rel.parts).removesuffix(".__init__"), p))
    return out


def test_every_layer_of_DESIGN_md_is_a_package_and_every_module_is_in_a_layer():
    for layer in LAYERS:
        assert (GWASL / layer / "__init__.py").exists(), layer
    for module, _ in gwasl_modules():
        layer_of(module)  # raises for a module in no layer
    assert len(gwasl_modules()) >= 50


@pytest.mark.parametrize(("module", "path"), gwasl_modules(), ids=lambda x: x if isinstance(x, str) else "")
def test_imports_point_down_only(module: str, path: Path):
    bad = violations(path.read_text(encoding="utf-8"), module, str(path))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "planted"),
    [
        ("gwasl.model.hexgrid", "import PySide6"),
        ("gwasl.rules.los", "from PySide6.QtCore import QObject"),
        ("gwasl.engine.session", "def f():\n    from gwasl.ui import mainwindow\n"),
        ("gwasl.games.aslgw", "import sqlmodel"),
        ("gwasl.commands.game", "import sqlite3"),
        ("gwasl.ui.mainwindow", "from sqlalchemy import create_engine"),
        ("gwasl.model.scenario", "from gwasl.rules import los"),
        ("gwasl.rules.los", "from gwasl.engine.session import Session"),
        ("gwasl.engine.game", "import gwasl.editor.document"),
        ("gwasl.editor.document", "from gwasl.games import RULESETS"),
        ("gwasl.games.toy", "from gwasl.store.gamefile import open_game"),
        ("gwasl.store.library", "from gwasl.commands.common import print_json"),
        ("gwasl.commands.edit", "from gwasl.ui.app import run_editor"),  # at module level: Qt for every command
        ("gwasl.cli", "from gwasl.ui import app"),
        ("gwasl.rules.fog.view", "from ...engine import session"),
        ("gwasl.rules.fog.view", "from ... import editor"),
        ("gwasl.rules.fog", "from ... import engine"),
        ("gwasl.model.terrain", "from gwasl import cli"),
        ("gwasl.engine.batch", "def worker():\n    from gwasl.games import game_for\n"),
        ("gwasl.rules.units", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from gwasl.games import Game\n"),
        ("gwasl.engine.batch", "import importlib\nimportlib.import_module('gwasl.store.gamefile')"),
        ("gwasl.scenarios", "from gwasl.model.scenario import Scenario"),
    ],
)
def test_checker_catches_a_planted_import(module: str, planted: str):
    filename = "__init__.py" if module in ("gwasl.rules.fog", "gwasl.scenarios") else "x.py"
    assert violations(planted, module, filename)


@pytest.mark.parametrize(
    ("module", "allowed"),
    [
        ("gwasl.ui.mainwindow", "from PySide6.QtCore import Qt\nfrom gwasl.commands.common import print_json\nfrom gwasl.rules import los"),
        ("gwasl.store.library", "import sqlmodel\nfrom gwasl.games import RULESETS\nfrom gwasl.scenarios import bundled_folder"),
        ("gwasl.rules.los", "import numpy, shapely\nfrom gwasl.model.hexgrid import Hex\nfrom gwasl.model.terrain import RESOURCES"),
        ("gwasl.rules.fog.view", "from ..los import LosIndex\nfrom ...model import scenario\nfrom . import state"),
        ("gwasl.cli", "from gwasl.commands.common import UsageError\nfrom gwasl.store.gamefile import open_game"),
        ("gwasl.commands.render", "from gwasl.cli import UsageError\ndef run(args):\n    from gwasl.ui.render import render_png\n"),
        ("gwasl.__main__", "from gwasl.cli import main\nfrom gwasl.ui.app import run_editor"),
        ("gwasl.editor.document", "from gwasl import __version__\nfrom gwasl.engine.record import Record"),
    ],
)
def test_checker_allows_downward_imports(module: str, allowed: str):
    assert violations(allowed, module, "x.py") == []


# ---------------------------------------------------------------------------
# No import cycles (issue 23)


def _resolved(name: str) -> str | None:
    """The module of the source tree an imported name is (``gwasl.x.y.Name`` -> ``gwasl.x.y``)."""
    while name and not _is_module(name):
        name = name.rpartition(".")[0]
    return name or None


def module_imports(module: str, source: str, filename: str, tree: Iterable[str] = ()) -> set[str]:
    """The gwasl modules ``module`` imports, every import counted (module doc)."""
    deps: set[str] = set()
    for name, _ in imported_modules(source, module, filename):
        if not _under(name, ("gwasl",)):
            continue
        target = name if name in tree else _resolved(name)
        if target is not None and target != module:
            deps.add(target)
    return deps


def import_graph(sources: Mapping[str, tuple[str, str]]) -> dict[str, set[str]]:
    """module -> the gwasl modules it imports; ``sources`` maps a module to its source and file name."""
    return {m: module_imports(m, src, fn, sources) for m, (src, fn) in sources.items()}


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


@functools.cache
def _tree_graph() -> dict[str, frozenset[str]]:
    tree = {m: (p.read_text(encoding="utf-8"), str(p)) for m, p in gwasl_modules()}
    return {m: frozenset(deps) for m, deps in import_graph(tree).items()}


def test_no_import_cycles_in_gwasl():
    found = cycles(_tree_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize(
    ("module", "planted"),
    [
        ("gwasl.model.hexgrid", "def f():\n    from gwasl.model.scenario import Unit\n"),  # lazy
        ("gwasl.rules.fog.state", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .view import SideView\n"),
        ("gwasl.commands.common", "import gwasl.cli\n"),  # cli imports commands.common
        ("gwasl.engine.dice", "import importlib\nimportlib.import_module('gwasl.engine.game')"),
        ("gwasl.games.aslgw.state", "from gwasl.games.aslgw.victory import verdict"),
        ("gwasl.games.aslgw.records", "from gwasl.games.aslgw import game"),  # a module named through its package
    ],
)
def test_the_cycle_check_catches_a_planted_cycle(module: str, planted: str):
    graph = dict(_tree_graph())
    path = dict(gwasl_modules())[module]
    source = path.read_text(encoding="utf-8") + "\n" + planted
    graph[module] = frozenset(module_imports(module, source, str(path), graph))
    assert any(module in c for c in cycles(graph)), planted


def test_the_cycle_check_finds_every_component():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}, "g": set()}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]


# -- no module reaches into another's private names --------------------------------------------

def private_reaches(source: str, path: Path) -> list[str]:
    """Uses in ``source`` (the module at ``path``) of another gwasl module's private name:
    ``module._name`` where ``module`` is a gwasl module the file imports, or
    ``from gwasl.x import _name``.  A module offers what others may use as public names, so
    a change inside it cannot silently break a caller (issue 23: one place per rule)."""
    tree = ast.parse(source)
    bound: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bound.update(a.asname or a.name.split(".")[0] for a in node.names if a.name.startswith("gwasl"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gwasl"):
            base = ROOT.joinpath(*node.module.split("."))
            for a in node.names:
                if base.joinpath(a.name).with_suffix(".py").exists() or (base / a.name / "__init__.py").exists():
                    bound.add(a.asname or a.name)
                elif a.name.startswith("_") and not a.name.startswith("__"):
                    found.append(f"line {node.lineno}: from {node.module} import {a.name}")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
            continue
        base = node.value  # a module, or a dotted path through modules (gwasl.rules.los)
        while isinstance(base, ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name) and base.id in bound:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", sorted(GWASL.rglob("*.py")), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_uses_another_module_s_private_names(path: Path):
    bad = private_reaches(path.read_text(encoding="utf-8"), path)
    assert not bad, f"{path.relative_to(ROOT)} uses private names of other modules: {bad}"


@pytest.mark.parametrize("planted", [
    "from gwasl.games.aslgw import opponent as opp\nx = opp._look(seat)\n",
    "from gwasl.games.combined_arms import tactics as T\nT._steps(s)\n",
    "from gwasl.games.combined_arms.policies_assault import _exit_hops\n",
    "import gwasl.rules.los\ngwasl.rules.los._trace(a, b)\n",
])
def test_the_private_name_check_catches_a_planted_reach(planted: str):
    assert private_reaches(planted, GWASL / "x.py")


def test_the_private_name_check_allows_public_names_and_its_own():
    ok = ("import argparse\nfrom gwasl.games.aslgw import opponent as opp\nopp.priced_fire(seat, [])\n"
          "argparse._SubParsersAction\n_mine = 1\nself._x\n")
    assert private_reaches(ok, GWASL / "x.py") == []
