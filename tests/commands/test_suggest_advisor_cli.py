"""Issue 27 item 11: `gwasl game suggest` as an advisor (Combined Arms): the plans tried,
best first, each with its win chance and what it rests on (rollouts, or exact for ending
the game: CA Victory's final reveals weighed without dice), in text and --json; the
suggestion is the best plan's first action, an id `act` takes; the file is unchanged."""

from __future__ import annotations

import json

from gwasl.cli import main


def run(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    return rc, capsys.readouterr().out


def test_suggest_lists_the_plans_ranked_with_win_chance_and_rollouts(tmp_path, capsys):
    g = tmp_path / "ca.game"
    assert run(capsys, "game", "new", "--ruleset", "combined-arms", "--seed", "3", "--out", str(g))[0] == 0
    before = g.read_bytes()
    rc, out = run(capsys, "game", "suggest", str(g), "--json")
    obj = json.loads(out)
    plans = obj["candidates"]
    assert rc == 0 and [p["plan"] for p in plans] and obj["policy"] == plans[0]["plan"]
    assert [p["win_chance"] for p in plans] == sorted((p["win_chance"] for p in plans), reverse=True)
    assert all(p["rollouts"] > 0 and not p["exact"] and p["why"] and p["id"] for p in plans)  # turn 1: no ending yet
    assert obj["id"] == plans[0]["id"] and g.read_bytes() == before
    rc, text = run(capsys, "game", "suggest", str(g))
    lines = text.splitlines()
    assert lines[2] == "plans, best first:" and len(lines) == 3 + len(plans)
    assert all(f"({p['rollouts']} rollouts)" in ln for p, ln in zip(plans, lines[3:], strict=True))
    # a named policy is that policy's hint alone, as before
    rc, out = run(capsys, "game", "suggest", str(g), "--policy", "cautious", "--json")
    assert json.loads(out)["policy"] == "cautious" and "candidates" not in json.loads(out)
