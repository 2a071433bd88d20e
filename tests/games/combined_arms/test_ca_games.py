"""Whole Combined Arms games: random legal actions over many seeds, through the
batch path and through the Session (journal, JSON round trip, replay check)."""

from __future__ import annotations

import json

import pytest

from gwasl.engine.batch import play_out
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, IllegalAction, Seat
from gwasl.engine.session import Session
from gwasl.games import game_for
from gwasl.games.combined_arms.policies import random_policy
from gwasl.games.combined_arms.records import Move

GAME = game_for("combined-arms")


@pytest.mark.slow
def test_200_random_games_play_to_a_score():
    """Random legal actions for 200 seeds: every game ends with a score and a winner."""
    for seed in range(200):
        r = play_out(GAME, random_policy, seed)
        assert -40 <= r.score <= 80 and r.steps > 0


def _play_session(seed: int, options: GameOptions | None = None) -> Session:
    s = Session.new(GAME, None, seed, options)
    n = 0
    while not s.status().over:
        legal = s.legal()
        assert legal, f"seed {seed}: no legal action and not over"
        d = random_policy(Seat(GAME, s.state, s.viewer("attacker")), GameDice(10_000 + seed, n))
        assert d.action in [la.action for la in legal]
        s.act(d.action)
        n += 1
    return s


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(0, 36, 3))
def test_session_games_replay_identically_and_round_trip(seed):
    """CONTRACTS 5: the same seed and actions give the same events byte for byte
    (Session.replay_check); every event reads back from its JSON; the views are JSON."""
    s = _play_session(seed, GameOptions(extra={"easier": seed % 4 == 0}))
    rep = s.replay_check()
    assert rep.identical, rep
    for entry in s.journal.entries():
        for ev in entry.events:
            assert GAME.events.decode(json.loads(json.dumps(ev.to_json()))).to_json() == ev.to_json()
    show = s.view()
    json.dumps(show)
    assert show["over"] and show["result"]["winner"] in ("attacker", "defender") and "why" in show["result"]
    assert {"ruleset", "turn", "phase", "side", "over", "result"} <= set(show)
    log = s.log()
    assert log and all(isinstance(e["text"], str) and e["text"] for e in log)
    assert any(e["kind"] == "decision" for e in log)


def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing():
    s = Session.new(GAME, None, 5)
    before = s.view()
    with pytest.raises(IllegalAction, match="rear edge"):
        s.act(Move("D1", "5f"))
    with pytest.raises(IllegalAction, match="no platoon"):
        s.act(Move("Z9", "1a"))
    assert s.view() == before


def test_show_lists_the_board_and_every_counter():
    """docs/format/combined-arms.md: every hex with its terrain, every counter with its kind, hex and status."""
    s = Session.new(GAME, None, 11)
    show = s.view()
    assert len(show["board"]["hexes"]) == 79 and all(h["terrain"] for h in show["board"]["hexes"])
    assert len(show["units"]) == 14 and all(u["where"] == "off" for u in show["units"])
    assert show["enemy"] and all(c["platoon"] == "potential" for c in show["enemy"])
    assert show["tracks"] == {"turn": 1, "losses": 0, "ammo": 0, "smoke_ammo": 4}


def test_plain_show_prints_the_position_a_command_line_player_needs(tmp_path, capsys):
    """Issue 27 item 9: plain ``gwasl game show`` printed one line; it prints the board (CA The
    Playing Board: every hex's terrain, the counters on it), your platoons (CA The Units: where,
    facing, fresh or spent), the enemy counters (potential or real, their ATGs), the tracks
    (CA Sequence of Play: turn, losses, ammo, smoke ammo) and the odds of ending now."""
    from gwasl.cli import main

    g = str(tmp_path / "ca.game")
    assert main(["game", "new", "--ruleset", "combined-arms", "--seed", "1", "--out", g]) == 0
    for ref in ("move:D1:1d", "move:A1:2e:4"):
        assert main(["game", "act", g, ref]) == 0
    capsys.readouterr()
    assert main(["game", "show", g]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [ln for ln in lines if ln.startswith("  ") and ln.split()[0].isdigit()]
    assert [r.split()[0] for r in rows] == [str(i) for i in range(1, 10)]
    view = Session.new(GAME, None, 1).view()
    widths = {h["row"]: 0 for h in view["board"]["hexes"]}
    for h in view["board"]["hexes"]:
        widths[h["row"]] += 1
    assert [len(r.split()) - 2 for r in rows] == [widths[i] for i in range(1, 10)]  # one cell a hex
    assert "=1" in rows[0] and "=1" in rows[1]  # D1 on the road in 1d, A1 on the road in 2e
    assert sum(r.count("?") for r in rows) == len(view["enemy"])
    text = "\n".join(lines)
    assert "D1 1d spent" in text and "A1 2e facing bottom spent" in text and "off: D2 D3" in text
    assert "enemy counters: 4j potential, ATGs potential;" in text
    assert "tracks: turn 1, infantry losses 0, infantry ammo fired 0, smoke ammo 4" in text
    assert "ending the game now:" in text


def test_every_viewer_sees_the_same_game():
    """Nothing is secret (a potential counter is unknown to everyone until its reveal roll):
    the player, the omniscient viewer and each side see the same view, log and legal list."""
    s = Session.new(GAME, None, 9, GameOptions(secret=frozenset({"defender"})))
    assert GAME.secret_sides(s.state) == frozenset()
    views = [s.view(v) for v in ("player", "omniscient", "attacker", "defender")]
    assert all(v == views[0] for v in views)
    assert s.log("player") == s.log("defender")
    assert [la.id for la in s.legal("player")] == [la.id for la in s.legal("omniscient")]
