"""An automated side's decisions in the log (docs/architecture.md "A game in play"; issue 14.4): a side
gwasl keeps secret explains itself to its own viewers in full; to the player only where
the policy declares the why public (its action shows what the why names), and then
without the details (the candidates it weighed)."""

from __future__ import annotations

from engine.toygame import ToyGame
from gwasl.engine.events import ENGINE_EVENTS, Decided
from gwasl.engine.game import Viewer

PLAYER = Viewer("player", frozenset({"blue"}))
RED = Viewer("red", frozenset({"red"}))


def _decided(public: bool) -> Decided:
    return Decided("red", "fires at B2: 42%", {"candidates": ["A1 -> B2: 42%", "C3 -> B2: 10%"]}, "red", public)


def test_a_private_decision_is_shown_to_its_side_only():
    game = ToyGame()
    assert game.decision_shown(_decided(False), PLAYER) is None
    full = game.decision_shown(_decided(False), RED)
    assert full is not None and full.data["details"]["candidates"]


def test_a_public_decision_shows_its_why_to_everyone_but_its_details_to_its_side():
    game = ToyGame()
    seen = game.decision_shown(_decided(True), PLAYER)
    assert seen is not None and seen.text == "red: fires at B2: 42%" and dict(seen.data) == {"side": "red"}
    full = game.decision_shown(_decided(True), RED)
    assert full is not None and "details" in full.data


def test_public_defaults_to_false_for_events_written_before_it_existed():
    """A journal written before the field existed still reads (the field is optional)."""
    old = {"kind": "decision", "v": 1, "side": "red", "why": "x", "details": {}, "private_to": "red"}
    ev = ENGINE_EVENTS.decode(old)
    assert isinstance(ev, Decided) and ev.public is False
