"""Movement in play: which steps a group may take (A4, ASLGW 1.3-1.4, 2.1-2.2) and
what a step does.

The checks run on a scenario as the viewer knows it
(:func:`~gwasl.games.aslgw.knowledge.known_scenario`) when the legal actions
are listed, and on the truth when gwasl resolves an order given blind: an
order that the truth makes impossible reveals what stood in its way.  Every
rule comes from :mod:`gwasl.rules` (terrain and deep trench costs,
stacking, MF allowances, command, task checks, concealment, garance); this
module only puts them in the order of play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.events import Drm
from gwasl.engine.record import Record
from gwasl.games.aslgw.knowledge import is_hidden, known_enemy_ranges, piles
from gwasl.games.aslgw.marks import move_blocker
from gwasl.games.aslgw.records import (
    ConcealmentLost,
    DummyRemoved,
    HipRevealed,
    MinefieldEntered,
    Moved,
    NtcTaken,
    Resolved,
    SecretRoll,
    Stopped,
)
from gwasl.games.aslgw.state import AslgwState, UnitPlay
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import FormationKind, Position, Scenario, Unit, UnitKind
from gwasl.rules.command import command_status, no_leader_ntc
from gwasl.rules.concealment import in_open_ground, moving_concealment_loss
from gwasl.rules.dice import Roll
from gwasl.rules.fog.state import ConcealStack, FogState, FogStatus
from gwasl.rules.morale import double_time_mf, normal_task_check
from gwasl.rules.movement import StepError, cached_step_cost, ends_movement, movement_table
from gwasl.rules.organisation import (
    free_squad_ntc,
    is_entrenched,
    is_leaderless,
    mf_allowance,
    setup_formation_gaps,
)
from gwasl.rules.stacking import location_key, stacking_problem
from gwasl.rules.trenches import LocationError, MoveCost, enemies_in_the_way
from gwasl.rules.units import UnitsError, unit_factors_of
from gwasl.rules.weapons import sw_holder

__all__ = [
    "Group",
    "NtcNeed",
    "allowance",
    "carried",
    "group_problem",
    "ntc_need",
    "private_dice",
    "resolve_step",
    "unit_blocker",
]

_MMC = (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW)
_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)
MOVE_MODES = {Phase.MPh: ("normal", "assault"), Phase.APh: ("advance",)}


def private_dice(state: AslgwState, side: str, seed: int) -> GameDice:
    """The private stream of ``side`` (a side whose hidden layer gwasl keeps): its own
    seed derived from the game's, at the position the events so far have used."""
    return GameDice(seed).private(side, state.private_position(side))


def secret_roll(dice: GameDice, roll: Roll) -> SecretRoll:
    ev = dice.event(roll)
    return SecretRoll(ev.n, ev.cause, ev.dice, tuple(Drm(m.cause, m.value) for m in roll.modifiers), roll.final)


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
    """Support weapons held by ``units`` (:func:`gwasl.rules.weapons.sw_holder`): they go where their holder goes."""
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
    if f.kind is FormationKind.COMBAT_GROUP or is_leaderless(sc, f):
        return False
    if u.platoon in state.platoons:
        return True
    return u.id not in setup_formation_gaps(sc, f.id)


def base_allowance(state: AslgwState, sc: Scenario, u: Unit, group_ids: Iterable[str]) -> float:
    """A unit's MF for this phase before Double Time (A4.1; ASLGW 1.3, 1.3.4, 1.4.14, 1.8):
    leaders and heroes 6; squads in formation of a platoon with its leader 6, or
    moving with a leader (A4.12); trench armour -1."""
    ids = set(group_ids)
    with_leader = any(o.kind is UnitKind.LEADER and not o.broken and o.id in ids and o.id != u.id for o in sc.units)
    in_form = _in_formation(state, sc, u)
    return _mf_total(u.kind, in_form, with_leader, u.trench_armour)


@lru_cache(maxsize=64)
def _mf_total(kind: UnitKind, in_form: bool, with_leader: bool, armour: bool) -> float:
    return float(mf_allowance(kind, platoon_has_leader=in_form, in_platoon_formation=in_form,
                              stacked_with_leader=with_leader, trench_armour=armour).total)


def allowance(state: AslgwState, sc: Scenario, u: Unit, group_ids: Iterable[str]) -> float:
    """The MF a unit may spend this phase: fixed when it starts moving (or declares Double Time)."""
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
    """A unit's morale for a task check: its ``morale`` field, the ASLGW 1.11 table for
    squads, resources/movement.json for crews."""
    v = u.extra.get("morale")
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if u.kind in _SQUADS:
        try:
            return unit_factors_of(sc, u).morale
        except UnitsError:
            pass
    if u.rating is not None:
        return u.rating.morale
    return movement_table().crew_morale


def ntc_need(state: AslgwState, sc: Scenario, u: Unit, phase: Phase, command=None) -> NtcNeed | None:
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
        leader_with = any(o.kind is UnitKind.LEADER and not o.broken and o.side == u.side and o.hex == u.hex
                          and o.position is u.position for o in sc.units)
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


def unit_blocker(state: AslgwState, fog: FogState, u: Unit, *, impulse: bool = False, free: bool = False) -> str | None:
    """Why ``u`` may not take a step now on its own (or, ``impulse``, within its
    platoon's impulse), or None.  ``free``: it moves as a free squad whatever its
    platoon does (an order given blind to a "?", docs/rules-notes.md)."""
    if u.kind is UnitKind.SUPPORT_WEAPON:
        return f"{u.id} is a support weapon: it goes with the unit that carries it"
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
        return None if pid is not None else f"{u.id} does not move with a platoon by impulses now"
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
    """
    phase = state.phase
    if mode not in MOVE_MODES.get(phase, ()):
        return None, f"no {mode} movement in the {phase.value} ({'MPh: normal or assault; APh: advance' })"
    memo = {} if memo is None else memo
    gkey = ("group", group.ids, impulse_cost is not None, free)
    facts = memo.get(gkey)
    if facts is None:
        facts = memo[gkey] = _group_facts(state, sc, fog, group, impulse_cost is not None, free)
    why, loc, units_left, dummies_left, moved = facts
    if why:
        return None, why
    frm, frm_in = loc
    try:
        cost = cached_step_cost(sc, frm, frm_in, to, to_in)
    except (StepError, LocationError) as e:
        return None, str(e)
    mt = movement_table()
    if mode in ("assault", "advance") and moved:
        rule = mt.rules["assault_move"] if mode == "assault" else mt.rules["advance"]
        return None, f"only a unit that has not moved this phase may {mode} ({rule})"
    need = cost.mf if impulse_cost is None else max(cost.mf, impulse_cost)
    for uid, (total, spent, cx, dt) in units_left.items():
        if mode == "advance":
            if need >= total and cx:
                return None, f"{uid} is CX: it may not advance into a location that costs all its MF ({mt.rules['advance']})"
            continue
        if spent + need > total:
            return None, f"{uid} has {total - spent:g} MF left; the step costs {need:g} ({'; '.join(cost.reasons)})"
        if cost.cx_at_end_of_mph and dt:
            return None, f"{uid} is Double Timing: it may not leave a deep trench without a ladder this MPh (ASLGW 2.1.3)"
    if mode != "advance":
        for where, left in dummies_left:
            if cost.mf > left:
                return None, f"the dummy stack at {where} has {left:g} MF left; the step costs {cost.mf:g}"
    ekey = ("enemy", group.side, to, to_in)
    enemies = memo.get(ekey)
    if enemies is None:
        enemies = memo[ekey] = sorted(e.id for e in enemies_in_the_way(sc, group.side, to, to_in) if e.side != group.side)
    if enemies and phase is Phase.MPh:
        return None, f"known enemy units hold {to} ({', '.join(enemies)}): no entry in the MPh (A4.14)"
    skey = ("there", group.side, to, location_key(to_in))
    there = memo.get(skey)
    if there is None:
        there = memo[skey] = [u for u in sc.units if u.side == group.side and u.hex == to and u.kind is not UnitKind.SUPPORT_WEAPON
                              and location_key(u.position) == skey[3]]
    ids = {u.id for u in group.units}
    over = stacking_problem([u for u in there if u.id not in ids] + list(group.units), skey[3])
    if over:
        return None, over
    return cost, None


def _group_facts(state: AslgwState, sc: Scenario, fog: FogState, group: Group, impulse: bool, free: bool) -> tuple[Any, ...]:
    """What a group's steps all share: why it may not move at all, where it stands, each
    unit's MF (allowance, spent, CX, Double Time), each dummy's MF left, whether any moved."""
    loc = group.location()
    if loc is None:
        return "the pieces of a moving group must stand in one location (A4.3)", None, {}, (), False
    for u in group.units:
        why = unit_blocker(state, fog, u, impulse=impulse, free=free)
        if why:
            return why, loc, {}, (), False
    for d in group.dummies:
        if state.unit_play(d.id).done:
            return f"the dummy stack at {d.hex} has finished its movement (A4.3)", loc, {}, (), False
    ids = group.ids
    units_left = {}
    for u in group.units:
        up = state.unit_play(u.id)
        units_left[u.id] = (allowance(state, sc, u, ids), up.mf_spent, up.cx, up.double_time)
    pile_mf = movement_table().concealed_pile_mf
    dummies_left = tuple((d.hex, pile_mf - state.unit_play(d.id).mf_spent) for d in group.dummies)
    return None, loc, units_left, dummies_left, any(state.unit_play(i).moved for i in ids)


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


def resolve_step(state: AslgwState, dice: GameDice, group: Group, to: Hex, to_in: Position, mode: str, *,
                 blind: bool, seed: int, platoon: str | None = None) -> list[Record]:
    """The events of one step of ``group`` (checked legal for the viewer who ordered it).

    Blind orders (the viewer could not see the movers' secrets) roll on the
    side's private stream, reported in one :class:`Resolved` event, and are
    checked again on the truth: what the truth forbids, it reveals.
    """
    fog = state.fog
    sc = fog.scenario
    side = group.side
    loc = group.location()
    if loc is None:
        raise ValueError("a moving group stands in one location")
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
    enemy_events, blocked = _enemy_in_the_way(state, side, frm, to, to_in)
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


def _enemy_in_the_way(state: AslgwState, side: str, frm: Hex, to: Hex, to_in: Position) -> tuple[list[Record], bool]:
    """A12.15 (and O'Leary 3.4): entering a location that holds hidden enemy pieces."""
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
    return float(double_time_mf())


def start_play(state: AslgwState, sc: Scenario, u: Unit, group_ids: Iterable[str]) -> UnitPlay:
    """The unit's play state with its allowance fixed (it starts moving now)."""
    up = state.unit_play(u.id)
    if up.allowance is not None:
        return up
    from dataclasses import replace

    return replace(up, allowance=base_allowance(state, sc, u, group_ids))


def pile_stacks(fog: FogState, side: str, h: Hex, pos: Position, cloaked: bool) -> list[ConcealStack]:
    return piles(fog, side).get((side, h, pos, cloaked), [])
