"""The Great War move list, made with its facts worked out once per list (issue 23 item 7),
offers exactly the steps that :func:`~gwasl.games.aslgw.actions.movement.group_problem`
allows, one by one: A4.1 (MF), A4.14 (no entry where known enemy units stand in the MPh),
A4.61 and A4.7 (the modes), A5.1 with ASLGW 2.1.4 and 2.2.1 (stacking).  And the command
status kept per scenario for the fire NTCs (ASLGW 1.3.1, 1.3.2) is the one worked out afresh."""

from __future__ import annotations

import random
from typing import Any

from games.aslgw.playout import new_session, pick, scenario_paths, source
from gwasl.engine.game import Viewer
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.actions import movement as mv
from gwasl.games.aslgw.actions import turn
from gwasl.games.aslgw.knowledge import known_scenario
from gwasl.games.aslgw.records import Move
from gwasl.model.phases import Phase
from gwasl.model.scenario import UnitKind
from gwasl.rules.command import command_status
from gwasl.rules.movement import steps_from


def _states(seed: int, limit: int = 160) -> list[Any]:
    s = new_session(source(scenario_paths()[0]), seed)
    rng = random.Random(seed)
    out = [s.state]
    while not s.status().over and len(out) < limit:
        s.act(pick(s.legal(), rng).action)
        out.append(s.state)
    return out


def test_the_move_list_offers_what_group_problem_allows_step_by_step() -> None:
    checked = 0
    for st in _states(5):
        side = turn.to_act(st)
        if side is None or st.over or st.phase not in (Phase.MPh, Phase.APh) or st.impulse is not None:
            continue
        for knows in (True, False):
            viewer = Viewer(side if knows else "someone", frozenset({side}) if knows else frozenset())
            offered = [a for a in mv.legal(st, side, viewer, knows) if isinstance(a, Move)]
            sc = known_scenario(st.fog, frozenset({side}) if knows else frozenset())
            # every group the list offers a step to, and every unit on its own (always a candidate)
            groups = {a.pieces for a in offered}
            groups |= {(u.id,) for u in sc.units if u.side == side and u.kind is not UnitKind.SUPPORT_WEAPON
                       and mv.unit_blocker(st, st.fog, u) is None}
            for ids in sorted(groups):
                g = mv.group(st, ids)
                if g.dummies or any(u not in sc.units for u in g.units):
                    continue  # a "?" order or a unit this viewer does not see: group() reads the truth
                loc = g.location()
                assert loc is not None
                allowed = [(s.to_hex.label, s.to_pos.value, mode) for s in steps_from(sc, *loc)
                           for mode in mv.MOVE_MODES[st.phase]
                           if mv.group_problem(st, sc, st.fog, g, s.to_hex, s.to_pos, mode)[1] is None]
                assert [(a.to, a.to_in, a.mode) for a in offered if a.pieces == ids] == allowed
                checked += len(allowed)
    assert checked > 100  # not vacuous


def test_the_kept_command_status_is_the_one_worked_out_afresh() -> None:
    for st in _states(2, limit=60)[::10]:
        for side in st.settings.order:
            sc = known_scenario(st.fog, frozenset({side}))
            assert fr._command_status(sc, side) == command_status(sc, side)
            assert fr._command_status(sc, side) is fr._command_status(sc, side)
