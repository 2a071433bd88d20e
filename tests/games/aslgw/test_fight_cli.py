"""Fire and close combat from the command line (CONTRACTS 5, issue 12): ``gwasl game legal``
lists them, ``odds`` gives their exact chances, ``act`` resolves them with every roll
as a ``roll`` event with its modifiers and rule numbers, ``show`` tells the Melee and
the units' state, ``replay --check`` finds the same game."""

from __future__ import annotations

import json

from games.aslgw.builders import doc, leader, squad
from gwasl.cli import main


def run(capsys, *argv: str):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, json.loads(out) if out.strip().startswith("{") else out, err


def test_prep_fire_and_close_combat_through_the_command_line(tmp_path, capsys):
    d = doc([squad("G", "C3"), squad("G2", "C3"), leader("L", "C3"), squad("F", "C3", "french"), squad("E", "E4", "french")],
            date="1915-06-01", game={"turns": 1})
    src = tmp_path / "s.json"
    src.write_text(json.dumps(d))
    g = str(tmp_path / "g.sqlite")
    assert run(capsys, "game", "new", str(src), "--out", g, "--seed", "3", "--json")[0] == 0
    run(capsys, "game", "act", g, "end_phase")
    rc, legal, _ = run(capsys, "game", "legal", g, "--json")
    fire = next(a for a in legal["actions"] if a["kind"] == "fire" and ":E4:" in a["id"])
    rc, odds, _ = run(capsys, "game", "odds", g, fire["id"], "--json")
    assert rc == 0 and abs(sum(o["p"] for o in odds["outcomes"]) - 1) < 1e-9
    rc, act, _ = run(capsys, "game", "act", g, fire["id"], "--json")
    rolls = [e for e in act["events"] if e["kind"] == "roll"]
    assert rc == 0 and rolls and all({"dice", "modifiers", "final"} <= set(r) for r in rolls)
    assert any(e["kind"] == "fire" for e in act["events"])
    for _ in range(12):
        rc, show, _ = run(capsys, "game", "show", g, "--json")
        if show["phase"] == "CCPh":
            break
        rc, legal, _ = run(capsys, "game", "legal", g, "--json")
        ids = [a["id"] for a in legal["actions"]]
        end = "end_phase" if "end_phase" in ids else next(i for i in ids if i.startswith("rout"))
        run(capsys, "game", "act", g, end)
    rc, legal, _ = run(capsys, "game", "legal", g, "--json")
    cc = [a for a in legal["actions"] if a["kind"] == "close_combat"]
    assert cc and "end_phase" not in [a["id"] for a in legal["actions"]]
    rc, odds, _ = run(capsys, "game", "odds", g, cc[0]["id"], "--json")
    assert abs(sum(o["p"] for o in odds["outcomes"]) - 1) < 1e-9 and any("units:" in o["result"] for o in odds["outcomes"])
    rc, act, _ = run(capsys, "game", "act", g, cc[0]["id"], "--json")
    text = next(e["text"] for e in act["events"] if e["kind"] == "close_combat")
    assert "HtH" in text and "ASLGW 1.10.1" in text
    rc, show, _ = run(capsys, "game", "show", g, "--json")
    assert {"melee", "residual", "gas"} <= set(show) and all("pinned" in u for u in show["units"])
    rc, rep, _ = run(capsys, "game", "replay", g, "--check", "--json")
    assert rc == 0 and rep["identical"] is True
