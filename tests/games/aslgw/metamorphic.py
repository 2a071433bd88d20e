"""The metamorphic check of CONTRACTS 5: two games that differ only in facts hidden
from a viewer give that viewer identical ``legal``, ``show``, ``log``, ``odds`` and
``act`` output, action for action, until a rule reveals the difference.

Used by tests/games/aslgw/test_metamorphic.py (a hypothesis sample in ``make test``)
and scripts/aslgw_metamorphic.py (a sweep over thousands of playouts).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.aslgw.playout import GAME, pick, scenario_paths, source
from games.aslgw.variants import hidden_variants
from gwasl.engine.game import GameOptions
from gwasl.engine.session import Session


@dataclass(frozen=True)
class Case:
    """A scenario, the side whose hidden facts differ, and who looks: ``player`` with that
    side kept secret (``--secret SIDE``), or, without ``--secret``, the other side."""

    path: str
    hidden_side: str
    secret: bool
    variant: str

    @property
    def viewer(self) -> str:
        return "player" if self.secret else "other"


def cases() -> list[Case]:
    out = []
    for p in scenario_paths():
        doc = source(p)
        for side in doc["sides"]:
            for name, _ in hidden_variants(doc, side):
                for secret in (True, False):
                    out.append(Case(str(p), side, secret, name))
    return out


@dataclass
class Outcome:
    steps: int = 0
    revealed: bool = False
    over: bool = False
    kinds: dict[str, int] = field(default_factory=dict)


class Leak(AssertionError):
    """The two games told the viewer different things before any reveal."""


def _sessions(case: Case, seed: int) -> tuple[Session[Any], Session[Any], str]:
    doc = source(case.path)
    variant = dict(hidden_variants(doc, case.hidden_side))[case.variant]
    sides = list(doc["sides"])
    other = sides[1] if sides[0] == case.hidden_side else sides[0]
    opts = GameOptions(frozenset({case.hidden_side}) if case.secret else frozenset())
    a = Session.new(GAME, doc, seed, opts)
    b = Session.new(GAME, variant, seed, opts)
    return a, b, "player" if case.secret else other


def _same(what: str, x: Any, y: Any, step: int) -> None:
    if x == y:
        return
    if isinstance(x, list) and isinstance(y, list):
        only_a = [i for i in x if i not in y]
        only_b = [i for i in y if i not in x]
        raise Leak(f"step {step}: {what} differs:\n  only A: {only_a!r}\n  only B: {only_b!r}")
    if isinstance(x, dict) and isinstance(y, dict):
        keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
        raise Leak(f"step {step}: {what} differs in {keys}:\n" + "\n".join(f"  {k}: A {x.get(k)!r}\n  {k}: B {y.get(k)!r}" for k in keys))
    raise Leak(f"step {step}: {what} differs:\n  A: {x!r}\n  B: {y!r}")


def run(case: Case, seed: int, play_seed: int, max_steps: int = 60) -> Outcome:
    """Play the two games side by side with the same random legal actions, comparing
    everything the viewer is shown; stop at the first reveal, the end, or ``max_steps``."""
    a, b, viewer = _sessions(case, seed)
    rng = random.Random(play_seed)
    out = Outcome()
    for step in range(max_steps):
        if a.status().over or b.status().over:
            # A26.15: the game's end declares everything, Control as it truly is included
            _same("over", a.status().over, b.status().over, step)
            out.over = True
            break
        _same("status", a.status(), b.status(), step)
        la, lb = a.legal(viewer), b.legal(viewer)
        _same("legal", [(x.id, x.shown.kind, x.shown.text) for x in la], [(x.id, x.shown.kind, x.shown.text) for x in lb], step)
        _same("show", a.view(viewer), b.view(viewer), step)
        if a.status().over or not la:
            out.over = a.status().over
            break
        choice = pick(la, rng)
        i = la.index(choice)
        act_a, act_b = la[i].action, lb[i].action
        _same("action", act_a.to_json(), act_b.to_json(), step)
        _same("odds", a.odds(act_a, viewer), b.odds(act_b, viewer), step)
        ea, eb = a.act(act_a, viewer), b.act(act_b, viewer)
        events = [ev for e in (*ea, *eb) for ev in e.events]
        if any(getattr(ev, "reveals", False) for ev in events):
            out.revealed = True
            break
        _same("act", a.shown(ea, viewer), b.shown(eb, viewer), step)
        for e in a.shown(ea, viewer):
            out.kinds[e["kind"]] = out.kinds.get(e["kind"], 0) + 1
        out.steps = step + 1
    if not out.revealed:
        _same("log", a.log(viewer), b.log(viewer), out.steps)
    assert a.replay_check().identical and b.replay_check().identical
    return out
