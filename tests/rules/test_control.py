"""Control (ASL A26.1-26.15), with the A26.15 worked example of building 22U3 step by step."""

from __future__ import annotations

from gwasl.model.hexgrid import Hex
from gwasl.rules.control import ControlMap, Location, Occupant, can_gain_control, denies_control

V2, V3, U3 = (Hex.from_label(x) for x in ("V2", "V3", "U3"))
BUILDING = {V2: "22U3", V3: "22U3", U3: "22U3"}
LOCS = [Location(h, lv) for h in (V2, V3, U3) for lv in (0, 1)]


def side(cm: ControlMap, kind: str, key) -> str | None:
    c = cm.controller(kind, key)  # type: ignore[arg-type]
    return c.side if c else None


def test_a26_15_worked_example_building_22u3():
    """A26.15 EX: every step of the text, with the same units and hexes."""
    cm = ControlMap.initial({"German": frozenset(BUILDING)}, LOCS, BUILDING)
    assert side(cm, "building", "22U3") == "German" and len(cm.locations) == 6 and len(cm.hexes) == 3
    r447 = Occupant("4-4-7", "Russian", Location(V2, 0))
    # the 4-4-7 enters the ground level of V2: building, hex V2 and that Location
    cm, ch = cm.update([r447], BUILDING)
    assert {c.what for c in ch} == {"building 22U3", "hex V2", "location V2 level 0"}
    # continues to the upper level of V2
    r447 = Occupant("4-4-7", "Russian", Location(V2, 1))
    cm, ch = cm.update([r447], BUILDING)
    assert [c.what for c in ch] == ["location V2 level 1"]
    # then the upper level of V3: the Location, not the hex (26.13)
    r447 = Occupant("4-4-7", "Russian", Location(V3, 1))
    cm, ch = cm.update([r447], BUILDING)
    assert [c.what for c in ch] == ["location V3 level 1"] and side(cm, "hex", V3) == "German"
    # broken by the 8-3-8: no effect on Control
    r447 = Occupant("4-4-7", "Russian", Location(V3, 1), good_order=False)
    cm, ch = cm.update([r447], BUILDING)
    assert ch == []
    # routs back to the upper level of V2
    r447 = Occupant("4-4-7", "Russian", Location(V2, 1), good_order=False)
    cm, ch = cm.update([r447], BUILDING)
    assert ch == []
    # the concealed 5-4-8 enters the ground level of V3: nothing new (already German); no building (the broken 4-4-7 is armed)
    g548 = Occupant("5-4-8", "German", Location(V3, 0), hidden=True)
    cm, ch = cm.update([r447, g548], BUILDING)
    assert ch == [] and side(cm, "building", "22U3") == "Russian"
    # continues to the ground level of V2: the Location (undeclared), not the hex
    g548 = Occupant("5-4-8", "German", Location(V2, 0), hidden=True)
    cm, ch = cm.update([r447, g548], BUILDING)
    assert [(c.what, c.hidden) for c in ch] == [("location V2 level 0", True)]
    assert side(cm, "hex", V2) == "Russian"
    # the Russian still believes he Controls that Location (A26.15: need not be declared)
    assert side(cm.as_known_by("Russian"), "location", Location(V2, 0)) == "Russian"
    assert side(cm.as_known_by("German"), "location", Location(V2, 0)) == "German"
    # the 4-4-7 is eliminated: the German gains the building and hex V2 at once
    cm, ch = cm.update([g548], BUILDING)
    assert {c.what for c in ch} == {"building 22U3", "hex V2"}
    end = cm.declared()
    assert side(end, "location", Location(V2, 1)) == "Russian" and side(end, "location", Location(V3, 1)) == "Russian"
    others = [loc for loc in LOCS if loc not in (Location(V2, 1), Location(V3, 1))]
    assert all(side(end, "location", loc) == "German" for loc in others)
    assert all(side(end, "hex", h) == "German" for h in (V2, V3, U3)) and side(end, "building", "22U3") == "German"


def test_initial_control_excludes_overlapping_setup_areas_a26_11():
    a, b, c = Hex.from_label("A1"), Hex.from_label("A2"), Hex.from_label("A3")
    cm = ControlMap.initial({"x": frozenset({a, b}), "y": frozenset({b, c})}, [Location(h) for h in (a, b, c)], {})
    assert side(cm, "hex", a) == "x" and side(cm, "hex", c) == "y" and cm.controller("hex", b) is None


def test_who_gains_and_who_denies_a26_11_a26_15():
    loc = Location(V2, 0)
    assert can_gain_control(Occupant("s", "x", loc))
    assert can_gain_control(Occupant("s", "x", loc, hidden=True))  # concealed real units may
    for no in (dict(dummy=True), dict(good_order=False), dict(armed=False), dict(mmc=False), dict(bypass=True)):
        assert not can_gain_control(Occupant("s", "x", loc, **no))
    assert denies_control(Occupant("s", "x", loc, good_order=False))  # broken but armed
    assert denies_control(Occupant("l", "x", loc, mmc=False))  # any armed ground unit
    assert not denies_control(Occupant("d", "x", loc, dummy=True))
    assert not denies_control(Occupant("u", "x", Location(V2, -1)))  # subterranean


def test_a_dummy_neither_gains_nor_denies_a26_15():
    cm = ControlMap()
    cm, ch = cm.update([Occupant("d", "x", Location(V2, 0), dummy=True), Occupant("s", "y", Location(V2, 0))], {})
    assert [c.side for c in ch] == ["y", "y"]


def test_control_is_kept_until_the_opponent_gains_it_a26_1():
    cm, _ = ControlMap().update([Occupant("s", "x", Location(V2, 0))], {})
    cm, ch = cm.update([], {})
    assert ch == [] and side(cm, "hex", V2) == "x"


def test_rooftop_never_gains_hex_or_building_a26_13_a26_14():
    roof = Location(V2, 2, rooftop=True)
    _, ch = ControlMap().update([Occupant("s", "x", roof)], BUILDING)
    assert [c.what for c in ch] == ["location V2 level 2 rooftop"]
