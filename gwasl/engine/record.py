"""Typed, versioned, JSON-serialisable records: the events and actions of every game.

A record is a frozen dataclass with a ``kind`` and a ``version``.  Its fields
hold JSON-shaped values (str, int, float, bool, None, tuples, string-keyed
mappings, enums, other records), so a journal can store it as JSON and read
it back, from a file that may be damaged or hostile, into exactly the same
value.  Decoding checks every field against its declared type and raises
:class:`RecordError` naming the path of the first bad field.

>>> reg = Registry("demo")
>>> @reg.register
... @dataclass(frozen=True)
... class Moved(Record):
...     kind: ClassVar[str] = "moved"
...     unit: str
...     to: tuple[int, int]
>>> e = Moved("8a", (3, 4))
>>> e.to_json()
{'kind': 'moved', 'v': 1, 'unit': '8a', 'to': [3, 4]}
>>> reg.decode({"kind": "moved", "v": 1, "unit": "8a", "to": [3, 4]}) == e
True
>>> reg.decode({"kind": "moved", "v": 1, "unit": 8, "to": [3, 4]})
Traceback (most recent call last):
...
gwasl.engine.record.RecordError: moved.unit: expected a string, got int
"""

from __future__ import annotations

import dataclasses
import enum
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar, Union

from gwasl.model.errors import GwaslError

__all__ = ["Record", "RecordError", "Registry", "to_json_value"]


class RecordError(GwaslError):
    """A JSON object that is not a valid record (unknown kind, newer version, bad field)."""


@dataclass(frozen=True)
class Record:
    """Base of events and actions: ``kind`` names the record, ``version`` its layout."""

    kind: ClassVar[str] = ""
    version: ClassVar[int] = 1

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object: ``kind``, ``v`` and every field."""
        out: dict[str, Any] = {"kind": self.kind, "v": self.version}
        for f in dataclasses.fields(self):
            out[f.name] = to_json_value(getattr(self, f.name))
        return out


def to_json_value(value: Any) -> Any:
    """A field value as plain JSON (tuples become lists, enums their values)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RecordError(f"a record cannot hold the non-finite number {value}")
        return value
    if isinstance(value, Record):
        return value.to_json()
    if isinstance(value, (tuple, list)):
        return [to_json_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise RecordError(f"cannot store a {type(value).__name__} in a record")


R = TypeVar("R", bound=Record)

_NoneType = type(None)


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


class _Bad(GwaslError):
    """A field that does not fit its type: ``msg``, and the path below where it was caught."""

    def __init__(self, msg: str) -> None:
        super().__init__(msg)
        self.msg = msg
        self.where: list[str] = []  # path segments, innermost first

    def path(self, top: str) -> str:
        return top + "".join(reversed(self.where))


Conv = Callable[[Any], Any]


class _Decoder:
    """Converts JSON values to field types, checking as it goes.

    Each type gets one converter, built on first use and kept: decoding a long
    journal (a game file opening) then costs a few calls per field, and the path
    of a bad field is put together only when one is found.
    """

    def __init__(self) -> None:
        self._hints: dict[type, dict[str, Any]] = {}
        self._convs: dict[Any, Conv] = {}
        self._records: dict[tuple[type, tuple[str, ...]], Conv] = {}

    def hints(self, cls: type) -> dict[str, Any]:
        h = self._hints.get(cls)
        if h is None:
            h = typing.get_type_hints(cls)
            self._hints[cls] = h
        return h

    def convert(self, tp: Any, value: Any, path: str) -> Any:
        try:
            return self.conv(tp)(value)
        except _Bad as b:
            raise RecordError(f"{b.path(path)}: {b.msg}") from None

    def dataclass(self, cls: type, value: Any, path: str, skip: tuple[str, ...] = ()) -> Any:
        try:
            return self.record_conv(cls, skip)(value)
        except _Bad as b:
            raise RecordError(f"{b.path(path)}: {b.msg}") from None

    # -- building converters ---------------------------------------------------
    def conv(self, tp: Any) -> Conv:
        try:
            c = self._convs.get(tp)
        except TypeError:  # an unhashable annotation: build each time
            return self._build(tp)
        if c is None:
            c = self._build(tp)
            self._convs[tp] = c
        return c

    def record_conv(self, cls: type, skip: tuple[str, ...] = ()) -> Conv:
        key = (cls, skip)
        c = self._records.get(key)
        if c is None:
            cell: list[Conv] = []

            def lazy(value: Any) -> Any:  # built on first call: a record may nest its own kind
                if not cell:
                    cell.append(self._build_dataclass(cls, skip))
                return cell[0](value)

            c = lazy
            self._records[key] = c
        return c

    def _build(self, tp: Any) -> Conv:
        if tp is Any:
            return _freeze
        origin = typing.get_origin(tp)
        if origin is Union or origin is types.UnionType:
            args = typing.get_args(tp)
            nullable = _NoneType in args
            convs = [self.conv(a) for a in args if a is not _NoneType]

            def union(value: Any) -> Any:
                if value is None and nullable:
                    return None
                errors: list[_Bad] = []
                for c in convs:
                    try:
                        return c(value)
                    except _Bad as b:
                        errors.append(b)
                if len(errors) == 1:
                    raise errors[0]
                raise _Bad(f"{_type_name(value)} fits none of {tp}")

            return union
        if origin is typing.Literal:
            allowed = typing.get_args(tp)

            def literal(value: Any) -> Any:
                if value in allowed:
                    return value
                raise _Bad(f"{value!r} is not one of {list(allowed)}")

            return literal
        if origin in (tuple, list):
            args = typing.get_args(tp)
            if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
                convs = [self.conv(a) for a in args]

                def fixed(value: Any) -> Any:
                    if not isinstance(value, list):
                        raise _Bad(f"expected a list, got {_type_name(value)}")
                    if len(convs) != len(value):
                        raise _Bad(f"expected {len(convs)} items, got {len(value)}")
                    out = []
                    for i, (c, v) in enumerate(zip(convs, value, strict=True)):
                        try:
                            out.append(c(v))
                        except _Bad as b:
                            b.where.append(f"[{i}]")
                            raise
                    return tuple(out)

                return fixed
            item = self.conv(args[0] if args else Any)
            as_tuple = origin is tuple

            def seq(value: Any) -> Any:
                if not isinstance(value, list):
                    raise _Bad(f"expected a list, got {_type_name(value)}")
                out = []
                for i, v in enumerate(value):
                    try:
                        out.append(item(v))
                    except _Bad as b:
                        b.where.append(f"[{i}]")
                        raise
                return tuple(out) if as_tuple else out

            return seq
        if origin in (dict, Mapping, typing.Mapping) or tp in (dict, Mapping):
            args = typing.get_args(tp)
            vc = self.conv(args[1] if len(args) == 2 else Any)

            def mapping(value: Any) -> Any:
                if not isinstance(value, dict):
                    raise _Bad(f"expected an object, got {_type_name(value)}")
                out = {}
                for k, v in value.items():
                    try:
                        out[str(k)] = vc(v)
                    except _Bad as b:
                        b.where.append(f".{k}")
                        raise
                return MappingProxyType(out)

            return mapping
        if tp is _NoneType:
            def null(value: Any) -> Any:
                if value is None:
                    return None
                raise _Bad(f"expected null, got {_type_name(value)}")

            return null
        if isinstance(tp, type):
            if issubclass(tp, enum.Enum):
                def member(value: Any) -> Any:
                    try:
                        return tp(value)
                    except (ValueError, TypeError):
                        raise _Bad(f"{value!r} is not a {tp.__name__}") from None

                return member
            if tp is bool:
                return _bool
            if tp is int:
                return _int
            if tp is float:
                return _float
            if tp is str:
                return _str
            if dataclasses.is_dataclass(tp):
                if issubclass(tp, Record):
                    inner = self.record_conv(tp, ("kind", "v"))
                    kind = tp.kind

                    def nested(value: Any) -> Any:
                        # a nested record (a roll's modifiers) is written with its kind and version
                        if isinstance(value, dict) and value.get("kind", kind) != kind:
                            raise _Bad(f"expected a {kind} record, got {str(value.get('kind'))[:40]!r}")
                        return inner(value)

                    return nested
                return self.record_conv(tp)

        def unsupported(value: Any) -> Any:
            raise _Bad(f"unsupported field type {tp}")

        return unsupported

    def _build_dataclass(self, cls: type, skip: tuple[str, ...]) -> Conv:
        hints = self.hints(cls)
        fields = [(f.name, self.conv(hints[f.name]),
                   f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
                  for f in dataclasses.fields(cls)]
        allowed = frozenset(f[0] for f in fields) | frozenset(skip)

        def build(value: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad(f"expected an object, got {_type_name(value)}")
            kwargs = {}
            for name, c, required in fields:
                if name in value:
                    try:
                        kwargs[name] = c(value[name])
                    except _Bad as b:
                        b.where.append(f".{name}")
                        raise
                elif required:
                    raise _Bad(f"missing field {name!r}")
            if len(value) > len(kwargs) and not allowed.issuperset(value):
                extra = set(value) - allowed
                raise _Bad(f"unknown field {sorted(extra)[0]!r}")
            try:
                return cls(**kwargs)
            except (TypeError, ValueError) as e:
                raise _Bad(str(e)) from None

        return build


def _bool(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    raise _Bad(f"expected true or false, got {_type_name(value)}")


def _int(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _Bad(f"expected an integer, got {_type_name(value)}")


def _float(value: Any) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise _Bad(f"expected a finite number, got {_type_name(value)}")


def _str(value: Any) -> Any:
    if isinstance(value, str):
        return value
    raise _Bad(f"expected a string, got {_type_name(value)}")


def _freeze(value: Any) -> Any:
    """A JSON value checked (finite numbers, string keys) and made immutable."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        raise _Bad("non-finite number")
    if isinstance(value, list):
        out = []
        for i, v in enumerate(value):
            try:
                out.append(_freeze(v))
            except _Bad as b:
                b.where.append(f"[{i}]")
                raise
        return tuple(out)
    if isinstance(value, dict):
        d = {}
        for k, v in value.items():
            try:
                d[str(k)] = _freeze(v)
            except _Bad as b:
                b.where.append(f".{k}")
                raise
        return MappingProxyType(d)
    raise _Bad(f"{_type_name(value)} is not JSON")


_DECODER = _Decoder()


class Registry:
    """The records of one vocabulary (a game's events, or its actions), by kind.

    ``parents`` are registries whose kinds this one also decodes (every
    game's events include the engine's own, such as ``roll``).
    """

    def __init__(self, name: str, *parents: Registry) -> None:
        self.name = name
        self._kinds: dict[str, type[Record]] = {}
        for p in parents:
            self._kinds.update(p._kinds)

    def register(self, cls: type[R]) -> type[R]:
        """Class decorator: add ``cls`` under its ``kind`` (which must be new)."""
        if not cls.kind:
            raise TypeError(f"{cls.__name__} has no kind")
        if cls.kind in self._kinds and self._kinds[cls.kind] is not cls:
            raise TypeError(f"{self.name}: kind {cls.kind!r} registered twice")
        self._kinds[cls.kind] = cls
        return cls

    def kinds(self) -> dict[str, type[Record]]:
        return dict(self._kinds)

    def decode(self, obj: Any) -> Record:
        """The record a JSON object describes; :class:`RecordError` naming the bad part otherwise."""
        if not isinstance(obj, dict):
            raise RecordError(f"a {self.name} record must be an object, not {_type_name(obj)}")
        kind = obj.get("kind")
        cls = self._kinds.get(kind) if isinstance(kind, str) else None
        if cls is None or not isinstance(kind, str):
            raise RecordError(f"unknown {self.name} record kind {str(kind)[:40]!r}")
        v = obj.get("v", 1)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise RecordError(f"{kind}.v: expected a positive integer")
        if v > cls.version:
            raise RecordError(f"{kind} version {v} is newer than this gwasl understands ({cls.version})")
        if v < cls.version:
            upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = getattr(cls, "upgrade", None)
            if upgrade is None:
                raise RecordError(f"{kind} version {v} can no longer be read")
            obj = upgrade(dict(obj))
        rec: Record = _DECODER.dataclass(cls, obj, kind, skip=("kind", "v"))
        return rec
