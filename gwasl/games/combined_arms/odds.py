"""Exact odds of your fire attacks (CONTRACTS 5 ``odds``) and of ending the game, derived
from the resolver ``apply`` itself runs (issue 23 item 4: one implementation per rule).

No rule is modelled here: every die outcome is run through the game's own steps --
:meth:`~.game.CombinedArmsGame.fire_step` (one committed platoon's roll and what a pin or
a break does, with the reveal rolls of CA Enemy Decisions it calls for) and
:meth:`~.game.CombinedArmsGame.final_reveal_step` (CA Victory's final reveals) -- and
:func:`die_outcomes` weighs each sequence of dice the step draws at 6^-n.  Between two
steps the states they lead to are merged, so an attack of k platoons costs k small
enumerations, not 6^k runs.  The sample game's "from 33% to 56%" is the chance of
breaking a revealed platoon with one, then two, adjacent rifle platoons
(tests/games/combined_arms/test_ca_examples.py).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import partial
from typing import Protocol, TypeVar

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Outcome
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.state import Counter, State


class Resolver(Protocol):
    """The resolver's steps the odds run (:class:`~.game.CombinedArmsGame` has them)."""

    def committed_adjacent(self, state: State) -> bool: ...

    def fire_step(self, state: State, u: int, all_adjacent: bool, dice: GameDice) -> State: ...

    def final_reveal_step(self, state: State, c: Counter, dice: GameDice) -> State: ...

__all__ = ["Resolver", "attack_odds", "die_outcomes", "end_game_odds", "end_game_scores"]

T = TypeVar("T", bound=Hashable)


class _PastScript(BaseException):
    """The step asked for a die past its script (a BaseException: no ``except Exception``
    of the game's code may swallow it)."""


class _ScriptDice(GameDice):
    """Dice whose faces are ``script``; one more die interrupts the step."""

    def __init__(self, script: tuple[int, ...]) -> None:
        super().__init__(0)
        self.script = script
        self.drawn = 0

    def _die(self) -> int:
        if self.drawn == len(self.script):
            raise _PastScript
        face = self.script[self.drawn]
        self.drawn += 1
        self.position += 1
        return face


def die_outcomes(step: Callable[[GameDice], T]) -> dict[T, Fraction]:
    """The exact distribution of what ``step`` returns over every sequence of dice it draws
    (the weighing the odds of CA Fire Attacks and CA Victory need): run with each script of faces, depth first, a script extended by each face whenever
    the step asks for one more die; a sequence of n dice weighs 6^-n.

    >>> die_outcomes(lambda d: d.dr("one die").final >= 5)
    {True: Fraction(1, 3), False: Fraction(2, 3)}
    >>> die_outcomes(lambda d: d.dr("first").final == 6 and d.dr("again").final == 6)[True]
    Fraction(1, 36)
    """
    out: dict[T, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        script = stack.pop()
        try:
            result = step(_ScriptDice(script))
        except _PastScript:
            stack.extend(script + (f,) for f in range(1, 7))
            continue
        out[result] = out.get(result, Fraction(0)) + Fraction(1, 6 ** len(script))
    return out


def _label(before: State, after: State, target: int) -> str:
    """What an attack did to the counter in ``target``, in the odds' words (CA Fire Attacks,
    CA Enemy Decisions): read from the states before and after it."""
    c = before.counter_at(target)
    assert c is not None
    now = after.counter_at(target)
    platoon_broken = after.enemy_platoons_broken > before.enemy_platoons_broken
    if now is None and not platoon_broken:
        return "revealed unreal: the counters are removed"
    parts = []
    if platoon_broken:
        parts.append("platoon broken")
    if after.enemy_atgs_broken > before.enemy_atgs_broken:
        parts.append("ATGs broken")
    elif now is not None and now.atg_removed and not c.atg_removed:
        parts.append("no ATGs (removed)")
    if not platoon_broken:
        if c.fresh and now is not None and not now.fresh:
            parts.append("pinned (spent)")
        elif not parts:
            parts.append("no effect" if c.fresh else "no effect (already spent)")
    return ", ".join(parts)


def attack_odds(game: Resolver, committed: State) -> list[Outcome]:
    """The outcomes of resolving the attack committed in ``committed`` (CA Fire Attacks:
    each platoon's roll in the order committed, pin on 2-3, break on 4+ with every firer
    adjacent, and the reveal rolls a break calls for), most likely first, each with its
    exact chance: every die of :meth:`~.game.CombinedArmsGame.fire_step` weighed."""
    target = committed.group_target
    if target < 0 or not committed.group or committed.counter_at(target) is None:
        return []
    adjacent = game.committed_adjacent(committed)
    dist: dict[State, Fraction] = {committed: Fraction(1)}
    for u, _facing in committed.group:
        nxt: dict[State, Fraction] = {}
        for st, p in dist.items():
            for after, q in die_outcomes(partial(game.fire_step, st, u, adjacent)).items():
                nxt[after] = nxt.get(after, Fraction(0)) + p * q
        dist = nxt
    merged: dict[str, Fraction] = {}
    for st, p in dist.items():
        k = _label(committed, st, target)
        merged[k] = merged.get(k, Fraction(0)) + p
    return [Outcome(k, float(v)) for k, v in sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))]


#: where a final reveal step starts: the reveal counts (capped where CA Enemy Decisions' -1
#: switches on), and the real platoons and real ATGs the reveals so far added
_Key = tuple[int, int, int, int]


def end_game_scores(game: Resolver, s: State, last_turn: int) -> dict[int, Fraction]:
    """The exact chance of each final score of ending the game now, after ``last_turn``
    (CA Victory: "Reveal any enemy counters still unrevealed, and then score ..."): every
    die of :meth:`~.game.CombinedArmsGame.final_reveal_step`, counter by counter in the
    order the game's end reveals them, then :func:`.rules.score`.

    A counter's reveal rolls read the counter and, of the rest of the state, only the
    reveal counts (CA Enemy Decisions' -1 once 2 real ATGs or 3 real platoons are
    revealed, which a platoon found real can switch on for its ATGs' roll); the score reads
    the real platoons and ATGs in play.  So each step is run once per pair of reveal counts
    (capped where the -1 switches on; on ``s`` with those counts), and the paths are merged
    on what the step changes of them."""
    cp, ca = R.PENALTY_PLATOONS, R.PENALTY_ATGS

    def real(st: State) -> tuple[int, int]:
        return sum(1 for c in st.enemy if c.real), sum(1 for c in st.enemy if c.atg == 2)

    dist: dict[_Key, Fraction] = {(min(s.real_platoons_revealed, cp), min(s.real_atgs_revealed, ca), 0, 0): Fraction(1)}
    for c in s.enemy:
        if c.real and c.atg != 1:
            continue  # nothing to reveal: the step rolls no die
        steps: dict[tuple[int, int], dict[tuple[int, int, int, int], Fraction]] = {}
        nxt: dict[_Key, Fraction] = {}
        for (rp, ra, more_p, more_a), p in dist.items():
            if (rp, ra) not in steps:
                base = s._replace(real_platoons_revealed=rp, real_atgs_revealed=ra)
                bp, ba = real(base)
                moves: dict[tuple[int, int, int, int], Fraction] = {}
                for after, q in die_outcomes(partial(game.final_reveal_step, base, c)).items():
                    ap, aa = real(after)
                    d = (after.real_platoons_revealed - rp, after.real_atgs_revealed - ra, ap - bp, aa - ba)
                    moves[d] = moves.get(d, Fraction(0)) + q
                steps[rp, ra] = moves
            for (dp, da, dmp, dma), q in steps[rp, ra].items():
                k = (min(rp + dp, cp), min(ra + da, ca), more_p + dmp, more_a + dma)
                nxt[k] = nxt.get(k, Fraction(0)) + p * q
        dist = nxt
    out: dict[int, Fraction] = {}
    for (_rp, _ra, more_p, more_a), p in dist.items():
        t = R.score(s, last_turn, more_p, more_a)["total"]
        out[t] = out.get(t, Fraction(0)) + p
    return out


def end_game_odds(game: Resolver, s: State, last_turn: int) -> list[Outcome]:
    """The final score of ending the game now, after ``last_turn`` (CA Victory): every total
    the final reveals can give, highest first, each with its exact chance
    (:func:`end_game_scores`); every label also carries the chance of reaching the 20
    needed to win (the sum over the winning totals)."""
    dist = end_game_scores(game, s, last_turn)
    win = float(sum(p for t, p in dist.items() if t >= R.WIN_SCORE))
    out = []
    for t, p in sorted(dist.items(), reverse=True):
        verdict = "a win" if t >= R.WIN_SCORE else f"short of {R.WIN_SCORE}"
        out.append(Outcome(f"you score {t}, {verdict} (chance of {R.WIN_SCORE} or more: {win:.2%})", float(p)))
    return out
