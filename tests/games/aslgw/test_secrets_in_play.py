"""The Great War in play with its secrets kept (issue 24 items 9, 10; issue 28 items 3, 4): a
Bayonet Charge at "?" (ASLGW 1.5), Control as each viewer knows it (A26.11, A26.132, A26.15,
ASLGW 2.2), "?" ids and refusals that tell nothing hidden (CONTRACTS 5)."""

from __future__ import annotations

from typing import Any

import pytest

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.playout import source
from gwasl.engine.game import IllegalAction
from gwasl.engine.session import Session
from gwasl.games.aslgw.records import BayonetCharge, Move
from gwasl.scenarios import bundled_scenario


def _acts(s: Session[Any], kind: type, viewer: str = "player") -> list[Any]:
    return [a.action for a in s.legal(viewer) if isinstance(a.action, kind)]


def _refusal(s: Session[Any], action: Any, viewer: str = "player") -> str:
    with pytest.raises(IllegalAction) as e:
        s.act(action, viewer)
    return str(e.value)


# ---------------------------------------------------------------------------
# A Bayonet Charge at "?" (ASLGW 1.5; issue 24 item 9)


def test_the_1914_french_charge_is_offered_against_the_concealed_germans_of_rossignol_aslgw_1_5():
    """ASLGW 1.5: the charge needs LOS to an enemy unit within 8 hexes ahead; a concealed
    defender counts (rules-notes, "Bayonet charge: the chain and 'towards'").  Rossignol's
    Germans are all "?" or HIP at set-up: the French may charge them on turn 1, with or
    without --secret, before anything is revealed."""
    d = source(bundled_scenario("rossignol-1914.json"))
    for secret in ((), ("german",)):
        s = session(d, 1, secret)
        to_phase(s, "MPh", "french")
        assert all(s.state.fog.status_of(u.id).value != "none" for u in s.state.scenario.units if u.side == "german")
        charges = _acts(s, BayonetCharge)
        assert charges and all(set(c.units) == {"F-1", "F-2", "F-3", "F-4", "F-L"} for c in charges), secret
        assert {c.direction for c in charges} == {1, 2}  # NE and SE: towards the German "?" at G3 and H2


def _chain(enemy: dict[str, Any], dummies: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A French chain (a leader and two squads, 1914: no density needed, ASLGW 1.11.2) at C5-C6
    facing one German piece at C2 across open ground."""
    units = [leader("FL", "C6", "french"), squad("F1", "C6", "french"), squad("F2", "C5", "french"), enemy,
             squad("GX", "J9")]  # a German in the open, out of the chain's front
    return doc(units, date="1914-08-22", game={"first_moves": "french"}, dummies=dummies or [])


def _charges_north(d: dict[str, Any]) -> list[BayonetCharge]:
    s = session(d)
    to_phase(s, "MPh", "french")
    return [c for c in _acts(s, BayonetCharge) if c.direction == 0]


def test_a_concealed_or_dummy_question_mark_counts_as_an_enemy_unit_a_hip_one_does_not_aslgw_1_5():
    """ASLGW 1.5 "an enemy unit within the eight hexes": the French cannot tell a real "?" from a
    dummy, so both allow the charge; a HIP unit is not on the map as far as they know."""
    assert _charges_north(_chain(squad("G", "C2", hidden="concealed")))
    assert _charges_north(_chain(squad("G", "C2", hidden="potential_dummy")))
    assert _charges_north(_chain(squad("G", "J1"), [{"side": "german", "kind": "dummy_stack", "hex": "C2", "counters": 2}]))
    assert not _charges_north(_chain(squad("G", "C2", hidden="hip")))
    assert _charges_north(_chain(squad("G", "C2")))  # and a unit in view, as always


def _answer(s: Session[Any], action: Any, viewer: str = "player") -> Any:
    """What ``viewer`` is told when it sends ``action``: the refusal, or what it reads of the events."""
    try:
        return s.shown(s.act(action, viewer), viewer)
    except IllegalAction as e:
        return f"refused: {e}"


def test_a_charge_is_judged_and_refused_from_what_the_french_know_not_from_the_hidden_germans_aslgw_1_5():
    """CONTRACTS 5 (issue 28 item 4): twin games where the German "?" at C2 is a real squad or a
    dummy (its squad then under the "?" at J1) answer every charge the French may send alike,
    accepted or refused with the same words (ASLGW 1.5's reason: no LOS to an enemy ahead).
    Before, the check ran on the truth: towards the real squad it passed, so the refusal of a
    charge the list did not offer read differently in the two games."""
    real = _chain(squad("G", "C2", hidden="potential_dummy"), [{"side": "german", "kind": "dummy_stack", "hex": "J1", "counters": 2}])
    dummy = _chain(squad("G", "J1", hidden="potential_dummy"), [{"side": "german", "kind": "dummy_stack", "hex": "C2", "counters": 2}])
    answers = []
    for d in (real, dummy):
        got = []
        for direction in range(6):
            s = session(d, 3, ("german",))
            to_phase(s, "MPh", "french")
            got.append(_answer(s, BayonetCharge(("F1", "F2", "FL"), direction)))
        answers.append(got)
    assert answers[0] == answers[1]
    assert not str(answers[0][0]).startswith("refused")  # north, at the "?" of C2
    refused = [a for a in answers[0] if str(a).startswith("refused")]
    assert refused and all("no BCh unit has LOS to an enemy unit" in a and "ASLGW 1.5" in a for a in refused)


# ---------------------------------------------------------------------------
# Control as each viewer knows it (A26.11, A26.132, A26.15; ASLGW 2.2; issue 24 item 10, issue 28 item 3)


def test_ovillers_a_british_squad_in_f3_does_not_take_the_hex_of_a_german_dugout_a26_132_aslgw_2_2():
    """Ovillers: B-1 enters the deep trench hex F3, whose dugout holds the hidden German squad and
    MG; they fire from the dugout (and so are revealed).  A dugout is a bunker in all respects
    (ASLGW 2.2): the hex goes to a side only with its pillbox Location (A26.132), and the
    Germans hold the dugout, so no view -- the player's with the Germans kept secret, the
    British, the omniscient -- shows F3 as British (it read British before: 3 of 7).  The seed is
    one whose dice let B-1 live in F3: with seed 3 the rolls added since (the FPF firers' NMC on
    the FPF DR, A8.31; inherent FP with the SW, A7.351) now have the dugout's FPF eliminate it."""
    s = session(source(bundled_scenario("ovillers-1916.json")), 2, ("german",))
    to_phase(s, "MPh", "british")
    for to in ("E3", "F3"):
        s.act(min((a for a in _acts(s, Move) if a.to == to and "B-1" in a.pieces and a.mode == "normal"),
                  key=lambda a: len(a.pieces)))
    assert s.state.scenario.unit("B-1").hex.label == "F3"
    assert s.state.fog.status_of("G-1").value == "none"  # it fired from the dugout: revealed
    assert any("at F3" in e["text"] and "G-1" in e["text"] for e in s.log("player") if e["kind"] == "fire")
    for viewer in ("player", "british", "omniscient", "german"):
        c = s.view(viewer)["control"]
        assert c["hexes"]["F3"] == "german", viewer
        assert {"hex": "F3", "level": 0, "in": "dugout", "side": "german"} in c["locations"], viewer


BUILDING = {h: {"terrain": "stone_building", "building": "22U3"} for h in ("V2", "V3", "U3")}


def _building_doc() -> dict[str, Any]:
    units = [squad("F", "W2", "french"), squad("G", "V3", hidden="hip")]
    return doc(units, hexes=BUILDING, columns=24, rows=5,  # no dummy HIP: the squad cannot shift away (O'Leary 3.3)
               game={"first_moves": "french", "turns": 2, "setup": {"german": {"hexes": ["V2", "V3", "U3", "U4"]}},
                     "victory": {"french": {"conditions": [{"control": {"buildings": ["22U3"]}}]}, "german": {"avoid": True}}})


def _enter_v2(s: Session[Any], viewer: str = "player") -> None:
    to_phase(s, "MPh", "french", viewer)
    s.act(next(a for a in _acts(s, Move, viewer) if a.pieces == ("F",) and a.to == "V2" and a.mode == "normal"), viewer)
    assert s.state.scenario.unit("F").hex.label == "V2"


def test_a_revealed_unit_shows_its_enemy_the_control_it_never_gained_a26_15():
    """A26.15: a HIP armed unit prevents the enemy from gaining Control; its Control need not be
    declared until game end.  The French enter V2 of building 22U3 and believe they hold it, the
    German HIP squad in V3 unseen; once that squad is revealed, the French know the building
    never changed hands: every view shows it German, the hexes as they are."""
    s = session(_building_doc(), 1)  # the Germans' fire is the player's: G stays hidden
    _enter_v2(s)
    assert s.view("french")["control"]["buildings"]["22U3"] == "french"  # as the French believe (A26.15)
    assert s.view("omniscient")["control"]["buildings"]["22U3"] == "german"
    from games.aslgw.playout import GAME
    from gwasl.games.aslgw.records import HipRevealed

    after = GAME.reduce(s.state, HipRevealed("german", "V3", ("G",), 0, (), "it is found (A12.3)"))
    for viewer in ("player", "french", "omniscient", "german"):
        c = GAME.view(after, s.viewer(viewer))["control"]
        assert c["buildings"]["22U3"] == "german" and c["hexes"]["V2"] == "french" and c["hexes"]["V3"] == "german", viewer


def test_a_hidden_squad_that_fires_at_the_french_entering_the_building_ends_their_belief_a26_15():
    """The same in play with the Germans kept secret: gwasl's fire policy fires G from V3 at the
    French entering V2 (A8.1), which reveals it (A12.14): the player's Victory panel no longer
    counts the building French."""
    s = session(_building_doc(), 1, ("german",))
    _enter_v2(s)
    assert s.state.fog.status_of("G").value == "none"
    assert any(e["kind"] == "fire" and "G at V2" in e["text"] for e in s.log("player"))
    for viewer in ("player", "french", "omniscient"):
        assert s.view(viewer)["control"]["buildings"]["22U3"] == "german", viewer


def _with_pillbox(h: str) -> dict[str, Any]:
    d = source(bundled_scenario("rossignol-1914.json"))
    d["map"]["fortifications"].append({"kind": "pillbox", "hexes": [h], "owner": "german", "hidden": True})
    return d


def test_a_hidden_pillbox_is_no_location_of_the_control_its_enemy_is_shown_a26_11_o_leary_4():
    """Issue 28 item 3: Rossignol with a hidden German pillbox at H1 (in the German set-up area, so
    Controlled at start, A26.11) or at G5 (outside it).  The French -- and the player with the
    Germans kept secret -- are shown the same Control, the same VP and the same map either way;
    the omniscient view lists the pillbox's Location (O'Leary 4: a hidden fortification is the
    owner's secret until revealed)."""
    shown = []
    for h in ("G5", "H1"):
        for secret in (("german",), ()):
            s = session(_with_pillbox(h), 1, secret)
            viewer = "player" if secret else "french"
            shown.append((secret, s.view(viewer), [e["text"] for e in s.log(viewer)]))
    assert shown[0] == shown[2] and shown[1] == shown[3]
    assert not any(loc["in"] == "pillbox" for _, v, _ in shown for loc in v["control"]["locations"])
    s = session(_with_pillbox("H1"), 1)
    assert {"hex": "H1", "level": 0, "in": "pillbox", "side": "german"} in s.view("omniscient")["control"]["locations"]
    assert {"hex": "H1", "level": 0, "in": "pillbox", "side": "german"} in s.view("german")["control"]["locations"]


# ---------------------------------------------------------------------------
# Ids that count nothing hidden (CONTRACTS 5; issue 28 item 4)


def test_question_mark_ids_made_in_play_do_not_count_the_enemys_hidden_fortifications_o_leary_4():
    """A "?" made in play (concealment gained, A12.12; a HIP unit seen, O'Leary 3.4) takes the next
    id of its side; with a hidden German pillbox in the scenario the French player's next "?"
    was one higher than without one (s5 against s4), which told the player the pillbox was there."""
    ids = []
    for d in (source(bundled_scenario("rossignol-1914.json")), _with_pillbox("G5")):
        s = session(d, 1, ("german",))
        ids.append([s.state.fog.fresh_id("s", side)[1] for side in ("french", "german")])
    assert ids[0] == ids[1] == ["s6", "s7"]  # after the set-up's three "?" stacks and two dummy HIP


# ---------------------------------------------------------------------------
# Refusals that tell nothing hidden (CONTRACTS 5; issue 28 item 4)


def test_a_crafted_rout_of_a_hip_unit_is_refused_in_words_o_leary_3_2_2_a10_5():
    """Rossignol's German G-1 is HIP at G2 (O'Leary 3.1).  A rout of it sent in the RtPh ended in an
    internal error (FogRuleError: it is HIP).  Now: the player with the Germans kept secret, or the
    French, are told there is no such unit as far as they know -- word for word what they are told
    of a unit that does not exist -- and a viewer who sees the Germans is told the first rule the
    rout breaks: G-1 is in Good Order, and only broken units rout (A10.5); that
    check comes first, so the HIP rule (O'Leary 3.2.2) comes second and tells
    that viewer nothing it does not see."""
    from gwasl.games.aslgw.records import Rout

    s = session(source(bundled_scenario("rossignol-1914.json")), 1, ("german",))
    to_phase(s, "RtPh", "french")
    for viewer in ("player", "french"):
        hip = _refusal(s, Rout("G-1", "H2", "ground", False), viewer)
        assert hip == _refusal(s, Rout("G-9", "H2", "ground", False), viewer).replace("G-9", "G-1")
        assert hip == f"rout: no unit 'G-1' on the map as {viewer} knows it"
    for viewer in ("german", "omniscient"):
        assert _refusal(s, Rout("G-1", "H2", "ground", False), viewer) == "G-1 is not broken: only broken units rout (A10.5)"


# ---------------------------------------------------------------------------
# The bundled scenarios' fog and SSR (issue 24 item 14)


def test_saint_julien_s_gas_ssr_is_played_the_germans_release_chlorine_over_the_british_trench_aslgw_1_9():
    """Saint-Julien's card: SSR 1 gives the British no gas protection and the Germans cotton pads;
    SSR 2 gives the Germans their chlorine cloud over F2-F5, released in a PFPh from turn 1
    (ASLGW 1.9: gas comes by SSR).  The Germans may release it in their first PFPh; the cloud
    lies over the trench and the British in it suffer it unprotected (1.9.11)."""
    from gwasl.games.aslgw.records import GasReleased, ReleaseGas

    d = source(bundled_scenario("saint-julien-1915.json"))
    assert any("$.sides.german.gas" in (r.get("fields") or []) for r in d["game"]["ssr"])
    s = session(d, 1, ("british",))
    to_phase(s, "PFPh", "german")
    assert _acts(s, ReleaseGas) == [ReleaseGas("german", 0)]
    entries = s.act(ReleaseGas("german", 0))
    released = [ev for e in entries for ev in e.events if isinstance(ev, GasReleased)]
    assert released and released[0].hexes == ("F2", "F3", "F4", "F5") and released[0].agents == ("chlorine",)
    assert s.view("player")["gas"] == [{"side": "german", "agents": ["chlorine"], "hexes": ["F2", "F3", "F4", "F5"],
                                        "until_turn": 1}]
    assert not _acts(s, ReleaseGas)  # once (ASLGW 1.9)


@pytest.mark.parametrize("name", ["rossignol-1914.json", "saint-julien-1915.json", "ovillers-1916.json",
                                  "saint-quentin-1918.json", "bois-des-caures-1916.json", "schwaben-redoubt-1916.json"])
def test_every_bundled_side_with_hip_units_has_its_dummy_hip_counters_o_leary_3_1_1(name):
    """O'Leary 3.1.1: a side with HIP units gets dummy HIP counters (one more than its HIP squad
    capacity), without which its HIP units can never shift (3.3)."""
    from gwasl.model.scenario_io import parse_scenario
    from gwasl.rules.fog.checks import dummy_allotment, hip_without_dummies

    sc = parse_scenario(source(bundled_scenario(name)), name)
    for side in sc.sides:
        assert hip_without_dummies(sc, side) is None, side
        a = dummy_allotment(sc, side)
        if a.hip_squad_capacity and name != "bois-des-caures-1916.json":  # the four carded scenarios: the full allotment
            assert a.dummy_hip_placed == a.dummy_hip_allowed, (side, a)


def test_validate_warns_of_a_side_with_hip_units_and_no_dummy_hip_o_leary_3_1_1():
    """The one rule function (gwasl/rules/fog/checks.py hip_without_dummies) that `gwasl validate`
    and the editor's checks report through check_fog: a warning, not an error."""
    from gwasl.model.scenario_io import parse_scenario
    from gwasl.rules.validate import validate_scenario

    d = source(bundled_scenario("rossignol-1914.json"))
    d["dummies"] = [x for x in d["dummies"] if x["kind"] != "dummy_hip"]
    report = validate_scenario(parse_scenario(d))
    assert report.valid
    assert [(w.path, w.rule) for w in report.warnings] == [("$.dummies", "O'Leary 3.1.1")]
    assert "german sets up HIP units but no dummy HIP counter" in report.warnings[0].message
    assert "allotment is 2" in report.warnings[0].message


def test_gwasl_validate_prints_the_hip_warning_o_leary_3_1_1(capsys, tmp_path):
    """`gwasl validate` on Rossignol without its dummy HIP counters: valid (exit 0), one warning naming
    the rule; with them, no warning."""
    import json

    from gwasl.cli import main

    d = source(bundled_scenario("rossignol-1914.json"))
    d["dummies"] = [x for x in d["dummies"] if x["kind"] != "dummy_hip"]
    p = tmp_path / "no-dummy-hip.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    assert main(["validate", str(p)]) == 0
    out = capsys.readouterr().out
    assert "1 warning(s)" in out and "german sets up HIP units but no dummy HIP counter" in out and "O'Leary 3.1.1" in out
    assert main(["validate", str(bundled_scenario("rossignol-1914.json"))]) == 0
    assert "warning" not in capsys.readouterr().out


def test_a_hip_crew_revealed_by_its_fire_reveals_the_mg_it_holds_o_leary_3_4_3_2_2():
    """Ovillers: the crew G-MG holds the MG G-MGW, both HIP in F3.  Advancing Fire by the crew alone
    (its inherent FP, A7.351) revealed the crew and left the MG it holds HIP (O'Leary 3.4); when the
    broken crew routed with it, moving a HIP piece raised an internal error (O'Leary 3.2.2).  A SW
    is hidden with its holder and revealed with it; the squad G-1 in the same hex stays HIP."""
    from games.aslgw.playout import GAME
    from gwasl.games.aslgw.records import ConcealmentLost

    s = session(source(bundled_scenario("ovillers-1916.json")), 1, ("german",))
    assert {i: s.state.fog.status_of(i).value for i in ("G-1", "G-MG", "G-MGW")} == dict.fromkeys(("G-1", "G-MG", "G-MGW"), "hip")
    after = GAME.reduce(s.state, ConcealmentLost("german", ("G-MG",), "F3", "it fires (A12.141; O'Leary 3.4)"))
    assert {i: after.fog.status_of(i).value for i in ("G-1", "G-MG", "G-MGW")} == {"G-1": "hip", "G-MG": "none", "G-MGW": "none"}
