"""O'Leary 2.4 (issue 24 item 11) reached by legal play from a bundled scenario's start: the MF
history of a "?" stack is the game's ("if at a previous point in the game the BT-7 used more
than 10 MP ..."), and a squad taking it is judged with the MF play gives it (ASLGW 1.3: 6 in
platoon formation with its leader), where it stands or where the shift puts it.

Bois des Caures, French turn 1: F1-3 (potential dummy stack s2, platoon F1 of leader F1-L in
H6) spends 5 MF in and out of its deep trench in I6 (ASLGW 2.1.3); F1-1 (s1) walks west out
of formation to D5.  At the start of the French MPh of turn 2, the exchange of s1 and s2 is
legal: F1-1 in I6 is in formation with its leader and could have spent those 5 MF.  Judged
where it stands only (D5, out of formation: 4 MF) it was refused in the issue's words: "the
stack at I6 has already spent 5 MF, more than F1-1's 4 (O'Leary 2.4)"; with the history
dropped at every phase (as before), the check never saw it at all.
"""

from __future__ import annotations

from dataclasses import replace

from games.aslgw.builders import session, to_phase
from games.aslgw.playout import GAME, scenario_paths, source
from gwasl.engine.game import Viewer
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.actions import shifts as sh
from gwasl.games.aslgw.records import EndPhase, Move, Shift
from gwasl.rules.fog import shift as fog_shift

BOIS = source(next(p for p in scenario_paths() if "bois" in p.name))
FRENCH = Viewer("player", frozenset({"french"}))
EXCHANGE = Shift("dummy", "french", "s1", "s2")
ISSUE_WORDS = "the stack at I6 has already spent 5 MF, more than F1-1's 4 (O'Leary 2.4)"


def _played_to_turn_2():
    s = session(BOIS)
    to_phase(s, "MPh", "french")
    for pos in ("deep_trench", "deep_trench_crest", "deep_trench", "deep_trench_crest", "deep_trench"):
        s.act(Move(("F1-3",), "I6", pos))
    for to in ("F6", "E5", "D5"):
        s.act(Move(("F1-1",), to, "ground"))
    assert s.state.fog.spent["s2"] == 5.0 and s.state.fog.spent["s1"] == 5.0
    s.act(EndPhase())
    to_phase(s, "MPh", "french")
    assert s.state.turn == 2
    return s


def test_a_stacks_mf_history_lasts_the_game_o_leary_2_4():
    """O'Leary 2.4: "at a previous point in the game" -- the 5 MF of turn 1 are still the
    I6 stack's history at the start of turn 2 (they were dropped at every new phase)."""
    s = _played_to_turn_2()
    assert s.state.fog.spent["s2"] == 5.0 and s.state.fog.spent["F1-3"] == 5.0
    assert fog_shift.spent_mf(s.state.fog, ("F1-3", "s2")) == 5.0


def test_a_squad_takes_a_history_it_could_have_spent_in_formation_o_leary_2_4_aslgw_1_3():
    """The exchange the issue saw refused is offered and resolves: F1-1 is out of formation
    at D5 (4 MF there), but in I6 it would be in formation with F1-L (6 MF, ASLGW 1.3)."""
    s = _played_to_turn_2()
    sc = s.state.scenario
    assert sc.unit("F1-1").hex.label == "D5"
    assert mv.allowance(s.state, sc, sc.unit("F1-1"), ("F1-1",)) == 4.0  # where it stands
    assert EXCHANGE in sh.shift_options(s.state, "french")
    plan = sh.plan_for(s.state.fog, "dummy", "french", "s1", "s2", s.state.clock, s.state.ledger, sh.fog_env(s.state))
    assert plan.eligible and plan.reason is None
    before = len(s.state.ledger)
    s.act(EXCHANGE, "player")
    assert len(s.state.ledger) == before + 1 and s.state.ledger[-1].side == "french"


def test_judged_where_it_stands_only_the_shift_is_refused_in_the_issues_words_o_leary_2_4():
    """The refusal the issue reported, reproduced on the played position: with a taker's MF
    read where it stands alone (the environment's allowance, as the check read it), O'Leary
    2.4 refuses the exchange with these words and this rule."""
    s = _played_to_turn_2()
    st = s.state
    where_it_stands = replace(sh.fog_env(st), mf_allowance=lambda sc, u, group: mv.allowance(
        st, st.scenario, st.scenario.unit(u.id), group))
    plan = sh.plan_for(st.fog, "dummy", "french", "s1", "s2", st.clock, st.ledger, where_it_stands)
    assert not plan.eligible and plan.reason == ISSUE_WORDS
    assert "O'Leary 2.4" not in GAME.why_illegal(st, EXCHANGE, FRENCH)
