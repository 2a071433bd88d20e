"""Combat: the Depth Combat Table (105.4.12), anti-submarine attacks, torpedo hits, gunfire,
the prolonged attack of mode 7.  Harmon's table is exact; the rest are stand-in tables."""

from __future__ import annotations

from gwasl.games.on_patrol.tables import Band, Tables
from gwasl.model.errors import GwaslError

__all__ = ["attack_drms", "attack_needs", "attack_result", "band", "d66", "depth_combat", "gun_target", "prolonged_result", "torpedo_status"]


def d66(dice: tuple[int, ...]) -> int:
    """A d66 roll read as tens and units (11..66). The Depth Combat Table of On Patrol 105.4.12 is read this way."""
    return dice[0] * 10 + dice[1]


class BandError(GwaslError):
    """A value that falls in no band of a table."""


def band(bands: tuple[Band, ...], value: int) -> Band:
    """The band of a die-roll table that ``value`` falls in; raises :class:`BandError` when none does."""
    for b in bands:
        if b.low <= value <= b.high:
            return b
    raise BandError(f"{value} falls in no band")


def depth_combat(t: Tables, dice: tuple[int, int]) -> Band:
    """105.4.12: the Submarine Depth Combat Table, rolled first for every depth charge,
    K-gun and squid attack: 11-23 miss, 24-36 within 50 feet, 41-53 within 25 feet,
    54-66 at the submarine's depth.  ``value`` is the distance in feet (-1 for a miss)."""
    return band(t.depth_combat, d66(dice))


def attack_drms(t: Tables, dct: Band, weapon: str, count: int, mk_x: int) -> list[tuple[str, int]]:
    """The stand-in attack's DRMs: how close the detonation was (from the Depth Combat Table),
    further charges in the hex, a one-ton Mk X, a squid.

    On Patrol 105.4.12 resolves the attack by the SUBMARINE rules after the Depth Combat Table; the attack's
    DRMs are gwasl stand-ins (data/base.json)."""
    d = t.attack_drm
    # every value here is gwasl's (SUBMARINE's attack table is not available): labelled as such,
    # never with a rule number (the band itself is Harmon's, 105.4.12, shown on its own line)
    mods = [(f"detonation {dct.result}: gwasl stand-in", d[dct.result])]
    extra = min(count - 1, d["most further charges"])
    if extra > 0:
        mods.append((f"{extra} further charge{'s' if extra > 1 else ''} in the hex: gwasl stand-in",
                     extra * d["each further charge in the hex"]))
    if mk_x:
        mods.append(("one-ton Mk X: gwasl stand-in", d["one-ton Mk X"]))
    if weapon == "squid":
        mods.append(("squid: gwasl stand-in", d["squid"]))
    return mods


def attack_result(t: Tables, final: int) -> Band:
    """The result of a depth charge attack's final DR: On Patrol 105.4.12 defers to the SUBMARINE attack table,
    which gwasl replaces by a stand-in (data/base.json)."""
    return band(t.attack, final)


def attack_needs(t: Tables) -> str:
    """The anti-submarine attack after the Depth Combat Table (On Patrol 105.4.12; the attack table
    itself is gwasl's stand-in for SUBMARINE's) in words: what each total does (for the roll's cause)."""
    return ", ".join(f"{b.low}{'+' if b.high >= 99 else '-' + str(b.high) if b.high != b.low else ''} {b.result}"
                     for b in t.attack if b.value > 0)


def torpedo_status(hit_points: int, total: int) -> str:
    """A ship's state after ``total`` damage: sinking at its hit points, dead in the water
    at half (104.3.3 needs ships dead in the water), else still under way."""
    if total >= hit_points:
        return "sinking"
    if 2 * total >= hit_points:
        return "diw"
    return "afloat"


def gun_target(t: Tables, rng: int, guns: int) -> int:
    """The 2d6 number a ship's gunfire at a surfaced submarine must not exceed (stand-in).

    Surface vessels open fire on a surfaced submarine (On Patrol 104.2.1 mode 5); the SUBMARINE gunfire table is
    a stand-in."""
    base = next((tg for mx, tg in t.gunfire if rng <= mx), 0)
    return base + guns - 1 if base else 0


def prolonged_result(t: Tables, total: int) -> Band:
    """The prolonged attack at game end (On Patrol 104.2.1 mode 7, SUBMARINE 34.7), read on its stand-in table."""
    return band(t.prolonged_attack, total)
