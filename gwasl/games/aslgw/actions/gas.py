"""Gas in play (ASLGW 1.9; issue 12): a side releases a gas attack its scenario gives it
(docs/format/aslgw.md, ``gas``) in its PFPh; every unit in the area or in LOS of it
takes the gas NTC with the Table 5 DRMs, and suffers the gas by type and protection
when it fails (:func:`gwasl.rules.gas.resolve_gas_exposure`); at each RPh units
still in the cloud without their protection on, and units under a labor marker,
try again (:func:`gwasl.rules.gas.rally_phase_gas_check`); protection worn makes
a unit CX (1.9.15) until removed for 1 MF (1.9.16).  Who has what protection comes
from the scenario's date and OB (ASLGW 1.9.1, 1.9.11, 1.9.12), what a gas does from
its type (1.9.13), and a gas MC has no Heat of Battle (1.9.25).

A hidden unit's gas NTC is rolled on its side's own dice and kept in one private
event per side with a hidden layer (so that what others see does not depend on
what is hidden); a failure shows the unit (the gas breaks it and it loses
concealment, 1.9.21, 1.9.23).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from gwasl.engine.game import IllegalAction, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.knowledge import env, is_hidden, private_dice, secret_roll
from gwasl.games.aslgw.records import ConcealmentLost, GasHidden, GasReleased, ReleaseGas, RemoveGasMask, UnitHit
from gwasl.games.aslgw.state import AslgwState, GasCloud, ro
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import GasProtection, Position, Unit, UnitKind
from gwasl.rules.gas import GasAttack, GasOutcome, gas_protection, gas_table, rally_phase_gas_check, resolve_gas_exposure
from gwasl.rules.sniper import gas_releases

__all__ = ["REDUCERS", "expire", "options", "rally_phase_events", "resolve_release", "resolve_removal"]


def options(state: AslgwState, viewer: Viewer) -> list[Record]:
    """Gas attacks the phasing side may release now (its PFPh, from the release's turn),
    and gas protection its units may take off (its MPh, ASLGW 1.9.16)."""
    out: list[Record] = []
    side = state.phasing
    if state.phase is Phase.PFPh:
        for r in gas_releases(state.scenario, side):
            if state.turn >= r.turn and (side, r.index) not in state.combat.released:
                out.append(ReleaseGas(side, r.index))
    if state.phase is Phase.MPh and viewer.sees_secrets_of(side):
        for u in state.scenario.units:
            mk = state.combat.mark(u.id)
            if u.side == side and mk.gas_worn and not state.unit_play(u.id).done:
                out.append(RemoveGasMask(u.id))
    return out


def _apply_outcome(em: fx.Emitter, u: Unit, o: GasOutcome, rule: str) -> None:
    """The public effects of a gas outcome on ``u`` (a revealed or known unit)."""
    if o.protected and not em.state.combat.mark(u.id).gas_worn:
        em.emit(UnitHit(u.side, u.id, "gas_protected", f"gas NTC passed: protection on ({rule})"))
    if o.pinned:
        fx.pin(em, u.id, f"gas NTC passed: pinned for the rest of the turn ({rule})")
    if o.broken and not u.broken:
        fx.break_unit(em, u.id, f"the gas breaks it ({rule})")
    elif o.dm and not em.state.unit_play(u.id).dm:
        em.emit(UnitHit(u.side, u.id, "dm_on", f"DM while in the gas ({rule})"))
    if o.casualty_reduction is not None:
        fx.casualty(em, u.id, f"failed its gas MC ({rule})")
    if o.labor_marker and not em.state.combat.mark(u.id).labor:
        em.emit(UnitHit(u.side, u.id, "labor", f"failed its gas NTC outside the area: labor marker, tries again next RPh ({rule})"))
    if o.protected and em.state.combat.mark(u.id).labor:
        em.emit(UnitHit(u.side, u.id, "labor_off", f"protection on ({rule})"))


def _morale(em: fx.Emitter, u: Unit) -> tuple[int, int]:
    return fx.morale_levels(em.state, u)


def _expose(em: fx.Emitter, attack: GasAttack, hexes: set[Hex], *, rally: bool) -> None:
    """Every unit in the area or in LOS of it (ASLGW 1.9.14), or, in a RPh, every unit
    still in the cloud unprotected or under a labor marker (1.9.22, 1.9.24, 1.9.2)."""
    state = em.state
    sc = state.scenario
    sees = env().sees(sc)
    hidden_rolls: dict[str, list[tuple[Unit, bool]]] = {}
    public: list[tuple[Unit, bool]] = []
    for u in sorted(sc.units, key=lambda x: (x.side, x.id)):
        if u.kind is UnitKind.SUPPORT_WEAPON:
            continue
        mk = state.combat.mark(u.id)
        in_area = u.hex in hexes
        if rally:
            prot = gas_protection(sc, u.side).protection
            if not ((in_area and not mk.gas_worn and prot is not GasProtection.NONE) or (mk.labor and not in_area)):
                continue
        else:
            if mk.gas_worn:
                continue
            if not in_area and not any(sees(u.hex, h, u.position, Position.GROUND) for h in hexes):
                continue
        if is_hidden(state.fog, u.id):
            hidden_rolls.setdefault(u.side, []).append((u, in_area))
        else:
            public.append((u, in_area))
    # hidden units: their NTC on their side's own dice, in one private event per side with a hidden layer
    for side in sorted(state.layer_sides | set(hidden_rolls)):
        pd = private_dice(em.state, side, em.dice.seed)
        rolls, notes, shown, protected, labor = [], [], [], [], []
        for u, in_area in hidden_rolls.get(side, []):
            good, broken = _morale(em, u)
            prot = gas_protection(sc, u.side).protection
            if prot is GasProtection.NONE:
                if in_area:
                    shown.append((u, in_area))
                continue
            from gwasl.rules.gas import gas_ntc_modifiers
            from gwasl.rules.morale import normal_task_check

            res = normal_task_check(pd, broken if u.broken else good, gas_ntc_modifiers(prot, attack),
                                    cause=f"gas NTC of {u.id} (ASLGW 1.9.14)")
            rolls.append(secret_roll(pd, res.roll))
            notes.append(f"{u.id}: {res.reasons[0]}")
            if res.passed:
                protected.append(u.id)
            elif in_area:
                shown.append((u, in_area))
            elif not em.state.combat.mark(u.id).labor:
                labor.append(u.id)  # 1.9.2: keeps trying, unseen, in the next RPh
        em.emit(GasHidden(side, tuple(rolls), tuple(protected), tuple(notes), tuple(labor)))
        for u, in_area in shown:
            em.emit(ConcealmentLost(u.side, (u.id,), u.hex.label, "the gas takes effect on it (ASLGW 1.9.21, 1.9.23)"))
            public.append((u, in_area))
    for u, in_area in public:
        cur = em.alive(u.id)
        if cur is None:
            continue
        good, broken = _morale(em, cur)
        prot = gas_protection(em.state.scenario, cur.side).protection
        if rally:
            o = rally_phase_gas_check(em.dice, cur, good, broken, attack, prot, in_area)
            rule = "ASLGW 1.9.22, 1.9.24" if in_area else "ASLGW 1.9.2"
        else:
            o = resolve_gas_exposure(em.dice, cur, good, broken, attack, prot, in_area, True)
            rule = "ASLGW 1.9.14, 1.9.2"
        for r in (o.ntc.roll if o.ntc else None, o.mc.roll if o.mc else None):
            if r is not None:
                em.roll(r)
        _apply_outcome(em, cur, o, rule)


def resolve_release(em: fx.Emitter, act: ReleaseGas) -> None:
    """Release a gas attack the scenario gives the side (ASLGW 1.9): every unit in its area or in LOS of it takes
    the gas NTC (ASLGW 1.9.14)."""
    state = em.state
    rel = next((r for r in gas_releases(state.scenario, act.side) if r.index == act.index), None)
    if rel is None or act not in options(state, Viewer("player", frozenset(state.settings.order))):
        raise IllegalAction(f"{act.side} has no gas attack {act.index + 1} to release now (ASLGW 1.9)")
    until = state.turn + rel.turns - 1 if rel.turns is not None else None
    em.emit(GasReleased(act.side, act.index, rel.agents, tuple(h.label for h in rel.hexes), until))
    _expose(em, rel.attack, set(rel.hexes), rally=False)


def rally_phase_events(em: fx.Emitter) -> None:
    """ASLGW 1.9.22, 1.9.24, 1.9.2: new gas NTCs as a RPh begins."""
    for g in em.state.combat.gas:
        _expose(em, GasAttack.of(*g.agents), {Hex.from_label(h) for h in g.hexes}, rally=True)


def resolve_removal(em: fx.Emitter, act: RemoveGasMask) -> None:
    """Take gas protection off at will in the MPh (ASLGW 1.9.16): 1 MP, the CX going at the end of the MPh."""
    u = em.state.scenario.unit(act.unit)
    if not em.state.combat.mark(u.id).gas_worn or em.state.phase is not Phase.MPh or u.side != em.state.phasing:
        raise IllegalAction(f"{u.id} wears no gas protection to take off now (ASLGW 1.9.16)")
    em.emit(UnitHit(u.side, u.id, "gas_removed", f"takes its gas protection off: {gas_table().removal_mp} MF; "
                                                  "its CX goes at the end of the MPh (ASLGW 1.9.16)"))


def _gas_released(state: AslgwState, ev: GasReleased) -> AslgwState:
    c = state.combat
    cloud = GasCloud(ev.side, ev.index, ev.agents, ev.hexes, ev.until_turn)
    return replace(state, combat=replace(c, gas=c.gas + (cloud,), released=c.released | {(ev.side, ev.index)}))


def _gas_hidden(state: AslgwState, ev: GasHidden) -> AslgwState:
    c = state.combat
    pos = state.private_position(ev.side)
    for r in ev.rolls:
        pos = max(pos, r.n + len(r.dice))
    st = replace(state, private_dice=ro({**state.private_dice, ev.side: pos}))
    for uid in ev.protected:
        c = fx.with_mark(c, uid, gas_worn=True, labor=False)
    for uid in ev.labor:
        c = fx.with_mark(c, uid, labor=True)
    st = st.with_play({uid: replace(st.unit_play(uid), pinned=True) for uid in ev.protected})
    return replace(st, combat=c)


#: the state after each event of gas (ASLGW 1.9)
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    GasReleased: _gas_released,
    GasHidden: _gas_hidden,
}


def expire(state: AslgwState) -> AslgwState:
    """Clouds whose last turn is past are gone (docs/format/aslgw.md ``turns``).

    ASLGW 1.9 does not say how long a cloud stays (1.9.21 and 1.9.23 speak only of units remaining in its
    area of effect): the scenario's release gives its turns (infantry_combat.json ``gas``)."""
    c = state.combat
    keep = tuple(g for g in c.gas if g.until_turn is None or state.turn <= g.until_turn)
    return state if keep == c.gas else replace(state, combat=replace(c, gas=keep))
