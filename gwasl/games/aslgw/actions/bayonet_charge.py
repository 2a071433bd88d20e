"""The Bayonet Charge in play (ASLGW 1.5; issue 12): declared in the MPh with every
condition of :func:`gwasl.rules.bayonet.check_bch_declaration` checked, the
charge moving by Human Wave impulses (8 MF, one hex ahead per impulse, A25.231
via :func:`gwasl.rules.bayonet.bch_impulse`), the defender firing at the
chargers after each impulse (A8.1), and the effects on the BCh units for the
player turn: concealment lost, morale +1, pin and Heat of Battle immunity, Lax
(:func:`gwasl.rules.bayonet.bch_unit_status`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from gwasl.engine.game import IllegalAction, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.knowledge import env, is_hidden, known_scenario, with_piles
from gwasl.games.aslgw.records import (
    BayonetCharge,
    ChargeDeclared,
    ChargeImpulse,
    ChargeStep,
    ChargeStepped,
    ConcealmentLost,
    EndChargeImpulse,
)
from gwasl.games.aslgw.state import AslgwState, ChargeMove, ChargeMover, ChargeState, FireWindow, MoverMark, ro
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules.bayonet import BChDeclaration, BChMover, BChStep, bch_impulse, bch_movers, check_bch_declaration
from gwasl.rules.fog.status import move_units
from gwasl.rules.movement import steps_from
from gwasl.rules.stacking import location_key, stacking_problem

__all__ = ["REDUCERS", "active", "options", "resolve_declaration", "resolve_end_impulse", "resolve_step"]

_MMC = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)


def _live(state: AslgwState) -> list[ChargeMover]:
    """The BCh units still charging: active, on the map, not broken (A25.235)."""
    ch = state.combat.charge
    if ch is None:
        return []
    sc = state.scenario
    return [m for m in ch.active if _has(sc, m.unit) and not sc.unit(m.unit).broken]


def active(state: AslgwState) -> bool:
    """A BCh is moving: nothing else moves until it is over (A25.231)."""
    return bool(_live(state))


def _sees(sc: Scenario) -> Callable[[Hex, Hex, Position, Position], bool]:
    sees = env().sees(sc)
    return lambda a, b, ai, bi: sees(a, b, ai, bi)


def known_to_charge(state: AslgwState, side: str, knows: bool = True) -> Scenario:
    """The scenario a Bayonet Charge of ``side`` is declared and checked on (ASLGW 1.5):
    ``side``'s units (only those in view when ``knows`` is False: a viewer who does not
    see ``side``'s secrets), the enemy units ``side`` sees, and a notional squad under each
    enemy "?" -- a concealed enemy counts, a HIP one does not, and a dummy "?" counts as
    any "?" since ``side`` cannot tell (docs/rules-notes.md).  Never the whole truth, so
    that the list and every refusal read the same whatever is hidden (CONTRACTS 5)."""
    return with_piles(known_scenario(state.fog, frozenset({side}) if knows else frozenset()), state.fog, side)


def _candidates(state: AslgwState, sc: Scenario, side: str) -> list[Unit]:
    """Units that may take part: Good Order infantry, no crew (ASLGW 1.5), that have not
    moved or Prep Fired this phase, not pinned, not in Melee."""
    out = []
    for u in sc.units:
        if u.side != side or u.kind in (UnitKind.SUPPORT_WEAPON, UnitKind.CREW) or u.broken:
            continue
        up = state.unit_play(u.id)
        if up.moved or up.pinned or up.ntc_failed or mv.unit_blocker(state, state.fog, u, free=True) is not None:
            continue
        out.append(u)
    return out


def _components(units: list[Unit]) -> list[list[Unit]]:
    hexes = sorted({u.hex for u in units}, key=lambda h: (h.column, h.row))
    comp = {h: i for i, h in enumerate(hexes)}
    changed = True
    while changed:
        changed = False
        for a in hexes:
            for b in hexes:
                if a.is_adjacent(b) and comp[a] != comp[b]:
                    comp[a] = comp[b] = min(comp[a], comp[b])
                    changed = True
    out = []
    for c in sorted(set(comp.values())):
        out.append([u for u in units if comp[u.hex] == c])
    return out


def options(state: AslgwState, viewer: Viewer) -> list[Record]:
    """The BCh the phasing side may declare now, and the steps of a charge moving.

    ASLGW 1.5: the ATTACKER declares a BCh in his MPh; the charge then moves by Human Wave impulses (A25.231)."""
    if state.phase is not Phase.MPh:
        return []
    side = state.phasing
    ch = state.combat.charge
    if ch is not None and active(state):
        return _step_options(state)
    if side in state.combat.charged or state.impulse is not None:
        return []
    sc = known_to_charge(state, side, viewer.sees_secrets_of(side))
    cands = _candidates(state, sc, side)
    groups: list[list[Unit]] = _components(cands)
    for pid in sorted({u.platoon for u in cands if u.platoon is not None}):
        f = next((f for f in sc.formations if f.id == pid), None)
        members = [u for u in cands if u.platoon == pid or (f is not None and u.id == f.leader)]
        if members and all(members != g for g in groups):
            groups.append(members)
    out: list[Record] = []
    sees = _sees(sc)
    for g in groups:
        ids = tuple(sorted(u.id for u in g))
        for d in range(6):
            if check_bch_declaration(sc, BChDeclaration(ids, d), sees).ok:
                out.append(BayonetCharge(ids, d))
    return out


def resolve_declaration(em: fx.Emitter, act: BayonetCharge) -> None:
    """Declare a Bayonet Charge (ASLGW 1.5): every declaration condition checked on what the charging side knows,
    then its units lose concealment and become BCh units."""
    state = em.state
    side = state.phasing
    sc = state.scenario
    if any(sc.unit(i).side != side for i in act.units if _has(sc, i)):
        raise IllegalAction("a BCh is declared by the phasing side with its own units (ASLGW 1.5)")
    # judged on what the charging side knows, as the legal list is (a "?" counts, a HIP unit does not)
    known = known_to_charge(state, side)
    chk = check_bch_declaration(known, BChDeclaration(act.units, act.direction), _sees(known))
    if not chk.ok:
        raise IllegalAction("; ".join(f"{f.message} ({f.rule})" for f in chk.failures))
    movers = bch_movers(sc, BChDeclaration(act.units, act.direction))
    hidden = [i for i in act.units if is_hidden(state.fog, i)]
    hidden += [w.id for w in mv.carried(sc, [sc.unit(i) for i in act.units]) if is_hidden(state.fog, w.id)]
    by_hex: dict[str, list[str]] = {}
    for i in hidden:
        by_hex.setdefault(sc.unit(i).hex.label, []).append(i)
    for h, ids in sorted(by_hex.items()):
        em.emit(ConcealmentLost(side, tuple(sorted(ids)), h, "it charges with the bayonet (ASLGW 1.5)"))
    em.emit(ChargeDeclared(side, tuple(sorted(act.units)), act.direction, movers[0].mf_left if movers else 8.0))


def _has(sc: Scenario, uid: str) -> bool:
    try:
        sc.unit(uid)
        return True
    except KeyError:
        return False


def _steps(state: AslgwState, m: ChargeMover) -> list[tuple[Hex, Position, float]]:
    """The hexes ``m`` may enter this impulse: ADJACENT, ahead of the charge (the
    direction or its two neighbours, A25.231), within its MF; an enemy hex may be
    entered (the charge ends there in CC, A25.235)."""
    ch = state.combat.charge
    assert ch is not None
    sc = state.scenario
    u = sc.unit(m.unit)
    out = []
    for st in steps_from(sc, u.hex, u.position):
        d = u.hex.direction_to(st.to_hex)
        if st.to_hex == u.hex or d is None or (d - ch.direction) % 6 not in (0, 1, 5) or st.cost.mf > m.mf_left:
            continue
        there = [o for o in sc.units if o.side == u.side and o.hex == st.to_hex and o.kind is not UnitKind.SUPPORT_WEAPON
                 and location_key(o.position) == location_key(st.to_pos) and o.id != u.id]
        if stacking_problem([*there, u], location_key(st.to_pos)):
            continue
        out.append((st.to_hex, st.to_pos, st.cost.mf))
    return out


def _in_enemy(state: AslgwState, m: ChargeMover) -> bool:
    """A25.235: a BCh unit in a hex holding an armed, Known enemy unit is in CC."""
    sc = state.scenario
    if not _has(sc, m.unit):
        return False
    h = sc.unit(m.unit).hex
    return any(o.side != state.phasing and o.hex == h and o.kind is not UnitKind.SUPPORT_WEAPON and not o.broken
               and not is_hidden(state.fog, o.id) for o in sc.units)


def _step_options(state: AslgwState) -> list[Record]:
    ch = state.combat.charge
    assert ch is not None
    out: list[Record] = []
    waiting = False
    for m in _live(state):
        if m.unit in ch.planned or _in_enemy(state, m):
            continue
        steps = _steps(state, m)
        waiting = waiting or bool(steps)
        out += [ChargeStep(m.unit, h.label, p.value) for h, p, _ in steps]
    if not waiting:
        out.append(EndChargeImpulse())
    return out


def resolve_step(em: fx.Emitter, act: ChargeStep) -> None:
    """One BCh unit's step of the current impulse: one ADJACENT hex ahead, within its MF (ASLGW 1.5, A25.231)."""
    ch = em.state.combat.charge
    if ch is None or not active(em.state):
        raise IllegalAction("no BCh is moving (ASLGW 1.5)")
    m = ch.mover(act.unit)
    if m is None or not m.active or m.unit in ch.planned:
        raise IllegalAction(f"{act.unit} is not a BCh unit waiting to move in this impulse (A25.231)")
    step = next(((h, p, mf) for h, p, mf in _steps(em.state, m) if h.label == act.to and p.value == act.to_in), None)
    if step is None:
        raise IllegalAction(f"{act.unit} may not enter {act.to} in this impulse (A25.231: one ADJACENT hex ahead, within its MF)")
    em.emit(ChargeStepped(ch.side, act.unit, act.to, act.to_in, step[2]))


def resolve_end_impulse(em: fx.Emitter, act: EndChargeImpulse) -> None:
    """A25.231-A25.235: every BCh unit able to has entered its new hex; the rules' impulse
    check decides who goes on; hidden enemies in the hexes entered show (A12.15)."""
    state = em.state
    ch = state.combat.charge
    if ch is None or not active(state):
        raise IllegalAction("no BCh is moving (ASLGW 1.5)")
    sc = state.scenario
    enemy = state.defender
    enemy_hexes = {u.hex for u in sc.units if u.side == enemy and u.kind is not UnitKind.SUPPORT_WEAPON and not u.broken
                   and not is_hidden(state.fog, u.id)}
    rmovers = []
    for m in ch.movers:
        if not _has(sc, m.unit):
            rmovers.append(BChMover(m.unit, Hex(0, 0), m.mf_left, False, "eliminated (A25.235)"))
        elif m.active and m.unit not in ch.planned and not _in_enemy(state, m):
            rmovers.append(BChMover(m.unit, sc.unit(m.unit).hex, m.mf_left, False, "no hex ahead to enter (A25.231)"))
        else:
            rmovers.append(BChMover(m.unit, sc.unit(m.unit).hex, m.mf_left, m.active, m.ended, m.in_cc))
    broken = [m.unit for m in ch.movers if _has(sc, m.unit) and sc.unit(m.unit).broken]
    steps = [BChStep(uid, Hex.from_label(h), mf) for uid, (h, _p, mf) in sorted(ch.planned.items())
             if uid not in broken and _has(sc, uid)]
    res = bch_impulse(rmovers, ch.direction, steps, enemy_hexes=enemy_hexes, broken=broken)
    if not res.ok:
        raise IllegalAction("; ".join(f"{f.message} ({f.rule})" for f in res.failures))
    moves = []
    for st in steps:
        h, p, mf = ch.planned[st.unit_id]
        moves.append(ChargeMove(st.unit_id, h, p, mf))
    for cm in moves:
        events, _blocked = mv.hidden_enemy_in_the_way(em.state, ch.side, sc.unit(cm.unit).hex, Hex.from_label(cm.to), Position(cm.to_in))
        em.emit(*events)
    left = tuple((m.unit_id, m.mf_left) for m in res.movers)
    ended = tuple((m.unit_id, m.ended) for m in res.movers if not m.active and m.ended)
    in_cc = tuple(m.unit_id for m in res.movers if m.in_cc)
    em.emit(ChargeImpulse(ch.side, left, ended, in_cc, res.over, tuple(moves)))


def _charge_declared(state: AslgwState, ev: ChargeDeclared) -> AslgwState:
    c = state.combat
    sc = state.scenario
    movers = tuple(ChargeMover(m.unit_id, m.mf_left) for m in bch_movers(sc, BChDeclaration(ev.units, ev.direction)))
    for uid in ev.units:
        c = fx.with_mark(c, uid, bch=True)
    return replace(state, combat=replace(c, charge=ChargeState(ev.side, ev.direction, movers), charged=c.charged | {ev.side}))


def _charge_stepped(state: AslgwState, ev: ChargeStepped) -> AslgwState:
    c = state.combat
    ch = c.charge
    assert ch is not None
    return replace(state, combat=replace(c, charge=replace(ch, planned=ro({**ch.planned, ev.unit: (ev.to, ev.to_in, ev.mf)}))))


def _charge_impulse(state: AslgwState, ev: ChargeImpulse) -> AslgwState:
    c = state.combat
    ch = c.charge
    assert ch is not None
    fog = state.fog
    sc = fog.scenario
    targets: dict[tuple[str, str], list[str]] = {}
    for cm in ev.moves:
        u = sc.unit(cm.unit)
        ids = [cm.unit] + [w.id for w in mv.carried(sc, [u])]
        fog = move_units(fog, ids, Hex.from_label(cm.to), Position(cm.to_in), cm.mf)
        state = state.moved_units_of(u.side)  # O'Leary 2.3, 5.1: the phase's shift windows are past
        targets.setdefault((cm.to, cm.to_in), []).append(cm.unit)
        c = fx.mark_moved(c, [cm.unit])
    left = dict(ev.left)
    ended = dict(ev.ended)
    movers = tuple(replace(m, mf_left=left.get(m.unit, m.mf_left), active=m.active and m.unit not in ended and m.unit in left,
                           ended=ended.get(m.unit, m.ended), in_cc=m.in_cc or m.unit in ev.in_cc) for m in ch.movers)
    for uid in ev.in_cc:
        c = fx.with_mark(c, uid, charge_cc=True)
    window = FireWindow(state.defender, tuple(MoverMark(h, p, tuple(sorted(us))) for (h, p), us in sorted(targets.items())))
    return replace(state, fog=fog, combat=replace(c, charge=replace(ch, movers=movers, planned=ro({})),
                                                   window=window if targets else c.window))


#: the state after each event of a Bayonet Charge (ASLGW 1.5, A25.23)
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    ChargeDeclared: _charge_declared,
    ChargeStepped: _charge_stepped,
    ChargeImpulse: _charge_impulse,
}
