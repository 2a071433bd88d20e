"""The kill test of issue 28 ("no action left half done"): at least 300 kills placed
inside and between the commits of games of all three rulesets, none of which leaves an
action half done.

In process, a kill is an exception raised at a named point of a journal write
(``gamefile.WRITE_HOOK``) or in a listener, and the game file is dropped as a dead
process leaves it: before the transaction, inside it (rows inserted, not committed),
after its commit, after the checkpoint, after the state changed; and, as gwasl
committed an action and its replies apart before, between the action's commit and the
replies'.  Reopened to play on after each kill, the journal must be the live game's up
to the end of an action (the killed action wholly absent or wholly there, the replies
owed by an older gwasl's cut made on opening), entry for entry.  Real SIGKILLs of
processes: tests/store/test_half_done.py.
"""

from __future__ import annotations

import pytest

from gwasl.store import gamefile
from gwasl.store.gamefile import open_game
from store.saves import RULESETS, canon, choose, new_file, reference, scratch_folder

POINTS = ("append:begin", "append:inserted", "between", "append:committed", "append:checkpointed", "listener")
#: kills per ruleset, at least: 300 in all (fewer for aslgw, whose games open slowest)
KILLS = {"aslgw": 60, "combined-arms": 120, "on-patrol": 120}


class Killed(BaseException):
    """The process died here (never caught by gwasl, as a kill is not)."""


@pytest.fixture
def kill_at(monkeypatch):
    """``kill_at(point)``: the next journal write dies at ``point``."""
    real = gamefile.SqliteJournal.append_all

    def arm(point):
        def hook(where, _path):
            if where == point:
                monkeypatch.setattr(gamefile, "WRITE_HOOK", None)
                raise Killed(point)

        if point == "between":  # an older gwasl: the action committed, then its replies apart
            def apart(self, entries):
                monkeypatch.setattr(gamefile.SqliteJournal, "append_all", real)
                for e in entries:
                    real(self, [e])
                    if e.kind == "act" and len(entries) > 1:
                        raise Killed(point)

            monkeypatch.setattr(gamefile.SqliteJournal, "append_all", apart)
        elif point != "listener":
            monkeypatch.setattr(gamefile, "WRITE_HOOK", hook)

    yield arm
    monkeypatch.setattr(gamefile, "WRITE_HOOK", None)


def _die(session, entries):
    raise Killed("listener")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_kills_inside_and_between_commits_leave_no_action_half_done(tmp_path, kill_at, ruleset):
    with scratch_folder(tmp_path) as folder:  # in memory: what is tested is gwasl's order of writes, not the disk
        _kill_many(folder, kill_at, ruleset)


def _kill_many(tmp_path, kill_at, ruleset):
    kills, half_done, completed, seed = 0, 0, 0, 7
    per_point = dict.fromkeys(POINTS, 0)
    while kills < KILLS[ruleset]:
        entries, bounds = reference(ruleset, 40, seed)
        want = canon(entries)
        p = tmp_path / f"{ruleset}-{seed}.game"
        new_file(ruleset, p, seed).close()
        while True:
            if kills % 7 == 3:  # a kill inside the commit that completes an older gwasl's cut, when there is one
                kill_at("append:inserted")
            try:
                gf = open_game(p)
            except Killed:
                kills += 1
                per_point["append:inserted"] += 1
                gf = open_game(p)
            gamefile.WRITE_HOOK = None
            got = canon(gf.session.entries)
            completed += bool(gf.session.finished)
            if len(got) not in bounds or got != want[: len(got)] or gf.session.owed():
                half_done += 1
            step = bounds.index(len(got)) if len(got) in bounds else len(bounds) - 1
            if step == len(bounds) - 1 or kills >= KILLS[ruleset]:
                gf.close()
                break
            point = POINTS[kills % len(POINTS)]
            kill_at(point)
            if point == "listener":
                gf.session.add_listener(_die)
            try:
                gf.session.act(choose(gf.session, step))
            except Killed:
                kills += 1
                per_point[point] += 1
            finally:
                gf.close()
        seed += 1
    print(f"{ruleset}: {kills} kills ({per_point}), {completed} older cuts completed on opening, {half_done} half done")
    assert half_done == 0
    assert kills >= KILLS[ruleset] and all(per_point.values()), per_point
    assert completed >= 5  # the older gwasl's cuts were there to complete


def test_the_kill_test_places_at_least_300_kills():
    assert sum(KILLS.values()) >= 300
