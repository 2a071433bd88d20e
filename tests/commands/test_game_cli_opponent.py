"""``gwasl game new --opponent SIDE`` and Great War batch play (issue 25, CONTRACTS 5 and 6
extended): the option is stored in the file, implies --secret, is refused where the
opponent is built in; batch figures do not depend on --jobs."""

from __future__ import annotations

import json

from gwasl.cli import main
from gwasl.engine.batch import batch
from gwasl.engine.game import GameOptions
from gwasl.games.aslgw.game import AslgwGame
from gwasl.store.gamefile import open_game
from testsupport import SCENARIOS

ROSSIGNOL = str(SCENARIOS / "rossignol-1914.json")


def run(capsys, *argv: str) -> tuple[int, dict | str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, out, err


def test_new_with_an_opponent_stores_it_and_keeps_its_secrets(tmp_path, capsys):
    g = tmp_path / "g.game"
    rc, obj, _ = run(capsys, "game", "new", ROSSIGNOL, "--opponent", "german", "--out", str(g), "--seed", "4", "--json")
    assert rc == 0 and isinstance(obj, dict) and obj["opponent"] == "german" and obj["side"] == "french"
    with open_game(str(g)) as gf:
        opts = gf.session.options
        assert opts.extra["opponent"] == "german" and "german" in opts.secret
        assert gf.session.state.opponents == frozenset({"german"})


def test_opponent_is_refused_where_it_is_built_in_and_for_a_side_not_there(tmp_path, capsys):
    for ruleset in ("combined-arms", "on-patrol"):
        rc, _, err = run(capsys, "game", "new", "--ruleset", ruleset, "--opponent", "german", "--out", str(tmp_path / f"{ruleset}.game"))
        assert rc == 2 and "--opponent is for Great War games" in err and not (tmp_path / f"{ruleset}.game").exists()
    rc, _, err = run(capsys, "game", "new", ROSSIGNOL, "--opponent", "russian", "--out", str(tmp_path / "x.game"))
    assert rc == 2 and "--opponent: 'russian' is not a side" in err and not (tmp_path / "x.game").exists()


def test_batch_needs_a_scenario_and_names_bad_sides(capsys):
    rc, _, err = run(capsys, "game", "batch", "--ruleset", "aslgw", "--games", "1")
    assert rc == 2 and "--scenario" in err
    rc, _, err = run(capsys, "game", "batch", "--ruleset", "aslgw", "--scenario", ROSSIGNOL, "--games", "1",
                     "--side-policy", "russian=opponent")
    assert rc == 2 and "'russian' is not a side" in err
    rc, _, err = run(capsys, "game", "batch", "--ruleset", "aslgw", "--scenario", ROSSIGNOL, "--games", "1",
                     "--side-policy", "german=clever")
    assert rc == 2 and "unknown policy 'clever'" in err


def test_batch_of_great_war_games_counts_each_sides_wins_the_same_for_any_jobs():
    game = AslgwGame()
    src = json.loads((SCENARIOS / "rossignol-1914.json").read_text(encoding="utf-8"))
    sides = {"french": "opponent", "german": "random"}
    options = GameOptions(frozenset(sides), False, {"opponent": sorted(sides)})
    one = batch(game, 4, 0, "passive", 1, options, src, sides, counting=True)
    two = batch(game, 4, 0, "passive", 2, options, src, sides, counting=True)
    assert one.by_side == two.by_side and one.counts == two.counts
    assert sum(one.by_side.values()) == 4 and "self_breaks" in one.counts
    # each game's winner by seed, for a paired before/after on the same seeds (docs/opponent.md)
    assert one.winners == two.winners and sorted(one.winners) == [0, 1, 2, 3]
    assert [sum(w == k for w in one.winners.values()) for k in ("french", "german")] == [one.by_side["french"], one.by_side["german"]]
    assert one.to_json()["winners"] == {str(k): v for k, v in one.winners.items()}


def test_batch_without_side_policies_plays_both_sides_by_the_policy(capsys):
    rc, obj, _ = run(capsys, "game", "batch", "--ruleset", "aslgw", "--scenario", ROSSIGNOL, "--games", "1",
                     "--policy", "passive", "--json")
    assert rc == 0 and isinstance(obj, dict) and obj["by_side"]["german"]["wins"] == 1  # nobody attacks: the avoider wins
