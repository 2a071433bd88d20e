"""A game in play: the Session drives a :class:`~gwasl.engine.game.Game`.

    action -> game.apply(state, action, dice) -> events
           -> automated sides reply (computed on the state the action leads to)
           -> journal.append_all(entries)    (durable first: the action and its replies, all or none)
           -> state = the state they lead to
           -> listeners redraw views

The session holds the journal, the current state, the dice position and the
undo policy; it runs automated sides whenever they are to act; it replays a
journal to any point (history) and checks that a replay from the seed gives
the same events byte for byte (``gwasl game replay --check``), and that every
take-back was allowed when it was made.

A journal cut short between an action and its automated replies (a crash in a
gwasl that committed them apart) is completed when the game is restored
(:meth:`Session.finish`): the replies are made from the journal as a live
session would have made them.

Every :data:`SNAPSHOT_EVERY` events the session keeps the state it reached
(in memory: take-back and history restart from there instead of the set-up)
and, when the journal keeps snapshots, hands it to the journal encoded by the
game, once the encoding is checked to decode to that very state.  A saved game
then reopens from its newest usable snapshot and reduces only the entries
after it; ``replay_check`` compares every snapshot with the replayed state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeGuard, TypeVar

from gwasl.engine.advice import ADVISOR, AdviceDice, Advises, candidates_of
from gwasl.engine.dice import GameDice
from gwasl.engine.events import Decided, Rolled
from gwasl.engine.game import (
    PLAYER,
    Decision,
    Game,
    GameError,
    GameOptions,
    IllegalAction,
    Outcome,
    Seat,
    Shown,
    Status,
    Viewer,
)
from gwasl.engine.journal import Entry, Journal, JournalError, MemoryJournal, SnapshotJournal, append_all
from gwasl.engine.record import Record, RecordError
from gwasl.engine.snapshot import Deferred, SnapshotError

__all__ = ["AUTOMATON_LIMIT", "SNAPSHOT_EVERY", "LegalAction", "ReplayReport", "Session", "SessionError", "take_back_target"]

S = TypeVar("S")

#: automated steps one request may trigger before the session calls it a loop
AUTOMATON_LIMIT = 10_000
#: events between two snapshots: opening reduces at most about this many events
#: (an aslgw event reduces in well under 0.5 ms; encoding a snapshot takes tens of ms)
SNAPSHOT_EVERY = 500


class SessionError(GameError):
    """The session cannot do what was asked (nothing to take back, a damaged journal...)."""


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An entry of a legal-action list: its id, its sight for the viewer, the action itself."""

    id: str
    shown: Shown
    action: Record

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.shown.kind, "text": self.shown.text, "action": self.action.to_json()}


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """What ``replay_check`` found: ``entry`` is the journal entry where the first
    difference is, ``take_back`` whether it is a take-back that was not allowed."""

    events: int
    identical: bool
    first_difference: int | None
    detail: str | None = None
    entry: int | None = None
    take_back: bool = False


Listener = Callable[["Session[Any]", Sequence[Entry]], None]


class Session(Generic[S]):
    """One game in play over a journal.  Build it with :meth:`new` or :meth:`restore`."""

    def __init__(self, game: Game[S], source: Mapping[str, Any] | None, options: GameOptions, seed: int,
                 journal: Journal, initial: S | None = None) -> None:
        self.game = game
        self.source = source
        self.options = options
        self.seed = seed
        self.journal = journal
        self._entries: list[Entry] = []
        self._undone: set[int] = set()
        # the set-up state: ``initial`` when the caller has just set the game up from this very
        # source and options (a new game's file is not set up, validated, again: issue 23 item 8)
        self._initial: S = game.setup(source, options) if initial is None else initial
        self.state: S = self._initial
        self._listeners: list[Listener] = []
        self.snapshot_every = SNAPSHOT_EVERY
        # entry index -> (state after it, entries up to it taken back then): where a rebuild may start
        self._snaps: dict[int, tuple[S, frozenset[int]]] = {}
        self._snap_seq = 0  # next_seq when a snapshot was last due
        self._stored: dict[int, Any] = {}  # the journal's encoded snapshots, for replay_check
        self.opened_from: int | None = None  # the entry the state was restored after, if from a snapshot
        self.finished: list[Entry] = []  # the replies restore made that the journal owed (Session.finish)
        self.unfinished: str | None = None  # why the replies owed could not be made, if they could not

    # -- construction ---------------------------------------------------------
    @classmethod
    def new(cls, game: Game[S], source: Mapping[str, Any] | None, seed: int, options: GameOptions | None = None,
            journal: Journal | None = None, initial: S | None = None) -> Session[S]:
        """A new game: set up from ``source`` and opened with :meth:`Game.begin`
        (its events are the journal's first entry), then automated sides act.  ``initial``:
        ``game.setup(source, options)`` when the caller already has it."""
        s = cls(game, source, options or GameOptions(), seed, journal if journal is not None else MemoryJournal(), initial)
        if s.journal.entries():
            raise SessionError("a new game needs an empty journal")
        dice = GameDice(seed, 0)
        events = game.begin(s.state, dice)
        s._check_rolls(dice, events)
        plan = _Plan(s)
        plan.add(Entry(0, "begin", 0, dice.position, tuple(events)))
        s._automata(plan, 0)
        s._commit(plan)
        return s

    @classmethod
    def restore(cls, game: Game[S], source: Mapping[str, Any] | None, seed: int, options: GameOptions,
                journal: Journal, snapshot: tuple[int, S] | None = None, finish: bool = True,
                initial: S | None = None) -> Session[S]:
        """A saved game, rebuilt by reducing its journal's events (from ``snapshot``,
        a state after entry ``index``, when given); then, unless ``finish`` is false,
        the automated replies the journal owes are made and journalled (:meth:`finish`);
        ``initial``: ``game.setup(source, options)`` when the caller already has it.

        Raises :class:`SessionError` for a journal that does not replay and
        :class:`~gwasl.engine.journal.JournalError` when the owed replies cannot be journalled.
        """
        s = cls(game, source, options, seed, journal, initial)
        entries = list(journal.entries())
        s._entries = entries
        for e in entries:
            if e.kind == "take_back":
                s._undone.update(e.undoes)
        start = 0
        if snapshot is None and _keeps_snapshots(journal):
            s._stored = {i: obj for i, obj in journal.snapshots() if isinstance(i, int)}
            snapshot = s._newest_snapshot()
        if snapshot is not None:
            start, s.state = snapshot[0] + 1, snapshot[1]
            s.opened_from = snapshot[0]
            s._snaps[snapshot[0]] = (snapshot[1], s._undone_upto(snapshot[0]))
        if s._stored:
            last = entries[min(max(s._stored), len(entries) - 1)] if entries else None
            s._snap_seq = last.seq + len(last.events) if last else 0
        try:
            for e in entries[start:]:
                if e.index not in s._undone and e.kind != "take_back":
                    for ev in e.events:
                        s.state = game.reduce(s.state, ev)
        except (GameError, RecordError, LookupError, ValueError, TypeError, AttributeError, ArithmeticError,
                RecursionError) as exc:
            raise SessionError(f"the journal does not replay: {type(exc).__name__}: {exc}"[:300]) from None
        if finish:
            try:
                s.finished = s.finish()
            except JournalError:
                raise
            except Exception as exc:  # the rules' policies on a journal from elsewhere may raise anything
                # the game opens as its journal left it; the side owed stays to act (legal() offers nothing)
                s.unfinished = f"{type(exc).__name__}: {exc}"[:300]
        return s

    def _undone_upto(self, index: int) -> frozenset[int]:
        return frozenset(u for u in self._undone if u <= index)

    def _usable(self, index: int) -> bool:
        """A state after entry ``index`` still holds if no take-back since undid an entry up to it."""
        if not 0 <= index < len(self._entries) or self._entries[index].kind == "take_back":
            return False
        return not any(u <= index for e in self._entries[index + 1:] if e.kind == "take_back" for u in e.undoes)

    def _stored_json(self, index: int) -> Any:
        v = self._stored[index]
        return v.load() if isinstance(v, Deferred) else v

    def _newest_snapshot(self) -> tuple[int, S] | None:
        """The newest stored snapshot that still holds and decodes; a damaged one is passed over."""
        for index in sorted(self._stored, reverse=True):
            if not self._usable(index):
                continue
            try:
                return index, self.game.decode_state(self._stored_json(index), self._initial)
            except (GameError, SnapshotError, RecordError, KeyError, ValueError, TypeError, AttributeError, RecursionError):
                continue
        return None

    def _maybe_snapshot(self) -> None:
        if self.snapshot_every <= 0 or self.next_seq - self._snap_seq < self.snapshot_every or not self._entries:
            return
        self._snap_seq = self.next_seq  # due once per interval, even when the game keeps none
        index = self._entries[-1].index
        self._snaps[index] = (self.state, self._undone_upto(index))
        journal = self.journal
        if not _keeps_snapshots(journal):
            return
        try:
            obj = self.game.encode_state(self.state, self._initial)
            if obj is None:
                return
            # as the file will hold it: a snapshot that would not give this very state is not kept
            obj = json.loads(json.dumps(obj, allow_nan=False))
            back = self.game.decode_state(obj, self._initial)
            # equal is not enough (a tuple read back as a list is unequal, but a dict for a
            # read-only mapping is equal): the state read back must encode the same again
            if back != self.state or json.loads(json.dumps(self.game.encode_state(back, self._initial))) != obj:
                return
        except (GameError, SnapshotError, ValueError, TypeError):
            return
        journal.save_snapshot(index, obj)
        self._stored[index] = obj

    # -- reading ----------------------------------------------------------------
    @property
    def entries(self) -> Sequence[Entry]:
        return tuple(self._entries)

    @property
    def dice_position(self) -> int:
        return self._entries[-1].dice if self._entries else 0

    @property
    def next_seq(self) -> int:
        last = self._entries[-1] if self._entries else None
        return last.seq + len(last.events) if last else 0

    def status(self) -> Status:
        return self.game.status(self.state)

    def viewer(self, name: str = PLAYER) -> Viewer:
        return self.game.viewer(self.state, name)

    def view(self, name: str = PLAYER) -> dict[str, Any]:
        return self.game.view(self.state, self.viewer(name))

    def effective(self) -> Iterator[tuple[int, Record]]:
        """Every event still in force, with its seq, in order (history)."""
        for e in self._entries:
            if e.kind != "take_back" and e.index not in self._undone:
                yield from zip(e.seqs, e.events, strict=True)

    def log(self, name: str = PLAYER) -> list[dict[str, Any]]:
        """Every event in force as ``name`` sees it: ``{"seq", "kind", "text", ...}``."""
        v = self.viewer(name)
        out = []
        for seq, ev in self.effective():
            shown = self.game.event_view(ev, v)
            if shown is not None:
                out.append({"seq": seq, **shown.to_json()})
        return out

    def shown(self, entries: Sequence[Entry], name: str = PLAYER) -> list[dict[str, Any]]:
        """The events of ``entries`` as ``name`` sees them."""
        v = self.viewer(name)
        out = []
        for e in entries:
            for seq, ev in zip(e.seqs, e.events, strict=True):
                sh = self.game.event_view(ev, v)
                if sh is not None:
                    out.append({"seq": seq, **sh.to_json()})
        return out

    def legal(self, name: str = PLAYER) -> list[LegalAction]:
        """The legal actions of the side to act, as ``name`` knows the game, with ids."""
        v = self.viewer(name)
        if self.status().over or self._automated_to_act():
            return []
        out, seen = [], set()
        for a in self.game.legal_actions(self.state, v):
            aid = self.game.action_id(self.state, a, v)
            base, n = aid, 2
            while aid in seen:  # ids are unique within one list
                aid, n = f"{base}#{n}", n + 1
            seen.add(aid)
            out.append(LegalAction(aid, self.game.action_view(self.state, a, v), a))
        return out

    def find_action(self, ref: str | Mapping[str, Any], name: str = PLAYER) -> Record:
        """The action a reference names: an id from :meth:`legal`, or the action's JSON."""
        if isinstance(ref, str):
            for la in self.legal(name):
                if la.id == ref:
                    return la.action
            raise IllegalAction(f"no legal action has the id {ref[:60]!r} now (see 'gwasl game legal')")
        try:
            return self.game.actions.decode(dict(ref))
        except RecordError as e:
            raise IllegalAction(f"not an action of {self.game.ruleset}: {e}") from None

    def odds(self, action: Record, name: str = PLAYER) -> list[Outcome]:
        v = self.viewer(name)
        self.game.check_legal(self.state, action, v)
        return self.game.odds(self.state, action, v)

    def suggest(self, policy: str | None = None) -> tuple[str, Decision] | None:
        """What one of the game's own policies (the first, its best measured, unless
        ``policy`` names another) would do now for the side to act, and why: a hint for
        the person at the desk.  A game with an advisor (:class:`~gwasl.engine.advice.Advises`)
        answers, unless ``policy`` is named, with its advisor's ranking of its policies'
        plans by rollouts: the name is the best plan's, the ranked candidates are in the
        decision's details (:func:`~gwasl.engine.advice.candidates_of`).
        The policy or advisor reads only that side's view, and rolls only the advice stream
        (:class:`~gwasl.engine.advice.AdviceDice`), never the game's: a hint that looks ahead
        must not see the coming dice (issue 27 item 10), so the game is untouched.  ``None`` when
        the game is over, has no policy, the side to act plays itself, or it keeps secrets
        from the person at the desk (its policy would read them, and its advice pass them on:
        O'Leary 1, the Introduction; issue 28's twin games).

        Raises :class:`GameError` for a policy the game does not have.
        """
        st = self.status()
        policies = self.game.policies()
        if (st.over or st.side is None or not policies or st.side in self.game.automated(self.state)
                or st.side in self.game.secret_sides(self.state)):
            return None
        if policy is not None and policy not in policies:
            raise GameError(f"unknown policy {policy[:40]!r}: use one of {', '.join(policies)}")
        seat = Seat(self.game, self.state, self.game.viewer(self.state, st.side))
        dice = AdviceDice(self.seed, self.dice_position)
        if policy is None and isinstance(self.game, Advises):
            decision = self.game.advisor()(seat, policies, dice)
            ranked = candidates_of(decision)
            return (ranked[0].plan if ranked else ADVISOR), decision
        name = policy or next(iter(policies))
        return name, policies[name](seat, dice)

    # -- acting -------------------------------------------------------------------
    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def act(self, action: Record, name: str = PLAYER, automata: bool = True) -> list[Entry]:
        """Apply ``action`` for ``name`` (checked against its legal actions), then let
        automated sides act (``automata`` false: one at a time by :meth:`auto_step` or
        :meth:`commit_decision`, a window pacing gwasl's answers).  Returns the new
        entries, already durable: the action and its replies are journalled together,
        so when this raises (a refusal, a file that cannot be written or changed on
        disk) none of them is."""
        if self.status().over:
            raise IllegalAction("the game is over")
        if self._automated_to_act():
            raise IllegalAction(f"{self.status().side} plays itself and is to act: reopen the game to let it")
        v = self.viewer(name)
        self.game.check_legal(self.state, action, v)
        plan = _Plan(self)
        index = plan.index
        self._step(plan, "act", action, name, index, None)
        if automata:
            self._automata(plan, index)
        self._commit(plan)
        return list(plan.entries)

    def automaton_to_act(self) -> bool:
        """Whether an automated side is to act now (its next step waits for :meth:`auto_step`)."""
        return self._automated_to_act()

    def automaton_decision(self) -> tuple[S, Decision, GameDice] | None:
        """The automated side's next decision from the state now, without acting on it: the
        state it was made from, the decision, and the dice its policy rolled.  It reads only
        the immutable state, so a window may compute it in another thread and hand it to
        :meth:`commit_decision`."""
        state = self.state
        st = self.game.status(state)
        if st.over or st.side is None:
            return None
        policy = self.game.automated(state).get(st.side)
        if policy is None:
            return None
        dice = GameDice(self.seed, self.dice_position)
        return state, policy(Seat(self.game, state, self.game.viewer(state, st.side)), dice), dice

    def commit_decision(self, state: S, decision: Decision, dice: GameDice) -> Entry | None:
        """Play a decision of :meth:`automaton_decision` -- the same step :meth:`act` runs --
        unless the game has moved on since (``None``); it goes with the last action in a take-back."""
        if state is not self.state or not self._automated_to_act():
            return None
        side = self.status().side
        assert side is not None
        plan = _Plan(self)
        self._auto(plan, side, decision, dice, self._entries[-1].group if self._entries else 0)
        self._commit(plan)
        return plan.entries[-1]

    def auto_step(self) -> Entry | None:
        """One action of the automated side to act, if any: the same step :meth:`act` runs
        in a row, one at a time; it goes with the last action in a take-back."""
        if not self._automated_to_act():
            return None
        plan = _Plan(self)
        self._automata(plan, self._entries[-1].group if self._entries else 0, limit=1)
        self._commit(plan)
        return plan.entries[-1] if plan.entries else None

    def _automated_to_act(self) -> bool:
        st = self.status()
        return not st.over and st.side is not None and st.side in self.game.automated(self.state)

    def owed(self) -> bool:
        """Whether the journal owes automated replies: its last entry is the opening or an
        action (not a take-back: a live session lets no one reply to one) and an automated
        side is to act."""
        return bool(self._entries) and self._entries[-1].kind != "take_back" and self._automated_to_act()

    def finish(self) -> list[Entry]:
        """Make and journal the automated replies the journal owes (:meth:`owed`): those of
        an action whose replies were cut off by a crash after the action was committed
        (gwasl before the action and its replies were journalled together committed them
        apart).  They are what a live session would have made: the same state, dice
        position and group, the same policies.  Returns them ([] when none is owed)."""
        if not self.owed():
            return []
        plan = _Plan(self)
        self._automata(plan, self._entries[-1].group)  # an act's group is its own index; the opening's 0
        self._commit(plan)
        return list(plan.entries)

    def _step(self, plan: _Plan[S], kind: str, action: Record, actor: str, group: int, decision: Decision | None,
              pre: Sequence[Record] = (), dice: GameDice | None = None) -> Entry:
        dice = dice or GameDice(self.seed, plan.dice)
        applied = self.game.apply(plan.state, action, dice)
        self._check_rolls(dice, applied)
        events = [*pre, *applied]
        entry = Entry(plan.index, kind, plan.seq, dice.position, tuple(events), actor,  # type: ignore[arg-type]
                      action.to_json(), group, (), decision.why if decision else None)
        plan.add(entry)
        return entry

    def _automata(self, plan: _Plan[S], group: int, limit: int = AUTOMATON_LIMIT) -> None:
        """The automated sides' replies, added to ``plan`` while one of them is to act
        (at most ``limit`` of them)."""
        game = self.game
        for _ in range(limit):
            state = plan.state
            st = game.status(state)
            if st.over or st.side is None:
                return
            policy = game.automated(state).get(st.side)
            if policy is None:
                return
            dice = GameDice(self.seed, plan.dice)
            decision: Decision = policy(Seat(game, state, game.viewer(state, st.side)), dice)
            self._auto(plan, st.side, decision, dice, group)
        if limit < AUTOMATON_LIMIT:
            return
        raise SessionError(f"automated sides acted {AUTOMATON_LIMIT} times in a row: the game does not advance")

    def _check_rolls(self, dice: GameDice, events: Sequence[Record]) -> None:
        made = [(r.n, r.dice) for r in dice.roll_events()]
        logged = [(e.n, e.dice) for e in events if isinstance(e, Rolled)]
        if made != logged:
            raise SessionError(f"{self.game.ruleset}: rolls made {made} but events record {logged}: every roll must be an event")

    def _auto(self, plan: _Plan[S], side: str, decision: Decision, dice: GameDice, group: int) -> None:
        """An automated side's decision made into its entry in ``plan``: its policy's rolls,
        the decision, the action's events."""
        state = plan.state
        decided = Decided(side, decision.why, decision.details,
                          side if side in self.game.secret_sides(state) else None, decision.public)
        pre = [*dice.roll_events(), decided]
        self._step(plan, "auto", decision.action, side, group, decision, pre, _Continue(dice))

    def _commit(self, plan: _Plan[S]) -> None:
        """Journal first (all of the plan's entries or none), then the state, then the
        listeners (docs/architecture.md "A game in play")."""
        if not plan.entries:
            return
        entries = tuple(plan.entries)
        append_all(self.journal, entries)
        self._entries.extend(entries)
        self.state = plan.state
        self._maybe_snapshot()
        for fn in list(self._listeners):
            fn(self, entries)

    # -- take-back ------------------------------------------------------------------
    def undo_target(self) -> tuple[list[int], str | None]:
        """The entries a take-back would take back now, or the reason none can be.

        The last ``act`` in force and its automated replies go together.  Outside
        practice mode nothing that rolled dice or revealed a hidden fact is taken
        back (docs/architecture.md "Undo and history").
        """
        return take_back_target(self._entries, self._undone, self.options.practice, self.game.irreversible)

    def undo(self) -> tuple[bool, str | None]:
        """Take back the last action where the policy allows; the take-back is itself journalled."""
        target, reason = self.undo_target()
        if not target:
            return False, reason
        entry = Entry(len(self._entries), "take_back", self.next_seq, self.dice_position, (), PLAYER,
                      None, target[0], tuple(target))
        append_all(self.journal, [entry])
        self._entries.append(entry)
        self._undone.update(target)
        self.state = self._rebuild()
        for fn in list(self._listeners):
            fn(self, [entry])
        return True, None

    def _rebuild(self, upto_seq: int | None = None) -> S:
        """The state after the events in force up to ``upto_seq`` (all when ``None``),
        reduced from the newest kept state that still holds, else from the set-up."""
        state, start = self._initial, 0
        for index in sorted(self._snaps, reverse=True):
            snap, undone = self._snaps[index]
            e = self._entries[index]
            if upto_seq is not None and e.seq + len(e.events) - 1 > upto_seq:
                continue
            if undone == self._undone_upto(index) and index not in self._undone:
                state, start = snap, index + 1
                break
        for e in self._entries[start:]:
            if e.kind == "take_back" or e.index in self._undone:
                continue
            for seq, ev in zip(e.seqs, e.events, strict=True):
                if upto_seq is not None and seq > upto_seq:
                    return state
                state = self.game.reduce(state, ev)
        return state

    def state_at(self, seq: int | None) -> S:
        """The state just after event ``seq`` of the history (``None``: before any event)."""
        return self._initial if seq is None else self._rebuild(seq)

    # -- replay ---------------------------------------------------------------------
    def replay_check(self) -> ReplayReport:
        """Recompute every entry from the seed and compare its events with the journal's,
        and every stored snapshot with the state replayed to its entry."""
        game, state = self.game, self.game.setup(self.source, self.options)
        initial = state
        undone: set[int] = set()
        pos, n, seq = 0, 0, 0
        for e in self._entries:
            if e.kind == "take_back":
                # docs/architecture.md "Undo and history": the entries a take-back names are those the undo
                # policy allowed at that point, and nothing else of it changed
                target, reason = take_back_target(self._entries[: e.index], undone, self.options.practice,
                                                  game.irreversible)
                if reason is not None or list(e.undoes) != target:
                    why = reason or f"it takes back entries {list(e.undoes)[:8]}, where the policy allowed {target[:8]}"
                    return ReplayReport(n, False, e.seq, f"entry {e.index}: a take-back that was not allowed when it "
                                                         f"was made: {why}", e.index, True)
                if e.events or e.seq != seq or e.dice != pos or e.group != target[0]:
                    return ReplayReport(n, False, e.seq, f"entry {e.index}: a take-back whose events, numbering, dice "
                                                         "or group are not those of a take-back", e.index, True)
                undone.update(e.undoes)
                state = game.setup(self.source, self.options)
                for x in self._entries[: e.index]:
                    if x.kind != "take_back" and x.index not in undone:
                        for ev in x.events:
                            state = game.reduce(state, ev)
                continue
            dice = GameDice(self.seed, pos)
            try:
                if e.kind == "begin":
                    events = game.begin(state, dice)
                else:
                    action = game.actions.decode(dict(e.action or {}))
                    pre: list[Record] = []
                    if e.kind == "auto":
                        policy = game.automated(state).get(str(e.actor))
                        if policy is None:
                            return ReplayReport(n, False, e.seq, f"entry {e.index}: no automated side {e.actor}", e.index)
                        decision = policy(Seat(game, state, game.viewer(state, str(e.actor))), dice)
                        secret = e.actor in game.secret_sides(state)
                        pre = [*dice.roll_events(),
                               Decided(str(e.actor), decision.why, decision.details, e.actor if secret else None, decision.public)]
                        action = decision.action
                        dice = _Continue(dice)
                    events = pre + game.apply(state, action, dice)
            except (GameError, RecordError) as exc:
                return ReplayReport(n, False, e.seq, f"entry {e.index}: {exc}", e.index)
            if e.seq != seq:
                return ReplayReport(n, False, e.seq, f"entry {e.index}: its events are numbered from {e.seq}, not {seq}", e.index)
            for i, (a, b) in enumerate(zip(events, e.events, strict=False)):
                if _canon(a) != _canon(b):
                    return ReplayReport(n + i, False, e.seq + i, f"entry {e.index}: {a.kind} differs{_difference(b, a)}", e.index)
            if len(events) != len(e.events) or dice.position != e.dice:
                return ReplayReport(n, False, e.seq + min(len(events), len(e.events)), f"entry {e.index}: event count or dice differ",
                                    e.index)
            pos = e.dice
            n += len(events)
            seq = e.seq + len(e.events)
            for ev in e.events:
                state = game.reduce(state, ev)
            if e.index in self._stored:
                try:
                    same = game.decode_state(self._stored_json(e.index), initial) == state
                except (GameError, SnapshotError, RecordError, KeyError, ValueError, TypeError, AttributeError, RecursionError):
                    same = False
                if not same:
                    return ReplayReport(n, False, e.seq + len(e.events) - 1,
                                        f"the snapshot after entry {e.index} does not equal the replayed state", e.index)
        return ReplayReport(n, True, None)


def take_back_target(entries: Sequence[Entry], undone: set[int] | frozenset[int], practice: bool,
                     irreversible: Callable[[Record], bool]) -> tuple[list[int], str | None]:
    """The entries a take-back after ``entries`` would take back (``undone``: those taken
    back already), or why none can be (docs/architecture.md "Undo and history").

    The last ``act`` in force and its automated replies go together.  Outside practice
    mode nothing that rolled dice or revealed a hidden fact is taken back.  One rule for
    :meth:`Session.undo` and for ``replay_check``, which checks every recorded take-back.
    """
    live = [e for e in entries if e.kind in ("act", "auto") and e.index not in undone]
    if not live:
        return [], "there is nothing to take back"
    group = live[-1].group
    target = [e for e in live if e.group == group]
    if not practice:
        for e in target:
            if any(irreversible(ev) for ev in e.events):
                return [], ("the last action rolled dice or revealed a hidden fact; take-back stops there "
                            "(start the game in practice mode to take back further)")
    return [e.index for e in target], None


class _Plan(Generic[S]):
    """Entries made but not yet journalled, and the state they lead to: an action and its
    automated replies are computed first and journalled together (all or none)."""

    def __init__(self, session: Session[S]) -> None:
        self.game = session.game
        self.base = len(session._entries)
        self.entries: list[Entry] = []
        self.state: S = session.state
        self.seq = session.next_seq
        self.dice = session.dice_position

    @property
    def index(self) -> int:
        return self.base + len(self.entries)

    def add(self, entry: Entry) -> None:
        reduce = self.game.reduce
        state = self.state
        for ev in entry.events:
            state = reduce(state, ev)
        self.state = state
        self.entries.append(entry)
        self.seq = entry.seq + len(entry.events)
        self.dice = entry.dice


def _keeps_snapshots(journal: Journal) -> TypeGuard[SnapshotJournal]:
    return bool(getattr(journal, "keeps_snapshots", False))


def _canon(r: Record) -> str:
    return json.dumps(r.to_json(), sort_keys=True, separators=(",", ":"))


def _difference(stored: Record, replayed: Record) -> str:
    """Where two events first differ, for a reader: the field, and both values cut short
    (a changed wording and a forged die read very differently).

    >>> from gwasl.engine.events import Rolled
    >>> _difference(Rolled(1, "fire", (3,), (), 3), Rolled(1, "fire", (5,), (), 5))
    " in 'dice': stored [3], replayed [5]"
    """
    a, b = stored.to_json(), replayed.to_json()
    if a.get("kind") != b.get("kind"):
        return f": stored {a.get('kind')!s:.40}, replayed {b.get('kind')!s:.40}"
    for key in sorted(set(a) | set(b)):
        if key in a and key in b and json.dumps(a[key], sort_keys=True) == json.dumps(b[key], sort_keys=True):
            continue
        def short(v: object) -> str:
            t = json.dumps(v, sort_keys=True, ensure_ascii=True) if v is not None else "nothing"
            return t if len(t) <= 80 else t[:77] + "..."
        return f" in {key!r}: stored {short(a.get(key))}, replayed {short(b.get(key))}"
    return ""


class _Continue(GameDice):
    """The same stream after a policy's tie-break rolls: they are already in the
    entry's events, so only rolls made from here on are checked against the action's."""

    def __init__(self, before: GameDice) -> None:
        super().__init__(before.seed, before.position)

