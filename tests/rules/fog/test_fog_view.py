"""view(state, viewer): what each side may see (issue 5, deliverable 7; O'Leary 2-4.6)."""

from __future__ import annotations

import pytest

from gwasl.model.phases import Phase
from gwasl.model.scenario import Position
from gwasl.model.scenario_io import load_scenario
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import Seen, SeenKind, plan_hip_shift, plan_minefield_shift
from gwasl.rules.fog.state import FogState
from gwasl.rules.fog.view import ViewError, view
from gwasl.rules.fog.words import line, seen_line
from testsupport import EXAMPLE_PATH

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


def bois():
    return FogState.from_scenario(load_scenario(EXAMPLE_PATH))


def test_enemy_sees_question_mark_stacks_with_counts_and_nothing_hidden():
    """O'Leary 2.1, 3.1: the Germans see four French "?" stacks with their counter counts, no
    HIP unit, no dummy HIP, and cannot tell dummies from potential dummy stacks."""
    v = view(bois(), "german")
    assert [(c.hex.label, c.counters) for c in v.concealed_stacks] == [("F4", 3), ("G6", 2), ("H3", 2), ("I6", 2)]
    assert all(c.dummy is None and c.potential_dummy is None and c.unit_ids is None for c in v.concealed_stacks)
    assert {u.side for u in v.units} == {"german"}
    assert {u.id for u in v.scenario.units} == {u.id for u in v.units}
    assert v.own_hidden.stacks == () and v.own_hidden.hip_units == () and v.own_hidden.dummy_hip == ()
    # The French platoon's leader is HIP: its id does not leak through the formation list.
    assert all(f.id != "F1" for f in v.scenario.formations)


def test_owner_sees_its_whole_hidden_layer():
    """O'Leary 2.1, 3.1: the French see their potential dummy stacks, dummy stacks, HIP units and dummy HIP counters."""
    v = view(bois(), "french")
    assert {u.id for u in v.units} >= {"F1-L", "F1-1", "F-MG"}
    assert [s.hex.label for s in v.own_hidden.dummy_stacks] == ["F4", "H3"]
    assert [s.unit_ids for s in v.own_hidden.potential_dummy_stacks] == [("F1-1",), ("F1-3",)]
    assert v.own_hidden.hip_units == ("F-MG", "F-MG-W", "F1-2", "F1-L")
    assert [d.hex.label for d in v.own_hidden.dummy_hip] == ["J6", "K7"]
    assert v.concealed_stacks == ()  # no German "?" stacks in this scenario


def test_omniscient_sees_everything_with_dummies_told_apart():
    """O'Leary 2.1: the designer's omniscient view tells dummy stacks from potential dummy stacks."""
    v = view(bois(), "omniscient")
    assert {c.hex.label: c.dummy for c in v.concealed_stacks} == {"F4": True, "G6": False, "H3": True, "I6": False}
    assert len(v.units) == len(bois().scenario.units)


def test_unknown_viewer_is_refused():
    """CONTRACTS 4 (VIEWER): a side id of the file or 'omniscient'."""
    with pytest.raises(ViewError, match="omniscient"):
        view(bois(), "belgian")


def _hidden_stuff(kit):
    s = kit.build(units=[ENEMY, {"id": "p", "side": "french", "kind": "squad", "class": "first_line", "hex": "C3",
                                 "hidden": "potential_dummy", "in": "foxhole"}],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  forts=[{"kind": "foxhole", "hexes": ["C3"], "owner": "french", "hidden": True},
                         {"kind": "pillbox", "hexes": ["F5"], "owner": "french", "hidden": True},
                         {"kind": "minefield", "hexes": ["H2"], "owner": "french", "hidden": True, "ap": 6},
                         {"kind": "minefield", "hexes": ["H4"], "owner": "french", "hidden": True, "ap": 3},
                         {"kind": "minefield", "hexes": ["J2"], "owner": "french", "ap": 4},
                         {"kind": "wire", "hexes": ["B2"]}])
    return kit.at(s, "german", Phase.MPh)[0]


def test_hidden_fortifications_and_their_positions_stay_hidden(kit):
    """O'Leary 4: the enemy sees no hidden fortification, nor a "?" stack's position inside one."""
    st = _hidden_stuff(kit)
    g = view(st, "german")
    assert [(f.kind.value, f.hidden) for f in g.fortifications] == [("wire", False)]
    assert g.concealed_stacks[0].position is Position.GROUND
    f = view(st, "french")
    assert {(x.kind.value, x.hidden) for x in f.fortifications} == {("wire", False), ("foxhole", True), ("pillbox", True)}
    assert f.own_hidden.stacks[0].position is Position.FOXHOLE


def test_minefield_strength_only_when_revealed(kit):
    """O'Leary 4.6.1-4.6.2: hidden minefields are invisible to the enemy, known ones show no
    strength, and both strengths of a shift on entry become public."""
    st = _hidden_stuff(kit)
    g = view(st, "german")
    assert [(m.hex.label, m.ap, m.at) for m in g.minefields] == [("J2", None, None)]
    assert {(m.hex.label, m.ap) for m in view(st, "french").minefields} == {("H2", 6), ("H4", 3), ("J2", 4)}
    env = kit.env()
    m, o = st.minefields_at(kit.hx("H2"))[0].id, st.minefields_at(kit.hx("H4"))[0].id
    r = resolve_shift(st, plan_minefield_shift(st, m, o, env), ScriptedDice([2, 2]), env)
    g2 = view(r.state, "german")
    assert {(x.hex.label, x.ap, x.at) for x in g2.minefields} == {("H2", 3, 0), ("H4", 6, 0), ("J2", None, None)}
    assert {(f.what, f.hex.label, f.ap, f.at) for f in r.public} == {(SeenKind.MINEFIELD_REVEALED, "H2", 3, 0),
                                                                      (SeenKind.MINEFIELD_REVEALED, "H4", 6, 0)}
    assert "minefield at H4 revealed: 6 AP, 0 AT (O'Leary 4.6.2)" in (line(r, "german") or "")


def test_log_lines_are_rendered_per_viewer(kit):
    """O'Leary 2.5: a successful HIP shift is invisible to the enemy; an 11-12 that strips HIP shows only its visible consequence."""
    s = kit.build(units=[ENEMY, {"id": "h", "side": "french", "kind": "squad", "class": "first_line", "hex": "C3", "hidden": "hip"}],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  hexes={"C3": {"terrain": "woods"}, "F5": {"terrain": "woods"}})
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env([])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk)
    ok = resolve_shift(st, plan, ScriptedDice([2, 2]), env, clock=clk)
    assert line(ok, "german") is None and line(ok, "french") is not None
    bad = resolve_shift(st, plan, ScriptedDice([6, 6]), env, clock=clk)  # 12 -1 (woods) -1 (both HIP) = 10: disallowed
    assert line(bad, "german") is None
    worse = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), kit.env(["F5"]), clock=clk),
                          ScriptedDice([6, 6]), kit.env(["F5"]), clock=clk)  # 12 -1 +1 (LOS) -1 = 11
    (fact,) = worse.public
    assert fact == Seen(SeenKind.STACK_APPEARS, kit.hx("C3"), counters=2)  # no unit id: "h" stays hidden
    assert line(worse, "german") == seen_line(fact) == "a concealed stack of 2 counters appears at C3 (O'Leary 2.5)"
    assert view(worse.state, "german").concealed_stacks[0].hex == kit.hx("C3")


def test_sorting_does_not_depend_on_hidden_ids(kit):
    """O'Leary 2.1: two '?' stacks are listed by hex, never by internal or unit id."""
    def build(order):
        units = [ENEMY]
        for uid, hexl in order:
            units.append({"id": uid, "side": "french", "kind": "squad", "class": "first_line", "hex": hexl, "hidden": "potential_dummy"})
        return view(kit.at(kit.build(units=units), "french", Phase.MPh)[0], "german")
    assert build([("z", "C3"), ("a", "F5")]) == build([("a", "C3"), ("z", "F5")])


def test_cloaking_counters_show_one_counter_whatever_is_beneath(kit):
    """O'Leary 5: the enemy sees a cloaking counter, not how many units it hides, nor whether
    it is a dummy."""
    s = kit.build(units=[ENEMY] + [{"id": f"c{i}", "side": "french", "kind": "squad", "class": "first_line", "hex": "C3",
                                    "hidden": "concealed", "cloaked": True} for i in range(3)],
                  dummies=[{"side": "french", "kind": "dummy_stack", "hex": "F5", "counters": 1, "cloaked": True}], night=True)
    st, _clk = kit.at(s, "french", Phase.MPh)
    g = view(st, "german")
    assert [(c.hex.label, c.counters, c.cloaked) for c in g.concealed_stacks] == [("C3", 1, True), ("F5", 1, True)]
    f = view(st, "french")
    assert [len(x.unit_ids) for x in f.own_hidden.cloaked_stacks] == [3, 0]
    assert all(u.extra.get("cloaked") for u in f.units if u.side == "french")
