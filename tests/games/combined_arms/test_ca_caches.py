"""The speed caches of Combined Arms (issue 15 item 5) against the plain computation, over
many states: positions reached by seeded random playouts, with smoke added at random."""

from __future__ import annotations

import random

from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Seat
from gwasl.games import game_for
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.policies import random_policy
from gwasl.games.combined_arms.state import State, with_smoke

GAME = game_for("combined-arms")


def _states(seeds: range, every: int = 7) -> list[State]:
    """Every ``every``-th state of random games of these seeds, and each again with 0-4 smoke hexes."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        d = GameDice(seed)
        s = GAME.begun(GAME.setup(None, GameOptions()), d)
        k = 0
        while not GAME.status(s).over:
            side = GAME.status(s).side
            assert side is not None
            if k % every == 0:
                out.append(s)
                smoke = tuple((h, s.turn) for h in rng.sample(range(B.N), rng.randint(1, 4)))
                out.append(with_smoke(s, smoke))
            dec = (GAME.automated(s).get(side) or random_policy)(Seat(GAME, s, GAME.viewer(s, side), quiet=True), d)
            s = GAME.step(s, dec.action, d)
            k += 1
    return out


STATES = _states(range(8))


def test_fire_reach_is_line_of_fire_to_every_hex():
    """CA Fire Attacks, Figure 5: fire_reach's bitmasks are line_of_fire's answers (not BLOCKED,
    PARTIAL) from every hex to every hex 1-5 hexes away, in every state, cached or not."""
    assert len(STATES) > 200
    for s in STATES[::3]:
        for frm in range(B.N):
            clear, partial = R.fire_reach(s, frm)
            for h in range(B.N):
                if not 1 <= B.distance(frm, h) <= 5:
                    assert not (clear | partial) >> h & 1
                    continue
                lof = R.line_of_fire(s, frm, h)
                assert bool(clear >> h & 1) == (lof != R.BLOCKED), (frm, h)
                assert bool(partial >> h & 1) == (lof == R.PARTIAL), (frm, h)
            assert R.fire_reach(s, frm) == (clear, partial)


def _plain_clusters(s: State, frm: int) -> list[tuple[tuple[int, ...], int]]:
    """CA Enemy Fire's clusters the plain way: payoff() hex by hex, then every 1, 2 or 3
    mutually adjacent hexes among those with a payoff."""
    pay = {h: R.payoff(s, frm, h)[0] for h in range(B.N) if R.infantry_in(s, h)}
    hs = sorted(h for h, p in pay.items() if p > 0)
    out = [((h,), pay[h]) for h in hs]
    for i, a in enumerate(hs):
        for j in range(i + 1, len(hs)):
            b = hs[j]
            if B.distance(a, b) == 1:
                out.append(((a, b), pay[a] + pay[b]))
                out.extend(((a, b, c), pay[a] + pay[b] + pay[c]) for c in hs[j + 1:]
                           if B.distance(a, c) == 1 and B.distance(b, c) == 1)
    return out


def test_clusters_are_the_payoffs_of_every_hex():
    """CA Enemy Fire and Enemy Decisions: clusters (from fire_reach and the weights counted once
    per set of platoons, remembered per set of platoons, blockers and cover) are what payoff()
    gives hex by hex, in the same order, in every state (consecutive states of a game share
    their platoons, so the memory is hit and replaced)."""
    n = 0
    for s in STATES:
        for c in s.enemy:
            got = R.clusters(s, c.hex)
            assert got == _plain_clusters(s, c.hex) == R._clusters(s, c.hex)
            n += bool(got)
    assert n > 100


def test_answers_remembered_per_state_are_the_plain_answers():
    """CA Movement, Fire Attacks and Mortars: unit_moves, fire_targets and the mortar targets,
    remembered for the last state asked (the policy, then the step), answer what they compute
    afresh, for every platoon of every state, asked in turn so that the memory is both hit and
    replaced."""
    moves = targets = mortars = 0
    for s in STATES:
        for u in range(len(s.units)):
            for _ in range(2):
                assert R.unit_moves(s, u) == R.unit_moves.plain(s, u)  # type: ignore[attr-defined]
                assert R.fire_targets(s, u) == R.fire_targets.plain(s, u)  # type: ignore[attr-defined]
            moves += bool(R.unit_moves(s, u))
            targets += bool(R.fire_targets(s, u))
        for _ in range(2):
            for smoke in (False, True):
                assert R.own_mortar_targets(s, smoke) == R.own_mortar_targets.plain(s, smoke)  # type: ignore[attr-defined]
            assert R.enemy_mortar_targets(s) == R.enemy_mortar_targets.plain(s)  # type: ignore[attr-defined]
        mortars += bool(R.own_mortar_targets(s, False)) + bool(R.enemy_mortar_targets(s))
    assert moves > 100 and targets > 10 and mortars > 10


def test_armour_choices_skip_only_armour_out_of_reach():
    """CA Enemy Fire: armour_choices, which looks at no armour when none is adjacent (without
    ATGs) or in fire_reach (with ATGs), lists what armour_chances gives platoon by platoon."""
    from gwasl.games.combined_arms.enemy import _ARMOUR, armour_choices

    found = 0
    for s in STATES:
        for c in s.enemy:
            for with_atg in (False, True):
                plain = [(u, ch) for u in _ARMOUR if (ch := R.armour_chances(s, c.hex, u, with_atg)) is not None]
                assert armour_choices(s, c.hex, with_atg) == plain
                found += bool(plain)
    assert found > 20
