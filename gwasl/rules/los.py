"""Line of sight (CONTRACTS 3; ASLGW 2.1.1, 2.1.5, 2.2.2, 1.7.1).

LOS runs from hex centre to hex centre in three dimensions.  A hex's ground
is at its ``level``; woods, buildings and rubble (the terrain table's
obstacles) rise ``obstacle_height`` above it, over the whole hex or over a
custom ``"outline"`` drawn smaller than the hex (docs/format/los.md).  An
intervening hex blocks when the line passes through its blocking area not
above that area's top: a terrain obstacle (woods, building, rubble, a
blocking LOS counter) blocks a line at or below its top (ASL A6.2: to see
over an obstacle you must be higher than it), a hill's ground only a line
strictly below its level (a line running on a plateau's surface is clear).
Only a stretch of positive length counts, so a sloping line that reaches a
top exactly at the obstacle's edge is clear.  The start and end hexes never
block or hinder.  Hindrance terrain (brush, grain, orchard) counts once per
hex the line crosses at or below one level above that hex's ground.
Everything is exact (integers and fractions); the rules for lines along
hexsides and through vertices are in docs/rules-notes.md, "Line of sight
and command".

>>> from gwasl.model.scenario_io import scenario_from_text
>>> s = scenario_from_text('''{"format": "gwasl-scenario/1", "title": "t", "date": "1916-07-01",
...   "map": {"columns": 5, "rows": 3, "hexes": {"B2": {"terrain": "woods"}, "D2": {"terrain": "brush"}}},
...   "sides": {"a": {"nationality": "german"}, "b": {"nationality": "french"}}, "units": []}''')
>>> r = los(s, Hex.from_label("B1"), Hex.from_label("B3"))
>>> r.clear, r.blocked_by.label
(False, 'B2')
>>> los(s, Hex.from_label("D1"), Hex.from_label("D3")).hindrances
1

For many queries on one map use :class:`LosIndex`: ``visible_from`` gives
the one-to-all LOS map, ``clear_many`` checks many pairs at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit, UnitKind
from gwasl.model.scenario_io import Finding
from gwasl.model.terrain import terrain_table
from gwasl.rules.garance import wears_garance
from gwasl.rules.lazy_numpy import LazyNumpy
from gwasl.rules.los_geometry import FINE, Outline, OutlineError, parse_outline, segment_enters_below
from gwasl.rules.los_kernel import (
    SIDE_NEIGHBOUR,
    Arr,
    SomeMapTemplates,
    keeps_map_templates,
    map_templates,
    offset_template,
    peek_map_templates,
    templates_for,
)
from gwasl.rules.validate import scenario_check

if TYPE_CHECKING:
    import numpy as np
else:  # numpy is imported when an LOS is first traced, not with the rules (lazy_numpy)
    np = LazyNumpy(globals())

__all__ = [
    "HindranceHex",
    "LosCounter",
    "LosCounters",
    "LosError",
    "LosIndex",
    "LosResult",
    "OutlineError",
    "fire_hindrance",
    "garance_applies",
    "los",
    "visible_from",
]

# A hindrance (brush, grain, orchard) hinders a line passing at or below this
# many levels above its hex's ground (docs/rules-notes.md, "Hindrance height").
HINDRANCE_HEIGHT = 1

_NEVER = -(1 << 12)  # a "top" no line is ever below: no obstacle (small: int32 products)


class LosError(GwaslError):
    """A LOS question that cannot be asked: a hex off the map, a position
    (``in``) the hex does not offer (e.g. ``deep_trench`` without a deep trench)."""


# Frozen dataclasses whose generated methods are compiled together and cached
# (FrozenBatch: what every command pays at start-up, issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass


@dataclass(frozen=True, slots=True)
class LosCounter:
    """A LOS counter placed on a hex in a game state (smoke, a blaze ...).

    ``hindrance``: DRM it adds to every line crossing its hex (not the end
    hexes).  ``blocks``: it is an obstacle over the whole hex up to
    ``height`` levels above the hex's ground (a multiple of 0.5).  The
    values come from whichever rule places the counter, e.g. a smoke
    counter placed by a mortar is ``LosCounter("smoke", hindrance=3)``.
    """

    kind: str
    hindrance: int = 0
    blocks: bool = False
    height: float = 1.0
    rule: str = ""

    def __post_init__(self) -> None:
        if self.hindrance < 0:
            raise LosError(f"LOS counter {self.kind!r}: hindrance must be >= 0, not {self.hindrance}")
        if self.blocks and (self.height <= 0 or (2 * self.height) != int(2 * self.height)):
            raise LosError(f"LOS counter {self.kind!r}: height must be a positive multiple of 0.5, not {self.height}")


#: LOS counters per hex, as a game state holds them.
LosCounters = Mapping[Hex, Sequence[LosCounter]]


@dataclass(frozen=True, slots=True)
class HindranceHex:
    """One hindrance on a line: the hex, its DRM and what it is."""

    hex: Hex
    drm: int
    cause: str


@dataclass(frozen=True, slots=True)
class LosResult:
    """The answer to one LOS question (CONTRACTS 3).

    ``hexes``: the hexes whose interior the line crosses, observer first and
    target last (a line along a hexside crosses neither hex of that side).
    ``blocked_by``: the first blocking hex seen from the observer.
    ``hindrances``: how many hindrance hexes the line crosses (for a blocked
    line, those before the block); ``hindrance_hexes`` lists them in order
    from the observer with their DRM (what :func:`fire_hindrance` uses).
    """

    clear: bool
    hindrances: int
    blocked_by: Hex | None
    hexes: tuple[Hex, ...]
    reason: str
    hindrance_hexes: tuple[HindranceHex, ...] = ()

    @property
    def hindrance_drm(self) -> int:
        return sum(h.drm for h in self.hindrance_hexes)

    def as_json(self) -> dict[str, Any]:
        """The CONTRACTS 4 ``gwasl los`` object, with a few extra fields."""
        return {
            "clear": self.clear,
            "hindrances": self.hindrances,
            "blocked_by": self.blocked_by.label if self.blocked_by is not None else None,
            "hindrance_drm": self.hindrance_drm,
            "hindrance_hexes": [{"hex": h.hex.label, "drm": h.drm, "cause": h.cause} for h in self.hindrance_hexes],
            "hexes": [h.label for h in self.hexes],
            "reason": self.reason,
        }


# ---------------------------------------------------------------------------
# Positions (ASLGW 2.1.1, 2.1.5, 2.2.2)
# ---------------------------------------------------------------------------
_NEEDS = {
    Position.DEEP_TRENCH: FortificationKind.DEEP_TRENCH,
    Position.DEEP_TRENCH_CREST: FortificationKind.DEEP_TRENCH,
    Position.DUGOUT: FortificationKind.DUGOUT,
}
_SEALED = {
    Position.DEEP_TRENCH: "ASLGW 2.1.5: a unit IN a deep trench is seen only from its own hex and sees nothing outside it",
    Position.DUGOUT: "ASLGW 2.2.2: LOS into or out of a dugout exists only within its own hex",
}


def _position(value: Position | str, what: str) -> Position:
    try:
        return Position(value)
    except ValueError:
        raise LosError(f"{what} position {value!r} is not one of {', '.join(p.value for p in Position)}") from None


def _check_position(scenario: Scenario, h: Hex, pos: Position, what: str) -> None:
    need = _NEEDS.get(pos)
    if need is not None and not scenario.map.has_fortification(h, need):
        raise LosError(f"{what} hex {h.label} has no {need.value.replace('_', ' ')}, so no unit can be in position {pos.value!r} there")


# ---------------------------------------------------------------------------
# The prepared map
# ---------------------------------------------------------------------------
def _half(x: float, where: str) -> int:
    v = 2 * x
    if v != int(v):
        raise LosError(f"{where}: height {x} is not a multiple of half a level")
    return int(v)


def _ceil_half(c: int) -> int:
    return (c + (c & 1)) >> 1


@lru_cache(maxsize=8)
def _hexes_by_flat(columns: int, rows: int) -> tuple[Hex, ...]:
    """Hex of each padded flat index, shared per map size; the padding holds the
    hexes just off the map (hexside stretches along the edge graze them)."""
    stride = rows + 2
    return tuple(Hex.from_offset(i // stride - 1, i % stride - 1) for i in range((columns + 2) * stride))


@lru_cache(maxsize=4096)
def _outline_cached(key: tuple[tuple[float, ...], ...]) -> Outline:
    return parse_outline(key, "?")


def _outline(value: Any, label: str) -> Outline:
    """:func:`parse_outline`, cached by value so rebuilding an index after an edit
    does not re-validate every unchanged outline; errors name ``label``."""
    try:
        key = tuple(tuple(p) for p in value)
        hash(key)
    except TypeError:
        return parse_outline(value, label)
    try:
        return _outline_cached(key)
    except OutlineError:
        return parse_outline(value, label)


#: how many answers one :class:`LosIndex` keeps (a 30 x 30 map has 810,000 lines)
_ANSWERS_MAX = 65536


class LosIndex:
    """A map prepared for fast exact LOS queries (CONTRACTS 3).

    Building one reads the terrain into flat lists (milliseconds; numpy arrays
    of them are made when a bulk query first needs them); the
    geometry templates depend only on the map's size and are shared by every
    index of that size, so rebuilding after an edit is cheap.

    >>> from gwasl.model.scenario_io import scenario_from_text
    >>> s = scenario_from_text('''{"format": "gwasl-scenario/1", "title": "t", "date": "1916-07-01",
    ...   "map": {"columns": 3, "rows": 3, "hexes": {"B2": {"terrain": "stone_building"}}},
    ...   "sides": {"a": {"nationality": "german"}, "b": {"nationality": "french"}}, "units": []}''')
    >>> idx = LosIndex(s)
    >>> Hex.from_label("B3") in idx.visible_from(Hex.from_label("B1"))
    False
    """

    def __init__(self, scenario: Scenario, counters: LosCounters | None = None):
        self.scenario = scenario
        self.counters: LosCounters = MappingProxyType(dict(counters or {}))
        m = scenario.map
        C, R = m.columns, m.rows
        self.columns, self.rows = C, R
        self.stride = R + 2
        n = (C + 2) * (R + 2)
        table = terrain_table()
        # Plain lists (what single queries read); the numpy arrays that bulk queries
        # read are made from them on first use, so one LOS query never imports numpy.
        top_full = [_NEVER] * n
        # 1 where the whole-hex top is a terrain obstacle's (blocks a line at its
        # top, ASL A6.2), 0 where it is a hill's ground (blocks only below it).
        at_top = [0] * n
        top_out = [_NEVER] * n
        out_id = [-1] * n
        side_mask = [0] * n
        hind = [0] * n
        hind_top = [_NEVER] * n
        ctr = [0] * n
        level2 = [0] * n
        self.outlines: list[Outline] = []
        self._outline_hex: list[Hex] = []
        default = table[m.default_terrain]
        # Whole map at its default terrain, level 0 ...
        on = [(c + 1) * self.stride + r + 1 for c in range(C) for r in range(R)]
        default_top = 0 if default.obstacle_height is None else _half(default.obstacle_height, "terrain table")
        default_at_top = 0 if default.obstacle_height is None else 1
        for i in on:
            top_full[i] = default_top
            at_top[i] = default_at_top
            if default.hindrance:
                hind[i] = default.hindrance
                hind_top[i] = 2 * HINDRANCE_HEIGHT
        # ... then every hex the scenario describes.
        for h, d in m.hexes.items():
            if not m.contains(h):
                continue
            i = self.flat(h)
            info = table[d.terrain if d.terrain is not None else m.default_terrain]
            lv = 2 * d.level
            level2[i] = lv
            at_top[i] = 0
            # The map's default terrain is replaced, hindrance included: a woods,
            # building or rubble hex (the rest of an outlined hex is open ground,
            # docs/format/los.md) never keeps a default brush/grain/orchard hindrance.
            hind[i] = 0
            hind_top[i] = _NEVER
            outline_value = d.extra.get("outline") if d.extra else None
            if info.obstacle_height is not None:
                top = lv + _half(info.obstacle_height, "terrain table")
                if outline_value is not None:
                    o = _outline(outline_value, h.label)
                    if o.is_full_hex:
                        top_full[i] = top
                        at_top[i] = 1
                    else:
                        top_full[i] = lv
                        top_out[i] = top
                        out_id[i] = len(self.outlines)
                        side_mask[i] = o.side_mask
                        self.outlines.append(o)
                        self._outline_hex.append(h)
                else:
                    top_full[i] = top
                    at_top[i] = 1
            else:
                if outline_value is not None:
                    _outline(outline_value, h.label)  # still a malformed field: say so
                top_full[i] = lv
                hind[i] = info.hindrance
                hind_top[i] = lv + 2 * HINDRANCE_HEIGHT if info.hindrance else _NEVER
        for h, cs in self.counters.items():
            if not m.contains(h):
                raise LosError(f"LOS counter hex {h} is outside the {C} x {R} map")
            i = self.flat(h)
            for c in cs:
                ctr[i] += c.hindrance
                if c.blocks:
                    ct = level2[i] + _half(c.height, f"counter {c.kind}")
                    if ct >= top_full[i]:
                        top_full[i], at_top[i] = ct, 1
        self._l_top_full = top_full
        self._l_top_out = top_out
        self._l_out = out_id
        self._l_mask = side_mask
        self._l_hind = hind
        self._l_hind_top = hind_top
        # Thresholds for level lines (both ends at one height h, an integer in
        # half levels): "h at or below T" is "h < T + 1".  Sloping lines use the
        # plain tops, strict: a sloping stretch of positive length is at or below
        # a top exactly when part of it is strictly below (docs/rules-notes.md).
        self._l_top_full_lvl = [t + a for t, a in zip(top_full, at_top)]
        self._l_top_out_lvl = [t + 1 for t in top_out]
        self._l_hind_top_lvl = [t + 1 for t in hind_top]
        self._l_at_top = at_top
        self._l_ctr = ctr
        self._l_level2 = level2
        self._hexes_by_flat = _hexes_by_flat(C, R)
        # the answers already given (the index is immutable): the legal lists, the fire odds
        # and the opponent trace the same lines again and again.  Bounded: emptied when full.
        self._answers: dict[tuple[object, ...], LosResult] = {}

    # The same map as numpy arrays, for bulk queries (made on first use).
    @cached_property
    def top_full(self) -> np.ndarray:
        return np.array(self._l_top_full, dtype=np.int32)

    @cached_property
    def at_top(self) -> np.ndarray:
        return np.array(self._l_at_top, dtype=np.int32)

    @cached_property
    def top_out(self) -> np.ndarray:
        return np.array(self._l_top_out, dtype=np.int32)

    @cached_property
    def out_id(self) -> np.ndarray:
        return np.array(self._l_out, dtype=np.int32)

    @cached_property
    def side_mask(self) -> np.ndarray:
        return np.array(self._l_mask, dtype=np.int16)

    @cached_property
    def hind(self) -> np.ndarray:
        return np.array(self._l_hind, dtype=np.int16)

    @cached_property
    def hind_top(self) -> np.ndarray:
        return np.array(self._l_hind_top, dtype=np.int32)

    @cached_property
    def ctr(self) -> np.ndarray:
        return np.array(self._l_ctr, dtype=np.int16)

    @cached_property
    def level2(self) -> np.ndarray:
        return np.array(self._l_level2, dtype=np.int32)

    @cached_property
    def top_full_lvl(self) -> np.ndarray:
        return np.array(self._l_top_full_lvl, dtype=np.int32)

    @cached_property
    def top_out_lvl(self) -> np.ndarray:
        return np.array(self._l_top_out_lvl, dtype=np.int32)

    @cached_property
    def hind_top_lvl(self) -> np.ndarray:
        return np.array(self._l_hind_top_lvl, dtype=np.int32)

    @cached_property
    def _hull(self) -> tuple[np.ndarray, np.ndarray]:
        k = max((len(o.hull) for o in self.outlines), default=1)
        hv = np.zeros((max(len(self.outlines), 1), k, 2), dtype=np.int64)
        for j, o in enumerate(self.outlines):
            pts = list(o.hull) + [o.hull[0]] * (k - len(o.hull))
            hv[j] = pts
        return hv[:, :, 0], hv[:, :, 1]

    @property
    def hull_x(self) -> np.ndarray:
        return self._hull[0]

    @property
    def hull_y(self) -> np.ndarray:
        return self._hull[1]

    def prepare(self) -> LosIndex:
        """Build the rest of the map-size templates now (about a second on 16 boards,
        once per map size and process); queries otherwise build the offsets they
        need as they go.  Safe from a worker thread.  Returns ``self``."""
        if keeps_map_templates(self.columns, self.rows):
            for parity in (0, 1):
                map_templates(self.columns, self.rows, parity).ensure_all()
        return self

    # -- indexing ---------------------------------------------------------------
    def flat(self, h: Hex) -> int:
        """Padded flat index of ``h`` (see :class:`gwasl.rules.los_kernel.MapTemplates`)."""
        return (h.q + 1) * self.stride + h.r + _ceil_half(h.q) + 1

    def with_counters(self, counters: LosCounters | None) -> LosIndex:
        """The same map with other LOS counters."""
        return LosIndex(self.scenario, counters)

    def _require(self, h: Hex, what: str) -> None:
        if not isinstance(h, Hex):
            raise LosError(f"{what} must be a Hex, not {type(h).__name__}")
        if not self.scenario.map.contains(h):
            raise LosError(f"{what} hex {h} is outside the {self.columns} x {self.rows} map")

    def _describe(self, h: Hex) -> str:
        m = self.scenario.map
        t = m.terrain_at(h).value.replace("_", " ")
        lv = m.level_at(h)
        return f"{t} in {h.label}" + (f" (level {lv})" if lv else "")

    # -- one query ----------------------------------------------------------------
    def los(
        self,
        from_hex: Hex,
        to_hex: Hex,
        from_in: Position | str = Position.GROUND,
        to_in: Position | str = Position.GROUND,
    ) -> LosResult:
        """LOS from ``from_hex`` to ``to_hex`` (CONTRACTS 3, ASLGW 2.1.5, 2.2.2).

        Positions ``from_in`` / ``to_in`` are the units' ``in`` values: a unit
        IN a deep trench or a dugout sees and is seen only within its own hex;
        at crest status (ASLGW 2.1.1) or anywhere else it sees like any unit
        of its hex.
        """
        key = (from_hex, to_hex, from_in, to_in)
        try:
            kept = self._answers.get(key)
        except TypeError:  # an unhashable argument: the checks below name it
            kept, key = None, None
        if kept is not None:
            return kept
        answer = self._los(from_hex, to_hex, from_in, to_in)
        if key is not None:
            if len(self._answers) >= _ANSWERS_MAX:
                self._answers.clear()
            self._answers[key] = answer
        return answer

    def _los(self, from_hex: Hex, to_hex: Hex, from_in: Position | str, to_in: Position | str) -> LosResult:
        from_in, to_in = _position(from_in, "from"), _position(to_in, "to")
        self._require(from_hex, "from")
        self._require(to_hex, "to")
        _check_position(self.scenario, from_hex, from_in, "from")
        _check_position(self.scenario, to_hex, to_in, "to")
        if from_hex == to_hex:
            return LosResult(True, 0, None, (from_hex,), f"clear: same hex {from_hex.label} (CONTRACTS 3; ASLGW 2.1.5, 2.2.2)")
        for h, pos in ((from_hex, from_in), (to_hex, to_in)):
            if pos in _SEALED:
                return LosResult(False, 0, h, self._line_hexes(from_hex, to_hex), f"blocked: {_SEALED[pos]} ({h.label})")
        return self._geometric(from_hex, to_hex)

    def _template(self, a: Hex, b: Hex) -> tuple[Iterable[tuple[int, ...]], Iterable[tuple[int, ...]]]:
        """Entries ``(flat, n0, d0, n1, d1)`` and pairs ``(flat1, flat2, k, u0n, u0d, u1n, u1d)``
        of the line a->b, from the map's templates if built, else from the
        per-offset cache (so one query never pays for the whole map's)."""
        fa = self.flat(a)
        mt = peek_map_templates(self.columns, self.rows, a.column & 1)
        o = int(mt.offset_index(b.column - a.column, b.row - a.row)) if mt is not None else -1
        if mt is not None and mt.has(o):
            s, e = int(mt.start[o]), int(mt.end[o])
            entries = zip(
                (fa + x for x in mt.rel[s:e].tolist()),
                mt.n0[s:e].tolist(), mt.d0[s:e].tolist(), mt.n1[s:e].tolist(), mt.d1[s:e].tolist(),
            )
            ps, pe = int(mt.pstart[o]), int(mt.pend[o])
            if ps == pe:
                return entries, ()
            pairs = zip(
                (fa + x for x in mt.p1rel[ps:pe].tolist()),
                (fa + x for x in mt.p2rel[ps:pe].tolist()),
                mt.pk[ps:pe].tolist(),
                mt.u0n[ps:pe].tolist(), mt.u0d[ps:pe].tolist(), mt.u1n[ps:pe].tolist(), mt.u1d[ps:pe].tolist(),
            )
            return entries, pairs
        ents, prs = offset_template(b.q - a.q, b.r - a.r)
        qa, ra = a.q, a.r
        flat = self._flat_qr
        entries = [(flat(qa + hq, ra + hr), n0, d0, n1, d1) for hq, hr, _hx, _hy, n0, d0, n1, d1 in ents]
        pairs = [
            (flat(qa + p1q, ra + p1r), flat(qa + p1q + SIDE_NEIGHBOUR[k][0], ra + p1r + SIDE_NEIGHBOUR[k][1]), k, u0n, u0d, u1n, u1d)
            for p1q, p1r, k, u0n, u0d, u1n, u1d in prs
        ]
        return entries, pairs

    def _flat_qr(self, q: int, r: int) -> int:
        return (q + 1) * self.stride + r + _ceil_half(q) + 1

    def _hex_at_flat(self, i: int) -> Hex:
        return self._hexes_by_flat[i]

    def _line_hexes(self, a: Hex, b: Hex) -> tuple[Hex, ...]:
        entries, _ = self._template(a, b)
        return (a,) + tuple(self._hexes_by_flat[e[0]] for e in entries) + (b,)

    def _geometric(self, a: Hex, b: Hex) -> LosResult:
        entries, pairs = self._template(a, b)
        fa = self.flat(a)
        ha = self._l_level2[fa]
        dh = self._l_level2[self.flat(b)] - ha
        rising = dh >= 0
        if dh == 0:  # a level line: obstacles block it at their top (A6.2), hills only below
            top_full, top_out, hind_top = self._l_top_full_lvl, self._l_top_out_lvl, self._l_hind_top_lvl
        else:
            top_full, top_out, hind_top = self._l_top_full, self._l_top_out, self._l_hind_top
        out_l, at_top = self._l_out, self._l_at_top
        hind, ctr = self._l_hind, self._l_ctr
        by_flat = self._hexes_by_flat
        crossed: list[Hex] = [a]
        hinders: list[tuple[float, HindranceHex]] = []
        block: tuple[float, Hex, str] | None = None
        for i, n0, d0, n1, d1 in entries:
            h = by_flat[i]
            crossed.append(h)
            if block is not None:
                continue
            if rising:
                lhs = ha * d0 + dh * n0
                dmin = d0
            else:
                lhs = ha * d1 + dh * n1
                dmin = d1
            T = top_full[i]
            if lhs < T * dmin:
                block = (n0 / d0, h, self._block_reason(h, i, None if at_top[i] else "the hill"))
                continue
            o = out_l[i]
            if o >= 0 and lhs < top_out[i] * dmin:
                To = top_out[i]
                hx, hy = FINE * 3 * (h.q - a.q), FINE * (2 * (h.r - a.r) + (h.q - a.q))
                bx, by = 3 * (b.q - a.q), 2 * (b.r - a.r) + (b.q - a.q)
                if (ha * d0 + dh * n0 < To * d0) if not rising else (ha * d1 + dh * n1 < To * d1):
                    # Wholly below the top: the line crosses the whole hex, so it enters
                    # the outline iff hull vertices lie strictly on both sides of it.
                    crs = [bx * (hy + vy) - by * (hx + vx) for vx, vy in self.outlines[o].hull]
                    hit = max(crs) > 0 and min(crs) < 0
                else:
                    # At the top's height inside the hex: exact, on the real polygon
                    # (not its hull), cut where the line meets its boundary.
                    poly = [(hx + vx, hy + vy) for vx, vy in self.outlines[o].vertices]
                    hit = segment_enters_below((0, 0), (FINE * bx, FINE * by), poly, ha, ha + dh, self._l_top_out[i], True)[0]
                if hit:
                    block = (n0 / d0, h, self._block_reason(h, i, "outline"))
                    continue
            drm = ctr[i]
            if hind[i] and lhs < hind_top[i] * dmin:
                drm += hind[i]
            if drm:
                hinders.append((n0 / d0, HindranceHex(h, drm, self._hindrance_cause(h, i, lhs < hind_top[i] * dmin))))
        crossed.append(b)
        for i1, i2, k, u0n, u0d, u1n, u1d in pairs:
            t = u0n / u0d
            if block is not None and block[0] < t:
                break
            if rising:
                lhs, dmin = ha * u0d + dh * u0n, u0d
            else:
                lhs, dmin = ha * u1d + dh * u1n, u1d
            blocks = True
            best = (0, -1, False)
            for i, side in ((i1, k), (i2, k + 3)):
                full = lhs < top_full[i] * dmin
                part = out_l[i] >= 0 and (self._l_mask[i] >> side) & 1 and lhs < top_out[i] * dmin
                blocks = blocks and bool(full or part)
                below_h = bool(hind[i]) and lhs < hind_top[i] * dmin
                d = ctr[i] + (hind[i] if below_h else 0)
                if d > best[0]:
                    best = (d, i, below_h)
            h1, h2 = self._hex_at_flat(i1), self._hex_at_flat(i2)
            if blocks:
                block = (t, min(h1, h2), f"blocked: the line runs along the hexside {h1}|{h2} and both hexes block "
                         "(CONTRACTS 3; docs/rules-notes.md, lines along hexsides)")
                continue
            if best[0]:
                h = self._hex_at_flat(best[1])
                hinders.append((t, HindranceHex(h, best[0], f"{self._hindrance_cause(h, best[1], best[2])} along the hexside {h1}|{h2}")))
        hinders.sort(key=lambda x: x[0])
        if block is not None:
            hh = tuple(x[1] for x in hinders if x[0] < block[0])
            return LosResult(False, len(hh), block[1], tuple(crossed), block[2], hh)
        hh = tuple(x[1] for x in hinders)
        if hh:
            reason = (
                f"clear from {a.label} to {b.label}, {len(hh)} hindrance hex{'es' if len(hh) > 1 else ''} ("
                + "; ".join(f"{x.hex} {x.cause} +{x.drm}" for x in hh)
                + ") (CONTRACTS 3)"
            )
        else:
            reason = f"clear from {a.label} to {b.label}: nothing blocks or hinders (CONTRACTS 3)"
        return LosResult(True, len(hh), None, tuple(crossed), reason, hh)

    def _hindrance_cause(self, h: Hex, i: int, terrain: bool) -> str:
        parts = []
        if terrain:
            parts.append(self.scenario.map.terrain_at(h).value.replace("_", " "))
        parts.extend(f"{c.kind} counter" for c in self.counters.get(h, ()) if c.hindrance)
        return " + ".join(parts)

    def _block_reason(self, h: Hex, i: int, what: str | None) -> str:
        lv = self._l_level2[i] / 2
        lvs = f"{lv:g}"
        if what == "the hill":
            return f"blocked by the hill in {h.label} (level {lvs}), the line passes below it (CONTRACTS 3)"
        counters = [c.kind for c in self.counters.get(h, ()) if c.blocks]
        top = (self._l_top_out[i] if what == "outline" else self._l_top_full[i]) / 2
        shape = "drawn outline of " if what == "outline" else ""
        thing = self._describe(h) if not counters or what == "outline" else f"{', '.join(counters)} counter in {h.label}"
        return f"blocked by the {shape}{thing}, top level {top:g}, the line is not above it (CONTRACTS 3, ASL A6.2)"

    # -- many queries -----------------------------------------------------------------
    def visible_from(self, h: Hex, from_in: Position | str = Position.GROUND) -> frozenset[Hex]:
        """Every hex of the map a unit in ``h`` sees (targets at ground level or
        crest status), ``h`` itself included: the one-to-all LOS map.
        """
        by_flat = self._hexes_by_flat
        return frozenset([by_flat[i] for i in self.visible_flat(h, from_in).tolist()])

    def visible_mask(self, h: Hex, from_in: Position | str = Position.GROUND) -> np.ndarray:
        """Boolean array ``[column, row]`` of the hexes ``h`` sees."""
        out = np.zeros(self.columns * self.rows, dtype=bool)
        idx = self.visible_flat(h, from_in)
        cols = idx // self.stride - 1
        rows = idx % self.stride - 1
        out[cols * self.rows + rows] = True
        return out.reshape(self.columns, self.rows)

    def visible_flat(self, h: Hex, from_in: Position | str = Position.GROUND) -> np.ndarray:
        """Padded flat indices of the hexes ``h`` sees (see :meth:`visible_from`)."""
        from_in = _position(from_in, "from")
        self._require(h, "from")
        _check_position(self.scenario, h, from_in, "from")
        fa = self.flat(h)
        if from_in in _SEALED:
            return np.array([fa], dtype=np.int64)
        C, R = self.columns, self.rows
        ca, ra = h.column, h.row
        dcol = np.arange(-ca, C - ca, dtype=np.int64)
        drow = np.arange(-ra, R - ra, dtype=np.int64)
        targets = ((dcol[:, None] + ca + 1) * self.stride + (drow[None, :] + ra + 1)).reshape(-1)
        if not keeps_map_templates(C, R):
            return np.asarray(targets[~self._blocked_huge(fa, ca & 1, dcol, drow, targets)])
        mt = map_templates(C, R, ca & 1)
        O = ((dcol[:, None] + C - 1) * (2 * R - 1) + (drow[None, :] + R - 1)).reshape(-1)
        mt.ensure(O)  # only this hex's offsets not built before (lazily per offset)
        nq = len(O)
        blocked = self._blocked(mt, O, np.full(nq, fa, dtype=np.int64), targets)
        return np.asarray(targets[~blocked])

    #: Targets per batch of a one-to-all query on a huge map: the templates of a
    #: batch take about 40 KB per target while built (issue 17.8: 1.6 GB at once
    #: on the largest legal map).
    _HUGE_MAP_BATCH = 2048
    #: The stretches of a line a one-to-all query on a huge map tests in turn
    #: (hexes within 8 of the observer, then 32, then the rest): most lines of a
    #: real map are blocked in the first, so the rest is built for few lines.
    _HUGE_MAP_STAGES: tuple[int | None, ...] = (8, 32, None)

    def _blocked_huge(self, fa: int, parity: int, dcol: np.ndarray, drow: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """Blocked flags of one observer's targets on a map too big to keep its templates:
        this observer's offsets only, not kept, built a band of columns at a time, a
        stretch of the line at a time, and only at the hexes that can block (:meth:`_may_block`).

        A line is blocked when one of its hexes (or hexside stretches) blocks it, so
        testing its hexes in disjoint parts and stopping at the first part that
        blocks gives the answer of the whole template.
        """
        R = len(drow)
        blocked = np.zeros(len(targets), dtype=bool)
        all_dcol, all_drow = np.repeat(dcol, R), np.tile(drow, len(dcol))
        ha = int(self.level2[fa])
        target_level = self.level2[targets]
        # Targets grouped by the lower end of their lines: each group's lines skip every hex
        # no higher than that (one gully hex does not make every open hex a candidate).
        for low in np.unique(np.minimum(target_level, ha)).tolist():
            group = np.nonzero(np.minimum(target_level, ha) == low)[0]
            mask = self._may_block(low)
            if not mask.any():  # nothing on the map rises above these lines: every target is seen
                continue
            far: int | None = None
            for near in self._HUGE_MAP_STAGES:
                todo = group[~blocked[group]]
                for b0 in range(0, len(todo), self._HUGE_MAP_BATCH):
                    sel = todo[b0 : b0 + self._HUGE_MAP_BATCH]
                    mt = templates_for(self.columns, self.rows, parity, all_dcol[sel], all_drow[sel], (mask, fa), near, far)
                    n = len(sel)
                    blocked[sel] = self._blocked(mt, np.arange(n), np.full(n, fa, dtype=np.int64), targets[sel])
                far = near
        return blocked

    def _may_block(self, low: int) -> np.ndarray:
        """Boolean per padded flat index: the hexes that can block a line whose lower
        end is at ``low`` (half levels).

        A line is nowhere below the lower of its two ends, and every test of
        :meth:`_entries_blocked` and of the hexside stretches in :meth:`_blocked`
        needs a top above the line's height there; so a hex whose tops (whole hex,
        outline, at or below for level lines) are all at or below ``low`` blocks
        nothing on it (an open map: no hex at all).  One-to-all queries on huge
        maps skip them.
        """
        return (self.top_full_lvl > low) | ((self.out_id >= 0) & (self.top_out_lvl > low))

    def clear_many(self, a_hexes: Sequence[Hex], b_hexes: Sequence[Hex]) -> np.ndarray:
        """Clear flags of many ground-level LOS checks ``a[i] -> b[i]`` at once."""
        fa = np.fromiter((self.flat(h) for h in a_hexes), dtype=np.int64)
        fb = np.fromiter((self.flat(h) for h in b_hexes), dtype=np.int64)
        for h in list(a_hexes) + list(b_hexes):
            self._require(h, "LOS")
        return self.clear_many_flat(fa, fb)

    def clear_many_flat(self, fa: np.ndarray, fb: np.ndarray) -> np.ndarray:
        """:meth:`clear_many` on padded flat indices (no Hex objects: bulk speed)."""
        fa = np.asarray(fa, dtype=np.int64)
        fb = np.asarray(fb, dtype=np.int64)
        out = np.empty(len(fa), dtype=bool)
        ca = fa // self.stride - 1
        cb = fb // self.stride - 1
        for parity in (0, 1):
            sel = np.nonzero((ca & 1) == parity)[0]
            if len(sel) == 0:
                continue
            dcol = cb[sel] - ca[sel]
            drow = (fb[sel] % self.stride) - (fa[sel] % self.stride)
            if keeps_map_templates(self.columns, self.rows):
                mt = map_templates(self.columns, self.rows, parity)
                O = mt.offset_index(dcol, drow)
                mt.ensure(O)
            else:  # a huge map: templates of the distinct offsets asked, not kept
                key = (dcol + self.columns) * (2 * self.rows + 1) + (drow + self.rows)
                uniq, O = np.unique(key, return_inverse=True)
                mt = templates_for(self.columns, self.rows, parity, uniq // (2 * self.rows + 1) - self.columns, uniq % (2 * self.rows + 1) - self.rows)
            out[sel] = ~self._blocked(mt, O, fa[sel], fb[sel])
        return out

    # Entries examined first for every query; most lines on a real map are
    # blocked within their first few hexes, so only the rest go further.
    _FIRST_STAGE = 6

    def _blocked(self, mt: SomeMapTemplates, O: Arr, fa: Arr, fb: Arr) -> Arr:
        """Blocked flags for queries (observer fa, target fb, template offset O)."""
        nq = len(O)
        ha_q = self.level2[fa]
        dh_q = self.level2[fb] - ha_q
        blocked = np.zeros(nq, dtype=bool)
        s = mt.start[O]
        e = mt.end[O]
        cut = np.minimum(e, s + self._FIRST_STAGE)
        fallback: list[np.ndarray] = []
        qs = np.arange(nq)
        blk_q, fb_q = self._entries_blocked(mt, qs, s, cut, fa, fb, ha_q, dh_q)
        blocked |= blk_q
        fallback.append(np.nonzero(fb_q)[0])
        rest = np.nonzero(~blocked & (e > cut))[0]
        if len(rest):
            blk_q, fb_q = self._entries_blocked(mt, rest, cut[rest], e[rest], fa, fb, ha_q, dh_q)
            blocked |= blk_q
            fallback.append(np.nonzero(fb_q)[0])
        # Pairs (stretches along hexsides): blocked when both hexes block.
        open_q = np.nonzero(~blocked)[0]
        ps = mt.pstart[O[open_q]]
        plens = mt.pend[O[open_q]] - ps
        ptot = int(plens.sum())
        if ptot:
            pq = np.repeat(open_q, plens)
            pi = np.arange(ptot) - np.repeat(np.cumsum(plens) - plens, plens) + np.repeat(ps, plens)
            rising = (dh_q >= 0)[pq]
            level = (dh_q == 0)[pq]
            nmin = np.where(rising, mt.u0n[pi], mt.u1n[pi]).astype(np.int32)
            dmin = np.where(rising, mt.u0d[pi], mt.u1d[pi]).astype(np.int32)
            lhs = ha_q[pq] * dmin + dh_q[pq] * nmin
            k = mt.pk[pi].astype(np.int16)
            both = np.ones(ptot, dtype=bool)
            for rel, side in ((mt.p1rel, k), (mt.p2rel, k + 3)):
                Hp = fa[pq] + rel[pi]
                # Level lines: obstacles block at their top (the *_lvl thresholds).
                tf = np.where(level, self.top_full_lvl[Hp], self.top_full[Hp])
                to = np.where(level, self.top_out_lvl[Hp], self.top_out[Hp])
                full = lhs < tf * dmin
                part = (self.out_id[Hp] >= 0) & (((self.side_mask[Hp] >> side) & 1) == 1) & (lhs < to * dmin)
                both &= full | part
            blocked[pq[both]] = True
        # Exact fallback: outline hexes the line crosses at the height of the outline's top.
        for j in np.unique(np.concatenate(fallback)):
            if not blocked[j]:
                a, b = self._hex_at_flat(int(fa[j])), self._hex_at_flat(int(fb[j]))  # both on the map
                blocked[j] = not self._geometric(a, b).clear
        return blocked

    def _entries_blocked(
        self, mt: SomeMapTemplates, qs: Arr, s: Arr, e: Arr, fa: Arr, fb: Arr, ha_q: Arr, dh_q: Arr
    ) -> tuple[Arr, Arr]:
        """Masks (over all queries) of the queries ``qs`` blocked by a hex among
        their entries ``s[i]:e[i]``, and of those needing the exact fallback
        (an outline crossed by a sloping line at the height of its top).

        Level lines and sloping lines are tested apart: a level line at
        height h is blocked by an obstacle when h <= top (the ``*_lvl``
        thresholds), a sloping one when it is strictly below the top
        somewhere inside the area (the same thing for a stretch of positive
        length), so neither needs the other's arithmetic.
        """
        blk_q = np.zeros(len(fa), dtype=bool)
        fb_q = np.zeros(len(fa), dtype=bool)
        flat_q = dh_q[qs] == 0
        if flat_q.all():
            self._entries_level(mt, qs, s, e, fa, fb, ha_q, blk_q)
        elif not flat_q.any():
            self._entries_sloping(mt, qs, s, e, fa, fb, ha_q, dh_q, blk_q, fb_q)
        else:
            self._entries_level(mt, qs[flat_q], s[flat_q], e[flat_q], fa, fb, ha_q, blk_q)
            sl = ~flat_q
            self._entries_sloping(mt, qs[sl], s[sl], e[sl], fa, fb, ha_q, dh_q, blk_q, fb_q)
        return blk_q, fb_q

    @staticmethod
    def _gather(qs: Arr, s: Arr, e: Arr, mt: SomeMapTemplates, fa: Arr) -> tuple[Arr, Arr, Arr] | None:
        lens = e - s
        tot = int(lens.sum())
        if tot == 0:
            return None
        qi = np.repeat(qs, lens)
        ei = np.arange(tot) - np.repeat(np.cumsum(lens) - lens, lens) + np.repeat(s, lens)
        return qi, ei, fa[qi] + mt.rel[ei]

    def _entries_level(self, mt: SomeMapTemplates, qs: Arr, s: Arr, e: Arr, fa: Arr, fb: Arr, ha_q: Arr, blk_q: Arr) -> None:
        """:meth:`_entries_blocked` for level lines (dh == 0): one height, no fractions."""
        g = self._gather(qs, s, e, mt, fa)
        if g is None:
            return
        qi, _ei, H = g
        ha_e = ha_q[qi]
        blk_q[qi[ha_e < self.top_full_lvl[H]]] = True
        oi = np.nonzero(self.out_id[H] >= 0)[0]
        oi = oi[~blk_q[qi[oi]]]
        oi = oi[ha_e[oi] < self.top_out_lvl[H[oi]]]
        if len(oi):
            # At or below the outline's top all through the hex: the hull test decides.
            hit = self._hull_hit(fa[qi[oi]], fb[qi[oi]], H[oi], self.out_id[H[oi]])
            blk_q[qi[oi[hit]]] = True

    def _entries_sloping(
        self, mt: SomeMapTemplates, qs: Arr, s: Arr, e: Arr, fa: Arr, fb: Arr, ha_q: Arr, dh_q: Arr, blk_q: Arr, fb_q: Arr
    ) -> None:
        """:meth:`_entries_blocked` for sloping lines: exact fractions of the entry/exit heights."""
        g = self._gather(qs, s, e, mt, fa)
        if g is None:
            return
        qi, ei, H = g
        ha_e = ha_q[qi]
        dh_e = dh_q[qi]
        rising = dh_e >= 0
        nmin = np.where(rising, mt.n0[ei], mt.n1[ei]).astype(np.int32)
        dmin = np.where(rising, mt.d0[ei], mt.d1[ei]).astype(np.int32)
        lhs = ha_e * dmin + dh_e * nmin
        blk_q[qi[lhs < self.top_full[H] * dmin]] = True
        oi = np.nonzero(self.out_id[H] >= 0)[0]
        oi = oi[~blk_q[qi[oi]]]
        To = self.top_out[H[oi]]
        below = lhs[oi] < To * dmin[oi]
        oi, To = oi[below], To[below]
        if len(oi) == 0:
            return
        r2 = rising[oi]
        eo = ei[oi]
        nmax = np.where(r2, mt.n1[eo], mt.n0[eo]).astype(np.int32)
        dmax = np.where(r2, mt.d1[eo], mt.d0[eo]).astype(np.int32)
        # Below the top all through the hex: the hull test decides; otherwise
        # the line reaches the top inside the hex: the exact fallback.
        fully = ha_e[oi] * dmax + dh_e[oi] * nmax < To * dmax
        hit = self._hull_hit(fa[qi[oi]], fb[qi[oi]], H[oi], self.out_id[H[oi]])
        blk_q[qi[oi[hit & fully]]] = True
        fb_q[qi[oi[~fully]]] = True

    def _hull_hit(self, fa: Arr, fb: Arr, H: Arr, oid: Arr) -> Arr:
        """Does the line a->b enter the interior of outline ``oid`` of hex ``H``?

        The line crosses the whole hex (neither end is in it), so it enters
        the outline exactly when its direction lies strictly between the
        outline's extreme directions seen from ``a``, i.e. when hull
        vertices lie strictly on both sides of the line (integers).
        """
        S = self.stride
        ca, cb, ch = fa // S - 1, fb // S - 1, H // S - 1
        ra, rb, rh = fa % S - 1, fb % S - 1, H % S - 1
        X = 3 * (cb - ca)
        Y = (2 * rb - (cb & 1)) - (2 * ra - (ca & 1))
        hx = FINE * 3 * (ch - ca)
        hy = FINE * ((2 * rh - (ch & 1)) - (2 * ra - (ca & 1)))
        wx = hx[:, None] + self.hull_x[oid]
        wy = hy[:, None] + self.hull_y[oid]
        cr = X[:, None] * wy - Y[:, None] * wx
        return np.asarray((cr.max(axis=1) > 0) & (cr.min(axis=1) < 0))


# ---------------------------------------------------------------------------
# Module-level helpers
# ---------------------------------------------------------------------------
_CACHE_LOCK = threading.Lock()
_CACHE: list[tuple[object, object, LosIndex]] = []


def _index_for(scenario: Scenario, counters: LosCounters | None) -> LosIndex:
    """A cached index for this (immutable) map and counters object."""
    with _CACHE_LOCK:
        for m, c, idx in _CACHE:
            if m is scenario.map and c is counters and idx.scenario.date == scenario.date:
                return idx
    idx = LosIndex(scenario, counters)
    with _CACHE_LOCK:
        _CACHE.insert(0, (scenario.map, counters, idx))
        del _CACHE[4:]
    return idx


def los(
    scenario: Scenario,
    from_hex: Hex,
    to_hex: Hex,
    from_in: Position | str = Position.GROUND,
    to_in: Position | str = Position.GROUND,
    *,
    counters: LosCounters | None = None,
) -> LosResult:
    """LOS between two hexes of ``scenario`` (CONTRACTS 3; ASLGW 2.1.1, 2.1.5, 2.2.2).

    ``counters``: LOS counters of a game state (smoke ...) per hex.
    Raises :class:`LosError` for hexes off the map or impossible positions,
    :class:`OutlineError` for a malformed custom outline.
    """
    return _index_for(scenario, counters).los(from_hex, to_hex, from_in, to_in)


def visible_from(scenario: Scenario, h: Hex, from_in: Position | str = Position.GROUND, *, counters: LosCounters | None = None) -> frozenset[Hex]:
    """Every hex a unit in ``h`` sees (the one-to-all LOS map; see :meth:`LosIndex.visible_from`).

    (ASL A6; ASLGW 2.1.1, 2.1.5, 2.2.2.)"""
    return _index_for(scenario, counters).visible_from(h, from_in)


# ---------------------------------------------------------------------------
# ASLGW 1.7.1: garance trousers
# ---------------------------------------------------------------------------
def garance_applies(scenario: Scenario, target: str | Unit) -> bool:
    """ASLGW 1.7.1/1.7.3: the target wears garance trousers.

    ``target`` is a unit, or a side id (meaning its infantry).  French
    infantry up to 31 May 1915, except in winter, mud, mist, fog or at night;
    the data and the decision are :mod:`gwasl.rules.garance`'s.

    >>> from gwasl.model.scenario_io import scenario_from_text
    >>> s = scenario_from_text('''{"format": "gwasl-scenario/1", "title": "t", "date": "1914-09-06",
    ...   "map": {"columns": 3, "rows": 3}, "sides": {"g": {"nationality": "german"},
    ...   "f": {"nationality": "french"}}, "units": []}''')
    >>> garance_applies(s, "f"), garance_applies(s, "g")
    (True, False)
    """
    if isinstance(target, Unit):
        return wears_garance(scenario, target)
    if target not in scenario.sides:
        raise LosError(f"side {target!r} is not a side of this scenario ({', '.join(scenario.sides)})")
    return wears_garance(scenario, Unit("garance-target", target, UnitKind.SQUAD, Hex(0, 0)))


def fire_hindrance(result: LosResult, scenario: Scenario, target_side: str | Unit) -> int:
    """The LOS hindrance DRM a fire attack along ``result`` suffers.

    The sum of the hindrance hexes' DRM; when firing on French troops in
    garance trousers (ASLGW 1.7.1, see :func:`garance_applies`; ``target_side``
    may also be the target unit) the first
    hindrance hex seen from the firer is ignored.  ASLGW 1.7.1's example:
    one brush hex between German firers and charging French gives +0
    instead of +1; two brush hexes give +1 instead of +2.
    A blocked line has no fire and raises :class:`LosError`.
    """
    if not result.clear:
        raise LosError(f"no fire along a blocked LOS ({result.reason})")
    hexes = result.hindrance_hexes
    if hexes and garance_applies(scenario, target_side):
        hexes = hexes[1:]
    return sum(h.drm for h in hexes)


# ---------------------------------------------------------------------------
# Scenario check: custom outlines (docs/format/los.md)
# ---------------------------------------------------------------------------
@scenario_check
def check_outlines(s: Scenario) -> Iterator[Finding]:
    """Every ``outline`` field must be a simple polygon inside its hex; on a
    hex whose terrain is no obstacle it has no effect (warning)."""
    table = terrain_table()
    for h, d in s.map.hexes.items():
        if not d.extra or "outline" not in d.extra:
            continue
        path = f"$.map.hexes.{h}.outline"
        try:
            parse_outline(d.extra["outline"], str(h))
        except OutlineError as e:
            yield Finding(path, str(e), "CONTRACTS 3")
            continue
        t = d.terrain if d.terrain is not None else s.map.default_terrain
        if table[t].obstacle_height is None:
            yield Finding(path, f"hex {h}: outline on {t.value} has no effect; only obstacle terrain (woods, buildings, rubble) "
                          "has a blocking outline", "CONTRACTS 3", "warning")


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
