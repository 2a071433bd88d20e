"""Helpers for the aslgw game tests: bundled scenarios as sources, sessions, a random
player that picks among the legal actions of one viewer, and actions applied to a game
file as ``gwasl game act`` applies them."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gwasl.engine.game import GameOptions
from gwasl.engine.session import LegalAction, Session
from gwasl.games.aslgw.game import AslgwGame
from gwasl.store.gamefile import open_game
from testsupport import bundled_scenarios

GAME = AslgwGame()
#: the actions that move the game on; a random player picks one of them now and then
ENDERS = ("end_phase", "end_window", "end_impulse", "end_platoon")


def source(path: Path | str) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def scenario_paths() -> list[Path]:
    return bundled_scenarios()


def new_session(src: dict[str, Any], seed: int = 1, secret: tuple[str, ...] = (), practice: bool = False) -> Session[Any]:
    return Session.new(GAME, src, seed, GameOptions(frozenset(secret), practice))


@functools.cache
def _random_game(path: str, seed: int, secret: tuple[str, ...]) -> Session[Any]:
    s = new_session(source(path), seed, secret)
    play(s, random.Random(seed))
    return s


def random_game(path: Path | str, seed: int, secret: tuple[str, ...] = ()) -> Session[Any]:
    """The bundled scenario at ``path`` played to its end by :func:`play` with ``random.Random(seed)``
    (dice seed ``seed``, ``secret`` sides kept secret), played once per test session and shared:
    test_playthrough.py and test_bundled_victory.py judge some of the same games.  Read it, never
    act on it."""
    return _random_game(str(Path(path).resolve()), seed, tuple(secret))


@functools.cache
def _replay_identical(path: str, seed: int, secret: tuple[str, ...]) -> Any:
    return _random_game(path, seed, secret).replay_check()


def random_game_replay(path: Path | str, seed: int, secret: tuple[str, ...] = ()) -> Any:
    """``replay_check()`` of :func:`random_game`, computed once."""
    return _replay_identical(str(Path(path).resolve()), seed, tuple(secret))


def pick(legal: list[LegalAction], rng: random.Random, end_bias: float = 0.15) -> LegalAction:
    """A random legal action; one that ends a phase, window or impulse with probability
    ``end_bias`` when there is one, so that whole games end in a few hundred actions."""
    enders = [a for a in legal if a.action.kind in ENDERS]
    if enders and rng.random() < end_bias:
        return rng.choice(enders)
    return rng.choice(legal)


def play(session: Session[Any], rng: random.Random, viewer: str = "player", limit: int = 5000,
         on_step: Callable[[Session[Any], LegalAction], None] | None = None) -> int:
    """Play random legal actions (as ``viewer`` knows them) until the game is over; the
    number of actions taken."""
    n = 0
    while not session.status().over:
        legal = session.legal(viewer)
        assert legal, f"no legal action for {viewer} at {session.status()}"
        a = pick(legal, rng)
        session.act(a.action, viewer)
        if on_step is not None:
            on_step(session, a)
        n += 1
        assert n < limit, "the game does not end"
    return n


def act_in_file(g: str | Path, choose: Callable[[list[LegalAction]], str | None], limit: int = 2000) -> int:
    """Open the game file once and apply the action ids ``choose`` picks (given the legal
    actions, as ``gwasl game legal`` lists them; None: stop), each found and applied as
    ``gwasl game act`` does (``find_action`` then ``act``, the entry committed before the
    next).  Returns the number of actions."""
    n = 0
    with open_game(g) as gf:
        while n < limit:
            ident = choose(gf.session.legal())
            if ident is None:
                return n
            entries = gf.session.act(gf.session.find_action(ident))
            assert entries and gf.session.shown(entries) is not None
            n += 1
    raise AssertionError("the game does not end")
