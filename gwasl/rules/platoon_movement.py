"""Platoon movement by impulses (ASLGW 1.4.1-1.4.12): a pure validator of one impulse.

A platoon (or half-platoon) moves in impulses as one unit.  For one impulse:

* every moving member enters at least one hex (ASLGW 1.4.1);
* every moving member spends the MF of the member that spends most
  (ASLGW 1.4.1), which must fit in each one's allowance (A4.1);
* at the end, every squad is in the same hex as, or adjacent to, another
  squad of the platoon or its leader (ASLGW 1.4.1, 1.4.11); members need not
  see each other, and not all must move (ASLGW 1.4.11);
* broken members are no longer part of the platoon (ASLGW 1.4.11) and squads
  the player detaches become free squads (ASLGW 1.4.13), so neither is
  checked.

Assault Move, Dash, Search, column movement or carrying over the IPC are all
allowed while formation holds (ASLGW 1.4.12): they change each member's MF
cost, which the caller computes, not the rule checked here.  Entrenched
platoons do not use platoon movement at all (ASLGW 1.4.15, see
:func:`gwasl.rules.organisation.uses_platoon_movement`).

>>> H = Hex.from_label
>>> r = check_impulse([
...     MemberStep("a", UnitKind.SQUAD, H("C2"), (H("C3"),), mf_cost=1, mf_allowance=6),
...     MemberStep("b", UnitKind.SQUAD, H("D2"), (H("D3"),), mf_cost=2, mf_allowance=6),
... ])
>>> r.legal, r.platoon_mf, dict(r.charged)
(True, 2, {'a': 2, 'b': 2})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import UnitKind
from gwasl.rules.organisation import RuleViolation, formation_gaps

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["MemberStep", "ImpulseResult", "check_impulse", "PLATOON_MOVE_MODES"]

# ASLGW 1.4.12: how members may move within platoon movement, as long as the
# formation holds (normal movement plus these classic modes).
PLATOON_MOVE_MODES = frozenset({"normal", "assault_move", "dash", "search", "column", "over_ipc"})

Number = int | float | Fraction


@dataclass(frozen=True, slots=True)
class MemberStep:
    """What one platoon member does in an impulse.

    ``path`` lists the hexes it enters, in order (empty: it does not move);
    ``mf_cost`` is what its own path would cost it (terrain, deep trench entry,
    Assault Move...); ``mf_spent_before`` what it already spent this MPh;
    ``mf_allowance`` its allowance (:func:`gwasl.rules.organisation.mf_allowance`);
    ``mode`` how it moves (:data:`PLATOON_MOVE_MODES`, ASLGW 1.4.12), whose
    effect on ``mf_cost`` the caller has already counted.
    """

    unit_id: str
    kind: UnitKind
    start: Hex
    path: tuple[Hex, ...] = ()
    mf_cost: Number = 0
    mf_spent_before: Number = 0
    mf_allowance: Number = 6
    broken: bool = False
    mode: str = "normal"

    @property
    def end(self) -> Hex:
        return self.path[-1] if self.path else self.start

    @property
    def moving(self) -> bool:
        return bool(self.path) or self.mf_cost > 0


@dataclass(frozen=True, slots=True)
class ImpulseResult:
    """The verdict on one impulse: ``platoon_mf`` is what each moving member is
    charged (``charged``), ``violations`` every unmet condition with its rule."""

    legal: bool
    platoon_mf: Number
    charged: Mapping[str, Number]
    end: Mapping[str, Hex]
    violations: tuple[RuleViolation, ...]


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def check_impulse(
    members: Sequence[MemberStep],
    *,
    detach: frozenset[str] = frozenset(),
) -> ImpulseResult:
    """Check one impulse of a platoon or half-platoon (ASLGW 1.4.1, 1.4.11, 1.4.13).

    ``members`` are the platoon's squads, half-squads and its leader (a member
    of kind LEADER; any leader moving with it keeps squads in formation,
    ASLGW 1.4.11; an attached hero moves with it but anchors nothing); ``detach`` the ids the player sets free this impulse
    (ASLGW 1.4.13: they move afterwards as free squads and are not checked).
    """
    out: list[RuleViolation] = []
    ids = [m.unit_id for m in members]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        out.append(RuleViolation("ASLGW 1.4.1", f"unit(s) {', '.join(dup)} listed twice in one impulse"))
    unknown = sorted(detach - set(ids))
    if unknown:
        out.append(RuleViolation("ASLGW 1.4.13", f"cannot detach {', '.join(unknown)}: not members of this platoon"))
    platoon = [m for m in members if not m.broken and m.unit_id not in detach]
    for m in members:
        if m.broken and m.moving:
            out.append(RuleViolation("ASLGW 1.4.11", f"{m.unit_id} is broken: it is no longer part of the platoon and does not move with it", m.unit_id))
        if m.mode not in PLATOON_MOVE_MODES:
            out.append(
                RuleViolation(
                    "ASLGW 1.4.12",
                    f"{m.unit_id}: {m.mode!r} is not a way to move within platoon movement ({', '.join(sorted(PLATOON_MOVE_MODES))})",
                    m.unit_id,
                )
            )
        if m.kind not in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.LEADER, UnitKind.HERO):
            out.append(RuleViolation("ASLGW 1.1", f"{m.unit_id} is a {m.kind.value}; a platoon is squads with its leader (and attached SMC)", m.unit_id))
    movers = [m for m in platoon if m.moving]
    if not movers:
        out.append(RuleViolation("ASLGW 1.4.1", "no member of the platoon moves in this impulse"))
    for m in movers:
        if not m.path:
            out.append(RuleViolation("ASLGW 1.4.1", f"{m.unit_id} spends MF but enters no hex; every moving member must move at least one hex", m.unit_id))
        prev = m.start
        for h in m.path:
            if prev.distance(h) != 1:
                out.append(RuleViolation("A4.1", f"{m.unit_id} moves from {prev.label} to {h.label}, which is not adjacent", m.unit_id))
                break
            prev = h
        if m.mf_cost < 0:
            out.append(RuleViolation("A4.1", f"{m.unit_id}: negative MF cost {m.mf_cost}", m.unit_id))
    platoon_mf: Number = max((m.mf_cost for m in movers), default=0)
    charged = {m.unit_id: platoon_mf for m in movers}
    for m in movers:
        if m.mf_spent_before + platoon_mf > m.mf_allowance:
            out.append(RuleViolation(
                "ASLGW 1.4.1",
                f"{m.unit_id} would spend {_n(m.mf_spent_before + platoon_mf)} MF (the platoon spends {_n(platoon_mf)} this impulse, "
                f"the most any moving member spends) but has {_n(m.mf_allowance)}",
                m.unit_id,
            ))
    end = {m.unit_id: m.end for m in platoon}
    squads = {m.unit_id: m.end for m in platoon if m.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD)}
    leaders = [m.end for m in platoon if m.kind is UnitKind.LEADER]
    if len(squads) + len(leaders) > 1:
        for uid in formation_gaps(squads, None, leaders):
            out.append(RuleViolation(
                "ASLGW 1.4.11",
                f"{uid} ends the impulse in {squads[uid].label}, neither in the same hex as nor adjacent to another squad of its platoon or its leader",
                uid,
            ))
    return ImpulseResult(not out, platoon_mf, MappingProxyType(charged), MappingProxyType(end), tuple(out))


def _n(x: Number) -> str:
    return f"{float(x):g}"
