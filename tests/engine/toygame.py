"""A tiny game for testing the engine: two sides race along a track of 12 squares.

Each side has a secret trap square (hidden from the other side).  On its
turn a side may ``step`` one square (no dice), ``run`` a die's worth of
squares (a roll), or ``pass``.  Landing on the other side's trap reveals
it and sends the runner back to 0.  First to 12 wins.  ``blue`` can be
automated: it runs while behind and steps otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from gwasl.engine.dice import GameDice
from gwasl.engine.events import ENGINE_EVENTS, Decided, Rolled
from gwasl.engine.game import Decision, Game, GameError, GameOptions, Seat, Shown, Status, Viewer
from gwasl.engine.record import Record, Registry

EVENTS = Registry("toy event", ENGINE_EVENTS)
ACTIONS = Registry("toy action")
SIDES = ("red", "blue")


@ACTIONS.register
@dataclass(frozen=True)
class Step(Record):
    kind: ClassVar[str] = "step"


@ACTIONS.register
@dataclass(frozen=True)
class Run(Record):
    kind: ClassVar[str] = "run"


@ACTIONS.register
@dataclass(frozen=True)
class Pass(Record):
    kind: ClassVar[str] = "pass"


@EVENTS.register
@dataclass(frozen=True)
class Moved(Record):
    kind: ClassVar[str] = "moved"
    side: str
    to: int


@EVENTS.register
@dataclass(frozen=True)
class Trapped(Record):
    kind: ClassVar[str] = "trapped"
    side: str
    trap_of: str
    at: int
    reveals: bool = True


@EVENTS.register
@dataclass(frozen=True)
class TurnPassed(Record):
    kind: ClassVar[str] = "turn"
    to: str


@dataclass(frozen=True)
class ToyState:
    pos: tuple[int, int]
    traps: tuple[int, int]
    known_traps: tuple[bool, bool]
    side: int
    turn: int
    secret: frozenset[str]
    auto_blue: bool


class ToyGame(Game[ToyState]):
    ruleset: ClassVar[str] = "toy"
    events = EVENTS
    actions = ACTIONS

    def setup(self, source: Mapping[str, Any] | None, options: GameOptions) -> ToyState:
        src = dict(source or {})
        traps = src.get("traps", [5, 7])
        if not (isinstance(traps, list) and len(traps) == 2 and all(isinstance(t, int) for t in traps)):
            raise GameError("traps must be two squares")
        return ToyState((0, 0), (traps[0], traps[1]), (False, False), 0, 1, options.secret,
                        bool(options.extra.get("auto_blue")))

    def sides(self, state: ToyState) -> tuple[str, ...]:
        return SIDES

    def secret_sides(self, state: ToyState) -> frozenset[str]:
        return state.secret

    def status(self, state: ToyState) -> Status:
        for i, p in enumerate(state.pos):
            if p >= 12:
                return Status(state.turn, "race", None, True, {"winner": SIDES[i], "why": f"{SIDES[i]} reached 12"})
        return Status(state.turn, "race", SIDES[state.side])

    def legal_actions(self, state: ToyState, viewer: Viewer) -> Sequence[Record]:
        return [Step(), Run(), Pass()]

    def apply(self, state: ToyState, action: Record, dice: GameDice) -> list[Record]:
        me = state.side
        other = 1 - me
        if isinstance(action, Pass):
            return [TurnPassed(SIDES[other])]
        if isinstance(action, Run):
            r = dice.dr("run: squares moved")
            events: list[Record] = [dice.event(r)]
            to = state.pos[me] + r.total
        else:
            events, to = [], state.pos[me] + 1
        events.append(Moved(SIDES[me], to))
        if to == state.traps[other]:
            events.append(Trapped(SIDES[me], SIDES[other], to))
        events.append(TurnPassed(SIDES[other]))
        return events

    def reduce(self, state: ToyState, event: Record) -> ToyState:
        if isinstance(event, Moved):
            i = SIDES.index(event.side)
            pos = list(state.pos)
            pos[i] = event.to
            return replace(state, pos=(pos[0], pos[1]))
        if isinstance(event, Trapped):
            i, j = SIDES.index(event.side), SIDES.index(event.trap_of)
            pos, known = list(state.pos), list(state.known_traps)
            pos[i], known[j] = 0, True
            return replace(state, pos=(pos[0], pos[1]), known_traps=(known[0], known[1]))
        if isinstance(event, TurnPassed):
            nxt = SIDES.index(event.to)
            return replace(state, side=nxt, turn=state.turn + (1 if nxt == 0 else 0))
        if isinstance(event, (Rolled, Decided)):
            return state
        raise GameError(f"toy cannot reduce {event.kind}")

    def view(self, state: ToyState, viewer: Viewer) -> dict[str, Any]:
        traps = {s: (state.traps[i] if viewer.sees_secrets_of(s) or state.known_traps[i] else None)
                 for i, s in enumerate(SIDES)}
        st = self.status(state)
        return {"ruleset": self.ruleset, "turn": st.turn, "phase": st.phase, "side": st.side, "over": st.over,
                "result": dict(st.result) if st.result else None, "pos": dict(zip(SIDES, state.pos, strict=True)),
                "traps": traps}

    def event_view(self, event: Record, viewer: Viewer) -> Shown | None:
        if isinstance(event, Rolled):
            return self.roll_shown(event, viewer)
        if isinstance(event, Decided):
            return self.decision_shown(event, viewer)
        if isinstance(event, Moved):
            return Shown("moved", f"{event.side} moves to {event.to}")
        if isinstance(event, Trapped):
            return Shown("trapped", f"{event.side} falls into {event.trap_of}'s trap at {event.at}")
        if isinstance(event, TurnPassed):
            return Shown("turn", f"{event.to} to act")
        return None

    def action_view(self, state: ToyState, action: Record, viewer: Viewer) -> Shown:
        return Shown(action.kind, {"step": "Step one square", "run": "Run a die's worth", "pass": "Pass"}[action.kind])

    def automated(self, state: ToyState) -> Mapping[str, Any]:
        return {"blue": blue_policy} if state.auto_blue else {}


def blue_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """Runs while behind, steps when ahead, and breaks even ties with a logged die."""
    view = seat.view()
    me, them = view["pos"]["blue"], view["pos"]["red"]
    if me < them:
        return Decision(Run(), f"behind ({me} < {them}): run", {"me": me, "them": them})
    if me > them:
        return Decision(Step(), f"ahead ({me} > {them}): step", {"me": me, "them": them})
    pick = dice.randrange(2, "blue tie-break: 1-3 step, 4-6 run")
    return Decision(Run() if pick else Step(), "level: a die decides", {"me": me, "them": them})
