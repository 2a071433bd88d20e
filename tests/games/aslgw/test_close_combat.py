"""Close combat in play exactly as ASLGW 1.10 (issue 12): normal CC only between
separated locations or when every attacker has hand grenades, otherwise
Hand-to-Hand (1.10.1); a Melee across directly accessible locations turns to HtH
(1.10.11); the French -1 HtH (1.11.2); trench armour +1 (1.8); on the classic CCT
(A11.11) with Melee (A11.15), ambush (A11.4) and withdrawal (A11.2)."""

from __future__ import annotations

import pytest

from games.aslgw.builders import doc, leader, seed_where, session, squad, to_phase
from games.aslgw.combat_support import emitter, flat, of, rolls
from gwasl.engine.game import IllegalAction
from gwasl.games.aslgw.actions import close_combat as ml
from gwasl.games.aslgw.records import (
    CloseCombat,
    CloseCombatResolved,
    ConcealmentLost,
    EndPhase,
    MeleeChanged,
    Withdraw,
    Withdrew,
)


def _cc(s):
    return [a.action for a in s.legal() if isinstance(a.action, CloseCombat)]


def test_cc_in_the_same_location_is_hand_to_hand_without_grenades_with_the_french_minus_one_aslgw_1_10_1_1_11_2():
    d = doc([squad("G", "C3"), leader("L", "C3"), squad("F", "C3", "french")], date="1915-06-01")
    s = session(d)
    to_phase(s, "CCPh")
    assert _cc(s) == [CloseCombat("C3", "hex")]
    with pytest.raises(IllegalAction, match="A11"):
        s.act(EndPhase())  # the CC is resolved first
    odds = s.odds(CloseCombat("C3", "hex"))
    assert abs(sum(o.p for o in odds) - 1) < 1e-12
    ev = flat(s.act(CloseCombat("C3", "hex")))
    res = of(ev, CloseCombatResolved)[0]
    assert all("HtH" in line and "ASLGW 1.10.1" in line for line in res.lines if "attacks" in line)
    french = next(r for r in rolls(ev) if r.cause.startswith("CC of french"))
    assert ("nationality Hand-to-Hand DRM (ASLGW 1.11.2)", -1) in [(m.cause, m.value) for m in french.modifiers]
    german = next(r for r in rolls(ev) if r.cause.startswith("CC of german"))
    assert ("leadership of L (A11.14, ASLGW 1.3)", -0) not in [(m.cause, m.value) for m in german.modifiers if m.value]
    s.act(EndPhase())


def test_hand_grenades_make_it_normal_cc_and_separated_locations_too_aslgw_1_10_1():
    d = doc([squad("G", "C3"), leader("L", "C3"), squad("F", "C3", "french")], date="1917-04-09")
    s = session(d)
    to_phase(s, "CCPh")
    res = of(flat(s.act(CloseCombat("C3", "hex"))), CloseCombatResolved)[0]
    assert all("CC: every attacking unit has hand grenades" in line for line in res.lines if "attacks" in line)
    forts = [{"kind": "trench", "hexes": ["C3"], "owner": "french"}]
    d2 = doc([squad("G", "C3"), leader("L", "C3"), squad("F", "C3", "french", **{"in": "trench"})], date="1915-06-01", forts=forts)
    s2 = session(d2)
    to_phase(s2, "CCPh")
    res2 = of(flat(s2.act(CloseCombat("C3", "hex"))), CloseCombatResolved)[0]
    assert all("separate locations" in line for line in res2.lines if "attacks" in line)


def test_trench_armour_adds_one_to_cc_attacks_on_its_wearers_aslgw_1_8():
    d = doc([squad("G", "C3", trench_armour=True), leader("L", "C3"), squad("F", "C3", "french")])
    s = session(d)
    to_phase(s, "CCPh")
    french = next(r for r in rolls(flat(s.act(CloseCombat("C3", "hex")))) if r.cause.startswith("CC of french"))
    assert ("defender wears trench armour (ASLGW 1.8)", 1) in [(m.cause, m.value) for m in french.modifiers]


def _melee_seed():
    d = doc([squad("G", "C3"), leader("L", "C3"), squad("F", "C3", "french", **{"in": "trench"}), leader("FL", "C3", "french", **{"in": "trench"})],
            date="1915-06-01", forts=[{"kind": "trench", "hexes": ["C3"], "owner": "french"}], game={"turns": 2})

    def prep(s):
        to_phase(s, "CCPh")
        s.act(CloseCombat("C3", "hex"))
        return s.state.combat.melee

    return seed_where(d, prep, lambda m: ("C3", "hex") in m)[0]


def test_a_melee_across_a_trench_turns_to_hth_in_the_next_ccph_aslgw_1_10_11_a11_15():
    s = _melee_seed()
    assert any(e["kind"] == "melee" for e in s.log())
    to_phase(s, "CCPh", "french")
    assert ("C3", "hex") in ml.pending(s.state)
    res = of(flat(s.act(CloseCombat("C3", "hex"))), CloseCombatResolved)[0]
    assert all("HtH" in line and "ASLGW 1.10.11" in line for line in res.lines if "attacks" in line)


def test_units_in_melee_may_withdraw_under_attack_a11_2():
    s = _melee_seed()
    to_phase(s, "CCPh", "german")
    w = [a.action for a in s.legal() if isinstance(a.action, Withdraw)]
    # the melee is HtH by now (1.10.11): no withdrawal from HtH
    assert not w
    d = doc([squad("G", "C3"), leader("L", "C3"), squad("F", "C3", "french")], date="1917-04-09")
    s2 = session(d)
    to_phase(s2, "CCPh")
    s2.state = s2.state.__class__(**{**{f: getattr(s2.state, f) for f in s2.state.__dataclass_fields__}})
    from dataclasses import replace

    s2.state = replace(s2.state, combat=replace(s2.state.combat, melee=frozenset({("C3", "hex")})))
    w2 = [a.action for a in s2.legal() if isinstance(a.action, Withdraw)]
    assert w2 and all(set(a.units) == {"G", "L"} for a in w2)
    em = emitter(s2, [6, 6, 6, 6])
    ml.resolve_withdraw(em, w2[0])
    assert of(em.events, Withdrew) and any("withdrawing from Melee (A11.2)" in m.cause for r in rolls(em.events) for m in r.modifiers)
    assert of(em.events, MeleeChanged)[0].locked is False


def test_cc_reveals_a_concealed_unit_and_an_ambush_may_follow_a11_4_a12_15():
    d = doc([squad("G", "C3"), leader("L", "C3"), squad("F", "C3", "french", hidden="concealed")])
    s = session(d)
    to_phase(s, "CCPh")
    assert ("C3", "hex") in s.state.combat.ambush_possible
    odds = s.odds(CloseCombat("C3", "hex"), "german")
    assert [o.result for o in odds] == ["resolved by gwasl from what you cannot see"]
    full = s.odds(CloseCombat("C3", "hex"), "omniscient")
    assert any("ambushes" in o.result for o in full) and abs(sum(o.p for o in full) - 1) < 1e-12
    ev = flat(s.act(CloseCombat("C3", "hex")))
    assert of(ev, ConcealmentLost)[0].units == ("F",)
    assert any("ambush dr" in r.cause and "A11.4" in r.cause for r in rolls(ev))
