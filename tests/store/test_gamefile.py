"""Saved games (docs/architecture.md "Persistence", CONTRACTS 5): one SQLite file, the journal
committed before anything is shown, damaged or newer files refused in one line."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.toygame import Pass, Run, Step, ToyGame
from gwasl.engine.game import GameOptions
from gwasl.games import register_ruleset
from gwasl.store.gamefile import FORMAT_VERSION, GameFileError, create_game, open_game

GAME = ToyGame()
register_ruleset("toy", GAME)


def new_game(path: Path, seed: int = 1, practice: bool = True):
    return create_game(path, GAME, {"traps": [5, 7]}, seed, GameOptions(practice=practice))


def test_a_game_file_reopens_where_it_was_left(tmp_path):
    p = tmp_path / "g.game"
    with new_game(p) as gf:
        for a in (Run(), Step(), Run()):
            gf.session.act(a)
        gf.session.undo()
        state, log = gf.session.state, gf.session.log("omniscient")
    with open_game(p) as again:
        assert again.session.state == state
        assert again.session.log("omniscient") == log
        assert again.ruleset == "toy" and again.meta["format_version"] == FORMAT_VERSION
        assert again.session.replay_check().identical


def test_new_game_never_replaces_a_file(tmp_path):
    p = tmp_path / "precious.json"
    p.write_text("mine")
    with pytest.raises(GameFileError, match="already exists"):
        new_game(p)
    assert p.read_text() == "mine"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["precious.json"]


def test_new_game_file_mode_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        new_game(tmp_path / "g.game").close()
    finally:
        os.umask(old)
    assert (tmp_path / "g.game").stat().st_mode & 0o777 == 0o644


def _sql(p: Path, *statements: str) -> None:
    con = sqlite3.connect(p)
    for s in statements:
        con.execute(s)
    con.commit()
    con.close()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.write_bytes(b"not a database at all"), "not a gwasl game file"),
        (lambda p: p.write_bytes(p.read_bytes()[:1500]), "game file"),
        (lambda p: _sql(p, "DROP TABLE journal"), "not a gwasl game file"),
        (lambda p: _sql(p, "UPDATE meta SET value='99' WHERE key='format_version'"), "newer gwasl"),
        (lambda p: _sql(p, "UPDATE meta SET value='\"chess\"' WHERE key='ruleset'"), "unknown ruleset"),
        (lambda p: _sql(p, "UPDATE journal SET events='[{\"kind\":\"moved\",\"side\":\"red\",\"side\":\"blue\",\"to\":1}]' WHERE idx=1"),
         "duplicate key"),
        (lambda p: _sql(p, "UPDATE journal SET events='[{\"kind\":\"moved\",\"side\":\"red\",\"to\":1e400}]' WHERE idx=1"),
         "non-finite"),
        (lambda p: _sql(p, "UPDATE journal SET events='[{\"kind\":\"moved\",\"side\":\"red\",\"to\":\"x\"}]' WHERE idx=1"),
         "expected an integer"),
        (lambda p: _sql(p, "UPDATE journal SET events='[{\"kind\":\"teleported\"}]' WHERE idx=1"), "unknown"),
        (lambda p: _sql(p, "DELETE FROM journal WHERE idx=1"), "missing"),
        (lambda p: _sql(p, "UPDATE journal SET undoes='[5]' WHERE idx=1"), "earlier entries"),
        (lambda p: _sql(p, "UPDATE journal SET kind='magic' WHERE idx=1"), "unknown kind"),
        (lambda p: _sql(p, "UPDATE meta SET value='{' WHERE key='seed'"), "meta seed"),
    ],
)
def test_damaged_or_newer_files_get_one_line_naming_the_file(tmp_path, damage, message):
    p = tmp_path / "g.game"
    with new_game(p) as gf:
        gf.session.act(Step())
        gf.session.act(Run())
    damage(p)
    with pytest.raises(GameFileError) as exc:
        open_game(p)
    text = str(exc.value)
    assert str(p) in text and message in text and "\n" not in text


@pytest.mark.parametrize("kind", ["folder", "fifo", "missing"])
def test_only_regular_files_are_opened(tmp_path, kind):
    p = tmp_path / "x.game"
    if kind == "folder":
        p.mkdir()
    elif kind == "fifo":
        os.mkfifo(p)
    with pytest.raises(GameFileError, match=r"not a regular file|cannot open"):
        open_game(p)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_game_files_open_or_give_one_line(tmp_path_factory, data):
    base = tmp_path_factory.mktemp("fz") / "g.game"
    with new_game(base, seed=5) as gf:
        for _ in range(4):
            gf.session.act(Run())
    raw = bytearray(base.read_bytes())
    for _ in range(data.draw(st.integers(1, 12))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    base.write_bytes(bytes(raw))
    try:
        with open_game(base) as gf:
            gf.session.log("omniscient")
    except GameFileError as e:
        assert "\n" not in str(e) and str(base) in str(e)


def _driver(path: str, conn) -> None:  # runs in a forked child: acts forever, reports what it showed
    with open_game(path) as gf:
        rng = random.Random(os.getpid())
        while True:
            if gf.session.status().over:  # practice mode: take back and play on
                gf.session.undo()
                conn.send(gf.session.entries[-1].index)
                continue
            entries = gf.session.act(rng.choice([Run(), Step()]))
            conn.send(entries[-1].index)  # "shown" only after act returned (committed)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_kill_9_at_random_moments_loses_nothing_shown(tmp_path):
    """A game driven by a child process killed at random moments, 150 times: every
    entry the child showed is on disk, and the file always opens."""
    p = tmp_path / "g.game"
    new_game(p, seed=9).close()
    ctx = multiprocessing.get_context("fork")
    rng = random.Random(1)
    shown_max = 0
    kills = 0
    while kills < 150:
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_driver, args=(str(p), child))
        proc.start()
        child.close()
        if kills % 3 == 0 and parent.poll(10):  # every third child is let act first, however slow the machine
            shown_max = max(shown_max, parent.recv())
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        kills += 1
        while parent.poll():
            try:
                shown_max = max(shown_max, parent.recv())
            except (EOFError, OSError):
                break
        parent.close()
        with open_game(p) as gf:  # always opens
            assert len(gf.session.entries) > shown_max
    with open_game(p) as gf:
        assert gf.session.replay_check().identical
    assert shown_max >= 50  # the children did act (every third one at least once)


def test_meta_holds_what_the_game_started_from(tmp_path):
    p = tmp_path / "g.game"
    new_game(p, seed=77).close()
    con = sqlite3.connect(p)
    meta = {k: json.loads(v) for k, v in con.execute("SELECT key, value FROM meta")}
    con.close()
    assert meta["seed"] == 77 and meta["ruleset"] == "toy" and meta["source"] == {"traps": [5, 7]}
    assert meta["format"] == "gwasl-game" and "gwasl_version" in meta


# -- snapshots (docs/architecture.md "Persistence": a long game opens fast) -------------------------


def _aslgw_file(path: Path, events: int = 160, every: int = 25):
    from gwasl.games import game_for
    from gwasl.model.scenario_io import load_scenario, scenario_to_dict
    from gwasl.scenarios import bundled_scenario

    src = dict(scenario_to_dict(load_scenario(bundled_scenario("bois-des-caures-1916.json"))))
    gf = create_game(path, game_for("aslgw"), src, 4, GameOptions(practice=True))
    gf.session.snapshot_every = every
    rng = random.Random(2)
    while gf.session.next_seq < events and not gf.session.status().over:
        legal = gf.session.legal()
        enders = [a for a in legal if a.action.kind.startswith("end_")]
        gf.session.act((rng.choice(enders) if enders and rng.random() < 0.3 else rng.choice(legal)).action)
    return gf


def _replayed(session):
    state = session.game.setup(session.source, session.options)
    for _seq, ev in session.effective():
        state = session.game.reduce(state, ev)
    return state


def test_an_aslgw_game_reopens_from_its_newest_snapshot(tmp_path):
    p = tmp_path / "g.game"
    with _aslgw_file(p) as gf:
        state = gf.session.state
    rows = sqlite3.connect(p).execute("SELECT idx FROM snapshot ORDER BY idx").fetchall()
    assert len(rows) >= 4
    with open_game(p) as again:
        assert again.session.opened_from == rows[-1][0]
        assert again.session.state == state == _replayed(again.session)
        assert again.session.replay_check().identical


@pytest.mark.parametrize("damage", [
    "UPDATE snapshot SET state = replace(state, '\"turn\":', '\"turn\": ') WHERE idx = (SELECT max(idx) FROM snapshot)",
    "UPDATE snapshot SET state = '{\"types\":[\"builtins:eval\"],\"value\":{\"@c\":0,\"v\":{}}}', "
    "digest = 'c0ffee' WHERE idx = (SELECT max(idx) FROM snapshot)",
    "DROP TABLE snapshot",
    "DROP TABLE snapshot; CREATE TABLE snapshot (x TEXT)",
    "UPDATE snapshot SET digest = 'x'",
])
def test_a_damaged_snapshot_is_passed_over_and_the_game_still_opens(tmp_path, damage):
    p = tmp_path / "g.game"
    with _aslgw_file(p, events=90) as gf:
        state = gf.session.state
    newest = sqlite3.connect(p).execute("SELECT max(idx) FROM snapshot").fetchone()[0]
    _sql(p, *damage.split("; "))
    with open_game(p) as again:
        assert again.session.opened_from is None or again.session.opened_from < newest
        assert again.session.state == state
        assert again.session.replay_check().identical


def test_a_snapshot_with_a_good_digest_and_a_wrong_state_fails_replay_check(tmp_path):
    import hashlib

    p = tmp_path / "g.game"
    with _aslgw_file(p, events=90) as gf:
        gf.close()
    con = sqlite3.connect(p)
    idx, state = con.execute("SELECT idx, state FROM snapshot ORDER BY idx DESC").fetchone()
    obj = json.loads(state)
    obj["value"]["v"]["turn"] += 3  # a state the journal never reached
    text = json.dumps(obj, separators=(",", ":"))
    con.execute("UPDATE snapshot SET state = ?, digest = ? WHERE idx = ?", (text, hashlib.sha256(text.encode()).hexdigest(), idx))
    con.commit()
    con.close()
    with open_game(p) as again:
        rep = again.session.replay_check()
        assert not rep.identical and f"snapshot after entry {idx}" in (rep.detail or "")


def test_a_game_file_keeps_only_its_newest_snapshots(tmp_path):
    from gwasl.store.gamefile import KEEP_SNAPSHOTS

    p = tmp_path / "g.game"
    with _aslgw_file(p, events=200, every=20) as gf:
        made = sorted(gf.session._snaps)
        kept = [i for i, _ in gf.session.journal.snapshots()]
    rows = [r[0] for r in sqlite3.connect(p).execute("SELECT idx FROM snapshot ORDER BY idx")]
    assert len(made) > KEEP_SNAPSHOTS and rows == made[-KEEP_SNAPSHOTS:] == sorted(kept)


class _SnapToy(ToyGame):
    """The toy game with snapshots (as tests/engine/test_snapshots.py)."""

    ruleset = "toy-snap"

    def encode_state(self, state, base=None):
        from gwasl.engine import snapshot

        return snapshot.encode(state, base)

    def decode_state(self, obj, base=None):
        from gwasl.engine import snapshot
        from gwasl.engine.game import GameError

        try:
            return snapshot.decode(obj, snapshot.classes_in(["engine.toygame"]), base)
        except snapshot.SnapshotError as e:
            raise GameError(str(e)) from None


SNAP_GAME = _SnapToy()
register_ruleset("toy-snap", SNAP_GAME)


def _snap_driver(path: str, conn) -> None:  # a forked child: acts forever with a snapshot every 3 events
    with open_game(path) as gf:
        gf.session.snapshot_every = 3
        while True:
            if gf.session.status().over:
                gf.session.undo()
                conn.send(gf.session.entries[-1].index)
                continue
            entries = gf.session.act(Pass())  # the race never ends: no take-back retires a snapshot
            conn.send(entries[-1].index)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_kill_9_while_writing_snapshots_loses_nothing_and_the_file_opens(tmp_path):
    """Snapshots written every few events by a child killed at random moments, 60 times:
    every shown entry is on disk, the file opens (from a snapshot when it has one) to the
    state its journal replays to, and replay_check holds."""
    p = tmp_path / "g.game"
    with create_game(p, SNAP_GAME, {"traps": [5, 7]}, 3, GameOptions(practice=True)) as gf:
        gf.session.snapshot_every = 3
        for i in range(30):  # snapshots in the file before any child runs, however slow the machine
            if gf.session.status().over:
                gf.session.undo()
            gf.session.act(Step() if i % 2 else Run())
    assert [r for r in sqlite3.connect(p).execute("SELECT idx FROM snapshot")]
    ctx = multiprocessing.get_context("fork")
    rng = random.Random(2)
    shown_max, from_snapshot = 0, 0
    for kills in range(60):
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_snap_driver, args=(str(p), child))
        proc.start()
        child.close()
        for _ in range(6 if kills % 3 == 0 else 0):  # every third child acts a few times first, however slow the machine
            if not parent.poll(10):
                break
            shown_max = max(shown_max, parent.recv())
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        while parent.poll():
            try:
                shown_max = max(shown_max, parent.recv())
            except (EOFError, OSError):
                break
        parent.close()
        with open_game(p) as gf:
            assert len(gf.session.entries) > shown_max
            assert gf.session.state == _replayed(gf.session)
            from_snapshot += gf.session.opened_from is not None
    with open_game(p) as gf:
        assert gf.session.replay_check().identical
    assert from_snapshot == 60


def _with_old_fog_log(obj: dict) -> int:
    """``obj`` (a snapshot) as written while FogState kept the fog rules' English log, empty
    as the game kept it between events: a ``log`` field, the same-as-set-up mark, in its
    place before ``next_id``.  Returns how many FogStates it changed.  (A log holding
    LogEntry records: tests/engine/test_snapshots.py.)"""
    fog = obj["types"].index("gwasl.rules.fog.state:FogState")
    changed = 0

    def walk(o):
        nonlocal changed
        if isinstance(o, dict):
            if o.get("@c") == fog and isinstance(o.get("v"), dict):
                v = o["v"]
                items = list(v.items())
                k = next(i for i, (key, _) in enumerate(items) if key == "next_id")
                v.clear()
                v.update(items[:k] + [("log", {"@=": 1})] + items[k:])
                changed += 1
            for x in list(o.values()):
                walk(x)
        elif isinstance(o, list):
            for x in o:
                walk(x)

    walk(obj["value"])
    return changed


def test_a_snapshot_written_while_the_fog_layer_kept_its_log_still_opens(tmp_path):
    """The fog rules' English log left FogState (they return typed outcomes; the words are
    gwasl.rules.fog.words): a snapshot a game file holds from before still opens, passes
    replay --check, and the log it held is dropped (FogState.SNAPSHOT_RETIRED_FIELDS)."""
    import hashlib

    p = tmp_path / "g.game"
    with _aslgw_file(p, events=90) as gf:
        state = gf.session.state
    con = sqlite3.connect(p)
    rows = con.execute("SELECT idx, state FROM snapshot ORDER BY idx").fetchall()
    changed = 0
    for idx, text in rows:
        obj = json.loads(text)
        changed += _with_old_fog_log(obj)
        new = json.dumps(obj, separators=(",", ":"))
        con.execute("UPDATE snapshot SET state = ?, digest = ? WHERE idx = ?", (new, hashlib.sha256(new.encode()).hexdigest(), idx))
    con.commit()
    con.close()
    assert changed >= 2
    with open_game(p) as again:
        assert again.session.opened_from == rows[-1][0]
        assert again.session.state == state
        assert again.session.replay_check().identical
