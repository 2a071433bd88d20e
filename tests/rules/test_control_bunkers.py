"""A26.132 with ASLGW 2.2: a pillbox hex, and a dugout hex (a dugout is a bunker in all
respects), is gained only with its pillbox Location (gwasl/rules/control.py)."""

from __future__ import annotations

from gwasl.model.hexgrid import Hex
from gwasl.rules.control import ControlMap, Location, Occupant

F3 = Hex.from_label("F3")
GROUND, DUGOUT = Location(F3, 0), Location(F3, 0, "dugout")
BUNKERS = {F3: (DUGOUT,)}


def _german_hex() -> ControlMap:
    return ControlMap.initial({"german": frozenset({F3})}, [GROUND, DUGOUT], {})


def test_a_squad_in_a_pillbox_hex_needs_the_pillbox_location_to_gain_the_hex_a26_132():
    """A26.132: "Control of a pillbox hex is gained by Controlling the pillbox Location and occupying
    the hex ... while the hex is devoid of armed enemy ground units"."""
    cm, changes = _german_hex().update([Occupant("B1", "british", GROUND)], {}, BUNKERS)
    assert cm.hexes[F3].side == "german" and cm.locations[DUGOUT].side == "german"
    assert cm.locations[GROUND].side == "british"  # the ground Location is gained (A26.11)
    assert [c.what for c in changes] == ["location F3 level 0"]
    # with the dugout gained (a unit in it occupies the hex too), the hex follows
    cm, changes = cm.update([Occupant("B1", "british", GROUND), Occupant("B2", "british", DUGOUT)], {}, BUNKERS)
    assert cm.hexes[F3].side == "british" and cm.locations[DUGOUT].side == "british"
    assert [c.rule for c in changes if c.what == "hex F3"] == ["A26.132"]


def test_the_pillbox_kept_after_its_occupant_leaves_lets_the_hex_be_gained_a26_1_a26_132():
    """A26.1: Control of the pillbox Location is kept until the enemy gains it, so a squad that
    later stands in the hex alone gains the hex."""
    cm, _ = _german_hex().update([Occupant("B2", "british", DUGOUT)], {}, BUNKERS)
    cm, _ = cm.update([], {}, BUNKERS)
    cm, _ = cm.update([Occupant("B1", "british", GROUND)], {}, BUNKERS)
    assert cm.hexes[F3].side == "british"


def test_an_armed_enemy_in_the_dugout_denies_the_hex_a26_11_a26_132():
    """A26.132: the hex must be devoid of armed enemy ground units; a unit in the dugout is in the hex."""
    cm, _ = _german_hex().update([Occupant("B1", "british", GROUND), Occupant("G1", "german", DUGOUT)], {}, BUNKERS)
    assert cm.hexes[F3].side == "german" and cm.locations[GROUND].side == "british"


def test_a_hex_without_a_pillbox_is_gained_as_before_a26_13():
    cm, changes = _german_hex().update([Occupant("B1", "british", GROUND)], {})
    assert cm.hexes[F3].side == "british" and [c.rule for c in changes if c.what == "hex F3"] == ["A26.13"]
