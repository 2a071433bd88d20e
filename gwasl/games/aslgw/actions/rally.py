"""The Rally Phase in play (issue 12): rally with DM and leadership (A10.6-A10.7,
ASLGW 1.3), self-rally and its limits (A10.61; an MMC the ATTACKER's only, A10.63),
a pinned leader lending nothing (A7.8), repair of malfunctioned weapons
(A9.72), and DM lost as the RPh begins (A10.62).  Both sides rally in every
RPh; the phasing side's list holds both sides' attempts (the player plays both),
the rules are :mod:`gwasl.rules.rally`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from gwasl.engine.game import IllegalAction, Outcome, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.knowledge import is_hidden, known_scenario
from gwasl.games.aslgw.records import ConcealmentLost, Rally, RallyResolved, Repair, UnitHit, WeaponChanged
from gwasl.games.aslgw.state import AslgwState
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Modifier
from gwasl.rules.organisation import leadership_applies
from gwasl.rules.rally import rally_check, rally_distribution, rally_modifiers, repair_check, repair_distribution
from gwasl.rules.weapons import find_weapon, sw_holder

__all__ = ["REDUCERS", "dm_events", "odds", "options", "resolve_rally", "resolve_repair", "why_illegal", "why_not"]


def _viewer_sc(state: AslgwState, viewer: Viewer) -> Scenario:
    return known_scenario(state.fog, frozenset(s for s in state.settings.order if viewer.sees_secrets_of(s)))


def _plan(state: AslgwState, sc: Scenario, u: Unit) -> tuple[Unit | None, bool, str | None]:
    """The leader who helps ``u`` rally (a Good Order leader stacked with it, ASLGW 1.3, not
    pinned, A7.8; known in ``sc``), whether it is an MMC's self-rally (A10.61: one per RPh;
    A10.63: the ATTACKER's only), or why it may not try."""
    if state.phase is not Phase.RPh:
        return None, False, "units rally in the RPh (A10.6)"
    if not u.broken:
        return None, False, f"{u.id} is not broken: only broken units rally (A10.6)"
    if u.id in state.combat.rallied:
        return None, False, f"{u.id} has already tried to rally this RPh (A10.6)"
    if u.kind is UnitKind.SUPPORT_WEAPON:
        return None, False, f"{u.id} is a weapon: it does not rally, a malfunctioned one is repaired (A9.72)"
    ld = fx.stacked_leader(state, u) if sc is state.scenario else _known_leader(state, sc, u)
    if ld is not None and u.kind is not UnitKind.LEADER:
        return ld, False, None
    if u.kind in (UnitKind.LEADER, UnitKind.HERO):
        return None, False, None  # an SMC always may rally itself (A10.61)
    t = combat_table().rally
    if t.self_rally_mmc_by == "attacker" and u.side != state.phasing:
        return None, True, (f"{u.id} has no Good Order leader with it, and only the ATTACKER ({state.phasing}) "
                            "may self-rally a broken MMC (A10.63)")
    if u.side in state.combat.self_rallied and t.self_rally_mmc_per_phase <= 1:
        return None, True, f"{u.side} has used its self-rally of an MMC this RPh (A10.61)"
    return None, True, None


def _known_leader(state: AslgwState, sc: Scenario, u: Unit) -> Unit | None:
    best = None
    for o in sc.units:
        if o.id != u.id and leadership_applies(o, u) and fx.may_lead(state, o) \
                and (best is None or fx.leadership(state, o) < fx.leadership(state, best)):
            best = o
    return best


def why_not(state: AslgwState, act: Rally) -> str | None:
    """Why ``act`` may not be tried now (A10.6, A10.61), or None."""
    return _plan(state, state.scenario, state.scenario.unit(act.unit))[2]


def _mods(state: AslgwState, u: Unit, ld: Unit | None, self_rally: bool) -> tuple[Modifier, ...]:
    return rally_modifiers(dm=state.unit_play(u.id).dm, leader_modifier=fx.leadership(state, ld) if ld else None,
                           self_rally_mmc=self_rally, terrain=state.scenario.map.terrain_at(u.hex),
                           in_fortification=u.position is not Position.GROUND, leader_id=ld.id if ld else "leader")


def options(state: AslgwState, viewer: Viewer) -> list[Record]:
    """Both sides' rally and repair attempts this RPh, as ``viewer`` knows the units. (A10.6, A9.72.)"""
    if state.phase is not Phase.RPh:
        return []
    sc = _viewer_sc(state, viewer)
    out: list[Record] = []
    for u in sorted(sc.units, key=lambda x: (x.side, x.id)):
        if u.broken and _plan(state, sc, u)[2] is None:
            out.append(Rally(u.id))
    for w in sc.units:
        if w.kind is UnitKind.SUPPORT_WEAPON and state.combat.mark(w.id).malfunctioned and w.id not in state.combat.repaired:
            h = sw_holder(state.scenario, w)
            if h is not None and not h.broken and h.id in {x.id for x in sc.units}:
                out.append(Repair(w.id))
    return out


def odds(state: AslgwState, action: Record, viewer: Viewer) -> list[Outcome]:
    """The exact chance of each outcome of a rally (A10.6, with DM and leadership, A10.62, ASLGW 1.3) or a repair
    (A9.72)."""
    sc = _viewer_sc(state, viewer)
    if isinstance(action, Rally):
        u = sc.unit(action.unit)
        ld, self_rally, why = _plan(state, sc, u)
        if why:
            raise IllegalAction(why)
        _, broken = fx.morale_levels(state, u)
        drm = sum(m.value for m in _mods(state, u, ld, self_rally))
        return [Outcome(k.replace("_", " "), float(v)) for k, v in sorted(rally_distribution(broken, drm).items())]
    if isinstance(action, Repair):
        w = find_weapon(state.scenario.unit(action.weapon).weapon or "")
        rn = w.repair if w is not None and w.repair is not None else 0
        return [Outcome(k, float(v)) for k, v in repair_distribution(rn).items()]
    return []


def resolve_rally(em: fx.Emitter, act: Rally) -> None:
    """A rally attempt (A10.6): DM, leadership of a leader stacked with the unit (ASLGW 1.3) and self-rally
    (A10.61) as DRMs."""
    state = em.state
    u = state.scenario.unit(act.unit)
    ld, self_rally, why = _plan(state, state.scenario, u)
    if why:
        raise IllegalAction(why)
    if ld is not None and is_hidden(state.fog, ld.id):
        em.emit(ConcealmentLost(ld.side, (ld.id,), ld.hex.label, f"he rallies {u.id} (ASLGW 1.3)"))
    _, broken = fx.morale_levels(em.state, u)
    res = rally_check(em.dice, broken, _mods(em.state, u, ld, self_rally), f"rally of {u.id} (A10.6)")
    em.roll(res.roll)
    em.emit(RallyResolved(u.side, u.id, res.outcome, self_rally))
    if res.outcome == "rallied":
        em.emit(UnitHit(u.side, u.id, "rallied", f"final DR {res.roll.final} <= morale {broken} (A10.6)"))
    elif res.outcome == "casualty_reduction":
        fx.casualty(em, u.id, "an original 12 on a rally attempt (A10.61)")


def resolve_repair(em: fx.Emitter, act: Repair) -> None:
    """A repair attempt on a malfunctioned support weapon (A9.72)."""
    w = em.state.scenario.unit(act.weapon)
    wp = find_weapon(w.weapon or "")
    rn = wp.repair if wp is not None and wp.repair is not None else 0
    res = repair_check(em.dice, rn, f"repair of {w.id} (A9.72, R# {rn})")
    em.roll(res.roll)
    em.emit(WeaponChanged(w.side, w.id, "repair_tried" if res.outcome == "still malfunctioned" else res.outcome,
                          f"dr {res.roll.total}: {res.outcome} (A9.72)"))


def dm_events(state: AslgwState) -> list[Record]:
    """A10.62: as a RPh begins, a DM unit not ADJACENT to (nor with) a Known enemy unit
    loses DM, unless it stays in a gas cloud without protection (ASLGW 1.9.21, 1.9.23)."""
    sc = state.scenario
    fog = state.fog
    if not combat_table().rally.dm_lost_unless_adjacent:
        return []
    gas = {Hex.from_label(h) for g in state.combat.gas for h in g.hexes}
    out: list[Record] = []
    for u in sc.units:
        up = state.unit_play(u.id)
        if not up.dm:
            continue
        if u.hex in gas and not state.combat.mark(u.id).gas_worn:
            continue
        near = any(e.side != u.side and e.kind is not UnitKind.SUPPORT_WEAPON and not is_hidden(fog, e.id)
                   and e.hex.distance(u.hex) <= 1 for e in sc.units)
        if not near:
            out.append(UnitHit(u.side, u.id, "dm_off", "no Known enemy unit ADJACENT as the RPh begins (A10.62)",
                               private_to=u.side if is_hidden(fog, u.id) else None))
    return out


def why_illegal(state: AslgwState, act: Rally | Repair, viewer: Viewer) -> str | None:
    """Why a rally or a repair may not be tried now (A10.6, A10.61, A10.63, A9.72), judged on
    what ``viewer`` knows: a unit it cannot see is no unit to it."""
    if state.phase is not Phase.RPh:
        what = "units rally" if isinstance(act, Rally) else "weapons are repaired"
        return f"{what} in the RPh, not the {state.phase.value} ({'A10.6' if isinstance(act, Rally) else 'A9.72'})"
    sc = _viewer_sc(state, viewer)
    uid = act.unit if isinstance(act, Rally) else act.weapon
    try:
        u = sc.unit(uid)
    except KeyError:
        return f"no unit {uid[:40]!r} that you can see"
    if isinstance(act, Rally):
        return _plan(state, sc, u)[2]
    if u.kind is not UnitKind.SUPPORT_WEAPON:
        return f"{u.id} is no weapon: only a malfunctioned weapon is repaired (A9.72)"
    if not state.combat.mark(u.id).malfunctioned:
        return f"{u.id} has not malfunctioned: there is nothing to repair (A9.72)"
    if u.id in state.combat.repaired:
        return f"{u.id} has already had its repair attempt this RPh (A9.72)"
    h = sw_holder(state.scenario, u)
    if h is None or h.broken or h.id not in {x.id for x in sc.units}:
        return f"no Good Order unit of {u.side} holds {u.id}: its holder makes the repair attempt (A9.72)"
    return None


def _rally_resolved(state: AslgwState, ev: RallyResolved) -> AslgwState:
    c = state.combat
    c = replace(c, rallied=c.rallied | {ev.unit}, self_rallied=c.self_rallied | ({ev.side} if ev.self_rally else frozenset()))
    return replace(state, combat=c)


#: the state after each event of the RPh's rally (A10.6: each unit tries once)
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {RallyResolved: _rally_resolved}
