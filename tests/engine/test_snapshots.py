"""Snapshots (docs/architecture.md "Persistence"): the state after an entry, encoded by the game, so
a long game reopens by reducing only the entries after the newest one; a snapshot
that does not decode is passed over, one that does not equal the replayed state is
reported by replay_check, and a take-back past a snapshot retires it."""

from __future__ import annotations

import datetime
import itertools
import json
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import pytest

from engine.toygame import Pass, Step, ToyGame, ToyState
from gwasl.engine import snapshot as sn
from gwasl.engine.game import GameError, GameOptions
from gwasl.engine.journal import MemoryJournal
from gwasl.engine.session import Session


class SnapToy(ToyGame):
    """The toy game with snapshots through the engine's codec."""

    def encode_state(self, state: ToyState, base: ToyState | None = None) -> Any:
        return sn.encode(state, base)

    def decode_state(self, obj: Any, base: ToyState | None = None) -> ToyState:
        try:
            st = sn.decode(obj, sn.classes_in(["engine.toygame"]), base)
        except sn.SnapshotError as e:
            raise GameError(str(e)) from None
        if not isinstance(st, ToyState):
            raise GameError("not a toy state")
        return st


GAME = SnapToy()


def played(n_actions: int, every: int = 4, practice: bool = True) -> Session[ToyState]:
    s = Session.new(GAME, {"traps": [5, 7]}, 3, GameOptions(practice=practice), MemoryJournal(snapshots=[]))
    s.snapshot_every = every
    for i in range(n_actions):
        s.act(Step() if i % 5 == 0 else Pass())
    return s


def reopen(s: Session[ToyState], snapshots: Any = None) -> Session[ToyState]:
    journal = MemoryJournal(s.journal.entries(), s.journal.snapshots() if snapshots is None else snapshots)  # type: ignore[attr-defined]
    return Session.restore(GAME, s.source, s.seed, s.options, journal)


def full_replay(s: Session[ToyState]) -> ToyState:
    state = GAME.setup(s.source, s.options)
    for _seq, ev in s.effective():
        state = GAME.reduce(state, ev)
    return state


@dataclass(frozen=True)
class Rich:
    t: tuple[int, ...]
    f: frozenset[str]
    m: Any
    d: Any
    when: datetime.date
    x: float
    e: Any = None


def test_a_str_enum_comes_back_as_its_member_not_a_str():
    """Rules test members with ``is`` (``status is FogStatus.NONE``): a StrEnum written as a
    plain str would compare equal and still change what a reduce after the snapshot does."""
    from gwasl.rules.fog.state import FogStatus

    v = Rich((), frozenset(), MappingProxyType({"u": FogStatus.HIP}), {}, datetime.date(1916, 1, 1), 0.0, FogStatus.NONE)
    classes = {f"{Rich.__module__}:{Rich.__qualname__}": Rich, **sn.classes_in(["gwasl.rules.fog."])}
    back = sn.decode(sn.encode(v), classes)
    assert back.e is FogStatus.NONE and back.m["u"] is FogStatus.HIP


def test_the_codec_keeps_every_type_and_refers_to_the_base():
    v = Rich((1, 2), frozenset({"a", "b"}), MappingProxyType({(1, 2): "k"}), {"a": [1, 2.5]}, datetime.date(1916, 2, 21), 1.0)
    classes = {f"{Rich.__module__}:{Rich.__qualname__}": Rich}
    back = sn.decode(sn.encode(v), classes)
    assert back == v and type(back.t) is tuple and type(back.m) is MappingProxyType and type(back.d) is dict
    assert type(back.x) is float
    enc = sn.encode(v, v)
    assert enc["value"]["v"]["f"] == {"@=": 1}  # the same object as the base's: a reference
    assert sn.decode(enc, classes, v) == v


TOY = "engine.toygame:ToyState"


@pytest.mark.parametrize("bad", [
    {"@c": 0, "v": {}},  # no type table
    {"types": ["os:system"], "value": {"@c": 0, "v": {}}},  # not an allowed class
    {"types": [TOY], "value": {"@c": 0, "v": {"nope": 1}}},
    {"types": [TOY], "value": {"@c": 3, "v": {}}},  # a type the table lacks
    {"types": [TOY], "value": {"@c": 0, "v": {"pos": {"@=": 1}}}},  # a reference without a base
    {"types": [], "value": {"@x": []}},
    {"types": [], "value": {"@t": "no"}},
    {"types": [], "value": {"@m": [[1]]}},
    {"types": [], "value": [[[[{"@t": [{"@t": []}] * 3}]]]] * 2},
])
def test_a_hostile_snapshot_is_one_snapshot_error(bad):
    with pytest.raises(sn.SnapshotError):
        obj = sn.decode(bad, sn.classes_in(["engine.toygame"]))
        if not isinstance(obj, ToyState):
            raise sn.SnapshotError("not a state")


def test_each_class_is_named_once():
    s = played(30)
    obj = GAME.encode_state(s.state)
    assert obj["types"] == ["engine.toygame:ToyState"]
    assert "engine.toygame" not in json.dumps(obj["value"])


def test_snapshots_are_written_every_n_events_and_equal_the_replayed_state():
    s = played(30)
    snaps = s.journal.snapshots()  # type: ignore[attr-defined]
    assert len(snaps) >= 5
    seqs = [s.entries[i].seq + len(s.entries[i].events) for i, _ in snaps]
    assert all(b - a >= 4 for a, b in itertools.pairwise(seqs))
    rep = s.replay_check()
    assert rep.identical


def test_a_game_reopens_from_its_newest_snapshot_and_reduces_only_the_tail():
    s = played(30)
    newest = max(i for i, _ in s.journal.snapshots())  # type: ignore[attr-defined]
    again = reopen(s)
    assert again.opened_from == newest
    assert again.state == s.state == full_replay(s)
    assert again.replay_check().identical


def test_a_snapshot_that_does_not_decode_is_passed_over():
    s = played(30)
    snaps = list(s.journal.snapshots())  # type: ignore[attr-defined]
    newest, older = snaps[-1][0], snaps[-2][0]
    damaged = [*snaps[:-1], (newest, {"types": [TOY], "value": {"@c": 0, "v": {"pos": "garbage"}}})]
    again = reopen(s, damaged)
    assert again.opened_from == older
    assert again.state == s.state


def test_a_snapshot_unequal_to_the_replay_is_reported_by_replay_check():
    s = played(30)
    snaps = list(s.journal.snapshots())  # type: ignore[attr-defined]
    index, obj = snaps[-1]
    wrong = GAME.decode_state(obj, GAME.setup(s.source, s.options))
    from dataclasses import replace

    lying = [*snaps[:-1], (index, GAME.encode_state(replace(wrong, turn=wrong.turn + 50)))]
    again = reopen(s, lying)
    rep = again.replay_check()
    assert not rep.identical and f"snapshot after entry {index}" in (rep.detail or "")


def test_a_take_back_past_a_snapshot_retires_it():
    s = played(12, every=3)
    last = max(i for i, _ in s.journal.snapshots())  # type: ignore[attr-defined]
    assert last == len(s.entries) - 1  # the last action's entry was snapshotted
    assert s.undo()[0]
    assert s.state == full_replay(s)
    again = reopen(s)
    assert again.opened_from is not None and again.opened_from < last
    assert again.state == s.state
    assert again.replay_check().identical


def test_history_and_take_back_start_from_a_kept_state():
    s = played(40)
    for seq in (0, 7, 33, s.next_seq - 1):
        ref = GAME.setup(s.source, s.options)
        for q, ev in s.effective():
            if q > seq:
                break
            ref = GAME.reduce(ref, ev)
        assert s.state_at(seq) == ref


@dataclass(frozen=True)
class Key:
    name: str


def test_an_object_met_twice_is_written_once_and_read_back_shared():
    shared_key, other_key = Key("a"), Key("b")
    table = MappingProxyType({shared_key: Key("x"), other_key: Key("y")})
    v = Rich((1,), frozenset({Key("s")}), table, {"copy": table, "k": shared_key}, datetime.date(1916, 1, 1), 0.0,
             MappingProxyType({Key("x"): table}))
    classes = {f"{c.__module__}:{c.__qualname__}": c for c in (Rich, Key)}
    enc = sn.encode(v)
    assert json.dumps(enc).count('"a"') == 1  # the shared key is written once
    back = sn.decode(json.loads(json.dumps(enc)), classes)
    assert back == v
    assert back.d["copy"] is back.m and back.d["k"] is next(iter(back.m))
    assert sn.encode(back) == enc  # read back, it writes the same again


def test_a_reference_to_nothing_written_yet_is_refused():
    with pytest.raises(sn.SnapshotError, match="not written before"):
        sn.decode({"types": [], "value": {"@t": [{"@r": 0}]}}, {})


def test_a_retired_field_and_class_are_read_and_dropped_keeping_references(monkeypatch):
    """A field a class no longer has (SNAPSHOT_RETIRED_FIELDS) holding records of a class the
    module no longer has (SNAPSHOT_RETIRED_TYPES): an old snapshot still decodes, and a
    record written after them and referred to again (``{"@r": n}``) is still the right one."""
    import sys
    import types as pytypes
    from typing import ClassVar

    @dataclass(frozen=True)
    class Note:
        text: str

    @dataclass(frozen=True)
    class Spot:
        at: int

    @dataclass(frozen=True)
    class Old:
        log: tuple[Note, ...]
        here: Spot
        again: Spot

    @dataclass(frozen=True)
    class New:
        here: Spot
        again: Spot
        SNAPSHOT_RETIRED_FIELDS: ClassVar[tuple[str, ...]] = ("log",)

    spot = Spot(7)
    obj = sn.encode(Old((Note("a"), Note("b")), spot, spot))
    assert obj["value"]["v"]["again"] == {"@r": 2}  # after the two Notes: the reference counts them
    mod = pytypes.ModuleType("snap_retired_mod")
    for cls in (Spot, New):
        cls.__module__, cls.__qualname__ = "snap_retired_mod", cls.__name__
        setattr(mod, cls.__name__, cls)
    mod.SNAPSHOT_RETIRED_TYPES = ("Note",)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "snap_retired_mod", mod)
    short = [n.rsplit(".", 1)[-1] for n in obj["types"]]  # as the classes were named where they were written
    obj["types"] = [f"snap_retired_mod:{'New' if n == 'Old' else n}" for n in short]
    retired: dict = {}
    back = sn.decode(obj, sn.classes_in(["snap_retired_mod"]), None, retired)
    assert back == New(Spot(7), Spot(7)) and back.here is back.again
    assert retired == {"New.log": (None, None)}  # handed to the game to migrate (a retired class reads as None)
    with pytest.raises(sn.SnapshotError, match="no field"):  # an unknown field is still refused
        obj["value"]["v"]["other"] = 1
        sn.decode(obj, sn.classes_in(["snap_retired_mod"]))
