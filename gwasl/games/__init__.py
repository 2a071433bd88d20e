"""The games in play, by ruleset name (CONTRACTS 5: ``aslgw``, ``combined-arms``, ``on-patrol``).

Each ruleset lives in its own package and is imported only when asked for,
so the command line starts fast.  What a game is to the person choosing it
(its name, what it starts from, its options, its board) is declared on its
:class:`~gwasl.engine.game.Game` class, and read from there by the New game
dialog, the store, the command line and the player window: nothing else
names a ruleset.

>>> sorted(RULESETS)
['aslgw', 'combined-arms', 'on-patrol']
>>> rulesets()[:3]
['aslgw', 'combined-arms', 'on-patrol']
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gwasl.engine.game import Game, GameError

__all__ = ["DEFAULT_RULESET", "RULESETS", "Bundled", "UnknownRuleset", "bundled_sources", "game_for", "register_ruleset",
           "rulesets"]

#: ruleset name -> "module:attribute" of its Game class
RULESETS: dict[str, str] = {
    "aslgw": "gwasl.games.aslgw.game:AslgwGame",
    "combined-arms": "gwasl.games.combined_arms.game:CombinedArmsGame",
    "on-patrol": "gwasl.games.on_patrol.game:OnPatrolGame",
}
#: the ruleset a new game is of unless one is chosen (``gwasl game new``, the New game dialog)
DEFAULT_RULESET = "aslgw"

_EXTRA: dict[str, Game[Any]] = {}


class UnknownRuleset(GameError):
    """A ruleset name gwasl does not know (or whose package is not installed)."""


def register_ruleset(name: str, game: Game[Any]) -> None:
    """Make ``game`` available under ``name`` (tests and plug-ins)."""
    _EXTRA[name] = game


def rulesets() -> list[str]:
    """Every ruleset name: gwasl's own, then those registered, in order."""
    return [*RULESETS, *(n for n in _EXTRA if n not in RULESETS)]


def game_for(name: str) -> Game[Any]:
    """The :class:`Game` of ruleset ``name``."""
    if name in _EXTRA:
        return _EXTRA[name]
    target = RULESETS.get(name)
    if target is None:
        raise UnknownRuleset(f"unknown ruleset {name[:40]!r}: use one of {', '.join(sorted(rulesets()))}")
    module, _, attr = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:  # what failed, in one line: a missing package or a broken one
        raise UnknownRuleset(f"the {name} ruleset is not available in this gwasl ({type(e).__name__}: {e})") from None
    game: Game[Any] = cls()
    return game


@dataclass(frozen=True, slots=True)
class Bundled:
    """A source shipped with a game: its file's ``name`` (without ``.json``), its ``title``, its ``path``."""

    name: str
    title: str
    path: Path


def bundled_sources(game: Game[Any]) -> list[Bundled]:
    """The sources shipped with ``game`` (its :attr:`~gwasl.engine.game.SourceKind.bundled`
    folder), by name; none when it ships none.  A file of the folder that is not a JSON
    object is listed by its name (the game says what is wrong with it when it is chosen).

    >>> [b.name for b in bundled_sources(game_for("on-patrol"))]
    ['day-convoy', 'hunter-group', 'night-convoy']
    >>> bundled_sources(game_for("combined-arms"))
    []
    """
    target = game.source_kind.bundled
    if not target:
        return []
    module, _, attr = target.partition(":")
    folder = Path(getattr(importlib.import_module(module), attr))
    out = []
    for p in sorted(folder.glob("*.json")):
        try:
            obj = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            obj = None
        title = obj.get("title") if isinstance(obj, dict) else None
        out.append(Bundled(p.stem, str(title or p.stem), p))
    return out
