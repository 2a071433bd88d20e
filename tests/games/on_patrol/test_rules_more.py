"""More of Harmon's rules in play: the rules package (101), placement (102.1, 103.2, 103.3),
escorts alone (103.2.5, 104.2.4), capital ships (104.4), radial movement's beginning, speed,
Williamson turns and blocking (105.1-105.4), diameters (106), the convoy and torpedoes (108)."""

from __future__ import annotations

from dataclasses import replace

from games.on_patrol.op_support import GAME, only_escorts, pose, put_ship, put_sub, run, started
from gwasl.engine.game import GameOptions
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.automaton import _forbidden, escort_orders
from gwasl.games.on_patrol.formation import along2
from gwasl.games.on_patrol.movement import radial_steer
from gwasl.games.on_patrol.scenario import load_bundled
from gwasl.games.on_patrol.state import AttackMark, EscortView, Force, Torpedo, hx
from gwasl.games.on_patrol.tables import tables
from gwasl.model.hexgrid import Hex

T = tables()
CAPITALS = {"convoy": {"speed": "slow-1", "merchants": [{"id": "M1", "class": "cargo"}, {"id": "M2", "class": "cargo"},
                                                      {"id": "M3", "class": "tanker"}],
                       "capital_ships": [{"id": "C1", "class": "carrier"}, {"id": "C2", "class": "cruiser"},
                                         {"id": "C3", "class": "battleship"}]},
            "escorts": [{"id": "E1", "class": "gleaves", "nation": "us"}, {"id": "E2", "class": "edsall", "nation": "us"}]}


def test_101_2_one_package_the_advanced_rows_only_when_chosen_and_101_3_own_scenarios():
    """101.2: the rules go as one package; the Fleet Movement Table's asterisked (advanced) rows
    are used only when the scenario picks them.  101.3: a scenario of the player's own design
    plays like a bundled one.  101.1: the base game's rules (depth, movement, torpedoes) hold."""
    hunt = dict(load_bundled("hunter-group"))
    assert started("hunter-group").convoy == "fast-2"
    assert started("hunter-group", advanced=True).convoy == "fast-3"
    own = started(**CAPITALS, title="my own convoy")
    assert own.title == "my own convoy" and len(own.ships) == 8 and hunt["escorts"]
    st = GAME.reduce(replace(own, phase=8), R.SubTurnBegan())
    kinds = {a.kind for a in GAME.legal_actions(st, GAME.viewer(st, "submarine"))}
    assert {"dive", "move", "end_phase"} <= kinds


def test_102_1_and_103_2_1_103_2_3_escorts_take_the_stations_by_vp():
    """102.1, 103.2.1, 103.2.3: escorts are placed on the station chart after the convoy, the
    highest VP in station A, the next in B, and so on."""
    st = GAME.setup(load_bundled("night-convoy"), GameOptions())
    from gwasl.engine.dice import GameDice

    placed = [e for e in GAME.begin(st, GameDice(1)) if isinstance(e, R.ShipPlaced)]
    convoy_first = [e.ship[0] for e in placed]
    assert convoy_first.index("E") > convoy_first.index("M")  # after the merchants
    stations = {e.ship: e.station for e in placed if e.ship.startswith("E")}
    by_vp = sorted((s for s in st.ships if s.kind == "escort"), key=lambda s: (-s.vp, s.id))
    assert stations[by_vp[0].id] == "station A"  # five escorts: no B (odd)
    assert stations[by_vp[1].id] == "station C-left"


def test_103_2_4_station_b_is_measured_from_the_centre_columns_own_trailing_ship():
    """103.2.4: B stands six hexes behind the centre column's trailing ship even where the outer
    columns reach further back (it may then lie inside the convoy box): in formation 9 the
    single middle ship puts B ahead of F, which stands behind the outer columns."""
    src = {"convoy": {"speed": "slow-1", "merchants": [{"id": f"M{i}", "class": "cargo"} for i in range(1, 6)]},
           "escorts": [{"id": f"E{i}", "class": "flower"} for i in range(1, 11)]}
    st = GAME.setup(src | {"year": 1942, "submarines": load_bundled("day-convoy")["submarines"]}, GameOptions())
    from gwasl.engine.dice import GameDice

    placed = {e.ship: e for e in GAME.begin(st, GameDice(1)) if isinstance(e, R.ShipPlaced)}
    by_station = {e.station: hx(e.bow) for e in placed.values()}
    assert {e.station for e in placed.values() if e.ship.startswith("M")} >= {"column 2 row 1"}
    middle = by_station["column 2 row 1"]
    h = next(e.heading for e in placed.values())
    assert along2(by_station["station B"], middle, h) == -2 * 7  # the stern's five-hex gap
    assert along2(by_station["station B"], by_station["station F-left"], h) > 0


def test_103_2_5_and_104_2_4_escorts_alone_stand_where_the_scenario_puts_them_and_move_as_a_fast_convoy():
    """103.2.5: escorts alone are placed by the scenario; 104.2.4: in mode 1 they move on the
    Fleet Movement Table's Fast Convoy row, one die for all of them.  (The bundled patrol states
    contact lost, so its escorts begin in mode 6; here, none stated: mode 1.)"""
    st = started("hunter-group", contact=False)
    src = load_bundled("hunter-group")
    assert {e["id"]: st.ship(e["id"]).pose.bow.label for e in src["escorts"]} == {e["id"]: e["bow"] for e in src["escorts"]}
    _st2, evs = run(replace(st, phase=1), R.ConvoyMove())
    order = next(e for e in evs if isinstance(e, R.FleetOrderSet))
    assert order.convoy == "fast-2" and order.code in T.fleet_movement["fast-2"][2]
    moves = [e for e in evs if isinstance(e, R.ShipMoved)]
    assert len(moves) == 4 and len({(len(m.path), m.path[-1][1]) for m in moves}) == 1


def test_104_2_2_a_scenario_that_states_contact_lost_starts_in_mode_6_around_the_boat():
    """104.2.2 ("Unless the scenario actually states that contact has been made ... the escorts
    will begin play in Mode 1"), 104.1.3 (a contact missed: the marker inverted), 104.2.1 mode 6
    (contact lost: diameter movement at search speed): the bundled hunter group states contact
    lost where the boat lies, so an inverted marker stands on its start and the escorts begin
    by searching around it (106.2.4: a diameter of 12, 6 for those already within 12)."""
    st = started("hunter-group")
    sub = st.subs[0]
    m = st.marker("U1")
    assert m is not None and m.kind == "inverted" and m.pose == sub.pose
    assert [f.mode for f in st.forces] == [6] and set(st.forces[0].escorts) == {"E1", "E2", "E3", "E4"}
    src = load_bundled("hunter-group")
    assert src["contact"] == "lost" and sub.pose.bow == hx(src["submarines"][0]["bow"])
    _st2, evs = run(replace(st, phase=2), GAME.legal_actions(replace(st, phase=2), GAME.viewer(st, "escorts"))[0])
    moves = [e for e in evs if isinstance(e, R.ShipMoved)]
    assert len(moves) == 4 and all(e.mode == 6 and e.movement == "diameter" for e in moves)


def test_103_2_2_escorts_keep_station_until_torpedoes_or_a_sighting():
    """103.2.2, 104.2.3 a: in mode 1 escorts move with the convoy; once the Escort Action Table
    gives a mode from a marker they leave their stations (104.2.3 b, c)."""
    st = started()
    assert all(s.in_formation for s in st.ships if s.kind == "escort")
    st = GAME.reduce(st, R.MarkerSet("U1", "torpedo", "AK40", 0, False, "test"))
    st = GAME.reduce(st, GAME._mode_set(st, "test"))
    assert st.forces[0].mode == 2
    assert not any(s.in_formation for s in st.ships if s.kind == "escort")


def test_103_3_1_103_3_3_capital_ships_lead_the_columns_by_vp_before_the_merchants():
    """103.3.1, 103.3.3: capital ships sail in the convoy's columns, placed by VP before the
    merchants; the highest leads the centre column (103.3.2)."""
    st = started(**CAPITALS)
    assert st.formation == 7  # six ships in columns, capital ships included
    leads = sorted((s for s in st.ships if s.kind != "escort"), key=lambda s: -along2(s.pose.bow, Hex(0, 0), s.pose.heading))[:3]
    assert {s.id for s in leads} == {"C1", "C2", "C3"}
    carrier, others = st.ship("C1"), [st.ship("C2"), st.ship("C3")]
    middle = sorted([carrier, *others], key=lambda s: s.pose.bow.q)[1]
    assert middle.id == "C1"  # the carrier (35 VP) in the centre


def test_104_1_1_the_submarine_moves_only_when_its_commander_says():
    """104.1.1: the submarine moves by the player's choice, in phase 8; the escorts' phases list
    no submarine action."""
    st = started()
    assert GAME.status(replace(st, phase=2)).side == "escorts"
    assert not [a for a in GAME.legal_actions(replace(st, phase=2), GAME.viewer(st, "player")) if hasattr(a, "sub")]
    st8 = GAME.reduce(replace(st, phase=8), R.SubTurnBegan())
    before = st8.sub("U1").pose
    st8, _ = run(st8, R.EndPhase())
    assert st8.sub("U1").pose == before  # nothing moved it but an order


def test_104_4_1_104_4_5_and_108_1_4_capital_ships_move_with_the_convoy_and_avoid_stopped_ships():
    """104.4.1, 108.1.4: capital ships move in unison with the merchants (one die), so no two
    convoy ships collide; 104.4.5: they keep clear of a ship dead in the water as merchants do."""
    st = started(**CAPITALS)
    after, evs = run(replace(st, phase=1), R.ConvoyMove(), seed=2)
    shifts = {(hx(e.path[-1][0]) - st.ship(e.ship).pose.bow, e.path[-1][1]) for e in evs if isinstance(e, R.ShipMoved) and e.path}
    assert len(shifts) == 1
    hexes = [h for s in after.ships for h in s.hexes()]
    assert len(hexes) == len(set(hexes))
    lead = st.ship("C1")
    step = lead.pose.ahead - lead.pose.bow
    follower = next(s for s in st.ships if s.kind != "escort" and s.pose.bow == lead.pose.bow - Hex(4 * step.q, 4 * step.r))
    st2 = replace(st.with_ship(replace(lead, status="diw", speed=0)), convoy="fast-2")
    for seed in range(12):
        a2, _ = run(replace(st2, phase=1), R.ConvoyMove(), seed=seed)
        assert min(a2.ship(follower.id).pose.bow.distance(h) for h in a2.ship("C1").hexes()) >= 3


def test_104_4_2_104_4_3_capital_ships_that_leave_in_emergency_do_not_return():
    """104.4.3: a capital ship that leaves the map is out of play for good; 104.4.4's names are
    the ships' ids and names in the view."""
    st = started(**CAPITALS)
    st = GAME.reduce(st, R.ShipLeft("C2"))
    assert st.ship("C2").status == "left" and not st.ship("C2").afloat
    v = GAME.view(st, GAME.viewer(st, "player"))
    assert "C2" not in {s["id"] for s in v["ships"]}
    assert {s["name"] for s in v["ships"] if s["id"] == "C1"} == {"Aircraft carrier"}


def test_108_2_2_the_convoy_ignores_torpedoes_and_the_first_firing_starts_capital_emergency():
    """108.2.2: merchants and capital ships follow the Fleet Movement Table whatever torpedoes are
    about; the first torpedoes fired put capital ships without merchants into emergency (104.4.2)."""
    st = started(**CAPITALS)
    m = st.ship("M1")
    tp = Torpedo("T1", "U1", "g7e", pose((m.pose.ahead).label, 3), 5, 50)
    with_tp = replace(st, torpedoes=(tp,), phase=1)
    a, _ea = run(with_tp, R.ConvoyMove(), seed=4)
    b, _eb = run(replace(st, phase=1), R.ConvoyMove(), seed=4)
    assert a.ship("M1").pose == b.ship("M1").pose
    alone = started(**{**CAPITALS, "convoy": {"speed": "fast-2", "capital_ships": CAPITALS["convoy"]["capital_ships"]}})
    alone = replace(alone, first_launch_turn=alone.turn, phase=10)
    alone, evs = run(alone, R.EndTurn())
    assert any(isinstance(e, R.CapitalEmergency) for e in evs)


def test_105_1_1_radial_movement_is_automatic_one_order_for_the_escorts():
    """105.1.1: radial movement is mandatory: the escorts' phase 2 has exactly one legal action."""
    st = GAME.reduce(started(), R.MarkerSet("U1", "escort", "AK40", 0, False, "test"))
    st = replace(GAME.reduce(st, GAME._mode_set(st, "test")), phase=2)
    legal = GAME.legal_actions(st, GAME.viewer(st, "escorts"))
    assert len(legal) == 1 and isinstance(legal[0], R.EscortOrders) and legal[0].plans


def test_105_3_1_radial_movement_begins_when_the_table_is_consulted_at_the_end_of_the_turn():
    """105.3.1: a sighting in the middle of a turn changes the escorts' mode only when the Escort
    Action Table is consulted in phase 10."""
    st = GAME.reduce(started(), R.MarkerSet("U1", "escort", "AK40", 0, False, "test"))
    assert st.forces == ()  # still mode 1
    st, _ = run(replace(st, phase=10), R.EndTurn())
    assert st.forces and st.forces[0].mode == 3


def test_105_3_3_and_105_4_9_williamson_turn_after_the_pass_not_before():
    """105.4.9: an escort leaves the assault zone on the course it entered it; once its stern is
    out it makes a Williamson turn (105.3.3: on a radial facing away) and attacks again."""
    t = Hex(0, 0)
    inside = radial_steer(pose_at(t, 0, 2, 0), t)  # bow 2 north of the target, heading north: stern in the zone
    assert inside.turn == 0 and not inside.maneuver
    out = radial_steer(pose_at(t, 0, 4, 0), t)  # stern three hexes out
    assert "Williamson" in out.why and len(out.maneuver) == 5


def pose_at(t: Hex, d: int, k: int, heading: int):
    from gwasl.games.on_patrol.geometry import DIRS, Pose

    return Pose(Hex(t.q + DIRS[d].q * k, t.r + DIRS[d].r * k), heading)


def test_105_3_4_a_new_target_hex_drops_the_williamson_turn_in_hand():
    """105.3.4: when the target hex changes, each escort corrects its movement by a new vector."""
    st = started()
    st = GAME.reduce(st, R.MarkerSet("U1", "escort", "AK40", 0, False, "test"))
    st = GAME.reduce(st, GAME._mode_set(st, "test"))
    st = st.with_ship(replace(st.ship("E1"), maneuver=(0, -1, -1)))
    same = GAME.reduce(st, GAME._mode_set(st, "test"))
    assert same.ship("E1").maneuver == (0, -1, -1)
    moved = GAME.reduce(st, R.MarkerSet("U1", "escort", "AC30", 0, False, "test"))
    moved = GAME.reduce(moved, GAME._mode_set(moved, "test"))
    assert moved.ship("E1").maneuver == ()


def test_105_3_5_speed_rises_two_hexes_a_turn_and_search_speed_is_three():
    """105.3.5 (8.2.1, 31.1): escorts speed up to full speed two hexes a turn; search speed is 3.
    106.2.3: a diameter runs at search speed, or at the slowest ship's full speed."""
    st = only_escorts(started(), {"E1"})
    st = put_ship(st, "E1", "AK20", 3, speed=1, in_formation=False)
    for mode, speed in ((3, 3), (2, 3), (6, 3)):
        f = Force("U1", mode, hx("AK50"), 0, hx("AK51"), ("E1",))
        plan = escort_orders(EscortView.of(replace(st, forces=(f,), phase=2, convoy_paths=frozenset())), T).plans[0]
        assert plan.speed == speed
    fast = st.with_ship(replace(st.ship("E1"), speed=5))
    f = Force("U1", 2, hx("AK50"), 0, hx("AK51"), ("E1",))
    plan = escort_orders(EscortView.of(replace(fast, forces=(f,), phase=2, convoy_paths=frozenset())), T).plans[0]
    assert plan.speed == 3  # down to search speed: 5 -> 3 in one turn (two hexes)
    f5 = Force("U1", 4, hx("AK50"), 0, hx("AK51"), ("E1",))
    plan = escort_orders(EscortView.of(replace(fast, forces=(f5,), phase=2, convoy_paths=frozenset())), T).plans[0]
    assert plan.speed == T.surface["v-and-w"].max_speed


def test_105_4_2_and_105_4_8_depth_charged_hexes_and_moved_escorts_block_hedgehog_hexes_do_not():
    """105.4.2: escorts may cross hexes under hedgehog attack, never those under depth charge or
    K-gun attack; 105.4.8: nor hexes of escorts that moved before them."""
    st = started()
    marks = (AttackMark("E1", hx("K10"), "dc", 2), AttackMark("E1", hx("K11"), "kgun", 1), AttackMark("E1", hx("K12"), "hedgehog", 1))
    bad = _forbidden(EscortView.of(replace(st, attacks=marks)))
    assert hx("K10") in bad and hx("K11") in bad and hx("K12") not in bad
    st = only_escorts(st, {"E1", "E2"})
    st = put_ship(st, "E1", "AK36", 3, speed=3, in_formation=False)
    st = put_ship(st, "E2", "AK30", 3, speed=3, in_formation=False)
    f = Force("U1", 3, hx("AK40"), 3, hx("AK39"), ("E1", "E2"))
    orders = escort_orders(EscortView.of(replace(st, forces=(f,), phase=2, convoy_paths=frozenset())), T)
    first, second = orders.plans
    closed = {hx(b) for _, b, _ in first.steps} | {hx(d.hex) for d in first.drops if d.weapon in ("dc", "kgun")}
    end = hx(first.steps[-1][1]) if first.steps else st.ship(first.ship).pose.bow
    closed |= {end}
    assert not {hx(b) for _, b, _ in second.steps} & ({end} | {hx(d.hex) for d in first.drops if d.weapon in ("dc", "kgun")})


def test_105_4_7_moves_and_attacks_are_final_as_ordered():
    """105.4.7: the escorts' moves and attacks are carried out exactly as decided, never retaken."""
    st = GAME.reduce(started(), R.MarkerSet("U1", "escort", "AK40", 0, False, "test"))
    st = replace(GAME.reduce(st, GAME._mode_set(st, "test")), phase=2)
    orders = GAME.legal_actions(st, GAME.viewer(st, "escorts"))[0]
    _after, evs = run(st, orders)
    for plan in orders.plans:
        moved = next(e for e in evs if isinstance(e, R.ShipMoved) and e.ship == plan.ship)
        assert [b for b, _ in moved.path] == [b for _, b, _ in plan.steps]
    drops = [(e.escort, e.hex, e.weapon, e.count) for e in evs if isinstance(e, R.ChargesDropped)]
    assert drops == [(p.ship, d.hex, d.weapon, d.count) for p in orders.plans for d in p.drops]


def test_106_1_1_and_106_2_1_modes_5_and_6_follow_diameters():
    """106.1.1, 106.2.1: the Escort Action Table's modes 5 and 6 send escorts round the target on a
    ring of hexes at one distance; modes 2-4 send them in."""
    assert {m: T.escort_action[m]["movement"] for m in range(1, 8)} == {
        1: "formation", 2: "radial", 3: "radial", 4: "radial", 5: "diameter", 6: "diameter", 7: "prolonged"}
    st = only_escorts(started(), {"E1"})
    st = put_ship(st, "E1", "AK20", 3, speed=3, in_formation=False)
    f = Force("U1", 6, hx("AK50"), 0, hx("AK51"), ("E1",))
    plan = escort_orders(EscortView.of(replace(st, forces=(f,), phase=2, convoy_paths=frozenset())), T).plans[0]
    assert plan.movement == "diameter" and not plan.drops


def test_108_1_2_and_108_1_3_pivot_hexes_of_merchants_and_capital_ships_are_closed():
    """108.1.2, 108.1.3: escorts may not enter the hexes beside bow and stern into which a
    merchant's or capital ship's stern might pivot, nor a capital ship's path."""
    st = started(**CAPITALS)
    after, _ = run(replace(st, phase=1), R.ConvoyMove())
    for sid in ("M1", "C1"):
        s = after.ship(sid)
        assert set(s.pose.beam_hexes()) <= after.convoy_paths and set(s.hexes()) <= after.convoy_paths


def test_102_3_torpedoes_are_on_the_board_for_everyone():
    """102.3: no hidden torpedo movement: the escorts' view and the board show every torpedo."""
    st = replace(started(), torpedoes=(Torpedo("T1", "U1", "g7e", pose("AK30", 6), 5, 50),))
    assert EscortView.of(st).torpedoes
    assert GAME.view(st, GAME.viewer(st, "escorts"))["torpedoes"][0]["hex"] == "AK30"


def test_sub_moves_leave_the_map_to_end_its_patrol():
    """102.2 (21.2 amended): the boat's bow is logged every move; a boat that leaves the map ends its patrol."""
    st = GAME.reduce(put_sub(replace(started(), phase=8), "A2", 6, 50), R.SubTurnBegan())
    st, evs = run(st, R.Move("U1", 0))
    assert [(e.bow, e.hexes) for e in evs if isinstance(e, R.SubMoved)] == [("A1", 1)]
    st, _ = run(st, R.Move("U1", 0))
    assert st.sub("U1").status == "escaped"
