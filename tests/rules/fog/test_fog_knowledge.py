"""Issue 10 items 2 and 3: what a side is shown comes from what it knows (O'Leary 2.5, 3.4, 4.4).

Item 3: a revealed hidden fortification carries its private fields (set-up hexes, tunnel
exit, cave complex) into the other side's view; the view copies fortifications by whitelist.
Item 2: the shift log and the policy's explanation printed the true DRM, with "+1 in the LOS
of an enemy unit" computed from a hidden enemy unit, beside odds computed without it.
"""

from __future__ import annotations

from gwasl.model.phases import Phase
from gwasl.rules.dice import ScriptedDice
from gwasl.rules.fog.odds import shift_band_odds
from gwasl.rules.fog.policy import choose_shift
from gwasl.rules.fog.resolve import resolve_shift
from gwasl.rules.fog.shift import plan_hip_shift
from gwasl.rules.fog.status import reveal_hip
from gwasl.rules.fog.view import view
from gwasl.rules.fog.words import line

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}
PRIVATE = {"setup_hexes": ["C3", "E3"], "tunnel": "H8", "complex": "galleries-1"}


def _revealed_pillbox(kit):
    s = kit.build(units=[ENEMY],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "tem": 5, **PRIVATE}],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "E3"}])
    st, _clk = kit.at(s, "german", Phase.MPh)
    return reveal_hip(st, "french", kit.hx("C3"), "Search (A12.152)").state


def test_3_4_revealed_fortification_shows_the_enemy_only_its_counter(kit):
    """O'Leary 3.4, 4.2, 4.4.1, 4.4.2: once revealed, the Germans see the pillbox and its
    printed TEM, not where it could have been set up, its tunnel exit or its cave complex."""
    st = _revealed_pillbox(kit)
    (f,) = view(st, "german").scenario.map.fortifications
    assert (f.kind.value, [h.label for h in f.hexes], f.owner) == ("pillbox", ["C3"], "french")
    assert dict(f.extra) == {"tem": 5}


def test_3_4_owner_and_designer_keep_every_field_of_the_revealed_fortification(kit):
    """O'Leary 4.4.1-4.4.2: the owner still knows its tunnel and complex (the omniscient view too)."""
    st = _revealed_pillbox(kit)
    for viewer in ("french", "omniscient"):
        (f,) = view(st, viewer).scenario.map.fortifications
        assert {k: f.extra[k] for k in PRIVATE} == PRIVATE


def test_3_4_a_fortification_revealed_after_a_failed_shift_carries_nothing_private(kit):
    """O'Leary 2.5 (11-12) and 4.2: a pillbox revealed by a shift DR leaks no private field."""
    s = kit.build(units=[ENEMY],
                  forts=[{"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, **PRIVATE}],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "E3"}])
    st, clk = kit.at(s, "french", Phase.MPh)
    env = kit.env(["C3", "E3"])
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("E3"), env, clock=clk), ScriptedDice([6, 6]), env, clock=clk)
    assert r.band == "status_lost" and not r.state.fortifications  # 12 +1 (LOS) -1 (both HIP): revealed (4.2)
    (f,) = view(r.state, "german").scenario.map.fortifications
    assert not set(PRIVATE) & set(f.extra)


HIDDEN_ENEMY = {"id": "GH", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1", "hidden": "hip"}


def _hip_pair(kit, enemies):
    s = kit.build(units=[*enemies, {"id": "h", "side": "french", "kind": "squad", "class": "first_line", "hex": "C3", "hidden": "hip"}],
                  dummies=[{"side": "french", "kind": "dummy_hip", "hex": "F5"}],
                  hexes={"C3": {"terrain": "woods"}, "F5": {"terrain": "woods"}})
    return kit.at(s, "french", Phase.MPh)


def test_2_5_shift_log_shows_the_shifter_only_the_drm_it_knows(kit):
    """O'Leary 2.5: a hidden German unit sees F5.  The DR is rolled with its +1 (the truth), but
    the French log line shows the same dice without it; the designer's line keeps it."""
    env = kit.env(["F5"])
    st, clk = _hip_pair(kit, [HIDDEN_ENEMY])
    plan = plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk)
    assert any("LOS of an enemy unit" in m.cause for m in plan.modifiers)  # the truth
    r = resolve_shift(st, plan, ScriptedDice([3, 4]), env, clock=clk)
    french, designer = line(r, "french") or "", line(r, "omniscient") or ""
    assert "LOS of an enemy unit" not in french and "3+4" in french
    assert "LOS of an enemy unit" in designer
    assert r.shown_roll is not None and r.shown_roll.dice == r.roll.dice and r.shown_roll.drm == r.roll.drm - 1


def test_2_5_shift_log_and_policy_are_identical_with_or_without_a_hidden_enemy_unit(kit):
    """O'Leary 2.5, docs/architecture.md "Views": two states differing only in a German HIP unit give the
    French the same policy explanation, odds and log line (dice that succeed either way)."""
    env = kit.env(["F5"])
    seen = []
    for enemies in ([], [HIDDEN_ENEMY]):
        st, clk = _hip_pair(kit, enemies)
        d = choose_shift(st, "french", env, seed=3, threshold=-99, clock=clk)
        c = next(c for c in d.candidates if c.plan.hex_a == kit.hx("C3"))
        assert c.odds == shift_band_odds(c.drm) and "LOS of an enemy unit" not in c.explain()
        r = resolve_shift(st, c.plan, ScriptedDice([1, 2]), env, clock=clk)
        seen.append((d.explain(), line(r, "french")))
    assert seen[0] == seen[1]


def test_2_5_known_enemy_los_is_still_shown(kit):
    """O'Leary 2.5: an enemy unit the French can see (or a German "?" pile) does give them the +1."""
    env = kit.env(["F5"])
    visible = dict(HIDDEN_ENEMY, hidden="none")
    st, clk = _hip_pair(kit, [visible])
    r = resolve_shift(st, plan_hip_shift(st, "french", kit.hx("C3"), kit.hx("F5"), env, clock=clk), ScriptedDice([1, 2]), env,
                      clock=clk)
    assert "LOS of an enemy unit" in (line(r, "french") or "")
    pile = dict(HIDDEN_ENEMY, hidden="concealed")
    st, clk = _hip_pair(kit, [pile])
    d = choose_shift(st, "french", env, seed=3, threshold=-99, clock=clk)
    assert any("LOS of an enemy unit" in m.cause for c in d.candidates for m in c.modifiers)
