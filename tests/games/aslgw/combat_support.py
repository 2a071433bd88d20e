"""Helpers for the fire and close combat tests: scripted dice through the game's own
event machinery, and short ways to reach a phase and read the log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.aslgw.playout import GAME
from gwasl.engine.dice import GameDice
from gwasl.engine.events import Rolled
from gwasl.engine.record import Record
from gwasl.engine.session import Session
from gwasl.games.aslgw import effects as fx


class ScriptedGameDice(GameDice):
    """The game's dice with given values: every roll is still logged and made an event."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(seed=0)
        self._values = list(values)

    def _die(self) -> int:
        self.position += 1
        if not self._values:
            raise AssertionError("scripted dice ran out")
        return self._values.pop(0)


def emitter(s: Session[Any], dice: Iterable[int]) -> fx.Emitter:
    """An :class:`~gwasl.games.aslgw.effects.Emitter` on the session's current state."""
    return fx.Emitter(s.state, ScriptedGameDice(dice), GAME.reduce)


def rolls(events: Iterable[Record]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled)]


def of(events: Iterable[Record], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def flat(entries: Iterable[Any]) -> list[Record]:
    return [ev for e in entries for ev in e.events]


def causes(roll: Rolled) -> list[str]:
    return [m.cause for m in roll.modifiers]


def enemy_hexes(s: Session[Any], side: str) -> list[Any]:
    """Where ``side`` sees the enemy (its own view: units and "?" counters)."""
    from gwasl.model.hexgrid import Hex

    v = s.view(side)
    return [Hex.from_label(u["hex"]) for u in v["units"] if u["side"] != side] + \
        [Hex.from_label(c["hex"]) for c in v["concealed"] if c["side"] != side]


def aggressive(s: Session[Any], rng: Any, viewer: str = "player") -> Any:
    """A random player that seeks the fight: it resolves close combat and routs first,
    charges with the bayonet now and then, rallies, fires, moves towards the enemy it
    sees, and ends phases only when nothing else tempts it."""
    from gwasl.model.hexgrid import Hex

    legal = s.legal(viewer)
    by: dict[str, list[Any]] = {}
    for la in legal:
        by.setdefault(la.action.kind, []).append(la)
    for k in ("close_combat", "end_charge_impulse", "charge_step", "rout"):
        if k in by:
            return rng.choice(by[k])
    for k, p in (("bayonet_charge", 0.5), ("release_gas", 0.5), ("rally", 0.7), ("repair", 0.5), ("fire", 0.3), ("withdraw", 0.1)):
        if k in by and rng.random() < p:
            return rng.choice(by[k])
    moves = by.get("move", []) + by.get("impulse_step", [])
    if moves and rng.random() < 0.85:
        en = enemy_hexes(s, s.state.phasing)

        def score(la: Any) -> int:
            to = Hex.from_label(la.action.to)
            return min((to.distance(e) for e in en), default=0)

        best = min(score(la) for la in moves)
        return rng.choice([la for la in moves if score(la) == best])
    for k in ("end_impulse", "end_platoon", "end_window", "end_phase"):
        if k in by:
            return by[k][0]
    return rng.choice(legal)


def fight(s: Session[Any], rng: Any, limit: int = 3000) -> int:
    """Play ``s`` to its end with :func:`aggressive`; the number of actions."""
    n = 0
    while not s.status().over:
        s.act(aggressive(s, rng).action)
        n += 1
        assert n < limit, "the game does not end"
    return n


# ---------------------------------------------------------------------------
# The metamorphic check (CONTRACTS 5) in contact: fire and close combat


def contact_doc(date: str = "1917-04-09") -> dict[str, Any]:
    """Germans close to a French position whose hidden layer varies: a "?" of real units
    and a dummy "?" with as many counters, HIP squads and a dummy HIP, a hidden leader."""
    from games.aslgw.builders import doc, leader, squad

    units = [squad("G1", "C3"), squad("G2", "C3"), leader("GL", "C3"), squad("G3", "D3"), squad("G4", "E3"),
             leader("GL2", "E3"), squad("F1", "C5", "french", hidden="concealed"), squad("F2", "C5", "french", hidden="concealed"),
             leader("FL", "C5", "french", hidden="concealed"), squad("F3", "E5", "french", hidden="hip"),
             squad("F4", "F6", "french")]
    dummies = [{"side": "french", "kind": "dummy_stack", "hex": "D6", "counters": 4},
               {"side": "french", "kind": "dummy_hip", "hex": "B6"}]
    return doc(units, dummies=dummies, date=date, hexes={"C5": {"terrain": "woods"}, "D6": {"terrain": "woods"}},
               game={"turns": 2})


def compare(a_doc: dict[str, Any], b_doc: dict[str, Any], hidden_side: str, secret: bool, seed: int, play_seed: int,
            max_steps: int = 80) -> dict[str, int]:
    """Play the two games side by side with the same fight-seeking choices (made in game A)
    and compare all the viewer is shown, until a reveal; the kinds of events compared."""
    from games.aslgw.metamorphic import _same
    from gwasl.engine.game import GameOptions

    sides = list(a_doc["sides"])
    other = sides[1] if sides[0] == hidden_side else sides[0]
    opts = GameOptions(frozenset({hidden_side}) if secret else frozenset())
    a, b = Session.new(GAME, a_doc, seed, opts), Session.new(GAME, b_doc, seed, opts)
    viewer = "player" if secret else other
    rng = __import__("random").Random(play_seed)
    kinds: dict[str, int] = {}
    steps = 0
    for step in range(max_steps):
        if a.status().over or b.status().over:
            # A26.15: the game's end declares everything, Control as it truly is included: from
            # there the twins may differ (both must end together)
            _same("over", a.status().over, b.status().over, step)
            break
        _same("status", a.status(), b.status(), step)
        la, lb = a.legal(viewer), b.legal(viewer)
        _same("legal", [(x.id, x.shown.kind, x.shown.text) for x in la], [(x.id, x.shown.kind, x.shown.text) for x in lb], step)
        _same("show", a.view(viewer), b.view(viewer), step)
        if a.status().over or not la:
            break
        choice = aggressive(a, rng, viewer)
        i = la.index(choice)
        _same("odds", a.odds(la[i].action, viewer), b.odds(lb[i].action, viewer), step)
        ea, eb = a.act(la[i].action, viewer), b.act(lb[i].action, viewer)
        if any(getattr(ev, "reveals", False) for e in (*ea, *eb) for ev in e.events):
            break
        _same("act", a.shown(ea, viewer), b.shown(eb, viewer), step)
        for e in a.shown(ea, viewer):
            kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
        steps = step + 1
    else:
        _same("log", a.log(viewer), b.log(viewer), steps)
    assert a.replay_check().identical and b.replay_check().identical
    kinds["_steps"] = steps
    return kinds
