"""Twin games through every channel (CONTRACTS 5; issue 28 item 4): two games that differ only in
facts hidden from a viewer (tests/games/aslgw/variants.py) give that viewer the same answer to
everything it can ask, until a rule reveals the difference:

* the status, the legal list (ids, kinds, words: what the window's menus and action list
  show) and the odds of every entry, ``show``, the log, ``suggest``;
* the events of every action both play (the same random legal action in both);
* every answer to actions it may send that the list does not offer: generated at every hex of
  the map (a move, a fire, a close combat, a rout, a charge step, a "?" pile's move, a
  withdrawal, an impulse step to each hex) and for every unit id of the scenario file (hidden
  ones included) and every "?" id the viewer knows: a refusal's words, or, for one that turns
  out legal, its words and odds.

An internal error (anything but a refusal) on any of them is a defect of its own.

Used by tests/games/aslgw/test_twins_every_channel.py (hundreds of pairs, in seconds).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.aslgw.metamorphic import Case, Leak
from games.aslgw.playout import pick, source
from games.aslgw.variants import fortification_variants
from gwasl.engine.game import GameOptions, IllegalAction
from gwasl.engine.record import Record
from gwasl.engine.session import Session
from gwasl.games.aslgw.game import AslgwGame
from gwasl.games.aslgw.records import (
    BayonetCharge,
    ChargeStep,
    CloseCombat,
    Detach,
    DoubleTime,
    EndChargeImpulse,
    EndImpulse,
    EndPhase,
    EndPlatoon,
    EndWindow,
    Exit,
    Fire,
    ImpulseStep,
    MinefieldChoice,
    Move,
    MovePile,
    Rally,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    Rout,
    RunWindow,
    Shift,
    Withdraw,
)
from gwasl.model.hexgrid import Hex

POSITIONS = ("ground", "trench", "deep_trench", "deep_trench_crest", "dugout", "foxhole", "pillbox")
MODES = ("prep", "first", "subsequent", "fpf", "final", "advancing")
MOVE_MODES = ("normal", "assault", "advance")


class SetUpOnce(AslgwGame):
    """The aslgw game, its set-up kept per source and options: set-up is a pure function of them
    (and the state immutable), and twin runs start hundreds of games from a few dozen sources."""

    def __init__(self) -> None:
        super().__init__()
        self._setups: dict[tuple[Any, ...], tuple[Any, Any]] = {}

    def setup(self, source: Mapping[str, Any] | None, options: GameOptions) -> Any:
        key = (id(source), options.secret, options.practice, tuple(sorted(options.extra.items())))
        got = self._setups.get(key)
        if got is None or got[0] is not source:
            got = self._setups[key] = (source, super().setup(source, options))
        return got[1]


#: one game for each twin: a game keeps the last legal list it made (for the check of the action
#: chosen from it), so twins that took turns with one game would each make theirs twice
GAMES = (SetUpOnce(), SetUpOnce())


@dataclass
class Tally:
    """What a run compared: pairs, steps, probes (generated actions answered), and of each kind."""

    pairs: int = 0
    steps: int = 0
    probes: int = 0
    refusals: int = 0
    legal_probes: int = 0
    odds: int = 0
    revealed: int = 0
    hexes: dict[str, set[str]] = field(default_factory=dict)  # scenario -> hexes probed
    kinds: dict[str, int] = field(default_factory=dict)  # generated action kinds

    def add(self, other: Tally) -> None:
        for k in ("pairs", "steps", "probes", "refusals", "legal_probes", "odds", "revealed"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for name, hs in other.hexes.items():
            self.hexes.setdefault(name, set()).update(hs)
        for k, n in other.kinds.items():
            self.kinds[k] = self.kinds.get(k, 0) + n


_DOCS: dict[str, dict[str, Any]] = {}
_VARIANTS: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}


def docs(case: Case) -> tuple[dict[str, Any], dict[str, Any]]:
    """The scenario and its variant, each one object for every pair (the game keeps their
    set-up by identity)."""
    if case.path not in _DOCS:
        _DOCS[case.path] = source(case.path)
    doc = _DOCS[case.path]
    key = (case.path, case.hidden_side)
    if key not in _VARIANTS:
        _VARIANTS[key] = dict(fortification_variants(doc, case.hidden_side))
    return doc, _VARIANTS[key][case.variant]


def _same(what: str, x: Any, y: Any, where: str) -> None:
    if x != y:
        raise Leak(f"{where}: {what} differs:\n  A: {x!r}\n  B: {y!r}")


def answer(s: Session[Any], action: Record, viewer: str) -> tuple[Any, ...]:
    """What ``viewer`` is told when it sends ``action`` without playing it: the refusal's words, or,
    for a legal action, its words in the list and its odds (Session.odds checks it first)."""
    try:
        odds = s.odds(action, viewer)
    except IllegalAction as e:
        return ("refused", str(e))
    except Exception as e:  # anything but a refusal is an internal error: a defect in itself
        raise AssertionError(f"{action!r} for {viewer}: internal error {type(e).__name__}: {e}") from e
    shown = s.game.action_view(s.state, action, s.viewer(viewer))
    return ("legal", shown.kind, shown.text, [repr(o) for o in odds])


def generated(doc: Mapping[str, Any], view: Mapping[str, Any], hexes: list[str], rng: random.Random) -> Iterator[Record]:
    """Actions a viewer may send, legal or not, built from what it knows (the scenario file's ids,
    the map, its view): the same in both twins.  At each hex of ``hexes``: every kind that names
    a hex; once: every kind that names only ids."""
    units = [u["id"] for u in doc["units"]]
    sides = list(doc["sides"])
    platoons = sorted({u["platoon"] for u in doc["units"] if u.get("platoon")} | {f["id"] for f in doc.get("formations", [])})
    piles = [(c["side"], c["hex"], c["in"], c["cloaked"]) for c in view["concealed"]] or [(sides[0], "A1", "ground", False)]
    stacks = sorted({st["id"] for h in view["hidden"].values() for st in h["stacks"]}) + ["s1", "s2", "s3", "s9"]
    for i, h in enumerate(hexes):
        u = units[(i + rng.randrange(len(units))) % len(units)]
        pos = POSITIONS[rng.randrange(len(POSITIONS))]
        side, at, at_in, cloaked = piles[rng.randrange(len(piles))]
        near = [x for x in Hex.from_label(h).neighbours() if x.on_board(doc["map"]["columns"], doc["map"]["rows"])]
        n = near[rng.randrange(len(near))].label if near else h
        yield Move((u,), h, pos, MOVE_MODES[rng.randrange(3)])
        yield Fire((u,), h, pos, MODES[rng.randrange(len(MODES))])
        yield CloseCombat(h, "dugout" if rng.random() < 0.3 else "hex")
        yield Rout(u, h, pos, rng.random() < 0.3)
        yield ChargeStep(u, h, pos)
        yield MovePile(side, at, at_in, cloaked, h, pos)
        yield Withdraw((u,), h, n)
        yield ImpulseStep(platoons[i % len(platoons)] if platoons else "P1", u, h, pos)
    for u in units:
        yield from (Rally(u), Repair(u), Exit((u,)), DoubleTime((u,)), RemoveGasMask(u))
    for side in sides:
        yield BayonetCharge(tuple(x["id"] for x in doc["units"] if x["side"] == side), rng.randrange(6))
        yield from (EndWindow(side), RunWindow(side), ReleaseGas(side, 0))
        a, b = rng.sample(stacks, 2)
        yield Shift("dummy", side, a, b)
        yield Shift("hip", side, hexes[0], hexes[-1])
    for p in platoons[:3]:
        yield from (EndImpulse(p), EndPlatoon(p), Detach(p, units[0]))
    yield from (EndPhase(), EndChargeImpulse(), MinefieldChoice("m1", None))


def _hexes(doc: Mapping[str, Any]) -> list[str]:
    """Every hex of the map, column by column."""
    m = doc["map"]
    return [Hex.from_offset(c, r).label for c in range(m["columns"]) for r in range(m["rows"])]


def _answers(s: Session[Any], viewer: str, doc: Mapping[str, Any], hexes: list[str], seed: int,
             menu: list[Any], view: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """The menus (every entry of the legal list ``menu`` with its odds) and the answers to the
    generated actions, in one game; ``view``, the viewer's view of its state now."""
    v = s.viewer(viewer)
    out: list[tuple[Any, ...]] = [(la.id, [repr(o) for o in s.game.odds(s.state, la.action, v)]) for la in menu]
    for g in generated(doc, view, hexes, random.Random(seed)):
        out.append((g, answer(s, g, viewer)))
    return out


def _probe(a: Session[Any], b: Session[Any], viewer: str, doc: Mapping[str, Any], hexes: list[str], rng: random.Random,
           where: str, t: Tally, menus: tuple[list[Any], list[Any]], views: tuple[Any, Any]) -> None:
    """The menus and generated actions at ``hexes``, compared answer for answer (``views``: each
    twin's view now, already compared)."""
    seed = rng.randrange(2**31)
    got_a = _answers(a, viewer, doc, hexes, seed, menus[0], views[0])
    got_b = _answers(b, viewer, doc, hexes, seed, menus[1], views[1])
    n_menu = len(menus[0])
    for i, (x, y) in enumerate(zip(got_a, got_b, strict=True)):
        _same(f"the answer to {x[0]!r}", x, y, where)
        if i < n_menu:
            t.odds += 1
            continue
        t.probes += 1
        kind = x[0].kind
        t.kinds[kind] = t.kinds.get(kind, 0) + 1
        if x[1][0] == "refused":
            t.refusals += 1
        else:
            t.legal_probes += 1


def run(case: Case, seed: int, play_seed: int, max_steps: int = 10, probe_hexes: int = 8, share: int | None = None) -> Tally:
    """Play one pair of twins side by side with the same random legal actions for up to
    ``max_steps``, comparing every channel at each step: first a random number of phase ends
    (so that the pairs of a run reach every phase of both player turns), then any legal action.
    Twice -- where the phase ends stop, and at a later random step -- probe generated actions at
    ``probe_hexes`` hexes of the map (and the menus' odds, the first time) (a different share of the map for each
    ``share``, the seed unless given, so that a run over many pairs probes every hex).  Stops at the first reveal (after it
    the games may differ) or the end."""
    doc, variant = docs(case)
    sides = list(doc["sides"])
    other = sides[1] if sides[0] == case.hidden_side else sides[0]
    opts = GameOptions(frozenset({case.hidden_side}) if case.secret else frozenset())
    a, b = Session.new(GAMES[0], doc, seed, opts), Session.new(GAMES[1], variant, seed, opts)
    viewer = "player" if case.secret else other
    rng = random.Random(play_seed)
    every = _hexes(doc)
    name = case.path.rsplit("/", 1)[-1]
    t = Tally(pairs=1)
    hurry = rng.randrange(max_steps - 2)
    probes = {hurry, rng.randrange(hurry + 1, max_steps)}
    for step in range(max_steps):
        where = f"{name} {case.variant} secret={case.secret} seed={seed}/{play_seed} step {step}"
        _same("status", a.status(), b.status(), where)
        la, lb = a.legal(viewer), b.legal(viewer)
        _same("legal", [(x.id, x.shown.kind, x.shown.text) for x in la], [(x.id, x.shown.kind, x.shown.text) for x in lb], where)
        va, vb = a.view(viewer), b.view(viewer)  # read again by the probes below: the state is the same until act
        _same("show", va, vb, where)
        if case.secret or a.status().side == other:
            # a hint for the side to act reads that side's view: the hidden side's own hint knows its own units
            # (the opponent's hint, the default before the advisor: the advisor's rollouts cost up to 2 s a
            # position, and its own twin test is tests/games/aslgw/test_advisor.py)
            _same("suggest", a.suggest("opponent"), b.suggest("opponent"), where)
        if step in probes:
            start = ((seed if share is None else share) * 2 * probe_hexes + (step != hurry) * probe_hexes) % len(every)
            hexes = [every[(start + i) % len(every)] for i in range(min(probe_hexes, len(every)))]
            # the menus' odds once a pair (the fire odds are the dearest thing here), where the phase ends stop
            _probe(a, b, viewer, doc, hexes, rng, where, t, (la, lb) if step == hurry else ([], []), (va, vb))
            t.hexes.setdefault(name, set()).update(hexes)
        if a.status().over or not la:
            break
        i = la.index(pick(la, rng, 1.0 if step < hurry else 0.15))
        ea, eb = a.act(la[i].action, viewer), b.act(lb[i].action, viewer)
        if any(getattr(ev, "reveals", False) for e in (*ea, *eb) for ev in e.events):
            t.revealed += 1
            return t
        _same("act", a.shown(ea, viewer), b.shown(eb, viewer), where)
        t.steps += 1
    _same("log", a.log(viewer), b.log(viewer), f"{name} {case.variant} seed={seed}: the log")
    return t
