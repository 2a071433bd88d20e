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
from gwasl.games.aslgw.records import BayonetCharge
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
