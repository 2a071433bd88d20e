"""Reading and writing scenario files (CONTRACTS 2, docs/format/scenario-v1.schema.json).

The reader accepts exactly the files the schema accepts (a property test
checks it against ``jsonschema`` on mutated files) and turns them into the
value objects of :mod:`gwasl.model.scenario`.  Any problem becomes a
:class:`ScenarioFormatError` listing every issue with its JSON path; nothing
here ever lets a traceback reach the user.

Writing goes to a temporary file in the same folder which then replaces the
target, so a failed save never truncates the user's file.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.files import (
    MAX_FILE_BYTES,
    FileChangedError,
    FileError,
    FileIdentity,
    ReadOnlyFileError,
    atomic_target,
    read_regular_file,
)
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    FORMAT_ID,
    Dummy,
    DummyKind,
    Formation,
    FormationKind,
    Fortification,
    FortificationKind,
    Front,
    GasProtection,
    HexData,
    HiddenStatus,
    LeaderRating,
    MapData,
    Nationality,
    Position,
    Scenario,
    Side,
    Terrain,
    Unit,
    UnitClass,
    UnitKind,
    Weather,
)
from gwasl.model.text import QUOTE_LIMIT, escape_controls, quote, quote_list, shorten

__all__ = [
    "Finding",
    "ScenarioError",
    "ScenarioReadError",
    "ScenarioFormatError",
    "ScenarioWriteError",
    "ScenarioReadOnlyError",
    "ScenarioChangedError",
    "Saved",
    "escape_controls",
    "quote",
    "quote_list",
    "shorten",
    "load_scenario",
    "open_scenario",
    "parse_scenario",
    "scenario_from_text",
    "scenario_to_dict",
    "scenario_to_json",
    "save_scenario",
]


# Frozen dataclasses whose generated methods are compiled together and cached
# (FrozenBatch: what every command pays at start-up, issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found in a scenario: where (JSON path), what, and which rule.

    ``severity`` is ``"error"`` (the file is invalid) or ``"warning"``.
    """

    path: str
    message: str
    rule: str | None = None
    severity: str = "error"

    def as_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"path": self.path, "message": self.message}
        if self.rule:
            d["rule"] = self.rule
        return d

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule and self.rule not in self.message else ""
        return f"{self.path}: {self.message}{rule}"


class ScenarioError(GwaslError):
    """Base class of every scenario-file failure."""


class ScenarioReadError(ScenarioError):
    """The file could not be read or is not JSON text (missing, a folder, binary...)."""

    def __init__(self, source: str, message: str):
        super().__init__(f"{source}: {message}")
        self.source = source
        self.message = message


class ScenarioFormatError(ScenarioError):
    """The file is JSON but does not follow the scenario format; ``findings`` says where."""

    def __init__(self, source: str, findings: list[Finding]):
        self.source = source
        self.findings = list(findings)
        first = self.findings[0] if self.findings else Finding("$", "invalid")
        more = f" (and {len(self.findings) - 1} more)" if len(self.findings) > 1 else ""
        super().__init__(f"{source}: {first}{more}")


class ScenarioWriteError(ScenarioError):
    """Saving failed; the original file is untouched."""


class ScenarioReadOnlyError(ScenarioWriteError):
    """The file to save over is read-only; save again with ``allow_read_only`` if the user agrees."""


class ScenarioChangedError(ScenarioWriteError):
    """The file changed on disk since it was opened or saved; reload, overwrite (``expect=None``) or save elsewhere."""


@dataclass(frozen=True, slots=True)
class Saved:
    """What a save wrote: the file (a symlink's target), its new identity, and notes for the user."""

    path: Path
    identity: FileIdentity | None
    notes: tuple[str, ...] = ()


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and parse a scenario file.

    Raises :class:`ScenarioReadError` or :class:`ScenarioFormatError`, never
    anything else for bad input.  Only a regular file of at most
    :data:`~gwasl.model.files.MAX_FILE_BYTES` is read (issue 17.4).
    """
    return open_scenario(path)[0]


def open_scenario(path: str | os.PathLike[str]) -> tuple[Scenario, FileIdentity]:
    """:func:`load_scenario`, with the identity of the bytes read (a later save checks it)."""
    source = str(path)
    try:
        content = read_regular_file(path, MAX_FILE_BYTES)
    except FileError as e:
        raise ScenarioReadError(source, e.reason) from None
    return scenario_from_bytes(content.data, source), content.identity


def scenario_from_bytes(raw: bytes, source: str = "<scenario>") -> Scenario:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ScenarioReadError(source, f"is not UTF-8 text (bad byte at offset {e.start})") from None
    return scenario_from_text(text, source)


class _Overflow(float):
    """A number literal too large for a float (1e400): infinity, remembering how it was written."""

    text: str


def _parse_float(literal: str) -> float:
    v = float(literal)
    if math.isfinite(v):
        return v
    o = _Overflow(v)
    o.text = literal
    return o


def scenario_from_text(text: str, source: str = "<scenario>") -> Scenario:
    if not text.strip():
        raise ScenarioReadError(source, "is empty")
    if "\x00" in text:
        raise ScenarioReadError(source, "contains NUL bytes; it is not a JSON text file")
    # Duplicate keys (issue 17.10): json keeps the last silently; we note each
    # object that had some, by identity, and name its path after the walk.
    dups: dict[int, tuple[dict[str, Any], list[str]]] = {}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for k, v in items:
            if k in d:
                dups.setdefault(id(d), (d, []))[1].append(k)
            d[k] = v
        return d

    try:
        doc = json.loads(text, parse_constant=_reject_constant, parse_float=_parse_float, object_pairs_hook=pairs)
    except json.JSONDecodeError as e:
        raise ScenarioReadError(source, f"is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise ScenarioReadError(source, "is nested too deeply to be a scenario") from None
    except ValueError as e:  # NaN/Infinity, huge integer literals
        raise ScenarioReadError(source, f"is not valid JSON ({e})") from None
    return _parse_checked(doc, source, {k: v[1] for k, v in dups.items()})


class NotAJsonNumberError(GwaslError):
    """NaN or Infinity where JSON allows only finite numbers (read back as ScenarioReadError)."""


def _reject_constant(name: str) -> Any:
    """json's hook for NaN and Infinity: raises :class:`NotAJsonNumberError`."""
    raise NotAJsonNumberError(f"{name} is not a JSON number")


T = TypeVar("T")


class _Reader:
    """Walks the JSON document, converting values and collecting findings by path."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self._hexes: dict[str, Hex] = {}

    def error(self, path: str, message: str) -> None:
        self.findings.append(Finding(path, message))

    # Primitive checks.  JSON Schema's "integer" admits 1.0, so we do too.
    def integer(self, v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int | None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.error(path, f"must be a whole number, not {_describe(v)}")
            return None
        if isinstance(v, float):
            if not math.isfinite(v) or not v.is_integer():
                self.error(path, f"must be a whole number, not {quote(v)}")
                return None
            v = int(v)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self.error(path, f"must be between {lo} and {hi}, not {quote(v)}")
            return None
        return v

    def boolean(self, v: Any, path: str) -> bool | None:
        if not isinstance(v, bool):
            self.error(path, f"must be true or false, not {_describe(v)}")
            return None
        return v

    def string(self, v: Any, path: str, min_length: int = 0) -> str | None:
        if not isinstance(v, str):
            self.error(path, f"must be text, not {_describe(v)}")
            return None
        if len(v) < min_length:
            self.error(path, "must not be empty")
            return None
        return v

    def enum(self, v: Any, path: str, cls: Callable[[str], T]) -> T | None:
        if isinstance(v, str):
            try:
                return cls(v)
            except ValueError:
                pass
        allowed = ", ".join(repr(m.value) for m in cls)  # type: ignore[attr-defined]
        self.error(path, f"must be one of {allowed}, not {_describe(v)}")
        return None

    def hexlabel(self, v: Any, path: str) -> Hex | None:
        if isinstance(v, str) and (h := self._hexes.get(v)) is not None:
            return h  # labels repeat (fortification lists): parsed once each
        if not isinstance(v, str) or not _HEXLABEL_RE.fullmatch(v):
            self.error(path, f"must be a hex label such as 'K10' (column letters A-Z, row number from 1), not {_describe(v)}")
            return None
        h = self._hexes[v] = Hex.from_label(v)
        return h

    def obj(self, v: Any, path: str) -> dict[str, Any] | None:
        if not isinstance(v, dict):
            self.error(path, f"must be an object, not {_describe(v)}")
            return None
        return v

    def array(self, v: Any, path: str) -> list[Any] | None:
        if not isinstance(v, list):
            self.error(path, f"must be a list, not {_describe(v)}")
            return None
        return v

    def required(self, d: dict[str, Any], path: str, keys: tuple[str, ...]) -> bool:
        ok = True
        for k in keys:
            if k not in d:
                self.error(path, f"is missing the required field {k!r}")
                ok = False
        return ok


_HEXLABEL_RE = re.compile(r"^[A-Z]{1,3}[1-9][0-9]{0,2}$")
_RATING_RE = re.compile(r"^(10|[5-9])([+-][0-3]|-0)$")


def _describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return f"the number {quote(v)}"
    if isinstance(v, str):
        return f"the text {quote(v)}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _extra(d: Mapping[str, Any], known: tuple[str, ...]) -> Mapping[str, Any]:
    return MappingProxyType({k: v for k, v in d.items() if k not in known})


def _key(path: str, k: str) -> str:
    """The path of key ``k`` under ``path``; a long key is cut, with its length (issue 17.3)."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k) and len(k) <= QUOTE_LIMIT:
        return f"{path}.{k}"
    if len(k) <= QUOTE_LIMIT:
        return f"{path}[{json.dumps(k)}]"
    return f"{path}[{json.dumps(k[:QUOTE_LIMIT])[:-1]}...\" ({len(k):,} characters)]"


_TOP_KEYS = ("format", "id", "title", "date", "front", "weather", "winter", "night", "map", "sides", "units", "formations", "dummies")
_MAP_KEYS = ("columns", "rows", "default_terrain", "hexes", "fortifications")
_HEX_KEYS = ("terrain", "level", "building")
_FORT_KEYS = ("kind", "hexes", "owner", "ladders")
_SIDE_KEYS = ("nationality", "gas_protection", "hand_grenades")
_UNIT_KEYS = ("id", "side", "kind", "class", "rating", "weapon", "hex", "in", "platoon", "broken", "trench_armour", "hidden")
_FORMATION_KEYS = ("id", "kind", "leader")
_DUMMY_KEYS = ("side", "kind", "hex", "counters")


def parse_scenario(doc: Any, source: str = "<scenario>") -> Scenario:
    """Turn a decoded JSON document into a :class:`Scenario`.

    Raises :class:`ScenarioFormatError` with every finding when ``doc`` is
    not valid under docs/format/scenario-v1.schema.json, or holds a value that could
    not be written back (a non-finite number, a lone surrogate).
    """
    return _parse_checked(doc, source, {})


#: At most this many findings about unwritable values are listed (a hostile file can hold millions).
MAX_VALUE_FINDINGS = 50


def unwritable_values(doc: Any, dups: Mapping[int, list[str]] | None = None) -> list[Finding]:
    r"""Values of ``doc`` that JSON cannot carry back exactly, each with its path (issue 17.10, 18.4).

    Non-finite numbers (``1e400`` reads as infinity, which JSON cannot write),
    lone surrogates (no UTF-8 encoding) and, from :func:`scenario_from_text`,
    keys given twice in one object (all but the last would be lost).

    >>> for f in unwritable_values({"a": [1, float("inf")], "b\ud800": "x"}):
    ...     print(f)
    $.a[1]: is the number inf, which has no JSON form (too large or not a number)
    $["b\ud800"]: the key has a lone surrogate \ud800, which is not a character
    """
    dups = dups or {}
    out: list[Finding] = []
    more = 0
    # Iterative walk; a path is built only for a finding (node, parent link, key).
    stack: list[tuple[Any, Any]] = [(doc, None)]

    def path_of(link: Any) -> str:
        parts: list[Any] = []
        while link is not None:
            link, k = link
            parts.append(k)
        p = "$"
        for k in reversed(parts):
            p = f"{p}[{k}]" if isinstance(k, int) else _key(p, k)
        return p

    def add(link: Any, message: str) -> None:
        nonlocal more
        if len(out) < MAX_VALUE_FINDINGS:
            out.append(Finding(path_of(link), message))
        else:
            more += 1

    while stack:
        v, link = stack.pop()
        if link is not None and isinstance(link[1], str) and _SURROGATE_RE.search(link[1]):
            add(link, f"the key has a lone surrogate {_first_surrogate(link[1])}, which is not a character")
        if isinstance(v, dict):
            for k in dups.get(id(v), ()):
                add(link, f"gives the key {quote(k)} more than once; each key may appear once in an object")
            stack.extend((x, (link, k)) for k, x in reversed(v.items()))
        elif isinstance(v, list):
            stack.extend((x, (link, i)) for i, x in reversed(list(enumerate(v))))
        elif isinstance(v, float):
            if not math.isfinite(v):
                written = getattr(v, "text", None) or repr(v)
                add(link, f"is the number {shorten(written)}, which has no JSON form (too large or not a number)")
        elif isinstance(v, str) and _SURROGATE_RE.search(v):
            add(link, f"has a lone surrogate {_first_surrogate(v)}, which is not a character")
    if more:
        out.append(Finding("$", f"and {more:,} more values that cannot be written back"))
    return out


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _first_surrogate(text: str) -> str:
    m = _SURROGATE_RE.search(text)
    return escape_controls(m.group()) if m else ""


def _parse_checked(doc: Any, source: str, dups: Mapping[int, list[str]]) -> Scenario:
    bad = unwritable_values(doc, dups)
    rd = _Reader()
    try:
        scenario = _parse(rd, doc)
    except RecursionError:
        raise ScenarioFormatError(source, [Finding("$", "is nested too deeply to be a scenario")]) from None
    if bad or rd.findings or scenario is None:
        seen = {f.path for f in bad}  # 1e400 in a known field: one finding, not two
        findings = bad + [f for f in rd.findings if f.path not in seen]
        raise ScenarioFormatError(source, findings or [Finding("$", "is not a scenario")])
    return scenario


def _parse(rd: _Reader, doc: Any) -> Scenario | None:
    d = rd.obj(doc, "$")
    if d is None:
        return None
    rd.required(d, "$", ("format", "title", "date", "map", "sides", "units"))
    if "format" in d and d["format"] != FORMAT_ID:
        fmt = d["format"]
        if isinstance(fmt, str) and fmt.startswith("gwasl-scenario/"):
            rd.error("$.format", f"is {quote(fmt)}, a format this version of gwasl does not know (it reads {FORMAT_ID!r}); use a newer gwasl")
        else:
            rd.error("$.format", f"must be {FORMAT_ID!r}, not {_describe(fmt)}")
    sid = rd.string(d["id"], "$.id") if "id" in d else None
    title = rd.string(d["title"], "$.title", min_length=1) if "title" in d else None
    date = None
    if "date" in d:
        ds = rd.string(d["date"], "$.date")
        if ds is not None:
            date = _parse_date(rd, ds)
    front = rd.enum(d["front"], "$.front", Front) if "front" in d else Front.WESTERN
    weather = rd.enum(d["weather"], "$.weather", Weather) if "weather" in d else Weather.CLEAR
    winter = rd.boolean(d["winter"], "$.winter") if "winter" in d else False
    night = rd.boolean(d["night"], "$.night") if "night" in d else False
    map_data = _parse_map(rd, d["map"]) if "map" in d else None
    sides = _parse_sides(rd, d["sides"]) if "sides" in d else None
    units = _parse_list(rd, d["units"], "$.units", _parse_unit) if "units" in d else None
    formations = _parse_list(rd, d["formations"], "$.formations", _parse_formation) if "formations" in d else ()
    dummies = _parse_list(rd, d["dummies"], "$.dummies", _parse_dummy) if "dummies" in d else ()
    if rd.findings:
        return None
    assert title is not None and date is not None and map_data is not None and sides is not None and units is not None
    return Scenario(
        title=title,
        date=date,
        map=map_data,
        sides=sides,
        units=tuple(units),
        formations=tuple(formations or ()),
        dummies=tuple(dummies or ()),
        id=sid,
        front=front or Front.WESTERN,
        weather=weather or Weather.CLEAR,
        winter=bool(winter),
        night=bool(night),
        extra=_extra(d, _TOP_KEYS),
    )


_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)


def _parse_date(rd: _Reader, s: str) -> _dt.date | None:
    if _DATE_RE.fullmatch(s):
        try:
            return _dt.date.fromisoformat(s)
        except ValueError:
            pass
    rd.error("$.date", f"must be a calendar date written YYYY-MM-DD, e.g. '1916-02-21', not {quote(s)}")
    return None


def _parse_list(rd: _Reader, v: Any, path: str, item: Callable[[_Reader, Any, str], T | None]) -> list[T] | None:
    arr = rd.array(v, path)
    if arr is None:
        return None
    out = []
    for i, x in enumerate(arr):
        r = item(rd, x, f"{path}[{i}]")
        if r is not None:
            out.append(r)
    return out


def _parse_map(rd: _Reader, v: Any) -> MapData | None:
    path = "$.map"
    d = rd.obj(v, path)
    if d is None:
        return None
    rd.required(d, path, ("columns", "rows"))
    columns = rd.integer(d["columns"], f"{path}.columns", 1, 208) if "columns" in d else None
    rows = rd.integer(d["rows"], f"{path}.rows", 1, 200) if "rows" in d else None
    default = rd.enum(d["default_terrain"], f"{path}.default_terrain", Terrain) if "default_terrain" in d else Terrain.OPEN
    hexes: dict[Hex, HexData] = {}
    if "hexes" in d:
        hd = rd.obj(d["hexes"], f"{path}.hexes")
        for label, hv in (hd or {}).items():
            hp = _key(f"{path}.hexes", label)
            if not _HEXLABEL_RE.fullmatch(label):
                rd.error(hp, f"{quote(label)} is not a hex label such as 'K10'")
                continue
            ho = rd.obj(hv, hp)
            if ho is None:
                continue
            terrain = rd.enum(ho["terrain"], f"{hp}.terrain", Terrain) if "terrain" in ho else None
            level = rd.integer(ho["level"], f"{hp}.level", -1, 10) if "level" in ho else 0
            building = rd.string(ho["building"], f"{hp}.building") if "building" in ho else None
            hexes[Hex.from_label(label)] = HexData(terrain, level if level is not None else 0, building, _extra(ho, _HEX_KEYS))
    forts = _parse_list(rd, d["fortifications"], f"{path}.fortifications", _parse_fortification) if "fortifications" in d else []
    if columns is None or rows is None or default is None:
        return None
    return MapData(columns, rows, default, MappingProxyType(hexes), tuple(forts or ()), _extra(d, _MAP_KEYS))


def _parse_hex_list(rd: _Reader, v: Any, path: str, min_items: int) -> tuple[Hex, ...]:
    arr = rd.array(v, path)
    if arr is None:
        return ()
    if len(arr) < min_items:
        rd.error(path, "must list at least one hex")
    # A hex listed again is the same hex: merged here, in the order first listed, so
    # nothing downstream pays for repeats (issue 17.6; docs/format/files.md).
    return tuple(dict.fromkeys(h for i, x in enumerate(arr) if (h := rd.hexlabel(x, f"{path}[{i}]")) is not None))


def _parse_fortification(rd: _Reader, v: Any, path: str) -> Fortification | None:
    d = rd.obj(v, path)
    if d is None:
        return None
    rd.required(d, path, ("kind", "hexes"))
    kind = rd.enum(d["kind"], f"{path}.kind", FortificationKind) if "kind" in d else None
    hexes = _parse_hex_list(rd, d["hexes"], f"{path}.hexes", 1) if "hexes" in d else ()
    owner = rd.string(d["owner"], f"{path}.owner") if "owner" in d else None
    ladders = _parse_hex_list(rd, d["ladders"], f"{path}.ladders", 0) if "ladders" in d else ()
    if kind is None:
        return None
    return Fortification(kind, hexes, owner, ladders, _extra(d, _FORT_KEYS))


def _parse_sides(rd: _Reader, v: Any) -> Mapping[str, Side] | None:
    path = "$.sides"
    d = rd.obj(v, path)
    if d is None:
        return None
    if len(d) < 2:
        rd.error(path, f"must name at least two sides, not {len(d)}")
    out: dict[str, Side] = {}
    for sid, sv in d.items():
        sp = _key(path, sid)
        so = rd.obj(sv, sp)
        if so is None:
            continue
        rd.required(so, sp, ("nationality",))
        nat = rd.enum(so["nationality"], f"{sp}.nationality", Nationality) if "nationality" in so else None
        gas = rd.enum(so["gas_protection"], f"{sp}.gas_protection", GasProtection) if "gas_protection" in so else None
        hg = rd.boolean(so["hand_grenades"], f"{sp}.hand_grenades") if "hand_grenades" in so else None
        if nat is not None:
            out[sid] = Side(sid, nat, gas, hg, _extra(so, _SIDE_KEYS))
    return MappingProxyType(out)


def _parse_unit(rd: _Reader, v: Any, path: str) -> Unit | None:
    d = rd.obj(v, path)
    if d is None:
        return None
    rd.required(d, path, ("id", "side", "kind", "hex"))
    uid = rd.string(d["id"], f"{path}.id", min_length=1) if "id" in d else None
    side = rd.string(d["side"], f"{path}.side") if "side" in d else None
    kind = rd.enum(d["kind"], f"{path}.kind", UnitKind) if "kind" in d else None
    hx = rd.hexlabel(d["hex"], f"{path}.hex") if "hex" in d else None
    ucls = rd.enum(d["class"], f"{path}.class", UnitClass) if "class" in d else None
    rating = None
    if "rating" in d:
        rs = rd.string(d["rating"], f"{path}.rating")
        if rs is not None:
            if _RATING_RE.fullmatch(rs):
                rating = LeaderRating.parse(rs)
            else:
                rd.error(f"{path}.rating", f"{quote(rs)} is not a leader rating: morale 5-10 then a modifier -3..+3, e.g. '8-1', '9-0', '6+1'")
    weapon = rd.string(d["weapon"], f"{path}.weapon") if "weapon" in d else None
    pos = rd.enum(d["in"], f"{path}.in", Position) if "in" in d else Position.GROUND
    platoon = rd.string(d["platoon"], f"{path}.platoon") if "platoon" in d else None
    broken = rd.boolean(d["broken"], f"{path}.broken") if "broken" in d else False
    armour = rd.boolean(d["trench_armour"], f"{path}.trench_armour") if "trench_armour" in d else False
    hidden = rd.enum(d["hidden"], f"{path}.hidden", HiddenStatus) if "hidden" in d else HiddenStatus.NONE
    if uid is None or side is None or kind is None or hx is None:
        return None
    return Unit(
        id=uid, side=side, kind=kind, hex=hx, unit_class=ucls, rating=rating, weapon=weapon,
        position=pos or Position.GROUND, platoon=platoon, broken=bool(broken), trench_armour=bool(armour),
        hidden=hidden or HiddenStatus.NONE, extra=_extra(d, _UNIT_KEYS),
    )


def _parse_formation(rd: _Reader, v: Any, path: str) -> Formation | None:
    d = rd.obj(v, path)
    if d is None:
        return None
    rd.required(d, path, ("id", "kind"))
    fid = rd.string(d["id"], f"{path}.id") if "id" in d else None
    kind = rd.enum(d["kind"], f"{path}.kind", FormationKind) if "kind" in d else None
    leader = rd.string(d["leader"], f"{path}.leader") if "leader" in d else None
    if fid is None or kind is None:
        return None
    return Formation(fid, kind, leader, _extra(d, _FORMATION_KEYS))


def _parse_dummy(rd: _Reader, v: Any, path: str) -> Dummy | None:
    d = rd.obj(v, path)
    if d is None:
        return None
    rd.required(d, path, ("side", "kind", "hex"))
    side = rd.string(d["side"], f"{path}.side") if "side" in d else None
    kind = rd.enum(d["kind"], f"{path}.kind", DummyKind) if "kind" in d else None
    hx = rd.hexlabel(d["hex"], f"{path}.hex") if "hex" in d else None
    counters = rd.integer(d["counters"], f"{path}.counters", 1, None) if "counters" in d else None
    if side is None or kind is None or hx is None:
        return None
    return Dummy(side, kind, hx, counters, _extra(d, _DUMMY_KEYS))


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------
def _add_extra(out: dict[str, Any], extra: Mapping[str, Any], known: tuple[str, ...], what: str) -> None:
    """Fields gwasl does not know, written back as read; one named like a known field
    would change the value on reading back, so it is refused (issue 18.4)."""
    for k, v in extra.items():
        if k in known:
            raise ScenarioWriteError(f"{what}: the extra field {quote(k)} has the name of one of the format's own fields")
        out[k] = v


def scenario_to_dict(s: Scenario) -> dict[str, Any]:
    """The JSON form of a scenario; valid under docs/format/scenario-v1.schema.json."""
    out: dict[str, Any] = {"format": FORMAT_ID}
    if s.id is not None:
        out["id"] = s.id
    out["title"] = s.title
    out["date"] = s.date.isoformat()
    out["front"] = s.front.value
    out["weather"] = s.weather.value
    out["winter"] = s.winter
    out["night"] = s.night
    out["map"] = _map_to_dict(s.map)
    out["sides"] = {sid: _side_to_dict(side) for sid, side in s.sides.items()}
    if s.formations:
        out["formations"] = [_formation_to_dict(f) for f in s.formations]
    out["units"] = [_unit_to_dict(u) for u in s.units]
    if s.dummies:
        out["dummies"] = [_dummy_to_dict(x) for x in s.dummies]
    _add_extra(out, s.extra, _TOP_KEYS, "the scenario")
    return out


def _map_to_dict(m: MapData) -> dict[str, Any]:
    out: dict[str, Any] = {"columns": m.columns, "rows": m.rows}
    if m.default_terrain is not Terrain.OPEN:
        out["default_terrain"] = m.default_terrain.value
    if m.hexes:
        hexes = {}
        for h in sorted(m.hexes, key=lambda h: (h.column, h.row)):
            hd = m.hexes[h]
            e: dict[str, Any] = {}
            if hd.terrain is not None:
                e["terrain"] = hd.terrain.value
            if hd.level != 0:
                e["level"] = hd.level
            if hd.building is not None:
                e["building"] = hd.building
            _add_extra(e, hd.extra, _HEX_KEYS, f"hex {h.label}")
            hexes[h.label] = e
        out["hexes"] = hexes
    if m.fortifications:
        out["fortifications"] = [_fort_to_dict(f) for f in m.fortifications]
    _add_extra(out, m.extra, _MAP_KEYS, "the map")
    return out


def _fort_to_dict(f: Fortification) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": f.kind.value, "hexes": [h.label for h in f.hexes]}
    if f.owner is not None:
        out["owner"] = f.owner
    if f.ladders:
        out["ladders"] = [h.label for h in f.ladders]
    _add_extra(out, f.extra, _FORT_KEYS, f"a {f.kind.value}")
    return out


def _side_to_dict(s: Side) -> dict[str, Any]:
    out: dict[str, Any] = {"nationality": s.nationality.value}
    if s.gas_protection is not None:
        out["gas_protection"] = s.gas_protection.value
    if s.hand_grenades is not None:
        out["hand_grenades"] = s.hand_grenades
    _add_extra(out, s.extra, _SIDE_KEYS, f"side {quote(s.id)}")
    return out


def _unit_to_dict(u: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {"id": u.id, "side": u.side, "kind": u.kind.value}
    if u.unit_class is not None:
        out["class"] = u.unit_class.value
    if u.rating is not None:
        out["rating"] = str(u.rating)
    if u.weapon is not None:
        out["weapon"] = u.weapon
    out["hex"] = u.hex.label
    if u.position is not Position.GROUND:
        out["in"] = u.position.value
    if u.platoon is not None:
        out["platoon"] = u.platoon
    if u.broken:
        out["broken"] = True
    if u.trench_armour:
        out["trench_armour"] = True
    if u.hidden is not HiddenStatus.NONE:
        out["hidden"] = u.hidden.value
    _add_extra(out, u.extra, _UNIT_KEYS, f"unit {quote(u.id)}")
    return out


def _formation_to_dict(f: Formation) -> dict[str, Any]:
    out: dict[str, Any] = {"id": f.id, "kind": f.kind.value}
    if f.leader is not None:
        out["leader"] = f.leader
    _add_extra(out, f.extra, _FORMATION_KEYS, f"formation {quote(f.id)}")
    return out


def _dummy_to_dict(x: Dummy) -> dict[str, Any]:
    out: dict[str, Any] = {"side": x.side, "kind": x.kind.value, "hex": x.hex.label}
    if x.counters is not None:
        out["counters"] = x.counters
    _add_extra(out, x.extra, _DUMMY_KEYS, "a dummy")
    return out


def scenario_to_json(s: Scenario) -> str:
    """The file text of ``s``.  Raises :class:`ScenarioWriteError` naming the path of a
    value JSON cannot write back exactly (a non-finite number, a lone surrogate)."""
    doc = scenario_to_dict(s)
    bad = unwritable_values(doc)
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise ScenarioWriteError(f"cannot be written: {bad[0]}{more}")
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def save_scenario(
    s: Scenario,
    path: str | os.PathLike[str],
    *,
    expect: FileIdentity | None = None,
    allow_read_only: bool = False,
) -> Saved:
    """Write ``s`` to ``path`` so that the user's file is never lost or left unopenable.

    The text goes to a temporary file beside the target (a symlink's target)
    which is read back and parsed, and replaces the file only if it gives
    ``s`` again exactly (issue 18.4).  With ``expect`` (the identity of the
    file when it was opened or last saved), a file changed on disk since is
    not replaced: :class:`ScenarioChangedError` (issue 18.3).  A read-only
    file is not replaced unless ``allow_read_only``: :class:`ScenarioReadOnlyError`
    (issue 18.2).  If anything fails the old file is left exactly as it was
    and a :class:`ScenarioWriteError` says why.  See :class:`~gwasl.model.files.atomic_target`
    for modes, stale temporary files and hard links.
    """
    target = Path(path)
    try:
        text = scenario_to_json(s)
    except ScenarioWriteError as e:
        raise ScenarioWriteError(f"{target}: {e}; the existing file is unchanged") from None
    data = text.encode("utf-8")

    def verify(tmp: Path) -> None:
        try:
            again = scenario_from_bytes(read_regular_file(tmp).data, str(target))
        except (ScenarioError, FileError) as e:
            raise ScenarioWriteError(f"{target}: the saved text would not open again ({e}); the existing file is unchanged") from None
        if scenario_to_json(again) != text:
            raise ScenarioWriteError(f"{target}: the saved text does not read back as this scenario; the existing file is unchanged")

    w = atomic_target(target, expect=expect, allow_read_only=allow_read_only, verify=verify)
    try:
        with w as tmp, open(tmp, "wb") as fh:
            fh.write(data)
    except ReadOnlyFileError:
        raise ScenarioReadOnlyError(f"{target}: the file is read-only; it was not replaced") from None
    except FileChangedError:
        raise ScenarioChangedError(f"{target}: the file was changed on disk since it was opened or last saved; it was not replaced") from None
    except FileError as e:
        raise ScenarioWriteError(f"{target}: could not save: {e.reason}") from None
    except OSError as e:
        raise ScenarioWriteError(f"{target}: could not save ({e.strerror or e}); the existing file is unchanged") from None
    assert w.written is not None
    return Saved(w.written, w.identity, tuple(w.notes))


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
