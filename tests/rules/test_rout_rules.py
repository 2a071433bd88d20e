"""gwasl.rules.rout on its own (A10.5, A10.51, A10.52): the routing MF, refuges a routing
unit may ignore, Known enemy units broken or not, and the words of a refused destination
(issue 24 item 1)."""

from __future__ import annotations

import datetime

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import HexData, MapData, Nationality, Position, Scenario, Side, Terrain, Unit, UnitKind
from gwasl.rules.rout import Threat, rout_destinations, rout_mf, why_not_destination

H = Hex.from_label


def scen(hexes: dict[str, Terrain]) -> Scenario:
    return Scenario("t", datetime.date(1916, 7, 1), MapData(10, 10, hexes={H(k): HexData(v) for k, v in hexes.items()}),
                    {"a": Side("a", Nationality.GERMAN), "b": Side("b", Nationality.FRENCH)})


def broken(at: str) -> Unit:
    return Unit("u", "a", UnitKind.SQUAD, H(at), broken=True)


def test_a_routing_unit_has_six_mf_a10_5():
    assert rout_mf() == 6


def test_a_refuge_no_farther_from_a_known_enemy_than_the_start_may_be_ignored_a10_51():
    """A10.51: the unit starts in D4, 3 hexes from the Known enemy in D1; the woods of F3 are
    3 hexes from it too (no farther): the unit may ignore them and routs on to the woods of
    D7, though F3 is nearer in MF."""
    s = scen({"F3": Terrain.WOODS, "D7": Terrain.WOODS})
    u = broken("D4")
    enemy = [Threat(H("D1"), Position.GROUND, 4)]
    assert H("F3").distance(H("D1")) == H("D4").distance(H("D1")) == 3
    full = [d for d in rout_destinations(s, u, enemy, 6) if not d.low_crawl]
    assert {d.hex.label for d in full} == {"D7"}


def test_a_broken_known_enemy_is_never_approached_and_the_refusal_says_so_a10_51():
    """A10.51: a broken enemy unit (not a threat: it does not fire) is still a Known enemy
    unit: no rout destination is ADJACENT to it nor closer to it than the start."""
    s = scen({"D6": Terrain.WOODS, "B4": Terrain.WOODS})
    u = broken("D4")
    threats = [Threat(H("D2"), Position.GROUND, 4)]
    known = [(H("D2"), Position.GROUND), (H("D7"), Position.GROUND)]  # D7: a broken enemy
    dests = rout_destinations(s, u, threats, 6, known)
    assert dests and "D6" not in {d.hex.label for d in dests}
    for d in dests:
        assert all(h.distance(H("D7")) >= H("D4").distance(H("D7")) and h.distance(H("D7")) > 1 for h, _ in d.path)
    why = why_not_destination(s, u, threats, 6, H("D6"), Position.GROUND, False, known)
    assert "A10.51" in why and ("closer" in why or "ADJACENT" in why)
