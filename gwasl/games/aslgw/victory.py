"""Control and victory in play (ASL A26): the hook from the aslgw game to
:mod:`gwasl.rules.control` and :mod:`gwasl.rules.victory`, driven by the scenario
card (:mod:`gwasl.rules.card`).

* Initial Control from the card's set-up areas (A26.11).
* After every event that changes the units on the map (moves, breaks, reveals,
  removes), Control is re-judged (A26.11-26.15) three ways: the truth, each
  side's belief (its own units and the enemy units it can see: a hidden unit's
  gain is not declared and a hidden unit's denial is not known, A26.15) and
  the public one (units nobody hides).  Views show only the Control the viewer
  may know; at game end all of it is declared.
* Units that leave play are Losses (A26.221); units that exit through the card's
  exit area give exit VP (A26.23); the Balance side's CVP (A26.4).
* At game end (or at once for a side whose conditions the card calls immediate)
  :func:`verdict_events` judges the card with :func:`gwasl.rules.victory.judge`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from gwasl.engine.game import GameError, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw.records import Judged, Over
from gwasl.games.aslgw.state import AslgwState, ReduceFn, VictoryState
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit, UnitKind
from gwasl.rules.card import ScenarioCard, location_of
from gwasl.rules.control import Controller, ControlMap, Kind, Location, Occupant
from gwasl.rules.fog.state import FogState, FogStatus
from gwasl.rules.fog.status import lose_concealment
from gwasl.rules.victory import Loss, Tally, Verdict, judge, tally, unit_vp

__all__ = [
    "cvp_tally",
    "PUBLIC",
    "REDUCERS",
    "Verdict",
    "control_json",
    "exit_candidates",
    "initial",
    "occupants",
    "remove_units",
    "track",
    "immediate_victory",
    "verdict",
    "verdict_events",
    "vp_json",
]

#: the key of the Control every viewer may know (units no side hides)
PUBLIC = ""
_MMC = (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW)


def _ro(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(d))


#: the fortifications whose inside is a Location of its own: a pillbox, and a dugout, a bunker in
#: all respects (ASLGW 2.2, 2.2.1; docs/rules-notes.md "Dugouts and deep trenches as Locations")
_BUNKER_KINDS = (FortificationKind.DUGOUT, FortificationKind.PILLBOX)


def _locations(s: Scenario, hexes: Iterable[Hex]) -> list[Location]:
    out = []
    for h in hexes:
        out.append(Location(h, 0))
        for f in s.map.fortifications_at(h):
            if f.kind in _BUNKER_KINDS:
                out.append(location_of(h, Position(f.kind.value)))
    return out


Bunkers = Mapping[Hex, tuple[Location, ...]]
_BUNKER_MAPS: list[tuple[tuple[object, object], tuple[Bunkers, Mapping[str, Bunkers], Bunkers]]] = []


def _bunker_maps(fog: FogState) -> tuple[Bunkers, Mapping[str, Bunkers], Bunkers]:
    """The pillbox Locations of each hex (A26.132): ``(all of them, those each side knows,
    those everyone knows)``.  A side knows the fortifications on the map and its own hidden
    ones (O'Leary 4): the enemy's hidden pillbox is no Location of its Control, nor of the
    public one, until revealed (issue 28 item 3).  Kept for the fortifications last asked about."""
    key = (fog.scenario.map.fortifications, fog.fortifications)
    for k, got in _BUNKER_MAPS:
        if k[0] is key[0] and k[1] is key[1]:
            return got
    public: dict[Hex, tuple[Location, ...]] = {}
    for f in fog.scenario.map.fortifications:
        if f.kind in _BUNKER_KINDS:
            for h in f.hexes:
                public[h] = (*public.get(h, ()), location_of(h, Position(f.kind.value)))
    every = dict(public)
    own: dict[str, dict[Hex, tuple[Location, ...]]] = {}
    for hf in fog.fortifications:
        if hf.kind in _BUNKER_KINDS:
            loc = location_of(hf.hex, Position(hf.kind.value))
            every[hf.hex] = (*every.get(hf.hex, ()), loc)
            mine = own.setdefault(hf.side, dict(public))
            mine[hf.hex] = (*mine.get(hf.hex, ()), loc)
    shown = _ro(public)
    got = (_ro(every) if own else shown, _ro({s: _ro(m) for s, m in own.items()}), shown)
    _BUNKER_MAPS[:] = [(key, got)]
    return got


def _forget(cm: ControlMap, locations: Iterable[Location]) -> ControlMap:
    """``cm`` without the Control of ``locations`` (Locations its holder does not know of)."""
    drop = [loc for loc in locations if loc in cm.locations]
    if not drop:
        return cm
    return replace(cm, locations=_ro({k: c for k, c in cm.locations.items() if k not in drop}))


_BUILDINGS: list[tuple[object, dict[Hex, str]]] = []


def _buildings(s: Scenario) -> dict[Hex, str]:
    """The map's buildings by hex, kept for the map object (immutable) last asked about:
    Control is re-judged after every unit event, and a 16-board map has 5,280 hexes."""
    for m, b in _BUILDINGS:
        if m is s.map.hexes:
            return b
    b = {h: d.building for h, d in s.map.hexes.items() if d.building}
    _BUILDINGS[:] = [(s.map.hexes, b)]
    return b


def initial(s: Scenario, card: ScenarioCard, sides: Sequence[str], balance: str | None) -> VictoryState:
    """A26.11: each side Controls its set-up area at scenario start; A26.4: the Balance side."""
    if balance is not None and balance not in sides:
        raise GameError(f"balance {str(balance)[:40]!r} is not a side of this scenario ({', '.join(sides)})")
    if balance is not None and balance not in card.balance:
        raise GameError(f"the scenario card gives {balance} no Balance provision (A26.4)")
    areas = dict(card.setup)
    cm = ControlMap.initial(areas, _locations(s, frozenset().union(*areas.values()) if areas else ()), _buildings(s))
    return VictoryState(card, cm, _ro({k: cm for k in (*sides, PUBLIC)}), (), balance)


#: judge every unit each time (the plain reference the incremental judging is checked against)
FULL_JUDGING = False


def settle(fog: FogState, v: VictoryState) -> VictoryState:
    """Control once the units set up have had their chance to gain it (A26.11): so that later
    re-judging depends only on the units, never on when an event made gwasl look."""
    units = occupants(fog)
    if tuple(units) == v.seen and v.seen:
        return v  # Control is a function of the units: nothing changed (ControlMap.update is idempotent)
    b = _buildings(fog.scenario)
    judging = units
    if v.seen and not FULL_JUDGING:
        # Judging a Location, hex or building again with the same units there changes nothing
        # (ControlMap.update is idempotent), and what a unit gains depends only on the units of
        # its own hex and building: judge those where a unit came, went or changed.
        changed = {u.location.hex for u in set(units) ^ set(v.seen)}
        blds = {b[h] for h in changed if h in b}
        judging = [u for u in units if u.location.hex in changed or (blds and b.get(u.location.hex) in blds)]
    every, own, public = _bunker_maps(fog)
    # sides that see the same units and believe the same map reach the same belief: judge it once
    judged: dict[tuple[int, tuple[int, ...], int], ControlMap] = {}

    def judge(cm: ControlMap, k: str | None) -> ControlMap:
        seen_by = tuple(i for i, u in enumerate(judging) if k is None or not u.hidden or u.side == k)
        bunkers = every if k is None else own.get(k, public)
        key = (id(cm), seen_by, id(bunkers))
        if key not in judged:
            got = cm.update([judging[i] for i in seen_by], b, bunkers)[0]
            if bunkers is not every:  # A26.15 with O'Leary 4: no Control of a pillbox one does not know of
                got = _forget(got, (loc for h, locs in every.items() for loc in locs if loc not in bunkers.get(h, ())))
            judged[key] = got
        return judged[key]

    truth = judge(v.truth, None)
    believed = {k: judge(cm, k) for k, cm in v.believed.items()}
    return replace(v, truth=truth, believed=_ro(believed), seen=tuple(units))


def occupants(fog: FogState) -> list[Occupant]:
    """The units on the map as Control sees them (A26.11, 26.15): support weapons are
    not units; dummies are not in the scenario's units at all."""
    out = []
    for u in fog.scenario.units:
        if u.kind is UnitKind.SUPPORT_WEAPON:
            continue
        out.append(Occupant(u.id, u.side, location_of(u.hex, u.position), mmc=u.kind in _MMC,
                            good_order=not u.broken, hidden=fog.status_of(u.id) is not FogStatus.NONE))
    return out


def track(before: AslgwState, after: AslgwState) -> AslgwState:
    """Re-judge Control and note losses after an event (A26.11, 26.221); a no-op when
    neither the units nor what is hidden changed."""
    fb, fa = before.fog, after.fog
    if fb.scenario.units is fa.scenario.units and fb.status is fa.status:
        return after
    v = after.victory
    gone = {u.id for u in fb.scenario.units} - {u.id for u in fa.scenario.units}
    losses = v.losses
    done = {x.unit for x in losses if x.how != "reduced"}
    for uid in sorted(gone - done):
        u = fb.scenario.unit(uid)
        if u.kind is UnitKind.SUPPORT_WEAPON:
            continue
        losses += (Loss(uid, u.side, _vp(u), "eliminated"),)
    if fb.scenario.units is not fa.scenario.units:
        was = {u.id: u for u in fb.scenario.units if u.kind is UnitKind.SQUAD}
        for u in fa.scenario.units:
            old = was.get(u.id)
            if old is not None and u.kind is UnitKind.HALF_SQUAD and _vp(old) > _vp(u):
                # A26.221: Casualty Reduction eliminates half of the squad (docs/rules-notes.md)
                losses += (Loss(u.id, u.side, _vp(old) - _vp(u), "reduced"),)
    return replace(after, victory=_told(fb, fa, settle(fa, replace(v, losses=losses))))


def _told(before: FogState, after: FogState, v: VictoryState) -> VictoryState:
    """What a reveal tells the enemy of Control (A26.15, A26.11, A26.132; ASLGW 2.2: a dugout is
    a bunker).  A hidden armed unit denied the enemy's gains where it was; revealed (it fires,
    it is found), its enemy learns that those gains never were: its belief of the unit's
    Location, hex and building becomes the truth.  A hidden pillbox revealed becomes a Location
    of every belief, with its Control and its hex's as they truly are.  Nothing changes a
    belief before a reveal (CONTRACTS 5)."""
    if before.status is after.status and before.scenario.map.fortifications is after.scenario.map.fortifications:
        return v
    shown = [u for u in after.scenario.units if u.kind is not UnitKind.SUPPORT_WEAPON
             and before.status_of(u.id) is not FogStatus.NONE and after.status_of(u.id) is FogStatus.NONE]
    public_before = _bunker_maps(before)[2]
    public_after = _bunker_maps(after)[2]
    found = [loc for h, locs in public_after.items() for loc in locs if loc not in public_before.get(h, ())]
    if not shown and not found:
        return v
    b = _buildings(after.scenario)
    believed = dict(v.believed)
    for k, cm in v.believed.items():
        keys: list[tuple[Kind, Any]] = []
        for u in shown:
            if u.side != k:
                keys += [("location", location_of(u.hex, u.position)), ("hex", u.hex)]
                if u.hex in b:
                    keys.append(("building", b[u.hex]))
        for loc in found:
            keys += [("location", loc), ("hex", loc.hex)]
        believed[k] = _as_true(cm, v.truth, keys)
    return replace(v, believed=_ro(believed))


def _as_true(cm: ControlMap, truth: ControlMap, keys: Iterable[tuple[Kind, Any]]) -> ControlMap:
    """``cm`` with the Control of ``keys`` (kind, Location/hex/building) as ``truth`` has it, declared."""
    tables: dict[str, dict[Any, Controller]] = {"location": dict(cm.locations), "hex": dict(cm.hexes),
                                                 "building": dict(cm.buildings)}
    changed = False
    for kind, key in keys:
        t = truth.controller(kind, key)
        now = tables[kind].get(key)
        want = Controller(t.side) if t is not None else None
        if (now.side if now is not None else None) == (want.side if want is not None else None):
            continue
        changed = True
        if want is None:
            del tables[kind][key]
        else:
            tables[kind][key] = want
    if not changed:
        return cm
    return ControlMap(_ro(tables["location"]), _ro(tables["hex"]), _ro(tables["building"]))


def remove_units(fog: FogState, ids: Iterable[str]) -> FogState:
    """The fog state without units ``ids``: the one way a unit leaves play, whether it is
    eliminated (A26.221), exits (A26.23) or is a support weapon eliminated or used up.
    A concealed unit's "?" goes with it (a stack left with no real unit is gone, O'Leary 2.2);
    a formation it led has no leader; it leaves the moved, TI and bore-sight records."""
    gone = [i for i in ids if any(u.id == i for u in fog.scenario.units)]
    if not gone:
        return fog
    fog = lose_concealment(fog, gone, "removed").state
    drop = set(gone)
    sc = fog.scenario.with_units(u for u in fog.scenario.units if u.id not in drop)
    if any(f.leader in drop for f in sc.formations):
        sc = replace(sc, formations=tuple(replace(f, leader=None) if f.leader in drop else f for f in sc.formations))
    status = {k: st for k, st in fog.status.items() if k not in drop}
    return replace(fog, scenario=sc, status=_ro(status), moved=fog.moved - drop, ti=fog.ti - drop,
                   bore_sight=tuple(b for b in fog.bore_sight if b.unit_id not in drop))


def exit_candidates(state: AslgwState, side: str) -> list[str]:
    """Units of ``side`` that may exit now (A26.23): in the MPh, in Good Order, on a hex of the
    card's exit area, not done moving.  (Broken units never move in the MPh, so none exits broken.)"""
    area = state.victory.card.exits.get(side)
    if not area:
        return []
    out = []
    for u in state.scenario.units:
        if u.side != side or u.kind is UnitKind.SUPPORT_WEAPON or u.broken or u.hex not in area:
            continue
        up = state.unit_play(u.id)
        if up.done or up.ntc_failed or up.pinned:
            continue
        out.append(u.id)
    return out


def _vp(u: Unit) -> int:
    return unit_vp(u.kind.value, u.rating.modifier if u.rating else 0)


def exit_loss(s: Scenario, uid: str) -> Loss:
    """A unit that exits leaves play as a Loss giving its VP for exit (A26.23, A26.221)."""
    u = s.unit(uid)
    return Loss(uid, u.side, _vp(u), "exited", u.broken)


def cvp_tally(state: AslgwState, ended: bool) -> Tally:
    """The sides' Casualty VP so far (A26.2): the losses' tally, plus the Balance's CVP where the
    card's chosen Balance grants some (A26.4), and at game end the captured equipment doubled
    (A26.222).  One tally for the verdict, the views and the advisor's leaf."""
    v = state.victory
    t = tally(v.losses, state.settings.order)
    if v.balance is not None and v.card.balance[v.balance].cvp:
        b = v.card.balance[v.balance]
        cvp = dict(t.cvp)
        cvp[b.side] = cvp.get(b.side, 0) + b.cvp
        t = replace(t, cvp=_ro(cvp), lines=(*t.lines, f"{b.side} +{b.cvp} CVP: Balance, {b.text} (A26.4)"))
    return t.at_game_end() if ended else t


def verdict(state: AslgwState, over: bool) -> Verdict | None:
    """Who has won (A26, A26.3): at game end with every condition and all Control declared
    (A26.15) and captures doubled (A26.222); before, only a side whose conditions the card
    calls immediate and has met."""
    card = state.victory.card
    conds = card.conditions()
    if not conds:
        return None  # a card without victory conditions: the game just ends
    if not over:
        conds = {s: c for s, c in conds.items() if card.victory[s].immediate}
        if not conds:
            return None
    return judge(conds, state.victory.truth.declared(), cvp_tally(state, over), state.settings.order, over)


def control_json(cm: ControlMap) -> dict[str, Any]:
    def side(c: Controller) -> str:
        return c.side

    return {
        "hexes": {h.label: side(c) for h, c in sorted(cm.hexes.items(), key=lambda kv: (kv[0].column, kv[0].row))},
        "buildings": {b: side(c) for b, c in sorted(cm.buildings.items())},
        "locations": [{"hex": loc.hex.label, "level": loc.level, "in": loc.place or "ground", "side": c.side}
                      for loc, c in sorted(cm.locations.items()) if loc.place or loc.level],
    }


def known_control(state: AslgwState, viewer: Viewer) -> ControlMap:
    """Control as ``viewer`` may know it (A26.15): the truth for the omniscient viewer, for a
    viewer who knows every side's secrets, and for everyone once the game is over; else the
    belief of the one side it knows, or the public one."""
    v = state.victory
    sides = set(state.settings.order)
    if state.over or sides <= set(viewer.knows):
        return v.truth.declared()
    known = sorted(sides & set(viewer.knows))
    return v.believed[known[0] if len(known) == 1 else PUBLIC].declared()


def vp_json(state: AslgwState) -> dict[str, Any]:
    """CVP and exit VP so far (A26.221-26.23): losses and exits are seen by everyone."""
    t = cvp_tally(state, state.over)
    return {"cvp": dict(t.cvp), "exit": dict(t.exit_vp), "lines": list(t.lines)}


def result_json(state: AslgwState, why: str) -> dict[str, Any]:
    """``status().result``: winner, why, and the tallies behind it."""
    if state.victory.result is not None:
        return dict(state.victory.result)
    return {"winner": None, "why": why, "turns": state.settings.turns}


def verdict_record(v: Verdict, state: AslgwState) -> dict[str, Any]:
    """The record of a verdict: the CVP (A26.221), exit VP (A26.23) and declared Control (A26.15) behind it."""
    t = cvp_tally(state, True)
    return {"winner": v.winner, "why": v.why, "met": dict(v.met), "details": list(v.details),
            "cvp": dict(t.cvp), "exit_vp": dict(t.exit_vp),
            "control": control_json(state.victory.truth.declared()),
            "turns": state.settings.turns, "turn": state.turn}


def is_quiet(event: Record) -> bool:
    return event.kind in ("roll", "decision", "opened", "shift_seen", "window_closed", "phase")


# ---------------------------------------------------------------------------
# The verdict in play


def verdict_events(state: AslgwState, v: Verdict, immediate: bool) -> list[Record]:
    """The card judged (A26): the verdict's event, then the end of the game."""
    r = verdict_record(v, state)
    return [Judged(v.winner, v.why, immediate,
                   tuple(sorted(s for s, ok in v.met.items() if ok)), v.details, r["cvp"], r["exit_vp"],
                   r["control"]["hexes"], r["control"]["buildings"]),
            Over(v.why, judged=True)]


def immediate_victory(state: AslgwState, events: list[Record], reduce: ReduceFn) -> list[Record]:
    """A26: a side whose conditions the card calls immediate wins as soon as they hold."""
    card = state.victory.card
    if not any(v.immediate for v in card.victory.values()) or any(isinstance(e, Over) for e in events):
        return []
    st = state
    for e in events:
        st = reduce(st, e)
    v = verdict(st, over=False)
    return verdict_events(st, v, immediate=True) if v is not None else []


def _judged(state: AslgwState, event: Judged) -> AslgwState:
    r = {"winner": event.winner, "why": event.why, "immediate": event.immediate, "met": list(event.met),
         "details": list(event.details), "cvp": dict(event.cvp), "exit_vp": dict(event.exit_vp),
         "control": {"hexes": dict(event.control_hexes), "buildings": dict(event.control_buildings)},
         "turn": state.turn, "turns": state.settings.turns}
    return replace(state, victory=replace(state.victory, result=r))


#: the state after the verdict's event (A26)
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {Judged: _judged}
