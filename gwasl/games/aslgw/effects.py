"""What attacks do to units in play (issue 12): IFT results (A7.301-A7.305), morale
checks with leadership (ASLGW 1.3), leader loss (A10.2), ELR (A19.13; ASLGW
1.11.1), casualty reduction (A7.302, A17.2), breaking and DM (A10.3, A10.62),
pins (A7.8), broken squads leaving their platoon and platoons reduced to
half-platoons (ASLGW 1.4.11, 1.1) -- and the reduce of those events (:data:`REDUCERS`).

Resolution works through an :class:`Emitter`: every event is reduced into a
working state as soon as it is made, so each later check sees what the earlier
ones did (a leader broken first makes his stack's checks LLMC), and the
session's replay of the same events gives the same state.  The rule numbers
and tables are :mod:`gwasl.rules`' (morale, dice, units, organisation).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from gwasl.engine import emitter as _engine
from gwasl.engine.dice import GameDice
from gwasl.engine.record import Record
from gwasl.games.aslgw.knowledge import is_hidden
from gwasl.games.aslgw.records import FormationChanged, Marked, UnitHit, WeaponChanged
from gwasl.games.aslgw.state import AslgwState, CombatState, UnitCombat, UnitPlay, ro
from gwasl.games.aslgw.victory import remove_units
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FormationKind, Position, Scenario, Unit, UnitClass, UnitKind
from gwasl.rules.bayonet import bch_morale, bch_unit_status
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Modifier, Roll, random_selection
from gwasl.rules.gas import gas_table
from gwasl.rules.ift import IftResult
from gwasl.rules.morale import casualty_reduction, elr_failure, leader_loss_modifier, morale_check, pin_task_check, unit_morale
from gwasl.rules.organisation import active_members, kind_after_losses, leadership_applies, squad_equivalents
from gwasl.rules.sniper import side_elr
from gwasl.rules.units import UnitsError, elr_replaced_unit, unit_factors_of
from gwasl.rules.weapons import sw_holder

__all__ = ["REDUCERS", "Emitter", "apply_ift", "break_unit", "casualty", "eliminate", "inherent_factors", "leadership",
           "morale_levels"]

_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)
Loc = tuple[Hex, Position]


class Emitter(_engine.Emitter[AslgwState]):
    """Events made one at a time, each reduced at once into :attr:`state` (the engine's
    helper), with the Great War's rolls and the question whether a unit still stands."""

    dice: GameDice

    def roll(self, roll: Roll, private_to: str | None = None) -> None:
        self.emit(self.dice.event(roll, private_to))

    def rolls(self, rolls: Iterable[Roll]) -> None:
        for r in rolls:
            self.roll(r)

    def alive(self, uid: str) -> Unit | None:
        try:
            return self.state.scenario.unit(uid)
        except KeyError:
            return None


# ---------------------------------------------------------------------------
# Unit facts


def inherent_factors(sc: Scenario, u: Unit) -> tuple[int, int]:
    """A unit's inherent FP and normal range: squads and half-squads from the
    ASLGW 1.11 tables, crews and heroes from infantry_combat.json (A1.123, A17.1),
    leaders none (A7.1)."""
    t = combat_table()
    if u.kind in _SQUADS:
        try:
            f = unit_factors_of(sc, u)
            return f.firepower, f.range
        except UnitsError:
            return 0, 0
    if u.kind in (UnitKind.CREW, UnitKind.HERO):
        f2 = t.firer(u.kind.value)
        return f2.fp, f2.range
    return t.leader_fp, 0


def morale_levels(state: AslgwState, u: Unit) -> tuple[int, int]:
    """A unit's Good Order and broken morale (ASLGW 1.11: the number after the
    slash), +1 while a BCh unit (ASLGW 1.5), -1 for a wounded SMC (A17.2)."""
    t = combat_table()
    good, broken = unit_morale(state.scenario, u)  # the one source of a unit's morale (rules.morale)
    mk = state.combat.mark(u.id)
    if mk.wounded:
        good, broken = good + t.wounded_morale, broken + t.wounded_morale
    if mk.bch:
        good = bch_morale(good, bch_unit_status(u), u.broken)
    return good, broken


def leadership(state: AslgwState, leader: Unit) -> int:
    """A leader's leadership DRM, one worse when wounded (A17.2)."""
    mod = leader.rating.modifier if leader.rating is not None else 0
    if state.combat.mark(leader.id).wounded:
        mod += combat_table().wounded_leadership
    return mod


def may_lead(state: AslgwState, leader: Unit) -> bool:
    """Whether ``leader`` may lend his leadership to others now: not while pinned (A7.8:
    no DRM to others' MC, rally or fire; docs/rules-notes.md)."""
    return not state.unit_play(leader.id).pinned


def stacked_leader(state: AslgwState, u: Unit, *, exclude: Iterable[str] = (), known_to: str | None = None) -> Unit | None:
    """The Good Order leader stacked with ``u`` whose leadership is best (ASLGW 1.3), never a
    pinned one (A7.8); ``known_to``: only leaders that side can see (a hidden leader lends nothing)."""
    skip = set(exclude)
    best: Unit | None = None
    for o in state.scenario.units:
        if o.id == u.id or o.id in skip or not leadership_applies(o, u) or not may_lead(state, o):
            continue
        if known_to is not None and o.side != known_to and is_hidden(state.fog, o.id):
            continue
        if best is None or leadership(state, o) < leadership(state, best):
            best = o
    return best


# ---------------------------------------------------------------------------
# Changes to units


def casualty(em: Emitter, uid: str, why: str) -> None:
    """Casualty reduction (A7.302, A17.2): a squad becomes a half-squad, a half-squad
    or crew is eliminated, an SMC is wounded, a wounded SMC eliminated."""
    u = em.alive(uid)
    if u is None:
        return
    cr = casualty_reduction(u.kind, em.state.combat.mark(uid).wounded)
    if cr.eliminated:
        eliminate(em, uid, f"{why}; casualty reduction eliminates it ({cr.rule})")
    elif cr.to == "wounded":
        em.emit(UnitHit(u.side, uid, "wounded", f"{why} ({cr.rule})"))
    else:
        em.emit(UnitHit(u.side, uid, "reduced", f"{why}: becomes a {cr.to.replace('_', '-')} ({cr.rule})", cr.to))
        _formation_check(em, u.side)


def eliminate(em: Emitter, uid: str, why: str) -> None:
    """A unit is eliminated and leaves play, the weapons it held staying where no unit of its side takes them
    (docs/rules-notes.md); a squad's loss may reduce its platoon to a half-platoon (ASLGW 1.1)."""
    u = em.alive(uid)
    if u is None:
        return
    sc = em.state.scenario
    held = [w for w in sc.units if w.kind is UnitKind.SUPPORT_WEAPON and (sw_holder(sc, w) or w).id == uid]
    em.emit(UnitHit(u.side, uid, "eliminated", why))
    for w in held:
        after = em.state.scenario
        if sw_holder(after, after.unit(w.id)) is None:
            em.emit(WeaponChanged(w.side, w.id, "eliminated", f"its holder {uid} is eliminated and no unit of its side is "
                                                            "in its Location to take it (docs/rules-notes.md)"))
    if u.kind in _SQUADS:
        _formation_check(em, u.side)


def break_unit(em: Emitter, uid: str, why: str) -> None:
    """A Good Order unit breaks: broken side, DM (A10.3, A10.62); a broken squad
    is no longer part of its platoon (ASLGW 1.4.11)."""
    u = em.alive(uid)
    if u is None or u.broken:
        return
    em.emit(UnitHit(u.side, uid, "broken", why))
    if u.kind in _SQUADS and u.platoon is not None:
        em.emit(UnitHit(u.side, uid, "left_platoon", f"a broken squad leaves platoon {u.platoon} (ASLGW 1.4.11)", u.platoon))
        _formation_check(em, u.side)


def pin(em: Emitter, uid: str, why: str) -> None:
    """A Good Order unit is pinned (A7.8), except a BCh unit (ASLGW 1.5)."""
    u = em.alive(uid)
    if u is None or u.broken or em.state.unit_play(uid).pinned:
        return
    if em.state.combat.mark(uid).bch:
        return  # BCh units are exempt from pin results (ASLGW 1.5)
    em.emit(UnitHit(u.side, uid, "pinned", why))


def _formation_check(em: Emitter, side: str) -> None:
    """ASLGW 1.1: a platoon whose casualties leave it no more squads than a half-platoon
    has becomes one."""
    sc = em.state.scenario
    for f in sc.formations:
        members = sc.members(f.id)
        if not members or members[0].side != side or f.kind is not FormationKind.PLATOON:
            continue
        new = kind_after_losses(f.kind, squad_equivalents(active_members(sc, f.id)))
        if new is not f.kind:
            em.emit(FormationChanged(side, f.id, new.value))


# ---------------------------------------------------------------------------
# Morale checks and IFT results


def morale_check_unit(em: Emitter, uid: str, severity: str, cause: str, *, lost: dict[Loc, Modifier],
                      extra: Sequence[Modifier] = (), original: Roll | None = None) -> None:
    """One MC (A10.3) with the leadership of a Good Order leader stacked with the unit
    (ASLGW 1.3), or the LLMC DRM of a leader lost in this attack (A10.2), and ELR
    (A19.13).  ``lost``: the leaders lost so far, by location key; ``original``: the roll
    whose Original DR the MC uses (FPF, A8.31) instead of a new DR."""
    u = em.alive(uid)
    if u is None:
        return
    st = em.state
    good, broken = morale_levels(st, u)
    mods: list[Modifier] = list(extra)
    key = (u.hex, u.position)
    llmc = lost.get(key)
    if llmc is not None and combat_table().llmc_from_leadership and u.kind is not UnitKind.LEADER:
        if llmc.value:
            mods.append(llmc)
    else:
        ld = stacked_leader(st, u)
        if ld is not None and leadership(st, ld):
            mods.append(Modifier(f"leadership of {ld.id} (ASLGW 1.3)", leadership(st, ld)))
    mk = st.combat.mark(uid)
    bch = bch_unit_status(u) if mk.bch else None
    res = morale_check(em.dice, u.kind, broken if u.broken else good, broken=u.broken, severity=severity,
                       modifiers=mods, cause=f"{severity} of {uid}: {cause}",
                       pin_immune=bch.pin_immune if bch else None, hob_exemption=bch.heat_of_battle_exempt if bch else None,
                       wounded=mk.wounded, original=original)
    em.roll(res.roll)
    why = "; ".join(res.reasons)
    if res.passed:
        if res.pinned:
            pin(em, uid, why)
        return
    if not u.broken:
        if u.kind in _SQUADS and elr_failure(res.roll.final, good, side_elr(st.scenario, u.side)):
            new = elr_replaced_unit(st.scenario, u) if u.unit_class is not None else None
            if new is not None and new.unit_class is not None:
                em.emit(UnitHit(u.side, uid, "replaced", f"failed its MC by more than ELR {side_elr(st.scenario, u.side)}: "
                                f"replaced by a {new.unit_class.value.replace('_', ' ')} unit (A19.13"
                                f"{', ASLGW 1.11.1' if u.unit_class is UnitClass.STOSSTRUPPEN else ''})", new.unit_class.value))
        was_leader = u.kind is UnitKind.LEADER
        break_unit(em, uid, why)
        if was_leader:
            lost[key] = leader_loss_modifier(leadership(st, u), uid)
    if res.casualty_reduction is not None:
        was_leader = u.kind is UnitKind.LEADER
        casualty(em, uid, why)
        if was_leader:
            lost[key] = leader_loss_modifier(leadership(st, u), uid)


def _leaders_first(state: AslgwState, ids: Sequence[str]) -> list[str]:
    units = [state.scenario.unit(i) for i in ids if _has(state, i)]
    return [u.id for u in sorted(units, key=lambda u: (u.kind is not UnitKind.LEADER,
                                                       leadership(state, u) if u.kind is UnitKind.LEADER else 0, u.id))]


def _has(state: AslgwState, uid: str) -> bool:
    try:
        state.scenario.unit(uid)
        return True
    except KeyError:
        return False


def apply_ift(em: Emitter, ids: Sequence[str], result: IftResult, cause: str) -> None:
    """Apply one IFT result to the units ``ids`` of one target group (A7.301-A7.305).

    KIA: that many units by Random Selection are eliminated, the others break (a
    broken one is casualty reduced); K/#: one unit by Random Selection is
    casualty reduced, then all take a #MC; #MC, NMC: every unit takes it,
    leaders first; PTC: each takes a PTC (failure pins).  A leader broken,
    wounded or eliminated makes his stack's later checks LLMC, and those with
    no check to take an LLTC (A10.2).
    """
    ids = [i for i in ids if _has(em.state, i) and em.state.scenario.unit(i).kind is not UnitKind.SUPPORT_WEAPON]
    if not ids or result.kind == "none":
        return
    lost: dict[Loc, Modifier] = {}
    checked: set[str] = set()
    if result.kind == "KIA":
        pool = sorted(ids)
        for _ in range(min(result.n, len(pool))):
            sel, rolls = random_selection(em.dice, pool, f"{result.text} ({cause})")
            em.rolls(rolls)
            pool.remove(sel)
            u = em.alive(sel)
            eliminate(em, sel, f"{result.text}: eliminated (A7.301)")
            if u is not None and u.kind is UnitKind.LEADER:
                lost[(u.hex, u.position)] = leader_loss_modifier(leadership(em.state, u), sel)
        for uid in _leaders_first(em.state, pool):
            u = em.alive(uid)
            if u is None:
                continue
            if combat_table().kia_others == "break":
                if u.broken:
                    casualty(em, uid, f"{result.text}: a broken unit in the Location is casualty reduced (A7.301)")
                else:
                    break_unit(em, uid, f"{result.text}: the other units in the Location break (A7.301)")
            checked.add(uid)
    elif result.kind in ("K", "MC", "NMC"):
        severity = "NMC" if result.kind == "NMC" else f"{result.n}MC"
        if result.kind == "K":
            sel, rolls = random_selection(em.dice, sorted(ids), f"{result.text} ({cause})")
            em.rolls(rolls)
            u0 = em.alive(sel)
            casualty(em, sel, f"{result.text}: chosen by Random Selection (A.9)")
            if u0 is not None and u0.kind is UnitKind.LEADER:
                lost[(u0.hex, u0.position)] = leader_loss_modifier(leadership(em.state, u0), sel)
        for uid in _leaders_first(em.state, ids):
            morale_check_unit(em, uid, severity, f"{result.text} ({cause})", lost=lost)
            checked.add(uid)
    elif result.kind == "PTC":
        for uid in _leaders_first(em.state, ids):
            u = em.alive(uid)
            if u is None or u.broken:
                continue
            good, _ = morale_levels(em.state, u)
            ld = stacked_leader(em.state, u)
            mods = [Modifier(f"leadership of {ld.id} (ASLGW 1.3)", leadership(em.state, ld))] if ld and leadership(em.state, ld) else []
            res = pin_task_check(em.dice, good, mods, cause=f"PTC of {uid}: {result.text} ({cause})")
            em.roll(res.roll)
            if res.pinned:
                pin(em, uid, "; ".join(res.reasons))
            checked.add(uid)
    _lltc(em, lost, checked)


def _lltc(em: Emitter, lost: dict[Loc, Modifier], checked: set[str]) -> None:
    """A10.2: the Good Order units of a lost leader's Location that took no check in
    this attack take a LLTC (an NTC with the leader-loss DRM); failing pins."""
    if not lost or combat_table().lltc_failure != "pin":
        return
    from gwasl.rules.morale import normal_task_check

    for u in list(em.state.scenario.units):
        key = (u.hex, u.position)
        if key not in lost or u.id in checked or u.broken or not u.is_infantry or u.kind is UnitKind.LEADER:
            continue
        good, _ = morale_levels(em.state, u)
        res = normal_task_check(em.dice, good, [lost[key]] if lost[key].value else None, cause=f"LLTC of {u.id} (A10.2)")
        em.roll(res.roll)
        if not res.passed:
            pin(em, u.id, f"failed its LLTC (A10.2): {res.reasons[0]}")


# ---------------------------------------------------------------------------
# Reduce


def _with_unit(state: AslgwState, u: Unit) -> AslgwState:
    fog = state.fog
    return replace(state, fog=replace(fog, scenario=fog.scenario.with_unit(u)))


def with_mark(c: CombatState, uid: str, **changes: Any) -> CombatState:
    m = replace(c.mark(uid), **changes)
    marks = dict(c.marks)
    if m == UnitCombat():
        marks.pop(uid, None)
    else:
        marks[uid] = m
    return replace(c, marks=ro(marks))


def _marked(state: AslgwState, ev: Marked) -> AslgwState:
    c = state.combat
    for uid in ev.units:
        c = with_mark(c, uid, fire=ev.mark)
    return replace(state, combat=c)


def _weapon_changed(state: AslgwState, ev: WeaponChanged) -> AslgwState:
    if ev.status in ("eliminated", "used_up"):
        fog = remove_units(state.fog, [ev.weapon])
        c = state.combat
        marks = {k: v for k, v in c.marks.items() if k != ev.weapon}
        return replace(state, fog=fog, combat=replace(c, marks=ro(marks)))
    c = state.combat
    if ev.status in ("repaired", "repair_tried"):
        c = replace(c, repaired=c.repaired | {ev.weapon})
    if ev.status in ("malfunctioned", "repaired"):
        c = with_mark(c, ev.weapon, malfunctioned=ev.status == "malfunctioned")
    return replace(state, combat=c)


def _formation_changed(state: AslgwState, ev: FormationChanged) -> AslgwState:
    sc = state.scenario
    forms = tuple(replace(f, kind=FormationKind(ev.to)) if f.id == ev.formation else f for f in sc.formations)
    return replace(state, fog=replace(state.fog, scenario=replace(sc, formations=forms)))


class UnitChangeError(GwaslError):
    """A UnitChanged event whose change the reducer does not know."""


def _unit_hit(state: AslgwState, ev: UnitHit) -> AslgwState:
    """Reduce a UnitHit; raises :class:`UnitChangeError` for a change no reducer knows."""
    if ev.change in ("broken", "eliminated", "left_platoon"):
        state = _out_of_impulse(state, ev.unit)
    sc = state.scenario
    if ev.change == "eliminated":
        play = {k: v for k, v in state.play.items() if k != ev.unit}
        marks = {k: v for k, v in state.combat.marks.items() if k != ev.unit}
        return replace(state, fog=remove_units(state.fog, [ev.unit]), play=ro(play),
                       combat=replace(state.combat, marks=ro(marks)))
    u = sc.unit(ev.unit)
    up = state.unit_play(ev.unit)
    c = state.combat
    if ev.change == "broken":
        return _with_unit(state, replace(u, broken=True)).with_play({ev.unit: replace(up, dm=True, pinned=False)})
    if ev.change == "pinned":
        return state.with_play({ev.unit: replace(up, pinned=True)})
    if ev.change == "reduced":
        return _with_unit(state, replace(u, kind=UnitKind(ev.to or "half_squad")))
    if ev.change == "wounded":
        return replace(state, combat=with_mark(c, ev.unit, wounded=True))
    if ev.change == "replaced":
        return _with_unit(state, replace(u, unit_class=UnitClass(ev.to) if ev.to else u.unit_class))
    if ev.change == "rallied":
        return _with_unit(state, replace(u, broken=False)).with_play({ev.unit: replace(up, dm=False)})
    if ev.change == "dm_off":
        return state.with_play({ev.unit: replace(up, dm=False)})
    if ev.change == "dm_on":
        return state.with_play({ev.unit: replace(up, dm=True)})
    if ev.change == "left_platoon":
        return _with_unit(state, replace(u, platoon=None)).with_play({ev.unit: replace(up, detached=False)})
    if ev.change == "gas_protected":
        return replace(state, combat=with_mark(c, ev.unit, gas_worn=True, labor=False))
    if ev.change == "labor":
        return replace(state, combat=with_mark(c, ev.unit, labor=True))
    if ev.change == "labor_off":
        return replace(state, combat=with_mark(c, ev.unit, labor=False))
    if ev.change == "cx":
        return state.with_play({ev.unit: replace(up, cx=True)})
    if ev.change == "bch":
        return replace(state, combat=with_mark(c, ev.unit, bch=True))
    if ev.change == "gas_removed":
        st = state.with_play({ev.unit: replace(up, mf_spent=up.mf_spent + gas_table().removal_mp)})
        return replace(st, combat=with_mark(c, ev.unit, gas_worn=False, gas_removed=True))
    raise UnitChangeError(f"unknown unit change {ev.change!r}")


def _out_of_impulse(state: AslgwState, uid: str) -> AslgwState:
    """A unit broken or eliminated in the middle of its platoon's impulse (Residual FP,
    A8.2) is no longer one of its movers (ASLGW 1.4.11); an impulse left with none is over."""
    imp = state.impulse
    if imp is None or uid not in imp.steps:
        return state
    steps = {k: v for k, v in imp.steps.items() if k != uid}
    return replace(state, impulse=replace(imp, steps=ro(steps)) if steps else None)


def new_player_turn(state: AslgwState) -> AslgwState:
    """What a new player turn clears (A7.8 pins, A8.1 fire markers, BCh status ASLGW 1.5,
    A3 per-turn flags) and what it brings (ASLGW 1.9.15: gas protection worn makes CX)."""
    c = state.combat
    marks = {}
    for k, m in c.marks.items():
        nm = replace(m, fire="", moved=False, bch=False, charge_cc=False, withdrew=False, gas_removed=False)
        if nm != UnitCombat():
            marks[k] = nm
    play = {}
    for k, up in state.play.items():
        nu = replace(up, pinned=False)
        if c.mark(k).gas_worn:
            nu = replace(nu, cx=True)
        play[k] = nu
    for k, m in c.marks.items():
        if m.gas_worn and k not in play:
            play[k] = UnitPlay(cx=True)
    st = replace(state, combat=replace(c, marks=ro(marks), charge=None, charged=frozenset()))
    return replace(st, play=ro({k: v for k, v in play.items() if v != UnitPlay()}))


def mark_moved(c: CombatState, ids: Iterable[str]) -> CombatState:
    for i in ids:
        c = with_mark(c, i, moved=True)
    return c


#: the state after each event of this module's kinds
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    UnitHit: _unit_hit,
    Marked: _marked,
    WeaponChanged: _weapon_changed,
    FormationChanged: _formation_changed,
}
