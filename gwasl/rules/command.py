"""Command (ASLGW 1.3, 1.4.13-1.4.15): command radius, In Command status, the
No Leader Penalty and the free squads' NTC DRM.

Radius is counted in hexes (range as CONTRACTS 1 measures it), with no LOS
needed: ASLGW 1.3.1 speaks only of a radius, as classic ASL's leadership
ranges do (docs/rules-notes.md, "Command radius is counted in hexes").

>>> from gwasl.model.scenario_io import scenario_from_text
>>> s = scenario_from_text('''{"format": "gwasl-scenario/1", "title": "t", "date": "1917-04-09",
...   "map": {"columns": 10, "rows": 10}, "sides": {"b": {"nationality": "british"}, "g": {"nationality": "german"}},
...   "formations": [{"id": "P1", "kind": "platoon", "leader": "L"}],
...   "units": [{"id": "L", "side": "b", "kind": "leader", "rating": "8-0", "hex": "E5", "platoon": "P1"},
...             {"id": "S1", "side": "b", "kind": "squad", "class": "first_line", "hex": "E8", "platoon": "P1"},
...             {"id": "S2", "side": "b", "kind": "squad", "class": "first_line", "hex": "E9", "platoon": "P1"}]}''')
>>> command_radius(s, s.unit("L"))
3
>>> r = command_status(s, "b")
>>> r.units["S1"].in_command, r.units["S2"].in_command, r.units["S2"].no_leader_penalty
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from gwasl.model.phases import Phase
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit, UnitClass, UnitKind
from gwasl.rules.organisation import free_squad_ntc, is_entrenched, is_free_squad, organisation, squad_equivalents
from gwasl.rules.units import base_command_radius, hero_command_radius, nationality_traits

__all__ = [
    "CommandError",
    "CommandReport",
    "UnitCommand",
    "command_radius",
    "command_status",
    "is_elite_leader",
    "no_leader_ntc",
]

# ASLGW 1.3: a leader controls up to "the equivalent of 6 squads"; a half-squad
# is half a squad and a crew none (organisation data, gwasl.rules.organisation).
_MMC = (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW)

_ELITE = (UnitClass.ELITE, UnitClass.STOSSTRUPPEN)
_TRENCH_POSITIONS = (Position.TRENCH, Position.DEEP_TRENCH, Position.DEEP_TRENCH_CREST)


class CommandError(ValueError):
    """A command question about something that is not a leader or not in the scenario."""


def is_elite_leader(scenario: Scenario, leader: Unit) -> bool:
    """A leader of elite troops (for ASLGW 1.3.12-1.3.13's elite Germans).

    Leaders carry no class; a leader is elite when ``"elite": true`` is set
    on it, or when every squad and half-squad of its platoon is elite or
    stosstruppen (docs/rules-notes.md, "Elite leaders").
    """
    flag = leader.extra.get("elite") if leader.extra else None
    if isinstance(flag, bool):
        return flag
    if leader.platoon is None:
        return False
    mmc = [u for u in scenario.members(leader.platoon) if u.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD)]
    return bool(mmc) and all(u.unit_class in _ELITE for u in mmc)


def command_radius(scenario: Scenario, leader_unit: Unit | str) -> int:
    """Command radius in hexes of a leader or hero (ASLGW 1.3.11-1.3.13, 1.3.21).

    1914 to December 1915: 1 hex (1.3.11); 1916: 2 hexes (1.3.12); January
    1917 onwards: 3 hexes (1.3.13).  Elite Germans reach 2 hexes in January
    1915 and 3 hexes in January 1916.  A hero's radius is always 1 (1.3.21).

    >>> from gwasl.model.scenario import Unit, UnitKind
    >>> from gwasl.model.hexgrid import Hex
    """
    u = scenario.unit(leader_unit) if isinstance(leader_unit, str) else leader_unit
    if u.kind is UnitKind.HERO:
        return hero_command_radius()
    if u.kind is not UnitKind.LEADER:
        raise CommandError(f"unit {u.id} is a {u.kind.value}, not a leader or hero: it has no command radius (ASLGW 1.3.1)")
    radius = base_command_radius(scenario.date).radius
    side = scenario.sides.get(u.side)
    if side is not None and is_elite_leader(scenario, u):
        # Elite German leaders use the wider deployments a year early (1.3.12-1.3.13).
        early = nationality_traits(side.nationality).command_radius_override(UnitClass.ELITE, scenario.date)
        if early is not None:
            radius = max(radius, early)
    return radius


@dataclass(frozen=True, slots=True)
class UnitCommand:
    """Command status of one squad, half-squad or crew.

    ``in_command``: inside the radius of a friendly leader or hero who has
    room for it (ASLGW 1.3.1, 1.3); ``commanded_by``: that leader's id.
    ``no_leader_penalty``: ASLGW 1.3.2 applies (Out of Command, no hero
    with it (1.3.21), not in its own trenches (1.3.22)).  ``free``: a free
    squad or half-squad (1.4.13-1.4.15, decided by
    :func:`gwasl.rules.organisation.is_free_squad`).  ``ntc_drm``: the +1 a
    free squad adds to its NTC to move (1.4.13), 0 when it is In Command
    (1.4.14).  ``reason`` explains it in one line.
    """

    unit_id: str
    in_command: bool
    commanded_by: str | None
    no_leader_penalty: bool
    free: bool
    ntc_drm: int
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {
            "in_command": self.in_command,
            "commanded_by": self.commanded_by,
            "no_leader_penalty": self.no_leader_penalty,
            "free": self.free,
            "ntc_drm": self.ntc_drm,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class CommandReport:
    """ASLGW 1.3 command status of a side (or of every side)."""

    radius: Mapping[str, int]
    units: Mapping[str, UnitCommand]

    def as_json(self) -> dict[str, Any]:
        """The CONTRACTS 4 ``gwasl command`` object (with a few extra fields per unit)."""
        return {"radius": dict(self.radius), "units": {k: v.as_json() for k, v in self.units.items()}}


def _own_trench(scenario: Scenario, u: Unit) -> bool:
    """ASLGW 1.3.22: the unit is in a trench its own side dug (the fortification's ``owner``)."""
    if u.position not in _TRENCH_POSITIONS:
        return False
    kinds = (FortificationKind.TRENCH, FortificationKind.DEEP_TRENCH)
    return any(f.kind in kinds and u.hex in f.hexes and f.owner == u.side for f in scenario.map.fortifications)


def command_status(scenario: Scenario, side: str | None = None) -> CommandReport:
    """Command status of every squad, half-squad and crew of ``side`` (all sides if None).

    ASLGW 1.3, 1.3.1: a unit is In Command inside a friendly leader's (or
    hero's, 1.3.21) command radius.  A leader controls the equivalent of 6
    squads (1.3); units are assigned to leaders in this order: members of
    the leader's own platoon, then units stacked with him, then any other in
    his radius, nearer units first (docs/rules-notes.md, "Who commands whom").
    Broken leaders and heroes command no one.
    """
    if side is not None and side not in scenario.sides:
        raise CommandError(f"side {side!r} is not a side of this scenario ({', '.join(scenario.sides)})")
    sides = [side] if side is not None else list(scenario.sides)
    radius: dict[str, int] = {}
    units: dict[str, UnitCommand] = {}
    for sd in sides:
        own = [u for u in scenario.units if u.side == sd]
        leaders = [u for u in own if u.kind in (UnitKind.LEADER, UnitKind.HERO)]
        for ld in leaders:
            radius[ld.id] = command_radius(scenario, ld)
        active = [ld for ld in leaders if not ld.broken]
        platoon_leaders: dict[str, set[str]] = {}
        for f in scenario.formations:
            if f.leader:
                platoon_leaders.setdefault(f.id, set()).add(f.leader)
        for ld in leaders:
            if ld.kind is UnitKind.LEADER and ld.platoon:
                platoon_leaders.setdefault(ld.platoon, set()).add(ld.id)
        mmc = [u for u in own if u.kind in _MMC]
        # Candidate (priority, distance, leader, unit) pairs, then greedy assignment.
        cands = []
        for u in mmc:
            for ld in active:
                dist = ld.hex.distance(u.hex)
                if dist > radius[ld.id]:
                    continue
                mine = u.platoon is not None and ld.id in platoon_leaders.get(u.platoon, ())
                prio = 0 if mine else (1 if dist == 0 else 2)
                cands.append((prio, dist, ld.id, u.id))
        cands.sort()
        capacity = Fraction(organisation().leader_max_squads)
        room = {ld.id: capacity for ld in active}
        by_id = {u.id: u for u in mmc}
        chief: dict[str, str] = {}
        for _prio, _dist, lid, uid in cands:
            size = squad_equivalents([by_id[uid]])
            if uid in chief or room[lid] < size:
                continue
            chief[uid] = lid
            room[lid] -= size
        for u in mmc:
            lid = chief.get(u.id)
            in_cmd = lid is not None
            hero_with = any(ld.kind is UnitKind.HERO and ld.hex == u.hex and not ld.broken for ld in leaders)
            leader_with = any(ld.kind is UnitKind.LEADER and ld.hex == u.hex and not ld.broken for ld in leaders)
            trench = _own_trench(scenario, u)
            penalty = not in_cmd and not hero_with and not trench
            free = is_free_squad(scenario, u.id)  # ASLGW 1.4.13-1.4.15, gwasl.rules.organisation
            ntc = free_squad_ntc(stacked_with_leader=leader_with, in_command=in_cmd, entrenched=is_entrenched(u))
            drm = ntc.drm if free else 0
            parts = []
            if lid is not None:  # in_cmd
                parts.append(f"In Command: within {radius[lid]} hex(es) of {lid} (ASLGW 1.3.1)")
            else:
                parts.append("Out of Command: no leader within radius with room for it (ASLGW 1.3.1, 1.3.2)")
            if not in_cmd and hero_with:
                parts.append("no No Leader Penalty: a hero is with it (ASLGW 1.3.21)")
            if not in_cmd and trench:
                parts.append("no No Leader Penalty: in its own trenches (ASLGW 1.3.22)")
            if free:
                parts.append(f"free squad: {ntc.reason} ({ntc.rule})")
            elif u.kind is not UnitKind.CREW and is_entrenched(u) and not u.broken:
                parts.append("entrenched: the free-squad rule does not apply (ASLGW 1.4.15)")
            units[u.id] = UnitCommand(u.id, in_cmd, lid, penalty, free, drm, "; ".join(parts))
    return CommandReport(MappingProxyType(radius), MappingProxyType(units))


def no_leader_ntc(status: UnitCommand, action: str, phase: Phase, enemy_adjacent: bool = False) -> bool:
    """Must this unit pass a NTC first (ASLGW 1.3.2 No Leader Penalty)?

    ``action`` is ``"move"`` or ``"fire"``.  Moving: in any movement phase
    other than the Rout Phase (MPh, APh).  Firing: in the Prep Fire Phase or
    as Defensive First Fire (during the enemy's MPh), except when an enemy
    unit is adjacent or in the same hex.  Free squads also test to move in
    the MPh (1.4.13), with :attr:`UnitCommand.ntc_drm`.
    """
    if action == "move":
        if status.free and phase is Phase.MPh:
            return True
        return status.no_leader_penalty and phase in (Phase.MPh, Phase.APh)
    if action == "fire":
        return status.no_leader_penalty and phase in (Phase.PFPh, Phase.MPh) and not enemy_adjacent
    raise CommandError(f"action must be 'move' or 'fire', not {action!r}")
