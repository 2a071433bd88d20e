"""gwasl's opponent: the choices it used to leave alone (issue 25, part C).

* **Routs as choices** (A10.5): a broken unit that must rout (a Known Good Order enemy in its
  Location or ADJACENT, or in Open Ground in the LOS and normal range of one) routs as far as
  it may into cover; one that need not rout routs of its own will only in its own side's RtPh
  (docs/rules-notes.md: the side not phasing has no voluntary rout) and only when staying is
  worse than going: known enemy fire on an uncovered hex, enemies within reach, no leader to
  rally it -- against the destination's, less the interdiction the rout risks (its exact odds).
* **Withdrawal from Melee** (A11.2): withdraw when the Melee is lost on the odds of its close
  combat (``Seat.odds``) and leaving (the enemy's attack at the withdrawal DRM, its exact odds)
  costs less than staying.
* **Gas protection off** (ASLGW 1.9.15-1.9.16): a unit wearing it is CX; it takes it off (1 MF)
  where no gas is and none may come (no cloud, no release still to come, within reach).
* **The Bayonet Charge priced** (ASLGW 1.5, A25.23): the chargers' expected losses to the
  defender's fire on the way, the close combat at the end (CCT odds, A11.11), the objective's
  worth and the clock; declared only when the net is clearly positive.

Each is a pure function of what the side's seat shows (its own units, the enemy it sees, the
legal actions and their odds): the twin games of the twin test stay alike until a reveal.
The weights are gwasl's, not the rules' (docs/rules-notes.md, "gwasl's opponent weighs its
choices").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gwasl.engine.game import Decision, Outcome, Seat
from gwasl.engine.record import Record
from gwasl.games.aslgw import effects as fx
from gwasl.games.aslgw.knowledge import env
from gwasl.games.aslgw.records import BayonetCharge, CloseCombat, EndPhase, RemoveGasMask, Rout, Withdraw
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Scenario, Unit, UnitKind
from gwasl.rules.close_combat import CCAttack, CCKind, cc_pair_distribution
from gwasl.rules.fog.state import FogStatus
from gwasl.rules.ift import IftResult, ift_distribution
from gwasl.rules.rout import Threat, must_rout
from gwasl.rules.sniper import gas_releases

__all__ = ["Kit", "charge_choice", "gas_choice", "must", "rout_choice", "rout_score", "withdraw_choice"]


@dataclass(frozen=True, slots=True)
class Kit:
    """What the opponent's reading of a position lends these choices (gwasl/games/aslgw/opponent.py,
    one implementation each): a hex's cover, a unit's FP and Good Order morale, what a unit
    is worth to its side.  ``look`` is the opponent's reading of the seat (``_Look``)."""

    cover: Callable[[Scenario, Hex], int]
    fp: Callable[[Scenario, Unit], float]
    morale: Callable[[Scenario, Unit], int]
    worth: Mapping[UnitKind, float]


_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)
_hex = lru_cache(maxsize=1024)(Hex.from_label)


def _dist(h: Hex, targets: Iterable[Hex]) -> int:
    return min((h.distance(t) for t in targets), default=0)


def _decision(action: Record, why: str, details: Mapping[str, Any] | None = None, public: bool = True,
              about: Iterable[str] = ()) -> Decision:
    """As the opponent's: a private decision names its hidden units (``about``) for their reveal."""
    out = dict(details or {})
    if not public and about:
        out["about"] = sorted(set(about))
    return Decision(action, why, out, public)


def _hidden(look: Any, ids: Iterable[str]) -> list[str]:
    return [i for i in ids if i in look.hidden]


def _shown(look: Any, ids: Iterable[str]) -> bool:
    """Whether the units a decision names are all in the enemy's sight (its why may then be public)."""
    return not any(i in look.hidden for i in ids)


def _pieces_units(look: Any, pieces: Sequence[str]) -> list[Unit]:
    ids = set(pieces)
    return [u for u in look.mine if u.id in ids]


# ---------------------------------------------------------------------------
# Routs (A10.5)

#: how much better than staying a voluntary rout must be (gwasl's weight)
VOLUNTARY_MARGIN = 0.5
#: a Good Order leader of its side in its Location: he may rally it next RPh (A10.6; gwasl's weight)
RALLY_LEADER = 1.5
#: a Known Good Order enemy within this many hexes may come at it before it rallies (gwasl's reach)
REACH = 3


def _known_enemies(seat: Seat[Any], look: Any) -> list[Unit]:
    """The enemy units the side knows (not "?" piles, not hidden: A10.5 reads Known units)."""
    fog = seat.view().fog
    return [u for u in look.theirs if fog.status_of(u.id) is FogStatus.NONE]


def must(seat: Seat[Any], look: Any, uid: str) -> str | None:
    """Why the side's broken unit ``uid`` must rout this RtPh (A10.5, A10.51), from the Known
    enemy units its seat shows -- the same rule the RtPh applies (:func:`gwasl.rules.rout.must_rout`)."""
    u = next((x for x in look.mine if x.id == uid), None)
    if u is None:
        return None
    known = _known_enemies(seat, look)
    threats = []
    for e in known:
        if e.broken:
            continue
        fp, rng = fx.inherent_factors(look.sc, e)
        if fp > 0 or e.kind is UnitKind.LEADER:
            threats.append(Threat(e.hex, e.position, rng))
    sees = env().sees(look.sc)
    return must_rout(look.sc, u, threats, lambda a, b, ai, bi: sees(a, b, ai, bi), [(e.hex, e.position) for e in known])


def _exposure(look: Any, kit: Kit, h: Hex) -> float:
    """Known enemy fire on ``h`` softened by its cover, plus the Good Order enemies within reach."""
    near = sum(1 for e in look.theirs if not e.broken and e.hex.distance(h) <= REACH)
    return float(look.threat(h)) / (1 + kit.cover(look.sc, h)) + 0.8 * near


def _rally_here(look: Any, u: Unit, h: Hex) -> bool:
    return any(ld.hex == h and ld.id != u.id and not ld.broken and ld.kind is UnitKind.LEADER for ld in look.mine)


def _place_value(look: Any, kit: Kit, u: Unit, h: Hex) -> float:
    return -_exposure(look, kit, h) + 0.5 * kit.cover(look.sc, h) + (RALLY_LEADER if _rally_here(look, u, h) else 0.0)


def _loss(outcomes: Sequence[Outcome], worth: float) -> float:
    """Expected loss, in squads, of a rout's interdiction (A10.53) from its exact odds."""
    p = sum(o.p for o in outcomes if "eliminated" in o.result) + 0.5 * sum(o.p for o in outcomes if "reduced" in o.result)
    return p * worth


def rout_score(look: Any, kit: Kit, a: Rout) -> float:
    """A required rout (A10.5): as far from the enemy as it may, into cover."""
    to = _hex(a.to)
    near = min((u.hex.distance(to) for u in look.theirs if not u.broken), default=9)
    return near * 2 + kit.cover(look.sc, to) - (0.5 if a.low_crawl else 0.0)


def rout_choice(seat: Seat[Any], look: Any, kit: Kit, routs: Sequence[Rout], end: EndPhase | None) -> Decision | None:
    """The side's routs (A10.5): each unit that must rout goes first, as far from the enemy as
    it may and into cover; then, in its own RtPh (``end`` offered), a unit that need not rout
    routs only when staying is worse; otherwise the side ends the RtPh with its reasons."""
    side = look.side
    ours = {u.id: u for u in look.mine}
    routs = [a for a in routs if a.unit in ours]
    if not routs:
        return None
    required = {a.unit: why for a in routs if (why := must(seat, look, a.unit)) is not None}
    forced = [a for a in routs if a.unit in required]
    if forced or end is None:
        best = max(forced or routs, key=lambda a: rout_score(look, kit, a))
        why = required.get(best.unit, "it must rout (A10.5)")
        return _decision(best, f"{side} routs {best.unit} to {best.to}{' by Low Crawl' if best.low_crawl else ''}: {why}; "
                               f"as far from the enemy as it may, into cover (A10.5)",
                         public=_shown(look, (best.unit,)), about=_hidden(look, (best.unit,)))
    stays: list[str] = []
    best_go: tuple[float, Rout, str] | None = None
    for uid in sorted({a.unit for a in routs}):
        u = ours[uid]
        stay = _place_value(look, kit, u, u.hex)
        worth = kit.worth.get(u.kind, 0.5)
        for a in (x for x in routs if x.unit == uid):
            to = _hex(a.to)
            there = _place_value(look, kit, u, to)
            # the interdiction's loss only lowers the gain (loss >= 0): a rout that could not win
            # even at no loss needs no odds (its exact odds are the costly part of the choice)
            if a.low_crawl or there - stay <= VOLUNTARY_MARGIN or (best_go is not None and there - stay <= best_go[0]):
                loss = 0.0
            else:
                loss = _loss(seat.odds(a), worth)
            go = there - 3.0 * loss
            gain = go - stay
            if gain > VOLUNTARY_MARGIN and (best_go is None or gain > best_go[0]):
                best_go = (gain, a, f"staying at {u.hex.label} ({_place_words(look, kit, u, u.hex)}) is worse than {a.to} "
                                    f"({_place_words(look, kit, u, to)}; interdiction costs {loss:.2f} squads)")
        stays.append(f"{uid} at {u.hex.label} ({_place_words(look, kit, u, u.hex)})")
    if best_go is not None:
        a = best_go[1]
        return _decision(a, f"{side} routs {a.unit} to {a.to} of its own will (A10.5): {best_go[2]}",
                         public=_shown(look, (a.unit,)), about=_hidden(look, (a.unit,)))
    assert end is not None
    weighed = sorted({a.unit for a in routs})
    return _decision(end, f"{side} keeps its broken units where they are: {'; '.join(stays)} -- no rout is safer "
                          f"(A10.5: none of them must rout); it ends the RtPh",
                     public=_shown(look, weighed), about=_hidden(look, weighed))


def _place_words(look: Any, kit: Kit, u: Unit, h: Hex) -> str:
    cover = {0: "no cover", 1: "cover", 2: "entrenched", 3: "deep cover"}[min(3, kit.cover(look.sc, h))]
    near = sum(1 for e in look.theirs if not e.broken and e.hex.distance(h) <= REACH)
    bits = [cover, f"known enemy fire {look.threat(h):.1f}", f"{near} enemy within {REACH} hexes"]
    if _rally_here(look, u, h):
        bits.append("a leader to rally it (A10.6)")
    return ", ".join(bits)


# ---------------------------------------------------------------------------
# Withdrawal from Melee (A11.2)

#: how much better than staying a withdrawal must be (gwasl's weight)
WITHDRAW_MARGIN = 0.1
#: what holding an objective's Location is worth while the Melee lasts, in squads (gwasl's weight)
HOLD_OBJECTIVE = 1.0
#: what a squad locked in Melee costs an attacker whose goals lie elsewhere, per squad (gwasl's weight)
LOCKED = 0.5


def _hits(outcomes: Sequence[Outcome], side: str) -> tuple[float, float]:
    """P(``side``'s units eliminated), P(casualty reduced) from CC odds' words
    ("SIDE units: eliminated; OTHER units: none", an ambush first: A11.4)."""
    elim = red = 0.0
    for o in outcomes:
        for part in o.result.split("; "):
            who, _, what = part.partition(" units: ")
            if who == side:
                if what == "eliminated":
                    elim += o.p
                elif what == "casualty reduction":
                    red += o.p
    return elim, red


def _worth(kit: Kit, units: Sequence[Unit]) -> float:
    return sum(kit.worth.get(u.kind, 0.5) for u in units)


def withdraw_choice(seat: Seat[Any], look: Any, kit: Kit, legal: Sequence[Record]) -> Decision | None:
    """A11.2: its Good Order units in a Melee withdraw when the Melee's close combat is lost
    on the odds (its units' expected loss above the enemy's) and the withdrawal's own attack
    costs less than staying; to the safest ADJACENT Location offered."""
    withdrawals = [a for a in legal if isinstance(a, Withdraw)]
    if not withdrawals:
        return None
    ours = {u.id: u for u in look.mine}
    for at in sorted({a.at for a in withdrawals}):
        options = [a for a in withdrawals if a.at == at and all(i in ours for i in a.units)]
        cc = next((a for a in legal if isinstance(a, CloseCombat) and a.at == at), None)
        if not options or cc is None:
            continue
        odds = seat.odds(cc)
        if not odds or any("cannot see" in o.result for o in odds):
            continue  # the Melee's odds are not the side's to know: it fights on
        mine = [ours[i] for i in options[0].units]
        theirs = [u for u in look.theirs if u.hex.label == at]
        me, mr = _hits(odds, look.side)
        te, tr = _hits(odds, look.enemy)
        # a Melee goes on, one CC a CCPh, until one side is gone (A11.15): each side's chance
        # to be the one eliminated in the end, from one CC's odds
        both = sum(o.p for o in odds if o.result.count("eliminated") == 2)
        ends = max(1e-9, me + te - both)
        lose = _worth(kit, mine) * (me / ends + 0.5 * mr)
        win = _worth(kit, theirs) * (te / ends + 0.5 * tr)
        # the Location's worth to the plan: an objective it holds there, or units the plan needs
        # elsewhere (an attacker's goals, with turns left) that the Melee keeps locked (A11.15)
        stake = HOLD_OBJECTIVE if _hex(at) in look.plan.targets else 0.0
        locked = LOCKED * _worth(kit, mine) if (look.plan.attack and not stake and look.turns_left >= 1
                                           and look.goals_for(mine)) else 0.0
        stay = win - lose + stake - locked
        if lose <= win:
            continue
        best: tuple[float, Withdraw, float] | None = None
        for w in options:
            we, wr = _hits(seat.odds(w), look.side)
            cost = _worth(kit, mine) * (we + 0.5 * wr)
            to = _hex(w.to)
            goals = look.goals_for(mine)
            toward = (_dist(_hex(at), goals) - _dist(to, goals)) if goals else 0
            leave = -cost + 0.1 * kit.cover(look.sc, to) - 0.02 * look.threat(to) + 0.05 * toward
            if best is None or leave > best[0]:
                best = (leave, w, cost)
        assert best is not None
        if best[0] > stay + WITHDRAW_MARGIN:
            w = best[1]
            return _decision(w, f"{look.side} withdraws {', '.join(w.units)} from the Melee in {at} to {w.to} (A11.2): "
                                   f"the close combat is lost on the odds (each CC: its units eliminated {me:.0%}, reduced "
                                   f"{mr:.0%}; the enemy's {te:.0%}, {tr:.0%}; fought out, it loses {lose:.2f} squads "
                                   f"against {win:.2f}{f', and keeps them from its goals ({locked:.2f})' if locked else ''}); leaving costs "
                                   f"{best[2]:.2f} (the enemy's attack at the withdrawal DRM)", {"odds": [f"{o.result} {o.p:.3f}" for o in odds]},
                                public=_shown(look, w.units), about=_hidden(look, w.units))
    return None


# ---------------------------------------------------------------------------
# Gas protection (ASLGW 1.9.15-1.9.16)

#: gas "may come" within this many hexes of a cloud or of a release still to come (gwasl's reach)
GAS_REACH = 2


def _gas_near(seat: Seat[Any], look: Any, h: Hex) -> str | None:
    """Where gas is or may come near ``h``: a cloud (ASLGW 1.9.2: units in it check again
    each RPh) or a release the card still gives a side (1.9.14: the NTC to put protection on)."""
    v = seat.view()
    for g in getattr(v, "gas", ()):
        if any(_hex(x).distance(h) <= GAS_REACH for x in g.hexes):
            return f"the {g.side} gas cloud over {', '.join(g.hexes)}"
    released: frozenset[tuple[str, int]] = getattr(v, "gas_released", frozenset())
    for side in look.sc.sides:
        for r in gas_releases(look.sc, side):
            if (side, r.index) not in released and any(x.distance(h) <= GAS_REACH for x in r.hexes):
                return f"{side}'s gas release {r.index + 1} still to come (turn {r.turn} on)"
    return None


def gas_choice(seat: Seat[Any], look: Any, legal: Sequence[Record]) -> Decision | None:
    """ASLGW 1.9.15-1.9.16: gas protection worn makes a squad CX; it is taken off (1 MF in the
    MPh) where no gas is and none may come; it stays on where gas is or may come."""
    ours = {u.id: u for u in look.mine}
    for a in legal:
        if not isinstance(a, RemoveGasMask) or a.unit not in ours:
            continue
        u = ours[a.unit]
        if _gas_near(seat, look, u.hex) is None:
            return _decision(a, f"{look.side} takes {u.id}'s gas protection off (1 MF; its CX goes at the end of the MPh): "
                                   f"no gas within {GAS_REACH} hexes of {u.hex.label} and none to come (ASLGW 1.9.15-1.9.16)",
                                public=_shown(look, (u.id,)), about=_hidden(look, (u.id,)))
    return None


# ---------------------------------------------------------------------------
# The Bayonet Charge (ASLGW 1.5, A25.23)

#: the least net expected gain, in squads, a Bayonet Charge must promise (gwasl's weight)
CHARGE_MARGIN = 0.5
#: an enemy-held objective taken, in squads (gwasl's weight), by turns left: 0, 1, 2+
OBJECTIVE_WORTH = (4.0, 2.0, 1.0)
#: the DRM of the defender's shot at chargers crossing open ground (A4.6 FFMO, A8.1 FFNAM; gwasl's reading)
CHARGE_FIRE_DRM = -1
#: the furthest target a charge is aimed at: a Human Wave moves one hex per impulse (A25.231)
CHARGE_REACH = 3


def _p_fail(morale: int, n: int) -> Fraction:
    """P(an nMC, n=0 an NMC, fails at ``morale``): DR + n above morale (A7.303-A7.304)."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + n > morale), 36)


def _p_break(fp: float, morale: int) -> float:
    """One charger's chance to fall to one defender shot of ``fp`` (IFT, A7.301-A7.304)."""
    if fp <= 0:
        return 0.0
    p = Fraction(0)
    for r, q in ift_distribution(Fraction(fp).limit_denominator(4), CHARGE_FIRE_DRM).items():
        p += q * _fail_of(r, morale)
    return float(p)


def _fail_of(r: IftResult, morale: int) -> Fraction:
    if r.kind in ("KIA", "K"):
        return Fraction(1)
    if r.kind == "MC":
        return _p_fail(morale, r.n)
    if r.kind == "NMC":
        return _p_fail(morale, 0)
    return Fraction(0)


def _charge_figures(look: Any, kit: Kit, us: Sequence[Unit], target: Hex) -> dict[str, float]:
    """The expected result of charging ``target`` (ASLGW 1.5 with A25.23, A11.11)."""
    steps = max(1, min(u.hex.distance(target) for u in us))
    defenders = [u for u in look.theirs if u.hex == target]
    piles = sum(1 for p in look.piles if p == target)
    # every unit there defends in CC (A11.11); only Good Order ones fire at the chargers
    def_fp = sum(kit.fp(look.sc, u) for u in defenders) + 2.0 * piles  # a "?" may be a squad
    fire_fp = sum(kit.fp(look.sc, u) for u in defenders if not u.broken) + 2.0 * piles
    covering = sum(kit.fp(look.sc, u) for u in look.theirs if not u.broken and u.hex != target
                   and 0 < u.hex.distance(target) <= 2)
    squads = [u for u in us if u.kind in _SQUADS]
    morale = min((kit.morale(look.sc, u) for u in squads), default=7) + 1  # BCh units: morale +1 (ASLGW 1.5)
    p_shot = _p_break(fire_fp + covering, morale)
    survive = (1 - p_shot) ** steps
    att_fp = sum(kit.fp(look.sc, u) for u in squads) * survive + sum(1.0 for u in us if u.kind is UnitKind.LEADER)
    lost_on_way = _worth(kit, us) * (1 - survive)
    if def_fp <= 0:
        p_take, p_kill, p_lost_cc = survive, 0.0, 0.0
    else:
        att = CCAttack(Fraction(att_fp).limit_denominator(4), Fraction(def_fp).limit_denominator(4), CCKind.NORMAL)
        rep = CCAttack(Fraction(def_fp).limit_denominator(4), Fraction(att_fp).limit_denominator(4), CCKind.NORMAL)
        dist = cc_pair_distribution(att, rep)
        p_kill = float(sum(p for (o1, _o2), p in dist.items() if o1 == "eliminated"))
        p_lost_cc = float(sum(p for (_o1, o2), p in dist.items() if o2 == "eliminated"))
        p_take = p_kill * (1 - p_lost_cc)
    left = min(2, look.turns_left)
    worth = OBJECTIVE_WORTH[left] if target in look.plan.targets else 0.0
    def_worth = _worth(kit, defenders) + 1.0 * piles
    gain = p_take * worth + p_kill * def_worth
    harm = lost_on_way + p_lost_cc * _worth(kit, us) * survive
    return {"hexes": float(steps), "defence_fp": def_fp, "fire_fp": fire_fp, "covering_fp": covering, "break_per_shot": p_shot,
            "reach": survive, "take": p_take, "kill": p_kill, "lost_in_cc": p_lost_cc, "gain": gain, "harm": harm,
            "net": gain - harm, "objective": worth}


def charge_choice(look: Any, kit: Kit, legal: Sequence[Record]) -> Decision | None:
    """ASLGW 1.5 (A25.23): a Bayonet Charge is declared when its expected result beats not
    charging: the objective taken (its worth by the clock) and the defenders eliminated in
    the close combat at the end (CCT odds, A11.11), against the chargers lost to the
    defender's fire on the way (IFT, one shot per hex, morale +1) and in the close combat.
    The declaration goes toward the target; none when the net is under ``CHARGE_MARGIN``."""
    decl = [a for a in legal if isinstance(a, BayonetCharge)]
    if not decl or not look.plan.attack:
        return None
    enemy_at = look.enemy_at()
    best: tuple[float, BayonetCharge, Hex, dict[str, float]] | None = None
    for a in decl:
        us = _pieces_units(look, a.units)
        if not us:
            continue
        for t in sorted(enemy_at, key=lambda h: (h.column, h.row)):
            d = min(u.hex.distance(t) for u in us)
            if d < 1 or d > CHARGE_REACH:
                continue
            # the charge goes toward the target: its direction brings the units closer
            if not any(u.hex.neighbour(a.direction).distance(t) < u.hex.distance(t) for u in us):
                continue
            f = _charge_figures(look, kit, us, t)
            if best is None or f["net"] > best[0]:
                best = (f["net"], a, t, f)
    if best is None or best[0] < CHARGE_MARGIN:
        return None
    _net, a, t, f = best
    what = "objective" if f["objective"] else "enemy"
    return _decision(a, f"{look.side} declares a Bayonet Charge with {', '.join(a.units)} at the {what} in {t.label}, "
                           f"{int(f['hexes'])} hex(es) away (ASLGW 1.5, A25.23): each charger falls to a defender shot "
                           f"{f['break_per_shot']:.0%} (FP {f['fire_fp'] + f['covering_fp']:.0f}), {f['reach']:.0%} reach it; "
                           f"close combat eliminates the defenders {f['kill']:.0%}, takes it {f['take']:.0%}; expected gain "
                           f"{f['gain']:.2f} against harm {f['harm']:.2f} squads with {look.turns_left} turn(s) left",
                        {"charge": {k: round(v, 3) for k, v in f.items()}})
