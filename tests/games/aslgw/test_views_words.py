"""The Great War log reads as English: a verb agrees with how many units it names."""

from __future__ import annotations

from gwasl.engine.game import Viewer
from gwasl.games.aslgw.records import ConcealmentGained, ConcealmentLost, DummyRemoved, Stopped
from gwasl.games.aslgw.views import event_view

ALL = Viewer("omniscient", frozenset({"french", "german"}))
FRENCH = Viewer("french", frozenset({"french"}))


def _text(event: object, viewer: Viewer = ALL) -> str:
    shown = event_view(event, viewer)  # type: ignore[arg-type]
    assert shown is not None
    return shown.text


def test_one_unit_that_fails_its_ntc_does_not_enter_two_do_not() -> None:
    """ASLGW 1.4.13: a unit that fails its NTC to move stays; the line names it in the singular."""
    one = Stopped(side="french", units=("F-1",), dummies=(), shown=("F-1",), counters=0, at="C2", at_in="ground",
                  to="D2", to_in="ground", why="failed its NTC to move (ASLGW 1.3.2, 1.4.13)")
    assert "F-1 at C2 does not enter D2" in _text(one)
    two = Stopped(side="french", units=("F-1", "F-2"), dummies=(), shown=("F-1", "F-2"), counters=0, at="C2",
                  at_in="ground", to="D2", to_in="ground", why="failed")
    assert "F-1, F-2 at C2 do not enter D2" in _text(two)


def test_concealment_lines_agree_with_their_units() -> None:
    """A12.12 and A12.141: "G-2 loses concealment", "G-1, G-3 gain concealment"."""
    lost = ConcealmentLost(side="german", units=("G-2",), at="G3", why="it fires (A12.141)")
    assert "G-2 at G3 loses concealment" in _text(lost)
    gained = ConcealmentGained(side="german", units=("G-1", "G-3"), at="H1", at_in="ground")
    assert "G-1, G-3 at H1 gain concealment" in _text(gained)


def test_a_dummy_of_one_counter_is_one_counter() -> None:
    """A12.152: a dummy "?" hit by fire is removed; its size in words."""
    removed = DummyRemoved(side="german", stacks=("d1",), counters=1, at="F4", at_in="ground", why="a dummy hit by fire is removed (A12.152)")
    assert 'the "?" of 1 counter at F4' in _text(removed, FRENCH)


def test_residual_fp_is_named_once_and_a_kept_rate_of_fire_agrees() -> None:
    """A8.2: Residual FP attacks a unit that moves into its Location; it has no firers to
    name.  A7.35: the weapon that keeps its rate of fire, in the singular."""
    from gwasl.games.aslgw.records import FireResolved

    residual = FireResolved(side="british", mode="residual", firers=(), at="G3", at_in="ground", target_side="german",
                            fp="8", drm=-1, final=5, results=("units: 2MC",))
    text = _text(residual)
    assert "british: Residual FP at G3:" in text and "Residual FP of" not in text
    rof = FireResolved(side="british", mode="first", firers=("K-1", "MMG-1"), at="G3", at_in="ground",
                       target_side="german", fp="8", drm=0, final=7, results=("units: PTC",), rof_kept=("MMG-1",))
    assert "MMG-1 keeps its rate of fire (A7.35)" in _text(rof)


def test_a_rally_attempt_reads_as_a_sentence() -> None:
    """A10.6: "B-2 fails to rally", not "B-2: failed"; A10.61: an original 12 is a casualty
    reduction, and a self-rally says so."""
    from gwasl.games.aslgw.records import RallyResolved

    assert _text(RallyResolved(side="french", unit="F-2", outcome="failed")) == "french: F-2 fails to rally (A10.6)"
    assert _text(RallyResolved(side="french", unit="F-2", outcome="rallied")) == \
        "french: F-2 passes its rally attempt (A10.6)"
    twelve = _text(RallyResolved(side="french", unit="F-2", outcome="casualty_reduction", self_rally=True))
    assert twelve == "french: F-2 (self-rally, A10.61) rolls an original 12 on its rally attempt: casualty reduction (A10.6)"


def test_units_that_exit_together_name_their_hex_once() -> None:
    """A26.23: "exits S-1, S-L2 off the map from J5", not "from J5, J5"."""
    from gwasl.games.aslgw.records import Exited

    text = _text(Exited(side="german", units=("S-1", "S-L2"), at=("J5", "J5"), vp=4))
    assert "off the map from J5: 4 exit VP (A26.23)" in text


def test_gas_protection_taken_off_reads_once() -> None:
    """ASLGW 1.9.16: "R-L takes its gas protection off: 1 MF ...", not "R-L gas_removed: takes ..."."""
    from gwasl.games.aslgw.records import UnitHit

    text = _text(UnitHit("german", "R-L", "gas_removed", "takes its gas protection off: 1 MF; its CX goes at the end "
                                                        "of the MPh (ASLGW 1.9.16)"))
    assert text.startswith("german: R-L takes its gas protection off: 1 MF;") and "gas_removed" not in text
