"""What fire does to units in play (issue 12): KIA and K/# with Random Selection
(A7.301, A7.302), #MC, NMC and PTC (A7.303-A7.305), breaking and DM (A10.3,
A10.62), pins (A7.8), casualty reduction and wounded leaders (A7.302, A17.2),
leader loss (A10.2), ELR replacement with Stosstruppen becoming First Line
(A19.13, ASLGW 1.11.1), broken squads leaving their platoon (ASLGW 1.4.11) and a
platoon reduced to a half-platoon (ASLGW 1.1)."""

from __future__ import annotations

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.combat_support import emitter, of, rolls
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.records import FormationChanged, UnitHit
from gwasl.rules.ift import IftResult


def hits(events):
    return [(e.unit, e.change, e.to) for e in of(events, UnitHit)]


def _s(units, **kw):
    s = session(doc(units, **kw))
    to_phase(s, "PFPh")
    return s


def test_kia_eliminates_by_random_selection_and_breaks_the_others_a7_301():
    s = _s([squad("A", "C3", "french"), squad("B", "C3", "french"), squad("G", "J9")])
    em = emitter(s, [2, 5])  # Random Selection: B rolls higher
    fx.apply_ift(em, ["A", "B"], IftResult("KIA", 1), "test")
    assert hits(em.events) == [("B", "eliminated", None), ("A", "broken", None)]
    assert [r.cause for r in rolls(em.events)] == ["1KIA (test): Random Selection, A", "1KIA (test): Random Selection, B"]


def test_k_reduces_one_unit_by_random_selection_then_every_unit_takes_the_mc_a7_302():
    s = _s([squad("A", "C3", "french"), squad("B", "C3", "french"), squad("G", "J9")])
    em = emitter(s, [6, 1, 3, 3, 3, 3])  # A selected; then both pass their 2MC (3+3+2 = 8 > 7? no: 8 fails)
    fx.apply_ift(em, ["A", "B"], IftResult("K", 2), "test")
    got = hits(em.events)
    assert got[0] == ("A", "reduced", "half_squad")
    assert sum(1 for r in rolls(em.events) if r.cause.startswith("2MC")) == 2


def test_an_mc_equal_to_morale_pins_and_a_failure_breaks_a7_8_a10_3():
    s = _s([squad("A", "C3", "french"), squad("G", "J9")])
    em = emitter(s, [3, 4])  # NMC final 7 = morale 7: pinned
    fx.apply_ift(em, ["A"], IftResult("NMC"), "test")
    assert hits(em.events) == [("A", "pinned", None)] and em.state.unit_play("A").pinned
    em2 = emitter(s, [4, 4])  # final 8 > 7: broken and DM
    fx.apply_ift(em2, ["A"], IftResult("NMC"), "test")
    assert hits(em2.events) == [("A", "broken", None)] and em2.state.unit_play("A").dm


def test_a_failed_ptc_pins_a7_305():
    s = _s([squad("A", "C3", "french"), squad("G", "J9")])
    em = emitter(s, [5, 5])
    fx.apply_ift(em, ["A"], IftResult("PTC"), "test")
    assert hits(em.events) == [("A", "pinned", None)]


def test_the_leader_checks_first_and_his_loss_makes_the_others_llmc_a10_2_aslgw_1_3():
    """A 9-1 leader breaks on his MC: the squad stacked with him does not get his -1 but
    takes its MC as a LLMC at +1 (his leadership reversed)."""
    s = _s([squad("A", "C3", "french"), leader("L", "C3", "french", rating="9-1"), squad("G", "J9")])
    em = emitter(s, [5, 5, 2, 3])
    fx.apply_ift(em, ["A", "L"], IftResult("MC", 1), "test")
    first, second = rolls(em.events)
    assert first.cause.startswith("1MC of L")
    assert ("leader L lost: LLMC/LLTC (A10.2)", 1) in [(m.cause, m.value) for m in second.modifiers]
    em2 = emitter(s, [2, 3, 2, 3])  # he passes: his -1 helps the squad (ASLGW 1.3)
    fx.apply_ift(em2, ["A", "L"], IftResult("MC", 1), "test")
    assert ("leadership of L (ASLGW 1.3)", -1) in [(m.cause, m.value) for m in rolls(em2.events)[1].modifiers]


def test_a_leader_casualty_is_wounded_and_worse_after_a17_2():
    s = _s([leader("L", "C3", "french", rating="9-1"), squad("G", "J9")])
    em = emitter(s, [])
    fx.casualty(em, "L", "test")
    assert hits(em.events) == [("L", "wounded", None)]
    assert fx.morale_levels(em.state, em.state.scenario.unit("L"))[0] == 8
    assert fx.leadership(em.state, em.state.scenario.unit("L")) == 0
    fx.casualty(em, "L", "test again")
    assert hits(em.events)[-1] == ("L", "eliminated", None)


def test_elr_failure_replaces_stosstruppen_by_first_line_aslgw_1_11_1_a19_13():
    s = _s([squad("S", "C3", "german", **{"class": "stosstruppen"}), squad("F", "J9", "french")],
           game={"elr": {"german": 1}})
    em = emitter(s, [6, 5])  # 1MC final 12 against morale 8: failed by 4 > ELR 1
    fx.apply_ift(em, ["S"], IftResult("MC", 1), "test")
    got = hits(em.events)
    assert got[0] == ("S", "replaced", "first_line") and "ASLGW 1.11.1" in of(em.events, UnitHit)[0].why
    assert got[1] == ("S", "broken", None)


def test_broken_squads_leave_their_platoon_and_casualties_make_a_half_platoon_aslgw_1_4_11_1_1():
    units = [leader("FL", "C3", "french")] + [squad(f"F{i}", "C3" if i < 3 else "D3", "french", platoon="P") for i in range(6)]
    units[0]["platoon"] = "P"
    s = _s(units + [squad("G", "J9")], formations=[{"id": "P", "kind": "platoon", "leader": "FL"}])
    em = emitter(s, [6, 6] * 3)
    for uid in ("F0", "F1", "F2"):
        fx.apply_ift(em, [uid], IftResult("NMC"), "test")
    left = [e for e in of(em.events, UnitHit) if e.change == "left_platoon"]
    assert {e.unit for e in left} == {"F0", "F1", "F2"} and all("ASLGW 1.4.11" in e.why for e in left)
    assert em.state.scenario.unit("F0").platoon is None
    assert of(em.events, FormationChanged)[0].to == "half_platoon"
    assert em.state.scenario.formation("P").kind.value == "half_platoon"
