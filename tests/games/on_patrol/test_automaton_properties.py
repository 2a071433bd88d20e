"""Harmon's automaton under hypothesis: whatever the escorts, target, mode and torpedoes, every
order is a legal move (one pivot per hex, 105.3.2 a; speed within two hexes of the last,
105.3.5), keeps clear of ships, depth-charged hexes of escorts that moved before (105.4.8,
105.4.2) and torpedoes (108.2.1), and attacks only assault-zone hexes in radial movement
(105.4.1, 105.4.11) with no more weapons than the escort carries (105.4.6)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.on_patrol.op_support import only_escorts, started
from gwasl.games.on_patrol.automaton import escort_orders, load_of
from gwasl.games.on_patrol.geometry import Pose
from gwasl.games.on_patrol.state import EscortView, Force, Torpedo, hx
from gwasl.games.on_patrol.tables import tables
from gwasl.model.hexgrid import Hex

T = tables()
BASE = only_escorts(started("night-convoy"), {"E1", "E2", "E3", "E4", "E5"})
BASE = replace(BASE, ships=tuple(s for s in BASE.ships if s.kind == "escort"))  # escorts alone on the board

spots = st.tuples(st.integers(10, 60), st.integers(10, 60), st.integers(0, 5), st.integers(0, 6))


@settings(max_examples=60)
@given(st.lists(spots, min_size=5, max_size=5, unique_by=lambda x: (x[0], x[1])), st.integers(20, 50), st.integers(20, 50),
       st.integers(0, 5), st.sampled_from([2, 3, 4, 5, 6]), st.lists(spots, max_size=2))
def test_every_order_is_legal_and_keeps_clear(escorts, tq, trow, facing, mode, torps):
    ships = []
    for s, (col, row, heading, speed) in zip(BASE.ships, escorts, strict=True):
        ships.append(replace(s, pose=Pose(Hex.from_offset(col, row), heading), speed=min(speed, s.max_speed), in_formation=False))
    hexes = [h for s in ships for h in s.hexes()]
    if len(hexes) != len(set(hexes)):
        return  # two counters on one hex: not a position the game can reach
    target = Hex.from_offset(tq, trow)
    tps = tuple(Torpedo(f"T{i}", "U1", "g7e", Pose(Hex.from_offset(c, r), h), 5, 50) for i, (c, r, h, _) in enumerate(torps))
    ids = tuple(s.id for s in ships)
    force = Force("U1", mode, target, facing, target + Hex(0, 1), ids, ids[0] if mode == 5 else "")
    state = replace(BASE, ships=tuple(ships), forces=(force,), torpedoes=tps, phase=2, convoy_paths=frozenset())
    orders = escort_orders(EscortView.of(state), T)
    assert len(orders.plans) == 5
    event(f"drops: {sum(len(p.drops) for p in orders.plans) > 0}")
    where = {s.id: s.pose for s in ships}
    closed = {tp.pose.bow for tp in tps}
    in_path = {h for tp in tps for h in tp.path()}
    for plan in orders.plans:
        me = next(s for s in ships if s.id == plan.ship)
        others = {h for sid, p in where.items() if sid != me.id for h in p.hexes()}
        p = me.pose
        assert plan.speed == len(plan.steps) <= min(me.max_speed, me.speed + 2)
        for turn, bow, heading in plan.steps:
            assert turn in (-1, 0, 1)
            p = p.step(turn)
            assert (p.bow, p.heading) == (hx(bow), heading)
            assert p.bow not in others and p.bow not in closed
        if plan.steps:
            assert p.bow not in in_path and p.stern not in in_path
        where[me.id] = p
        load = load_of(me, T, state.year)
        used: dict[str, int] = {}
        for d in plan.drops:
            assert plan.movement == "radial" and mode in (2, 3, 4)
            assert hx(d.hex).distance(target) <= 2
            used[d.weapon] = used.get(d.weapon, 0) + d.count
            if d.weapon in ("dc", "kgun"):
                closed.add(hx(d.hex))
        assert all(used[w] <= load[w] for w in used)
