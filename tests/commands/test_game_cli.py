"""``gwasl game`` (CONTRACTS 5) over the generic engine, driven with the toy game:
JSON shapes, one-line errors with exit 2, and an illegal action leaving the file unchanged."""

from __future__ import annotations

import json

import pytest

from engine.toygame import ToyGame
from gwasl.cli import main
from gwasl.games import register_ruleset

register_ruleset("toy", ToyGame())


def run(capsys, *argv: str) -> tuple[int, dict | str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, out, err


@pytest.fixture
def game(tmp_path, capsys):
    src = tmp_path / "toy.json"
    src.write_text('{"traps": [5, 7]}')
    g = tmp_path / "t.game"
    rc, obj, _ = run(capsys, "game", "new", str(src), "--out", str(g), "--ruleset", "toy", "--seed", "4", "--json")
    assert rc == 0 and obj == {"game": str(g), "ruleset": "toy", "turn": 1, "phase": "race", "side": "red", "seed": 4}
    return g


def test_legal_act_show_log_follow_contracts(game, capsys):
    rc, legal, _ = run(capsys, "game", "legal", str(game), "--json")
    assert rc == 0 and legal["side"] == "red"
    assert [a["id"] for a in legal["actions"]] == ["step", "run", "pass"]
    assert set(legal["actions"][0]) == {"id", "kind", "text"}
    rc, act, _ = run(capsys, "game", "act", str(game), "run", "--json")
    assert rc == 0 and act["ok"] is True
    roll = act["events"][0]
    assert roll["kind"] == "roll" and {"seq", "text", "dice", "modifiers", "final"} <= set(roll)
    rc, act2, _ = run(capsys, "game", "act", str(game), '{"kind": "step"}', "--json")
    assert rc == 0 and act2["events"][0]["seq"] == act["events"][-1]["seq"] + 1
    rc, show, _ = run(capsys, "game", "show", str(game), "--json")
    assert {"ruleset", "turn", "phase", "side", "over", "result"} <= set(show) and show["over"] is False
    rc, log, _ = run(capsys, "game", "log", str(game), "--json")
    assert [e["seq"] for e in log["events"]] == list(range(len(log["events"])))
    rc, rep, _ = run(capsys, "game", "replay", str(game), "--check", "--json")
    assert rc == 0 and rep == {"events": len(log["events"]), "identical": True, "first_difference": None}


def test_illegal_action_is_one_line_exit_2_and_file_unchanged(game, capsys):
    before = game.read_bytes()
    for ref in ("fly", '{"kind": "fly"}', '{"kind": "step", "x": 1}', "{not json", '["step"]'):
        rc, out, err = run(capsys, "game", "act", str(game), ref)
        assert rc == 2 and out == "" and err.count("\n") == 1, (ref, err)
    assert game.read_bytes() == before


def test_undo_reports_the_policy(game, capsys):
    run(capsys, "game", "act", str(game), "run")
    rc, obj, _ = run(capsys, "game", "undo", str(game), "--json")
    assert rc == 2 and obj["ok"] is False and "rolled dice" in obj["reason"]
    run(capsys, "game", "act", str(game), "step")
    rc, obj, _ = run(capsys, "game", "undo", str(game), "--json")
    assert rc == 0 and obj == {"ok": True, "reason": None}


def test_views_and_bad_viewer(game, capsys):
    rc, show, _ = run(capsys, "game", "show", str(game), "--view", "blue", "--json")
    assert show["traps"] == {"red": None, "blue": 7}
    rc, _, err = run(capsys, "game", "show", str(game), "--view", "nobody")
    assert rc == 2 and "unknown viewer" in err


@pytest.mark.parametrize("content", [b"", b"garbage", b"SQLite format 3\x00" + b"\x00" * 100])
def test_damaged_game_file_one_line(tmp_path, capsys, content):
    p = tmp_path / "bad.game"
    p.write_bytes(content)
    for sub in ("legal", "show", "log"):
        rc, _, err = run(capsys, "game", sub, str(p))
        assert rc == 2 and err.count("\n") == 1 and str(p) in err


def test_new_refuses_unknown_secret_side_without_writing(tmp_path, capsys):
    src = tmp_path / "toy.json"
    src.write_text('{"traps": [5, 7]}')
    rc, _, err = run(capsys, "game", "new", str(src), "--out", str(tmp_path / "g"), "--ruleset", "toy", "--secret", "green")
    assert rc == 2 and "not a side" in err and not (tmp_path / "g").exists()


def test_text_output_escapes_control_characters():
    from gwasl.commands.common import escape_controls  # game.py prints through it (its own _line is gone)

    assert escape_controls("title \x1b]0;owned\x07 \x1b[2J") == "title \\x1b]0;owned\\x07 \\x1b[2J"


def test_suggest_gives_the_policys_action_id_and_why_and_changes_nothing(tmp_path, capsys):
    """`gwasl game suggest` (an extension of CONTRACTS 5): the default policy's action as an
    id that `act` takes, and its reason; an unknown policy is a usage error (exit 2); a
    game without policies answers that it has no suggestion."""
    g = tmp_path / "ca.game"
    assert run(capsys, "game", "new", "--ruleset", "combined-arms", "--seed", "3", "--out", str(g))[0] == 0
    before = g.read_bytes()
    rc, obj, _ = run(capsys, "game", "suggest", str(g), "--json")
    assert rc == 0 and obj["policy"] == "raid" and obj["why"].startswith("raid:")
    assert g.read_bytes() == before
    rc, legal, _ = run(capsys, "game", "legal", str(g), "--json")
    assert obj["id"] in {a["id"] for a in legal["actions"]}
    assert run(capsys, "game", "act", str(g), obj["id"])[0] == 0
    rc, _, err = run(capsys, "game", "suggest", str(g), "--policy", "nope")
    assert rc == 2 and "unknown policy 'nope'" in err and err.endswith("\n") and err.count("\n") == 1
    toy = tmp_path / "toy.game"
    assert run(capsys, "game", "new", "--ruleset", "toy", "--seed", "1", "--out", str(toy))[0] == 0
    rc, out, _ = run(capsys, "game", "suggest", str(toy))
    assert rc == 0 and out.startswith("no suggestion")
