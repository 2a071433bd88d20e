"""The opponent fires and moves as a player turn (issue 25, part D): the threat to a hex
by LOS and range, the objective it concentrates on, Prep Fire only by the units that
stay, and multi-Location fire groups formed one firer at a time."""

from __future__ import annotations

import copy
from typing import Any

from games.aslgw.playout import GAME, source
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Outcome, Seat
from gwasl.games.aslgw import opponent as opp
from gwasl.games.aslgw import opponent_tactics as tx
from gwasl.games.aslgw.records import EndPhase, Fire, FireGroupAdd
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import Position
from testsupport import SCENARIOS

ROSSIGNOL = SCENARIOS / "rossignol-1914.json"
H = Hex.from_label


def _doc(french: dict[str, str], german: dict[str, str]) -> dict[str, Any]:
    """Rossignol with its units placed anew, all in sight (no "?", no HIP, no dummies)."""
    doc = copy.deepcopy(source(ROSSIGNOL))
    doc["dummies"] = []
    units = []
    for u in doc["units"]:
        where = (french if u["side"] == "french" else german).get(u["id"])
        if where is None:
            continue
        u = {k: v for k, v in u.items() if k not in ("hidden", "in")}
        u["hex"] = where
        units.append(u)
    doc["units"] = units
    return doc


def _begun(doc: dict[str, Any], phase: Phase, side: str = "french") -> Any:
    """The game at ``side``'s ``phase`` of turn 1, both sides gwasl's (each at its own seat),
    every phase before it ended."""
    options = GameOptions(frozenset({"french", "german"}), False, {"opponent": ["french", "german"]})
    dice = GameDice(3)
    state = GAME.begun(GAME.setup(doc, options), dice)
    for _ in range(200):
        st = GAME.status(state)
        if state.phase is phase and st.side == side:
            return state, dice
        seat = Seat(GAME, state, GAME.viewer(state, st.side))
        for ev in GAME.apply(state, opp.passive(seat, dice).action, dice):
            state = GAME.reduce(state, ev)
    raise AssertionError(f"never reached {side}'s {phase.value}")


def _look_at(state: Any, side: str) -> Any:
    return opp._look(Seat(GAME, state, GAME.viewer(state, side)))


def test_threat_counts_only_the_enemy_fire_that_sees_the_hex_a6() -> None:
    """CONTRACTS 3 / A6: a squad in G2 sees F1 but not E2 (the stone farm F2-F3 blocks the
    line), both two hexes away: only F1 is under its fire.  The old guess (FP by distance,
    no LOS) rated both the same."""
    state, _ = _begun(_doc({"F-1": "A2"}, {"G-3": "G2"}), Phase.RPh)
    look = _look_at(state, "french")
    assert look.threat(H("E2")) == 0.0
    assert look.threat(H("F1")) > 0.0


def test_threat_halves_beyond_normal_range_and_doubles_point_blank_a7_21_a7_22() -> None:
    """A7.22: beyond its normal range (4 for a squad) up to twice it, a unit fires with half
    its FP; A7.21: ADJACENT, double.  A squad in A6: G6 (6 hexes) and I6 (8) are equally
    threatened (half FP each), B6 (adjacent) four times as much.  The old guess counted
    nothing beyond 6 hexes."""
    state, _ = _begun(_doc({"F-1": "A6"}, {"G-3": "G2"}), Phase.RPh, "german")
    look = _look_at(state, "german")
    far, farther, next_to = look.threat(H("G6")), look.threat(H("I6")), look.threat(H("B6"))
    assert far == farther > 0.0
    assert next_to == 4 * far


def test_a_pile_threatens_by_its_counter_count_never_its_contents_a12_1() -> None:
    """A12.1: what is under a "?" is unknown; its counters are what the enemy sees.  Two
    counters below a "?" threaten twice what one does (the old guess: the same for any pile)."""
    sc = _begun(_doc({"F-1": "A2"}, {"G-3": "G2"}), Phase.RPh)[0].scenario
    one = tx.shooters(sc, [], [(H("A1"), Position.GROUND, 2)])
    two = tx.shooters(sc, [], [(H("A1"), Position.GROUND, 3)])
    assert tx.threat(sc, H("A4"), two) == 2 * tx.threat(sc, H("A4"), one) > 0


def test_the_attacker_concentrates_on_the_objective_the_card_needs_a26_1() -> None:
    """A26.1: a card that needs one of two objectives: the attacker goes for the nearer one,
    all its units together, rather than each for its own nearest (the old goals: both)."""
    state, _ = _begun(_doc({"F-1": "A2", "F-2": "A3"}, {"G-3": "J6"}), Phase.RPh)
    look = _look_at(state, "french")
    look.plan = opp.Plan("french", True, frozenset({H("C2"), H("J1")}), 1, frozenset(), 1, "test: one of two")
    look.memo.clear()
    assert look.goals() == frozenset({H("C2")})


class _Odds:
    def __init__(self, outcomes: list[Outcome]) -> None:
        self.outcomes = outcomes

    def odds(self, action: Any) -> list[Outcome]:
        return self.outcomes


def test_prep_fire_only_by_the_units_that_stay_a3_3() -> None:
    """A3.2-A3.3: a unit that Prep Fires may not move in the MPh.  F-3 in D3, two hexes from
    the farm, must move: its shot is held, however good; F-1 in E2, ADJACENT to the German
    in F3, stays (it will advance into the farm after the fire, A4.7) and fires.  The old
    rule charged both the same small price, so F-3 fired and gave up its move."""
    state, _ = _begun(_doc({"F-1": "E2", "F-3": "D3"}, {"G-3": "F3"}), Phase.PFPh)
    look = _look_at(state, "french")
    odds = _Odds([Outcome("units: 1KIA", 0.5), Outcome("no effect", 0.5)])
    mover = Fire(("F-3",), "F3", "ground", "prep")
    stayer = Fire(("F-1",), "F3", "ground", "prep")
    best, _, refused = opp._choose_fire(odds, look, [mover])  # type: ignore[arg-type]
    assert best is None and refused is not None and "F-3 must move" in opp._hold_words(look, refused)
    best, _, _ = opp._choose_fire(odds, look, [stayer])  # type: ignore[arg-type]
    assert best is not None and best.action == stayer


def test_a_multi_location_fire_group_of_the_units_that_stay_a7_5() -> None:
    """A7.5: units in ADJACENT Locations may fire as one group, their FP on one IFT column.
    F-1 (E2) and F-2 (E3), both ADJACENT to the German in the stone farm F3 (TEM +3),
    stay; F-3 (D3) must move.  The legal list offers the whole chain (with F-3) and each
    Location alone; the group F-1+F-2 only one firer at a time (FireGroupAdd).  The
    opponent forms it, says why, and fires it without F-3 (the old opponent never formed
    one: it fired F-1 or F-2 alone, or held)."""
    state, dice = _begun(_doc({"F-1": "E2", "F-2": "E3", "F-3": "D3"}, {"G-3": "F3"}), Phase.PFPh)
    seen: list[str] = []
    fired = None
    for _ in range(6):
        d = opp.opponent(Seat(GAME, state, GAME.viewer(state, "french")), dice)
        seen.append(d.why)
        if isinstance(d.action, (Fire, EndPhase)):
            fired = d.action
            break
        assert isinstance(d.action, FireGroupAdd), d
        for ev in GAME.apply(state, d.action, dice):
            state = GAME.reduce(state, ev)
    assert "forms a fire group" in seen[0] and "beats the separate shots" in seen[0], seen
    assert isinstance(fired, Fire) and set(fired.firers) >= {"F-1", "F-2"} and "F-3" not in fired.firers, (fired, seen)


def test_a_move_ends_where_it_can_fire_at_the_objective_a7_25() -> None:
    """The plan of a player turn: a move that ends with a clear LOS within normal range to the
    enemy-held farm (F2) scores :data:`FIRE_POSITION` more than the same move would without
    it (Advancing Fire, A7.25, then next turn's Prep Fire).  From C1, D1 sees F2 (the rules'
    LOS); C1's own hex is no goal, so the move is worth making for both reasons."""
    state, _ = _begun(_doc({"F-1": "C1"}, {"G-3": "F2"}), Phase.MPh)
    look = _look_at(state, "french")
    us = [u for u in look.mine if u.id == "F-1"]
    assert H("D1") in look.fire_positions() and tx.los_clear(look.sc, H("D1"), H("F2")) is not None
    aimed = opp._move_score(look, us, H("C1"), H("D1"), "normal")
    look.memo["fire_positions"] = frozenset()
    blind = opp._move_score(look, us, H("C1"), H("D1"), "normal")
    assert aimed == blind + opp.FIRE_POSITION


def test_once_the_objective_is_held_the_other_takers_go_for_the_exit_a26_23() -> None:
    """A26.1 with A26.23 (Saint-Quentin: exit 4 VP and Control the post): two squads go for
    the objective, the rest for the edge.  Once F-1 holds it, F-2 (the other taker) goes
    for the exit edge -- the old goals left it nowhere to go, so it stood idle while the
    exit VP were short -- and F-1, the last holder, stays (A26.1)."""
    state, _ = _begun(_doc({"F-1": "C2", "F-2": "B2", "F-3": "A3"}, {"G-3": "J6"}), Phase.MPh)
    look = _look_at(state, "french")
    edge = frozenset(H(f"J{r}") for r in range(1, 7))
    look.plan = opp.Plan("french", True, frozenset({H("C2")}), 1, edge, 4, "test: exit and Control")
    look.memo.clear()
    f1, f2 = (next(u for u in look.mine if u.id == i) for i in ("F-1", "F-2"))
    assert look.goals_for([f2]) == edge
    assert opp._leaves_objective(look, [f1], f1.hex) and opp._stays(look, f1)
