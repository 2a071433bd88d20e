"""The fog layer in play: O'Leary's shift attempts as actions at their windows (2.3, 3.3.2,
5.1) resolved with the dice and recorded as events, ledgers and the phase closed on 8+
(2.5), potential dummy stacks splitting and merging (2.2), a hidden minefield's shift on
entry (4.6.2), gwasl's policy for a side kept secret (--secret), and orders given blind
to its "?" stacks (a dummy that moves stays a dummy; one that would have to show what it
is, is revealed)."""

from __future__ import annotations

import pytest

from games.aslgw.builders import doc, events_of, leader, seed_where, session, squad, to_phase
from games.aslgw.playout import scenario_paths, source
from gwasl.engine.events import Decided, Rolled
from gwasl.games.aslgw.records import (
    ConcealmentLost,
    EndPhase,
    EndWindow,
    MinefieldChoice,
    MinefieldEntered,
    MinefieldShifted,
    Move,
    Moved,
    MovePile,
    Resolved,
    Shift,
    ShiftResolved,
    ShiftWindow,
)

BOIS = source(next(p for p in scenario_paths() if "bois" in p.name))
SCHWABEN = source(next(p for p in scenario_paths() if "schwaben" in p.name))


def stack_at(s, label, side=None):
    return next(x for x in s.state.fog.stacks if x.hex.label == label and (side is None or x.side == side))


def shifts(s, viewer="player", ledger=None):
    return [a.action for a in s.legal(viewer) if isinstance(a.action, Shift) and (ledger is None or a.action.ledger == ledger)]


def test_dummy_shifts_only_at_the_start_of_the_own_mph_o_leary_2_3():
    """O'Leary 2.3: a potential dummy stack may shift at the start of its MPh, before any
    friendly unit has moved; HIP pieces may shift at any time in their MPh (3.3.2)."""
    s = session(BOIS)
    to_phase(s, "MPh", "german")
    assert not shifts(s)  # the German has no hidden layer; the French is not phasing
    to_phase(s, "MPh", "french")
    pd = stack_at(s, "G6")
    dummy = stack_at(s, "H3")
    assert Shift("dummy", "french", pd.id, dummy.id) in shifts(s, ledger="dummy")
    assert shifts(s, ledger="hip")
    unit = next(a.action for a in s.legal() if isinstance(a.action, Move) and "F1-3" in a.action.pieces)
    assert not s.state.acted
    s.act(unit)
    assert s.state.acted and s.state.clock.acted  # the game keeps the clock the fog rules read
    assert not shifts(s, ledger="dummy")  # a friendly unit has moved (2.3)
    assert shifts(s, ledger="hip")  # HIP: at any time in the own MPh (3.3.2)


def test_the_defender_has_a_hip_window_in_the_enemy_mph_o_leary_3_3_2():
    """O'Leary 3.3.2: HIP pieces may shift in the enemy's MPh: a window of its own, first."""
    s = session(BOIS)
    to_phase(s, "PFPh", "german")
    s.act(EndPhase())
    st = s.status()
    assert (st.phase, st.side, s.state.windows) == ("MPh", "french", ("french",))
    legal = [a.action for a in s.legal()]
    assert EndWindow("french") in legal and all(a.ledger == "hip" for a in legal if isinstance(a, Shift))
    s.act(EndWindow("french"))
    assert s.status().side == "german"


def open_pd_doc():
    """A potential dummy squad and a dummy stack of 2 in the open, a German watching (O'Leary 2.5 DRM +1)."""
    units = [squad("A", "E5", "french", hidden="potential_dummy"), squad("G", "B5")]
    return doc(units, dummies=[{"side": "french", "kind": "dummy_stack", "hex": "G5", "counters": 2}],
               game={"first_moves": "french"}, date="1916-07-01")


def shift_outcome(band):
    def prepare(s):
        to_phase(s, "MPh", "french")
        entries = s.act(Shift("dummy", "french", stack_at(s, "E5").id, stack_at(s, "G5").id))
        return events_of(entries, ShiftResolved)[0]
    return seed_where(open_pd_doc(), prepare, lambda r: r.band == band)


def test_a_shift_is_rolled_and_its_result_follows_from_the_event_o_leary_2_5():
    """O'Leary 2.5: the shift DR is a roll (private to the shifter), the result an event; on
    <= 7 the stacks exchange places and the ledger counts the shift."""
    s, res = shift_outcome("allowed")
    assert stack_at(s, "G5").unit_ids == ("A",) and stack_at(s, "E5").is_dummy
    ledger = s.view("omniscient")["hidden"]["french"]["ledger"]
    assert ledger[-1]["band"] == "allowed" and ledger[-1]["final"] == res.final
    roll = next(e for e in s.log("omniscient") if e["kind"] == "roll")
    assert roll["final"] == res.final and "O'Leary 2.5 shift DR" in roll["text"]
    assert not [e for e in s.log("german") if e["kind"] in ("roll", "shift")]  # the German sees nothing of it


def test_a_failed_shift_closes_the_phase_to_dummy_shifts_o_leary_2_5():
    """O'Leary 2.5: 8-10: no exchange, no other shift of that kind this phase."""
    s, _ = shift_outcome("disallowed")
    assert not shifts(s, ledger="dummy")
    assert s.view("omniscient")["hidden"]["french"]["ledger"][-1]["closes"]
    assert [x.unit_ids for x in s.state.fog.stacks] == [("A",), ()]  # no exchange


def test_11_12_eliminates_the_dummy_and_ends_the_potential_dummy_status_o_leary_2_5():
    s, _ = shift_outcome("status_lost")
    assert not any(x.hex.label == "G5" for x in s.state.fog.stacks)
    assert not stack_at(s, "E5").potential_dummy
    seen = [e["text"] for e in s.log("german") if e["kind"] == "shift_seen"]
    assert seen and "G5" in seen[0] and "dummy" in seen[0]


def pd_doc():
    units = [squad("A", "E5", "french", hidden="potential_dummy"), squad("B", "E5", "french", hidden="potential_dummy"),
             leader("L", "E5", "french", hidden="potential_dummy"), squad("G", "A1")]
    return doc(units, game={"first_moves": "french"}, date="1916-07-01",
               hexes={"E4": {"terrain": "woods"}, "E5": {"terrain": "woods"}})


def test_potential_dummy_stacks_split_and_merge_o_leary_2_2():
    """O'Leary 2.2: units leaving a potential dummy stack form a new one (a split); two
    sharing a location and position merge at the end of their CCPh."""
    s = session(pd_doc())
    to_phase(s, "MPh", "french")
    s.act(Move(("A", "L"), "E4", "ground"))  # a leader and a squad of the stack (A4.12)
    at = sorted((x.hex.label, x.unit_ids, x.potential_dummy) for x in s.state.fog.stacks)
    assert at == [("E4", ("A", "L"), True), ("E5", ("B",), True)]
    s.act(Move(("A", "L"), "E5", "ground"))
    assert len([x for x in s.state.fog.stacks if x.hex.label == "E5"]) == 2
    to_phase(s, "RPh", "german")
    (merged,) = [x for x in s.state.fog.stacks if x.hex.label == "E5"]
    assert set(merged.unit_ids) == {"A", "B", "L"} and merged.potential_dummy


def minefield_doc():
    forts = [{"kind": "minefield", "hexes": ["D2"], "owner": "french", "hidden": True, "ap": 6},
             {"kind": "minefield", "hexes": ["H8"], "owner": "french", "hidden": True, "ap": 2}]
    return doc([squad("S", "C2"), leader("L", "C2"), squad("F", "J10", "french")], forts=forts,
               sides={"german": {"nationality": "german"},
                      "french": {"nationality": "french", "fog": {"hidden_minefield": {"ap": 8, "at": 0}}}})


def test_entering_a_hidden_minefield_triggers_its_shift_o_leary_4_6_2():
    """O'Leary 4.6.2: a unit enters a minefield whose strength is not revealed: its owner may
    try to exchange it with another; whatever the DR, both strengths are then revealed."""
    s = session(minefield_doc())
    to_phase(s, "MPh", "german")
    entries = s.act(Move(("L", "S"), "D2", "ground"))
    (entered,) = events_of(entries, MinefieldEntered)
    assert entered.owner == "french" and entered.was_hidden and entered.reveals
    assert s.status().side == "french"
    options = [a.action for a in s.legal()]
    other = next(m for m in s.state.fog.minefields if m.hex.label == "H8")
    assert MinefieldChoice(entered.minefield, None) in options and MinefieldChoice(entered.minefield, other.id) in options
    entries = s.act(MinefieldChoice(entered.minefield, other.id))
    assert events_of(entries, Rolled) and events_of(entries, MinefieldShifted)
    assert all(m.revealed for m in s.state.fog.minefields)
    assert s.status().side == "german"


def test_a_secret_sides_shift_policy_acts_at_its_windows_and_stays_secret():
    """--secret french: gwasl's explained policy makes the French shifts at its windows; its
    decision and every roll are private to the French (the player sees the window close)."""
    s = session(BOIS, 3, secret=("french",))
    to_phase(s, "MPh", "german")  # the French HIP window of the enemy MPh ran by itself
    auto = [e for e in s.entries if e.kind == "auto"]
    assert auto and auto[0].actor == "french"
    decided = events_of(auto, Decided)[0]
    window = events_of(auto, ShiftWindow)[0]
    assert decided.private_to == "french" and "shift policy" in decided.why
    assert window.explanation and "french:" in window.explanation[0]
    player = [e["kind"] for e in s.log()]
    assert "decision" not in player and "shift_window" not in player and "window_closed" in player
    omni = [e for e in s.log("omniscient") if e["kind"] == "shift_window"]
    assert omni and "explanation" in omni[0]
    assert not shifts(s)  # the player never shifts for the secret side


def test_an_order_to_a_secret_dummy_moves_it_and_it_stays_a_dummy():
    """A dummy that moves stays a dummy: the player orders the "?" and gwasl resolves it."""
    s = session(SCHWABEN, 1, secret=("german",))
    to_phase(s, "MPh", "german")
    dummy = stack_at(s, "J7", "german")
    legal = [a.action for a in s.legal()]
    order = next(a for a in legal if isinstance(a, MovePile) and a.at == "J7" and a.to_in == "deep_trench")
    assert not any(isinstance(a, Move) and dummy.id in a.pieces for a in legal)  # no hidden ids for the player
    entries = s.act(order)
    assert events_of(entries, Resolved) and events_of(entries, Moved)[0].dummies == (dummy.id,)
    moved = next(x for x in s.state.fog.stacks if x.id == dummy.id)
    assert (moved.hex.label, moved.position.value) == ("J7", "deep_trench") and moved.is_dummy
    text = [e["text"] for e in s.shown(entries)]
    assert text == ['german: a "?" of 2 counters move J7 -> J7 (deep trench), 2 MF (into the deep trench of its own hex: 2 MF (ASLGW 2.1.3))']


def test_an_order_a_hidden_unit_cannot_carry_out_reveals_it():
    """R-S (concealed, alone, free: ASLGW 1.4.13 NTC +1) ordered blind: on a failed NTC
    (rolled on the German's own dice) it shows what it is instead of moving."""
    def order(s):
        to_phase(s, "MPh", "german")
        return s.act(MovePile("german", "M4", "foxhole", False, "M4", "ground"))

    s, entries = seed_where(SCHWABEN, order, lambda es: bool(events_of(es, ConcealmentLost)), secret=("german",))
    resolved = events_of(entries, Resolved)[0]
    assert resolved.failed == ("R-S",) and resolved.rolls and "NTC" in resolved.rolls[0].cause
    assert not events_of(entries, Rolled)  # nothing on the shared dice
    shown = s.shown(entries)
    assert [e["kind"] for e in shown] == ["stopped", "concealment_lost"]
    assert s.state.fog.status_of("R-S").value == "none"
    assert any(u["id"] == "R-S" for u in s.view()["units"])


def test_views_per_viewer_are_whitelists():
    """The player with --secret french sees the French as the German does ("?" counts only);
    the omniscient view and the French see the French hidden layer."""
    s = session(BOIS, 1, secret=("french",))
    player, german, french, omni = (s.view(v) for v in ("player", "german", "french", "omniscient"))
    assert player["units"] == german["units"] and player["concealed"] == german["concealed"]
    assert not any(u["side"] == "french" for u in player["units"])
    assert [(c["hex"], c["counters"]) for c in player["concealed"]] == [("F4", 3), ("G6", 2), ("H3", 2), ("I6", 2)]
    assert "french" not in player["hidden"] and "french" in french["hidden"] and set(omni["hidden"]) == {"german", "french"}
    assert {u["id"] for u in omni["units"]} >= {"F1-L", "F-MG"}
    assert french["hidden"]["french"]["hip_units"] == ["F-MG", "F-MG-W", "F1-2", "F1-L"]
    for v in (player, german, french, omni):
        assert {"ruleset", "turn", "phase", "side", "over", "result", "control", "vp"} <= set(v)


def test_hip_units_move_only_by_shifting_o_leary_3_2_2():
    s = session(BOIS)
    to_phase(s, "MPh", "french")
    movers = {p for a in s.legal() if isinstance(a.action, Move) for p in a.action.pieces}
    assert "F1-1" in movers and not movers & {"F1-L", "F1-2", "F-MG"}


@pytest.mark.parametrize("viewer", ["player", "german", "omniscient"])
def test_every_log_line_renders_for_every_viewer(viewer):
    s = session(BOIS, 2, secret=("french",))
    to_phase(s, "MPh", "french")
    for e in s.log(viewer):
        assert e["text"] and e["kind"]


def test_13_or_more_reveals_the_units_and_makes_them_ti_o_leary_2_5():
    """O'Leary 2.5: >= 13: the units lose concealment and are TI for the rest of the player
    turn (no shift for them); the next player turn clears TI."""
    s, _ = shift_outcome("revealed")
    assert s.state.fog.status_of("A").value == "none" and "A" in s.state.fog.ti
    assert s.view("german")["ti"] == ["A"]
    assert any(e["kind"] == "shift_seen" and "TI" in e["text"] for e in s.log("german"))
    to_phase(s, "RPh", "german")
    assert not s.state.fog.ti


def test_gwasl_decides_the_minefield_shift_of_a_secret_owner_o_leary_4_6_2():
    """--secret french: the French choice on entry is gwasl's, explained privately; the
    strengths it reveals are public (4.6.2)."""
    s = session(minefield_doc(), secret=("french",))
    to_phase(s, "MPh", "german")
    entries = s.act(Move(("L", "S"), "D2", "ground"))
    auto = [e for e in entries if e.kind == "auto"]
    assert auto and auto[0].actor == "french" and s.status().side == "german"
    assert events_of(auto, Decided)[0].private_to == "french"
    assert events_of(auto, MinefieldShifted)
    assert any(e["kind"] == "minefield_shift" for e in s.log())
    assert all(m.revealed for m in s.state.fog.minefields if m.hex.label == "D2" or m.id in {
        ev.other for ev in events_of(auto, MinefieldShifted)})


def test_a_secret_sides_policy_reads_only_its_own_shift_drs_o_leary_2_5():
    """O'Leary 2.5, 3.3.4: each side's shift DRs make its own ledger.  gwasl's policy for a
    side reads that side's ledger only: the enemy's DRs may be private to the enemy, and
    even their count (which seeds the policy's tie-breaks) would tell it how often a hidden
    enemy tried to shift."""
    from dataclasses import replace as _replace

    from gwasl.games.aslgw.actions.shifts import own_ledger, side_view
    from gwasl.rules.fog.state import LedgerKind, Phase, ShiftRecord

    s = session(doc([squad("G", "C2"), squad("F", "J9", "french", hidden="hip")]), secret=("german",))
    mine = ShiftRecord(1, "german", Phase.MPh, "german", LedgerKind.DUMMY, 5, "5", True, False)
    theirs = ShiftRecord(1, "german", Phase.MPh, "french", LedgerKind.HIP, 3, "3", True, False)
    state = _replace(s.state, ledger=(theirs, mine, theirs))
    assert own_ledger(state, "german") == (mine,)
    assert side_view(state, "german").ledger == (mine,)
    assert side_view(state, "french").ledger == (theirs, theirs)


def test_the_2_4_mf_history_is_judged_with_the_mf_play_gives_a_squad_in_formation_o_leary_2_4_aslgw_1_3():
    """O'Leary 2.4 refuses a shift after which a stack would hold a unit that could not have
    spent the MF its new location's stack has spent this phase.  ASLGW 1.3 gives a squad in
    platoon formation with its leader 6 MF: in Bois des Caures, F1-3 (platoon F1 of leader
    F1-L) spends 5 MF in and out of its deep trench (ASLGW 2.1.3), and F1-1 of the same
    platoon could have done as much -- the exchange of their "?" stacks is legal (it was
    refused: "spent 5 MF, more than F1-1's 4").  The fog check and movement read one
    allowance (:func:`gwasl.games.aslgw.actions.shifts.fog_env`)."""
    from dataclasses import replace as _replace

    from gwasl.games.aslgw.actions import movement as mv
    from gwasl.games.aslgw.actions import shifts as sh

    s = session(BOIS)
    to_phase(s, "MPh", "french")
    for pos in ("deep_trench", "deep_trench_crest", "deep_trench", "deep_trench_crest", "deep_trench"):
        s.act(Move(("F1-3",), "I6", pos))
    assert s.state.unit_play("F1-3").mf_spent == 5.0 and s.state.fog.spent["s2"] == 5.0
    sc = s.state.scenario
    assert mv.allowance(s.state, sc, sc.unit("F1-1"), ("F1-1",)) == 6.0
    at_window = _replace(s.state, acted=False)  # as if a window of the phase were open with that history
    assert Shift("dummy", "french", "s1", "s2") in sh.shift_options(at_window, "french")
