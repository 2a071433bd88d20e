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

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from gwasl.model.scenario import Unit
from gwasl.rules.armour import armour_cc_modifier
from gwasl.rules.dice import Modifier
from gwasl.rules.morale import cx_attack_modifier
from gwasl.rules.trenches import DEEP_TRENCH_POSITIONS

__all__ = ["CCKind", "CCDecision", "CloseCombatError", "Separation", "cc_modifiers", "close_combat_kind",
           "locations_separation", "melee_kind"]


class CloseCombatError(ValueError):
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
        return CCDecision(CCKind.NORMAL, f"the fighting units are in separate locations ({separation.value})", "ASLGW 1.10.1")
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


def cc_modifiers(kind: CCKind, hth_drm: int, defenders: Iterable[Unit], attacker_cx: bool = False) -> tuple[Modifier, ...]:
    """The CC DRMs these rules add to an attack (ASLGW 1.10, 1.11.2, 1.8; A4.51).

    - ``hth_drm``: the attacking nationality's HtH DRM (French -1, ASLGW
      1.11.2), applied only to a Hand-to-Hand attack;
    - +1 when the attacked units include armoured infantry (ASLGW 1.8);
    - +1 when the attacker is CX (A4.51).

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
    return tuple(out)
