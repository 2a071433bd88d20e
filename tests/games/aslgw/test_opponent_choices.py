"""gwasl's opponent makes the choices it used to leave alone (issue 25, part C): routs as
choices (A10.5), withdrawal from Melee (A11.2), gas protection off (ASLGW 1.9.15-1.9.16),
the Bayonet Charge priced at its odds (ASLGW 1.5, A25.23)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.combat_support import emitter
from games.aslgw.playout import GAME
from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, GameOptions, Seat
from gwasl.engine.session import Session
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw import opponent as opp
from gwasl.games.aslgw.records import (
    BayonetCharge,
    CloseCombat,
    EndPhase,
    Pass,
    RemoveGasMask,
    Rout,
    Withdraw,
)
from gwasl.games.aslgw.state import GasCloud


def _decide(s: Session[Any], side: str) -> Decision:
    """The opponent's decision for ``side`` at ``s``'s state, from that side's seat."""
    return opp.opponent(Seat(GAME, s.state, GAME.viewer(s.state, side)), GameDice(1))


def _broken(s: Session[Any], uid: str) -> None:
    """Break ``uid`` through the game's own events (A10.3)."""
    em = emitter(s, [])
    fx.break_unit(em, uid, "test")
    for ev in em.events:
        s.state = GAME.reduce(s.state, ev)


# ---------------------------------------------------------------------------
# Routs (A10.5)


def test_a_broken_unit_safe_in_cover_with_its_leader_stays_instead_of_routing_a10_5() -> None:
    """A10.5: a broken unit with no Known Good Order enemy ADJACENT and not in Open Ground in
    an enemy's LOS need not rout; it may.  G is in woods at D4 with its leader L (who may
    rally it next RPh, A10.6), the French four hexes off: the opponent keeps it there and
    says why.  (It used to rout every broken unit it could.)"""
    s = session(doc([squad("G", "D4"), leader("L", "D4"), squad("F", "D8", "french")],
                    hexes={"D4": {"terrain": "woods"}, "A1": {"terrain": "woods"}, "B2": {"terrain": "woods"}}, title="rout stays"))
    to_phase(s, "RtPh", "german")
    _broken(s, "G")
    assert any(isinstance(a.action, Rout) and a.action.unit == "G" for a in s.legal())  # a rout is offered
    d = _decide(s, "german")
    assert isinstance(d.action, EndPhase), d.why
    assert "keeps its broken units" in d.why and "G at D4" in d.why and "A10.5" in d.why
    assert "a leader to rally it (A10.6)" in d.why


def test_a_broken_unit_in_the_open_under_known_enemy_fire_routs_of_its_own_will_into_cover_a10_5() -> None:
    """A10.5: G, broken in Open Ground at D4, five hexes from three French squads -- beyond
    their normal range, so it need not rout -- has no cover and no leader with it: the
    opponent routs it of its own will to the woods at D1, away from the enemy."""
    s = session(doc([squad("G", "D4"), leader("L", "A1"), squad("F1", "D9", "french"), squad("F2", "D9", "french"),
                     squad("F3", "D9", "french")], hexes={"D1": {"terrain": "woods"}}, title="rout goes"))
    to_phase(s, "RtPh", "german")
    _broken(s, "G")
    from gwasl.games.aslgw.actions import rout as rt

    assert not rt.must(s.state, s.state.scenario.unit("G"))
    d = _decide(s, "german")
    assert isinstance(d.action, Rout) and d.action.unit == "G" and d.action.to == "D1", d.why
    assert "of its own will (A10.5)" in d.why and "no cover" in d.why


def test_a_unit_that_must_rout_still_routs_as_far_as_it_may_into_cover_a10_5() -> None:
    """A10.5: with a Known Good Order enemy ADJACENT the broken unit must rout, and does, to
    the woods (the rules' test position: test_rally_rout, F next to G routs to D7)."""
    s = session(doc([squad("G", "D4"), leader("L", "D4"), squad("F", "D5", "french")],
                    hexes={"D7": {"terrain": "woods"}, "A1": {"terrain": "woods"}}, title="rout must"))
    to_phase(s, "RtPh", "german")
    _broken(s, "F")
    # the French rout in the German RtPh: the French side's decision
    d = _decide(s, "french")
    assert isinstance(d.action, Rout) and d.action.unit == "F" and d.action.to == "D7" and not d.action.low_crawl
    assert "ADJACENT" in d.why and "A10.5" in d.why


def test_the_side_not_phasing_is_offered_only_the_routs_it_must_make_a10_5() -> None:
    """A10.5 as docs/rules-notes.md reads it: the side not phasing has no voluntary rout.  In
    the German RtPh the French rout duty lists F1's routs (a German squad ADJACENT: it must)
    and none of F2's (safe in woods far off: it need not).  The duty used to list both."""
    d = doc([squad("G", "D4"), leader("L", "D4"), squad("F1", "D5", "french"), squad("F2", "I9", "french"),
             leader("FL", "A9", "french")],
            hexes={"D8": {"terrain": "woods"}, "I9": {"terrain": "woods"}, "H9": {"terrain": "woods"}})
    both = frozenset({"german", "french"})
    dice = GameDice(1)
    state = GAME.begun(GAME.setup(d, GameOptions(both, False, {"opponent": sorted(both)})), dice)
    s = Session.new(GAME, d, 1, GameOptions())  # only to break the units through the game's events
    for _ in range(100):
        st = GAME.status(state)
        if state.phase.value == "RtPh" and state.phasing == "german":
            break
        legal = GAME.legal_actions(state, GAME.viewer(state, st.side or "german"))
        act = next(a for a in legal if isinstance(a, (EndPhase, Pass)))
        for ev in GAME.apply(state, act, dice):
            state = GAME.reduce(state, ev)
        if state.phase.value == "AFPh" and not state.scenario.unit("F1").broken:
            s.state = state
            _broken(s, "F1")
            _broken(s, "F2")
            state = s.state
    assert state.phase.value == "RtPh"
    st = GAME.status(state)
    assert st.side == "french"
    legal = GAME.legal_actions(state, GAME.viewer(state, "french"))
    assert legal and {a.unit for a in legal if isinstance(a, Rout)} == {"F1"}


# ---------------------------------------------------------------------------
# Withdrawal from Melee (A11.2)


#: the German must exit 2 VP off the east edge; the French win by avoiding it (A26.23, A26.3)
_EXIT_CARD = {"turns": 3, "victory": {"german": {"conditions": [{"exit": {"at_least": 2, "edge": "east"}}], "text": "exit"},
                                      "french": {"avoid": True, "text": "avoid"}}}


def _melee(units: list[dict[str, Any]], title: str) -> Session[Any]:
    s = session(doc(units, date="1917-04-09", game=_EXIT_CARD, title=title))
    to_phase(s, "CCPh")
    s.state = replace(s.state, combat=replace(s.state.combat, melee=frozenset({("C3", "hex")})))
    return s


def test_a_lost_melee_is_left_by_withdrawal_with_its_odds_a11_2() -> None:
    """A11.2: Good Order units in a Melee may withdraw to an ADJACENT Location, attacked on the
    way at the withdrawal DRM.  One German squad against a French squad and its leader, the
    German to exit east: its own elimination is likelier than theirs (Seat.odds of the CC),
    the Melee keeps it from the edge, and the withdrawal's attack costs less than fighting
    on; the opponent withdraws, toward the edge, and says so with the odds.  (It used to
    fight every Melee out.)"""
    s = _melee([squad("G", "C3"), squad("F", "C3", "french"), leader("FL", "C3", "french")], "melee lost")
    seat = Seat(GAME, s.state, GAME.viewer(s.state, "german"))
    w = [a for a in seat.legal() if isinstance(a, Withdraw)]
    assert w and seat.odds(w[0]) and abs(sum(o.p for o in seat.odds(w[0])) - 1) < 1e-9  # the withdrawal's own odds
    d = _decide(s, "german")
    assert isinstance(d.action, Withdraw) and d.action.units == ("G",), d.why
    assert d.action.to in ("D3", "D4"), d.why  # the ADJACENT Locations nearer the east edge
    assert "lost on the odds" in d.why and "A11.2" in d.why and "eliminated 17%" in d.why


def test_a_melee_won_on_the_odds_is_fought_out_a11_2() -> None:
    """A11.2: two German squads against one French squad: the Melee is the German's on the
    odds, so it stays and resolves the close combat (A11)."""
    s = _melee([squad("G", "C3"), squad("G2", "C3"), squad("F", "C3", "french")], "melee won")
    d = _decide(s, "german")
    assert isinstance(d.action, CloseCombat), d.why


# ---------------------------------------------------------------------------
# Gas protection (ASLGW 1.9.15-1.9.16)


def _masked(sides: dict[str, Any] | None = None) -> Session[Any]:
    s = session(doc([squad("G", "B2"), leader("GL", "B2"), squad("F", "H8", "french")], date="1916-07-01",
                    sides=sides or {"german": {"nationality": "german"}, "french": {"nationality": "french"}},
                    title=f"gas {bool(sides)}"))
    to_phase(s, "MPh", "german")
    s.state = replace(s.state, combat=fx.with_mark(s.state.combat, "G", gas_worn=True))
    return s


def test_gas_protection_comes_off_where_no_gas_is_or_may_come_aslgw_1_9_16() -> None:
    """ASLGW 1.9.15: a squad wearing gas protection is CX while it is on; 1.9.16: it may be
    taken off at will for 1 MF in its MPh.  No cloud on the map, no release to come: the
    opponent takes it off.  (It used to keep it on, and its units CX, for good.)"""
    s = _masked()
    assert RemoveGasMask("G") in [a.action for a in s.legal()]
    d = _decide(s, "german")
    assert d.action == RemoveGasMask("G"), d.why
    assert "ASLGW 1.9.15-1.9.16" in d.why


def test_gas_protection_stays_on_near_a_cloud_or_a_release_still_to_come_aslgw_1_9_16() -> None:
    """ASLGW 1.9.2: units in a cloud without protection check again each RPh; 1.9.14: a release
    makes units near it take the NTC to put protection on.  With a cloud two hexes off, or
    the French release still to come next to it, G keeps its protection on."""
    s = _masked()
    c = s.state.combat
    s.state = replace(s.state, combat=replace(c, gas=(GasCloud("french", 0, ("chlorine",), ("B4",), None),),
                                              released=frozenset({("french", 0)})))
    assert not isinstance(_decide(s, "german").action, RemoveGasMask)
    sides = {"german": {"nationality": "german"},
             "french": {"nationality": "french", "gas": [{"agents": ["chlorine"], "hexes": ["C2", "C3"], "turn": 3}]}}
    s2 = _masked(sides)
    assert not isinstance(_decide(s2, "german").action, RemoveGasMask)


# ---------------------------------------------------------------------------
# The Bayonet Charge (ASLGW 1.5, A25.23)


def _charge(defenders: list[dict[str, Any]]) -> Session[Any]:
    units = [leader("FL", "D7", "french"), squad("F1", "D7", "french"), squad("F2", "E7", "french"), *defenders]
    s = session(doc(units, date="1914-09-06", game={"first_moves": "french", "turns": 1}, title=f"charge {len(units)}"))
    to_phase(s, "MPh", "french")
    return s


def test_no_bayonet_charge_into_a_position_it_would_lose_aslgw_1_5() -> None:
    """ASLGW 1.5 (A25.23): the Bayonet Charge moves fast but breaks easily.  Last turn, the
    French two hexes from three German squads and their leader in D5 (the objective of a
    card-less scenario: the enemy's set-up): the defenders' fire on the way and the close
    combat's odds make it a loss; the opponent does not charge.  (It used to charge whenever
    an enemy-held objective was two hexes off in the last turns.)"""
    s = _charge([squad("G1", "D5"), squad("G2", "D5"), squad("G3", "D5"), leader("GL", "D5")])
    assert any(isinstance(a.action, BayonetCharge) for a in s.legal())
    d = _decide(s, "french")
    assert not isinstance(d.action, BayonetCharge), d.why


def test_a_bayonet_charge_worth_its_odds_is_declared_with_its_figures_aslgw_1_5() -> None:
    """ASLGW 1.5 (A25.23): against a lone German half-squad holding the objective two hexes off
    in the last turn, the charge's price is clearly positive; it is declared toward D5 and
    the decision line gives its figures."""
    s = _charge([squad("G1", "D5", kind="half_squad")])
    d = _decide(s, "french")
    assert isinstance(d.action, BayonetCharge), d.why
    assert "D5" in d.why and "expected gain" in d.why and "ASLGW 1.5" in d.why
    assert d.details["charge"]["net"] >= 0.5


# ---------------------------------------------------------------------------
# Private reasons after a reveal (issue 25 item 4)


def test_a_private_reason_is_shown_to_the_enemy_once_its_units_are_revealed_a12_oleary_2_1() -> None:
    """Issue 25 item 4, A12 and O'Leary 2.1: why gwasl's side moved units the enemy could not
    see is its own business while they are hidden, and everyone's once they are revealed.
    The concealed German stack G+GL moves out of its woods (a private decision: the French
    player's log does not hold it), is revealed in the open in French LOS, and the French
    log then reads that first move's why.  (It stayed private for good.)  A HIP unit moves
    only by shifting (O'Leary 3.2.2), so the hidden mover here is a concealed stack."""
    d = doc([squad("G", "B2", hidden="concealed"), leader("GL", "B2", hidden="concealed"), squad("F", "H7", "french")],
            hexes={"B2": {"terrain": "woods"}}, game={"turns": 3}, title="reason shown")
    s = Session.new(GAME, d, 1, GameOptions(frozenset({"german"}), False, {"opponent": "german"}))
    private: str | None = None
    for _ in range(300):
        if any(e["kind"] == "reason_shown" for e in s.log()):
            break
        if private is None and s.state.private_reasons:
            private = s.state.private_reasons[0][2]
            assert s.state.private_reasons[0][1] == ("G", "GL")
            assert private not in " ".join(e["text"] for e in s.log())  # hidden: the French do not read it
            assert any(private in e["text"] for e in s.log("german") if e["kind"] == "decision")
        s.act(_decide(s, "french").action)
    assert private is not None
    assert all(s.state.fog.status_of(u).value == "none" for u in ("G", "GL"))  # revealed (A12.14)
    shown = [e for e in s.log() if e["kind"] == "reason_shown"]
    assert len(shown) == 1 and private in shown[0]["text"] and "revealed" in shown[0]["text"]
    assert not any(e["kind"] == "reason_shown" for e in s.log("german"))  # the side read it when it decided
    assert not s.state.private_reasons


def test_a_held_prep_fire_does_not_name_a_concealed_unit_in_the_public_end_of_the_phase() -> None:
    """A12, O'Leary 3.1: the end of the PFPh is public; when a Prep Fire is held because a
    concealed firer must move (A3.3), the line does not name that unit.  A unit in sight is named."""
    from types import SimpleNamespace

    from gwasl.games.aslgw import opponent as op
    from gwasl.games.aslgw.records import Fire
    from gwasl.model.phases import Phase

    shot = op._Shot(Fire(firers=("G-1",), at="F2", mode="prep"), 0.05, 0.4, 0.14,
                    ("G-1 must move toward F2, F3 (A3.3)",))
    hidden = SimpleNamespace(side="german", phase=Phase.PFPh, hidden=frozenset({"G-1"}))
    words = op._end_words(hidden, [shot.action], shot)  # type: ignore[arg-type]
    assert "G-1" not in words and "ends the PFPh" in words
    seen = SimpleNamespace(side="german", phase=Phase.PFPh, hidden=frozenset({"G-12"}))
    words = op._end_words(seen, [shot.action], shot)  # type: ignore[arg-type]
    assert "G-1 must move" in words
