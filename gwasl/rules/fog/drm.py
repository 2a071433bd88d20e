"""The shift DRM of O'Leary 2.5, from plain facts about the two locations.

Kept free of the game state so that every worked example of 2.5 and 4.3 can
be checked with the text's own numbers; :mod:`gwasl.rules.fog.shift` gathers
the facts from a :class:`~gwasl.rules.fog.state.FogState`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gwasl.rules.dice import Modifier
from gwasl.rules.fog.table import FogTable, fog_table

__all__ = ["ShiftFacts", "shift_modifiers", "total_drm"]


@dataclass(frozen=True, slots=True)
class ShiftFacts:
    """What the O'Leary 2.5 DRM depends on.

    ``tem_a``/``tem_b``: TEM of each location (without Air Burst or
    emplacement TEM, and without a fortification that is itself shifted,
    4.3); ``size_classes``: the size class of every piece in both stacks
    ("infantry", "large_vehicle"... gwasl/resources/fog.json).
    """

    prior_shifts: int = 0
    tem_a: int = 0
    tem_b: int = 0
    enemy_los_a: bool = False
    enemy_los_b: bool = False
    both_hip: bool = False
    lv_hindrance: bool = False
    night: bool = False
    emplaced_gun: bool = False
    size_classes: tuple[str, ...] = ()
    balance_drm: int = 0


def shift_modifiers(f: ShiftFacts, table: FogTable | None = None) -> tuple[Modifier, ...]:
    """O'Leary 2.5: every DRM that applies, each with its cause (zero DRM left out).

    The 2.5 woods example: stone building and woods, in enemy LOS:

    >>> [(m.value) for m in shift_modifiers(ShiftFacts(tem_a=3, tem_b=1, enemy_los_a=True))]
    [-1, 1]

    Only the largest starred (size) DRM applies: halftrack +1, Tiger +3 -> +3.

    >>> total_drm(ShiftFacts(tem_a=1, tem_b=1, size_classes=("small_vehicle", "large_vehicle")))
    2
    """
    t = table or fog_table()
    d = t.drm
    out: list[Modifier] = []
    if f.prior_shifts:
        out.append(Modifier(f"{f.prior_shifts} earlier shift(s) of this side this phase (O'Leary 2.5)",
                            d["per_previous_shift"] * f.prior_shifts))
    worst = min(f.tem_a, f.tem_b)
    if worst:
        out.append(Modifier(f"worst TEM of the two locations ({worst:+d}) with sign reversed (O'Leary 2.5)", -worst))
    if f.enemy_los_a or f.enemy_los_b:
        out.append(Modifier("a location in the LOS of an enemy unit (O'Leary 2.5)", d["enemy_los"]))
    if f.both_hip:
        out.append(Modifier("both stacks HIP (O'Leary 2.5)", d["both_hip"]))
    if f.lv_hindrance:
        out.append(Modifier("LV hindrance at all ranges (O'Leary 2.5)", d["lv_hindrance"]))
    if f.night:
        out.append(Modifier("night scenario (O'Leary 2.5)", d["night"]))
    if f.emplaced_gun:
        out.append(Modifier("a stack holds an emplaced gun (O'Leary 2.5)", d["emplaced_gun"]))
    sizes = [(t.size_drm.get(c, 0), c) for c in f.size_classes]
    if sizes:
        value, cls = max(sizes)
        if value:
            out.append(Modifier(f"size: {cls.replace('_', ' ')} (O'Leary 2.5, largest starred DRM only)", value))
    if f.balance_drm:
        out.append(Modifier("scenario balance DRM (O'Leary 2.5 remark)", f.balance_drm))
    return tuple(out)


def total_drm(f: ShiftFacts, table: FogTable | None = None) -> int:
    """Sum of :func:`shift_modifiers`. (O'Leary 2.5.)"""
    return sum(m.value for m in shift_modifiers(f, table))
