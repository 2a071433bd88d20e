"""Setting up a convoy: formations (103.1), capital ships (103.3), escort stations (103.2).

A formation is a set of columns, each led by a bow hex and holding its ships
4 hexes bow to bow (stand-in), all on one heading.  Harmon's chart gives
formations 7-10 by their leaders' labels; the layout is kept exactly and the
whole convoy is moved so its middle column sits on the board's middle
column (docs/rules-notes.md, "On Patrol: where the formation sits").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gwasl.games.on_patrol.geometry import DIRS, Pose, heading_from_harmon
from gwasl.games.on_patrol.tables import TableError, Tables
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex, scale

__all__ = [
    "Layout",
    "abreast",
    "capital_slots",
    "escort_stations",
    "formation_choices",
    "layout",
    "station_order",
]


class AbreastOffsetError(GwaslError):
    """An odd offset abreast: ships abreast stand on even columns (103.1)."""


def abreast(heading: int, n: int) -> Hex:
    """The offset ``n`` hexes abreast to starboard (negative: to port) of a ship on
    ``heading``: for ships heading north or south this is ``n`` columns along the same
    row, as Harmon's leaders E20, M20, U20 stand (103.1).  ``n`` must be even.

    Raises :class:`AbreastOffsetError` (an odd offset abreast: ships abreast stand on even columns (103.1)).
    """
    if n % 2:
        raise AbreastOffsetError("abreast offsets are even")
    k = n // 2
    side = DIRS[(heading + 1) % 6] + DIRS[(heading + 2) % 6]
    return Hex(side.q * k, side.r * k)


@dataclass(frozen=True)
class Layout:
    """A placed formation: ``columns[c]`` lists the bow hexes of column ``c`` from the
    lead ship back, columns from port to starboard; ``heading`` a direction index."""

    formation: int
    heading: int
    columns: tuple[tuple[Hex, ...], ...]

    def slots(self) -> list[tuple[int, int]]:
        return [(c, r) for c, col in enumerate(self.columns) for r in range(len(col))]


def formation_choices(t: Tables, ships: int) -> tuple[int, ...]:
    """The formations a convoy of ``ships`` may take (103.1.1); two means 103.1.2's die roll."""
    for low, high, forms in t.formation_by_ships:
        if low <= ships <= high:
            return forms
    raise TableError(f"no formation holds {ships} ships")


def layout(t: Tables, formation: int, ships: int, centre_column: int, lead_row: int | None = None) -> Layout:
    """The bow hexes of a formation holding ``ships`` ships: Harmon's leaders and heading,
    moved (by an even number of columns, so the shape is unchanged) to ``centre_column``;
    columns hold their ships 4 hexes apart; a formation too small gets rows added at the
    rear (formation 1 beyond 18 ships); one too big leaves its rear slots empty."""
    leaders, direction = t.formations[formation]
    heading = heading_from_harmon(direction)
    hexes = [Hex.from_label(lab) for lab, _ in leaders]
    mid = (hexes[0].column + hexes[-1].column) // 2
    dc = centre_column - mid
    dc -= dc % 2
    dr = 0 if lead_row is None else lead_row - hexes[0].row
    placed = [Hex.from_offset(h.column + dc, h.row + dr) for h in hexes]
    counts = [n for _, n in leaders]
    while sum(counts) < ships:
        counts = [n + 1 for n in counts]
    spacing = t.c("ship_spacing")
    # port to starboard: heading south (3) has starboard to the west, so reverse the chart's order
    cols = [tuple(b - scale(heading, spacing * k) for k in range(n)) for b, n in zip(placed, counts, strict=True)]
    side = abreast(heading, 2)
    cols.sort(key=lambda col: _dot(col[0], side))  # port to starboard
    return Layout(formation, heading, tuple(cols))


def _dot(a: Hex, b: Hex) -> int:
    """Four times the true dot product of two offsets (flat-topped hexes)."""
    return 9 * a.q * b.q + 3 * (2 * a.r + a.q) * (2 * b.r + b.q)


def capital_slots(columns: int, rows: Sequence[int], capitals: int) -> list[tuple[int, int]]:
    """103.3.2: where capital ships go, in order: the lead of each column from the centre
    outwards (nearest left, then nearest right); then the outermost columns, left and right
    alike; an odd one last to the rear of the centre column.  ``rows`` are the column lengths."""
    centre = (columns - 1) // 2
    order = [centre]
    for k in range(1, columns):
        for c in (centre - k, centre + k):
            if 0 <= c < columns and c not in order:
                order.append(c)
    out: list[tuple[int, int]] = []
    for c in order:
        if len(out) == capitals:
            return out
        if rows[c] > 0:
            out.append((c, 0))
    # b) the outermost columns, left and right in equal numbers
    depth = {0: 1, columns - 1: 1}
    while capitals - len(out) >= 2 and columns > 1:
        left, right = 0, columns - 1
        if depth[left] >= rows[left] or depth[right] >= rows[right]:
            break
        out += [(left, depth[left]), (right, depth[right])]
        depth[left] += 1
        depth[right] += 1
    # c) an odd one (or any the outer columns cannot hold): the rear of the centre column
    back = rows[centre] - 1
    while len(out) < capitals and back > 0:
        if (centre, back) not in out:
            out.append((centre, back))
        back -= 1
    if len(out) < capitals:
        raise TableError(f"the formation cannot hold {capitals} capital ships")
    return out


def station_order(escorts: int) -> list[str]:
    """103.2: the stations filled by ``escorts`` escorts, in priority order: A; B only with
    an even number (so the screen stays symmetrical); then C, D, E, F left and right; the
    rest paired behind C.

    >>> station_order(1), station_order(4), station_order(7)
    (['A'], ['A', 'B', 'C-left', 'C-right'], ['A', 'C-left', 'C-right', 'D-left', 'D-right', 'E-left', 'E-right'])
    """
    out = ["A"]
    if escorts % 2 == 0 and escorts >= 2:
        out.append("B")
    for st in ("C", "D", "E", "F"):
        if len(out) + 2 > escorts:
            break
        out += [f"{st}-left", f"{st}-right"]
    k = 1
    while len(out) + 2 <= escorts:
        out += [f"C{k}-left", f"C{k}-right"]
        k += 1
    return out


def escort_stations(lay: Layout, escorts: int, side: int, gap: int) -> list[tuple[str, Pose]]:
    """The station poses of 103.2's chart for ``escorts`` escorts around a placed convoy,
    in priority order (the highest-VP escort takes the first, 103.2.3).

    A: stern six hexes ahead of the lead ship, centre column (a 5-hex gap); B: bow six
    hexes behind the trailing ship, centre column; C, D: even with the lead and trailing
    ships of the outer columns, eight hexes to the left and right; E, F: even with A and B,
    ahead of and behind the outer columns; the rest paired behind C with 5-hex gaps
    (behind D where C's line is full)."""
    h = lay.heading
    ahead = DIRS[h]
    cols = [c for c in lay.columns if c]
    left, right = cols[0], cols[-1]
    n = len(cols)
    if n % 2:
        lead_mid = cols[n // 2][0]
        trail_mid_stern = cols[n // 2][-1] - ahead
    else:
        a, b = cols[n // 2 - 1], cols[n // 2]
        half = lay_half(a[0], b[0])
        lead_mid = half
        back = max(len(a), len(b))
        trail_mid_stern = lay_half(a[min(back, len(a)) - 1], b[min(back, len(b)) - 1]) - ahead
    step_a = gap + 1  # five-hex gap: the neighbour six hexes away
    a_bow = lead_mid + scale(h, step_a + 1)
    b_bow = trail_mid_stern - scale(h, step_a)
    port, star = abreast(h, -side), abreast(h, side)
    st: dict[str, Pose] = {
        "A": Pose(a_bow, h),
        "B": Pose(b_bow, h),
        "C-left": Pose(left[0] + port, h), "C-right": Pose(right[0] + star, h),
        "D-left": Pose(left[-1] + port, h), "D-right": Pose(right[-1] + star, h),
        "E-left": Pose(left[0] + scale(h, step_a + 1), h), "E-right": Pose(right[0] + scale(h, step_a + 1), h),
        "F-left": Pose(left[-1] - ahead - scale(h, step_a), h), "F-right": Pose(right[-1] - ahead - scale(h, step_a), h),
    }
    names = station_order(escorts)
    # one column: E and F would sit on A and B; they stand half the side distance abreast of them
    if n == 1:
        for nm, base in (("E", st["A"]), ("F", st["B"])):
            st[f"{nm}-left"] = Pose(base.bow + abreast(h, -side // 2 - side // 2 % 2), h)
            st[f"{nm}-right"] = Pose(base.bow + abreast(h, side // 2 + side // 2 % 2), h)
    pitch = gap + 2  # a two-hex counter and a five-hex gap
    rest = {k: _behind_c(st[f"C-{k}"].bow, st[f"D-{k}"].bow, h, pitch, escorts >= 5) for k in ("left", "right")}
    out: list[tuple[str, Pose]] = []
    for nm in names:
        p = st[nm] if nm in st else Pose(next(rest[nm.split("-")[1]]), h)
        out.append((nm, p))
    return out


def _behind_c(c: Hex, d: Hex, h: int, pitch: int, has_d: bool) -> Iterator[Hex]:
    """Bows of the remaining escorts on one side: behind C with 5-hex gaps while there is room
    before D, then behind D (103.2 chart, "must be symmetrical")."""
    k = 1
    while True:
        b = c - scale(h, pitch * k)
        if not has_d or along2(b, d, h) >= 2 * pitch:
            yield b
            k += 1
            continue
        break
    k = 1
    while True:
        yield d - scale(h, pitch * k)
        k += 1


def along2(a: Hex, b: Hex, heading: int) -> int:
    """Twice how far ``a`` lies ahead of ``b`` along ``heading`` (cube projection; exact)."""
    d = DIRS[heading]
    v = a - b
    return v.q * d.q + v.r * d.r + (v.q + v.r) * (d.q + d.r)


def lay_half(a: Hex, b: Hex) -> Hex:
    """The hex midway between two hexes an even number of hexes apart."""
    return Hex((a.q + b.q) // 2, (a.r + b.r) // 2)
