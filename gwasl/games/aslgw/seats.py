"""Each side at its own seat: who decides what when gwasl plays a side (issue 25).

In O'Leary's solitaire play the person at the desk decides for both sides, so one
legal list holds the choices of both: the defender's Defensive First Fire comes with
the mover's actions (A8.1), both sides' rally attempts with the phasing side's RPh
(A10.6), both sides' routs with its RtPh (A10.5).  When gwasl plays a side
(``gwasl game new --opponent SIDE``; both sides in batch play), each side decides for
its own units only, and a choice of the side that is not phasing comes first, as
its own step (a *duty*):

* MPh: the defender may fire at the units that just moved (A8.1) -- or pass;
* RPh: the side not phasing attempts its rallies and repairs (A10.6, A9.72) -- or passes;
* RtPh: its broken units that must rout, rout (A10.5).

:func:`acting` is then the side to act (the game's status), :func:`legal` the duty's
actions or the acting side's own; a :class:`~gwasl.games.aslgw.records.Pass` lets the
duty go by.  Without a side played by gwasl nothing here changes anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.events import Decided
from gwasl.engine.game import Shown, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw.actions import dispatch, turn
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.actions import rally as ry
from gwasl.games.aslgw.actions import rout as rt
from gwasl.games.aslgw.knowledge import is_hidden
from gwasl.games.aslgw.records import Fire, Pass, Passed, Rally, ReasonShown, Repair, Rout, Withdraw
from gwasl.games.aslgw.state import AslgwState
from gwasl.model.phases import Phase
from gwasl.model.scenario import UnitKind

__all__ = ["FIRST_FIRE", "RALLY", "ROUT", "REDUCERS", "acting", "apply_pass", "duty", "legal", "owner", "pass_view",
           "passed_view"]

FIRST_FIRE, RALLY, ROUT = "first_fire", "rally", "rout"
_DUTY_WORDS = {FIRST_FIRE: "Defensive First Fire at the units that just moved (A8.1)",
               RALLY: "more rally or repair attempts this RPh (A10.6, A9.72)",
               ROUT: "rout of its broken units (A10.5)"}

#: the last state asked and its duty (status is asked often); one tuple, replaced whole, so a
#: window thinking for gwasl in another thread never reads a state with another's duty
_cache: list[tuple[Any, Any]] = [(None, None)]


def _own(viewer_side: str) -> Viewer:
    return Viewer(viewer_side, frozenset({viewer_side}))


def unit_side(state: AslgwState, uid: str) -> str | None:
    """The side of a unit or weapon (ids are public: each side's counters are its own)."""
    try:
        return state.scenario.unit(uid).side
    except KeyError:
        return None


def owner(state: AslgwState, action: Record) -> str | None:
    """The side whose units an action concerns, where the action names them: a rally,
    a repair, a rout (A10.5-A10.6), fire (its firing side, A8.1) or a withdrawal."""
    if isinstance(action, (Rally, Rout)):
        return unit_side(state, action.unit)
    if isinstance(action, Repair):
        return unit_side(state, action.weapon)
    if isinstance(action, Fire):
        return fr.firing_side(state)
    if isinstance(action, Withdraw):
        return state.phasing
    if isinstance(action, Pass):
        return action.side
    return None


def duty(state: AslgwState) -> tuple[str, str] | None:
    """The decision of the side not acting by the turn that comes first, as ``(side, duty)``;
    ``None`` when no side is played by gwasl, or there is none.

    The duties are the choices the rules give the side not phasing: Defensive First Fire at units that just
    moved (A8.1), its rallies and repairs in the RPh (A10.6, A9.72), its routs in the RtPh (A10.5)."""
    if not state.opponents or state.over or state.minefield is not None or state.windows:
        return None
    last = _cache[0]
    if last[0] is state:
        return last[1]  # type: ignore[no-any-return]
    out = _duty(state)
    _cache[0] = (state, out)
    return out


def _duty(state: AslgwState) -> tuple[str, str] | None:
    side = turn.to_act(state)
    if side is None:
        return None
    other = state.settings.other(side)
    seat = _own(other)
    if state.phase is Phase.MPh:
        w = state.combat.window
        if w is not None and w.side == other and fr.fire_options(state, seat):
            return other, FIRST_FIRE
    elif state.phase is Phase.RPh:
        if any(owner(state, a) == other for a in ry.options(state, seat)):
            return other, RALLY
    elif state.phase is Phase.RtPh:
        sc = state.scenario
        if any(sc.unit(u).side == other for u in rt.pending(state)):
            return other, ROUT
    return None


def acting(state: AslgwState) -> str | None:
    """The side whose decision the game waits for: a duty's side first, else the turn's (A3)."""
    d = duty(state)
    return d[0] if d is not None else turn.to_act(state)


def legal(state: AslgwState, viewer: Viewer) -> list[Record]:
    """The legal actions: in a duty, that side's own choices of the duty and a pass (none
    for a rout: a broken unit that must rout, routs, and only those: no voluntary rout for
    the side not phasing); otherwise the acting side's list
    without the choices that belong to the other side's units. (A8.1, A10.5, A10.6: each side decides for its own units.)"""
    base = dispatch.legal(state, viewer)
    if not state.opponents:
        return base
    d = duty(state)
    if d is None:
        side = turn.to_act(state)
        return [a for a in base if owner(state, a) in (None, side)]
    side, what = d
    if what == FIRST_FIRE:
        return [*(a for a in base if isinstance(a, Fire)), Pass(side, FIRST_FIRE)]
    if what == RALLY:
        return [*(a for a in base if isinstance(a, (Rally, Repair)) and owner(state, a) == side), Pass(side, RALLY)]
    # only the units that must rout: the side not phasing has no voluntary rout (A10.5; docs/rules-notes.md)
    must = set(rt.pending(state))
    return [a for a in base if isinstance(a, Rout) and owner(state, a) == side and a.unit in must]


def why_not(state: AslgwState, action: Record, viewer: Viewer) -> str | None:
    """Why an action is not legal because it is another side's decision now. (A8.1, A10.5, A10.6, A9.72.)"""
    if not state.opponents:
        return None
    d = duty(state)
    if d is not None and owner(state, action) != d[0]:
        return f"{d[0]} decides first: {_DUTY_WORDS[d[1]]}"
    side = owner(state, action)
    if side is not None and side != acting(state):
        return f"that is {side}'s decision: each side decides for its own units (gwasl plays {', '.join(sorted(state.opponents))})"
    return None


def apply_pass(state: AslgwState, action: Pass, dice: GameDice) -> list[Record]:
    """The duty goes by: :class:`Passed`."""
    return [Passed(action.side, action.duty)]


def _passed(state: AslgwState, ev: Passed) -> AslgwState:
    c = state.combat
    if ev.duty == FIRST_FIRE:
        return replace(state, combat=replace(c, window=None))
    if ev.duty == RALLY:
        sc = state.scenario
        mine = [u for u in sc.units if u.side == ev.side]
        broken = frozenset(u.id for u in mine if u.broken)
        weapons = frozenset(u.id for u in mine if u.kind is UnitKind.SUPPORT_WEAPON)
        return replace(state, combat=replace(c, rallied=c.rallied | broken, repaired=c.repaired | weapons))
    return state


def _decided(state: AslgwState, ev: Decided) -> AslgwState:
    """A private decision about units the enemy cannot see (its details name them, ``about``)
    waits for their reveal (issue 25 item 4: private only until revealed)."""
    about = ev.details.get("about") if ev.private_to is not None and not ev.public else None
    if not about:
        return state
    return replace(state, private_reasons=(*state.private_reasons, (ev.side, tuple(about), ev.why)))


def _reason_shown(state: AslgwState, ev: ReasonShown) -> AslgwState:
    left = tuple(r for r in state.private_reasons if r != (ev.side, ev.units, ev.why))
    return replace(state, private_reasons=left)


def reasons_shown(state: AslgwState, events: Sequence[Record], reduce: Callable[[AslgwState, Record], AslgwState]) -> list[Record]:
    """The private reasons whose units are all revealed, before or by ``events`` (an action's
    events on ``state``): each a :class:`ReasonShown` every side reads.  A unit no longer on
    the map counts as revealed (its fate is public).  A12.15, O'Leary 3.4: once a hidden
    unit is revealed what it is and where it went are known, so the reasons kept for it are too."""
    if not state.private_reasons:
        return []
    after = state
    if any(getattr(ev, "reveals", False) for ev in events):
        for ev in events:
            after = reduce(after, ev)
    return [ReasonShown(side, ids, why) for side, ids, why in state.private_reasons
            if not any(is_hidden(after.fog, i) for i in ids)]


def reason_view(ev: ReasonShown, viewer: Viewer) -> Shown | None:
    """Every side but the decider's own (which read it when it was made) reads the why now
    (A12.15, O'Leary 3.4: the units it names are revealed)."""
    if viewer.sees_secrets_of(ev.side):
        return None
    return Shown("reason_shown", f"{ev.side}: {ev.why} (its reason, kept until {', '.join(ev.units)} "
                                 f"{'was' if len(ev.units) == 1 else 'were'} revealed)", {"side": ev.side, "units": list(ev.units)})


#: the state after each event of the seats
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {Passed: _passed, Decided: _decided,
                                                                             ReasonShown: _reason_shown}


def pass_view(action: Pass) -> Shown:
    return Shown("pass", f"Pass: no {_DUTY_WORDS.get(action.duty, action.duty)}")


def passed_view(ev: Passed, viewer: Viewer) -> Shown | None:
    """A side passing is its own business while it keeps secrets: that it had a choice
    at all would tell the enemy it has units there."""
    return Shown("passed", f"{ev.side} passes: no {_DUTY_WORDS.get(ev.duty, ev.duty)}", {"side": ev.side}) \
        if viewer.sees_secrets_of(ev.side) else None
