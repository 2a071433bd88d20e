"""``gwasl game replay --check`` and the journal's hash chain (issue 28 item 9): old files
replay with today's rules or are reported as older, with the version that made them,
never as altered; every recorded take-back must have been allowed when it was made
(docs/architecture.md "Undo and history"); an entry edited afterwards, dice or not, is named when
the file opens and by ``replay --check``; files made before the chain still open."""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from engine.toygame import Moved, Run, Step, ToyGame
from gwasl.cli import main
from gwasl.engine.game import GameOptions
from gwasl.games import register_ruleset
from gwasl.store import gamefile
from gwasl.store.gamefile import FORMAT_VERSION, GameFileError, create_game, open_game

GAME = ToyGame()
register_ruleset("toy", GAME)
DATA = Path(__file__).parent / "data"


def toy_file(p: Path, practice: bool = False, auto_blue: bool = True):
    return create_game(p, GAME, {"traps": [5, 7]}, 1, GameOptions(practice=practice, extra={"auto_blue": auto_blue}))


def played(p: Path, practice: bool = False) -> Path:
    with toy_file(p, practice) as gf:
        for a in (Step(), Run(), Step(), Run()):
            if gf.session.status().over:
                break
            gf.session.act(a)
    return p


def sql(p: Path, *statements: str, rechain: bool = False) -> None:
    """Edit the file; ``rechain``: then recompute every entry's chain hash, as a forger
    who knows the format would (gwasl's chain names an edit, it cannot stop a forger)."""
    con = sqlite3.connect(p)
    for s in statements:
        con.execute(s)
    if rechain:
        chain = gamefile._genesis(dict(con.execute("SELECT key, value FROM meta")))
        for row in con.execute("SELECT idx, kind, seq, dice, actor, action, grp, undoes, why, events FROM journal "
                               "ORDER BY idx").fetchall():
            chain = gamefile._link(chain, row)
            con.execute("UPDATE journal SET chain = ? WHERE idx = ?", (chain, row[0]))
    con.commit()
    con.close()


def replay(capsys, p: Path) -> tuple[int, dict]:
    capsys.readouterr()
    rc = main(["game", "replay", str(p), "--check", "--json"])
    out = capsys.readouterr().out
    return rc, json.loads(out)


def first(p: Path, where: str) -> int:
    con = sqlite3.connect(p)
    (idx,) = con.execute(f"SELECT min(idx) FROM journal WHERE {where}").fetchone()
    con.close()
    return idx


# non-dice edits that replay alone let through (the automated side's reason, who asked,
# which action a reply belongs to) and edits of the set-up (a take-back allowed by
# practice mode, a trap moved): each named by the chain
FORGERIES = {
    "an automated reason": ("UPDATE journal SET why = 'because I said so' WHERE idx = {auto}", "auto"),
    "who asked": ("UPDATE journal SET actor = 'omniscient' WHERE idx = {act}", "act"),
    "the group of a reply": ("UPDATE journal SET grp = 0 WHERE idx = {auto}", "auto"),
    "a decision's words": ("UPDATE journal SET events = replace(events, 'behind', 'ahead') WHERE idx = {auto}", "auto"),
    "practice mode": ("UPDATE meta SET value = replace(value, '\"practice\":false', '\"practice\":true') "
                      "WHERE key = 'options'", "set-up"),
    "a trap": ("UPDATE meta SET value = '{{\"traps\":[5,8]}}' WHERE key = 'source'", "set-up"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_an_entry_edited_afterwards_is_named_on_open_and_by_replay_check(tmp_path, capsys, name):
    p = played(tmp_path / "g.game")
    statement, which = FORGERIES[name]
    auto, act = first(p, "kind = 'auto'"), first(p, "kind = 'act'")
    sql(p, statement.format(auto=auto, act=act))
    entry = {"auto": auto, "act": act, "set-up": 0}[which]
    with pytest.raises(GameFileError, match=rf"{'set-up or journal entry 0' if which == 'set-up' else f'journal entry {entry}'} "
                                            r"was altered after it was written"):
        open_game(p, "r")
    rc, rep = replay(capsys, p)
    assert rc == 2 and rep["verdict"] == "altered" and rep["entry"] == entry and rep["identical"] is False
    capsys.readouterr()
    assert main(["game", "replay", str(p), "--check"]) == 2
    assert f"journal entry {entry} was altered" in capsys.readouterr().out


def test_a_take_back_past_a_die_roll_is_not_allowed_even_with_a_good_chain(tmp_path, capsys):
    """Forged take-backs past a die roll passed ``replay --check`` (4 of 4): it checked
    determinism, not legality.  A take-back of an action that rolled, outside practice
    mode, written with a correct chain, is named as not allowed when it was made."""
    p = played(tmp_path / "g.game")
    with open_game(p, "r") as gf:
        entries = gf.session.entries
        assert not gf.session.undo_target()[0]  # the game itself refuses: the last action rolled
        last = entries[-1]
        group = [e.index for e in entries if e.group == entries[-1].group and e.kind != "begin"]
    seq = last.seq + len(last.events)
    sql(p, f"INSERT INTO journal (idx, kind, seq, dice, actor, grp, undoes, events) VALUES ({last.index + 1}, 'take_back', "
           f"{seq}, {last.dice}, 'player', {group[0]}, '{json.dumps(group)}', '[]')", rechain=True)
    with open_game(p, "r") as gf:  # the chain holds: it opens, with the action taken back
        assert len(gf.session.entries) == last.index + 2
    rc, rep = replay(capsys, p)
    assert rc == 2 and rep["verdict"] == "differs" and rep["entry"] == last.index + 1
    assert "a take-back that was not allowed when it was made: the last action rolled dice" in rep["detail"]


def test_a_take_back_must_take_back_what_the_policy_named(tmp_path, capsys):
    """In practice mode a take-back takes back the last action with its automated replies:
    one that names the action alone (its reply left standing) is not allowed; the real
    one is identical."""
    p = played(tmp_path / "g.game", practice=True)
    with open_game(p) as gf:
        target, reason = gf.session.undo_target()
        assert reason is None and len(target) >= 2
        assert gf.session.undo()[0]
    rc, rep = replay(capsys, p)
    assert rc == 0 and rep["identical"], rep
    q = tmp_path / "forged.game"
    shutil.copyfile(p, q)
    sql(q, f"UPDATE journal SET undoes = '[{target[0]}]' WHERE kind = 'take_back'", rechain=True)
    rc, rep = replay(capsys, q)
    assert rc == 2 and f"it takes back entries [{target[0]}], where the policy allowed {target}" in rep["detail"]


def test_forged_dice_with_a_recomputed_chain_still_differ(tmp_path, capsys):
    """A die changed by a forger who recomputes the chain: the file opens, and today's
    rules, the rules it was made with, replay it differently: "differs", naming the die."""
    p = played(tmp_path / "g.game")
    idx = first(p, "events LIKE '%\"kind\":\"roll\"%'")
    con = sqlite3.connect(p)
    events = json.loads(con.execute("SELECT events FROM journal WHERE idx = ?", (idx,)).fetchone()[0])
    con.close()
    roll = next(e for e in events if e["kind"] == "roll")
    roll["dice"] = [7 - roll["dice"][0]]
    roll["final"] = roll["dice"][0]
    sql(p, f"UPDATE journal SET events = '{json.dumps(events, separators=(',', ':'))}' WHERE idx = {idx}", rechain=True)
    rc, rep = replay(capsys, p)
    assert rc == 2 and rep["verdict"] == "differs" and "in 'dice'" in rep["detail"] and rep["entry"] == idx


class _ToyTomorrow(ToyGame):
    """The toy game with changed rules: a step moves two squares."""

    def apply(self, state, action, dice):
        events = super().apply(state, action, dice)
        if isinstance(action, Step):
            events = [replace(e, to=e.to + 1) if isinstance(e, Moved) else e for e in events]
        return events


def test_a_game_made_under_other_rules_is_older_not_altered(tmp_path, capsys, monkeypatch):
    """Issue 28 item 9: 8 of 32 genuine files of earlier versions were reported as
    "differs".  A file whose recorded rules are not today's, and which today's rules
    replay differently, is "older", with the gwasl and the rules that made it; its chain
    holds, so the file is as it was written."""
    p = played(tmp_path / "g.game")
    sql(p, "UPDATE meta SET value = '\"0123456789abcdef\"' WHERE key = 'rules'", rechain=True)
    monkeypatch.setattr("gwasl.games._EXTRA", {"toy": _ToyTomorrow()})
    rc, rep = replay(capsys, p)
    assert rc == 2 and rep["verdict"] == "older" and rep["identical"] is False
    assert rep["made_by"]["rules"] == "0123456789abcdef" and rep["made_by"]["gwasl_version"]
    capsys.readouterr()
    main(["game", "replay", str(p), "--check"])
    out = capsys.readouterr().out
    assert out.startswith("older: made by gwasl ") and "rules 0123456789abcdef" in out and "hash chain holds" in out
    assert not out.startswith("differs") and "altered" not in out


def _as_format_1(p: Path) -> None:
    """``p`` as gwasl wrote games before the chain: no chain column, no rules, format 1."""
    sql(p, "ALTER TABLE journal DROP COLUMN chain", "DELETE FROM meta WHERE key = 'rules'",
        "UPDATE meta SET value = '1' WHERE key = 'format_version'")


def test_a_file_without_a_chain_opens_plays_on_and_stays_format_1(tmp_path, capsys):
    p = played(tmp_path / "g.game", practice=True)
    _as_format_1(p)
    with open_game(p) as gf:
        assert gf.meta["format_version"] == 1 < FORMAT_VERSION
        assert gf.session.undo()[0]  # a take-back and an action written into a format-1 file
        gf.session.act(Step())
        n = len(gf.session.entries)
    with open_game(p, "r") as gf:
        assert len(gf.session.entries) == n and gf.session.replay_check().identical
    con = sqlite3.connect(p)
    assert "chain" not in {r[1] for r in con.execute("PRAGMA table_info(journal)")}
    con.close()
    rc, rep = replay(capsys, p)
    assert rc == 0 and rep["identical"]


def test_an_old_file_that_replays_differently_is_older_with_its_version(tmp_path, capsys):
    """A file of an earlier gwasl (format 1: no rules recorded, no chain) that today's
    rules replay differently is reported as older, with the version and format that made
    it: never as altered or differing (tests/store/data holds a genuine one)."""
    p = tmp_path / "old.game"
    shutil.copyfile(DATA / "aslgw-fog-ledger-6d8ee87.game", p)
    rc, rep = replay(capsys, p)
    # today's rules keep a stack's MF history for the game (O'Leary 2.4), where the file's forgot it at
    # each phase: its first snapshot no longer equals the replay -- a genuine file of older rules
    assert rc == 2 and rep["verdict"] == "older" and rep["made_by"]["format_version"] == 1
    sql(p, "UPDATE meta SET value = '4' WHERE key = 'seed'")  # as if the dice had been drawn otherwise
    rc, rep = replay(capsys, p)
    assert rc == 2 and rep["verdict"] == "older" and rep["made_by"]["format_version"] == 1
    capsys.readouterr()
    main(["game", "replay", str(p), "--check"])
    out = capsys.readouterr().out
    assert out.startswith("older: made by gwasl ") and "game format 1" in out and "not evidence that it was edited" in out
