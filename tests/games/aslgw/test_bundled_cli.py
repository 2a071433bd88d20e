"""Each bundled Great War scenario with a card (1914 garance, 1915 gas, 1916 deep trenches and
dugouts, 1918 Stosstruppen) won and lost through the command line (issue 13 item 5, CONTRACTS 5):
``gwasl game new``, ``act`` action by action, ``show`` with ``"over": true`` and a result that
explains itself (the condition that decided with its count, A26.1/A26.22/A26.23, the avoidance of
A26.3, the CVP and exit VP tallies with their sources, the Control declared at game end, A26.15),
the ``victory`` entry in ``log``, and exact replay (``game replay --check``).

One whole game goes through ``gwasl game legal`` and ``act`` call by call (the random one
below: each call reopens the file, as a player's command does).  The won and lost games are
made with ``gwasl game new`` and judged with ``show``, ``log`` and ``replay --check``; their
actions, chosen by id as ``act`` takes them, are applied in-process to the same file, opened
once (:func:`games.aslgw.playout.act_in_file`), which is what ``act`` does after opening it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.aslgw.playout import ENDERS, act_in_file, new_session, source
from games.aslgw.test_bundled_victory import CARDS, _defender, _scripted_step
from gwasl.cli import main
from gwasl.scenarios import bundled_scenario

#: a seed with which the fighting attack below wins each scenario
WIN_SEED = {"ovillers-1916.json": 2, "rossignol-1914.json": 1, "saint-julien-1915.json": 3, "saint-quentin-1918.json": 1}


def _fighting(s: Any, attacker: str, limit: int = 3000) -> int:
    """A sensible attack: in its AFPh the attacker fires the attack most likely to have an
    effect (at least 1 in 4, from the exact odds, A7.3) while there is one; otherwise it plays
    test_bundled_victory.py's scripted step (exit where the card pays, move toward the
    objectives, rout and close combat when the phase needs them).  The defender stands.
    Returns the number of fire attacks made."""
    fired = 0
    for _ in range(limit):
        st = s.status()
        if st.over:
            return fired
        if st.side == attacker and st.phase == "AFPh":
            best = None
            for a in s.legal():
                if a.action.kind == "fire":
                    p = sum(o.p for o in s.odds(a.action) if o.result != "no effect")
                    if p >= 0.25 and (best is None or p > best[0]):
                        best = (p, a.action)
            if best is not None:
                s.act(best[1])
                fired += 1
                continue
        s.act(_scripted_step(s, attacker))
    raise AssertionError("the scripted game does not end")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, (json.loads(out) if out.strip().startswith("{") else out), err


def _new(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, seed: int) -> str:
    g = str(tmp_path / "g.game")
    rc, out, err = run(capsys, "game", "new", str(bundled_scenario(name)), "--out", g, "--seed", str(seed), "--json")
    assert rc == 0 and out["turn"] == 1, err
    return g


def _act(capsys: pytest.CaptureFixture[str], g: str, action: str) -> None:
    rc, out, err = run(capsys, "game", "act", g, action, "--json")
    assert rc == 0 and out["ok"], err


def _finished(capsys: pytest.CaptureFixture[str], g: str, winner: str) -> dict[str, Any]:
    """``show`` of the finished game (returned): over, the winner, and a result that explains
    itself; the log's ``victory`` entry; ``replay --check`` identical."""
    rc, show, err = run(capsys, "game", "show", g, "--json")
    assert rc == 0 and show["over"] is True, err
    r = show["result"]
    assert r["winner"] == winner, r
    assert set(r["cvp"]) == set(r["exit_vp"]) == set(source(_src(g))["sides"])  # both tallies, every side
    assert r["details"] and r["control"]["hexes"]  # Control declared (A26.15)
    for side, n in r["cvp"].items():  # every VP with its source (A26.221, A26.222, A26.4)
        got = sum(int(line.split("+")[1].split()[0]) for line in r["details"] if line.startswith(f"{side} +") and " CVP" in line)
        assert got == n, (side, n, r["details"])
    for side, n in r["exit_vp"].items():  # A26.23
        got = sum(int(line.split("+")[1].split()[0]) for line in r["details"] if line.startswith(f"{side} +") and "exit VP" in line)
        assert got == n, (side, n, r["details"])
    assert any(f"A26.{x}" in r["why"] for x in ("1)", "22", "23", "3)")), r["why"]  # the condition's rule
    assert ": met" in r["why"] or ": not met" in r["why"]  # and whether it was met
    assert show["control"] and {"cvp", "exit", "lines"} <= set(show["vp"])
    rc, log, _ = run(capsys, "game", "log", g, "--json")
    assert [e for e in log["events"] if e["kind"] == "victory"]
    rc, rep, _ = run(capsys, "game", "replay", g, "--check", "--json")
    assert rc == 0 and rep["identical"] is True and rep["first_difference"] is None
    return show


_SOURCES: dict[str, str] = {}


def _src(g: str) -> Path:
    return bundled_scenario(_SOURCES[g])


@pytest.mark.parametrize("name", sorted(CARDS))
def test_won_through_the_command_line(tmp_path, capsys, name):
    """The fighting attack (:func:`_fighting`) found with a session, then played through
    ``gwasl game act`` id by id."""
    attacker, seed = CARDS[name], WIN_SEED[name]
    s = new_session(source(bundled_scenario(name)), seed)
    ids: list[str] = []
    original = s.act

    def recording(action: Any, viewer: str = "player") -> Any:
        ids.append(next(a.id for a in s.legal(viewer) if a.action == action))
        return original(action, viewer)

    s.act = recording  # type: ignore[method-assign]
    assert _fighting(s, attacker) > 0
    g = _new(tmp_path, capsys, name, seed)
    _SOURCES[g] = name
    todo = iter(ids)
    assert act_in_file(g, lambda legal: next(todo, None)) == len(ids)
    r = _finished(capsys, g, attacker)["result"]
    assert r["why"].startswith(f"{attacker} has met its victory conditions: ") and ": not met" not in r["why"]
    rc, log, _ = run(capsys, "game", "log", g, "--json")
    assert rc == 0
    assert any(e["kind"] == "fire" and e.get("side", attacker) == attacker for e in log["events"])


@pytest.mark.parametrize("name", sorted(CARDS))
def test_lost_through_the_command_line(tmp_path, capsys, name):
    """The attacker does nothing but end its phases: the defender wins by avoidance (A26.3)
    and the result says which of the attacker's conditions was not met; ``show`` gives the
    Control declared at the end (A26.15).  (The Saint-Julien game, seed 1, was also played by
    tests/commands/test_victory_cli.py: its assertions are here, the game played once.)"""
    g = _new(tmp_path, capsys, name, 1)
    _SOURCES[g] = name

    def end_of_phase(legal: list[Any]) -> str | None:
        if not legal:
            return None  # the game is over: nothing is legal
        return next(a.id for a in legal if a.shown.kind in ("end_phase", "end_window"))

    act_in_file(g, end_of_phase)
    show = _finished(capsys, g, _defender(name))
    r = show["result"]
    assert "(A26.3)" in r["why"] and ": not met" in r["why"]
    assert show["control"]["hexes"]  # all Control declared at the end (A26.15)


@pytest.mark.parametrize("name", ["saint-quentin-1918.json"])
def test_random_legal_play_through_the_command_line_ends_with_a_result(tmp_path, capsys, name):
    """Random legal actions by id from ``gwasl game legal`` (an end of phase now and then) to
    the end of the game: some result, explained, and replayed exactly.  One scenario here (each
    command reopens the game file); every bundled card is played out at random in-process by
    test_bundled_victory.py::test_random_play_ends_with_a_result_that_explains_itself."""
    g = _new(tmp_path, capsys, name, 7)
    _SOURCES[g] = name
    rng = random.Random(7)
    for _ in range(3000):
        rc, legal, err = run(capsys, "game", "legal", g, "--json")
        assert rc == 0, err
        acts = legal["actions"]
        if not acts:
            break
        enders = [a for a in acts if a["kind"] in ENDERS]
        a = rng.choice(enders) if enders and rng.random() < 0.3 else rng.choice(acts)
        _act(capsys, g, a["id"])
    rc, show, _ = run(capsys, "game", "show", g, "--json")
    assert show["over"] is True
    _finished(capsys, g, show["result"]["winner"])
    rc, log, _ = run(capsys, "game", "log", g, "--json")
    kinds = {e["kind"] for e in log["events"]}
    assert {"fire", "roll", "moved", "rally", "rout", "unit"} <= kinds  # fought, not only walked (issue 12 done-when)
    assert all({"dice", "modifiers", "final"} <= set(e) for e in log["events"] if e["kind"] == "roll")
