"""Snipers (classic A14; O'Leary 3.2.1), the SAN and ELR play reads from a scenario
card, and the gas attacks a side may release (docs/format/aslgw.md).

SAN (A14.1) and ELR (A19.12) are the scenario card's (``"game": {"san": {...},
"elr": {...}}``, :func:`gwasl.rules.card.scenario_card`); a side the card does
not rate takes the defaults of gwasl/resources/infantry_combat.json.  A side's
optional ``gas`` field, beside ``nationality``, lists the gas attacks it may
release in its PFPh (ASLGW 1.9: "by SSR")::

    "german": {"nationality": "german",
               "gas": [{"agents": ["chlorine"], "hexes": ["E4", "E5"], "turn": 1, "turns": 2}]}

each from turn ``turn``, over ``hexes``, lasting ``turns`` game turns (the rest
of the scenario when absent).  :func:`check_side_fields` reports a malformed
``gas`` in ``gwasl validate``.

>>> sniper_activated(3, 3), sniper_activated(3, 0), sniper_effect(1), sniper_effect(4)
(True, False, 'casualty_reduction', None)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import Scenario
from gwasl.model.scenario_io import Finding
from gwasl.rules.card import CardError, scenario_card
from gwasl.rules.combat_table import combat_table
from gwasl.rules.gas import GasAttack, GasError
from gwasl.rules.validate import scenario_check

__all__ = ["GasRelease", "check_side_fields", "gas_releases", "side_elr", "side_san", "sniper_activated", "sniper_effect"]


_CARDS: dict[int, tuple[object, Mapping[str, int], Mapping[str, int]]] = {}


def _ratings(scenario: Scenario) -> tuple[Mapping[str, int], Mapping[str, int]]:
    """The card's SAN and ELR per side, read once per ``"game"`` object (a scenario in
    play keeps the same one while its units change)."""
    raw = scenario.extra.get("game")
    got = _CARDS.get(id(raw))
    if got is not None and got[0] is raw:
        return got[1], got[2]
    try:
        card = scenario_card(scenario)
        san, elr = dict(card.san), dict(card.elr)
    except CardError:  # refused by gwasl validate before any play
        san, elr = {}, {}
    if len(_CARDS) > 32:
        _CARDS.clear()
    _CARDS[id(raw)] = (raw, san, elr)
    return san, elr


def side_san(scenario: Scenario, side: str) -> int:
    """The side's SAN (A14.1): the scenario card's, else the default."""
    v = _ratings(scenario)[0].get(side)
    return combat_table().sniper.default_san if v is None else v


def side_elr(scenario: Scenario, side: str) -> int:
    """The side's ELR (A19.12): the scenario card's, else the default."""
    v = _ratings(scenario)[1].get(side)
    return combat_table().elr_default if v is None else v


def sniper_activated(original_dr: int, enemy_san: int) -> bool:
    """A14.1: an attack whose original DR equals the enemy's SAN activates the enemy's sniper."""
    return enemy_san > 0 and original_dr == enemy_san


def sniper_effect(dr: int) -> str | None:
    """A14.2: the sniper's dr: ``casualty_reduction`` (an SMC is wounded), ``pin``, or None."""
    return combat_table().sniper.effects.get(dr)


@dataclass(frozen=True, slots=True)
class GasRelease:
    """A gas attack a side may release (ASLGW 1.9; docs/format/aslgw.md)."""

    index: int
    side: str
    agents: tuple[str, ...]
    hexes: tuple[Hex, ...]
    turn: int
    turns: int | None

    @property
    def attack(self) -> GasAttack:
        return GasAttack.of(*self.agents)


def _release(scenario: Scenario, side: str, i: int, raw: Any) -> GasRelease | str:
    if not isinstance(raw, dict):
        return "must be an object with agents, hexes, turn"
    agents = raw.get("agents")
    if not isinstance(agents, list) or not agents or not all(isinstance(a, str) for a in agents):
        return "agents: a list of gases (ASLGW 1.9.13), e.g. [\"chlorine\"]"
    try:
        GasAttack.of(*agents)
    except GasError as e:
        return f"agents: {e}"
    hexes = raw.get("hexes")
    if not isinstance(hexes, list) or not hexes:
        return "hexes: the area of effect, a list of hex labels"
    out = []
    for h in hexes:
        try:
            hx = Hex.from_label(h)
        except (HexLabelError, TypeError):
            return f"hexes: {str(h)[:20]!r} is not a hex label"
        if not scenario.map.contains(hx):
            return f"hexes: {hx} is outside the map"
        out.append(hx)
    turn = raw.get("turn", 1)
    turns = raw.get("turns")
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        return "turn: the first game turn it may be released, a whole number from 1"
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or turns < 1):
        return "turns: how many game turns the cloud stays, a whole number from 1 (absent: the rest of the scenario)"
    unknown = sorted(set(raw) - {"agents", "hexes", "turn", "turns"})
    if unknown:
        return f"{unknown[0]}: unknown field (agents, hexes, turn, turns)"
    return GasRelease(i, side, tuple(agents), tuple(out), turn, turns)


def gas_releases(scenario: Scenario, side: str) -> tuple[GasRelease, ...]:
    """The well-formed gas releases of ``side`` (ASLGW 1.9; malformed ones are validation errors)."""
    raw = scenario.sides[side].extra.get("gas")
    if not isinstance(raw, list):
        return ()
    out = []
    for i, r in enumerate(raw):
        got = _release(scenario, side, i, r)
        if isinstance(got, GasRelease):
            out.append(got)
    return tuple(out)


@scenario_check
def check_side_fields(s: Scenario) -> Iterator[Finding]:
    """The ``gas`` field of each side (ASLGW 1.9)."""
    for sid, side in s.sides.items():
        if "gas" in side.extra:
            raw = side.extra["gas"]
            if not isinstance(raw, list):
                yield Finding(f"$.sides.{sid}.gas", "must be a list of gas releases (ASLGW 1.9)", "ASLGW 1.9")
                continue
            for i, r in enumerate(raw):
                got = _release(s, sid, i, r)
                if isinstance(got, str):
                    yield Finding(f"$.sides.{sid}.gas[{i}]", f"{got} (ASLGW 1.9)", "ASLGW 1.9")
