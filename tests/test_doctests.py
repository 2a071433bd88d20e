"""The examples in docstrings of the pure layers are tests too."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("model", "rules", "engine", "editor", "games")


def _modules() -> list[tuple[str, bool]]:
    """Each module of the pure layers, and whether its source holds an example (``>>>``):
    doctest finds examples only after a ``>>>`` prompt, so a module without one has none to run."""
    out = []
    for pkg in PACKAGES:
        for p in sorted((ROOT / "gwasl" / pkg).rglob("*.py")):
            rel = p.relative_to(ROOT).with_suffix("")
            out.append((".".join(rel.parts).removesuffix(".__init__"), ">>>" in p.read_text(encoding="utf-8")))
    return out


def test_every_module_of_the_pure_layers_imports():
    """Those without examples are at least imported (as each was when every module had a doctest run)."""
    names = [name for name, _ in _modules()]
    assert len(names) > 100
    for name in names:
        importlib.import_module(name)


def test_modules_without_a_prompt_have_no_examples():
    """The ``>>>`` filter below skips nothing doctest would run: its parser finds no example
    in a text without the prompt (checked on a docstring that looks like one otherwise)."""
    parser = doctest.DocTestParser()
    assert parser.get_examples("Hex.from_label('A1')\n    Hex(col=0, row=0)\n") == []
    assert len(parser.get_examples(">>> 1 + 1\n2\n")) == 1


@pytest.mark.parametrize("name", [name for name, has_example in _modules() if has_example])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    assert result.attempted > 0, f"{name} has a '>>>' but doctest found no example in it"
