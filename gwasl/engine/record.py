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

__all__ = ["Record", "RecordError", "Registry", "to_json_value"]


class RecordError(ValueError):
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


class _Decoder:
    """Converts JSON values to field types, checking as it goes (cached per class)."""

    def __init__(self) -> None:
        self._hints: dict[type, dict[str, Any]] = {}

    def hints(self, cls: type) -> dict[str, Any]:
        h = self._hints.get(cls)
        if h is None:
            h = typing.get_type_hints(cls)
            self._hints[cls] = h
        return h

    def convert(self, tp: Any, value: Any, path: str) -> Any:
        if tp is Any:
            return _freeze_json(value, path)
        origin = typing.get_origin(tp)
        if origin is Union or origin is types.UnionType:
            args = typing.get_args(tp)
            if value is None and _NoneType in args:
                return None
            errors = []
            for a in args:
                if a is _NoneType:
                    continue
                try:
                    return self.convert(a, value, path)
                except RecordError as e:
                    errors.append(str(e))
            raise RecordError(errors[0] if len(errors) == 1 else f"{path}: {_type_name(value)} fits none of {tp}")
        if origin is typing.Literal:
            if value in typing.get_args(tp):
                return value
            raise RecordError(f"{path}: {value!r} is not one of {list(typing.get_args(tp))}")
        if origin in (tuple, list):
            if not isinstance(value, list):
                raise RecordError(f"{path}: expected a list, got {_type_name(value)}")
            args = typing.get_args(tp)
            if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
                if len(args) != len(value):
                    raise RecordError(f"{path}: expected {len(args)} items, got {len(value)}")
                return tuple(self.convert(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, value, strict=True)))
            item = args[0] if args else Any
            items = [self.convert(item, v, f"{path}[{i}]") for i, v in enumerate(value)]
            return tuple(items) if origin is tuple else items
        if origin in (dict, Mapping, typing.Mapping) or tp in (dict, Mapping):
            if not isinstance(value, dict):
                raise RecordError(f"{path}: expected an object, got {_type_name(value)}")
            args = typing.get_args(tp)
            vt = args[1] if len(args) == 2 else Any
            return MappingProxyType({str(k): self.convert(vt, v, f"{path}.{k}") for k, v in value.items()})
        if tp is _NoneType:
            if value is None:
                return None
            raise RecordError(f"{path}: expected null, got {_type_name(value)}")
        if isinstance(tp, type):
            if issubclass(tp, enum.Enum):
                try:
                    return tp(value)
                except (ValueError, TypeError):
                    raise RecordError(f"{path}: {value!r} is not a {tp.__name__}") from None
            if tp is bool:
                if isinstance(value, bool):
                    return value
                raise RecordError(f"{path}: expected true or false, got {_type_name(value)}")
            if tp is int:
                if isinstance(value, int) and not isinstance(value, bool):
                    return value
                raise RecordError(f"{path}: expected an integer, got {_type_name(value)}")
            if tp is float:
                if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                    return float(value)
                raise RecordError(f"{path}: expected a finite number, got {_type_name(value)}")
            if tp is str:
                if isinstance(value, str):
                    return value
                raise RecordError(f"{path}: expected a string, got {_type_name(value)}")
            if dataclasses.is_dataclass(tp):
                if issubclass(tp, Record):
                    # a nested record (a roll's modifiers) is written with its kind and version
                    if isinstance(value, dict) and value.get("kind", tp.kind) != tp.kind:
                        raise RecordError(f"{path}: expected a {tp.kind} record, got {str(value.get('kind'))[:40]!r}")
                    return self.dataclass(tp, value, path, skip=("kind", "v"))
                return self.dataclass(tp, value, path)
        raise RecordError(f"{path}: unsupported field type {tp}")

    def dataclass(self, cls: type, value: Any, path: str, skip: tuple[str, ...] = ()) -> Any:
        if not isinstance(value, dict):
            raise RecordError(f"{path}: expected an object, got {_type_name(value)}")
        hints = self.hints(cls)
        kwargs = {}
        names = set()
        for f in dataclasses.fields(cls):
            names.add(f.name)
            if f.name in value:
                kwargs[f.name] = self.convert(hints[f.name], value[f.name], f"{path}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise RecordError(f"{path}: missing field {f.name!r}")
        extra = set(value) - names - set(skip)
        if extra:
            raise RecordError(f"{path}: unknown field {sorted(extra)[0]!r}")
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise RecordError(f"{path}: {e}") from None


def _freeze_json(value: Any, path: str) -> Any:
    """A JSON value checked (finite numbers, string keys) and made immutable."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        raise RecordError(f"{path}: non-finite number")
    if isinstance(value, list):
        return tuple(_freeze_json(v, f"{path}[{i}]") for i, v in enumerate(value))
    if isinstance(value, dict):
        return MappingProxyType({str(k): _freeze_json(v, f"{path}.{k}") for k, v in value.items()})
    raise RecordError(f"{path}: {_type_name(value)} is not JSON")


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
