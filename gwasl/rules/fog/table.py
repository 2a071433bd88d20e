"""The fog-of-war rules data (gwasl/resources/fog.json), loaded and validated once.

O'Leary 2.5: the shift table (final DR bands and their consequences), the
shift DRM and the starred size modifiers; 3.1.1, 4.1 and 4.6.1: dummy
allotments; 6.1 and 7.1: the third die.  A malformed table raises
:class:`gwasl.model.terrain.TableError` naming the entry and field.

>>> t = fog_table()
>>> t.band_of(7).band, t.band_of(8).band, t.band_of(12).band, t.band_of(13).band
('allowed', 'disallowed', 'status_lost', 'revealed')
>>> t.size_drm["large_vehicle"]
3
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.terrain import TableError, load_resource

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = ["BAND_NAMES", "Band", "FogTable", "fog_table", "parse_fog_table"]

# The four bands of CONTRACTS 4 ``p``, in table order.
BAND_NAMES: tuple[str, ...] = ("allowed", "disallowed", "status_lost", "revealed")


@dataclass(frozen=True, slots=True)
class Band:
    """One row group of the O'Leary 2.5 shift table.

    ``min``/``max`` bound the final DR (``None``: unbounded); ``shift``: the
    stacks exchange; ``closes_phase``: no other stack of that kind may shift
    this phase; ``status_lost``: potential dummy / HIP / cloaked status ends
    and dummies are eliminated; ``revealed``: concealment is lost too and
    the stacks become TI.
    """

    band: str
    min: int | None
    max: int | None
    shift: bool
    closes_phase: bool
    status_lost: bool
    revealed: bool

    def contains(self, final: int) -> bool:
        return (self.min is None or final >= self.min) and (self.max is None or final <= self.max)


@dataclass(frozen=True, slots=True)
class FogTable:
    bands: tuple[Band, ...]
    free_shift_max: int
    drm: Mapping[str, Any]
    size_drm: Mapping[str, int]
    vehicle_sizes: frozenset[str]
    gun_sizes: frozenset[str]
    allotment: Mapping[str, Any]
    third_die_fixes: frozenset[int]
    third_die_not_yet: frozenset[int]
    third_die_scatters: frozenset[int]

    def band_of(self, final: int) -> Band:
        """The shift-table band of a final DR (O'Leary 2.5)."""
        for b in self.bands:
            if b.contains(final):
                return b
        raise TableError(f"fog.json shift_table: no band holds final DR {final}")  # parse_fog_table rules this out

    def counts_as_shift(self, final: int) -> bool:
        """O'Leary 2.5: a shift whose final DR is <= 0 does not add +1 to later attempts."""
        return final > self.free_shift_max


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _need(d: Any, key: str, where: str, kind: type | tuple[type, ...], allow_none: bool = False) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise TableError(f"fog.json {where}: missing {key!r}")
    v = d[key]
    if v is None and allow_none:
        return None
    if isinstance(v, bool) and kind is not bool:
        raise TableError(f"fog.json {where}.{key}: expected {getattr(kind, '__name__', kind)}, got {v!r}")
    if not isinstance(v, kind):
        raise TableError(f"fog.json {where}.{key}: expected {getattr(kind, '__name__', kind)}, got {v!r}")
    return v


def parse_fog_table(doc: Any) -> FogTable:
    """Validate the decoded fog.json (O'Leary 2.5 table and DRMs); every problem names its entry and field."""
    st = _need(doc, "shift_table", "$", dict)
    raw_bands = _need(st, "bands", "shift_table", list)
    bands = []
    for i, b in enumerate(raw_bands):
        where = f"shift_table.bands[{i}]"
        name = _need(b, "band", where, str)
        bands.append(Band(
            name,
            _need(b, "min", where, int, allow_none=True),
            _need(b, "max", where, int, allow_none=True),
            _need(b, "shift", where, bool),
            _need(b, "closes_phase", where, bool),
            _need(b, "status_lost", where, bool),
            _need(b, "revealed", where, bool),
        ))
    if tuple(b.band for b in bands) != BAND_NAMES:
        raise TableError(f"fog.json shift_table.bands: must be {', '.join(BAND_NAMES)} in that order")
    # The bands must tile the integers with no gap or overlap.
    if bands[0].min is not None or bands[-1].max is not None:
        raise TableError("fog.json shift_table.bands: the first band needs min null and the last max null")
    for a, b in itertools.pairwise(bands):
        if a.max is None or b.min != a.max + 1:
            raise TableError(f"fog.json shift_table.bands: {b.band}.min must be {a.band}.max + 1")
    free = _need(st, "free_shift_max", "shift_table", int)
    drm = _need(doc, "drm", "$", dict)
    for k in ("per_previous_shift", "enemy_los", "both_hip", "lv_hindrance", "night", "emplaced_gun", "balance_drm_min", "balance_drm_max"):
        _need(drm, k, "drm", int)
    _need(drm, "lv_weather", "drm", list)
    sizes = _need(doc, "size_classes", "$", dict)
    size_drm = {}
    for k, v in sizes.items():
        if k == "rule":
            continue
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise TableError(f"fog.json size_classes.{k}: expected a whole number >= 0, got {v!r}")
        size_drm[k] = v
    vehicles = frozenset(_need(doc, "vehicle_size_classes", "$", list))
    guns = frozenset(_need(doc, "gun_size_classes", "$", list))
    for name in vehicles | guns:
        if name not in size_drm:
            raise TableError(f"fog.json vehicle/gun_size_classes: {name!r} is not in size_classes")
    allot = _need(doc, "allotment", "$", dict)
    for k in ("dummy_hip_per_hip_squad_capacity", "dummy_hip_extra", "dummy_hip_per_hidden_fortification",
              "panji_hexsides_per_dummy_hip", "ap_factors_per_dummy_minefield", "at_factors_per_dummy_minefield"):
        v = _need(allot, k, "allotment", int)
        if v < 0 or ((k.endswith("per_dummy_hip") or k.endswith("per_dummy_minefield")) and v == 0):
            raise TableError(f"fog.json allotment.{k}: {v} is out of range")
    td = _need(doc, "third_die", "$", dict)
    faces = {}
    for k in ("fixes", "not_yet", "scatters"):
        vals = _need(td, k, "third_die", list)
        if any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in vals):
            raise TableError(f"fog.json third_die.{k}: die faces are 1-6, got {vals!r}")
        faces[k] = frozenset(vals)
    if sorted(faces["fixes"] | faces["not_yet"] | faces["scatters"]) != [1, 2, 3, 4, 5, 6] or \
            len(faces["fixes"]) + len(faces["not_yet"]) + len(faces["scatters"]) != 6:
        raise TableError("fog.json third_die: fixes, not_yet and scatters must split the faces 1-6")
    return FogTable(
        bands=tuple(bands),
        free_shift_max=free,
        drm=MappingProxyType(dict(drm)),
        size_drm=MappingProxyType(size_drm),
        vehicle_sizes=vehicles,
        gun_sizes=guns,
        allotment=MappingProxyType(dict(allot)),
        third_die_fixes=faces["fixes"],
        third_die_not_yet=faces["not_yet"],
        third_die_scatters=faces["scatters"],
    )


@lru_cache(maxsize=1)
def fog_table() -> FogTable:
    """The validated fog table (O'Leary 2.5), loaded once."""
    return parse_fog_table(load_resource("fog.json"))
