"""Fast exact LOS kernel: per-offset templates of the exact supercover, in numpy.

Which hexes a centre-to-centre segment crosses, and where it enters and
leaves each, depends only on the offset between its two ends; so does which
hexsides it runs along.  This module computes those "templates" for many
offsets at once with integer arithmetic, using the same construction as
:func:`gwasl.model.hexgrid.hex_line` (the hex as the intersection of three
open slabs in the integer lattice frame; tests check that the templates give
exactly ``hex_line``'s hexes and hexside pairs), but vectorised: ``hex_line``
takes milliseconds per new offset, a one-to-all LOS map needs thousands.

Each template entry carries the entry and exit parameters ``t0 = n0/d0`` and
``t1 = n1/d1`` (exact fractions of the way from observer to target) so a
height test ``h(t) < top`` is an integer comparison.

A map's whole set of templates (every offset between two hexes of a map of
``C`` x ``R`` hexes) is kept per column parity of the observer, indexed so
that a one-to-all query gathers contiguous slices (:class:`MapTemplates`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeAlias

from gwasl.model.batched import FrozenBatch
from gwasl.rules.lazy_numpy import LazyNumpy

if TYPE_CHECKING:
    import numpy as np
else:  # numpy is imported when an LOS is first traced, not with the rules (lazy_numpy)
    np = LazyNumpy(globals())


__all__ = [
    "Templates",
    "build_templates",
    "MapTemplates",
    "LazyMapTemplates",
    "map_templates",
    "peek_map_templates",
    "templates_for",
    "keeps_map_templates",
    "MAX_MAP_OFFSETS",
    "offset_template",
    "offset_template_numpy",
    "SLABS",
    "SIDE_NEIGHBOUR",
]

# Hex interior = three open slabs |n_k . (p - c)| < w_k in the lattice frame.
SLABS: tuple[tuple[int, int, int], ...] = ((1, 1, 2), (0, 1, 1), (1, -1, 2))
# Axial step to the hex across side k (the side on n_k . (p - c) = +w_k).
SIDE_NEIGHBOUR: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, -1))


# Frozen dataclasses whose generated methods are compiled together and cached
# (FrozenBatch: what every command pays at start-up, issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass


@dataclass(frozen=True)
class Templates:
    """Templates of many offsets in CSR form (``start[i]:start[i+1]`` is offset ``i``).

    Entries (intervening hexes, ordered from observer to target):
    ``hq, hr`` axial offset of the hex from the observer; ``hx, hy`` its
    centre in the lattice frame relative to the observer; ``n0/d0`` and
    ``n1/d1`` the exact parameters where the segment enters and leaves it.

    Pairs (stretches along a hexside): ``p1q, p1r`` the hex whose side ``k``
    (0..2) the segment runs along, ``p2`` = ``p1`` + SIDE_NEIGHBOUR[k] the hex
    across it (whose side is ``k + 3``), and ``u0n/u0d``, ``u1n/u1d`` the
    stretch's parameters.
    """

    dq: np.ndarray
    dr: np.ndarray
    start: np.ndarray
    hq: np.ndarray
    hr: np.ndarray
    hx: np.ndarray
    hy: np.ndarray
    n0: np.ndarray
    d0: np.ndarray
    n1: np.ndarray
    d1: np.ndarray
    pstart: np.ndarray
    p1q: np.ndarray
    p1r: np.ndarray
    pk: np.ndarray
    u0n: np.ndarray
    u0d: np.ndarray
    u1n: np.ndarray
    u1d: np.ndarray


#: A numpy array of any shape and dtype (the kernel's arrays are int16/int32/int64).
Arr: TypeAlias = "np.ndarray[Any, Any]"


def _fmax(an: Arr, ad: Arr, bn: Arr, bd: Arr) -> tuple[Arr, Arr]:
    """Elementwise max of fractions an/ad, bn/bd (positive denominators)."""
    take_b = bn * ad > an * bd
    return np.where(take_b, bn, an), np.where(take_b, bd, ad)


def _fmin(an: Arr, ad: Arr, bn: Arr, bd: Arr) -> tuple[Arr, Arr]:
    take_b = bn * ad < an * bd
    return np.where(take_b, bn, an), np.where(take_b, bd, ad)


def _candidates(dq: Arr, dr: Arr, near: int | None = None) -> tuple[Arr, Arr, Arr]:
    """Hexes whose closure may meet each segment, as (offset index, q, r).

    Column by column: a hex lies inside the box x in [cx-2, cx+2],
    y in [cy-1, cy+1] (lattice frame), so only rows whose box meets the
    segment's y-range over the column's x-range can meet it.  Closed bounds
    with a little slack: a superset, filtered exactly afterwards.
    ``near``: only the hexes with ``|q|, |r| <= near`` (the first stretch of each line).
    """
    m = len(dq)
    X = 3 * dq
    Y = 2 * dr + dq
    qlo = np.minimum(0, dq)
    ncol = np.abs(dq) + 1
    if near is not None:
        qlo = np.maximum(qlo, -near)
        ncol = np.maximum(np.minimum(np.maximum(0, dq), near) - qlo + 1, 0)
    oi = np.repeat(np.arange(m), ncol)
    first = np.repeat(np.cumsum(ncol) - ncol, ncol)
    q = np.repeat(qlo, ncol) + (np.arange(len(oi)) - first)
    Xo = X[oi].astype(np.float64)
    Yo = Y[oi].astype(np.float64)
    xa = np.maximum(3.0 * q - 2.0, np.minimum(0.0, Xo))
    xb = np.minimum(3.0 * q + 2.0, np.maximum(0.0, Xo))
    safe = np.where(Xo == 0, 1.0, Xo)
    ya = np.where(Xo == 0, 0.0, xa * Yo / safe)
    yb = np.where(Xo == 0, Yo, xb * Yo / safe)
    ylo = np.minimum(ya, yb)
    yhi = np.maximum(ya, yb)
    rlo = np.ceil((ylo - q - 1.0) / 2.0 - 1e-6).astype(np.int64)
    rhi = np.floor((yhi - q + 1.0) / 2.0 + 1e-6).astype(np.int64)
    if near is not None:
        rlo = np.maximum(rlo, -near)
        rhi = np.minimum(rhi, near)
    cnt = np.maximum(rhi - rlo + 1, 0)
    oi2 = np.repeat(oi, cnt)
    first2 = np.repeat(np.cumsum(cnt) - cnt, cnt)
    r = np.repeat(rlo, cnt) + (np.arange(len(oi2)) - first2)
    return oi2, np.repeat(q, cnt), r


def _slab_bounds(a: Arr, b: Arr, w: int) -> tuple[Arr, Arr, Arr]:
    """Open parameter interval where |a + b t| < w, as fractions (num/den, den > 0).

    Parallel (b == 0): everything (-1, 2) or nothing (2, -1), which is all
    that matters once intersected with [0, 1].
    """
    pos = b > 0
    neg = b < 0
    inside0 = (b == 0) & (np.abs(a) < w)
    lon = np.where(pos, -w - a, np.where(neg, a - w, np.where(inside0, -1, 2)))
    hin = np.where(pos, w - a, np.where(neg, a + w, np.where(inside0, 2, -1)))
    den = np.where(pos, b, np.where(neg, -b, 1))
    return lon, hin, den


def build_templates(dq: Any, dr: Any, keep: Callable[[Arr, Arr], Arr] | None = None, near: int | None = None) -> Templates:
    """Exact templates for the offsets ``(dq[i], dr[i])`` (axial).

    A hex's open interior meets the closed segment exactly when no axis
    separates them (as in ``hex_line``): the three slab normals and the
    segment's own normal, all in integers.

    ``keep(q, r)`` (boolean per axial offset from the observer), when given,
    prunes the templates to the hexes it keeps: entries at the other hexes
    and hexside stretches whose first hex it drops are left out (a caller
    that knows those hexes cannot block skips their exact tests); ``near``
    prunes them to the hexes with ``|q|, |r| <= near``, without even
    listing the others.
    """
    dq = np.asarray(dq, dtype=np.int64).reshape(-1)
    dr = np.asarray(dr, dtype=np.int64).reshape(-1)
    m = len(dq)
    oi, q, r = _candidates(dq, dr, near)
    if keep is not None:
        kept = np.nonzero(keep(q, r))[0]
        oi, q, r = oi[kept], q[kept], r[kept]
    # int32 is ample (lattice coordinates stay below ~2,000, products below 10^7)
    # and halves the memory traffic of this build.
    oi, q, r = oi.astype(np.int32), q.astype(np.int32), r.astype(np.int32)
    X = (3 * dq).astype(np.int32)[oi]
    Y = (2 * dr + dq).astype(np.int32)[oi]
    cx = 3 * q
    cy = 2 * r + q
    # Segment normal: corners' cross products with D reach +-S around the centre's.
    cr = X * cy - Y * cx
    S = np.maximum(2 * np.abs(Y), np.maximum(np.abs(X - Y), np.abs(X + Y)))
    met = np.abs(cr) < S
    ab = []
    for nx, ny, w in SLABS:
        a = -(nx * cx + ny * cy)
        b = nx * X + ny * Y
        ab.append((a, b))
        met &= (np.minimum(a, a + b) < w) & (np.maximum(a, a + b) > -w)
    met &= ~(((q == 0) & (r == 0)) | ((q == dq.astype(np.int32)[oi]) & (r == dr.astype(np.int32)[oi])))
    sel = np.nonzero(met)[0]
    bounds = [_slab_bounds(a[sel], b[sel], w) for (a, b), (_, _, w) in zip(ab, SLABS)]
    Ln, Ld = _fmax(*_fmax(bounds[0][0], bounds[0][2], bounds[1][0], bounds[1][2]), bounds[2][0], bounds[2][2])
    Un, Ud = _fmin(*_fmin(bounds[0][1], bounds[0][2], bounds[1][1], bounds[1][2]), bounds[2][1], bounds[2][2])
    order = np.lexsort((Ln / Ld, oi[sel]))
    sel, Ln, Ld, Un, Ud = sel[order], Ln[order], Ld[order], Un[order], Ud[order]
    counts = np.bincount(oi[sel], minlength=m)
    start = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])

    # Hexside stretches: the segment's line touches the hex (|cr| == S) and
    # lies on the boundary of slab k on its + side (b == 0, a == w); the
    # stretch is where the other two slabs hold, within [0, 1].
    p_sel, p_k, p_u = [], [], []
    touch = np.nonzero(np.abs(cr) == S)[0]
    for k, (_nx, _ny, w) in enumerate(SLABS):
        a, b = ab[k][0][touch], ab[k][1][touch]
        cand = touch[(b == 0) & (a == w)]
        if len(cand) == 0:
            continue
        j1, j2 = [i for i in range(3) if i != k]
        b1 = _slab_bounds(ab[j1][0][cand], ab[j1][1][cand], SLABS[j1][2])
        b2 = _slab_bounds(ab[j2][0][cand], ab[j2][1][cand], SLABS[j2][2])
        z = np.zeros(len(cand), dtype=np.int32)
        o = np.ones(len(cand), dtype=np.int32)
        lo = _fmax(*_fmax(b1[0], b1[2], b2[0], b2[2]), z, o)
        hi = _fmin(*_fmin(b1[1], b1[2], b2[1], b2[2]), o, o)
        ok = lo[0] * hi[1] < hi[0] * lo[1]
        p_sel.append(cand[ok])
        p_k.append(np.full(int(ok.sum()), k, dtype=np.int64))
        p_u.append((lo[0][ok], lo[1][ok], hi[0][ok], hi[1][ok]))
    if p_sel:
        pidx = np.concatenate(p_sel)
        pk = np.concatenate(p_k)
        u0n, u0d, u1n, u1d = (np.concatenate([u[i] for u in p_u]) for i in range(4))
    else:
        pidx = pk = u0n = u0d = u1n = u1d = np.zeros(0, dtype=np.int64)
    po = oi[pidx]
    porder = np.lexsort((u0n / np.maximum(u0d, 1), po))
    pidx, pk, u0n, u0d, u1n, u1d, po = (v[porder] for v in (pidx, pk, u0n, u0d, u1n, u1d, po))
    pstart = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(np.bincount(po, minlength=m), out=pstart[1:])

    i32 = np.int32
    return Templates(
        dq=dq,
        dr=dr,
        start=start,
        hq=q[sel].astype(i32),
        hr=r[sel].astype(i32),
        hx=cx[sel].astype(i32),
        hy=cy[sel].astype(i32),
        n0=Ln.astype(i32),
        d0=Ld.astype(i32),
        n1=Un.astype(i32),
        d1=Ud.astype(i32),
        pstart=pstart,
        p1q=q[pidx].astype(i32),
        p1r=r[pidx].astype(i32),
        pk=pk.astype(np.int8),
        u0n=u0n.astype(i32),
        u0d=u0d.astype(i32),
        u1n=u1n.astype(i32),
        u1d=u1d.astype(i32),
    )


def _ceil_half(c: Any) -> Any:
    """ceil(c / 2): the even-q row shift, consistent for negative columns."""
    return (c + (c & 1)) >> 1


@dataclass(frozen=True)
class MapTemplates:
    """Templates of some offsets of a ``columns`` x ``rows`` map, for an
    observer in a column of parity ``parity``, in padded flat-index form.

    The map's per-hex arrays are padded by one hex all round (hexside
    stretches may graze a hex just off the map); a hex at 0-based
    ``(col, row)`` has flat index ``(col + 1) * (rows + 2) + row + 1``.
    Offset ``i`` has entries ``start[i]:end[i]`` and pairs
    ``pstart[i]:pend[i]``.  Only what queries need is kept (about 12 bytes
    per entry).  :func:`templates_for` gives one for a list of offsets;
    :class:`LazyMapTemplates` holds a whole map's, built per offset as
    queries need them.
    """

    columns: int
    rows: int
    parity: int
    start: np.ndarray
    end: np.ndarray
    rel: np.ndarray  # int32: flat index of the crossed hex minus the observer's
    n0: np.ndarray  # int16 entry/exit parameters
    d0: np.ndarray
    n1: np.ndarray
    d1: np.ndarray
    pstart: np.ndarray
    pend: np.ndarray
    p1rel: np.ndarray
    p2rel: np.ndarray
    pk: np.ndarray
    u0n: np.ndarray
    u0d: np.ndarray
    u1n: np.ndarray
    u1d: np.ndarray


def _rel_flat(hq: np.ndarray, hr: np.ndarray, parity: int, rows: int) -> np.ndarray:
    drow = hr + _ceil_half(parity + hq) - _ceil_half(np.int64(parity))
    return np.asarray(hq * (rows + 2) + drow)


_BUILD_LOCK = threading.Lock()

_ENTRY_FIELDS = ("rel", "n0", "d0", "n1", "d1")
_PAIR_FIELDS = ("p1rel", "p2rel", "pk", "u0n", "u0d", "u1n", "u1d")


def templates_for(
    columns: int,
    rows: int,
    parity: int,
    dcol: np.ndarray,
    drow: np.ndarray,
    relevant: tuple[Arr, int] | None = None,
    near: int | None = None,
    far: int | None = None,
) -> MapTemplates:
    """Templates of the given (dcol, drow) offsets, in that order (offset ``i`` is
    index ``i``), for an observer in a column of parity ``parity``.

    Pruned templates (see :func:`build_templates`), for queries that test a
    line's hexes in parts and stop at the first that blocks:
    ``relevant = (mask, origin)`` keeps the hexes where ``mask`` (a boolean per
    padded flat index) is true for the observer at padded flat index
    ``origin``; ``near`` keeps the hexes with axial ``|q|, |r| <= near`` from
    the observer, ``far`` those with ``|q| > far`` or ``|r| > far``."""
    dcol = np.asarray(dcol, dtype=np.int64)
    drow = np.asarray(drow, dtype=np.int64)
    dq = dcol
    dr = drow - _ceil_half(parity + dcol) + _ceil_half(np.int64(parity))
    keep: Callable[[Arr, Arr], Arr] | None = None
    if relevant is not None or far is not None:

        def keep(q: Arr, r: Arr) -> Arr:
            ok = np.ones(len(q), dtype=bool)
            if far is not None:
                ok &= (np.abs(q) > far) | (np.abs(r) > far)
            if relevant is not None:
                mask, origin = relevant
                # Candidates are a superset and may lie a little off the map: clipped, the exact tests drop them.
                flat = origin + _rel_flat(q.astype(np.int64), r.astype(np.int64), parity, rows)
                ok &= mask[np.clip(flat, 0, len(mask) - 1)]
            return ok

    t = build_templates(dq, dr, keep, near)
    rel = _rel_flat(t.hq.astype(np.int64), t.hr.astype(np.int64), parity, rows).astype(np.int32)
    p1q = t.p1q.astype(np.int64)
    p1r = t.p1r.astype(np.int64)
    nb = np.array(SIDE_NEIGHBOUR, dtype=np.int64)[t.pk.astype(np.int64)]
    p1rel = _rel_flat(p1q, p1r, parity, rows).astype(np.int32)
    p2rel = _rel_flat(p1q + nb[:, 0], p1r + nb[:, 1], parity, rows).astype(np.int32)
    i16 = np.int16
    return MapTemplates(
        columns, rows, parity, t.start[:-1], t.start[1:], rel,
        t.n0.astype(i16), t.d0.astype(i16), t.n1.astype(i16), t.d1.astype(i16),
        t.pstart[:-1], t.pstart[1:], p1rel, p2rel, t.pk,
        t.u0n.astype(i16), t.u0d.astype(i16), t.u1n.astype(i16), t.u1d.astype(i16),
    )


class LazyMapTemplates:
    """Every offset between two hexes of a ``columns`` x ``rows`` map, for an
    observer in a column of parity ``parity``, built per offset the first time
    a query needs it and kept (the same attributes as :class:`MapTemplates`).

    Offsets are indexed by :meth:`offset_index` (ordered by (dcol, drow)).
    :meth:`ensure` builds the missing offsets of a query in one vectorised
    call and appends them to growing pools, so a one-to-all query from a new
    hex builds only that hex's offsets not built before (a first hover on 16
    boards builds tens of milliseconds, not the whole map's seconds), and
    :meth:`ensure_all` completes the map.  Entries are only ever appended and
    ``start``/``end`` of an offset are set after its entries are in place, so
    a query may read while another thread builds.
    """

    def __init__(self, columns: int, rows: int, parity: int) -> None:
        self.columns, self.rows, self.parity = columns, rows, parity & 1
        self.n_offsets = (2 * columns - 1) * (2 * rows - 1)
        n = self.n_offsets
        self.start = np.zeros(n, dtype=np.int64)
        self.end = np.zeros(n, dtype=np.int64)
        self.pstart = np.zeros(n, dtype=np.int64)
        self.pend = np.zeros(n, dtype=np.int64)
        self.built = np.zeros(n, dtype=bool)
        self.n_built = 0
        self._size = 0  # entries in the pools
        self._psize = 0
        self.rel = np.zeros(0, dtype=np.int32)
        self.n0 = self.d0 = self.n1 = self.d1 = np.zeros(0, dtype=np.int16)
        self.p1rel = self.p2rel = np.zeros(0, dtype=np.int32)
        self.pk = np.zeros(0, dtype=np.int8)
        self.u0n = self.u0d = self.u1n = self.u1d = np.zeros(0, dtype=np.int16)
        self._lock = threading.Lock()

    def offset_index(self, dcol: Any, drow: Any) -> Any:
        return (dcol + self.columns - 1) * (2 * self.rows - 1) + (drow + self.rows - 1)

    @property
    def complete(self) -> bool:
        return self.n_built == self.n_offsets

    def has(self, o: int) -> bool:
        return bool(self.built[o])

    def ensure(self, offsets: np.ndarray) -> int:
        """Build every offset among ``offsets`` (indices) not built yet; returns how many were built."""
        offsets = np.asarray(offsets, dtype=np.int64).reshape(-1)
        if self.complete or self.built[offsets].all():
            return 0
        with self._lock:
            missing = np.unique(offsets[~self.built[offsets]])
            if len(missing) == 0:
                return 0
            k = 2 * self.rows - 1
            t = templates_for(self.columns, self.rows, self.parity, missing // k - (self.columns - 1), missing % k - (self.rows - 1))
            base, pbase = self._size, self._psize
            self._append(_ENTRY_FIELDS, t, base, int(t.end[-1]) if len(t.end) else 0)
            self._append(_PAIR_FIELDS, t, pbase, int(t.pend[-1]) if len(t.pend) else 0)
            self._size += len(t.rel)
            self._psize += len(t.p1rel)
            # Publish the offsets only now that their entries are in the pools.
            self.start[missing] = base + t.start
            self.end[missing] = base + t.end
            self.pstart[missing] = pbase + t.pstart
            self.pend[missing] = pbase + t.pend
            self.built[missing] = True
            self.n_built += len(missing)
            return len(missing)

    def ensure_all(self) -> int:
        """Build every offset of the map not built yet (what :meth:`gwasl.rules.los.LosIndex.prepare` does)."""
        return self.ensure(np.nonzero(~self.built)[0])

    def _append(self, fields: tuple[str, ...], t: MapTemplates, at: int, n: int) -> None:
        for name in fields:
            pool = getattr(self, name)
            add = getattr(t, name)
            if at + n > len(pool):  # grow by doubling: appends cost amortised O(n)
                grown = np.empty(max(at + n, 2 * len(pool), 1024), dtype=add.dtype)
                grown[:at] = pool[:at]
                grown[at:at + n] = add
                setattr(self, name, grown)  # published whole: readers see the old pool or the new one
            else:
                pool[at:at + n] = add


#: Maps with more offsets than this between their hexes (about 40 boards)
#: do not keep whole-map templates (they would take hundreds of MB); their
#: one-to-all and bulk queries build the templates they need per call.
MAX_MAP_OFFSETS = 50_000


def keeps_map_templates(columns: int, rows: int) -> bool:
    return (2 * columns - 1) * (2 * rows - 1) <= MAX_MAP_OFFSETS


#: Either kind of map templates: queries read the same attributes from both.
SomeMapTemplates: TypeAlias = "MapTemplates | LazyMapTemplates"

_BUILT: dict[tuple[int, int, int], LazyMapTemplates] = {}


def peek_map_templates(columns: int, rows: int, parity: int) -> LazyMapTemplates | None:
    """The map's templates if a query has started them, else None (never builds)."""
    return _BUILT.get((columns, rows, parity & 1))


def map_templates(columns: int, rows: int, parity: int) -> LazyMapTemplates:
    """The (cached) :class:`LazyMapTemplates` of a map size; depends on the size only,
    so editing terrain never rebuilds it.  Nothing is built until a query's
    :meth:`~LazyMapTemplates.ensure` builds the offsets it needs."""
    key = (columns, rows, parity & 1)
    with _BUILD_LOCK:
        mt = _BUILT.get(key)
        if mt is None:
            if len(_BUILT) >= 8:  # a few map sizes at a time (each up to ~40 MB when complete)
                _BUILT.pop(next(iter(_BUILT)))
            mt = _BUILT[key] = LazyMapTemplates(*key)
        return mt


#: One offset's template as plain tuples: ``(entries, pairs)`` (see :func:`offset_template`).
OffsetTemplate: TypeAlias = "tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]"


@lru_cache(maxsize=65536)
def offset_template(dq: int, dr: int) -> OffsetTemplate:
    """One offset's template as plain Python tuples (for single queries).

    Returns ``(entries, pairs)``: entries ``(hq, hr, hx, hy, n0, d0, n1, d1)``
    in order from the observer; pairs ``(p1q, p1r, k, u0n, u0d, u1n, u1d)``.

    Computed in plain integers, one offset at a time, with the very steps of
    :func:`build_templates` (the same candidates, tests and order), so that one
    LOS query neither imports numpy nor pays for vectorising a single line
    (issue 23 item 8); a test checks both give the same templates.
    """
    return _scalar_template(dq, dr)


def _scalar_bounds(a: int, b: int, w: int) -> tuple[int, int, int]:
    """:func:`_slab_bounds` of one value."""
    if b > 0:
        return -w - a, w - a, b
    if b < 0:
        return a - w, a + w, -b
    return (-1, 2, 1) if abs(a) < w else (2, -1, 1)


def _smax(an: int, ad: int, bn: int, bd: int) -> tuple[int, int]:
    return (bn, bd) if bn * ad > an * bd else (an, ad)


def _smin(an: int, ad: int, bn: int, bd: int) -> tuple[int, int]:
    return (bn, bd) if bn * ad < an * bd else (an, ad)


def _scalar_candidates(dq: int, dr: int) -> list[tuple[int, int]]:
    """:func:`_candidates` of one offset, in the same order (column, then row)."""
    X, Y = 3 * dq, 2 * dr + dq
    Xo, Yo = float(X), float(Y)
    out: list[tuple[int, int]] = []
    for q in range(min(0, dq), max(0, dq) + 1):
        xa = max(3.0 * q - 2.0, min(0.0, Xo))
        xb = min(3.0 * q + 2.0, max(0.0, Xo))
        if Xo == 0:
            ya, yb = 0.0, Yo
        else:
            ya, yb = xa * Yo / Xo, xb * Yo / Xo
        ylo, yhi = min(ya, yb), max(ya, yb)
        rlo = math.ceil((ylo - q - 1.0) / 2.0 - 1e-6)
        rhi = math.floor((yhi - q + 1.0) / 2.0 + 1e-6)
        out.extend((q, r) for r in range(rlo, rhi + 1))
    return out


def _scalar_template(dq: int, dr: int) -> OffsetTemplate:
    """:func:`build_templates` of the one offset ``(dq, dr)``, in plain integers."""
    X, Y = 3 * dq, 2 * dr + dq
    S = max(2 * abs(Y), max(abs(X - Y), abs(X + Y)))
    met: list[tuple[float, tuple[int, ...]]] = []
    touch: list[tuple[int, int, list[tuple[int, int]]]] = []
    for q, r in _scalar_candidates(dq, dr):
        cx, cy = 3 * q, 2 * r + q
        cr = X * cy - Y * cx
        ab = [(-(nx * cx + ny * cy), nx * X + ny * Y) for nx, ny, _w in SLABS]
        if abs(cr) == S:
            touch.append((q, r, ab))
        if not abs(cr) < S or (q == 0 and r == 0) or (q == dq and r == dr):
            continue
        if not all(min(a, a + b) < w and max(a, a + b) > -w for (a, b), (_, _, w) in zip(ab, SLABS)):
            continue
        bounds = [_scalar_bounds(a, b, w) for (a, b), (_, _, w) in zip(ab, SLABS)]
        ln, ld = _smax(*_smax(bounds[0][0], bounds[0][2], bounds[1][0], bounds[1][2]), bounds[2][0], bounds[2][2])
        un, ud = _smin(*_smin(bounds[0][1], bounds[0][2], bounds[1][1], bounds[1][2]), bounds[2][1], bounds[2][2])
        met.append((ln / ld, (q, r, cx, cy, ln, ld, un, ud)))
    met.sort(key=lambda x: x[0])  # stable, as numpy's lexsort: ties keep the candidates' order
    # Hexside stretches, slab by slab in the candidates' order, as build_templates lists them.
    pairs: list[tuple[float, tuple[int, ...]]] = []
    for k, (_nx, _ny, w) in enumerate(SLABS):
        j1, j2 = [i for i in range(3) if i != k]
        for q, r, ab in touch:
            a, b = ab[k]
            if not (b == 0 and a == w):
                continue
            b1 = _scalar_bounds(ab[j1][0], ab[j1][1], SLABS[j1][2])
            b2 = _scalar_bounds(ab[j2][0], ab[j2][1], SLABS[j2][2])
            lo = _smax(*_smax(b1[0], b1[2], b2[0], b2[2]), 0, 1)
            hi = _smin(*_smin(b1[1], b1[2], b2[1], b2[2]), 1, 1)
            if lo[0] * hi[1] < hi[0] * lo[1]:
                pairs.append((lo[0] / max(lo[1], 1), (q, r, k, lo[0], lo[1], hi[0], hi[1])))
    pairs.sort(key=lambda x: x[0])
    return tuple(e for _, e in met), tuple(p for _, p in pairs)


def offset_template_numpy(dq: int, dr: int) -> OffsetTemplate:
    """:func:`offset_template` through :func:`build_templates` (what the tests compare it with)."""
    t = build_templates([dq], [dr])
    entries = tuple(
        zip(*(a.tolist() for a in (t.hq, t.hr, t.hx, t.hy, t.n0, t.d0, t.n1, t.d1)))
    )
    pairs = tuple(zip(*(a.tolist() for a in (t.p1q, t.p1r, t.pk, t.u0n, t.u0d, t.u1n, t.u1d))))
    return entries, pairs


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__
