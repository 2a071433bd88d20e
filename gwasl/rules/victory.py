"""Victory Points, Casualty VP, capture, exit, avoidance and balance (ASL A26.2-26.4),
and the judging of a scenario's victory conditions.

>>> unit_vp("squad"), unit_vp("half_squad"), unit_vp("crew"), unit_vp("leader", -2), unit_vp("leader", 1)
(2, 1, 2, 3, 1)
>>> t = tally([Loss("8a", "German", 2, "eliminated"), Loss("L1", "French", 3, "captured")])
>>> t.cvp["French"], t.cvp["German"], t.at_game_end().cvp["German"]
(2, 3, 6)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from gwasl.model.batched import FrozenBatch
from gwasl.rules.control import ControlMap, Location

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "ControlCondition",
    "Loss",
    "Tally",
    "VPCondition",
    "Verdict",
    "balance_dr_loser",
    "judge",
    "tally",
    "unit_vp",
]

LossKind = Literal["eliminated", "reduced", "captured", "left_map", "exited"]


def unit_vp(kind: str, leadership_modifier: int = 0) -> int:
    """A26.211: a squad or crew 2 VP, a half-squad 1; a leader 1 plus 1 per negative
    leadership modifier (wounded or not); a hero counts only for Seaborne Evacuation
    exit VP, so 0 here; support weapons 0.  (Guns and vehicles, 26.212, are not part of
    Great War infantry play in gwasl: docs/rules-notes.md.)"""
    if kind in ("squad", "crew"):
        return 2
    if kind == "half_squad":
        return 1
    if kind == "leader":
        return 1 + max(0, -leadership_modifier)
    return 0


@dataclass(frozen=True, slots=True)
class Loss:
    """A unit removed from play or exited: ``side`` owns the unit; ``how``:
    ``eliminated`` (26.221), ``reduced`` (26.221: a squad's Casualty Reduction eliminates
    a half-squad's worth, ``vp`` the difference), ``captured`` (26.222: a prisoner), ``left_map`` (eliminated
    for CVP, 26.221), ``exited`` (through the exit area of the victory conditions, 26.23:
    no CVP).  ``broken``: broken personnel give no exit VP (26.23)."""

    unit: str
    side: str
    vp: int
    how: LossKind
    broken: bool = False


@dataclass(frozen=True, slots=True)
class Tally:
    """VP per side: ``cvp`` the Casualty VP each side has earned (from enemy losses),
    ``exit_vp`` the exit VP each side has earned, with every contribution explained."""

    cvp: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    exit_vp: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    lines: tuple[str, ...] = ()
    captured: tuple[Loss, ...] = ()
    ended: bool = False

    def at_game_end(self) -> Tally:
        """A26.222: captured units and equipment are worth double to their captor once the scenario ends."""
        if self.ended:
            return self
        cvp = dict(self.cvp)
        lines = list(self.lines)
        for c in self.captured:
            captor = _enemy_of(c.side, cvp)
            cvp[captor] = cvp.get(captor, 0) + c.vp
            lines.append(f"{captor} +{c.vp} CVP: {c.unit} captured, doubled at game end (A26.222)")
        return replace(self, cvp=MappingProxyType(cvp), lines=tuple(lines), ended=True)


def _enemy_of(side: str, known: Mapping[str, int]) -> str:
    others = [s for s in known if s != side]
    return others[0] if others else f"enemy of {side}"


def tally(losses: Iterable[Loss], sides: Sequence[str] = ()) -> Tally:
    """CVP and exit VP from the losses of a game (A26.221-26.23).  ``sides`` names both sides
    (so a side with no points shows 0); otherwise the sides of the losses are used."""
    items = list(losses)
    names = list(sides) or sorted({x.side for x in items})
    if len(names) == 1:
        names.append(f"enemy of {names[0]}")
    cvp = {s: 0 for s in names}
    exit_vp = {s: 0 for s in names}
    lines = []
    captured = []
    for x in items:
        enemy = next((s for s in names if s != x.side), names[0])
        if x.how in ("eliminated", "reduced", "left_map"):
            cvp[enemy] += x.vp
            why = {"eliminated": "eliminated", "reduced": "casualty reduced, a half-squad eliminated",
                   "left_map": "left the map, counted as eliminated"}[x.how]
            lines.append(f"{enemy} +{x.vp} CVP: {x.unit} {why} (A26.221)")
        elif x.how == "captured":
            cvp[enemy] += x.vp
            captured.append(x)
            lines.append(f"{enemy} +{x.vp} CVP: {x.unit} captured (A26.222)")
        elif x.how == "exited":
            if x.broken:
                lines.append(f"{x.side} +0 exit VP: {x.unit} exited broken (A26.23)")
            else:
                exit_vp[x.side] += x.vp
                lines.append(f"{x.side} +{x.vp} exit VP: {x.unit} exited (A26.23)")
    return Tally(MappingProxyType(cvp), MappingProxyType(exit_vp), tuple(lines), tuple(captured))


@dataclass(frozen=True, slots=True)
class ControlCondition:
    """``side`` must Control ``at_least`` of the ``targets`` (all of them when ``None``):
    hexes (labels), buildings (ids) or Locations."""

    side: str
    hexes: tuple[str, ...] = ()
    buildings: tuple[str, ...] = ()
    locations: tuple[Location, ...] = ()
    at_least: int | None = None

    def count(self, control: ControlMap) -> tuple[int, int, list[str]]:
        from gwasl.model.hexgrid import Hex

        have, lines = 0, []
        total = len(self.hexes) + len(self.buildings) + len(self.locations)
        for label in self.hexes:
            c = control.hexes.get(Hex.from_label(label))
            ok = c is not None and c.side == self.side
            have += ok
            lines.append(f"hex {label}: {c.side if c else 'nobody'}")
        for b in self.buildings:
            c = control.buildings.get(b)
            ok = c is not None and c.side == self.side
            have += ok
            lines.append(f"building {b}: {c.side if c else 'nobody'}")
        for loc in self.locations:
            c = control.locations.get(loc)
            have += c is not None and c.side == self.side
            lines.append(f"{loc.text}: {c.side if c else 'nobody'}")
        return have, total, lines


@dataclass(frozen=True, slots=True)
class VPCondition:
    """``side`` must reach ``at_least`` of ``measure`` (``cvp`` or ``exit``), the count
    capped at ``cap`` where the card caps it; ``more_than_enemy``: and more than the enemy."""

    side: str
    measure: Literal["cvp", "exit"]
    at_least: int
    cap: int | None = None
    more_than_enemy: bool = False


Condition = ControlCondition | VPCondition


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result: ``winner`` (``None`` for a draw), ``why``, and the tallies behind it."""

    winner: str | None
    why: str
    met: Mapping[str, bool]
    details: tuple[str, ...]


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


def _met(cond: Condition, control: ControlMap, t: Tally, sides: Sequence[str]) -> tuple[bool, list[str]]:
    if isinstance(cond, ControlCondition):
        have, total, lines = cond.count(control)
        need = total if cond.at_least is None else cond.at_least
        return have >= need, [f"{cond.side} Controls {have} of {total} (needs {need}, A26.1)", *lines]
    table = t.cvp if cond.measure == "cvp" else t.exit_vp
    raw = table.get(cond.side, 0)
    value = min(raw, cond.cap) if cond.cap is not None else raw
    ok = value >= cond.at_least
    lines = [f"{cond.side} has {value} {cond.measure.upper()} VP" + (f" (capped at {cond.cap} from {raw})" if cond.cap is not None and raw > cond.cap else "")
             + f", needs {cond.at_least} ({'A26.22' if cond.measure == 'cvp' else 'A26.23'})"]
    if cond.more_than_enemy:
        enemy = next((s for s in sides if s != cond.side), None)
        ev = table.get(enemy, 0) if enemy else 0
        ok = ok and value > ev
        lines.append(f"and more than {enemy}'s {ev}")
    return ok, lines


def judge(conditions: Mapping[str, Sequence[Condition]], control: ControlMap, t: Tally, sides: Sequence[str],
          over: bool) -> Verdict | None:
    """Who has won (A26.3: a side with no conditions of its own wins by avoiding the
    other's).  Before the end (``over`` false) only a side that has met all its
    conditions is reported (the card's immediate conditions); otherwise ``None``."""
    details: list[str] = []
    met: dict[str, bool] = {}
    headline: dict[str, list[str]] = {}  # per side, each condition's count: the "why" names what decided
    for side in sides:
        conds = conditions.get(side, ())
        if not conds:
            continue
        ok_all = True
        for c in conds:
            ok, lines = _met(c, control, t, sides)
            ok_all &= ok
            details += lines
            head = lines[0] + (f" {lines[1]}" if isinstance(c, VPCondition) and len(lines) > 1 else "")
            headline.setdefault(side, []).append(head + (": met" if ok else ": not met"))
        met[side] = ok_all
    details += list(t.lines)

    def because(*who: str) -> str:
        return "; ".join(h for s in who for h in headline.get(s, ()))

    winners = [s for s, ok in met.items() if ok]
    if len(winners) == 1:
        s = winners[0]
        return Verdict(s, f"{s} has met its victory conditions: {because(s)}", MappingProxyType(met), tuple(details))
    if not over:
        return None
    if len(winners) > 1:
        return Verdict(None, f"both sides have met their victory conditions: a draw ({because(*winners)})",
                       MappingProxyType(met), tuple(details))
    avoiders = [s for s in sides if s not in met]
    if len(avoiders) == 1:
        s = avoiders[0]
        return Verdict(s, f"{s} wins by avoiding the other side's victory conditions (A26.3): {because(*met)}",
                       MappingProxyType(met), tuple(details))
    return Verdict(None, f"no side has met its victory conditions: a draw ({because(*met)})", MappingProxyType(met),
                   tuple(details))


def balance_dr_loser(rolls: Mapping[str, int]) -> str | None:
    """A26.4: when both players want the same side, each rolls a dr; the lower dr
    loses and claims the Balance provision.  ``None`` on a tie (roll again)."""
    (a, ra), (b, rb) = rolls.items()
    if ra == rb:
        return None
    return a if ra < rb else b
