"""Scenario checks of the fog-of-war extension fields (docs/format/fog.md) and
O'Leary's allotments: dummy HIP counters (3.1.1, 4.1) and dummy minefields
(4.6.1).  Registered with :func:`gwasl.rules.validate.scenario_check`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import DummyKind, FortificationKind, HiddenStatus, Position, Scenario
from gwasl.model.scenario_io import Finding
from gwasl.rules.fog.state import fog_extension
from gwasl.rules.fog.table import FogTable, fog_table
from gwasl.rules.morale import stacking_equivalents
from gwasl.rules.validate import scenario_check

__all__ = ["check_fog", "dummy_hip_allotment", "dummy_minefield_allotment", "hip_squad_capacity"]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _label_ok(v: Any) -> bool:
    try:
        Hex.from_label(v)
        return True
    except (HexLabelError, TypeError):
        return False


def hip_squad_capacity(s: Scenario, side: str, table: FogTable | None = None) -> int:
    """O'Leary 3.1.1: the HIP squad capacity of ``side``: the ``hip_squad_capacity``
    of its fog extension, else the squad-equivalents of its HIP units rounded up
    (a crew or half-squad counts one half)."""
    t = table or fog_table()
    declared = fog_extension(s.sides[side].extra).get("hip_squad_capacity")
    if _is_num(declared):
        return math.ceil(declared)
    return _hip_used(s, side, t)


def _hip_used(s: Scenario, side: str, t: FogTable) -> int:
    # Squad-equivalents as for stacking (A5.1): squad 1, half-squad and crew 1/2.
    total = stacking_equivalents(u for u in s.units if u.side == side and u.hidden is HiddenStatus.HIP)
    return math.ceil(total - 1e-9)


def _has_hip(s: Scenario, side: str) -> bool:
    return any(u.side == side and u.hidden is HiddenStatus.HIP for u in s.units)


def dummy_hip_allotment(s: Scenario, side: str, table: FogTable | None = None) -> int:
    """Dummy HIP counters ``side`` may set up.

    O'Leary 3.1.1: one more than its HIP squad capacity (five squads -> six;
    a lone HIP gun -> two).  4.1: one per hidden fortification that holds no
    HIP unit or dummy HIP counter at start, and one per three panji hexsides.
    """
    t = table or fog_table()
    a = t.allotment
    cap = hip_squad_capacity(s, side, t)
    n = cap * a["dummy_hip_per_hip_squad_capacity"] + a["dummy_hip_extra"] if (cap or _has_hip(s, side)) else 0
    hip_hexes = {u.hex for u in s.units if u.side == side and u.hidden is HiddenStatus.HIP}
    hip_hexes |= {d.hex for d in s.dummies if d.side == side and d.kind is DummyKind.DUMMY_HIP}
    for f in s.map.fortifications:
        if f.owner == side and f.kind is not FortificationKind.MINEFIELD and f.extra.get("hidden") is True:
            n += a["dummy_hip_per_hidden_fortification"] * sum(1 for h in f.hexes if h not in hip_hexes)
    panji = fog_extension(s.sides[side].extra).get("panji_hexsides", 0)
    if _is_int(panji) and panji > 0:
        n += panji // a["panji_hexsides_per_dummy_hip"]
    return n


def _hidden_mine_factors(s: Scenario, side: str) -> tuple[int, int]:
    allot = fog_extension(s.sides[side].extra).get("hidden_minefield")
    if isinstance(allot, Mapping):
        ap, at = allot.get("ap", 0), allot.get("at", 0)
        return (ap if _is_int(ap) else 0), (at if _is_int(at) else 0)
    ap = at = 0
    for f in s.map.fortifications:
        if f.kind is FortificationKind.MINEFIELD and f.owner == side and f.extra.get("hidden") is True:
            x, y = f.extra.get("ap", 0), f.extra.get("at", 0)
            ap += (x if _is_int(x) else 0) * len(f.hexes)
            at += (y if _is_int(y) else 0) * len(f.hexes)
    return ap, at


def dummy_minefield_allotment(s: Scenario, side: str, table: FogTable | None = None) -> int:
    """O'Leary 4.6.1: one dummy minefield per 3 AP factors and per AT factor of hidden mines.

    The side's ``hidden_minefield`` allotment when given, else the factors of
    its hidden minefields as set up."""
    t = table or fog_table()
    ap, at = _hidden_mine_factors(s, side)
    return ap // t.allotment["ap_factors_per_dummy_minefield"] + at // t.allotment["at_factors_per_dummy_minefield"]


@scenario_check
def check_fog(s: Scenario) -> Iterator[Finding]:
    """Every fog extension field is well formed, and the allotments of O'Leary 3.1.1, 4.1 and 4.6.1 hold."""
    t = fog_table()
    fog = s.extra.get("fog")
    if fog is not None and not isinstance(fog, Mapping):
        yield Finding("$.fog", "must be an object (docs/format/fog.md)")
        fog = {}
    fog = fog or {}
    if "shift_balance_drm" in fog:
        v = fog["shift_balance_drm"]
        lo, hi = t.drm["balance_drm_min"], t.drm["balance_drm_max"]
        if not _is_int(v) or not lo <= v <= hi:
            yield Finding("$.fog.shift_balance_drm", f"must be a whole number from {lo} to {hi}, not {v!r}", "O'Leary 2.5")
    if "first_phasing" in fog and fog["first_phasing"] not in s.sides:
        yield Finding("$.fog.first_phasing", f"{fog['first_phasing']!r} is not a side of this scenario")
    oba = fog.get("oba", [])
    if not isinstance(oba, list):
        yield Finding("$.fog.oba", "must be a list of OBA modules", "O'Leary 7")
        oba = []
    for i, m in enumerate(oba):
        p = f"$.fog.oba[{i}]"
        if not isinstance(m, Mapping) or not isinstance(m.get("id"), str):
            yield Finding(p, "an OBA module needs an 'id' text", "O'Leary 7")
            continue
        if m.get("side") not in s.sides:
            yield Finding(f"{p}.side", f"{m.get('side')!r} is not a side of this scenario", "O'Leary 7")
        pr = m.get("pre_registered")
        if pr is not None and pr != "undetermined" and not _label_ok(pr):
            yield Finding(f"{p}.pre_registered", f"must be 'undetermined' or a hex label, not {pr!r}", "O'Leary 7.1")
        elif _label_ok(pr) and not s.map.contains(Hex.from_label(pr)):
            yield Finding(f"{p}.pre_registered", f"hex {pr} is outside the map", "O'Leary 7.1")

    for sid, side in s.sides.items():
        p = f"$.sides.{sid}.fog"
        sf = side.extra.get("fog")
        if sf is None:
            continue
        if not isinstance(sf, Mapping):
            yield Finding(p, "must be an object (docs/format/fog.md)")
            continue
        cap = sf.get("hip_squad_capacity")
        if cap is not None and (not _is_num(cap) or cap < 0):
            yield Finding(f"{p}.hip_squad_capacity", f"must be a number >= 0, not {cap!r}", "O'Leary 3.1.1")
        elif cap is not None and _hip_used(s, sid, t) > math.ceil(cap):
            yield Finding(f"{p}.hip_squad_capacity",
                          f"{sid}'s HIP units need a squad capacity of {_hip_used(s, sid, t)}, more than the {cap:g} granted",
                          "O'Leary 3.1.1")
        pj = sf.get("panji_hexsides")
        if pj is not None and (not _is_int(pj) or pj < 0):
            yield Finding(f"{p}.panji_hexsides", f"must be a whole number >= 0, not {pj!r}", "O'Leary 4.1")
        hm = sf.get("hidden_minefield")
        if hm is not None:
            if not isinstance(hm, Mapping):
                yield Finding(f"{p}.hidden_minefield", "must be an object {\"ap\": n, \"at\": n}", "O'Leary 4.6.1")
            else:
                for k in ("ap", "at"):
                    if k in hm and (not _is_int(hm[k]) or hm[k] < 0):
                        yield Finding(f"{p}.hidden_minefield.{k}", f"must be a whole number >= 0, not {hm[k]!r}", "O'Leary 4.6.1")

    size_names = set(t.size_drm)
    for i, u in enumerate(s.units):
        p = f"$.units[{i}]"
        e = u.extra
        if "cloaked" in e:
            if not isinstance(e["cloaked"], bool):
                yield Finding(f"{p}.cloaked", f"must be true or false, not {e['cloaked']!r}", "O'Leary 5")
            elif e["cloaked"] and not s.night:
                yield Finding(f"{p}.cloaked", f"unit {u.id} is cloaked in a day scenario; cloaking is a night rule", "O'Leary 5")
            elif e["cloaked"] and u.hidden is HiddenStatus.HIP:
                yield Finding(f"{p}.cloaked", f"unit {u.id} cannot be both HIP and cloaked", "O'Leary 5")
        if "size_class" in e and e["size_class"] not in size_names:
            yield Finding(f"{p}.size_class", f"{e['size_class']!r} is not a size class ({', '.join(sorted(size_names))})", "O'Leary 2.5")
        for k in ("emplaced", "may_emplace"):
            if k in e and not isinstance(e[k], bool):
                yield Finding(f"{p}.{k}", f"must be true or false, not {e[k]!r}", "O'Leary 2.3")
        if e.get("emplaced") is True and e.get("size_class") not in t.gun_sizes:
            yield Finding(f"{p}.emplaced", f"unit {u.id} is not a gun (size_class small/normal/large_gun)", "O'Leary 2.5")
        if "movement_allowance" in e and (not _is_num(e["movement_allowance"]) or e["movement_allowance"] <= 0):
            yield Finding(f"{p}.movement_allowance", f"must be a number > 0, not {e['movement_allowance']!r}", "O'Leary 2.4")
        if "bore_sight" in e:
            b = e["bore_sight"]
            if b != "undetermined" and not _label_ok(b):
                yield Finding(f"{p}.bore_sight", f"must be 'undetermined' or a hex label, not {b!r}", "O'Leary 6.1")
            elif _label_ok(b) and not s.map.contains(Hex.from_label(b)):
                yield Finding(f"{p}.bore_sight", f"hex {b} is outside the map", "O'Leary 6.1")

    for h, hd in s.map.hexes.items():
        if "crest_line" in hd.extra and not isinstance(hd.extra["crest_line"], bool):
            yield Finding(f"$.map.hexes.{h.label}.crest_line", f"must be true or false, not {hd.extra['crest_line']!r}", "O'Leary 2.3")

    for i, d in enumerate(s.dummies):
        p = f"$.dummies[{i}]"
        if "in" in d.extra:
            try:
                Position(d.extra["in"])
            except (ValueError, TypeError):
                yield Finding(f"{p}.in", f"{d.extra['in']!r} is not a position ({', '.join(x.value for x in Position)})", "O'Leary 2.3")
        if "cloaked" in d.extra:
            if not isinstance(d.extra["cloaked"], bool):
                yield Finding(f"{p}.cloaked", f"must be true or false, not {d.extra['cloaked']!r}", "O'Leary 5")
            elif d.extra["cloaked"] and d.kind is not DummyKind.DUMMY_STACK:
                yield Finding(f"{p}.cloaked", "only a dummy_stack can be a dummy cloaking counter", "O'Leary 5")
            elif d.extra["cloaked"] and not s.night:
                yield Finding(f"{p}.cloaked", "cloaking counters are a night rule; this scenario is by day", "O'Leary 5")

    for i, f in enumerate(s.map.fortifications):
        p = f"$.map.fortifications[{i}]"
        e = f.extra
        if "hidden" in e and not isinstance(e["hidden"], bool):
            yield Finding(f"{p}.hidden", f"must be true or false, not {e['hidden']!r}", "O'Leary 4")
        if e.get("hidden") is True and f.owner is None:
            yield Finding(f"{p}.owner", f"a hidden {f.kind.value} needs an owner: whose hidden layer holds it", "O'Leary 4")
        if "tem" in e and not _is_int(e["tem"]):
            yield Finding(f"{p}.tem", f"must be a whole number, not {e['tem']!r}", "O'Leary 4.3")
        if "setup_hexes" in e:
            sh = e["setup_hexes"]
            if not isinstance(sh, list) or not all(_label_ok(x) for x in sh):
                yield Finding(f"{p}.setup_hexes", "must be a list of hex labels", "O'Leary 4.2")
            else:
                allowed = {Hex.from_label(x) for x in sh}
                for h in f.hexes:
                    if h not in allowed:
                        yield Finding(f"{p}.hexes", f"{h.label} is not one of its setup_hexes", "O'Leary 4.2")
        if "tunnel" in e and (not _label_ok(e["tunnel"]) or not s.map.contains(Hex.from_label(e["tunnel"]))):
            yield Finding(f"{p}.tunnel", f"must be a hex of the map, not {e['tunnel']!r}", "O'Leary 4.4.2")
        if "complex" in e and (not isinstance(e["complex"], str) or not e["complex"]):
            yield Finding(f"{p}.complex", f"must be a cave complex id (text), not {e['complex']!r}", "O'Leary 4.4.1")
        if f.kind is FortificationKind.MINEFIELD:
            for k in ("ap", "at"):
                if k in e and (not _is_int(e[k]) or e[k] < 0):
                    yield Finding(f"{p}.{k}", f"must be a whole number of factors >= 0, not {e[k]!r}", "O'Leary 4.6.1")
            if "revealed" in e and (not isinstance(e["revealed"], bool) or (e["revealed"] and e.get("hidden") is True)):
                yield Finding(f"{p}.revealed", "must be true or false, and only a known minefield starts revealed", "O'Leary 4.6.2")
            if e.get("hidden") is True and "ap" not in e and "at" not in e:
                yield Finding(f"{p}", "a hidden minefield needs its 'ap' and/or 'at' strength", "O'Leary 4.6.1")
        elif "ap" in e or "at" in e:
            yield Finding(f"{p}", f"only a minefield has AP/AT factors, not a {f.kind.value}", "O'Leary 4.6.1")

    for sid in s.sides:
        n_hip = sum(1 for d in s.dummies if d.side == sid and d.kind is DummyKind.DUMMY_HIP)
        allowed = dummy_hip_allotment(s, sid, t)
        if n_hip > allowed:
            yield Finding("$.dummies", f"{sid} sets up {n_hip} dummy HIP counters; its allotment is {allowed} "
                          f"(HIP squad capacity {hip_squad_capacity(s, sid, t)} + 1, plus hidden fortifications and panji)",
                          "O'Leary 3.1.1, 4.1")
        n_mf = sum(1 for d in s.dummies if d.side == sid and d.kind is DummyKind.DUMMY_MINEFIELD)
        allowed_mf = dummy_minefield_allotment(s, sid, t)
        if n_mf > allowed_mf:
            ap, at = _hidden_mine_factors(s, sid)
            yield Finding("$.dummies", f"{sid} sets up {n_mf} dummy minefields; {ap} AP and {at} AT hidden factors "
                          f"allow {allowed_mf} (one per 3 AP, one per AT)", "O'Leary 4.6.1")
        allot = fog_extension(s.sides[sid].extra).get("hidden_minefield")
        if isinstance(allot, Mapping):
            used_ap = used_at = 0
            for f in s.map.fortifications:
                if f.kind is FortificationKind.MINEFIELD and f.owner == sid and f.extra.get("hidden") is True:
                    x, y = f.extra.get("ap", 0), f.extra.get("at", 0)
                    used_ap += (x if _is_int(x) else 0) * len(f.hexes)
                    used_at += (y if _is_int(y) else 0) * len(f.hexes)
            if used_ap > (allot.get("ap") or 0) or used_at > (allot.get("at") or 0):
                yield Finding(f"$.sides.{sid}.fog.hidden_minefield",
                              f"{sid}'s hidden minefields hold {used_ap} AP / {used_at} AT, more than allotted", "O'Leary 4.6.1")
