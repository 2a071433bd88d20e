"""The classic fire and close combat tables: IFT (A7.3), cowering (A7.9), CCT (A11.11).

ASLGW builds on classic ASL without restating these tables; the numbers are
in ``resources/fire_tables.json`` (their source is named there and in
docs/rules-notes.md).  Every resolution has an exact distribution over the
36 outcomes of two dice, from the same table lookups the roll uses.

>>> ift_result(8, 3)
IftResult(kind='K', n=2)
>>> ift_result(Fraction(7, 1), 2).text      # 7 FP fires on the 6 column
'1KIA'
>>> ift_result(36, 15).text, ift_result(1, 6).text
('PTC', '-')
>>> cct_odds(6, 4)
CCOdds(column='3-2', kill_number=6, hth_kill_number=8)
>>> cc_result(7, 6), cc_result(7, 7), cc_result(7, 8)
('eliminated', 'casualty_reduction', 'none')
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise, product
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.terrain import TableError, load_resource

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "CCOdds",
    "FireTables",
    "IftResult",
    "cc_distribution",
    "cc_result",
    "cct_odds",
    "cowering_shift",
    "fire_tables",
    "ift_column",
    "ift_distribution",
    "ift_result",
    "parse_fire_tables",
    "two_dice",
]

_FILE = "fire_tables.json"
IftKind = Literal["KIA", "K", "MC", "NMC", "PTC", "none"]
_CELL = re.compile(r"^(?:(?P<kia>[1-9])KIA|K/(?P<k>[1-9])|(?P<mc>[1-9])MC|(?P<nmc>NMC)|(?P<ptc>PTC)|(?P<none>-))$")


@dataclass(frozen=True, slots=True, order=True)
class IftResult:
    """An IFT result: ``KIA`` (n units eliminated, A7.301), ``K`` (K/n: casualty
    reduction then nMC, A7.302), ``MC`` (nMC, A7.303), ``NMC`` (A7.304),
    ``PTC`` (A7.305) or ``none``."""

    kind: IftKind
    n: int = 0

    @property
    def text(self) -> str:
        return {"KIA": f"{self.n}KIA", "K": f"K/{self.n}", "MC": f"{self.n}MC", "NMC": "NMC", "PTC": "PTC",
                "none": "-"}[self.kind]

    @property
    def severity(self) -> int:
        """An order of harm to the target, for the table's monotony checks."""
        return {"none": 0, "PTC": 1, "NMC": 2, "MC": 2 + self.n, "K": 10 + self.n, "KIA": 20 + self.n}[self.kind]


@dataclass(frozen=True, slots=True)
class CCOdds:
    """The CCT column of a close combat attack (A11.11): its odds as printed (``1-1``,
    ``<1-8``, ``>10-1``), its Kill Number and the column's Hand-to-Hand Kill Number
    (J2.31, ASLGW 1.10)."""

    column: str
    kill_number: int
    hth_kill_number: int


@dataclass(frozen=True, slots=True)
class FireTables:
    columns: tuple[int, ...]
    last_dr: int
    ift: Mapping[int, tuple[IftResult, ...]]  # column -> results for DR 0..last_dr
    cct: tuple[tuple[int, int, int, int], ...]  # (attack, defence, Kill Number, HtH Kill Number), ascending
    cct_below: tuple[int, int]  # (Kill Number, HtH Kill Number) below the lowest column
    cct_above: tuple[int, int]  # ... above the highest
    cower_shift: int
    cower_inexperienced_shift: int
    rules: Mapping[str, str]


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _parse_cell(text: Any, where: str) -> IftResult:
    m = _CELL.match(text) if isinstance(text, str) else None
    if not m:
        raise TableError(f"{_FILE} {where}: {text!r} is not an IFT result")
    if m["kia"]:
        return IftResult("KIA", int(m["kia"]))
    if m["k"]:
        return IftResult("K", int(m["k"]))
    if m["mc"]:
        return IftResult("MC", int(m["mc"]))
    return IftResult("NMC") if m["nmc"] else IftResult("PTC") if m["ptc"] else IftResult("none")


def parse_fire_tables(doc: Any) -> FireTables:
    """Validate a decoded fire_tables.json (IFT A7.3, CCT A11.11); :class:`TableError` names the entry."""
    if not isinstance(doc, dict):
        raise TableError(f"{_FILE}: expected an object")
    ift, cct, cow = doc.get("ift"), doc.get("cct"), doc.get("cowering")
    if not all(isinstance(x, dict) for x in (ift, cct, cow)):
        raise TableError(f"{_FILE}: needs 'ift', 'cct' and 'cowering' objects")
    assert isinstance(ift, dict) and isinstance(cct, dict) and isinstance(cow, dict)
    cols = ift.get("columns")
    if not (isinstance(cols, list) and cols and all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in cols)
            and cols == sorted(set(cols))):
        raise TableError(f"{_FILE} ift.columns: expected ascending positive integers")
    last = ift.get("last_dr")
    if not isinstance(last, int) or isinstance(last, bool) or not 12 <= last <= 20:
        raise TableError(f"{_FILE} ift.last_dr: expected 12-20")
    results = ift.get("results")
    if not isinstance(results, dict) or set(results) != {str(c) for c in cols}:
        raise TableError(f"{_FILE} ift.results: one row per column")
    table: dict[int, tuple[IftResult, ...]] = {}
    for c in cols:
        cells = str(results[str(c)]).split()
        if len(cells) != last + 1:
            raise TableError(f"{_FILE} ift.results.{c}: expected {last + 1} results (DR 0..{last})")
        table[c] = tuple(_parse_cell(x, f"ift.results.{c}[{i}]") for i, x in enumerate(cells))
    odds, kills, hth = cct.get("odds"), cct.get("kill_numbers"), cct.get("hth_kill_numbers")
    if not (isinstance(odds, list) and isinstance(kills, list) and isinstance(hth, list) and len(odds) == len(kills) == len(hth)
            and odds):
        raise TableError(f"{_FILE} cct: odds, kill_numbers and hth_kill_numbers of equal length")
    rows = []
    for i, (o, k, h) in enumerate(zip(odds, kills, hth, strict=True)):
        if not (isinstance(o, list) and len(o) == 2 and all(isinstance(x, int) and x > 0 for x in o) and isinstance(k, int)
                and isinstance(h, int)):
            raise TableError(f"{_FILE} cct.odds[{i}]: expected [attack, defence], an integer Kill Number and HtH Kill Number")
        if h <= k:
            raise TableError(f"{_FILE} cct.hth_kill_numbers[{i}]: a HtH Kill Number is above the CC one (J2.31)")
        rows.append((o[0], o[1], k, h))
    if any(Fraction(a[0], a[1]) >= Fraction(b[0], b[1]) or a[2] >= b[2] or a[3] >= b[3] for a, b in pairwise(rows)):
        raise TableError(f"{_FILE} cct: odds and Kill Numbers must both ascend")
    raw = [cct.get(k) for k in ("below_lowest", "below_lowest_hth", "above_highest", "above_highest_hth")]
    shift, inexp = cow.get("shift"), cow.get("inexperienced_shift")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (*raw, shift, inexp)):
        raise TableError(f"{_FILE}: cct.below_lowest(_hth), cct.above_highest(_hth) and cowering shifts must be integers")
    ends = [x for x in raw if isinstance(x, int)]  # every one, checked just above
    if not (ends[0] < rows[0][2] and ends[1] < rows[0][3] and ends[2] > rows[-1][2] and ends[3] > rows[-1][3]):
        raise TableError(f"{_FILE} cct: the Kill Numbers below the lowest and above the highest column must extend the table")
    assert isinstance(shift, int) and isinstance(inexp, int)
    rules = {name: str(doc[name].get("rule", "")) for name in ("ift", "cct", "cowering")}
    return FireTables(tuple(cols), last, MappingProxyType(table), tuple(rows), (ends[0], ends[1]), (ends[2], ends[3]),
                      shift, inexp, MappingProxyType(rules))


@lru_cache(maxsize=1)
def fire_tables() -> FireTables:
    """resources/fire_tables.json (IFT A7.3, CCT A11.11), loaded and validated once."""
    return parse_fire_tables(load_resource(_FILE))


def ift_column(fp: int | Fraction, shift: int = 0) -> int | None:
    """The IFT column of ``fp`` (the largest column not above it, A7.3), moved
    ``shift`` columns left (cowering, A7.9); ``None`` when no column is left
    (less than 1 FP: the attack has no effect).

    >>> ift_column(7), ift_column(40), ift_column(Fraction(1, 2)), ift_column(4, shift=1)
    (6, 36, None, 2)
    """
    cols = fire_tables().columns
    # the columns are strictly ascending (checked at load): a binary search finds the largest
    # not above ``fp`` (odds read every column 36 times a menu entry)
    idx = bisect_right(cols, fp) - 1 - shift
    return cols[idx] if idx >= 0 else None


def ift_result(fp: int | Fraction, final_dr: int, shift: int = 0) -> IftResult:
    """The IFT result of ``fp`` at ``final_dr`` (A7.3): a DR of 0 or less reads the
    first row, a DR beyond the table has no effect."""
    col = ift_column(fp, shift)
    if col is None:
        return IftResult("none")
    t = fire_tables()
    if final_dr > t.last_dr:
        return IftResult("none")
    return t.ift[col][max(0, final_dr)]


def two_dice() -> tuple[tuple[int, int], ...]:
    """The 36 equally likely outcomes of a DR (coloured die first)."""
    return tuple((a, b) for a, b in product(range(1, 7), repeat=2))


def cowering_shift(original: tuple[int, int], *, leader_directed: bool, inexperienced: bool = False,
                   exempt: bool = False) -> int:
    """Columns an attack shifts left for cowering (A7.9): original doubles, unless a
    leader directs the fire or the firer is exempt (a hero, a crew)."""
    if original[0] != original[1] or leader_directed or exempt:
        return 0
    t = fire_tables()
    return t.cower_inexperienced_shift if inexperienced else t.cower_shift


def ift_distribution(fp: int | Fraction, drm: int, *, cowers: bool = True, leader_directed: bool = False,
                     inexperienced: bool = False) -> dict[IftResult, Fraction]:
    """The exact chance of each IFT result of an attack of ``fp`` with total DRM ``drm``,
    counting cowering on doubles (A7.9) where it applies: every one of the 36 DR."""
    out: dict[IftResult, Fraction] = {}
    for d in two_dice():
        shift = cowering_shift(d, leader_directed=leader_directed, inexperienced=inexperienced, exempt=not cowers)
        r = ift_result(fp, d[0] + d[1] + drm, shift)
        out[r] = out.get(r, Fraction(0)) + Fraction(1, 36)
    return dict(sorted(out.items(), key=lambda kv: -kv[0].severity))


class NoDefenderFpError(GwaslError):
    """Close combat odds against a defender with no FP (A11.11)."""


def cct_odds(attack_fp: int | Fraction, defence_fp: int | Fraction) -> CCOdds:
    """The CCT column of ``attack_fp`` against ``defence_fp`` (A11.11): the ratio rounded
    down to a printed column in the defender's favour, below the lowest column ``<1-8``,
    above the highest ``>10-1``; with its Kill Number and its Hand-to-Hand one (J2.31).

    Raises :class:`NoDefenderFpError` (close combat odds against a defender with no FP (A11.11)).

    >>> cct_odds(4, 4), cct_odds(8, 2).kill_number, cct_odds(1, 3).column
    (CCOdds(column='1-1', kill_number=5, hth_kill_number=7), 9, '1-4')
    """
    if defence_fp <= 0:
        raise NoDefenderFpError("close combat needs a defender with FP")
    t = fire_tables()
    ratio = Fraction(attack_fp) / Fraction(defence_fp)
    lo, hi = t.cct[0], t.cct[-1]
    if ratio < Fraction(lo[0], lo[1]):
        return CCOdds(f"<{lo[0]}-{lo[1]}", *t.cct_below)
    if ratio > Fraction(hi[0], hi[1]):
        return CCOdds(f">{hi[0]}-{hi[1]}", *t.cct_above)
    a, d, k, h = max((row for row in t.cct if ratio >= Fraction(row[0], row[1])), key=lambda row: Fraction(row[0], row[1]))
    return CCOdds(f"{a}-{d}", k, h)


def cc_result(kill_number: int, final_dr: int) -> Literal["eliminated", "casualty_reduction", "none"]:
    """A11.11: a final DR below the Kill Number eliminates the defenders, equal to it
    reduces them (Casualty Reduction), above it has no effect."""
    if final_dr < kill_number:
        return "eliminated"
    if final_dr == kill_number:
        return "casualty_reduction"
    return "none"


def cc_distribution(kill_number: int, drm: int) -> dict[str, Fraction]:
    """The exact chance of each close combat result (CCT A11.11; 36 DR outcomes)."""
    out: dict[str, Fraction] = {}
    for d in two_dice():
        r = cc_result(kill_number, d[0] + d[1] + drm)
        out[r] = out.get(r, Fraction(0)) + Fraction(1, 36)
    return out
