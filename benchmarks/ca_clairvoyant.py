"""A clairvoyant ceiling for Combined Arms (issue 27 item 11): how much a suggestion could
gain if it knew what no player knows.

A potential enemy counter is unknown to everyone until its reveal roll (CA Enemy
Decisions), so the hidden facts of Combined Arms are the game's own coming dice.  On
each board (seeds 0..N-1) the clairvoyant plays each plan of the advisor (the policies
``raid``, ``planner``, ``cautious``) with the real dice, and wherever you may end the
game (CA Sequence of Play) it peeks: it plays the final reveals with the game's real
coming dice (``GameDice(seed, position)``, the stream the game would roll), and ends
there if that wins (CA Victory: 20 points).  A board counts as won by the ceiling if any
plan so played wins it.  A second, higher ceiling also refuses to end on losing dice:
where the plan would end the game it ends the phase instead and looks again a turn later
(waiting for other reveal dice, while the enemy acts and the turns after 18 cost).  Also printed: each plan played straight (no peeking), and with
peeking.  Figures with 95% Wilson intervals; the time per board.

Run: python -m benchmarks.ca_clairvoyant [N | --quick]   (N boards, default 200)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.batch import STEP_LIMIT, wilson
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Policy, Seat
from gwasl.games import game_for
from gwasl.games.combined_arms.advisor import PLANS, may_end
from gwasl.games.combined_arms.records import EndGame, EndPhase
from gwasl.games.combined_arms.state import PLAYER_SIDE

GAME = game_for("combined-arms")


def play(seed: int, policy: Policy, peek: bool, wait: bool = False) -> bool:
    """One game of ``policy`` on board ``seed`` with the real dice; ``peek``: end wherever
    ending with the real coming dice wins; ``wait``: and where the plan would end the game
    on dice that lose, end the phase instead (wait for other dice).  Whether it was won."""
    dice = GameDice(seed)
    s = GAME.begun(GAME.setup(None, GameOptions()), dice)
    automated = GAME.automated(s)
    for _ in range(STEP_LIMIT):
        st = GAME.status(s)
        if st.over:
            return GAME.score(s)[0]
        side = st.side
        assert side is not None
        if peek and side == PLAYER_SIDE and may_end(s):
            # the real dice from here on: a copy of the game's stream at its position
            ended = GAME.step(s, EndGame(), GameDice(seed, dice.position))
            if GAME.score(ended)[0]:
                return True
        decide = policy if side == PLAYER_SIDE else automated[side]
        action = decide(Seat(GAME, s, GAME.viewer(s, side), quiet=True), dice).action
        if wait and isinstance(action, EndGame):
            action = EndPhase()  # ending now loses (the peek above): play the turn out and look again
        s = GAME.step(s, action, dice)
    raise RuntimeError(f"seed {seed}: no end")


def main(argv: list[str]) -> None:
    boards = 3 if "--quick" in argv else int(next((a for a in argv if a.isdigit()), "200"))
    policies = GAME.policies()
    straight = {p: 0 for p in PLANS}
    peeking = {p: 0 for p in PLANS}
    ceiling = waiting = 0
    t0 = time.process_time()
    for seed in range(boards):
        won_any = False
        for p in PLANS:
            straight[p] += play(seed, policies[p], False)
            w = play(seed, policies[p], True)
            peeking[p] += w
            won_any |= w
        ceiling += won_any
        waiting += won_any or any(play(seed, policies[p], True, True) for p in PLANS)
    cpu = time.process_time() - t0

    def line(what: str, wins: int) -> str:
        lo, hi = wilson(wins, boards)
        return f"| {what} | {wins} | {wins / boards:.1%} | {lo:.1%} - {hi:.1%} |"

    print(f"Combined Arms, seeds 0-{boards - 1} ({boards} boards), standard game")
    print("| player | wins | win rate | 95% interval |")
    print("| --- | --- | --- | --- |")
    for p in PLANS:
        print(line(f"`{p}`, no peeking", straight[p]))
    for p in PLANS:
        print(line(f"`{p}`, ending wherever the real dice make it a win", peeking[p]))
    print(line("clairvoyant ceiling: the best of the three plans, ending wherever the real dice make it a win", ceiling))
    print(line("clairvoyant ceiling, waiting: as above, and where a plan would end on losing dice it plays on "
               "(its turn's phases ended) and looks again", waiting))
    print(f"CPU: {cpu:.1f} s in all, {cpu / boards * 1000:.0f} ms per board")


if __name__ == "__main__":
    main(sys.argv[1:])
