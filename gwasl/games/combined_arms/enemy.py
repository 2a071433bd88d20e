"""The defender: gwasl plays the enemy exactly as the text's "Enemy Decisions" say
(Sabin, Combined Arms).  Each call decides one step of the enemy phase and
explains it (candidates, payoffs or chances, tie-breaks and their dice):

* the mortar call: available on a roll of 5-6 (6 when more of your platoons
  than enemy platoons have been broken), at the hex with most infantry, then
  most infantry adjacent, then nearest the enemy's edge, then a die;
* activation, in order (the row nearest you first, each row from the enemy's
  left): spent counters recover; a potential counter and its potential ATGs
  are revealed when adjacent to your platoons (the platoon first), fresh
  potential ATGs when they have 2 chances in 6 of breaking an armour platoon,
  a fresh potential platoon when its best payoff against your infantry is 6
  or more;
* a fresh real platoon fires at the armour it has most chance of breaking and
  at the cluster of your infantry with the greatest payoff.

Counters whose activation decides nothing (a spent counter recovering, a
potential one holding its fire) are activated in one step with the next
counter that does something; the explanation lists each.
"""

from __future__ import annotations

from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, GameError, Seat
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.records import Activate, EnemyFire, EnemyMortar
from gwasl.games.combined_arms.state import ARMOUR, UNIT_IDS, UNIT_KIND, Counter, State

__all__ = ["activation_plan", "armour_choices", "defender_policy", "pick"]


def pick(dice: GameDice, n: int, cause: str) -> int:
    """A uniform choice among ``n`` tied candidates, from logged dice (one die up to 6, two up to 36).

    CA "Enemy Decisions": remaining ties are resolved by random die roll."""
    if n <= 6:
        return dice.randrange(n, cause)
    if n > 36:
        raise GameError(f"{n} tied candidates: more than two dice can split")
    accepted = 36 - 36 % n
    while True:
        a = dice.dr(cause).total
        b = dice.dr(cause).total
        v = (a - 1) * 6 + (b - 1)
        if v < accepted:
            return v * n // accepted


def _best(dice: GameDice, items: list[Any], key: Any, cause: str) -> tuple[Any, dict[str, Any]]:
    """The item with the greatest key; ties go to hexes nearer the enemy's edge
    (the key's last part), then a die (CA Enemy Decisions)."""
    keys = [key(i) for i in items]
    top = max(keys)
    tied = [i for i, k in zip(items, keys) if k == top]
    info: dict[str, Any] = {"tied": len(tied)}
    if len(tied) == 1:
        return tied[0], info
    k = pick(dice, len(tied), cause)
    info["die_picked"] = k + 1
    return tied[k], info


def defender_policy(seat: Seat[Any], dice: GameDice) -> Decision:
    """The enemy's next step, from its knowledge (the whole state: nothing is hidden). (CA "Enemy Decisions".)"""
    s: State = seat.view()
    if s.stage == "mortar":
        return mortar_decision(s, dice, not seat.quiet)
    if s.stage == "activate":
        return activation_decision(s, dice, not seat.quiet)
    if s.stage == "fire":
        return fire_decision(s, dice, not seat.quiet)
    raise GameError(f"combined-arms: the defender has nothing to decide in stage {s.stage!r}")


# -- mortars ---------------------------------------------------------------------------------
def mortar_decision(s: State, dice: GameDice, explain: bool = True) -> Decision:
    """CA Mortars and Enemy Decisions: not in successive turns; available on the die; the
    hex with most infantry platoons, then most infantry platoons adjacent.  Without
    ``explain`` (a quiet seat) the availability die is drawn without a logged roll."""
    if s.enemy_fired and s.enemy_fired == s.turn - 1:
        return Decision(EnemyMortar(None), f"enemy mortars fired last turn and may not fire in successive turns ({R.R_MORTARS})",
                        {"available": False})
    need = R.enemy_mortar_fires_on(s)
    if explain:
        why_need = (f"more of your platoons ({R.friendly_broken(s)}) than enemy platoons ({s.enemy_platoons_broken}) broken"
                    if need == 6 else "not more of your platoons than enemy platoons broken")
        d = dice.dr(f"enemy mortars available on {need}-6: {why_need} ({R.R_DECISIONS})").total
    else:
        d = dice.unlogged()
    if d < need:
        if not explain:
            return Decision(EnemyMortar(None), "unavailable")
        return Decision(EnemyMortar(None), f"enemy mortars rolled {d}, needing {need}: unavailable", {"die": d, "need": need})
    targets = R.enemy_mortar_targets(s)
    if not targets:
        return Decision(EnemyMortar(None), f"enemy mortars available ({d}) but no spotted hex of your infantry away from enemy counters",
                        {"die": d, "need": need, "candidates": []})
    inf = R.unit_masks(s)

    def count(h: int) -> tuple[int, int, int]:
        here = len(R.infantry_in(s, h))
        near = sum(len(R.infantry_in(s, n)) for n in B.bits(B.NEIGHBOUR_MASK[h] & inf[2]))
        return here, near, B.ROW[h]

    if not explain:
        return Decision(EnemyMortar(B.label(_best(dice, targets, count, _MORTAR_TIE)[0])), "target")
    cands = [{"hex": B.label(h), "infantry": count(h)[0], "infantry_adjacent": count(h)[1]} for h in targets]
    h, info = _best(dice, targets, count, _MORTAR_TIE)
    here, near, _ = count(h)
    why = (f"enemy mortars available ({d}, needing {need}): target {B.label(h)} with {here} infantry platoon(s) and {near} adjacent"
           + (f", a die picking among {info['tied']} tied hexes" if info["tied"] > 1 else ""))
    return Decision(EnemyMortar(B.label(h)), why, {"die": d, "need": need, "candidates": cands, **info})


_MORTAR_TIE = f"enemy mortar target tie-break ({R.R_DECISIONS})"


# -- activation -------------------------------------------------------------------------------
def armour_choices(s: State, frm: int, with_atg: bool) -> list[tuple[int, int]]:
    """(armour unit, chances in 6) for each armour platoon the enemy in ``frm`` may engage.

    Each platoon fires on the armour it has most chance of breaking (CA "Enemy Fire", "Enemy Decisions")."""
    out: list[tuple[int, int]] = []
    # none of your armour where it could engage one: adjacent, or with ATGs a 1-5 hex line of fire
    if not s.m_armour & (R.fire_reach(s, frm)[0] if with_atg else B.NEIGHBOUR_MASK[frm]):
        return out
    for u in _ARMOUR:
        ch = R.armour_chances(s, frm, u, with_atg)
        if ch is not None:
            out.append((u, ch))
    return out


_ARMOUR = tuple(u for u in range(len(UNIT_IDS)) if UNIT_KIND[u] == ARMOUR)


def best_payoff(s: State, frm: int) -> tuple[tuple[int, ...], int]:
    """The cluster of hexes of your infantry that maximises the enemy's payoff, and that payoff (CA "Enemy
    Decisions")."""
    cl = R.clusters(s, frm)
    if not cl:
        return (), 0
    return max(cl, key=lambda c: c[1])


_ATG_NAMES = (None, "potential", "real")


def activation_plan(s: State, c: Counter, explain: bool = True) -> dict[str, Any]:
    """What the text makes this counter do when activated: the reveal tests and why
    (CA Enemy Decisions), and whether it will then fire.  Without ``explain`` only
    the three decisions ("platoon_test", "atg_test", "fires"), by the same tests."""
    h = c.hex
    adjacent, platoon_test, atg_test, fires, weighed, atg_best = _activation_tests(s, c)
    plan: dict[str, Any] = {"platoon_test": platoon_test, "atg_test": atg_test}
    if explain:
        plan.update({"hex": B.label(h), "platoon": "real" if c.real else "potential",
                     "atg": _ATG_NAMES[c.atg], "fresh": c.fresh})
    reasons = []
    if adjacent and (not c.real or c.atg == 1):
        what = ("platoon, then its ATGs" if not c.real and c.atg == 1 else "its ATGs" if c.atg == 1 else "platoon")
        reasons.append(f"adjacent to your platoons: must be revealed ({what})")
    elif not c.real and weighed is not None and explain:
        cl, pay = weighed
        plan["best_payoff"] = pay
        plan["best_cluster"] = [B.label(x) for x in cl]
        reasons.append(f"payoff {pay} against your infantry reaches {R.REVEAL_PAYOFF}: opens fire"
                       if pay >= R.REVEAL_PAYOFF else f"payoff {pay} < {R.REVEAL_PAYOFF}")
    if atg_best is not None:
        plan["atg_best_chances"] = atg_best
        if explain:
            reasons.append(f"potential ATGs have {atg_best} chances in 6 against your armour: open fire"
                           if atg_test else f"potential ATGs' best chance {atg_best}/6 < {R.REVEAL_ATG_CHANCES}/6")
    if c.fresh and c.real:
        reasons.append("real and fresh: fires" if fires else "real and fresh, but nothing to fire at")
    if not c.fresh:
        reasons.append("spent: becomes fresh instead of firing")
    plan["fires"] = fires
    if explain:
        plan["why"] = "; ".join(reasons) if reasons else "holds"
    return plan


def _activation_tests(s: State, c: Counter) -> tuple[bool, bool, bool, bool, tuple[tuple[int, ...], int] | None, int | None]:
    """The tests of :func:`activation_plan` (CA Enemy Decisions): (adjacent to your platoons,
    platoon reveal test, ATG reveal test, fires, the best cluster and payoff when weighed,
    the ATGs' best chances when weighed)."""
    h = c.hex
    adjacent = bool(s.m_any & B.NEIGHBOUR_MASK[h])
    platoon_test = atg_test = fires = False
    weighed = None
    atg_best = None
    if not c.real:
        if adjacent:
            platoon_test = True  # must be revealed
        elif c.fresh:
            weighed = best_payoff(s, h)
            platoon_test = weighed[1] >= R.REVEAL_PAYOFF
    if c.atg == 1:
        if adjacent:
            atg_test = True  # "potential enemies are revealed ... if adjacent": the ATGs too
        elif c.fresh:
            atg_best = max((ch for _, ch in armour_choices(s, h, True)), default=0)
            atg_test = atg_best >= R.REVEAL_ATG_CHANCES
    if c.fresh and c.real:
        fires = any(ch > 0 for _, ch in armour_choices(s, h, c.atg == 2)) or bool(R.clusters(s, h))
    return adjacent, platoon_test, atg_test, fires, weighed, atg_best


def activation_decision(s: State, dice: GameDice, explain: bool = True) -> Decision:
    """Activate counters in order up to the next one that tests or fires.

    (CA "Enemy Decisions": counters are activated in order.)"""
    queue = [c for c in s.enemy if c.hex > s.cursor]
    if not queue:
        raise GameError("combined-arms: no enemy counter is left to activate")
    if not explain:  # the same tests, no plan built
        n = 0
        for c in queue:
            n += 1
            _adj, platoon_test, atg_test, fires, _w, _a = _activation_tests(s, c)
            if platoon_test or atg_test or fires:
                break
        return Decision(Activate(tuple(B.label(c.hex) for c in queue[:n]), platoon_test, atg_test), "activate in order")
    plans = []
    for c in queue:
        plan = activation_plan(s, c, explain)
        plans.append(plan)
        if plan["platoon_test"] or plan["atg_test"] or plan["fires"]:
            break
    last = plans[-1]
    hexes = tuple(B.label(c.hex) for c in queue[:len(plans)])
    action = Activate(hexes, last["platoon_test"], last["atg_test"])
    # one short line: the counters passed over by name, the one that acts with its reason; each
    # counter's own tests and figures are in the details ("counters")
    acts = last["platoon_test"] or last["atg_test"] or last["fires"]
    passed = plans[:-1] if acts else plans
    parts = [f"{', '.join(p['hex'] for p in passed if p['fresh'])} hold their fire" if any(p["fresh"] for p in passed) else "",
             f"{', '.join(p['hex'] for p in passed if not p['fresh'])} recover" if any(not p["fresh"] for p in passed) else "",
             f"{last['hex']} ({last['platoon']}{', ATGs ' + last['atg'] if last['atg'] else ''}): {last['why']}" if acts else ""]
    return Decision(action, f"activate in order ({R.R_DECISIONS}): " + "; ".join(x for x in parts if x), {"counters": plans})


# -- fire ---------------------------------------------------------------------------------------
def fire_decision(s: State, dice: GameDice, explain: bool = True) -> Decision:
    """The armour it has most chance of breaking, then the cluster with the greatest payoff;
    ties to hexes nearer the enemy's edge, then a die (CA Enemy Decisions)."""
    c = s.counter_at(s.firing)
    if c is None:
        raise GameError("combined-arms: the firing enemy counter is gone")
    here = B.label(c.hex)
    details: dict[str, Any] = {}
    parts = []
    arm = [a for a in armour_choices(s, c.hex, c.atg == 2) if a[1] > 0]
    if explain:
        details["armour_candidates"] = [{"unit": UNIT_IDS[u], "chances": ch} for u, ch in arm]
    armour = None
    if arm:
        choice, info = _best(dice, arm, lambda a: (a[1], B.ROW[s.units[a[0]].where]), _ARMOUR_TIE)
        armour = UNIT_IDS[choice[0]]
        details["armour_tie"] = info
        if explain:
            parts.append(f"at armour {armour} ({choice[1]} chances in 6, the best of {len(arm)})")
    elif explain:
        parts.append("no armour it can hurt")
    cls = R.clusters(s, c.hex)
    if explain:
        details["clusters"] = [{"hexes": [B.label(h) for h in cl], "payoff": p} for cl, p in cls]
    cluster: tuple[str, ...] = ()
    if cls:
        # the rows break ties of the greatest payoff only: weigh them for those clusters alone
        top = max(p for _, p in cls)
        choice2, info2 = _best(dice, [x for x in cls if x[1] == top],
                               lambda x: (x[1], tuple(sorted((B.ROW[h] for h in x[0]), reverse=True))), _CLUSTER_TIE)
        cluster = tuple(B.label(h) for h in choice2[0])
        details["cluster_tie"] = info2
        if explain:
            parts.append(f"at your infantry in {', '.join(cluster)} (payoff {choice2[1]}, the best of {len(cls)} clusters)")
    elif explain:
        parts.append("no infantry in its line of fire")
    if not explain:
        return Decision(EnemyFire(here, armour, cluster), "fires", details)
    return Decision(EnemyFire(here, armour, cluster), f"the enemy platoon in {here} fires " + "; ".join(parts), details)


_ARMOUR_TIE = f"enemy armour target tie-break ({R.R_DECISIONS})"
_CLUSTER_TIE = f"enemy infantry target tie-break ({R.R_DECISIONS})"
