"""GameDice.private: a side's own stream, for rolls a viewer must not see (a secret
side's shift DR, O'Leary 2.5), so they move no position a viewer can count."""

from __future__ import annotations

import hashlib

from gwasl.engine.dice import GameDice


def test_private_rolls_leave_the_public_stream_where_it_was():
    public = GameDice(11, position=5)
    mine = public.private("french", 3)
    mine.DR("O'Leary 2.5 shift DR")
    assert public.position == 5 and mine.position == 5
    assert public.log == [] and len(mine.log) == 1


def test_each_side_has_its_own_stream_fixed_by_seed_and_side():
    a = [GameDice(11).private("french").dr("x").dice[0] for _ in range(2)]
    assert a[0] == a[1]
    fr = [GameDice(11).private("french", i).dr("x").dice[0] for i in range(40)]
    de = [GameDice(11).private("german", i).dr("x").dice[0] for i in range(40)]
    pub = [GameDice(11, i).dr("x").dice[0] for i in range(40)]
    assert fr != de and fr != pub


def test_the_stream_is_the_one_saved_aslgw_games_were_rolled_with():
    """aslgw derived the same seed itself before the engine had it: old journals replay."""
    derived = int.from_bytes(hashlib.blake2b(b"gwasl-secret:11:french", digest_size=8).digest(), "little")
    assert GameDice(11).private("french", 7).seed == derived
    assert [GameDice(11).private("french", 7).dr("x").dice] == [GameDice(derived, 7).dr("x").dice]
