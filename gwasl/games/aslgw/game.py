"""A Great War scenario in play (ruleset ``aslgw``): the :class:`AslgwGame`.

Turn record and player turns with the eight phases (A3), the phasing side's
movement (A4; ASLGW 1.3-1.4, 1.8, 2.1-2.2), O'Leary's shifts at their windows
and gwasl's shift policy for a side whose hidden layer it keeps, and views
per viewer (docs/format/aslgw.md).  Fire and close combat (issue 12) and
victory (issue 13) come next: their phases are already in the turn, with
"end phase" as their only action for now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any, ClassVar

from gwasl.engine import snapshot
from gwasl.engine.dice import GameDice
from gwasl.engine.events import Decided, Rolled
from gwasl.engine.game import (
    PRACTICE,
    SCENARIO_FILE,
    SECRET,
    SIDE,
    Decision,
    Game,
    GameError,
    GameOption,
    GameOptions,
    IllegalAction,
    Outcome,
    Policy,
    Seat,
    Shown,
    SourceKind,
    Status,
    Viewer,
)
from gwasl.engine.record import Record
from gwasl.games.aslgw import combat as cb
from gwasl.games.aslgw import combat_records as _combat_records  # noqa: F401 (registers the fire and CC records)
from gwasl.games.aslgw import moves as mv
from gwasl.games.aslgw import shifts as sh
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw import views
from gwasl.games.aslgw.knowledge import (
    is_hidden,
    known_scenario,
    piles,
)
from gwasl.games.aslgw.records import (
    ACTIONS,
    EVENTS,
    ConcealmentLost,
    Detach,
    Detached,
    DoubleTime,
    DoubleTimed,
    DummyRemoved,
    EndImpulse,
    EndPhase,
    EndPlatoon,
    EndWindow,
    Exit,
    Exited,
    HipRevealed,
    ImpulseEnded,
    ImpulseStep,
    Judged,
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
    Resolved,
    RunWindow,
    Shift,
    ShiftResolved,
    ShiftSeen,
    ShiftWindow,
    Stopped,
    WindowEnded,
)
from gwasl.games.aslgw.settings import game_settings
from gwasl.games.aslgw.state import AslgwState, Impulse, ImpulseMember, UnitPlay, ro
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position, Scenario, Unit, UnitKind
from gwasl.model.scenario_io import ScenarioError, parse_scenario
from gwasl.rules.card import CardError, scenario_card
from gwasl.rules.fog.state import Clock, FogState, FogStatus, ShiftRecord
from gwasl.rules.fog.status import (
    lose_concealment,
    merge_potential_dummies,
    move_dummy_stack,
    move_units,
    player_turn_began,
    reveal_hip,
)
from gwasl.rules.movement import movement_table, steps_from
from gwasl.rules.organisation import (
    moves_by_impulse,
    setup_formation_gaps,
    uses_platoon_movement,
)
from gwasl.rules.platoon_movement import MemberStep, check_impulse
from gwasl.rules.trenches import LocationError
from gwasl.rules.validate import validate_scenario

__all__ = ["AslgwGame", "to_act"]

PHASES = tuple(Phase)
_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)


def to_act(state: AslgwState) -> str | None:
    """The side whose decision the game waits for: a pending minefield choice (O'Leary
    4.6.2), a shift window at the start of the phase, the defender in its DFPh, else
    the phasing side."""
    if state.over:
        return None
    if state.minefield is not None:
        return state.minefield[1]
    if state.windows:
        return state.windows[0]
    return state.defender if state.phase is Phase.DFPh else state.phasing


def _windows(state: AslgwState, turn: int, phasing: str, phase: Phase) -> tuple[str, ...]:
    """Sides whose shift window opens at the start of this phase, as its own step: every
    window of a side gwasl keeps secret (its policy acts there), and the enemy MPh
    window of a side given HIP pieces (O'Leary 3.3.2), which is not the side to act."""
    probe = replace(state, turn=turn, phasing=phasing, phase=phase, acted=False)
    defender = state.settings.other(phasing)
    out = []
    for side in (phasing, defender):
        secret_window = side in state.secret and side in state.layer_sides and sh.has_window(probe, side)
        enemy_mph = side == defender and side not in state.secret and phase is Phase.MPh and side in state.hip_sides
        if secret_window or enemy_mph:
            out.append(side)
    return tuple(out)


def _next_phase(state: AslgwState) -> tuple[int, str, Phase] | None:
    i = PHASES.index(state.phase)
    if i + 1 < len(PHASES):
        return state.turn, state.phasing, PHASES[i + 1]
    if state.phasing == state.settings.first:
        return state.turn, state.settings.order[1], Phase.RPh
    if state.turn >= state.settings.turns:
        return None
    return state.turn + 1, state.settings.first, Phase.RPh


def _window_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """gwasl's shift policy at a window of a side whose hidden layer it keeps."""
    side = seat.viewer.name
    view = seat.view()
    return Decision(RunWindow(side),
                    f"gwasl keeps {side}'s hidden layer: its shift policy acts at the start of the {view.phase.value} "
                    "(O'Leary 2.3, 3.3.2, 5.1; gwasl/rules/fog/policy.py)",
                    {"window": view.phase.value, "turn": view.turn})


def _minefield_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """gwasl's choice for an entered minefield of a side whose hidden layer it keeps (O'Leary 4.6.2)."""
    view = seat.view()
    action, why, details = sh.minefield_decision(view, dice.seed)
    return Decision(action, why, details)


class AslgwGame(Game[AslgwState]):
    """ASL: The Great War scenario in play, with O'Leary's fog layer."""

    ruleset: ClassVar[str] = "aslgw"
    display_name: ClassVar[str] = "A Great War scenario"
    source_kind: ClassVar[SourceKind] = SourceKind(SCENARIO_FILE, "a Great War scenario", required=True,
                                                   search="search the scenario library: title, id")
    #: O'Leary's fog: the sides whose hidden layer gwasl keeps and plays; A26.4: the side taking its Balance
    options_offered: ClassVar[tuple[GameOption, ...]] = (SECRET, PRACTICE, GameOption("balance", "Balance (A26.4)", SIDE, rule="A26.4"))
    board: ClassVar[str] = "gwasl.ui.play.aslgw_board:AslgwBoard"
    events = EVENTS
    actions = ACTIONS

    def __init__(self) -> None:
        self._last_legal: tuple[AslgwState, Viewer, list[Record]] | None = None
        self._classes: dict[str, type] | None = None

    # -- set-up ---------------------------------------------------------------
    def setup(self, source: Mapping[str, Any] | None, options: GameOptions) -> AslgwState:
        if source is None:
            raise GameError("an aslgw game starts from a Great War scenario file (give its SOURCE)")
        try:
            sc = parse_scenario(dict(source), "the scenario")
        except ScenarioError as e:
            raise GameError(str(e).splitlines()[0]) from None
        report = validate_scenario(sc)
        if report.errors:
            first = report.errors[0]
            more = f" (and {len(report.errors) - 1} more: see gwasl validate)" if len(report.errors) > 1 else ""
            raise GameError(f"the scenario does not validate: {first.path}: {first.message}{more}")
        settings = game_settings(sc)
        bad = sorted(set(options.secret) - set(sc.sides))
        if bad:
            raise GameError(f"--secret {bad[0][:40]!r} is not a side of this scenario ({', '.join(sc.sides)})")
        fog = FogState.from_scenario(sc)
        hip = frozenset(s for s in sc.sides if fog.hidden_hexes(s) - {st.hex for st in fog.stacks if st.side == s}
                        or any(fog.status_of(u.id) is FogStatus.HIP for u in sc.units if u.side == s))
        layer = frozenset(s for s in sc.sides if fog.hidden_hexes(s))
        try:
            card = scenario_card(sc)
        except CardError as e:
            raise GameError(f"the scenario card: {e}") from None
        balance = options.extra.get("balance")  # A26.4: the side taking its Balance provision
        victory = vic.settle(fog, vic.initial(sc, card, settings.order, balance))
        if balance is not None and card.balance[balance].turns:
            settings = replace(settings, turns=max(1, settings.turns + card.balance[balance].turns))
        return AslgwState(settings, frozenset(options.secret), options.practice, fog, hip, layer,
                          phasing=settings.first, victory=victory)

    # -- snapshots (DESIGN.md "Persistence") -------------------------------------
    #: the packages whose records a snapshot of an aslgw state is built from
    SNAPSHOT_PACKAGES: ClassVar[tuple[str, ...]] = ("gwasl.model.", "gwasl.rules.", "gwasl.games.aslgw.")

    def encode_state(self, state: AslgwState, base: AslgwState | None = None) -> Any:
        """The whole state as self-describing JSON; the parts play has not touched since
        ``base`` (the set-up state: the map, most units) are references to it."""
        return snapshot.encode(state, base)

    def decode_state(self, obj: Any, base: AslgwState | None = None) -> AslgwState:
        if self._classes is None:
            self._classes = snapshot.classes_in(self.SNAPSHOT_PACKAGES)
        try:
            retired: dict[str, Any] = {}
            st = snapshot.decode(obj, self._classes, base, retired)
        except snapshot.SnapshotError as e:
            raise GameError(f"a bad snapshot: {e}") from None
        if not isinstance(st, AslgwState):
            raise GameError("a bad snapshot: not the state of an aslgw game")
        return _migrated(st, retired)

    def begin(self, state: AslgwState, dice: GameDice) -> list[Record]:
        st = state.settings
        return [Opened(state.scenario.title, st.turns, st.order, st.first_setup, tuple(sorted(state.secret))),
                PhaseBegan(1, st.first, Phase.RPh.value, _windows(state, 1, st.first, Phase.RPh))]

    # -- the rules -------------------------------------------------------------
    def sides(self, state: AslgwState) -> tuple[str, ...]:
        return state.settings.order

    def secret_sides(self, state: AslgwState) -> frozenset[str]:
        return state.secret

    def status(self, state: AslgwState) -> Status:
        if state.over:
            return Status(state.turn, state.phase.value, None, True, self._result(state))
        return Status(state.turn, state.phase.value, to_act(state))

    def _result(self, state: AslgwState) -> dict[str, Any]:
        return vic.result_json(state, state.why_over)

    def automated(self, state: AslgwState) -> Mapping[str, Policy]:
        side = to_act(state)
        if side is None or side not in state.secret:
            return {}
        if state.minefield is not None:
            return {side: _minefield_policy}
        if state.windows and state.windows[0] == side:
            return {side: _window_policy}
        return cb.automated(state, side)

    def policy_view(self, state: AslgwState, viewer: Viewer) -> Any:
        """A side's policy reads that side's knowledge (:class:`~gwasl.games.aslgw.shifts.SideKnowledge`)."""
        if viewer.name in state.settings.order:
            return sh.side_view(state, viewer.name)
        return self.view(state, viewer)

    def legal_actions(self, state: AslgwState, viewer: Viewer) -> Sequence[Record]:
        # The list is a pure function of (state, viewer); the last one is kept, since the
        # session lists the actions and then checks the one chosen against the same list.
        last = self._last_legal
        if last is not None and last[0] is state and last[1] == viewer:
            return last[2]
        out = self._legal_actions(state, viewer)
        self._last_legal = (state, viewer, out)
        return out

    def _legal_actions(self, state: AslgwState, viewer: Viewer) -> list[Record]:
        if state.over:
            return []
        side = to_act(state)
        assert side is not None
        knows = viewer.sees_secrets_of(side)
        if state.minefield is not None:
            return sh.minefield_options(state) if knows and side not in state.secret else []
        if state.windows:
            w = state.windows[0]
            if w in state.secret:
                return []
            return [*(sh.shift_options(state, w) if knows else []), EndWindow(w)]
        out: list[Record] = []
        if state.impulse is None:
            if cb.blocks_end(state) is None:
                out.append(EndPhase())
            if knows:
                out += sh.shift_options(state, side)
        if state.phase in (Phase.MPh, Phase.APh) and not cb.movement_paused(state):
            out += self._movement_actions(state, side, viewer, knows)
        out += cb.legal(self, state, viewer, side)  # fire and close combat (issue 12)
        return out

    def _movement_actions(self, state: AslgwState, side: str, viewer: Viewer, knows: bool) -> list[Record]:
        fog = state.fog
        # The moving side's own units as the viewer knows them; the enemy as the moving side
        # knows it (a hidden enemy is found by trying to enter its location, A12.15).
        sc = known_scenario(fog, frozenset({side}) if knows else frozenset())
        out: list[Record] = []
        if state.impulse is not None:
            return self._impulse_actions(state, sc, side, knows)
        modes = mv.MOVE_MODES[state.phase]
        groups: list[mv.Group] = []
        by_loc: dict[tuple[Hex, Position], list[Unit]] = {}
        for u in sc.units:
            if u.side == side and u.kind is not UnitKind.SUPPORT_WEAPON and (knows or not is_hidden(fog, u.id)) \
                    and mv.unit_blocker(state, fog, u) is None:
                by_loc.setdefault((u.hex, u.position), []).append(u)
        stacks = [s for s in fog.stacks if s.side == side] if knows else []
        locs = sorted(set(by_loc) | {(s.hex, s.position) for s in stacks}, key=lambda k: (k[0].column, k[0].row, k[1].value))
        for loc in locs:
            us = sorted(by_loc.get(loc, []), key=lambda u: u.id)
            here = [s for s in stacks if (s.hex, s.position) == loc]
            dummies = tuple(s for s in here if s.is_dummy and not state.unit_play(s.id).done)
            cands: list[mv.Group] = [mv.Group(side, (u,), ()) for u in us]
            # A leader with each unit he may take along (A4.12)
            cands += [mv.Group(side, tuple(sorted((ld, u), key=lambda x: x.id)), ()) for ld in us
                      if ld.kind is UnitKind.LEADER for u in us if u is not ld and u.kind is not UnitKind.LEADER]
            if knows:
                for s in here:
                    if not s.is_dummy:
                        members = tuple(u for u in us if u.id in s.unit_ids)
                        if len(members) > 1:
                            cands.append(mv.Group(side, members, ()))
                cands += [mv.Group(side, (), (d,)) for d in dummies]
            whole = mv.Group(side, tuple(us), dummies)
            if len(whole.ids) > 1:
                cands.append(whole)
            seen: set[tuple[str, ...]] = set()
            for g in cands:
                if g.ids not in seen:
                    seen.add(g.ids)
                    groups.append(g)
        memo: dict[Any, Any] = {}
        for g in groups:
            h, pos = g.location()  # type: ignore[misc]
            for step in steps_from(sc, h, pos):
                for mode in modes:
                    _, why = mv.group_problem(state, sc, fog, g, step.to_hex, step.to_pos, mode, memo=memo)
                    if why is None:
                        out.append(Move(g.ids, step.to_hex.label, step.to_pos.value, mode, not knows))
            if state.phase is Phase.MPh and g.units and not g.dummies and self._may_double_time(state, g):
                out.append(DoubleTime(g.ids))
        if state.phase is Phase.MPh and state.impulse is None:
            can_exit = set(vic.exit_candidates(state, side))
            out += [Exit(g.ids) for g in groups if g.units and not g.dummies and set(g.ids) <= can_exit]
        if not knows:
            out += self._pile_actions(state, sc, side)
        if state.phase is Phase.MPh:
            for pid in sorted(state.platoons - state.platoons_done):
                if self._platoon_side(state, pid) == side and (knows or self._platoon_visible(state, pid)):
                    out += self._impulse_actions(state, sc, side, knows, pid)
        return out

    def _may_double_time(self, state: AslgwState, g: mv.Group) -> bool:
        """A4.5: a unit not CX (A4.51) may Double Time; not after leaving a deep trench
        without a ladder this MPh (ASLGW 2.1.3)."""
        for u in g.units:
            up = state.unit_play(u.id)
            if up.cx or up.double_time or up.no_double_time or up.cx_pending or up.done:
                return False
        return True

    def _pile_actions(self, state: AslgwState, sc: Scenario, side: str) -> list[Record]:
        """Orders to ``side``'s "?" piles by someone who cannot see beneath them."""
        out: list[Record] = []
        mt = movement_table()
        for s_, h, pos, cloaked in piles(state.fog, side):
            spent = state.piles.get((s_, h, pos, cloaked))
            for step in steps_from(sc, h, pos):
                for mode in mv.MOVE_MODES[state.phase]:
                    if mode in ("assault", "advance") and spent is not None:
                        continue
                    if mode == "normal" and (spent or 0.0) + step.cost.mf > mt.concealed_pile_mf:
                        continue
                    if state.phase is Phase.MPh and any(
                            e.side != side for e in _known_enemies(sc, side, step.to_hex, step.to_pos)):
                        continue
                    out.append(MovePile(side, h.label, pos.value, cloaked, step.to_hex.label, step.to_pos.value, mode))
        return out

    def _platoon_side(self, state: AslgwState, pid: str) -> str | None:
        for u in state.scenario.units:
            if u.platoon == pid:
                return u.side
        return None

    def _platoon_visible(self, state: AslgwState, pid: str) -> bool:
        members = self._impulse_members(state, state.scenario, pid)
        return all(not is_hidden(state.fog, u.id) for u in members)

    def _impulse_members(self, state: AslgwState, sc: Scenario, pid: str) -> list[Unit]:
        return [u for u in sc.units if mv.impulse_member(state, sc, u) == pid]

    def _impulse_actions(self, state: AslgwState, sc: Scenario, side: str, knows: bool, pid: str | None = None) -> list[Record]:
        imp = state.impulse
        pid = pid or (imp.platoon if imp else None)
        if pid is None:
            return []
        out: list[Record] = []
        memo: dict[Any, Any] = {}
        members = self._impulse_members(state, sc, pid)
        steps = imp.steps if imp is not None and imp.platoon == pid else {}
        current = max((m.mf for m in steps.values()), default=0.0)
        # ASLGW 1.4.1: every moving member pays what the one that spends most spends.
        left = {u.id: mv.allowance(state, sc, u, ()) - state.unit_play(u.id).mf_spent for u in members}
        stepped_left = min((left.get(k, 0.0) for k in steps), default=float("inf"))
        for u in members:
            if u.id in steps or (imp is not None and u.id in imp.detached):
                continue
            if mv.unit_blocker(state, state.fog, u, impulse=True) is not None:
                continue
            for step in steps_from(sc, u.hex, u.position):
                if step.to_hex == u.hex:
                    continue  # an impulse moves members from hex to hex (ASLGW 1.4.1)
                _, why = mv.group_problem(state, sc, state.fog, mv.Group(side, (u,), ()), step.to_hex, step.to_pos,
                                          "normal", impulse_cost=current, memo=memo)
                if why is None and max(current, step.cost.mf) <= min(stepped_left, left[u.id]):
                    out.append(ImpulseStep(pid, u.id, step.to_hex.label, step.to_pos.value, not knows))
        if steps and self._impulse_check(state, sc, pid).legal:
            out.append(EndImpulse(pid))
        for u in members:
            if u.kind in _SQUADS:
                out.append(Detach(pid, u.id))
        if imp is None:
            out.append(EndPlatoon(pid))
        return out

    def _impulse_check(self, state: AslgwState, sc: Scenario, pid: str):
        imp = state.impulse
        steps = imp.steps if imp is not None and imp.platoon == pid else {}
        members = []
        for u in self._impulse_members(state, sc, pid):
            up = state.unit_play(u.id)
            st = steps.get(u.id)
            members.append(MemberStep(u.id, u.kind, st.start if st else u.hex, (st.to,) if st else (),
                                      st.mf if st else 0, up.mf_spent, mv.allowance(state, sc, u, ())))
        return check_impulse(members)  # detached members are no longer members (ASLGW 1.4.13)

    def check_legal(self, state: AslgwState, action: Record, viewer: Viewer) -> None:
        if not isinstance(action, tuple(ACTIONS.kinds().values())):
            raise IllegalAction(f"{action.kind!r} is not an action of {self.ruleset}")
        if action not in self.legal_actions(state, viewer):
            raise IllegalAction(self.why_illegal(state, action, viewer))

    def why_illegal(self, state: AslgwState, action: Record, viewer: Viewer) -> str:
        side = to_act(state)
        if state.over:
            return "the game is over"
        if isinstance(action, EndPhase) and state.impulse is not None:
            return f"platoon {state.impulse.platoon} is in the middle of an impulse: end it first (ASLGW 1.4.1)"
        if isinstance(action, EndPhase) and cb.blocks_end(state):
            return str(cb.blocks_end(state))
        combat_why = cb.why_illegal(self, state, action, viewer)
        if combat_why:
            return combat_why
        if isinstance(action, (Move, MovePile, ImpulseStep)) and state.phase not in mv.MOVE_MODES:
            return f"no movement in the {state.phase.value} (units move in the MPh and advance in the APh, A3, A4.7)"
        if isinstance(action, Move):
            why = self._why_move(state, action, viewer, side)
            if why:
                return why
        if isinstance(action, Shift) and not viewer.sees_secrets_of(action.side):
            return f"the shifts of {action.side} are its secret: gwasl decides them"
        return super().why_illegal(state, action, viewer)

    def _why_move(self, state: AslgwState, action: Move, viewer: Viewer, side: str | None) -> str | None:
        fog = state.fog
        try:
            to = Hex.from_label(action.to)
            to_in = Position(action.to_in)
        except (HexLabelError, ValueError) as e:
            return str(e)
        if not fog.scenario.map.contains(to):
            return f"hex {to} is outside the map"
        units = []
        for pid in action.pieces:
            try:
                u = fog.scenario.unit(pid)
            except KeyError:
                return f"no unit {pid[:40]!r} of the side to act that you can see"
            if u.side != side or (is_hidden(fog, u.id) and not viewer.sees_secrets_of(u.side)):
                return f"no unit {pid[:40]!r} of the side to act that you can see"
            units.append(u)
        sc = known_scenario(fog, frozenset({str(side)}) if viewer.sees_secrets_of(str(side)) else frozenset())
        _, why = mv.group_problem(state, sc, fog, mv.Group(str(side), tuple(units), ()), to, to_in, action.mode)
        return why

    # -- apply -------------------------------------------------------------------
    def apply(self, state: AslgwState, action: Record, dice: GameDice) -> list[Record]:
        events = self._apply(state, action, dice)
        return events + self._immediate_victory(state, events)

    def _immediate_victory(self, state: AslgwState, events: list[Record]) -> list[Record]:
        """A26: a side whose conditions the card calls immediate wins as soon as they hold."""
        card = state.victory.card
        if not any(v.immediate for v in card.victory.values()) or any(isinstance(e, Over) for e in events):
            return []
        st = state
        for e in events:
            st = self.reduce(st, e)
        v = vic.verdict(st, over=False)
        return self._verdict_events(st, v, immediate=True) if v is not None else []

    def _verdict_events(self, state: AslgwState, v: vic.Verdict, immediate: bool) -> list[Record]:
        r = vic.verdict_record(v, state)
        return [Judged(v.winner, v.why, immediate,
                       tuple(sorted(s for s, ok in v.met.items() if ok)), v.details, r["cvp"], r["exit_vp"],
                       r["control"]["hexes"], r["control"]["buildings"]),
                Over(v.why)]

    def _exit(self, state: AslgwState, action: Exit) -> list[Record]:
        sc: Scenario = state.scenario
        units = tuple(sorted(action.pieces))
        return [Exited(sc.unit(units[0]).side, units, tuple(sc.unit(u).hex.label for u in units),
                       sum(vic.exit_loss(sc, u).vp for u in units))]

    def _apply(self, state: AslgwState, action: Record, dice: GameDice) -> list[Record]:
        if state.over:
            raise IllegalAction("the game is over")
        combat = cb.apply(self, state, action, dice)  # fire and close combat (issue 12)
        if combat is not None:
            return combat
        if isinstance(action, Exit):  # leaving the map through the card's exit area (A26.23)
            return self._exit(state, action)
        if isinstance(action, (Move, MovePile, ImpulseStep, EndImpulse)):
            events = self._apply_move(state, action, dice)
            return events + cb.after_move(self, state, events, dice)
        return self._apply_move(state, action, dice)

    def _apply_move(self, state: AslgwState, action: Record, dice: GameDice) -> list[Record]:
        if isinstance(action, EndPhase):
            return self._end_phase(state, dice)
        if isinstance(action, EndWindow):
            return [WindowEnded(action.side)]
        if isinstance(action, RunWindow):
            return sh.run_window(state, action.side, dice.seed)
        if isinstance(action, Shift):
            return sh.resolve_player_shift(state, action, dice)
        if isinstance(action, MinefieldChoice):
            return sh.resolve_minefield(state, action, dice)
        if isinstance(action, Move):
            g = self._group(state, action.pieces)
            return mv.resolve_step(state, dice, g, Hex.from_label(action.to), Position(action.to_in), action.mode,
                                   blind=action.blind, seed=dice.seed)
        if isinstance(action, MovePile):
            h, pos = Hex.from_label(action.at), Position(action.at_in)
            stacks = mv.pile_stacks(state.fog, action.side, h, pos, action.cloaked)
            unit_ids = [i for s in stacks for i in s.unit_ids]
            units = tuple(u for u in state.scenario.units if u.id in unit_ids and u.kind is not UnitKind.SUPPORT_WEAPON)
            g = mv.Group(action.side, units, tuple(s for s in stacks if s.is_dummy))
            if not g.ids:
                # Nothing beneath the "?" moves on its own (a support weapon left alone): it shows.
                return [Resolved(action.side, (), ("nothing beneath the \"?\" can move on its own",)),
                        ConcealmentLost(action.side, tuple(sorted(unit_ids)), action.at,
                                        "ordered to move, nothing beneath the \"?\" could")]
            return mv.resolve_step(state, dice, g, Hex.from_label(action.to), Position(action.to_in), action.mode,
                                   blind=True, seed=dice.seed)
        if isinstance(action, DoubleTime):
            g = self._group(state, action.pieces)
            loc = g.location()
            assert loc is not None
            fog = state.fog
            shown = tuple(u.id for u in g.units if not is_hidden(fog, u.id))
            counters = len({fog.stack_of_unit(u.id).id for u in g.units if fog.stack_of_unit(u.id) is not None})  # type: ignore[union-attr]
            return [DoubleTimed(g.side, tuple(u.id for u in g.units), shown, counters, loc[0].label)]
        if isinstance(action, ImpulseStep):
            u = state.scenario.unit(action.unit)
            return mv.resolve_step(state, dice, mv.Group(u.side, (u,), ()), Hex.from_label(action.to),
                                   Position(action.to_in), "normal", blind=action.blind, seed=dice.seed,
                                   platoon=action.platoon)
        if isinstance(action, EndImpulse):
            imp = state.impulse
            assert imp is not None
            res = self._impulse_check(state, state.scenario, action.platoon)
            movers = tuple(sorted(k for k in imp.steps if k not in imp.detached))
            side = self._platoon_side(state, action.platoon) or ""
            return [ImpulseEnded(side, action.platoon, float(res.platoon_mf), movers, tuple(sorted(imp.detached)))]
        if isinstance(action, Detach):
            return [Detached(self._platoon_side(state, action.platoon) or "", action.platoon, action.unit)]
        if isinstance(action, EndPlatoon):
            return [PlatoonDone(self._platoon_side(state, action.platoon) or "", action.platoon)]
        raise IllegalAction(f"{action.kind!r} is not an action of {self.ruleset}")

    def _group(self, state: AslgwState, pieces: Sequence[str]) -> mv.Group:
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
        return mv.Group(side, tuple(units), tuple(dummies))

    def _end_phase(self, state: AslgwState, dice: GameDice) -> list[Record]:
        nxt = _next_phase(state)
        if nxt is None:
            v = vic.verdict(state, over=True)
            if v is not None:
                return self._verdict_events(state, v, immediate=False)
            return [Over(f"turn {state.settings.turns} is over: the scenario has ended (its card gives no victory conditions)")]
        turn, phasing, phase = nxt
        began = PhaseBegan(turn, phasing, phase.value, _windows(state, turn, phasing, phase))
        return [began, *cb.phase_events(self, self.reduce(state, began), dice)]

    # -- reduce --------------------------------------------------------------------
    def reduce(self, state: AslgwState, event: Record) -> AslgwState:
        new = self._reduce(state, event)
        # A26.11: Control is re-judged after every event that moves, breaks, reveals or removes a unit
        return new if vic.is_quiet(event) else vic.track(state, new)

    def _reduce(self, state: AslgwState, event: Record) -> AslgwState:
        if isinstance(event, Exited):
            fog = vic.remove_units(state.fog, event.units)
            losses = tuple(vic.exit_loss(state.scenario, u) for u in event.units)
            return replace(state, fog=fog, victory=replace(state.victory, losses=state.victory.losses + losses))
        if isinstance(event, Judged):
            r = {"winner": event.winner, "why": event.why, "immediate": event.immediate, "met": list(event.met),
                 "details": list(event.details), "cvp": dict(event.cvp), "exit_vp": dict(event.exit_vp),
                 "control": {"hexes": dict(event.control_hexes), "buildings": dict(event.control_buildings)},
                 "turn": state.turn, "turns": state.settings.turns}
            return replace(state, victory=replace(state.victory, result=r))
        if isinstance(event, (Rolled, Decided, Opened, ShiftSeen)):
            return state
        if isinstance(event, PhaseBegan):
            return cb.reduce_phase(state, self._begin_phase(state, event), event)
        if isinstance(event, WindowEnded):
            w = list(state.windows)
            if event.side in w:
                w.remove(event.side)
            return replace(state, windows=tuple(w))
        if isinstance(event, Over):
            return replace(state, over=True, why_over=event.why)
        if isinstance(event, Moved):
            return cb.reduce_moved(state, self._moved(state, event), event)
        if isinstance(event, NtcTaken):
            up = state.unit_play(event.unit)
            up = replace(up, ntc_passed=True) if event.passed else replace(up, ntc_failed=True)
            return state.with_play({event.unit: up})
        if isinstance(event, Resolved):
            pos = state.private_position(event.side)
            for r in event.rolls:
                pos = max(pos, r.n + len(r.dice))
            st = replace(state, private_dice=ro({**state.private_dice, event.side: pos}))
            st = st.with_play({u: replace(st.unit_play(u), detached=True) for u in event.freed})
            ch = {u: replace(st.unit_play(u), ntc_passed=True) for u in event.passed}
            ch.update({u: replace(st.unit_play(u), ntc_failed=True) for u in event.failed})
            return st.with_play(ch)
        if isinstance(event, Stopped):
            ch = {}
            for i in (*event.units, *event.dummies):
                up = state.unit_play(i)
                ch[i] = replace(up, done=True) if event.ends or event.reveals else up
            st = state.with_play(ch)
            if state.impulse is not None:
                steps = {k: v for k, v in state.impulse.steps.items() if k not in event.units}
                st = replace(st, impulse=replace(state.impulse, steps=ro(steps)))
            return st
        if isinstance(event, ConcealmentLost):
            fog = state.fog
            hip = [u for u in event.units if fog.status_of(u) is FogStatus.HIP]
            fog = lose_concealment(fog, [u for u in event.units if u not in hip], event.why).state
            if hip:
                fog = fog.with_status({u: FogStatus.NONE for u in hip})
            return replace(state, fog=fog)
        if isinstance(event, DummyRemoved):
            gone = set(event.stacks)
            return replace(state, fog=state.fog.with_stacks(s for s in state.fog.stacks if s.id not in gone))
        if isinstance(event, HipRevealed):
            return replace(state, fog=reveal_hip(state.fog, event.side, Hex.from_label(event.at), event.why).state)
        if isinstance(event, DoubleTimed):
            sc = state.scenario
            ch = {}
            for uid in event.units:
                u = sc.unit(uid)
                up = mv.start_play(state, sc, u, event.units)
                ch[uid] = replace(up, allowance=(up.allowance or 0.0) + mv.dt_bonus(), double_time=True, cx=True)
            return state.with_play(ch)
        if isinstance(event, ImpulseEnded):
            ch = {}
            for uid in event.units:
                up = state.unit_play(uid)
                ch[uid] = replace(up, mf_spent=up.mf_spent + event.mf, moved=True)
            return cb.reduce_moved(state, replace(state.with_play(ch), impulse=None), event)
        if isinstance(event, Detached):
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
        if isinstance(event, PlatoonDone):
            sc = state.scenario
            members = [u.id for u in sc.units if mv.impulse_member(state, sc, u) == event.platoon]
            st = state.with_play({m: replace(state.unit_play(m), done=True) for m in members})
            return replace(st, platoons_done=st.platoons_done | {event.platoon})
        if isinstance(event, ShiftResolved):
            fog, rec = sh.apply_shift(state, event.side, event.ledger, event.a, event.b, event.dice)
            return replace(state, fog=fog, ledger=state.ledger + (rec,))
        if isinstance(event, ShiftWindow):
            st = state
            pos = state.private_position(event.side)
            for a in event.attempts:
                fog, rec = sh.apply_shift(st, event.side, a.ledger, a.a, a.b, a.roll.dice)
                st = replace(st, fog=fog, ledger=st.ledger + (rec,))
                pos = max(pos, a.roll.n + len(a.roll.dice))
            return replace(st, private_dice=ro({**state.private_dice, event.side: pos}))
        if isinstance(event, MinefieldEntered):
            return replace(state, minefield=(event.minefield, event.owner))
        if isinstance(event, MinefieldShifted):
            fog, rec = sh.apply_minefield(state, event.owner, event.minefield, event.other, event.dice)
            return replace(state, fog=fog, minefield=None, ledger=state.ledger + rec)
        combat = cb.reduce(state, event)  # fire and close combat (issue 12)
        if combat is not None:
            return combat
        raise GameError(f"{self.ruleset} cannot replay an event of kind {event.kind!r}")

    def _begin_phase(self, state: AslgwState, e: PhaseBegan) -> AslgwState:
        phase = Phase(e.phase)
        fog = state.fog
        if state.started and state.phase is Phase.CCPh:
            # O'Leary 2.2: potential dummy stacks sharing a location merge at the end of their CCPh.
            fog = merge_potential_dummies(fog, state.phasing, state.clock).state
        new_turn = not state.started or e.turn != state.turn or e.phasing != state.phasing
        play = {}
        for k, up in state.play.items():
            nu = up.new_phase()
            if new_turn:
                owner = _owner(state, k)
                # A4.51 (gwasl's reading): CX lasts until its side's next player turn begins.
                nu = replace(nu, ntc_passed=False, cx=nu.cx and owner != e.phasing)
            if nu != UnitPlay():
                play[k] = nu
        fog = replace(player_turn_began(fog) if new_turn else fog, spent=ro({}))
        st = replace(state, fog=fog, turn=e.turn, phasing=e.phasing, phase=phase, started=True, windows=e.windows,
                     acted=False, play=ro(play), impulse=None, platoons=frozenset(), platoons_done=frozenset(), piles=ro({}))
        if phase is Phase.MPh:
            st = self._platoons_at_mph(st)
        return st

    def _platoons_at_mph(self, st: AslgwState) -> AslgwState:
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

    def _moved(self, state: AslgwState, e: Moved) -> AslgwState:
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
            up = mv.start_play(state, sc, u, group_ids)
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

    def irreversible(self, event: Record) -> bool:
        """Rolls (shared or private) and reveals stop a take-back outside practice mode;
        so does gwasl's policy at a window, whatever it tried (the take-back must not
        tell whether it rolled)."""
        return super().irreversible(event) or isinstance(event, (Resolved, ShiftWindow, NtcTaken, ShiftResolved))

    def odds(self, state: AslgwState, action: Record, viewer: Viewer) -> list[Outcome]:
        combat = cb.odds(state, action, viewer)  # fire and close combat (issue 12)
        if combat is not None:
            return combat
        if isinstance(action, Shift):
            return [Outcome(k, float(v)) for k, v in sh.shift_odds(state, action).items()]
        if isinstance(action, MinefieldChoice):
            return [Outcome(k, float(v)) for k, v in sh.minefield_odds(state, action).items()]
        if isinstance(action, MovePile) or (isinstance(action, (Move, ImpulseStep)) and action.blind):
            return [Outcome("resolved by gwasl from what you cannot see (task checks on the side's own dice)", 1.0)]
        if isinstance(action, (Move, ImpulseStep)):
            pieces = action.pieces if isinstance(action, Move) else (action.unit,)
            return _ntc_odds(state, self._group(state, pieces))
        return []

    # -- views -----------------------------------------------------------------------
    def view(self, state: AslgwState, viewer: Viewer) -> dict[str, Any]:
        st = self.status(state)
        return views.state_view(state, viewer, st)

    def event_view(self, event: Record, viewer: Viewer) -> Shown | None:
        if isinstance(event, Rolled):
            return self.roll_shown(event, viewer)
        if isinstance(event, Decided):
            return self.decision_shown(event, viewer)
        return views.event_view(event, viewer)

    def action_view(self, state: AslgwState, action: Record, viewer: Viewer) -> Shown:
        return views.action_view(state, action, viewer)


def _ntc_odds(state: AslgwState, g: mv.Group) -> list[Outcome]:
    """Exact odds of the NTCs a move needs (ASLGW 1.3.2, 1.4.13): every pass/fail combination."""
    sc = state.scenario
    needs = []
    for u in g.units:
        n = mv.ntc_need(state, sc, u, state.phase)
        if n is not None:
            p = Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + n.drm <= n.morale), 36)
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


def _owner(state: AslgwState, piece: str) -> str | None:
    try:
        return state.scenario.unit(piece).side
    except KeyError:
        for s in state.fog.stacks:
            if s.id == piece:
                return s.side
    return None


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


def _known_enemies(sc: Scenario, side: str, h: Hex, pos: Position) -> list[Unit]:
    from gwasl.rules.trenches import enemies_in_the_way

    try:
        return list(enemies_in_the_way(sc, side, h, pos))
    except LocationError:
        return []


def _migrated(st: AslgwState, retired: Mapping[str, Any]) -> AslgwState:
    """A snapshot written while the fog layer kept the shift ledger and the turn clock
    (FogState.ledger, .clock): they move to the game's state, where they are now."""
    ledger = retired.get("FogState.ledger")
    clock = retired.get("FogState.clock")
    if ledger is None and clock is None:
        return st
    if not (ledger is None or isinstance(ledger, tuple)) or not all(isinstance(r, ShiftRecord) for r in ledger or ()) or \
            not (clock is None or isinstance(clock, Clock)):
        raise GameError("a bad snapshot: its fog layer's shift ledger or turn clock is malformed")
    return replace(st, ledger=ledger if ledger is not None else st.ledger,
                   acted=st.acted or (clock is not None and clock.acted))
