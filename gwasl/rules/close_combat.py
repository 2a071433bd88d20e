"""Close Combat in the Great War (ASLGW 1.10): normal CC or Hand-to-Hand, the
automatic turn to HtH of a melee across directly accessible locations, and
the CC DRMs these rules add (French -1 HtH, trench armour +1, CX +1).

Everything else about CC is classic ASL (1.10.12).  Facts owned by other
rules are arguments: whether every attacker has hand grenades (1.6.61, the
weapons module) and the nationality's HtH DRM (1.11.2, the units module).

>>> d = close_combat_kind(Separation.SAME_LOCATION, all_attackers_have_grenades=False)
>>> d.kind.value, d.rule
('HtH', 'ASLGW 1.10.1')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import Unit
from gwasl.rules.armour import armour_cc_modifier
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Dice, Modifier, Roll
from gwasl.rules.ift import CCOdds, cc_result, cct_odds, two_dice
from gwasl.rules.morale import cx_attack_modifier
from gwasl.rules.trenches import DEEP_TRENCH_POSITIONS

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["AmbushSide", "CCAttack", "CCKind", "CCDecision", "CloseCombatError", "Separation", "ambush_modifiers",
           "ambush_outcome", "ambush_distribution", "cc_attack_outcome", "cc_modifiers", "cc_pair_distribution",
           "cc_unit_fp", "close_combat_kind", "locations_separation", "melee_kind", "resolve_cc_attack"]


class CloseCombatError(GwaslError):
    """Close combat asked between units that cannot be in one CC (different hexes...)."""


class CCKind(StrEnum):
    NORMAL = "CC"
    HTH = "HtH"


class Separation(StrEnum):
    """How the attackers' and defenders' locations relate (ASLGW 1.10.1, 1.10.11)."""

    SAME_LOCATION = "same_location"  # same hex, same position
    ACCESSIBLE = "accessible"  # separated but directly accessible: one is in a trench, dugout...
    OBSTRUCTED = "obstructed"  # separated by an obstacle one does not simply step over, e.g. wire


def _location(u: Unit) -> str:
    # IN and crest status of a deep trench are one location (ASLGW 2.1.1).
    return "deep_trench" if u.position in DEEP_TRENCH_POSITIONS else u.position.value


def locations_separation(attackers: Iterable[Unit], defenders: Iterable[Unit], wire_between: bool = False) -> Separation:
    """How the CC sides are placed (ASLGW 1.10.1): the same location, separated
    but directly accessible (different positions in one hex: trench, deep
    trench, foxhole, dugout vs the open), or separated by wire
    (``wire_between``, which the caller knows from the map).  Every unit must
    be in one hex.

    >>> from gwasl.model.hexgrid import Hex
    >>> from gwasl.model.scenario import UnitKind, Position
    >>> a = Unit("a", "x", UnitKind.SQUAD, Hex(0, 0))
    >>> d = Unit("d", "y", UnitKind.SQUAD, Hex(0, 0), position=Position.TRENCH)
    >>> locations_separation([a], [d]).value
    'accessible'
    """
    att, dfn = list(attackers), list(defenders)
    if not att or not dfn:
        raise CloseCombatError("close combat needs attackers and defenders")
    hexes = {u.hex for u in att + dfn}
    if len(hexes) > 1:
        raise CloseCombatError(f"close combat happens in one hex, not {', '.join(sorted(str(h) for h in hexes))}")
    if wire_between:
        return Separation.OBSTRUCTED
    if len({_location(u) for u in att + dfn}) == 1:
        return Separation.SAME_LOCATION
    return Separation.ACCESSIBLE


@dataclass(frozen=True, slots=True)
class CCDecision:
    kind: CCKind
    reason: str
    rule: str


def close_combat_kind(separation: Separation, all_attackers_have_grenades: bool) -> CCDecision:
    """ASLGW 1.10.1: normal CC may be declared only when the two sides are not
    in the same location (one in a trench, behind wire...) or every attacking
    unit has hand grenades; otherwise the CC is Hand-to-Hand.
    """
    if separation is not Separation.SAME_LOCATION:
        how = "directly accessible" if separation is Separation.ACCESSIBLE else "behind wire"
        return CCDecision(CCKind.NORMAL, f"the fighting units are in separate locations ({how})", "ASLGW 1.10.1")
    if all_attackers_have_grenades:
        return CCDecision(CCKind.NORMAL, "every attacking unit has hand grenades", "ASLGW 1.10.1")
    return CCDecision(CCKind.HTH, "same location and not every attacker has hand grenades: Hand-to-Hand", "ASLGW 1.10.1")


def melee_kind(separation: Separation, all_attackers_have_grenades: bool) -> CCDecision:
    """The kind of CC in a later CC phase of a Melee (ASLGW 1.10.11).

    Units locked in Melee after their first CC phase across separated but
    directly accessible locations (getting into a trench) fight Hand-to-Hand
    from then on, unless every attacker has hand grenades; a separation one
    cannot simply cross (wire) keeps normal CC.  In the same location 1.10.1
    decides as before.

    >>> melee_kind(Separation.ACCESSIBLE, all_attackers_have_grenades=False).kind.value
    'HtH'
    >>> melee_kind(Separation.OBSTRUCTED, all_attackers_have_grenades=False).kind.value
    'CC'
    """
    if separation is Separation.ACCESSIBLE:
        if all_attackers_have_grenades:
            return CCDecision(CCKind.NORMAL, "Melee across directly accessible locations, but every attacker has hand grenades", "ASLGW 1.10.11")
        return CCDecision(CCKind.HTH, "Melee across directly accessible locations turns into Hand-to-Hand", "ASLGW 1.10.11")
    if separation is Separation.OBSTRUCTED:
        return CCDecision(CCKind.NORMAL, "Melee across an obstacle that is not directly accessible (wire) stays normal CC", "ASLGW 1.10.11")
    return close_combat_kind(separation, all_attackers_have_grenades)


def cc_modifiers(kind: CCKind, hth_drm: int, defenders: Iterable[Unit], attacker_cx: bool = False,
                 leader_modifier: int | None = None, leader_id: str = "leader") -> tuple[Modifier, ...]:
    """The CC DRMs these rules add to an attack (ASLGW 1.10, 1.11.2, 1.8; A4.51).

    - ``hth_drm``: the attacking nationality's HtH DRM (French -1, ASLGW
      1.11.2), applied only to a Hand-to-Hand attack;
    - +1 when the attacked units include armoured infantry (ASLGW 1.8);
    - +1 when the attacker is CX (A4.51);
    - the leadership of a Good Order leader among the attackers (A11.14;
      ASLGW 1.3: he is stacked with them), ``leader_modifier``.

    >>> from gwasl.model.hexgrid import Hex
    >>> from gwasl.model.scenario import UnitKind
    >>> d = Unit("d", "de", UnitKind.SQUAD, Hex(0, 0), trench_armour=True)
    >>> [m.value for m in cc_modifiers(CCKind.HTH, -1, [d])]
    [-1, 1]
    """
    out: list[Modifier] = []
    if kind is CCKind.HTH and hth_drm:
        out.append(Modifier("nationality Hand-to-Hand DRM (ASLGW 1.11.2)", hth_drm))
    armour = armour_cc_modifier(defenders)
    if armour is not None:
        out.append(armour)
    cx = cx_attack_modifier(attacker_cx)
    if cx is not None:
        out.append(cx)
    if leader_modifier:
        out.append(Modifier(f"leadership of {leader_id} (A11.14, ASLGW 1.3)", leader_modifier))
    return tuple(out)


# ---------------------------------------------------------------------------
# An attack on the CCT (A11.11; HtH J2.31 as ASLGW 1.10 uses it)


def cc_unit_fp(base_fp: int, *, smc: bool, pinned: bool) -> Fraction:
    """A unit's FP in CC (A11.12): an SMC counts 1, a pinned unit half (A7.8).

    >>> cc_unit_fp(4, smc=False, pinned=True), cc_unit_fp(0, smc=True, pinned=False)
    (Fraction(2, 1), Fraction(1, 1))
    """
    t = combat_table()
    fp = Fraction(t.cc_smc_fp) if smc else Fraction(base_fp)
    return fp * t.cc_pinned_fp if pinned else fp


@dataclass(frozen=True, slots=True)
class CCAttack:
    """One side's CC attack: its FP against the attacked units' FP, normal CC or
    HtH, and its DRMs."""

    attack_fp: Fraction
    defence_fp: Fraction
    kind: CCKind
    modifiers: tuple[Modifier, ...] = ()

    @property
    def odds(self) -> CCOdds:
        return cct_odds(self.attack_fp, self.defence_fp)

    @property
    def kill_number(self) -> int:
        """The Kill Number this attack reads: the CCT column's, or its HtH one (J2.31, ASLGW 1.10)."""
        o = self.odds
        return o.hth_kill_number if self.kind is CCKind.HTH else o.kill_number

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)


def cc_attack_outcome(attack: CCAttack, original: int) -> str:
    """``eliminated``, ``casualty_reduction`` or ``none`` for an original DR (A11.11).

    Hand-to-Hand (ASLGW 1.10, classic J2.31) reads the same CCT column's HtH
    Kill Number (the chart's red one, :attr:`~gwasl.rules.ift.CCOdds.hth_kill_number`).

    >>> a = CCAttack(Fraction(4), Fraction(4), CCKind.NORMAL)
    >>> cc_attack_outcome(a, 4), cc_attack_outcome(a, 5), cc_attack_outcome(CCAttack(Fraction(4), Fraction(4), CCKind.HTH), 6)
    ('eliminated', 'casualty_reduction', 'eliminated')
    """
    if attack.attack_fp <= 0 or attack.defence_fp <= 0:
        return "none"
    return cc_result(attack.kill_number, original + attack.drm)


def resolve_cc_attack(dice: Dice, attack: CCAttack, cause: str) -> tuple[Roll, str]:
    """Roll one CC attack (A11.11; logged with its DRMs) and read it with :func:`cc_attack_outcome`."""
    roll = dice.DR(cause, attack.modifiers)
    return roll, cc_attack_outcome(attack, roll.total)


def cc_pair_distribution(first: CCAttack | None, second: Mapping[str, CCAttack | None] | CCAttack | None,
                         ) -> dict[tuple[str, str], Fraction]:
    """The exact chance of each pair of outcomes of a CC in one Location (A11.11,
    all 36 x 36 DR): the first side's attack and the other's.  ``second`` is
    either the other side's attack (simultaneous CC, A11.11) or, after an ambush
    (A11.4, sequential), its attack as it stands after each outcome of the first
    (None: nothing left to attack with).  A missing attack reads ``none``.

    >>> a = CCAttack(Fraction(8), Fraction(4), CCKind.NORMAL)
    >>> d = cc_pair_distribution(a, None)
    >>> d[("eliminated", "none")]
    Fraction(5, 12)
    """
    def by_total(attack: CCAttack | None) -> dict[str, Fraction]:
        # the outcome depends on the DR's total only: each of the 36 outcomes through its total
        dist: dict[str, Fraction] = {}
        for total, ways in _TOTALS.items():
            o = cc_attack_outcome(attack, total) if attack is not None else "none"
            dist[o] = dist.get(o, Fraction(0)) + Fraction(ways, 36)
        return dist

    out: dict[tuple[str, str], Fraction] = {}
    replies = {o: by_total(a) for o, a in second.items()} if isinstance(second, Mapping) else None
    fixed = by_total(second) if not isinstance(second, Mapping) else None
    for o1, p1 in by_total(first).items():
        nxt = replies.get(o1, {"none": Fraction(1)}) if replies is not None else fixed
        assert nxt is not None
        for o2, p2 in nxt.items():
            out[(o1, o2)] = out.get((o1, o2), Fraction(0)) + p1 * p2
    return out


#: the number of the 36 DR outcomes giving each total
_TOTALS = {t: sum(1 for a, b in two_dice() if a + b == t) for t in range(2, 13)}


# ---------------------------------------------------------------------------
# Ambush (A11.4)


@dataclass(frozen=True, slots=True)
class AmbushSide:
    """One side's ambush dr DRMs (A11.4)."""

    side: str
    modifiers: tuple[Modifier, ...]

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def ambush_modifiers(*, concealed: bool, cx: bool, pinned: bool, lax: bool, leader_modifier: int | None) -> tuple[Modifier, ...]:
    """A11.4 ambush dr DRMs: -1 concealed, +1 CX, +1 pinned, +1 Lax (a BCh unit,
    ASLGW 1.5), the best Good Order leader's leadership.

    >>> [m.value for m in ambush_modifiers(concealed=True, cx=False, pinned=False, lax=True, leader_modifier=-1)]
    [-1, 1, -1]
    """
    t = combat_table().ambush
    out = []
    if concealed:
        out.append(Modifier("concealed at the start of the CCPh (A11.4)", t.concealed_drm))
    if cx:
        out.append(Modifier("CX (A11.4)", t.cx_drm))
    if pinned:
        out.append(Modifier("pinned (A11.4)", t.pinned_drm))
    if lax:
        out.append(Modifier("Lax: BCh units (ASLGW 1.5, A11.4)", t.lax_drm))
    if leader_modifier:
        out.append(Modifier("leadership (A11.4)", leader_modifier))
    return tuple(out)


def ambush_outcome(final_a: int, final_b: int, side_a: str, side_b: str) -> str | None:
    """The side that ambushes (its final dr at least 3 below the other's, A11.4), or None.

    >>> ambush_outcome(1, 4, "a", "b"), ambush_outcome(2, 4, "a", "b"), ambush_outcome(6, 2, "a", "b")
    ('a', None, 'b')
    """
    diff = combat_table().ambush.difference
    if final_a <= final_b - diff:
        return side_a
    if final_b <= final_a - diff:
        return side_b
    return None


def ambush_distribution(a: AmbushSide, b: AmbushSide) -> dict[str, Fraction]:
    """The exact chance that ``a`` ambushes, ``b`` does, or neither (A11.4; all 36 dr pairs).

    >>> ambush_distribution(AmbushSide("a", ()), AmbushSide("b", ()))["no ambush"]
    Fraction(2, 3)
    """
    out: dict[str, Fraction] = {}
    for da in range(1, 7):
        for db in range(1, 7):
            w = ambush_outcome(da + a.drm, db + b.drm, a.side, b.side)
            key = f"{w} ambushes" if w else "no ambush"
            out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
    return out
