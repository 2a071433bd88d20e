"""The editor speaks in words: "deep trench crest", "unit G1-4, class", not
``deep_trench_crest`` or ``$.units[3].class`` (issue 10 item 16).

The file format's identifiers, JSON paths and the developers' contract
citations ("CONTRACTS 3") stay in the file and on the command line; what the
window shows goes through this module: :func:`words` for one value,
:func:`where` for a JSON path, :func:`user_text` for a whole message.

No Qt here: plain functions, tested headless.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum

from gwasl.model.scenario import (
    DummyKind,
    FormationKind,
    FortificationKind,
    Front,
    GasProtection,
    HiddenStatus,
    Nationality,
    Position,
    Scenario,
    Terrain,
    UnitClass,
    UnitKind,
    Weather,
)

__all__ = ["words", "where", "user_text"]

# Every vocabulary of the file format whose values a message may quote.
_VOCABULARIES: tuple[type[Enum], ...] = (
    Terrain, Front, Weather, FortificationKind, Nationality, GasProtection, UnitKind, UnitClass, Position,
    HiddenStatus, FormationKind, DummyKind,
)
# Only the values written with an underscore need translating; longest first so
# "deep_trench_crest" is not read as "deep_trench" + "_crest".
_SNAKE = sorted({str(m.value) for e in _VOCABULARIES for m in e if "_" in str(m.value)}, key=len, reverse=True)
_SNAKE_RE = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, _SNAKE)) + r")(?![\w-])")
# Field names of the file, in the words the editor uses for them.
_FIELD = {
    "in": "position",
    "class": "class",
    "hidden": "hidden status",
    "hex": "hex",
    "trench_armour": "trench armour",
    "gas_protection": "gas protection",
    "hand_grenades": "hand grenades",
    "default_terrain": "default terrain",
}
# "(CONTRACTS 3)", "CONTRACTS 3; " ...: citations of the developers' contract, not of a rule the user plays by.
_CONTRACTS_RE = [
    (re.compile(r"\s*\(CONTRACTS \d+\)"), ""),
    (re.compile(r"\(CONTRACTS \d+[;,]\s*"), "("),
    (re.compile(r"[;,]\s*CONTRACTS \d+(?=[);,])"), ""),
    (re.compile(r"\s*\[CONTRACTS \d+\]"), ""),
    (re.compile(r"docs/rules-notes\.md"), "the rules notes"),
]
# Abbreviations the rules write in capitals (O'Leary 3: Hidden Initial Placement).
_SPECIAL = {"hip": "HIP", "dummy_hip": "dummy HIP"}
_HIP_RE = re.compile(r"(?<![\w-])hip(?![\w-])")
_PATH_RE = re.compile(r"\$(?:\.[A-Za-z_][\w-]*|\[\d+\])*")


def words(value: object) -> str:
    """A value of the file format as the editor writes it: ``deep_trench_crest`` -> "deep trench crest".

    >>> words(Position.DEEP_TRENCH_CREST), words("support_weapon"), words(HiddenStatus.HIP), words(None)
    ('deep trench crest', 'support weapon', 'HIP', '')
    """
    if value is None:
        return ""
    text = str(value.value) if isinstance(value, Enum) else str(value)
    return _SPECIAL.get(text, text.replace("_", " "))


def _field(name: str) -> str:
    return _FIELD.get(name, words(name))


def where(path: str, scenario: Scenario | None = None) -> str:
    """A finding's JSON path in words, naming the unit, formation, hex or work it points at.

    >>> where("$.map.hexes.C3.outline"), where("$.units[3].class"), where("$.sides.german.gas_protection")
    ('hex C3, outline', 'unit #4, class', 'side german, gas protection')
    """
    if path in ("$", ""):
        return "scenario"
    parts = re.findall(r"\.([A-Za-z_][\w-]*)|\[(\d+)\]", path[1:] if path.startswith("$") else path)
    keys: list[str | int] = [int(i) if i else name for name, i in parts]
    head, rest = _subject(keys, scenario)
    tail = [_field(k) for k in rest if isinstance(k, str)]
    return ", ".join([head] + tail) if head else ", ".join(tail) or path


def _subject(keys: list[str | int], s: Scenario | None) -> tuple[str, list[str | int]]:
    """The thing a path points at, in words, and the keys left after it."""
    if len(keys) >= 2 and keys[0] in ("units", "formations", "dummies") and isinstance(keys[1], int):
        i = keys[1]
        if keys[0] == "units":
            return (f"unit {s.units[i].id}" if s is not None and i < len(s.units) else f"unit #{i + 1}"), keys[2:]
        if keys[0] == "formations":
            return (f"formation {s.formations[i].id}" if s is not None and i < len(s.formations) else f"formation #{i + 1}"), keys[2:]
        if s is not None and i < len(s.dummies):
            d = s.dummies[i]
            return f"{words(d.kind)} in {d.hex}", keys[2:]
        return f"dummy #{i + 1}", keys[2:]
    if keys[:2] == ["map", "hexes"] and len(keys) >= 3:
        return f"hex {keys[2]}", keys[3:]
    if keys[:2] == ["map", "fortifications"] and len(keys) >= 3 and isinstance(keys[2], int):
        i = keys[2]
        if s is not None and i < len(s.map.fortifications):
            f = s.map.fortifications[i]
            return f"{words(f.kind)} in {_hex_list(h.label for h in f.hexes)}", [k for k in keys[3:] if isinstance(k, str)]
        return f"fortification #{i + 1}", [k for k in keys[3:] if isinstance(k, str)]
    if keys[:1] == ["map"]:
        return "map", keys[1:]
    if keys[:1] == ["sides"] and len(keys) >= 2:
        return f"side {keys[1]}", keys[2:]
    if keys[:1] == ["ssr"]:
        return "special rules", [k for k in keys[1:] if isinstance(k, str)]
    return "", keys


def _hex_list(labels: Iterable[str]) -> str:
    labels = list(labels)
    return ", ".join(labels) if len(labels) <= 4 else f"{', '.join(labels[:3])} and {len(labels) - 3} more"


def user_text(text: str, scenario: Scenario | None = None) -> str:
    """A message for the window: JSON paths, snake_case values and contract citations put into words.

    >>> user_text("$.units[0].in: unit F1-2 is deep_trench but hex H6 has no deep_trench (CONTRACTS 3)")
    'unit #1, position: unit F1-2 is deep trench but hex H6 has no deep trench'
    """
    for pattern, repl in _CONTRACTS_RE:
        text = pattern.sub(repl, text)
    text = _PATH_RE.sub(lambda m: where(m.group(0), scenario) if len(m.group(0)) > 1 else m.group(0), text)
    text = _SNAKE_RE.sub(lambda m: words(m.group(1)), text)
    return _HIP_RE.sub("HIP", text)
