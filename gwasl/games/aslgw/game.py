"""A Great War scenario in play (ruleset ``aslgw``): the :class:`AslgwGame`.

The game is the engine's face of the package: set-up from a scenario file
(with its card, A26, and the fog layer, O'Leary), snapshots, status and views
per viewer (docs/format/aslgw.md).  What the rules do -- the turn (A3),
movement (A4; ASLGW 1.3-1.4, 1.8, 2.1-2.2), fire, rally, rout, close combat,
Bayonet Charge and gas (issue 12), O'Leary's shifts and gwasl's policies for a
side whose hidden layer it keeps, victory (A26) -- is the families' of
:mod:`gwasl.games.aslgw.actions`, which the game reaches through
:mod:`~gwasl.games.aslgw.actions.dispatch`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from gwasl.engine import snapshot
from gwasl.engine.advice import Advisor
from gwasl.engine.dice import GameDice
from gwasl.engine.events import Decided, Rolled
from gwasl.engine.game import (
    PRACTICE,
    SCENARIO_FILE,
    SECRET,
    SIDE,
    Game,
    GameError,
    GameOption,
    GameOptions,
    IllegalAction,
    Outcome,
    Policy,
    Shown,
    SourceKind,
    Status,
    Viewer,
)
from gwasl.engine.record import Record
from gwasl.games.aslgw import seats, views
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw.actions import dispatch, turn
from gwasl.games.aslgw.actions.shifts import side_view
from gwasl.games.aslgw.actions.turn import to_act
from gwasl.games.aslgw.records import (
    ACTIONS,
    EVENTS,
    NtcTaken,
    Pass,
    Passed,
    ReasonShown,
    Resolved,
    ShiftResolved,
    ShiftWindow,
)
from gwasl.games.aslgw.settings import game_settings
from gwasl.games.aslgw.state import FORMER_TYPE_NAMES, AslgwState
from gwasl.model.scenario_io import ScenarioError, parse_scenario
from gwasl.rules.card import CardError, scenario_card
from gwasl.rules.fog.state import Clock, FogState, FogStatus, ShiftRecord
from gwasl.rules.validate import validate_scenario

__all__ = ["AslgwGame", "to_act"]


class AslgwGame(Game[AslgwState]):
    """ASL: The Great War scenario in play, with O'Leary's fog layer."""

    ruleset: ClassVar[str] = "aslgw"
    display_name: ClassVar[str] = "A Great War scenario"
    source_kind: ClassVar[SourceKind] = SourceKind(SCENARIO_FILE, "a Great War scenario", required=True,
                                                   search="search the scenario library: title, id")
    #: O'Leary's fog: the sides whose hidden layer gwasl keeps and plays; A26.4: the side taking its Balance
    options_offered: ClassVar[tuple[GameOption, ...]] = (
        SECRET, PRACTICE, GameOption("balance", "Balance (A26.4)", SIDE, rule="A26.4"),
        # issue 25: gwasl plays this side and keeps its secrets; the person the other (docs/opponent.md)
        GameOption("opponent", "gwasl plays (you the other side)", SIDE, rule="docs/opponent.md"))
    board: ClassVar[str] = "gwasl.ui.play.aslgw_board:AslgwBoard"
    events = EVENTS
    actions = ACTIONS

    def __init__(self) -> None:
        self._last_legal: tuple[AslgwState, Viewer, list[Record]] | None = None
        self._classes: dict[str, type] | None = None
        #: the last legal list checked against and its actions as a set (check_legal)
        self._legal_set: tuple[Sequence[Record], frozenset[Record] | None] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {}  # batch play's workers get the game without its caches (a state does not pickle)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]

    # -- set-up ---------------------------------------------------------------
    @classmethod
    def start_options(cls, choices: Mapping[str, Any], sides: Sequence[str]) -> GameOptions:
        """The chosen options; a side gwasl plays (``opponent``) is one whose secrets it keeps
        (``--opponent`` implies ``--secret``, issue 25)."""
        options = super().start_options(choices, sides)
        opponent = options.extra.get("opponent")
        if isinstance(opponent, str):
            options = replace(options, secret=options.secret | {opponent})
        return options

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
        opponents = _opponents(options.extra.get("opponent"), tuple(sc.sides))
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
        # the side gwasl plays keeps its secrets (--opponent implies --secret)
        return AslgwState(settings, frozenset(options.secret) | opponents, options.practice, fog, hip, layer,
                          phasing=settings.first, victory=victory, opponents=opponents)

    # -- snapshots (docs/architecture.md "Persistence") -------------------------------------
    #: the packages whose records a snapshot of an aslgw state is built from
    SNAPSHOT_PACKAGES: ClassVar[tuple[str, ...]] = ("gwasl.model.", "gwasl.rules.", "gwasl.games.aslgw.")

    def encode_state(self, state: AslgwState, base: AslgwState | None = None) -> Any:
        """The whole state as self-describing JSON; the parts play has not touched since
        ``base`` (the set-up state: the map, most units) are references to it."""
        return snapshot.encode(state, base)

    def decode_state(self, obj: Any, base: AslgwState | None = None) -> AslgwState:
        if self._classes is None:
            # a snapshot from before the package was cut by families names some types where they were
            self._classes = {**snapshot.classes_in(self.SNAPSHOT_PACKAGES), **FORMER_TYPE_NAMES}
        try:
            retired: dict[str, Any] = {}
            st = snapshot.decode(obj, self._classes, base, retired)
        except snapshot.SnapshotError as e:
            raise GameError(f"a bad snapshot: {e}") from None
        if not isinstance(st, AslgwState):
            raise GameError("a bad snapshot: not the state of an aslgw game")
        return _migrated(st, retired)

    def begin(self, state: AslgwState, dice: GameDice) -> list[Record]:
        return turn.begin(state)

    # -- the rules (the families', through the dispatcher) ---------------------
    def sides(self, state: AslgwState) -> tuple[str, ...]:
        return state.settings.order

    def secret_sides(self, state: AslgwState) -> frozenset[str]:
        return state.secret

    def status(self, state: AslgwState) -> Status:
        if state.over:
            return Status(state.turn, state.phase.value, None, True, self._result(state))
        return Status(state.turn, state.phase.value, seats.acting(state))

    def _result(self, state: AslgwState) -> dict[str, Any]:
        return vic.result_json(state, state.why_over)

    def automated(self, state: AslgwState) -> Mapping[str, Policy]:
        if state.opponents:
            side = seats.acting(state)
            if side in state.opponents and state.minefield is None and not (state.windows and state.windows[0] == side):
                from gwasl.games.aslgw import opponent as opp  # only a game gwasl plays a side of loads it

                return opp.automated(side, state.opponents)
        return dispatch.automated(state)

    def batch_counts(self, events: Sequence[Record]) -> Mapping[str, int]:
        """What batch play counts per game: self-inflicted breaks (FPF's NMC, A8.31)."""
        from gwasl.games.aslgw import opponent as opp  # batch play only

        return opp.self_breaks(events)

    def policies(self) -> Mapping[str, Policy]:
        """gwasl's opponent (the best), and the passive and random sides it is measured against
        (docs/opponent.md)."""
        from gwasl.games.aslgw import opponent as opp  # batch play and suggestions only

        return opp.POLICIES

    def advisor(self) -> Advisor:
        """Suggest a move ranks a few plans for your side by rollouts from what your seat knows
        (:mod:`.advisor`, issue 27 item 11)."""
        from gwasl.games.aslgw.advisor import advise

        return lambda seat, policies, dice: advise(self, seat, policies, dice)

    def known_state(self, state: AslgwState, viewer: Viewer) -> AslgwState:
        """The advisor's rollouts start from what ``viewer`` knows only (:func:`.advisor.rollout_state`:
        O'Leary 2.1 and A12.1, a "?" is where and how many, never what; hidden units absent)."""
        from gwasl.games.aslgw.advisor import rollout_state

        return rollout_state(state, viewer)

    def policy_view(self, state: AslgwState, viewer: Viewer) -> Any:
        """A side's policy reads that side's knowledge (:class:`~gwasl.games.aslgw.actions.shifts.SideKnowledge`)."""
        if viewer.name in state.settings.order:
            return side_view(state, viewer.name)
        return self.view(state, viewer)

    def legal_actions(self, state: AslgwState, viewer: Viewer) -> Sequence[Record]:
        # The list is a pure function of (state, viewer); the last one is kept, since the
        # session lists the actions and then checks the one chosen against the same list.
        last = self._last_legal
        if last is not None and last[0] is state and last[1] == viewer:
            return last[2]
        out = seats.legal(state, viewer)
        self._last_legal = (state, viewer, out)
        return out

    def check_legal(self, state: AslgwState, action: Record, viewer: Viewer) -> None:
        if not isinstance(action, tuple(ACTIONS.kinds().values())):
            raise IllegalAction(f"{action.kind!r} is not an action of {self.ruleset}")
        if not self._offered(action, self.legal_actions(state, viewer)):
            raise IllegalAction(self.why_illegal(state, action, viewer))

    def _offered(self, action: Record, legal: Sequence[Record]) -> bool:
        """``action in legal``, by a set kept for the list (a session checks many actions, and
        the twin probes hundreds, against one list; a list scan compares each record)."""
        kept = self._legal_set
        if kept is None or kept[0] is not legal:
            try:
                kept = (legal, frozenset(legal))
            except TypeError:  # a record that does not hash: the list itself answers
                kept = (legal, None)
            self._legal_set = kept
        if kept[1] is None:
            return action in legal
        try:
            return action in kept[1]
        except TypeError:
            return action in legal

    def why_illegal(self, state: AslgwState, action: Record, viewer: Viewer) -> str:
        return seats.why_not(state, action, viewer) or dispatch.why_illegal(state, action, viewer)

    def apply(self, state: AslgwState, action: Record, dice: GameDice) -> list[Record]:
        events = seats.apply_pass(state, action, dice) if isinstance(action, Pass) else dispatch.apply(state, action, dice)
        # a side's private reasons about units now revealed are shown to all (issue 25)
        return events + seats.reasons_shown(state, events, self.reduce) if state.private_reasons else events

    def reduce(self, state: AslgwState, event: Record) -> AslgwState:
        fn = seats.REDUCERS.get(type(event))
        return fn(state, event) if fn is not None else dispatch.reduce(state, event)

    def irreversible(self, event: Record) -> bool:
        """Rolls (shared or private) and reveals stop a take-back outside practice mode;
        so does gwasl's policy at a window, whatever it tried (the take-back must not
        tell whether it rolled)."""
        return super().irreversible(event) or isinstance(event, (Resolved, ShiftWindow, NtcTaken, ShiftResolved))

    def odds(self, state: AslgwState, action: Record, viewer: Viewer) -> list[Outcome]:
        return dispatch.odds(state, action, viewer)

    # -- views -----------------------------------------------------------------------
    def view(self, state: AslgwState, viewer: Viewer) -> dict[str, Any]:
        st = self.status(state)
        return views.state_view(state, viewer, st)

    def event_view(self, event: Record, viewer: Viewer) -> Shown | None:
        if isinstance(event, Rolled):
            return self.roll_shown(event, viewer)
        if isinstance(event, Decided):
            return self.decision_shown(event, viewer)
        if isinstance(event, Passed):
            return seats.passed_view(event, viewer)
        if isinstance(event, ReasonShown):
            return seats.reason_view(event, viewer)
        return views.event_view(event, viewer)

    def action_view(self, state: AslgwState, action: Record, viewer: Viewer) -> Shown:
        if isinstance(action, Pass):
            return seats.pass_view(action)
        return views.action_view(state, action, viewer)


def _opponents(raw: Any, sides: Sequence[str]) -> frozenset[str]:
    """The sides gwasl plays (game option ``opponent``: a side id, or a list of them for batch play)."""
    if raw is None:
        return frozenset()
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise GameError("game option opponent: a side id (or a list of side ids)")
    bad = [n for n in names if n not in sides]
    if bad:
        raise GameError(f"--opponent {bad[0][:40]!r} is not a side of this scenario ({', '.join(sides)})")
    return frozenset(names)


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
