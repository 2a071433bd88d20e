"""FrozenBatch (issue 23 item 8): the same frozen dataclasses as the standard decorator,
their generated methods compiled together -- the constructor's signature, equality,
hashing, repr, frozenness, ``replace`` and ``fields`` alike, for every Great War record."""

from __future__ import annotations

import dataclasses
import inspect
from typing import ClassVar

import pytest

from gwasl.games.aslgw import records
from gwasl.model.batched import FrozenBatch


def _shapes(deco):
    @deco(frozen=True)
    class Plain:
        kind: ClassVar[str] = "plain"
        unit: str
        to: tuple[int, int] = (0, 0)
        note: str | None = None

    @deco(frozen=True)
    class Empty:
        """An empty record."""

    @deco(frozen=True)
    class Nested:
        inner: Plain
        many: tuple[Plain, ...] = ()

    @deco(frozen=True)
    class Child(Plain):
        extra: int = 3

    @deco(frozen=True, slots=True, order=True)
    class Sorted:
        q: int
        r: int

    @deco(frozen=True, slots=True)
    class Factory:
        name: str
        extra: dict = dataclasses.field(default_factory=dict)

    @deco(frozen=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError(f"n must be >= 0, not {self.n}")

    return Plain, Empty, Nested, Child, Sorted, Factory, Checked


def test_a_batch_makes_the_standard_classes():
    batch = FrozenBatch()
    std = _shapes(dataclasses.dataclass)
    ours = _shapes(batch.dataclass)
    batch.finish()
    for s, o in zip(std, ours):
        assert str(inspect.signature(s)) == str(inspect.signature(o))
        assert s.__doc__ == o.__doc__
        assert s.__init__.__annotations__ == o.__init__.__annotations__
        assert s.__match_args__ == o.__match_args__
        assert [f.name for f in dataclasses.fields(s)] == [f.name for f in dataclasses.fields(o)]
        assert o.__init__.__qualname__.endswith(".__init__") and o.__eq__.__qualname__.endswith(".__eq__")
    SP = std[0]
    P, E, N, C, H, F, K = ours
    assert H(1, 2) < H(1, 3) <= H(2, 0) and H(2, 0) > H(1, 9) >= H(1, 9) and sorted([H(2, 1), H(0, 5)]) == [H(0, 5), H(2, 1)]
    assert H.__lt__(H(1, 2), 3) is NotImplemented and not hasattr(H(1, 2), "__dict__") and H.__slots__ == ("q", "r")
    f1, f2 = F("a"), F("a")
    assert f1 == f2 and f1.extra == {} and f1.extra is not f2.extra and F("a", {"x": 1}).extra == {"x": 1}
    with pytest.raises(ValueError, match="n must be"):
        K(-1)
    assert K(2).n == 2
    a, b = P("8a", (1, 2)), P("8a", (1, 2))
    assert a == b and hash(a) == hash(b) == hash(("8a", (1, 2), None)) and a != P("8b")
    assert a != SP("8a", (1, 2))  # another class: never equal, as the standard's
    assert (a == 3) is False and P.__eq__(a, 3) is NotImplemented
    assert repr(a).replace("Plain", "X") == repr(SP("8a", (1, 2))).replace("Plain", "X")
    assert repr(N(a, (a,))) == f"{N.__qualname__}(inner={a!r}, many=({a!r},))"
    assert E() == E() and hash(E()) == hash(()) and repr(E()).endswith("Empty()")
    assert C("x") == C("x", (0, 0), None, 3) and C("x") != P("x") and hash(C("x")) == hash(("x", (0, 0), None, 3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.unit = "9"  # type: ignore[misc]
    assert dataclasses.replace(a, unit="9") == P("9", (1, 2))
    with pytest.raises(TypeError):
        P()  # type: ignore[call-arg]


def test_a_batch_refuses_what_it_cannot_make_alike():
    batch = FrozenBatch()
    with pytest.raises(TypeError, match="only plain fields"):
        @batch.dataclass(frozen=True)
        class Hidden:
            xs: list[int] = dataclasses.field(default_factory=list, repr=False)
    with pytest.raises(TypeError, match="defines __lt__"):
        @batch.dataclass(frozen=True, order=True)
        class Own:
            x: int

            def __lt__(self, other: object) -> bool:
                return False
    with pytest.raises(TypeError, match="frozen"):
        batch.dataclass(frozen=False)
    batch.finish()
    with pytest.raises(TypeError, match="finished"):
        @batch.dataclass(frozen=True)
        class Late:
            x: int


def test_an_instance_made_before_the_batch_is_finished_is_refused():
    """A module that makes a value of a batched class before ``finish()`` fails at import, naming
    the class: before this guard the class had only ``object.__init__``, and a class whose fields
    all have defaults made an empty value without a word."""
    batch = FrozenBatch()

    @batch.dataclass(frozen=True, slots=True)
    class Early:
        n: int = 0

    with pytest.raises(TypeError, match="Early made before its FrozenBatch was finished"):
        Early()
    batch.finish()
    assert Early() == Early(0) and repr(Early(2)).endswith("Early(n=2)")


def _standard_twin(cls: type) -> type:
    """``cls`` declared again with the standard decorator (same fields, defaults, factories and bases)."""
    ns: dict = {"__annotations__": dict(cls.__annotations__), "__qualname__": cls.__qualname__, "__module__": cls.__module__,
                "__doc__": cls.__doc__}
    own = {f.name: f for f in dataclasses.fields(cls) if f.name in cls.__annotations__}
    for name, f in own.items():
        if f.default_factory is not dataclasses.MISSING:
            ns[name] = dataclasses.field(default_factory=f.default_factory)
        elif f.default is not dataclasses.MISSING:
            ns[name] = f.default
    for k, v in vars(cls).items():
        if k in cls.__annotations__ and k not in ns and k not in own:
            ns[k] = v  # ClassVars (kind, version)
    slots = "__slots__" in vars(cls)
    order = "__lt__" in vars(cls)
    return dataclasses.dataclass(frozen=True, slots=slots, order=order)(type(cls.__name__, cls.__bases__, ns))


KINDS = {**records.ACTIONS.kinds(), **{k: c for k, c in records.EVENTS.kinds().items() if c.__module__ == records.__name__}}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_great_war_record_is_its_standard_dataclass(kind):
    cls = KINDS[kind]
    assert cls.__module__ == records.__name__
    twin = _standard_twin(cls)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
    assert cls.__doc__ == twin.__doc__
    assert [(f.name, f.type, f.default) for f in dataclasses.fields(cls)] == [
        (f.name, f.type, f.default) for f in dataclasses.fields(twin)]
    for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        assert name in vars(cls), name


def test_the_compiled_methods_are_cached_beside_the_bytecode(tmp_path, monkeypatch):
    """Like Python's own bytecode cache: reused only for the very same source, a damaged
    or other source's cache compiled over, nothing written when bytecode is not."""
    import importlib.machinery
    import sys
    import types

    from gwasl.model import batched

    spec = importlib.machinery.ModuleSpec("fake_records", None)
    spec.cached = str(tmp_path / "__pycache__" / "fake_records.cpython-311.pyc")
    mod = types.ModuleType("fake_records")
    mod.__spec__ = spec
    monkeypatch.setitem(sys.modules, "fake_records", mod)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache = tmp_path / "__pycache__" / "fake_records.cpython-311.frozen-batch"
    first = batched._compiled("def f():\n  return 1\n", "fake_records")
    assert cache.exists()
    compiled = []
    real_compile = compile
    monkeypatch.setattr(batched, "compile", lambda *a, **k: compiled.append(a) or real_compile(*a, **k), raising=False)
    again = batched._compiled("def f():\n  return 1\n", "fake_records")
    assert not compiled and again.co_consts == first.co_consts  # from the cache
    other = batched._compiled("def f():\n  return 2\n", "fake_records")
    assert len(compiled) == 1 and 2 in other.co_consts[0].co_consts  # another source: compiled
    cache.write_bytes(b"\x00garbage")
    ns: dict = {}
    exec(batched._compiled("def f():\n  return 3\n", "fake_records"), ns)
    assert ns["f"]() == 3 and len(compiled) == 2
    cache.unlink()
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    batched._compiled("def f():\n  return 4\n", "fake_records")
    assert not cache.exists()


BATCHED = [("gwasl.model.scenario", n) for n in ("LeaderRating", "HexData", "Fortification", "MapData", "Side", "Unit",
                                                 "Formation", "Dummy", "Scenario")] + [
    ("gwasl.model.hexgrid", "Hex"), ("gwasl.model.terrain", "TerrainInfo"), ("gwasl.model.terrain", "FortificationInfo"),
    ("gwasl.model.files", "FileIdentity"), ("gwasl.model.files", "FileContent"), ("gwasl.model.scenario_io", "Finding"),
    ("gwasl.model.scenario_io", "Saved"), ("gwasl.rules.los", "LosCounter"), ("gwasl.rules.los", "HindranceHex"),
    ("gwasl.rules.los", "LosResult"), ("gwasl.rules.los_kernel", "Templates"), ("gwasl.rules.los_kernel", "MapTemplates"),
    ("gwasl.rules.los_geometry", "Outline")]


@pytest.mark.parametrize(("module", "name"), BATCHED, ids=lambda x: x.rsplit(".", 1)[-1])
def test_every_batched_class_is_its_standard_dataclass(module, name):
    import importlib

    cls = getattr(importlib.import_module(module), name)
    twin = _standard_twin(cls)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
    assert cls.__doc__ == twin.__doc__ and vars(cls).get("__slots__") == vars(twin).get("__slots__")
    assert [(f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(cls)] == [
        (f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(twin)]
    for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        assert method in vars(cls), method
    assert ("__lt__" in vars(cls)) == ("__lt__" in vars(twin))


def test_hexes_sort_hash_and_compare_as_before():
    from gwasl.model.hexgrid import Hex

    hexes = [Hex(q, r) for q in range(-3, 4) for r in range(-3, 4)]
    assert sorted(hexes, reverse=True) == sorted(hexes, key=lambda h: (h.q, h.r), reverse=True)
    assert {h: h for h in hexes}[Hex(1, -2)] == Hex(1, -2) and hash(Hex(1, -2)) == hash((1, -2))
    assert repr(Hex(1, -2)) == "Hex(q=1, r=-2)" and (Hex(0, 1) <= Hex(0, 1)) and not (Hex(0, 1) < Hex(0, 1))


def test_frozen_fields_refuse_assignment_and_deletion_with_the_standard_words():
    batch = FrozenBatch()
    ours = _shapes(batch.dataclass)
    batch.finish()
    std = _shapes(dataclasses.dataclass)
    for make in (lambda P: P("8a"), ):
        for P in (ours[0], std[0]):
            p = make(P)
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'unit'"):
                p.unit = "x"
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'to'"):
                del p.to
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'other'"):
                p.other = 1  # not a field: refused on the class itself, as the standard's
    child = ours[3]("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        child.extra = 4
    assert ours[0].__setattr__.__qualname__.endswith("Plain.__setattr__")
    assert ours[0].__delattr__.__qualname__ == std[0].__delattr__.__qualname__


def _batched_modules() -> list[str]:
    """Every gwasl module that declares its dataclasses through a FrozenBatch (read from the sources)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return sorted(".".join(p.relative_to(root).with_suffix("").parts) for p in (root / "gwasl").rglob("*.py")
                  if "_BATCH = FrozenBatch()" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", _batched_modules())
def test_every_class_of_every_batched_module_is_its_standard_dataclass(module):
    """Each batched class, found by its compiled constructor, is the standard decorator's class:
    the same signature, doc, slots, fields and methods (every module, as it gains a batch)."""
    import importlib

    mod = importlib.import_module(module)
    def batched(c: object) -> bool:
        code = getattr(vars(c).get("__init__"), "__code__", None)
        return code is not None and code.co_filename.startswith("<frozen dataclasses of")

    found = [c for c in vars(mod).values() if isinstance(c, type) and c.__module__ == module and batched(c)]
    assert found, f"{module} batches no class"
    for cls in found:
        twin = _standard_twin(cls)
        assert str(inspect.signature(cls)) == str(inspect.signature(twin)), cls
        assert cls.__doc__ == twin.__doc__ and vars(cls).get("__slots__") == vars(twin).get("__slots__"), cls
        assert cls.__match_args__ == twin.__match_args__, cls
        assert [(f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(cls)] == [
            (f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(twin)], cls
        for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
            assert method in vars(cls), (cls, method)
        assert ("__lt__" in vars(cls)) == ("__lt__" in vars(twin)), cls
