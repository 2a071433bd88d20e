"""The scenario card: set-up and entry areas, victory conditions, SSRs, Balance, ELR
and SAN (ASL A26, A26.4, A19, A14), read from the scenario's optional ``"game"``
object next to its turn record (:mod:`gwasl.rules.turn_record`; docs/format/aslgw.md).

One parser for the validator, the editor and the game in play::

    "game": {"turns": 5, "first_moves": "german",
             "setup": {"french": {"hexes": ["G6", "H6"]}, "german": {"board_half": "west"}},
             "entry": {"german": {"edge": "west"}},
             "victory": {"german": {"conditions": [{"control": {"buildings": ["ferme"]}}], "immediate": false},
                         "french": {"avoid": true}},
             "ssr": [{"id": "1", "text": "Night.", "fields": ["$.night"]}],
             "balance": {"german": {"text": "Add one game turn.", "turns": 1}},
             "elr": {"german": 3, "french": 3}, "san": {"german": 2, "french": 3}}

:func:`scenario_card` reads it (:class:`CardError` names the first bad field by its
JSON path); :func:`check_card` reports every problem to ``gwasl validate`` (unknown
hexes, a building that does not exist, a threshold no side can reach).

>>> import datetime
>>> from gwasl.model.scenario import MapData, Nationality, Scenario, Side
>>> s = Scenario("t", datetime.date(1916, 2, 21), MapData(4, 3),
...              {"german": Side("german", Nationality.GERMAN), "french": Side("french", Nationality.FRENCH)},
...              extra={"game": {"setup": {"german": {"board_half": "west"}},
...                              "victory": {"german": {"conditions": [{"control": {"hexes": ["D2"]}}]}}}})
>>> c = scenario_card(s)
>>> sorted(h.label for h in c.setup["german"]), c.victory["french"].avoid
(['A1', 'A2', 'A3', 'B1', 'B2', 'B3'], True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import Position, Scenario
from gwasl.model.scenario_io import Finding
from gwasl.rules.control import Location
from gwasl.rules.validate import scenario_check
from gwasl.rules.victory import Condition, ControlCondition, VPCondition

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "CARD_FIELDS",
    "Balance",
    "CardError",
    "ScenarioCard",
    "SideVictory",
    "Ssr",
    "check_card",
    "edge_hexes",
    "location_of",
    "scenario_card",
]

#: the card's fields of the ``"game"`` object (the turn record has the others)
CARD_FIELDS = ("setup", "entry", "victory", "ssr", "balance", "elr", "san")
EDGES = ("north", "south", "east", "west")
HALVES = EDGES  # a board half is named by the edge it lies along
#: ELR 0-5 (A19.1: the Experience Level Rating printed on a card); SAN 0-7 (A14.1; 7 is the highest printed)
ELR_RANGE = (0, 5)
SAN_RANGE = (0, 7)
#: the scenario fields an SSR may name as the machine-readable flag it sets
SSR_FIELDS = ("$.night", "$.winter", "$.weather", "$.front", "$.extensions.fog")
SSR_SIDE_FIELDS = ("gas_protection", "hand_grenades", "nationality", "gas")
_SIDE_VICTORY_FIELDS = ("conditions", "immediate", "avoid", "text")


class CardError(GwaslError):
    """A card field gwasl cannot use: ``path`` names it, ``rule`` the rule it breaks."""

    def __init__(self, path: str, message: str, rule: str = "A26") -> None:
        self.path = path
        self.message = message
        self.rule = rule
        super().__init__(f"{path}: {message}")


@dataclass(frozen=True, slots=True)
class SideVictory:
    """A side's victory conditions (A26): all of ``conditions`` must hold; ``immediate``:
    the side wins as soon as they do; ``avoid``: the side wins by avoiding the other's (A26.3)."""

    side: str
    conditions: tuple[Condition, ...] = ()
    immediate: bool = False
    avoid: bool = False
    text: str = ""


@dataclass(frozen=True, slots=True)
class Ssr:
    """A Special Scenario Rule: its text, and the scenario fields that carry it for the rules."""

    id: str
    text: str
    fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Balance:
    """A side's Balance provision (A26.4): its text, and what gwasl applies when that side
    takes it: extra game ``turns`` (may be negative) and ``cvp`` credited at the start."""

    side: str
    text: str
    turns: int = 0
    cvp: int = 0


def _ro(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True, slots=True)
class ScenarioCard:
    """The card of a scenario (see the module docstring); every mapping is keyed by side."""

    setup: Mapping[str, frozenset[Hex]] = field(default_factory=lambda: _ro({}))
    entry: Mapping[str, frozenset[Hex]] = field(default_factory=lambda: _ro({}))
    exits: Mapping[str, frozenset[Hex]] = field(default_factory=lambda: _ro({}))
    victory: Mapping[str, SideVictory] = field(default_factory=lambda: _ro({}))
    ssr: tuple[Ssr, ...] = ()
    balance: Mapping[str, Balance] = field(default_factory=lambda: _ro({}))
    elr: Mapping[str, int] = field(default_factory=lambda: _ro({}))
    san: Mapping[str, int] = field(default_factory=lambda: _ro({}))

    @property
    def has_victory(self) -> bool:
        return any(v.conditions for v in self.victory.values())

    def conditions(self) -> dict[str, tuple[Condition, ...]]:
        return {s: v.conditions for s, v in self.victory.items() if v.conditions}


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def edge_hexes(s: Scenario, edge: str) -> frozenset[Hex]:
    """The hexes along one map edge (exit and entry areas).

    Exit and entry areas are hexes along a map edge (A26.23 exit; the card's entry area)."""
    cols, rows = s.map.columns, s.map.rows
    pick: dict[str, Callable[[Hex], bool]] = {
        "west": lambda h: h.column == 0, "east": lambda h: h.column == cols - 1,
        "north": lambda h: h.row == 0, "south": lambda h: h.row == rows - 1}
    return frozenset(h for h in s.map if pick[edge](h))


def _half(s: Scenario, half: str) -> frozenset[Hex]:
    """A board half (A26.11: a side's set-up area): the half of the map along ``half``'s edge;
    a middle column or row of an odd map belongs to neither."""
    cols, rows = s.map.columns, s.map.rows
    pick: dict[str, Callable[[Hex], bool]] = {
        "west": lambda h: h.column < cols // 2, "east": lambda h: h.column >= cols - cols // 2,
        "north": lambda h: h.row < rows // 2, "south": lambda h: h.row >= rows - rows // 2}
    return frozenset(h for h in s.map if pick[half](h))


def location_of(h: Hex, position: Position) -> Location:
    """The Location of a unit ``position`` in hex ``h`` (docs/rules-notes.md, Dugouts and deep
    trenches as Locations): a dugout (ASLGW 2.2.1) and a pillbox are Locations of their own at
    ground level; a deep trench, its crest, a trench and a foxhole are the hex's ground level."""
    if position in (Position.DUGOUT, Position.PILLBOX):
        return Location(h, 0, position.value)
    return Location(h, 0)


def _hexes(s: Scenario, raw: Any, path: str, rule: str) -> frozenset[Hex]:
    if not isinstance(raw, list) or not raw:
        raise CardError(path, "must be a non-empty list of hex labels", rule)
    out = set()
    for i, label in enumerate(raw):
        try:
            h = Hex.from_label(str(label)) if isinstance(label, str) else None
        except HexLabelError:
            h = None
        if h is None:
            raise CardError(f"{path}[{i}]", f"{str(label)[:20]!r} is not a hex label", rule)
        if not s.map.contains(h):
            raise CardError(f"{path}[{i}]", f"hex {h.label} is not on the {s.map.columns} x {s.map.rows} map", rule)
        out.add(h)
    return frozenset(out)


def _area(s: Scenario, raw: Any, path: str, rule: str, kind: str) -> frozenset[Hex]:
    keys = {"hexes", "board_half"} if kind == "setup" else {"hexes", "edge"}
    if not isinstance(raw, Mapping) or len(raw) != 1 or not set(raw) <= keys:
        raise CardError(path, f"must be an object with one of {', '.join(sorted(keys))}", rule)
    (k, v), = raw.items()
    if k == "hexes":
        return _hexes(s, v, f"{path}.hexes", rule)
    if v not in EDGES:
        raise CardError(f"{path}.{k}", f"must be one of {', '.join(EDGES)}, not {str(v)[:20]!r}", rule)
    return _half(s, v) if k == "board_half" else edge_hexes(s, v)


def _per_side(s: Scenario, raw: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise CardError(path, "must be an object keyed by side")
    for k in raw:
        if k not in s.sides:
            raise CardError(f"{path}.{k}", f"{str(k)[:40]!r} is not a side of this scenario ({', '.join(s.sides)})")
    return raw


def _count(raw: Any, path: str, rule: str, low: int = 0) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < low:
        raise CardError(path, f"must be a whole number of at least {low}, not {str(raw)[:20]!r}", rule)
    return raw


def _condition(s: Scenario, side: str, raw: Any, path: str, exits: dict[str, frozenset[Hex]]) -> Condition:
    if not isinstance(raw, Mapping) or len(raw) != 1 or next(iter(raw)) not in ("control", "cvp", "exit"):
        raise CardError(path, 'must be one of {"control": {...}}, {"cvp": {...}}, {"exit": {...}}')
    (kind, body), = raw.items()
    p = f"{path}.{kind}"
    if not isinstance(body, Mapping):
        raise CardError(p, "must be an object")
    if kind == "control":
        unknown = sorted(set(body) - {"hexes", "buildings", "locations", "at_least"})
        if unknown:
            raise CardError(f"{p}.{unknown[0]}", "unknown field (use hexes, buildings, locations, at_least)", "A26.1")
        hexes = tuple(sorted(h.label for h in _hexes(s, body["hexes"], f"{p}.hexes", "A26.13"))) if "hexes" in body else ()
        known = {hd.building for hd in s.map.hexes.values() if hd.building}
        blds = body.get("buildings", [])
        if not isinstance(blds, list):
            raise CardError(f"{p}.buildings", "must be a list of building ids", "A26.14")
        for i, b in enumerate(blds):
            if b not in known:
                raise CardError(f"{p}.buildings[{i}]", f"no building {str(b)[:40]!r} on the map"
                                + (f" (buildings: {', '.join(sorted(known))})" if known else " (it has none)"), "A26.14")
        locs = []
        for i, lr in enumerate(body.get("locations", [])):
            lp = f"{p}.locations[{i}]"
            if not isinstance(lr, Mapping) or "hex" not in lr:
                raise CardError(lp, 'must be {"hex": "H6", "in": "dugout"}', "A26.1")
            h, = _hexes(s, [lr["hex"]], f"{lp}.hex", "A26.1")
            try:
                pos = Position(lr.get("in", "ground"))
            except ValueError:
                raise CardError(f"{lp}.in", f"{str(lr.get('in'))[:20]!r} is not a position", "A26.1") from None
            if pos.fortification is not None and not s.map.has_fortification(h, pos.fortification):
                raise CardError(f"{lp}.in", f"hex {h.label} has no {pos.fortification.value}", "A26.1")
            locs.append(location_of(h, pos))
        total = len(hexes) + len(blds) + len(locs)
        if total == 0:
            raise CardError(p, "names nothing to Control (give hexes, buildings or locations)", "A26.1")
        at_least = body.get("at_least")
        if at_least is not None:
            at_least = _count(at_least, f"{p}.at_least", "A26.1", 1)
            if at_least > total:
                raise CardError(f"{p}.at_least", f"asks for {at_least} of only {total} named", "A26.1")
        return ControlCondition(side, hexes, tuple(str(b) for b in blds), tuple(locs), at_least)
    allowed = {"at_least", "cap", "more_than_enemy"} | ({"edge", "hexes"} if kind == "exit" else set())
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise CardError(f"{p}.{unknown[0]}", f"unknown field (use {', '.join(sorted(allowed))})", "A26.2")
    rule = "A26.23" if kind == "exit" else "A26.22"
    need = _count(body.get("at_least"), f"{p}.at_least", rule, 1)
    cap = body.get("cap")
    if cap is not None:
        cap = _count(cap, f"{p}.cap", rule, 1)
        if cap < need:
            raise CardError(f"{p}.cap", f"a cap of {cap} makes the {need} needed impossible", rule)
    more = body.get("more_than_enemy", False)
    if not isinstance(more, bool):
        raise CardError(f"{p}.more_than_enemy", "must be true or false", rule)
    if kind == "exit":
        if ("edge" in body) == ("hexes" in body):
            raise CardError(p, "needs one of edge or hexes (where units exit)", rule)
        area = _area(s, {k: body[k] for k in ("edge", "hexes") if k in body}, p, rule, "exit")
        if "hexes" in body:
            rim = frozenset().union(*(edge_hexes(s, e) for e in EDGES))
            off = sorted(h.label for h in area - rim)
            if off:
                raise CardError(f"{p}.hexes", f"hex {off[0]} is not on a map edge: units exit off the map", rule)
        exits[side] = exits.get(side, frozenset()) | area
    return VPCondition(side, "cvp" if kind == "cvp" else "exit", need, cap, more)


def _max_vp(s: Scenario, side: str) -> int:
    """What ``side`` can score at most: every enemy unit's VP (doubled if captured, A26.222)
    for CVP; its own units' VP for exit (A26.23)."""
    from gwasl.rules.victory import unit_vp

    def vp(u: Any) -> int:
        return unit_vp(u.kind.value, u.rating.modifier if u.rating is not None else 0)

    return sum(vp(u) for u in s.units if u.side == side)


def scenario_card(s: Scenario) -> ScenarioCard:
    """The card of ``s`` (an empty card when the scenario has none); :class:`CardError` names a bad field.

    (A26.11 set-up areas, A26.23 exit, A26.4 Balance, A19 ELR, A14 SAN.)"""
    raw = s.extra.get("game", {})
    if not isinstance(raw, Mapping):
        return ScenarioCard()  # the turn record reports it
    setup = {k: _area(s, v, f"$.game.setup.{k}", "A26.11", "setup")
             for k, v in _per_side(s, raw.get("setup", {}), "$.game.setup").items()}
    entry = {k: _area(s, v, f"$.game.entry.{k}", "A2.6", "entry")
             for k, v in _per_side(s, raw.get("entry", {}), "$.game.entry").items()}
    exits: dict[str, frozenset[Hex]] = {}
    victory: dict[str, SideVictory] = {}
    vraw = _per_side(s, raw.get("victory", {}), "$.game.victory")
    for side, body in vraw.items():
        p = f"$.game.victory.{side}"
        if not isinstance(body, Mapping):
            raise CardError(p, 'must be an object, e.g. {"conditions": [...], "immediate": false}')
        unknown = sorted(set(body) - set(_SIDE_VICTORY_FIELDS))
        if unknown:
            raise CardError(f"{p}.{unknown[0]}", f"unknown field (use {', '.join(_SIDE_VICTORY_FIELDS)})")
        conds_raw = body.get("conditions", [])
        if not isinstance(conds_raw, list):
            raise CardError(f"{p}.conditions", "must be a list")
        conds = tuple(_condition(s, side, c, f"{p}.conditions[{i}]", exits) for i, c in enumerate(conds_raw))
        avoid = body.get("avoid", not conds)
        immediate = body.get("immediate", False)
        for k, v in (("avoid", avoid), ("immediate", immediate)):
            if not isinstance(v, bool):
                raise CardError(f"{p}.{k}", "must be true or false")
        if avoid and conds:
            raise CardError(f"{p}.avoid", "a side with conditions of its own does not win by avoidance", "A26.3")
        text = body.get("text", "")
        if not isinstance(text, str):
            raise CardError(f"{p}.text", "must be text")
        victory[side] = SideVictory(side, conds, immediate, avoid, text)
    if vraw:
        for side in s.sides:
            victory.setdefault(side, SideVictory(side, avoid=True))
        if all(v.avoid for v in victory.values()):
            raise CardError("$.game.victory", "no side has conditions: nobody could win by avoiding them", "A26.3")
        for side, v in victory.items():
            for i, c in enumerate(v.conditions):
                if isinstance(c, VPCondition):
                    most = sum(_max_vp(s, o) for o in s.sides if o != side) * 2 if c.measure == "cvp" else _max_vp(s, side)
                    if c.at_least > most:
                        raise CardError(f"$.game.victory.{side}.conditions[{i}].{c.measure}.at_least",
                                        f"{c.at_least} VP cannot be reached: the units give at most {most}",
                                        "A26.23" if c.measure == "exit" else "A26.22")
    ssr = []
    sraw = raw.get("ssr", [])
    if not isinstance(sraw, list):
        raise CardError("$.game.ssr", 'must be a list of {"id": "1", "text": "...", "fields": [...]}')
    for i, r in enumerate(sraw):
        p = f"$.game.ssr[{i}]"
        if not isinstance(r, Mapping) or not isinstance(r.get("text"), str) or not r["text"].strip():
            raise CardError(p, 'must be {"id": "1", "text": "...", "fields": [...]} with its text', "SSR")
        fields = r.get("fields", [])
        if not isinstance(fields, list):
            raise CardError(f"{p}.fields", "must be a list of scenario fields", "SSR")
        for j, f in enumerate(fields):
            if not _ssr_field_ok(s, f):
                raise CardError(f"{p}.fields[{j}]", f"{str(f)[:40]!r} is not a scenario field an SSR sets (use "
                                f"{', '.join(SSR_FIELDS)} or $.sides.<side>.<{'|'.join(SSR_SIDE_FIELDS)}>)", "SSR")
        ssr.append(Ssr(str(r.get("id", i + 1)), r["text"], tuple(fields)))
    balance = {}
    for side, b in _per_side(s, raw.get("balance", {}), "$.game.balance").items():
        p = f"$.game.balance.{side}"
        if not isinstance(b, Mapping) or not isinstance(b.get("text"), str) or set(b) - {"text", "turns", "cvp"}:
            raise CardError(p, 'must be {"text": "...", "turns": 1, "cvp": 2} (turns and cvp optional)', "A26.4")
        turns = b.get("turns", 0)
        if isinstance(turns, bool) or not isinstance(turns, int) or abs(turns) > 5:
            raise CardError(f"{p}.turns", "must be a whole number from -5 to 5", "A26.4")
        balance[side] = Balance(side, b["text"], turns, _count(b.get("cvp", 0), f"{p}.cvp", "A26.4"))
    elr = {k: _rating(v, f"$.game.elr.{k}", ELR_RANGE, "A19.1") for k, v in _per_side(s, raw.get("elr", {}), "$.game.elr").items()}
    san = {k: _rating(v, f"$.game.san.{k}", SAN_RANGE, "A14.1") for k, v in _per_side(s, raw.get("san", {}), "$.game.san").items()}
    return ScenarioCard(_ro(setup), _ro(entry), _ro(exits), _ro(victory), tuple(ssr), _ro(balance), _ro(elr), _ro(san))


def _rating(v: Any, path: str, bounds: tuple[int, int], rule: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not bounds[0] <= v <= bounds[1]:
        raise CardError(path, f"must be a whole number from {bounds[0]} to {bounds[1]}, not {str(v)[:20]!r}", rule)
    return v


def _ssr_field_ok(s: Scenario, f: Any) -> bool:
    if not isinstance(f, str):
        return False
    if f in SSR_FIELDS:
        return True
    parts = f.split(".")
    return len(parts) == 4 and parts[:2] == ["$", "sides"] and parts[2] in s.sides and parts[3] in SSR_SIDE_FIELDS


def card_problems(s: Scenario) -> Sequence[CardError]:
    """The first problem of the card, if any (the parser stops at the first). (The card of A26, A26.4, A19, A14.)"""
    try:
        scenario_card(s)
    except CardError as e:
        return [e]
    return []


@scenario_check
def check_card(s: Scenario) -> Iterator[Finding]:
    """``gwasl validate``: a scenario card gwasl cannot play (A26; docs/format/aslgw.md)."""
    for e in card_problems(s):
        yield Finding(e.path, f"{e.message} ({e.rule}, docs/format/aslgw.md)", e.rule)
