"""The session's side of issue 28 items 1 and 2 (docs/architecture.md "Persistence"): an action and
its automated replies are journalled together, all or none; a journal cut short after an
action (by a crash in a gwasl that journalled them apart) owes the replies, which
``Session.finish`` makes exactly as a live session makes them."""

from __future__ import annotations

import pytest

from engine.toygame import Run, Step, ToyGame
from gwasl.engine.game import GameOptions
from gwasl.engine.journal import JournalError, MemoryJournal
from gwasl.engine.session import Session

GAME = ToyGame()
AUTO = GameOptions(extra={"auto_blue": True})


ACTIONS = (Step(), Run(), Step(), Run(), Step())


def live() -> Session:
    s = Session.new(GAME, {"traps": [5, 9]}, 4, AUTO)
    for a in ACTIONS:
        if not s.status().over:
            s.act(a)
    return s


def test_an_action_and_its_replies_are_journalled_together_or_not_at_all():
    class Refusing(MemoryJournal):
        refuse = False

        def append_all(self, entries):
            if self.refuse:
                raise JournalError("the disk is full")
            super().append_all(entries)

    s = Session.new(GAME, {"traps": [5, 9]}, 4, AUTO, Refusing())
    calls = []
    real = s.journal.append_all
    s.journal.append_all = lambda entries: (calls.append([e.kind for e in entries]), real(entries))[1]  # type: ignore[method-assign]
    s.act(Step())
    assert calls == [["act", "auto"]]  # red's step and blue's reply: one append
    state, entries = s.state, s.entries
    s.journal.refuse = True  # type: ignore[attr-defined]
    with pytest.raises(JournalError):
        s.act(Run())
    assert s.state == state and s.entries == entries  # refused: nothing changed


def test_a_journal_cut_after_an_action_owes_the_replies_and_finish_makes_them_as_live():
    ref = live()
    acts = [e.index for e in ref.entries if e.kind == "act" and e.index + 1 < len(ref.entries)
            and ref.entries[e.index + 1].kind == "auto"]
    assert acts
    for k in acts:
        upto = next((e.index for e in ref.entries[k + 1:] if e.kind != "auto"), len(ref.entries))
        cut = Session.restore(GAME, ref.source, ref.seed, ref.options, MemoryJournal(ref.entries[: k + 1]), finish=False)
        assert cut.owed() and cut.legal() == []  # blue is to act: the player is offered nothing
        made = cut.finish()
        assert [e.kind for e in made] == ["auto"] * (upto - k - 1)
        assert cut.entries == ref.entries[:upto] and cut.state == Session.restore(
            GAME, ref.source, ref.seed, ref.options, MemoryJournal(ref.entries[:upto])).state
        assert not cut.owed() and cut.finish() == []
        again = Session.restore(GAME, ref.source, ref.seed, ref.options, MemoryJournal(ref.entries[: k + 1]))
        assert again.finished == made and again.entries == ref.entries[:upto]  # restore finishes by default


def test_nothing_is_owed_after_a_take_back():
    """A live session lets no automated side answer a take-back: neither does restore."""
    s = Session.new(GAME, {"traps": [5, 9]}, 4, GameOptions(practice=True, extra={"auto_blue": True}))
    s.act(Step())
    assert s.undo()[0]
    again = Session.restore(GAME, s.source, s.seed, s.options, MemoryJournal(s.entries))
    assert not again.owed() and again.finished == [] and again.entries == s.entries
