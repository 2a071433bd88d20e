"""Platoons, half-platoons, combat groups and their leaders (ASLGW 1.1-1.4).

Pure functions over hexes and units.  The numbers (6 squads a platoon, 3 a
half-platoon, 2 a combat group, 6 under one leader, 25% conversions) are the
``organisation`` entry of ``gwasl/resources/nationalities.json``.

* Composition: :func:`composition_problems` (ASLGW 1.1, 1.2.1, 1.3).
* Half-platoons at set-up: :func:`half_platoon_conversions_allowed` (ASLGW 1.1).
* Combat groups: :func:`combat_group_problems` (ASLGW 1.2.1, 1.2.11, 1.2.12).
* Formation: :func:`formation_gaps` and :func:`setup_formation_gaps`
  (ASLGW 1.4.1, 1.4.11, 1.4.15).
* Membership: :func:`active_members` (ASLGW 1.4.11 second paragraph: broken
  squads leave the platoon).
* Movement allowance: :func:`mf_allowance` (ASLGW 1.3, 1.3.4, A4.12).
* Free squads: :func:`free_squad_ntc` (ASLGW 1.4.13-1.4.15).
* Recombining and rejoining: :func:`recombine_problems` (ASLGW 1.3.3, 1.3.4, 1.4.13).

Command radius and In Command status belong to :mod:`gwasl.rules.command`;
the functions here take them as arguments.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Formation, FormationKind, Position, Scenario, Unit, UnitClass, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.armour import armour_rule
from gwasl.rules.dice import Modifier
from gwasl.rules.units import combat_groups_from, infantry_movement, nationality_traits

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "RuleViolation",
    "Organisation",
    "MfAllowance",
    "FreeSquadNtc",
    "ENTRENCHED_POSITIONS",
    "ELITE_CLASSES",
    "organisation",
    "formation_size",
    "squad_equivalents",
    "is_entrenched",
    "active_members",
    "find_unit",
    "formation_members",
    "platoon_leader",
    "platoon_leaders",
    "led_platoons",
    "is_leaderless",
    "formation_gaps",
    "setup_formation_gaps",
    "uses_platoon_movement",
    "composition_problems",
    "half_platoon_conversions_allowed",
    "combat_group_problems",
    "mf_allowance",
    "unit_mf_allowance",
    "free_squad_ntc",
    "recombine_problems",
    "ssr_flag",
    "formation_side",
    "leadership_applies",
    "moves_by_impulse",
    "free_squad_move_order",
    "leader_control_problems",
    "is_free_squad",
    "kind_after_losses",
]


@dataclass(frozen=True, slots=True)
class RuleViolation:
    """One unmet condition: which rule, what is wrong, and which unit (if one)."""

    rule: str
    message: str
    unit_id: str | None = None

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


@dataclass(frozen=True, slots=True)
class Organisation:
    """The ASLGW 1.1-1.4 organisation numbers (gwasl/resources/nationalities.json)."""

    platoon_squads: int
    half_platoon_squads: int
    combat_group_squads: int
    leader_max_squads: int
    half_platoon_conversion_percent: int
    formation_distance: int


def parse_organisation(doc: Any) -> Organisation:
    """Validate the ``organisation`` entry (:class:`TableError` names the field).

    The organisation numbers: 6 squads a platoon, 3 a half-platoon, 25% conversions (ASLGW 1.1), 2 squads a
    combat group (ASLGW 1.2.1), 6 squads under one leader (ASLGW 1.3)."""
    org = doc.get("organisation") if isinstance(doc, dict) else None
    if not isinstance(org, dict):
        raise TableError("nationalities.json: no 'organisation' object")
    vals = []
    for f in Organisation.__dataclass_fields__:
        v = org.get(f)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 < v <= 100:
            raise TableError(f"nationalities.json organisation.{f}: expected a whole number 1-100, got {v!r}")
        vals.append(v)
    return Organisation(*vals)


@lru_cache(maxsize=1)
def organisation() -> Organisation:
    """The ASLGW 1.1-1.4 organisation numbers, loaded and validated once."""
    return parse_organisation(load_resource("nationalities.json"))


# Positions that are entrenchments for ASLGW 1.4.15 (B27 trenches and foxholes,
# ASLGW 2.1 deep trenches, ASLGW 2.2 dugouts; a pillbox is a fortification, not an entrenchment).
ENTRENCHED_POSITIONS = frozenset({Position.TRENCH, Position.DEEP_TRENCH, Position.DEEP_TRENCH_CREST, Position.FOXHOLE, Position.DUGOUT})
# Classes that are "Elite troops" for ASLGW 1.2.11 (Stosstruppen carry elite factors, ASLGW 1.11.1).
ELITE_CLASSES = frozenset({UnitClass.ELITE, UnitClass.STOSSTRUPPEN})
_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)


def formation_size(kind: FormationKind | str) -> int:
    """Squads in a full formation: platoon 6, half-platoon 3 (ASLGW 1.1), combat group 2 (ASLGW 1.2.1).

    >>> formation_size("platoon"), formation_size("half_platoon"), formation_size("combat_group")
    (6, 3, 2)
    """
    o = organisation()
    return {FormationKind.PLATOON: o.platoon_squads, FormationKind.HALF_PLATOON: o.half_platoon_squads,
            FormationKind.COMBAT_GROUP: o.combat_group_squads}[FormationKind(kind)]


def squad_equivalents(units: Iterable[Unit]) -> Fraction:
    """Squads counted as ASL counts them: a half-squad is half a squad (ASLGW 1.1, 1.3.3).

    >>> from gwasl.model.hexgrid import Hex
    >>> squad_equivalents([Unit("a", "x", UnitKind.SQUAD, Hex(0, 0)), Unit("b", "x", UnitKind.HALF_SQUAD, Hex(0, 0))])
    Fraction(3, 2)
    """
    return sum((Fraction(1) if u.kind is UnitKind.SQUAD else Fraction(1, 2) for u in units if u.kind in _SQUADS), Fraction(0))


def is_entrenched(unit: Unit) -> bool:
    """A unit in a trench, deep trench (crest included), foxhole or dugout (ASLGW 1.4.15)."""
    return unit.position in ENTRENCHED_POSITIONS


class _OrgIndex:
    """Look-ups over one (immutable) scenario, built once, so the batch callers
    (command status of every unit, the validator) stay linear in the units."""

    def __init__(self, scenario: Scenario):
        self.units: dict[str, Unit] = {}
        self.members: dict[str, list[Unit]] = {}
        self.leader_locations: set[tuple[str, Hex, Position]] = set()
        self.led: dict[str, list[str]] = {}
        for u in scenario.units:
            self.units.setdefault(u.id, u)  # duplicate ids: the first, as Scenario.unit finds it
            if u.platoon is not None:
                self.members.setdefault(u.platoon, []).append(u)
            if u.kind is UnitKind.LEADER:
                if not u.broken:
                    self.leader_locations.add((u.side, u.hex, u.position))
                if u.platoon is not None:
                    self.led.setdefault(u.id, []).append(u.platoon)
        self.formations: dict[str, Formation] = {}
        for f in scenario.formations:
            self.formations.setdefault(f.id, f)
            if f.leader is not None:
                ids = self.led.setdefault(f.leader, [])
                if f.id not in ids:
                    ids.append(f.id)
        self.gaps: dict[str, tuple[str, ...]] = {}

    def platoon_leaders(self, formation_id: str) -> tuple[Unit, ...]:
        f = self.formations.get(formation_id)
        named = self.units.get(f.leader) if f is not None and f.leader is not None else None
        out = [named] if named is not None and named.kind is UnitKind.LEADER and not named.broken else []
        out += [u for u in self.members.get(formation_id, ()) if u.kind is UnitKind.LEADER and not u.broken and u is not named]
        return tuple(out)


_INDEX_LOCK = threading.Lock()
_INDEX: list[tuple[Scenario, _OrgIndex]] = []


def _index(scenario: Scenario) -> _OrgIndex:
    """The cached :class:`_OrgIndex` of this scenario object (scenarios are immutable)."""
    with _INDEX_LOCK:
        for s, idx in _INDEX:
            if s is scenario:
                return idx
    idx = _OrgIndex(scenario)
    with _INDEX_LOCK:
        _INDEX.insert(0, (scenario, idx))
        del _INDEX[4:]
    return idx


def find_unit(scenario: Scenario, unit_id: str) -> Unit | None:
    """The unit with this id (the first, if ids repeat), or ``None``; a dict look-up."""
    return _index(scenario).units.get(unit_id)


def formation_members(scenario: Scenario, formation_id: str) -> tuple[Unit, ...]:
    """Every unit whose ``platoon`` is ``formation_id`` (:meth:`Scenario.members`, indexed).

    The members of a platoon, half-platoon or combat group (ASLGW 1.1, 1.2.1)."""
    return tuple(_index(scenario).members.get(formation_id, ()))


def active_members(scenario: Scenario, formation_id: str) -> tuple[Unit, ...]:
    """The squads and half-squads still part of a formation: broken ones have left
    it (ASLGW 1.4.11, second paragraph); destroyed ones are off the map."""
    return tuple(u for u in _index(scenario).members.get(formation_id, ()) if u.kind in _SQUADS and not u.broken)


def platoon_leader(scenario: Scenario, formation: Formation) -> Unit | None:
    """The formation's leader as an SMC on the map, if it has one and he is not broken
    (ASLGW 1.3; without one the platoon is leaderless, ASLGW 1.3.4)."""
    if formation.leader is None:
        return None
    for u in scenario.units:
        if u.id == formation.leader and u.kind is UnitKind.LEADER and not u.broken:
            return u
    return None


def platoon_leaders(scenario: Scenario, formation_id: str) -> tuple[Unit, ...]:
    """The Good Order leaders of a formation: the one named in its ``leader``
    field first, then every leader whose ``platoon`` field names it (ASLGW 1.3:
    "each platoon normally comes with a leader"; a scenario may say so either
    way, docs/rules-notes.md "Who leads a platoon")."""
    return _index(scenario).platoon_leaders(formation_id)


def led_platoons(scenario: Scenario, leader: Unit) -> tuple[str, ...]:
    """The formations a leader leads: his own ``platoon`` and every formation
    naming him as its ``leader`` (ASLGW 1.3; see :func:`platoon_leaders`)."""
    return tuple(_index(scenario).led.get(leader.id, ()))


def is_leaderless(scenario: Scenario, formation: Formation) -> bool:
    """ASLGW 1.3.4: a platoon without a (Good Order) leader SMC, as given in the OB or
    after a Leader Loss (:func:`platoon_leaders`)."""
    return not platoon_leaders(scenario, formation.id)


def formation_gaps(squads: Mapping[str, Hex], leader: Hex | None = None, extra_anchors: Iterable[Hex] = ()) -> tuple[str, ...]:
    """Ids of the squads not in formation: not in the same hex as, or adjacent
    to, another squad of the platoon or its leader (ASLGW 1.4.11, 1.4.1).

    ``extra_anchors`` are further hexes that count as "another member" (squads
    not themselves checked, e.g. entrenched ones, ASLGW 1.4.15).

    >>> H = Hex.from_label
    >>> formation_gaps({"a": H("C2"), "b": H("C3"), "c": H("C5")})
    ('c',)
    >>> formation_gaps({"a": H("C2"), "c": H("C5")}, leader=H("C4"))
    ('a',)
    """
    reach = organisation().formation_distance
    anchors = {(h.q, h.r) for h in extra_anchors}
    if leader is not None:
        anchors.add((leader.q, leader.r))
    # Hexes holding squads, counted, so each squad looks only at the hexes
    # within reach of its own (linear in the squads, not quadratic).
    held = Counter((h.q, h.r) for h in squads.values())
    around = _offsets(reach)
    out = []
    for uid, h in squads.items():
        q, r = h.q, h.r
        if not any((x := (q + dq, r + dr)) in anchors or held[x] > (dq == dr == 0) for dq, dr in around):
            out.append(uid)
    return tuple(out)


@lru_cache(maxsize=8)
def _offsets(radius: int) -> tuple[tuple[int, int], ...]:
    """(dq, dr) of every hex within ``radius`` of a hex, itself first."""
    return tuple((h.q, h.r) for h in Hex(0, 0).within(radius))


def setup_formation_gaps(scenario: Scenario, formation_id: str) -> tuple[str, ...]:
    """Squads of a platoon that do not set up in formation (ASLGW 1.4.11).

    "A leader" is any Good Order leader of the platoon (:func:`platoon_leaders`:
    the named one or one whose ``platoon`` names it).  Broken squads are no
    longer members (1.4.11); entrenched squads are exempt (1.4.15: no platoon
    formation while entrenched) but still anchor the others.  A formation with
    a single active squad is in formation if a leader of it is adjacent or it
    has none (nothing to keep formation with).  Raises ``KeyError`` for a
    formation the scenario does not define.
    """
    idx = _index(scenario)
    if formation_id not in idx.formations:
        raise KeyError(formation_id)
    done = idx.gaps.get(formation_id)
    if done is not None:
        return done
    members = active_members(scenario, formation_id)
    leaders = idx.platoon_leaders(formation_id)
    free = {u.id: u.hex for u in members if not is_entrenched(u)}
    anchors = [u.hex for u in members if is_entrenched(u)] + [ld.hex for ld in leaders]
    gaps = () if len(members) <= 1 and not leaders else formation_gaps(free, None, anchors)
    idx.gaps[formation_id] = gaps
    return gaps


def uses_platoon_movement(members: Sequence[Unit]) -> bool:
    """ASLGW 1.4.15: a platoon whose active members are all entrenched does not
    use platoon movement (and 1.4.13 free-squad penalties do not apply)."""
    active = [u for u in members if u.kind in _SQUADS and not u.broken]
    return not (active and all(is_entrenched(u) for u in active))


def composition_problems(scenario: Scenario, formation: Formation) -> tuple[RuleViolation, ...]:
    """What is wrong with a formation's make-up (ASLGW 1.1, 1.2.1, 1.3).

    * squads and half-squads make up a platoon, with its leader; SMC may be
      attached, but a crew may not (ASLGW 1.1, 1.6.2);
    * all of one type (class) and nationality (ASLGW 1.1);
    * at most 6 / 3 / 2 squads (half-squads count half) for a platoon,
      half-platoon, combat group (ASLGW 1.1, 1.2.1); a leader controls at most
      6 squads (ASLGW 1.3);
    * fewer is legal (a formation reduced by casualties, ASLGW 1.1) and is not
      reported here.
    """
    out: list[RuleViolation] = []
    members = scenario.members(formation.id)
    rule_size = "ASLGW 1.2.1" if formation.kind is FormationKind.COMBAT_GROUP else "ASLGW 1.1"
    for u in members:
        if u.kind is UnitKind.CREW:
            out.append(
                RuleViolation(
                    "ASLGW 1.1",
                    f"crew {u.id} cannot be a member of {formation.kind.value} {formation.id}: "
                    "it is made of squads (MG crews belong to MG companies, ASLGW 1.6.2)",
                    u.id,
                )
            )
    squads = [u for u in members if u.kind in _SQUADS]
    classes = sorted({u.unit_class.value for u in squads if u.unit_class is not None})
    if len(classes) > 1:
        out.append(RuleViolation(rule_size, f"{formation.kind.value} {formation.id} mixes squad types ({', '.join(classes)}); its squads must be of one type"))
    sides = {u.side for u in squads}
    nats = sorted({scenario.sides[s].nationality.value for s in sides if s in scenario.sides})
    if len(nats) > 1:
        out.append(RuleViolation(rule_size, f"{formation.kind.value} {formation.id} mixes nationalities ({', '.join(nats)})"))
    size = squad_equivalents(squads)
    limit = formation_size(formation.kind)
    if size > limit:
        out.append(RuleViolation(rule_size, f"{formation.kind.value} {formation.id} has {_fmt(size)} squads; at most {limit}"))
    if formation.leader is not None and size > organisation().leader_max_squads:
        out.append(
            RuleViolation(
                "ASLGW 1.3",
                f"leader {formation.leader} would control {_fmt(size)} squads; a leader controls at most {organisation().leader_max_squads}",
            )
        )
    return tuple(out)


def _fmt(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):g}"


class PlatoonCountError(GwaslError):
    """A negative number of platoons in an OB (ASLGW 1.1)."""


def half_platoon_conversions_allowed(ob_platoons: int) -> int:
    """How many of the OB's platoons the player may convert into half-platoons
    at set-up: up to 25%, rounded down (ASLGW 1.1).

    >>> [half_platoon_conversions_allowed(n) for n in (1, 3, 4, 7, 8)]
    [0, 0, 1, 1, 2]

    Raises :class:`PlatoonCountError` (a negative number of platoons in an OB (ASLGW 1.1)).
    """
    if ob_platoons < 0:
        raise PlatoonCountError("a negative number of platoons")
    return math.floor(Fraction(ob_platoons * organisation().half_platoon_conversion_percent, 100))


def combat_group_problems(
    scenario: Scenario, formation: Formation, *, ssr_allows: bool
) -> tuple[RuleViolation, ...]:
    """What forbids a combat group (ASLGW 1.2):

    * it exists only by SSR (ASLGW 1.2.11) -- ``ssr_allows`` says whether one does;
    * only Elite troops (Elite or Stosstruppen classes) (ASLGW 1.2.11);
    * not before its nationality's date: 1915 for the Germans (ASLGW 1.2.12),
      September 1917 for the French, December 1917 otherwise (ASLGW 1.2);
    * its two squads stacked together or adjacent (ASLGW 1.2.1) -- broken ones
      excepted, they have left it.
    """
    if formation.kind is not FormationKind.COMBAT_GROUP:
        return ()
    out: list[RuleViolation] = []
    members = [u for u in scenario.members(formation.id) if u.kind in _SQUADS]
    if not ssr_allows:
        out.append(RuleViolation("ASLGW 1.2.11", f"combat group {formation.id}: combat groups exist only by SSR (scenario field ssr.combat_groups)"))
    not_elite = [u.id for u in members if u.unit_class not in ELITE_CLASSES]
    if not_elite:
        out.append(
            RuleViolation(
                "ASLGW 1.2.11",
                f"combat group {formation.id}: only Elite troops form combat groups; {', '.join(not_elite)} {'is' if len(not_elite) == 1 else 'are'} not Elite",
                not_elite[0],
            )
        )
    for side in sorted({u.side for u in members}):
        nat = scenario.sides[side].nationality
        start = combat_groups_from(nat)
        if scenario.date < start:
            rule = "ASLGW 1.2.12" if nationality_traits(nat).early_combat_groups else "ASLGW 1.2"
            out.append(
                RuleViolation(
                    rule,
                    f"combat group {formation.id}: {nat.value} combat groups exist only from {start.isoformat()}, not on {scenario.date.isoformat()}",
                )
            )
    active = [u for u in members if not u.broken]
    for a in active if len(active) > 1 else ():
        if not any(a.hex.distance(b.hex) <= organisation().formation_distance for b in active if b is not a):
            out.append(
                RuleViolation(
                    "ASLGW 1.2.1",
                    f"combat group {formation.id}: {a.id} in {a.hex.label} is neither stacked with nor adjacent to its pair",
                    a.id,
                )
            )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class MfAllowance:
    """A unit's MF for the MPh with what makes it up (each part a :class:`Modifier`)."""

    total: int
    parts: tuple[Modifier, ...]


class NoMfError(GwaslError):
    """MF asked of a support weapon, which has none of its own (ASLGW 1.3)."""


def mf_allowance(
    kind: UnitKind | str,
    *,
    platoon_has_leader: bool,
    in_platoon_formation: bool,
    stacked_with_leader: bool = False,
    trench_armour: bool = False,
) -> MfAllowance:
    """Movement factors of an infantry unit for one MPh.

    * 4 MF for a squad, half-squad or crew, 6 for a leader or hero (A4.1);
    * +2 MF for squads controlled by their platoon's leader and in platoon
      formation, even when not stacked with him (ASLGW 1.3);
    * none of that for a leaderless platoon (ASLGW 1.3.4);
    * a squad stacked with a leader and moving with him gets the +2 anyway
      (A4.12; ASLGW 1.4.14: such a squad is not free);
    * a squad or half-squad in trench armour has 1 MF less (ASLGW 1.8).

    >>> mf_allowance("squad", platoon_has_leader=True, in_platoon_formation=True).total
    6
    >>> mf_allowance("squad", platoon_has_leader=False, in_platoon_formation=True).total
    4

    Raises :class:`NoMfError` (MF asked of a support weapon, which has none of its own (ASLGW 1.3)).
    """
    k = UnitKind(kind)
    inf = infantry_movement()
    if k is UnitKind.SUPPORT_WEAPON:
        raise NoMfError("a support weapon has no MF of its own")
    if k in (UnitKind.LEADER, UnitKind.HERO):
        return MfAllowance(inf.smc_mf, (Modifier("SMC (A4.1)", inf.smc_mf),))
    parts = [Modifier("MMC (A4.1)", inf.mmc_mf)]
    if platoon_has_leader and in_platoon_formation:
        parts.append(Modifier("platoon leader, platoon formation (ASLGW 1.3)", inf.leader_bonus_mf))
    elif stacked_with_leader:
        parts.append(Modifier("moving with a leader (A4.12, ASLGW 1.4.14)", inf.leader_bonus_mf))
    armour = armour_rule()
    if trench_armour and k in armour.kinds:
        parts.append(Modifier(f"trench armour ({armour.rule})", armour.mf_change))
    return MfAllowance(sum(p.value for p in parts), tuple(parts))


def unit_mf_allowance(scenario: Scenario, unit_id: str) -> MfAllowance:
    """:func:`mf_allowance` of a unit of ``scenario`` as it stands (ASLGW 1.3, 1.3.4, 1.4.14, 1.8).

    A squad is in platoon formation when it belongs to an active formation and
    :func:`setup_formation_gaps` does not list it.  Stacked with a leader means
    a Good Order leader of its side in the same hex and position.
    """
    idx = _index(scenario)
    u = idx.units[unit_id]
    stacked = u.kind is not UnitKind.LEADER and (u.side, u.hex, u.position) in idx.leader_locations
    has_leader = in_formation = False
    f = idx.formations.get(u.platoon) if u.platoon is not None else None
    if f is not None and u.kind in _SQUADS and not u.broken:
        has_leader = not is_leaderless(scenario, f)
        in_formation = u.id not in setup_formation_gaps(scenario, f.id)
    return mf_allowance(u.kind, platoon_has_leader=has_leader, in_platoon_formation=in_formation, stacked_with_leader=stacked,
                        trench_armour=u.trench_armour)


@dataclass(frozen=True, slots=True)
class FreeSquadNtc:
    """Whether a free squad must pass a NTC to move in the MPh, with which DRM and why."""

    required: bool
    drm: int
    rule: str
    reason: str


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def free_squad_ntc(*, stacked_with_leader: bool, in_command: bool, entrenched: bool) -> FreeSquadNtc:
    """The NTC a free squad takes to move during a MPh (ASLGW 1.4.13-1.4.15).

    * stacked with a leader: not free, no NTC (ASLGW 1.4.14, first paragraph);
    * in a trench: 1.4.13 does not apply (ASLGW 1.4.15);
    * in the command radius of a friendly leader it has not recombined with:
      NTC without the +1 (ASLGW 1.4.14, second paragraph);
    * otherwise: NTC with +1 DRM, Out of Command and isolated (ASLGW 1.4.13).

    ``in_command`` comes from the command rules (:mod:`gwasl.rules.command`).

    >>> free_squad_ntc(stacked_with_leader=False, in_command=False, entrenched=False).drm
    1
    """
    if stacked_with_leader:
        return FreeSquadNtc(False, 0, "ASLGW 1.4.14", "stacked with a leader: not free, In Command")
    if entrenched:
        return FreeSquadNtc(False, 0, "ASLGW 1.4.15", "in an entrenchment: the free-squad rule does not apply")
    if in_command:
        return FreeSquadNtc(True, 0, "ASLGW 1.4.14", "free but In Command of a friendly leader: NTC without the +1")
    return FreeSquadNtc(True, 1, "ASLGW 1.4.13", "free, Out of Command and isolated from its platoon: NTC +1")


def recombine_problems(
    leader: Unit | None,
    controlled: Sequence[Unit],
    candidates: Sequence[Unit],
    *,
    command_radius: int,
) -> tuple[RuleViolation, ...]:
    """Why ``leader`` may not take ``candidates`` (free squads, remnants of other
    platoons) under his control; empty when he may.

    * a leaderless platoon cannot recombine (ASLGW 1.3.4);
    * at most 6 squads under his control afterwards (ASLGW 1.3.3);
    * each candidate within his ``command_radius`` (ASLGW 1.3.3; the radius is
      the command rules' to give, ASLGW 1.3.1x);
    * as when recombining half-squads (A1.32): Good Order, same side, and the
      same type as the squads he controls (ASLGW 1.1: one type a platoon).

    A free squad joining another platoon is the same test (ASLGW 1.4.13).
    """
    if leader is None or leader.broken:
        return (RuleViolation("ASLGW 1.3.4", "a platoon without a leader cannot recombine with free squads"),)
    out: list[RuleViolation] = []
    limit = organisation().leader_max_squads
    total = squad_equivalents(controlled) + squad_equivalents(candidates)
    if total > limit:
        out.append(RuleViolation("ASLGW 1.3.3", f"leader {leader.id} would control {_fmt(total)} squads; at most {limit}", leader.id))
    types = {u.unit_class for u in controlled if u.kind in _SQUADS}
    for c in candidates:
        if c.kind not in _SQUADS:
            out.append(RuleViolation("ASLGW 1.3.3", f"{c.id} is a {c.kind.value}; only squads and half-squads recombine", c.id))
            continue
        if c.broken:
            out.append(RuleViolation("ASLGW 1.3.3", f"{c.id} is broken; only Good Order squads recombine (A1.32)", c.id))
        if c.side != leader.side:
            out.append(RuleViolation("ASLGW 1.3.3", f"{c.id} is not of leader {leader.id}'s side", c.id))
        d = leader.hex.distance(c.hex)
        if d > command_radius:
            out.append(
                RuleViolation(
                    "ASLGW 1.3.3",
                    f"{c.id} in {c.hex.label} is {d} hexes from leader {leader.id}, beyond his command radius of {command_radius}",
                    c.id,
                )
            )
        if types and c.unit_class not in types:
            have = ", ".join(sorted(t.value for t in types if t is not None))
            out.append(RuleViolation("ASLGW 1.1", f"{c.id} is {c.unit_class.value if c.unit_class else 'of no class'}; the platoon's squads are {have}", c.id))
    return tuple(out)



def ssr_flag(scenario: Scenario, key: str, side: str) -> bool:
    """Whether the scenario's SSR block turns on ``key`` for ``side``:
    ``"ssr": {key: true}`` (every side) or ``{key: ["side id", ...]}``
    (docs/format/rules.md).  Used for ``combat_groups`` (ASLGW 1.2.11) and
    ``half_platoons`` (ASLGW 1.1)."""
    ssr = scenario.extra.get("ssr")
    v = ssr.get(key) if isinstance(ssr, dict) else None
    if v is True:
        return True
    return isinstance(v, list) and side in v


def formation_side(scenario: Scenario, formation: Formation) -> str | None:
    """The side of a formation (one side and nationality a platoon, ASLGW 1.1): its
    members' (or its leader's) side, ``None`` if it has no units."""
    for u in scenario.units:
        if u.platoon == formation.id or u.id == formation.leader:
            return u.side
    return None


def leadership_applies(leader: Unit, unit: Unit) -> bool:
    """Whether ``leader``'s leadership modifier applies to ``unit`` in fire, MC
    or Rally: only to units stacked with him, i.e. in his hex and Location
    (ASLGW 1.3), even though his MF bonus reaches the whole platoon.

    >>> L = Unit("L", "a", UnitKind.LEADER, Hex(2, 2))
    >>> leadership_applies(L, Unit("s", "a", UnitKind.SQUAD, Hex(2, 2))), leadership_applies(L, Unit("t", "a", UnitKind.SQUAD, Hex(2, 3)))
    (True, False)
    """
    return leader.kind is UnitKind.LEADER and not leader.broken and leader.side == unit.side and leader.hex == unit.hex and leader.position is unit.position


def moves_by_impulse(kind: FormationKind | str) -> bool:
    """Platoons and half-platoons move by impulses (ASLGW 1.4.1, 1.1); combat
    groups move like WW2 squads (ASLGW 1.2.1).

    >>> moves_by_impulse("half_platoon"), moves_by_impulse("combat_group")
    (True, False)
    """
    return FormationKind(kind) is not FormationKind.COMBAT_GROUP


def free_squad_move_order(platoon_movement_done: bool) -> RuleViolation | None:
    """A free squad's remaining movement comes only after the movement of the
    platoon it came from is over (ASLGW 1.4.13); ``None`` when it may move now."""
    if platoon_movement_done:
        return None
    return RuleViolation("ASLGW 1.4.13", "a free squad moves only once the movement of the platoon it came from is done")


def leader_control_problems(scenario: Scenario) -> tuple[RuleViolation, ...]:
    """Leaders who lead formations totalling more than 6 squads (ASLGW 1.3: a
    leader controls up to a platoon, the equivalent of 6 squads) -- e.g. two
    full half-platoons are fine, a platoon and a half-platoon are not."""
    led: dict[str, list[Formation]] = {}
    for f in scenario.formations:
        if f.leader is not None:
            led.setdefault(f.leader, []).append(f)
    limit = organisation().leader_max_squads
    out = []
    for leader_id, fs in led.items():
        if len(fs) < 2:
            continue  # one formation: composition_problems already checks it
        total = sum((squad_equivalents(scenario.members(f.id)) for f in fs), Fraction(0))
        if total > limit:
            names = ", ".join(f.id for f in fs)
            out.append(RuleViolation("ASLGW 1.3", f"leader {leader_id} leads {names}: {_fmt(total)} squads; a leader controls at most {limit}", leader_id))
    return tuple(out)


def is_free_squad(scenario: Scenario, unit_id: str, *, stacked_leader_commands: bool) -> bool:
    """Whether a squad or half-squad is free (ASLGW 1.4.13-1.4.15): Good Order,
    not in a combat group, and either in no platoon or out of its platoon's
    formation -- but not when a leader stacked with it has it under his command
    (``stacked_leader_commands``, ASLGW 1.4.14: then it is not free; whether he
    has room for it is the command rules' answer, ASLGW 1.3, 1.3.3, see
    :func:`gwasl.rules.command.command_status`) nor while entrenched (ASLGW
    1.4.15: 1.4.13 does not apply in trenches).  A ``platoon`` naming no
    formation is no platoon to keep formation with (the validator reports the
    reference)."""
    idx = _index(scenario)
    u = idx.units[unit_id]
    if u.kind not in _SQUADS or u.broken or is_entrenched(u) or stacked_leader_commands:
        return False
    f = idx.formations.get(u.platoon) if u.platoon is not None else None
    if f is None:
        return True
    if f.kind is FormationKind.COMBAT_GROUP:
        return False
    return u.id in setup_formation_gaps(scenario, f.id)


def kind_after_losses(kind: FormationKind | str, active_squads: Fraction | int) -> FormationKind:
    """What a formation is after casualties: a platoon left with no more squads
    than a half-platoon has is a half-platoon (ASLGW 1.1: "reduced to a
    half-platoon"); half-platoons and combat groups stay what they are.

    >>> kind_after_losses("platoon", 4).value, kind_after_losses("platoon", 3).value
    ('platoon', 'half_platoon')
    """
    k = FormationKind(kind)
    if k is FormationKind.PLATOON and Fraction(active_squads) <= organisation().half_platoon_squads:
        return FormationKind.HALF_PLATOON
    return k
