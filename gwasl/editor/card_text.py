"""The scenario card's fields as short lines of text, for the editor's properties dialog.

The card itself is the ``"game"`` object of a scenario (docs/format/aslgw.md), read by
:func:`gwasl.rules.card.scenario_card`; these functions only turn its JSON pieces into
the words typed in the dialog and back, so that the one parser stays the judge of what
is valid (the dialog's edit is checked by :func:`gwasl.editor.document.set_properties`).

An area (A26.11 set-up area, A2.6 entry area) is ``west half`` / ``east edge`` or hex
labels::

    >>> area_text({"board_half": "west"}), area_text({"hexes": ["G6", "H6"]})
    ('west half', 'G6 H6')
    >>> parse_area("east edge", "entry")
    {'edge': 'east'}

A victory condition (A26.1 Control, A26.22 CVP, A26.23 exit VP) is one line; several are
separated by ``;``::

    >>> conditions_text([{"control": {"hexes": ["G6"], "buildings": ["ferme"], "at_least": 1}}, {"cvp": {"at_least": 6, "cap": 10}}])
    'control 1 of hexes G6 buildings ferme; cvp 6 cap 10'
    >>> parse_conditions("exit 4 edge east more_than_enemy")
    [{'exit': {'at_least': 4, 'edge': 'east', 'more_than_enemy': True}}]

Anything the words cannot say is kept as its JSON object, which the line may also hold.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gwasl.model.errors import GwaslError

__all__ = ["CardTextError", "area_text", "conditions_text", "parse_area", "parse_conditions"]

_EDGES = ("north", "south", "east", "west")
_LIST_KEYS = ("hexes", "buildings", "locations")


class CardTextError(GwaslError):
    """A line of the dialog that is not a card field: the message says what was expected."""


def area_text(raw: Any) -> str:
    """The words for an area object (``{"board_half": e}``, ``{"edge": e}``, ``{"hexes": [...]}``)."""
    if not isinstance(raw, Mapping) or len(raw) != 1:
        return json.dumps(raw) if raw is not None else ""
    (k, v), = raw.items()
    if k == "board_half" and isinstance(v, str):
        return f"{v} half"
    if k == "edge" and isinstance(v, str):
        return f"{v} edge"
    if k == "hexes" and isinstance(v, list) and all(isinstance(x, str) for x in v):
        return " ".join(v)
    return json.dumps(dict(raw))


def parse_area(text: str, kind: str) -> dict[str, Any] | None:
    """The area object for ``text`` (``None`` when empty); ``kind`` is ``setup`` (a board half)
    or ``entry`` (an edge)."""
    t = text.strip()
    if not t:
        return None
    if t.startswith("{"):
        return _json_object(t)
    words = t.replace(",", " ").split()
    if len(words) == 2 and words[0].lower() in _EDGES and words[1].lower() in ("half", "edge"):
        key = "board_half" if words[1].lower() == "half" else "edge"
        want = "board_half" if kind == "setup" else "edge"
        if key != want:
            raise CardTextError(f"{t!r}: a {'set-up area is a board half' if kind == 'setup' else 'entry area is an edge'}"
                                f" (e.g. '{words[0].lower()} {'half' if kind == 'setup' else 'edge'}') or hex labels")
        return {key: words[0].lower()}
    return {"hexes": [w.upper() for w in words]}


def _condition_text(raw: Any) -> str:
    if not isinstance(raw, Mapping) or len(raw) != 1:
        return json.dumps(raw)
    (kind, body), = raw.items()
    if not isinstance(body, Mapping):
        return json.dumps(dict(raw))
    if kind == "control" and set(body) <= {*_LIST_KEYS, "at_least"}:
        out = ["control"]
        if body.get("at_least") is not None:
            out.append(f"{body['at_least']} of")
        for key in _LIST_KEYS:
            items = body.get(key)
            if not items:
                continue
            if key == "locations":
                if not all(isinstance(x, Mapping) and set(x) <= {"hex", "in"} for x in items):
                    return json.dumps(dict(raw))
                out.append("locations " + " ".join(f"{x['hex']}/{x.get('in', 'ground')}" for x in items))
            elif all(isinstance(x, str) and x and " " not in x for x in items):
                out.append(f"{key} " + " ".join(items))
            else:
                return json.dumps(dict(raw))
        return " ".join(out)
    if kind in ("cvp", "exit") and set(body) <= {"at_least", "cap", "more_than_enemy", "edge", "hexes"}:
        out = [kind, str(body.get("at_least", ""))]
        if "edge" in body:
            out.append(f"edge {body['edge']}")
        if "hexes" in body and isinstance(body["hexes"], list):
            out.append("hexes " + " ".join(str(h) for h in body["hexes"]))
        if body.get("cap") is not None:
            out.append(f"cap {body['cap']}")
        if body.get("more_than_enemy"):
            out.append("more_than_enemy")
        return " ".join(out)
    return json.dumps(dict(raw))


def conditions_text(raw: Any) -> str:
    """The line for a side's list of conditions (``;`` between conditions)."""
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return json.dumps(raw)
    return "; ".join(_condition_text(c) for c in raw)


def _json_object(t: str) -> dict[str, Any]:
    try:
        v = json.loads(t)
    except ValueError as e:
        raise CardTextError(f"{t[:40]!r} is not a JSON object: {e}") from None
    if not isinstance(v, dict):
        raise CardTextError(f"{t[:40]!r} is not a JSON object")
    return v


def _number(word: str, where: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise CardTextError(f"{where}: {word!r} is not a whole number") from None


def _parse_condition(t: str) -> dict[str, Any]:
    if t.startswith("{"):
        return _json_object(t)
    words = t.split()
    kind = words[0].lower()
    rest = words[1:]
    if kind == "control":
        body: dict[str, Any] = {}
        if len(rest) >= 2 and rest[1].lower() == "of":
            body["at_least"] = _number(rest[0], t)
            rest = rest[2:]
        key = None
        for w in rest:
            if w.lower() in _LIST_KEYS:
                key = w.lower()
                body.setdefault(key, [])
            elif key is None:
                raise CardTextError(f"{t!r}: say what to Control: 'control hexes G6 H6', 'control buildings ferme', "
                                    "'control locations H6/dugout', 'control 2 of hexes ...'")
            elif key == "locations":
                h, _, pos = w.partition("/")
                body[key].append({"hex": h.upper(), **({"in": pos} if pos and pos != "ground" else {})})
            else:
                body[key].append(w.upper() if key == "hexes" else w)
        return {"control": body}
    if kind in ("cvp", "exit"):
        if not rest:
            raise CardTextError(f"{t!r}: give the VP needed, e.g. '{kind} 6'")
        body = {"at_least": _number(rest[0], t)}
        i = 1
        while i < len(rest):
            w = rest[i].lower()
            if w == "more_than_enemy":
                body["more_than_enemy"] = True
                i += 1
            elif w == "cap" and i + 1 < len(rest):
                body["cap"] = _number(rest[i + 1], t)
                i += 2
            elif w == "edge" and kind == "exit" and i + 1 < len(rest):
                body["edge"] = rest[i + 1].lower()
                i += 2
            elif w == "hexes" and kind == "exit":
                body["hexes"] = [x.upper() for x in rest[i + 1:]]
                break
            else:
                raise CardTextError(f"{t!r}: {rest[i]!r} is not understood (cap N, more_than_enemy"
                                    + (", edge E, hexes ..." if kind == "exit" else "") + ")")
        return {kind: body}
    raise CardTextError(f"{t!r}: a condition starts with control, cvp or exit")


def parse_conditions(text: str) -> list[dict[str, Any]]:
    """The list of condition objects for a line (empty when the line is)."""
    t = text.strip()
    if t.startswith("["):
        try:
            v = json.loads(t)
        except ValueError as e:
            raise CardTextError(f"not a JSON list: {e}") from None
        if not isinstance(v, list):
            raise CardTextError("not a JSON list")
        return v
    parts = _split(t)
    return [_parse_condition(p) for p in parts]


def _split(t: str) -> list[str]:
    """``;``-separated parts, a JSON object's own ``;`` left alone."""
    out: list[str] = []
    depth = 0
    cur = ""
    in_str = False
    for ch in t:
        if ch == '"':
            in_str = not in_str
        elif not in_str and ch in "{[":
            depth += 1
        elif not in_str and ch in "}]":
            depth -= 1
        if ch == ";" and depth == 0 and not in_str:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [p.strip() for p in out if p.strip()]
