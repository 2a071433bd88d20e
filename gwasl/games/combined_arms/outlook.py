"""What ending the game now would score: the exact distribution of the score over
the final reveals (CA Victory: "Reveal any enemy counters still unrevealed, and
then score ..."), with the reveal rolls of CA Enemy Decisions.

The game's own end (``CombinedArmsGame._game_over``) reveals the counters in
activation order, the platoon then its ATGs; this module weighs the same rolls,
with the same modifier functions (:func:`.rules.platoon_reveal_mods`,
:func:`.rules.atg_reveal_mods`) and the same :func:`.rules.score`, instead of
rolling them.  Only the reveal counts matter to later rolls (the -1 once 2 real
ATGs or 3 real platoons are revealed), so the branches merge on them.

One potential counter with a potential ATG counter and no -1: the platoon is real
on 4+ with the +1 (3 chances in 6), its ATGs then on 3+ with the +2 (4 in 6):

>>> from gwasl.games.combined_arms.state import Counter, initial_state, with_enemy
>>> s = with_enemy(initial_state(False), (Counter(0, atg=1),))
>>> {t: round(p * 6, 6) for t, p in sorted(end_now(s, 1).items())}  # in sixths
{0: 3.0, 2: 1.0, 3: 2.0}
"""

from __future__ import annotations

from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.state import State, put
from gwasl.rules.dice import Modifier

__all__ = ["end_now", "win_chance", "mean_score"]


def _chance(mods: list[Modifier]) -> float:
    return R.chances(sum(m.value for m in mods), R.REVEAL_NEED) / 6


def end_now(s: State, last_turn: int) -> dict[int, float]:
    """The chance of each total score if the game ended now, after turn ``last_turn``
    (CA Victory; the reveal rolls of CA Enemy Decisions)."""
    # the reveal counts matter to a roll only through the -1, so they are capped where it
    # switches on; the rolls are read in a state with each capped count
    cp, ca = R.PENALTY_PLATOONS, R.PENALTY_ATGS
    at = {(p, a): put(s, real_platoons_revealed=p, real_atgs_revealed=a) for p in range(cp + 1) for a in range(ca + 1)}
    # (platoons revealed, ATGs revealed) capped, and the real platoons and ATGs the
    # reveals add -> chance
    dist: dict[tuple[int, int, int, int], float] = {
        (min(s.real_platoons_revealed, cp), min(s.real_atgs_revealed, ca), 0, 0): 1.0}
    for c in s.enemy:
        if c.real and c.atg != 1:
            continue  # nothing left to reveal: the score counts it already
        real = c._replace(real=True)
        q_platoon = {k: _chance(R.platoon_reveal_mods(x, c)) for k, x in at.items()}
        q_atg = {k: _chance(R.atg_reveal_mods(x, real)) for k, x in at.items()}
        nxt: dict[tuple[int, int, int, int], float] = {}
        for (p, a, more_p, more_a), pr in dist.items():
            if not c.real:
                q = q_platoon[p, a]
                if q < 1:  # unreal: both counters removed
                    key = (p, a, more_p, more_a)
                    nxt[key] = nxt.get(key, 0.0) + pr * (1 - q)
                if q == 0:
                    continue
                pr *= q
                p, more_p = min(p + 1, cp), more_p + 1
            if c.atg == 1:
                qa = q_atg[p, a]
                for key, w in (((p, min(a + 1, ca), more_p, more_a + 1), qa), ((p, a, more_p, more_a), 1 - qa)):
                    if w:
                        nxt[key] = nxt.get(key, 0.0) + pr * w
            else:
                key = (p, a, more_p, more_a)
                nxt[key] = nxt.get(key, 0.0) + pr
        dist = nxt
    out: dict[int, float] = {}
    totals: dict[tuple[int, int], int] = {}
    for (_p, _a, more_p, more_a), pr in dist.items():
        if (more_p, more_a) not in totals:
            totals[more_p, more_a] = R.score(s, last_turn, more_p, more_a)["total"]
        t = totals[more_p, more_a]
        out[t] = out.get(t, 0.0) + pr
    return out


def win_chance(s: State, last_turn: int) -> float:
    """The chance that ending the game now, after turn ``last_turn``, scores the 20 needed
    to win (CA Victory)."""
    return sum(pr for t, pr in end_now(s, last_turn).items() if t >= R.WIN_SCORE)


def mean_score(s: State, last_turn: int) -> float:
    """The expected score of ending the game now, after turn ``last_turn`` (CA Victory)."""
    return sum(t * pr for t, pr in end_now(s, last_turn).items())
