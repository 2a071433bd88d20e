"""Deep trenches and dugouts (ASLGW 2.1, 2.2): movement costs, stacking, TEM
of a location, and point-blank fire into and out of a dugout.

The numbers are in gwasl/resources/terrain.json (``fortifications``); the hex
terrain is :mod:`gwasl.model.terrain`.  :func:`location_tem` is the one place
other rules (fire, the fog-of-war shift DRM) get the TEM of a location.

>>> import datetime
>>> from gwasl.model.scenario import Fortification, FortificationKind, MapData, Scenario, Side, Nationality, Terrain, HexData
>>> from gwasl.model.hexgrid import Hex
>>> h = Hex.from_label("B2")
>>> m = MapData(4, 4, hexes={h: HexData(Terrain.BRUSH)}, fortifications=(Fortification(FortificationKind.DEEP_TRENCH, (h,)),))
>>> s = Scenario("t", datetime.date(1916, 1, 1), m, {"a": Side("a", Nationality.GERMAN), "b": Side("b", Nationality.FRENCH)})
>>> move_cost(s, Hex.from_label("A1"), Position.GROUND, h, Position.DEEP_TRENCH).mf
4.0
>>> location_tem(s, h, Position.DEEP_TRENCH, FireKind.OBA)
5
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit, UnitKind
from gwasl.model.terrain import TableError, fortification_table, terrain_table
from gwasl.rules.morale import asl_core, stacking_equivalents

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "DEEP_TRENCH_POSITIONS",
    "FireKind",
    "LocationError",
    "MoveCost",
    "DugoutPointBlank",
    "TEM",
    "deep_trench_overstacked",
    "deep_trench_stacking_limit",
    "dugout_fire_out_drm",
    "dugout_point_blank",
    "enemies_in_the_way",
    "location_tem",
    "location_tem_explained",
    "move_cost",
    "separate_stacking_locations",
]

DEEP_TRENCH_POSITIONS = frozenset({Position.DEEP_TRENCH, Position.DEEP_TRENCH_CREST})

# The fortification a unit's position needs in its hex (kept for callers; the model knows it).
POSITION_FORTIFICATION = {p: p.fortification for p in Position if p.fortification is not None}


class LocationError(GwaslError):
    """A location that does not exist or cannot be reached as asked (no deep
    trench in the hex, direct fire into a dugout from another hex...)."""


class FireKind(StrEnum):
    """What kind of attack a TEM is asked for (ASLGW 2.1.6, 2.2.3)."""

    DIRECT = "direct"  # direct fire (IFT attack by units/SW in LOS)
    OVR = "ovr"  # vehicular overrun
    OBA = "oba"  # off-board artillery


def _fort(kind: FortificationKind, key: str) -> int:
    v = fortification_table()[kind].get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TableError(f"terrain.json fortifications.{kind.value}.{key}: expected a number, got {v!r}")
    return int(v)


def _need_fortification(s: Scenario, h: Hex, position: Position) -> None:
    if not s.map.contains(h):
        raise LocationError(f"hex {h} is outside the {s.map.columns} x {s.map.rows} map")
    kind = POSITION_FORTIFICATION.get(position)
    if kind is not None and not s.map.has_fortification(h, kind):
        raise LocationError(f"hex {h} has no {kind.value}, so no unit can be {position.value} there")


# ---------------------------------------------------------------------------
# Movement (2.1.3)


@dataclass(frozen=True, slots=True)
class MoveCost:
    """MF an infantry move costs and what it does to the unit (ASLGW 2.1.3)."""

    mf: float
    cx_at_end_of_mph: bool
    double_time_allowed: bool
    reasons: tuple[str, ...]


def _terrain_mf(s: Scenario, h: Hex) -> float:
    info = terrain_table()[s.map.terrain_at(h)]
    if info.mf is None:
        raise LocationError(f"infantry cannot enter {h} ({info.terrain.value}, {info.rule})")
    return info.mf


def move_cost(s: Scenario, from_hex: Hex, from_pos: Position, to_hex: Hex, to_pos: Position) -> MoveCost:
    """The infantry MF cost of one move involving a deep trench (ASLGW 2.1.3).

    - Into a deep trench (IN or at crest status): 2 MF, plus the hex terrain's cost when it comes
      from another hex (cumulative).  Along connected deep trench hexes
      (ADJACENT, both with a deep trench, staying in it): the classic trench
      cost of 1 MF (B27, "all rules of trenches apply", 2.1.2).
    - Out of a deep trench: the cost of what it enters (the hex's terrain, or
      1 MF to leave it within its own hex) doubled; the unit is CX at the end
      of the MPh and may not Double Time, unless a ladder stands in the hex
      it leaves.
    - Between IN and crest status of the same deep trench (2.1.1): 1 MF,
      classic B27.41's cost to enter or leave an entrenchment within its own
      hex (ASLGW does not cost it; see rules-notes); not CX, and the
      doubling of 2.1.3 does not apply (the unit does not get out of the
      trench).
    - Ground to ground: the entered hex's terrain cost.  Moves into or out of
      other entrenchments (classic B27) are not this rule's: LocationError.

    Elevation changes of hills are not part of this rule.

    >>> import datetime
    >>> from gwasl.model.scenario import *
    >>> from gwasl.model.hexgrid import Hex
    >>> a, b = Hex.from_label("B2"), Hex.from_label("B3")
    >>> m = MapData(4, 4, fortifications=(Fortification(FortificationKind.DEEP_TRENCH, (a,)),))
    >>> s = Scenario("t", datetime.date(1916, 1, 1), m, {})
    >>> c = move_cost(s, a, Position.DEEP_TRENCH, b, Position.GROUND)
    >>> c.mf, c.cx_at_end_of_mph, c.double_time_allowed
    (2.0, True, False)
    """
    _need_fortification(s, from_hex, from_pos)
    _need_fortification(s, to_hex, to_pos)
    same_hex = from_hex == to_hex
    if not same_hex and not from_hex.is_adjacent(to_hex):
        raise LocationError(f"{to_hex} is not ADJACENT to {from_hex}")
    in_dt_from = from_pos in DEEP_TRENCH_POSITIONS
    in_dt_to = to_pos in DEEP_TRENCH_POSITIONS
    if in_dt_from and in_dt_to:
        if same_hex:
            if from_pos is to_pos:
                return MoveCost(0.0, False, True, ("no change of location",))
            core = asl_core()
            mf = float(core.entrenchment_change_mf)
            return MoveCost(mf, False, True, (
                f"{from_pos.value} -> {to_pos.value} of the same deep trench: {mf:g} MF "
                f"(ASLGW 2.1.1, 2.1.2; {core.rules['entrenchment'].split(' (')[0]})",))
        along = float(_fort(FortificationKind.DEEP_TRENCH, "mf_along"))
        return MoveCost(along, False, True, (f"along connected deep trench hexes: {along:g} MF (ASLGW 2.1.2, B27)",))
    if in_dt_to:
        enter = float(_fort(FortificationKind.DEEP_TRENCH, "mf_enter"))
        if same_hex:
            return MoveCost(enter, False, True, (f"into the deep trench of its own hex: {enter:g} MF (ASLGW 2.1.3)",))
        t = _terrain_mf(s, to_hex)
        return MoveCost(t + enter, False, True, (
            f"{s.map.terrain_at(to_hex).value} {t:g} MF + deep trench {enter:g} MF, cumulative (ASLGW 2.1.3)",))
    if in_dt_from:
        base = float(_fort(FortificationKind.DEEP_TRENCH, "mf_leave_own_hex")) if same_hex else _terrain_mf(s, to_hex)
        factor = _fort(FortificationKind.DEEP_TRENCH, "exit_cost_factor")
        why = [f"out of a deep trench: {base:g} MF doubled (ASLGW 2.1.3)"]
        ladder = any(from_hex in f.ladders for f in s.map.fortifications
                     if f.kind is FortificationKind.DEEP_TRENCH and from_hex in f.hexes)
        if ladder:
            why.append(f"ladder in {from_hex}: not CX, may Double Time (ASLGW 2.1.3)")
        else:
            why.append("no ladder: CX at the end of the MPh, no Double Time this MPh (ASLGW 2.1.3)")
        return MoveCost(base * factor, not ladder, ladder, tuple(why))
    if from_pos is not Position.GROUND or to_pos is not Position.GROUND:
        raise LocationError(f"a move {from_pos.value} -> {to_pos.value} involves no deep trench (classic B27 entrenchments are not costed here)")
    if same_hex:
        return MoveCost(0.0, False, True, ("no change of location",))
    t = _terrain_mf(s, to_hex)
    return MoveCost(t, False, True, (f"{s.map.terrain_at(to_hex).value}: {t:g} MF",))


# ---------------------------------------------------------------------------
# Stacking (2.1.4, 2.2.1)


def deep_trench_stacking_limit() -> int:
    """ASLGW 2.1.4: a deep trench holds at most 2 squads (squad-equivalents, A5.1)."""
    return _fort(FortificationKind.DEEP_TRENCH, "stacking_squads")


def separate_stacking_locations(units: Iterable[Unit]) -> dict[tuple[Hex, str], tuple[Unit, ...]]:
    """Group units by stacking location: in each hex a dugout stacks apart from
    the rest of the hex (ASLGW 2.2.1), and the deep trench (IN and crest, 2.1.4)
    is counted apart for its own limit.  Keys are ``(hex, "dugout" |
    "deep_trench" | "hex")``.
    """
    out: dict[tuple[Hex, str], list[Unit]] = {}
    for u in units:
        if u.position is Position.DUGOUT:
            key = "dugout"
        elif u.position in DEEP_TRENCH_POSITIONS:
            key = "deep_trench"
        else:
            key = "hex"
        out.setdefault((u.hex, key), []).append(u)
    return {k: tuple(v) for k, v in out.items()}


def enemies_in_the_way(s: Scenario, side: str, h: Hex, position: Position) -> tuple[Unit, ...]:
    """The enemy units that can stop a unit of ``side`` from moving into
    ``(h, position)`` (ASLGW 2.2.1): troops in a dugout cannot prevent enemy
    units from moving in their hex as long as those stay outside the dugout,
    so they count only against a unit entering the dugout itself; enemy
    units outside the dugout count against any unit entering the hex.  What
    meeting them means (no entry, CC) is the classic movement rules'.

    >>> import datetime
    >>> from gwasl.model.scenario import *
    >>> h = Hex.from_label("B2")
    >>> m = MapData(4, 4, fortifications=(Fortification(FortificationKind.DUGOUT, (h,)),))
    >>> s = Scenario("t", datetime.date(1916, 1, 1), m, {}, (Unit("f", "fr", UnitKind.SQUAD, h, position=Position.DUGOUT),))
    >>> enemies_in_the_way(s, "de", h, Position.GROUND), [u.id for u in enemies_in_the_way(s, "de", h, Position.DUGOUT)]
    ((), ['f'])
    """
    _need_fortification(s, h, position)
    into_dugout = position is Position.DUGOUT
    return tuple(u for u in s.units if u.side != side and u.hex == h and u.kind is not UnitKind.SUPPORT_WEAPON
                 and (u.position is Position.DUGOUT) == into_dugout)


def deep_trench_overstacked(units: Iterable[Unit]) -> float | None:
    """ASLGW 2.1.4: the squad-equivalents (A5.1) of a deep trench location if
    over its limit of 2 squads, else None."""
    n = stacking_equivalents(units)
    return n if n > deep_trench_stacking_limit() else None


# ---------------------------------------------------------------------------
# TEM (2.1.6, 2.2.3)


@dataclass(frozen=True, slots=True)
class TEM:
    """A TEM with the reason and rule it comes from."""

    value: int
    cause: str
    rule: str


def location_tem_explained(s: Scenario, h: Hex, position: Position, fire_kind: FireKind, firer_hex: Hex | None = None) -> TEM:
    """The TEM of the location ``(h, position)`` against ``fire_kind``, with its cause.

    - deep trench IN: +3 direct, +5 OBA (ASLGW 2.1.6); OVR, not given by the
      text, is +5 (rules-notes); direct fire from another hex cannot see in
      (2.1.5: LOS into a deep trench only from its own hex) and raises
      :class:`LocationError`, as for a dugout (without ``firer_hex`` it is
      taken to come from the trench's own hex);
    - deep trench crest: +3 direct, +4 OVR and OBA (ASLGW 2.1.6);
    - dugout: +6 OBA; +2 direct fire from its own hex; direct fire from any
      other hex cannot see in (2.2.2) and an OVR cannot reach it (2.2.1):
      both raise :class:`LocationError` (without ``firer_hex`` direct fire
      is taken to come from its own hex, the only place it can);
    - trench, foxhole, pillbox: the better of the fortification's TEM
      (classic B27, B30) and the hex terrain's (they never add);
    - ground: the hex terrain's TEM (classic chapter B).
    """
    _need_fortification(s, h, position)
    ft = fortification_table()
    if position in DEEP_TRENCH_POSITIONS:
        rule = "ASLGW 2.1.6"
        crest = position is Position.DEEP_TRENCH_CREST
        if fire_kind is FireKind.DIRECT:
            key = "crest_tem" if crest else "tem"
        else:
            key = "crest_tem_ovr_oba" if crest else "tem_oba"
        where = "crest status of a deep trench" if crest else "IN a deep trench"
        if not crest and fire_kind is FireKind.DIRECT and firer_hex is not None and firer_hex != h:
            raise LocationError(f"no direct fire into the deep trench of {h} from {firer_hex}: LOS into it only from its own hex (ASLGW 2.1.5)")
        return TEM(_fort(FortificationKind.DEEP_TRENCH, key), f"{where} vs {fire_kind.value}", rule)
    if position is Position.DUGOUT:
        if fire_kind is FireKind.OBA:
            return TEM(_fort(FortificationKind.DUGOUT, "tem_oba"), "dugout vs OBA", "ASLGW 2.2.3")
        if fire_kind is FireKind.OVR:
            raise LocationError(f"an overrun cannot reach units in the dugout of {h}: it is underground (ASLGW 2.2.1)")
        if firer_hex is not None and firer_hex != h:
            raise LocationError(f"no direct fire into the dugout of {h} from {firer_hex}: LOS only from its own hex (ASLGW 2.2.2)")
        return TEM(_fort(FortificationKind.DUGOUT, "tem"), "dugout vs direct fire from its own hex", "ASLGW 2.2.3")
    kind = POSITION_FORTIFICATION.get(position)
    info = terrain_table()[s.map.terrain_at(h)]
    if kind is not None and _fort(kind, "tem") >= info.tem:
        return TEM(_fort(kind, "tem"), f"{kind.value}", ft[kind].rule)
    return TEM(info.tem, f"{info.terrain.value} terrain", info.rule)


def location_tem(s: Scenario, h: Hex, position: Position, fire_kind: FireKind | str, firer_hex: Hex | None = None) -> int:
    """The TEM of a location (hex and position in it) against a kind of fire.

    This is the API other rules use (fire resolution, the O'Leary shift DRM);
    see :func:`location_tem_explained` for the rules and the reason.
    ``fire_kind`` is a :class:`FireKind` or its value (``"direct"``, ``"ovr"``,
    ``"oba"``).  Raises :class:`LocationError` when the location does not exist
    (no such fortification in the hex) or the fire cannot reach it.

    >>> import datetime
    >>> from gwasl.model.scenario import *
    >>> from gwasl.model.hexgrid import Hex
    >>> h = Hex.from_label("A1")
    >>> m = MapData(2, 2, fortifications=(Fortification(FortificationKind.DUGOUT, (h,)),))
    >>> s = Scenario("t", datetime.date(1916, 1, 1), m, {})
    >>> location_tem(s, h, Position.DUGOUT, "oba"), location_tem(s, h, Position.DUGOUT, "direct", firer_hex=h)
    (6, 2)
    """
    return location_tem_explained(s, h, position, FireKind(fire_kind), firer_hex).value


# ---------------------------------------------------------------------------
# Fire into and out of a dugout (2.2.3, 2.2.4)


@dataclass(frozen=True, slots=True)
class DugoutPointBlank:
    """Point-blank case of fire between a dugout and its own hex.

    ``name`` is 'TPBF', 'DPBF' (TPBF without hand grenades, ASLGW 1.6.62) or
    'PBF'; ``same_location`` is what to pass to the fire rules' point-blank
    multiplier (``gwasl.rules.fire.point_blank_multiplier(0, same_location=...,
    has_hand_grenades=...)``), which gives the factor."""

    name: str
    same_location: bool
    reason: str


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def dugout_point_blank(firer_in_dugout: bool, target_in_dugout: bool, same_hex: bool, attackers_have_grenades: bool) -> DugoutPointBlank:
    """Point-blank case of fire involving a dugout (ASLGW 2.2.3, 2.2.4).

    Fire into a dugout (only possible from its own hex, 2.2.2) is TPBF, or
    DPBF for attackers without hand grenades (1.6.62), as if in the same
    Location.  Fire out of a dugout never uses TPBF/DPBF: at a target in its
    own hex it is PBF.

    >>> dugout_point_blank(False, True, True, attackers_have_grenades=False).name
    'DPBF'
    >>> dugout_point_blank(True, False, True, attackers_have_grenades=True)
    DugoutPointBlank(name='PBF', same_location=False, reason='fire out of a dugout does not use TPBF/DPBF (ASLGW 2.2.4)')
    """
    if target_in_dugout and not firer_in_dugout:
        if not same_hex:
            raise LocationError("no fire into a dugout from another hex (ASLGW 2.2.2)")
        if attackers_have_grenades:
            return DugoutPointBlank("TPBF", True, "fire into a dugout is TPBF (ASLGW 2.2.3)")
        return DugoutPointBlank("DPBF", True, "fire into a dugout is TPBF, DPBF without hand grenades (ASLGW 2.2.3, 1.6.62)")
    if firer_in_dugout and not target_in_dugout:
        if not same_hex:
            raise LocationError("no fire out of a dugout at another hex (ASLGW 2.2.2)")
        return DugoutPointBlank("PBF", False, "fire out of a dugout does not use TPBF/DPBF (ASLGW 2.2.4)")
    raise LocationError("dugout_point_blank is for fire between a dugout and its hex (ASLGW 2.2.3, 2.2.4)")


def dugout_fire_out_drm(firer_in_dugout: bool) -> int:
    """ASLGW 2.2.4: units firing from a dugout suffer +3 (0 otherwise).

    >>> dugout_fire_out_drm(True)
    3
    """
    return _fort(FortificationKind.DUGOUT, "firing_out_tem") if firer_in_dugout else 0
