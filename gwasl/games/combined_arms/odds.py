"""Exact odds of your fire attacks (CONTRACTS 5 ``odds``): every die of every
committed platoon, and of any reveal roll a break calls for, weighed exactly; and of
ending the game (the final reveals' dice, CA Victory).

The numbers come from the rule functions the game itself rolls with
(:func:`~.rules.own_fire_mods`, :func:`~.rules.own_fire_effect`, the reveal
modifiers); this module only carries the target hex's state from roll to roll.
The sample game's "from 33% to 56%" is the chance of breaking a revealed
platoon with one, then two, adjacent rifle platoons.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from gwasl.engine.game import Outcome
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.state import ARMOUR, UNIT_KIND, Counter, State

__all__ = ["attack_odds", "end_game_odds", "roll_chances"]

# The hex between rolls: (fresh, platoon, atg, real platoons revealed, real ATGs revealed)
# platoon: "potential", "real", "broken", "unreal"; atg: 0 none, 1 potential, 2 real, "broken", "unreal"
_Hex = tuple[bool, str, object, int, int]


def roll_chances(total_modifier: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(modified roll < 2), P(2 or 3), P(4+) for one die plus the modifier.

    (CA "Fire Attacks": 2 or more pins, 4 or more breaks.)"""
    pin = Fraction(R.chances(total_modifier, R.PIN_NEED), 6)
    brk = Fraction(R.chances(total_modifier, R.BREAK_NEED), 6)
    return 1 - pin, pin - brk, brk


def _reveal_p(s: State, c: Counter, hx: _Hex, atg: bool) -> Fraction:
    st = s._replace(real_platoons_revealed=hx[3], real_atgs_revealed=hx[4])
    cc = c._replace(real=hx[1] == "real", atg=hx[2] if isinstance(hx[2], int) else 0)
    mods = R.atg_reveal_mods(st, cc) if atg else R.platoon_reveal_mods(st, cc)
    return Fraction(R.chances(sum(m.value for m in mods), R.REVEAL_NEED), 6)


def _label(c: Counter, hx: _Hex) -> str:
    fresh, platoon, atg = hx[0], hx[1], hx[2]
    if platoon == "unreal":
        return "revealed unreal: the counters are removed"
    parts = []
    if platoon == "broken":
        parts.append("platoon broken")
    if atg == "broken":
        parts.append("ATGs broken")
    elif atg == "unreal":
        parts.append("no ATGs (removed)")
    if platoon != "broken":
        if c.fresh and not fresh:
            parts.append("pinned (spent)")
        elif not parts:
            parts.append("no effect" if c.fresh else "no effect (already spent)")
    return ", ".join(parts)


def attack_odds(s: State, target: int, firers: Sequence[int]) -> list[Outcome]:
    """The outcomes of ``firers`` attacking ``target`` in order, with exact probabilities. (CA "Fire Attacks".)"""
    c = s.counter_at(target)
    if c is None or not firers:
        return []
    all_adjacent = all(B.distance(s.units[u].where, target) == 1 for u in firers)
    start: _Hex = (c.fresh, "real" if c.real else "potential", c.atg, s.real_platoons_revealed, s.real_atgs_revealed)
    dist: dict[_Hex, Fraction] = {start: Fraction(1)}
    for u in firers:
        miss, pin, brk = roll_chances(sum(m.value for m in R.own_fire_mods(s, u, target)))
        infantry = UNIT_KIND[u] != ARMOUR
        nxt: dict[_Hex, Fraction] = {}

        def add(h: _Hex, p: Fraction, into: dict[_Hex, Fraction] = nxt) -> None:
            if p:
                into[h] = into.get(h, Fraction(0)) + p

        for hx, p in dist.items():
            gone = hx[1] in ("broken", "unreal")
            add(hx, p * miss)
            pinned = hx if gone else (False, *hx[1:])
            pin_only = pin + (brk if not all_adjacent else 0)
            add(pinned, p * pin_only)
            if all_adjacent and brk:
                for out, q in _break(s, c, pinned, infantry):
                    add(out, p * brk * q)
        dist = nxt
    merged: dict[str, Fraction] = {}
    for hx, p in dist.items():
        k = _label(c, hx)
        merged[k] = merged.get(k, Fraction(0)) + p
    return [Outcome(k, float(v)) for k, v in sorted(merged.items(), key=lambda kv: -kv[1])]


def _break(s: State, c: Counter, hx: _Hex, infantry: bool) -> list[tuple[_Hex, Fraction]]:
    """A 4+ with every firer adjacent (CA Fire Attacks): ATGs break, and the platoon if
    the firer is infantry; an unrevealed counter is revealed first (rules-notes)."""
    fresh, platoon, atg, rp, ra = hx
    if platoon in ("broken", "unreal"):
        return [(hx, Fraction(1))]
    out: list[tuple[_Hex, Fraction]] = []
    branches: list[tuple[_Hex, Fraction]] = [(hx, Fraction(1))]
    if infantry and platoon == "potential":
        pr = _reveal_p(s, c, hx, False)
        branches = [((fresh, "real", atg, rp + 1, ra), pr), ((fresh, "unreal", 0, rp, ra), 1 - pr)]
    for h2, q in branches:
        if h2[1] == "unreal":
            out.append((h2, q))
            continue
        for h3, q3 in _break_atgs(s, c, h2):
            if infantry:
                h3 = (h3[0], "broken", h3[2], h3[3], h3[4])
            out.append((h3, q * q3))
    return out


def _break_atgs(s: State, c: Counter, hx: _Hex) -> list[tuple[_Hex, Fraction]]:
    fresh, platoon, atg, rp, ra = hx
    if atg == 2:
        return [((fresh, platoon, "broken", rp, ra), Fraction(1))]
    if atg != 1:
        return [(hx, Fraction(1))]
    pa = _reveal_p(s, c, hx, True)
    newly = 0 if platoon == "real" else 1
    return [((fresh, "real", "broken", rp + newly, ra + 1), pa), ((fresh, platoon, "unreal", rp, ra), 1 - pa)]


def end_game_odds(s: State, last_turn: int) -> list[Outcome]:
    """The final score of ending the game now, after ``last_turn`` (CA Victory: "Reveal any
    enemy counters still unrevealed, and then score ..."): every total the reveal rolls of CA
    Enemy Decisions can give, highest first, each with its exact chance; every label also
    carries the chance of reaching the 20 needed to win (the sum over the winning totals).
    The weighing is :func:`.outlook.end_now`, the dice those of the game's end."""
    dist = O.end_now(s, last_turn)
    win = sum(p for t, p in dist.items() if t >= R.WIN_SCORE)
    out = []
    for t, p in sorted(dist.items(), reverse=True):
        verdict = "a win" if t >= R.WIN_SCORE else f"short of {R.WIN_SCORE}"
        out.append(Outcome(f"you score {t}, {verdict} (chance of {R.WIN_SCORE} or more: {win:.2%})", p))
    return out
