"""Whole patrols: the bundled scenarios played to the end by the random and sensible policies,
replaying identically (docs/architecture.md "State": the same seed and actions give the same events byte for byte),
and bad scenarios refused with one clear message."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.on_patrol.op_support import GAME
from gwasl.engine.batch import play_out
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, IllegalAction, Seat
from gwasl.engine.session import Session
from gwasl.games import game_for
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.policies import POLICIES, sensible_policy
from gwasl.games.on_patrol.scenario import BUNDLED, BUNDLED_DIR, ScenarioError, load_bundled


def session_game(name: str, seed: int, policy: str, turns: int | None = None) -> Session:
    src = copy.deepcopy(load_bundled(name))
    if turns:
        src["turns"] = turns
    s = Session.new(GAME, src, seed)
    pick = random.Random(seed)
    for _ in range(5000):
        st = s.status()
        if st.over:
            return s
        seat = Seat(GAME, s.state, s.viewer("submarine"))
        if policy == "random":
            legal = [a for a in seat.legal() if not isinstance(a, R.BreakOff)]
            action = legal[pick.randrange(len(legal))]
        else:
            action = sensible_policy(seat, GameDice(seed, s.dice_position)).action
        s.act(action)
    raise AssertionError("the patrol did not end")


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("policy", ["sensible", "random"])
def test_whole_patrols_end_and_replay_identically(name, policy):
    """A patrol played to its end through the Session replays identically from the seed, and
    its result has a winner, a sentence and the game's own fields."""
    for seed in (1, 2):
        s = session_game(name, seed, policy)
        report = s.replay_check()
        assert report.identical, report.detail
        result = s.status().result
        assert result["winner"] in ("submarine", "escorts") and result["why"]
        assert {"score", "ships_sunk", "sub_survived", "level"} <= set(result)
        view = s.view("player")
        assert view["over"] and view["result"] == dict(result)


def test_short_patrols_by_batch_play_and_through_the_session():
    """Both policies on every bundled patrol: 60 ten-turn patrols as batch play does them, and 30
    eight-turn patrols through the Session, each replaying identically: no error, every game ends."""
    for name in BUNDLED:
        src = copy.deepcopy(load_bundled(name))
        src["turns"] = 10
        for policy in POLICIES.values():
            for seed in range(10):
                r = play_out(GAME, policy, seed, None, src)
                assert r.steps > 0
        for policy in POLICIES:
            for seed in range(100, 105):
                s = session_game(name, seed, policy, turns=8)
                assert s.status().over and s.replay_check().identical


def test_the_escorts_learn_nothing_from_where_the_unseen_boat_is():
    """CONTRACTS 5: two patrols that differ only in where the unseen submarine is give the
    escorts' viewer the same legal actions, view and log, action for action."""
    logs = []
    for bow in ("AO60", "C60"):
        src = copy.deepcopy(load_bundled("day-convoy"))
        src["submarines"][0].update(bow=bow, depth=150)
        s = Session.new(GAME, src, 9)
        for _ in range(4):
            s.act(R.EndPhase())
            s.act(R.EndPhase())
        logs.append((s.log("escorts"), s.view("escorts"), [la.to_json() for la in s.legal("escorts")]))
    assert logs[0] == logs[1]


def test_the_same_seed_gives_the_same_events_byte_for_byte():
    """CONTRACTS 5: the same seed and the same actions give the same game."""
    a = session_game("night-convoy", 7, "random", turns=8)
    b = session_game("night-convoy", 7, "random", turns=8)
    dump = lambda s: json.dumps([[ev.to_json() for ev in e.events] for e in s.entries], sort_keys=True)  # noqa: E731
    assert dump(a) == dump(b)


def test_the_ruleset_is_registered():
    """CONTRACTS 5: ``--ruleset on-patrol``."""
    assert game_for("on-patrol").ruleset == "on-patrol"


def test_an_illegal_action_says_why():
    """CONTRACTS 5: an illegal action gets a reason; the escorts' phases are not the sub's."""
    s = Session.new(GAME, load_bundled("day-convoy"), 3)
    with pytest.raises(IllegalAction, match="escorts are moving|not a legal action"):
        GAME.check_legal(GAME.reduce(s.state, R.PhaseBegan(1, 2)), R.Move("U1", 0), s.viewer("player"))
    with pytest.raises(IllegalAction):
        s.act(R.Dive("U1", 500))


@pytest.mark.parametrize("change, message", [
    (lambda s: s.pop("year"), "scenario.year: missing"),
    (lambda s: s.update(year=1950), "1939-1945"),
    (lambda s: s["submarines"][0].update(bow="ZZ99"), "off the 72x72 board"),
    (lambda s: s["submarines"][0].update(heading=7), "heading is 1-6"),
    (lambda s: s["submarines"][0].update(depth=30), "steps of 25"),
    (lambda s: s["convoy"]["merchants"][0].update({"class": "dreadnought"}), "unknown ship class 'dreadnought'"),
    (lambda s: s["escorts"][0].update({"class": "cargo"}), "is a merchant, not a escort"),
    (lambda s: s["escorts"][1].update(id="E1"), "id 'E1' is used twice"),
    (lambda s: s.update(victory={"marginal": 9, "substantial": 2, "decisive": 30}), "marginal <= substantial"),
    (lambda s: s["convoy"].update(speed="warp"), "convoy.speed"),
    (lambda s: s.update(contact="maybe"), 'scenario.contact: true .* or "lost"'),
])
def test_a_bad_scenario_gets_one_clear_message(change, message):
    """Bad input: one message naming the field and the problem, never a traceback."""
    src = copy.deepcopy(load_bundled("day-convoy"))
    change(src)
    with pytest.raises(ScenarioError, match=message):
        GAME.setup(src, GameOptions())


def test_bundled_patrols_day_night_and_hunter_group():
    """Three bundled patrols: a day convoy, a night convoy, a hunter group of escorts alone."""
    day, night, hunt = (load_bundled(n) for n in BUNDLED)
    assert not day["night"] and day["convoy"]["merchants"]
    assert night["night"] and night["convoy"]["merchants"]
    assert "convoy" not in hunt and hunt["escorts"]
    for n in BUNDLED:
        st = GAME.setup(load_bundled(n), GameOptions())
        assert st.title


def test_a_move_that_shows_the_boat_cannot_be_taken_back():
    """docs/architecture.md "Undo and history": a move without dice may be taken back, but not one that put the boat
    in the escorts' sight (104.1.3: the marker is a reveal)."""
    src = copy.deepcopy(load_bundled("day-convoy"))
    src["submarines"][0].update(depth=50)
    s = Session.new(GAME, src, 2)
    s.act(R.Move("U1", 0))
    ok, _ = s.undo()
    assert ok
    s.act(R.Dive("U1", 25))  # daylight at 25 feet: visible (104.1.4 a)
    ok, reason = s.undo()
    assert not ok and "take-back" in reason


def test_escort_reasons_describe_the_move_made_in_one_radial_numbering():
    """105.3.2 (vector, radial, target), 106.2.2 (diameter): each escort's stated reason gives
    the stages of its steering in order and where the move ended (its last hex and heading,
    the radial it ended on or the two it lies between, its distance from the target hex),
    computed from the move itself; radials are numbered as headings (1-6), never "radial 0".
    (The reason used to name only the first hex's vector and radial: "vector heading 5, radial
    1" for an escort that ended heading 4 on radial 2.)"""
    from gwasl.games.on_patrol.geometry import harmon_heading, sextant
    from gwasl.games.on_patrol.state import hx

    seen = 0
    for name, seed in (("day-convoy", 1), ("hunter-group", 2)):
        s = session_game(name, seed, "sensible")
        for _, ev in s.effective():
            if not isinstance(ev, R.ShipMoved) or ev.movement not in ("radial", "diameter") or not ev.path:
                continue
            bow, heading = ev.path[-1]
            target = hx(ev.target)
            assert f"ends at {bow} heading {harmon_heading(heading)}" in ev.why, ev.why
            assert "radial 0" not in ev.why
            v = hx(bow) - target
            if v.q or v.r:
                i, _a, b = sextant(v)
                on = f"on radial {harmon_heading(i)}" if b == 0 else f"between radials {harmon_heading(i)} and {harmon_heading(i + 1)}"
                assert on + f", {hx(bow).distance(target)} hex" in ev.why, ev.why
            seen += 1
    assert seen > 20


def test_plain_show_prints_the_position_a_command_line_player_needs(tmp_path, capsys):
    """Issue 27 item 9: plain ``gwasl game show`` printed one line; it prints the position to
    play from: your boat (bow, stern, heading, depth, damage, tubes and reloads: 102.2, 102.5),
    every ship (bow, heading, speed, damage, distance from your bow), the detection markers
    and what the escorts do about them (104.1.3, 104.2.1), torpedoes (102.3).  The escorts'
    viewer gets no line about the boat (104.1.2: they know the markers only)."""
    from gwasl.cli import main

    g = str(tmp_path / "p.game")
    src = str(BUNDLED_DIR / "hunter-group.json")
    assert main(["game", "new", src, "--ruleset", "on-patrol", "--out", g, "--seed", "3"]) == 0
    capsys.readouterr()
    assert main(["game", "show", g]) == 0
    text = capsys.readouterr().out
    assert "your boat U1 (U-744): bow AK44, stern AK45, heading 6, 100 ft" in text
    assert "tubes: 1 g7e, 2 g7e, 3 g7e, 4 g7e, 5 g7e (stern); reloads left 9" in text
    assert all(f"  {e} escort " in text for e in ("E1", "E2", "E3", "E4")) and " hexes" in text
    assert "marker for U1: contact lost (inverted) at AK44 heading 6, target hex AK43" in text
    assert "escorts against U1: mode 6, diameter movement at search speed (contact lost)" in text
    assert main(["game", "show", g, "--view", "escorts"]) == 0
    theirs = capsys.readouterr().out
    assert "your boat" not in theirs and "AK44, stern" not in theirs and "  E1 escort " in theirs
