"""A pinned leader lends no leadership (A7.8) and the NMC of a Final Protective Fire is
read on the FPF attack's own Original DR (A8.31): issue 24 item 6."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.aslgw.builders import doc, leader, session, squad, to_phase
from games.aslgw.combat_support import emitter, rolls
from gwasl.engine.events import Rolled
from gwasl.engine.game import IllegalAction
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.records import Fire, Move


def _pinned(s, uid):
    s.state = s.state.with_play({uid: replace(s.state.unit_play(uid), pinned=True)})


def test_a_pinned_leader_adds_no_leadership_to_the_mc_of_the_units_stacked_with_him_a7_8():
    """A7.8: a pinned leader's leadership modifies no other unit's MC (ASLGW 1.3 would give
    his -2 to the squad stacked with him)."""
    s = session(doc([squad("G", "B2"), leader("L", "B2", rating="9-2"), squad("F", "H8", "french")]))
    em = emitter(s, [3, 3])
    fx.morale_check_unit(em, "G", "NMC", "test", lost={})
    assert any("leadership of L" in m.cause for m in rolls(em.events)[0].modifiers)
    _pinned(s, "L")
    em = emitter(s, [3, 3])
    fx.morale_check_unit(em, "G", "NMC", "test", lost={})
    assert not any("leadership" in m.cause for m in rolls(em.events)[0].modifiers)


def test_a_pinned_leader_directs_no_fire_a7_8():
    """A7.8: a pinned leader directs no fire: no fire of the list names him, and an order
    naming him is refused with the rule."""
    s = session(doc([squad("G1", "B2"), leader("GL", "B2", rating="9-1"), squad("F", "E3", "french")]))
    to_phase(s, "PFPh")
    assert any("GL" in a.action.firers for a in s.legal() if isinstance(a.action, Fire))
    _pinned(s, "GL")
    fires = [a.action for a in s.legal() if isinstance(a.action, Fire)]
    assert fires and not any("GL" in f.firers for f in fires)
    with pytest.raises(IllegalAction, match=r"pinned.*A7\.8"):
        s.act(Fire(("G1", "GL"), "E3", "ground", "prep"))


def test_the_fpf_nmc_uses_the_fpf_attacks_original_dr_a8_31():
    """A8.31: the unit firing FPF takes an NMC whose Original DR is the FPF attack's own:
    no second DR is thrown, and the NMC's roll shows the same dice."""
    d = doc([squad("G", "C4"), leader("GL", "C4"), squad("F", "B6", "french")])
    s = session(d)
    to_phase(s, "MPh")
    s.state = replace(s.state, combat=fx.with_mark(s.state.combat, "F", fire="final"))
    s.act(Move(("G", "GL"), "C5", "ground"))
    fpf = [a.action for a in s.legal() if isinstance(a.action, Fire) and a.action.mode == "fpf"]
    assert fpf
    em = emitter(s, [3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    fr.resolve(em, fpf[0])
    rs = [e for e in em.events if isinstance(e, Rolled)]
    ift = next(r for r in rs if "IFT" in r.cause)
    nmc = next(r for r in rs if "NMC of F" in r.cause and "A8.31" in r.cause)
    assert nmc.dice == ift.dice == (3, 4) and nmc.n == ift.n  # the same dice of the stream, read again
