"""What a viewer knows of a game in play, and the LOS the game uses.

Everything that decides a legal action, an odds figure or a policy's choice
is computed from one of these, never from the whole truth:

* :func:`known_scenario`: the scenario with the units a viewer knows (all of
  the sides whose secrets it sees, the others' units only when neither
  concealed nor hidden);
* :func:`piles`: the "?" counters of a side grouped as an enemy sees them
  (one pile per hex, position and kind of counter, O'Leary 2.2 and
  docs/rules-notes.md);
* :func:`known_enemy_ranges`: the ranges of the enemy units a side knows of
  that see a location (A12.14, ASLGW 1.7.2);
* :func:`side_knowledge`: the fog layer as a side knows it, for its policy
  (:func:`gwasl.rules.fog.knowledge.known_state`);
* :func:`with_piles`: a known scenario with a notional squad under each enemy
  "?" (what a side may take for an enemy unit, e.g. for a Bayonet Charge);
* :func:`seen_state`: the whole game as a viewer knows it, on which every
  refusal is worked out (:func:`unknown_piece` names a unit it does not know).

A side whose hidden layer gwasl keeps rolls on its own stream
(:func:`private_dice`, :func:`secret_roll`): what the player sees, down to
every later public die, does not depend on what is hidden (CONTRACTS 5).
The events that change what is hidden -- a "?" lost, a dummy removed, a HIP
unit revealed -- are reduced here (:data:`REDUCERS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.events import Drm
from gwasl.engine.game import Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw.actions.memo import MISSING, StateMemo
from gwasl.games.aslgw.records import ConcealmentLost, DummyRemoved, HipRevealed, SecretRoll
from gwasl.games.aslgw.state import AslgwState, PileKey
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules.dice import Roll
from gwasl.rules.fog.env import FogEnv, SeesFn, sees_from_index
from gwasl.rules.fog.knowledge import known_state
from gwasl.rules.fog.state import ConcealStack, FogState, FogStatus
from gwasl.rules.fog.status import lose_concealment, reveal_hip
from gwasl.rules.fog.view import view
from gwasl.rules.movement import map_key
from gwasl.rules.weapons import sw_holder

__all__ = ["REDUCERS", "env", "is_hidden", "known_enemy_ranges", "known_scenario", "pile_key", "piles", "piles_of_enemies",
           "private_dice", "seat_knowledge", "secret_roll", "side_knowledge", "with_piles"]

_CACHE_LIMIT = 16
_LOS: dict[str, SeesFn] = {}


def _sees_factory(scenario: Scenario) -> SeesFn:
    """The rules' exact LOS of a map (``gwasl.rules.los.LosIndex``), kept by the map's content,
    so that a replay or a new game on the same map does not prepare it again."""
    key = map_key(scenario.map)
    got = _LOS.get(key)
    if got is None:
        if len(_LOS) > _CACHE_LIMIT:
            _LOS.clear()
        from gwasl.rules.los import LosIndex  # numpy: loaded with the first LOS traced (issue 23 item 8)

        got = _LOS[key] = sees_from_index(LosIndex(scenario))
    return got


_ENV = FogEnv(sees_factory=_sees_factory)


def env() -> FogEnv:
    """The one fog environment (exact LOS per map, fog table); its per-map cache is kept small."""
    cache = _ENV._cache
    if len(cache) > 4 * _CACHE_LIMIT:
        cache.clear()
    return _ENV


def is_hidden(fog: FogState, unit_id: str) -> bool:
    """A unit its enemy cannot see: concealed, potential dummy, cloaked or HIP. (O'Leary 2.1, 3.1, 5.1.)"""
    return fog.status_of(unit_id) is not FogStatus.NONE


#: the scenarios already worked out, by fog layer (an immutable value) and knowledge: every
#: family's list asks it for the same state, and one object lets the answers kept by
#: scenario (LOS, the fire parts) be found again
_SCENARIOS = StateMemo(256)


def known_scenario(fog: FogState, knows: frozenset[str]) -> Scenario:
    """The scenario as a viewer who sees the secrets of ``knows`` knows it: every unit
    of those sides, and of the others only units neither concealed nor hidden.

    (A12: a concealed unit is not seen; O'Leary 3.2 HIP.)"""
    kept = _SCENARIOS.get(fog, knows)
    if kept is MISSING:
        kept = _known_scenario(fog, knows)
        _SCENARIOS.put(fog, knows, kept)
    return kept


def _known_scenario(fog: FogState, knows: frozenset[str]) -> Scenario:
    sc = fog.scenario
    units = tuple(u for u in sc.units if u.side in knows or not is_hidden(fog, u.id))
    if len(units) == len(sc.units):
        return sc
    return sc.with_units(units)


def with_piles(sc: Scenario, fog: FogState, side: str) -> Scenario:
    """``sc`` (a scenario as some viewer knows it) with one notional squad under each "?"
    pile of ``side``'s enemies: what ``side`` may take for an enemy unit there (a "?" may
    hide a unit, whatever it truly is; A12.1, docs/rules-notes.md), so that a rule asking
    for "an enemy unit" counts a "?" the same whether it is real or a dummy."""
    notional: list[Unit] = []
    for (owner, h, position, _cloaked) in piles_of_enemies(fog, side):
        notional.append(Unit(f"?{len(notional) + 1}", owner, UnitKind.SQUAD, h, position=position))
    return sc.with_units((*sc.units, *notional)) if notional else sc


def piles_of_enemies(fog: FogState, side: str) -> list[PileKey]:
    """The "?" piles of every side but ``side``, in map order: what ``side`` sees of its enemies'
    concealed stacks (O'Leary 2.2: one pile per hex, position and kind of counter), so the "?"
    ids it is shown count nothing hidden (CONTRACTS 5)."""
    return [k for s in fog.scenario.sides if s != side for k in piles(fog, s)]


def pile_key(s: ConcealStack) -> PileKey:
    return (s.side, s.hex, s.position, s.cloaked)


def piles(fog: FogState, side: str) -> dict[PileKey, list[ConcealStack]]:
    """``side``'s "?" stacks grouped as its enemy sees them, in map order. (O'Leary 2.1.)"""
    out: dict[PileKey, list[ConcealStack]] = {}
    for s in sorted(fog.stacks, key=lambda x: (x.hex.column, x.hex.row, x.position.value, x.cloaked, x.id)):
        if s.side == side:
            out.setdefault(pile_key(s), []).append(s)
    return out


def known_enemy_ranges(fog: FogState, side: str, h: Hex, position: Position, exclude: Iterable[str] = ()) -> tuple[int, ...]:
    """Ranges from ``(h, position)`` to each Good Order enemy ground unit that ``side``
    knows of (neither concealed nor hidden) and that has LOS to it (A12.14).

    gwasl counts only enemy units the moving side can see, so a hidden enemy
    never shows itself by what happens to a mover (docs/rules-notes.md).
    """
    sc = fog.scenario
    sees = env().sees(sc)
    skip = set(exclude)
    out = []
    for u in sc.units:
        if u.side == side or u.id in skip or u.broken or not u.is_infantry or is_hidden(fog, u.id):
            continue
        if sc.map.contains(u.hex) and sees(u.hex, h, u.position, position):
            out.append(u.hex.distance(h))
    return tuple(sorted(out))


#: the last few knowledges worked out, by fog layer (identity) and side: one fog layer lives
#: through many states (a phase, a pass, a roll that changes nothing hidden) and each of
#: them asks again.  One tuple, replaced whole, so a thread reading it (the window thinking
#: for gwasl) never sees it half changed; the layers are immutable.
_KNOWN: list[tuple[tuple[FogState, str, str, FogState], ...]] = [()]
_KNOWN_LIMIT = 8


def _known(kind: str, fog: FogState, side: str, work: Callable[[FogState, str], FogState]) -> FogState:
    cached = _KNOWN[0]
    for f, k, s, got in cached:
        if f is fog and k == kind and s == side:
            return got
    got = work(fog, side)
    _KNOWN[0] = ((fog, kind, side, got), *cached[: _KNOWN_LIMIT - 1])
    return got


def side_knowledge(fog: FogState, side: str) -> FogState:
    """The fog layer as ``side`` knows it (own layer in full, the enemy as it sees it,
    a notional squad under each enemy "?"): what its policy decides from, and the
    state its shift DRM is judged on (docs/rules-notes.md).

    (O'Leary 2.5: the shift DRM of an enemy unit's LOS is judged on what the side knows.)"""
    return _known("side", fog, side, known_state)


def seat_knowledge(fog: FogState, side: str) -> FogState:
    """The fog layer a side's seat hands its policy (issue 25 item 3, CONTRACTS 5): a pure
    function of that side's view.  Its own layer in full; of the enemy, the units its view
    shows and each "?" pile it sees as a notional squad ``?N`` under one stack ``?N`` of as
    many counters as it shows (O'Leary 2.1-2.2: where, and how many, never what) -- no
    enemy stack ids or contents, no enemy HIP units or dummy HIP counters (3.1), hidden
    fortifications (4), minefields it does not know (4.6; a known one's strength unknown
    until revealed, read as 0 here), set-up aims (6, 7), MF spent or ids issued of pieces
    it cannot see.  :func:`side_knowledge` (the same scenario, every stack kept) stays what
    the shift DRM is planned on."""
    return _known("seat", fog, side, _seat_knowledge)


def _seat_knowledge(fog: FogState, side: str) -> FogState:
    v = view(fog, side)
    units = [u for u in fog.scenario.units if u.side == side]
    units += [u for u in v.units if u.side != side]
    stacks = [s for s in fog.stacks if s.side == side]
    for i, c in enumerate(v.concealed_stacks):
        if c.side != side:  # the same notional squads as known_state's, by the same numbering
            units.append(Unit(f"?{i}", c.side, UnitKind.SQUAD, c.hex, position=c.position))
            stacks.append(ConcealStack(f"?{i}", c.side, c.hex, c.position, (f"?{i}",), c.counters, False, c.cloaked))
    known = {u.id for u in units} | {s.id for s in stacks}
    others = frozenset(s for s in fog.scenario.sides if s != side)
    sc = fog.scenario.with_units(units)
    sc = replace(sc, dummies=tuple(d for d in sc.dummies if d.side == side))  # the set-up's dummies (O'Leary 2.1, 3.1)
    return replace(
        fog, scenario=sc,
        status=MappingProxyType({k: st for k, st in fog.status.items() if k in known}),
        stacks=tuple(stacks),
        dummy_hip=tuple(d for d in fog.dummy_hip if d.side == side),
        fortifications=tuple(f for f in fog.fortifications if f.side == side),
        minefields=tuple(m if m.side == side or m.revealed else replace(m, id=f"?{m.hex.label}", ap=0, at=0, dummy=False)
                         for m in fog.minefields if m.side == side or m.known or m.revealed),
        bore_sight=tuple(b for b in fog.bore_sight if b.side == side),
        pre_registration=tuple(p for p in fog.pre_registration if p.side == side),
        ti=fog.ti & known, moved=fog.moved & known,
        spent=MappingProxyType({k: x for k, x in fog.spent.items() if k in known}),
        issued=MappingProxyType({k: n for k, n in fog.issued.items() if k.split(":", 1)[0] not in others}))


def infantry(units: Iterable[Unit]) -> list[Unit]:
    return [u for u in units if u.kind is not UnitKind.SUPPORT_WEAPON]


# ---------------------------------------------------------------------------
# The game as a viewer knows it: what a refusal is worked out on (CONTRACTS 5)

_SEEN: list[tuple[AslgwState, Viewer, AslgwState]] = []


def seen_state(state: AslgwState, viewer: Viewer) -> AslgwState:
    """The game as ``viewer`` knows it.  For every side whose secrets it does not see: its hidden
    units, dummy HIP counters (O'Leary 3.1), hidden fortifications (4) and minefields not known
    (4.6) left out, each of its "?" piles one dummy stack of as many counters (all an enemy sees
    of a "?", O'Leary 2.1), its shift ledger and private dice out; Control as the viewer believes
    it (A26.15).  Everything else -- the map, the turn, the viewer's own sides -- as it is.

    Why an action is refused is worked out on this state, so that every answer a viewer can get
    for any action it may send reads the same whatever is hidden from it (issue 28 item 4): two
    games that differ only in hidden facts give the same seen state.  Never used to resolve an
    action or roll a die."""
    blind = frozenset(s for s in state.settings.order if not viewer.sees_secrets_of(s))
    if not blind:
        return state
    for st, v, got in _SEEN:
        if st is state and v == viewer:
            return got
    fog = state.fog
    drop = {u.id for u in fog.scenario.units if u.side in blind and is_hidden(fog, u.id)}
    gone = drop | {s.id for s in fog.stacks if s.side in blind}
    stacks = [s for s in fog.stacks if s.side not in blind]
    for side in sorted(blind):
        for (owner, h, position, cloaked), pile in piles(fog, side).items():
            where = h.label if position is Position.GROUND else f"{h.label} {position.value}"
            stacks.append(ConcealStack(f"? of {owner} at {where}{' (cloaked)' if cloaked else ''}", owner, h, position, (),
                                       sum(x.height for x in pile), False, cloaked))
    sc = fog.scenario.with_units(u for u in fog.scenario.units if u.id not in drop) if drop else fog.scenario
    seen_fog = replace(
        fog, scenario=sc,
        status=MappingProxyType({k: v for k, v in fog.status.items() if k not in drop}),
        stacks=tuple(stacks),
        dummy_hip=tuple(d for d in fog.dummy_hip if d.side not in blind),
        fortifications=tuple(f for f in fog.fortifications if f.side not in blind),
        minefields=tuple(m for m in fog.minefields if m.side not in blind or m.known or m.revealed),
        bore_sight=tuple(b for b in fog.bore_sight if b.side not in blind),
        pre_registration=tuple(p for p in fog.pre_registration if p.side not in blind),
        ti=fog.ti - gone, moved=fog.moved - gone,
        spent=MappingProxyType({k: v for k, v in fog.spent.items() if k not in gone}),
        issued=MappingProxyType({k: v for k, v in fog.issued.items() if k.split(":", 1)[0] not in blind}))
    v = state.victory
    known = sorted(set(state.settings.order) - blind)
    belief = v.believed.get(known[0] if len(known) == 1 else "", v.truth)
    got = replace(state, fog=seen_fog, ledger=tuple(r for r in state.ledger if r.side not in blind),
                  private_dice=MappingProxyType({k: n for k, n in state.private_dice.items() if k not in blind}),
                  victory=replace(v, truth=belief))
    _SEEN[:] = [(state, viewer, got)]
    return got


#: the fields of an action that name units (or, for ``pieces``, units and "?" stacks)
_NAMING = ("unit", "units", "firers", "pieces", "weapon")


def unknown_piece(seen: AslgwState, action: Record, viewer: Viewer) -> str | None:
    """The first unit or "?" ``action`` names that is not on the map as ``viewer`` knows it
    (``seen``: :func:`seen_state`), in words; None when it names none.  A unit hidden from the
    viewer and a unit that does not exist read alike (CONTRACTS 5: a refusal tells nothing
    hidden; O'Leary 3.1: a HIP unit is not on the map for its enemy)."""
    fog = seen.fog
    units = {u.id for u in fog.scenario.units}
    stacks = {s.id for s in fog.stacks if viewer.sees_secrets_of(s.side)}
    for name in _NAMING:
        got = getattr(action, name, None)
        for ref in (got,) if isinstance(got, str) else got if isinstance(got, tuple) else ():
            if not isinstance(ref, str):
                continue
            if ref not in units and not (name == "pieces" and ref in stacks):
                return f"{action.kind}: no unit {ref[:40]!r} on the map as {viewer.name} knows it"
    return None


# ---------------------------------------------------------------------------
# A secret side's own dice (CONTRACTS 5)


def private_dice(state: AslgwState, side: str, seed: int) -> GameDice:
    """The private stream of ``side`` (a side whose hidden layer gwasl keeps): its own
    seed derived from the game's, at the position the events so far have used."""
    return GameDice(seed).private(side, state.private_position(side))


def secret_roll(dice: GameDice, roll: Roll) -> SecretRoll:
    """A roll on a private stream, as it rides inside the one private event of an order (:class:`SecretRoll`)."""
    ev = dice.event(roll)
    return SecretRoll(ev.n, ev.cause, ev.dice, tuple(Drm(m.cause, m.value) for m in roll.modifiers), roll.final)


# ---------------------------------------------------------------------------
# The events that change what is hidden


def _concealment_lost(state: AslgwState, event: ConcealmentLost) -> AslgwState:
    fog = state.fog
    # A12.1, O'Leary 3.4: a SW goes hidden or concealed with the unit that holds it, and is
    # revealed with it (a revealed crew routing with a still-HIP MG broke O'Leary 3.2.2 in play)
    shown = set(event.units)
    held = [w.id for w in fog.scenario.units if w.kind is UnitKind.SUPPORT_WEAPON and w.id not in shown
            and fog.status_of(w.id) is not FogStatus.NONE and (h := sw_holder(fog.scenario, w)) is not None and h.id in shown]
    units = (*event.units, *held)
    hip = [u for u in units if fog.status_of(u) is FogStatus.HIP]
    fog = lose_concealment(fog, [u for u in units if u not in hip], event.why).state
    if hip:
        fog = fog.with_status({u: FogStatus.NONE for u in hip})
    return replace(state, fog=fog)


def _dummy_removed(state: AslgwState, event: DummyRemoved) -> AslgwState:
    gone = set(event.stacks)
    return replace(state, fog=state.fog.with_stacks(s for s in state.fog.stacks if s.id not in gone))


def _hip_revealed(state: AslgwState, event: HipRevealed) -> AslgwState:
    return replace(state, fog=reveal_hip(state.fog, event.side, Hex.from_label(event.at), event.why).state)


#: the state after each event of this module's kinds
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    ConcealmentLost: _concealment_lost,
    DummyRemoved: _dummy_removed,
    HipRevealed: _hip_revealed,
}
