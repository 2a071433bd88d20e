"""The shift DR resolved (O'Leary 2.5, 3.3, 4.2-4.6): :func:`resolve_shift` rolls it
for an eligible :class:`~gwasl.rules.fog.shift.ShiftPlan` and applies the 2.5 table:
the exchange, the status lost, the dummies eliminated, TI, the minefields
revealed, every consequence in words, and the roll as the shifting side is shown
it (:func:`gwasl.rules.fog.knowledge.shown_roll`).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import FortificationKind, Position, Unit
from gwasl.model.terrain import fortification_table, terrain_table
from gwasl.rules.dice import Dice
from gwasl.rules.fog.env import FogEnv, size_class_of
from gwasl.rules.fog.knowledge import shown_roll
from gwasl.rules.fog.shift import (
    Done,
    DoneKind,
    Seen,
    SeenKind,
    ShiftChoices,
    ShiftError,
    ShiftPlan,
    ShiftResult,
    spent_mf,
)
from gwasl.rules.fog.state import Clock, ConcealStack, DummyHip, FogState, FogStatus, LedgerKind, ShiftRecord
from gwasl.rules.fog.status import lose_concealment, reveal_fortification
from gwasl.rules.fog.table import FogTable

__all__ = ["resolve_shift"]


def resolve_shift(state: FogState, plan: ShiftPlan, dice: Dice, env: FogEnv,
                  choices: ShiftChoices | None = None, *, clock: Clock | None = None) -> ShiftResult:
    """O'Leary 2.5: roll the shift DR for an eligible plan and apply the table.

    <= 7: the pieces exchange (<= 0: the shift adds no +1 to later attempts);
    8-10: no exchange, and no other shift of this kind this phase; 11-12:
    also potential dummy/HIP/cloaked status is lost and dummies are
    eliminated; >= 13: also concealment is lost and both stacks become TI
    for the rest of the player turn.  Minefields (4.6.2-4.6.3): only the
    exchange is decided, and both strengths are revealed whatever the DR.
    """
    if not plan.eligible:
        raise ShiftError(f"shift {plan.hex_a}-{plan.hex_b} is not allowed: {plan.reason}")
    choices = choices or ShiftChoices()
    _check_reanchoring(state, plan, choices)
    t = env.table
    roll = dice.DR(f"O'Leary 2.5 shift DR: {plan.kind.value} {plan.hex_a}-{plan.hex_b} ({plan.side})", plan.modifiers)
    band = t.band_of(roll.final)
    c = clock or Clock(1, plan.side, Phase.MPh)
    is_mf = plan.kind is LedgerKind.MINEFIELD
    rec = ShiftRecord(c.turn, c.phasing, c.phase, plan.side, plan.kind, roll.final, band.band,
                      counted=band.shift and t.counts_as_shift(roll.final),
                      closes=band.closes_phase and not is_mf)
    st = state
    notes: list[Done] = []
    public: list[Seen] = []
    hd: tuple[str, ...] = ()
    if is_mf:
        st = _minefield_outcome(st, plan, band.shift, notes, public)
    elif band.shift:
        st, hd = _exchange(st, plan, choices, env, notes)
    else:
        notes.append(Done(DoneKind.NO_EXCHANGE, kind=plan.kind.value, closes=band.closes_phase))
        if band.status_lost:
            st = _lose_status(st, plan, env, band.revealed, notes, public)
    if band.shift and roll.final <= t.free_shift_max:
        notes.append(Done(DoneKind.FREE_SHIFT))
    # The truth for the omniscient view; the shifting side sees the same dice with the DRM it
    # knows (a hidden enemy unit's LOS must not show through the +1, O'Leary 2.5).
    shown = shown_roll(state, plan, roll, env)
    return ShiftResult(st, plan, roll, band.band, tuple(notes), rec, hd, shown, tuple(public),
                       "O'Leary 4.6.2" if is_mf else "O'Leary 2.5")


def _exchange(st: FogState, plan: ShiftPlan, choices: ShiftChoices, env: FogEnv,
              notes: list[Done]) -> tuple[FogState, tuple[str, ...]]:
    moved: list[str] = []
    if plan.kind in (LedgerKind.DUMMY, LedgerKind.CLOAKED):
        for pa, pb in plan.stack_pairs:
            st, m = _swap_stacks(st, pa, pb, notes)
            moved += m
    else:
        st, moved = _hip_exchange(st, plan, choices, notes)
        st = _reanchor(st, plan, choices, notes)
        st = _fortification_ca(st, plan, choices, notes)
    st = _apply_choices(st, moved, choices, notes, env.table)
    hd = tuple(u for u in moved if _is_vehicle(st.unit(u), env) and st.scenario.map.hexes.get(st.unit(u).hex)
               and st.scenario.map.hexes[st.unit(u).hex].extra.get("crest_line") is True)
    if hd:
        notes.append(Done(DoneKind.HD_MAY_ATTEMPT, units=hd))
    return st, hd


def _swap_stacks(st: FogState, a_id: str, b_id: str, notes: list[Done]) -> tuple[FogState, list[str]]:
    """O'Leary 2.3: exchange two "?" stacks (or one with itself); the counter count the enemy
    sees and the portion of the location stay with each location; the MF history goes too (2.4)."""
    a, b = st.stack(a_id), st.stack(b_id)
    # 2.3: bore sighting survives a shift only if neither stack has changed location other
    # than by shifting (a unit's history is its own; a dummy stack's is kept by stack id).
    history = set(a.unit_ids + b.unit_ids) | {s.id for s in (a, b) if s.is_dummy}
    sighting = [x.unit_id for x in st.bore_sight if x.unit_id in a.unit_ids + b.unit_ids and x.eligible and x.hex is None]
    if sighting and history & st.moved:
        st = st.without_bore_sight(sighting)
        notes.append(Done(DoneKind.BORE_SIGHT_LOST, units=tuple(sighting)))
    if a.id != b.id:
        # A dummy stack's movement history goes with its content, which changes stack id here.
        flags = {a.id: b.id in st.moved, b.id: a.id in st.moved}
        st = replace(st, moved=(st.moved - set(flags)) | {k for k, v in flags.items() if v})
        # The height ("?" counters the enemy sees) and position stay with the location.
        new_a = replace(a, unit_ids=b.unit_ids, potential_dummy=b.potential_dummy)
        new_b = replace(b, unit_ids=a.unit_ids, potential_dummy=a.potential_dummy)
        st = st.with_stacks(new_a if s.id == a.id else new_b if s.id == b.id else s for s in st.stacks)
        moves = {u: (b.hex, b.position) for u in a.unit_ids}
        moves.update({u: (a.hex, a.position) for u in b.unit_ids})
        st = st.with_units_moved(moves)
        spent = dict(st.spent)
        sa, sb = spent_mf(st, a.unit_ids + (a.id,)), spent_mf(st, b.unit_ids + (b.id,))
        for u in a.unit_ids:
            spent[u] = sb
        for u in b.unit_ids:
            spent[u] = sa
        st = replace(st, spent=MappingProxyType(spent))
        moved = list(a.unit_ids + b.unit_ids)
        notes.append(Done(DoneKind.STACKS_EXCHANGE, a.hex, b.hex))
    else:
        moved = list(a.unit_ids)
        notes.append(Done(DoneKind.SELF_EXCHANGE, a.hex))
    return st, moved


def _is_vehicle(u: Unit, env: FogEnv) -> bool:
    return size_class_of(u) in env.table.vehicle_sizes


def _hip_exchange(st: FogState, plan: ShiftPlan, choices: ShiftChoices, notes: list[Done]) -> tuple[FogState, list[str]]:
    side, ha, hb = plan.side, plan.hex_a, plan.hex_b
    # 3.3.3, 4.2: a hidden fortification is "the equivalent of an HIP unit in every respect".
    had_real = {h: bool(st.hip_units_at(h, side) or st.fortifications_at(h, side)) for h in (ha, hb)}
    dest = {m: hb for m in plan.movers_a}
    dest.update({m: ha for m in plan.movers_b})
    unit_ids = {u.id for u in st.scenario.units}
    moves = {m: (h, st.unit(m).position) for m, h in dest.items() if m in unit_ids}
    st = st.with_units_moved(moves)
    st = replace(st,
                 dummy_hip=tuple(replace(d, hex=dest[d.id]) if d.id in dest else d for d in st.dummy_hip),
                 fortifications=tuple(replace(f, hex=dest[f.id]) if f.id in dest else f for f in st.fortifications))
    arrived_forts = {h: [f for f in st.fortifications if f.id in dest and f.hex == h] for h in (ha, hb)}
    # Positions: a unit stays in a fortification only if one of that kind is at its new hex;
    # 4.4: HIP units may be considered inside a fortification that shifted into their location.
    fixes = {}
    for h in (ha, hb):
        present = {f.kind for f in st.scenario.map.fortifications_at(h)} | {f.kind for f in st.fortifications_at(h, side)}
        for u in st.hip_units_at(h, side):
            pos = u.position
            if pos.fortification is not None and pos.fortification not in present:
                pos = Position.GROUND
            if pos is Position.GROUND and choices.enter_fortification and arrived_forts[h]:
                pos = _position_in(arrived_forts[h][0].kind)
            if pos is not u.position:
                fixes[u.id] = (h, pos)
    st = st.with_units_moved(fixes)
    for h in (ha, hb):
        # 3.3.3 (and 4.2): a location left devoid of HIP units and hidden fortifications is
        # marked with a dummy HIP counter, so a shift never removes a location from play.
        if had_real[h] and not st.hip_pieces_at(h, side):
            st, did = st.fresh_id("h", side)
            st = replace(st, dummy_hip=st.dummy_hip + (DummyHip(did, side, h),))
            notes.append(Done(DoneKind.DUMMY_HIP_MARKS, h))
    notes.append(Done(DoneKind.HIP_PIECES, ha, hb, count=len(plan.movers_a), count_back=len(plan.movers_b)))
    return st, [m for m in dest if m in unit_ids]


def _fortification_ca(st: FogState, plan: ShiftPlan, choices: ShiftChoices, notes: list[Done]) -> FogState:
    """O'Leary 4.4: a shifted fortification with a well-defined CA chooses it at once."""
    movers = set(plan.movers_a) | set(plan.movers_b)
    picked = {f.id for f in st.fortifications if f.id in movers and f.id in choices.ca
              and fortification_table()[f.kind].covered_arc}
    if not picked:
        return st
    forts = tuple(replace(f, extra=MappingProxyType(dict(f.extra) | {"ca": int(choices.ca[f.id]) % 6}))
                  if f.id in picked else f for f in st.fortifications)
    notes.append(Done(DoneKind.FORTIFICATION_CA, count=len(picked)))
    return replace(st, fortifications=forts)


def _check_reanchoring(state: FogState, plan: ShiftPlan, choices: ShiftChoices) -> None:
    """Refuse, before any die is rolled, tunnel exits and complex moves the rules do not allow."""
    if not (choices.tunnel_exits or choices.complex_moves):
        return
    movers = set(plan.movers_a) | set(plan.movers_b)
    forts = {f.id: f for f in state.fortifications}
    for fid, h in choices.tunnel_exits.items():
        f = forts.get(fid)
        if f is None or fid not in movers or "tunnel" not in f.extra:
            raise ShiftError(f"{fid} is not a shifting fortification with a tunnel (O'Leary 4.4.2)")
        if not state.scenario.map.contains(h) or h == (plan.hex_b if fid in plan.movers_a else plan.hex_a):
            raise ShiftError(f"tunnel exit {h} must be another hex of the map (O'Leary 4.4.2, B8.6)")
    complexes = {forts[m].extra.get("complex") for m in movers if m in forts} - {None}
    for uid, fid in choices.complex_moves.items():
        target = forts.get(fid)
        if not complexes or target is None or target.extra.get("complex") not in complexes:
            raise ShiftError(f"{fid} is not a fortification of a cave complex changed by this shift (O'Leary 4.4.1)")
        try:
            u = state.unit(uid)
        except KeyError:
            raise ShiftError(f"no unit {uid!r}") from None
        inside = [f for f in state.fortifications_at(u.hex, plan.side)
                  if f.extra.get("complex") == target.extra.get("complex") and u.position.fortification is f.kind]
        if u.side != plan.side or not inside:
            raise ShiftError(f"{uid} is not inside the cave complex (O'Leary 4.4.1)")


def _reanchor(st: FogState, plan: ShiftPlan, choices: ShiftChoices, notes: list[Done]) -> FogState:
    """O'Leary 4.4.1-4.4.2 after a fortification shifted: its tunnel stays connected to it
    (and may take a new far exit); a tunnel of another fortification that ended in it
    follows it; units of its cave complex may be placed in any fortification of the complex."""
    movers = set(plan.movers_a) | set(plan.movers_b)
    moved = [f for f in st.fortifications if f.id in movers]
    if not moved:
        return st
    old_hex = {f.id: (plan.hex_a if f.id in plan.movers_a else plan.hex_b) for f in moved}
    forts = []
    for f in st.fortifications:
        extra = dict(f.extra)
        if f.id in choices.tunnel_exits:
            extra["tunnel"] = choices.tunnel_exits[f.id].label
            notes.append(Done(DoneKind.TUNNEL_EXIT, f.hex, choices.tunnel_exits[f.id], kind=f.kind.value))
        elif f.id not in movers:
            for m in moved:
                if extra.get("tunnel") == old_hex[m.id].label and m.hex != old_hex[m.id]:
                    extra["tunnel"] = m.hex.label
                    notes.append(Done(DoneKind.TUNNEL_FOLLOWS, f.hex, m.hex, kind=m.kind.value))
        forts.append(replace(f, extra=MappingProxyType(extra)) if extra != dict(f.extra) else f)
    st = replace(st, fortifications=tuple(forts))
    if choices.complex_moves:
        by_id = {f.id: f for f in st.fortifications}
        moves = {uid: (by_id[fid].hex, _position_in(by_id[fid].kind))
                 for uid, fid in choices.complex_moves.items()}
        st = st.with_units_moved(moves)
        notes.append(Done(DoneKind.CAVE_PLACED, count=len(moves)))
    return st


def _position_in(kind: FortificationKind) -> Position:
    """Where a unit placed inside a fortification of ``kind`` stands (terrain.json ``position``);
    on the ground for one nobody is inside (wire, minefield)."""
    return fortification_table()[kind].position or Position.GROUND


def _apply_choices(st: FogState, moved: list[str], choices: ShiftChoices, notes: list[Done], table: FogTable) -> FogState:
    """O'Leary 2.3: after a shift a vehicle picks TCA/VCA and CE/BU, a gun its CA and
    emplacement (if it could emplace at start); other pieces choose nothing."""
    if not (choices.ca or choices.vca or choices.ce or choices.emplaced):
        return st
    t_gun = table.gun_sizes
    t_veh = table.vehicle_sizes
    units = []
    for u in st.scenario.units:
        extra = dict(u.extra)
        if u.id in moved:
            cls = size_class_of(u)
            if u.id in choices.ca and (cls in t_gun or cls in t_veh):
                extra["ca"] = int(choices.ca[u.id]) % 6
            if u.id in choices.vca and cls in t_veh:
                extra["vca"] = int(choices.vca[u.id]) % 6
            if u.id in choices.ce and cls in t_veh:
                extra["ce"] = bool(choices.ce[u.id])
            if u.id in choices.emplaced and cls in t_gun:
                if not choices.emplaced[u.id]:
                    extra.pop("emplaced", None)
                elif u.extra.get("may_emplace") is True and terrain_table()[st.scenario.map.terrain_at(u.hex)].allows_emplacement:
                    extra["emplaced"] = True
                else:
                    notes.append(Done(DoneKind.NOT_EMPLACED, u.hex, units=(u.id,)))
        units.append(replace(u, extra=MappingProxyType(extra)) if extra != dict(u.extra) else u)
    notes.append(Done(DoneKind.CHOICES_APPLIED))
    return replace(st, scenario=st.scenario.with_units(units))


def _lose_status(st: FogState, plan: ShiftPlan, env: FogEnv, revealed: bool, notes: list[Done],
                 public: list[Seen]) -> FogState:
    """2.5 results 11-12 (status lost) and >= 13 (revealed, TI)."""
    side = plan.side
    if plan.kind in (LedgerKind.DUMMY, LedgerKind.CLOAKED):
        ids = list(dict.fromkeys(x for p in plan.stack_pairs for x in p))
        # Public lines in map order: which stack started the attempt is the shifter's secret.
        ids.sort(key=lambda i: (st.stack(i).hex.column, st.stack(i).hex.row))
        for sid in ids:
            s = st.stack(sid)
            if s.is_dummy:
                st = st.with_stacks(x for x in st.stacks if x.id != sid)
                notes.append(Done(DoneKind.DUMMY_ELIMINATED, s.hex))
                public.append(Seen(SeenKind.DUMMY_REMOVED, s.hex, cloaked=s.cloaked))
                continue
            if revealed:
                st = lose_concealment(st, s.unit_ids, "shift DR >= 13 (O'Leary 2.5)").state
                st = replace(st, ti=st.ti | set(s.unit_ids))
                notes.append(Done(DoneKind.REVEALED_TI, s.hex, units=s.unit_ids))
                public.append(Seen(SeenKind.REVEALED_TI, s.hex, s.unit_ids))
            elif s.cloaked:
                new = replace(s, cloaked=False, potential_dummy=False, height=len(s.unit_ids) + 1)
                st = st.with_stacks(new if x.id == sid else x for x in st.stacks)
                st = st.with_status({u: FogStatus.CONCEALED for u in s.unit_ids})
                notes.append(Done(DoneKind.CLOAK_LOST, s.hex))
                public.append(Seen(SeenKind.CLOAK_LOST, s.hex, counters=new.height))
            else:
                new = replace(s, potential_dummy=False)
                st = st.with_stacks(new if x.id == sid else x for x in st.stacks)
                st = st.with_status({u: FogStatus.CONCEALED for u in s.unit_ids})
                notes.append(Done(DoneKind.POTENTIAL_DUMMY_LOST, s.hex))
        return st
    # HIP pieces: the movers of both locations.
    pieces = list(plan.movers_a) + list(plan.movers_b)
    unit_ids = {u.id for u in st.scenario.units}
    units = [i for i in pieces if i in unit_ids]
    for d in [d for d in st.dummy_hip if d.id in pieces]:
        notes.append(Done(DoneKind.DUMMY_HIP_ELIMINATED, d.hex))
    st = replace(st, dummy_hip=tuple(d for d in st.dummy_hip if d.id not in pieces))
    for f in [f for f in st.fortifications if f.id in pieces]:
        st = reveal_fortification(st, f.id)
        notes.append(Done(DoneKind.FORTIFICATION_REVEALED, f.hex, kind=f.kind.value))
        public.append(Seen(SeenKind.FORTIFICATION_REVEALED, f.hex, fortification=f.kind.value))
    # one "?" per Location: units IN a dugout or a deep trench do not share the stack of the ground (A12.1)
    by_loc: dict[tuple[Hex, Position], list[str]] = {}
    for u in units:
        by_loc.setdefault((st.unit(u).hex, st.unit(u).position), []).append(u)
    for (h, _pos), ids in sorted(by_loc.items(), key=lambda kv: (kv[0][0].column, kv[0][0].row, kv[0][1].value)):
        if revealed:
            st = st.with_status({u: FogStatus.NONE for u in ids})
            st = replace(st, ti=st.ti | set(ids))
            notes.append(Done(DoneKind.HIP_REVEALED_TI, h, units=tuple(ids)))
            public.append(Seen(SeenKind.REVEALED_TI, h, tuple(ids)))
            continue
        keep = [u for u in ids if not env.concealment_loss(
            st.scenario, st.unit(u), h, st.unit(u).position, env.in_enemy_los(st.scenario, side, h, st.unit(u).position))]
        lost = [u for u in ids if u not in keep]
        if keep:
            st, sid = st.fresh_id("s", side)
            pos = st.unit(keep[0]).position
            st = st.with_stacks(st.stacks + (ConcealStack(sid, side, h, pos, tuple(keep), len(keep) + 1),))
            st = st.with_status({u: FogStatus.CONCEALED for u in keep})
            notes.append(Done(DoneKind.HIP_STAYS_CONCEALED, h, units=tuple(keep)))
            public.append(Seen(SeenKind.STACK_APPEARS, h, counters=len(keep) + 1))
        if lost:
            st = st.with_status({u: FogStatus.NONE for u in lost})
            notes.append(Done(DoneKind.HIP_REVEALED, h, units=tuple(lost)))
            public.append(Seen(SeenKind.REVEALED, h, tuple(lost)))
    return st


def _minefield_outcome(st: FogState, plan: ShiftPlan, exchange: bool, notes: list[Done], public: list[Seen]) -> FogState:
    ((a, b),) = plan.stack_pairs
    m, o = st.minefield(a), st.minefield(b)
    if exchange:
        m2, o2 = replace(m, hex=o.hex, revealed=True), replace(o, hex=m.hex, revealed=True)
        notes.append(Done(DoneKind.MINEFIELDS_EXCHANGE, m.hex, o.hex))
    else:
        m2, o2 = replace(m, revealed=True), replace(o, revealed=True)
        notes.append(Done(DoneKind.MINEFIELD_NO_EXCHANGE))
    kept = []
    # Report in map order, never in entered/other order: the order would tell the enemy
    # whether the two counters exchanged, which the shift DR keeps secret (4.6.2).
    for x in sorted((m2, o2), key=lambda x: (x.hex.column, x.hex.row)):
        if x.dummy:
            notes.append(Done(DoneKind.MINEFIELD_DUMMY, x.hex))
            public.append(Seen(SeenKind.MINEFIELD_DUMMY, x.hex))
        else:
            kept.append(x)
            notes.append(Done(DoneKind.MINEFIELD_REVEALED, x.hex, ap=x.ap, at=x.at))
            public.append(Seen(SeenKind.MINEFIELD_REVEALED, x.hex, ap=x.ap, at=x.at))
    st = replace(st, minefields=tuple(x for x in st.minefields if x.id not in (m.id, o.id)) + tuple(kept))
    return st
