"""Fire in play (issue 12): Prep Fire (PFPh), Defensive First Fire at units that just
moved with Subsequent First Fire and Final Protective Fire (MPh, A8.1-A8.31),
Final Fire (DFPh, A8.4) and Advancing Fire (AFPh, A7.25); fire groups and
leadership (A7.5, ASLGW 1.3), range, LOS from the firer's position (a deep trench's
crest, ASLGW 2.1.1; into a deep trench or a dugout only from its hex, 2.1.5, 2.2.2),
hindrance with garance (ASLGW 1.7.1), TEM of deep trenches and dugouts (ASLGW
2.1.6, 2.2.3, 2.2.4), PBF/TPBF/DPBF with or without hand grenades (ASLGW 1.6.62),
support weapons with RoF, breakdown and the weapon tables (ASLGW 1.6: 1.6.1 and
Table 1 machine guns, 1.6.2 crews only, 1.6.3 and 1.6.31 the BAR and MP18 as
light SW, 1.6.4, 1.6.41 and Table 2 flamethrowers),
cowering (A7.9), residual FP (A8.2), the NTC of ASLGW 1.3.2, snipers (A14) and
the fog layer (area fire at "?", A7.23; HIP units immune, O'Leary 3.2.1).

Legal fire and its odds are worked out from what the viewer knows (its own
units if it knows the firing side, the enemy as every side sees it); the
roll is resolved on the truth with the same rule functions
(:func:`gwasl.rules.fire.attack_outcome` both times).

The side to act never changes for fire at moving units: after a move, the
defender's Defensive First Fire at the units that just moved is listed with
the moving side's own actions, and lapses when the next move is made (A8.1).
A side gwasl keeps secret never gets such a list: its fire policy looks at
every move as its defender (:class:`~gwasl.games.aslgw.records.FireConsidered`,
a private event made after every move, so its presence tells nothing) and
decides its PFPh, DFPh and AFPh fire.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, IllegalAction, Outcome, Policy, Seat, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions.memo import MISSING, StateMemo
from gwasl.games.aslgw.knowledge import env, is_hidden, known_scenario
from gwasl.games.aslgw.records import (
    ChargeImpulse,
    ConcealmentLost,
    DummyRemoved,
    EndPhase,
    Fire,
    FireConsidered,
    FireGroupAdd,
    FireGroupDeclared,
    FireGroupDrop,
    FireGroupDropped,
    FireNtc,
    FireResolved,
    ImpulseEnded,
    Marked,
    Moved,
    ReleaseGas,
    ResidualPlaced,
    SniperStruck,
    WeaponChanged,
)
from gwasl.games.aslgw.state import AslgwState, FireGroupPlan, FireWindow, MoverMark, ReduceFn, ro
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.rules.combat_table import combat_table
from gwasl.rules.command import CommandReport, command_status, no_leader_ntc
from gwasl.rules.concealment import in_open_ground
from gwasl.rules.dice import Modifier, random_selection
from gwasl.rules.fire import (
    FireAttack,
    FireError,
    FirePart,
    SustainedFireError,
    fire_distribution,
    fire_leadership,
    fire_part,
    first_fire_modifiers,
    fp_words,
    point_blank_for,
    residual_fp,
    resolve_fire,
    sustained_fire,
)
from gwasl.rules.fog.state import FogStatus
from gwasl.rules.morale import cx_attack_modifier, normal_task_check, ntc_pass_chance
from gwasl.rules.sniper import side_san, sniper_activated, sniper_effect
from gwasl.rules.stacking import location_key
from gwasl.rules.trenches import FireKind, LocationError, dugout_fire_out_drm, location_tem_explained
from gwasl.rules.weapons import MgClass, WeaponKind, find_weapon, keeps_inherent_fp, may_operate, sw_holder

__all__ = ["FIRE_MODES", "FIRE_THRESHOLD", "REDUCERS", "after_move", "after_move_em", "automated", "chained", "fire_odds",
           "fire_options", "firing_side", "harm", "keep_inherent_rule", "legal", "resolve", "resolve_group_add",
           "resolve_group_drop", "targets_after_move", "why_not"]

FIRE_MODES = ("prep", "first", "subsequent", "fpf", "final", "advancing")
_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)
_MARK_AFTER = {"prep": "prep", "first": "first", "subsequent": "final", "fpf": "final", "final": "final", "advancing": "fired"}
KNOWN, HIDDEN = "units", '"?"'
#: gwasl's fire policy fires when the chance of at least a 1MC-grade result reaches this (docs/rules-notes.md)
FIRE_THRESHOLD = 0.4


def firing_side(state: AslgwState) -> str | None:
    """Who may fire now: the phasing side in its PFPh and AFPh, the defender in the
    DFPh and, in the MPh, at the units that just moved (A3, A8.1)."""
    ph = state.phase
    if ph in (Phase.PFPh, Phase.AFPh):
        return state.phasing
    if ph is Phase.DFPh or (ph is Phase.MPh and state.combat.window is not None):
        return state.defender
    return None


# ---------------------------------------------------------------------------
# Who fires how


@dataclass(frozen=True, slots=True)
class _Spec:
    """One part a unit could fire with now: its id, kind, base FP, ranges, weapon data,
    the unit whose location it fires from, and its mode with the mode's factor."""

    id: str
    kind: str
    base_fp: int
    normal_range: int
    max_range: int | None
    owner: Unit
    mode: str
    factor: tuple[str, Fraction] | None = None
    limit: str | None = None
    rof: int | None = None
    breakdown: int | None = None
    x: int | None = None


@dataclass(frozen=True, slots=True)
class _Mode:
    """A firer's fire mode now (``name``, one of :data:`FIRE_MODES`), the phase's factor and
    why, its range limit (``""`` none, ``normal``, ``adjacent``) and whether a MG fires it
    as Sustained Fire (A9.3)."""

    name: str
    factor: tuple[str, Fraction] | None = None
    limit: str = ""
    sustained: bool = False


def _mode(state: AslgwState, uid: str, moved: bool = False) -> _Mode | None:
    """The fire mode of a unit or weapon now -- A3, A7.25, A8.1-A8.4, A9.3.  Every
    Advancing Fire is halved (A7.25: a unit marked with Prep Fire does not fire in the
    AFPh at all, A3.5), not only a unit's that moved; a MG firing a second time in a
    phase (Subsequent First Fire, FPF, Final Fire after First Fire) does so as
    Sustained Fire."""
    t = combat_table().fire
    mark = state.combat.mark(uid).fire
    ph = state.phase
    if ph is Phase.PFPh:
        return _Mode("prep") if mark == "" else None
    if ph is Phase.AFPh:
        why = "Advancing Fire after moving (A7.25)" if moved else "Advancing Fire (A7.25)"
        return None if mark else _Mode("advancing", (why, t.advancing_fire_fp))
    if ph is Phase.DFPh:
        if mark == "":
            return _Mode("final")
        if mark == "first":
            return _Mode("final", ("Final Fire after First Fire (A8.4)", t.final_fire_after_first_fire_fp), "adjacent", True)
        return None
    if ph is Phase.MPh:
        if mark == "":
            return _Mode("first")
        if mark == "first":
            return _Mode("subsequent", ("Subsequent First Fire (A8.3)", t.subsequent_first_fire_fp), "normal", True)
        if mark == "final":
            return _Mode("fpf", ("Final Protective Fire (A8.31)", t.final_protective_fire_fp), "adjacent", True)
    return None


def _in_melee(state: AslgwState, u: Unit) -> bool:
    return (u.hex.label, "dugout" if u.position is Position.DUGOUT else "hex") in state.combat.melee


#: the fire parts and targets already worked out, by state (and scenario): each fire of a
#: menu, its odds and its check ask them again for the same state (memo.py)
_PARTS = StateMemo(256)


def _specs(state: AslgwState, sc: Scenario, side: str) -> list[_Spec]:
    """Every part ``side``'s units in ``sc`` (the viewer's knowledge) could fire with now."""
    key = ("specs", side, id(sc))
    kept = _PARTS.get(state, key)
    if kept is MISSING or kept[0] is not sc:
        kept = (sc, tuple(_specs_now(state, sc, side)))
        _PARTS.put(state, key, kept)
    return list(kept[1])


def _specs_now(state: AslgwState, sc: Scenario, side: str) -> list[_Spec]:
    out: list[_Spec] = []
    units = {u.id: u for u in sc.units if u.side == side}
    for u in units.values():
        if u.kind is UnitKind.SUPPORT_WEAPON or u.broken or _in_melee(state, u) or state.unit_play(u.id).ntc_failed:
            continue
        if not state.scenario.map.contains(u.hex):
            continue
        fp, rng = fx.inherent_factors(state.scenario, u)
        m = _mode(state, u.id, state.combat.mark(u.id).moved)
        if m is not None and fp > 0 and u.kind is not UnitKind.LEADER:
            out.append(_Spec(u.id, "inherent", fp, rng, None, u, m.name, m.factor, m.limit or None))
    for w in sc.units:
        if w.side != side or w.kind is not UnitKind.SUPPORT_WEAPON or w.weapon is None:
            continue
        if state.combat.mark(w.id).malfunctioned:
            continue
        wp = find_weapon(w.weapon)
        if wp is None or wp.kind not in (WeaponKind.MG, WeaponKind.FLAMETHROWER) or wp.fp is None:
            continue  # mortars and the VB tromblon are not fired in play yet (docs/rules-notes.md)
        holder = sw_holder(state.scenario, w)
        if holder is None or holder.id not in units or holder.broken or _in_melee(state, holder) \
                or state.unit_play(holder.id).ntc_failed or not may_operate(wp, holder.kind):
            continue  # ASLGW 1.6.2: a MMG/HMG is operated only by a crew
        moved = state.combat.mark(holder.id).moved
        if state.phase is Phase.AFPh and moved and wp.mg_class in (MgClass.MMG, MgClass.HMG) \
                and not combat_table().mmg_hmg_af_after_moving:
            continue
        m = _mode(state, w.id, moved)
        if m is None:
            continue
        if wp.kind is WeaponKind.FLAMETHROWER:
            out.append(_Spec(w.id, "ft", wp.fp, wp.range, wp.long_range if wp.long_range is not None else wp.range,
                             holder, m.name, m.factor, m.limit or None, x=wp.x))
        elif m.sustained:
            # A9.3: half FP (the mode's factor), no RoF, its B# lowered; never fired by a SMC
            try:
                rof, bd = sustained_fire(wp.breakdown, holder.kind)
            except SustainedFireError:
                continue
            why = f"{m.factor[0]}: Sustained Fire, no RoF{f', B# {bd}' if bd is not None else ''} (A9.3)" if m.factor else None
            out.append(_Spec(w.id, "mg", wp.fp, wp.range, None, holder, m.name,
                             (why, m.factor[1]) if m.factor and why else m.factor, m.limit or None, rof, bd))
        else:
            out.append(_Spec(w.id, "mg", wp.fp, wp.range, None, holder, m.name, m.factor, m.limit or None, wp.rof, wp.breakdown))
    return out


def keep_inherent_rule(parts: Sequence[_Spec]) -> list[_Spec]:
    """The parts of one attack without the inherent FP their units lose by firing support
    weapons in it (A7.351-A7.352, :func:`gwasl.rules.weapons.keeps_inherent_fp`): an MG08
    crew fires the MG's FP, not the MG's and its own."""
    if all(p.kind == "inherent" for p in parts):
        return list(parts)
    sw = Counter(p.owner.id for p in parts if p.kind != "inherent")
    return [p for p in parts if p.kind != "inherent" or keeps_inherent_fp(p.owner.kind, sw[p.owner.id])]


# ---------------------------------------------------------------------------
# Targets


@dataclass(frozen=True, slots=True)
class _Target:
    hex: Hex
    pos: Position
    side: str
    known: tuple[str, ...]  # units every side sees there (the truth when resolving)
    hidden: bool  # a "?" there (as every side sees it)
    moving: MoverMark | None = None

    @property
    def label(self) -> str:
        return self.moving.hex if self.moving is not None else self.hex.label


def _public_targets(state: AslgwState, side: str) -> list[_Target]:
    """The enemy Locations ``side`` may fire at, from what every side sees: units not
    hidden, and "?" piles (A7.23 area fire); in the MPh only the units that just
    moved, in the Location they entered (A8.1).  Locations in Melee take no fire."""
    key = ("targets", side)
    kept = _PARTS.get(state, key)
    if kept is MISSING:
        kept = tuple(_public_targets_now(state, side))
        _PARTS.put(state, key, kept)
    return list(kept)


def _public_targets_now(state: AslgwState, side: str) -> list[_Target]:
    fog = state.fog
    sc = fog.scenario
    enemy = state.settings.other(side)
    out: list[_Target] = []
    if state.phase is Phase.MPh:
        w = state.combat.window
        if w is None:
            return []
        for mk in w.targets:
            h, pos = Hex.from_label(mk.hex), Position(mk.pos)
            alive = [i for i in mk.units if _alive(sc, i) and sc.unit(i).hex == h and sc.unit(i).position is pos]
            known = tuple(i for i in alive if not is_hidden(fog, i))
            hidden_ids = {s.id for s in fog.stacks}
            hid = any(is_hidden(fog, i) for i in alive) or any(d in hidden_ids for d in mk.dummies)
            if known or hid:
                out.append(_Target(h, pos, enemy, known, hid, mk))
        return out
    locs: dict[tuple[Hex, Position], list[str]] = {}
    for u in sc.units:
        if u.side == enemy and u.kind is not UnitKind.SUPPORT_WEAPON and not is_hidden(fog, u.id):
            locs.setdefault((u.hex, u.position), []).append(u.id)
    piles = {(s.hex, s.position) for s in fog.stacks if s.side == enemy}
    for key in sorted(set(locs) | piles, key=lambda k: (k[0].column, k[0].row, k[1].value)):
        if (key[0].label, "dugout" if key[1] is Position.DUGOUT else "hex") in state.combat.melee:
            continue
        out.append(_Target(key[0], key[1], enemy, tuple(sorted(locs.get(key, []))), key in piles))
    return out


def _alive(sc: Scenario, uid: str) -> bool:
    try:
        sc.unit(uid)
        return True
    except KeyError:
        return False


def _reach(spec: _Spec, t: _Target, sc: Scenario) -> bool:
    """Range and LOS of one part to a target (A7.22, A8.3-A8.4 limits; ASLGW 2.1.5, 2.2.2)."""
    d = spec.owner.hex.distance(t.hex)
    top = spec.max_range if spec.max_range is not None else spec.normal_range * combat_table().fire.long_range_multiple
    if spec.limit == "adjacent":
        top = min(top, 1)
    elif spec.limit == "normal":
        top = min(top, spec.normal_range)
    if d > top:
        return False
    return env().sees(sc)(spec.owner.hex, t.hex, spec.owner.position, t.pos)


# ---------------------------------------------------------------------------
# Legal fire


def _knows(viewer: Viewer, side: str) -> bool:
    return viewer.sees_secrets_of(side)


def _directors(state: AslgwState, sc: Scenario, locs: Iterable[tuple[Hex, Position]], side: str, used: set[str],
               able: Mapping[tuple[Hex, Position], Sequence[Unit]] | None = None) -> list[str]:
    """The leader who directs the fire of each firing Location (ASLGW 1.3: stacked with
    the firers), when he helps: his leadership is not adverse (docs/rules-notes.md).
    ``able``: the leaders able to direct, by Location (:func:`_able_leaders`), if known."""
    able = _able_leaders(state, sc, side) if able is None else able
    out = []
    for loc in locs:
        best = None
        for o in able.get(loc, ()):
            if o.id not in used and fx.may_lead(state, o) and (best is None or fx.leadership(state, o) < fx.leadership(state, best)):
                best = o
        if best is not None and fx.leadership(state, best) <= 0:
            out.append(best.id)
    return out


def _able_leaders(state: AslgwState, sc: Scenario, side: str) -> dict[tuple[Hex, Position], list[Unit]]:
    """``side``'s Good Order leaders not in Melee that may fire (direct) now, by Location."""
    out: dict[tuple[Hex, Position], list[Unit]] = {}
    for o in sc.units:
        if o.side == side and o.kind is UnitKind.LEADER and not o.broken and not _in_melee(state, o) \
                and _mode(state, o.id) is not None:
            out.setdefault((o.hex, o.position), []).append(o)
    return out


def _loc_key(k: tuple[Hex, Position]) -> tuple[int, int, str]:
    return (k[0].column, k[0].row, k[1].value)


def _loc(p: _Spec) -> tuple[Hex, Position]:
    return (p.owner.hex, p.owner.position)


def _next_to(a: tuple[Hex, Position], b: tuple[Hex, Position]) -> bool:
    """The same or an ADJACENT Location (A7.5: a fire group's Locations)."""
    return a[0].distance(b[0]) <= 1


def chained(locs: Iterable[tuple[Hex, Position]]) -> bool:
    """A7.5: Locations a fire group may fire from -- each the same as or ADJACENT to
    another, in one chain.

    >>> g = Position.GROUND
    >>> chained([(Hex(1, 1), g), (Hex(1, 2), g), (Hex(1, 3), g)]), chained([(Hex(1, 1), g), (Hex(1, 3), g)])
    (True, False)
    """
    todo = list(dict.fromkeys(locs))
    if not todo:
        return False
    reached = [todo.pop(0)]
    grew = True
    while todo and grew:
        grew = False
        for loc in list(todo):
            if any(_next_to(loc, r) for r in reached):
                reached.append(loc)
                todo.remove(loc)
                grew = True
    return not todo


def _group_fire(state: AslgwState, sc: Scenario, side: str, group: Sequence[_Spec], t: _Target, mode: str,
                able: Mapping[tuple[Hex, Position], Sequence[Unit]] | None = None) -> Fire:
    """The :class:`Fire` of ``group`` at ``t``: its parts and the leader directing each of
    its Locations (ASLGW 1.3, when he helps)."""
    firers = {p.id for p in group}
    locs = sorted({_loc(p) for p in group}, key=_loc_key)
    leaders = [] if all(p.kind == "ft" for p in group) else _directors(state, sc, locs, side, {p.owner.id for p in group}, able)
    return Fire(tuple(sorted(firers | set(leaders))), t.label, t.pos.value, mode)


def _reaching(specs: Sequence[_Spec], sc: Scenario, t: _Target) -> dict[str, list[_Spec]]:
    """The parts (of ``specs``) that reach ``t`` now, by fire mode."""
    by_mode: dict[str, list[_Spec]] = {}
    for sp in specs:
        if _reach(sp, t, sc):
            by_mode.setdefault(sp.mode, []).append(sp)
    return by_mode


def fire_options(state: AslgwState, viewer: Viewer, *, incremental: bool = True) -> list[Record]:
    """Every fire the side that may fire now could make, as ``viewer`` knows it: each unit
    with its weapons, each Location's stack and each chain of ADJACENT Locations fire at
    once; any other fire group is formed one firer at a time (A7.5,
    :class:`~gwasl.games.aslgw.records.FireGroupAdd`: a first firer, then the firers
    ADJACENT to the group), so the list stays short.  While a group is being formed,
    only its own actions.  ``incremental=False``: the fire alone (gwasl's fire policy)."""
    side = firing_side(state)
    if side is None:
        return []
    sc = known_scenario(state.fog, frozenset({side}) if _knows(viewer, side) else frozenset())
    plan = state.combat.group
    if plan is not None:
        return _plan_options(state, sc, side, plan)
    specs = _specs(state, sc, side)
    if not specs:
        return []
    targets = _public_targets(state, side)
    able = _able_leaders(state, sc, side)
    out: list[Record] = []
    seen: set[Record] = set()
    for t in targets:
        for mode, reach in sorted(_reaching(specs, sc, t).items()):
            acts: list[Record] = [_group_fire(state, sc, side, g, t, mode, able) for g in _groups(reach)]
            if incremental:
                acts += [FireGroupAdd((p.id,), t.label, t.pos.value, mode) for p in _starters(reach)]
            for act in acts:
                if act not in seen:
                    seen.add(act)
                    out.append(act)
    return out


def _plan_options(state: AslgwState, sc: Scenario, side: str, plan: FireGroupPlan) -> list[Record]:
    """The actions of a fire group being formed: fire it, add a firer, or drop it (A7.5)."""
    t = next((x for x in _public_targets(state, side) if x.hex.label == plan.at and x.pos.value == plan.at_in), None)
    if t is None:
        return [FireGroupDrop()]
    reach = _reaching(_specs(state, sc, side), sc, t).get(plan.mode, [])
    by_id = {p.id: p for p in reach}
    parts = [by_id[i] for i in plan.firers if i in by_id]
    if len(parts) != len(plan.firers):
        return [FireGroupDrop()]
    out: list[Record] = [_group_fire(state, sc, side, parts, t, plan.mode)]
    out += [FireGroupAdd(tuple(sorted((*plan.firers, x.id))), plan.at, plan.at_in, plan.mode) for x in _additions(parts, reach)]
    out.append(FireGroupDrop())
    return out


def _groups(reach: Sequence[_Spec]) -> list[list[_Spec]]:
    """The fire options among the parts that reach one target, fired at once: each unit
    with its weapons (less the inherent FP firing them costs it, A7.351-A7.352, and then
    its inherent FP alone too), each flamethrower alone (A22.3), each Location's stack,
    and each chain of ADJACENT Locations (a fire group, A7.5)."""
    ft = [p for p in reach if p.kind == "ft"]
    rest = [p for p in reach if p.kind != "ft"]
    by_owner: dict[str, list[_Spec]] = {}
    for p in rest:
        by_owner.setdefault(p.owner.id, []).append(p)
    cands: list[list[_Spec]] = [[p] for p in ft]
    for _, ps in sorted(by_owner.items()):
        kept = keep_inherent_rule(ps)
        cands.append(kept)
        cands += [[p] for p in ps if p not in kept]  # a crew's inherent FP, without its MG
    by_loc: dict[tuple[Hex, Position], list[_Spec]] = {}
    for p in rest:
        by_loc.setdefault(_loc(p), []).append(p)
    stacks = [ps for _, ps in sorted(by_loc.items(), key=lambda kv: _loc_key(kv[0]))]
    cands += [ps for ps in stacks if len({p.owner.id for p in ps}) > 1]
    # chains of adjacent (or same-hex) Locations
    locs = sorted(by_loc, key=_loc_key)
    comps: list[list[tuple[Hex, Position]]] = []
    for loc in locs:
        joined = [c for c in comps if any(_next_to(loc, m) for m in c)]
        merged = [loc] + [m for c in joined for m in c]
        comps = [c for c in comps if c not in joined] + [merged]
    for c in sorted(comps, key=lambda c: min(_loc_key(m) for m in c)):
        if len(c) > 1:
            cands.append([p for loc in sorted(c, key=_loc_key) for p in by_loc[loc]])
    out: list[list[_Spec]] = []
    seen: set[frozenset[str]] = set()
    for g in cands:
        g = keep_inherent_rule(g) if len(g) > 1 else g
        key = frozenset(p.id for p in g)
        if g and key not in seen:
            seen.add(key)
            out.append(g)
    return out


def _starters(reach: Sequence[_Spec]) -> list[_Spec]:
    """The parts that may start a fire group formed one firer at a time: those with another
    part in the same or an ADJACENT Location that could join it (A7.5); a flamethrower
    fires alone (A22.3)."""
    rest = [p for p in reach if p.kind != "ft"]
    return [p for p in rest if any(_joins([p], x) for x in rest if x.id != p.id)]


def _joins(group: Sequence[_Spec], x: _Spec) -> bool:
    """Whether ``x`` may join ``group`` (not in it): in the same Location as or ADJACENT to
    one of its firers (A7.5), and not costing a unit its inherent FP (A7.351-A7.352: a
    crew's MG and its inherent FP never fire together)."""
    if x.kind == "ft" or not any(_next_to(_loc(x), _loc(p)) for p in group):
        return False
    own = [p for p in group if p.owner.id == x.owner.id]
    return not own or len(keep_inherent_rule([*own, x])) == len(own) + 1


def _additions(group: Sequence[_Spec], reach: Sequence[_Spec]) -> list[_Spec]:
    """The parts that may join ``group`` (:func:`_joins`), by id."""
    have = {p.id for p in group}
    return [x for x in sorted(reach, key=lambda p: p.id) if x.id not in have and _joins(group, x)]


# ---------------------------------------------------------------------------
# Building the attack (knowledge for odds and checks, truth for the roll)


def _los_result(sc: Scenario, a: Hex, b: Hex, ain: Position, bin_: Position) -> Any:
    from gwasl.rules.los import LosError, los  # numpy: loaded with the first LOS traced (issue 23 item 8)

    try:
        return los(sc, a, b, ain, bin_)
    except LosError:
        return los(sc, a, b, Position.GROUND, Position.GROUND)


def _tem(sc: Scenario, t: _Target, firer_hex: Hex) -> Modifier | None:
    try:
        tem = location_tem_explained(sc, t.hex, t.pos, FireKind.DIRECT, firer_hex)
    except LocationError:
        tem = location_tem_explained(sc, t.hex, Position.GROUND, FireKind.DIRECT, firer_hex)
    return Modifier(f"TEM: {tem.cause} ({tem.rule})", tem.value) if tem.value else None


@dataclass(frozen=True, slots=True)
class _Built:
    attack: FireAttack
    specs: tuple[_Spec, ...]
    leaders: tuple[str, ...]
    notes: tuple[str, ...]


def _parse(state: AslgwState, sc: Scenario, act: Fire | FireGroupAdd) -> tuple[list[_Spec], list[Unit], _Target]:
    """The parts and directing leaders an action names, and its target, judged on ``sc``:
    a fire group's Locations form one chain of ADJACENT Locations (A7.5) and no unit
    fires a SW with the inherent FP that costs it (A7.351-A7.352)."""
    side = firing_side(state)
    if side is None:
        raise IllegalAction(f"no fire in the {state.phase.value} now (A3, A8.1)")
    specs = {p.id: p for p in _specs(state, sc, side) if p.mode == act.mode}
    parts: list[_Spec] = []
    leaders: list[Unit] = []
    for fid in act.firers:
        if fid in specs:
            parts.append(specs[fid])
            continue
        try:
            u = sc.unit(fid)
        except KeyError:
            raise IllegalAction(f"no unit {fid[:40]!r} of {side} that you can see") from None
        if u.kind is UnitKind.LEADER and u.side == side:
            if not fx.may_lead(state, u):
                raise IllegalAction(f"{u.id} is pinned: a pinned leader directs no fire (A7.8)")
            leaders.append(u)
        elif not any(p.owner.id == fid for p in specs.values()):
            raise IllegalAction(why_not_firing(state, u, side, act.mode))
    if not parts:
        raise IllegalAction("nothing in this fire has FP (A7)")
    if not chained(_loc(p) for p in parts):
        raise IllegalAction(f"{', '.join(p.id for p in parts)} are no fire group: each firer must be in the same Location "
                            "as another or ADJACENT to it, in one chain (A7.5)")
    lost = [p for p in parts if p not in keep_inherent_rule(parts)]
    if lost:
        u = lost[0].owner
        sw = ", ".join(p.id for p in parts if p.owner.id == u.id and p.kind != "inherent")
        raise IllegalAction(f"{u.id} fires {sw}: a {u.kind.value.replace('_', '-')} that fires a support weapon has no inherent FP "
                            f"in that attack (A7.351-A7.352); fire {sw} without {u.id}, or {u.id} alone")
    tgt = next((t for t in _public_targets(state, side) if t.hex.label == act.at and t.pos.value == act.at_in), None)
    if tgt is None:
        raise IllegalAction(f"no enemy unit or \"?\" {side} may fire at in {act.at} ({act.at_in}): a fire's target is a "
                            "Location holding Known enemy units or a \"?\" (A7.2, A7.23), in the MPh one that just moved "
                            "into it (A8.1), never one in Melee (A11.15)")
    return parts, leaders, tgt


def _build(state: AslgwState, sc: Scenario, parts: Sequence[_Spec], leaders: Sequence[Unit], t: _Target,
           side: str, hidden_group: bool, known_group: bool) -> _Built:
    """The :class:`FireAttack` of ``parts`` at ``t`` (A7; ASLGW 1.3, 1.6, 1.7.1, 2.1.6, 2.2.2-2.2.4)."""
    full = state.scenario
    notes: list[str] = []
    fparts: list[FirePart] = []
    dugout_out = False
    hind = 0
    garance = False  # the worst line's first hindrance hex ignored (ASLGW 1.7.1)
    tem_mod: Modifier | None = None
    ft_only = all(p.kind == "ft" for p in parts)
    for p in parts:
        o = p.owner
        d = o.hex.distance(t.hex)
        same_loc = d == 0 and location_key(o.position) == location_key(t.pos) and o.position is t.pos
        pb = None
        if p.kind != "ft" or combat_table().ft_pbf:
            if o.position is Position.DUGOUT and t.pos is not Position.DUGOUT:
                dugout_out = True
                pb = point_blank_for(full, side, d, same_location=False)  # ASLGW 2.2.4: never TPBF/DPBF
            elif t.pos is Position.DUGOUT and o.position is not Position.DUGOUT:
                pb = point_blank_for(full, side, 0, same_location=True)  # ASLGW 2.2.3: TPBF (DPBF) into a dugout
            else:
                pb = point_blank_for(full, side, d, same_location=same_loc)
        try:
            fparts.append(fire_part(p.id, p.kind, p.base_fp, range_hexes=d, normal_range=p.normal_range,
                                    max_range=p.max_range, point_blank=pb, pinned=state.unit_play(o.id).pinned,
                                    phase_factor=p.factor, rof=p.rof, breakdown=p.breakdown, x=p.x))
        except FireError as e:
            raise IllegalAction(str(e)) from None
        r = _los_result(full, o.hex, t.hex, o.position, t.pos)
        if not r.clear:
            raise IllegalAction(f"{p.id} has no LOS to {t.hex} ({r.reason})")
        target_unit = next((sc.unit(i) for i in t.known if _alive(sc, i)), None)
        from gwasl.rules.los import fire_hindrance  # loaded by _los_result just above

        h = fire_hindrance(r, full, target_unit if target_unit is not None else t.side)
        if h > hind or (h == hind and not garance):
            garance = h < sum(x.drm for x in r.hindrance_hexes)
        hind = max(hind, h)
        if p.kind != "ft" or combat_table().ft_tem:
            m = _tem(full, t, o.hex)
            if m is not None and (tem_mod is None or m.value > tem_mod.value):
                tem_mod = m
    mods: list[Modifier] = []
    if tem_mod is not None:
        mods.append(tem_mod)
    if hind:
        mods.append(Modifier("LOS hindrance (A6.7; the first hindrance hex ignored: French in garance trousers, ASLGW 1.7.1)"
                             if garance else "LOS hindrance (A6.7)", hind))
    elif garance:
        notes.append("the only hindrance hex is ignored: French in garance trousers (ASLGW 1.7.1)")
    if dugout_out:
        mods.append(Modifier("firing out of a dugout (ASLGW 2.2.4)", dugout_fire_out_drm(True)))
    if any(state.unit_play(p.owner.id).cx for p in parts):
        cx = cx_attack_modifier(True)
        if cx is not None:
            mods.append(cx)
    lead = None
    if leaders and not ft_only:
        locs = sorted({(p.owner.hex, p.owner.position) for p in parts}, key=lambda k: (k[0].column, k[0].row))
        per = []
        for h, pos in locs:
            here = [ld for ld in leaders if ld.hex == h and ld.position is pos]
            per.append(min((fx.leadership(state, ld) for ld in here), default=None))
        lead = fire_leadership(per)
        if lead is None:
            notes.append("no leadership: a leader must be stacked with the firers of every Location (ASLGW 1.3, A7.53)")
        elif lead:
            mods.append(Modifier(f"leadership of {', '.join(ld.id for ld in leaders)} (ASLGW 1.3, A7.53)", lead))
    if state.phase is Phase.MPh and t.moving is not None:
        mods += first_fire_modifiers(open_ground=in_open_ground(full, t.hex, t.pos), hindered=hind > 0,
                                     assault_move=t.moving.assault)
    total = sum((fp.fp for fp in fparts), Fraction(0))
    groups: list[tuple[str, Fraction]] = []
    if known_group:
        groups.append((KNOWN, Fraction(1)))
    if hidden_group:
        # A7.23 area fire at concealed units, halved once: parts already halved as area fire are not halved again
        area = combat_table().fire.area_fire_fp
        adj = sum((fp.fp if (sp.factor is not None and sp.factor[1] != 1) else fp.fp * area for fp, sp in zip(fparts, parts, strict=True)),
                  Fraction(0))
        groups.append((HIDDEN, adj / total if total else Fraction(0)))
    for o in sorted({p.owner.id: p.owner for p in parts if p.kind != "inherent"}.values(), key=lambda u: u.id):
        if not keeps_inherent_fp(o.kind, sum(1 for p in parts if p.owner.id == o.id and p.kind != "inherent")) \
                and fx.inherent_factors(full, o)[0] > 0:
            sws = ", ".join(p.id for p in parts if p.owner.id == o.id and p.kind != "inherent")
            notes.append(f"{o.id} fires {sws} and no inherent FP of its own (A7.351-A7.352)")
    exempt = all(p.owner.kind in (UnitKind.CREW, UnitKind.HERO) for p in parts)
    attack = FireAttack(tuple(fparts), tuple(mods), tuple(groups), cowers=not (lead is not None or exempt))
    return _Built(attack, tuple(parts), tuple(ld.id for ld in leaders), tuple(notes))


def _view_sc(state: AslgwState, viewer: Viewer, side: str) -> Scenario:
    return known_scenario(state.fog, frozenset({side}) if _knows(viewer, side) else frozenset())


#: each scenario's command status by side (a pure function of both, read only here): every
#: fire's odds on a state ask it of the same known scenario
_COMMAND = StateMemo(128)


def _command_status(sc: Scenario, side: str) -> CommandReport:
    """:func:`gwasl.rules.command.command_status` of ``side`` on ``sc`` (ASLGW 1.3, 1.3.1), kept per scenario."""
    kept = _COMMAND.get(sc, side)
    if kept is MISSING:
        kept = command_status(sc, side)
        _COMMAND.put(sc, side, kept)
    return kept


def _ntc_units(state: AslgwState, sc: Scenario, side: str, parts: Sequence[_Spec], enemy_near: Iterable[Hex]) -> list[Unit]:
    """ASLGW 1.3.2: the firers that must pass an NTC first (Out of Command, in the PFPh or
    as Defensive First Fire, no enemy ADJACENT), judged on ``sc``."""
    if state.phase not in (Phase.PFPh, Phase.MPh):
        return []
    report = _command_status(sc, side)
    near = list(enemy_near)
    out: dict[str, Unit] = {}
    for p in parts:
        u = p.owner
        st = report.units.get(u.id)
        if st is None or state.unit_play(u.id).ntc_passed:
            continue
        adjacent = any(h.distance(u.hex) <= 1 for h in near)
        if no_leader_ntc(st, "fire", state.phase, enemy_adjacent=adjacent):
            out[u.id] = u
    return [out[k] for k in sorted(out)]


def _enemy_hexes(state: AslgwState, side: str) -> list[Hex]:
    """Hexes of enemy units ``side`` knows of (for 'enemy ADJACENT', ASLGW 1.3.2)."""
    fog = state.fog
    out = [u.hex for u in fog.scenario.units if u.side != side and u.kind is not UnitKind.SUPPORT_WEAPON and not is_hidden(fog, u.id)]
    out += [s.hex for s in fog.stacks if s.side != side]
    return out


#: the odds already worked out, by state, action and viewer: a menu and the opponent ask a
#: state's fire odds more than once (memo.py)
_ODDS = StateMemo(512)


def fire_odds(state: AslgwState, act: Fire, viewer: Viewer) -> list[Outcome]:
    """The exact chance of each outcome of ``act`` as ``viewer`` knows the game: every
    pass/fail of the NTCs it needs (ASLGW 1.3.2) and, for each, all 36 DR of the
    attack (:func:`gwasl.rules.fire.fire_distribution`)."""
    kept = _ODDS.get(state, (act, viewer))
    if kept is MISSING:
        kept = tuple(_fire_odds(state, act, viewer))
        _ODDS.put(state, (act, viewer), kept)
    return list(kept)


def _fire_odds(state: AslgwState, act: Fire, viewer: Viewer) -> list[Outcome]:
    side = firing_side(state)
    assert side is not None
    sc = _view_sc(state, viewer, side)
    parts, leaders, t = _parse(state, sc, act)
    needs = _ntc_units(state, sc, side, parts, _enemy_hexes(state, side))
    probs = {u.id: ntc_pass_chance(fx.morale_levels(state, u)[0]) for u in needs}  # the resolver's own NTC
    out: dict[str, Fraction] = {}
    for combo in product((True, False), repeat=len(needs)):
        p = Fraction(1)
        failed = set()
        for u, ok in zip(needs, combo, strict=True):
            p *= probs[u.id] if ok else 1 - probs[u.id]
            if not ok:
                failed.add(u.id)
        if p == 0:
            continue
        left = [q for q in parts if q.owner.id not in failed]
        prefix = f"NTC failed by {', '.join(sorted(failed))}: " if failed else ""
        if not left:
            out[prefix + "no fire"] = out.get(prefix + "no fire", Fraction(0)) + p
            continue
        b = _build(state, sc, left, leaders, t, side, t.hidden, bool(t.known))
        for k, v in fire_distribution(b.attack).items():
            out[prefix + k] = out.get(prefix + k, Fraction(0)) + p * v
    return [Outcome(k, float(v)) for k, v in out.items()]


_HARM = re.compile(r"(\dKIA|K/\d|\dMC)")


def harm(outcomes: Sequence[Outcome]) -> float:
    """The chance of at least a 1MC-grade result (#MC, K/# or KIA) in a fire's odds:
    what gwasl's fire policy weighs (docs/rules-notes.md)."""
    return sum(o.p for o in outcomes if _HARM.search(o.result))


def why_not(state: AslgwState, act: Fire, viewer: Viewer) -> str | None:
    """Why a fire action is not legal now, in words with its rule (A3, A8.1, A7.5, ASLGW 1.3), judged on what
    ``viewer`` knows; None when it is."""
    side = firing_side(state)
    if side is None:
        return f"no fire in the {state.phase.value} now (A3, A8.1: in the MPh only at units that just moved)"
    if act.mode not in FIRE_MODES:
        return f"{act.mode!r} is not a fire mode ({', '.join(f'{m}, {r}' for m, r in _MODE_RULE.items())})"
    try:
        sc = _view_sc(state, viewer, side)
        parts, leaders, t = _parse(state, sc, act)
        _build(state, sc, parts, leaders, t, side, t.hidden, bool(t.known))
    except IllegalAction as e:
        return str(e)
    return None


# ---------------------------------------------------------------------------
# Resolution


def resolve(em: fx.Emitter, act: Fire) -> None:
    """Resolve a legal fire on the truth: NTCs (ASLGW 1.3.2), the firers show themselves
    (A12.141), the IFT roll, markers, weapons, the target groups' results (a "?" hit
    by any effect is revealed, a dummy removed), residual FP, FPF's NMC, sniper."""
    state = em.state
    side = firing_side(state)
    assert side is not None
    full = state.scenario
    parts, leaders, t = _parse(state, full, act)
    # ASLGW 1.3.2: Out of Command firers test first; a failure keeps them from firing.
    failed: set[str] = set()
    for u in _ntc_units(state, full, side, parts, _enemy_hexes(state, side)):
        good, _ = fx.morale_levels(state, u)
        res = normal_task_check(em.dice, good, None, cause=f"NTC to fire {u.id} (ASLGW 1.3.2)")
        em.roll(res.roll)
        em.emit(FireNtc(side, u.id, good, res.roll.final, res.passed))
        if not res.passed:
            failed.add(u.id)
    parts = [p for p in parts if p.owner.id not in failed]
    if not parts:
        return
    # A12.141: firing units lose concealment (HIP ones are revealed, O'Leary 3.4)
    fog = em.state.fog
    shown: dict[str, list[str]] = {}
    ids = {p.id for p in parts} | {p.owner.id for p in parts} | {ld.id for ld in leaders}
    for i in sorted(ids):
        if _alive(full, i) and fog.status_of(i) is not FogStatus.NONE:
            shown.setdefault(full.unit(i).hex.label, []).append(i)
    for h, us in sorted(shown.items()):
        em.emit(ConcealmentLost(side, tuple(us), h, "it fires (A12.141; O'Leary 3.4)"))
    state = em.state
    full = state.scenario
    # the target groups as they truly are
    enemy = t.side
    fog = state.fog
    if t.moving is not None:
        cand = [i for i in t.moving.units if _alive(full, i) and full.unit(i).hex == t.hex and full.unit(i).position is t.pos]
        dummy_ids = [d for d in t.moving.dummies if any(s.id == d for s in fog.stacks)]
    else:
        cand = [u.id for u in full.units if u.side == enemy and u.hex == t.hex and u.position is t.pos
                and u.kind is not UnitKind.SUPPORT_WEAPON]
        dummy_ids = [s.id for s in fog.stacks if s.side == enemy and s.hex == t.hex and s.position is t.pos and s.is_dummy]
    known_ids = [i for i in cand if not is_hidden(fog, i)]
    hidden_ids = [i for i in cand if fog.status_of(i) in (FogStatus.CONCEALED, FogStatus.POTENTIAL_DUMMY, FogStatus.CLOAKED)]
    b = _build(state, full, parts, leaders, t, side, t.hidden, bool(t.known))
    firers_txt = tuple(sorted(ids))
    roll, out = resolve_fire(em.dice, b.attack, f"{act.mode} fire of {', '.join(firers_txt)} at {act.at} "
                                                f"(A7.3 IFT, {fp_words(b.attack.fp)} FP)")
    em.roll(roll)
    em.emit(FireResolved(side, act.mode, firers_txt, act.at, act.at_in, enemy, fp_words(b.attack.fp), b.attack.drm, out.final,
                         tuple(f"{g}: {r.text if r.kind != 'none' else 'no effect'}" for g, r in out.results),
                         tuple(p.explain() for p in b.attack.parts), out.rof_kept, out.malfunctioned, out.eliminated,
                         b.notes, b.attack.fp_words(), _columns(b.attack, out.shift)))
    marked = sorted((ids - set(out.rof_kept)) & {i for i in ids if _alive(em.state.scenario, i)})
    if marked:
        em.emit(Marked(side, tuple(marked), _MARK_AFTER[act.mode]))
    for w in out.malfunctioned:
        em.emit(WeaponChanged(side, w, "malfunctioned", "original DR at least its B# (A9.7)"))
    for w in out.eliminated:
        em.emit(WeaponChanged(side, w, "used_up", "original DR at least its X# (A22.3, ASLGW 1.6.41)"))
    cause = f"fire at {act.at}"
    for label, r in out.results:
        if label == KNOWN:
            fx.apply_ift(em, known_ids, r, cause)
        elif r.kind != "none":
            # A12.121, A12.152: an effect on a "?" reveals the units beneath and removes dummies
            real = [i for i in hidden_ids if em.alive(i) is not None and is_hidden(em.state.fog, i)]
            if real:
                em.emit(ConcealmentLost(enemy, tuple(real), act.at, f"hit by fire ({r.text}): concealment lost (A12.121)"))
            dummies = [s for s in em.state.fog.stacks if s.id in dummy_ids] if t.moving is not None else \
                [s for s in em.state.fog.stacks if s.side == enemy and s.hex == t.hex and s.position is t.pos and s.is_dummy]
            if dummies:
                em.emit(DummyRemoved(enemy, tuple(s.id for s in dummies), act.at, act.at_in, sum(s.height for s in dummies),
                                     f"a dummy hit by fire ({r.text}) is removed (A12.152)"))
            fx.apply_ift(em, real, r, cause)
    if act.mode in ("first", "subsequent", "fpf"):
        rfp = residual_fp(b.attack.fp, out.shift)
        key = (act.at, act.at_in)
        if rfp is not None and rfp > em.state.combat.residual.get(key, 0):
            em.emit(ResidualPlaced(act.at, act.at_in, rfp))
    if act.mode == "fpf":
        # every firing unit, also a crew firing only its MG (A7.352: it has no inherent FP in that attack)
        for uid in dict.fromkeys(p.owner.id for p in parts):
            if em.alive(uid) is not None:
                fx.morale_check_unit(em, uid, "NMC", "Final Protective Fire, on the FPF attack's Original DR (A8.31)",
                                     lost={}, original=roll)
    _sniper(em, side, enemy, roll.total, parts)


def _columns(attack: FireAttack, shift: int) -> tuple[str, ...]:
    """Each target group's IFT column and why (A7.3, A7.23, A7.9), named when there are two."""
    area = combat_table().fire.area_fire_fp
    out = []
    for g, f in attack.groups:
        why = 'area fire at a "?" (A7.23)' if f == area else \
            'area fire at a "?" (A7.23), halved once: a firer already halved as area fire is not halved again'
        text = attack.column_words(g, shift, why)
        if g == HIDDEN and f == 1:  # every firer already halved as area fire by its phase
            text = 'area fire at a "?" (A7.23), already halved as area fire: not halved again ' + text
        out.append(f"{g} {text}" if len(attack.groups) > 1 else text)
    return tuple(out)


def _sniper(em: fx.Emitter, firer_side: str, enemy: str, original: int, parts: Sequence[_Spec]) -> None:
    """A14: an original DR equal to the enemy's SAN lets its sniper strike one unit of
    the firing Locations (Random Selection); HIP and hidden units are not targets."""
    san = side_san(em.state.scenario, enemy)
    if not sniper_activated(original, san):
        return
    sc = em.state.scenario
    locs = {(p.owner.hex, p.owner.position) for p in parts}
    cands = sorted(u.id for u in sc.units if u.side == firer_side and (u.hex, u.position) in locs
                   and u.kind is not UnitKind.SUPPORT_WEAPON and not is_hidden(em.state.fog, u.id))
    if not cands:
        return
    sel, rolls = random_selection(em.dice, cands, f"sniper of {enemy} (A14.2)")
    em.rolls(rolls)
    r = em.dice.dr(f"sniper attack on {sel} (A14.2)")
    em.roll(r)
    eff = sniper_effect(r.total)
    em.emit(SniperStruck(enemy, sel, r.total, eff or "none"))
    if eff == "casualty_reduction":
        fx.casualty(em, sel, f"sniper of {enemy} (A14.2)")
    elif eff == "pin":
        fx.pin(em, sel, f"pinned by the sniper of {enemy} (A14.2)")


def residual_attack(em: fx.Emitter, side: str, movers: Sequence[str], at: Hex, at_in: Position, assault: bool) -> None:
    """A8.2: units entering a Location with Residual FP are attacked by it (with the
    Location's TEM and FFMO/FFNAM; no leadership, no cowering)."""
    rfp = em.state.combat.residual.get((at.label, at_in.value))
    if not rfp:
        return
    sc = em.state.scenario
    ids = [i for i in movers if _alive(sc, i) and sc.unit(i).kind is not UnitKind.SUPPORT_WEAPON]
    if not ids:
        return
    fog = em.state.fog
    known = [i for i in ids if not is_hidden(fog, i)]
    hidden = [i for i in ids if is_hidden(fog, i)]
    t = _Target(at, at_in, side, tuple(known), bool(hidden))
    mods: list[Modifier] = []
    m = _tem(sc, t, at)
    if m is not None:
        mods.append(m)
    mods += first_fire_modifiers(open_ground=in_open_ground(sc, at, at_in), hindered=False, assault_move=assault)
    groups = ([(KNOWN, Fraction(1))] if known else []) + ([(HIDDEN, combat_table().fire.area_fire_fp)] if hidden else [])
    attack = FireAttack((FirePart("residual", "residual", Fraction(rfp)),), tuple(mods), tuple(groups), cowers=False)
    roll, out = resolve_fire(em.dice, attack, f"Residual FP {rfp} at {at} (A8.2)")
    em.roll(roll)
    em.emit(FireResolved(em.state.defender, "residual", (), at.label, at_in.value, side, str(rfp), attack.drm, out.final,
                         tuple(f"{g}: {r.text if r.kind != 'none' else 'no effect'}" for g, r in out.results),
                         fp_why=f"Residual FP {rfp} (A8.2)", columns=_columns(attack, out.shift)))
    for label, r in out.results:
        if label == KNOWN:
            fx.apply_ift(em, known, r, f"Residual FP at {at}")
        elif r.kind != "none":
            real = [i for i in hidden if em.alive(i) is not None and is_hidden(em.state.fog, i)]
            if real:
                em.emit(ConcealmentLost(side, tuple(real), at.label, f"hit by Residual FP ({r.text}) (A12.121)"))
            fx.apply_ift(em, real, r, f"Residual FP at {at}")


# ---------------------------------------------------------------------------
# A fire group formed one firer at a time (A7.5)


def resolve_group_add(em: fx.Emitter, act: FireGroupAdd) -> None:
    """A7.5: the fire group so far -- a first firer, or the group with one more firer in
    its Locations or ADJACENT to them, at the group's target in its mode."""
    state = em.state
    side = firing_side(state)
    if side is None:
        raise IllegalAction(f"no fire in the {state.phase.value} now (A3, A8.1)")
    plan = state.combat.group
    if plan is not None and not ((act.at, act.at_in, act.mode) == (plan.at, plan.at_in, plan.mode)
                                 and set(plan.firers) < set(act.firers) and len(act.firers) == len(plan.firers) + 1):
        raise IllegalAction(f"the fire group {', '.join(plan.firers)} at {plan.at} grows one firer at a time (A7.5)")
    _parse(state, state.scenario, act)
    em.emit(FireGroupDeclared(side, tuple(sorted(act.firers)), act.at, act.at_in, act.mode))


def resolve_group_drop(em: fx.Emitter, act: FireGroupDrop) -> None:
    """Give up the fire group being formed (A7.5): nothing has fired."""
    plan = em.state.combat.group
    if plan is None:
        raise IllegalAction("no fire group is being formed")
    em.emit(FireGroupDropped(plan.side))


# ---------------------------------------------------------------------------
# Legal fire of the side to act


def legal(state: AslgwState, viewer: Viewer, side: str) -> list[Record]:
    """The fire ``side`` (the side to act) may take now, as ``viewer`` knows it; in the MPh
    the defender's First Fire at the units that just moved comes with the moving side's
    actions and lapses with the next move (A8.1)."""
    shooter = firing_side(state)
    # a side gwasl keeps secret fires only by its policy, which looks through its own seat
    # (viewer named after it); nobody else is ever offered its fire
    own_seat = shooter not in state.secret or viewer.name == shooter
    if shooter is not None and own_seat and (shooter == side or state.phase is Phase.MPh):
        return fire_options(state, viewer)
    return []


# ---------------------------------------------------------------------------
# After a move: Residual FP and the first fire of a side gwasl keeps secret


def after_move(state: AslgwState, events: Sequence[Record], dice: GameDice, reduce: ReduceFn) -> list[Record]:
    """What follows a movement action's events: Residual FP attacks on the units that
    entered a Location holding it (A8.2), and gwasl's fire policy when the defender
    is a side it keeps secret (A8.1)."""
    if state.phase is not Phase.MPh:
        return []
    st = state
    for ev in events:
        st = reduce(st, ev)
    em = fx.Emitter(st, dice, reduce)
    after_move_em(em, events)
    return em.events


def after_move_em(em: fx.Emitter, events: Sequence[Record]) -> None:
    """:func:`after_move` on an emitter that has just made ``events`` (a BCh's impulse too).

    (A8.1 Defensive First Fire at units that just moved; A8.2 Residual FP.)"""
    for ev in events:
        if isinstance(ev, Moved) and ev.units:  # a platoon's members too, as each enters (A8.2)
            residual_attack(em, ev.side, ev.units, Hex.from_label(ev.to), Position(ev.to_in), ev.mode == "assault")
        if isinstance(ev, ChargeImpulse):
            for cm in ev.moves:
                residual_attack(em, ev.side, (cm.unit,), Hex.from_label(cm.to), Position(cm.to_in), False)
    moved = any((isinstance(ev, Moved) and ev.platoon is None) or isinstance(ev, (ImpulseEnded, ChargeImpulse)) for ev in events)
    # a side gwasl plays as an opponent decides its first fire at its own seat (gwasl/games/aslgw/seats.py)
    if moved and em.state.combat.window is not None and em.state.defender in em.state.secret \
            and em.state.defender not in em.state.opponents:
        _secret_first_fire(em)


def _secret_first_fire(em: fx.Emitter) -> None:
    """gwasl's fire policy as the defender after a move (A8.1): fire while some option
    reaches the threshold (or its target is ADJACENT), else one private event."""
    side = em.state.defender
    seat = Viewer(side, frozenset({side}))  # the side's own seat (Game.viewer of a side)
    fired: list[str] = []
    why, cands = "", ()
    for _ in range(24):
        state = em.state
        if state.combat.window is None:
            break
        choice, why, cands = _choose(state, seat)
        if choice is None:
            break
        fired.append(why)
        resolve(em, choice)
    em.emit(FireConsidered(side, "; ".join([*fired, why]) if why else "; ".join(fired), cands, tuple(fired)))


# ---------------------------------------------------------------------------
# gwasl's fire policy for a side it keeps secret


def _adjacent(state: AslgwState, act: Fire) -> bool:
    at = Hex.from_label(act.at)
    sc = state.scenario
    for i in act.firers:
        try:
            if sc.unit(i).hex.distance(at) <= 1:
                return True
        except KeyError:
            continue
    return False


def _choose(state: AslgwState, viewer: Viewer) -> tuple[Fire | None, str, tuple[str, ...]]:
    """The fire policy (docs/rules-notes.md): among the side's legal fire, as it knows
    the game, take the one with the best chance of at least a 1MC-grade result; fire
    it if that chance is at least FIRE_THRESHOLD, or if its target is in the firers'
    hex or ADJACENT and the chance is above 0; otherwise hold fire."""
    best: tuple[float, bool, Fire] | None = None
    lines = []
    for a in fire_options(state, viewer, incremental=False):
        if not isinstance(a, Fire):
            continue
        h = harm(fire_odds(state, a, viewer))
        adj = _adjacent(state, a)
        lines.append(f"{'+'.join(a.firers)} -> {a.at} ({a.mode}): {h:.0%}{' ADJACENT' if adj else ''}")
        key = (h, adj, a)
        if best is None or (h, adj) > (best[0], best[1]):
            best = key
    if best is not None and (best[0] >= FIRE_THRESHOLD or (best[1] and best[0] > 0)):
        return best[2], f"fires {'+'.join(best[2].firers)} at {best[2].at}: {best[0]:.0%} of at least a 1MC-grade result", tuple(lines)
    if best is None:
        return None, "nothing of its can fire", ()
    return None, f"holds fire: the best chance of at least a 1MC-grade result is {best[0]:.0%} (< {FIRE_THRESHOLD:.0%})", tuple(lines)


def _fire_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """gwasl decides the fire of a side it keeps secret in its PFPh, DFPh and AFPh,
    from that side's view only (its legal actions and their odds)."""
    legal_ = seat.legal()
    gas = next((a for a in legal_ if isinstance(a, ReleaseGas)), None)
    if gas is not None:
        return Decision(gas, f"gwasl's fire policy releases {gas.side}'s gas attack {gas.index + 1} as soon as it may (ASLGW 1.9)",
                        {"threshold": FIRE_THRESHOLD}, public=True)
    best: tuple[float, bool, Fire] | None = None
    lines = []
    for a in legal_:
        if not isinstance(a, Fire):
            continue
        h = harm(seat.odds(a))
        adj = _near(seat, a)
        lines.append(f"{'+'.join(a.firers)} -> {a.at} ({a.mode}): {h:.0%}")
        if best is None or (h, adj) > (best[0], best[1]):
            best = (h, adj, a)
    if best is not None and (best[0] >= FIRE_THRESHOLD or (best[1] and best[0] > 0)):
        a = best[2]
        return Decision(a, f"gwasl's fire policy fires {'+'.join(a.firers)} at {a.at} ({a.mode}): {best[0]:.0%} chance of "
                           f"at least a 1MC-grade result", {"candidates": lines, "threshold": FIRE_THRESHOLD}, public=True)
    end = next(a for a in legal_ if isinstance(a, EndPhase))
    why = "nothing to fire" if best is None else f"best chance {best[0]:.0%} < {FIRE_THRESHOLD:.0%}, no ADJACENT target"
    return Decision(end, f"gwasl's fire policy ends the phase: {why}", {"candidates": lines, "threshold": FIRE_THRESHOLD})


def _near(seat: Seat[Any], a: Fire) -> bool:
    at = Hex.from_label(a.at)
    known = seat.view().fog.scenario  # the firing side's knowledge (Game.policy_view)
    return any(u.id in a.firers and u.hex.distance(at) <= 1 for u in known.units)


def automated(state: AslgwState, side: str) -> Mapping[str, Policy]:
    """The fire policy acts for a side gwasl keeps secret in its own PFPh and AFPh and
    in its DFPh as the defender."""
    if side not in state.secret:
        return {}
    if state.phase in (Phase.PFPh, Phase.AFPh) and side == state.phasing:
        return {side: _fire_policy}
    if state.phase is Phase.DFPh and side == state.defender:
        return {side: _fire_policy}
    return {}


# ---------------------------------------------------------------------------
# Reduce


def targets_after_move(before: AslgwState, after: AslgwState, ev: Record) -> AslgwState:
    """After a move: the units that just moved are the defender's targets (A8.1; a
    platoon's at the end of its impulse, ASLGW 1.4.1); they have moved this turn (A7.25)."""
    c = after.combat
    if isinstance(ev, Moved):
        c = fx.mark_moved(c, ev.units)
        if ev.platoon is not None or after.phase is not Phase.MPh:
            c = replace(c, window=None)
        else:
            c = replace(c, window=FireWindow(after.defender, (MoverMark(ev.to, ev.to_in, ev.units, ev.dummies, ev.mode == "assault"),)))
    elif isinstance(ev, ImpulseEnded):
        sc = after.scenario
        marks: dict[tuple[str, str], list[str]] = {}
        for uid in ev.units:
            try:
                u = sc.unit(uid)
            except KeyError:
                continue
            marks.setdefault((u.hex.label, u.position.value), []).append(uid)
        targets = tuple(MoverMark(h, p, tuple(sorted(us))) for (h, p), us in sorted(marks.items()))
        c = replace(c, window=FireWindow(after.defender, targets) if targets else None)
    return replace(after, combat=c)


def _group_declared(state: AslgwState, ev: FireGroupDeclared) -> AslgwState:
    plan = FireGroupPlan(ev.side, ev.firers, ev.at, ev.at_in, ev.mode)
    return replace(state, combat=replace(state.combat, group=plan))


def _no_group(state: AslgwState, ev: Record) -> AslgwState:
    """A fire made (or a group dropped): no fire group is being formed any more."""
    return state if state.combat.group is None else replace(state, combat=replace(state.combat, group=None))


def _residual_placed(state: AslgwState, ev: ResidualPlaced) -> AslgwState:
    c = state.combat
    return replace(state, combat=replace(c, residual=ro({**c.residual, (ev.at, ev.at_in): ev.fp})))


def _fire_ntc(state: AslgwState, ev: FireNtc) -> AslgwState:
    state = _no_group(state, ev)
    up = state.unit_play(ev.unit)
    return state.with_play({ev.unit: replace(up, ntc_passed=True) if ev.passed else replace(up, ntc_failed=True)})


def _unchanged(state: AslgwState, ev: Record) -> AslgwState:
    return state


#: the state after each event of fire
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    ResidualPlaced: _residual_placed,
    FireNtc: _fire_ntc,
    FireResolved: _no_group,
    FireGroupDeclared: _group_declared,
    FireGroupDropped: _no_group,
    SniperStruck: _unchanged,
    FireConsidered: _unchanged,
}


#: the rule of each fire mode (A3.2 Prep Fire; A8.1 Defensive First Fire; A8.3 SFF; A8.31 FPF; A8.4 Final Fire; A7.25 Advancing Fire)
_MODE_RULE = {"prep": "A3.2", "first": "A8.1", "subsequent": "A8.3", "fpf": "A8.31", "final": "A8.4", "advancing": "A7.25"}


def why_not_firing(state: AslgwState, u: Unit, side: str, mode: str) -> str:
    """Why ``u`` (of ``side``, which may fire now) may not fire in ``mode``, in words with the rule:
    who fires (A3), a malfunctioned weapon (A9.7), a broken unit (A10.4), Melee (A11.15), a
    failed NTC (ASLGW 1.3.2), a leader's FP (A7.53), the phase's fire modes and marks (A8.1-A8.4, A7.25)."""
    if u.side != side:
        return f"{u.id} is not {side}'s: {side} fires now (A3)"
    holder = sw_holder(state.scenario, u) if u.kind is UnitKind.SUPPORT_WEAPON else u
    if holder is None:
        return f"no unit of {side} holds {u.id} to fire it (A9)"
    if u.kind is UnitKind.SUPPORT_WEAPON and state.combat.mark(u.id).malfunctioned:
        return f"{u.id} has malfunctioned: it fires again once repaired (A9.7, A9.72)"
    if holder.broken:
        return f"{holder.id} is broken: a broken unit does not fire (A10.4)"
    if _in_melee(state, holder):
        return f"{holder.id} is locked in Melee: it attacks only in Close Combat (A11.15)"
    if state.unit_play(holder.id).ntc_failed:
        return f"{holder.id} failed its NTC to fire (ASLGW 1.3.2)"
    if u.kind is UnitKind.LEADER:
        return f"{u.id} is a leader: he has no FP of his own and directs the fire of units stacked with him (A7.53, ASLGW 1.3)"
    m = _mode(state, u.id, state.combat.mark(holder.id).moved)
    if m is not None and m.sustained and m.name == mode and u.kind is UnitKind.SUPPORT_WEAPON:
        try:
            sustained_fire(None, holder.kind)
        except SustainedFireError as e:
            return f"{u.id} is held by {holder.id}: {e}"
    if m is None:
        mark = state.combat.mark(u.id).fire
        return f"{u.id} has fired all it may this phase ({'marked ' + mark + ' fire; ' if mark else ''}A8.1-A8.4, A7.25)"
    if m.name != mode:
        return f"{u.id} may fire only {m.name} fire now, not {mode} ({_MODE_RULE.get(m.name, 'A8')})"
    return f"{u.id} may not fire now: nothing it holds fires in {mode} fire (A7, A9; ASLGW 1.6)"
