"""Frozen dataclasses declared by the dozen for the price of a few (issue 23 item 8).

Python's ``@dataclass(frozen=True)`` compiles six small methods per class, one
``exec`` each (about a millisecond a class): a module of 74 records paid a tenth
of a second at import, before any command had asked anything.  A
:class:`FrozenBatch` makes the same classes with the same methods: its
:meth:`~FrozenBatch.dataclass` lets the standard decorator build the class
without ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` (it still adds
the frozen ``__setattr__``/``__delattr__``, the fields and everything else), and
:meth:`~FrozenBatch.finish` then compiles those four methods of every class of
the batch at once, from the very text the standard decorator writes (Python
3.11's ``dataclasses``): equality, hashing, ``repr`` and the constructor's
signature are the standard ones.  A class the batch cannot make alike (a field
with a factory, ``init``, ``repr``, ``compare`` or ``hash`` set, ``kw_only``,
``InitVar``, ``__post_init__``) is an error when it is declared.

Use it in a module as ``dataclass`` (type checkers see the standard decorator)::

    if TYPE_CHECKING:
        from dataclasses import dataclass
    else:
        dataclass = _BATCH.dataclass
    ...
    _BATCH.finish()  # at the end of the module, before any instance is made

>>> batch = FrozenBatch()
>>> @batch.dataclass(frozen=True)
... class Moved:
...     unit: str
...     to: tuple[int, int] = (0, 0)
>>> batch.finish()
>>> Moved("8a", (3, 4)), Moved("8a", (3, 4)) == Moved("8a", (3, 4)), Moved("8a") == Moved("8b")
(Moved(unit='8a', to=(3, 4)), True, False)
>>> hash(Moved("8a")) == hash(("8a", (0, 0)))
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import marshal
import os
import reprlib
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

__all__ = ["FrozenBatch"]

T = TypeVar("T", bound=type)


class FrozenBatch:
    """Frozen dataclasses whose generated methods are compiled together by :meth:`finish`."""

    def __init__(self) -> None:
        self._pending: list[tuple[type, bool]] = []
        self.finished = False

    def dataclass(self, cls: T | None = None, /, *, frozen: bool = True) -> Any:
        """``@dataclass(frozen=True)`` for this batch (only frozen classes)."""
        if not frozen:
            raise TypeError("a FrozenBatch makes frozen dataclasses only")

        def wrap(c: T) -> T:
            return self._add(c)

        return wrap if cls is None else wrap(cls)

    def _add(self, cls: T) -> T:
        if self.finished:
            raise TypeError(f"{cls.__name__}: this batch is finished; declare it before finish()")
        if "__post_init__" in vars(cls) or any(hasattr(b, "__post_init__") for b in cls.__mro__[1:]):
            raise TypeError(f"{cls.__name__}: __post_init__ is not supported by a FrozenBatch")
        for name in ("__init__", "__repr__", "__eq__", "__hash__"):
            if name in vars(cls):
                raise TypeError(f"{cls.__name__} defines {name}: use the standard dataclass")
        no_doc = cls.__doc__ is None  # the standard decorator writes its signature there
        out = cast(T, dataclasses.dataclass(frozen=True, init=False, repr=False, eq=False)(cls))
        for f in dataclasses.fields(out):
            plain = (f.default_factory is dataclasses.MISSING and f.init and f.repr and f.compare
                     and f.hash is None and not f.kw_only)
            if not plain:
                raise TypeError(f"{cls.__name__}.{f.name}: only plain fields (a default value at most) in a FrozenBatch")
        self._pending.append((out, no_doc))
        return out

    def finish(self) -> None:
        """Compile ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` of every class declared so far."""
        classes, self._pending = self._pending, []
        self.finished = True
        if not classes:
            return
        src: list[str] = []
        values: dict[str, Any] = {"__dataclass_builtins_object__": object}
        for n, (cls, _) in enumerate(classes):
            fields = dataclasses.fields(cls)
            params = []
            body = []
            for f in fields:
                values[f"_t{n}_{f.name}"] = f.type
                if f.default is dataclasses.MISSING:
                    params.append(f"{f.name}:_t{n}_{f.name}")
                else:
                    values[f"_d{n}_{f.name}"] = f.default
                    params.append(f"{f.name}:_t{n}_{f.name}=_d{n}_{f.name}")
                body.append(f"  __dataclass_builtins_object__.__setattr__(self,{f.name!r},{f.name})")
            mine = "(" + "".join(f"self.{f.name}," for f in fields) + ")"
            theirs = "(" + "".join(f"other.{f.name}," for f in fields) + ")"
            shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields)
            src += [
                f"def _init{n}(self, {', '.join(params)})->_return_type:" if params else f"def _init{n}(self)->_return_type:",
                *(body or ["  pass"]),
                f"def _repr{n}(self):",
                f"  return self.__class__.__qualname__ + f\"({shown})\"",
                f"def _eq{n}(self, other):",
                "  if other.__class__ is self.__class__:",
                f"   return {mine}=={theirs}",
                "  return NotImplemented",
                f"def _hash{n}(self):",
                f"  return hash({mine})",
            ]
        values["_return_type"] = None
        namespace: dict[str, Any] = {}
        exec(_compiled("\n".join(src), classes[0][0].__module__), dict(values), namespace)
        for n, (cls, no_doc) in enumerate(classes):
            _put(cls, "__init__", namespace[f"_init{n}"])
            _put(cls, "__repr__", reprlib.recursive_repr()(namespace[f"_repr{n}"]))
            _put(cls, "__eq__", namespace[f"_eq{n}"])
            _put(cls, "__hash__", namespace[f"_hash{n}"])
            if no_doc:
                cls.__doc__ = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")


def _compiled(source: str, module: str) -> types.CodeType:
    """``source`` compiled, from the cache beside the module's bytecode when it holds this very
    source (compiling the methods of 74 records took 40 ms, reading them back takes one),
    else compiled now and cached there as Python caches bytecode (not when the directory is
    read-only or ``sys.dont_write_bytecode`` is set).  A damaged cache is compiled over."""
    spec = getattr(sys.modules.get(module), "__spec__", None)
    cached = getattr(spec, "cached", None)
    where = Path(cached).with_suffix(".frozen-batch") if isinstance(cached, str) else None
    if where is not None:
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            held_source, code = marshal.loads(where.read_bytes())
            if held_source == source and isinstance(code, types.CodeType):
                return code
    # no __future__ flags inherited: the annotations are values, as the standard decorator's
    code = compile(source, f"<frozen dataclasses of {module}>", "exec", dont_inherit=True)
    if where is not None and not sys.dont_write_bytecode:
        with contextlib.suppress(OSError):
            where.parent.mkdir(parents=True, exist_ok=True)
            tmp = where.with_name(f"{where.name}.{os.getpid()}.tmp")
            tmp.write_bytes(marshal.dumps((source, code)))
            os.replace(tmp, where)  # whole or not at all: another process may be reading it
    return code


def _put(cls: type, name: str, fn: Callable[..., Any]) -> None:
    fn.__name__ = name
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)
