"""``gwasl validate`` checks for units, organisation, weapons and the ignored
classic rules (ASLGW 1.1-1.4, 1.6, 1.11, "rules to be ignored").

Each check yields :class:`~gwasl.model.scenario_io.Finding` objects with the
JSON path of the offending field, a plain message and the rule number.  The
scenario fields these checks read beyond the schema core (``ssr``,
``factors``, ``held_by``, ``captured``, ``origin``) are described in
docs/format/rules.md.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FormationKind, HiddenStatus, Position, Scenario, UnitKind
from gwasl.model.scenario_io import Finding as _Finding
from gwasl.rules.garance import garance_concealment_loss, in_open_ground, wears_garance
from gwasl.rules.ignored import ignored_rule, ignored_rule_for_item, rule_label, ssr_allowed
from gwasl.rules.organisation import (
    combat_group_problems,
    composition_problems,
    formation_side,
    half_platoon_conversions_allowed,
    leader_control_problems,
    setup_formation_gaps,
    ssr_flag,
)
from gwasl.rules.units import (
    NoUnitTableError,
    UnitFactors,
    UnitFactorsFormatError,
    UnitNotAvailableError,
    UnknownUnitClassError,
    unit_factors,
)
from gwasl.rules.validate import scenario_check
from gwasl.rules.weapons import availability_problems, find_weapon, may_operate, sw_holder

__all__ = [
    "check_ssr_block",
    "check_unit_factors",
    "check_support_weapons",
    "check_ignored_rules",
    "check_formations",
    "check_garance_concealment",
    "HALF_PLATOON_ORIGINS",
]

# formations[].origin: how a half-platoon came to be (ASLGW 1.1).  Only 'setup'
# (the player's conversion, the default) counts against the 25% allowance.
HALF_PLATOON_ORIGINS = ("setup", "casualties", "ssr")
_SSR_SIDE_FLAGS = ("combat_groups", "half_platoons")


def Finding(path: str, message: str, rule: str | None = None, severity: str = "error") -> _Finding:
    """A finding whose message also carries its rule number: CONTRACTS 4 promises
    only path and message in ``gwasl validate --json``, so the message alone
    must say which rule it enforces."""
    if rule and rule not in message:
        message = f"{message} ({rule})"
    return _Finding(path, message, rule, severity)


def _unit_paths(s: Scenario) -> dict[str, str]:
    return {u.id: f"$.units[{i}]" for i, u in enumerate(s.units)}


@scenario_check
def check_ssr_block(s: Scenario) -> Iterator[_Finding]:
    """The ``ssr`` object is well formed: side flags (``combat_groups``, ASLGW
    1.2.11; ``half_platoons``, ASLGW 1.1) are ``true`` or lists of side ids;
    ``allow`` lists ASLGW-ignored classic rules (docs/format/rules.md)."""
    ssr = s.extra.get("ssr")
    if ssr is None:
        return
    if not isinstance(ssr, dict):
        yield Finding("$.ssr", "must be an object of special scenario rules (docs/format/rules.md)")
        return
    for key in _SSR_SIDE_FLAGS:
        if key not in ssr:
            continue
        v = ssr[key]
        if isinstance(v, bool):
            continue
        if not isinstance(v, list):
            yield Finding(f"$.ssr.{key}", "must be true, false or a list of side ids")
            continue
        for j, side in enumerate(v):
            if side not in s.sides:
                yield Finding(f"$.ssr.{key}[{j}]", f"{side!r} is not a side of this scenario ({', '.join(s.sides)})")
    if "allow" in ssr:
        allow = ssr["allow"]
        groups: list[tuple[str, Any]] = []
        if isinstance(allow, list):
            groups = [("$.ssr.allow", allow)]
        elif isinstance(allow, dict):
            for side, names in allow.items():
                if side not in s.sides:
                    yield Finding(f"$.ssr.allow.{side}", f"{side!r} is not a side of this scenario ({', '.join(s.sides)})")
                groups.append((f"$.ssr.allow.{side}", names))
        else:
            yield Finding("$.ssr.allow", "must be a list of ignored rules to allow, or an object of such lists by side")
        for path, names in groups:
            if not isinstance(names, list):
                yield Finding(path, "must be a list of ignored rules to allow (e.g. 'A23' or 'DC')")
                continue
            for j, name in enumerate(names):
                if not isinstance(name, str) or ignored_rule(name) is None:
                    yield Finding(
                        f"{path}[{j}]",
                        f"{name!r} is not on ASLGW's list of classic rules to ignore, so there is nothing to allow",
                        "ASLGW ignored rules",
                        "warning",
                    )


@scenario_check
def check_unit_factors(s: Scenario) -> Iterator[_Finding]:
    """Every squad and half-squad has factors at the scenario date (ASLGW 1.11):
    its class exists in its nationality's table and at that date (Stosstruppen
    from July 1915, ASLGW 1.11.1); nationalities without a table need a
    ``factors`` field (warning otherwise)."""
    for i, u in enumerate(s.units):
        if u.kind not in (UnitKind.SQUAD, UnitKind.HALF_SQUAD):
            continue
        p = f"$.units[{i}]"
        nat = s.sides[u.side].nationality
        given = u.extra.get("factors")
        if given is not None:
            try:
                UnitFactors.parse(given)
            except UnitFactorsFormatError as e:
                yield Finding(f"{p}.factors", f"{u.kind.value} {u.id}: {e}", "ASLGW 1.11")
            continue
        if u.unit_class is None:
            continue  # reported by the reference checks
        try:
            unit_factors(s.date, nat, u.unit_class, u.kind)
        except NoUnitTableError:
            yield Finding(
                f"{p}.factors",
                f"{u.kind.value} {u.id}: ASLGW 1.11 gives no factors for {nat.value} units; give them in a 'factors' field (e.g. '4-4-7/7')",
                "ASLGW 1.11",
                "warning",
            )
        except UnitNotAvailableError as e:
            yield Finding(f"{p}.class", f"{u.kind.value} {u.id}: {e}", "ASLGW 1.11.1")
        except UnknownUnitClassError as e:
            yield Finding(f"{p}.class", f"{u.kind.value} {u.id}: {e}", _nation_rule(nat.value))


def _nation_rule(nat: str) -> str:
    return {"german": "ASLGW 1.11.1", "french": "ASLGW 1.11.2", "british": "ASLGW 1.11.3", "us": "ASLGW 1.11.4"}.get(nat, "ASLGW 1.11")


@scenario_check
def check_support_weapons(s: Scenario) -> Iterator[_Finding]:
    """Support weapons (ASLGW 1.6): known, available at the date for the side's
    nationality (1.6.1 notes, 1.6.3, 1.6.4, 1.6.5, 1.6.63), an MMG/HMG held by a
    crew and never by a squad (1.6.2), an MP18 never captured (1.6.32), and
    ``held_by`` naming a unit of the same side in the same hex."""
    paths = _unit_paths(s)
    for i, u in enumerate(s.units):
        if u.kind is not UnitKind.SUPPORT_WEAPON or not u.weapon:
            continue
        p = f"$.units[{i}]"
        w = find_weapon(u.weapon)
        if w is None:
            if ignored_rule_for_item(u.weapon) is None:  # ignored items are reported by check_ignored_rules
                yield Finding(f"{p}.weapon", f"support weapon {u.id}: {u.weapon!r} is not a weapon of the ASLGW 1.6 tables", "ASLGW 1.6", "warning")
            continue
        captured = u.extra.get("captured") is True
        if "captured" in u.extra and not isinstance(u.extra["captured"], bool):
            yield Finding(f"{p}.captured", f"support weapon {u.id}: 'captured' must be true or false", "ASLGW 1.6")
        if captured and not w.can_be_lost:
            yield Finding(f"{p}.captured", f"support weapon {u.id}: the {w.name} cannot be captured", "ASLGW 1.6.32")
        for issue in availability_problems(w, s.date, s.sides[u.side].nationality, captured=captured):
            yield Finding(f"{p}.weapon", f"support weapon {u.id}: {issue.message}", issue.rule)
        named = u.extra.get("held_by")
        if named is not None:
            target = next((x for x in s.units if x.id == named), None)
            if not isinstance(named, str) or target is None:
                yield Finding(f"{p}.held_by", f"support weapon {u.id}: held_by {named!r} is not a unit of this scenario", "ASLGW 1.6")
                continue
            if target.kind is UnitKind.SUPPORT_WEAPON:
                yield Finding(f"{p}.held_by", f"support weapon {u.id}: {target.id} is a support weapon, not a unit that can hold one", "ASLGW 1.6")
                continue
            if target.side != u.side or target.hex != u.hex:
                yield Finding(f"{p}.held_by", f"support weapon {u.id}: {target.id} is not a unit of side {u.side!r} in {u.hex.label}", "ASLGW 1.6")
                continue
        holder = sw_holder(s, u)
        # 1.6.2 restricts who operates an MMG/HMG; an SMC may still carry one, so
        # only a squad or half-squad holding it is an error.
        if holder is not None and holder.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD) and not may_operate(w, holder.kind):
            how = "is held by" if named is not None else "has no crew in its location; it would be held by"
            yield Finding(
                f"{p}.held_by" if named is not None else p,
                f"{w.mg_class.value if w.mg_class else w.kind.value} {u.id} ({w.name}) {how} {holder.kind.value} {holder.id} "
                f"({paths[holder.id]}); a MMG/HMG is operated only by a crew",
                "ASLGW 1.6.2",
            )


@scenario_check
def check_ignored_rules(s: Scenario) -> Iterator[_Finding]:
    """No support weapon of a classic rule ASLGW ignores (DC, Molotov Cocktails,
    WP, recoilless rifles...) unless an SSR allows it (``ssr.allow``)."""
    for i, u in enumerate(s.units):
        if u.kind is not UnitKind.SUPPORT_WEAPON or not u.weapon:
            continue
        rule = ignored_rule_for_item(u.weapon)
        if rule is not None and not ssr_allowed(s, u.side, rule):
            yield Finding(
                f"$.units[{i}].weapon",
                f"support weapon {u.id}: {rule.title} ({', '.join(rule.asl_rules)}) are not used in ASLGW unless an SSR allows them (ssr.allow)",
                rule_label(rule),
            )


@scenario_check
def check_formations(s: Scenario) -> Iterator[_Finding]:
    """Platoons, half-platoons and combat groups (ASLGW 1.1, 1.2, 1.3, 1.4.11):
    make-up, combat group conditions, set-up formation, and at most 25% of a
    side's platoons converted to half-platoons at set-up."""
    paths = _unit_paths(s)
    setup_halves: dict[str, list[int]] = defaultdict(list)
    platoons: dict[str, int] = defaultdict(int)
    reduced: dict[str, int] = defaultdict(int)
    for j, f in enumerate(s.formations):
        p = f"$.formations[{j}]"
        side = formation_side(s, f)
        for v in composition_problems(s, f):
            yield Finding(paths[v.unit_id] if v.unit_id else p, v.message, v.rule)
        if f.kind is FormationKind.COMBAT_GROUP:
            allowed = side is not None and ssr_flag(s, "combat_groups", side)
            for v in combat_group_problems(s, f, ssr_allows=allowed):
                yield Finding(f"{paths[v.unit_id]}.hex" if v.rule == "ASLGW 1.2.1" and v.unit_id else p, v.message, v.rule)
        elif any(u.platoon == f.id for u in s.units):
            for uid in setup_formation_gaps(s, f.id):
                u = s.unit(uid)
                yield Finding(
                    f"{paths[uid]}.hex",
                    f"{u.kind.value} {uid} of {f.kind.value} {f.id} sets up in {u.hex.label}, neither with nor adjacent to another squad of it or its leader",
                    "ASLGW 1.4.11",
                )
        origin = f.extra.get("origin", "setup")
        if origin not in HALF_PLATOON_ORIGINS:
            yield Finding(f"{p}.origin", f"must be one of {', '.join(repr(o) for o in HALF_PLATOON_ORIGINS)}, not {origin!r}", "ASLGW 1.1")
            continue
        if f.kind is not FormationKind.HALF_PLATOON and "origin" in f.extra:
            yield Finding(f"{p}.origin", f"only a half-platoon has an origin, not a {f.kind.value}", "ASLGW 1.1", "warning")
        if side is None:
            continue
        if f.kind is FormationKind.PLATOON:
            platoons[side] += 1
        elif f.kind is FormationKind.HALF_PLATOON:
            if origin == "setup" and not ssr_flag(s, "half_platoons", side):
                setup_halves[side].append(j)
            elif origin == "casualties":
                reduced[side] += 1
    for v in leader_control_problems(s):
        yield Finding(f"{paths[v.unit_id]}" if v.unit_id in paths else "$.formations", v.message, v.rule)
    for side, idx in setup_halves.items():
        # Converting one platoon makes two half-platoons; a half-platoon without
        # its pair is a platoon reduced by casualties (ASLGW 1.1), not a conversion.
        converted = len(idx) // 2
        ob_platoons = platoons[side] + math.ceil(len(idx) / 2) + reduced[side]
        allowed = half_platoon_conversions_allowed(ob_platoons)
        if converted > allowed:
            yield Finding(
                f"$.formations[{idx[-1]}]",
                f"side {side!r} converts {converted} of its {ob_platoons} platoons into half-platoons at set-up "
                f"({len(idx)} half-platoons); at most 25%, i.e. {allowed}. Half-platoons from casualties take "
                f"\"origin\": \"casualties\"; SSR-created ones \"origin\": \"ssr\" or ssr.half_platoons",
                "ASLGW 1.1",
            )


@scenario_check
def check_garance_concealment(s: Scenario) -> Iterator[_Finding]:
    """ASLGW 1.7.2: a unit in garance trousers cannot remain concealed in an enemy
    LOS in Open Ground, at any range, so it cannot set up concealed (or HIP, or as
    a potential dummy) there.  Who wears garance and 1.7.3's exceptions:
    :func:`gwasl.rules.garance.wears_garance`; the decision:
    :func:`gwasl.rules.garance.garance_concealment_loss`; the LOS: the rules' own
    (:class:`gwasl.rules.los.LosIndex`), from every enemy unit's hex and position."""
    suspects = [
        (i, u) for i, u in enumerate(s.units)
        if u.hidden is not HiddenStatus.NONE and s.map.contains(u.hex) and in_open_ground(s, u.hex, u.position) and wears_garance(s, u)
    ]
    if not suspects:
        return
    # numpy: loaded only when a scenario has a unit to check (issue 23 item 8: opening a game validates its scenario)
    from gwasl.rules.los import LosError, LosIndex, OutlineError

    try:
        index = LosIndex(s)
    except (LosError, OutlineError):  # a malformed outline: check_outlines reports it
        return
    # One observer per side, hex and position (the first unit there names it).
    observers: dict[tuple[str, Hex, Position], str] = {}
    for e in s.units:
        if e.side in s.sides and e.is_infantry and s.map.contains(e.hex):
            observers.setdefault((e.side, e.hex, e.position), e.id)
    seen: dict[tuple[str, Hex, Position], frozenset[Hex]] = {}

    def enemy_sees(side: str, h: Hex) -> str | None:
        for key, eid in observers.items():
            if key[0] == side:
                continue
            if key not in seen:
                try:
                    seen[key] = index.visible_from(key[1], key[2])
                except LosError:  # a position its hex does not offer: check_positions reports it
                    seen[key] = index.visible_from(key[1])
            if h in seen[key]:
                return eid
        return None

    for i, u in suspects:
        enemy = enemy_sees(u.side, u.hex)
        verdict = garance_concealment_loss(s, u, in_enemy_los=enemy is not None, in_open_ground=True)
        if verdict.loses_concealment:
            yield Finding(
                f"$.units[{i}].hidden",
                f"{u.kind.value} {u.id} sets up {u.hidden.value.replace('_', ' ')} in Open Ground at {u.hex.label} in the LOS of "
                f"enemy {enemy}: {verdict.reason}, so it cannot start hidden there",
                verdict.rule,
            )
