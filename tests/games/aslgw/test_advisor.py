"""Issue 27 item 11: Suggest a move for the Great War ranks a few plans for the person's side
by rollouts on the advice dice, from what that side's seat knows (O'Leary 1; A12), scored by
the card's victory conditions as if the game ended there (A26)."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from games.aslgw.playout import GAME, source
from games.aslgw.variants import hidden_variants
from gwasl.engine import dice as public_dice
from gwasl.engine.advice import candidates_of
from gwasl.engine.game import GameOptions, Viewer
from gwasl.engine.session import Session
from gwasl.games.aslgw import advisor as A
from gwasl.games.aslgw.knowledge import is_hidden
from gwasl.model.scenario import UnitKind
from testsupport import SCENARIOS

_EIGHT = struct.Struct("<8Q")
_REAL_DIGEST = public_dice._digest


def _against(doc: dict[str, Any], opponent: str, seed: int = 1) -> Session[Any]:
    return Session.new(GAME, doc, seed, GameOptions(frozenset({opponent}), False, {"opponent": opponent}))


def test_the_leaf_is_the_cards_victory_conditions_as_if_the_game_ended_now() -> None:
    """A26.23 and A26.3 on Saint-Julien's card: the Germans need 4 exit VP; at the start they
    have none, so the British win by avoiding the Germans' condition: 1 for the British, 0 for
    the Germans.  A card without victory conditions (Schwaben Redoubt) names no winner: the
    CVP margin's sign stands in, even at the start."""
    s = Session.new(GAME, source(SCENARIOS / "saint-julien-1915.json"), 1, GameOptions())
    assert A.leaf(s.state, "british")[0] == 1.0 and A.leaf(s.state, "german")[0] == 0.0
    sr = Session.new(GAME, source(SCENARIOS / "schwaben-redoubt-1916.json"), 1, GameOptions())
    assert not sr.state.victory.card.conditions()
    assert A.leaf(sr.state, "british") == (0.5, 0.0)


def test_the_rollout_state_holds_only_what_the_seat_knows_with_each_question_mark_filled() -> None:
    """O'Leary 2.1 and A12.1: no enemy unit hidden from the French is in the rollout state;
    each German "?" pile is a stack of notional squads (what a "?" may be), the same in twin
    games that differ only in the Germans' hidden facts; solitaire with no secret side: the
    state itself (the person sees everything)."""
    doc = source(SCENARIOS / "rossignol-1914.json")
    twins = [doc, *[v for _, v in hidden_variants(doc, "german")[:4]]]
    assert len(twins) >= 3
    views = []
    for t in twins:
        s = _against(t, "german")
        truth = s.state
        got = A.rollout_state(truth, Viewer("french", frozenset({"french"})))
        hidden = {u.id for u in truth.fog.scenario.units if u.side == "german" and is_hidden(truth.fog, u.id)}
        ids = {u.id for u in got.fog.scenario.units}
        assert hidden and not hidden & ids
        german_stacks = [st for st in got.fog.stacks if st.side == "german"]
        assert german_stacks and all(st.unit_ids for st in german_stacks)
        notional = [u for u in got.fog.scenario.units if u.id.startswith("? of german")]
        assert notional and all(u.kind is UnitKind.SQUAD for u in notional)
        views.append((tuple(sorted((u.id, u.hex, u.unit_class) for u in got.fog.scenario.units)), got.fog.stacks))
    assert all(v == views[0] for v in views)
    open_game = Session.new(GAME, doc, 1, GameOptions())
    assert A.rollout_state(open_game.state, Viewer("french", frozenset({"french"}))) is open_game.state


#: (scenario, the side gwasl plays): twins in its hidden facts give different suggestions
#: when the rollouts start from the true state (checked by hand: each pair here then differs)
_TWINS = (("rossignol-1914", "german"), ("ovillers-1916", "german"), ("bois-des-caures-1916", "french"))


@pytest.mark.parametrize(("scenario", "opponent"), _TWINS)
def test_twins_differing_only_in_hidden_enemy_facts_get_the_same_suggestion(scenario: str, opponent: str) -> None:
    """O'Leary 1 and A12: the person's suggestion in twin games (the opponent's hidden facts
    differ) has the same plans, win chances and reasons in every twin."""
    doc = source(SCENARIOS / f"{scenario}.json")
    twins = [doc, *[v for _, v in hidden_variants(doc, opponent)[:4]]]
    assert len(twins) >= 3
    twin_hints = []
    for t in twins:
        hint = _against(t, opponent, 3).suggest()
        assert hint is not None
        twin_hints.append(hint)
    first = twin_hints[0]
    assert candidates_of(first[1])
    for name, d in twin_hints[1:]:
        assert name == first[0] and d.action == first[1].action and d.why == first[1].why
        assert [c.to_json() for c in candidates_of(d)] == [c.to_json() for c in candidates_of(first[1])]


def test_plans_are_ranked_with_rollouts_on_the_advice_dice_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27 item 10: several plans at the German attacker's first fire phase at Saint-Julien
    (the opponent's choice and the alternatives the legal list offers), ranked, each rolled out;
    every die of the game's own future moved one face on changes none of it."""
    s = _against(source(SCENARIOS / "saint-julien-1915.json"), "british")
    for _ in range(40):
        hint = s.suggest()
        assert hint is not None
        if len(candidates_of(hint[1])) >= 3:
            break
        s.act(hint[1].action)
    ranked = candidates_of(hint[1])
    assert len(ranked) >= 3 and ranked[0].plan == hint[0] and hint[1].action == ranked[0].action
    assert all(0 < c.rollouts <= A.ROLLOUTS and c.why for c in ranked)
    assert [c.win_chance for c in ranked] == sorted((c.win_chance for c in ranked), reverse=True)
    monkeypatch.setattr(public_dice, "_digest", lambda seed, block: _EIGHT.pack(
        *((x + 1) % (1 << 64) for x in _EIGHT.unpack(_REAL_DIGEST(seed, block)))))
    again = s.suggest()
    assert again is not None and again[0] == hint[0] and again[1].why == hint[1].why
    assert [c.to_json() for c in candidates_of(again[1])] == [c.to_json() for c in ranked]


def test_no_suggestion_for_the_side_gwasl_keeps_secret() -> None:
    """Session.suggest keeps returning None for a secret side (its advice would pass its secrets on)."""
    s = _against(source(SCENARIOS / "saint-julien-1915.json"), "german")
    secret = Session.new(GAME, source(SCENARIOS / "saint-julien-1915.json"), 1,
                         GameOptions(frozenset({"german"}), False))
    assert s.status().side != "german" or s.suggest() is None
    if secret.status().side == "german":
        assert secret.suggest() is None


def test_a_question_mark_that_may_fire_first_does_not_empty_the_plans() -> None:
    """A8.1: in the rollout state a British "?" is a notional squad that may Defensive First Fire
    at a German unit that just moved, so the British decide first there; the advisor lets their
    opponent decide on the rollout's dice, then tries each plan (it tried none before: every
    German movement-phase suggestion at Saint-Julien came back without plans)."""
    moved = 0
    for seed in (0, 1):
        s = _against(source(SCENARIOS / "saint-julien-1915.json"), "british", seed)
        while s.state.turn == 1 and not s.status().over:
            base = s.suggest("opponent")
            assert base is not None
            if s.state.phase.value == "MPh" and s.status().side == "german" and s.state.fog.moved:
                hint = s.suggest()  # a German unit has just moved: the British "?" may fire first
                assert hint is not None and candidates_of(hint[1]), (seed, hint)
                moved += 1
                break
            s.act(base[1].action)
    assert moved == 2


def test_a_tie_goes_to_the_opponents_plan_not_to_standing_still() -> None:
    """A26.23 at Saint-Julien: the German attacker wins only by exiting 4 VP, so a leaf judged as
    if the game ended now reads the same for every plan early on; the tie must go to the
    opponent's own plan (its advance), not to the plan of the best CVP margin (in turn 2's MPh of
    seed 1 moves and ending the phase had better margins: the advisor stood still)."""
    s = _against(source(SCENARIOS / "saint-julien-1915.json"), "british", 1)
    ties = 0
    for _ in range(30):
        base = s.suggest("opponent")
        assert base is not None
        if s.status().side == "german" and len(s.legal()) > 1:
            hint = s.suggest()
            assert hint is not None
            ranked = candidates_of(hint[1])
            mine = next((c for c in ranked if c.plan == "opponent"), None)
            if mine is not None and len(ranked) > 1 and mine.win_chance == ranked[0].win_chance:
                assert hint[0] == "opponent" and hint[1].action == base[1].action, hint[1].why
                ties += 1
        s.act(base[1].action)
    assert ties >= 3
