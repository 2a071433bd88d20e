"""Scenario variants that differ from a scenario only in facts hidden from the enemy of
one side (for the metamorphic tests of CONTRACTS 5):

* ``swap_dummy``: a "?" stack of real units trades places with a dummy stack showing as
  many counters (O'Leary 2.1: the enemy sees only the counts);
* ``swap_stacks``: two "?" stacks of real units showing as many counters trade places;
* ``swap_hip``: the HIP units of one hex trade places with a dummy HIP counter (O'Leary 3.1);
* ``class``: the class of a hidden squad changes (its morale is beneath the "?");
* ``rating``: the rating of a hidden leader changes.

:func:`fortification_variants` adds one more kind (the twin test of every channel uses it):

* ``pillbox``: the side has a hidden pillbox (O'Leary 4) in its set-up area, or not.

Only variants that still validate are kept.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from gwasl.model.scenario_io import parse_scenario
from gwasl.rules.validate import validate_scenario

_STACKED = ("potential_dummy", "concealed")
_HOLDS = {"trench": "trench", "deep_trench": "deep_trench", "deep_trench_crest": "deep_trench", "dugout": "dugout",
          "foxhole": "foxhole", "pillbox": "pillbox"}


def _stacks(doc: dict[str, Any], side: str) -> dict[tuple[str, str, str], list[int]]:
    out: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for i, u in enumerate(doc["units"]):
        if u["side"] == side and u.get("hidden") in _STACKED:
            out[(u["hex"], u.get("in", "ground"), u["hidden"])].append(i)
    return dict(out)


def _forts_at(doc: dict[str, Any], h: str) -> set[str]:
    return {f["kind"] for f in doc["map"].get("fortifications", []) if h in f["hexes"] and not f.get("hidden")}


def _candidates(doc: dict[str, Any], side: str) -> Iterator[tuple[str, dict[str, Any]]]:
    stacks = _stacks(doc, side)
    dummies = [(j, d) for j, d in enumerate(doc.get("dummies", [])) if d["side"] == side]
    for (h, pos, _status), idx in stacks.items():
        for j, d in dummies:
            if d["kind"] == "dummy_stack" and int(d.get("counters", 1)) == len(idx) + 1:
                v = copy.deepcopy(doc)
                for i in idx:
                    v["units"][i]["hex"] = d["hex"]
                    v["units"][i]["in"] = d.get("in", "ground")
                v["dummies"][j]["hex"] = h
                v["dummies"][j]["in"] = pos
                yield f"swap_dummy {h}<->{d['hex']}", v
    keys = list(stacks)
    for a in range(len(keys)):
        for b in range(a + 1, len(keys)):
            ia, ib = stacks[keys[a]], stacks[keys[b]]
            if len(ia) == len(ib) and keys[a][2] == keys[b][2]:
                v = copy.deepcopy(doc)
                for i in ia:
                    v["units"][i]["hex"], v["units"][i]["in"] = keys[b][0], keys[b][1]
                for i in ib:
                    v["units"][i]["hex"], v["units"][i]["in"] = keys[a][0], keys[a][1]
                yield f"swap_stacks {keys[a][0]}<->{keys[b][0]}", v
    hip: dict[str, list[int]] = defaultdict(list)
    for i, u in enumerate(doc["units"]):
        if u["side"] == side and u.get("hidden") == "hip":
            hip[u["hex"]].append(i)
    for h, idx in hip.items():
        for j, d in dummies:
            if d["kind"] == "dummy_hip":
                v = copy.deepcopy(doc)
                there = _forts_at(doc, d["hex"])
                for i in idx:
                    v["units"][i]["hex"] = d["hex"]
                    pos = v["units"][i].get("in", "ground")
                    if _HOLDS.get(pos) not in there:
                        v["units"][i]["in"] = "ground"
                v["dummies"][j]["hex"] = h
                yield f"swap_hip {h}<->{d['hex']}", v
    for i, u in enumerate(doc["units"]):
        if u["side"] == side and u.get("hidden") in (*_STACKED, "hip"):
            if u["kind"] == "squad" and u.get("class") in ("first_line", "second_line"):
                v = copy.deepcopy(doc)
                v["units"][i]["class"] = "second_line" if u["class"] == "first_line" else "first_line"
                yield f"class {u['id']}", v
            if u["kind"] == "leader" and u.get("rating"):
                v = copy.deepcopy(doc)
                v["units"][i]["rating"] = "9-1" if u["rating"] != "9-1" else "8-0"
                yield f"rating {u['id']}", v


def fortification_variants(doc: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """:func:`hidden_variants` and a hidden pillbox there or not (:func:`_pillbox`), each still valid."""
    return hidden_variants(doc, side) + [(n, v) for n, v in _pillbox(doc, side) if validate_scenario(parse_scenario(v)).valid]


def _pillbox(doc: dict[str, Any], side: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """A hidden pillbox of ``side`` on a hex of its set-up area (else of its dummies) that holds no
    fortification and none of its units: present in the variant, absent in the scenario.  Only
    for a side with HIP units: a side's shift windows (O'Leary 3.3.2) are public, and a side
    with no HIP piece at all has none, so a pillbox would add them (gwasl's limit: which sides
    have a hidden layer at all is not a secret)."""
    if not any(u["side"] == side and u.get("hidden") == "hip" for u in doc["units"]):
        return
    area = ((doc.get("game") or {}).get("setup") or {}).get(side, {}).get("hexes") \
        or [d["hex"] for d in doc.get("dummies", []) if d["side"] == side]
    taken = {u["hex"] for u in doc["units"] if u["side"] == side}
    taken |= {h for f in doc["map"].get("fortifications", []) for h in f["hexes"]}
    free = sorted(h for h in area if h not in taken)
    if free:
        v = copy.deepcopy(doc)
        v["map"].setdefault("fortifications", []).append({"kind": "pillbox", "hexes": [free[0]], "owner": side, "hidden": True})
        yield f"pillbox {free[0]}", v


def hidden_variants(doc: dict[str, Any], side: str) -> list[tuple[str, dict[str, Any]]]:
    """Every variant of ``doc`` in ``side``'s hidden facts that still validates."""
    out = []
    for name, v in _candidates(doc, side):
        try:
            if validate_scenario(parse_scenario(v)).valid:
                out.append((name, v))
        except Exception:
            continue
    return out
