"""Snapshots of a game's state as JSON (docs/architecture.md "Persistence": a long game opens fast).

:func:`encode` turns an immutable state built from frozen dataclasses, enums,
tuples, frozensets, mappings and JSON scalars (and dates) into JSON that says what each
value is, so :func:`decode` rebuilds an equal value of the same types (a
tuple stays a tuple, a read-only mapping stays read-only).  Given ``base``
(the game's state at set-up), a field whose value is the very object the
base holds at the same place is written as a reference to it: the map of a
16-board scenario, which play never changes, costs a few bytes, not a
megabyte.

A snapshot comes from a file and may be damaged or hostile: :func:`decode`
builds only classes of an allow-list (:func:`classes_in`), never imports
anything, and raises :class:`SnapshotError` (one line) for anything else.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import sys
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from gwasl.model.errors import GwaslError

__all__ = ["Deferred", "SnapshotError", "classes_in", "decode", "encode"]

_SAME = {"@=": 1}
_MAX_DEPTH = 200


class SnapshotError(GwaslError):
    """A value that cannot be written as a snapshot, or a snapshot that does not decode."""


class Deferred:
    """A stored snapshot read only when it is needed: a file keeps a few, and opening
    needs only the newest that holds.  ``load`` may raise SnapshotError or a ValueError from json (bad JSON)."""

    def __init__(self, load: Callable[[], Any]) -> None:
        self._load = load

    def load(self) -> Any:
        return self._load()


class _Retired:
    """A class the game no longer has, named by its module's ``SNAPSHOT_RETIRED_TYPES``:
    an old snapshot's values of it are read (so later references still line up) and dropped."""


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def classes_in(prefixes: Iterable[str]) -> dict[str, type]:
    """The dataclasses and enums of the already imported modules whose names start
    with one of ``prefixes``: what a snapshot of a game may be built from.

    A module may list classes it no longer has in ``SNAPSHOT_RETIRED_TYPES``, and a
    dataclass fields it no longer has in ``SNAPSHOT_RETIRED_FIELDS``: a snapshot written
    before they went still opens, their values read and dropped (they must no longer be
    state, e.g. the English log the fog rules used to keep)."""
    pre = tuple(prefixes)
    out: dict[str, type] = {}
    for mod_name, mod in list(sys.modules.items()):
        if mod is None or not mod_name.startswith(pre):
            continue
        for obj in list(vars(mod).values()):
            if isinstance(obj, type) and obj.__module__ == mod_name and (
                    dataclasses.is_dataclass(obj) or issubclass(obj, enum.Enum)):
                out[_name(obj)] = obj
        for retired in getattr(mod, "SNAPSHOT_RETIRED_TYPES", ()):
            out.setdefault(f"{mod_name}:{retired}", _Retired)
    return out


def encode(value: Any, base: Any = None) -> Any:
    """``value`` as self-describing JSON; parts identical to ``base``'s are references.

    ``{"types": [...], "value": ...}``: each class is named once in ``types`` and
    referred to by its place there (a map's thousand Locations name one class).
    A record or mapping met again (the same object: one side's belief of Control
    that is the truth's, the Locations keying both) is written ``{"@r": n}``, the
    n-th record or mapping finished before it, so it is written once and read
    back shared."""
    t = _Ctx({})
    out = _enc(value, base, 0, t)
    return {"types": list(t.names), "value": out}


class _Ctx:
    """An encoding's class table and the records and mappings written so far (by identity)."""

    def __init__(self, names: dict[str, int]) -> None:
        self.names = names
        self.seen: dict[int, int] = {}

    def inner(self) -> _Ctx:
        # inside a set, whose order of iteration is not its value's: no sharing there
        return _Ctx(self.names)

    def done(self, v: Any, out: Any) -> Any:
        self.seen[id(v)] = len(self.seen)
        return out


def _ref(t: _Ctx, cls: type) -> int:
    return t.names.setdefault(_name(cls), len(t.names))


def _pairs(m: Mapping[Any, Any], depth: int, t: _Ctx) -> list[list[Any]]:
    return [[_enc(k, None, depth, t), _enc(v, None, depth, t)] for k, v in m.items()]


def _enc(v: Any, base: Any, depth: int, t: _Ctx) -> Any:
    if depth > _MAX_DEPTH:
        raise SnapshotError("the state is nested too deeply for a snapshot")
    d = depth + 1
    if isinstance(v, enum.Enum):  # first: a StrEnum is a str too, and code tests members with ``is``
        return {"@e": _ref(t, type(v)), "v": _enc(v.value, None, d, t)}
    if v is None or type(v) in (bool, str):
        return v
    if isinstance(v, (int, float)):
        if type(v) not in (int, float):  # an int subclass would come back as a plain int
            raise SnapshotError(f"a {type(v).__name__} cannot be written in a snapshot")
        return v
    if isinstance(v, (dict, MappingProxyType)) or (dataclasses.is_dataclass(v) and not isinstance(v, type)):
        n = t.seen.get(id(v))
        if n is not None:
            return {"@r": n}
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        fields = {}
        same_class = base is not None and type(base) is type(v)
        for f in dataclasses.fields(v):
            if not f.init:
                continue  # derived in __post_init__
            x = getattr(v, f.name)
            b = getattr(base, f.name) if same_class else None
            if same_class and x is b and not isinstance(x, (bool, int, float, str, type(None))):
                fields[f.name] = _SAME
            else:
                fields[f.name] = _enc(x, b, d, t)
        return t.done(v, {"@c": _ref(t, type(v)), "v": fields})
    if type(v) is datetime.date:  # a scenario's date
        return {"@date": v.isoformat()}
    if isinstance(v, tuple):
        bt = base if isinstance(base, tuple) and len(base) == len(v) else None
        return {"@t": [_enc(x, bt[i] if bt is not None else None, d, t) for i, x in enumerate(v)]}
    if isinstance(v, list):
        return [_enc(x, None, d, t) for x in v]
    if isinstance(v, (frozenset, set)):
        inner = t.inner()
        items = sorted((_enc(x, None, d, inner) for x in v), key=repr)  # the same set gives the same text
        return {"@f" if isinstance(v, frozenset) else "@s": items}
    if isinstance(v, MappingProxyType):
        return t.done(v, {"@m": _pairs(v, d, t)})
    if isinstance(v, dict):
        return t.done(v, {"@d": _pairs(v, d, t)})
    raise SnapshotError(f"a {type(v).__name__} cannot be written in a snapshot")


def decode(obj: Any, classes: Mapping[str, type], base: Any = None, retired: dict[str, Any] | None = None) -> Any:
    """The value :func:`encode` wrote, built from ``classes`` only (and ``base`` for references).

    ``retired``, if given, receives the value of each field a class no longer has
    (``SNAPSHOT_RETIRED_FIELDS``) as ``"Class.field"``, for the game to migrate; a
    field written as unchanged from ``base`` is not given (the base has none)."""
    if not isinstance(obj, dict) or set(obj) != {"types", "value"} or not isinstance(obj["types"], list):
        raise SnapshotError("not a snapshot (an object with its types and value)")
    types_ = [_class(classes, n) for n in obj["types"]]
    try:
        return _dec(obj["value"], types_, base, 0, [], retired)
    except SnapshotError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as e:
        raise SnapshotError(f"the snapshot does not decode: {str(e).splitlines()[0][:120] if str(e) else type(e).__name__}") from None


def _dec(o: Any, classes: list[type], base: Any, depth: int, made: list[Any],
         retired: dict[str, Any] | None = None) -> Any:
    if depth > _MAX_DEPTH:
        raise SnapshotError("the snapshot is nested too deeply")
    d = depth + 1
    if o is None or isinstance(o, (bool, int, float, str)):
        return o
    if isinstance(o, list):
        return [_dec(x, classes, None, d, made, retired) for x in o]
    if not isinstance(o, dict) or len(o) not in (1, 2):
        raise SnapshotError("the snapshot holds a value of no known form")
    if "@r" in o and len(o) == 1:
        n = o["@r"]
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < len(made):
            raise SnapshotError(f"the snapshot refers to record {str(n)[:20]}, not written before it")
        return made[n]
    if "@c" in o:
        cls = _nth(classes, o["@c"])
        if cls is _Retired and isinstance(o.get("v"), dict):
            for x in o["v"].values():
                if x != _SAME:
                    _dec(x, classes, None, d, made)
            made.append(None)
            return None
        if not dataclasses.is_dataclass(cls) or not isinstance(o.get("v"), dict):
            raise SnapshotError(f"{str(o['@c'])[:60]} is not a record of this game")
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
        same_class = base is not None and type(base) is cls
        kw = {}
        for k, x in o["v"].items():
            if k not in fields and k in getattr(cls, "SNAPSHOT_RETIRED_FIELDS", ()):
                if x != _SAME:
                    old = _dec(x, classes, None, d, made, retired)
                    if retired is not None:
                        retired[f"{cls.__name__}.{k}"] = old
                continue
            if k not in fields:
                raise SnapshotError(f"{cls.__name__} has no field {str(k)[:40]!r}")
            b = getattr(base, k) if same_class else None
            if x == _SAME:
                if not same_class:
                    raise SnapshotError(f"the snapshot refers to the set-up state where it has no {cls.__name__}")
                kw[k] = b
            else:
                kw[k] = _dec(x, classes, b, d, made, retired)
        made.append(cls(**kw))
        return made[-1]
    if "@e" in o:
        cls = _nth(classes, o["@e"])
        if not issubclass(cls, enum.Enum):
            raise SnapshotError(f"{str(o['@e'])[:60]} is not an enumeration of this game")
        return cls(_dec(o.get("v"), classes, None, d, made, retired))
    if len(o) != 1:
        raise SnapshotError("the snapshot holds a value of no known form")
    (tag, items), = o.items()
    if tag == "@=":
        raise SnapshotError("a reference to the set-up state out of place")
    if tag == "@date" and isinstance(items, str):
        return datetime.date.fromisoformat(items)
    if not isinstance(items, list):
        raise SnapshotError(f"{str(tag)[:10]} needs a list")
    if tag == "@t":
        bt = base if isinstance(base, tuple) and len(base) == len(items) else None
        return tuple(_dec(x, classes, bt[i] if bt is not None else None, d, made, retired) for i, x in enumerate(items))
    if tag in ("@f", "@s"):
        vals = [_dec(x, classes, None, d, []) for x in items]  # no sharing inside a set
        return frozenset(vals) if tag == "@f" else set(vals)
    if tag in ("@m", "@d"):
        out = {}
        for pair in items:
            if not isinstance(pair, list) or len(pair) != 2:
                raise SnapshotError("a mapping entry must be a [key, value] pair")
            key = _dec(pair[0], classes, None, d, made, retired)  # the key first, as written (numbering)
            out[key] = _dec(pair[1], classes, None, d, made, retired)
        made.append(MappingProxyType(out) if tag == "@m" else out)
        return made[-1]
    raise SnapshotError(f"unknown snapshot tag {str(tag)[:10]!r}")


def _nth(types_: list[type], i: Any) -> type:
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(types_):
        raise SnapshotError(f"the snapshot names type {str(i)[:20]}, which its table lacks")
    return types_[i]


def _class(classes: Mapping[str, type], name: Any) -> type:
    cls = classes.get(name) if isinstance(name, str) else None
    if cls is None:
        raise SnapshotError(f"the snapshot names {str(name)[:60]!r}, not a type of this game")
    return cls
