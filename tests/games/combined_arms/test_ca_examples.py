"""The text's own worked examples, played through the game with their dice
(Sabin, Combined Arms: Figures 6 and 7, the sample game's odds and its score)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.combined_arms.ca_support import GAME, act, enemy_step, hx, lab, position, rolls, unit
from gwasl.engine.dice import GameDice
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.enemy import fire_decision
from gwasl.games.combined_arms.odds import attack_odds
from gwasl.games.combined_arms.records import Commit, EndPhase, Resolve, RollNext
from gwasl.games.combined_arms.state import UNIT_IDS, Counter

U = UNIT_IDS.index


def _odds(s, target, firers):
    """The odds of ``firers`` committed in turn against ``target`` and resolved (the game's own
    commits, then :func:`attack_odds`: every die of the resolver weighed)."""
    for u in firers:
        facings = R.fire_facings(s, u, target)
        facing = s.units[u].facing if s.units[u].facing in facings else facings[0]
        s = GAME.committed(s, Commit(UNIT_IDS[u], B.label(target), None if facing < 0 else facing))
    return attack_odds(GAME, s)


def _p(outcomes, *labels) -> Fraction:
    return Fraction(sum(o.p for o in outcomes if any(lb in o.result for lb in labels))).limit_denominator(1000)


# -- Figure 6 -------------------------------------------------------------------------------
T = hx(0, 0)  # the enemy on a crest
F1, F3, F2 = hx(0, -1), hx(1, -1), hx(1, -2)  # F1 exposed in the open, F3 in woods, F2 (with A2) behind them


def _figure_6():
    return position({T: "crest", F3: "woods"},
                    {"F1": (F1, True, -1), "F3": (F3, True, -1), "F2": (F2, True, -1), "A2": (F2, True, 4)},
                    [Counter(T, True, 2, False, True)], phase="fire", losses=5)


def test_figure_6_support_fire_modifiers_and_rolls():
    """Figure 6: F2 and A2 fire overhead at the enemy on a crest (F1 and F3 do not block);
    -2 range, -1 for the intervening woods (F3's hex, touched along a hexside), and -1 more
    for A2 not being of F company; rolls of 3 and 5 have no effect but add 1 to the ammo."""
    s = _figure_6()
    assert R.line_of_fire(s, F2, T, own=True) == R.PARTIAL
    f2 = {m.value for m in R.own_fire_mods(s, U("F2"), T)}
    a2 = sorted(m.value for m in R.own_fire_mods(s, U("A2"), T))
    assert sorted(m.value for m in R.own_fire_mods(s, U("F2"), T)) == [-2, -1] and f2 == {-2, -1}
    assert a2 == [-2, -1, -1]
    s, _ = act(s, Commit("F2", lab(0, 0)))
    s, _ = act(s, Commit("A2", lab(0, 0), 4))
    s, ev = act(s, Resolve(), [3, 5])
    assert rolls(ev) == [(3, 0), (5, 1)]
    assert s.counter_at(T).fresh and s.ammo == 1


def test_figure_6_enemy_fire_back():
    """Figure 6: the ATGs fire at A2: 4 modified to 1 (-2 range, -1 partly blocked: the line
    cuts both ways), a miss.  The platoon engages the whole company's 3-hex cluster: F2 on a
    5 modified to 3 (+1 open, -1 partly blocked, -2 range) is pinned and losses rise to 6; F1
    on a 2 (no net modifier) suffers 2 losses, which circle round to 0 and break it; F3 in
    woods on a 2 modified to 1 escapes."""
    s = _figure_6()
    s, _ = act(s, EndPhase())  # recovery, then the enemy phase
    assert s.phase == "enemy" and s.stage == "mortar"
    s, d, _ = enemy_step(s, [1])  # the enemy mortars roll 1: unavailable
    assert d.action.target is None
    s, d, _ = enemy_step(s)  # the real, fresh platoon is activated and will fire
    assert d.action.hexes == (lab(0, 0),) and s.stage == "fire"
    s, d, ev = enemy_step(s, [4])
    assert d.action.armour == "A2" and set(d.action.cluster) == {B.label(F1), B.label(F2), B.label(F3)}
    assert rolls(ev) == [(4, 1)] and unit(s, "A2").where == F2
    assert {r.hex for r in s.rolls} == {B.label(F1), B.label(F2), B.label(F3)} and s.losses == 5
    s, ev = act(s, RollNext(B.label(F2)), [5])
    assert rolls(ev) == [(5, 3)] and not unit(s, "F2").fresh and s.losses == 6
    s, ev = act(s, RollNext(B.label(F1)), [2, 2])  # F1, then F3 (the last one rolls by itself)
    assert rolls(ev) == [(2, 2), (2, 1)]
    assert unit(s, "F1").where == -4 and s.losses == 0  # broken: 6 -> 7 -> 0
    assert unit(s, "F3").fresh and unit(s, "F3").where == F3
    assert s.phase == "move" and s.turn == 6


# -- Figure 7 ---------------------------------------------------------------------------------
S7, W7, FARM, D3H, E1H, WC, A2H, SMOKE = (B.index_of(x) for x in ("6a", "4d", "3c", "5e", "5f", "4f", "4e", "4c"))


def _figure_7():
    return position({FARM: "farm", WC: "wooded_crest"},
                    {"D1": (W7, True, -1), "D2": (W7, True, -1), "D3": (D3H, True, -1), "E1": (E1H, True, -1),
                     "E2": (WC, True, -1), "M1": (WC, True, -1), "M2": (WC, True, -1), "A2": (A2H, True, 0)},
                    [Counter(FARM, False, 1, False, False), Counter(S7, False, 1, False, True)],
                    phase="enemy", stage="mortar", smoke=((SMOKE, 5),), losses=1)


def test_figure_7_enemy_mortars_target_e1():
    """Figure 7: on a 5 the enemy mortars fire; D1 and D2 are next to an enemy counter, so
    they target E1, next to 1 more infantry platoon (4) than D3 (3)."""
    s = _figure_7()
    assert sorted(R.enemy_mortar_targets(s)) == sorted([D3H, E1H])
    s, d, _ = enemy_step(s, [5])
    assert d.action.target == B.label(E1H)
    cands = {c["hex"]: (c["infantry"], c["infantry_adjacent"]) for c in d.details["candidates"]}
    assert cands == {B.label(D3H): (1, 3), B.label(E1H): (1, 4)}


def test_figure_7_reveals_payoffs_and_fire():
    """Figure 7: the spent farm counters must be revealed (adjacent): 3 + 1 = 4, both
    removed.  The side edge counters: payoffs 4 (D3), 4 (D1 and D2, partly shielded by the
    smoke) and 2 (E1), so 2 hexes reach the threshold of 6; 4 + 1 = 5, a real platoon; the
    ATGs' side shot on A2 at extreme range needs a 6, so they stay unrevealed.  It engages
    D company (payoff 8): the wheatfield is missed on a 2, D3 hit on a 5 modified to 2.  The
    mortars land on a 1 on E1, A2 and the wooded crest: E1 escapes on a 1, the crest's 3
    platoons are hit on a 4 and suffer 3 losses; A2 stays buttoned up."""
    s = _figure_7()
    s, _, _ = enemy_step(s, [5])
    s, d, ev = enemy_step(s, [3])  # the farm
    assert d.action.hexes == (B.label(FARM),) and d.action.platoon_test
    assert rolls(ev) == [(3, 4)] and s.counter_at(FARM) is None
    assert {R.payoff(s, S7, h)[0] for h in (D3H,)} == {4} and R.payoff(s, S7, W7)[0] == 4 and R.payoff(s, S7, E1H)[0] == 2
    assert R.line_of_fire(s, S7, W7) == R.PARTIAL  # the smoke
    payoffs = {frozenset(cl): p for cl, p in R.clusters(s, S7)}
    assert payoffs[frozenset({D3H, E1H})] == 6 and payoffs[frozenset({D3H, W7})] == 8 and max(payoffs.values()) == 8
    s, d, ev = enemy_step(s, [4])  # the side edge counter opens fire
    plan = d.details["counters"][-1]
    assert plan["best_payoff"] == 8 and plan["atg_best_chances"] == 1
    assert d.action.platoon_test and not d.action.atg_test
    assert rolls(ev) == [(4, 5)] and s.counter_at(S7).real and s.counter_at(S7).atg == 1
    # no pass of the loss track from 7 to 0 is possible (1 + 2 + 1, then 2 + 1 + 3), so the order of the
    # rolls cannot matter and nobody is asked: they run in the order given, then the mortars fall
    cluster = fire_decision(s, GameDice(0)).action.cluster
    assert set(cluster) == {B.label(D3H), B.label(W7)}
    faces = {B.label(W7): 2, B.label(D3H): 5}  # the wheatfield missed on a 2, D3 hit on a 5
    mortar = {B.label(WC): 4, B.label(E1H): 1}  # on a 1 the mortars land on E1, A2 and the wooded crest
    s, d, ev = enemy_step(s, [faces[h] for h in cluster] + [1] + [mortar[h] for h in sorted(mortar, key=B.index_of)])
    assert d.action.armour is None and d.action.cluster == cluster
    by_hex = {e.cause.split(" in ")[-1].split(":")[0]: (e.dice[0], e.final) for e in ev if e.kind == "roll" and "infantry in" in e.cause}
    assert by_hex == {B.label(W7): (2, -2), B.label(D3H): (5, 2)}
    assert not unit(s, "D3").fresh and unit(s, "D1").fresh
    landed = {e.cause.split(" land in ")[1].split(":")[0]: (e.dice[0], e.final) for e in ev if e.kind == "roll" and " land in " in e.cause}
    assert landed == {B.label(E1H): (1, 1), B.label(WC): (4, 4)}  # A2's hex holds only armour: no roll
    assert unit(s, "E1").fresh and not any(unit(s, u).fresh for u in ("E2", "M1", "M2")) and s.losses == 5
    assert s.turn == 6 and s.enemy_target == E1H
    assert not [m for m in R.own_fire_mods(s, U("A2"), S7) if m.value == 1 and "armour" in m.cause]


# -- the sample game --------------------------------------------------------------------------
WOOD = hx(0, 0)


def test_sample_turn_4_covering_fire_94_67_78_percent():
    """Sample game, turn 4: M2 and A3 keep the unrevealed wood pinned with 94%; once your
    infantry are adjacent it falls to 67% (no +1 for an unrevealed target, -1 for a rifle
    platoon of another company adjacent at 2+ hexes); E3, of the adjacent platoons' company,
    adds its fire to bring it back to 78%."""
    enemy = [Counter(WOOD, False, 0, False, True)]
    units = {"M2": (hx(0, -2), True, -1), "A3": (hx(2, -2), True, 5)}
    s = position({WOOD: "woods"}, units, enemy, phase="fire")
    assert _p(_odds(s, WOOD, [U("M2"), U("A3")]), "pinned") == Fraction(17, 18)
    s = position({WOOD: "woods"}, {**units, "E1": (hx(-1, 1), True, -1), "E2": (hx(-1, 1), True, -1),
                                   "E3": (hx(-3, 0), True, -1)}, enemy, phase="fire")
    assert _p(_odds(s, WOOD, [U("M2"), U("A3")]), "pinned") == Fraction(2, 3)
    assert _p(_odds(s, WOOD, [U("M2"), U("A3"), U("E3")]), "pinned") == Fraction(7, 9)


@pytest.mark.parametrize(("faces", "atg"), [((5, 3), 2), ((5, 2), 0)])
def test_sample_turn_4_adjacent_platoons_reveal_the_pinned_wood_and_its_atgs(faces, atg):
    """CA Enemy Decisions ("Potential enemies are revealed when activated if adjacent to your
    platoons ... If both need to be revealed, test for the platoon first") and the sample game's
    turn 4: the wood, pinned by the covering fire, with E1, E2 and A1 adjacent, "turns out to
    hold a full enemy platoon complete with ATGs".  The spent counter is activated: its platoon
    rolls 5 + 1 (ATG counter) = 6, real; then its ATGs, spent as they are, roll 3 + 2 (platoon
    revealed) = 5, real (or 2 + 2 = 4: the ATG counter is removed); it then only recovers."""
    units = {"E1": (hx(-1, 1), True, -1), "E2": (hx(-1, 1), True, -1), "A1": (hx(1, -1), True, 4)}
    s = position({WOOD: "woods"}, units, [Counter(WOOD, False, 1, False, False)], phase="enemy", stage="activate")
    assert sorted((a.platoon_test, a.atg_test) for a in GAME.legal_actions(s, GAME.viewer(s, "defender"))) == [(True, True)]
    s, d, ev = enemy_step(s, faces)
    assert d.action.hexes == (B.label(WOOD),) and d.action.platoon_test and d.action.atg_test
    assert "platoon, then its ATGs" in d.details["counters"][0]["why"]
    assert rolls(ev) == [(faces[0], 6), (faces[1], faces[1] + 2)]
    c = s.counter_at(WOOD)
    assert c.real and c.atg == atg and c.atg_removed == (atg == 0) and c.fresh  # recovered, did not fire
    assert (s.real_platoons_revealed, s.real_atgs_revealed) == (1, 1 if atg else 0)


def test_adjacent_potential_atgs_of_a_real_platoon_are_revealed_when_it_is_activated():
    """CA Enemy Decisions: a real platoon whose ATGs are still potential, spent, with your
    platoon adjacent: the ATGs are tested when it is activated (3 + 2 = 5: real)."""
    s = position({WOOD: "woods"}, {"D1": (hx(0, -1), True, -1)}, [Counter(WOOD, True, 1, False, False)],
                 phase="enemy", stage="activate", real_platoons_revealed=1)
    s, d, ev = enemy_step(s, [3])
    assert not d.action.platoon_test and d.action.atg_test and rolls(ev) == [(3, 5)]
    assert s.counter_at(WOOD).atg == 2


def test_sample_turn_5_doubling_the_assault_33_to_56_percent():
    """Sample game, turn 5: breaking the revealed platoon (with its ATGs) in the wood with
    one adjacent rifle platoon is 33%; with two, independent rolls give 1 - (2/3)^2 = 56%."""
    s = position({WOOD: "woods"}, {"E1": (hx(0, -1), True, -1), "E2": (hx(1, -1), True, -1)},
                 [Counter(WOOD, True, 2, False, False)], phase="fire")
    assert _p(_odds(s, WOOD, [U("E1")]), "platoon broken") == Fraction(1, 3)
    assert _p(_odds(s, WOOD, [U("E1"), U("E2")]), "platoon broken") == Fraction(5, 9)
    s, _ = act(s, Commit("E1", B.label(WOOD)))
    s, _ = act(s, Commit("E2", B.label(WOOD)))
    s, ev = act(s, Resolve(), [2, 6])
    assert rolls(ev) == [(2, 1), (6, 5)]
    assert s.counter_at(WOOD) is None and (s.enemy_platoons_broken, s.enemy_atgs_broken) == (1, 1)


@pytest.mark.parametrize(("easier", "total"), [(False, 18), (True, 20)])
def test_sample_final_score_18_or_20_in_the_easier_game(easier, total):
    """Sample game, turn 20: the last revealing shows one more enemy platoon without ATGs;
    4 for the 2 enemy platoons in play, 14 for the 4 broken enemy counters (3 platoons and
    1 ATG), 6 for 3 exploiting platoons, -4 for 2 of yours broken: 20 in the easier game,
    18 in the standard one (-1 for each of turns 19 and 20) (CA Victory)."""
    known, phantom, hidden = hx(3, 0), hx(2, 1), hx(-3, 3)  # in activation order
    where = {"F3": (-3, True, -1), "A3": (-3, True, -1), "E2": (-3, True, -1), "F2": (-4, True, -1),
             "D1": (-2, True, -1), "E3": (-2, True, -1), "M1": (hx(0, -4), True, -1), "A1": (-4, True, -1)}
    s = position({known: "woods", phantom: "crest", hidden: "woods"}, where,
                 [Counter(known, True, 0, False, True), Counter(phantom, False, 0, False, True), Counter(hidden, False, 0, False, True)],
                 phase="enemy", stage="activate", turn=20, easier=easier,
                 enemy_platoons_broken=3, enemy_atgs_broken=1, real_platoons_revealed=4, real_atgs_revealed=1)
    s = s._replace(cursor=known)
    s, _, ev = enemy_step(s, [1, 6])  # the last activations, then the final reveals: a phantom, a real platoon
    assert s.phase == "over" and rolls(ev) == [(1, 0), (6, 5)]  # -1: 3 real platoons already revealed
    res = s.result
    assert res["score"] == total and res["breakdown"]["enemy_platoons_in_play"] == 4
    assert res["breakdown"]["enemy_platoons_broken"] + res["breakdown"]["atgs_broken"] == 14
    assert res["breakdown"]["exploiting"] == 6 and res["breakdown"]["your_platoons_broken"] == -4
    assert res["winner"] == ("attacker" if total >= 20 else "defender")
