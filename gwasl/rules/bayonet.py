"""Bayonet Charge (ASLGW 1.5): the declaration check and the effects on the
charging units (BCh units) for the rest of the player turn.

The check returns EVERY unmet condition, each with its rule, so the editor
and the player can show all of them at once.  Facts owned by other rules are
arguments: LOS is an injected predicate (the LOS module provides it), the
French exemption from the two-MMC average (ASLGW 1.11.2) is a flag.

>>> import datetime
>>> from gwasl.model.scenario import *
>>> from gwasl.model.hexgrid import Hex
>>> s = Scenario("t", datetime.date(1914, 9, 6), MapData(5, 5),
...     {"fr": Side("fr", Nationality.FRENCH), "de": Side("de", Nationality.GERMAN)},
...     (Unit("c", "fr", UnitKind.CREW, Hex.from_label("A1")),))
>>> check = check_bch_declaration(s, BChDeclaration(("c",), direction=3), los=lambda *a: True, french_exempt=False)
>>> [f.condition for f in check.failures]
['infantry_not_crew', 'mmc_average', 'los_to_enemy']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import permutations
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import FortificationKind, HiddenStatus, Position, Scenario, Unit, UnitKind
from gwasl.rules.morale import asl_core
from gwasl.rules.units import nationality_traits

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "BCH_RANGE",
    "BChImpulse",
    "BChMover",
    "BChStep",
    "bch_impulse",
    "bch_movers",
    "BChCheck",
    "BChError",
    "BChDeclaration",
    "BChFailure",
    "BChUnitStatus",
    "LosPredicate",
    "apply_bch",
    "bch_morale",
    "bch_unit_status",
    "check_bch_declaration",
    "toward",
]

# "an enemy unit within the eight hexes the chain will move towards" (1.5)
BCH_RANGE = 8
# "an average of at least two participating MMC per hex in three contiguous adjacent hexes" (1.5)
BCH_MIN_HEXES = 3
BCH_MIN_MMC_PER_HEX = 2

# LOS predicate ``(from_hex, to_hex, from_in, to_in) -> bool``, the argument order
# of gwasl.rules.los.los; e.g. ``lambda a, b, ai, bi: los(scenario, a, b, ai, bi).clear``.
LosPredicate = Callable[[Hex, Hex, Position, Position], bool]


class BChError(GwaslError):
    """A BCh applied that :func:`check_bch_declaration` would refuse."""


@dataclass(frozen=True, slots=True)
class BChDeclaration:
    """A BCh the ATTACKER wants to declare: its units and the hex direction
    (0..5: N, NE, SE, S, SW, NW, as :meth:`Hex.neighbour`) the chain moves towards."""

    unit_ids: tuple[str, ...]
    direction: int
    phase: Phase = Phase.MPh


@dataclass(frozen=True, slots=True)
class BChFailure:
    """One unmet condition of a declaration."""

    condition: str
    message: str
    rule: str
    unit_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BChCheck:
    failures: tuple[BChFailure, ...]

    @property
    def ok(self) -> bool:
        return not self.failures


def toward(origin: Hex, direction: int, target: Hex) -> bool:
    """Whether ``target`` lies ahead of ``origin`` for a chain moving in
    ``direction`` (ASLGW 1.5, "the hexes the chain will move towards"): one
    step that way brings it strictly closer (a 120-degree front sector).

    >>> toward(Hex.from_label("C5"), 0, Hex.from_label("C1")), toward(Hex.from_label("C5"), 3, Hex.from_label("C1"))
    (True, False)
    """
    return origin.neighbour(direction).distance(target) < origin.distance(target)


def _contiguous_triples(hexes: set[Hex]) -> Iterable[tuple[Hex, Hex, Hex]]:
    # Three distinct hexes h1-h2-h3 with h1 ADJACENT to h2 and h2 to h3.
    for a, b, c in permutations(hexes, 3):
        if a < c and a.is_adjacent(b) and b.is_adjacent(c):
            yield a, b, c


def _connected(hexes: set[Hex]) -> bool:
    if not hexes:
        return True
    start = next(iter(hexes))
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == hexes


def check_bch_declaration(
    s: Scenario,
    decl: BChDeclaration,
    los: LosPredicate,
    french_exempt: bool | None = None,
) -> BChCheck:
    """Check a BCh declaration against ASLGW 1.5 and return EVERY unmet condition.

    Conditions (each failure names its rule):
    - declared in the ATTACKER's MPh (1.5);
    - the units exist, all of one side (1.5);
    - Good Order (not broken) infantry, SMC allowed, no crews (1.5);
    - an average of at least two MMC per hex in three contiguous ADJACENT
      hexes: some three hexes of the chain, each ADJACENT to the next, hold
      at least 6 MMC (1.5); waived for a nationality exempt from it (French,
      ASLGW 1.11.2: ``bayonet_charge_density_exempt`` in
      gwasl/resources/nationalities.json); ``french_exempt`` True/False overrides
      that (e.g. an SSR), None reads it from the units' side;
    - a contiguous chain: the hexes of the units form one ADJACENT-connected
      group, so each unit is ADJACENT to at least one other (1.5);
    - at least one leader when an MMC takes part (1.5);
    - at least one unit has LOS (``los(from_hex, to_hex, from_in, to_in)``)
      to an enemy unit (not HIP) within 8 hexes ahead of the chain (:func:`toward`), or
      to a hex of an enemy trench or deep trench (1.5).
    """
    fails: list[BChFailure] = []
    if decl.phase is not Phase.MPh:
        fails.append(BChFailure("phase", f"a BCh is declared in the MPh, not the {decl.phase}", "ASLGW 1.5"))
    if not 0 <= decl.direction <= 5:
        fails.append(BChFailure("direction", f"direction {decl.direction} is not a hex direction 0..5", "ASLGW 1.5"))
    by_id = {u.id: u for u in s.units}
    missing = tuple(i for i in decl.unit_ids if i not in by_id)
    if not decl.unit_ids:
        fails.append(BChFailure("units", "a BCh needs at least one unit", "ASLGW 1.5"))
    if missing:
        fails.append(BChFailure("units", f"no such unit: {', '.join(missing)}", "ASLGW 1.5", missing))
    units = [by_id[i] for i in dict.fromkeys(decl.unit_ids) if i in by_id]
    sides = {u.side for u in units}
    if len(sides) > 1:
        fails.append(BChFailure("one_side", f"units of several sides ({', '.join(sorted(sides))})", "ASLGW 1.5"))

    broken = tuple(u.id for u in units if u.broken)
    if broken:
        fails.append(BChFailure("good_order", f"broken units cannot charge: {', '.join(broken)}", "ASLGW 1.5", broken))
    not_inf = tuple(u.id for u in units if u.kind in (UnitKind.CREW, UnitKind.SUPPORT_WEAPON))
    if not_inf:
        fails.append(BChFailure("infantry_not_crew", f"only infantry other than crews may charge: {', '.join(not_inf)}",
                                "ASLGW 1.5", not_inf))

    # Participating MMC: squads and half-squads (crews may not take part at all).
    mmc = [u for u in units if u.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD)]
    hexes = {u.hex for u in units}
    if french_exempt is None:
        french_exempt = len(sides) == 1 and next(iter(sides)) in s.sides \
            and nationality_traits(s.sides[next(iter(sides))].nationality).bayonet_charge_density_exempt
    if not french_exempt:
        per_hex = {h: sum(1 for u in mmc if u.hex == h) for h in hexes}
        need = BCH_MIN_HEXES * BCH_MIN_MMC_PER_HEX
        best = max((sum(per_hex[h] for h in t) for t in _contiguous_triples(hexes)), default=None)
        if best is None or best < need:
            got = "fewer than three contiguous ADJACENT hexes" if best is None else f"at most {best} MMC in three contiguous ADJACENT hexes"
            fails.append(BChFailure("mmc_average", f"a BCh needs an average of {BCH_MIN_MMC_PER_HEX} MMC per hex over "
                                    f"{BCH_MIN_HEXES} contiguous ADJACENT hexes ({need} MMC); the chain has {got}",
                                    "ASLGW 1.5 (French exempt, 1.11.2)"))
    if not _connected(hexes):
        fails.append(BChFailure("contiguous_chain", "the units do not form one contiguous chain: each must be ADJACENT "
                                f"to at least one other ({', '.join(sorted(h.label for h in hexes))})", "ASLGW 1.5"))
    if mmc and not any(u.kind is UnitKind.LEADER for u in units):
        fails.append(BChFailure("leader", "a BCh with MMC needs at least one leader", "ASLGW 1.5"))

    if units and len(sides) == 1:
        side = next(iter(sides))
        # A HIP unit is not on the map as far as the ATTACKER knows; concealed units are.
        enemies = [u for u in s.units if u.side != side and u.is_infantry and u.hidden is not HiddenStatus.HIP]
        trench_hexes = {h for f in s.map.fortifications
                        if f.kind in (FortificationKind.TRENCH, FortificationKind.DEEP_TRENCH)
                        and f.owner is not None and f.owner != side for h in f.hexes}
        seen = False
        for u in units:
            for e in enemies:
                if u.hex.distance(e.hex) <= BCH_RANGE and toward(u.hex, decl.direction % 6, e.hex) \
                        and los(u.hex, e.hex, u.position, e.position):
                    seen = True
                    break
            if not seen:
                seen = any(los(u.hex, h, u.position, Position.GROUND) for h in trench_hexes if h != u.hex)
            if seen:
                break
        if not seen:
            fails.append(BChFailure("los_to_enemy", "no BCh unit has LOS to an enemy unit within 8 hexes ahead of the "
                                    "chain, nor to an enemy trench", "ASLGW 1.5"))
    elif not units:
        fails.append(BChFailure("los_to_enemy", "no unit to have LOS to an enemy", "ASLGW 1.5"))
    return BChCheck(tuple(fails))


# ---------------------------------------------------------------------------
# Effects for the rest of the player turn


@dataclass(frozen=True, slots=True)
class BChUnitStatus:
    """What being a BCh unit means for the rest of the player turn (ASLGW 1.5)."""

    unit_id: str
    concealment_lost: bool = True
    morale_bonus: int = 1  # 0 while broken
    lax: bool = True
    pin_immune: str = "BCh unit (ASLGW 1.5; except as per A25.23)"
    heat_of_battle_exempt: str = "BCh unit (ASLGW 1.5)"
    paatc_exempt: bool = True
    until: str = "end of the player turn"
    rule: str = "ASLGW 1.5"


def bch_unit_status(unit: Unit) -> BChUnitStatus:
    """The BCh effects on one unit (ASLGW 1.5): it loses any concealment, is
    exempt from Heat of Battle, PAATC and pin results (except as per A25.23),
    has its morale raised by one unless broken, and is Lax, for the remainder
    of the player turn.  ``pin_immune`` and ``heat_of_battle_exempt`` are the
    reasons to pass to :func:`gwasl.rules.morale.morale_check`.

    >>> from gwasl.model.hexgrid import Hex
    >>> bch_unit_status(Unit("s", "fr", UnitKind.SQUAD, Hex(0, 0), broken=True)).morale_bonus
    0
    """
    return BChUnitStatus(unit.id, morale_bonus=0 if unit.broken else 1)


def bch_morale(morale: int, status: BChUnitStatus | None, broken: bool) -> int:
    """A unit's morale while a BCh unit: +1 unless broken (ASLGW 1.5).

    >>> from gwasl.model.hexgrid import Hex
    >>> st = bch_unit_status(Unit("s", "fr", UnitKind.SQUAD, Hex(0, 0)))
    >>> bch_morale(7, st, broken=False), bch_morale(7, st, broken=True), bch_morale(7, None, False)
    (8, 7, 7)
    """
    if status is None or broken:
        return morale
    return morale + 1


def apply_bch(s: Scenario, decl: BChDeclaration) -> tuple[Scenario, tuple[BChUnitStatus, ...]]:
    """The scenario with the BCh units' concealment removed (ASLGW 1.5) and their statuses.

    Call only with a declaration :func:`check_bch_declaration` accepted;
    unknown units raise :class:`BChError`.
    """
    missing = [i for i in decl.unit_ids if i not in {u.id for u in s.units}]
    if missing:
        raise BChError(f"no such unit: {', '.join(missing)} (ASLGW 1.5)")
    statuses = []
    for uid in dict.fromkeys(decl.unit_ids):
        u = s.unit(uid)
        statuses.append(bch_unit_status(u))
        if u.hidden is not HiddenStatus.NONE:
            s = s.with_unit(replace(u, hidden=HiddenStatus.NONE))
    return s, tuple(statuses)


# ---------------------------------------------------------------------------
# Movement and end of the charge: the Human Wave rules A25.231-A25.235, which
# ASLGW 1.5 applies to a BCh ("All the other rules of the Human Wave apply").


@dataclass(frozen=True, slots=True)
class BChMover:
    """A unit of a BCh during the MPh (A25.231, A25.235 via ASLGW 1.5).

    ``active`` is whether it is still a BCh unit that moves with the charge;
    ``ended`` says why it stopped; ``in_cc`` marks one that ended in a
    Location with an armed Known enemy unit: it is marked CC and may not
    advance out of that Location (A25.235).  The morale +1 and Lax of
    :class:`BChUnitStatus` last for the player turn either way."""

    unit_id: str
    hex: Hex
    mf_left: float
    active: bool = True
    ended: str = ""
    in_cc: bool = False


@dataclass(frozen=True, slots=True)
class BChStep:
    """One BCh unit's move in an Impulse: the ADJACENT hex it enters and the
    MF that costs (the terrain and trench rules, e.g.
    :func:`gwasl.rules.trenches.move_cost`, give the cost)."""

    unit_id: str
    to_hex: Hex
    mf: float


@dataclass(frozen=True, slots=True)
class BChImpulse:
    """The result of one BCh Impulse: the movers after it, every rule the
    proposed steps break (nothing moves when any is broken), and whether the
    charge is over (A25.235)."""

    movers: tuple[BChMover, ...]
    failures: tuple[BChFailure, ...]
    over: bool

    @property
    def ok(self) -> bool:
        return not self.failures


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def bch_movers(s: Scenario, decl: BChDeclaration) -> tuple[BChMover, ...]:
    """The BCh units at the start of the charge, each with the 8 MF of a
    Human Wave unit (A25.231 via ASLGW 1.5; gwasl/resources/asl_core.json), whatever
    its own MF or leadership.

    >>> import datetime
    >>> from gwasl.model.scenario import *
    >>> s = Scenario("t", datetime.date(1914, 9, 6), MapData(5, 5), {"fr": Side("fr", Nationality.FRENCH)},
    ...     (Unit("a", "fr", UnitKind.SQUAD, Hex.from_label("B3")),))
    >>> bch_movers(s, BChDeclaration(("a",), 0))[0].mf_left
    8.0
    """
    mf = float(asl_core().human_wave_mf)
    by_id = {u.id: u for u in s.units}
    missing = [i for i in decl.unit_ids if i not in by_id]
    if missing:
        raise BChError(f"no such unit: {', '.join(missing)} (ASLGW 1.5)")
    return tuple(BChMover(i, by_id[i].hex, mf) for i in dict.fromkeys(decl.unit_ids))


def _end(m: BChMover, why: str, in_cc: bool = False) -> BChMover:
    return replace(m, active=False, ended=why, in_cc=in_cc)


def bch_impulse(
    movers: Iterable[BChMover],
    direction: int,
    steps: Iterable[BChStep],
    *,
    enemy_hexes: Iterable[Hex] = (),
    broken: Iterable[str] = (),
    eliminated: Iterable[str] = (),
    guards: Iterable[str] = (),
) -> BChImpulse:
    """One Impulse of a BCh (Human Wave A25.231-A25.235, applied by ASLGW 1.5).

    At the start of the Impulse a unit stops being a BCh unit (A25.235) when
    it is ``eliminated``, ``broken``, a Guard of captured units (``guards``,
    A25.234), or in a hex holding an armed, Known enemy unit
    (``enemy_hexes``): that one is then in CC (marked CC, may not advance out).
    Every remaining BCh unit must then move in this same Impulse (A25.231):
    each enters one new ADJACENT hex, ahead of the charge (the hex is in one
    of the three hex directions of the declared front, ``direction`` and its
    two neighbours: the 120-degree front of :func:`toward`), paying its cost
    from its 8 MF.  A unit left with no MF at the end of the Impulse stops
    being a BCh unit (A25.235).  The charge is over when no BCh unit is left
    (A25.235).  Broken steps are all reported and nothing moves.

    >>> m = (BChMover("a", Hex.from_label("C5"), 2.0),)
    >>> r = bch_impulse(m, 0, [BChStep("a", Hex.from_label("C4"), 2.0)])
    >>> r.ok, r.movers[0].hex.label, r.movers[0].ended, r.over
    (True, 'C4', 'out of MF at the end of an Impulse (A25.235)', True)
    """
    enemy = set(enemy_hexes)
    out_broken, out_elim, out_guard = set(broken), set(eliminated), set(guards)
    start: list[BChMover] = []
    for m in movers:
        if m.active and m.unit_id in out_elim:
            m = _end(m, "eliminated (A25.235)")
        elif m.active and m.unit_id in out_broken:
            m = _end(m, "broken (A25.235)")
        elif m.active and m.unit_id in out_guard:
            m = _end(m, "Guard of captured units (A25.234, A25.235)")
        elif m.active and m.hex in enemy:
            m = _end(m, "in a Location with an armed, Known enemy unit at the start of the Impulse: CC, no advance out "
                        "(A25.235)", in_cc=True)
        start.append(m)
    by_id = {m.unit_id: m for m in start}
    fails: list[BChFailure] = []
    planned: dict[str, BChStep] = {}
    for st in steps:
        found = by_id.get(st.unit_id)
        if found is None:
            fails.append(BChFailure("units", f"{st.unit_id} is not a unit of this BCh", "ASLGW 1.5", (st.unit_id,)))
            continue
        m = found
        if not m.active:
            fails.append(BChFailure("not_bch_unit", f"{st.unit_id} is no longer a BCh unit ({m.ended})", "A25.235",
                                    (st.unit_id,)))
        elif st.unit_id in planned:
            fails.append(BChFailure("one_hex_per_impulse", f"{st.unit_id} enters more than one hex in an Impulse",
                                    "A25.231", (st.unit_id,)))
        else:
            planned[st.unit_id] = st
            step_dir = m.hex.direction_to(st.to_hex)
            if step_dir is None:
                fails.append(BChFailure("adjacent", f"{st.unit_id}: {st.to_hex} is not ADJACENT to {m.hex}", "A25.231",
                                        (st.unit_id,)))
            elif (step_dir - direction) % 6 not in (0, 1, 5):
                fails.append(BChFailure("ahead", f"{st.unit_id}: {m.hex} to {st.to_hex} does not move towards the "
                                        "front the BCh was declared in", "ASLGW 1.5, A25.231", (st.unit_id,)))
            if st.mf > m.mf_left:
                fails.append(BChFailure("mf", f"{st.unit_id}: entering {st.to_hex} costs {st.mf:g} MF, it has "
                                        f"{m.mf_left:g} of its 8 left", "A25.231", (st.unit_id,)))
    idle = tuple(m.unit_id for m in start if m.active and m.unit_id not in planned)
    if idle:
        fails.append(BChFailure("all_move", f"every BCh unit must enter a new hex each Impulse: {', '.join(idle)} "
                                "does not", "A25.231", idle))
    if fails:
        return BChImpulse(tuple(start), tuple(fails), not any(m.active for m in start))
    after = []
    for m in start:
        step = planned.get(m.unit_id)
        if step is not None:
            m = replace(m, hex=step.to_hex, mf_left=m.mf_left - step.mf)
            if m.mf_left <= 0:
                m = _end(m, "out of MF at the end of an Impulse (A25.235)")
        after.append(m)
    return BChImpulse(tuple(after), (), not any(m.active for m in after))
