"""Harmon's rules 102-108 in play: visibility and the Submarine Detection Table (104.1),
the Escort Action Table (104.2), fleet movement (104.3, 104.4), radial attacks (105.4),
diameters (106), night illumination (107), evasion and searches (108)."""

from __future__ import annotations

from dataclasses import replace

from games.on_patrol.op_support import GAME, only_escorts, pose, put_ship, put_sub, run, started
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.automaton import Reach, escort_orders, spread_attacks
from gwasl.games.on_patrol.detection import escort_action, mode_of, visible
from gwasl.games.on_patrol.geometry import assault_zone, assault_zone_priority
from gwasl.games.on_patrol.movement import avoidance_blocks, fleet_order
from gwasl.games.on_patrol.state import AttackMark, EscortView, Force, Marker, hx
from gwasl.games.on_patrol.tables import tables
from gwasl.model.hexgrid import Hex

T = tables()


def phase(st, n):
    return replace(st, phase=n)


# -- 102: deletions ------------------------------------------------------------------------
def test_102_5_tubes_full_and_reloads_at_the_data_chart_maximum():
    """102.5: the submarine starts with every tube loaded and the maximum reloads."""
    sub = started().sub("U1")
    c = T.submarines[sub.cls]
    assert all(sub.tubes) and len(sub.tubes) == c.bow_tubes + c.stern_tubes
    assert sub.reloads == c.reloads


def test_102_5_escorts_never_run_out_of_depth_charges():
    """102.5: unlimited depth charges: an escort fires its full load every turn it attacks."""
    st = started()
    e = st.ship("E1")
    from gwasl.games.on_patrol.automaton import load_of

    assert load_of(e, T, 1942)["dc"] == T.surface[e.cls].dc
    assert load_of(e, T, 1945)["dc"] == T.surface[e.cls].dc


def test_102_2_the_submarine_counter_is_always_on_the_board_for_its_commander():
    """102.2, 104.1.2: the sub is on the board for its commander; the escorts see only markers."""
    st = started()
    mine = GAME.view(st, GAME.viewer(st, "submarine"))
    theirs = GAME.view(st, GAME.viewer(st, "escorts"))
    assert mine["submarines"][0]["bow"] == "AS42" and mine["submarines"][0]["depth"] == 50  # the bundled start
    assert theirs["submarines"] == []


# -- 104.1: visibility and the Submarine Detection Table -----------------------------------
def test_visibility_104_1_4_a_day_surface_and_25_feet():
    """104.1.4 a: on the surface or at 25 feet in daylight the submarine is visible; at 50 it is not
    (102.4: always clear weather, so daylight alone decides)."""
    for depth, seen in ((0, True), (25, True), (50, False)):
        st = put_sub(started(), "AO52", 6, depth)
        assert bool(visible(st, st.sub("U1"), T)) is seen


def test_visibility_104_1_4_b_night_within_four_hexes_or_seven_of_a_torpedoed_ship():
    """104.1.4 b, 107.2.1: at night only within four hexes of an enemy vessel, or seven of one torpedoed
    on the previous turn and still afloat."""
    st = started("night-convoy")
    m1 = st.ship("M1")
    far = put_sub(st, "A60", 6, 0)
    assert visible(far, far.sub("U1"), T) is None
    near = m1.pose.bow + Hex(0, 4)
    st2 = put_sub(st, near.label, 6, 25)
    others = tuple(s if s.id == "M1" else replace(s, pose=pose("A1", 3)) for s in st2.ships)
    st2 = replace(st2, ships=others)
    assert "four hexes" in (visible(st2, st2.sub("U1"), T) or "")
    st3 = put_sub(st2, (m1.pose.bow + Hex(0, 7)).label, 6, 0)
    assert visible(st3, st3.sub("U1"), T) is None
    hit = replace(st3, turn=5).with_ship(replace(st3.ship("M1"), torpedoed_turn=4))
    assert "torpedoed" in (visible(hit, hit.sub("U1"), T) or "")


def test_visibility_104_1_4_c_sighted_by_night_visual_search():
    """104.1.4 c: a submarine sighted under 47.0 is visible."""
    st = started("night-convoy")
    st = put_sub(st, "A60", 6, 0, sighted=True)
    assert "47.0" in (visible(st, st.sub("U1"), T) or "")


def test_107_2_2_a_torpedoed_tanker_lights_seven_hexes_at_night():
    """107.2.2: daylight within seven hexes of a tanker torpedoed on an earlier turn, afloat or not."""
    st = replace(started("night-convoy"), turn=6)
    tanker = st.ship("M2")
    spot = tanker.pose.bow + Hex(0, 6)
    st = put_sub(st, spot.label, 6, 25)
    st = replace(st, ships=tuple(s if s.id == "M2" else replace(s, pose=pose("A1", 3)) for s in st.ships))
    assert visible(st, st.sub("U1"), T) is None
    st = st.with_ship(replace(st.ship("M2"), torpedoed_turn=5, status="sunk"))
    assert "107.2.2" in (visible(st, st.sub("U1"), T) or "")


def test_107_2_3_aviation_fuel_lights_twenty_hexes_until_the_turn_after_it_sinks():
    """107.2.3: within 20 hexes of a burning aviation-fuel tanker, until the star shell phase of
    the turn after it sinks."""
    st = replace(started("night-convoy"), turn=6, phase=2)
    avgas = st.ship("M4")
    spot = avgas.pose.bow + Hex(0, 15)
    st = put_sub(st, spot.label, 6, 0)
    st = replace(st, ships=tuple(s if s.id == "M4" else replace(s, pose=pose("A1", 3)) for s in st.ships))
    st = st.with_ship(replace(st.ship("M4"), torpedoed_turn=6))
    assert "107.2.3" in (visible(st, st.sub("U1"), T) or "")
    sunk = GAME.reduce(replace(st, turn=7), R.ShipSunk("M4"))
    assert "107.2.3" in (visible(replace(sunk, turn=8, phase=5), sunk.sub("U1"), T) or "")
    assert visible(replace(sunk, turn=8, phase=6), sunk.sub("U1"), T) is None


def test_detection_table_104_1_3_phase_8_dive_leaves_an_escort_marker_where_the_move_began():
    """104.1.3, phase 8: a submarine that leaves visible depth leaves a marker of the escorts'
    colour where it began its movement, facing as it did."""
    st = started()
    st = put_sub(phase(st, 8), "AO40", 6, 25)
    st = GAME.reduce(st, R.SubTurnBegan())
    st = GAME.reduce(st, R.MarkerSet("U1", "sub", "AO40", 0, False, "test"))
    st, _ = run(st, R.Dive("U1", 75))
    st, _ = run(st, R.Move("U1", 1))
    assert st.marker("U1").kind == "sub"
    st, evs = run(st, R.EndPhase())
    m = st.marker("U1")
    assert m.kind == "escort" and m.pose == pose("AO40", 6)
    assert any(isinstance(e, R.MarkerSet) and "104.1.3" in e.why for e in evs)


def test_detection_table_104_1_3_torpedoes_from_an_unseen_sub_place_the_torpedo_marker_in_hex_b():
    """104.1.3, phase 8: torpedoes from a submarine not sighted put an inverted torpedo marker in
    hex B (ahead of the bow), facing the same way; it is the target hex (105.1.3)."""
    st = started()
    st = put_sub(phase(st, 8), "AK30", 6, 75)
    st = GAME.reduce(st, R.SubTurnBegan())
    launches = [a for a in GAME.legal_actions(st, GAME.viewer(st, "submarine")) if isinstance(a, R.Launch)]
    assert launches
    st, _ = run(st, launches[0])
    m = st.marker("U1")
    assert m.kind == "torpedo" and m.pose.bow == hx("AK29") and m.target == hx("AK29")
    # a second salvo while sighted: no torpedo marker (the sub is already in contact)
    st = GAME.reduce(st, R.MarkerSet("U1", "escort", "AK30", 0, False, "test"))
    st, _evs = run(st, next(a for a in GAME.legal_actions(st, GAME.viewer(st, "submarine")) if isinstance(a, R.Launch)))
    assert st.marker("U1").kind == "escort"


def test_submarines_attack_only_what_they_see_104_1_5():
    """104.1.5: no torpedo may be fired at nothing the submarine can see."""
    st = started()
    st = GAME.reduce(put_sub(phase(st, 8), "AO70", 6, 75), R.SubTurnBegan())
    assert not [a for a in GAME.legal_actions(st, GAME.viewer(st, "submarine")) if isinstance(a, R.Launch)]


def test_detection_table_104_1_3_phase_6_miss_inverts_the_marker_and_contact_places_one():
    """104.1.3, phase 6: found by sonar or radar and not visible: an escort-colour marker on the
    submarine; missed: the marker on the board is inverted (contact lost)."""
    st = only_escorts(started(), set())
    st = put_sub(st, "A70", 3, 150)
    st = GAME.reduce(st, R.MarkerSet("U1", "escort", "AO40", 0, False, "test"))
    st, evs = run(phase(st, 3), R.Resolve())
    assert st.marker("U1").kind == "inverted" and st.marker("U1").pose == pose("AO40", 6)
    done = [e for e in evs if isinstance(e, R.SearchDone) and e.sub == "U1"]
    assert done and done[0].result == "missed"


def test_phase_6_sonar_contact_puts_the_escort_marker_on_the_submarine():
    """104.1.3 phase 6: a sonar contact marks the submarine's own position and heading."""
    st = started()
    e1 = st.ship("E1")
    st = put_sub(st, (e1.pose.bow + Hex(0, 2)).label, 1, 100)
    for seed in range(40):
        st2, evs = run(phase(st, 3), R.Resolve(), seed)
        done = next(e for e in evs if isinstance(e, R.SearchDone) and e.sub == "U1")
        if done.result == "contact":
            m = st2.marker("U1")
            assert m.kind == "escort" and m.pose == st2.sub("U1").pose
            return
    raise AssertionError("no sonar contact at two hexes in 40 tries")


# -- 104.2: the Escort Action Table -----------------------------------------------------------
def test_escort_action_table_104_2_1_modes():
    """104.2.1: none -> 1, torpedo marker -> 2, escort colour -> 3, sub colour -> 4 (25 ft) or 5
    (surfaced), inverted -> 6."""
    p = pose("K10", 6)
    assert mode_of(None) == 1
    assert mode_of(Marker("U1", "torpedo", p)) == 2
    assert mode_of(Marker("U1", "escort", p)) == 3
    assert mode_of(Marker("U1", "sub", p)) == 4
    assert mode_of(Marker("U1", "sub", p, surfaced=True)) == 5
    assert mode_of(Marker("U1", "inverted", p)) == 6


def test_104_2_2_escorts_begin_in_mode_1_unless_contact_or_a_shallow_start():
    """104.2.2: mode 1 at the start, unless the scenario states contact or the sub starts at 25 ft or less."""
    assert started().forces == ()
    shallow = started(submarines=[{"id": "U1", "class": "type-viic", "bow": "AO52", "heading": 6, "depth": 25}])
    assert shallow.forces and shallow.forces[0].mode == 4
    contact = started(contact=True)
    assert contact.forces and contact.forces[0].mode == 3


def test_double_and_triple_contacts_104_2_1_split_the_escorts():
    """104.2.1: a second marker takes the nearest half (rounded down) of the escorts; a third
    takes half of each of the other two forces."""
    st = started("night-convoy")  # five escorts
    m1 = Marker("U1", "escort", pose("AK60", 6), seq=1)
    m2 = Marker("U2", "escort", pose("AK5", 3), seq=2)
    view = replace(EscortView.of(st), markers=(m1, m2))
    f1, f2 = escort_action(view, T)
    assert (len(f1.escorts), len(f2.escorts)) == (3, 2)
    near = sorted((s for s in st.ships if s.kind == "escort"), key=lambda s: s.pose.bow.distance(m2.target))
    assert set(f2.escorts) == {s.id for s in near[:2]}
    m3 = Marker("U3", "inverted", pose("A40", 2), seq=3)
    f1, f2, f3 = escort_action(replace(view, markers=(m1, m2, m3)), T)
    assert (len(f1.escorts), len(f2.escorts), len(f3.escorts)) == (2, 1, 2)
    assert f3.mode == 6


def test_mode_5_the_nearest_escort_rams_a_surfaced_submarine_104_2_1_108_1_5():
    """104.2.1 mode 5, 108.1.5: the escort nearest the surfaced sub runs at its bow and rams it;
    only one escort may ram."""
    st = only_escorts(started("hunter-group"), {"E1", "E2"})
    st = put_ship(st, "E1", "AK31", 3, speed=3)
    st = put_ship(st, "E2", "AS20", 3, speed=3)
    st = put_sub(st, "AK34", 6, 0)
    st = GAME.reduce(st, R.MarkerSet("U1", "sub", "AK34", 0, True, "test"))
    st = GAME.reduce(st, GAME._mode_set(st, "test"))
    assert st.forces[0].mode == 5 and st.forces[0].rammer == "E1"
    orders = escort_orders(EscortView.of(phase(st, 2)), T)
    plan = {p.ship: p for p in orders.plans}
    assert plan["E1"].movement == "ram" and plan["E2"].movement == "diameter"
    st2, evs = run(phase(st, 2), orders)
    assert any(isinstance(e, R.Rammed) for e in evs) and st2.sub("U1").status == "sunk"


# -- 104.3, 104.4: convoy movement -------------------------------------------------------------
def test_fleet_codes_104_3_1():
    """104.3.1: L1 pivots left then moves, 1R moves then pivots right, M is the emergency speed."""
    assert fleet_order("L1").before == -1 and fleet_order("L1").hexes == 1
    assert fleet_order("1R").after == 1 and fleet_order("1R").before == 0
    assert fleet_order("LM").hexes is None and fleet_order("MR").after == 1


def test_104_3_2_merchants_move_in_unison():
    """104.3.2: one die for the whole convoy; every merchant makes the same move."""
    _st, evs = run(phase(started(), 1), R.ConvoyMove())
    moved = {e.ship: e for e in evs if isinstance(e, R.ShipMoved)}
    before = {s.id: s.pose for s in started().ships}
    shifts = {(hx(moved[s].path[-1][0]) - before[s].bow, moved[s].path[-1][1]) for s in moved}
    assert len(shifts) == 1  # merchants and escorts in formation: one and the same move


def test_104_3_3_a_merchant_stops_three_hexes_short_of_a_ship_dead_in_the_water():
    """104.3.3: a merchant that would close on a stopped ship halts within three hexes of it
    (a two-hex gap), still turning with the convoy, and moves again once a move would not
    bring its bow closer."""
    assert avoidance_blocks(pose("K10", 3), [hx("K13")])
    assert not avoidance_blocks(pose("K10", 3), [hx("K14")])  # four away: may close to three
    assert not avoidance_blocks(pose("K10", 6), [hx("K13")])  # moving away is never blocked
    st = started()
    m1, _m4 = st.ship("M1"), st.ship("M4")  # M4 follows M1 in column, 4 hexes bow to bow
    st = replace(st.with_ship(replace(m1, status="diw", speed=0)), convoy="fast-2")
    straight = 0
    for seed in range(30):
        after, evs = run(phase(st, 1), R.ConvoyMove(), seed=seed)
        code = next(e.code for e in evs if isinstance(e, R.FleetOrderSet))
        e4 = next(e for e in evs if isinstance(e, R.ShipMoved) and e.ship == "M4")
        gap = min(after.ship("M4").pose.bow.distance(h) for h in after.ship("M1").hexes())
        assert gap >= 3  # never closer than a two-hex gap
        if code == "2":
            straight += 1
            assert e4.halted and e4.speed == 0 and after.ship("M4").pose == st.ship("M4").pose
        if code in ("2L", "2R"):
            assert after.ship("M4").pose.heading != st.ship("M4").pose.heading  # turns still made
    assert straight


def test_104_4_2_capital_ships_alone_speed_up_a_hex_a_turn_after_torpedoes():
    """104.4.2: capital ships not with merchants go to the emergency column the turn after the
    first torpedoes, one hex faster each turn to their maximum."""
    src = {"convoy": {"speed": "fast-2", "capital_ships": [{"id": "C1", "class": "battleship"}, {"id": "C2", "class": "cruiser"}]},
           "escorts": [{"id": "E1", "class": "gleaves", "nation": "us"}]}
    st = started(**src)
    st = replace(st, first_launch_turn=st.turn, phase=10)
    speeds = []
    for _ in range(5):
        st, _evs = run(st, R.EndTurn())
        speeds.append(st.capital_speed)
        st = replace(st, phase=10)
    assert speeds == [3, 4, 5, 5, 5]


# -- 105: radial movement and attacks -----------------------------------------------------------
def test_105_4_6_six_charges_on_three_hexes_drop_two_each():
    """105.4.6's own example: six depth charges that can reach only three assault-zone hexes
    are dropped two in each."""
    t = hx("K10")
    prio = assault_zone_priority(t, 0)
    r = Reach((hx("K10"), hx("K11"), hx("K12")), (), (), ())
    drops = spread_attacks(r, {"dc": 6}, prio, frozenset())
    assert sorted((d.hex, d.count) for d in drops) == [("K10", 2), ("K11", 2), ("K12", 2)]
    assert {d.hex: d.rank for d in drops} == {"K10": 1, "K11": 7, "K12": 19}  # target, marker's bow, rear


def test_105_4_4_and_105_4_10_one_weapon_per_hex_in_priority_vacant_hexes_first():
    """105.4.4, 105.4.6, 105.4.10: at least one weapon in each reachable hex, vacant ones before
    hexes other escorts already attacked; K-guns go into attacked hexes only when no vacant
    hex is in reach."""
    t = hx("K10")
    prio = assault_zone_priority(t, 0)
    r = Reach((), (hx("J10"), hx("L10")), (), ())
    drops = spread_attacks(r, {"kgun": 2}, prio, frozenset({hx("L10")}))
    assert [(d.hex, d.count) for d in drops] == [("J10", 2)]
    drops = spread_attacks(Reach((), (hx("L10"),), (), ()), {"kgun": 2}, prio, frozenset({hx("L10")}))
    assert [(d.hex, d.count) for d in drops] == [("L10", 2)]


def test_105_4_11_no_ahead_thrown_weapon_into_a_hex_with_a_surface_ship():
    """105.4.11: escorts may not fire ATW into hexes occupied by other surface vessels."""
    from gwasl.games.on_patrol.automaton import reach

    zone = assault_zone(hx("K10"))
    p = pose("K14", 6)  # hedgehog lands two ahead: K12
    assert hx("K12") in reach([p], zone, frozenset()).hedgehog
    assert hx("K12") not in reach([p], zone, frozenset({hx("K12")})).hedgehog


def test_105_4_5_the_nearest_escort_moves_first():
    """105.4.5: escorts move in order of the distance from their bow to the target hex."""
    st = only_escorts(started(), {"E1", "E2", "E3"})
    st = put_ship(st, "E1", "AK20", 3, speed=3, in_formation=False)
    st = put_ship(st, "E2", "AK50", 6, speed=3, in_formation=False)
    st = put_ship(st, "E3", "AC40", 3, speed=3, in_formation=False)
    force = Force("U1", 3, hx("AK40"), 0, hx("AK41"), ("E1", "E2", "E3"))
    st = replace(st, forces=(force,), phase=2, convoy_paths=frozenset())
    orders = escort_orders(EscortView.of(st), T)
    assert [p.ship for p in orders.plans] == ["E3", "E2", "E1"]
    assert [p.order for p in orders.plans] == [1, 2, 3]


def test_105_4_1_escorts_attack_only_the_assault_zone_and_only_in_radial_movement():
    """105.4.1, 105.4.11: attacks only into the assault zone, only in radial movement."""
    st = only_escorts(started(), {"E1"})
    st = put_ship(st, "E1", "AK36", 3, speed=3, in_formation=False)
    target = hx("AK40")
    for mode, expect in ((3, True), (6, False)):
        force = Force("U1", mode, target, 0, hx("AK41"), ("E1",))
        s2 = replace(st, forces=(force,), phase=2, convoy_paths=frozenset())
        plan = escort_orders(EscortView.of(s2), T).plans[0]
        assert bool(plan.drops) is expect
        assert all(hx(d.hex).distance(target) <= 2 for d in plan.drops)


def test_108_1_1_escorts_keep_out_of_the_convoys_path_and_pivot_hexes():
    """108.1.1-108.1.3: no escort enters a hex a merchant or capital ship entered or could pivot
    into this turn; it parallels its course instead."""
    st = started()
    st = replace(st, phase=1)
    st, _ = run(st, R.ConvoyMove())
    assert st.convoy_paths
    force = Force("U1", 3, st.ship("M1").pose.bow + Hex(0, 6), 0, st.ship("M1").pose.bow + Hex(0, 5),
                  tuple(s.id for s in st.ships if s.kind == "escort"))
    st = replace(st, forces=(force,), ships=tuple(replace(s, in_formation=False) if s.kind == "escort" else s for s in st.ships))
    orders = escort_orders(EscortView.of(st), T)
    for p in orders.plans:
        assert not {hx(b) for _, b, _ in p.steps} & st.convoy_paths


def test_108_2_1_escorts_never_end_their_move_ahead_of_a_torpedo():
    """108.2.1: no escort steams over a torpedo or ends its move directly ahead of one."""
    from gwasl.games.on_patrol.state import Torpedo

    st = only_escorts(started(), {"E1"})
    st = put_ship(st, "E1", "AK30", 3, speed=3, in_formation=False)
    tp = Torpedo("T1", "U1", "g7e", pose("AE33", 2), 5, 50)
    force = Force("U1", 2, hx("AK40"), 0, hx("AK40"), ("E1",))
    st = replace(st, torpedoes=(tp,), forces=(force,), phase=2, convoy_paths=frozenset())
    plan = escort_orders(EscortView.of(st), T).plans[0]
    bow = hx(plan.steps[-1][1]) if plan.steps else st.ship("E1").pose.bow
    assert bow not in tp.path() and tp.pose.bow not in {hx(b) for _, b, _ in plan.steps}


def test_108_2_1_an_escort_in_a_torpedos_track_leaves_it_instead_of_stopping_in_it():
    """108.2.1: "Escorts will instead avoid such an event by leaving its vector, radial or
    diameter and paralleling its former path as close as possible, or by slowing to the point
    that it will not be in the path."  E1 hunts south down column AK at search speed 3 (mode 2)
    with a torpedo 2 hexes astern running the same way 6 hexes a turn: its own hex and every
    hex of its planned move are in the torpedo's path.  It used to be "slowed to 0 to keep
    clear" where it stood, in the path, and was torpedoed; now it leaves the column, paralleling
    its course, and ends clear of the track at speed."""
    from gwasl.games.on_patrol.geometry import Pose
    from gwasl.games.on_patrol.state import Torpedo

    st = only_escorts(started(), {"E1"})
    st = put_ship(st, "E1", "AK30", 3, speed=3, in_formation=False)
    tp = Torpedo("T1", "U1", "g7e", pose("AK28", 3), 6, 50, 3)
    force = Force("U1", 2, hx("AK40"), 3, hx("AK40"), ("E1",))
    st = replace(st, torpedoes=(tp,), forces=(force,), phase=2, convoy_paths=frozenset())
    track = set(tp.path())
    assert {hx("AK30"), hx("AK31"), hx("AK32"), hx("AK33")} <= track
    plan = escort_orders(EscortView.of(st), T).plans[0]
    assert plan.speed >= 1 and len(plan.steps) == plan.speed  # not stopped
    last = Pose(hx(plan.steps[-1][1]), plan.steps[-1][2])
    assert not track & set(last.hexes())
    assert last.bow.distance(hx("AK33")) <= 1  # parallel to where it was going, as close as possible
    assert "108.2.1" in plan.why and "slowed to 0" not in plan.why
    # played: phase 2 moves it, phase 3 runs the torpedo, which hits nothing
    st2, _ = run(st, GAME.legal_actions(st, GAME.viewer(st, "escorts"))[0])
    assert st2.ship("E1").damage == 0


def test_escorts_decide_from_markers_only():
    """docs/architecture.md "Views", On Patrol 104.1.2: the escorts' orders and view are the same wherever the true
    submarine is, as long as the markers are the same."""
    base = started()
    base = GAME.reduce(base, R.MarkerSet("U1", "escort", "AK40", 0, False, "test"))
    base = GAME.reduce(base, GAME._mode_set(base, "test"))
    a = put_sub(phase(base, 2), "AK41", 6, 100)
    b = put_sub(phase(base, 2), "C5", 2, 300)
    esc = GAME.viewer(a, "escorts")
    assert GAME.legal_actions(a, esc) == GAME.legal_actions(b, esc)
    assert GAME.view(a, esc) == GAME.view(b, esc)


# -- 106, 107, 108.3 ----------------------------------------------------------------------------
def test_106_2_4_diameter_of_12_or_6_for_ships_already_within_12():
    """106.2.4: the diameter is 12 hexes from the target; a ship already within 12 takes 6."""
    st = only_escorts(started(), {"E1", "E2"})
    st = put_ship(st, "E1", "AK20", 3)
    st = put_ship(st, "E2", "AK35", 3)
    st = GAME.reduce(put_sub(st, "AK41", 6, 100), R.MarkerSet("U1", "inverted", "AK40", 3, False, "test"))
    st = GAME.reduce(st, GAME._mode_set(st, "test"))
    assert st.forces[0].mode == 6
    assert st.ship("E1").diameter == 12 and st.ship("E2").diameter == 6


def test_107_1_star_shells_by_the_furthest_escort_on_the_target_and_three_ahead():
    """107.1.1, 107.1.2, 107.1.3: at night star shells are fired by the escort furthest from the target
    hex, into the target hex and three hexes ahead of it."""
    st = started("night-convoy")
    st = GAME.reduce(put_sub(st, "A70", 3, 200), R.MarkerSet("U1", "torpedo", "AK40", 0, False, "test"))
    st, evs = run(phase(st, 3), R.Resolve())
    shells = [e for e in evs if isinstance(e, R.StarShells)]
    assert shells and shells[0].hexes == ("AK40", "AK37")
    escorts = [s for s in started("night-convoy").ships if s.kind == "escort"]
    assert shells[0].firer in {s.id for s in escorts}


def test_107_1_1_star_shells_stop_when_contact_is_lost():
    """107.1.1: star shells are fired "whenever torpedoes or a submarine is detected"; an
    inverted marker is contact lost (the Submarine Detection Table), so none are fired over it,
    while a marker of the escorts' colour (a contact) still brings them."""
    st = put_sub(started("night-convoy"), "A70", 3, 200)
    lost = GAME.reduce(st, R.MarkerSet("U1", "inverted", "AK40", 0, False, "test"))
    _, evs = run(phase(lost, 3), R.Resolve())
    assert not [e for e in evs if isinstance(e, R.StarShells)]
    held = GAME.reduce(st, R.MarkerSet("U1", "escort", "AK40", 0, False, "test"))
    _, evs = run(phase(held, 3), R.Resolve())
    assert [e.hexes for e in evs if isinstance(e, R.StarShells)] == [("AK39", "AK36")]  # the target hex ahead of its bow


def test_105_4_12_the_depth_combat_table_reads_its_dice_as_tens_and_units():
    """105.4.12: the Submarine Depth Combat Table is read 11-66 (54-66 same depth, 41-53 within
    25 feet, 24-36 within 50 feet, 11-23 miss): a roll of 4 and 6 is shown as 46, within 25
    feet, not as "4+6 = 10"; the attack roll that follows uses gwasl's stand-in modifiers,
    labelled as such and never with a rule number."""
    import re

    from gwasl.engine.events import Rolled

    ev = Rolled(0, "Depth Combat Table for 1 dc from E1 on K10 (105.4.12: 11-23 miss, 24-36 within 50 feet, "
                "41-53 within 25 feet, 54-66 same depth)", (4, 6), (), 10)
    shown = GAME.event_view(ev, GAME.viewer(started(), "player"))
    assert shown.text.endswith(": 46") and shown.data["final"] == 46 and "4+6" not in shown.text
    st = only_escorts(started(), set())
    marks = tuple(AttackMark("E1", hx(f"K{10 + i}"), "dc", 3, 1) for i in range(6))
    st = put_sub(replace(st, attacks=marks, phase=3), "A70", 3, 100)
    _, evs = run(st, R.Resolve(), seed=11)
    attacks = [e for e in evs if e.kind == "roll" and e.cause.startswith("attack by")]
    assert attacks
    for e in attacks:
        assert "gwasl's stand-in attack table: 9-10 damaged, 11-12 heavily damaged, 13+ hull breached" in e.cause
        assert e.modifiers and all(m.cause.endswith("gwasl stand-in") and not re.search(r"\d+\.\d", m.cause) for m in e.modifiers)


def test_108_3_sonar_only_at_search_speed_radar_every_turn():
    """108.3.1, 108.3.2: ships with sonar at search speed search each turn; ships with radar always.
    (The boat at 25 feet 3 hexes from E1 and from E2, so that both searches have a chance.)"""
    st = started()
    st = st.with_ship(replace(st.ship("E1"), speed=5))
    st = put_sub(put_ship(st, "E2", "AK33", 3), "AK30", 3, 25)
    _, evs = run(phase(st, 3), R.Resolve())
    causes = [e.cause for e in evs if e.kind == "roll"]
    assert not any("sonar search by E1" in c for c in causes)
    assert any("sonar search by E2" in c for c in causes)
    assert any("radar search by E1" in c for c in causes)


def test_108_3_search_rolls_show_the_number_needed_and_none_is_rolled_without_a_chance():
    """108.3.1, 108.3.2 (the searches are required; their tables are gwasl's stand-ins): each
    search roll names the range and the number needed (sonar within 3 hexes: 7 or less; radar
    against a boat at 25 feet within 5: 6 or less), labelled as a stand-in, never with a rule
    number of its own.  A search with no chance (the boat beyond the table's ranges) is not
    rolled; its dice are passed over, so the rest of the turn rolls the same dice wherever the
    boat is (the escorts' view may not depend on it)."""
    base = put_ship(started(), "E2", "AK33", 3)
    near = put_sub(base, "AK30", 3, 25)
    far = put_sub(base, "A70", 3, 25)
    out = {}
    for name, st in (("near", near), ("far", far)):
        d = GameDice(5)
        evs = GAME.apply(phase(st, 3), R.Resolve(), d)
        out[name] = ([e for e in evs if e.kind == "roll" and " search by " in e.cause], d.position)
    causes = [e.cause for e in out["near"][0]]
    assert "sonar search by E2 (required each turn at search speed, 108.3.1) at 3 hexes: found on 7 or less " \
           "(gwasl's stand-in sonar table)" in causes
    assert "radar search by E1 (required each turn, 108.3.2) at 2 hexes: found on 6 or less (gwasl's stand-in radar table)" in causes
    assert out["far"][0] == [] and out["far"][1] == out["near"][1]


def test_105_4_12_the_depth_combat_table_is_rolled_before_every_depth_charge_attack():
    """105.4.12: a Depth Combat Table roll for each depth charge, K-gun and squid attack; a miss
    means no attack roll at all.  105.4.3: ahead-thrown weapons are resolved with the depth
    charges in the attack resolution phase."""
    st = only_escorts(started(), set())
    marks = (AttackMark("E1", hx("K10"), "dc", 2), AttackMark("E1", hx("K11"), "kgun", 1), AttackMark("E1", hx("K12"), "hedgehog", 1))
    st = put_sub(replace(st, attacks=marks, phase=3), "A70", 3, 100)
    _, evs = run(st, R.Resolve(), seed=11)
    dct = [e for e in evs if e.kind == "roll" and "Depth Combat Table" in e.cause]
    assert len(dct) == 2  # not for the hedgehog (contact fuse)
    resolved = [e for e in evs if isinstance(e, R.AttackResolved) and e.weapon != "hedgehog"]
    attacks = [e for e in evs if e.kind == "roll" and e.cause.startswith("attack by")]
    assert len(attacks) == sum(1 for r in resolved if r.band != "miss")


def test_a_game_with_no_scenario_makes_its_own_from_the_seed():
    """CONTRACTS 5: without a SOURCE, the patrol is chosen by a die from the seed."""
    st = GAME.setup(None, GameOptions())
    evs = GAME.begin(st, GameDice(4))
    assert isinstance(evs[1], R.PatrolChosen)
