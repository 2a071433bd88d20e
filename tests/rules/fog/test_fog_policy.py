"""The automatic shifting policy (issue 5, deliverable 8): seeded, deterministic, explained."""

from __future__ import annotations

from gwasl.model.phases import Phase
from gwasl.rules.dice import Dice
from gwasl.rules.fog.policy import choose_minefield_shift, choose_shift, run_policy, threat_map


def _scenario(kit, german_at="D4"):
    units = [{"id": "G1", "side": "german", "kind": "squad", "class": "first_line", "hex": german_at},
             {"id": "G2", "side": "german", "kind": "squad", "class": "first_line", "hex": german_at},
             {"id": "h1", "side": "french", "kind": "squad", "class": "first_line", "hex": "D3", "hidden": "hip"},
             {"id": "h2", "side": "french", "kind": "leader", "rating": "8-1", "hex": "D3", "hidden": "hip"}]
    dummies = [{"side": "french", "kind": "dummy_hip", "hex": "J8"}, {"side": "french", "kind": "dummy_hip", "hex": "E2"}]
    return kit.build(units=units, dummies=dummies, hexes={"D3": {"terrain": "woods"}, "J8": {"terrain": "woods"}})


def test_policy_moves_a_threatened_hip_stack_to_a_safer_candidate(kit):
    """Beyond O'Leary 3.3.2: in the enemy MPh, the HIP stack adjacent to two German squads is
    moved to the far candidate; the decision lists every candidate with score and DRM."""
    st, clk = kit.at(_scenario(kit), "german", Phase.MPh)
    d = choose_shift(st, "french", kit.env(["D3", "E2"]), seed=7, clock=clk)
    assert d.chosen is not None
    assert (d.chosen.plan.hex_a.label, d.chosen.plan.hex_b.label) == ("D3", "J8")
    assert d.candidates[0] is d.chosen and len(d.candidates) >= 3
    text = d.explain()
    assert "score" in text and "DRM" in text and "O'Leary 2.5" in text
    threat = threat_map(st, "french", kit.env(["D3", "E2"]), {kit.hx("D3"), kit.hx("J8")})
    assert threat[kit.hx("D3")] > threat[kit.hx("J8")]


def test_policy_is_deterministic_for_a_seed(kit):
    """Beyond O'Leary (deliverable 8): the same seed and dice give the same decisions and explanations; every roll is an O'Leary 2.5 shift DR."""
    st, clk = kit.at(_scenario(kit), "german", Phase.MPh)
    env = kit.env(["D3"])
    a = run_policy(st, "french", Dice(seed=11), env, seed=3, clock=clk)
    b = run_policy(st, "french", Dice(seed=11), env, seed=3, clock=clk)
    assert a[0] == b[0]
    assert [d.explain() for d in a[1]] == [d.explain() for d in b[1]]
    assert a[2] and all(r.roll.cause.startswith("O'Leary 2.5") for r in a[2])


def test_policy_does_nothing_when_no_window_is_open(kit):
    """O'Leary 3.3.2: no HIP shift in the enemy APh."""
    st, clk = kit.at(_scenario(kit), "german", Phase.APh)
    d = choose_shift(st, "french", kit.env(), seed=1, clock=clk)
    assert d.chosen is None and not d.candidates and "no eligible shift" in d.reason


def test_policy_keeps_still_when_nothing_threatens(kit):
    """Beyond O'Leary: with the enemy far from every candidate, no shift is worth its 2.5 risk."""
    s = _scenario(kit, german_at="A10")
    st, clk = kit.at(s, "german", Phase.MPh)
    d = choose_shift(st, "french", kit.env([]), seed=1, threshold=0.2, clock=clk)
    assert d.chosen is None and d.candidates


def test_policy_uses_only_what_its_side_may_see(kit):
    """Beyond O'Leary: the threat comes from the French view only: a German HIP unit (3.1) next to the French stack adds nothing."""
    base = _scenario(kit, german_at="A10")
    s2 = kit.build(units=[{"id": "G1", "side": "german", "kind": "squad", "class": "first_line", "hex": "A10"},
                          {"id": "G2", "side": "german", "kind": "squad", "class": "first_line", "hex": "A10"},
                          {"id": "GH", "side": "german", "kind": "squad", "class": "first_line", "hex": "D4", "hidden": "hip"},
                          {"id": "h1", "side": "french", "kind": "squad", "class": "first_line", "hex": "D3", "hidden": "hip"},
                          {"id": "h2", "side": "french", "kind": "leader", "rating": "8-1", "hex": "D3", "hidden": "hip"}],
                   dummies=[{"side": "french", "kind": "dummy_hip", "hex": "J8"}, {"side": "french", "kind": "dummy_hip", "hex": "E2"}],
                   hexes={"D3": {"terrain": "woods"}, "J8": {"terrain": "woods"}})
    env = kit.env([])
    t1 = threat_map(kit.at(base, "german", Phase.MPh)[0], "french", env, {kit.hx("D3")})
    t2 = threat_map(kit.at(s2, "german", Phase.MPh)[0], "french", env, {kit.hx("D3")})
    assert t1 == t2


def test_policy_springs_the_strongest_minefield_on_an_entering_unit(kit):
    """O'Leary 4.6.2 decided by the computer: a German squad enters a dummy minefield; the
    French exchange it with their 6-factor AP minefield, not the 3-factor one."""
    s = kit.build(units=[{"id": "G1", "side": "german", "kind": "squad", "class": "first_line", "hex": "C3"}],
                  forts=[{"kind": "minefield", "hexes": ["F5"], "owner": "french", "hidden": True, "ap": 6},
                         {"kind": "minefield", "hexes": ["G6"], "owner": "french", "hidden": True, "ap": 3}],
                  dummies=[{"side": "french", "kind": "dummy_minefield", "hex": "C3"}])
    st, clk = kit.at(s, "german", Phase.MPh)
    entered = st.minefields_at(kit.hx("C3"))[0].id
    d = choose_minefield_shift(st, entered, kit.env(), seed=5, clock=clk)
    assert d.chosen is not None and d.chosen.plan.hex_b.label == "F5"
    assert [c.plan.hex_b.label for c in d.candidates] == ["F5", "G6"]
    # Entering the strong one: no exchange is worth revealing another.
    strong = st.minefields_at(kit.hx("F5"))[0].id
    assert choose_minefield_shift(st, strong, kit.env(), seed=5, clock=clk).chosen is None


def test_policy_odds_ignore_the_los_of_hidden_enemy_units(kit):
    """Beyond O'Leary, with the 2.5 "+1 in the LOS of an enemy unit": the French policy scores
    its shifts with the DRM as the French know it, so a German HIP unit (3.1) that sees D3
    changes nothing in its decision; the shift it attempts is still rolled with the true DRM."""
    from gwasl.rules.fog.env import FogEnv
    from gwasl.rules.fog.policy import known_state

    def only_d4_sees_d3(_scenario):
        return lambda a, b, a_in=None, b_in=None: a == kit.hx("D4") and b == kit.hx("D3")

    env = FogEnv(sees_factory=only_d4_sees_d3)
    french = [{"id": "h1", "side": "french", "kind": "squad", "class": "first_line", "hex": "D3", "hidden": "hip"},
              {"id": "h2", "side": "french", "kind": "leader", "rating": "8-1", "hex": "D3", "hidden": "hip"}]
    german = [{"id": "G1", "side": "german", "kind": "squad", "class": "first_line", "hex": "E4"}]
    hidden = [{"id": "GH", "side": "german", "kind": "squad", "class": "first_line", "hex": "D4", "hidden": "hip"}]
    dummies = [{"side": "french", "kind": "dummy_hip", "hex": "J8"}]

    def decide(units):
        st, clk = kit.at(kit.build(units=units, dummies=dummies, hexes={"J8": {"terrain": "woods"}}), "german", Phase.MPh)
        return st, choose_shift(st, "french", env, seed=4, clock=clk)

    _sa, a = decide(german + french)
    sb, b = decide(german + hidden + french)
    assert [(c.plan.hex_a, c.plan.hex_b, c.score, c.odds) for c in a.candidates] == \
        [(c.plan.hex_a, c.plan.hex_b, c.score, c.odds) for c in b.candidates]
    assert (a.chosen is None) == (b.chosen is None)
    # The truth differs (GH sees D3: +1), and the known state leaves GH out.
    d3 = next(c for c in b.candidates if c.plan.hex_a == kit.hx("D3"))
    assert any(m.value == 1 and "LOS" in m.cause for m in d3.plan.modifiers)
    assert "GH" not in {u.id for u in known_state(sb, "french").scenario.units}
