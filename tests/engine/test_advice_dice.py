"""Issue 27 item 10: a hint never sees the game's coming dice.

``Session.suggest`` used to hand the policy ``GameDice(seed, position)``: the very dice the
game rolls next, so a policy that looked ahead would read them and its advice pass them to
the player.  Hints now roll the advice stream (:class:`gwasl.engine.advice.AdviceDice`).
The tests replace the game's future public dice by a hand-made stream (every die of the
public stream's function moved to another face: the same past, since the state and journal
are already made) and show every ruleset's hint unchanged; a lookahead policy that reads
the dice it is given is caught reading the public stream on the old code; and twin games
that differ only in facts hidden from the player (CONTRACTS 5, O'Leary 1) get the same
hint with the future dice changed as well.
"""

from __future__ import annotations

import copy
import struct
from typing import Any

import pytest

from engine.toygame import Step, ToyGame
from gwasl.engine import dice as public_dice
from gwasl.engine.advice import AdviceDice, candidates_of
from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, GameOptions
from gwasl.engine.session import Session

_EIGHT = struct.Struct("<8Q")
_REAL_DIGEST = public_dice._digest


def _hand_made(seed: int, block: int) -> bytes:
    """The public stream with every die moved one face on (x % 6 + 1 changes for every x)."""
    return _EIGHT.pack(*((x + 1) % (1 << 64) for x in _EIGHT.unpack(_REAL_DIGEST(seed, block))))


@pytest.fixture()
def other_future(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Call it to replace the game's future public dice by the hand-made stream."""
    def swap() -> None:
        monkeypatch.setattr(public_dice, "_digest", _hand_made)
    return swap


def test_the_hand_made_stream_changes_every_public_die(other_future: Any) -> None:
    before = _dice(GameDice(11, 40), 32)
    other_future()
    after = _dice(GameDice(11, 40), 32)
    assert all(a != b for a, b in zip(before, after, strict=True))


def _dice(d: GameDice, n: int) -> list[int]:
    return [d.dr("x").total for _ in range(n)]


def test_the_advice_stream_is_not_the_public_stream_and_is_reproducible() -> None:
    """Not the game's dice from its position on (nor from any other position near it)."""
    public = _dice(GameDice(5, 10), 400)
    advice = _dice(AdviceDice(5, 10), 40)
    assert advice == _dice(AdviceDice(5, 10), 40)
    assert all(public[i:i + 40] != advice for i in range(len(public) - 40))
    assert _dice(AdviceDice(5, 10).rollout(1), 40) != advice


class _Peeker(ToyGame):
    """A lookahead policy that reads the dice it is handed: it runs when the next die would
    carry it far (a policy that WOULD read the public stream if handed it)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[type, int]] = []

    def policies(self) -> dict[str, Any]:
        return {"peek": self.peek}

    def peek(self, seat: Any, dice: GameDice) -> Decision:
        self.seen.append((type(dice), dice.seed))
        coming = [dice.dr("looking ahead").total for _ in range(6)]
        return Decision(Step(), f"the next dice are {coming}")


def test_a_lookahead_policy_reads_no_public_die(other_future: Any) -> None:
    """Issue 27 item 10: the hint of a policy that looks ahead through its dice is the same
    whatever the game's coming dice are, and what it read is not those dice (old code: it
    read GameDice(seed, position), the next six dice of the game, and its hint changed)."""
    game = _Peeker()
    s = Session.new(game, None, 4)
    coming = _dice(GameDice(s.seed, s.dice_position), 6)
    hint = s.suggest()
    assert hint is not None and hint[1].why != f"the next dice are {coming}"
    assert game.seen[-1][1] != s.seed
    other_future()
    assert _dice(GameDice(s.seed, s.dice_position), 6) != coming  # the game's future changed...
    assert s.suggest() == hint  # ...and the hint did not


def _same_hint_whatever_the_dice(s: Session[Any], other_future: Any) -> tuple[str, Decision]:
    hint = s.suggest()
    assert hint is not None
    other_future()
    again = s.suggest()
    assert again is not None
    assert again[0] == hint[0] and again[1].action == hint[1].action and again[1].why == hint[1].why
    assert [c.to_json() for c in candidates_of(again[1])] == [c.to_json() for c in candidates_of(hint[1])]
    return hint


def test_combined_arms_advice_is_the_same_whatever_the_coming_dice(other_future: Any) -> None:
    """CA Enemy Decisions: the reveal rolls and the enemy's rolls to come are the game's
    dice; the advisor's rollouts roll its own (turn 1, each policy's plan rolled out)."""
    from gwasl.games.combined_arms.game import CombinedArmsGame

    s = Session.new(CombinedArmsGame(), None, 3)
    name, decision = _same_hint_whatever_the_dice(s, other_future)
    ranked = candidates_of(decision)
    assert name == ranked[0].plan and len(ranked) == 3 and all(c.rollouts > 0 for c in ranked)


def test_on_patrol_hint_is_the_same_whatever_the_coming_dice(other_future: Any) -> None:
    """On Patrol 104.1.2: the commander sees the board, not the escorts' coming rolls."""
    from gwasl.games.on_patrol.game import OnPatrolGame
    from gwasl.games.on_patrol.scenario import load_bundled

    s = Session.new(OnPatrolGame(), copy.deepcopy(load_bundled("day-convoy")), 1)
    _same_hint_whatever_the_dice(s, other_future)


def test_great_war_twins_get_the_same_hint_whatever_the_coming_dice(other_future: Any) -> None:
    """O'Leary 1 (the opponent's hidden layer stays hidden) and A12: twin Rossignol games
    that differ only in the German opponent's hidden facts give the French player the same
    suggestion, and it stays the same when the game's coming dice change."""
    from games.aslgw.playout import GAME, source
    from games.aslgw.variants import hidden_variants
    from testsupport import SCENARIOS

    doc = source(SCENARIOS / "rossignol-1914.json")
    options = GameOptions(frozenset({"german"}), False, {"opponent": "german"})
    twins = [doc, *[v for _, v in hidden_variants(doc, "german")[:3]]]
    assert len(twins) >= 2
    hints = [Session.new(GAME, t, 1, options).suggest() for t in twins]
    assert hints[0] is not None and all(h == hints[0] for h in hints)
    other_future()
    assert [Session.new(GAME, t, 1, options).suggest() for t in twins[:1]] == hints[:1]
