"""Combined Arms rules one by one: movement, your fire, enemy fire, revealing,
mortars and smoke, the bombardment, losses, ending and scoring (Sabin, Combined
Arms; readings in docs/rules-notes.md, "Combined Arms")."""

from __future__ import annotations

import pytest

from games.combined_arms.ca_support import GAME, act, enemy_step, hx, position, rolls, unit
from gwasl.engine.game import IllegalAction
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.records import (
    BreakUnit,
    CallMortar,
    Commit,
    EndGame,
    EndPhase,
    Exploit,
    Face,
    Move,
    Pivot,
    Resolve,
    RollNext,
    Withdraw,
)
from gwasl.games.combined_arms.state import UNIT_IDS, Counter

U = UNIT_IDS.index
L = B.index_of


def _legal(s):
    return GAME.legal_actions(s, GAME.viewer(s, "attacker"))


# -- movement -----------------------------------------------------------------------------------
def test_platoons_enter_on_the_7_rear_edge_hexes_only():
    """CA Movement: platoons begin off the board and may move into one of your 7 rear edge hexes."""
    s = position()
    entries = {a.to for a in _legal(s) if isinstance(a, Move) and a.unit == "D1"}
    assert entries == {B.label(h) for h in B.bits(B.REAR_HEXES)}
    with pytest.raises(IllegalAction, match="rear edge"):
        act(s, Move("D1", "2c"))


def test_rifle_platoons_of_different_companies_do_not_stack():
    """CA Movement, Figure 3: rifle platoons may not enter a hex with a rifle platoon of another
    company; MMGs and armour stack freely with them."""
    s = position(units={"D1": (L("1c"), True, -1)})
    with pytest.raises(IllegalAction, match="another company"):
        act(s, Move("E1", "1c"))
    s2, _ = act(s, Move("D2", "1c"))
    s2, _ = act(s2, Move("M1", "1c"))
    s2, _ = act(s2, Move("A1", "1c", 4))
    assert {unit(s2, u).where for u in ("D1", "D2", "M1", "A1")} == {L("1c")}


def test_armour_keeps_out_of_poor_going_woods_and_other_armour():
    """CA Movement: armour may not enter poor going, woods (a wooded crest holds woods) or another armour platoon."""
    s = position({L("2b"): "poor_going", L("2c"): "woods", L("2d"): "wooded_crest"},
                 {"A1": (L("1c"), True, 4), "A2": (L("2e"), True, 4)})
    dests = {a.to for a in _legal(s) if isinstance(a, Move) and a.unit == "A1"}
    assert not dests & {"2b", "2c", "2d"} and "1b" in dests
    s2 = position(units={"A1": (L("1d"), True, 4), "A2": (L("2e"), True, 4)})
    with pytest.raises(IllegalAction, match="other armour"):
        act(s2, Move("A1", "2e", 4))


def test_side_edge_hexes_of_the_middle_rows_are_forbidden():
    """CA Movement: no platoon may enter a side edge hex of the 5 middle hexrows."""
    s = position(units={"D1": (L("2a"), True, -1)})
    dests = {a.to for a in _legal(s) if isinstance(a, Move) and a.unit == "D1"}
    assert "3a" not in dests and "3b" in dests
    with pytest.raises(IllegalAction, match="side edge"):
        act(s, Move("D1", "3a"))


def test_mmgs_never_move_once_entered_except_to_withdraw():
    """CA Movement, Figure 3: MMGs may never move once entered, except to withdraw."""
    s = position(units={"M1": (L("1c"), True, -1)})
    acts = [a for a in _legal(s) if getattr(a, "unit", None) == "M1"]
    assert acts == [Withdraw("M1")]
    s2, _ = act(s, Withdraw("M1"))
    assert unit(s2, "M1").where == -2


def test_spent_platoons_never_move():
    s = position(units={"D1": (L("1c"), False, -1)})
    assert not [a for a in _legal(s) if getattr(a, "unit", None) == "D1"]
    with pytest.raises(IllegalAction, match="spent"):
        act(s, Move("D1", "2c"))


def test_armour_turns_then_moves_into_its_arc_or_reverses_keeping_facing():
    """CA Movement: armour may change facing and move 1 hex into its forward arc; without
    changing facing it may reverse 1 hex in the opposite direction."""
    c = B.CENTRE
    s = position(units={"A1": (c, True, 4)})  # facing the bottom corner
    moves = {(a.to, a.facing) for a in _legal(s) if isinstance(a, Move)}
    for d in range(6):  # any neighbour, ending with one of the 2 facings beside the move
        t = B.label(B.NEIGHBOURS[c][d])
        assert (t, (d - 1) % 6) in moves and (t, d) in moves
    up_left, up_right = B.label(B.NEIGHBOURS[c][2]), B.label(B.NEIGHBOURS[c][1])
    assert (up_left, 4) in moves and (up_right, 4) in moves  # the reverse keeps facing the bottom
    s2, ev = act(s, Move("A1", up_left, 4))
    assert ev[0].how == "reverse" and unit(s2, "A1").facing == 4


def test_armour_road_move_2_hexes_also_when_entering():
    """CA Movement: without changing facing armour may move 2 hexes forward when both
    hexsides hold the road, including when entering the board."""
    s = position()
    road_entries = {(a.to, a.facing) for a in _legal(s) if isinstance(a, Move) and a.unit == "A1" and a.to == "2e"}
    assert road_entries == {("2e", 4), ("2e", 5)}
    s2, ev = act(s, Move("A1", "2e", 4))
    assert ev[0].how == "road" and unit(s2, "A1").where == L("2e")
    s3 = position(units={"A1": (L("2e"), True, 4)})
    assert ("4e", 4) in {(a.to, a.facing) for a in _legal(s3) if isinstance(a, Move)}
    blocked = position(units={"A1": (L("2e"), True, 4), "A2": (L("3e"), True, 4)})
    assert "4e" not in {a.to for a in _legal(blocked) if isinstance(a, Move) and a.unit == "A1"}


def test_changing_facing_alone_spends_armour_in_the_move_phase_not_in_the_fire_phase():
    """CA Movement and Fire Attacks (rules-notes): a pivot in the move phase spends the
    platoon; fresh armour may change facing in the fire phase and stays fresh."""
    s = position(units={"A1": (B.CENTRE, True, 4)})
    s2, _ = act(s, Pivot("A1", 1))
    assert unit(s2, "A1").facing == 1 and not unit(s2, "A1").fresh
    s3 = position(units={"A1": (B.CENTRE, True, 4)}, phase="fire")
    s3, _ = act(s3, Face("A1", 1))
    assert unit(s3, "A1").fresh and unit(s3, "A1").facing == 1
    with pytest.raises(IllegalAction, match="already changed facing"):
        act(s3, Face("A1", 2))


def test_exploit_from_the_3_central_enemy_rear_hexes_withdraw_from_your_rear_edge():
    """CA Movement: platoons exploit by advancing from one of the 3 central hexes of the enemy
    rear edge and withdraw by moving back from one of yours; they never return."""
    s = position(units={"D1": (L("9c"), True, -1), "D2": (L("9b"), True, -1), "A1": (L("8d"), True, 4)})
    assert Exploit("D1") in _legal(s) and Exploit("D2") not in _legal(s)
    assert Exploit("A1") in _legal(s)  # a 2-hex road move off the board
    s2, _ = act(s, Exploit("D1"))
    assert unit(s2, "D1").where == -3
    with pytest.raises(IllegalAction, match="withdraw only"):
        act(s, Withdraw("D2"))


# -- your fire ------------------------------------------------------------------------------------
def test_fire_range_and_blocked_lines():
    """CA Fire Attacks: no fire at 6 or more hexes, nor through an intervening wood, crest or farm."""
    t = hx(0, 2)
    s = position({t: "woods", hx(0, 1): "crest"}, {"D1": (hx(0, -1), True, -1), "D2": (hx(0, -4), True, -1)},
                 [Counter(t)], phase="fire")
    assert R.fire_targets(s, U("D1")) == [] and R.fire_targets(s, U("D2")) == []
    with pytest.raises(IllegalAction, match="blocked"):
        act(s, Commit("D1", B.label(t)))


def test_rifle_platoons_block_your_fire_unless_a_crest_armour_never_does():
    """CA Fire Attacks: an intervening rifle platoon blocks your own fire unless the firer or
    target is in a crest hex; armour does not block (sample game, turn 3)."""
    t = hx(0, 2)
    base = {"D1": (hx(0, -1), True, -1)}
    s = position({t: "woods"}, {**base, "E1": (hx(0, 0), True, -1)}, [Counter(t)], phase="fire")
    assert R.fire_targets(s, U("D1")) == []
    s = position({t: "crest"}, {**base, "E1": (hx(0, 0), True, -1)}, [Counter(t)], phase="fire")
    assert R.fire_targets(s, U("D1")) == [t]
    s = position({t: "woods"}, {**base, "A1": (hx(0, 0), True, 4)}, [Counter(t)], phase="fire")
    assert R.fire_targets(s, U("D1")) == [t]
    # the enemy's fire ignores your platoons
    s = position({t: "woods"}, {**base, "E1": (hx(0, 0), True, -1)}, [Counter(t)], phase="fire")
    assert R.enemy_infantry_attack(s, t, hx(0, -1)) is not None


def test_one_attack_per_hex_and_one_company_per_hex():
    """CA Fire Attacks: platoons firing on one hex are committed together, then resolved; rifle
    platoons of different companies may not engage the same hex."""
    t = hx(0, 2)
    s = position({t: "woods"}, {"D1": (hx(0, 0), True, -1), "E1": (hx(1, 0), True, -1), "D2": (hx(-1, 0), True, -1)},
                 [Counter(t)], phase="fire")
    s, _ = act(s, Commit("D1", B.label(t)))
    assert not [a for a in _legal(s) if isinstance(a, Commit) and a.unit == "E1"]
    with pytest.raises(IllegalAction, match="different companies"):
        act(s, Commit("E1", B.label(t)))
    s, _ = act(s, Resolve(), [1])
    assert not [a for a in _legal(s) if isinstance(a, Commit) and a.unit == "D2"]  # attacked once this phase


def test_armour_fires_only_into_its_forward_arc():
    """CA Fire Attacks: fresh armour may change to any facing in the fire phase but engages only
    targets in its forward arc: the commit names a facing that covers the target."""
    t = hx(2, 0)
    s = position({t: "woods"}, {"A1": (B.CENTRE, True, 3)}, [Counter(t)], phase="fire")
    facings = {a.facing for a in _legal(s) if isinstance(a, Commit) and a.unit == "A1"}
    assert facings == {5, 0}  # the target is on the boundary row of both wedges
    with pytest.raises(IllegalAction, match="forward arc"):
        act(s, Commit("A1", B.label(t), 3))
    s2, _ = act(s, Commit("A1", B.label(t), 0))
    assert unit(s2, "A1").facing == 0


def test_modifiers_mmg_range_and_armour_hatches():
    """CA Fire Attacks: -1 per hex of range, or per full 2 hexes for MMGs; +1 for armour not
    within 2 hexes of an enemy counter, including an enemy mortar target counter."""
    t = hx(0, 3)
    s = position({t: "woods"}, {"M1": (hx(0, -2), True, -1), "A1": (hx(0, -1), True, 5)}, [Counter(t)], phase="fire")
    m1 = [m.value for m in R.own_fire_mods(s, U("M1"), t) if "range" in m.cause]
    assert m1 == [-2]  # range 5: 2 full pairs
    a1 = [m.value for m in R.own_fire_mods(s, U("A1"), t)]
    assert 1 in a1 and -4 in a1
    s2 = s._replace(enemy_target=hx(0, 0))
    assert [m.value for m in R.own_fire_mods(s2, U("A1"), t) if "armour" in m.cause] == []


def test_ammo_passing_from_7_to_0_withdraws_the_rifle_firer_mmgs_use_none():
    """CA Fire Attacks: each rifle (not MMG) platoon's roll advances the infantry ammo fired
    counter; when it passes from 7 to 0 the firer withdraws after its attack."""
    t = hx(0, 2)
    s = position({t: "woods"}, {"D1": (hx(0, 0), True, -1), "M1": (hx(1, 0), True, -1)}, [Counter(t)], phase="fire", ammo=7)
    s, _ = act(s, Commit("D1", B.label(t)))
    s, _ = act(s, Commit("M1", B.label(t)))
    s, _ev = act(s, Resolve(), [6, 1])
    assert s.ammo == 0 and unit(s, "D1").where == -2 and unit(s, "M1").where == hx(1, 0)
    assert not s.counter_at(t).fresh  # D1's attack was resolved before it withdrew


def test_breaking_an_unrevealed_counter_reveals_it_first():
    """CA Fire Attacks and Enemy Decisions (rules-notes): a 4+ from adjacent infantry against a
    potential counter rolls its reveal first; an unreal one is removed and scores nothing."""
    t = hx(0, 1)
    s = position({t: "woods"}, {"D1": (hx(0, 0), True, -1)}, [Counter(t, False, 1)], phase="fire")
    s1, ev = act(s, Commit("D1", B.label(t)))
    s1, ev = act(s1, Resolve(), [6, 3])  # 6-1 = 5: break; reveal 3+1 = 4: unreal
    assert rolls(ev) == [(6, 5), (3, 4)] and s1.counter_at(t) is None
    assert (s1.enemy_platoons_broken, s1.enemy_atgs_broken) == (0, 0)
    s2, _ = act(s, Commit("D1", B.label(t)))
    s2, ev = act(s2, Resolve(), [6, 4, 2])  # reveal 4+1 = 5: real; ATG reveal 2+2 = 4: removed; platoon broken
    assert rolls(ev) == [(6, 5), (4, 5), (2, 4)]
    assert s2.counter_at(t) is None and (s2.enemy_platoons_broken, s2.enemy_atgs_broken) == (1, 0)


def test_armour_breaks_only_atgs():
    """CA Fire Attacks: with every firer adjacent a 4+ breaks the ATGs, and the platoon only
    when the firers are infantry."""
    t = hx(0, 1)
    s = position({t: "woods"}, {"A1": (hx(0, 0), True, 4)}, [Counter(t, True, 2)], phase="fire")
    s, _ = act(s, Commit("A1", B.label(t), 4))
    s, _ = act(s, Resolve(), [6])
    c = s.counter_at(t)
    assert c is not None and c.atg == 0 and s.enemy_atgs_broken == 1 and s.enemy_platoons_broken == 0


# -- enemy fire -------------------------------------------------------------------------------------
def test_enemy_without_atgs_engages_only_adjacent_armour_on_5():
    """CA Enemy Fire: without ATGs only adjacent armour, broken on 5+; +1 outside its forward
    arc, -1 with a rifle platoon in its hex; with ATGs up to 5 hexes on 2+."""
    e = B.CENTRE
    a_hex = B.NEIGHBOURS[e][2]
    s = position({e: "woods"}, {"A1": (a_hex, True, 1)}, [Counter(e, True)])
    mods, need = R.enemy_armour_attack(s, e, U("A1"), False)
    assert need == 5 and [m.value for m in mods] == [1]  # facing away from the enemy
    s2 = position({e: "woods"}, {"A1": (a_hex, True, 4), "D1": (a_hex, True, -1)}, [Counter(e, True)])
    mods, _ = R.enemy_armour_attack(s2, e, U("A1"), False)
    assert [m.value for m in mods] == [-1]
    far = position({e: "woods"}, {"A1": (hx(0, -3), True, 4)}, [Counter(e, True)])
    assert R.enemy_armour_attack(far, e, U("A1"), False) is None
    assert R.enemy_armour_attack(far, e, U("A1"), True)[1] == 2


def test_two_platoons_hit_choose_which_breaks():
    """CA Enemy Fire: each time the loss counter passes 7 to 0 one infantry platoon of your
    choice in the target hex is broken."""
    e, h = B.CENTRE, B.NEIGHBOURS[B.CENTRE][2]
    s = position({e: "woods"}, {"D1": (h, True, -1), "D2": (h, True, -1)}, [Counter(e, True)],
                 phase="enemy", stage="activate", losses=5)
    s, _, _ = enemy_step(s)
    s, _, _ = enemy_step(s, [6])  # 2 platoons x 2 losses: 5 -> 9 = 1, passing 0 once
    assert s.losses == 1 and s.breaks == 1
    assert set(_legal(s)) == {BreakUnit("D1"), BreakUnit("D2")}
    s, _ = act(s, BreakUnit("D2"))
    assert unit(s, "D2").where == -4 and unit(s, "D1").where == h


# -- revealing ----------------------------------------------------------------------------------------
def test_the_global_reveal_penalty_replaces_the_removed_atg_one():
    """CA Enemy Decisions: deduct 1 from both reveal rolls once 2 real ATGs or 3 real platoons
    have been revealed, 'but stop deducting 1 for removed ATGs' (rules-notes)."""
    s = position()
    c = Counter(0, False, 0, True)
    assert [m.value for m in R.platoon_reveal_mods(s, c)] == [-1]
    s3 = s._replace(real_platoons_revealed=3)
    assert [m.value for m in R.platoon_reveal_mods(s3, c)] == [-1]
    assert [m.value for m in R.atg_reveal_mods(s._replace(real_atgs_revealed=2), Counter(0, True, 1))] == [2, -1]


def test_potential_atgs_with_2_chances_open_fire():
    """CA Enemy Decisions: fresh potential ATGs with at least 2 chances in 6 of breaking an
    armour platoon test to reveal (+2 with the platoon already revealed)."""
    e = B.CENTRE
    s = position({e: "woods"}, {"A1": (hx(0, -3), True, 1)}, [Counter(e, True, 1)], phase="enemy", stage="activate")
    s, d, ev = enemy_step(s, [3])  # 3 + 2 = 5: real ATGs
    assert d.action.atg_test and rolls(ev) == [(3, 5)] and s.counter_at(e).atg == 2
    s, d, ev = enemy_step(s, [2])
    assert d.action.armour == "A1" and rolls(ev) == [(2, 0)]  # +1 side shot, -3 range: a miss


# -- mortars and smoke -----------------------------------------------------------------------------------
def test_enemy_mortars_need_a_6_when_more_of_yours_are_broken_armour_counting():
    """CA Enemy Decisions: enemy mortars fire on 6 if more friendly than enemy platoons (not
    ATGs) have been broken, else on 5 or 6; armour counts among your platoons (rules-notes)."""
    s = position(units={"A1": (-4, True, 4)})
    assert R.enemy_mortar_fires_on(s) == 6
    assert R.enemy_mortar_fires_on(s._replace(enemy_platoons_broken=1)) == 5


def test_enemy_mortars_never_fire_in_successive_turns():
    s = position(phase="enemy", stage="mortar", enemy_fired=4)
    s, d, ev = enemy_step(s)
    assert d.action.target is None and not rolls(ev)


def test_your_mortars_retarget_only_the_same_or_an_adjacent_hex():
    """CA Mortars: your mortars may fire in successive turns only at the same or an adjacent hex
    (spotted and eligible afresh); HE only at a hex not next to your platoons."""
    a, b, far = hx(0, 2), hx(1, 2), hx(-3, 3)
    enemy = [Counter(a), Counter(b), Counter(far)]
    s = position({a: "woods", b: "woods", far: "woods"}, {"D1": (hx(0, -2), True, -1)}, enemy, phase="fire")
    assert set(R.own_mortar_targets(s, False)) >= {a, b, far}
    s2 = s._replace(own_fired=4, own_target=a)
    assert set(R.own_mortar_targets(s2, False)) == {a, b}
    with pytest.raises(IllegalAction, match="adjacent hex"):
        act(s2, CallMortar(B.label(far)))
    s3 = position({a: "woods"}, {"D1": (hx(0, -2), True, -1), "A1": (hx(0, 1), True, 4)}, [Counter(a)], phase="fire")
    assert a not in R.own_mortar_targets(s3, False)


def test_spotting_needs_a_fresh_infantry_spotter_not_next_to_the_enemy():
    """CA Mortars: spotted from a fresh infantry counter not adjacent to an opposing platoon;
    intervening platoons and a single partial block are no hindrance."""
    a = hx(0, 2)
    s = position({a: "woods"}, {"D1": (hx(0, -2), False, -1)}, [Counter(a)], phase="fire")
    assert R.own_mortar_targets(s, False) == []
    s = position({a: "woods"}, {"A1": (hx(0, -2), True, 4)}, [Counter(a)], phase="fire")
    assert R.own_mortar_targets(s, False) == []
    s = position({a: "woods"}, {"D1": (hx(0, -2), True, -1), "E1": (hx(0, 0), True, -1)}, [Counter(a)], phase="fire")
    assert R.own_mortar_targets(s, False) == [a]


def test_smoke_lasts_to_the_end_of_your_next_fire_phase_and_blocks_only_between():
    """CA Mortars: smoke on up to 4 turns, in all 3 impact hexes, until the end of your next
    fire phase; only intervening smoke blocks, as woods."""
    target = hx(0, 1)
    s = position(units={"D1": (hx(0, -2), True, -1)}, phase="fire", turn=3)
    s, _ = act(s, CallMortar(B.label(target), "smoke"))
    assert s.smoke_ammo == 3
    s, ev = act(s, EndPhase(), [4])  # the smoke falls about the bottom corner
    placed = next(e for e in ev if e.kind == "smoke").placed
    assert len(placed) == 3 and B.label(target) in placed
    assert s.smoke_mask >> target & 1
    s, _, _ = enemy_step(s, [1])  # the enemy mortars roll 1: the turn ends
    # still there through your next move and fire phases, cleared at the end of that fire phase
    s, _ = act(s, EndPhase())
    assert s.phase == "fire" and s.turn == 4 and s.smoke_mask >> target & 1
    s, ev = act(s, EndPhase())
    assert not s.smoke_mask and any(e.kind == "smoke" and e.cleared for e in ev)
    # intervening only: smoke in the target's own hex does not block a line to it
    s5 = position(units={"D1": (hx(0, -1), True, -1)}, smoke=((hx(0, 1), 3),))
    assert R.line_of_fire(s5, hx(0, -1), hx(0, 1)) == R.CLEAR
    assert R.line_of_fire(s5, hx(0, -1), hx(0, 3)) == R.BLOCKED


# -- the bombardment, ending and scoring ----------------------------------------------------------------------
def test_turn_1_bombardment_pins_counters_that_see_your_platoons():
    """CA Sequence of Play: on turn 1, each potential enemy counter with a 1-5 hex line of fire
    to any of your platoons becomes spent on a die roll of 2 or more."""
    seen, hidden = hx(0, 0), hx(0, 3)
    s = position({seen: "woods", hidden: "woods", hx(0, 2): "woods"}, {"D1": (hx(0, -4), True, -1)},
                 [Counter(seen), Counter(hidden)], phase="fire", turn=1)
    s, ev = act(s, EndPhase(), [2])  # the bombardment of the counter that sees D1
    assert not s.counter_at(seen).fresh and s.counter_at(hidden).fresh
    assert next(e for e in ev if e.kind == "roll").cause.startswith("preliminary bombardment of the potential enemy in 5f")
    assert sum(1 for e in ev if e.kind == "roll" and "bombardment" in e.cause) == 1


def test_end_the_game_only_between_turns():
    """CA Victory: you may end the game after any turn: before anything moves in the next."""
    s = position(units={"D1": (L("1c"), True, -1)}, turn=3)
    assert EndGame() in _legal(s)
    s2, _ = act(s, Move("D1", "2c"))
    assert EndGame() not in _legal(s2)
    s3, _ev = act(s, EndGame())
    assert s3.phase == "over" and s3.result["turns"] == 2
    assert EndGame() not in _legal(position(turn=1))


def test_exploiting_beyond_the_broken_enemy_platoons_counts_only_without_real_platoons():
    """CA Victory: exploiting platoons beyond the number of broken enemy platoons count only if
    no real enemy platoons remain in play."""
    ex = {"D1": (-3, True, -1), "D2": (-3, True, -1)}
    s = position(units=ex, enemy=[Counter(hx(0, 2), True)], enemy_platoons_broken=1)
    assert R.score(s, 10)["exploiting"] == 2
    s2 = position(units=ex, enemy_platoons_broken=1)
    assert R.score(s2, 10)["exploiting"] == 4


def test_a_roll_order_is_the_players_choice():
    """CA Enemy Fire: 'roll for each hex, in any desired order': with two hexes of your infantry
    pending, the player picks where the order can matter (the loss track at 6: whichever hex is
    hit first passes 7 -> 0 and loses a platoon); a single pending hex rolls by itself."""
    e = B.CENTRE
    h1, h2 = B.NEIGHBOURS[e][1], B.NEIGHBOURS[e][2]
    s = position({e: "woods"}, {"D1": (h1, True, -1), "D2": (h2, True, -1)}, [Counter(e, True)], phase="enemy", stage="activate",
                 losses=6)
    s, _, _ = enemy_step(s)
    s, _, _ = enemy_step(s)
    assert {a.hex for a in _legal(s)} == {B.label(h1), B.label(h2)}
    s, ev = act(s, RollNext(B.label(h2)), [1, 1])
    first = next(e for e in ev if e.kind == "roll")
    assert f"in {B.label(h2)}:" in first.cause and rolls(ev) == [(1, 1), (1, 1)]
    assert s.phase == "move"


@pytest.mark.parametrize(("losses", "asked"), [(0, False), (3, False), (4, True), (6, True)])
def test_the_player_is_not_asked_to_order_rolls_whose_order_cannot_matter(losses, asked):
    """CA Enemy Fire ('Roll for each hex, in any desired order'; 'each time it passes from 7
    to 0, one infantry platoon of your choice in the target hex is broken'): two adjacent hexes
    of one platoon each, hit for 2 losses apiece.  From 0 or 3 on the track no order can pass
    7 -> 0 (at most 4 more), so the rolls run by themselves in the order given; from 4 both hits
    reach 8, and the hex rolled second would lose its platoon, so the player is asked."""
    from gwasl.games.combined_arms.choices import roll_order_matters

    e = B.CENTRE
    h1, h2 = B.NEIGHBOURS[e][1], B.NEIGHBOURS[e][2]
    s = position({e: "woods"}, {"D1": (h1, True, -1), "D2": (h2, True, -1)}, [Counter(e, True)], phase="enemy", stage="activate",
                 losses=losses)
    s, _, _ = enemy_step(s)
    fire = enemy_step  # the fire decision, then (when nobody is asked) both rolls: two misses
    s, d, ev = fire(s, [] if asked else [1, 1])
    assert set(d.action.cluster) == {B.label(h1), B.label(h2)}
    if asked:
        assert roll_order_matters(s) and {a.hex for a in _legal(s)} == {B.label(h1), B.label(h2)}
    else:
        assert rolls(ev) == [(1, 1), (1, 1)] and not s.rolls and s.phase == "move" and s.losses == losses


def test_spotting_is_a_1_to_5_hex_line_not_blocked_by_terrain_or_smoke():
    """CA Mortars: "Hexes are spotted if within a 1-5 hex line of fire ... Intervening
    platoons or single partial blocks are no hindrance", smoke blocking as woods: the
    cached masks agree with the line of fire for every pair, before and after smoke."""
    from gwasl.engine.dice import GameDice
    from gwasl.engine.game import GameOptions
    from gwasl.games.combined_arms.state import with_smoke

    s = GAME.setup(None, GameOptions())
    for e in GAME.begin(s, GameDice(21)):
        s = GAME.reduce(s, e)
    for st in (s, with_smoke(s, ((B.index_of("5e"), 1), (B.index_of("4d"), 1), (B.index_of("6f"), 1)))):
        for a in range(B.N):
            for b in range(B.N):
                want = 1 <= B.distance(a, b) <= 5 and R.line_of_fire(st, a, b) != R.BLOCKED
                assert R.spotted(st, a, b) == want, (B.label(a), B.label(b))


def test_enemy_activation_lines_are_short_with_the_details_on_demand():
    """CA Enemy Decisions (activation in order, the reveal tests, fire): the log's line for a
    step of the enemy names the counters passed over and the one that acts, with its reason,
    in one short line (it ran to 1,164 characters, every counter's tests written out); each
    activated counter's tests and figures are in the decision's details.  Seeds 0-5 of the
    random policy, every defender decision."""
    from gwasl.engine.dice import GameDice
    from gwasl.engine.game import GameOptions, Seat

    P = GAME.policies()["random"]
    longest = 0
    for seed in range(6):
        s = GAME.setup(None, GameOptions())
        d = GameDice(seed)
        for e in GAME.begin(s, d):
            s = GAME.reduce(s, e)
        while not GAME.status(s).over:
            side = GAME.status(s).side
            auto = GAME.automated(s).get(side)
            dec = (auto or P)(Seat(GAME, s, GAME.viewer(s, side)), d)
            if auto is not None:
                longest = max(longest, len(dec.why))
                if dec.action.kind == "activate":
                    assert [c["hex"] for c in dec.details["counters"]] == list(dec.action.hexes)
                    assert all(c["why"] for c in dec.details["counters"])
            for e in GAME.apply(s, dec.action, d):
                s = GAME.reduce(s, e)
    assert 0 < longest <= 240, longest
