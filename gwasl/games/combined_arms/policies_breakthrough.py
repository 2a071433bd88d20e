"""``breakthrough``: the commander (:mod:`.policies_commander`), and once the raid has broken
an enemy platoon, platoons exploit off the enemy edge instead of the game ending (issue 27
item 12, seventh round).

Why (CA Victory: "Score 2 for each exploiting friendly platoon, but count those which
exceed the number of broken enemy platoons only if no real enemy platoons remain in play"):
on a board of many counters real enemy platoons always remain, so an exploiting platoon
scores only up to the enemy platoons broken.  The raid (:mod:`.tactics`) breaks one now and
then and then ends the game; each break is then worth 2 more if one platoon leaves by the
exit hexes (CA Movement: from the 3 central hexes of the enemy rear edge).  Measured on the
raid's own games (seeds 1000-1299, docs/combined-arms.md): where it broke a platoon, one
exploiting platoon more would have added 4.7 expected wins in 300.

So, where the board is raided and an exploiting platoon would score
(:func:`exploit_scores`), the game goes on while it can still pay (:func:`go_on`): the
nearest fresh rifle platoons (as many as would score) and the armour head for the exit
hexes, infantry by the way that passes next to no counter where there is one (a counter
next to your platoon is revealed and fires at range 1, CA Enemy Decisions), armour only
into hexes where no fresh counter could break it (CA Enemy Fire); MMGs and mortars pin as
in the raid.  The game ends as soon as no exploiting platoon would score, or the way is
too long for the turns left, or a platoon of yours broken has cost what the exploiting
could bring.

Measured on seeds 0-1999 (docs/combined-arms.md, seventh round): no better than the commander
(186 wins against 187; the loss cap lets the exploiters go on 21 boards of 2000), so the
commander stays the default.

It reads only the state the seat shows (nothing is hidden from you in Combined Arms: a
potential counter is decided by its reveal roll, CA Enemy Decisions), draws no dice, and
says in each decision why, citing the rule.
"""

from __future__ import annotations

from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, Seat
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms import tactics as T
from gwasl.games.combined_arms.planner import break_choice, roll_order, threat_map
from gwasl.games.combined_arms.policies_assault import ARMOUR_RISK, exit_hops
from gwasl.games.combined_arms.policies_commander import END_AT, commander_policy, sweeps
from gwasl.games.combined_arms.records import EndGame, EndPhase, Exploit, Move
from gwasl.games.combined_arms.state import ARMOUR, EXPLOITED, FIRE, MOVE, OFFBOARD, RIFLE, UNIT_IDS, UNIT_KIND, State

__all__ = ["EXPLOIT_BY", "LOSS_CAP", "breakthrough_policy", "expected_losses", "exploit_scores", "go_on"]

#: the game goes on to exploit only while the loss track plus the losses expected on the way
#: stay at most this many (a pass from 7 to 0 breaks a platoon, -2, CA Enemy Fire): gwasl's
#: choice, tuned on seeds 1000-1299 (docs/combined-arms.md)
LOSS_CAP = 6.0
#: exploiting platoons must be off the board by the end of this turn: each turn after 18
#: costs a point (CA Victory), as much as half an exploiting platoon brings
EXPLOIT_BY = 18

_ARMOUR = tuple(i for i in range(len(UNIT_IDS)) if UNIT_KIND[i] == ARMOUR)
_RIFLES = tuple(i for i in range(len(UNIT_IDS)) if UNIT_KIND[i] == RIFLE)


def exploit_scores(s: State) -> int:
    """How many more exploiting platoons would score now (CA Victory: up to the enemy
    platoons broken while real enemy platoons may remain in play)."""
    exploited = sum(1 for u in s.units if u.where == EXPLOITED)
    return max(0, s.enemy_platoons_broken - exploited)


def _candidates(s: State) -> list[tuple[int, int]]:
    """(moves to go, platoon) of every platoon that could still exploit by turn
    :data:`EXPLOIT_BY`, nearest first: fresh or spent rifle platoons and armour on the board
    (CA Movement), by the way passing next to no counter where there is one."""
    strict = exit_hops(s, True)
    loose = exit_hops(s, False)
    out = []
    for i in _RIFLES + _ARMOUR:
        u = s.units[i]
        if u.where < 0:
            continue
        togo = strict[u.where] if strict[u.where] < 99 else loose[u.where]
        if UNIT_KIND[i] == ARMOUR:
            togo = (togo + 1) // 2  # up to 2 hexes a move along the road (CA Movement)
        if togo < 99 and s.turn + togo <= EXPLOIT_BY:
            out.append((togo, i))
    return sorted(out)


def go_on(s: State) -> str:
    """Why the game goes on to exploit ('' to leave it to the commander): an exploiting
    platoon would score (:func:`exploit_scores`), one can reach the exit hexes in time, and
    your broken platoons (-2 each) have not cost more than the breaks brought (CA Victory)."""
    if sweeps(s) or s.turn < 2:
        return ""
    k = exploit_scores(s)
    if not k:
        return ""
    if R.friendly_broken(s) >= s.enemy_platoons_broken:
        return ""
    cands = [c for c in _candidates(s) if UNIT_KIND[c[1]] == RIFLE][:k]
    if not cands:
        return ""
    expected = expected_losses(s, [i for _t, i in cands])
    if s.losses + expected > LOSS_CAP:
        return ""
    return (f"{k} exploiting platoon(s) would score 2 each (CA Victory); the loss track shows {s.losses}, "
            f"{expected:.1f} more expected on the way")


def expected_losses(s: State, exploiters: list[int]) -> float:
    """The losses your infantry may expect until the exploiters are off (CA Enemy Fire, the
    fire of the counters fresh now, :func:`.planner.threat_map`): each exploiter in every hex
    of its way to the exit hexes (one a turn), every other platoon of yours on the board where
    it stands, for as many turns."""
    inf = threat_map(s)[0]
    strict = exit_hops(s, True)
    loose = exit_hops(s, False)
    turns = 0
    total = 0.0
    for i in exploiters:
        h = s.units[i].where
        grid = strict if strict[h] < 99 else loose
        n = 0
        while grid[h] > 0 and n < 20:
            h = min((x for x in B.NEIGHBOURS[h] if x != B.OFF and grid[x] < grid[h]), key=lambda x: (grid[x], inf[x]))
            total += inf[h]
            n += 1
        turns = max(turns, n)
    for i, u in enumerate(s.units):
        if u.where >= 0 and UNIT_KIND[i] != ARMOUR and i not in exploiters:
            total += turns * inf[u.where]
    return total


def _move(s: State) -> Decision:
    """Exploit, or head for the exit hexes (module docstring)."""
    if not s.acted:
        p = O.win_chance(s, s.turn - 1)
        if p >= END_AT:
            return Decision(EndGame(), f"breakthrough ends the game: ending now wins {p:.1%} of the time (CA Victory)")
    k = exploit_scores(s)
    chosen = [i for _t, i in _candidates(s) if UNIT_KIND[i] == RIFLE][:k] + list(_ARMOUR)
    for i in chosen:
        if R.exploit_allowed(s, i):
            return Decision(Exploit(UNIT_IDS[i]), f"breakthrough: {UNIT_IDS[i]} exploits off the enemy edge: 2 an "
                                                  f"exploiting platoon up to the enemy platoons broken (CA Victory; CA Movement)")
    strict = exit_hops(s, True)
    loose = exit_hops(s, False)
    _inf, arm, _by = threat_map(s)
    best: tuple[tuple[int, float, int], Decision] | None = None
    for i in chosen:
        u = s.units[i]
        if not u.fresh or u.where < OFFBOARD:
            continue
        grid = strict if u.where >= 0 and strict[u.where] < 99 else loose
        now = grid[u.where] if u.where >= 0 else 99
        for to, facing, how in R.unit_moves(s, i):
            if grid[to] >= now:
                continue
            if UNIT_KIND[i] == ARMOUR and arm[to] >= ARMOUR_RISK:
                continue
            key = (grid[to], arm[to] if UNIT_KIND[i] == ARMOUR else _inf[to], i)
            if best is None or key < best[0]:
                best = (key, Decision(Move(UNIT_IDS[i], B.label(to), facing),
                                      f"breakthrough: {UNIT_IDS[i]} {how} to {B.label(to)}, {grid[to]} from the exit "
                                      f"hexes, to exploit (CA Victory: 2 an exploiting platoon; CA Movement)"))
    if best is not None:
        return best[1]
    return Decision(EndPhase(), "breakthrough: the exploiting platoons hold")


def breakthrough_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """The commander; where the raid has broken an enemy platoon and an exploiting platoon
    would score, exploit instead of ending the game (CA Victory, CA Movement; module docstring)."""
    s: State = seat.view()
    if s.breaks:
        return break_choice(s)
    if s.rolls:
        return roll_order(s, seat.legal())
    why = go_on(s)
    if not why:
        return commander_policy(seat, dice)
    if s.phase == MOVE:
        return _move(s)
    if s.phase == FIRE:
        return T.raid_fire(s)
    acts = seat.legal()
    return Decision(acts[0], "the only choice")
