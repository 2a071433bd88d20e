"""The Rout Phase in play (issue 12): broken units that must rout, their legal ends
(nearest woods, building or entrenchment not closer to a Known enemy, never
next to one; Low Crawl), interdiction, and elimination of those that must rout
and cannot (A10.5-A10.53; :mod:`gwasl.rules.rout`).  Both sides' broken units
rout in every RtPh; the phase does not end while one that must rout has not.

The enemy a rout reacts to is what the routing side knows (:func:`threats`,
:func:`known_enemies`): Known units, never hidden ones, so a rout tells nothing
hidden.  A Location where no Good Order unit is left holds nobody in Melee: its
broken units rout out of it (docs/rules-notes.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from gwasl.engine.game import IllegalAction, Outcome, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions.memo import MISSING, StateMemo
from gwasl.games.aslgw.actions.movement import carried
from gwasl.games.aslgw.knowledge import env, is_hidden, known_scenario
from gwasl.games.aslgw.records import MeleeChanged, Rout, Routed, UnitHit
from gwasl.games.aslgw.state import AslgwState
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Dice, ScriptedDice
from gwasl.rules.fog.status import move_units
from gwasl.rules.ift import two_dice
from gwasl.rules.morale import CasualtyReduction, MoraleCheckResult, asl_core, morale_check
from gwasl.rules.rout import (
    RoutDestination,
    Threat,
    interdictions,
    must_rout,
    rout_destinations,
    rout_mf,
    why_not_destination,
)

__all__ = ["REDUCERS", "destinations", "end_events", "known_enemies", "must", "odds", "options", "pending", "resolve",
           "threats", "why_illegal"]


def threats(state: AslgwState, side: str) -> list[Threat]:
    """The Known Good Order armed enemy units of ``side`` (A10.5): not hidden, not
    broken, with FP, each with its normal range."""
    sc = state.scenario
    out = []
    for u in sc.units:
        if u.side == side or u.kind is UnitKind.SUPPORT_WEAPON or u.broken or is_hidden(state.fog, u.id):
            continue
        fp, rng = fx.inherent_factors(sc, u)
        if fp <= 0 and u.kind is not UnitKind.LEADER:
            continue
        out.append(Threat(u.hex, u.position, rng))
    return out


def known_enemies(state: AslgwState, side: str) -> list[tuple[Hex, Position]]:
    """Where every Known enemy unit of ``side`` is, broken or not (A10.51): none of them
    may a routing unit approach."""
    return [(u.hex, u.position) for u in state.scenario.units
            if u.side != side and u.kind is not UnitKind.SUPPORT_WEAPON and not is_hidden(state.fog, u.id)]


def _sees(state: AslgwState) -> Callable[[Hex, Hex, Position, Position], bool]:
    sees = env().sees(state.scenario)
    return lambda a, b, ai, bi: sees(a, b, ai, bi)


def must(state: AslgwState, u: Unit) -> str | None:
    """Why broken ``u`` must rout this RtPh (A10.5), from the Known enemy units of its side, or None."""
    return must_rout(state.scenario, u, threats(state, u.side), _sees(state), known_enemies(state, u.side))


def destinations(state: AslgwState, u: Unit) -> tuple[RoutDestination, ...]:
    """Every legal end of ``u``'s rout (A10.5, A10.51, A10.52)."""
    # the legal list, the odds of each rout and the RtPh's end ask them again of the same state
    # (a unit is not hashable: kept by its id, with the unit it was worked out for)
    kept = _DESTINATIONS.get(state, u.id)
    if kept is not MISSING and kept[0] == u:
        return kept[1]  # type: ignore[no-any-return]
    got = rout_destinations(state.scenario, u, threats(state, u.side), float(rout_mf()), known_enemies(state, u.side))
    _DESTINATIONS.put(state, u.id, (u, got))
    return got


_DESTINATIONS = StateMemo(256)


def _eligible(state: AslgwState, sc: Scenario) -> list[Unit]:
    return [u for u in sorted(sc.units, key=lambda x: (x.side, x.id)) if u.broken and u.kind is not UnitKind.SUPPORT_WEAPON
            and u.id not in state.combat.routed and not _melee(state, u)]


def _area(u: Unit) -> tuple[str, str]:
    return (u.hex.label, "dugout" if u.position is Position.DUGOUT else "hex")


def _melee(state: AslgwState, u: Unit) -> bool:
    """A unit locked in Melee does not rout (A11.15); a Location where no Good Order unit
    is left holds nobody in Melee (nobody there can fight, docs/rules-notes.md)."""
    a = _area(u)
    if a not in state.combat.melee:
        return False
    return any(not o.broken and o.kind is not UnitKind.SUPPORT_WEAPON and _area(o) == a for o in state.scenario.units)


def options(state: AslgwState, viewer: Viewer) -> list[Record]:
    """Every rout of both sides' broken units this RtPh (A10.5), as ``viewer`` knows them."""
    if state.phase is not Phase.RtPh:
        return []
    sc = known_scenario(state.fog, frozenset(s for s in state.settings.order if viewer.sees_secrets_of(s)))
    out: list[Record] = []
    for u in _eligible(state, sc):
        for d in destinations(state, u):
            out.append(Rout(u.id, d.hex.label, d.position.value, d.low_crawl))
    return out


def pending(state: AslgwState) -> list[str]:
    """Broken units that must rout, can, and have not (the RtPh may not end before them). (A10.5.)"""
    if state.phase is not Phase.RtPh:
        return []
    return [u.id for u in _eligible(state, state.scenario) if must(state, u) and destinations(state, u)]


def _find(state: AslgwState, act: Rout) -> tuple[Unit, RoutDestination]:
    u = state.scenario.unit(act.unit)
    for d in destinations(state, u):
        if d.hex.label == act.to and d.position.value == act.to_in and d.low_crawl == act.low_crawl:
            return u, d
    raise IllegalAction(f"{act.unit} may not rout to {act.to}: {_why_not_there(state, u, act)}")


def _why_not_there(state: AslgwState, u: Unit, act: Rout) -> str:
    try:
        to, to_in = Hex.from_label(act.to), Position(act.to_in)
    except (HexLabelError, ValueError) as e:
        return str(e)
    return why_not_destination(state.scenario, u, threats(state, u.side), float(rout_mf()), to, to_in, act.low_crawl,
                               known_enemies(state, u.side))


def interdiction_check(dice: Dice, state: AslgwState, u: Unit, cause: str) -> MoraleCheckResult:
    """The interdiction NMC of a routing unit (A10.53): a broken unit's MC
    (:func:`gwasl.rules.morale.morale_check`, with all its flags)."""
    _, broken = fx.morale_levels(state, u)
    return morale_check(dice, u.kind, broken, broken=True, severity=combat_table().rout.interdiction_check, cause=cause,
                        wounded=state.combat.mark(u.id).wounded)


def resolve(em: fx.Emitter, act: Rout) -> None:
    """Interdiction NMCs along the path (A10.53: a failure has a broken unit's MC result,
    A10.3), then the move; a Melee one side leaves is over."""
    u, d = _find(em.state, act)
    for (h, _p), by in interdictions(em.state.scenario, d, threats(em.state, u.side), _sees(em.state)):
        cur = em.alive(u.id)
        if cur is None:
            return
        res = interdiction_check(em.dice, em.state, cur, f"interdiction of {u.id} at {h} by the enemy at {by} (A10.53)")
        em.roll(res.roll)
        cr = res.casualty_reduction
        if cr is not None and cr.eliminated and res.roll.total == asl_core().cr_original_dr:
            fx.eliminate(em, u.id, f"failed its interdiction NMC at {h} (A10.53): {res.reasons[-1]}")
        elif cr is not None:
            fx.casualty(em, u.id, f"failed its interdiction NMC at {h} (A10.53)")
    if em.alive(u.id) is None:
        return
    a = _area(u)
    em.emit(Routed(u.side, u.id, tuple(h.label for h, _ in d.path), d.hex.label, d.position.value, d.low_crawl))
    if a in em.state.combat.melee and not any(_area(o) == a and o.side == u.side and o.kind is not UnitKind.SUPPORT_WEAPON
                                              for o in em.state.scenario.units):
        em.emit(MeleeChanged(a[0], a[1], False))


def end_events(state: AslgwState) -> list[Record]:
    """A10.51: as the RtPh ends, a broken unit that must rout and has nowhere to go is eliminated."""
    out: list[Record] = []
    for u in _eligible(state, state.scenario):
        why = must(state, u)
        if why and not destinations(state, u):
            out.append(UnitHit(u.side, u.id, "eliminated", f"it must rout ({why}) and cannot: eliminated (A10.51)"))
    return out


def why_illegal(state: AslgwState, act: Rout, viewer: Viewer) -> str | None:
    """Why a rout may not be made, from what ``viewer`` knows (A10.5-A10.52), or None."""
    if state.phase is not Phase.RtPh:
        return f"broken units rout in the RtPh, not the {state.phase.value} (A10.5)"
    sc = known_scenario(state.fog, frozenset(s for s in state.settings.order if viewer.sees_secrets_of(s)))
    try:
        u = sc.unit(act.unit)
    except KeyError:
        return f"no unit {act.unit[:40]!r} you can see"
    if u.kind is UnitKind.SUPPORT_WEAPON:
        return f"{u.id} is a weapon: it goes with the unit that carries it (A10.5)"
    if not u.broken:
        return f"{u.id} is not broken: only broken units rout (A10.5)"
    if u.id in state.combat.routed:
        return f"{u.id} has already routed this RtPh (A10.5)"
    if _melee(state, u):
        return f"{u.id} is locked in Melee in {u.hex}: it does not rout (A11.15)"
    if not any(d.hex.label == act.to and d.position.value == act.to_in and d.low_crawl == act.low_crawl
               for d in destinations(state, u)):
        return f"{u.id} may not rout to {act.to}: {_why_not_there(state, u, act)}"
    return None


def _routed(state: AslgwState, ev: Routed) -> AslgwState:
    sc = state.scenario
    u = sc.unit(ev.unit)
    ids = [u.id] + [w.id for w in carried(sc, [u])]
    fog = move_units(state.fog, ids, Hex.from_label(ev.to), Position(ev.to_in), 0.0)
    state = state.moved_units_of(u.side)  # as every move (O'Leary 2.3, 5.1)
    c = state.combat
    return replace(state, fog=fog, combat=replace(c, routed=c.routed | {ev.unit}))


#: the state after a rout (A10.5)
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {Routed: _routed}


def odds(state: AslgwState, act: Rout, viewer: Viewer) -> list[Outcome]:
    """Exact odds of a rout's interdiction NMCs (A10.53): arrives, arrives reduced, or is
    eliminated on the way; none when no interdiction applies (no dice).  Each check is
    :func:`interdiction_check` on each of the 36 DR."""
    u, d = _find(state, act)
    checks = interdictions(state.scenario, d, threats(state, u.side), _sees(state))
    if not checks:
        return []
    # (kind or "eliminated", wounded, reduced) -> probability
    dist: dict[tuple[str, bool, bool], Fraction] = {(u.kind.value, state.combat.mark(u.id).wounded, False): Fraction(1)}
    # every check is the same NMC of the unit as it then is: its 36 results counted once per
    # (kind, wounded), and kept for the other routs of the unit asked of the same state
    for _ in checks:
        nxt: dict[tuple[str, bool, bool], Fraction] = {}
        for (kind, wounded, red), p in dist.items():
            if kind == "eliminated":
                nxt[(kind, wounded, red)] = nxt.get((kind, wounded, red), Fraction(0)) + p
                continue
            for cr, n in _interdiction_results(state, u, kind, wounded):
                if cr is None:
                    key = (kind, wounded, red)
                elif cr.eliminated:
                    key = ("eliminated", wounded, True)
                elif cr.to == "wounded":
                    key = (kind, True, True)
                else:
                    key = (cr.to, wounded, True)
                nxt[key] = nxt.get(key, Fraction(0)) + p * Fraction(n, 36)
        dist = nxt
    out: dict[str, Fraction] = {}
    for (kind, _w, red), p in dist.items():
        label = "eliminated on the way" if kind == "eliminated" else ("arrives casualty reduced" if red else "arrives")
        out[label] = out.get(label, Fraction(0)) + p
    return [Outcome(k, float(v)) for k, v in sorted(out.items())]


def _interdiction_results(state: AslgwState, u: Unit, kind: str, wounded: bool) -> list[tuple[CasualtyReduction | None, int]]:
    """The results of ``u``'s interdiction NMC (A10.53) as a ``kind``, ``wounded`` or not, over
    the 36 DR: each distinct casualty reduction (None: no casualty) with its number of DR."""
    kept = _NMC.get(state, (u.id, kind, wounded))
    if kept is not MISSING and kept[0] == u:
        return kept[1]  # type: ignore[no-any-return]
    cur = replace(u, kind=UnitKind(kind))
    marked = state if wounded == state.combat.mark(u.id).wounded else \
        replace(state, combat=fx.with_mark(state.combat, u.id, wounded=wounded))
    counts: dict[CasualtyReduction | None, int] = {}
    for a, b in two_dice():
        cr = interdiction_check(ScriptedDice([a, b]), marked, cur, "interdiction (A10.53)").casualty_reduction
        counts[cr] = counts.get(cr, 0) + 1
    got = list(counts.items())
    _NMC.put(state, (u.id, kind, wounded), (u, got))
    return got


_NMC = StateMemo(256)
