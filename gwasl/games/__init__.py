"""The games in play, by ruleset name (CONTRACTS 5: ``aslgw``, ``combined-arms``, ``on-patrol``).

Each ruleset lives in its own package and is imported only when asked for,
so the command line starts fast.

>>> sorted(RULESETS)
['aslgw', 'combined-arms', 'on-patrol']
"""

from __future__ import annotations

import importlib
from typing import Any

from gwasl.engine.game import Game, GameError

__all__ = ["RULESETS", "UnknownRuleset", "game_for", "register_ruleset"]

#: ruleset name -> "module:attribute" of its Game class
RULESETS: dict[str, str] = {
    "aslgw": "gwasl.games.aslgw.game:AslgwGame",
    "combined-arms": "gwasl.games.combined_arms.game:CombinedArmsGame",
    "on-patrol": "gwasl.games.on_patrol.game:OnPatrolGame",
}

_EXTRA: dict[str, Game[Any]] = {}


class UnknownRuleset(GameError):
    """A ruleset name gwasl does not know (or whose package is not installed)."""


def register_ruleset(name: str, game: Game[Any]) -> None:
    """Make ``game`` available under ``name`` (tests and plug-ins)."""
    _EXTRA[name] = game


def game_for(name: str) -> Game[Any]:
    """The :class:`Game` of ruleset ``name``."""
    if name in _EXTRA:
        return _EXTRA[name]
    target = RULESETS.get(name)
    if target is None:
        raise UnknownRuleset(f"unknown ruleset {name[:40]!r}: use one of {', '.join(sorted(RULESETS))}")
    module, _, attr = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        raise UnknownRuleset(f"the {name} ruleset is not available in this gwasl") from None
    game: Game[Any] = cls()
    return game
