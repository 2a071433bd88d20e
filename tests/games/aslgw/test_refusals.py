"""Every refusal names its rule and its reason in words (issue 24 item 12): illegal actions
of each family of actions, a refused Bayonet Charge, an impulse that would leave a squad
out of formation (ASLGW 1.4.1, 1.4.11), a move the legal list does not offer; and a
refusal is worked out from what the viewer knows, never the hidden truth."""

from __future__ import annotations

import re

import pytest

from games.aslgw.builders import doc, leader, session, squad, to_phase
from gwasl.engine.game import IllegalAction
from gwasl.games.aslgw.records import (
    BayonetCharge,
    ChargeStep,
    CloseCombat,
    Detach,
    DoubleTime,
    EndChargeImpulse,
    EndImpulse,
    EndPhase,
    EndPlatoon,
    EndWindow,
    Exit,
    Fire,
    ImpulseStep,
    MinefieldChoice,
    Move,
    MovePile,
    Rally,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    Rout,
    RunWindow,
    Shift,
    Withdraw,
)

#: a rule as the texts number it
RULE = re.compile(r"\((?:[^()]*\b)?(?:A\d+(?:\.\d+)*|B\d+(?:\.\d+)*|ASLGW \d+(?:\.\d+)*|O'Leary \d+(?:\.\d+)*)")
#: the old refusal that said nothing
BARE = "not a legal action now"


def refusal(s, action, viewer="player"):
    with pytest.raises(IllegalAction) as e:
        s.act(action, viewer)
    text = str(e.value)
    assert BARE not in text and RULE.search(text), text
    return text


def _platoon():
    members = [squad("P1", "C3", platoon="P"), squad("P2", "C4", platoon="P")]
    return doc([leader("PL", "C3", platoon="P"), *members, squad("F", "J9", "french"), squad("E", "H2", "french", broken=True)],
               formations=[{"id": "P", "kind": "platoon", "leader": "PL"}])


def test_an_impulse_that_would_leave_a_squad_out_of_formation_is_refused_with_aslgw_1_4_11():
    """ASLGW 1.4.1, 1.4.11: P2 steps away from P1 and its leader; the impulse may not end so."""
    s = session(_platoon())
    to_phase(s, "MPh")
    s.act(ImpulseStep("P", "P2", "C5", "ground"))
    text = refusal(s, EndImpulse("P"))
    assert "P2" in text and "ASLGW 1.4.11" in text
    assert "ASLGW 1.4.1" in refusal(s, ImpulseStep("P", "P2", "C6", "ground"))  # one location per impulse
    assert "ASLGW 1.4.1" in refusal(s, Move(("P1",), "D3", "ground"))  # the impulse first
    assert "ASLGW 1.4.1" in refusal(s, EndPlatoon("P"))
    assert "ASLGW 1.4.1" in refusal(s, EndPhase())


def test_a_move_the_list_does_not_offer_says_which_rule_forbids_it_a4():
    s = session(doc([squad("G", "C4"), leader("GL", "C4"), squad("H", "B2"), leader("HL", "B2"), squad("F", "C5", "french")]))
    to_phase(s, "MPh")
    assert "A4.14" in refusal(s, Move(("G",), "C5", "ground"))  # into the Known enemy's hex
    assert "A4.1" in refusal(s, Move(("G",), "C7", "ground"))  # not ADJACENT
    assert "A4.61" in refusal(s, Move(("G",), "C3", "ground", "advance"))
    assert "B27" in refusal(s, Move(("G",), "C3", "trench"))
    assert "A4.3" in refusal(s, Move(("G", "H"), "C3", "ground"))  # not one Location
    s.act(Move(("G", "GL"), "C3", "ground"))
    s.act(Move(("H", "HL"), "B3", "ground"))  # G is done once another group moves (A4.3)
    assert "A4.3" in refusal(s, Move(("G", "GL"), "C2", "ground"))


def test_a_refused_bayonet_charge_names_its_rule_aslgw_1_5():
    """ASLGW 1.5: a German BCh needs two MMC per hex on average and a leader; declared in the
    MPh only."""
    d = doc([leader("GL", "D2"), squad("G1", "D2"), squad("G2", "E2"), squad("F", "D7", "french")], date="1916-07-01")
    s = session(d)
    assert "ASLGW 1.5" in refusal(s, BayonetCharge(("G1", "G2", "GL"), 3))
    to_phase(s, "MPh")
    assert "ASLGW 1.5" in refusal(s, BayonetCharge(("G1", "G2", "GL"), 3))


def test_illegal_actions_of_every_family_are_refused_with_a_rule():
    d = doc([squad("G", "B2"), leader("GL", "B2"), squad("H", "C3", broken=True), squad("F", "E4", "french"),
             squad("K", "J9", "french", hidden="concealed")], hexes={"J9": {"terrain": "woods"}})
    s = session(d)
    assert s.status().phase == "RPh"
    cases = [
        Rally("G"), Rally("F"), Repair("G"), Rout("H", "A1"), CloseCombat("E4"), Withdraw(("G",), "B2", "B1"),
        Fire(("G",), "E4", "ground", "prep"), Move(("G",), "B3", "ground"), MovePile("german", "B2", "ground", False, "B3"),
        DoubleTime(("G",)), ImpulseStep("P", "G", "B3", "ground"), EndImpulse("P"), Detach("P", "G"), EndPlatoon("P"),
        Exit(("G",)), Shift("dummy", "german", "s1", "s2"), EndWindow("german"), RunWindow("german"),
        MinefieldChoice("m1", None), BayonetCharge(("G", "GL"), 0), ChargeStep("G", "B3"), EndChargeImpulse(),
        ReleaseGas("german", 0), RemoveGasMask("G"),
    ]
    for a in cases:
        refusal(s, a)
    to_phase(s, "PFPh")
    for a in (Fire(("G",), "E4", "ground", "final"), Fire(("H",), "E4", "ground", "prep"), Fire(("G",), "E4", "ground", "normal"),
              Fire(("G",), "D4", "ground", "prep"), Rally("H"), Move(("G",), "B3", "ground")):
        refusal(s, a)
    to_phase(s, "MPh")
    for a in (Move(("H",), "B3", "ground"), DoubleTime(("H",)), Exit(("G",)), Rout("H", "A1"), Fire(("F",), "B2", "ground", "first")):
        refusal(s, a)
    to_phase(s, "RtPh")
    refusal(s, Rout("G", "A1"))
    refusal(s, Rout("H", "E5"))  # ADJACENT to the French in E4


def test_a_refusal_tells_nothing_of_what_the_viewer_cannot_see():
    """The refusal of an order naming a hidden enemy unit reads as for a unit that does not
    exist: the player learns nothing of the "?" (A12.1)."""
    d = doc([squad("G", "B2"), leader("GL", "B2"), squad("F", "E4", "french"),
             squad("K", "J9", "french", hidden="concealed", broken=True)], hexes={"J9": {"terrain": "woods"}})
    s = session(d, secret=("french",))
    to_phase(s, "RPh", "french")
    for make in (lambda u: Rally(u), lambda u: Repair(u), lambda u: Rout(u, "J8")):
        hidden = _text(s, make("K"))
        none = _text(s, make("ZZ"))
        assert hidden.replace("'K'", "'?'") == none.replace("'ZZ'", "'?'")


def _text(s, action):
    with pytest.raises(IllegalAction) as e:
        s.act(action)
    return str(e.value)
