"""The classic infantry combat numbers gwasl plays with: gwasl/resources/infantry_combat.json.

ASLGW builds on classic ASL fire, morale, rally, rout, close combat,
snipers and concealment without restating them (ASLGW foreword).  Their
standard numbers are data, validated once at load: a malformed table raises
:class:`~gwasl.model.terrain.TableError` naming the section and field.  Each
section carries a ``rule`` text naming the classic rule its numbers come
from (docs/rules-notes.md, 'Fire and close combat in play').

>>> t = combat_table()
>>> t.fire.long_range_multiple, t.fire.area_fire_fp, t.fire.ffmo_drm
(2, Fraction(1, 2), -1)
>>> t.sniper.effects[1], t.elr_default, t.firer("crew").morale
('casualty_reduction', 3, 8)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.scenario import Position, Terrain
from gwasl.model.terrain import TableError, load_resource

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "AmbushTable",
    "CombatTable",
    "FireNumbers",
    "FirerFactors",
    "RallyTable",
    "RoutTable",
    "SniperTable",
    "combat_table",
    "parse_combat_table",
]

_FILE = "infantry_combat.json"


@dataclass(frozen=True, slots=True)
class FireNumbers:
    """A7.22, A7.23, A7.8, A4.6, A7.25, A8.3, A8.31, A8.4 (see the file's ``fire.rule``)."""

    long_range_multiple: int
    long_range_fp: Fraction
    area_fire_fp: Fraction
    pinned_fp: Fraction
    ffmo_drm: int
    ffnam_drm: int
    advancing_fire_fp: Fraction
    subsequent_first_fire_fp: Fraction
    final_protective_fire_fp: Fraction
    final_fire_after_first_fire_fp: Fraction
    final_fire_after_first_fire_max_range: int
    rule: str


@dataclass(frozen=True, slots=True)
class FirerFactors:
    """Inherent factors of a unit the nationality tables do not give (crew, hero)."""

    fp: int
    range: int
    morale: int
    broken_morale: int


@dataclass(frozen=True, slots=True)
class RallyTable:
    self_rally_mmc_drm: int
    self_rally_mmc_per_phase: int
    terrain_drm: Mapping[Terrain, int]
    fortification_drm: int
    original_12: str
    dm_lost_unless_adjacent: bool
    rule: str
    self_rally_mmc_by: str


@dataclass(frozen=True, slots=True)
class RoutTable:
    refuge_terrain: frozenset[Terrain]
    refuge_positions: frozenset[Position]
    interdiction_check: str
    interdiction_failure: str
    low_crawl_locations: int
    unable_to_rout: str
    rule: str
    mf: int


@dataclass(frozen=True, slots=True)
class AmbushTable:
    difference: int
    concealed_drm: int
    cx_drm: int
    lax_drm: int
    pinned_drm: int
    ambusher_cc_drm: int
    ambushed_cc_drm: int
    rule: str


@dataclass(frozen=True, slots=True)
class SniperTable:
    default_san: int
    effects: Mapping[int, str]
    rule: str


@dataclass(frozen=True, slots=True)
class CombatTable:
    """Every number of infantry_combat.json, validated; ``rules`` maps each section to its rule text."""

    fire: FireNumbers
    firers: Mapping[str, FirerFactors]
    leader_fp: int
    wounded_morale: int
    wounded_leadership: int
    mmg_hmg_af_after_moving: bool
    sustained_fire_breakdown_drop: int
    inherent_fp_with_ft: bool
    ft_pbf: bool
    ft_tem: bool
    kia_others: str
    llmc_from_leadership: bool
    lltc_failure: str
    elr_default: int
    rally: RallyTable
    rout: RoutTable
    cc_smc_fp: int
    cc_pinned_fp: Fraction
    ambush: AmbushTable
    withdrawal_drm: int
    sniper: SniperTable
    gain_tem_at_least: int
    gain_in_hindrance: bool
    gain_in_fortification: bool
    gas_lasts_turns: int | None
    rules: Mapping[str, str]

    def firer(self, kind: str) -> FirerFactors:
        """Factors of a crew or hero (A1.123, A17.1)."""
        try:
            return self.firers[kind]
        except KeyError:
            raise TableError(f"{_FILE} firers: no factors for a {kind}") from None


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


_SECTIONS = ("fire", "firers", "support_weapons", "results", "leader_loss", "elr", "rally", "rout", "close_combat",
             "ambush", "withdrawal", "sniper", "concealment", "gas")


def _sec(doc: dict[str, Any], name: str) -> dict[str, Any]:
    d = doc.get(name)
    if not isinstance(d, dict):
        raise TableError(f"{_FILE}: no {name!r} object")
    if not isinstance(d.get("rule"), str) or not d["rule"]:
        raise TableError(f"{_FILE} {name}: missing 'rule' text naming the classic rule")
    return d


def _int(d: dict[str, Any], key: str, where: str, lo: int = -9, hi: int = 99) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise TableError(f"{_FILE} {where}.{key}: expected a whole number {lo}..{hi}, got {v!r}")
    return v


def _frac(d: dict[str, Any], key: str, where: str) -> Fraction:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1:
        raise TableError(f"{_FILE} {where}.{key}: expected a fraction in (0, 1], got {v!r}")
    return Fraction(str(v))


def _bool(d: dict[str, Any], key: str, where: str) -> bool:
    v = d.get(key)
    if not isinstance(v, bool):
        raise TableError(f"{_FILE} {where}.{key}: expected true or false, got {v!r}")
    return v


def _choice(d: dict[str, Any], key: str, where: str, allowed: tuple[str, ...]) -> str:
    v = d.get(key)
    if v not in allowed:
        raise TableError(f"{_FILE} {where}.{key}: expected one of {', '.join(allowed)}, got {v!r}")
    return str(v)


def _terrains(v: Any, where: str) -> frozenset[Terrain]:
    try:
        return frozenset(Terrain(t) for t in v)
    except (TypeError, ValueError):
        raise TableError(f"{_FILE} {where}: expected a list of terrains, got {v!r}") from None


def parse_combat_table(doc: Any) -> CombatTable:
    """Validate a decoded infantry_combat.json; :class:`TableError` names the section and field.

    Each section's numbers are those of its classic rule: A7.22-A7.23, A7.8, A4.6 fire; A10.2 leader loss;
    A19.12-A19.13 ELR; A10.5 rout; A10.6 rally; A11 close combat; A14 snipers; A12.12 concealment."""
    if not isinstance(doc, dict):
        raise TableError(f"{_FILE}: expected an object")
    secs = {n: _sec(doc, n) for n in _SECTIONS}
    f = secs["fire"]
    fire = FireNumbers(
        _int(f, "long_range_multiple", "fire", 1, 4), _frac(f, "long_range_fp", "fire"), _frac(f, "area_fire_fp", "fire"),
        _frac(f, "pinned_fp", "fire"), _int(f, "ffmo_drm", "fire", -3, 0), _int(f, "ffnam_drm", "fire", -3, 0),
        _frac(f, "advancing_fire_fp", "fire"), _frac(f, "subsequent_first_fire_fp", "fire"),
        _frac(f, "final_protective_fire_fp", "fire"), _frac(f, "final_fire_after_first_fire_fp", "fire"),
        _int(f, "final_fire_after_first_fire_max_range", "fire", 0, 2), f["rule"])
    fr = secs["firers"]
    firers = {}
    for kind in ("crew", "hero"):
        e = fr.get(kind)
        if not isinstance(e, dict):
            raise TableError(f"{_FILE} firers.{kind}: expected an object with fp, range, morale, broken_morale")
        w = f"firers.{kind}"
        firers[kind] = FirerFactors(_int(e, "fp", w, 0, 9), _int(e, "range", w, 0, 20), _int(e, "morale", w, 2, 12),
                                    _int(e, "broken_morale", w, 2, 12))
    sw = secs["support_weapons"]
    res = secs["results"]
    kia = _choice(res, "kia_others", "results", ("break", "none"))
    _choice(res, "random_selection", "results", ("highest_dr_rerolls_ties",))
    ll = secs["leader_loss"]
    ra = secs["rally"]
    td = ra.get("terrain_drm")
    if not isinstance(td, dict):
        raise TableError(f"{_FILE} rally.terrain_drm: expected an object terrain -> DRM")
    terrain_drm: dict[Terrain, int] = {}
    for k in td:
        try:
            terrain_drm[Terrain(k)] = _int(td, k, "rally.terrain_drm", -3, 3)
        except ValueError:
            raise TableError(f"{_FILE} rally.terrain_drm: {k!r} is not a terrain") from None
    rally = RallyTable(_int(ra, "self_rally_mmc_drm", "rally", -3, 3), _int(ra, "self_rally_mmc_per_phase", "rally", 0, 9),
                       MappingProxyType(terrain_drm), _int(ra, "fortification_drm", "rally", -3, 3),
                       _choice(ra, "original_12", "rally", ("casualty_reduction", "none")),
                       _bool(ra, "dm_lost_unless_adjacent", "rally"), ra["rule"],
                       _choice(ra, "self_rally_mmc_by", "rally", ("attacker", "both")))
    ro_ = secs["rout"]
    raw_pos: Any = ro_.get("refuge_positions")
    try:
        positions = frozenset(Position(p) for p in raw_pos)
    except (TypeError, ValueError):
        raise TableError(f"{_FILE} rout.refuge_positions: expected a list of positions") from None
    rout = RoutTable(_terrains(ro_.get("refuge_terrain"), "rout.refuge_terrain"), positions,
                     _choice(ro_, "interdiction_check", "rout", ("NMC",)),
                     _choice(ro_, "interdiction_failure", "rout", ("casualty_reduction",)),
                     _int(ro_, "low_crawl_locations", "rout", 0, 1), _choice(ro_, "unable_to_rout", "rout", ("eliminated",)),
                     ro_["rule"], _int(ro_, "mf", "rout", 1, 12))
    cc = secs["close_combat"]
    am = secs["ambush"]
    nums = [_int(am, k, "ambush", -3, 6) for k in ("difference", "concealed_drm", "cx_drm", "lax_drm", "pinned_drm",
                                                   "ambusher_cc_drm", "ambushed_cc_drm")]
    ambush = AmbushTable(nums[0], nums[1], nums[2], nums[3], nums[4], nums[5], nums[6], am["rule"])
    sn = secs["sniper"]
    eff = sn.get("effects")
    if not isinstance(eff, dict) or not eff:
        raise TableError(f"{_FILE} sniper.effects: expected an object dr -> effect")
    effects: dict[int, str] = {}
    for k, v in eff.items():
        if not (isinstance(k, str) and k.isdigit() and 1 <= int(k) <= 6) or v not in ("casualty_reduction", "pin"):
            raise TableError(f"{_FILE} sniper.effects.{k}: expected dr 1-6 -> 'casualty_reduction' or 'pin', got {v!r}")
        effects[int(k)] = v
    sniper = SniperTable(_int(sn, "default_san", "sniper", 0, 7), MappingProxyType(effects), sn["rule"])
    co = secs["concealment"]
    gas = secs["gas"]
    lasts = gas.get("lasts_turns")
    if lasts is not None:
        lasts = _int(gas, "lasts_turns", "gas", 1, 99)
    return CombatTable(
        fire=fire,
        firers=MappingProxyType(firers),
        leader_fp=_int(fr, "leader_fp", "firers", 0, 9),
        wounded_morale=_int(fr, "wounded_morale", "firers", -3, 0),
        wounded_leadership=_int(fr, "wounded_leadership", "firers", 0, 3),
        mmg_hmg_af_after_moving=_bool(sw, "mmg_hmg_advancing_fire_after_moving", "support_weapons"),
        sustained_fire_breakdown_drop=_int(sw, "sustained_fire_breakdown_drop", "support_weapons", 0, 4),
        inherent_fp_with_ft=_bool(sw, "inherent_fp_with_flamethrower", "support_weapons"),
        ft_pbf=_bool(sw, "flamethrower_pbf", "support_weapons"),
        ft_tem=_bool(sw, "flamethrower_tem", "support_weapons"),
        kia_others=kia,
        llmc_from_leadership=_bool(ll, "llmc_from_leadership", "leader_loss"),
        lltc_failure=_choice(ll, "lltc_failure", "leader_loss", ("pin", "none")),
        elr_default=_int(secs["elr"], "default", "elr", 0, 5),
        rally=rally,
        rout=rout,
        cc_smc_fp=_int(cc, "smc_fp", "close_combat", 0, 4),
        cc_pinned_fp=_frac(cc, "pinned_fp", "close_combat"),
        ambush=ambush,
        withdrawal_drm=_int(secs["withdrawal"], "attack_drm", "withdrawal", -3, 3),
        sniper=sniper,
        gain_tem_at_least=_int(co, "gain_in_terrain_tem_at_least", "concealment", 0, 9),
        gain_in_hindrance=_bool(co, "gain_in_hindrance_terrain", "concealment"),
        gain_in_fortification=_bool(co, "gain_in_fortification", "concealment"),
        gas_lasts_turns=lasts,
        rules=MappingProxyType({n: str(secs[n]["rule"]) for n in _SECTIONS}),
    )


@lru_cache(maxsize=1)
def combat_table() -> CombatTable:
    """gwasl/resources/infantry_combat.json, loaded and validated once.

    The classic combat numbers of A7, A10, A11, A12, A14, A19 that ASLGW builds on."""
    return parse_combat_table(load_resource(_FILE))
