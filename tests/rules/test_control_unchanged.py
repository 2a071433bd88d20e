"""Re-judging Control (A26.11) after an event that changes nothing gives back the same map:
a game re-judges it after every unit event, and copying every table each time was most
of the cost of replaying a long game (benchmarks/game.py)."""

from __future__ import annotations

from gwasl.model.hexgrid import Hex
from gwasl.rules.control import ControlMap, Location, Occupant

V2 = Hex.from_label("V2")
W2 = Hex.from_label("W2")


def test_a26_11_control_already_held_leaves_the_map_as_it_was():
    cm, changes = ControlMap().update([Occupant("a", "german", Location(V2, 0))], {})
    assert changes and cm.controller("hex", V2).side == "german"
    again, none = cm.update([Occupant("a", "german", Location(V2, 0))], {})
    assert none == [] and again is cm


def test_a26_11_a_gain_copies_only_what_it_changes():
    cm, _ = ControlMap().update([Occupant("a", "german", Location(V2, 0))], {})
    moved, changes = cm.update([Occupant("a", "german", Location(W2, 0))], {})
    assert [c.what for c in changes] == [Location(W2, 0).text, "hex W2"]
    assert moved.buildings is cm.buildings and moved.hexes is not cm.hexes
    assert moved.controller("hex", V2).side == "german"  # Control stays after leaving (A26.11)
    assert cm.controller("hex", W2) is None  # the old map is unchanged
