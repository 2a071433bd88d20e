"""The memos of the legal lists, the fire odds, the known scenario, the fire distribution,
the shift attempts and the LOS index (issue 23 item 7) give exactly the answers worked out afresh: the same
lists in the same order, the same odds, the same LOS, at every state of a played game,
asked twice (the second answer from the memo).  Fire odds: A7.3 (IFT), ASLGW 1.3.2 (NTC);
shifts: O'Leary 2.3, 3.3.2; LOS: CONTRACTS 3, ASLGW 2.1.5."""

from __future__ import annotations

import random

from games.aslgw.playout import new_session, pick, scenario_paths, source
from gwasl.engine.game import Viewer
from gwasl.games.aslgw import knowledge
from gwasl.games.aslgw.actions import dispatch
from gwasl.games.aslgw.actions import fire as fr
from gwasl.games.aslgw.actions import shifts as sh
from gwasl.games.aslgw.records import Fire
from gwasl.model.hexgrid import Hex
from gwasl.rules import fire as fire_rules
from gwasl.rules.los import LosIndex


def _states(path: str, seed: int, limit: int = 120) -> list[object]:
    s = new_session(source(path), seed)
    rng = random.Random(seed)
    out = [s.state]
    while not s.status().over and len(out) < limit:
        s.act(pick(s.legal(), rng).action)
        out.append(s.state)
    return out


def test_memos_answer_as_the_work_done_afresh() -> None:
    path = str(scenario_paths()[0])
    states = _states(path, 3)
    viewers = [Viewer("player", frozenset(states[0].settings.order))]
    viewers += [Viewer(side, frozenset({side})) for side in states[0].settings.order]
    fires = 0
    for st in states:
        for v in viewers:
            fresh = dispatch._legal(st, v)
            assert dispatch.legal(st, v) == fresh
            assert dispatch.legal(st, v) == fresh
            for a in fresh:
                if isinstance(a, Fire):
                    fires += 1
                    odds = fr._fire_odds(st, a, v)
                    assert fr.fire_odds(st, a, v) == odds
                    assert fr.fire_odds(st, a, v) == odds
        for side in st.settings.order:
            assert sh.shift_options(st, side) == sh._shift_options(st, side)
            assert sh.shift_options(st, side) == sh._shift_options(st, side)
        fog = st.fog
        for knows in (frozenset(), frozenset(st.settings.order)):
            assert knowledge.known_scenario(fog, knows) == knowledge._known_scenario(fog, knows)
            assert knowledge.known_scenario(fog, knows) is knowledge.known_scenario(fog, knows)
    assert fires > 0  # not vacuous: some fire odds were compared


def test_a_kept_fire_distribution_is_the_one_worked_out_afresh() -> None:
    from fractions import Fraction

    from gwasl.rules.dice import Modifier

    for fp in (1, 2, 4, 8, 12, 36):
        for drm in (-2, 0, 1, 3):
            a = fire_rules.FireAttack((fire_rules.FirePart("G1", "inherent", Fraction(fp)),), (Modifier("TEM", drm),))
            fire_rules._DISTRIBUTIONS.clear()
            fresh = fire_rules.fire_distribution(a)
            kept = fire_rules.fire_distribution(a)
            assert kept == fresh and list(kept) == list(fresh)
            assert sum(fresh.values()) == 1
            kept["x"] = Fraction(0)  # a caller's change never reaches the memo
            assert fire_rules.fire_distribution(a) == fresh


def test_a_los_index_answers_again_as_afresh() -> None:
    path = str(scenario_paths()[0])
    sc = _states(path, 1, limit=1)[0].scenario
    idx, fresh = LosIndex(sc), LosIndex(sc)
    grid = [Hex(c, r) for c in range(-1, sc.map.columns + 1) for r in range(-1, sc.map.rows + 1)]
    hexes = [h for h in grid if sc.map.contains(h)]
    assert len(hexes) >= 40
    for a in hexes:
        for b in hexes:
            once = idx.los(a, b)
            assert idx.los(a, b) is once
            assert once == fresh._los(a, b, "ground", "ground")
