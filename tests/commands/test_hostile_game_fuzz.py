"""Damaged game files by the thousand (issue 28, "done when": a fuzz test over at least
2,000 generated damaged game files a run finds 0 internal errors and 0 files changed by
read-only commands).

Genuine games of the three rulesets (format 2, and the same as format 1, which has no
hash chain to stop an edit at the door) are damaged one way each: bytes changed, the
file cut short, a cell set to a value of another type, a JSON value of an event, action
or the set-up replaced, removed or added (half of them with the hash chain recomputed,
so the edit reaches the rules), rows deleted or repeated, meta changed, the schema
added to.  Each damaged file goes through one read-only command (``show``, ``show
--json``, ``legal``, ``log --json``, ``replay --check``, ``suggest``, ``odds``) in
process, under a time limit per file and a bound on the memory the run may grow by:
the answer is a result (exit 0, or 2 for a replay that differs) or one line naming the
file (exit 2), never "internal error", and the file's bytes are as they were.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import resource
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from gwasl.cli import main
from gwasl.store import gamefile
from gwasl.store.gamefile import open_game
from store.saves import RULESETS, choose, new_file, scratch_folder

FILES = 2000
#: seconds one command may take on one damaged file
PER_FILE = 20
#: how much the process may grow over the whole run
GROWTH_MB = 400
COMMANDS = [["show"], ["show", "--json"], ["legal"], ["log", "--json"], ["replay", "--check"], ["suggest"], ["odds", "ID"]]
_JSON_COLUMNS = ("events", "action", "undoes")


def _base(ruleset: str, path: Path, steps: int, chain: bool) -> bytes:
    with new_file(ruleset, path, seed=11) as gf:
        for step in range(steps):
            a = choose(gf.session, step)
            if a is None:
                break
            gf.session.act(a)
    if not chain:  # as gwasl wrote games before the chain
        con = sqlite3.connect(path)
        con.execute("ALTER TABLE journal DROP COLUMN chain")
        con.execute("DELETE FROM meta WHERE key = 'rules'")
        con.execute("UPDATE meta SET value = '1' WHERE key = 'format_version'")
        con.commit()
        con.execute("VACUUM")
        con.close()
    return path.read_bytes()


@pytest.fixture(scope="module")
def bases(tmp_path_factory) -> list[tuple[str, bytes]]:
    folder = tmp_path_factory.mktemp("bases")
    out = []
    for rs in RULESETS:
        for chain in (True, False):
            name = f"{rs}-{'chain' if chain else 'v1'}"
            out.append((name, _base(rs, folder / f"{name}.game", 5, chain)))
    return out


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(12 if depth < 3 else 10)
    if pick == 10:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(3))]
    if pick == 11:
        return {rng.choice(["kind", "v", "side", "to", "id", "x"]): _random_json(rng, depth + 1) for _ in range(rng.randrange(3))}
    return [None, True, -1, 0, 2**70, 1.5, "", "\x1b]0;x\x07", [], {}][pick]


def _mutate_json(rng: random.Random, value: Any) -> Any:
    """``value`` with one place changed: replaced by a value of another type, a key
    removed or added, a number moved, a string changed."""
    paths: list[tuple[Any, Any]] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for k in list(v):
                paths.append((v, k))
                walk(v[k])
        elif isinstance(v, list):
            for i in range(len(v)):
                paths.append((v, i))
                walk(v[i])

    walk(value)
    if not paths:
        return _random_json(rng)
    parent, key = rng.choice(paths)
    old = parent[key]
    how = rng.randrange(5)
    if how == 0 and isinstance(parent, dict):
        del parent[key]
    elif how == 1 and isinstance(parent, dict):
        parent[rng.choice(["x", "kind", "v", "side", "unit", "hex"])] = _random_json(rng)
    elif how == 2 and isinstance(old, int) and not isinstance(old, bool):
        parent[key] = old + rng.choice([-1, 1, 5, -1000, 10**9])
    elif how == 3 and isinstance(old, str):
        parent[key] = rng.choice(["", old[::-1], old + "x", "A1", "german", "french", "??"])
    else:
        parent[key] = _random_json(rng)
    return value


def _rechain(con: sqlite3.Connection) -> None:
    if "chain" not in {r[1] for r in con.execute("PRAGMA table_info(journal)")}:
        return
    chain = gamefile._genesis({str(k): v for k, v in con.execute("SELECT key, value FROM meta")})
    for row in con.execute("SELECT idx, kind, seq, dice, actor, action, grp, undoes, why, events FROM journal "
                           "ORDER BY idx").fetchall():
        try:
            chain = gamefile._link(chain, row)
        except TypeError:  # a cell no chain can hold: the file is refused before the chain anyway
            return
        con.execute("UPDATE journal SET chain = ? WHERE idx = ?", (chain, row[0]))


def _damage(rng: random.Random, raw: bytes, path: Path) -> str:
    """Write ``raw`` damaged one way to ``path``; returns how."""
    kind = rng.choice(["bytes", "bytes", "cut", "cell", "json", "json", "json", "meta", "rows", "schema"])
    if kind == "bytes":
        data = bytearray(raw)
        for _ in range(rng.randint(1, 16)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        return kind
    if kind == "cut":
        path.write_bytes(raw[: rng.randrange(len(raw))])
        return kind
    path.write_bytes(raw)
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")  # a scratch file: no need to wait for the disk
    try:
        n = con.execute("SELECT count(*) FROM journal").fetchone()[0]
        idx = rng.randrange(n)
        if kind == "cell":
            column = rng.choice(["kind", "seq", "dice", "actor", "action", "grp", "undoes", "why", "events"])
            value = rng.choice([None, -3, 0, 7, 2**62, 1.25, "", "x", "[]", "{}", b"\x00\xff", "act", "take_back"])
            with contextlib.suppress(sqlite3.IntegrityError):
                con.execute(f"UPDATE journal SET {column} = ? WHERE idx = ?", (value, idx))
        elif kind == "json":
            column = rng.choice(_JSON_COLUMNS)
            (text,) = con.execute(f"SELECT {column} FROM journal WHERE idx = ?", (idx,)).fetchone()
            value = _mutate_json(rng, json.loads(text) if text is not None else None)
            con.execute(f"UPDATE journal SET {column} = ? WHERE idx = ?", (json.dumps(value), idx))
        elif kind == "meta":
            key = rng.choice(["format", "format_version", "ruleset", "seed", "options", "source", "gwasl_version", "rules"])
            row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            value = _mutate_json(rng, json.loads(row[0])) if row and rng.random() < 0.7 else _random_json(rng)
            con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value)))
        elif kind == "rows":
            how = rng.choice(["DELETE FROM journal WHERE idx = {i}", "DELETE FROM journal WHERE idx >= {i}",
                              "UPDATE journal SET idx = idx + 100 WHERE idx = {i}",
                              "INSERT INTO journal SELECT * FROM journal WHERE idx = {i} AND 0",
                              "UPDATE journal SET kind = 'take_back', undoes = '[{j}]', events = '[]' WHERE idx = {i}"])
            con.execute(how.format(i=idx, j=max(0, idx - 1)))
        else:
            con.execute(rng.choice(["CREATE TRIGGER t AFTER INSERT ON journal BEGIN DELETE FROM meta; END",
                                    "CREATE VIEW v AS SELECT 1", "CREATE TABLE more (x)", "DROP TABLE meta",
                                    "ALTER TABLE journal RENAME COLUMN why TO because", "DROP TABLE snapshot",
                                    "CREATE INDEX i ON meta (value)"]))
        if kind in ("cell", "json", "meta", "rows") and rng.random() < 0.5:
            _rechain(con)  # the edit reaches the rules
        con.commit()
    finally:
        con.close()
    return kind


class _Hung(Exception):
    pass


def _alarm(_sig: int, _frame: Any) -> None:
    raise _Hung


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, err.getvalue()


class _SuggestOncePerPosition:
    """``Session.suggest`` answered once per position: the advisors' rollouts (most of this
    test's time) are a pure function of the game, the state, the seed, the dice position and
    the policy asked (their stream is the advice dice, never a clock), and of the 2,000 files
    the ~60 that reach an advisor hold ~10 distinct positions (a damaged file that still opens
    mostly replays to its base game's state).  A position seen before (the same state by ``==``,
    not only the same text) gets the answer its first file got; every distinct one, and every
    file whose suggest raised, is worked out in full, and every file still goes through the
    whole command (opened, checked, replayed, the legal list and ids of the answer)."""

    def __init__(self, suggest: Any) -> None:
        self._suggest = suggest
        self._seen: dict[tuple[Any, ...], list[tuple[Any, Any]]] = {}
        self.asked = self.worked_out = 0

    def __call__(self, session: Any, policy: str | None = None) -> Any:
        self.asked += 1
        key = (type(session.game), session.game.ruleset, session.seed, session.dice_position, policy, repr(session.state))
        for state, answer in self._seen.get(key, ()):
            if state == session.state:
                return answer
        answer = self._suggest(session, policy)
        self.worked_out += 1
        self._seen.setdefault(key, []).append((session.state, answer))
        return answer


def _wal_empty(p: Path) -> bool:
    wal = Path(f"{p}-wal")
    return not wal.exists() or wal.stat().st_size == 0


@pytest.fixture
def scratch(tmp_path):
    """Where the damaged files are written: memory (/dev/shm) where there is one, for speed."""
    with scratch_folder(tmp_path) as folder:
        yield folder


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")
def test_thousands_of_damaged_game_files_give_no_internal_error_and_stay_unchanged(bases, scratch, monkeypatch):
    from gwasl import cli
    from gwasl.engine.session import Session

    tmp_path = scratch
    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)  # main() as it is, without building its parser 2,000 times
    suggest = _SuggestOncePerPosition(Session.suggest)
    monkeypatch.setattr(Session, "suggest", lambda session, policy=None: suggest(session, policy))
    rng = random.Random(28)
    ids = {}
    for name, raw in bases:  # an action id each game's odds can be asked about
        p = tmp_path / f"{name}.game"
        p.write_bytes(raw)
        with open_game(p, "r") as gf:
            legal = gf.session.legal()
            ids[name] = legal[0].id if legal else "none"
    internal, changed, kinds, answered = [], [], {}, 0
    grown_from = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    old = signal.signal(signal.SIGALRM, _alarm)
    start = time.perf_counter()
    try:
        for i in range(FILES):
            name, raw = bases[i % len(bases)]
            p = tmp_path / f"f{i % 7}.game"
            for extra in (Path(f"{p}-wal"), Path(f"{p}-shm")):
                extra.unlink(missing_ok=True)
            how = _damage(rng, raw, p)
            kinds[how] = kinds.get(how, 0) + 1
            before = hashlib.sha256(p.read_bytes()).digest()
            command = [c.replace("ID", ids[name]) for c in COMMANDS[i % len(COMMANDS)]]
            signal.setitimer(signal.ITIMER_REAL, PER_FILE)
            try:
                rc, err = _run(["game", command[0], str(p), *command[1:]])
            except _Hung:
                rc, err = -1, f"took more than {PER_FILE} s"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if rc not in (0, 2) or "internal error" in err or (err and str(p) not in err) or err.count("\n") > 1:
                internal.append((i, name, how, command[0], rc, err.strip()[:300]))
            answered += rc == 0
            if hashlib.sha256(p.read_bytes()).digest() != before or not _wal_empty(p):
                changed.append((i, name, how, command[0]))
    finally:
        signal.signal(signal.SIGALRM, old)
    elapsed = time.perf_counter() - start
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - grown_from) / 1024
    print(f"{FILES} damaged files in {elapsed:.1f} s ({kinds}); {answered} answered, the rest refused in one line; "
          f"grew {grown_mb:.0f} MB; suggest asked {suggest.asked} times, {suggest.worked_out} positions rolled out")
    assert internal == [], internal[:10]
    assert changed == [], changed[:10]
    assert grown_mb < GROWTH_MB
    assert answered >= FILES // 20  # the damage reached the commands, not only the door
    assert suggest.worked_out >= 3  # the advisors of the three games ran on the files that reach them
    assert all(kinds.get(k, 0) >= 50 for k in ("bytes", "cut", "cell", "json", "meta", "rows", "schema")), kinds
