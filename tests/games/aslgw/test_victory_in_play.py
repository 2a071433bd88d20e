"""Control and victory in play (ASL A26): the aslgw game's hook to gwasl/rules/control.py
and gwasl/rules/victory.py, driven by the scenario card."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.aslgw.builders import actions, doc, events_of, session, squad, to_phase
from games.aslgw.playout import GAME
from gwasl.engine.game import GameError, GameOptions
from gwasl.engine.session import Session
from gwasl.games.aslgw import victory as vic
from gwasl.games.aslgw.records import Exit, Exited, Judged, Move, Over
from gwasl.model.hexgrid import Hex

BUILDING = {h: {"terrain": "stone_building", "building": "22U3"} for h in ("V2", "V3", "U3")}


def _22u3(**game: Any) -> dict[str, Any]:
    """A26.15 EX at game level: building 22U3 (V2, V3, U3) Controlled by the German at start;
    a French squad stands in for the Russian 4-4-7, a concealed German squad for the 5-4-8."""
    units = [squad("R447", "W2", "french"), squad("G548", "U4", hidden="concealed")]
    card = {"first_moves": "french", "turns": 2,
            "setup": {"german": {"hexes": ["V2", "V3", "U3", "U4"]}, "french": {"hexes": ["W2"]}},
            "victory": {"german": {"conditions": [{"control": {"buildings": ["22U3"]}}]}, "french": {"avoid": True}},
            **game}
    return doc(units, hexes=BUILDING, game=card, columns=24, rows=5)


def _move(s: Session[Any], uid: str, to: str, viewer: str = "player") -> None:
    m = [a for a in actions(s, viewer, "move") if isinstance(a, Move) and a.pieces == (uid,) and a.to == to
         and a.mode == "normal" and a.to_in == "ground"]
    assert m, f"{uid} cannot move to {to}"
    s.act(m[0], viewer)


def _control(s: Session[Any], viewer: str) -> dict[str, Any]:
    c = s.view(viewer)["control"]
    assert isinstance(c, dict)
    return c


def test_building_22u3_at_game_level_a26_15():
    s = session(_22u3(), seed=9)  # a seed where both NTCs to move pass (ASLGW 1.4.13)
    assert s.state.victory.truth.buildings["22U3"].side == "german"  # A26.11: set-up area
    to_phase(s, "MPh", "french")
    # "a 4-4-7 enters the ground level of V2 and immediately gains Control of the building, hex V2,
    # and the ground level Location of V2" (A26.11, 26.13, 26.14)
    _move(s, "R447", "V2")
    for viewer in ("omniscient", "german", "french"):
        c = _control(s, viewer)
        assert c["buildings"]["22U3"] == "french" and c["hexes"]["V2"] == "french", viewer
        assert c["hexes"]["V3"] == "german"
    to_phase(s, "MPh", "german")
    # "the concealed 5-4-8 enters the ground level of V3 ... does not gain Control of the building
    # since the ... 4-4-7 is still an armed enemy unit" (A26.15): here it enters U3
    _move(s, "G548", "U3", "german")
    assert {u.id: u.hex.label for u in s.state.scenario.units} == {"R447": "V2", "G548": "U3"}
    assert s.state.victory.truth.buildings["22U3"].side == "french"
    assert s.state.fog.status_of("G548").value != "none"  # still concealed
    # "If the 4-4-7 is eliminated, the German player would then immediately gain Control of the
    # building and hex V2" (the game's hook after an event that removes a unit)
    before = s.state
    after = vic.track(before, replace(before, fog=vic.remove_units(before.fog, ["R447"])))
    assert after.victory.truth.buildings["22U3"].side == "german"
    assert [x.unit for x in after.victory.losses] == ["R447"]  # A26.221: an elimination is a loss
    # Control by a concealed unit need not be declared (A26.15): the French still believe theirs
    g = GAME
    french = g.view(after, s.viewer("french"))["control"]
    german = g.view(after, s.viewer("german"))["control"]
    omni = g.view(after, s.viewer("omniscient"))["control"]
    assert french["buildings"]["22U3"] == "french"
    assert german["buildings"]["22U3"] == "german" == omni["buildings"]["22U3"]
    assert s.replay_check().identical


def test_a_hidden_unit_denies_control_unknown_to_the_enemy_a26_15():
    """A concealed armed unit prevents the enemy's Control (A26.15); the enemy, not knowing,
    believes it has it, until game end declares all Control."""
    units = [squad("F", "W2", "french"), squad("G548", "V3", hidden="concealed")]
    d = doc(units, hexes=BUILDING, columns=24, rows=5, game={
        "first_moves": "french", "turns": 1, "setup": {"german": {"hexes": ["V2", "V3", "U3"]}},
        "victory": {"french": {"conditions": [{"control": {"buildings": ["22U3"]}}]}, "german": {"avoid": True}}})
    s = session(d)
    to_phase(s, "MPh", "french")
    _move(s, "F", "V2")
    assert _control(s, "french")["buildings"]["22U3"] == "french"
    assert _control(s, "omniscient")["buildings"]["22U3"] == "german"
    for _ in range(40):
        if s.status().over:
            break
        s.act(actions(s, "player", "end_phase")[0] if actions(s, "player", "end_phase") else actions(s)[0])
    r = s.status().result
    assert r is not None and r["winner"] == "german" and "A26.3" in r["why"]
    assert r["control"]["buildings"]["22U3"] == "german"  # declared at game end (A26.15)
    assert s.view("french")["control"]["buildings"]["22U3"] == "german"
    assert s.replay_check().identical


def _exit_doc(immediate: bool = True, turns: int = 2) -> dict[str, Any]:
    units = [squad("G1", "J5"), squad("G2", "I5"), squad("F1", "A1", "french")]
    return doc(units, game={"first_moves": "german", "turns": turns,
                            "victory": {"german": {"conditions": [{"exit": {"at_least": 2, "edge": "east"}}],
                                                   "immediate": immediate},
                                        "french": {"avoid": True}},
                            "balance": {"french": {"text": "The French get 2 CVP.", "cvp": 2},
                                        "german": {"text": "Add one game turn.", "turns": 1}}})


def test_exit_vp_and_immediate_victory_a26_23():
    s = session(_exit_doc())
    to_phase(s, "MPh", "german")
    exits = actions(s, "player", "exit")
    assert exits == [Exit(("G1",))]  # only the unit on the east edge (A26.23 exit area)
    entries = s.act(exits[0])
    ev = events_of(entries)
    assert [type(e) for e in ev] == [Exited, Judged, Over]
    r = s.status().result
    assert s.status().over and r["winner"] == "german" and r["immediate"]
    assert r["exit_vp"]["german"] == 2 and any("G1 exited (A26.23)" in x for x in r["details"])
    shown = s.log("french")
    assert shown[-2]["kind"] == "victory" and shown[-2]["winner"] == "german"
    assert s.view("french")["over"] is True and s.view("french")["result"]["winner"] == "german"
    assert s.replay_check().identical


def test_exit_at_game_end_and_avoidance_a26_3():
    s = session(_exit_doc(immediate=False, turns=1))
    to_phase(s, "MPh", "german")
    s.act(Exit(("G1",)))
    assert not s.status().over
    assert s.view("french")["vp"]["exit"]["german"] == 2
    while not s.status().over:
        s.act(actions(s, "player", "end_phase")[0])
    r = s.status().result
    assert r["winner"] == "german" and not r["immediate"] and "german has met" in r["why"]


def test_nothing_exits_and_the_defender_wins_by_avoidance_a26_3():
    s = session(_exit_doc(immediate=False, turns=1))
    while not s.status().over:
        s.act(actions(s, "player", "end_phase")[0])
    r = s.status().result
    assert r["winner"] == "french" and "avoiding" in r["why"] and "A26.3" in r["why"]
    assert r["exit_vp"] == {"german": 0, "french": 0}


def test_balance_chosen_at_game_start_a26_4():
    s = Session.new(GAME, _exit_doc(), 1, GameOptions(extra={"balance": "french"}))
    assert s.view()["vp"]["cvp"]["french"] == 2
    assert any("Balance" in x for x in s.view()["vp"]["lines"])
    s = Session.new(GAME, _exit_doc(turns=2), 1, GameOptions(extra={"balance": "german"}))
    assert s.state.settings.turns == 3
    with pytest.raises(GameError, match="not a side"):
        Session.new(GAME, _exit_doc(), 1, GameOptions(extra={"balance": "russian"}))


def test_initial_control_from_set_up_areas_a26_11():
    s = session(_22u3())
    truth = s.state.victory.truth
    assert truth.hexes[Hex.from_label("U4")].side == "german"
    assert truth.hexes[Hex.from_label("W2")].side == "french"
    assert Hex.from_label("A1") not in truth.hexes


def test_a_unit_eliminated_by_combat_gives_cvp_and_control_a26_221():
    """Fire and close combat (gwasl/games/aslgw/effects.py) eliminate with a ``unit`` event; the
    victory hook notices the unit gone: CVP to the enemy (A26.221) and, with the last armed enemy
    gone, Control to the side still there (A26.15 EX: "would then immediately gain Control")."""
    from gwasl.games.aslgw.records import UnitHit

    s = session(_22u3(), seed=9)
    to_phase(s, "MPh", "french")
    _move(s, "R447", "V2")
    to_phase(s, "MPh", "german")
    _move(s, "G548", "U3", "german")
    st = GAME.reduce(s.state, UnitHit("french", "R447", "eliminated", "test: eliminated by fire"))
    assert [(x.unit, x.how, x.vp) for x in st.victory.losses] == [("R447", "eliminated", 2)]
    assert vic.vp_json(st)["cvp"] == {"french": 0, "german": 2}
    assert st.victory.truth.buildings["22U3"].side == "german"


def test_casualty_reduction_gives_the_half_squad_s_cvp_and_elimination_the_rest_a26_221():
    """A26.221 (CVP for eliminated units) with A26.211 (squad 2 VP, half-squad 1): a squad's
    Casualty Reduction (A7.302) eliminates a half-squad's worth, 1 CVP to the enemy at once;
    the half-squad eliminated later gives its own 1, so the squad gives 2 in all, never 3."""
    from gwasl.games.aslgw.records import UnitHit

    s = session(_22u3(), seed=9)
    st = GAME.reduce(s.state, UnitHit("french", "R447", "reduced", "test: casualty reduced", "half_squad"))
    assert st.scenario.unit("R447").kind.value == "half_squad"
    assert [(x.unit, x.how, x.vp) for x in st.victory.losses] == [("R447", "reduced", 1)]
    assert vic.vp_json(st)["cvp"]["german"] == 1
    assert any("casualty reduced" in line and "A26.221" in line for line in vic.vp_json(st)["lines"])
    st = GAME.reduce(st, UnitHit("french", "R447", "eliminated", "test: eliminated by fire"))
    assert [(x.how, x.vp) for x in st.victory.losses] == [("reduced", 1), ("eliminated", 1)]
    assert vic.vp_json(st)["cvp"] == {"french": 0, "german": 2}


def test_one_removal_path_for_elimination_and_exit():
    """Units leave play one way (gwasl/games/aslgw/victory.py remove_units), whether eliminated
    (A26.221, effects.py) or exited (A26.23, actions/movement.py): a leader that leaves takes its "?"
    with it and its formation is left without a leader, whichever way it went."""
    import inspect

    from gwasl.games.aslgw import effects
    from gwasl.games.aslgw.actions import movement
    from gwasl.model.scenario import Formation, FormationKind

    assert "_drop_unit" not in inspect.getsource(effects) and "vic.remove_units" in inspect.getsource(movement)
    s = session(_22u3(), seed=9)
    fog = s.state.fog
    sc = fog.scenario
    fog = replace(fog, scenario=replace(sc, formations=(Formation("P1", FormationKind.COMBAT_GROUP, "G548"),)))
    after = vic.remove_units(fog, ["G548"])
    assert all(u.id != "G548" for u in after.scenario.units) and after.scenario.formations[0].leader is None
    assert "G548" not in after.status and not any("G548" in st.unit_ids for st in after.stacks)
    assert vic.remove_units(after, ["G548"]) is after  # removing a unit no longer there changes nothing
