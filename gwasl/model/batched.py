"""Frozen dataclasses declared by the dozen for the price of a few (issue 23 item 8).

Python's ``@dataclass(frozen=True)`` compiles six small methods per class, one
``exec`` each (about a millisecond a class): a module of 74 records paid a tenth
of a second at import, before any command had asked anything.  A
:class:`FrozenBatch` makes the same classes with the same methods: its
:meth:`~FrozenBatch.dataclass` lets the standard decorator build the class
(``slots`` too) without ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and
the ``order`` comparisons (it still adds the fields and everything else; its frozen
``__setattr__``/``__delattr__`` are made as closures of the same code instead of being
compiled per class, on the Pythons whose decorator writes them as that text), and :meth:`~FrozenBatch.finish` then compiles
those methods of every class of the batch at once, from the very text the
standard decorator writes (Python 3.11's ``dataclasses``; defaults, factories and
``__post_init__`` included), and caches the compiled code beside the module's
bytecode: equality, hashing, ordering, ``repr`` and the constructor's signature
are the standard ones.  A class the batch cannot make alike (a field with
``init``, ``repr``, ``compare`` or ``hash`` set, ``kw_only``, an ``InitVar``)
is an error when it is declared.

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

#: The standard decorator's marker of a field made by its ``default_factory`` (what the
#: constructor's signature shows as ``<factory>``); None where a Python has none.
_FACTORY: Any = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", None)
_ORDER = ("__lt__", "__le__", "__gt__", "__ge__")
#: The standard decorator's maker of a frozen class's ``__setattr__`` and ``__delattr__``
#: (Python 3.11 and 3.12 write them as text and compile each; :func:`_frozen_attributes`
#: makes the very same two methods without compiling); empty where it differs.
_FROZEN_HOOK = "_frozen_get_del_attr" if sys.version_info[:2] in ((3, 11), (3, 12)) else ""


def _frozen_attributes(cls: type, fields: list[dataclasses.Field[Any]], globals: Any) -> tuple[Callable[..., None], Callable[..., None]]:
    """``dataclasses._frozen_get_del_attr``'s two methods, as closures over the same names."""
    names = tuple(f.name for f in fields)
    frozen_error = dataclasses.FrozenInstanceError
    owner: Any = cls  # (typed Any: the checks below narrow ``cls`` itself)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is owner or name in names:
            raise frozen_error(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is owner or name in names:
            raise frozen_error(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    return __setattr__, __delattr__


class FrozenBatch:
    """Frozen dataclasses whose generated methods are compiled together by :meth:`finish`."""

    def __init__(self) -> None:
        self._pending: list[tuple[type, bool, bool]] = []
        self.finished = False

    def dataclass(self, cls: T | None = None, /, *, frozen: bool = True, slots: bool = False, order: bool = False) -> Any:
        """``@dataclass(frozen=True, slots=..., order=...)`` for this batch (only frozen classes)."""
        if not frozen:
            raise TypeError("a FrozenBatch makes frozen dataclasses only")

        def wrap(c: T) -> T:
            return self._add(c, slots, order)

        return wrap if cls is None else wrap(cls)

    def _add(self, cls: T, slots: bool, order: bool) -> T:
        if self.finished:
            raise TypeError(f"{cls.__name__}: this batch is finished; declare it before finish()")
        own = ("__init__", "__repr__", "__eq__", "__hash__") + (_ORDER if order else ())
        for name in own:
            if name in vars(cls):
                raise TypeError(f"{cls.__name__} defines {name}: use the standard dataclass")
        no_doc = cls.__doc__ is None  # the standard decorator writes its signature there
        standard = dataclasses.dataclass(frozen=True, slots=slots, init=False, repr=False, eq=False)
        if _FROZEN_HOOK:  # its frozen __setattr__/__delattr__ as closures: the same code, not compiled per class
            saved = getattr(dataclasses, _FROZEN_HOOK)
            setattr(dataclasses, _FROZEN_HOOK, _frozen_attributes)
            try:
                out = cast(T, standard(cls))
            finally:
                setattr(dataclasses, _FROZEN_HOOK, saved)
        else:
            out = cast(T, standard(cls))
        for f in dataclasses.fields(out):
            plain = (f.init and f.repr and f.compare and f.hash is None and not f.kw_only
                     and (f.default_factory is dataclasses.MISSING or _FACTORY is not None))
            if not plain:
                raise TypeError(f"{cls.__name__}.{f.name}: only plain fields (a default or a default_factory) in a FrozenBatch")
        initvar = getattr(dataclasses, "_FIELD_INITVAR", None)
        if any(getattr(f, "_field_type", None) is initvar for f in vars(out)["__dataclass_fields__"].values()):
            raise TypeError(f"{cls.__name__}: InitVar fields are not supported by a FrozenBatch")
        self._pending.append((out, no_doc, order))
        out.__init__ = _not_yet  # type: ignore[misc]  # until finish(): an instance made too early says so
        return out

    def finish(self) -> None:
        """Compile ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` (and the ``order`` comparisons)
        of every class declared so far."""
        classes, self._pending = self._pending, []
        self.finished = True
        if not classes:
            return
        src: list[str] = []
        values: dict[str, Any] = {"__dataclass_builtins_object__": object, "_HAS_DEFAULT_FACTORY": _FACTORY}
        for n, (cls, _, order) in enumerate(classes):
            fields = dataclasses.fields(cls)
            params = []
            body = []
            for f in fields:
                values[f"_t{n}_{f.name}"] = f.type
                value = f.name
                if f.default_factory is not dataclasses.MISSING:
                    values[f"_d{n}_{f.name}"] = f.default_factory
                    params.append(f"{f.name}:_t{n}_{f.name}=_HAS_DEFAULT_FACTORY")
                    value = f"_d{n}_{f.name}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}"
                elif f.default is dataclasses.MISSING:
                    params.append(f"{f.name}:_t{n}_{f.name}")
                else:
                    values[f"_d{n}_{f.name}"] = f.default
                    params.append(f"{f.name}:_t{n}_{f.name}=_d{n}_{f.name}")
                body.append(f"  __dataclass_builtins_object__.__setattr__(self,{f.name!r},{value})")
            if hasattr(cls, "__post_init__"):
                body.append("  self.__post_init__()")
            mine = "(" + "".join(f"self.{f.name}," for f in fields) + ")"
            theirs = "(" + "".join(f"other.{f.name}," for f in fields) + ")"
            shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields)
            src += [
                f"def _init{n}(self, {', '.join(params)})->_return_type:" if params else f"def _init{n}(self)->_return_type:",
                *(body or ["  pass"]),
                f"def _repr{n}(self):",
                f"  return self.__class__.__qualname__ + f\"({shown})\"",
                f"def _hash{n}(self):",
                f"  return hash({mine})",
            ]
            compare = (("_eq", "=="),) + ((("_lt", "<"), ("_le", "<="), ("_gt", ">"), ("_ge", ">=")) if order else ())
            for name, op in compare:
                src += [
                    f"def {name}{n}(self, other):",
                    "  if other.__class__ is self.__class__:",
                    f"   return {mine}{op}{theirs}",
                    "  return NotImplemented",
                ]
        values["_return_type"] = None
        namespace: dict[str, Any] = {}
        exec(_compiled("\n".join(src), classes[0][0].__module__), dict(values), namespace)
        for n, (cls, no_doc, order) in enumerate(classes):
            _put(cls, "__init__", namespace[f"_init{n}"])
            _put(cls, "__repr__", reprlib.recursive_repr()(namespace[f"_repr{n}"]))
            _put(cls, "__eq__", namespace[f"_eq{n}"])
            _put(cls, "__hash__", namespace[f"_hash{n}"])
            for name in _ORDER if order else ():
                _put(cls, name, namespace[f"_{name.strip('_')}{n}"])
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


def _not_yet(self: Any, *args: Any, **kwargs: Any) -> None:
    """A batched class's constructor until its batch is finished: a module that makes an
    instance before ``finish()`` fails at import, naming the class (never a half-made value)."""
    raise TypeError(f"{type(self).__qualname__} made before its FrozenBatch was finished: "
                    "call finish() after the last class of the batch and before the first instance")


def _put(cls: type, name: str, fn: Callable[..., Any]) -> None:
    fn.__name__ = name
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)
