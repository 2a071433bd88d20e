"""The examples in docstrings of the pure layers are tests too."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> list[str]:
    out = []
    for pkg in ("model", "rules", "engine", "editor", "games"):
        for p in sorted((ROOT / "gwasl" / pkg).rglob("*.py")):
            rel = p.relative_to(ROOT).with_suffix("")
            out.append(".".join(rel.parts).removesuffix(".__init__"))
    return out


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
