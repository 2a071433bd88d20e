"""The play engine (docs/architecture.md "A game in play"): journal before state, every roll an
event, take-back policy, history, replay, views per viewer, automated sides.
Driven by the toy game in tests/engine/toygame.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import pytest

from engine.toygame import ACTIONS, Moved, Pass, Run, Step, ToyGame, ToyState
from gwasl.engine.dice import GameDice, die_at
from gwasl.engine.game import GameOptions, IllegalAction
from gwasl.engine.journal import MemoryJournal
from gwasl.engine.record import Record, RecordError
from gwasl.engine.session import Session, SessionError

GAME = ToyGame()


def new(seed: int = 1, **kw) -> Session[ToyState]:
    opts = GameOptions(frozenset(kw.pop("secret", ())), kw.pop("practice", False), kw)
    return Session.new(GAME, {"traps": [5, 7]}, seed, opts)


def test_dice_stream_is_addressed_by_position():
    d = GameDice(9)
    rolls = [d.dr("x").dice[0] for _ in range(20)]
    assert rolls == [die_at(9, i) for i in range(20)]
    assert d.position == 20
    later = GameDice(9, 13)
    assert later.dr("x").dice[0] == rolls[13]


def test_dice_stream_is_fair_over_many_positions():
    counts = [0] * 7
    for i in range(6000):
        counts[die_at(3, i)] += 1
    assert all(850 < c < 1150 for c in counts[1:])


def test_randrange_is_exactly_uniform_by_blocks():
    d = GameDice(0)
    # 1-3 -> 0, 4-6 -> 1 for two choices; 5 and 6 rejected for four
    seen = {d.randrange(4, "tie") for _ in range(200)}
    assert seen == {0, 1, 2, 3}


def test_act_journals_before_the_state_changes():
    order = []
    holder: list[Session] = []

    class Spy(MemoryJournal):
        def append(self, entry):
            order.append(("journal", entry.index, holder[0].state.pos if holder else None))
            super().append(entry)

    s = Session.new(GAME, None, 1, GameOptions(), Spy())
    holder.append(s)
    s.add_listener(lambda sess, entries: order.append(("listener", entries[-1].index, sess.state.pos)))
    s.act(Step())
    # the entry is durable while the state is still the old one; listeners see the new one
    assert order == [("journal", 0, None), ("journal", 1, (0, 0)), ("listener", 1, (1, 0))]


def test_every_roll_is_an_event_with_its_cause_and_dice():
    s = new(5)
    (entry,) = s.act(Run())
    roll = entry.events[0]
    assert roll.kind == "roll" and roll.cause == "run: squares moved"
    assert roll.dice == (die_at(5, 0),) and roll.final == roll.dice[0]
    shown = s.log()[0]
    assert shown["kind"] == "roll" and shown["dice"] == list(roll.dice) and shown["final"] == roll.final


def test_a_roll_missing_from_the_events_is_refused():
    class Sloppy(ToyGame):
        def apply(self, state, action, dice):
            dice.dr("forgotten")
            return super().apply(state, Pass(), dice)

    s = Session.new(Sloppy(), None, 1, GameOptions())
    with pytest.raises(SessionError, match="every roll must be an event"):
        s.act(Step())
    assert len(s.entries) == 1  # nothing journalled


def test_illegal_action_names_it_and_changes_nothing():
    @dataclass(frozen=True)
    class Fly(Record):
        kind: ClassVar[str] = "fly"

    s = new()
    before = s.state
    with pytest.raises(IllegalAction, match="not a legal action"):
        s.act(Fly())
    assert s.state == before and len(s.entries) == 1


def test_find_action_by_id_and_by_json():
    s = new()
    ids = [la.id for la in s.legal()]
    assert ids == ["step", "run", "pass"]
    assert s.find_action("run") == Run()
    assert s.find_action({"kind": "pass"}) == Pass()
    with pytest.raises(IllegalAction, match="no legal action"):
        s.find_action("jump")
    with pytest.raises(IllegalAction, match="unknown"):
        s.find_action({"kind": "jump"})


def test_take_back_stops_at_a_roll_outside_practice_mode():
    s = new()
    s.act(Run())
    s.act(Step())
    ok, why = s.undo()
    assert ok and why is None and s.state.pos[1] == 0
    ok, why = s.undo()
    assert not ok and "rolled dice" in why
    assert s.entries[-1].kind == "take_back"  # the take-back itself is journalled


def test_practice_mode_takes_back_past_dice_and_the_next_roll_is_new():
    s = new(practice=True)
    (e1,) = s.act(Run())
    assert s.undo() == (True, None)
    assert s.state.pos == (0, 0)
    (e2,) = s.act(Run())
    assert e2.events[0].n == e1.events[0].n + 1  # the stream never rewinds


def test_take_back_of_a_reveal_is_refused():
    s = Session.new(GAME, {"traps": [5, 1]}, 1, GameOptions())
    s.act(Step())  # red steps onto blue's trap at 1: revealed
    ok, why = s.undo()
    assert not ok and "revealed" in why


def test_history_steps_to_any_event():
    s = new(practice=True)
    s.act(Step())
    s.act(Step())
    seqs = [seq for seq, _ in s.effective()]
    assert seqs == list(range(len(seqs)))
    assert s.state_at(None).pos == (0, 0)
    first_move = next(seq for seq, ev in s.effective() if isinstance(ev, Moved))
    assert s.state_at(first_move).pos == (1, 0)
    assert s.state_at(seqs[-1]) == s.state


def test_replay_check_identical_and_detects_tampering():
    s = new(7, practice=True)
    for a in (Run(), Step(), Run(), Pass(), Run()):
        s.act(a)
    s.undo()
    s.act(Step())
    rep = s.replay_check()
    assert rep.identical and rep.first_difference is None and rep.events == sum(
        len(e.events) for e in s.entries)
    # a journal whose roll was edited no longer replays identically
    entries = list(s.entries)
    bad = entries[1]
    ev = bad.events[0]
    forged = type(ev)(ev.n, ev.cause, (6 if ev.dice[0] != 6 else 1,), ev.modifiers, ev.final, ev.private_to)
    entries[1] = type(bad)(**{**{f: getattr(bad, f) for f in bad.__slots__}, "events": (forged, *bad.events[1:])})
    t = Session.restore(GAME, s.source, s.seed, s.options, MemoryJournal(entries))
    rep = t.replay_check()
    assert not rep.identical and rep.first_difference == entries[1].seq
    # the report says what differs, so a forged die reads unlike a changed wording
    assert f"in 'dice': stored [{forged.dice[0]}], replayed [{ev.dice[0]}]" in rep.detail


def test_restore_gives_the_same_state():
    s = new(11, practice=True)
    for a in (Run(), Run(), Step(), Run()):
        s.act(a)
    s.undo()
    t = Session.restore(GAME, s.source, s.seed, s.options, MemoryJournal(s.entries))
    assert t.state == s.state and t.log("omniscient") == s.log("omniscient")


def test_automated_side_acts_with_its_reason_and_view_only():
    s = new(3, auto_blue=True, secret=["blue"])
    entries = s.act(Step())
    auto = [e for e in entries if e.kind == "auto"]
    assert len(auto) == 1 and auto[0].actor == "blue"
    decided = next(e for e in auto[0].events if e.kind == "decision")
    assert decided.why.startswith("behind") and decided.details == {"me": 0, "them": 1}
    assert s.status().side == "red"
    # blue's decisions are secret from the player when blue is kept secret
    assert all(e["kind"] != "decision" for e in s.log("player"))
    assert any(e["kind"] == "decision" for e in s.log("blue"))
    assert s.replay_check().identical


def test_automated_tie_break_dice_are_logged_before_the_action():
    s = new(4, auto_blue=True)
    s.act(Pass())  # level at 0: blue's die decides
    auto = s.entries[-1]
    kinds = [e.kind for e in auto.events]
    assert kinds[0] == "roll" and kinds[1] == "decision"
    assert s.replay_check().identical


def test_views_hide_secrets_by_viewer():
    s = new(secret=["blue"])
    assert s.view("player")["traps"] == {"red": 5, "blue": None}
    assert s.view("omniscient")["traps"] == {"red": 5, "blue": 7}
    assert s.view("blue")["traps"] == {"red": None, "blue": 7}


def test_records_round_trip_and_reject_bad_json():
    for a in (Step(), Run(), Pass()):
        assert ACTIONS.decode(json.loads(json.dumps(a.to_json()))) == a
    with pytest.raises(RecordError, match="newer"):
        ACTIONS.decode({"kind": "step", "v": 2})
    with pytest.raises(RecordError, match="unknown field"):
        ACTIONS.decode({"kind": "step", "v": 1, "extra": 1})
    with pytest.raises(RecordError, match="to: expected an integer"):
        GAME.events.decode({"kind": "moved", "side": "red", "to": "3"})
    with pytest.raises(RecordError):
        GAME.events.decode({"kind": "roll", "n": 0, "cause": "x", "dice": [1], "final": float("inf")})


def test_batch_plays_whole_games_and_figures_do_not_depend_on_jobs():
    from gwasl.engine.batch import batch, play_out, wilson
    from gwasl.engine.game import Decision

    class Racer(ToyGame):
        def policies(self):
            return {"runner": lambda seat, dice: Decision(Run(), "always run")}

        def player_side(self, state):
            return "red"

    g = Racer()
    r = play_out(g, g.policies()["runner"], 3, GameOptions(extra={"auto_blue": True}))
    assert r.steps > 0
    res = batch(g, 40, seed=0, options=GameOptions(extra={"auto_blue": True}))
    assert res.games == 40 and 0 <= res.wins <= 40
    assert res.ci95 == wilson(res.wins, 40)
    assert res.ci95[0] <= res.win_rate <= res.ci95[1]


def test_suggest_asks_the_games_policy_without_touching_the_game():
    """A hint: the first policy (or a named one) decides for the side to act from that
    side's view, on a scratch copy of the dice; the game, its dice and journal are unchanged."""
    from gwasl.engine.game import Decision, GameError

    class Hinted(ToyGame):
        def policies(self):
            return {"tied": blue_policy_like, "step": lambda seat, dice: Decision(Step(), "always step")}

    def blue_policy_like(seat, dice):
        pick = dice.randrange(2, "a die decides")  # rolls: on the scratch stream only
        return Decision(Run() if pick else Step(), f"the die said {pick}")

    s = Session.new(Hinted(), None, 4, GameOptions(extra={"auto_blue": True}))
    before = (s.dice_position, len(s.entries), s.state)
    name, d = s.suggest()
    assert name == "tied" and d.why.startswith("the die said")
    assert (s.dice_position, len(s.entries), s.state) == before
    assert s.suggest() == (name, d)  # the same moment, the same hint
    assert s.suggest("step")[1].action == Step()
    with pytest.raises(GameError, match="unknown policy 'nope'"):
        s.suggest("nope")
    # the side gwasl plays itself gets no hint, and a game without policies none
    blue_turn = Session.new(Hinted(), None, 4, GameOptions(extra={"auto_blue": True}))
    blue_turn.state = replace_side(blue_turn.state, 1)
    assert blue_turn.suggest() is None
    assert Session.new(ToyGame(), None, 4).suggest() is None


def replace_side(state, side):
    from dataclasses import replace

    return replace(state, side=side)
