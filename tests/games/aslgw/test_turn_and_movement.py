"""The turn record and movement in play: A3 phases, one location at a time with the
terrain and Great War costs (ASLGW 2.1.2-2.1.3, 1.8), stacking (A5.1, ASLGW 2.1.4,
2.2.1), the leader's +2 MF and platoon impulses (ASLGW 1.3, 1.4.1, 1.4.11-1.4.15),
Assault Move (A4.61), Double Time (A4.5), the NTCs to move (ASLGW 1.3.2, 1.4.13)
rolled and logged, concealment lost by moving (A12.14) and garance (ASLGW 1.7.2)."""

from __future__ import annotations

import pytest

from games.aslgw.builders import doc, events_of, leader, seed_where, session, squad, to_phase
from gwasl.engine.events import Rolled
from gwasl.engine.game import IllegalAction
from gwasl.games.aslgw.actions.movement import impulse_check
from gwasl.games.aslgw.records import (
    ConcealmentLost,
    Detach,
    DoubleTime,
    EndImpulse,
    EndPhase,
    EndPlatoon,
    ImpulseStep,
    Move,
    Moved,
    NtcTaken,
    Stopped,
)

FRENCH_FAR = squad("F", "J10", "french")


def moves(s, unit=None, mode=None):
    return [a for a in (x.action for x in s.legal()) if isinstance(a, Move)
            and (unit is None or unit in a.pieces) and (mode is None or a.mode == mode)]


def test_the_eight_phases_in_order_each_side_in_turn_a3():
    """A3: each game turn is the first side's player turn then the other's, eight phases each;
    the defender acts in its DFPh; the game is over after the last turn."""
    s = session(doc([squad("G", "A1"), FRENCH_FAR], game={"turns": 2, "first_moves": "french"}))
    seen = []
    while not s.status().over:
        st = s.status()
        seen.append((st.turn, s.state.phasing, st.phase, st.side))
        s.act(EndPhase())
    assert len(seen) == 2 * 2 * 8
    assert seen[:3] == [(1, "french", "RPh", "french"), (1, "french", "PFPh", "french"), (1, "french", "MPh", "french")]
    assert seen[3] == (1, "french", "DFPh", "german")
    assert seen[8] == (1, "german", "RPh", "german") and seen[16] == (2, "french", "RPh", "french")
    assert s.status().result["winner"] is None and "turn 2 is over" in s.status().result["why"]
    with pytest.raises(IllegalAction):
        s.act(EndPhase())


def test_a_squad_moves_one_location_at_a_time_paying_terrain_mf_a4_1():
    """A4.1 with A4.12: a squad moving with a leader has 6 MF; woods cost 2, open 1."""
    d = doc([squad("S", "B2"), leader("L", "B2"), FRENCH_FAR], hexes={"C2": {"terrain": "woods"}})
    s = session(d)
    to_phase(s, "MPh")
    legal = moves(s)
    assert Move(("L", "S"), "C2", "ground") in legal  # the stack moves together
    s.act(Move(("L", "S"), "C2", "ground"))
    assert s.state.unit_play("S").mf_spent == 2.0 and s.state.unit_play("S").allowance == 6.0
    for to in ("D3", "E3", "F4", "G4"):
        s.act(Move(("L", "S"), to, "ground"))
    assert s.state.unit_play("S").mf_spent == 6.0
    assert not moves(s, "S")  # no MF left
    log = [e["text"] for e in s.log() if e["kind"] == "moved"]
    assert log[0] == "german: L, S move B2 -> C2, 2 MF (woods: 2 MF)"


def test_deep_trench_entry_exit_and_ladders_aslgw_2_1_3():
    """ASLGW 2.1.3: into a deep trench terrain + 2 MF; out of it doubled, CX at the end of the
    MPh and no Double Time without a ladder; a ladder spares the CX."""
    forts = [{"kind": "deep_trench", "hexes": ["C2", "C3"], "owner": "german", "ladders": ["C3"]}]
    units = [squad("S", "C2", **{"in": "deep_trench"}), leader("L", "C2", **{"in": "deep_trench"}),
             squad("T", "C3", **{"in": "deep_trench"}), leader("M", "C3", **{"in": "deep_trench"}), FRENCH_FAR]
    s = session(doc(units, forts=forts))
    to_phase(s, "MPh")
    s.act(Move(("L", "S"), "D2", "ground"))
    up = s.state.unit_play("S")
    assert up.mf_spent == 2.0 and up.cx_pending and not up.cx
    assert DoubleTime(("L", "S")) not in [a.action for a in s.legal()]  # no Double Time this MPh
    s.act(Move(("M", "T"), "D3", "ground"))
    assert not s.state.unit_play("T").cx_pending
    s.act(EndPhase())
    assert s.state.unit_play("S").cx and not s.state.unit_play("T").cx
    assert "CX at the end of the MPh (ASLGW 2.1.3)" in next(e["text"] for e in s.log() if e["kind"] == "moved")


def test_trench_armour_costs_one_mf_aslgw_1_8():
    """ASLGW 1.8: a squad in trench armour has 1 MF less (5 with a leader)."""
    s = session(doc([squad("S", "B2", trench_armour=True), leader("L", "B2"), FRENCH_FAR]))
    to_phase(s, "MPh")
    s.act(Move(("L", "S"), "C2", "ground"))
    assert s.state.unit_play("S").allowance == 5.0 and s.state.unit_play("L").allowance == 6.0


def test_stacking_limits_refuse_the_move_a5_1_aslgw_2_1_4_2_2_1():
    """A5.1: 3 squads a location; ASLGW 2.1.4: 2 in a deep trench; 2.2.1: a dugout stacks apart."""
    forts = [{"kind": "deep_trench", "hexes": ["D2"], "owner": "german"}, {"kind": "dugout", "hexes": ["C3"], "owner": "german"}]
    units = [squad("A", "C2"), squad("B", "C2"), squad("C", "C2"), squad("X", "B2"), leader("L", "B2"),
             squad("P", "D2", **{"in": "deep_trench"}), squad("Q", "D2", **{"in": "deep_trench"}),
             squad("R", "C3"), squad("V", "C3"), squad("W", "C3"), FRENCH_FAR]
    s = session(doc(units, forts=forts))
    to_phase(s, "MPh")
    legal = moves(s, "X")
    assert not any(a.to == "C2" for a in legal)  # A5.1
    # the deep trench of D2 is full (2.1.4); the dugout of C3 is a location of its own (2.2.1)
    assert not any(a.to == "D2" and a.to_in == "deep_trench" for a in moves(s, "A"))
    assert any(a.to == "C3" and a.to_in == "dugout" for a in moves(s, "R"))
    with pytest.raises(IllegalAction, match="A5.1"):
        s.act(Move(("L", "X"), "C2", "ground"))


def test_double_time_gives_two_mf_and_cx_a4_5():
    s = session(doc([squad("S", "B2"), leader("L", "B2"), FRENCH_FAR]))
    to_phase(s, "MPh")
    s.act(DoubleTime(("L", "S")))
    up = s.state.unit_play("S")
    assert up.cx and up.double_time and up.allowance == 8.0
    assert "Double Time" in s.log()[-1]["text"]


def test_a_unit_that_double_times_may_not_assault_move_a4_61_a4_5():
    """A4.61: Assault Movement is not open to a unit that Double Times (A4.5); it may still move
    normally with its extra MF.  Found in an opponent-against-opponent Saint-Quentin game's log
    (a German leader Double Timed, then "moved by Assault Movement")."""
    s = session(doc([squad("S", "B2"), leader("L", "B2"), FRENCH_FAR]))
    to_phase(s, "MPh")
    assert moves(s, "S", "assault")
    s.act(DoubleTime(("L", "S")))
    assert not moves(s, "S", "assault") and moves(s, "S", "normal")
    with pytest.raises(IllegalAction, match="Double Timing: it may not use Assault Movement .*A4.61"):
        s.act(Move(("L", "S"), "C2", "ground", "assault"))


def test_assault_move_enters_one_location_and_keeps_concealment_a4_61_a12_14():
    """A4.61: one location, all MF; A12.14: it keeps concealment in Open Ground in enemy LOS,
    where normal movement loses it."""
    units = [squad("S", "B2", hidden="concealed"), leader("L", "B2", hidden="concealed"), squad("F", "F2", "french")]
    s = session(doc(units))
    to_phase(s, "MPh")
    s.act(Move(("L", "S"), "C2", "ground", "assault"))
    assert s.state.unit_play("S").done
    assert s.state.fog.status_of("S").value == "concealed"
    s2 = session(doc(units))
    to_phase(s2, "MPh")
    entries = s2.act(Move(("L", "S"), "C2", "ground"))
    lost = events_of(entries, ConcealmentLost)
    assert lost and set(lost[0].units) == {"L", "S"} and "A12.14" in lost[0].why
    assert s2.state.fog.status_of("S").value == "none"


def test_garance_trousers_cannot_stay_concealed_aslgw_1_7_2():
    """ASLGW 1.7.2: French in garance (to May 1915) lose concealment moving in Open Ground in an
    enemy LOS, even by Assault Move."""
    units = [squad("F", "B2", "french", hidden="concealed"), leader("FL", "B2", "french", hidden="concealed"),
             squad("G", "H2")]
    # set up concealed in woods (1.7.2 forbids it in Open Ground in enemy LOS), then step into the open
    s = session(doc(units, date="1914-09-06", game={"first_moves": "french"}, hexes={"B2": {"terrain": "woods"}}))
    to_phase(s, "MPh")
    entries = s.act(Move(("F", "FL"), "C2", "ground", "assault"))
    lost = events_of(entries, ConcealmentLost)
    assert lost and "ASLGW 1.7.2" in lost[0].why


def test_no_leader_ntc_to_move_is_rolled_and_logged_aslgw_1_3_2():
    """ASLGW 1.3.2: a unit with no leader in command radius must pass an NTC to move; the
    roll is an event with its cause, and once passed it moves freely for the player turn."""
    d = doc([{"id": "C", "side": "german", "kind": "crew", "hex": "B2"}, FRENCH_FAR])

    def first_move(s):
        to_phase(s, "MPh")
        return s.act(Move(("C",), "C2", "ground"))

    s, entries = seed_where(d, first_move, lambda es: any(isinstance(e, NtcTaken) and e.passed for e in events_of(es)))
    roll = events_of(entries, Rolled)[0]
    assert roll.cause == "NTC to move C (ASLGW 1.3.2)" and len(roll.dice) == 2 and not roll.modifiers
    log = s.log()
    assert any(e["kind"] == "roll" and e["final"] == roll.final for e in log)
    assert any(e["kind"] == "ntc" and "C passes its NTC to move (ASLGW 1.3.2)" in e["text"] for e in log)
    again = s.act(Move(("C",), "D3", "ground"))
    assert not events_of(again, Rolled)  # passed: it acts normally for the rest of the player turn
    s2, entries2 = seed_where(d, first_move, lambda es: any(isinstance(e, NtcTaken) and not e.passed for e in events_of(es)))
    assert not events_of(entries2, Moved) and s2.state.unit_play("C").ntc_failed
    assert not moves(s2, "C")


def test_a_squad_of_no_platoon_is_a_free_squad_ntc_plus_one_aslgw_1_4_13():
    """gwasl.rules.organisation.is_free_squad: a squad in no platoon is free (1.4.13): NTC +1."""
    d = doc([squad("S", "B2"), FRENCH_FAR])

    def first_move(s):
        to_phase(s, "MPh")
        return s.act(Move(("S",), "C2", "ground"))

    _, entries = seed_where(d, first_move, lambda es: bool(events_of(es, Rolled)))
    assert [(m.cause, m.value) for m in events_of(entries, Rolled)[0].modifiers] == [("ASLGW 1.4.13: Out of Command and isolated", 1)]


def platoon_doc(**kw):
    members = [squad(f"P{i}", h, platoon="P") for i, h in enumerate(("B2", "B3", "C2", "C3", "B4", "C4"), 1)]
    return doc([leader("PL", "B3", platoon="P"), *members, FRENCH_FAR],
               formations=[{"id": "P", "kind": "platoon", "leader": "PL"}], **kw)


def test_a_platoon_moves_by_impulses_at_the_pace_of_its_slowest_member_aslgw_1_4_1():
    """ASLGW 1.4.1: members enter one hex each in an impulse and all pay what the one that
    spent most spent; 1.3: squads in formation of a platoon with its leader have 6 MF."""
    s = session(platoon_doc(hexes={"D2": {"terrain": "woods"}}))
    to_phase(s, "MPh")
    legal = [a.action for a in s.legal()]
    assert not moves(s, "P1")  # platoon members move by impulses, not on their own
    assert ImpulseStep("P", "P3", "D2", "ground") in legal
    s.act(ImpulseStep("P", "P3", "D2", "ground"))  # woods: 2 MF
    s.act(ImpulseStep("P", "P1", "C2", "ground"))  # open: 1 MF
    assert EndPhase() not in [a.action for a in s.legal()]  # the impulse must end first
    s.act(EndImpulse("P"))
    assert s.state.unit_play("P1").mf_spent == 2.0 and s.state.unit_play("P3").mf_spent == 2.0
    assert s.state.unit_play("P1").allowance == 6.0
    assert s.log()[-1]["text"] == "german: impulse of platoon P ends; P1, P3 pay 2 MF (ASLGW 1.4.1)"


def test_an_impulse_must_end_in_formation_or_free_the_straggler_aslgw_1_4_11_1_4_13():
    """ASLGW 1.4.11: each squad ends the impulse in or adjacent to another squad or the leader;
    1.4.13: a squad set free is not checked any more and moves once the platoon is done."""
    s = session(platoon_doc())
    to_phase(s, "MPh")
    s.act(ImpulseStep("P", "P5", "A4", "ground"))  # B4 -> A4: no other squad nor the leader beside it
    assert EndImpulse("P") not in [a.action for a in s.legal()]
    res = impulse_check(s.state, s.state.scenario, "P")
    assert [(v.rule, v.unit_id) for v in res.violations] == [("ASLGW 1.4.11", "P5")]
    s.act(Detach("P", "P5"))
    assert s.state.impulse is None and s.state.unit_play("P5").mf_spent == 1.0  # its own step, paid alone
    s.act(ImpulseStep("P", "P6", "D4", "ground"))
    s.act(EndImpulse("P"))
    s.act(EndPlatoon("P"))
    assert all(s.state.unit_play(f"P{i}").done for i in (1, 2, 3, 4, 6)) and not s.state.unit_play("P5").done


def test_a_squad_set_free_moves_after_its_platoon_with_an_ntc_aslgw_1_4_13():
    """ASLGW 1.4.13: a squad set free of its platoon moves only once the platoon is done, after
    an NTC with +1 when Out of Command (1915: command radius 1, ASLGW 1.3.11)."""
    members = [squad("P1", "B2", platoon="P"), squad("P2", "B3", platoon="P"), squad("P9", "B4", platoon="P")]
    d = doc([leader("PL", "B2", platoon="P"), *members, FRENCH_FAR], date="1915-06-01",
            formations=[{"id": "P", "kind": "platoon", "leader": "PL"}])

    def free_move(s):
        to_phase(s, "MPh")
        s.act(Detach("P", "P9"))
        assert s.state.unit_play("P9").detached and not moves(s, "P9")  # after the platoon's movement
        s.act(EndPlatoon("P"))
        return s.act(Move(("P9",), "B5", "ground"))

    _, entries = seed_where(d, free_move, lambda es: bool(events_of(es, Rolled)))
    roll = events_of(entries, Rolled)[0]
    assert [(m.cause, m.value) for m in roll.modifiers] == [("ASLGW 1.4.13: Out of Command and isolated", 1)]
    assert events_of(entries, NtcTaken)[0].rule == "ASLGW 1.4.13"


def test_entering_a_location_of_hidden_enemies_stops_and_reveals_them_a12_15():
    """A12.15: a unit that tries to enter a location holding hidden enemy units does not: they
    are revealed and its move ends there."""
    units = [squad("S", "B2"), leader("L", "B2"), squad("F", "C2", "french", hidden="concealed")]
    s = session(doc(units))
    to_phase(s, "MPh")
    entries = s.act(Move(("L", "S"), "C2", "ground"))
    stop = events_of(entries, Stopped)
    assert stop and stop[0].reveals and events_of(entries, ConcealmentLost)[0].units == ("F",)
    assert s.state.scenario.unit("S").hex.label == "B2" and s.state.unit_play("S").done


def test_take_back_stops_at_a_roll_or_a_secret_window_but_not_at_a_plain_move():
    """docs/architecture.md "Undo and history": a move without dice is taken back; a roll (an NTC) or
    gwasl's policy at a secret side's window is not, outside practice mode."""
    s = session(doc([squad("S", "B2"), leader("L", "B2"), FRENCH_FAR]))
    to_phase(s, "MPh")
    s.act(Move(("L", "S"), "C2", "ground"))
    assert s.undo() == (True, None) and s.state.scenario.unit("S").hex.label == "B2"
    d = doc([{"id": "C", "side": "german", "kind": "crew", "hex": "B2"}, FRENCH_FAR])
    s2 = session(d)
    to_phase(s2, "MPh")
    s2.act(Move(("C",), "C2", "ground"))  # the NTC of ASLGW 1.3.2 is rolled
    ok, why = s2.undo()
    assert not ok and "rolled dice" in why
    from games.aslgw.playout import scenario_paths, source

    bois = source(next(p for p in scenario_paths() if "bois" in p.name))
    s3 = session(bois, 1, secret=("french",))
    to_phase(s3, "PFPh", "german")
    s3.act(EndPhase())  # the French HIP window of the enemy MPh: gwasl's policy acts
    ok, _ = s3.undo()
    assert not ok


def test_advance_is_one_location_in_the_aph_and_cx_when_it_costs_all_mf_a4_7_a4_72():
    """A4.7: in the APh an infantry unit may advance one location (also into a Location holding
    a Known enemy: Close Combat follows, A4.14 forbids that only in the MPh); A4.72: if that
    location costs all its MF it becomes CX, and a CX unit may not advance into such a location."""
    units = [squad("S", "B2"), leader("L", "B2"), squad("T", "B6", trench_armour=True), leader("M", "B6"),
             squad("F", "C1", "french"), squad("E", "J10", "french")]
    s = session(doc(units, hexes={"C6": {"terrain": "stone_rubble"}}))
    to_phase(s, "APh")
    adv = moves(s, mode="advance")
    assert all(m.mode == "advance" for m in adv) and not moves(s, mode="normal")
    assert any(m.pieces == ("S",) and m.to == "C1" for m in adv), adv  # into the Known enemy's hex
    s.act(Move(("S",), "C2", "ground", "advance"))
    up = s.state.unit_play("S")
    assert up.done and not up.cx
    assert not any("S" in m.pieces for m in moves(s, mode="advance"))  # one location only
    s.act(Move(("T",), "C6", "ground", "advance"))  # rubble: 3 MF, all the armoured squad has (ASLGW 1.8)
    assert s.state.unit_play("T").cx  # A4.72
    assert any(m.pieces == ("L",) and m.to == "C2" for m in moves(s, mode="advance"))
