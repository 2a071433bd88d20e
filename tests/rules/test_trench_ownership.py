"""Issue 10 item 10: a trench without an owner, re-read (docs/rules-notes.md, "Trenches without
an owner").  ASLGW 1.3.22 exempts units in their OWN trenches, the schema's ``owner`` being the
side that dug it; ASLGW 1.5 needs an ENEMY trench.  An ownerless trench is neither."""

from __future__ import annotations

import datetime as dt

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    Fortification,
    FortificationKind,
    LeaderRating,
    MapData,
    Nationality,
    Position,
    Scenario,
    Side,
    Unit,
    UnitClass,
    UnitKind,
)
from gwasl.rules import bayonet as b
from gwasl.rules.command import command_status

H = Hex.from_label


def _scenario(owner: str | None, units: tuple[Unit, ...]) -> Scenario:
    trench = Fortification(FortificationKind.TRENCH, (H("K1"),), owner)
    return Scenario("t", dt.date(1916, 6, 1), MapData(12, 14, fortifications=(trench,)),
                    {"fr": Side("fr", Nationality.FRENCH), "de": Side("de", Nationality.GERMAN)}, units)


def test_aslgw_1_3_22_an_ownerless_trench_is_no_sides_own():
    """ASLGW 1.3.22: no leader in radius; the French squad in its own trench has no No Leader
    Penalty, in an ownerless or German trench it has one (not its own)."""
    sq = Unit("S", "fr", UnitKind.SQUAD, H("K1"), unit_class=UnitClass.FIRST_LINE, position=Position.TRENCH)
    penalty = {owner: command_status(_scenario(owner, (sq,)), "fr").units["S"].no_leader_penalty
               for owner in ("fr", None, "de")}
    assert penalty == {"fr": False, None: True, "de": True}


def test_aslgw_1_5_an_ownerless_trench_is_no_enemy_trench():
    """ASLGW 1.5: LOS to an enemy trench allows a BCh; an ownerless trench is nobody's enemy trench."""
    line = tuple(Unit(f"s{i}", "fr", UnitKind.SQUAD, H(h), unit_class=UnitClass.FIRST_LINE)
                 for i, h in enumerate(["C5", "C5", "D5", "D5", "E5", "E5"]))
    line += (Unit("L", "fr", UnitKind.LEADER, H("D5"), rating=LeaderRating(8, 0)),)
    decl = b.BChDeclaration(tuple(u.id for u in line), 0)

    def sees_k1(fh, th, fp, tp):
        return th == H("K1")

    ok = {owner: b.check_bch_declaration(_scenario(owner, line), decl, sees_k1).ok for owner in ("de", None, "fr")}
    assert ok == {"de": True, None: False, "fr": False}
