"""The Rout Phase in play (issue 12): broken units that must rout, their legal ends
(nearest woods, building or entrenchment not closer to a Known enemy, never
next to one; Low Crawl), interdiction, and elimination of those that must rout
and cannot (A10.5-A10.53; :mod:`gwasl.rules.rout`).  Both sides' broken units
rout in every RtPh; the phase does not end while one that must rout has not.

The enemy a rout reacts to is what the routing side knows (:func:`threats`):
Known Good Order units, never hidden ones, so a rout tells nothing hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from gwasl.engine.game import IllegalAction, Outcome, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions.movement import carried
from gwasl.games.aslgw.knowledge import env, is_hidden, known_scenario
from gwasl.games.aslgw.records import Rout, Routed, UnitHit
from gwasl.games.aslgw.state import AslgwState
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules.fog.status import move_units
from gwasl.rules.ift import two_dice
from gwasl.rules.morale import asl_core, morale_check
from gwasl.rules.rout import RoutDestination, Threat, interdictions, must_rout, rout_destinations
from gwasl.rules.units import infantry_movement

__all__ = ["REDUCERS", "destinations", "end_events", "must", "odds", "options", "pending", "resolve", "threats", "why_illegal"]


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


def _mf(u: Unit) -> float:
    m = infantry_movement()
    return float(m.smc_mf if u.kind in (UnitKind.LEADER, UnitKind.HERO) else m.mmc_mf)


def _sees(state: AslgwState) -> Callable[[Hex, Hex, Position, Position], bool]:
    sees = env().sees(state.scenario)
    return lambda a, b, ai, bi: sees(a, b, ai, bi)


def must(state: AslgwState, u: Unit) -> str | None:
    return must_rout(state.scenario, u, threats(state, u.side), _sees(state))


def destinations(state: AslgwState, u: Unit) -> tuple[RoutDestination, ...]:
    return rout_destinations(state.scenario, u, threats(state, u.side), _mf(u))


def _eligible(state: AslgwState, sc: Scenario) -> list[Unit]:
    return [u for u in sorted(sc.units, key=lambda x: (x.side, x.id)) if u.broken and u.kind is not UnitKind.SUPPORT_WEAPON
            and u.id not in state.combat.routed and not _melee(state, u)]


def _melee(state: AslgwState, u: Unit) -> bool:
    return (u.hex.label, "dugout" if u.position is Position.DUGOUT else "hex") in state.combat.melee


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
    """Broken units that must rout, can, and have not (the RtPh may not end before them)."""
    if state.phase is not Phase.RtPh:
        return []
    return [u.id for u in _eligible(state, state.scenario) if must(state, u) and destinations(state, u)]


def _find(state: AslgwState, act: Rout) -> tuple[Unit, RoutDestination]:
    u = state.scenario.unit(act.unit)
    for d in destinations(state, u):
        if d.hex.label == act.to and d.position.value == act.to_in and d.low_crawl == act.low_crawl:
            return u, d
    raise IllegalAction(f"{act.unit} may not rout to {act.to} now (A10.5)")


def resolve(em: fx.Emitter, act: Rout) -> None:
    """Interdiction NMCs along the path (A10.53: failure casualty-reduces), then the move."""
    u, d = _find(em.state, act)
    for (h, _p), by in interdictions(em.state.scenario, d, threats(em.state, u.side), _sees(em.state)):
        cur = em.alive(u.id)
        if cur is None:
            return
        _, broken = fx.morale_levels(em.state, cur)
        res = morale_check(em.dice, cur.kind, broken, broken=True, severity="NMC",
                           cause=f"interdiction of {u.id} at {h} by the enemy at {by} (A10.53)")
        em.roll(res.roll)
        if not res.passed:
            fx.casualty(em, u.id, f"failed its interdiction NMC at {h} (A10.53)")
    if em.alive(u.id) is None:
        return
    em.emit(Routed(u.side, u.id, tuple(h.label for h, _ in d.path), d.hex.label, d.position.value, d.low_crawl))


def end_events(state: AslgwState) -> list[Record]:
    """A10.51: as the RtPh ends, a broken unit that must rout and has nowhere to go is eliminated."""
    out: list[Record] = []
    for u in _eligible(state, state.scenario):
        why = must(state, u)
        if why and not destinations(state, u):
            out.append(UnitHit(u.side, u.id, "eliminated", f"it must rout ({why}) and cannot: eliminated (A10.51)"))
    return out


def why_illegal(state: AslgwState, act: Rout) -> str | None:
    """A rout outside the RtPh."""
    return "broken units rout in the RtPh (A10.5)" if state.phase is not Phase.RtPh else None


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
    eliminated on the way; none when no interdiction applies (no dice)."""
    u, d = _find(state, act)
    checks = interdictions(state.scenario, d, threats(state, u.side), _sees(state))
    if not checks:
        return []
    core = asl_core()
    dist: dict[tuple[str, bool], Fraction] = {(u.kind.value, False): Fraction(1)}
    for _ in checks:
        nxt: dict[tuple[str, bool], Fraction] = {}
        for (kind, _red), p in dist.items():
            if kind == "eliminated":
                nxt[(kind, _red)] = nxt.get((kind, _red), Fraction(0)) + p
                continue
            cur = replace(u, kind=UnitKind(kind))
            _, broken = fx.morale_levels(state, cur)
            for a, b in two_dice():
                q = p * Fraction(1, 36)
                if a + b == core.cr_original_dr and core.broken_12 == "eliminated":
                    key = ("eliminated", True)
                elif a + b <= broken:
                    key = (kind, _red)
                else:
                    to = core.casualty_reduction.get(kind, "eliminated")
                    key = ("eliminated" if to in ("eliminated",) else (kind if to == "wounded" else to), True)
                nxt[key] = nxt.get(key, Fraction(0)) + q
        dist = nxt
    out: dict[str, Fraction] = {}
    for (kind, red), p in dist.items():
        label = "eliminated on the way" if kind == "eliminated" else ("arrives casualty reduced" if red else "arrives")
        out[label] = out.get(label, Fraction(0)) + p
    return [Outcome(k, float(v)) for k, v in sorted(out.items())]
