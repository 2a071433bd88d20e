"""Saved game files from strangers (issue 17, "the same guarantees hold for saved game
files"): every ``gwasl game`` command on damaged, newer, fuzzed, huge and non-regular
game files, each in a child process under a memory and a time limit (benchmarks.hostile
Runner), gives a result or one clean line naming the file -- never a hang, a crash, an
internal error or a raw control character; text from the file stays on its own line."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.hostile import EXAMPLE, Runner, assert_clean, example_doc
from gwasl.cli import main
from gwasl.store.gamefile import MAX_GAME_FILE, GameFileError, open_game

GAME_COMMANDS = [["show"], ["show", "--json"], ["legal"], ["log"], ["replay", "--check"], ["undo"], ["act", "0"], ["suggest"]]


@pytest.fixture(scope="module")
def runner():
    with Runner(wall=60.0) as r:
        yield r


@pytest.fixture(scope="module")
def good_game(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("game") / "good.game"
    assert main(["game", "new", str(EXAMPLE), "--out", str(p), "--seed", "3"]) == 0
    return p


def _sql(p: Path, statement: str) -> None:
    con = sqlite3.connect(p)
    con.execute(statement)
    con.commit()
    con.close()


def _hostile_games(folder: Path, good: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}

    def copy(name: str) -> Path:
        p = folder / f"{name}.game"
        shutil.copyfile(good, p)
        out[name] = p
        return p

    copy("intact")
    p = copy("truncated")
    p.write_bytes(p.read_bytes()[:1500])
    _sql(copy("newer"), "UPDATE meta SET value='99' WHERE key='format_version'")
    _sql(copy("unknown-ruleset"), "UPDATE meta SET value='\"chess\"' WHERE key='ruleset'")
    _sql(copy("duplicate-keys"), "UPDATE journal SET events=replace(events, '\"turns\":5', '\"turns\":5,\"turns\":6') WHERE idx=0")
    _sql(copy("number-1e400"), "UPDATE journal SET events=replace(events, '\"turns\":5', '\"turns\":1e400') WHERE idx=0")
    _sql(copy("escape-in-meta"), "UPDATE meta SET value='\"\\u001b]0;pwned\\u0007\"' WHERE key='ruleset'")
    (folder / "scenario.game").write_text(json.dumps(example_doc()), encoding="utf-8")
    out["a-scenario"] = folder / "scenario.game"
    huge = folder / "huge.game"
    with open(huge, "wb") as fh:
        fh.truncate(MAX_GAME_FILE + 1)  # sparse: no disk used
    out["huge"] = huge
    fifo = folder / "fifo.game"
    os.mkfifo(fifo)
    out["fifo"] = fifo
    link = folder / "zero.game"
    link.symlink_to("/dev/zero")
    out["link-to-dev-zero"] = link
    out["dev-zero"] = Path("/dev/zero")
    out["folder"] = folder
    out["missing"] = folder / "missing.game"
    return out


NAMES = ["intact", "truncated", "newer", "unknown-ruleset", "duplicate-keys", "number-1e400", "escape-in-meta",
         "a-scenario", "huge", "fifo", "link-to-dev-zero", "dev-zero", "folder", "missing"]


@pytest.fixture(scope="module")
def games(tmp_path_factory, good_game):
    return _hostile_games(tmp_path_factory.mktemp("hostile-games"), good_game)


@pytest.mark.parametrize("command", GAME_COMMANDS, ids=lambda c: "-".join(c))
@pytest.mark.parametrize("name", NAMES)
def test_every_game_command_on_every_hostile_game_file(runner, games, name, command):
    path = games[name]
    o = runner.run(["game", command[0], str(path), *command[1:]])
    if name == "intact" and command == ["undo"]:  # CONTRACTS 5: a refused take-back is an answer, on stdout
        assert o.code in (0, 2) and "taken back" in o.stdout and not o.stderr
        return
    assert_clean(o)
    if name == "intact":
        return
    assert o.code == 2 and str(path) in o.stderr, o.stderr
    expect = {
        "newer": "newer gwasl",
        "huge": "at most 536,870,912 bytes",
        "fifo": "is a FIFO (named pipe), not a regular file",
        "link-to-dev-zero": "is a character device, not a regular file",
        "dev-zero": "is a character device, not a regular file",
        "folder": "is a folder, not a regular file",
        "missing": "cannot open: no such file",
        "a-scenario": "not a gwasl game file",
        "duplicate-keys": "duplicate key",
        "number-1e400": "non-finite",
    }
    if name in expect:
        assert expect[name] in o.stderr


@pytest.mark.parametrize("name", ["huge", "fifo", "dev-zero", "link-to-dev-zero", "folder"])
def test_open_game_refuses_before_reading_with_the_common_file_checks(games, name):
    """gwasl/store/gamefile.py checks a game file with gwasl.model.files (as scenario files are):
    the same words, and never a read of a FIFO or a device."""
    with pytest.raises(GameFileError, match="not a regular file|gwasl reads files of at most"):
        open_game(games[name])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_game_files_through_the_command_line(runner, good_game, tmp_path, data):
    raw = bytearray(good_game.read_bytes())
    for _ in range(data.draw(st.integers(1, 16))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    p = tmp_path / "fuzzed.game"
    p.write_bytes(bytes(raw))
    for command in (["show"], ["log", "--json"], ["replay", "--check"]):
        assert_clean(runner.run(["game", command[0], str(p), *command[1:]]))


def test_game_text_output_keeps_a_files_text_on_its_own_line(tmp_path, capsys):
    """A title with a newline and terminal controls is shown escaped, on its own line
    (commands/common escape_controls, as every other command)."""
    doc = example_doc()
    doc["title"] = "Plain\nturn 9, forged line\x1b[2J"
    src = tmp_path / "s.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    plain = tmp_path / "plain.game"
    forged = tmp_path / "forged.game"
    assert main(["game", "new", str(EXAMPLE), "--out", str(plain), "--seed", "1"]) == 0
    assert main(["game", "new", str(src), "--out", str(forged), "--seed", "1"]) == 0
    capsys.readouterr()
    for sub in ("show", "log"):
        assert main(["game", sub, str(plain)]) == 0
        want = capsys.readouterr().out
        assert main(["game", sub, str(forged)]) == 0
        got = capsys.readouterr().out
        assert got.count("\n") == want.count("\n")
        assert "\x1b" not in got and "Plain\\nturn 9, forged line\\x1b[2J" in got


def test_a_fuzzed_journal_that_replays_differently_is_reported_not_refused(runner, good_game, tmp_path):
    """A byte changed in the stored game (found by the fuzzer above: one byte at 16252 set
    to 32) still opens; `game replay --check` then answers that it differs, on stdout with
    exit 2 (CONTRACTS 5: exit 0 only when identical), which is an answer, not a crash."""
    raw = bytearray(good_game.read_bytes())
    raw[16252] = 32
    p = tmp_path / "fuzzed.game"
    p.write_bytes(bytes(raw))
    o = runner.run(["game", "replay", str(p), "--check"])
    assert_clean(o)
    if o.code == 2 and not o.stderr:
        assert o.stdout.startswith("differs at event ")

