"""gwasl plays the other side of a Great War scenario (issue 25): the opponent's policy.

The opponent decides every choice of its side -- rally and repair (A10.6, A9.72),
Prep Fire (A3.2), movement with platoon impulses (ASLGW 1.4.1) and the Bayonet
Charge steps (ASLGW 1.5), Defensive First, Subsequent First and Final Protective
Fire (A8.1-A8.31), Final Fire (A8.4), Advancing Fire (A7.25), routs (A10.5),
advances (A4.7), close combat (A11) -- and keeps the shift policy of O'Leary's
fog layer for its windows and minefields.  It reads only its side's seat
(:class:`~gwasl.engine.game.Seat`): the side's knowledge
(:class:`~gwasl.games.aslgw.actions.shifts.SideKnowledge`), its legal actions and
their odds.  It draws no dice at all: every choice is a pure function of what the
seat shows (ties go to the first in the legal list), so twin games that differ
only in the enemy's hidden facts get the same decisions until something is revealed.

Its plan comes from the card (A26): the hexes, buildings and Locations a side must
Control, the edge it must exit from, and the turns left.  A side with conditions
of its own attacks them; a side that wins by avoiding the other's (A26.3) holds
the enemy's objectives.  A scenario without a card: the side that moves first
attacks the other's set-up hexes.

Fire weighs the expected effect on the target (from the exact odds, Seat.odds)
against the expected harm to its own units: the NMC of each firer of Final
Protective Fire (A8.31), a Prep Fire that keeps an attacker from moving (A3.3),
concealment given up (A12.141); it never takes a shot whose harm outweighs the
effect, and the decision says so.  Every decision is one log line in a
player's words: what, why (objective, odds, risk), and the rule.

What it reads off the map -- the threat to a hex by the rules' LOS and range (A6, A7.21,
A7.22), the hexes it can fire at an objective from, the objectives it concentrates on
(A26.1) -- is :mod:`gwasl.games.aslgw.opponent_tactics`.  It plays a player turn as a plan:
Prep Fire only by the units that stay (A3.3), fire groups across ADJACENT Locations built
one firer at a time where they beat separate shots (A7.5), moves toward hexes it can fire
from, then Advancing Fire (issue 25, part D).

Also here: the *passive* side (ends every phase, passes every duty) and the
*random* side (a uniformly chosen legal action, tie-breaks from the game's dice),
the references batch play measures the opponent against (docs/opponent.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Decision, GameError, Outcome, Policy, Seat
from gwasl.engine.record import Record
from gwasl.games.aslgw import opponent_choices as oc
from gwasl.games.aslgw import opponent_tactics as tx
from gwasl.games.aslgw.actions import shifts as sh
from gwasl.games.aslgw.records import (
    ChargeStep,
    CloseCombat,
    Detach,
    DoubleTime,
    EndChargeImpulse,
    EndImpulse,
    EndPhase,
    EndPlatoon,
    EndWindow,
    Exit,
    Fire,
    FireGroupAdd,
    FireGroupDrop,
    FireResolved,
    ImpulseStep,
    MinefieldChoice,
    Move,
    MovePile,
    Pass,
    PhaseBegan,
    Rally,
    ReleaseGas,
    RemoveGasMask,
    Repair,
    Rout,
    Shift,
    SniperStruck,
    UnitHit,
    Withdraw,
)
from gwasl.games.aslgw.seats import FIRST_FIRE, RALLY
from gwasl.model.hexgrid import Hex
from gwasl.model.phases import Phase
from gwasl.model.scenario import FortificationKind, Position, Scenario, Unit, UnitKind
from gwasl.rules.card import CardError, ScenarioCard, scenario_card
from gwasl.rules.command import CommandError, command_radius
from gwasl.rules.fog.state import FogStatus
from gwasl.rules.morale import unit_morale
from gwasl.rules.turn_record import TurnRecordError, turn_record
from gwasl.rules.units import UnitsError, unit_factors_of
from gwasl.rules.victory import ControlCondition, VPCondition

__all__ = [
    "POLICIES", "Plan", "PricedFire", "ScoredMove", "automated", "opponent", "passive", "plan_of", "priced_fire",
    "random_side", "scored_moves", "self_breaks",
]

_SQUADS = (UnitKind.SQUAD, UnitKind.HALF_SQUAD)
#: what a unit is worth to its side, as a share of a squad (A26.22 CVP: squad 2, HS/crew/SMC 1;
#: gwasl's weights for a decision, not a rule: docs/rules-notes.md)
_WORTH = {UnitKind.SQUAD: 1.0, UnitKind.HALF_SQUAD: 0.5, UnitKind.CREW: 0.5, UnitKind.LEADER: 0.7, UnitKind.HERO: 0.5,
          UnitKind.SUPPORT_WEAPON: 0.0}
#: the least net expected effect (in squads) a shot must promise before the opponent fires
FIRE_MARGIN = 0.04
_MODE_WORDS = {"prep": ("Prep Fire", "A3.2, A7"), "first": ("Defensive First Fire", "A8.1"),
               "subsequent": ("Subsequent First Fire", "A8.3"), "fpf": ("Final Protective Fire", "A8.31"),
               "final": ("Final Fire", "A8.4"), "advancing": ("Advancing Fire", "A7.25")}


# ---------------------------------------------------------------------------
# The plan: what wins (A26)


@dataclass(frozen=True, slots=True)
class Plan:
    """A side's aim from the card: ``attack`` (conditions of its own) or hold; ``targets``
    the hexes it must take (attacker) or keep (defender); ``need`` how many of them; ``exits``
    the hexes it exits from (A26.23); ``turns`` the game's last turn; ``why`` in words."""

    side: str
    attack: bool
    targets: frozenset[Hex]
    need: int
    exits: frozenset[Hex]
    turns: int
    why: str


def _card(sc: Scenario) -> ScenarioCard | None:
    try:
        return scenario_card(sc)
    except CardError:
        return None


def _turns(sc: Scenario) -> int:
    try:
        return turn_record(sc).turns
    except TurnRecordError:
        return 1


def _condition_hexes(sc: Scenario, c: ControlCondition) -> tuple[frozenset[Hex], int]:
    hexes = {_hex(h) for h in c.hexes}
    hexes |= {loc.hex for loc in c.locations}
    for b in c.buildings:
        hexes |= {h for h in _building_hexes(sc, b)}
    total = len(c.hexes) + len(c.buildings) + len(c.locations)
    need = total if c.at_least is None else c.at_least
    # a building counts once, but every hex of it is a way in
    return frozenset(hexes), max(1, min(need, len(hexes)))


def _building_hexes(sc: Scenario, building: str) -> list[Hex]:
    return sorted((h for h, d in sc.map.hexes.items() if d.building == building), key=lambda h: (h.column, h.row))


def plan_of(sc: Scenario, side: str) -> Plan:
    """The side's plan from the card of ``sc`` (the side's own knowledge of the scenario;
    the card and the map are public): A26.1 Control, A26.23 exit VP, A26.3 avoiding."""
    return _plan(sc, side)


#: plans by scenario id and side: the card and the map do not change in play (a scenario
#: without a card is planned from the set-up as the side first sees it)
_PLANS: dict[tuple[str | None, str, str], Plan] = {}


def _plan(sc: Scenario, side: str) -> Plan:
    key = (sc.id, sc.title, side)
    p = _PLANS.get(key)
    if p is None:
        if len(_PLANS) > 256:
            _PLANS.clear()
        p = _PLANS[key] = _make_plan(sc, side)
    return p


def _make_plan(sc: Scenario, side: str) -> Plan:
    turns = _turns(sc)
    card = _card(sc)
    enemy = next((s for s in sc.sides if s != side), side)
    if card is not None and card.has_victory:
        mine = card.victory.get(side)
        theirs = card.victory.get(enemy)
        if mine is not None and mine.conditions:
            targets: set[Hex] = set()
            need = 0
            exits: frozenset[Hex] = card.exits.get(side, frozenset())
            for c in mine.conditions:
                if isinstance(c, ControlCondition):
                    hs, n = _condition_hexes(sc, c)
                    targets |= hs
                    need += n
                elif isinstance(c, VPCondition) and c.measure == "exit" and not exits:
                    exits = card.exits.get(side, frozenset())
            return Plan(side, True, frozenset(targets), need, exits, turns, mine.text or "its victory conditions (A26)")
        if theirs is not None and theirs.conditions:
            targets = set()
            need = 0
            exits = card.exits.get(enemy, frozenset())
            for c in theirs.conditions:
                if isinstance(c, ControlCondition):
                    hs, n = _condition_hexes(sc, c)
                    targets |= hs
                    need += n
            why = f"hold what {enemy} must take (A26.3: {side} wins by avoiding {enemy}'s conditions)"
            # a defender against an exit: the hexes between the enemy and the edge are what it holds
            return Plan(side, False, frozenset(targets), need, exits, turns, why)
    # no card: the side that moves first goes for the other's set-up
    try:
        first = turn_record(sc).first
    except TurnRecordError:
        first = next(iter(sc.sides))
    theirs_at = frozenset(u.hex for u in sc.units if u.side == enemy)
    mine_at = frozenset(u.hex for u in sc.units if u.side == side)
    if side == first:
        return Plan(side, True, theirs_at, max(1, len(theirs_at) // 2), frozenset(), turns,
                    "no card: the side that moves first goes for the enemy's positions")
    return Plan(side, False, mine_at, len(mine_at), frozenset(), turns, "no card: it holds its positions")


# ---------------------------------------------------------------------------
# Reading the seat


def _units(sc: Scenario, side: str) -> list[Unit]:
    return [u for u in sc.units if u.side == side and u.kind is not UnitKind.SUPPORT_WEAPON and sc.map.contains(u.hex)]


def _enemy(sc: Scenario, side: str) -> str:
    return next((s for s in sc.sides if s != side), side)


def morale(sc: Scenario, u: Unit) -> int:
    """A unit's Good Order morale (the one source: :func:`gwasl.rules.morale.unit_morale`)."""
    return unit_morale(sc, u)[0]


def _p_2d6_above(n: int) -> float:
    """P(a DR > n) with two dice."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > n)
    return ways / 36


def _fp(sc: Scenario, u: Unit) -> float:
    if u.kind in _SQUADS:
        try:
            return float(unit_factors_of(sc, u).firepower)
        except UnitsError:
            return 2.0
    return 1.0 if u.kind is UnitKind.CREW else 0.0


#: a hex by its label, parsed once (the opponent reads the same few labels in every action)
_hex = lru_cache(maxsize=1024)(Hex.from_label)


def _dist(h: Hex, targets: Iterable[Hex]) -> int:
    return min((h.distance(t) for t in targets), default=0)


def _cover(sc: Scenario, h: Hex) -> int:
    """How much a hex shields its occupants, roughly: fortifications, then terrain."""
    if any(sc.map.has_fortification(h, k) for k in (FortificationKind.DEEP_TRENCH, FortificationKind.DUGOUT)):
        return 3
    if any(sc.map.has_fortification(h, k) for k in (FortificationKind.TRENCH, FortificationKind.FOXHOLE)):
        return 2
    t = sc.map.terrain_at(h)
    name = str(getattr(t, "value", t))
    return 0 if name in ("open", "grain", "shellholes") else 1


@dataclass
class _Look:
    """One decision's reading of the seat (cached per decision)."""

    side: str
    enemy: str
    sc: Scenario
    plan: Plan
    turn: int
    phase: Phase
    mine: list[Unit]
    theirs: list[Unit]
    piles: list[Hex]
    hidden: frozenset[str]  # its own units the enemy cannot see (concealed, HIP...: A12, O'Leary)
    moving: frozenset[str] = frozenset()  # its units that have begun moving this phase (A4.1)
    radii: dict[str, int] = field(default_factory=dict)  # its leaders' command radii (ASLGW 1.3.1), as asked
    #: the enemy's "?" piles as the side sees them: where, in which position, how many counters (A12.1)
    pile_counts: tuple[tuple[Hex, Position, int], ...] = ()

    @property
    def turns_left(self) -> int:
        return max(0, self.plan.turns - self.turn)

    #: what one decision works out more than once (held hexes, goals, the threat to a hex): a
    #: look is read, never changed, within its decision, so each is computed once
    memo: dict[Any, Any] = field(default_factory=dict)

    def held(self) -> frozenset[Hex]:
        got = self.memo.get("held")
        if got is None:
            got = self.memo["held"] = frozenset(u.hex for u in self.mine if not u.broken and u.kind is not UnitKind.LEADER)
        return got

    def enemy_at(self) -> set[Hex]:
        return {u.hex for u in self.theirs} | set(self.piles)

    def goals(self) -> frozenset[Hex]:
        """Where its units should go: for an attacker the objectives it does not hold (or the
        exit edge); for a defender the objectives not held by it."""
        got = self.memo.get("goals")
        if got is None:
            got = self.memo["goals"] = self._goals()
        return got

    def _goals(self) -> frozenset[Hex]:
        p = self.plan
        if p.exits and not p.targets:
            return p.exits
        held = self.held()
        open_ = frozenset(h for h in p.targets if h not in held)
        if p.attack:
            have = len(p.targets) - len(open_)
            # one objective more than the card needs, while there is time: one may be lost
            spare = 1 if self.turns_left >= 1 and len(p.targets) > p.need else 0
            if have >= p.need + spare and not p.exits:
                return frozenset()
            aim = self.focus(open_, p.need + spare - have) if open_ else p.targets
            return aim | (p.exits if have >= p.need else frozenset())
        return open_

    def focus(self, open_: frozenset[Hex], need: int) -> frozenset[Hex]:
        """A26.1: the open objectives the card needs most, the ones its units concentrate on
        (:func:`~gwasl.games.aslgw.opponent_tactics.focus`): the nearest to its Good Order
        squads on average, the least guarded by known enemy fire."""
        key = ("focus", open_, need)
        got = self.memo.get(key)
        if got is None:
            squads = [u for u in self.mine if u.kind in _SQUADS and not u.broken] or self.mine
            cost = {h: sum(u.hex.distance(h) for u in squads) / max(1, len(squads)) + 0.5 * self.threat(h)
                    for h in open_}
            got = self.memo[key] = tx.focus(open_, need, cost)
        return got

    def goals_for(self, units: Sequence[Unit]) -> frozenset[Hex]:
        """Where these units should go.  A side that must both exit and Control (A26.1 with
        A26.23) sends two squads (and its leaders) per objective to take it, and the rest
        to the exit edge; once the objectives are held, the takers not holding one go for
        the edge too (the last holder stays: :func:`_leaves_objective`)."""
        p = self.plan
        if not (p.attack and p.exits and p.targets):
            return self.goals()
        takers = self.memo.get("takers")
        if takers is None:
            squads = sorted((u for u in self.mine if u.kind in _SQUADS and not u.broken), key=lambda u: u.id)
            takers = self.memo["takers"] = frozenset(u.id for u in squads[: 2 * max(1, p.need)])
        lead = next((u for u in units if u.kind is not UnitKind.LEADER), units[0] if units else None)
        if lead is None or lead.kind is UnitKind.LEADER or lead.id in takers:
            got = self.memo.get("takers' goals")  # the same for every taker within a decision
            if got is None:
                held = self.held()
                open_ = frozenset(h for h in p.targets if h not in held)
                got = self.memo["takers' goals"] = \
                    self.focus(open_, p.need - (len(p.targets) - len(open_))) if open_ else p.exits
            return got
        return p.exits

    def dist(self, h: Hex, goals: frozenset[Hex]) -> int:
        """:func:`_dist` from ``h`` to ``goals``, kept for the decision (every move weighed asks it)."""
        key = ("dist", h, goals)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = _dist(h, goals)
        return got

    def near_enemy(self, h: Hex) -> bool:
        return any(e.distance(h) <= 1 for e in self.enemy_at())

    def threat(self, h: Hex) -> float:
        """The known enemy firepower that can fire at ``h`` (issue 25 D.1,
        :func:`~gwasl.games.aslgw.opponent_tactics.threat`): traced with the rules' LOS from
        the enemy units the side sees and its "?" piles by their counters (A12.1), by range
        (A7.21, A7.22), through hindrances and the hex's TEM; worked out once per decision."""
        key = ("threat", h)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = tx.threat(self.sc, h, self.shooters())
        return got

    def shooters(self) -> list[tx.Shooter]:
        got = self.memo.get("shooters")
        if got is None:
            got = self.memo["shooters"] = tx.shooters(self.sc, self.theirs, self.pile_counts)
        return got

    def fire_positions(self) -> frozenset[Hex]:
        """Hexes from which its units could fire at an enemy-held objective (A7.2), around
        its own units (two hexes): where its movers should end a move."""
        got = self.memo.get("fire_positions")
        if got is None:
            held = self.enemy_at() & set(self.plan.targets)
            m = self.sc.map
            near = {h for u in self.mine for h in u.hex.within(2) if m.contains(h)} if held else set()
            got = self.memo["fire_positions"] = tx.fire_positions(self.sc, held, near)
        return got


def _look(seat: Seat[Any]) -> _Look:
    v = seat.view()
    sc = v.fog.scenario
    side = seat.viewer.name
    enemy = _enemy(sc, side)
    plan = _plan(sc, side)
    piles = [s.hex for s in v.fog.stacks if s.side == enemy]
    mine = _units(sc, side)
    hidden = frozenset(u.id for u in mine if v.fog.status_of(u.id) is not FogStatus.NONE)
    counts = tuple((s.hex, s.position, s.height) for s in v.fog.stacks if s.side == enemy)
    return _Look(side, enemy, sc, plan, v.turn, v.phase, mine, _units(sc, enemy), piles, hidden,
                 getattr(v, "moving", frozenset()), pile_counts=counts)


# ---------------------------------------------------------------------------
# Fire: expected effect against expected harm to itself


_KIA = re.compile(r"(\d)KIA")
_K = re.compile(r"K/(\d)")
_MC = re.compile(r"(\d)MC")


def _outcome_value(result: str) -> float:
    """What one outcome of the IFT does to a squad's worth of target, in expected squads
    broken or lost (gwasl's weights: docs/rules-notes.md)."""
    if "no fire" in result:
        return 0.0
    best = 0.0
    if _KIA.search(result):
        best = max(best, 1.0)
    m = _K.search(result)
    if m:
        best = max(best, 0.8)
    m = _MC.search(result)
    if m:
        best = max(best, min(0.7, 0.2 + 0.12 * int(m.group(1))))
    if "PTC" in result:
        best = max(best, 0.05)
    return best


def _malfunction(outcomes: Sequence[Outcome]) -> float:
    return sum(o.p for o in outcomes if "malfunction" in o.result or "B#" in o.result or "used up" in o.result)


@dataclass(frozen=True, slots=True)
class _Shot:
    action: Fire | FireGroupAdd | FireGroupDrop
    effect: float
    harm: float
    chance: float  # at least a 1MC-grade result
    notes: tuple[str, ...]
    group: str = ""  # a multi-Location fire group (A7.5): its Locations and why it beats separate shots

    @property
    def net(self) -> float:
        return self.effect - self.harm


def _target_worth(look: _Look, act: Fire | FireGroupAdd) -> tuple[float, str]:
    at = _hex(act.at)
    here = [u for u in look.theirs if u.hex == at and u.position.value == act.at_in]
    worth = 0.0
    for u in here:
        w = _WORTH.get(u.kind, 0.5)
        worth += w * (0.4 if u.broken else 1.0)
    if at in look.piles:
        worth += 0.6  # a "?" may be a dummy (A12.1): worth less than a known squad
    names = ", ".join(u.id for u in here) or '"?"'
    return max(worth, 0.1), names


def _shot(look: _Look, act: Fire, outcomes: Sequence[Outcome]) -> _Shot:
    worth, _ = _target_worth(look, act)
    per = sum(o.p * _outcome_value(o.result) for o in outcomes)
    chance = sum(o.p for o in outcomes if _outcome_value(o.result) >= 0.2)
    effect = per * min(worth, 2.0)
    harm = 0.0
    notes: list[str] = []
    firers = [u for u in look.mine if u.id in act.firers]
    if act.mode == "fpf":
        # A8.31: every firer of Final Protective Fire takes an NMC after the shot
        for u in firers:
            if u.kind is UnitKind.LEADER or u.broken:
                continue
            p = _p_2d6_above(morale(look.sc, u))
            at_stake = _WORTH.get(u.kind, 0.5) * (1.5 if u.hex in look.plan.targets else 1.0)
            harm += p * at_stake
            notes.append(f"{u.id} breaks on its NMC {p:.0%} (A8.31)")
    if act.mode == "prep" and look.plan.attack:
        # A3.3: a unit that Prep Fires may not move this player turn: the plan of the player
        # turn fires with the units that stay, and keeps those that must move unfired
        for u in firers:
            if u.kind in _SQUADS and not _stays(look, u):
                harm += MUST_MOVE
                notes.append(f"{u.id} must move toward {_goal_words(look, look.goals_for([u]))} (A3.3)")
    mal = _malfunction(outcomes)
    if mal:
        harm += 0.3 * mal
        notes.append(f"weapon breakdown {mal:.0%} (A9.7)")
    return _Shot(act, effect, harm, chance, tuple(notes))


#: what a Prep Fire costs for each firer that must move this player turn (A3.3): more than
#: any shot is worth, so the plan keeps its movers unfired (gwasl's weight)
MUST_MOVE = 1.0


def _stays(look: _Look, u: Unit) -> bool:
    """Whether ``u`` stays where it is this player turn, so may Prep Fire (A3.2-A3.3: a unit that
    Prep Fires may not move): it has nowhere to go, is already at its goal, is the last to hold
    an objective (A26.1), or is ADJACENT to an enemy-held goal it will advance into after the
    fire (A4.7, A11).  The others must move, and are kept unfired."""
    goals = look.goals_for([u])
    if not goals or u.hex in goals or _leaves_objective(look, [u], u.hex):
        return True
    held = look.enemy_at()
    return any(g.distance(u.hex) <= 1 and g in held for g in goals)


def _fire_words(look: _Look, s: _Shot) -> str:
    if isinstance(s.action, FireGroupDrop):
        return f"{look.side} gives up the fire group it was forming: {s.group} (A7.5)"
    if isinstance(s.action, FireGroupAdd):
        mode, rule = _MODE_WORDS.get(s.action.mode, (s.action.mode, "A7"))
        return (f"{look.side} forms a fire group for its {mode} at {s.action.at}, one firer at a time "
                f"({'+'.join(s.action.firers)} so far): {s.group} (A7.5)")
    mode, rule = _MODE_WORDS.get(s.action.mode, (s.action.mode, "A7"))
    _, names = _target_worth(look, s.action)
    risk = f"; risk {s.harm:.2f} ({'; '.join(s.notes)})" if s.notes else ""
    where = sorted({u.hex for u in look.mine if u.id in s.action.firers}, key=lambda h: (h.column, h.row))
    group = f" as one fire group from {', '.join(h.label for h in where)} (A7.5)" if len(where) > 1 else ""
    return (f"{look.side} {mode}: {'+'.join(s.action.firers)} at {names} in {s.action.at}{group} -- "
            f"{s.chance:.0%} chance of a morale check or worse, expected effect {s.effect:.2f} squads{risk} ({rule})")


#: fire options whose exact odds the opponent works out per decision (the odds of one
#: option cost a few ms: every pass of the 36 DR through the IFT)
FIRE_CANDIDATES = 6


def _screened(look: _Look, fires: Sequence[Fire]) -> list[Fire]:
    """The fire options most worth pricing, by a cheap guess (firepower at the target's worth,
    closer better), at most :data:`FIRE_CANDIDATES`; for FPF (A8.31) each firer alone too,
    since fewer firers risk fewer NMCs."""
    fp = {u.id: _fp(look.sc, u) for u in look.mine}
    where = {u.id: u.hex for u in look.mine}

    def guess(a: Fire) -> float:
        at = _hex(a.at)
        worth, _ = _target_worth(look, a)
        power = sum(fp.get(i, 1.5) for i in a.firers)
        near = min((where[i].distance(at) for i in a.firers if i in where), default=3)
        return power * worth / (1 + near) - (0.5 * len(a.firers) if a.mode == "fpf" else 0.0)

    ranked = sorted(fires, key=guess, reverse=True)
    return ranked[:FIRE_CANDIDATES]


def _choose_fire(seat: Seat[Any], look: _Look, fires: Sequence[Record]) -> tuple[_Shot | None, list[str], _Shot | None]:
    """The best shot whose net effect clears :data:`FIRE_MARGIN`, the lines weighed, and the
    best shot turned down because its harm outweighs its effect.  ``fires`` may hold the
    steps of a fire group formed one firer at a time (A7.5: ``FireGroupAdd``, ``FireGroupDrop``):
    the opponent starts one across ADJACENT Locations when the combined shot beats the
    separate ones (:func:`_group_plan`) and, while one is being formed, adds the firers it
    planned and then fires it (or drops it when it no longer promises enough)."""
    whole = [a for a in fires if isinstance(a, Fire)]
    adds = [a for a in fires if isinstance(a, FireGroupAdd)]
    drop = next((a for a in fires if isinstance(a, FireGroupDrop)), None)
    if drop is not None:
        return _forming(seat, look, whole, adds, drop), [], None
    best: _Shot | None = None
    refused: _Shot | None = None
    lines: list[str] = []
    for a in _screened(look, whole):
        s = _shot(look, a, seat.odds(a))
        lines.append(f"{'+'.join(a.firers)} -> {a.at} ({a.mode}): effect {s.effect:.2f}, risk {s.harm:.2f}")
        if s.net >= FIRE_MARGIN and (best is None or s.net > best.net):
            best = s
        elif s.effect >= FIRE_MARGIN and s.harm >= s.effect and (refused is None or s.effect > refused.effect):
            refused = s
    if adds:
        group = _group_plan(seat, look, whole, adds, best)
        if group is not None:
            lines.append(f"fire group {'+'.join(group[1].firers)} -> {group[1].at}: {group[0].group}")
            best = group[0]
    return best, lines, refused


def _part_owner(look: _Look, part: str) -> Unit | None:
    """The unit a fire's part belongs to: the unit itself (its inherent FP) or the holder of a
    support weapon (ASLGW 1.6.2)."""
    for u in look.mine:
        if u.id == part:
            return u
    from gwasl.rules.weapons import sw_holder

    try:
        return sw_holder(look.sc, look.sc.unit(part))
    except KeyError:
        return None


def _wanted(look: _Look, part: str, mode: str) -> bool:
    """Whether the plan of the player turn lets ``part`` fire in ``mode``: in Prep Fire only the
    units that stay (:func:`_stays`, A3.3)."""
    if mode != "prep" or not look.plan.attack:
        return True
    u = _part_owner(look, part)
    return u is None or u.kind not in _SQUADS or _stays(look, u)


def _group_plan(seat: Seat[Any], look: _Look, whole: Sequence[Fire], adds: Sequence[FireGroupAdd],
                best: _Shot | None) -> tuple[_Shot, Fire] | None:
    """A7.5: a fire group of the firers the plan lets fire, across ADJACENT Locations, that the
    legal list offers only one firer at a time: formed when its expected effect (its FP on one
    IFT column) beats the separate shots of its Locations and the best shot offered whole.
    The first step (a ``FireGroupAdd`` of one firer) and the group's fire."""
    leaders = {u.id for u in look.mine if u.kind is UnitKind.LEADER}
    keys = list(dict.fromkeys((a.at, a.at_in, a.mode) for a in adds))
    out: tuple[_Shot, Fire] | None = None
    for at, at_in, mode in keys[:2]:
        offered = [f for f in whole if (f.at, f.at_in, f.mode) == (at, at_in, mode)]
        parts = {i for f in offered for i in f.firers if i not in leaders}
        wanted = sorted(i for i in parts if _wanted(look, i, mode))
        owners = {i: _part_owner(look, i) for i in wanted}
        hexes = sorted({o.hex for o in owners.values() if o is not None}, key=lambda h: (h.column, h.row))
        if len(hexes) < 2 or any(set(wanted) == {i for i in f.firers if i not in leaders} for f in offered):
            continue  # one Location, or offered whole: nothing to form
        lead = sorted({i for f in offered for i in f.firers if i in leaders
                       and any(u.id == i and u.hex in hexes for u in look.mine)})
        hypo = Fire(tuple(sorted({*wanted, *lead})), at, at_in, mode)
        try:
            combined = _shot(look, hypo, seat.odds(hypo))
        except GameError:
            continue  # not a fire group the rules allow (A7.5): the separate shots stand
        separate = 0.0
        at_hex = {i: o.hex for i, o in owners.items() if o is not None}
        for h in hexes:
            here = [f for f in offered if all(i in hypo.firers and (i in leaders or at_hex.get(i) == h) for i in f.firers)]
            nets = [_shot(look, f, seat.odds(f)).net for f in here[:2]]
            separate += max([0.0, *nets])
        floor = max(separate, best.net if best is not None else 0.0, FIRE_MARGIN)
        if combined.net <= floor or (out is not None and combined.net <= out[0].net):
            continue
        start = next((a for a in adds if (a.at, a.at_in, a.mode) == (at, at_in, mode) and len(a.firers) == 1
                      and a.firers[0] in wanted), None)
        if start is None:
            continue
        where = ", ".join(h.label for h in hexes)
        why = (f"{'+'.join(hypo.firers)} from {where}: combined expected effect {combined.net:.2f} beats the separate "
               f"shots ({separate:.2f}; their FP adds on one IFT column)")
        out = (_Shot(start, combined.effect, combined.harm, combined.chance, combined.notes, why), hypo)
    return out


def _forming(seat: Seat[Any], look: _Look, whole: Sequence[Fire], adds: Sequence[FireGroupAdd],
             drop: FireGroupDrop) -> _Shot:
    """A fire group being formed (A7.5): add the next firer the plan lets fire, then fire the
    group if its shot still clears :data:`FIRE_MARGIN`, else drop it (nothing has fired)."""
    group = whole[0] if whole else None
    if group is None:
        return _Shot(drop, 0.0, 0.0, 0.0, (), "its target is gone")
    have = set(group.firers)
    for a in adds:
        new = [i for i in a.firers if i not in have]
        if new and all(_wanted(look, i, a.mode) for i in new):
            return _Shot(a, 0.0, 0.0, 0.0, (), f"adds {'+'.join(new)}, ADJACENT to the group")
    s = _shot(look, group, seat.odds(group))
    if s.net >= FIRE_MARGIN:
        return s
    return _Shot(drop, s.effect, s.harm, s.chance, s.notes,
                 f"its shot promises {s.net:.2f} squads net, too little ({FIRE_MARGIN})")


# ---------------------------------------------------------------------------
# Movement: toward what wins, with cover


def _pieces_units(look: _Look, pieces: Sequence[str]) -> list[Unit]:
    ids = set(pieces)
    return [u for u in look.mine if u.id in ids]


def _move_score(look: _Look, units: Sequence[Unit], frm: Hex, to: Hex, mode: str) -> float:
    goals = look.goals_for(units)
    n = len(units)
    if not goals:
        return -1.0
    gain = look.dist(frm, goals) - look.dist(to, goals)
    if gain <= 0:
        return -1.0
    hurry = 1.0 + (2.0 if look.turns_left <= 1 else 0.0)
    danger = look.threat(to) * (0.15 if mode == "assault" else 0.25)
    cover = 0.4 * _cover(look.sc, to)
    # the plan of a player turn: end a move where it can fire next at an enemy-held objective
    # (A7.25 Advancing Fire, then next turn's Prep Fire), not in the open out of its sight
    aim = FIRE_POSITION if look.plan.attack and to in look.fire_positions() else 0.0
    return gain * 3.0 * hurry + cover - danger + 0.1 * n + aim


#: what a move ending where the unit can fire at an enemy-held objective adds to its score (gwasl's weight)
FIRE_POSITION = 1.0


def _leaves_objective(look: _Look, us: Sequence[Unit], frm: Hex) -> bool:
    """Moving ``us`` would leave an objective hex it holds with none of its Good Order units
    (A26.1: Control goes with the last to occupy it): an attacker would then chase its own tail."""
    if frm not in look.plan.targets:
        return False
    ids = {u.id for u in us}
    return not any(u.hex == frm and u.id not in ids and not u.broken and u.kind is not UnitKind.LEADER for u in look.mine)


#: what a squad's move that takes it out of its leader's command costs in a move's score
#: (gwasl's weight: the NTC it then needs to move at all, ASLGW 1.3.2, 1.4.13)
OUT_OF_COMMAND = 2.5


def _radius(look: _Look, leader: Unit) -> int:
    got = look.radii.get(leader.id)
    if got is None:
        try:
            got = command_radius(look.sc, leader)
        except CommandError:
            got = 0
        look.radii[leader.id] = got
    return got


def _leaders(look: _Look) -> list[Unit]:
    got = look.memo.get("leaders")
    if got is None:
        got = look.memo["leaders"] = [u for u in look.mine if u.kind is UnitKind.LEADER and not u.broken]
    return got


def _commanded(look: _Look, squad: Unit, at: Hex, leaders: Iterable[tuple[Unit, Hex]]) -> bool:
    return any(at.distance(h) <= _radius(look, ld) for ld, h in leaders)


def _command_cost(look: _Look, us: Sequence[Unit], frm: Hex, to: Hex | None) -> float | None:
    """What a move does to command (ASLGW 1.3.1-1.3.2, 1.4.13-1.4.14: a squad out of its
    leader's command radius must pass an NTC to move): ``None`` when a leader would leave
    behind Good Order squads it commands now (they would stall, each on its NTC, while
    the leader runs on alone); otherwise the cost of the squads it takes out of command.
    ``to`` None: off the map (an exit, A26.23)."""
    ids = {u.id for u in us}
    moving_leaders = [u for u in us if u.kind is UnitKind.LEADER]
    staying = [(ld, ld.hex) for ld in _leaders(look) if ld.id not in ids]
    after = staying + ([(ld, to) for ld in moving_leaders] if to is not None else [])
    before = look.memo.get("before")
    if before is None:
        before = look.memo["before"] = [(ld, ld.hex) for ld in _leaders(look)]
    if moving_leaders:
        commanded = look.memo.get("commanded")  # its Good Order squads in command now, in order
        if commanded is None:
            commanded = look.memo["commanded"] = [
                q for q in look.mine if q.kind in _SQUADS and not q.broken and _commanded(look, q, q.hex, before)]
        for q in commanded:
            if q.id not in ids and not _commanded(look, q, q.hex, after):
                return None
    cost = 0.0
    if to is None:
        return cost
    for q in us:
        if q.kind in _SQUADS and _commanded_before(look, frm, before) and not _commanded(look, q, to, after):
            cost += OUT_OF_COMMAND
    return cost


def _commanded_before(look: _Look, at: Hex, before: Sequence[tuple[Unit, Hex]]) -> bool:
    """Whether ``at`` is in a Good Order leader's command radius as the leaders stand (ASLGW 1.3.1),
    kept per decision: every move weighed from ``at`` asks it."""
    key = ("commanded before", at)
    got = look.memo.get(key)
    if got is None:
        got = look.memo[key] = any(at.distance(h) <= _radius(look, ld) for ld, h in before)
    return bool(got)


def _best_exit(look: _Look, exits: Sequence[Exit]) -> tuple[Record, float, str] | None:
    """The exit worth most (A26.23: squads 2 VP, others 1): the most pieces at once; a
    leader exits only with (or after) the squads he commands, who would otherwise stall
    on their NTC (ASLGW 1.3.2)."""
    best: tuple[Exit, float] | None = None
    for a in exits:
        us = _pieces_units(look, a.pieces)
        if us and _command_cost(look, us, us[0].hex, None) is None:
            continue
        worth = sum(1.0 if u.kind is UnitKind.SQUAD else 0.5 for u in us)
        if best is None or worth > best[1]:
            best = (a, worth)
    if best is None:
        return None
    a = best[0]
    return a, 100.0 + best[1], f"exits {', '.join(a.pieces)} for exit VP (A26.23): {look.plan.why}"


def _continues(look: _Look, a: Record) -> bool:
    """A move of the unit or stack under way that still brings it closer to its goals (A4.1)."""
    if not isinstance(a, Move) or a.mode == "advance" or not look.moving & set(a.pieces):
        return False
    us = _pieces_units(look, a.pieces)
    if not us or any(u.broken for u in us) or _leaves_objective(look, us, us[0].hex):
        return False
    to = _hex(a.to)
    command = _command_cost(look, us, us[0].hex, to)
    return command is not None and _move_score(look, us, us[0].hex, to, a.mode) - command > 0


def _best_move(look: _Look, legal: Sequence[Record]) -> tuple[Record, float, str] | None:
    if look.plan.exits:
        got = _best_exit(look, [a for a in legal if isinstance(a, Exit)])
        if got is not None:
            return got
    best: tuple[Record, float, str] | None = None
    going_on = bool(look.moving) and any(_continues(look, a) for a in legal)
    for a in legal:
        if isinstance(a, Exit):
            continue
        if isinstance(a, Move):
            us = _pieces_units(look, a.pieces)
            frm = us[0].hex if us else None
            if frm is None:
                continue  # a dummy stack: moved by the shift policy's layer, not here
            if any(u.broken for u in us) or _leaves_objective(look, us, frm):
                continue
            to = _hex(a.to)
            command = _command_cost(look, us, frm, to)
            if command is None:
                continue  # a leader does not run ahead of the squads he commands
            if going_on and a.mode != "advance" and not look.moving & set(a.pieces):
                continue  # A4.1: another unit's move would end the one under way, which still gains
            if a.mode == "advance":
                score = _advance_score(look, us, frm, to) - command
            else:
                score = _move_score(look, us, frm, to, a.mode) - command
                if a.mode == "assault":
                    # Assault Movement ends the move (A4.61): only into a hex next to the enemy, with time left
                    score = score + 0.5 if look.near_enemy(to) and look.turns_left >= 1 else -1.0
            if score > 0 and (best is None or score > best[1]):
                g = look.goals_for(us)
                best = (a, score, f"{'+'.join(u.id for u in us)} {_move_mode_words(a.mode)} {a.to}: "
                                  f"{_dist(frm, g) if g else 0}->{_dist(to, g) if g else 0}"
                                  f" hexes from {_goal_words(look, g)}")
        elif isinstance(a, DoubleTime):
            us = _pieces_units(look, a.pieces)
            g = look.goals_for(us)
            # A4.5: two more MF for CX -- worth it racing for the edge or the objective late
            far = bool(us) and bool(g) and _dist(us[0].hex, g) >= 3
            if far and (look.turns_left <= 1 or (g == look.plan.exits and look.turns_left <= 2)):
                score = 20.0
                if best is None or score > best[1]:
                    best = (a, score, f"{'+'.join(u.id for u in us)} Double Time (A4.5): {_dist(us[0].hex, g)} hexes "
                                      f"from {_goal_words(look, g)} with {look.turns_left} turn(s) left")
        elif isinstance(a, ImpulseStep):
            us = _pieces_units(look, (a.unit,))
            if not us or us[0].broken or _leaves_objective(look, us, us[0].hex):
                continue
            frm, to = us[0].hex, _hex(a.to)
            score = _move_score(look, us, frm, to, "normal")
            if score > 0 and (best is None or score > best[1]):
                best = (a, score, f"platoon {a.platoon}: {a.unit} moves to {a.to} in its impulse (ASLGW 1.4.1), toward "
                                  f"{_goal_words(look, look.goals_for(us))}")
    return best


def _advance_score(look: _Look, us: Sequence[Unit], frm: Hex, to: Hex) -> float:
    """A4.7: one hex in the APh, into close combat (A11) where the enemy is."""
    goals = look.goals_for(us)
    enemy_here = [u for u in look.theirs if u.hex == to and not u.broken]
    if enemy_here or to in look.piles:
        mine = sum(_fp(look.sc, u) for u in us)
        theirs = sum(_fp(look.sc, u) for u in enemy_here) + (2.0 if to in look.piles else 0.0)
        if not look.plan.attack or mine < theirs * 1.2:
            return -1.0
        return 5.0 + (3.0 if to in look.plan.targets else 0.0)
    if not goals:
        return -1.0
    gain = _dist(frm, goals) - _dist(to, goals)
    return gain * 3.0 + 0.4 * _cover(look.sc, to) - 0.1 * look.threat(to) if gain > 0 else -1.0


def _move_mode_words(mode: str) -> str:
    return {"assault": "Assault Moves (A4.61) to", "advance": "advances (A4.7) to"}.get(mode, "moves (A4) to")


def _goal_words(look: _Look, goals: frozenset[Hex] | None = None) -> str:
    p = look.plan
    g = sorted(look.goals() if goals is None else goals, key=lambda h: (h.column, h.row))
    where = ", ".join(h.label for h in g[:4]) + ("..." if len(g) > 4 else "")
    return f"{where} ({'exit' if p.exits and set(g) <= set(p.exits) else 'objective'}: {p.why})"


# ---------------------------------------------------------------------------
# Routs, rallies, close combat


def _rout_score(look: _Look, a: Rout) -> float:
    """A10.5: a required rout goes as far from the enemy as it may, into cover
    (:func:`gwasl.games.aslgw.opponent_choices.rout_score`)."""
    return oc.rout_score(look, _KIT, a)


#: what the choices of :mod:`opponent_choices` (routs, withdrawal, gas, the charge) read of a position
_KIT = oc.Kit(_cover, _fp, morale, _WORTH)


# ---------------------------------------------------------------------------
# The opponent


def _decision(action: Record, why: str, details: Mapping[str, Any] | None = None, public: bool = True,
              about: Iterable[str] = ()) -> Decision:
    """A decision; a private one names in ``about`` its units the enemy cannot see, so that its
    why is shown to all once they are revealed (issue 25; gwasl/games/aslgw/seats.py)."""
    out = dict(details or {})
    hidden = sorted(set(about))
    if not public and hidden:
        out["about"] = hidden
    return Decision(action, why, out, public)


def _shift_turn(seat: Seat[Any], dice: GameDice, legal: Sequence[Record]) -> Decision | None:
    """O'Leary's windows and minefields: gwasl's shift policy, kept (gwasl/rules/fog/policy.py)."""
    v = seat.view()
    if v.minefield is not None and v.minefield[1] == seat.viewer.name \
            and (not legal or all(isinstance(a, MinefieldChoice) for a in legal)):
        return sh.minefield_policy(seat, dice)
    if not legal:
        return sh.window_policy(seat, dice)
    if all(isinstance(a, (EndWindow, Shift)) for a in legal):
        # an open window of a side whose layer is not kept secret: the shift policy's
        # choices are those of gwasl's secret windows; here the side simply ends it
        end = next(a for a in legal if isinstance(a, EndWindow))
        return _decision(end, f"{seat.viewer.name} ends its shift window (O'Leary 3.3.2)")
    return None


@dataclass(frozen=True, slots=True)
class PricedFire:
    """A fire option as the opponent prices it (A7, A8): the expected effect on the target from the
    exact odds, the expected harm to its own units (A8.31 FPF's NMC, A3.3 a Prep Fire that keeps
    the firers from moving, A12.141 concealment given up), and the chance of at least a 1MC."""

    action: Fire
    effect: float
    harm: float
    chance: float

    @property
    def net(self) -> float:
        return self.effect - self.harm


@dataclass(frozen=True, slots=True)
class ScoredMove:
    """A move as the opponent scores it (A4): toward its side's goals, into cover, away from fire."""

    action: Move
    score: float


def priced_fire(seat: Seat[Any], fires: Sequence[Fire]) -> list[PricedFire]:
    """The fire options among ``fires`` most worth pricing (at most ``FIRE_CANDIDATES`` by a cheap
    guess), each priced as the opponent prices it (A7 fire, A8 defensive fire, A8.31 FPF), best
    net first (ties in the order screened).  Reads only ``seat`` (its view and ``seat.odds``); the
    plans other than the opponent's own that a hint weighs (gwasl.games.aslgw.advisor).
    """
    look = _look(seat)
    shots = sorted((_shot(look, a, seat.odds(a)) for a in _screened(look, fires)), key=lambda s: -s.net)
    return [PricedFire(s.action, s.effect, s.harm, s.chance) for s in shots if isinstance(s.action, Fire)]


def scored_moves(seat: Seat[Any], moves: Sequence[Move]) -> list[ScoredMove]:
    """Each of ``moves`` whose pieces are the seat's own Good Order units, scored as the opponent
    scores a move (A4 movement: toward the side's goals, into cover, away from the threat by LOS and
    range, A6/A7.21/A7.22), best first (ties in the order given).  Broken units' moves (A10.5 routs)
    are not scored here.  Reads only ``seat``'s view.
    """
    look = _look(seat)
    scored = []
    for a in moves:
        us = _pieces_units(look, a.pieces)
        if us and not any(u.broken for u in us):
            scored.append(ScoredMove(a, _move_score(look, us, us[0].hex, Hex.from_label(a.to), a.mode)))
    scored.sort(key=lambda m: -m.score)
    return scored


def opponent(seat: Seat[Any], dice: GameDice) -> Decision:
    """gwasl's opponent: one decision for the side of ``seat`` (see the module docstring).
    The log names the side before each decision, so its words start with the deed."""
    d = _opponent(seat, dice)
    side = seat.viewer.name
    for lead in (f"{side}: ", f"{side} "):
        if d.why.startswith(lead):
            return Decision(d.action, d.why[len(lead):], d.details, d.public)
    return d


def _opponent(seat: Seat[Any], dice: GameDice) -> Decision:
    legal = list(seat.legal())
    shift = _shift_turn(seat, dice, legal)
    if shift is not None:
        return shift
    look = _look(seat)
    side = look.side
    passes = [a for a in legal if isinstance(a, Pass)]
    end = next((a for a in legal if isinstance(a, EndPhase)), None)
    # rallies and repairs first: attempting costs nothing but a 12 (A10.6, A9.72)
    for a in legal:
        if isinstance(a, Rally) and any(u.id == a.unit for u in look.mine):
            return _decision(a, f"{side} tries to rally {a.unit} (A10.6)" + _odds_words(seat.odds(a)),
                             public=_shown(look, (a.unit,)), about=_hidden(look, (a.unit,)))
        if isinstance(a, Repair):
            return _decision(a, f"{side} tries to repair {a.weapon} (A9.72)")
    routs = [a for a in legal if isinstance(a, Rout)]
    if routs:
        rout = oc.rout_choice(seat, look, _KIT, routs, end)
        if rout is not None:
            return rout
    withdraw = oc.withdraw_choice(seat, look, _KIT, legal)
    if withdraw is not None:
        return withdraw
    for a in legal:
        if isinstance(a, CloseCombat):
            return _decision(a, f"{side} resolves the close combat in {a.at} (A11)" + _odds_words(seat.odds(a)))
    gas = next((a for a in legal if isinstance(a, ReleaseGas)), None)
    if gas is not None:
        return _decision(gas, f"{side} releases its gas attack {gas.index + 1} as soon as it may (ASLGW 1.9)")
    fires = [a for a in legal if isinstance(a, (Fire, FireGroupAdd, FireGroupDrop))]
    if fires:
        best, lines, refused = _choose_fire(seat, look, fires)
        if best is not None:
            return _decision(best.action, _fire_words(look, best), {"candidates": lines})
        if passes and look.phase is Phase.MPh:
            why = _hold_words(look, refused)
            # holding fire says nothing of what could have fired: private to the side
            return _decision(passes[0], why, {"candidates": lines}, public=False)
    elif passes and passes[0].duty == FIRST_FIRE:
        return _decision(passes[0], f"{side} has no fire at the units that just moved (A8.1)", public=False)
    if passes and passes[0].duty == RALLY:
        return _decision(passes[0], f"{side} has no more rally or repair attempts to make (A10.6)", public=False)
    gas_off = oc.gas_choice(seat, look, legal)
    if gas_off is not None:
        return gas_off
    charge = _charge(look, legal)
    if charge is not None:
        return charge
    move = _best_move(look, legal)
    if move is not None:
        a, _score, why = move
        ids = a.pieces if isinstance(a, (Move, Exit)) else (a.unit,) if isinstance(a, ImpulseStep) else ()
        # why a hidden unit moves is the side's own business until it is seen (A12, O'Leary)
        return _decision(a, f"{side}: {why}", public=_shown(look, ids), about=_hidden(look, ids))
    imp = next((a for a in legal if isinstance(a, EndImpulse)), None)
    if imp is not None:
        return _decision(imp, f"{side} ends platoon {imp.platoon}'s impulse: its members have moved (ASLGW 1.4.1)")
    plat = next((a for a in legal if isinstance(a, EndPlatoon)), None)
    if plat is not None:
        return _decision(plat, f"{side}: platoon {plat.platoon} moves no further this MPh (ASLGW 1.4.1)")
    ech = next((a for a in legal if isinstance(a, EndChargeImpulse)), None)
    if ech is not None:
        return _decision(ech, f"{side} ends the Bayonet Charge impulse (ASLGW 1.5, A25.231)")
    if end is not None:
        why = _end_words(look, fires, refused if fires else None)
        return _decision(end, why)
    if passes:
        return _decision(passes[0], f"{side} passes (A3)", public=False)
    # whatever the rules leave (a charge's step, a pile's order): the first legal action
    rest = [a for a in legal if not isinstance(a, (Detach, DoubleTime, Withdraw, RemoveGasMask, MovePile))] or legal
    return _decision(rest[0], f"{side} does what the rules require now (A3)")


def _shown(look: _Look, ids: Iterable[str]) -> bool:
    """Whether the units a decision names are all in the enemy's sight (its why may then be public)."""
    return not any(i in look.hidden for i in ids)


def _hidden(look: _Look, ids: Iterable[str]) -> list[str]:
    """The units a decision names that the enemy cannot see (A12, O'Leary 3.1)."""
    return [i for i in ids if i in look.hidden]


def _odds_words(outcomes: Sequence[Outcome]) -> str:
    if not outcomes:
        return ""
    top = sorted(outcomes, key=lambda o: -o.p)[:2]
    return ": " + ", ".join(f"{o.result} {o.p:.0%}" for o in top)


def _hold_words(look: _Look, refused: _Shot | None) -> str:
    if refused is not None and not isinstance(refused.action, FireGroupDrop):
        mode, rule = _MODE_WORDS.get(refused.action.mode, (refused.action.mode, "A7"))
        return (f"{look.side} holds its {mode}: the expected harm to its own units ({refused.harm:.2f}: "
                f"{'; '.join(refused.notes)}) outweighs the expected effect ({refused.effect:.2f}) ({rule})")
    return f"{look.side} holds its fire: no shot at the units that just moved is worth it (A8.1)"


def _end_words(look: _Look, fires: Sequence[Record], refused: _Shot | None) -> str:
    ph = look.phase.value
    if refused is not None:
        words = _hold_words(look, refused)
        # the phase's end is public: a held shot's reasons that name a unit the enemy cannot
        # see stay the side's own (A12, O'Leary 3.1)
        if not any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", words) for i in look.hidden):
            return words + f"; it ends the {ph}"
        return f"{look.side} ends the {ph}: no shot promises enough ({len(fires)} weighed, A7)"
    if fires:
        return f"{look.side} ends the {ph}: no shot promises enough ({len(fires)} weighed, A7)"
    goals = look.goals()
    if look.phase in (Phase.MPh, Phase.APh):
        if not goals:
            return f"{look.side} ends the {ph}: it holds what it needs ({look.plan.why}; A26)"
        return f"{look.side} ends the {ph}: no move brings it closer to {_goal_words(look)} (A26)"
    return f"{look.side} ends the {ph}: nothing to decide (A3)"


def _charge(look: _Look, legal: Sequence[Record]) -> Decision | None:
    """The Bayonet Charge (ASLGW 1.5): a charge under way takes the step nearest the enemy;
    one is declared when its price says so: the close combat odds at the end, the moves under
    fire, the objective's worth and the clock (A25.23; :func:`opponent_choices.charge_choice`)."""
    steps = [a for a in legal if isinstance(a, ChargeStep)]
    if steps:
        target = look.enemy_at() or set(look.goals())
        best = min(steps, key=lambda a: _dist(_hex(a.to), target) if target else 0)
        return _decision(best, f"{look.side}: the Bayonet Charge goes on to {best.to}, at the enemy (ASLGW 1.5, A25.231)")
    return oc.charge_choice(look, _KIT, legal)


# ---------------------------------------------------------------------------
# The references: a passive side and a random side


def passive(seat: Seat[Any], dice: GameDice) -> Decision:
    """Ends every phase, passes every duty, makes only the choices the rules force (a
    rout, a close combat, the end of an impulse): the weakest sensible reference."""
    legal = list(seat.legal())
    shift = _shift_turn(seat, dice, legal)
    if shift is not None:
        return shift
    for kind in (EndPhase, Pass, EndImpulse, EndPlatoon, EndChargeImpulse):
        a = next((x for x in legal if isinstance(x, kind)), None)
        if a is not None:
            return Decision(a, f"{seat.viewer.name} (passive) ends what it may")
    forced = next((x for x in legal if isinstance(x, (Rout, CloseCombat, ChargeStep))), legal[0])
    return Decision(forced, f"{seat.viewer.name} (passive) does what the rules force")


def random_side(seat: Seat[Any], dice: GameDice) -> Decision:
    """A uniformly chosen legal action (the tie-break from the game's dice, logged)."""
    legal = list(seat.legal())
    shift = _shift_turn(seat, dice, legal)
    if shift is not None:
        return shift
    i = _pick(dice, len(legal))
    return Decision(legal[i], f"{seat.viewer.name} (random) picks action {i + 1} of {len(legal)}")


def _pick(dice: GameDice, n: int) -> int:
    """A uniform index below ``n`` from dice rolls (base 6 digits, rejection)."""
    if n <= 6:
        return dice.randrange(n, "random side")
    digits, top = 1, 6
    while top < n:
        digits, top = digits + 1, top * 6
    limit = top - top % n
    while True:
        v = 0
        for _ in range(digits):
            v = v * 6 + dice.randrange(6, "random side")
        if v < limit:
            return v % n


#: the policies batch play and ``gwasl game suggest`` name (the first is the best)
POLICIES: Mapping[str, Policy] = {"opponent": opponent, "passive": passive, "random": random_side}


def automated(side_to_act: str | None, opponents: frozenset[str]) -> Mapping[str, Policy]:
    """The opponent plays each side gwasl plays whenever that side is to act."""
    if side_to_act is not None and side_to_act in opponents:
        return {side_to_act: opponent}
    return {}


# ---------------------------------------------------------------------------
# What batch play counts



def self_breaks(events: Sequence[Record]) -> dict[str, int]:
    """Units broken (or lost) by their own side's fire: the NMC each firer of Final
    Protective Fire takes after the shot (A8.31) -- a firer of an FPF attack broken,
    reduced or eliminated after it, before any sniper strikes (A14 is the enemy's).
    ``self_breaks`` and, per side, ``self_breaks:SIDE`` -- what issue 25 counts per game."""
    out: dict[str, int] = {"self_breaks": 0}
    firing: tuple[str, frozenset[str]] | None = None  # the side and firers of an FPF attack just resolved
    for ev in events:
        if isinstance(ev, FireResolved):
            firing = (ev.side, frozenset(ev.firers)) if ev.mode == "fpf" else None
        elif isinstance(ev, (SniperStruck, PhaseBegan)):
            firing = None
        elif isinstance(ev, UnitHit) and firing is not None and ev.side == firing[0] and ev.unit in firing[1] \
                and ev.change in ("broken", "eliminated", "reduced"):
            out["self_breaks"] += 1
            key = f"self_breaks:{ev.side}"
            out[key] = out.get(key, 0) + 1
    return out
