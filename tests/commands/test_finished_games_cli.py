"""A finished game, reopened from its file, through the command line (CONTRACTS 5): for
every ruleset ``gwasl game show --json`` says ``over: true`` with the result, ``log --json``
lists every event, and the plain ``show`` says how it ended.  Issue 27 item 1: a Combined
Arms game reopened after its end failed with "Object of type mappingproxy is not JSON
serializable" (the journal gives the result back as a read-only mapping, its score
breakdown and the defender's decision details too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gwasl.cli import main
from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.scenarios import bundled_scenario
from gwasl.store.gamefile import create_game, load_source

PATROL = Path(__file__).resolve().parents[2] / "gwasl" / "games" / "on_patrol" / "scenarios" / "day-convoy.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, (json.loads(out) if out.lstrip().startswith("{") else out), err


def _played_to_the_end(path: Path, ruleset: str, source: str | None, seed: int) -> None:
    """A game file played to its end in process: the ruleset's own best policy (On Patrol),
    or only ending phases and the game (Combined Arms ends after turn 1; the Great War
    attacker never attacks and loses by A26.3)."""
    game = game_for(ruleset)
    src = load_source(ruleset, source) if source else None
    with create_game(path, game, src, seed, GameOptions()) as gf:
        s = gf.session
        for _ in range(3000):
            if s.status().over:
                return
            if ruleset == "on-patrol":
                hint = s.suggest("sensible")  # the policy alone: the advisor's rollouts cost a part of a second each
                assert hint is not None
                s.act(hint[1].action)
                continue
            acts = [a.action for a in s.legal()]
            ends = [a for a in acts if a.kind == "end_game"] or [a for a in acts if a.kind in ("end_phase", "end_window")]
            s.act((ends or acts)[0])
    raise AssertionError(f"{ruleset}: the game did not end")


@pytest.mark.parametrize(("ruleset", "source"), [("combined-arms", None), ("on-patrol", str(PATROL)),
                                                 ("aslgw", str(bundled_scenario("rossignol-1914.json")))])
def test_a_finished_game_reopened_shows_over_and_its_result(tmp_path, capsys, ruleset, source):
    """CONTRACTS 5: ``over: true`` and the result, from a reopened file, in JSON and in text."""
    g = tmp_path / "done.game"
    _played_to_the_end(g, ruleset, source, 1)
    rc, show, err = run(capsys, "game", "show", str(g), "--json")
    assert rc == 0, err
    assert show["over"] is True and show["result"]["winner"] and show["result"]["why"]
    rc, log, err = run(capsys, "game", "log", str(g), "--json")
    assert rc == 0, err
    seqs = [e["seq"] for e in log["events"]]
    assert seqs and seqs == sorted(set(seqs))
    rc, text, err = run(capsys, "game", "show", str(g))
    assert rc == 0 and show["result"]["why"] in text, err
    rc, text, err = run(capsys, "game", "log", str(g))
    assert rc == 0 and text.strip(), err
    rc, legal, err = run(capsys, "game", "legal", str(g), "--json")
    assert rc == 0 and legal["actions"] == [], err


def test_combined_arms_result_keeps_its_score_breakdown_when_reopened(tmp_path, capsys):
    """CA Victory: the breakdown of the score (platoons and ATGs in play, broken, exploiting,
    turns after 18) is part of the result shown, and adds up to the score."""
    g = tmp_path / "ca.game"
    _played_to_the_end(g, "combined-arms", None, 1)
    rc, show, err = run(capsys, "game", "show", str(g), "--json")
    assert rc == 0, err
    r = show["result"]
    assert r["breakdown"]["total"] == r["score"] and r["turns"] == 1
    # one clear sentence (issue 27 item 4): the game ended in turn 2's move phase after 1 turn played,
    # not "game over after turn 2: you ended the game after turn 1"
    assert show["turn"] == 1
    rc, text, _ = run(capsys, "game", "show", str(g))
    first = text.splitlines()[0]
    assert first == f"game over after turn 1: you ended the game; you score {r['score']}, short of the 20 needed to win", first
    rc, log, _ = run(capsys, "game", "log", str(g), "--json")
    over = [e for e in log["events"] if e["kind"] == "game_over"]
    assert len(over) == 1 and over[0]["result"] == r
    decisions = [e for e in log["events"] if e["kind"] == "decision"]
    assert decisions and all(isinstance(e["details"], dict) for e in decisions)
