"""The bundled Great War scenarios with complete cards (A26): each validates clean, plays
to its end by random legal actions and by a scripted line of play, and can be won and
lost with movement alone (victory by Control and exit, A26.1, A26.23; A26.3 avoidance)."""

from __future__ import annotations

from typing import Any

import pytest

from games.aslgw.playout import new_session, random_game, random_game_replay, source
from gwasl.engine.session import Session
from gwasl.games.aslgw.records import Exit, Move
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.card import scenario_card
from gwasl.rules.validate import validate_scenario
from gwasl.rules.victory import ControlCondition
from gwasl.scenarios import bundled_scenario

CARDS = {"rossignol-1914.json": "french", "saint-julien-1915.json": "german",
         "ovillers-1916.json": "british", "saint-quentin-1918.json": "german"}


@pytest.mark.parametrize("name", sorted(CARDS))
def test_card_is_complete_and_validates_clean(name):
    sc = parse_scenario(source(bundled_scenario(name)), name)
    report = validate_scenario(sc)
    assert report.valid and not report.warnings, report.as_json()
    card = scenario_card(sc)
    assert set(card.setup) == set(sc.sides) and card.ssr and set(card.balance) == set(sc.sides)
    assert set(card.elr) == set(sc.sides) == set(card.san)
    assert card.victory[CARDS[name]].conditions and any(v.avoid for v in card.victory.values())  # A26.3
    assert any(u.hidden.value != "none" for u in sc.units) and sc.dummies  # the fog layer


@pytest.mark.parametrize("name", sorted(CARDS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_ends_with_a_result_that_explains_itself(name, seed):
    # new_session + play(s, random.Random(seed)); test_playthrough.py judges the same games
    s = random_game(bundled_scenario(name), seed, (_defender(name),))
    r = s.status().result
    assert r is not None and r["winner"] in (*CARDS.values(), "british", None) and r["why"]
    assert r["details"] and set(r["cvp"]) == set(s.state.settings.order)
    assert any(e["kind"] == "victory" for e in s.log())
    assert random_game_replay(bundled_scenario(name), seed, (_defender(name),)).identical


def _defender(name: str) -> str:
    sides = list(source(bundled_scenario(name))["sides"])
    return next(x for x in sides if x != CARDS[name])


def _targets(s: Session[Any], side: str) -> set[Hex]:
    card = s.state.victory.card
    out: set[Hex] = set(card.exits.get(side, frozenset()))
    sc = s.state.scenario
    for c in card.victory[side].conditions:
        if isinstance(c, ControlCondition):
            out |= {Hex.from_label(h) for h in c.hexes}
            out |= {h for h, d in sc.map.hexes.items() if d.building in c.buildings}
    return out


def _scripted(s: Session[Any], attacker: str, limit: int = 3000) -> None:
    """A sensible line of play for the attacker: exit when it may; else move a unit one hex
    closer to an objective no friendly unit holds yet; else end the phase.  The defender
    stands (ends its phases)."""
    for _ in range(limit):
        if s.status().over:
            return
        s.act(_scripted_step(s, attacker))
    raise AssertionError("the scripted game does not end")


def _scripted_step(s: Session[Any], attacker: str) -> Any:
    """The next action of :func:`_scripted`."""
    legal = [a.action for a in s.legal()]
    side = s.status().side
    if side == attacker:
        ex = [a for a in legal if isinstance(a, Exit)]
        if ex:
            return ex[0]
        held = {u.hex for u in s.state.scenario.units if u.side == attacker}
        # and hexes where the enemy is seen: movement does not enter them (A4; CC is another phase)
        held |= {u.hex for u in s.state.scenario.units if u.side != attacker and s.state.fog.status_of(u.id).value == "none"}
        targets = (_targets(s, attacker) - held) or _targets(s, attacker)
        best = None
        for a in legal:
            if isinstance(a, Move) and a.mode == "normal" and len(a.pieces) <= 2:
                u = s.state.scenario.unit(a.pieces[-1])
                keeper = min(x.id for x in s.state.scenario.units if x.side == attacker and x.hex == u.hex)
                if u.hex in _targets(s, attacker) and u.hex not in s.state.victory.card.exits.get(attacker, ()) \
                        and keeper in a.pieces:
                    continue  # one unit holds each objective it reached
                gain = min(u.hex.distance(t) for t in targets) - min(Hex.from_label(a.to).distance(t) for t in targets)
                score = (gain, len(a.pieces))  # a leader takes a squad along: no NTC (ASLGW 1.4.13)
                if gain > 0 and (best is None or score > best[0]):
                    best = (score, a)
        if best is not None:
            return best[1]
    ends = [a for a in legal if a.kind in ("end_phase", "end_window", "end_impulse", "end_platoon")]
    return ends[0] if ends else legal[0]  # a rout or close combat the phase cannot end without


@pytest.mark.parametrize("name", sorted(CARDS))
def test_a_scripted_attack_can_win_and_standing_still_loses(name):
    attacker = CARDS[name]
    wins = []
    for seed in range(1, 6):
        s = new_session(source(bundled_scenario(name)), seed)
        _scripted(s, attacker)
        r = s.status().result
        assert r is not None and r["why"]
        wins.append(r["winner"])
        assert s.replay_check().identical
    assert attacker in wins, wins  # winnable
    s = new_session(source(bundled_scenario(name)), 1)
    while not s.status().over:
        s.act(next(a.action for a in s.legal() if a.action.kind in ("end_phase", "end_window")))
    r = s.status().result
    assert r["winner"] == _defender(name) and "A26.3" in r["why"]  # losable: avoidance
