"""Infantry fire attacks (A7; ASLGW 1.3, 1.6, 1.6.62): Point Blank Fire with and
without hand grenades, each firer's FP after range, pin and phase, the fire
group's DRMs, and the one function that turns two dice into the attack's
results, used both to resolve a roll and to give its exact odds.

Infantry firing at a target within one hex has its FP doubled (PBF); at a
target in its own Location, tripled (TPBF).  Units without hand grenades
(ASLGW 1.6.61) get x1.5 for PBF, and their TPBF becomes a DPBF, x2
(ASLGW 1.6.62).  The multipliers are data (``gwasl/resources/weapons.json``,
``point_blank``).

>>> point_blank_multiplier(1, same_location=False, has_hand_grenades=True)
PointBlank(name='PBF', multiplier=Fraction(2, 1), rule='A7.21')
>>> point_blank_multiplier(0, same_location=True, has_hand_grenades=False)
PointBlank(name='DPBF', multiplier=Fraction(2, 1), rule='ASLGW 1.6.62')
>>> point_blank_multiplier(3, same_location=False, has_hand_grenades=False).multiplier
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import Scenario, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules.combat_table import combat_table
from gwasl.rules.dice import Dice, Modifier, Roll
from gwasl.rules.grenades import has_hand_grenades
from gwasl.rules.ift import IftResult, cowering_shift, fire_tables, ift_column, ift_result, two_dice

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "AttackOutcome",
    "FireAttack",
    "FireError",
    "FirePart",
    "PointBlank",
    "attack_outcome",
    "fire_distribution",
    "fire_leadership",
    "fire_part",
    "first_fire_modifiers",
    "fp_words",
    "parse_point_blank",
    "point_blank_for",
    "point_blank_multiplier",
    "residual_fp",
    "resolve_fire",
    "sustained_fire",
    "SustainedFireError",
    "SMC_KINDS",
]


@dataclass(frozen=True, slots=True)
class PointBlank:
    """The point-blank case of one attack: ``name`` is 'PBF', 'TPBF', 'DPBF' or
    ``None`` (beyond one hex), ``multiplier`` the exact FP factor."""

    name: str | None
    multiplier: Fraction
    rule: str | None


@dataclass(frozen=True, slots=True)
class _PbTable:
    pbf: Fraction
    tpbf: Fraction
    pbf_no_hg: Fraction
    dpbf: Fraction


def _mult(d: Any, key: str, where: str) -> Fraction:
    v = d.get(key) if isinstance(d, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 1 <= v <= 4:
        raise TableError(f"weapons.json point_blank.{where}.{key}: expected a multiplier 1-4, got {v!r}")
    return Fraction(str(v))


def parse_point_blank(doc: Any) -> _PbTable:
    """Validate the ``point_blank`` entry of weapons.json.

    The Point Blank Fire multipliers: with hand grenades the classic PBF and TPBF (A7.21, A7.212),
    without them x1.5 and DPBF instead of TPBF (ASLGW 1.6.62)."""
    pb = doc.get("point_blank") if isinstance(doc, dict) else None
    if not isinstance(pb, dict):
        raise TableError("weapons.json: no 'point_blank' object")
    w, wo = pb.get("with_hand_grenades"), pb.get("without_hand_grenades")
    return _PbTable(_mult(w, "PBF", "with_hand_grenades"), _mult(w, "TPBF", "with_hand_grenades"),
                    _mult(wo, "PBF", "without_hand_grenades"), _mult(wo, "DPBF", "without_hand_grenades"))


@lru_cache(maxsize=1)
def _table() -> _PbTable:
    return parse_point_blank(load_resource("weapons.json"))


class PointBlankRangeError(GwaslError):
    """A point-blank multiplier asked for a negative range, or for the same Location at range > 0."""


def point_blank_multiplier(range_hexes: int, *, same_location: bool, has_hand_grenades: bool) -> PointBlank:
    """FP multiplier for infantry fire at ``range_hexes`` (0: same hex).

    * ``same_location`` (range 0 and the same Location): TPBF x3 (A7.212), or
      DPBF x2 without hand grenades (ASLGW 1.6.62).
    * Otherwise within one hex: PBF x2 (A7.21), or x1.5 without hand grenades
      (ASLGW 1.6.62).
    * Beyond: x1.

    Rules that change which case applies pass ``same_location`` accordingly
    (firing into a dugout from its hex counts as same Location, ASLGW 2.2.3;
    firing out of one does not, ASLGW 2.2.4).

    Raises :class:`PointBlankRangeError` for a negative range or the same Location beyond range 0.
    """
    if range_hexes < 0:
        raise PointBlankRangeError(f"range {range_hexes} is negative")
    if same_location and range_hexes != 0:
        raise PointBlankRangeError("the same Location is at range 0")
    t = _table()
    if same_location:
        return PointBlank("TPBF", t.tpbf, "A7.212") if has_hand_grenades else PointBlank("DPBF", t.dpbf, "ASLGW 1.6.62")
    if range_hexes <= 1:
        return PointBlank("PBF", t.pbf, "A7.21") if has_hand_grenades else PointBlank("PBF", t.pbf_no_hg, "ASLGW 1.6.62")
    return PointBlank(None, Fraction(1), None)


def point_blank_for(scenario: Scenario, side: str, range_hexes: int, *, same_location: bool) -> PointBlank:
    """:func:`point_blank_multiplier` for a firer of ``side``, whose hand
    grenades come from the scenario (ASLGW 1.6.61-1.6.62)."""
    return point_blank_multiplier(range_hexes, same_location=same_location, has_hand_grenades=has_hand_grenades(scenario, side))


_VULGAR = {Fraction(1, 4): "\u00bc", Fraction(1, 2): "\u00bd", Fraction(3, 4): "\u00be"}


def fp_words(fp: int | Fraction) -> str:
    """FP as a player writes it (A7.24: fractions are kept): ``4``, ``1\u00bd``, ``\u00be``;
    other fractions as decimals.

    >>> fp_words(Fraction(9, 2)), fp_words(Fraction(3, 4)), fp_words(6), fp_words(Fraction(10, 3))
    ('4\u00bd', '\u00be', '6', '3.333')
    """
    f = Fraction(fp)
    whole, rest = divmod(f, 1)
    if rest == 0:
        return str(whole)
    if rest in _VULGAR:
        return (str(whole) if whole else "") + _VULGAR[rest]
    return f"{float(f):.3f}".rstrip("0")


# ---------------------------------------------------------------------------
# The attack (A7, A8; ASLGW 1.3, 1.6)


class FireError(GwaslError):
    """A fire attack the rules do not allow (out of range, nothing to fire with)."""


@dataclass(frozen=True, slots=True)
class FirePart:
    """One contribution to a fire attack: a unit's inherent FP (``kind``
    ``inherent``) or a support weapon (``mg``, ``ft``, ``sw``), with every
    factor applied to it and why.  ``rof``, ``breakdown`` and ``x`` are the
    weapon's RoF, B# and a flamethrower's X# (ASLGW 1.6.1, 1.6.41)."""

    id: str
    kind: str
    base_fp: Fraction
    factors: tuple[tuple[str, Fraction], ...] = ()
    rof: int | None = None
    breakdown: int | None = None
    x: int | None = None

    @property
    def fp(self) -> Fraction:
        out = self.base_fp
        for _, f in self.factors:
            out *= f
        return out

    def explain(self) -> str:
        """The part's FP and every factor on it, as a player writes them.

        >>> FirePart("G1", "inherent", Fraction(4), (("long range (A7.22)", Fraction(1, 2)),)).explain()
        'G1 4 FP, long range (A7.22) \u00d7\u00bd = 2'
        """
        why = "".join(f", {r} \u00d7{fp_words(f)}" for r, f in self.factors)
        return f"{self.id} {fp_words(self.base_fp)} FP{why}" + (f" = {fp_words(self.fp)}" if why else "")


def fire_part(part_id: str, kind: str, base_fp: int | Fraction, *, range_hexes: int, normal_range: int,
              max_range: int | None = None, point_blank: PointBlank | None = None, pinned: bool = False,
              phase_factor: tuple[str, Fraction] | None = None, rof: int | None = None, breakdown: int | None = None,
              x: int | None = None) -> FirePart:
    """The FP one firer adds to an attack at ``range_hexes`` (A7.22, A7.8, A7.21).

    * beyond ``normal_range`` and up to ``max_range`` (default: twice the
      normal range, A7.22) its FP is halved; beyond that it cannot fire
      (:class:`FireError`);
    * ``point_blank`` (from :func:`point_blank_multiplier`) multiplies it;
    * a pinned firer fires at half FP (A7.8);
    * ``phase_factor``: the phase's own factor and its reason (Advancing Fire
      after moving A7.25, Subsequent First Fire A8.3, Final Protective Fire
      A8.31, Final Fire after First Fire A8.4).

    >>> p = fire_part("G1", "inherent", 4, range_hexes=6, normal_range=4)
    >>> p.fp, p.factors[0][0]
    (Fraction(2, 1), 'long range (A7.22)')
    >>> fire_part("G1", "inherent", 4, range_hexes=1, normal_range=4,
    ...           point_blank=point_blank_multiplier(1, same_location=False, has_hand_grenades=False)).fp
    Fraction(6, 1)
    """
    t = combat_table().fire
    top = normal_range * t.long_range_multiple if max_range is None else max_range
    if range_hexes > top:
        raise FireError(f"{part_id} reaches {top} hexes at most, the target is {range_hexes} away (A7.22)")
    factors: list[tuple[str, Fraction]] = []
    if range_hexes > normal_range:
        factors.append(("long range (A7.22)", t.long_range_fp))
    if point_blank is not None and point_blank.multiplier != 1:
        factors.append((f"{point_blank.name} ({point_blank.rule})", point_blank.multiplier))
    if pinned:
        factors.append(("pinned (A7.8)", t.pinned_fp))
    if phase_factor is not None and phase_factor[1] != 1:
        factors.append(phase_factor)
    return FirePart(part_id, kind, Fraction(base_fp), tuple(factors), rof, breakdown, x)


class SustainedFireError(FireError):
    """A9.3: a unit that may not fire a MG as Sustained Fire (no SMC may)."""


#: the kinds of unit that are SMC (A1.12): a leader or a hero
SMC_KINDS = frozenset({UnitKind.LEADER, UnitKind.HERO})


def sustained_fire(breakdown: int | None, possessor: UnitKind | str) -> tuple[None, int | None]:
    """A9.3 Sustained Fire: a MG firing a second time in a phase (Subsequent First Fire,
    FPF, Final Fire after First Fire) fires at half FP (the mode's own factor), keeps no
    RoF and breaks down on an original DR at least its B# lowered by
    ``sustained_fire_breakdown_drop`` (infantry_combat.json): an MG08 (B# 11) breaks on
    an original 9 or 10.  Returns the RoF and B# it fires with.  A9.3 also says no SMC
    may use Sustained Fire: a leader or hero firing a MG (``possessor``) is refused with
    :class:`SustainedFireError` (ASLGW changes nothing of it).

    >>> sustained_fire(11, "crew"), sustained_fire(None, "squad")
    ((None, 9), (None, None))
    >>> sustained_fire(11, "leader")
    Traceback (most recent call last):
    ...
    gwasl.rules.fire.SustainedFireError: a leader may not fire a MG as Sustained Fire: no SMC may use Sustained Fire (A9.3)
    """
    kind = UnitKind(possessor)
    if kind in SMC_KINDS:
        raise SustainedFireError(f"a {kind.value} may not fire a MG as Sustained Fire: no SMC may use Sustained Fire (A9.3)")
    if breakdown is None:
        return None, None
    return None, breakdown - combat_table().sustained_fire_breakdown_drop


def fire_leadership(directing: Sequence[int | None]) -> int | None:
    """The leadership DRM of a fire attack (A7.53; ASLGW 1.3): ``directing`` holds,
    for each firing Location, the modifier of the Good Order leader there who
    directs the fire (None: none).  Leadership applies only when every Location
    has one, and then the worst (highest) of them.

    >>> fire_leadership([-1, -2]), fire_leadership([-1, None]), fire_leadership([])
    (-1, None, None)
    """
    if not directing or any(d is None for d in directing):
        return None
    return max(d for d in directing if d is not None)


def first_fire_modifiers(*, open_ground: bool, hindered: bool, assault_move: bool) -> tuple[Modifier, ...]:
    """A4.6: First Fire at a moving target: FFMO -1 in Open Ground along an
    unhindered LOS, FFNAM -1 unless it Assault Moved.

    >>> [m.value for m in first_fire_modifiers(open_ground=True, hindered=False, assault_move=False)]
    [-1, -1]
    >>> first_fire_modifiers(open_ground=True, hindered=True, assault_move=True)
    ()
    """
    t = combat_table().fire
    out = []
    if open_ground and not hindered:
        out.append(Modifier("FFMO: moving in Open Ground (A4.6)", t.ffmo_drm))
    if not assault_move:
        out.append(Modifier("FFNAM: not Assault Moving (A4.6)", t.ffnam_drm))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class FireAttack:
    """A fire attack ready to roll: its parts, its DRMs, and the target groups
    (``groups``: each label with the factor its FP gets, e.g. area fire x1/2
    against a concealed group, A7.23).  ``cowers``: original doubles shift it
    (A7.9), i.e. no leader directs it and not every firer is exempt."""

    parts: tuple[FirePart, ...]
    modifiers: tuple[Modifier, ...]
    groups: tuple[tuple[str, Fraction], ...] = (("target", Fraction(1)),)
    cowers: bool = True
    inexperienced: bool = False

    @property
    def fp(self) -> Fraction:
        return sum((p.fp for p in self.parts), Fraction(0))

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    def group_fp(self, label: str) -> Fraction:
        for g, f in self.groups:
            if g == label:
                return self.fp * f
        raise KeyError(label)

    def fp_words(self) -> str:
        """The attack's FP and why, as a player reads it: the firers' FP and each
        factor on it (once when every firer has the same ones).

        >>> p = lambda i: FirePart(i, "inherent", Fraction(4), (("long range (A7.22)", Fraction(1, 2)),))
        >>> FireAttack((p("G1"), p("G2")), ()).fp_words()
        'G1, G2 8 FP, long range (A7.22) \u00d7\u00bd = 4 FP'
        """
        first = self.parts[0].factors if self.parts else ()
        if all(p.factors == first for p in self.parts):
            base = sum((p.base_fp for p in self.parts), Fraction(0))
            why = "".join(f", {r} \u00d7{fp_words(f)}" for r, f in first)
            return f"{', '.join(p.id for p in self.parts)} {fp_words(base)} FP" + (f"{why} = {fp_words(self.fp)} FP" if why else "")
        return " + ".join(p.explain() for p in self.parts) + f" = {fp_words(self.fp)} FP"

    def column_words(self, label: str, shift: int = 0, area_why: str = "area fire at a \"?\" (A7.23)") -> str:
        """The IFT column the attack reads against target group ``label`` (A7.3), and
        why: the group's own factor on the attack's FP (area fire, A7.23) and cowering
        (A7.9).  It follows :meth:`fp_words`.

        >>> a = FireAttack((FirePart("G1", "inherent", Fraction(8)),), (), (("units", Fraction(1)), ('"?"', Fraction(1, 2))))
        >>> a.column_words("units"), a.column_words('"?"')
        ('-> 8 column', 'area fire at a "?" (A7.23) \u00d7\u00bd = 4 FP -> 4 column')
        >>> a.column_words("units", shift=1)
        '-> 8 column, cowering 1 column left (A7.9): 6 column'
        """
        f = dict(self.groups)[label]
        fp = self.fp * f
        text = f"{area_why} \u00d7{fp_words(f)} = {fp_words(fp)} FP " if f != 1 else ""
        col = ift_column(fp)
        text += f"-> {col} column" if col is not None else "-> below the 1 column: no effect"
        if shift and col is not None:
            shifted = ift_column(fp, shift)
            text += f", cowering {shift} column{'s' if shift > 1 else ''} left (A7.9): " + \
                (f"{shifted} column" if shifted is not None else "off the table, no effect")
        return text


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """What two dice make of a :class:`FireAttack`: the IFT result per target
    group (A7.3, cowering A7.9), the support weapons that keep their RoF
    (coloured die <= RoF, A7.35), malfunction (original DR >= B#, A9.7) or, for
    a flamethrower, are used up (original DR >= X#, A22.3)."""

    dice: tuple[int, int]
    final: int
    shift: int
    results: tuple[tuple[str, IftResult], ...]
    rof_kept: tuple[str, ...] = ()
    malfunctioned: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()

    def result(self, label: str) -> IftResult:
        return dict(self.results)[label]

    @property
    def label(self) -> str:
        """The outcome as one line (the odds' key)."""
        if len(self.results) == 1:
            text = _effect(self.results[0][1])
        else:
            text = "; ".join(f"{g}: {_effect(r)}" for g, r in self.results)
        if self.malfunctioned:
            text += f"; {', '.join(self.malfunctioned)} malfunctions (A9.7)"
        if self.eliminated:
            text += f"; {', '.join(self.eliminated)} used up (A22.3)"
        return text


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _effect(r: IftResult) -> str:
    return "no effect" if r.kind == "none" else r.text


def attack_outcome(attack: FireAttack, dice: tuple[int, int]) -> AttackOutcome:
    """The outcome of ``attack`` when the dice show ``dice`` (coloured die first):
    the IFT (A7.3) with cowering (A7.9), RoF (A7.35), B# (A9.7), X# (A22.3).

    The one function both :func:`resolve_fire` and :func:`fire_distribution` use.

    >>> a = FireAttack((FirePart("G", "inherent", Fraction(8)),), (Modifier("TEM", 1),))
    >>> attack_outcome(a, (2, 3)).label, attack_outcome(a, (3, 3)).label
    ('1MC', 'NMC')
    """
    return _outcome(attack, dice, tuple(attack.fp * f for _, f in attack.groups))


def _outcome(attack: FireAttack, dice: tuple[int, int], group_fp: tuple[Fraction, ...]) -> AttackOutcome:
    final = dice[0] + dice[1] + attack.drm
    shift = cowering_shift(dice, leader_directed=not attack.cowers, inexperienced=attack.inexperienced,
                           exempt=not attack.cowers)
    results = tuple((g, ift_result(fp, final, shift)) for (g, _), fp in zip(attack.groups, group_fp, strict=True))
    original = dice[0] + dice[1]
    rof = tuple(p.id for p in attack.parts if p.rof is not None and dice[0] <= p.rof
                and not (p.breakdown is not None and original >= p.breakdown))
    mal = tuple(p.id for p in attack.parts if p.breakdown is not None and original >= p.breakdown)
    gone = tuple(p.id for p in attack.parts if p.x is not None and original >= p.x)
    return AttackOutcome(dice, final, shift, results, rof, mal, gone)


#: fire_distribution's answers by attack (a frozen value) and the IFT they were read on: menus and
#: the opponent ask the same attack's odds again and again (twin games, each state's menu, each
#: choice).  Bounded: emptied when full.
_DISTRIBUTIONS: dict[tuple[FireAttack, int], tuple[Any, tuple[tuple[str, Fraction], ...]]] = {}
_DISTRIBUTIONS_MAX = 4096


def fire_distribution(attack: FireAttack) -> dict[str, Fraction]:
    """The exact chance of each outcome of ``attack`` on the IFT (A7.3; its :attr:`AttackOutcome.label`),
    from all 36 DR through :func:`attack_outcome`, most harmful first."""
    tables = fire_tables()
    key = (attack, id(tables))
    hit = _DISTRIBUTIONS.get(key)
    if hit is not None and hit[0] is tables:
        return dict(hit[1])
    count: dict[str, int] = {}
    sev: dict[str, int] = {}
    group_fp = tuple(attack.fp * f for _, f in attack.groups)
    for d in two_dice():
        o = _outcome(attack, d, group_fp)
        label = o.label
        count[label] = count.get(label, 0) + 1
        sev[label] = max(r.severity for _, r in o.results)
    # k of the 36 DR: exactly k/36, as the sum of k times 1/36
    out = {k: Fraction(n, 36) for k, n in sorted(count.items(), key=lambda kv: (-sev[kv[0]], kv[0]))}
    if len(_DISTRIBUTIONS) >= _DISTRIBUTIONS_MAX:
        _DISTRIBUTIONS.clear()
    _DISTRIBUTIONS[key] = (tables, tuple(out.items()))
    return out


def resolve_fire(dice: Dice, attack: FireAttack, cause: str) -> tuple[Roll, AttackOutcome]:
    """Roll the attack's DR (A7.3; logged with every DRM) and read it with :func:`attack_outcome`."""
    roll = dice.DR(cause, attack.modifiers)
    return roll, attack_outcome(attack, (roll.dice[0], roll.dice[1]))


def residual_fp(attack_fp: int | Fraction, shift: int = 0) -> int | None:
    """Residual FP an attack leaves in its target Location (A8.2): half the IFT
    column the attack used, read down to a column; ``None`` below the 1 column.

    >>> residual_fp(12), residual_fp(8), residual_fp(Fraction(3, 2)), residual_fp(6, shift=1)
    (6, 4, None, 2)
    """
    col = ift_column(attack_fp, shift)
    if col is None:
        return None
    return ift_column(Fraction(col) * combat_table().fire.area_fire_fp)


def total_fp(parts: Iterable[FirePart]) -> Fraction:
    """The FP of a fire group: the sum of its firers' FP (A7.5)."""
    return sum((p.fp for p in parts), Fraction(0))
