"""What the save tests share (issue 28): one game of each ruleset with an automated side,
played by a fixed choice of actions, and the journal compared entry by entry."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gwasl.engine.game import GameOptions
from gwasl.engine.journal import Entry
from gwasl.engine.session import Session
from gwasl.games import game_for
from gwasl.store.gamefile import GameFile, create_game, load_source

RULESETS = ("aslgw", "combined-arms", "on-patrol")
#: actions that end the whole game early: never chosen, so the games run long enough
_ENDS_THE_GAME = ("end_game", "break_off")


def source(ruleset: str) -> dict[str, Any] | None:
    if ruleset == "aslgw":
        from gwasl.scenarios import bundled_scenario

        return load_source("aslgw", str(bundled_scenario("bois-des-caures-1916.json")))
    if ruleset == "on-patrol":
        from gwasl.games.on_patrol.scenario import load_bundled

        return load_bundled("day-convoy")
    return None


def options(ruleset: str) -> GameOptions:
    # aslgw plays a side itself only when it keeps it secret (the French defender here)
    return GameOptions(frozenset({"french"})) if ruleset == "aslgw" else GameOptions()


def new_file(ruleset: str, path: Path, seed: int = 7) -> GameFile:
    return create_game(path, game_for(ruleset), source(ruleset), seed, options(ruleset))


def new_session(ruleset: str, seed: int = 7) -> Session[Any]:
    return Session.new(game_for(ruleset), source(ruleset), seed, options(ruleset))


def choose(session: Session[Any], step: int) -> Any:
    """The action played at ``step``: the same in every run that reaches the same state
    (ending the phase half the time, so the automated side gets to answer)."""
    legal = [a for a in session.legal() if a.action.kind not in _ENDS_THE_GAME]
    if not legal:
        return None
    rng = random.Random(step)
    enders = [a for a in legal if a.action.kind.startswith("end")]
    return (rng.choice(enders) if enders and rng.random() < 0.5 else rng.choice(legal)).action


def canon(entries: Any) -> list[str]:
    """Entries as comparable text: every field, every event's JSON."""
    return [json.dumps([e.index, e.kind, e.seq, e.dice, e.actor, dict(e.action) if e.action is not None else None,
                        e.group, list(e.undoes), e.why, [ev.to_json() for ev in e.events]], sort_keys=True)
            for e in entries]


def reference(ruleset: str, steps: int, seed: int = 7) -> tuple[list[Entry], list[int]]:
    """A live game of ``steps`` actions (fewer if it ends): its entries, and after each
    action how many entries the journal holds (the points where nothing is owed)."""
    s = new_session(ruleset, seed)
    bounds = [len(s.entries)]
    for step in range(steps):
        a = choose(s, step)
        if a is None:
            break
        s.act(a)
        bounds.append(len(s.entries))
    return list(s.entries), bounds


def acts_with_replies(entries: list[Entry]) -> list[int]:
    """The indexes of the ``act`` entries (and the opening) that automated replies follow."""
    return [e.index for e in entries[:-1] if e.kind in ("begin", "act") and entries[e.index + 1].kind == "auto"]


@contextlib.contextmanager
def scratch_folder(fallback: Path) -> Iterator[Path]:
    """A folder in memory (/dev/shm) where there is one, else ``fallback``: for tests that
    write thousands of game files and test what gwasl does, not what the disk does (a
    disk's fsyncs would only make them slow)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield fallback
        return
    folder = Path(tempfile.mkdtemp(prefix="gwasl-test-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
