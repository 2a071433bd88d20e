"""A bundled Great War scenario won through ``gwasl game`` (A26.23 exit VP): ``show`` gives
``"over": true`` and the result with its explanation.  The game is made with ``gwasl game new``
and judged with ``show``; its actions, by id, go to the game file in-process as ``act`` applies
them (tests/games/aslgw/test_bundled_cli.py plays a whole game call by call, and loses each
bundled card by standing still, A26.3: Saint-Julien with seed 1 among them, the game this file
played too)."""

from __future__ import annotations

import json

from gwasl.cli import main
from gwasl.scenarios import bundled_scenario


def run(capsys, *argv: str):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, (json.loads(out) if out.strip().startswith(("{", "[")) else out), err


def _new(tmp_path, capsys, name: str):
    g = tmp_path / "g.game"
    rc, _, err = run(capsys, "game", "new", str(bundled_scenario(name)), "--out", str(g), "--seed", "1", "--json")
    assert rc == 0, err
    return g


def _over(capsys, g):
    _, show, _ = run(capsys, "game", "show", str(g), "--json")
    return show if show["over"] else None


def test_saint_julien_won_by_exit_a26_23(tmp_path, capsys):
    """The scripted German attack of tests/games/aslgw/test_bundled_victory.py, played through
    ``gwasl game act`` action id by action id with the same seed: the Germans exit 4 VP and win at once."""
    from games.aslgw.playout import act_in_file, new_session, source
    from games.aslgw.test_bundled_victory import _scripted

    s = new_session(source(bundled_scenario("saint-julien-1915.json")), 1)
    ids: list[str] = []
    original = s.act

    def recording(action, name="player"):
        ids.append(next(a.id for a in s.legal(name) if a.action == action))
        return original(action, name)

    s.act = recording  # type: ignore[method-assign]
    _scripted(s, "german")
    assert s.status().result["winner"] == "german"
    g = _new(tmp_path, capsys, "saint-julien-1915.json")
    todo = iter(ids)
    assert act_in_file(g, lambda legal: next(todo, None)) == len(ids)
    show = _over(capsys, g)
    assert show is not None and show["result"]["winner"] == "german", show
    assert show["result"]["exit_vp"]["german"] >= 4 and show["result"]["immediate"]
    assert any("exited (A26.23)" in line for line in show["result"]["details"])
