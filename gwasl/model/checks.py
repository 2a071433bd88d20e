"""Semantic checks of a scenario that need no game rule: references and bounds.

A file can be valid JSON of the right shape and still be nonsense: a unit
off the map, two units with one id, a platoon nobody defined.  These checks
find such things and name the JSON path, as CONTRACTS 2 asks.  Rule checks
(anachronistic weapons, formation sizes...) live in :mod:`gwasl.rules`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Scenario, Unit, UnitKind
from gwasl.model.scenario_io import Finding, quote, quote_list, shorten

__all__ = ["check_references"]


def check_references(s: Scenario) -> Iterator[Finding]:
    """Every reference-and-bounds problem of ``s``, each with its JSON path."""
    m = s.map
    where = f"a {m.columns} x {m.rows} map"

    def off_map(h: Hex) -> bool:
        return not m.contains(h)

    for h in m.hexes:
        if off_map(h):
            yield Finding(f"$.map.hexes.{h.label}", f"hex {h.label} is outside {where}")
    for i, f in enumerate(m.fortifications):
        for j, h in enumerate(f.hexes):
            if off_map(h):
                yield Finding(f"$.map.fortifications[{i}].hexes[{j}]", f"{f.kind.value} hex {h.label} is outside {where}")
        for j, h in enumerate(f.ladders):
            if f.kind.value != "deep_trench":
                yield Finding(f"$.map.fortifications[{i}].ladders", f"only a deep_trench has ladders, not a {f.kind.value}", "ASLGW 2.1.3")
                break
            if h not in f.hexes:
                yield Finding(f"$.map.fortifications[{i}].ladders[{j}]", f"ladder hex {h.label} is not one of this deep trench's hexes", "ASLGW 2.1.3")
        if f.owner is not None and f.owner not in s.sides:
            yield Finding(f"$.map.fortifications[{i}].owner", f"owner {quote(f.owner)} is not a side of this scenario ({quote_list(s.sides)})")

    counts = Counter(u.id for u in s.units)
    seen_dup: set[str] = set()
    formation_ids = Counter(f.id for f in s.formations)
    for i, u in enumerate(s.units):
        p = f"$.units[{i}]"
        uid = shorten(u.id)
        if counts[u.id] > 1 and u.id not in seen_dup:
            seen_dup.add(u.id)
            yield Finding(f"{p}.id", f"unit id {quote(u.id)} is used by {counts[u.id]} units; ids must be unique")
        if u.side not in s.sides:
            yield Finding(f"{p}.side", f"unit {uid}: side {quote(u.side)} is not a side of this scenario ({quote_list(s.sides)})")
        if off_map(u.hex):
            yield Finding(f"{p}.hex", f"unit {uid}: hex {u.hex.label} is outside {where}")
        if u.platoon is not None and u.platoon not in formation_ids:
            yield Finding(f"{p}.platoon", f"unit {uid}: platoon {quote(u.platoon)} is not defined under 'formations'")
        if u.kind is UnitKind.LEADER and u.rating is None:
            yield Finding(f"{p}.rating", f"leader {uid} has no rating such as '8-1'")
        if u.kind is not UnitKind.LEADER and u.rating is not None:
            yield Finding(f"{p}.rating", f"unit {uid} is a {u.kind.value}; only leaders have a rating")
        if u.kind is UnitKind.SUPPORT_WEAPON and not u.weapon:
            yield Finding(f"{p}.weapon", f"support weapon {uid} does not name its weapon")
        if u.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD) and u.unit_class is None:
            yield Finding(f"{p}.class", f"{u.kind.value} {uid} has no class (e.g. 'first_line')")

    units_by_id = {u.id: u for u in s.units}
    members: dict[str, list[Unit]] = {}  # one pass, not Scenario.members per formation (issue 17: linear in units)
    for u in s.units:
        if u.platoon is not None:
            members.setdefault(u.platoon, []).append(u)
    for i, fm in enumerate(s.formations):
        p = f"$.formations[{i}]"
        fid = shorten(fm.id)
        if formation_ids[fm.id] > 1:
            yield Finding(f"{p}.id", f"formation id {quote(fm.id)} is defined {formation_ids[fm.id]} times")
        if fm.leader is not None:
            leader = units_by_id.get(fm.leader)
            if leader is None:
                yield Finding(f"{p}.leader", f"formation {fid}: leader {quote(fm.leader)} is not a unit of this scenario")
            elif leader.kind is not UnitKind.LEADER:
                yield Finding(f"{p}.leader", f"formation {fid}: {shorten(fm.leader)} is a {leader.kind.value}, not a leader", "ASLGW 1.3")
            else:
                sides = {u.side for u in members.get(fm.id, ()) if u.id != leader.id}
                if sides and leader.side not in sides:
                    yield Finding(
                        f"{p}.leader",
                        f"formation {fid}: leader {shorten(leader.id)} is of side {quote(leader.side)} but the platoon is {quote_list(sorted(sides))}",
                        "ASLGW 1.3",
                    )
        sides = {u.side for u in members.get(fm.id, ())}
        if len(sides) > 1:
            yield Finding(p, f"formation {fid} mixes units of sides {quote_list(sorted(sides))}", "ASLGW 1.1")

    for i, d in enumerate(s.dummies):
        p = f"$.dummies[{i}]"
        if d.side not in s.sides:
            yield Finding(f"{p}.side", f"dummy: side {quote(d.side)} is not a side of this scenario ({quote_list(s.sides)})")
        if off_map(d.hex):
            yield Finding(f"{p}.hex", f"dummy hex {d.hex.label} is outside {where}")
        if d.kind.value == "dummy_stack" and d.counters is None:
            yield Finding(f"{p}.counters", "a dummy stack must say how many concealment counters it has", "O'Leary 2.3.2")
        if d.kind.value != "dummy_stack" and d.counters is not None and d.counters != 1:
            yield Finding(f"{p}.counters", f"a {d.kind.value} is a single counter, not {d.counters}", "O'Leary 3.1", "warning")
