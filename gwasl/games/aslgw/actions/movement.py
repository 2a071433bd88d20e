"""Movement in play (A4, ASLGW 1.3-1.4, 2.1-2.2): which steps a group may take,
the movement actions of the side to act (steps, Double Time, orders to "?" piles,
platoon impulses, exits), what a step does, and the reduce of movement's events.

The checks run on a scenario as the viewer knows it
(:func:`~gwasl.games.aslgw.knowledge.known_scenario`) when the legal actions
are listed, and on the truth when gwasl resolves an order given blind: an
order that the truth makes impossible reveals what stood in its way.  Every
rule comes from :mod:`gwasl.rules` (terrain and deep trench costs,
stacking, MF allowances, command, task checks, concealment, garance); this
module only puts them in the order of play: MF allowances (A4.1; ASLGW 1.3,
1.3.4, 1.8), deep trench costs (ASLGW 2.1.2, 2.1.3), stacking (A5.1; ASLGW
2.1.4, 2.2.1), the No Leader NTC from each side's command status (ASLGW 1.3.2,
command radius by date 1.3.1, 1.3.11, 1.3.12, 1.3.13, heroes 1.3.21, own trenches
1.3.22), platoons by impulses while combat groups move like WW2 squads (ASLGW
1.4.1, 1.2.1), and concealment lost in the open, at once in garance trousers
unless 1.7.3 exempts them (A12.14; ASLGW 1.7, 1.7.2, 1.7.3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Outcome, Viewer
from gwasl.engine.record import Record
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw.actions import fire
from gwasl.games.aslgw.actions.memo import MISSING, StateMemo
from gwasl.games.aslgw.knowledge import is_hidden, known_enemy_ranges, known_scenario, piles, private_dice, secret_roll
from gwasl.games.aslgw.records import (
    ConcealmentLost,
    Detach,
    Detached,
    DoubleTime,
    DoubleTimed,
    DummyRemoved,
    EndImpulse,
    EndPlatoon,
    Exit,
    Exited,
    HipRevealed,
    ImpulseEnded,
    ImpulseStep,
    MinefieldEntered,
    Move,
    Moved,
    MovePile,
    NtcTaken,
    PlatoonDone,
    Resolved,
    SecretRoll,
    Stopped,
)
from gwasl.games.aslgw.state import AslgwState, Impulse, ImpulseMember, UnitPlay, ro
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.phases import Phase
from gwasl.model.scenario import FormationKind, Position, Scenario, Unit, UnitKind
from gwasl.rules.command import CommandReport, command_status, no_leader_ntc
from gwasl.rules.concealment import in_open_ground, moving_concealment_loss
from gwasl.rules.fog.state import ConcealStack, FogState, FogStatus
from gwasl.rules.fog.status import move_dummy_stack, move_units
from gwasl.rules.morale import double_time_mf, normal_task_check, ntc_pass_chance, unit_morale
from gwasl.rules.movement import Step, StepError, cached_step_cost, ends_movement, movement_table, steps_from
from gwasl.rules.organisation import (
    free_squad_ntc,
    is_entrenched,
    is_leaderless,
    leadership_applies,
    mf_allowance,
    moves_by_impulse,
    setup_formation_gaps,
    uses_platoon_movement,
)
from gwasl.rules.platoon_movement import ImpulseResult, MemberStep, check_impulse
from gwasl.rules.stacking import location_key, stacking_problem
from gwasl.rules.trenches import LocationError, MoveCost, enemies_in_the_way
from gwasl.rules.weapons import sw_holder

__all__ = [
    "hidden_enemy_in_the_way",
    "APPLY",
    "MOVEMENT",
    "MOVES",
    "ODDS",
    "REDUCERS",
    "Group",
    "NtcNeed",
    "allowance",
    "carried",
    "group",
    "group_problem",
    "impulse_check",
    "legal",
    "platoons_at_mph",
    "ntc_need",
    "resolve_step",
    "unit_blocker",
    "why_not",
]

_MMC = (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW)
_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)
MOVE_MODES = {Phase.MPh: ("normal", "assault"), Phase.APh: ("advance",)}


@dataclass(frozen=True, slots=True)
class Group:
    """What moves: real units (with the support weapons they carry) and dummy stacks of one side."""

    side: str
    units: tuple[Unit, ...]
    dummies: tuple[ConcealStack, ...]
    ids: tuple[str, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", tuple(u.id for u in self.units) + tuple(d.id for d in self.dummies))

    def location(self) -> tuple[Hex, Position] | None:
        locs = {(u.hex, u.position) for u in self.units} | {(d.hex, d.position) for d in self.dummies}
        return next(iter(locs)) if len(locs) == 1 else None


def carried(sc: Scenario, units: Iterable[Unit]) -> tuple[Unit, ...]:
    """Support weapons held by ``units`` (:func:`gwasl.rules.weapons.sw_holder`): they go where their holder goes.

    (A4.4: a support weapon is carried by its possessor.)"""
    ids = {u.id for u in units}
    locs = {(u.hex, u.position) for u in units}
    out = []
    for sw in sc.units:
        if sw.kind is UnitKind.SUPPORT_WEAPON and sw.id not in ids and (sw.hex, sw.position) in locs:
            h = sw_holder(sc, sw)
            if h is not None and h.id in ids:
                out.append(sw)
    return tuple(out)


# ---------------------------------------------------------------------------
# Allowances, NTC
# ---------------------------------------------------------------------------
def _in_formation(state: AslgwState, sc: Scenario, u: Unit) -> bool:
    if u.platoon is None or u.kind not in _SQUADS or state.unit_play(u.id).detached:
        return False
    try:
        f = sc.formation(u.platoon)
    except KeyError:
        return False
    if f.kind is FormationKind.COMBAT_GROUP or _on_scenario(sc, ("leaderless", f.id), lambda: is_leaderless(sc, f)):
        return False
    if u.platoon in state.platoons:
        return True
    return u.id not in _on_scenario(sc, ("gaps", f.id), lambda: setup_formation_gaps(sc, f.id))


#: facts of a scenario (an immutable value) asked for every group of every list: its Good
#: Order leaders, whether a platoon is leaderless and which of its squads set up out of formation
_SCENARIO_FACTS = StateMemo(512)


def _on_scenario(sc: Scenario, key: tuple[str, ...], work: Callable[[], Any]) -> Any:
    """``work()``, a pure function of ``sc`` named by ``key``, kept for ``sc``."""
    got = _SCENARIO_FACTS.get(sc, key)
    if got is MISSING:
        got = work()
        _SCENARIO_FACTS.put(sc, key, got)
    return got


def _good_order_leaders(sc: Scenario) -> frozenset[str]:
    return frozenset(o.id for o in sc.units if o.kind is UnitKind.LEADER and not o.broken)


def base_allowance(state: AslgwState, sc: Scenario, u: Unit, group_ids: Iterable[str]) -> float:
    """A unit's MF for this phase before Double Time (A4.1; ASLGW 1.3, 1.3.4, 1.4.14, 1.8):
    leaders and heroes 6; squads in formation of a platoon with its leader 6, or
    moving with a leader (A4.12); trench armour -1."""
    leaders = _on_scenario(sc, ("leaders",), lambda: _good_order_leaders(sc))
    with_leader = any(i in leaders and i != u.id for i in set(group_ids))
    in_form = _in_formation(state, sc, u)
    return _mf_total(u.kind, in_form, with_leader, u.trench_armour)


@lru_cache(maxsize=64)
def _mf_total(kind: UnitKind, in_form: bool, with_leader: bool, armour: bool) -> float:
    return float(mf_allowance(kind, platoon_has_leader=in_form, in_platoon_formation=in_form,
                              stacked_with_leader=with_leader, trench_armour=armour).total)


def allowance(state: AslgwState, sc: Scenario, u: Unit, group_ids: Iterable[str]) -> float:
    """The MF a unit may spend this phase: fixed when it starts moving (or declares Double Time).

    ASLGW 1.3 adds the leader's MF to a platoon in formation; A4.5 Double Time."""
    up = state.unit_play(u.id)
    if up.allowance is not None:
        return up.allowance
    return base_allowance(state, sc, u, group_ids)


@dataclass(frozen=True, slots=True)
class NtcNeed:
    rule: str
    drm: int
    morale: int
    reason: str


def morale_of(sc: Scenario, u: Unit) -> int:
    """A unit's morale for a task check (:func:`gwasl.rules.morale.unit_morale`: its ``morale``
    field, the ASLGW 1.11 table for squads, the firers' table for crews)."""
    return unit_morale(sc, u)[0]


def ntc_need(state: AslgwState, sc: Scenario, u: Unit, phase: Phase, command: CommandReport | None = None) -> NtcNeed | None:
    """The NTC a unit must pass before it moves now, or None (ASLGW 1.3.2, 1.4.13-1.4.15).

    Out of Command (no leader in radius, no hero with it, not in its own
    trenches): an NTC to move in the MPh and APh (1.3.2).  A free squad: an NTC
    to move in the MPh, +1 unless In Command (1.4.13, 1.4.14).  Once passed it
    acts normally for the rest of the player turn (1.3.2).
    """
    if u.kind not in _MMC or phase not in (Phase.MPh, Phase.APh):
        return None
    up = state.unit_play(u.id)
    if up.ntc_passed:
        return None
    report = command if command is not None else command_status(sc, u.side)
    st = report.units.get(u.id)
    if st is None:
        return None
    if up.detached and phase is Phase.MPh and u.kind in _SQUADS and not st.free:
        leader_with = any(leadership_applies(o, u) for o in sc.units)  # stacked with a Good Order leader (ASLGW 1.3)
        f = free_squad_ntc(stacked_with_leader=leader_with, in_command=st.in_command, entrenched=is_entrenched(u))
        if f.required:
            return NtcNeed(f.rule, f.drm, morale_of(sc, u), f"free squad (set free of its platoon): {f.reason}")
    if not no_leader_ntc(st, "move", phase):
        return None
    if st.free and phase is Phase.MPh:
        rule = "ASLGW 1.4.14" if st.in_command else "ASLGW 1.4.13"
        return NtcNeed(rule, st.ntc_drm, morale_of(sc, u), st.reason)
    return NtcNeed("ASLGW 1.3.2", 0, morale_of(sc, u), st.reason)


# ---------------------------------------------------------------------------
# Who may move
# ---------------------------------------------------------------------------
def impulse_member(state: AslgwState, sc: Scenario, u: Unit) -> str | None:
    """The platoon ``u`` moves with by impulses this MPh (ASLGW 1.4.1), or None."""
    if state.phase is not Phase.MPh:
        return None
    up = state.unit_play(u.id)
    for pid in state.platoons:
        if pid in state.platoons_done:
            continue
        try:
            f = sc.formation(pid)
        except KeyError:
            continue
        if u.kind is UnitKind.LEADER and f.leader == u.id:
            return pid
        if u.platoon == pid and u.kind in _SQUADS and not up.detached and not u.broken:
            return pid
    return None


def move_blocker(state: AslgwState, u: Unit) -> str | None:
    """Why the marks of fire and close combat keep ``u`` from moving now, or None (for
    :func:`unit_blocker`): Prep Fire (A3.3: a unit that fired in the PFPh does not
    move in the MPh), a BCh unit (it moves with the charge, ASLGW 1.5), a unit in
    Melee or that ended a BCh in CC (A11.15, A25.235: no advance out; a unit in
    Melee leaves only by withdrawal, A11.2)."""
    mk = state.combat.mark(u.id)
    if state.phase is Phase.MPh:
        if mk.fire == "prep":
            return f"{u.id} fired in the Prep Fire Phase: it does not move (A3.3)"
        if mk.bch:
            return f"{u.id} is a BCh unit: it moves with the charge (ASLGW 1.5)"
    melee = state.combat.melee
    if melee and state.phase in (Phase.MPh, Phase.APh) and \
            (u.hex.label, "dugout" if u.position is Position.DUGOUT else "hex") in melee:
        return f"{u.id} is locked in Melee: it leaves only by withdrawing in the CCPh (A11.15, A11.2)"
    if state.phase is Phase.APh and mk.charge_cc:
        return f"{u.id} ended its BCh in CC: it does not advance out (A25.235)"
    return None


def unit_blocker(state: AslgwState, fog: FogState, u: Unit, *, impulse: bool = False, free: bool = False) -> str | None:
    """Why ``u`` may not take a step now on its own (or, ``impulse``, within its
    platoon's impulse), or None.  ``free``: it moves as a free squad whatever its
    platoon does (an order given blind to a "?", docs/rules-notes.md).

    (A4.4, A7.8, A10, O'Leary 3.2.2; ASLGW 1.4.1 for a platoon's impulse.)"""
    if u.kind is UnitKind.SUPPORT_WEAPON:
        return f"{u.id} is a support weapon: it goes with the unit that carries it (A4.4)"
    if fog.status_of(u.id) is FogStatus.HIP:
        return f"{u.id} is HIP: it moves only by shifting (O'Leary 3.2.2)"
    if u.broken:
        return f"{u.id} is broken: it does not move in the {state.phase.value} (A10)"
    up = state.unit_play(u.id)
    if up.pinned:
        return f"{u.id} is pinned (A7.8)"
    marked = move_blocker(state, u)  # fire and close combat marks (issue 12)
    if marked:
        return marked
    if up.done:
        return f"{u.id} has finished its movement this phase (A4.3)"
    if up.ntc_failed:
        return f"{u.id} failed its NTC to move this phase (ASLGW 1.3.2)"
    if free:
        return None
    pid = impulse_member(state, fog.scenario, u)
    if impulse:
        return None if pid is not None else f"{u.id} does not move with a platoon by impulses now (ASLGW 1.4.1)"
    if pid is not None:
        return f"{u.id} moves with platoon {pid} by impulses (ASLGW 1.4.1)"
    if (state.phase is Phase.MPh and u.platoon in state.platoons and u.platoon not in state.platoons_done
            and u.kind in _SQUADS):
        return f"{u.id} is a free squad: it moves once platoon {u.platoon}'s movement is done (ASLGW 1.4.13)"
    return None


def group_problem(state: AslgwState, sc: Scenario, fog: FogState, group: Group, to: Hex, to_in: Position,
                  mode: str, *, impulse_cost: float | None = None, free: bool = False,
                  memo: dict[Any, Any] | None = None) -> tuple[MoveCost | None, str | None]:
    """The cost of a step of ``group`` to ``(to, to_in)``, or why it may not take it,
    judged on ``sc`` (the viewer's knowledge, or the truth).

    ``impulse_cost``: for a step within a platoon's impulse, the most any member
    has spent in it so far (ASLGW 1.4.1); MF are then checked against it.
    ``memo``: a dict kept while one list of actions is made (the group's own facts
    and each destination's are worked out once).

    (A4.1 MF, A4.14 no entry where known enemies stand, A4.61 and A4.7 the modes,
    A5.1 and ASLGW 2.1.4, 2.2.1 stacking, ASLGW 2.1.3 deep trenches.)
    """
    phase = state.phase
    if mode not in MOVE_MODES.get(phase, ()):
        return None, f"no {mode} movement in the {phase.value} (MPh: normal or assault, A4.61; APh: advance, A4.7)"
    memo = {} if memo is None else memo
    facts = _facts(state, sc, fog, group, impulse_cost is not None, free, memo)
    if facts.why:
        return None, facts.why
    frm, frm_in = facts.loc
    try:
        cost = cached_step_cost(sc, frm, frm_in, to, to_in)
    except (StepError, LocationError) as e:
        return None, str(e)
    why = _step_problem(state, sc, group, facts, to, to_in, cost, mode, impulse_cost, memo)
    return (None, why) if why else (cost, None)


@dataclass(frozen=True, slots=True)
class _GroupFacts:
    """What a group's steps all share (worked out once per list): why it may not move
    at all, where it stands, each unit's MF (allowance, spent, CX, Double Time), each
    dummy's MF left, whether any moved, and its units' ids."""

    why: str | None
    loc: Any
    units_left: dict[str, tuple[float, float, bool, bool]]
    dummies_left: tuple[tuple[Hex, float], ...]
    moved: bool
    unit_ids: tuple[str, ...] = ()


def _facts(state: AslgwState, sc: Scenario, fog: FogState, group: Group, impulse: bool, free: bool,
           memo: dict[Any, Any]) -> _GroupFacts:
    gkey = ("group", group.ids, impulse, free)
    facts = memo.get(gkey)
    if facts is None:
        facts = memo[gkey] = _group_facts(state, sc, fog, group, impulse, free)
    return facts


def _step_problem(state: AslgwState, sc: Scenario, group: Group, facts: _GroupFacts, to: Hex, to_in: Position,
                  cost: MoveCost, mode: str, impulse_cost: float | None, memo: dict[Any, Any]) -> str | None:
    """Why ``group`` (able to move, ``facts``) may not take the step to ``(to, to_in)`` that
    costs ``cost`` in ``mode``, or None: :func:`group_problem` once the step's cost is known
    (A4.1, A4.14, A4.61, A4.7; A5.1, ASLGW 2.1.3, 2.1.4, 2.2.1)."""
    return _mf_problem(facts, cost, mode, impulse_cost) or _entry_problem(state, sc, group, facts, to, to_in, memo)


def _mf_problem(facts: _GroupFacts, cost: MoveCost, mode: str, impulse_cost: float | None) -> str | None:
    """The mode and MF checks of a step (A4.1 MF, A4.61 Assault Movement, A4.7 advance, A4.72 CX,
    ASLGW 2.1.3 Double Time out of a deep trench, A12.1 a dummy stack's MF)."""
    mt = movement_table()
    if mode in ("assault", "advance") and facts.moved:
        rule = mt.rules["assault_move"] if mode == "assault" else mt.rules["advance"]
        return f"only a unit that has not moved this phase may {mode} ({rule})"
    need = cost.mf if impulse_cost is None else max(cost.mf, impulse_cost)
    for uid, (total, spent, cx, dt) in facts.units_left.items():
        if mode == "assault" and dt:
            return f"{uid} is Double Timing: it may not use Assault Movement ({mt.rules['assault_move']})"
        if mode == "advance":
            if need >= total and cx:
                return f"{uid} is CX: it may not advance into a location that costs all its MF ({mt.rules['advance']})"
            continue
        if spent + need > total:
            return f"{uid} has {total - spent:g} MF left; the step costs {need:g} ({'; '.join(cost.reasons)}; A4.1)"
        if cost.cx_at_end_of_mph and dt:
            return f"{uid} is Double Timing: it may not leave a deep trench without a ladder this MPh (ASLGW 2.1.3)"
    if mode != "advance":
        for where, left in facts.dummies_left:
            if cost.mf > left:
                return f"the dummy stack at {where} has {left:g} MF left; the step costs {cost.mf:g} ({mt.rules['concealed_pile_mf']})"
    return None


def _entry_problem(state: AslgwState, sc: Scenario, group: Group, facts: _GroupFacts, to: Hex, to_in: Position,
                   memo: dict[Any, Any]) -> str | None:
    """Whether ``group`` may enter ``(to, to_in)`` whatever the mode and MF: known enemy units
    there (A4.14, in the MPh) and the stacking limits (A5.1; ASLGW 2.1.4, 2.2.1).  The
    destination's known enemies and the side's units there are kept in ``memo``, and so is
    the stacking answer (it depends only on who would stand there)."""
    side = group.side
    dkey = ("dest", side, to, to_in)
    dest = memo.get(dkey)
    if dest is None:
        key = location_key(to_in)
        # the side's units (no support weapons) by stacking location, in the scenario's order
        ikey = ("there", side)
        index = memo.get(ikey)
        if index is None:
            index = memo[ikey] = {}
            for u in sc.units:
                if u.side == side and u.kind is not UnitKind.SUPPORT_WEAPON:
                    index.setdefault((u.hex, location_key(u.position)), []).append(u)
        # only a hex holding some unit of another side can hold enemies in the way (the step
        # exists, so its location does: enemies_in_the_way has nothing else to say)
        xkey = ("others", side)
        others = memo.get(xkey)
        if others is None:
            others = memo[xkey] = {u.hex for u in sc.units if u.side != side}
        enemies = sorted(e.id for e in enemies_in_the_way(sc, side, to, to_in) if e.side != side) if to in others else []
        dest = memo[dkey] = (enemies, key, index.get((to, key), ()))
    enemies, key, there = dest
    if enemies and state.phase is Phase.MPh:
        return f"known enemy units hold {to} ({', '.join(enemies)}): no entry in the MPh (A4.14)"
    ids = facts.unit_ids
    rest = tuple(u for u in there if u.id not in ids)
    okey = ("over", ids, key, tuple(u.id for u in rest))
    over = memo.get(okey, MISSING)
    if over is MISSING:
        over = memo[okey] = stacking_problem([*rest, *group.units], key)
    return over


def _group_facts(state: AslgwState, sc: Scenario, fog: FogState, group: Group, impulse: bool, free: bool) -> _GroupFacts:
    """What a group's steps all share (:class:`_GroupFacts`)."""
    loc = group.location()
    if loc is None:
        return _GroupFacts("the pieces of a moving group must stand in one location (A4.3)", None, {}, (), False)
    for u in group.units:
        why = unit_blocker(state, fog, u, impulse=impulse, free=free)
        if why:
            return _GroupFacts(why, loc, {}, (), False)
    for d in group.dummies:
        if state.unit_play(d.id).done:
            return _GroupFacts(f"the dummy stack at {d.hex} has finished its movement (A4.3)", loc, {}, (), False)
    ids = group.ids
    units_left = {}
    for u in group.units:
        up = state.unit_play(u.id)
        units_left[u.id] = (allowance(state, sc, u, ids), up.mf_spent, up.cx, up.double_time)
    pile_mf = movement_table().concealed_pile_mf
    dummies_left = tuple((d.hex, pile_mf - state.unit_play(d.id).mf_spent) for d in group.dummies)
    return _GroupFacts(None, loc, units_left, dummies_left, any(state.unit_play(i).moved for i in ids),
                       tuple(u.id for u in group.units))


# ---------------------------------------------------------------------------
# Resolution
# ---------------------------------------------------------------------------
@dataclass
class _Out:
    events: list[Record]
    rolls: list[SecretRoll]
    notes: list[str]
    passed: list[str]
    failed: list[str]


def _ntc(state: AslgwState, sc: Scenario, dice: GameDice, units: Sequence[Unit], blind: bool, out: _Out,
         side: str) -> list[Unit]:
    """Roll the NTC of every unit that needs one; return the units that may move."""
    report = None
    ok = []
    for u in units:
        if u.kind not in _MMC or state.unit_play(u.id).ntc_passed or state.phase not in (Phase.MPh, Phase.APh):
            ok.append(u)
            continue
        report = report or command_status(sc, side)
        need = ntc_need(state, sc, u, state.phase, report)
        if need is None:
            ok.append(u)
            continue
        mods = {f"{need.rule}: Out of Command and isolated" if need.drm else need.rule: need.drm} if need.drm else None
        res = normal_task_check(dice, need.morale, mods, cause=f"NTC to move {u.id} ({need.rule})")
        if blind:
            out.rolls.append(secret_roll(dice, res.roll))
            out.notes.append(f"{u.id}: {res.reasons[0]} ({need.reason})")
            (out.passed if res.passed else out.failed).append(u.id)
        else:
            hidden = is_hidden(state.fog, u.id)
            out.events.append(dice.event(res.roll, side if hidden else None))
            out.events.append(NtcTaken(side, u.id, need.rule, need.morale, res.roll.final, res.passed, side if hidden else None))
        if res.passed:
            ok.append(u)
    return ok


def _shown(fog: FogState, units: Iterable[Unit], dummies: Iterable[ConcealStack]) -> tuple[tuple[str, ...], int, bool]:
    """The units an enemy sees, and the "?" counters it sees, of a group."""
    units = list(units)
    dummies = list(dummies)
    shown = tuple(u.id for u in units if not is_hidden(fog, u.id))
    stacks = {d.id: d for d in dummies}
    for u in units:
        s = fog.stack_of_unit(u.id)
        if s is not None:
            stacks[s.id] = s
    counters = 0
    cloaked = False
    for s in stacks.values():
        moving = [i for i in s.unit_ids if i in {u.id for u in units}]
        cloaked = cloaked or s.cloaked
        if s.is_dummy or len(moving) == len(s.unit_ids):
            counters += s.height
        else:
            counters += 1 if s.cloaked else len(moving) + 1
    return shown, counters, cloaked


class GroupLocationError(GwaslError):
    """A moving group not in one Location."""


def resolve_step(state: AslgwState, dice: GameDice, group: Group, to: Hex, to_in: Position, mode: str, *,
                 blind: bool, seed: int, platoon: str | None = None) -> list[Record]:
    """The events of one step of ``group`` (checked legal for the viewer who ordered it).

    Blind orders (the viewer could not see the movers' secrets) roll on the
    side's private stream, reported in one :class:`Resolved` event, and are
    checked again on the truth: what the truth forbids, it reveals.

    Raises :class:`GroupLocationError` (a moving group not in one Location).

    One step of a group: the MF it costs (A4) and the NTCs it needs first (ASLGW 1.3.2, 1.4.13).
    """
    fog = state.fog
    sc = fog.scenario
    side = group.side
    loc = group.location()
    if loc is None:
        raise GroupLocationError("a moving group stands in one location")
    frm, frm_in = loc
    pdice = private_dice(state, side, seed) if blind else dice
    out = _Out([], [], [], [], [])
    freed: tuple[str, ...] = ()
    if blind and platoon is None:
        # An order given blind moves the "?" as a stack: platoon members under it go as
        # free squads (ASLGW 1.4.13; docs/rules-notes.md).
        freed = tuple(u.id for u in group.units if u.kind in _SQUADS and u.platoon in state.platoons
                      and not state.unit_play(u.id).detached)
        if freed:
            from dataclasses import replace

            state = state.with_play({i: replace(state.unit_play(i), detached=True) for i in freed})
    units = _ntc(state, sc, pdice, group.units, blind, out, side)
    stopped: list[Unit] = [u for u in group.units if u not in units]
    stop_why = "failed its NTC to move (ASLGW 1.3.2, 1.4.13)"
    impulse_cost = None
    if platoon is not None and state.impulse is not None and state.impulse.platoon == platoon:
        impulse_cost = max((m.mf for m in state.impulse.steps.values()), default=0.0)
    elif platoon is not None:
        impulse_cost = 0.0
    cost: MoveCost | None = None
    if blind and units:
        cost, why = group_problem(state, sc, fog, Group(side, tuple(units), ()), to, to_in, mode, impulse_cost=impulse_cost,
                                  free=platoon is None)
        if why:
            stopped += units
            units = []
            stop_why = f"could not carry out the order: {why}"
    events: list[Record] = []
    if blind:
        events.append(Resolved(side, tuple(out.rolls), tuple(out.notes), tuple(out.passed), tuple(out.failed), freed))
    events += out.events
    if stopped:
        ev = _stopped(fog, side, stopped, (), frm, frm_in, to, to_in, stop_why, reveals=blind)
        events += ev
    dummies = list(group.dummies)
    if not units and not dummies:
        return events
    if cost is None:
        try:
            cost = cached_step_cost(sc, frm, frm_in, to, to_in)
        except (StepError, LocationError) as e:  # pragma: no cover (checked legal)
            raise AssertionError(str(e)) from None
    # Hidden enemies in the way (A12.15): real ones are revealed and stop the movers in the MPh.
    enemy_events, blocked = hidden_enemy_in_the_way(state, side, frm, to, to_in)
    events += enemy_events
    if blocked:
        events += _stopped(fog, side, units, dummies, frm, frm_in, to, to_in,
                           "hidden enemy units hold the location: they are revealed and the move ends there (A12.15)",
                           reveals=True, ends=True)
        return events
    movers = list(units) + list(carried(sc, units))
    shown, counters, _ = _shown(fog, movers, dummies)
    ends = mode in ("assault", "advance") or ends_movement(sc, frm, to)
    events.append(Moved(side, tuple(u.id for u in movers), tuple(d.id for d in dummies), shown, counters,
                        frm.label, frm_in.value, to.label, to_in.value, cost.mf, mode,
                        tuple(cost.reasons), ends, cost.cx_at_end_of_mph, platoon))
    events += _after_move(state, side, movers, dummies, to, to_in, mode)
    return events


def _stopped(fog: FogState, side: str, units: Sequence[Unit], dummies: Sequence[ConcealStack], frm: Hex, frm_in: Position,
             to: Hex, to_in: Position, why: str, *, reveals: bool, ends: bool = False) -> list[Record]:
    shown, counters, _ = _shown(fog, units, dummies)
    out: list[Record] = [Stopped(side, tuple(u.id for u in units), tuple(d.id for d in dummies), shown, counters,
                                 frm.label, frm_in.value, to.label, to_in.value, why, ends, reveals)]
    hidden = [u.id for u in (*units, *carried(fog.scenario, units)) if is_hidden(fog, u.id)]
    if reveals and hidden:
        out.append(ConcealmentLost(side, tuple(hidden), frm.label, f"ordered to move, it could not: {why}"))
    return out


def hidden_enemy_in_the_way(state: AslgwState, side: str, frm: Hex, to: Hex, to_in: Position) -> tuple[list[Record], bool]:
    """A12.15 (and O'Leary 3.4): entering a location that holds hidden enemy pieces: the events of
    their discovery, and whether the move is stopped there.  Movement and the Bayonet Charge's
    steps (ASLGW 1.5) both call it."""
    fog = state.fog
    sc = fog.scenario
    events: list[Record] = []
    blocked = False
    into_dugout = to_in is Position.DUGOUT
    for enemy in sorted({u.side for u in sc.units if u.side != side} | {s.side for s in fog.stacks if s.side != side}):
        real = [u for u in enemies_in_the_way(sc, side, to, to_in) if u.side == enemy and is_hidden(fog, u.id)]
        hip = [u for u in real if fog.status_of(u.id) is FogStatus.HIP]
        concealed = [u for u in real if u not in hip]
        if real and state.phase is Phase.MPh:
            blocked = True
        if concealed:
            events.append(ConcealmentLost(enemy, tuple(sorted(u.id for u in concealed)), to.label,
                                          "an enemy unit tried to enter its location (A12.15)"))
        if hip or fog.dummy_hip_at(to, enemy) or fog.fortifications_at(to, enemy):
            events.append(HipRevealed(enemy, to.label, tuple(sorted(u.id for u in hip)), len(fog.dummy_hip_at(to, enemy)),
                                      tuple(f.kind.value for f in fog.fortifications_at(to, enemy)),
                                      "an enemy unit entered the location (O'Leary 3.4, A12.15)"))
        dummies = [s for s in fog.stacks_at(to, enemy) if s.is_dummy and (s.position is Position.DUGOUT) == into_dugout]
        if dummies:
            events.append(DummyRemoved(enemy, tuple(s.id for s in dummies), to.label, dummies[0].position.value,
                                       sum(s.height for s in dummies), "an enemy unit entered its location (A12.15)"))
    return events, blocked


def _after_move(state: AslgwState, side: str, movers: Sequence[Unit], dummies: Sequence[ConcealStack], to: Hex,
                to_in: Position, mode: str) -> list[Record]:
    """Concealment lost on the way (A12.14, ASLGW 1.7.2) and minefields entered (O'Leary 4.6.2)."""
    fog = state.fog
    sc = fog.scenario
    events: list[Record] = []
    ids = {u.id for u in movers}
    ranges = known_enemy_ranges(fog, side, to, to_in) if in_open_ground(sc, to, to_in) else ()
    lost, why = [], ""
    for u in movers:
        if u.kind is UnitKind.SUPPORT_WEAPON or fog.status_of(u.id) not in (FogStatus.CONCEALED, FogStatus.POTENTIAL_DUMMY, FogStatus.CLOAKED):
            continue
        r = moving_concealment_loss(sc, u, to, to_in, assault_move=mode == "assault", enemy_ranges=ranges)
        if r.lost:
            lost.append(u.id)
            why = f"{r.reason} ({r.rule})"
    if lost:
        sws = [u.id for u in movers if u.kind is UnitKind.SUPPORT_WEAPON and fog.status_of(u.id) is not FogStatus.NONE]
        events.append(ConcealmentLost(side, tuple(sorted(lost + sws)), to.label, why))
    if dummies and ranges and mode != "assault" and ranges[0] <= movement_table().concealment_loss_range:
        events.append(DummyRemoved(side, tuple(d.id for d in dummies), to.label, to_in.value, sum(d.height for d in dummies),
                                   f"moved in Open Ground in the LOS of an enemy unit {ranges[0]} hex(es) away: a dummy is removed (A12.14)"))
    if any(u.is_infantry for u in movers):
        for m in fog.minefields_at(to):
            if m.side != side and not m.revealed and state.minefield is None:
                events.append(MinefieldEntered(m.side, side, m.id, to.label, not m.known))
                break
    del ids
    return events


@lru_cache(maxsize=1)
def dt_bonus() -> float:
    """The MF Double Time adds (A4.5)."""
    return float(double_time_mf())


def start_play(state: AslgwState, sc: Scenario, u: Unit, group_ids: Iterable[str]) -> UnitPlay:
    """The unit's play state with its allowance fixed (it starts moving now).

    (A4: a unit's MF allowance is fixed when it starts moving; ASLGW 1.3 for a platoon.)"""
    up = state.unit_play(u.id)
    if up.allowance is not None:
        return up
    return replace(up, allowance=base_allowance(state, sc, u, group_ids))


def pile_stacks(fog: FogState, side: str, h: Hex, pos: Position, cloaked: bool) -> list[ConcealStack]:
    """``side``'s "?" stacks in one pile as its enemy sees them (O'Leary 2.1: concealed stacks, real and dummy
    alike)."""
    return piles(fog, side).get((side, h, pos, cloaked), [])


def platoons_at_mph(st: AslgwState) -> AslgwState:
    """ASLGW 1.4.1, 1.4.15: the phasing side's platoons and half-platoons move by
    impulses unless every active member is entrenched; a squad not in formation
    as the MPh begins is a free squad (1.4.13).  A platoon with a member or leader
    under a "?" or HIP does not move by impulses this MPh: which platoons do must
    not tell the enemy what is hidden (docs/rules-notes.md)."""
    sc = st.scenario
    platoons = set()
    ch = {}
    for f in sc.formations:
        members = [u for u in sc.units if u.platoon == f.id and u.side == st.phasing]
        if not members or not moves_by_impulse(f.kind) or not uses_platoon_movement(members):
            continue
        if any(is_hidden(st.fog, u.id) for u in members if not u.broken) or \
                (f.leader is not None and f.leader in st.fog.status and is_hidden(st.fog, f.leader)):
            continue
        platoons.add(f.id)
        gaps = set(setup_formation_gaps(sc, f.id))
        for u in members:
            if u.kind in _SQUADS and not u.broken:
                ch[u.id] = replace(st.unit_play(u.id), detached=u.id in gaps)
    return replace(st.with_play(ch), platoons=frozenset(platoons))


# ---------------------------------------------------------------------------
# Legal actions


def legal(state: AslgwState, side: str, viewer: Viewer, knows: bool) -> list[Record]:
    """The movement actions of ``side`` (the side to act) in the MPh or APh, as ``viewer``
    knows the game (``knows``: whether it sees that side's secrets): groups' steps (A4,
    ASLGW 1.3-1.4), Double Time (A4.5), exits (A26.23), orders to "?" piles given blind,
    and the impulses of platoons (ASLGW 1.4.1)."""
    fog = state.fog
    # The moving side's own units as the viewer knows them; the enemy as the moving side
    # knows it (a hidden enemy is found by trying to enter its location, A12.15).
    sc = known_scenario(fog, frozenset({side}) if knows else frozenset())
    out: list[Record] = []
    if state.impulse is not None:
        return _impulse_actions(state, sc, side, knows)
    modes = MOVE_MODES[state.phase]
    groups: list[Group] = []
    by_loc: dict[tuple[Hex, Position], list[Unit]] = {}
    for u in sc.units:
        if u.side == side and u.kind is not UnitKind.SUPPORT_WEAPON and (knows or not is_hidden(fog, u.id)) \
                and unit_blocker(state, fog, u) is None:
            by_loc.setdefault((u.hex, u.position), []).append(u)
    stacks = [s for s in fog.stacks if s.side == side] if knows else []
    locs = sorted(set(by_loc) | {(s.hex, s.position) for s in stacks}, key=lambda k: (k[0].column, k[0].row, k[1].value))
    for loc in locs:
        us = sorted(by_loc.get(loc, []), key=lambda u: u.id)
        here = [s for s in stacks if (s.hex, s.position) == loc]
        dummies = tuple(s for s in here if s.is_dummy and not state.unit_play(s.id).done)
        cands: list[Group] = [Group(side, (u,), ()) for u in us]
        # A leader with each unit he may take along (A4.12)
        cands += [Group(side, tuple(sorted((ld, u), key=lambda x: x.id)), ()) for ld in us
                  if ld.kind is UnitKind.LEADER for u in us if u is not ld and u.kind is not UnitKind.LEADER]
        if knows:
            for s in here:
                if not s.is_dummy:
                    members = tuple(u for u in us if u.id in s.unit_ids)
                    if len(members) > 1:
                        cands.append(Group(side, members, ()))
            cands += [Group(side, (), (d,)) for d in dummies]
        # the units of the stack without its leaders move together too (issue 24: the leader may stay)
        others = tuple(u for u in us if u.kind is not UnitKind.LEADER)
        if len(others) > 1 and len(others) < len(us):
            cands.append(Group(side, others, ()))
        whole = Group(side, tuple(us), dummies)
        if len(whole.ids) > 1:
            cands.append(whole)
        seen: set[tuple[str, ...]] = set()
        for g in cands:
            if g.ids not in seen:
                seen.add(g.ids)
                groups.append(g)
    memo: dict[Any, Any] = {}
    for g in groups:
        # group_problem's checks, the group's facts once and each step's cost as steps_from gives it
        facts = _facts(state, sc, fog, g, False, False, memo)
        if not facts.why:
            h, pos = facts.loc
            for step, to, to_in in _worded(steps_from(sc, h, pos)):
                enters: bool | None = None  # the entry checks do not depend on the mode: once per step
                for mode in modes:
                    if _mf_problem(facts, step.cost, mode, None) is None:
                        if enters is None:
                            enters = _entry_problem(state, sc, g, facts, step.to_hex, step.to_pos, memo) is None
                        if enters:
                            out.append(Move(g.ids, to, to_in, mode, not knows))
        if state.phase is Phase.MPh and g.units and not g.dummies and _may_double_time(state, g):
            out.append(DoubleTime(g.ids))
    if state.phase is Phase.MPh and state.impulse is None:
        can_exit = set(vic.exit_candidates(state, side))
        out += [Exit(g.ids) for g in groups if g.units and not g.dummies and set(g.ids) <= can_exit]
    if not knows:
        out += _pile_actions(state, sc, side)
    if state.phase is Phase.MPh:
        for pid in sorted(state.platoons - state.platoons_done):
            if platoon_side(state, pid) == side and (knows or _platoon_visible(state, pid)):
                out += _impulse_actions(state, sc, side, knows, pid)
    return out


#: each tuple of steps (kept per map by steps_from) with its destinations' labels and positions'
#: values, by the tuple's identity (each entry keeps its tuple, so an id is never reused while it lives)
_WORDED: dict[int, tuple[tuple[Step, ...], tuple[tuple[Step, str, str], ...]]] = {}


def _worded(steps: tuple[Step, ...]) -> tuple[tuple[Step, str, str], ...]:
    """``steps``, each with its destination's hex label and position value (what a Move names)."""
    got = _WORDED.get(id(steps))
    if got is not None and got[0] is steps:
        return got[1]
    words = tuple((st, st.to_hex.label, st.to_pos.value) for st in steps)
    if len(_WORDED) >= 4096:
        _WORDED.clear()
    _WORDED[id(steps)] = (steps, words)
    return words


def _may_double_time(state: AslgwState, g: Group) -> bool:
    """A4.5: a unit not CX (A4.51) may Double Time; not after leaving a deep trench
    without a ladder this MPh (ASLGW 2.1.3)."""
    for u in g.units:
        up = state.unit_play(u.id)
        if up.cx or up.double_time or up.no_double_time or up.cx_pending or up.done:
            return False
    return True


def _pile_actions(state: AslgwState, sc: Scenario, side: str) -> list[Record]:
    """Orders to ``side``'s "?" piles by someone who cannot see beneath them."""
    out: list[Record] = []
    mt = movement_table()
    for s_, h, pos, cloaked in piles(state.fog, side):
        spent = state.piles.get((s_, h, pos, cloaked))
        at = h.label
        for step, to, to_in in _worded(steps_from(sc, h, pos)):
            for mode in MOVE_MODES[state.phase]:
                if mode in ("assault", "advance") and spent is not None:
                    continue
                if mode == "normal" and (spent or 0.0) + step.cost.mf > mt.concealed_pile_mf:
                    continue
                if state.phase is Phase.MPh and any(
                        e.side != side for e in _known_enemies(sc, side, step.to_hex, step.to_pos)):
                    continue
                out.append(MovePile(side, at, pos.value, cloaked, to, to_in, mode))
    return out


def platoon_side(state: AslgwState, pid: str) -> str | None:
    """The side of a platoon (ASLGW 1.1), from its members."""
    for u in state.scenario.units:
        if u.platoon == pid:
            return u.side
    return None


def _platoon_visible(state: AslgwState, pid: str) -> bool:
    members = impulse_members(state, state.scenario, pid)
    return all(not is_hidden(state.fog, u.id) for u in members)


def impulse_members(state: AslgwState, sc: Scenario, pid: str) -> list[Unit]:
    """The units of platoon ``pid`` that take part in its impulse (ASLGW 1.4.1, 1.4.11)."""
    return [u for u in sc.units if impulse_member(state, sc, u) == pid]


def _impulse_actions(state: AslgwState, sc: Scenario, side: str, knows: bool, pid: str | None = None) -> list[Record]:
    imp = state.impulse
    pid = pid or (imp.platoon if imp else None)
    if pid is None:
        return []
    out: list[Record] = []
    memo: dict[Any, Any] = {}
    members = impulse_members(state, sc, pid)
    steps = imp.steps if imp is not None and imp.platoon == pid else {}
    current = max((m.mf for m in steps.values()), default=0.0)
    # ASLGW 1.4.1: every moving member pays what the one that spends most spends.
    left = {u.id: allowance(state, sc, u, ()) - state.unit_play(u.id).mf_spent for u in members}
    stepped_left = min((left.get(k, 0.0) for k in steps), default=float("inf"))
    normal = "normal" in MOVE_MODES.get(state.phase, ())  # an impulse's steps are normal movement
    for u in members:
        if u.id in steps or (imp is not None and u.id in imp.detached) or not normal:
            continue
        if unit_blocker(state, state.fog, u, impulse=True) is not None:
            continue
        g = Group(side, (u,), ())
        # group_problem's checks, with each step's cost as steps_from gives it
        facts = _facts(state, sc, state.fog, g, True, False, memo)
        if facts.why:
            continue
        for step, to, to_in in _worded(steps_from(sc, u.hex, u.position)):
            if step.to_hex == u.hex:
                continue  # an impulse moves members from hex to hex (ASLGW 1.4.1)
            why = _step_problem(state, sc, g, facts, step.to_hex, step.to_pos, step.cost, "normal", current, memo)
            if why is None and max(current, step.cost.mf) <= min(stepped_left, left[u.id]):
                out.append(ImpulseStep(pid, u.id, to, to_in, not knows))
    if steps and impulse_check(state, sc, pid).legal:
        out.append(EndImpulse(pid))
    for u in members:
        if u.kind in _SQUADS:
            out.append(Detach(pid, u.id))
    if imp is None:
        out.append(EndPlatoon(pid))
    return out


def impulse_check(state: AslgwState, sc: Scenario, pid: str) -> ImpulseResult:
    """Check platoon ``pid``'s impulse as it stands: every mover a hex, the largest MF spent (ASLGW 1.4.1)."""
    imp = state.impulse
    steps = imp.steps if imp is not None and imp.platoon == pid else {}
    members = []
    for u in impulse_members(state, sc, pid):
        up = state.unit_play(u.id)
        st = steps.get(u.id)
        members.append(MemberStep(u.id, u.kind, st.start if st else u.hex, (st.to,) if st else (),
                                  st.mf if st else 0, up.mf_spent, allowance(state, sc, u, ())))
    return check_impulse(members)  # detached members are no longer members (ASLGW 1.4.13)


def _known_enemies(sc: Scenario, side: str, h: Hex, pos: Position) -> list[Unit]:
    try:
        return list(enemies_in_the_way(sc, side, h, pos))
    except LocationError:
        return []


MOVEMENT = (Move, MovePile, DoubleTime, ImpulseStep, EndImpulse, Detach, EndPlatoon, Exit)
#: the rule of each movement action that only the MPh has
_MPH_ONLY = {DoubleTime: "A4.5", ImpulseStep: "ASLGW 1.4.1", EndImpulse: "ASLGW 1.4.1", Detach: "ASLGW 1.4.13",
             EndPlatoon: "ASLGW 1.4.1", Exit: "A26.23"}


def why_not(state: AslgwState, action: Record, viewer: Viewer, side: str | None) -> str | None:
    """Why a movement action is not legal now, in words with its rule, judged on what
    ``viewer`` knows; None for an action of another family.  (A moving Bayonet Charge,
    which stops all other movement, is the dispatcher's to say.) (A3, A4, A4.7, ASLGW 1.4.1.)"""
    if not isinstance(action, MOVEMENT):
        return None
    ph = state.phase
    if isinstance(action, (Move, MovePile)) and ph not in MOVE_MODES:
        return f"no movement in the {ph.value} (units move in the MPh and advance in the APh, A3, A4.7)"
    rule = _MPH_ONLY.get(type(action))
    if rule is not None and ph is not Phase.MPh:
        return f"{action.kind.replace('_', ' ')} happens only in the MPh, not the {ph.value} ({rule})"
    if side != state.phasing:
        return f"only the phasing side ({state.phasing}) moves; {side} acts now (A3)"
    imp = state.impulse
    if imp is not None and isinstance(action, (Move, MovePile, DoubleTime, Exit, EndPlatoon)):
        return (f"platoon {imp.platoon} is in the middle of an impulse: only its members' steps, detaching one or "
                "ending the impulse now (ASLGW 1.4.1)")
    knows = viewer.sees_secrets_of(str(side))
    sc = known_scenario(state.fog, frozenset({str(side)}) if knows else frozenset())
    if isinstance(action, Move):
        return _why_move(state, action, viewer, side)
    if isinstance(action, MovePile):
        return _why_pile(state, sc, action, str(side))
    if isinstance(action, DoubleTime):
        return _why_double_time(state, sc, action, viewer, str(side))
    if isinstance(action, Exit):
        return _why_exit(state, sc, action, viewer, str(side))
    return _why_platoon(state, sc, action, str(side), knows)


def _seen_units(state: AslgwState, pieces: Iterable[str], viewer: Viewer, side: str) -> tuple[list[Unit], str | None]:
    """The units an order names, or why one is not a unit of ``side`` the viewer can see."""
    fog = state.fog
    units = []
    for pid in pieces:
        try:
            u = fog.scenario.unit(pid)
        except KeyError:
            return [], f"no unit {pid[:40]!r} of {side} that you can see"
        if u.side != side or (is_hidden(fog, u.id) and not viewer.sees_secrets_of(u.side)):
            return [], f"no unit {pid[:40]!r} of {side} that you can see"
        units.append(u)
    return units, None


def _why_move(state: AslgwState, action: Move, viewer: Viewer, side: str | None) -> str | None:
    fog = state.fog
    try:
        to = Hex.from_label(action.to)
        to_in = Position(action.to_in)
    except (HexLabelError, ValueError) as e:
        return str(e)
    if not fog.scenario.map.contains(to):
        return f"hex {to} is outside the map"
    units, why = _seen_units(state, action.pieces, viewer, str(side))
    if why:
        return why
    knows = viewer.sees_secrets_of(str(side))
    if action.blind == knows:
        return ("an order is given blind only to a side whose hidden units you cannot see (gwasl resolves it on the "
                "side's own dice, A12.1)" if action.blind else
                "you cannot see beneath these units' \"?\": the order is given blind (gwasl resolves it, A12.1)")
    sc = known_scenario(fog, frozenset({str(side)}) if knows else frozenset())
    _, why = group_problem(state, sc, fog, Group(str(side), tuple(units), ()), to, to_in, action.mode)
    if why:
        return why
    return (f"{', '.join(action.pieces)} do not move as one group now: a group is one unit, a leader with the units he "
            "takes along, a \"?\" stack, or a Location's whole stack (A4.3, A4.12)")


def _why_pile(state: AslgwState, sc: Scenario, action: MovePile, side: str) -> str:
    if action.side != side:
        return f"only the phasing side ({side}) moves its \"?\" (A3)"
    try:
        h, pos, to, to_in = Hex.from_label(action.at), Position(action.at_in), Hex.from_label(action.to), Position(action.to_in)
    except (HexLabelError, ValueError) as e:
        return str(e)
    if not piles(state.fog, side).get((side, h, pos, action.cloaked)):
        return f"no \"?\" of {side} at {action.at} ({action.at_in}) to order (A12.1)"
    if action.mode not in MOVE_MODES[state.phase]:
        return f"no {action.mode} movement in the {state.phase.value} (MPh: normal or assault, A4.61; APh: advance, A4.7)"
    try:
        cost = cached_step_cost(sc, h, pos, to, to_in)
    except (StepError, LocationError) as e:
        return str(e)
    spent = state.piles.get((side, h, pos, action.cloaked))
    mt = movement_table()
    if action.mode in ("assault", "advance") and spent is not None:
        return f"only a \"?\" that has not moved this phase may {action.mode} ({mt.rules['assault_move' if action.mode == 'assault' else 'advance']})"
    if (spent or 0.0) + cost.mf > mt.concealed_pile_mf:
        return (f"the \"?\" has {mt.concealed_pile_mf - (spent or 0.0):g} MF left; the step costs {cost.mf:g} "
                f"({mt.rules['concealed_pile_mf']})")
    return f"known enemy units hold {action.to}: no entry in the MPh (A4.14)"


def _why_double_time(state: AslgwState, sc: Scenario, action: DoubleTime, viewer: Viewer, side: str) -> str:
    units, why = _seen_units(state, action.pieces, viewer, side)
    if why:
        return why
    for u in units:
        blocked = unit_blocker(state, state.fog, u, free=True)
        if blocked:
            return blocked
        up = state.unit_play(u.id)
        if up.double_time:
            return f"{u.id} is already Double Timing this MPh (A4.5)"
        if up.cx or up.cx_pending:
            return f"{u.id} is CX: a CX unit may not Double Time (A4.51)"
        if up.no_double_time:
            return f"{u.id} left a deep trench without a ladder this MPh: no Double Time (ASLGW 2.1.3)"
    return (f"{', '.join(action.pieces)} do not move as one group now: Double Time is declared by a group the list "
            "offers to move (A4.5, A4.3)")


def _why_exit(state: AslgwState, sc: Scenario, action: Exit, viewer: Viewer, side: str) -> str:
    units, why = _seen_units(state, action.pieces, viewer, side)
    if why:
        return why
    area = state.victory.card.exits.get(side)
    if not area:
        return f"the scenario card gives {side} no exit area (A26.23)"
    for u in units:
        if u.hex not in area:
            return f"{u.id} is not on a hex of {side}'s exit area ({', '.join(sorted(h.label for h in area))}) (A26.23)"
        blocked = unit_blocker(state, state.fog, u, free=True)
        if blocked:
            return blocked
    return f"{', '.join(action.pieces)} do not exit as one group now: a group the list offers to move exits (A26.23, A4.3)"


def _why_platoon(state: AslgwState, sc: Scenario, action: Record, side: str, knows: bool) -> str:
    """ImpulseStep, EndImpulse, Detach, EndPlatoon (ASLGW 1.4.1, 1.4.11, 1.4.13)."""
    pid = getattr(action, "platoon", "")
    if pid not in state.platoons or platoon_side(state, pid) != side:
        return f"{side} has no platoon {pid[:40]!r} moving by impulses this MPh (ASLGW 1.4.1)"
    if pid in state.platoons_done:
        return f"platoon {pid}'s movement is over this MPh (ASLGW 1.4.1)"
    if not knows and not _platoon_visible(state, pid):
        return f"platoon {pid} has units you cannot see: you may not order its impulses (A12.1)"
    imp = state.impulse
    other = imp is not None and imp.platoon != pid
    if other:
        assert imp is not None
        return f"platoon {imp.platoon} is in the middle of an impulse: end it first (ASLGW 1.4.1)"
    members = impulse_members(state, sc, pid)
    if isinstance(action, EndPlatoon):
        return f"end platoon {pid}'s impulse first (ASLGW 1.4.1)"
    if isinstance(action, EndImpulse):
        if imp is None or not imp.steps:
            return f"platoon {pid} has no impulse under way: a member must move first (ASLGW 1.4.1)"
        res = impulse_check(state, sc, pid)
        return "; ".join(f"{v.message} ({v.rule})" for v in res.violations) or \
            f"platoon {pid}'s impulse may not end now (ASLGW 1.4.1, 1.4.11)"
    uid = getattr(action, "unit", "")
    u = next((m for m in members if m.id == uid), None)
    if u is None:
        return f"{uid[:40]!r} is no member of platoon {pid} moving with it now (ASLGW 1.4.1, 1.4.11)"
    if isinstance(action, Detach):
        return f"{uid} is a leader: only squads are set free of their platoon (ASLGW 1.4.13)"
    assert isinstance(action, ImpulseStep)
    steps = imp.steps if imp is not None else {}
    if uid in steps:
        return f"{uid} has already entered a location in this impulse: one location per impulse (ASLGW 1.4.1)"
    if imp is not None and uid in imp.detached:
        return f"{uid} was set free of platoon {pid}: it moves as a free squad (ASLGW 1.4.13)"
    blocked = unit_blocker(state, state.fog, u, impulse=True)
    if blocked:
        return blocked
    try:
        to, to_in = Hex.from_label(action.to), Position(action.to_in)
    except (HexLabelError, ValueError) as e:
        return str(e)
    if to == u.hex:
        return f"{uid} stays in {u.hex}: an impulse moves members from hex to hex (ASLGW 1.4.1)"
    if to not in u.hex.neighbours():
        return f"{action.to} is not next to {u.hex}: one hex per impulse (ASLGW 1.4.1)"
    current = max((m.mf for m in steps.values()), default=0.0)
    _, why = group_problem(state, sc, state.fog, Group(side, (u,), ()), to, to_in, "normal", impulse_cost=current)
    if why:
        return why
    left = {m.id: allowance(state, sc, m, ()) - state.unit_play(m.id).mf_spent for m in members}
    tight = min(((left.get(k, 0.0), k) for k in steps), default=(float("inf"), ""))
    cost = cached_step_cost(sc, u.hex, u.position, to, to_in).mf
    return (f"every moving member pays what the one that spends most spends: {max(current, cost):g} MF, more than "
            f"{tight[1] or uid} has left ({min(tight[0], left[uid]):g}) (ASLGW 1.4.1)")


# ---------------------------------------------------------------------------
# Apply: the events of each movement action


def group(state: AslgwState, pieces: Sequence[str]) -> Group:
    """The group an order names: its real units and dummy stacks, by id. A group moves together from one Location (A4.3)."""
    fog = state.fog
    units, dummies = [], []
    side = ""
    for p in pieces:
        try:
            u = fog.scenario.unit(p)
            units.append(u)
            side = u.side
        except KeyError:
            s = fog.stack(p)
            dummies.append(s)
            side = s.side
    return Group(side, tuple(units), tuple(dummies))


def _move(state: AslgwState, action: Move, dice: GameDice) -> list[Record]:
    g = group(state, action.pieces)
    return resolve_step(state, dice, g, Hex.from_label(action.to), Position(action.to_in), action.mode,
                        blind=action.blind, seed=dice.seed)


def _move_pile(state: AslgwState, action: MovePile, dice: GameDice) -> list[Record]:
    h, pos = Hex.from_label(action.at), Position(action.at_in)
    stacks = pile_stacks(state.fog, action.side, h, pos, action.cloaked)
    unit_ids = [i for s in stacks for i in s.unit_ids]
    units = tuple(u for u in state.scenario.units if u.id in unit_ids and u.kind is not UnitKind.SUPPORT_WEAPON)
    g = Group(action.side, units, tuple(s for s in stacks if s.is_dummy))
    if not g.ids:
        # Nothing beneath the "?" moves on its own (a support weapon left alone): it shows.
        return [Resolved(action.side, (), ("nothing beneath the \"?\" can move on its own",)),
                ConcealmentLost(action.side, tuple(sorted(unit_ids)), action.at,
                                "ordered to move, nothing beneath the \"?\" could")]
    return resolve_step(state, dice, g, Hex.from_label(action.to), Position(action.to_in), action.mode,
                        blind=True, seed=dice.seed)


def _double_time(state: AslgwState, action: DoubleTime, dice: GameDice) -> list[Record]:
    g = group(state, action.pieces)
    loc = g.location()
    assert loc is not None
    fog = state.fog
    shown = tuple(u.id for u in g.units if not is_hidden(fog, u.id))
    counters = len({fog.stack_of_unit(u.id).id for u in g.units if fog.stack_of_unit(u.id) is not None})  # type: ignore[union-attr]
    return [DoubleTimed(g.side, tuple(u.id for u in g.units), shown, counters, loc[0].label)]


def _impulse_step(state: AslgwState, action: ImpulseStep, dice: GameDice) -> list[Record]:
    u = state.scenario.unit(action.unit)
    return resolve_step(state, dice, Group(u.side, (u,), ()), Hex.from_label(action.to),
                        Position(action.to_in), "normal", blind=action.blind, seed=dice.seed,
                        platoon=action.platoon)


def _end_impulse(state: AslgwState, action: EndImpulse, dice: GameDice) -> list[Record]:
    imp = state.impulse
    assert imp is not None
    res = impulse_check(state, state.scenario, action.platoon)
    movers = tuple(sorted(k for k in imp.steps if k not in imp.detached))
    side = platoon_side(state, action.platoon) or ""
    return [ImpulseEnded(side, action.platoon, float(res.platoon_mf), movers, tuple(sorted(imp.detached)))]


def _detach(state: AslgwState, action: Detach, dice: GameDice) -> list[Record]:
    return [Detached(platoon_side(state, action.platoon) or "", action.platoon, action.unit)]


def _end_platoon(state: AslgwState, action: EndPlatoon, dice: GameDice) -> list[Record]:
    return [PlatoonDone(platoon_side(state, action.platoon) or "", action.platoon)]


def _exit(state: AslgwState, action: Exit, dice: GameDice) -> list[Record]:
    """Leaving the map through the card's exit area (A26.23)."""
    sc: Scenario = state.scenario
    units = tuple(sorted(action.pieces))
    return [Exited(sc.unit(units[0]).side, units, tuple(sc.unit(u).hex.label for u in units),
                   sum(vic.exit_loss(sc, u).vp for u in units))]


#: the events of each movement action (no dice but ``dice``)
APPLY: Mapping[type[Record], Callable[[AslgwState, Any, GameDice], list[Record]]] = {
    Move: _move,
    MovePile: _move_pile,
    DoubleTime: _double_time,
    ImpulseStep: _impulse_step,
    EndImpulse: _end_impulse,
    Detach: _detach,
    EndPlatoon: _end_platoon,
    Exit: _exit,
}
#: the movement actions after whose events Residual FP and the defender's fire may follow (A8.1, A8.2)
MOVES = (Move, MovePile, ImpulseStep, EndImpulse)


# ---------------------------------------------------------------------------
# Odds


def odds(state: AslgwState, action: Move | MovePile | ImpulseStep, viewer: Viewer) -> list[Outcome]:
    """An order given blind rolls on the side's own dice; a move's NTCs otherwise. (ASLGW 1.3.2 and 1.4.13 NTCs.)"""
    if isinstance(action, MovePile) or action.blind:
        return [Outcome("resolved by gwasl from what you cannot see (task checks on the side's own dice)", 1.0)]
    pieces = action.pieces if isinstance(action, Move) else (action.unit,)
    return _ntc_odds(state, group(state, pieces))


def _ntc_odds(state: AslgwState, g: Group) -> list[Outcome]:
    """Exact odds of the NTCs a move needs (ASLGW 1.3.2, 1.4.13): every pass/fail combination."""
    sc = state.scenario
    needs = []
    for u in g.units:
        n = ntc_need(state, sc, u, state.phase)
        if n is not None:
            # the resolver's own task check (as _ntc applies it), not a copy of it
            p = ntc_pass_chance(n.morale, {n.rule: n.drm} if n.drm else None)
            needs.append((u.id, p))
    if not needs:
        return []
    out = []
    for combo in product((True, False), repeat=len(needs)):
        p = Fraction(1)
        for (_, pu), ok in zip(needs, combo, strict=True):
            p *= pu if ok else 1 - pu
        failed = [uid for (uid, _), ok in zip(needs, combo, strict=True) if not ok]
        out.append(Outcome("every unit moves" if not failed else f"{', '.join(failed)} fail(s) the NTC and stay(s)", float(p)))
    return out


ODDS: Mapping[type[Record], Callable[[AslgwState, Any, Viewer], list[Outcome]]] = {
    Move: odds, MovePile: odds, ImpulseStep: odds,
}


# ---------------------------------------------------------------------------
# Reduce


def _platoon_of(state: AslgwState, uid: str) -> str | None:
    try:
        u = state.scenario.unit(uid)
    except KeyError:
        return None
    if u.platoon is not None:
        return u.platoon
    for f in state.scenario.formations:
        if f.leader == uid:
            return f.id
    return None


def _moved(state: AslgwState, e: Moved) -> AslgwState:
    return fire.targets_after_move(state, _moved_play(state, e), e)


def _moved_play(state: AslgwState, e: Moved) -> AslgwState:
    fog = state.fog
    sc = fog.scenario
    to, to_in = Hex.from_label(e.to), Position(e.to_in)
    frm, frm_in = Hex.from_label(e.frm), Position(e.frm_in)
    ids = set(e.units) | set(e.dummies)
    group_ids = tuple(sorted(ids))
    ch: dict[str, UnitPlay] = {}
    # A4.3: once another group moves, every unit that has moved before it is done.
    for k, up in state.play.items():
        if k in ids or not up.moved or up.done:
            continue
        if e.platoon is not None and state.impulse is not None and k in state.impulse.steps:
            continue
        if e.platoon is not None and _platoon_of(state, k) == e.platoon:
            continue
        ch[k] = replace(up, done=True)
    mt = movement_table()
    for uid in e.units:
        u = sc.unit(uid)
        if u.kind is UnitKind.SUPPORT_WEAPON:
            continue
        up = start_play(state, sc, u, group_ids)
        spent = up.mf_spent if e.platoon else up.mf_spent + e.mf
        cx = up.cx
        if e.mode == "advance" and up.allowance is not None and e.mf >= up.allowance:
            cx = True  # A4.72
        ch[uid] = replace(up, mf_spent=spent, moved=True, done=up.done or e.ends, cx=cx,
                          cx_pending=up.cx_pending or e.cx, no_double_time=up.no_double_time or e.cx)
    for did in e.dummies:
        up = state.unit_play(did)
        ch[did] = replace(up, mf_spent=up.mf_spent + e.mf, moved=True, done=up.done or e.ends)
    st = state.with_play(ch)
    real = [u for u in e.units]
    if real:
        spent = max((st.unit_play(u).mf_spent for u in real if sc.unit(u).kind is not UnitKind.SUPPORT_WEAPON), default=0.0)
        fog = move_units(fog, real, to, to_in, spent)
        st = st.moved_units_of(sc.unit(real[0]).side)
    for did in e.dummies:
        fog = move_dummy_stack(fog, did, to, to_in, st.unit_play(did).mf_spent)
        st = st.moved_units_of(fog.stack(did).side)
    st = replace(st, fog=fog)
    if e.counters:
        # The public MF of the "?" pile: what any viewer has seen it spend this phase.
        cloaked = any(s.cloaked for s in fog.stacks if s.hex == to and s.side == e.side and (set(s.unit_ids) & set(e.units) or s.id in ids))
        old = state.piles.get((e.side, frm, frm_in, cloaked), 0.0)
        new = mt.concealed_pile_mf if e.ends else old + e.mf
        key = (e.side, to, to_in, cloaked)
        st = replace(st, piles=ro({**state.piles, key: max(new, state.piles.get(key, 0.0))}))
    if e.platoon is not None:
        imp = st.impulse if st.impulse is not None and st.impulse.platoon == e.platoon else Impulse(e.platoon)
        steps = dict(imp.steps)
        steps[e.units[0]] = ImpulseMember(frm, frm_in, to, to_in, e.mf)
        st = replace(st, impulse=replace(imp, steps=ro(steps)))
    return st


def _ntc_taken(state: AslgwState, event: NtcTaken) -> AslgwState:
    up = state.unit_play(event.unit)
    up = replace(up, ntc_passed=True) if event.passed else replace(up, ntc_failed=True)
    return state.with_play({event.unit: up})


def _resolved(state: AslgwState, event: Resolved) -> AslgwState:
    pos = state.private_position(event.side)
    for r in event.rolls:
        pos = max(pos, r.n + len(r.dice))
    st = replace(state, private_dice=ro({**state.private_dice, event.side: pos}))
    st = st.with_play({u: replace(st.unit_play(u), detached=True) for u in event.freed})
    ch = {u: replace(st.unit_play(u), ntc_passed=True) for u in event.passed}
    ch.update({u: replace(st.unit_play(u), ntc_failed=True) for u in event.failed})
    return st.with_play(ch)


def _stopped_play(state: AslgwState, event: Stopped) -> AslgwState:
    ch = {}
    for i in (*event.units, *event.dummies):
        up = state.unit_play(i)
        ch[i] = replace(up, done=True) if event.ends or event.reveals else up
    st = state.with_play(ch)
    if state.impulse is not None:
        steps = {k: v for k, v in state.impulse.steps.items() if k not in event.units}
        st = replace(st, impulse=replace(state.impulse, steps=ro(steps)))
    return st


def _double_timed(state: AslgwState, event: DoubleTimed) -> AslgwState:
    sc = state.scenario
    ch = {}
    for uid in event.units:
        u = sc.unit(uid)
        up = start_play(state, sc, u, event.units)
        ch[uid] = replace(up, allowance=(up.allowance or 0.0) + dt_bonus(), double_time=True, cx=True)
    return state.with_play(ch)


def _impulse_ended(state: AslgwState, event: ImpulseEnded) -> AslgwState:
    ch = {}
    for uid in event.units:
        up = state.unit_play(uid)
        ch[uid] = replace(up, mf_spent=up.mf_spent + event.mf, moved=True)
    return fire.targets_after_move(state, replace(state.with_play(ch), impulse=None), event)


def _detached(state: AslgwState, event: Detached) -> AslgwState:
    st = state
    up = st.unit_play(event.unit)
    imp = st.impulse
    if imp is not None and event.unit in imp.steps:
        own = imp.steps[event.unit]
        up = replace(up, mf_spent=up.mf_spent + own.mf, moved=True)
        steps = {k: v for k, v in imp.steps.items() if k != event.unit}
        st = replace(st, impulse=replace(imp, steps=ro(steps), detached=imp.detached | {event.unit}))
        if not steps:
            st = replace(st, impulse=None)  # nobody left moving in it
    return st.with_play({event.unit: replace(up, detached=True)})


def _platoon_done(state: AslgwState, event: PlatoonDone) -> AslgwState:
    sc = state.scenario
    members = [u.id for u in sc.units if impulse_member(state, sc, u) == event.platoon]
    st = state.with_play({m: replace(state.unit_play(m), done=True) for m in members})
    return replace(st, platoons_done=st.platoons_done | {event.platoon})


def _exited(state: AslgwState, event: Exited) -> AslgwState:
    """Units that exit leave play the one way units leave it (vic.remove_units) and give exit VP (A26.23)."""
    fog = vic.remove_units(state.fog, event.units)
    losses = tuple(vic.exit_loss(state.scenario, u) for u in event.units)
    return replace(state, fog=fog, victory=replace(state.victory, losses=state.victory.losses + losses))


#: the state after each event of movement
REDUCERS: Mapping[type[Record], Callable[[AslgwState, Any], AslgwState]] = {
    Moved: _moved,
    NtcTaken: _ntc_taken,
    Resolved: _resolved,
    Stopped: _stopped_play,
    DoubleTimed: _double_timed,
    ImpulseEnded: _impulse_ended,
    Detached: _detached,
    PlatoonDone: _platoon_done,
    Exited: _exited,
}
