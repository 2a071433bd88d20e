"""Scenario checks of the fog-of-war extension fields (docs/format/fog.md) and
O'Leary's allotments: dummy HIP counters (3.1.1, 4.1) and dummy minefields
(4.6.1).  Registered with :func:`gwasl.rules.validate.scenario_check`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import DummyKind, FortificationKind, HiddenStatus, Scenario
from gwasl.model.scenario_io import Finding
from gwasl.rules.fog.fields import fog_field_findings, is_hex_label, is_number, is_whole
from gwasl.rules.fog.state import fog_extension
from gwasl.rules.fog.table import FogTable, fog_table
from gwasl.rules.morale import stacking_equivalents
from gwasl.rules.validate import scenario_check

__all__ = ["DummyAllotment", "check_fog", "dummy_allotment", "dummy_hip_allotment", "dummy_minefield_allotment",
           "hip_squad_capacity", "hip_without_dummies"]


def hip_squad_capacity(s: Scenario, side: str, table: FogTable | None = None) -> int:
    """O'Leary 3.1.1: the HIP squad capacity of ``side``: the ``hip_squad_capacity``
    of its fog extension, else the squad-equivalents of its HIP units rounded up
    (a crew or half-squad counts one half)."""
    t = table or fog_table()
    declared = fog_extension(s.sides[side].extra).get("hip_squad_capacity")
    if is_number(declared):
        return math.ceil(declared)
    return _hip_used(s, side, t)


def _hip_used(s: Scenario, side: str, t: FogTable) -> int:
    # Squad-equivalents as for stacking (A5.1): squad 1, half-squad and crew 1/2.
    total = stacking_equivalents(u for u in s.units if u.side == side and u.hidden is HiddenStatus.HIP)
    return math.ceil(total - 1e-9)


def _has_hip(s: Scenario, side: str) -> bool:
    return any(u.side == side and u.hidden is HiddenStatus.HIP for u in s.units)


def _fortification_dummy_hip(s: Scenario, side: str, per_fortification: int) -> int:
    """O'Leary 4.1: dummy HIP for the side's hidden fortifications (one per counter: each hex of
    a hidden fortification is one counter, docs/format/fog.md).

    A fortification "that does not contain HIP units or dummy HIP counters at start" earns one.
    The dummy HIP it earns does not count against it (issue 10): a location holding hidden
    fortification counters and no HIP unit earns one per counter as long as it holds no more
    dummy HIP than counters (those are their own); more dummy HIP there means some came from
    the 3.1.1 allotment, and then none of its counters earns one (docs/rules-notes.md).
    """
    counters: dict[Hex, int] = {}
    for f in s.map.fortifications:
        if f.owner == side and f.kind is not FortificationKind.MINEFIELD and f.extra.get("hidden") is True:
            for h in f.hexes:
                counters[h] = counters.get(h, 0) + 1
    hip_units = {u.hex for u in s.units if u.side == side and u.hidden is HiddenStatus.HIP}
    n = 0
    for h, k in counters.items():
        dummies = sum(1 for d in s.dummies if d.side == side and d.kind is DummyKind.DUMMY_HIP and d.hex == h)
        if h not in hip_units and dummies <= k:
            n += per_fortification * k
    return n


def dummy_hip_allotment(s: Scenario, side: str, table: FogTable | None = None) -> int:
    """Dummy HIP counters ``side`` may set up: the one count the editor, the validator and
    the command line use.

    O'Leary 3.1.1: one more than its HIP squad capacity (five squads -> six;
    a lone HIP gun -> two).  4.1: one per hidden fortification that holds no
    HIP unit or other dummy HIP counter at start, and one per three panji hexsides.

    >>> import datetime
    >>> from gwasl.model.scenario import MapData, Side, Nationality, Unit, UnitKind
    >>> five = tuple(Unit(f"s{i}", "fr", UnitKind.SQUAD, Hex(1, 1), hidden=HiddenStatus.HIP) for i in range(5))
    >>> s = Scenario("t", datetime.date(1916, 1, 1), MapData(5, 5), {"fr": Side("fr", Nationality.FRENCH)}, five)
    >>> dummy_hip_allotment(s, "fr")   # O'Leary 3.1.1's example: five HIP squads, six dummies
    6
    """
    t = table or fog_table()
    a = t.allotment
    cap = hip_squad_capacity(s, side, t)
    n = cap * a["dummy_hip_per_hip_squad_capacity"] + a["dummy_hip_extra"] if (cap or _has_hip(s, side)) else 0
    n += _fortification_dummy_hip(s, side, a["dummy_hip_per_hidden_fortification"])
    panji = fog_extension(s.sides[side].extra).get("panji_hexsides", 0)
    if is_whole(panji) and panji > 0:
        n += panji // a["panji_hexsides_per_dummy_hip"]
    return n


@dataclass(frozen=True, slots=True)
class DummyAllotment:
    """One side's O'Leary allotments beside what its set-up uses (the editor's dummy palette
    shows it; the validator reports the overruns)."""

    side: str
    hip_squad_capacity: int
    dummy_hip_allowed: int
    dummy_hip_placed: int
    dummy_stacks: int
    concealment_counters: int
    dummy_minefields_allowed: int
    dummy_minefields: int

    @property
    def dummy_hip_over(self) -> bool:
        return self.dummy_hip_placed > self.dummy_hip_allowed

    @property
    def dummy_minefields_over(self) -> bool:
        return self.dummy_minefields > self.dummy_minefields_allowed


def dummy_allotment(s: Scenario, side: str, table: FogTable | None = None) -> DummyAllotment:
    """O'Leary 3.1.1, 4.1, 4.6.1: ``side``'s dummy allotments (:func:`dummy_hip_allotment`,
    :func:`dummy_minefield_allotment`) and the dummies its set-up places."""
    t = table or fog_table()
    ds = [d for d in s.dummies if d.side == side]
    return DummyAllotment(
        side,
        hip_squad_capacity(s, side, t),
        dummy_hip_allotment(s, side, t),
        sum(1 for d in ds if d.kind is DummyKind.DUMMY_HIP),
        sum(1 for d in ds if d.kind is DummyKind.DUMMY_STACK),
        sum(d.counters or 0 for d in ds if d.kind is DummyKind.DUMMY_STACK),
        dummy_minefield_allotment(s, side, t),
        sum(1 for d in ds if d.kind is DummyKind.DUMMY_MINEFIELD),
    )


def _hidden_mine_factors(s: Scenario, side: str) -> tuple[int, int]:
    allot = fog_extension(s.sides[side].extra).get("hidden_minefield")
    if isinstance(allot, Mapping):
        ap, at = allot.get("ap", 0), allot.get("at", 0)
        return (ap if is_whole(ap) else 0), (at if is_whole(at) else 0)
    ap = at = 0
    for f in s.map.fortifications:
        if f.kind is FortificationKind.MINEFIELD and f.owner == side and f.extra.get("hidden") is True:
            x, y = f.extra.get("ap", 0), f.extra.get("at", 0)
            ap += (x if is_whole(x) else 0) * len(f.hexes)
            at += (y if is_whole(y) else 0) * len(f.hexes)
    return ap, at


def dummy_minefield_allotment(s: Scenario, side: str, table: FogTable | None = None) -> int:
    """O'Leary 4.6.1: one dummy minefield per 3 AP factors and per AT factor of hidden mines.

    The side's ``hidden_minefield`` allotment when given, else the factors of
    its hidden minefields as set up."""
    t = table or fog_table()
    ap, at = _hidden_mine_factors(s, side)
    per_ap: int = t.allotment["ap_factors_per_dummy_minefield"]
    per_at: int = t.allotment["at_factors_per_dummy_minefield"]
    return ap // per_ap + at // per_at


def hip_without_dummies(s: Scenario, side: str, table: FogTable | None = None) -> Finding | None:
    """A warning when ``side`` sets up HIP units and no dummy HIP counter (O'Leary 3.1.1 allows one
    more than its HIP squad capacity): a HIP unit shifts only with a dummy HIP counter (3.3), so
    without one it can never shift and its enemy knows it is where it set up.  The one check
    ``gwasl validate`` and the editor's checks both report (through :func:`check_fog`)."""
    if not _has_hip(s, side) or any(d.side == side and d.kind is DummyKind.DUMMY_HIP for d in s.dummies):
        return None
    allowed = dummy_hip_allotment(s, side, table)
    return Finding("$.dummies", f"{side} sets up HIP units but no dummy HIP counter: they can never shift "
                   f"(O'Leary 3.3); its allotment is {allowed} (HIP squad capacity "
                   f"{hip_squad_capacity(s, side, table)} + 1)", "O'Leary 3.1.1", severity="warning")


@scenario_check
def check_fog(s: Scenario) -> Iterator[Finding]:
    """Every fog extension field is well formed (:func:`gwasl.rules.fog.fields.fog_field_findings`),
    the fields agree with each other and the rules, and the allotments of O'Leary 3.1.1,
    4.1 and 4.6.1 hold."""
    t = fog_table()
    yield from fog_field_findings(s, t)
    for sid, side in s.sides.items():
        sf = side.extra.get("fog")
        cap = sf.get("hip_squad_capacity") if isinstance(sf, Mapping) else None
        if is_number(cap) and cap >= 0 and _hip_used(s, sid, t) > math.ceil(cap):
            yield Finding(f"$.sides.{sid}.fog.hip_squad_capacity",
                          f"{sid}'s HIP units need a squad capacity of {_hip_used(s, sid, t)}, more than the {cap:g} granted",
                          "O'Leary 3.1.1")

    for i, u in enumerate(s.units):
        p = f"$.units[{i}]"
        e = u.extra
        if e.get("cloaked") is True and not s.night:
            yield Finding(f"{p}.cloaked", f"unit {u.id} is cloaked in a day scenario; cloaking is a night rule", "O'Leary 5")
        elif e.get("cloaked") is True and u.hidden is HiddenStatus.HIP:
            yield Finding(f"{p}.cloaked", f"unit {u.id} cannot be both HIP and cloaked", "O'Leary 5")
        if e.get("emplaced") is True and e.get("size_class") not in t.gun_sizes:
            yield Finding(f"{p}.emplaced", f"unit {u.id} is not a gun (size_class small/normal/large_gun)", "O'Leary 2.5")

    for i, d in enumerate(s.dummies):
        p = f"$.dummies[{i}]"
        if d.extra.get("cloaked") is True and d.kind is not DummyKind.DUMMY_STACK:
            yield Finding(f"{p}.cloaked", "only a dummy_stack can be a dummy cloaking counter", "O'Leary 5")
        elif d.extra.get("cloaked") is True and not s.night:
            yield Finding(f"{p}.cloaked", "cloaking counters are a night rule; this scenario is by day", "O'Leary 5")

    for i, f in enumerate(s.map.fortifications):
        p = f"$.map.fortifications[{i}]"
        e = f.extra
        if e.get("hidden") is True and f.owner is None:
            yield Finding(f"{p}.owner", f"a hidden {f.kind.value} needs an owner: whose hidden layer holds it", "O'Leary 4")
        sh = e.get("setup_hexes")
        if isinstance(sh, list) and all(is_hex_label(x) for x in sh):
            allowed = {Hex.from_label(x) for x in sh}
            for h in f.hexes:
                if h not in allowed:
                    yield Finding(f"{p}.hexes", f"{h.label} is not one of its setup_hexes", "O'Leary 4.2")
        if f.kind is FortificationKind.MINEFIELD:
            if e.get("revealed") is True and e.get("hidden") is True:
                yield Finding(f"{p}.revealed", "only a known minefield starts revealed", "O'Leary 4.6.2")
            if e.get("hidden") is True and "ap" not in e and "at" not in e:
                yield Finding(f"{p}", "a hidden minefield needs its 'ap' and/or 'at' strength", "O'Leary 4.6.1")
        elif "ap" in e or "at" in e:
            yield Finding(f"{p}", f"only a minefield has AP/AT factors, not a {f.kind.value}", "O'Leary 4.6.1")

    for sid in s.sides:
        allot = dummy_allotment(s, sid, t)
        unshifting = hip_without_dummies(s, sid, t)
        if unshifting is not None:
            yield unshifting
        if allot.dummy_hip_over:
            yield Finding("$.dummies", f"{sid} sets up {allot.dummy_hip_placed} dummy HIP counters; its allotment is "
                          f"{allot.dummy_hip_allowed} (HIP squad capacity {allot.hip_squad_capacity} + 1, plus hidden "
                          "fortifications and panji)", "O'Leary 3.1.1, 4.1")
        if allot.dummy_minefields_over:
            ap, at = _hidden_mine_factors(s, sid)
            yield Finding("$.dummies", f"{sid} sets up {allot.dummy_minefields} dummy minefields; {ap} AP and {at} AT "
                          f"hidden factors allow {allot.dummy_minefields_allowed} (one per 3 AP, one per AT)", "O'Leary 4.6.1")
        granted = fog_extension(s.sides[sid].extra).get("hidden_minefield")
        if isinstance(granted, Mapping):
            used_ap = used_at = 0
            for f in s.map.fortifications:
                if f.kind is FortificationKind.MINEFIELD and f.owner == sid and f.extra.get("hidden") is True:
                    x, y = f.extra.get("ap", 0), f.extra.get("at", 0)
                    used_ap += (x if is_whole(x) else 0) * len(f.hexes)
                    used_at += (y if is_whole(y) else 0) * len(f.hexes)
            if used_ap > (granted.get("ap") or 0) or used_at > (granted.get("at") or 0):
                yield Finding(f"$.sides.{sid}.fog.hidden_minefield",
                              f"{sid}'s hidden minefields hold {used_ap} AP / {used_at} AT, more than allotted", "O'Leary 4.6.1")
