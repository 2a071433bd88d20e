"""DESIGN.md layering: model, rules, engine and games import nothing from Qt,
the UI or the SQL store.  The checker is tested on a planted import too, so
this test cannot pass vacuously."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE_PACKAGES = ("model", "rules", "engine", "editor", "games")
FORBIDDEN = ("PySide6", "shiboken6", "PyQt5", "PyQt6", "gwasl.ui", "gwasl.store", "sqlmodel", "sqlalchemy", "sqlite3")


def forbidden_imports(source: str, filename: str = "<src>") -> list[str]:
    """Every forbidden module that ``source`` imports, anywhere in the file."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            names = [a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        for n in names:
            if any(n == f or n.startswith(f + ".") for f in FORBIDDEN):
                found.append(n)
    return found


def pure_modules() -> list[Path]:
    return sorted(p for pkg in PURE_PACKAGES for p in (ROOT / "gwasl" / pkg).rglob("*.py"))


def test_there_are_pure_modules_to_check():
    assert len(pure_modules()) >= 5


@pytest.mark.parametrize("path", pure_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_layer_imports_no_qt_ui_or_sql(path: Path):
    bad = forbidden_imports(path.read_text(encoding="utf-8"), str(path))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}; DESIGN.md keeps Qt and SQL out of model/rules/engine/games"


@pytest.mark.parametrize(
    "planted",
    [
        "import PySide6",
        "from PySide6.QtCore import QObject",
        "from gwasl.ui import main_window",
        "import sqlmodel",
        "def f():\n    from gwasl.store.library import Library\n",
        "import importlib\nimportlib.import_module('PySide6.QtGui')",
    ],
)
def test_checker_catches_a_planted_import(planted: str):
    assert forbidden_imports(planted)


def test_checker_allows_pure_imports():
    assert forbidden_imports("import json\nfrom gwasl.model.hexgrid import Hex\nimport numpy, shapely") == []
