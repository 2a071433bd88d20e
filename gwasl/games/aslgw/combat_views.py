"""What each viewer sees of fire and close combat (issue 12): log lines, the wording
of legal actions, and the additions to ``gwasl game show --json``
(docs/format/aslgw.md).  Built by whitelist, like :mod:`gwasl.games.aslgw.views`.
"""

from __future__ import annotations

from typing import Any

from gwasl.engine.game import Shown, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw.combat_records import (
    BayonetCharge,
    ChargeDeclared,
    ChargeImpulse,
    ChargeStep,
    ChargeStepped,
    CloseCombat,
    CloseCombatResolved,
    ConcealmentGained,
    EndChargeImpulse,
    Fire,
    FireConsidered,
    FireNtc,
    FireResolved,
    FormationChanged,
    GasReleased,
    Marked,
    MeleeChanged,
    Rally,
    RallyResolved,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    ResidualPlaced,
    Rout,
    Routed,
    SniperStruck,
    UnitHit,
    WeaponChanged,
    Withdraw,
    Withdrew,
)
from gwasl.games.aslgw.state import AslgwState

__all__ = ["action_view", "event_view", "state_extra", "unit_extra"]

MODE_NAMES = {
    "prep": "Prep Fire", "first": "Defensive First Fire", "subsequent": "Subsequent First Fire",
    "fpf": "Final Protective Fire", "final": "Final Fire", "advancing": "Advancing Fire", "residual": "Residual FP",
}
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


def _where(h: str, pos: str) -> str:
    return h if pos == "ground" else f"{h} ({pos.replace('_', ' ')})"


_CHANGES = {
    "broken": "breaks (DM)", "pinned": "is pinned", "reduced": "is casualty reduced", "wounded": "is wounded",
    "eliminated": "is eliminated", "replaced": "is replaced (ELR)", "rallied": "rallies", "dm_off": "is no longer DM",
    "dm_on": "is DM", "left_platoon": "leaves its platoon", "gas_protected": "has its gas protection on",
    "labor": "keeps trying to put its protection on (labor)", "labor_off": "stops trying", "cx": "is CX",
    "bch": "is a BCh unit",
}


def event_view(event: Record, viewer: Viewer) -> Shown | None:
    """What ``viewer`` reads of a fire or close combat event (None: not one, or nothing)."""
    if isinstance(event, FireResolved):
        who = ", ".join(event.firers) if event.firers else "Residual FP"
        text = (f"{event.side}: {MODE_NAMES.get(event.mode, event.mode)} of {who} at {_where(event.at, event.at_in)}: "
                f"{event.fp} FP, DRM {event.drm:+d}, final DR {event.final}: {'; '.join(event.results)}")
        extra = []
        if event.rof_kept:
            extra.append(f"{', '.join(event.rof_kept)} keep(s) its rate of fire (A7.35)")
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
        return Shown("marked", f"{event.side}: {', '.join(event.units)} marked {event.mark} fire (A8.1)",
                     {"units": list(event.units), "mark": event.mark})
    if isinstance(event, UnitHit):
        if event.private_to is not None and not viewer.sees_secrets_of(event.private_to):
            return None
        change = _CHANGES.get(event.change, event.change)
        to = f" to {event.to.replace('_', ' ')}" if event.to and event.change in ("reduced", "replaced") else ""
        return Shown("unit", f"{event.side}: {event.unit} {change}{to}: {event.why}",
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
        how = " (self-rally)" if event.self_rally else ""
        return Shown("rally", f"{event.side}: {event.unit}{how}: {event.outcome.replace('_', ' ')} (A10.6)",
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
        return Shown("withdrew", f"{event.side}: {', '.join(event.units)} withdraw from the Melee in {event.at} to "
                                 f"{_where(event.to, event.to_in)} (A11.2)")
    if isinstance(event, ConcealmentGained):
        return Shown("concealment_gained", f"{event.side}: {', '.join(event.units)} at {_where(event.at, event.at_in)} "
                                           "gain concealment (A12.12)", {"units": list(event.units), "at": event.at})
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


def action_view(state: AslgwState, action: Record, viewer: Viewer) -> Shown | None:
    """How a fire or close combat action reads in a legal list (None: not one)."""
    if isinstance(action, Fire):
        return Shown("fire", f"{MODE_NAMES.get(action.mode, action.mode)}: {', '.join(action.firers)} at "
                             f"{_where(action.at, action.at_in)}")
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


def unit_extra(state: AslgwState, uid: str, own: bool) -> dict[str, Any]:
    """The fire and close combat fields of one unit in ``show`` (``own``: the viewer
    knows the unit's side's secrets)."""
    up = state.unit_play(uid)
    mk = state.combat.mark(uid)
    out: dict[str, Any] = {"pinned": up.pinned, "dm": up.dm, "fire": mk.fire, "wounded": mk.wounded, "bch": mk.bch,
                           "malfunctioned": mk.malfunctioned}
    if own:
        out.update(gas_protection=mk.gas_worn, labor=mk.labor)
    return out


def state_extra(state: AslgwState, viewer: Viewer) -> dict[str, Any]:
    """The fire and close combat parts of ``show``: Residual FP, Melees, gas clouds, the
    units that just moved (the defender may fire at them), a BCh in progress."""
    c = state.combat
    out: dict[str, Any] = {
        "residual": [{"hex": h, "in": p, "fp": fp} for (h, p), fp in sorted(c.residual.items())],
        "melee": [{"hex": h, "area": a} for h, a in sorted(c.melee)],
        "gas": [{"side": g.side, "agents": list(g.agents), "hexes": list(g.hexes), "until_turn": g.until_turn} for g in c.gas],
    }
    w = c.window
    if w is not None:
        out["fire_window"] = {"side": w.side, "targets": [{"hex": m.hex, "in": m.pos} for m in w.targets]}
    if c.charge is not None:
        out["charge"] = {"side": c.charge.side, "direction": DIRECTIONS[c.charge.direction % 6],
                         "units": [{"id": m.unit, "mf_left": m.mf_left, "active": m.active, "ended": m.ended} for m in c.charge.movers]}
    return out
