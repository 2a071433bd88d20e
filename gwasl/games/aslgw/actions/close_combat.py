"""Close combat in play (issue 12): exactly as ASLGW 1.10 -- normal CC only between
separated locations or when every attacker has hand grenades (ASLGW 1.10.1; hand
grenades from 1916 on the western front or by SSR, 1.6.6, 1.6.61), otherwise
Hand-to-Hand; a Melee across directly accessible locations turns to HtH
(1.10.11); the French -1 HtH (1.11.2); trench armour +1 (1.8) -- on the classic
CCT (A11.11), with leadership (ASLGW 1.3), ambush (A11.4), Melee (A11.15) and
withdrawal from it (A11.2); classic CC for everything else (ASLGW 1.10.12).  The
rules are :mod:`gwasl.rules.close_combat`'s.

A CC happens in a Location (a hex's dugout stands apart, ASLGW 2.2.1) where both
sides show: units every side sees, or "?" counters.  When it is resolved
everything there is revealed (a dummy is removed); a side with nothing real
left makes no CC.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from gwasl.engine.game import IllegalAction, Outcome, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions.movement import carried
from gwasl.games.aslgw.knowledge import is_hidden
from gwasl.games.aslgw.records import (
    CloseCombat,
    CloseCombatResolved,
    ConcealmentLost,
    DummyRemoved,
    HipRevealed,
    MeleeChanged,
    Withdraw,
    Withdrew,
)
from gwasl.games.aslgw.state import Area, AslgwState
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import FortificationKind, Position, Unit, UnitKind
from gwasl.rules.close_combat import (
    AmbushSide,
    CCAttack,
    CCKind,
    ambush_distribution,
    ambush_modifiers,
    ambush_outcome,
    cc_modifiers,
    cc_pair_distribution,
    cc_unit_fp,
    close_combat_kind,
    locations_separation,
    melee_kind,
    resolve_cc_attack,
)
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Modifier
from gwasl.rules.fire import fp_words
from gwasl.rules.fog.state import FogStatus
from gwasl.rules.fog.status import move_units
from gwasl.rules.grenades import has_hand_grenades
from gwasl.rules.movement import steps_from
from gwasl.rules.units import nationality_traits

__all__ = ["REDUCERS", "areas", "odds", "options", "pending", "resolve_cc", "resolve_withdraw", "start_of_ccph", "why_illegal",
           "withdraw_odds"]


def area_of(u: Unit) -> Area:
    """The CC Location of a unit: its hex, or the dugout apart from the rest of the hex (ASLGW 2.2.1)."""
    return (u.hex.label, "dugout" if u.position is Position.DUGOUT else "hex")


def _in(state: AslgwState, a: Area) -> list[Unit]:
    return [u for u in state.scenario.units if u.kind is not UnitKind.SUPPORT_WEAPON and area_of(u) == a]


def areas(state: AslgwState) -> list[Area]:
    """Locations where both sides show (units every side sees, or "?" counters).

    A CC happens in each Location holding units of both sides (A11)."""
    seen: dict[Area, set[str]] = {}
    for u in state.scenario.units:
        if u.kind is not UnitKind.SUPPORT_WEAPON and not is_hidden(state.fog, u.id):
            seen.setdefault(area_of(u), set()).add(u.side)
    for s in state.fog.stacks:
        seen.setdefault((s.hex.label, "dugout" if s.position is Position.DUGOUT else "hex"), set()).add(s.side)
    return sorted(a for a, sides in seen.items() if len(sides) > 1)


def pending(state: AslgwState) -> list[Area]:
    """The CCs of this CCPh not yet resolved (the phase may not end before them).

    Every CC must be resolved in the CCPh (A11)."""
    if state.phase is not Phase.CCPh:
        return []
    return [a for a in areas(state) if a not in state.combat.cc_done]


def options(state: AslgwState, viewer: Viewer) -> list[Record]:
    """The CCs to resolve and the withdrawals allowed in the CCPh (A11, A11.2)."""
    if state.phase is not Phase.CCPh:
        return []
    out: list[Record] = [CloseCombat(h, a) for h, a in pending(state)]
    out += _withdrawals(state)
    return out


# ---------------------------------------------------------------------------
# Attacks


def _side_units(units: Sequence[Unit], side: str) -> list[Unit]:
    return [u for u in units if u.side == side]


def _kind(state: AslgwState, a: Area, att: Sequence[Unit], dfn: Sequence[Unit]) -> tuple[CCKind, str]:
    """ASLGW 1.10.1 (first CC) or 1.10.11 (in a Melee) for one side's attack."""
    sc = state.scenario
    h = Hex.from_label(a[0])
    positions = {u.position for u in (*att, *dfn)}
    wire = sc.map.has_fortification(h, FortificationKind.WIRE) and len({fx_loc(p) for p in positions}) > 1
    sep = locations_separation(att, dfn, wire_between=wire)
    hg = has_hand_grenades(sc, att[0].side)
    d = melee_kind(sep, hg) if a in state.combat.melee else close_combat_kind(sep, hg)
    return d.kind, f"{d.kind.value}: {d.reason} ({d.rule})"


def fx_loc(p: Position) -> str:
    """The location a position counts as when CC asks whether wire separates the units (ASLGW 1.10.1): any
    deep-trench position is the deep trench (ASLGW 2.1)."""
    return "deep_trench" if p in (Position.DEEP_TRENCH, Position.DEEP_TRENCH_CREST) else p.value


def _fp(state: AslgwState, units: Sequence[Unit], *, attacking: bool) -> Fraction:
    total = Fraction(0)
    for u in units:
        if attacking and (u.broken or state.combat.mark(u.id).withdrew):
            continue
        base, _ = fx.inherent_factors(state.scenario, u)
        total += cc_unit_fp(base, smc=u.kind in (UnitKind.LEADER, UnitKind.HERO),
                            pinned=attacking and state.unit_play(u.id).pinned)
    return total


def _attack(state: AslgwState, a: Area, att: Sequence[Unit], dfn: Sequence[Unit], extra: Sequence[Modifier]) -> CCAttack | None:
    """One side's CC attack on every unit of the other in ``a`` (A11.11; ASLGW 1.10, 1.8, 1.11.2, 1.3)."""
    fp = _fp(state, att, attacking=True)
    dfp = _fp(state, dfn, attacking=False)
    if fp <= 0 or dfp <= 0:
        return None
    kind, _ = _kind(state, a, att, dfn)
    leaders = [u for u in att if u.kind is UnitKind.LEADER and not u.broken]
    best = min(leaders, key=lambda u: fx.leadership(state, u)) if leaders else None
    nat = state.scenario.sides[att[0].side].nationality
    mods = cc_modifiers(kind, nationality_traits(nat).hth_drm, dfn, attacker_cx=any(state.unit_play(u.id).cx for u in att),
                        leader_modifier=fx.leadership(state, best) if best else None, leader_id=best.id if best else "leader")
    return CCAttack(fp, dfp, kind, tuple(mods) + tuple(extra))


def _ambush_sides(state: AslgwState, a: Area, units: Sequence[Unit], sides: tuple[str, str]) -> tuple[AmbushSide, AmbushSide]:
    out = []
    for s in sides:
        mine = _side_units(units, s)
        leaders = [u for u in mine if u.kind is UnitKind.LEADER and not u.broken]
        best = min((fx.leadership(state, u) for u in leaders), default=None)
        concealed = any(u.id in state.combat.ambush_concealed for u in mine)
        mods = ambush_modifiers(concealed=concealed, cx=any(state.unit_play(u.id).cx for u in mine),
                                pinned=any(state.unit_play(u.id).pinned for u in mine),
                                lax=any(state.combat.mark(u.id).bch for u in mine), leader_modifier=best)
        out.append(AmbushSide(s, mods))
    return out[0], out[1]


def _apply(em: fx.Emitter, outcome: str, targets: Sequence[str], why: str) -> None:
    for uid in targets:
        if em.alive(uid) is None:
            continue
        if outcome == "eliminated":
            fx.eliminate(em, uid, f"{why}: eliminated (A11.11)")
        elif outcome == "casualty_reduction":
            fx.casualty(em, uid, f"{why}: Casualty Reduction (A11.11)")


def resolve_cc(em: fx.Emitter, act: CloseCombat) -> None:
    """Resolve the CC of one Location: reveal what is hidden there (A12.15), ambush (A11.4), then both attacks on
    the CCT or as Hand-to-Hand (A11.11, ASLGW 1.10, 1.10.1)."""
    a: Area = (act.at, act.area)
    if a not in pending(em.state):
        raise IllegalAction(f"no close combat to resolve in {act.at} now (A11)")
    state = em.state
    phasing, defender = state.phasing, state.defender
    # everything in the Location is revealed (A12.15): dummies go
    hidden = [u for u in _in(state, a) if is_hidden(state.fog, u.id)]
    for side in (phasing, defender):
        mine = [u.id for u in hidden if u.side == side]
        mine += [w.id for w in carried(state.scenario, [u for u in hidden if u.side == side]) if is_hidden(state.fog, w.id)]
        if mine:
            if any(state.fog.status_of(i) is FogStatus.HIP for i in mine):
                em.emit(HipRevealed(side, act.at, tuple(sorted(i for i in mine if state.fog.status_of(i) is FogStatus.HIP)), 0, (),
                                    "close combat in its Location (A12.15)"))
            rest = tuple(sorted(i for i in mine if em.state.fog.status_of(i) is not FogStatus.NONE))
            if rest:
                em.emit(ConcealmentLost(side, rest, act.at, "close combat in its Location (A12.15)"))
        dummies = [s for s in em.state.fog.stacks if s.side == side and (s.hex.label, "dugout" if s.position is Position.DUGOUT else "hex") == a
                   and s.is_dummy]
        if dummies:
            em.emit(DummyRemoved(side, tuple(s.id for s in dummies), act.at, dummies[0].position.value,
                                 sum(s.height for s in dummies), "close combat in its Location: a dummy is removed (A12.15)"))
    units = _in(em.state, a)
    att, dfn = _side_units(units, phasing), _side_units(units, defender)
    lines: list[str] = []
    if not att or not dfn:
        em.emit(CloseCombatResolved(act.at, act.area, ("no close combat: only one side has units there",)))
        return
    amb = None
    if a not in state.combat.melee and a in state.combat.ambush_possible:
        sa, sb = _ambush_sides(em.state, a, units, (phasing, defender))
        ra = em.dice.dr(f"ambush dr of {phasing} in {act.at} (A11.4)", sa.modifiers)
        em.roll(ra)
        rb = em.dice.dr(f"ambush dr of {defender} in {act.at} (A11.4)", sb.modifiers)
        em.roll(rb)
        amb = ambush_outcome(ra.final, rb.final, phasing, defender)
        lines.append(f"ambush dr {ra.final} vs {rb.final}: " + (f"{amb} ambushes (A11.4)" if amb else "no ambush"))
    t = combat_table().ambush
    order = [phasing, defender] if amb != defender else [defender, phasing]
    extra = {s: ([Modifier("ambushing (A11.4)", t.ambusher_cc_drm)] if amb == s else
                 [Modifier("ambushed (A11.4)", t.ambushed_cc_drm)] if amb else []) for s in (phasing, defender)}
    results: dict[str, tuple[str, list[str]]] = {}

    def attack(side: str) -> None:
        us = _in(em.state, a)
        mine, theirs = _side_units(us, side), [u for u in us if u.side != side]
        if not mine or not theirs:
            return
        att_ = _attack(em.state, a, mine, theirs, extra[side])
        if att_ is None:
            lines.append(f"{side} makes no attack (no Good Order unit with FP)")
            return
        kind_line = _kind(em.state, a, mine, theirs)[1]
        kn = f"{'HtH ' if att_.kind is CCKind.HTH else ''}Kill Number {att_.kill_number}"
        roll, out = resolve_cc_attack(em.dice, att_, f"CC of {side} in {act.at}: {att_.odds.column}, {kn} (A11.11)")
        em.roll(roll)
        lines.append(f"{side} ({kind_line}) attacks with {fp_words(att_.attack_fp)} FP against {fp_words(att_.defence_fp)}: "
                     f"{att_.odds.column} on the CCT, {kn}: final DR {roll.final} -> {out.replace('_', ' ')} (A11.11)")
        results[side] = (out, [u.id for u in theirs])

    if amb is None:
        for s in order:
            attack(s)
        for s in order:
            if s in results:
                _apply(em, results[s][0], results[s][1], f"CC of {s} in {act.at}")
    else:
        for s in order:
            attack(s)
            if s in results:
                _apply(em, results[s][0], results[s][1], f"CC of {s} in {act.at}")
    units = _in(em.state, a)
    both = {u.side for u in units} >= {phasing, defender}
    em.emit(CloseCombatResolved(act.at, act.area, tuple(lines)))
    if both and a not in em.state.combat.melee:
        em.emit(MeleeChanged(act.at, act.area, True))
    elif not both and a in em.state.combat.melee:
        em.emit(MeleeChanged(act.at, act.area, False))


def odds(state: AslgwState, act: CloseCombat, viewer: Viewer) -> list[Outcome]:
    """The exact chance of each outcome of a CC (ambush drs, then both attacks: all 36
    by 36 DR), when the viewer sees every unit there; otherwise gwasl resolves it
    from what the viewer cannot see. (A11.11, A11.4; ASLGW 1.10.1.)"""
    a: Area = (act.at, act.area)
    units = _in(state, a)
    sides = (state.phasing, state.defender)
    if any(is_hidden(state.fog, u.id) and not viewer.sees_secrets_of(u.side) for u in units) or \
            any(not viewer.sees_secrets_of(s.side) and (s.hex.label, "dugout" if s.position is Position.DUGOUT else "hex") == a
                for s in state.fog.stacks):
        return [Outcome("resolved by gwasl from what you cannot see", 1.0)]
    att, dfn = _side_units(units, sides[0]), _side_units(units, sides[1])
    if not att or not dfn:
        return []
    t = combat_table().ambush
    cases: list[tuple[str | None, Fraction]] = [(None, Fraction(1))]
    if a not in state.combat.melee and a in state.combat.ambush_possible:
        sa, sb = _ambush_sides(state, a, units, sides)
        d = ambush_distribution(sa, sb)
        cases = [(sides[0], d.get(f"{sides[0]} ambushes", Fraction(0))), (sides[1], d.get(f"{sides[1]} ambushes", Fraction(0))),
                 (None, d.get("no ambush", Fraction(0)))]
    out: dict[str, Fraction] = {}
    for amb, p in cases:
        if p == 0:
            continue
        extra = {s: ([Modifier("ambushing", t.ambusher_cc_drm)] if amb == s else [Modifier("ambushed", t.ambushed_cc_drm)] if amb else [])
                 for s in sides}
        first_side = sides[1] if amb == sides[1] else sides[0]
        second_side = sides[0] if first_side == sides[1] else sides[1]
        first_units, second_units = (att, dfn) if first_side == sides[0] else (dfn, att)
        first = _attack(state, a, first_units, second_units, extra[first_side])
        if amb is None:
            second: Mapping[str, CCAttack | None] | CCAttack | None = _attack(state, a, second_units, first_units,
                                                                              extra[second_side])
        else:
            second = {o: _after(state, a, second_units, first_units, o, extra[second_side])
                      for o in ("eliminated", "casualty_reduction", "none")}
        for (o1, o2), q in cc_pair_distribution(first, second).items():
            pre = f"{amb} ambushes; " if amb else ""
            key = f"{pre}{second_side} units: {o1.replace('_', ' ')}; {first_side} units: {o2.replace('_', ' ')}"
            out[key] = out.get(key, Fraction(0)) + p * q
    return [Outcome(k, float(v)) for k, v in sorted(out.items(), key=lambda kv: -kv[1])]


def _after(state: AslgwState, a: Area, mine: Sequence[Unit], theirs: Sequence[Unit], outcome: str,
           extra: Sequence[Modifier]) -> CCAttack | None:
    """The ambushed side's reply once the ambusher's attack had ``outcome`` on it."""
    if outcome == "eliminated":
        return None
    if outcome == "casualty_reduction":
        from gwasl.rules.morale import casualty_reduction

        left = []
        for u in mine:
            cr = casualty_reduction(u.kind, state.combat.mark(u.id).wounded)
            if cr.eliminated:
                continue
            left.append(replace(u, kind=UnitKind(cr.to)) if cr.to not in ("wounded",) else u)
        if not left:
            return None
        mine = left
    return _attack(state, a, mine, theirs, extra)


# ---------------------------------------------------------------------------
# Withdrawal (A11.2)


def _withdrawals(state: AslgwState) -> list[Record]:
    """The phasing side's Good Order units in a Melee (not HtH) may withdraw together
    to an ADJACENT location holding no enemy unit or "?" (A11.2)."""
    out: list[Record] = []
    sc = state.scenario
    for a in sorted(state.combat.melee):
        if a in state.combat.cc_done:
            continue
        units = _in(state, a)
        mine = [u for u in units if u.side == state.phasing and not u.broken]
        theirs = [u for u in units if u.side != state.phasing]
        if not mine or not theirs or _kind(state, a, mine, theirs)[0] is CCKind.HTH:
            continue
        h = Hex.from_label(a[0])
        enemy_hexes = {u.hex for u in sc.units if u.side != state.phasing and not is_hidden(state.fog, u.id)} | \
            {s.hex for s in state.fog.stacks if s.side != state.phasing}
        pos = mine[0].position
        for st in steps_from(sc, h, pos):
            if st.to_hex != h and st.to_hex not in enemy_hexes:
                out.append(Withdraw(tuple(sorted(u.id for u in mine)), a[0], st.to_hex.label, st.to_pos.value))
    return out


def resolve_withdraw(em: fx.Emitter, act: Withdraw) -> None:
    """A11.2: the enemy units of the Melee attack the withdrawing units at -1; those that
    survive leave for the ADJACENT location and make no attack this CCPh."""
    if act not in _withdrawals(em.state):
        raise IllegalAction(f"{', '.join(act.units)} may not withdraw to {act.to} now (A11.2)")
    u0 = em.state.scenario.unit(act.units[0])
    a = area_of(u0)
    units = _in(em.state, a)
    mine = [u for u in units if u.id in act.units]
    theirs = [u for u in units if u.side != u0.side]
    att = _attack(em.state, a, theirs, mine, [Modifier("against units withdrawing from Melee (A11.2)", combat_table().withdrawal_drm)])
    if att is not None:
        roll, out = resolve_cc_attack(em.dice, att, f"CC of {theirs[0].side} on the units withdrawing from {act.at} (A11.2)")
        em.roll(roll)
        _apply(em, out, [u.id for u in mine], f"attacked while withdrawing from {act.at}")
    left = tuple(u for u in act.units if em.alive(u) is not None)
    if left:
        em.emit(Withdrew(u0.side, left, act.at, act.to, act.to_in))
    if not [u for u in _in(em.state, a) if u.side == u0.side]:
        em.emit(MeleeChanged(act.at, a[1], False))
        em.emit(CloseCombatResolved(act.at, a[1], (f"{u0.side} withdrew: no close combat left",)))


def withdraw_odds(state: AslgwState, act: Withdraw, viewer: Viewer) -> list[Outcome]:
    """A11.2: the exact chance of each outcome of the enemy's attack on the withdrawing units
    (at the withdrawal DRM, all 36 DR), as :func:`resolve_withdraw` rolls it; none when the
    withdrawal is not offered or nothing attacks."""
    if act not in _withdrawals(state):
        return []
    u0 = state.scenario.unit(act.units[0])
    a = area_of(u0)
    units = _in(state, a)
    if any(is_hidden(state.fog, u.id) and not viewer.sees_secrets_of(u.side) for u in units):
        return [Outcome("resolved by gwasl from what you cannot see", 1.0)]
    mine = [u for u in units if u.id in act.units]
    theirs = [u for u in units if u.side != u0.side]
    att = _attack(state, a, theirs, mine, [Modifier("against units withdrawing from Melee (A11.2)", combat_table().withdrawal_drm)])
    if att is None:
        return []
    out: dict[str, Fraction] = {}
    for (o1, _o2), p in cc_pair_distribution(att, None).items():
        key = f"{u0.side} units: {o1.replace('_', ' ')}"
        out[key] = out.get(key, Fraction(0)) + p
    return [Outcome(k, float(v)) for k, v in sorted(out.items(), key=lambda kv: -kv[1])]


def why_illegal(state: AslgwState, act: CloseCombat | Withdraw) -> str | None:
    """Close combat or a withdrawal outside the CCPh. (A11: close combat belongs to the CCPh.)"""
    return "close combat happens in the CCPh (A11)" if state.phase is not Phase.CCPh else None


def _cc_resolved(state: AslgwState, ev: CloseCombatResolved) -> AslgwState:
    c = state.combat
    return replace(state, combat=replace(c, cc_done=c.cc_done | {(ev.at, ev.area)}))


def _melee_changed(state: AslgwState, ev: MeleeChanged) -> AslgwState:
    c = state.combat
    a = (ev.at, ev.area)
    return replace(state, combat=replace(c, melee=c.melee | {a} if ev.locked else c.melee - {a}))


def _withdrew(state: AslgwState, ev: Withdrew) -> AslgwState:
    c = state.combat
    sc = state.scenario
    movers = [sc.unit(i) for i in ev.units]
    ids = [u.id for u in movers] + [w.id for w in carried(sc, movers)]
    fog = move_units(state.fog, ids, Hex.from_label(ev.to), Position(ev.to_in), 0.0)
    if ids:
        state = state.moved_units_of(sc.unit(ids[0]).side)  # as every move (O'Leary 2.3, 5.1)
    for i in ev.units:
        c = fx.with_mark(c, i, withdrew=True)
    return replace(state, fog=fog, combat=c)


#: the state after each event of close combat (A11)
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    CloseCombatResolved: _cc_resolved,
    MeleeChanged: _melee_changed,
    Withdrew: _withdrew,
}


def start_of_ccph(state: AslgwState) -> tuple[frozenset[Area], frozenset[str]]:
    """Locations where an ambush may happen this CCPh (A11.4): not in Melee, and a unit
    there shows as a "?" at the start of the phase; and the units concealed there."""
    out = set()
    hidden: set[str] = set()
    for a in areas(state):
        if a in state.combat.melee:
            continue
        here = [s for s in state.fog.stacks if (s.hex.label, "dugout" if s.position is Position.DUGOUT else "hex") == a]
        if here:
            out.add(a)
            hidden |= {i for s in here for i in s.unit_ids}
    return frozenset(out), frozenset(hidden)
