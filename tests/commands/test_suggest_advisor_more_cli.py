"""Issue 27 item 11: `gwasl game suggest --json` shows the advisor's plans for On Patrol and the
Great War too, best first, each with its win chance, the rollouts it rests on and its reason
(On Patrol 104.1.2: the commander sees the board; A26: the card's victory conditions as the
Great War leaf), the suggestion the best plan's first action; the game file is unchanged."""

from __future__ import annotations

import json

import pytest

from gwasl.cli import main
from testsupport import SCENARIOS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    return rc, capsys.readouterr().out


@pytest.mark.parametrize("new", [
    ("--ruleset", "on-patrol", "--seed", "3"),
    ("--ruleset", "aslgw", str(SCENARIOS / "saint-julien-1915.json"), "--opponent", "british", "--seed", "2"),
], ids=["on-patrol", "aslgw"])
def test_suggest_json_lists_the_plans_for_on_patrol_and_the_great_war(tmp_path, capsys, new) -> None:
    g = tmp_path / "x.game"
    assert run(capsys, "game", "new", *new, "--out", str(g))[0] == 0
    before = g.read_bytes()
    rc, out = run(capsys, "game", "suggest", str(g), "--json")
    obj = json.loads(out)
    plans = obj["candidates"]
    assert rc == 0 and plans and obj["policy"] == plans[0]["plan"] and obj["id"] == plans[0]["id"]
    assert [p["win_chance"] for p in plans] == sorted((p["win_chance"] for p in plans), reverse=True)
    assert all(p["rollouts"] > 0 and p["why"] and p["id"] for p in plans)
    rc, text = run(capsys, "game", "suggest", str(g))
    assert rc == 0 and "plans, best first:" in text and g.read_bytes() == before
