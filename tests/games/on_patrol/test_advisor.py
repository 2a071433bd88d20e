"""Issue 27 item 11: Suggest a move for On Patrol ranks the commander's plans by rollouts on the
advice dice.  The leaf counts what the patrol's result counts: the VP of ships sunk or sinking
(each ship's Victory Point value, 103.3.3) less the VP of a lost boat, against the patrol's
victory levels (gwasl's scoring, docs/on-patrol.md "The end"), with a boat still on patrol;
the commander sees the whole board (104.1.2), so the rollouts start from the state."""

from __future__ import annotations

import copy
import struct
from dataclasses import replace
from typing import Any

import pytest

from games.on_patrol.op_support import GAME, started
from gwasl.engine import dice as public_dice
from gwasl.engine.advice import AdviceDice, candidates_of
from gwasl.engine.game import Seat
from gwasl.engine.session import Session
from gwasl.games.on_patrol import advisor as A
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.scenario import load_bundled

_EIGHT = struct.Struct("<8Q")
_REAL_DIGEST = public_dice._digest


def test_the_leaf_is_the_patrols_result_as_it_stands_with_a_boat_on_patrol() -> None:
    """103.3.3's Victory Point values against the day convoy's levels (marginal 6): a ship of
    6 VP or more sinking is a victory while the boat is on patrol; the boat lost, its 20 VP
    come off and the escorts win; nothing sunk, the escorts win."""
    st = started("day-convoy")
    assert A.leaf(GAME, st) == (0.0, 0.0)
    big = max((s for s in st.ships if s.kind == "merchant"), key=lambda s: s.vp)
    assert big.vp >= st.victory["marginal"]
    hit = st.with_ship(replace(big, status="sinking"))
    assert A.leaf(GAME, hit) == (1.0, float(big.vp))
    lost = hit.with_sub(replace(hit.sub("U1"), status="sunk"))
    value, score = A.leaf(GAME, lost)
    assert value == 0.0 and score == big.vp - lost.sub("U1").vp


def _firing_position() -> Session[Any]:
    """The night convoy, seed 2, played by ``sensible`` until it would fire (104.1.5)."""
    s = Session.new(GAME, copy.deepcopy(load_bundled("night-convoy")), 2)
    for _ in range(3000):
        hint = s.suggest("sensible")
        assert hint is not None
        if isinstance(hint[1].action, R.Launch):
            return s
        s.act(hint[1].action)
    raise AssertionError("sensible never fired")


@pytest.fixture(scope="module")
def firing() -> Session[Any]:
    return _firing_position()


def test_where_sensible_fires_holding_fire_is_a_plan_each_rolled_out_on_the_same_dice(firing: Session[Any]) -> None:
    """104.1.5 (a launch at a vessel in sight and range) against holding fire this phase: both
    plans rolled out, ranked by win chance, each with its reason and rollouts; the suggestion
    is the best plan's first action; nothing of the game changed."""
    s = firing
    before = (s.state, s.dice_position)
    name, decision = s.suggest() or ("", None)
    assert decision is not None and s.state is before[0] and s.dice_position == before[1]
    ranked = candidates_of(decision)
    plans = {c.plan: c for c in ranked}
    assert {"sensible", "hold fire"} <= set(plans)
    assert isinstance(plans["sensible"].action, R.Launch) and not isinstance(plans["hold fire"].action, R.Launch)
    assert name == ranked[0].plan and decision.action == ranked[0].action
    assert all(0 < c.rollouts <= A.ROLLOUTS and c.why and "mean score" in c.why for c in ranked)
    assert [c.win_chance for c in ranked] == sorted((c.win_chance for c in ranked), reverse=True)


def test_a_plan_is_rolled_out_on_the_advice_dice_only(firing: Session[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27 item 10: the rollouts roll the advice stream; with every die of the game's own
    future moved one face on, the suggestion and every candidate read the same."""
    s = firing
    hint = s.suggest()
    assert hint is not None
    monkeypatch.setattr(public_dice, "_digest", lambda seed, block: _EIGHT.pack(
        *((x + 1) % (1 << 64) for x in _EIGHT.unpack(_REAL_DIGEST(seed, block)))))
    again = s.suggest()
    assert again is not None and again[0] == hint[0] and again[1].why == hint[1].why
    assert [c.to_json() for c in candidates_of(again[1])] == [c.to_json() for c in candidates_of(hint[1])]


def test_the_rollouts_start_from_what_the_commander_sees() -> None:
    """104.1.2: the commander sees everything on the board; the submarine seat's policy view is
    the state, and the state holds no coming die (the rollouts roll their own)."""
    st = Session.new(GAME, copy.deepcopy(load_bundled("hunter-group")), 1).state
    assert st.phase == 8
    seat = Seat(GAME, st, GAME.viewer(st, R.SUB_SIDE))
    assert seat.view() is st
    d = A.advise(GAME, seat, GAME.policies(), AdviceDice(1, 0), rollouts=2)
    ranked = candidates_of(d)
    assert ranked and all(c.rollouts == 2 for c in ranked if not isinstance(c.action, R.BreakOff))
    # break off never leads a tie: the horizon cuts playing on short, not breaking off
    assert not isinstance(ranked[0].action, R.BreakOff) or ranked[0].win_chance > ranked[1].win_chance
