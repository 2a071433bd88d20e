"""What each viewer sees of a Great War scenario in play: the state
(CONTRACTS 5 ``show``), every log line, every legal action's wording.

Built by whitelist.  What a side may see of the map and its units is decided
in one place, :func:`gwasl.rules.fog.view.view`; this module composes those
side views for the viewer (``omniscient``, a side, or ``player``, who sees
every side's secrets but those gwasl keeps) and adds what play shows: the
turn record, MF spent, CX, the public MF of "?" piles.  A log line shows the
truth only to viewers who know the secrets of the side it concerns.
"""

from __future__ import annotations

from typing import Any

from gwasl.engine.game import Shown, Status, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.records import (
    BayonetCharge,
    ChargeDeclared,
    ChargeImpulse,
    ChargeStep,
    ChargeStepped,
    CloseCombat,
    CloseCombatResolved,
    ConcealmentGained,
    ConcealmentLost,
    Detach,
    Detached,
    DoubleTime,
    DoubleTimed,
    DummyRemoved,
    EndChargeImpulse,
    EndImpulse,
    EndPhase,
    EndPlatoon,
    EndWindow,
    Exit,
    Exited,
    Fire,
    FireConsidered,
    FireGroupAdd,
    FireGroupDeclared,
    FireGroupDrop,
    FireGroupDropped,
    FireNtc,
    FireResolved,
    FormationChanged,
    GasReleased,
    HipRevealed,
    ImpulseEnded,
    ImpulseStep,
    Judged,
    Marked,
    MeleeChanged,
    MinefieldChoice,
    MinefieldEntered,
    MinefieldShifted,
    Move,
    Moved,
    MovePile,
    NtcTaken,
    Opened,
    Over,
    PhaseBegan,
    PlatoonDone,
    Rally,
    RallyResolved,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    ResidualPlaced,
    Resolved,
    Rout,
    Routed,
    RunWindow,
    Shift,
    ShiftResolved,
    ShiftSeen,
    ShiftWindow,
    SniperStruck,
    Stopped,
    UnitHit,
    WeaponChanged,
    WindowEnded,
    Withdraw,
    Withdrew,
)
from gwasl.games.aslgw.state import AslgwState
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Unit
from gwasl.rules.fog.view import OMNISCIENT, ConcealedStack, SideView
from gwasl.rules.fog.view import view as fog_view
from gwasl.rules.movement import StepError, cached_step_cost
from gwasl.rules.sniper import gas_releases
from gwasl.rules.trenches import LocationError
from gwasl.rules.victory import judge

__all__ = ["action_view", "event_view", "state_view"]

PHASE_NAMES = {
    Phase.RPh: "Rally Phase", Phase.PFPh: "Prep Fire Phase", Phase.MPh: "Movement Phase",
    Phase.DFPh: "Defensive Fire Phase", Phase.AFPh: "Advancing Fire Phase", Phase.RtPh: "Rout Phase",
    Phase.APh: "Advance Phase", Phase.CCPh: "Close Combat Phase",
}


def _where(h: str, pos: str) -> str:
    return h if pos == Position.GROUND.value else f"{h} ({pos.replace('_', ' ')})"


def _hk(h: Hex) -> tuple[int, int]:
    return (h.column, h.row)


# ---------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------
def _side_views(state: AslgwState, viewer: Viewer) -> tuple[list[Unit], list[ConcealedStack], SideView | None, list[SideView]]:
    """The fog layer's own views composed for ``viewer``: each side's part as that
    side sees itself when the viewer knows its secrets, else as its enemy sees it."""
    sides = state.settings.order
    fog = state.fog
    knows = [s for s in sides if viewer.sees_secrets_of(s)]
    if len(knows) == len(sides):
        v = fog_view(fog, OMNISCIENT)
        return list(v.units), list(v.concealed_stacks), v, [v]
    if len(knows) == 1:
        v = fog_view(fog, knows[0])
        return list(v.units), list(v.concealed_stacks), v, [v]
    va, vb = fog_view(fog, sides[0]), fog_view(fog, sides[1])
    units = [u for u in va.units if u.side == sides[1]] + [u for u in vb.units if u.side == sides[0]]
    conc = [c for c in va.concealed_stacks if c.side == sides[1]] + [c for c in vb.concealed_stacks if c.side == sides[0]]
    return units, conc, None, [va, vb]


def state_view(state: AslgwState, viewer: Viewer, status: Status) -> dict[str, Any]:
    """CONTRACTS 5 ``show``: ruleset, turn, phase, side, over, result, control, vp, and the
    map as ``viewer`` may know it."""
    units, conc, whole, parts = _side_views(state, viewer)
    sides = state.settings.order
    known_sides = {s for s in sides if viewer.sees_secrets_of(s)}
    out_units = []
    for u in sorted(units, key=lambda u: (u.side, _hk(u.hex), u.id)):
        up = state.unit_play(u.id)
        d: dict[str, Any] = {"id": u.id, "side": u.side, "kind": u.kind.value, "hex": u.hex.label, "in": u.position.value}
        for k, v in (("class", u.unit_class.value if u.unit_class else None), ("rating", str(u.rating) if u.rating else None),
                     ("weapon", u.weapon), ("platoon", u.platoon)):
            if v is not None:
                d[k] = v
        d.update(broken=u.broken, trench_armour=u.trench_armour, cx=up.cx, mf_spent=up.mf_spent,
                 moved=up.moved, done=up.done)
        if u.side in known_sides:
            d.update(hidden=u.hidden.value, allowance=up.allowance, double_time=up.double_time,
                     ntc_passed=up.ntc_passed, ntc_failed=up.ntc_failed, free=up.detached, cx_pending=up.cx_pending)
        d.update(_combat_unit_extra(state, u.id, u.side in known_sides))  # fire and close combat (issue 12)
        out_units.append(d)
    piles = []
    for c in conc:
        pkey = (c.side, c.hex, c.position, c.cloaked)
        d = {"side": c.side, "hex": c.hex.label, "in": c.position.value, "counters": c.counters, "cloaked": c.cloaked,
             "mf_spent": state.piles.get(pkey, 0.0)}
        if c.side in known_sides and c.unit_ids is not None:
            d.update(dummy=c.dummy, potential_dummy=c.potential_dummy, units=list(c.unit_ids))
        piles.append(d)
    hidden: dict[str, Any] = {}
    for ks in sorted(known_sides):
        layer = whole.own_hidden if whole is not None else None
        if layer is None:
            continue
        stacks = [s for s in state.fog.stacks if s.side == ks]
        hidden[ks] = {
            "stacks": [{"id": s.id, "hex": s.hex.label, "in": s.position.value, "counters": s.height,
                        "units": sorted(s.unit_ids), "dummy": s.is_dummy, "potential_dummy": s.potential_dummy,
                        "cloaked": s.cloaked, "mf_spent": state.unit_play(s.id).mf_spent}
                       for s in sorted(stacks, key=lambda s: (_hk(s.hex), s.position.value, s.id))],
            "hip_units": [u for u in layer.hip_units if state.scenario.unit(u).side == ks],
            "dummy_hip": [d.hex.label for d in layer.dummy_hip if d.side == ks],
            "fortifications": [{"kind": f.kind.value, "hexes": [h.label for h in f.hexes]} for f in layer.fortifications
                               if f.owner == ks],
            "minefields": [{"hex": m.hex.label, "ap": m.ap, "at": m.at, "dummy": m.dummy, "known": m.known,
                            "revealed": m.revealed} for m in layer.minefields if m.side == ks],
            "ledger": [{"turn": r.turn, "phasing": r.phasing, "phase": r.phase.value, "kind": r.kind.value,
                        "final": r.final, "band": r.band, "counted": r.counted, "closes": r.closes}
                       for r in state.ledger if r.side == ks],
        }
    forts: dict[tuple[Any, ...], dict[str, Any]] = {}
    mines: dict[tuple[Any, ...], dict[str, Any]] = {}
    ti: set[str] = set()
    visible = {u["id"] for u in out_units}
    for part in parts:
        for f in part.fortifications:
            if f.hidden and f.owner not in known_sides:
                continue
            fkey = (f.kind.value, tuple(h.label for h in f.hexes), f.owner, f.hidden)
            # Ladders (ASLGW 2.1.3) come from the side view's whitelisted map, as printed on the board.
            drawn = next((x for x in part.scenario.map.fortifications
                          if x.kind is f.kind and x.hexes == f.hexes and x.owner == f.owner), None)
            forts[fkey] = {"kind": f.kind.value, "hexes": [h.label for h in f.hexes], "owner": f.owner, "hidden": f.hidden,
                           "ladders": [h.label for h in drawn.ladders] if drawn is not None else []}
        for m in part.minefields:
            own_view = part.viewer == OMNISCIENT or part.viewer == m.side
            if (m.side in known_sides) != own_view:
                continue
            mines[(m.side, m.hex.label)] = {"side": m.side, "hex": m.hex.label, "ap": m.ap, "at": m.at, "known": m.known,
                                            "revealed": m.revealed}
        ti |= {i for i in part.ti if i in visible}
    out: dict[str, Any] = {
        "ruleset": "aslgw",
        "turn": status.turn,
        "phase": status.phase,
        "side": status.side,
        "over": status.over,
        "result": dict(status.result) if status.result else None,
        "viewer": viewer.name,
        "scenario": state.scenario.title,
        "turns": state.settings.turns,
        "order": list(sides),
        "first_setup": state.settings.first_setup,
        "phasing": state.phasing,
        "windows": list(state.windows),
        "secret": sorted(state.secret),
        "units": out_units,
        "concealed": piles,
        "hidden": hidden,
        "fortifications": sorted(forts.values(), key=lambda f: (f["hexes"], f["kind"])),
        "minefields": sorted(mines.values(), key=lambda m: (m["side"], m["hex"])),
        "ti": sorted(ti),
        # A26: Control as this viewer may know it (A26.15), VP from losses everyone saw
        "control": vic.control_json(vic.known_control(state, viewer)),
        "vp": vic.vp_json(state),
        "victory_count": _victory_count(state, viewer),
    }
    out.update(_combat_state_extra(state, viewer))  # fire and close combat (issue 12)
    out["summary"] = _summary(out)
    imp = state.impulse
    if imp is not None:
        owner = next((u.side for u in state.scenario.units if u.platoon == imp.platoon), None)
        if owner in known_sides or all(u in visible for u in imp.steps):
            out["impulse"] = {"platoon": imp.platoon, "steps": {k: {"from": m.start.label, "to": m.to.label, "mf": m.mf}
                                                                for k, m in sorted(imp.steps.items())}}
    if state.minefield is not None:
        entered = state.fog.minefield(state.minefield[0])
        out["minefield_entered"] = {"owner": state.minefield[1], "hex": entered.hex.label}
    return out


def _victory_count(state: AslgwState, viewer: Viewer) -> dict[str, list[dict[str, Any]]]:
    """Each side's victory conditions counted now (the scenario card's live count in the
    player): Control as ``viewer`` may know it (A26.15), VP from losses everyone saw (A26.2)."""
    control = vic.known_control(state, viewer)
    t = vic.cvp_tally(state, state.over)
    out: dict[str, list[dict[str, Any]]] = {}
    for side, conds in state.victory.card.conditions().items():
        rows = []
        for c in conds:
            v = judge({side: (c,)}, control, t, state.settings.order, True)
            lines = list(v.details) if v is not None else []
            head = " ".join(lines[:2]) if len(lines) > 1 and lines[1].startswith("and more than") else "".join(lines[:1])
            rows.append({"count": head, "met": bool(v is not None and v.met.get(side))})
        out[side] = rows
    return out


def _summary(v: dict[str, Any]) -> list[str]:
    """The readable lines of ``gwasl game show`` (text mode): the map by side, as seen."""
    lines = [f"{v['scenario']}: turn {v['turn']} of {v['turns']}, {v['phasing']}'s player turn, {v['phase']}"]
    for side in v["order"]:
        units = [u for u in v["units"] if u["side"] == side]
        piles = [c for c in v["concealed"] if c["side"] == side]
        parts = [f"{u['id']} {_where(u['hex'], u['in'])}" + (" (broken)" if u["broken"] else "") + (" CX" if u["cx"] else "")
                 + (f" [{u['hidden']}]" if u.get("hidden", "none") != "none" else "") for u in units]
        parts += [f"? x{c['counters']} {_where(c['hex'], c['in'])}" for c in piles
                  if not (side in v["hidden"] and c.get("units"))]
        lines.append(f"{side}: " + ("; ".join(parts) if parts else "nothing in view"))
    if v["over"]:
        lines.append(f"over: {(v['result'] or {}).get('why', '')}")
    return lines


# ---------------------------------------------------------------------------
# Log lines
# ---------------------------------------------------------------------------
def _counters(n: int, noun: str = "counter") -> str:
    """``n`` counters in words: "1 counter", "2 counters"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _names(units: tuple[str, ...], counters: int, *, full: bool, dummies: tuple[str, ...] = ()) -> str:
    parts = list(units)
    if full and dummies:
        parts += [f"dummy stack {d}" for d in dummies]
    if counters and not full:
        parts.append(f"a \"?\" of {counters} counter{'s' if counters != 1 else ''}")
    return ", ".join(parts) if parts else "nothing"


def event_view(event: Record, viewer: Viewer) -> Shown | None:
    """What ``viewer`` reads of ``event`` (engine events are the game's)."""
    if isinstance(event, Opened):
        secret = f"; gwasl keeps {', '.join(event.secret)}'s hidden layer" if event.secret else ""
        return Shown("opened", f"{event.title}: {event.turns} turns, {event.order[0]} moves first, "
                               f"{event.first_setup} set up first{secret}",
                     {"turns": event.turns, "order": list(event.order)})
    if isinstance(event, PhaseBegan):
        ph = Phase(event.phase)
        extra = f"; shift window of {', '.join(event.windows)} first" if event.windows else ""
        return Shown("phase", f"Turn {event.turn}, {event.phasing}'s player turn: {PHASE_NAMES[ph]} ({ph.value}){extra}",
                     {"turn": event.turn, "phasing": event.phasing, "phase": event.phase})
    if isinstance(event, WindowEnded):
        return Shown("window_closed", f"{event.side}'s shift window closes")
    if isinstance(event, Over):
        return Shown("over", "The game is over (A26)" if event.judged else event.why)
    if isinstance(event, Exited):
        return Shown("exited", f"{event.side} exits {', '.join(event.units)} off the map from {', '.join(dict.fromkeys(event.at))}: "
                               f"{event.vp} exit VP (A26.23)", {"units": list(event.units), "vp": event.vp})
    if isinstance(event, Judged):
        return Shown("victory", ("At once: " if event.immediate else "Game end: ") + event.why,
                     {"winner": event.winner, "met": list(event.met), "details": list(event.details),
                      "cvp": dict(event.cvp), "exit_vp": dict(event.exit_vp),
                      "control": {"hexes": dict(event.control_hexes), "buildings": dict(event.control_buildings)}})
    if isinstance(event, NtcTaken):
        if event.private_to is not None and not viewer.sees_secrets_of(event.private_to):
            return None
        verb = "passes" if event.passed else "fails"
        return Shown("ntc", f"{event.unit} {verb} its NTC to move ({event.rule}): final {event.final} "
                            f"{'<=' if event.passed else '>'} morale {event.morale}",
                     {"unit": event.unit, "passed": event.passed})
    if isinstance(event, Resolved):
        if not viewer.sees_secrets_of(event.side):
            return None
        rolls = [{"cause": r.cause, "dice": list(r.dice), "modifiers": [{"cause": m.cause, "value": m.value} for m in r.modifiers],
                  "final": r.final} for r in event.rolls]
        text = f"gwasl resolves an order to {event.side}: " + ("; ".join(event.notes) if event.notes else "nothing to roll")
        return Shown("hidden_order", text, {"rolls": rolls})
    if isinstance(event, Moved):
        full = viewer.sees_secrets_of(event.side)
        who = _names(event.units if full else event.shown, 0 if full else event.counters, full=full, dummies=event.dummies)
        how = {"assault": " by Assault Movement (A4.61)", "advance": " advancing (A4.7)"}.get(event.mode, "")
        imp = f" in an impulse of platoon {event.platoon}" if event.platoon and (full or not event.counters) else ""
        tail = "; movement ends" if event.ends else ""
        cx = "; CX at the end of the MPh (ASLGW 2.1.3)" if event.cx else ""
        return Shown("moved", f"{event.side}: {who} move{how}{imp} {_where(event.frm, event.frm_in)} -> "
                              f"{_where(event.to, event.to_in)}, {event.mf:g} MF ({'; '.join(event.why)}){cx}{tail}",
                     {"from": event.frm, "to": event.to, "mf": event.mf})
    if isinstance(event, Stopped):
        full = viewer.sees_secrets_of(event.side)
        if not full and not event.shown and not event.counters:
            return None
        who = _names(event.units if full else event.shown, 0 if full else event.counters, full=full, dummies=event.dummies)
        one = len(event.units if full else event.shown) + (len(event.dummies) if full else 0) + (0 if full else bool(event.counters)) == 1
        return Shown("stopped", f"{event.side}: {who} at {_where(event.at, event.at_in)} {'does' if one else 'do'} not enter "
                                f"{_where(event.to, event.to_in)}: {event.why}")
    if isinstance(event, DoubleTimed):
        full = viewer.sees_secrets_of(event.side)
        who = _names(event.units if full else event.shown, 0 if full else event.counters, full=full)
        return Shown("double_time", f"{event.side}: {who} at {event.at} Double Time: +2 MF, CX (A4.5)")
    if isinstance(event, ConcealmentLost):
        verb = "loses" if len(event.units) == 1 else "lose"
        return Shown("concealment_lost", f"{event.side}: {', '.join(event.units)} at {event.at} {verb} concealment: {event.why}",
                     {"units": list(event.units), "at": event.at})
    if isinstance(event, DummyRemoved):
        return Shown("dummy_removed", f"{event.side}: the \"?\" of {_counters(event.counters)} at "
                                      f"{_where(event.at, event.at_in)} was a dummy, removed: {event.why}")
    if isinstance(event, HipRevealed):
        parts = []
        if event.units:
            parts.append(", ".join(event.units))
        if event.dummies:
            parts.append(f"{_counters(event.dummies, 'dummy HIP counter')}, removed")
        if event.fortifications:
            parts.append(", ".join(event.fortifications))
        return Shown("hip_revealed", f"{event.side}: hidden at {event.at} and now revealed: {'; '.join(parts)} ({event.why})")
    if isinstance(event, ImpulseEnded):
        if not event.public and not viewer.sees_secrets_of(event.side):
            return None
        return Shown("impulse", f"{event.side}: impulse of platoon {event.platoon} ends; "
                                f"{', '.join(event.units) or 'no one'} pay {event.mf:g} MF (ASLGW 1.4.1)")
    if isinstance(event, Detached):
        if not event.public and not viewer.sees_secrets_of(event.side):
            return None
        return Shown("detached", f"{event.side}: {event.unit} leaves platoon {event.platoon}'s movement as a free squad (ASLGW 1.4.13)")
    if isinstance(event, PlatoonDone):
        if not event.public and not viewer.sees_secrets_of(event.side):
            return None
        return Shown("platoon_done", f"{event.side}: platoon {event.platoon} ends its movement (ASLGW 1.4.13)")
    if isinstance(event, ShiftResolved):
        if not viewer.sees_secrets_of(event.side):
            return None
        return Shown("shift", f"{event.side}: {event.ledger} shift {event.a}-{event.b}: final DR {event.final} -> "
                              f"{event.band}: {'; '.join(event.notes)} (O'Leary 2.5)",
                     {"final": event.final, "band": event.band})
    if isinstance(event, ShiftWindow):
        if not viewer.sees_secrets_of(event.side):
            return None
        tries = "; ".join(f"{a.ledger} {a.a}-{a.b}: {a.roll.explain()} -> {a.band}" for a in event.attempts) or "no attempt"
        return Shown("shift_window", f"{event.side}'s shift policy in the {event.phase}: {tries}",
                     {"explanation": list(event.explanation),
                      "attempts": [{"ledger": a.ledger, "a": a.a, "b": a.b, "dice": list(a.roll.dice),
                                    "modifiers": [{"cause": m.cause, "value": m.value} for m in a.roll.modifiers],
                                    "final": a.roll.final, "band": a.band, "notes": list(a.notes)} for a in event.attempts]})
    if isinstance(event, ShiftSeen):
        return Shown("shift_seen", f"{event.side}: " + "; ".join(event.lines))
    if isinstance(event, MinefieldEntered):
        what = "a hidden minefield" if event.was_hidden else "a minefield"
        return Shown("minefield", f"{event.by} enters {what} of {event.owner} at {event.at} (O'Leary 4.6.2)")
    if isinstance(event, MinefieldShifted):
        if event.other is None:
            return Shown("minefield_shift", f"{event.owner}: " + "; ".join(event.lines))
        return Shown("minefield_shift", f"{event.owner}: minefield shift: " + ("; ".join(event.lines) or "done") + " (O'Leary 4.6.2)")
    return _combat_event_view(event, viewer)  # fire and close combat (issue 12)


# ---------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------
def action_view(state: AslgwState, action: Record, viewer: Viewer) -> Shown:
    """An action as ``viewer`` reads it in a legal list."""
    fog = state.fog
    if isinstance(action, EndPhase):
        return Shown("end_phase", f"End the {PHASE_NAMES[state.phase]} ({state.phase.value})")
    if isinstance(action, Exit):
        vp = sum(vic.exit_loss(state.scenario, u).vp for u in action.pieces)
        return Shown("exit", f"Exit {', '.join(action.pieces)} off the map ({vp} exit VP, A26.23)")
    if isinstance(action, EndWindow):
        return Shown("end_window", f"End {action.side}'s shift window (O'Leary 3.3.2)")
    if isinstance(action, RunWindow):
        return Shown("shift_policy", f"gwasl's shift policy acts for {action.side}")
    if isinstance(action, Move):
        names = []
        for p in action.pieces:
            s = next((x for x in fog.stacks if x.id == p), None)
            names.append(f"dummy stack {p} ({s.height} counters)" if s is not None else p)
        frm = _from_of(state, action.pieces)
        cost = _cost(state, frm, action.to, action.to_in, action.pieces, action.pieces)
        how = {"assault": "Assault Move", "advance": "Advance"}.get(action.mode, "Move")
        return Shown("move", f"{how} {', '.join(names)}{' ' + frm[2] if frm else ''} -> {_where(action.to, action.to_in)}{cost}")
    if isinstance(action, MovePile):
        how = {"assault": "Assault Move", "advance": "Advance"}.get(action.mode, "Move")
        n = sum(s.height for s in fog.stacks if s.side == action.side and s.hex.label == action.at
                and s.position.value == action.at_in and s.cloaked == action.cloaked)
        cost = _cost(state, (Hex.from_label(action.at), Position(action.at_in), ""), action.to, action.to_in)
        return Shown("move_pile", f"{how} {action.side}'s \"?\" ({n} counters) {_where(action.at, action.at_in)} -> "
                                  f"{_where(action.to, action.to_in)}{cost}; gwasl resolves it")
    if isinstance(action, DoubleTime):
        return Shown("double_time", f"Double Time for {', '.join(action.pieces)}: +2 MF, CX now (A4.5)")
    if isinstance(action, ImpulseStep):
        u = fog.scenario.unit(action.unit)
        cost = _cost(state, (u.hex, u.position, ""), action.to, action.to_in, (action.unit,), ())
        return Shown("impulse_step", f"Impulse of {action.platoon}: {action.unit} {_where(u.hex.label, u.position.value)} -> "
                                     f"{_where(action.to, action.to_in)}{cost}")
    if isinstance(action, EndImpulse):
        return Shown("end_impulse", f"End the impulse of platoon {action.platoon} (ASLGW 1.4.1)")
    if isinstance(action, Detach):
        return Shown("detach", f"Set {action.unit} free of platoon {action.platoon} (ASLGW 1.4.13)")
    if isinstance(action, EndPlatoon):
        return Shown("end_platoon", f"End the movement of platoon {action.platoon} (ASLGW 1.4.13)")
    if isinstance(action, Shift):
        return Shown("shift", f"{action.side}: attempt a {action.ledger} shift {_piece(state, action.a)} <-> "
                              f"{_piece(state, action.b)} (O'Leary 2.3, 2.5)")
    if isinstance(action, MinefieldChoice):
        if action.other is None:
            return Shown("minefield_shift", f"Keep the minefield {action.minefield} where it is (O'Leary 4.6.2)")
        m = fog.minefield(action.other)
        return Shown("minefield_shift", f"Try to exchange the entered minefield with the one at {m.hex} (O'Leary 4.6.2)")
    combat = _combat_action_view(state, action, viewer)  # fire and close combat (issue 12)
    if combat is not None:
        return combat
    return Shown(action.kind, action.kind)


def _piece(state: AslgwState, ref: str) -> str:
    for s in state.fog.stacks:
        if s.id == ref:
            what = "dummy" if s.is_dummy else ", ".join(sorted(s.unit_ids))
            return f"? at {_where(s.hex.label, s.position.value)} ({what})"
    return ref


def _from_of(state: AslgwState, pieces: tuple[str, ...]) -> tuple[Hex, Position, str] | None:
    fog = state.fog
    for p in pieces:
        try:
            u = fog.scenario.unit(p)
            return u.hex, u.position, _where(u.hex.label, u.position.value)
        except KeyError:
            for s in fog.stacks:
                if s.id == p:
                    return s.hex, s.position, _where(s.hex.label, s.position.value)
    return None


def _cost(state: AslgwState, frm: tuple[Hex, Position, str] | None, to: str, to_in: str,
          movers: tuple[str, ...] = (), group: tuple[str, ...] = ()) -> str:
    """A step's MF, and the fewest MF any of ``movers`` (the viewer's own units) would have
    left after it: their allowance for this phase as moving with ``group`` fixes it (A4.1;
    ASLGW 1.3, 1.4.1: a leader's +2 MF), so it is known before the first step."""
    if frm is None:
        return ""
    try:
        c = cached_step_cost(state.scenario, frm[0], frm[1], Hex.from_label(to), Position(to_in))
    except (StepError, LocationError, ValueError):
        return ""
    left: list[tuple[float, float]] = []
    for p in movers:
        try:
            u = state.scenario.unit(p)
        except KeyError:
            continue  # a dummy stack: its MF are the pile's (O'Leary 2.4)
        total = mv.allowance(state, state.scenario, u, group)
        left.append((total - state.unit_play(p).mf_spent - c.mf, total))
    if not left:
        return f" ({c.mf:g} MF)"
    after, total = min(left)
    return f" ({c.mf:g} MF; {after:g} of {total:g} left after)"


# ---------------------------------------------------------------------------
# Fire and close combat (issue 12)
# ---------------------------------------------------------------------------
MODE_NAMES = {
    "prep": "Prep Fire", "first": "Defensive First Fire", "subsequent": "Subsequent First Fire",
    "fpf": "Final Protective Fire", "final": "Final Fire", "advancing": "Advancing Fire", "residual": "Residual FP",
}
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


_CHANGES = {
    "broken": "breaks (DM)", "pinned": "is pinned", "reduced": "is casualty reduced", "wounded": "is wounded",
    "eliminated": "is eliminated", "replaced": "is replaced (ELR)", "rallied": "rallies", "dm_off": "is no longer DM",
    "dm_on": "is DM", "left_platoon": "leaves its platoon", "gas_protected": "has its gas protection on",
    "labor": "keeps trying to put its protection on (labor)", "labor_off": "stops trying", "cx": "is CX",
    "bch": "is a BCh unit",
}
#: the changes whose reason starts with the deed itself (ASLGW 1.9.16's removal of gas protection)
_SAID_BY_WHY = frozenset({"gas_removed"})


#: how a fire marker reads (A8.1, A8.3, A8.4, A3.3, A3.5)
MARK_WORDS = {
    "prep": "marked with Prep Fire (A3.2)", "first": "marked with First Fire (A8.1)",
    "final": "marked with Final Fire (A8.3, A8.4)", "fired": "marked as having fired this phase (A3.5)",
}


def _combat_event_view(event: Record, viewer: Viewer) -> Shown | None:
    """What ``viewer`` reads of a fire or close combat event (None: not one, or nothing)."""
    if isinstance(event, FireResolved):
        who = ", ".join(event.firers) if event.firers else "Residual FP"
        if event.fp_why:  # the FP, the IFT column it read and why (issue 24)
            cols = [c if c.startswith("->") else f", {c}" if len(event.columns) == 1 else f"; {c}" for c in event.columns]
            fp = event.fp_why + "".join(f" {c}" if c.startswith("->") else c for c in cols)
        else:
            fp = f"{event.fp} FP"
        # Residual FP has no firers to name: "Residual FP at G3", not "Residual FP of Residual FP"
        attack = f"{MODE_NAMES.get(event.mode, event.mode)} of {who}" if event.firers else MODE_NAMES.get(event.mode, who)
        text = (f"{event.side}: {attack} at {_where(event.at, event.at_in)}: "
                f"{fp}; DRM {event.drm:+d}, final DR {event.final}: {'; '.join(event.results)}")
        extra = []
        if event.rof_kept:
            extra.append(f"{', '.join(event.rof_kept)} {'keeps its' if len(event.rof_kept) == 1 else 'keep their'} rate of fire (A7.35)")
        if event.malfunctioned:
            extra.append(f"{', '.join(event.malfunctioned)} malfunction(s) (A9.7)")
        if event.used_up:
            extra.append(f"{', '.join(event.used_up)} used up (A22.3)")
        extra += list(event.notes)
        if extra:
            text += " (" + "; ".join(extra) + ")"
        return Shown("fire", text, {"mode": event.mode, "firers": list(event.firers), "at": event.at, "at_in": event.at_in,
                                    "fp": event.fp, "drm": event.drm, "final": event.final, "results": list(event.results),
                                    "parts": list(event.parts)})
    if isinstance(event, FireNtc):
        verb = "passes" if event.passed else "fails"
        return Shown("fire_ntc", f"{event.unit} {verb} its NTC to fire (ASLGW 1.3.2): final {event.final} "
                                 f"{'<=' if event.passed else '>'} morale {event.morale}", {"unit": event.unit, "passed": event.passed})
    if isinstance(event, Marked):
        return Shown("marked", f"{event.side}: {', '.join(event.units)} {MARK_WORDS.get(event.mark, 'marked ' + event.mark)}",
                     {"units": list(event.units), "mark": event.mark})
    if isinstance(event, FireGroupDeclared):
        return Shown("fire_group", f"{event.side}: fire group {', '.join(event.firers)} forming to fire at {_where(event.at, event.at_in)} "
                                   f"({MODE_NAMES.get(event.mode, event.mode)}, A7.5)", {"firers": list(event.firers)})
    if isinstance(event, FireGroupDropped):
        return Shown("fire_group_dropped", f"{event.side} drops the fire group it was forming")
    if isinstance(event, UnitHit):
        if event.private_to is not None and not viewer.sees_secrets_of(event.private_to):
            return None
        change = _CHANGES.get(event.change, event.change.replace("_", " "))
        to = f" to {event.to.replace('_', ' ')}" if event.to and event.change in ("reduced", "replaced") else ""
        # a change whose reason already says the deed ("takes its gas protection off: 1 MF ...")
        said = f"{event.why}" if event.change in _SAID_BY_WHY else f"{change}{to}: {event.why}"
        return Shown("unit", f"{event.side}: {event.unit} {said}",
                     {"unit": event.unit, "change": event.change, "to": event.to})
    if isinstance(event, WeaponChanged):
        return Shown("weapon", f"{event.side}: {event.weapon} {event.status.replace('_', ' ')}: {event.why}",
                     {"weapon": event.weapon, "status": event.status})
    if isinstance(event, FormationChanged):
        return Shown("formation", f"{event.side}: casualties make {event.formation} a {event.to.replace('_', '-')} (ASLGW 1.1)")
    if isinstance(event, FireConsidered):
        if not viewer.sees_secrets_of(event.side):
            if event.public:
                return Shown("fire_policy", f"{event.side}'s fire policy {'; '.join(event.public)}", {"side": event.side})
            return None
        return Shown("fire_policy", f"{event.side}'s fire policy: {event.why}", {"candidates": list(event.candidates)})
    if isinstance(event, ResidualPlaced):
        return Shown("residual", f"Residual FP {event.fp} stays in {_where(event.at, event.at_in)} for the MPh (A8.2)",
                     {"at": event.at, "fp": event.fp})
    if isinstance(event, SniperStruck):
        eff = {"casualty_reduction": "a casualty", "pin": "a pin", "none": "no effect"}.get(event.effect, event.effect)
        return Shown("sniper", f"{event.side}'s sniper strikes {event.unit}: dr {event.dr}, {eff} (A14)",
                     {"unit": event.unit, "dr": event.dr, "effect": event.effect})
    if isinstance(event, RallyResolved):
        how = " (self-rally, A10.61)" if event.self_rally else ""
        said = {"rallied": "passes its rally attempt", "failed": "fails to rally",
                "casualty_reduction": "rolls an original 12 on its rally attempt: casualty reduction"}
        return Shown("rally", f"{event.side}: {event.unit}{how} {said.get(event.outcome, event.outcome.replace('_', ' '))} (A10.6)",
                     {"unit": event.unit, "outcome": event.outcome})
    if isinstance(event, Routed):
        how = "Low Crawls" if event.low_crawl else "routs"
        return Shown("rout", f"{event.side}: {event.unit} {how} to {_where(event.to, event.to_in)}"
                             f"{' via ' + ', '.join(event.path[:-1]) if len(event.path) > 1 else ''} (A10.5)",
                     {"unit": event.unit, "to": event.to, "path": list(event.path)})
    if isinstance(event, CloseCombatResolved):
        return Shown("close_combat", f"Close combat in {event.at}{' (dugout)' if event.area == 'dugout' else ''}: "
                                     + "; ".join(event.lines), {"at": event.at, "area": event.area, "lines": list(event.lines)})
    if isinstance(event, MeleeChanged):
        return Shown("melee", f"{event.at}{' (dugout)' if event.area == 'dugout' else ''} "
                              f"{'is locked in Melee (A11.15)' if event.locked else 'is no longer in Melee'}")
    if isinstance(event, Withdrew):
        verb = "withdraws" if len(event.units) == 1 else "withdraw"
        return Shown("withdrew", f"{event.side}: {', '.join(event.units)} {verb} from the Melee in {event.at} to "
                                 f"{_where(event.to, event.to_in)} (A11.2)")
    if isinstance(event, ConcealmentGained):
        return Shown("concealment_gained", f"{event.side}: {', '.join(event.units)} at {_where(event.at, event.at_in)} "
                                           f"{'gains' if len(event.units) == 1 else 'gain'} concealment (A12.12)", {"units": list(event.units), "at": event.at})
    if isinstance(event, GasReleased):
        last = f", until the end of turn {event.until_turn}" if event.until_turn else ""
        return Shown("gas", f"{event.side} releases gas ({', '.join(event.agents)}) over {', '.join(event.hexes)}{last} (ASLGW 1.9)",
                     {"agents": list(event.agents), "hexes": list(event.hexes)})
    if isinstance(event, ChargeDeclared):
        return Shown("bayonet_charge", f"{event.side}: Bayonet Charge of {', '.join(event.units)} towards "
                                       f"{DIRECTIONS[event.direction % 6]} ({event.mf:g} MF each, ASLGW 1.5, A25.231)",
                     {"units": list(event.units), "direction": event.direction})
    if isinstance(event, ChargeStepped):
        return Shown("charge_step", f"{event.side}: {event.unit} will enter {_where(event.to, event.to_in)} ({event.mf:g} MF)")
    if isinstance(event, ChargeImpulse):
        ended = "; ".join(f"{u}: {why}" for u, why in event.ended)
        moves = ", ".join(f"{m.unit} -> {_where(m.to, m.to_in)} ({m.mf:g} MF)" for m in event.moves)
        return Shown("charge_impulse", f"{event.side}: BCh impulse" + (f": {moves}" if moves else "") + " ends"
                     + (f"; charge over for {ended}" if ended else "")
                     + ("; the charge is over" if event.over else "") + " (A25.231-A25.235)")
    return None


def _combat_action_view(state: AslgwState, action: Record, viewer: Viewer) -> Shown | None:
    """How a fire or close combat action reads in a legal list (None: not one)."""
    if isinstance(action, Fire):
        return Shown("fire", f"{MODE_NAMES.get(action.mode, action.mode)}: {', '.join(action.firers)} at "
                             f"{_where(action.at, action.at_in)}")
    if isinstance(action, FireGroupAdd):
        mode = MODE_NAMES.get(action.mode, action.mode)
        plan = state.combat.group
        if plan is None:
            return Shown("fire_group", f"{mode}: form a fire group at {_where(action.at, action.at_in)}, {action.firers[0]} first, "
                                       "then add the firers in its Location or ADJACENT (A7.5)")
        added = ", ".join(sorted(set(action.firers) - set(plan.firers)))
        return Shown("fire_group", f"{mode}: add {added} to the fire group {', '.join(plan.firers)} at "
                                   f"{_where(action.at, action.at_in)} (A7.5)")
    if isinstance(action, FireGroupDrop):
        return Shown("drop_fire_group", "Drop the fire group being formed (nothing fires)")
    if isinstance(action, ReleaseGas):
        return Shown("release_gas", f"{action.side}: release gas attack {action.index + 1} (ASLGW 1.9)")
    if isinstance(action, RemoveGasMask):
        return Shown("remove_gas_protection", f"Remove {action.unit}'s gas protection: 1 MF (ASLGW 1.9.16)")
    if isinstance(action, BayonetCharge):
        return Shown("bayonet_charge", f"Bayonet Charge: {', '.join(action.units)} towards {DIRECTIONS[action.direction % 6]} (ASLGW 1.5)")
    if isinstance(action, ChargeStep):
        return Shown("charge_step", f"BCh: {action.unit} -> {_where(action.to, action.to_in)}")
    if isinstance(action, EndChargeImpulse):
        return Shown("end_charge_impulse", "End the BCh impulse (A25.231)")
    if isinstance(action, Rally):
        return Shown("rally", f"Rally {action.unit} (A10.6)")
    if isinstance(action, Repair):
        return Shown("repair", f"Repair {action.weapon} (A9.72)")
    if isinstance(action, Rout):
        how = "Low Crawl" if action.low_crawl else "Rout"
        return Shown("rout", f"{how} {action.unit} -> {_where(action.to, action.to_in)} (A10.5)")
    if isinstance(action, CloseCombat):
        return Shown("close_combat", f"Close combat in {action.at}{' (dugout)' if action.area == 'dugout' else ''} (A11, ASLGW 1.10)")
    if isinstance(action, Withdraw):
        return Shown("withdraw", f"Withdraw {', '.join(action.units)} from the Melee in {action.at} to {_where(action.to, action.to_in)} (A11.2)")
    return None


def _combat_unit_extra(state: AslgwState, uid: str, own: bool) -> dict[str, Any]:
    """The fire and close combat fields of one unit in ``show`` (``own``: the viewer
    knows the unit's side's secrets)."""
    up = state.unit_play(uid)
    mk = state.combat.mark(uid)
    out: dict[str, Any] = {"pinned": up.pinned, "dm": up.dm, "fire": mk.fire, "wounded": mk.wounded, "bch": mk.bch,
                           "malfunctioned": mk.malfunctioned}
    if own:
        out.update(gas_protection=mk.gas_worn, labor=mk.labor)
    return out


def _combat_state_extra(state: AslgwState, viewer: Viewer) -> dict[str, Any]:
    """The fire and close combat parts of ``show``: Residual FP, Melees, gas clouds, the
    units that just moved (the defender may fire at them), a BCh in progress."""
    c = state.combat
    out: dict[str, Any] = {
        "residual": [{"hex": h, "in": p, "fp": fp} for (h, p), fp in sorted(c.residual.items())],
        "melee": [{"hex": h, "area": a} for h, a in sorted(c.melee)],
        "gas": [{"side": g.side, "agents": list(g.agents), "hexes": list(g.hexes), "until_turn": g.until_turn} for g in c.gas],
        # the gas attacks the card's SSR gives each side (ASLGW 1.9): public, as the card is
        "gas_attacks": [{"side": r.side, "index": r.index, "agents": list(r.agents), "hexes": [h.label for h in r.hexes],
                         "turn": r.turn, "released": (r.side, r.index) in c.released}
                        for side in state.settings.order for r in gas_releases(state.scenario, side)],
    }
    if c.group is not None:  # a fire group being formed (A7.5)
        out["fire_group"] = {"side": c.group.side, "firers": list(c.group.firers), "at": c.group.at, "in": c.group.at_in,
                             "mode": c.group.mode}
    w = c.window
    if w is not None:
        out["fire_window"] = {"side": w.side, "targets": [{"hex": m.hex, "in": m.pos} for m in w.targets]}
    if c.charge is not None:
        out["charge"] = {"side": c.charge.side, "direction": DIRECTIONS[c.charge.direction % 6],
                         "units": [{"id": m.unit, "mf_left": m.mf_left, "active": m.active, "ended": m.ended} for m in c.charge.movers]}
    return out
