"""Snipers (classic A14; O'Leary 3.2.1) and the side fields play reads from a
scenario: SAN, ELR and gas releases (docs/format/aslgw.md).

A side's optional fields, beside ``nationality``::

    "german": {"nationality": "german", "san": 3, "elr": 4,
               "gas": [{"agents": ["chlorine"], "hexes": ["E4", "E5"], "turn": 1, "turns": 2}]}

* ``san`` 0-7: the Sniper Activation Number (A14.1); 0 means no sniper;
* ``elr`` 0-5: the Experience Level Rating (A19.12);
* ``gas``: gas attacks the side may release in its PFPh from turn ``turn``
  (ASLGW 1.9: "by SSR"), over ``hexes``, lasting ``turns`` game turns (the
  rest of the scenario when absent).

Absent, SAN and ELR take the defaults of gwasl/resources/infantry_combat.json.
:func:`check_side_fields` reports malformed fields in ``gwasl validate``.

>>> sniper_activated(3, 3), sniper_activated(3, 0), sniper_effect(1), sniper_effect(4)
(True, False, 'casualty_reduction', None)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import Scenario
from gwasl.model.scenario_io import Finding
from gwasl.rules.combat_table import combat_table
from gwasl.rules.gas import GasAttack, GasError
from gwasl.rules.validate import scenario_check

__all__ = ["GasRelease", "check_side_fields", "gas_releases", "side_elr", "side_san", "sniper_activated", "sniper_effect"]


def _int_field(scenario: Scenario, side: str, key: str, lo: int, hi: int) -> int | None:
    v = scenario.sides[side].extra.get(key)
    if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
        return v
    return None


def side_san(scenario: Scenario, side: str) -> int:
    """The side's SAN (A14.1): its ``san`` field, else the default."""
    v = _int_field(scenario, side, "san", 0, 7)
    return combat_table().sniper.default_san if v is None else v


def side_elr(scenario: Scenario, side: str) -> int:
    """The side's ELR (A19.12): its ``elr`` field, else the default."""
    v = _int_field(scenario, side, "elr", 0, 5)
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
    """``san``, ``elr`` and ``gas`` of each side (A14.1, A19.12, ASLGW 1.9)."""
    for sid, side in s.sides.items():
        for key, lo, hi, rule in (("san", 0, 7, "A14.1"), ("elr", 0, 5, "A19.12")):
            if key in side.extra and _int_field(s, sid, key, lo, hi) is None:
                yield Finding(f"$.sides.{sid}.{key}", f"must be a whole number {lo}-{hi}, not {side.extra[key]!r} ({rule})", rule)
        if "gas" in side.extra:
            raw = side.extra["gas"]
            if not isinstance(raw, list):
                yield Finding(f"$.sides.{sid}.gas", "must be a list of gas releases (ASLGW 1.9)", "ASLGW 1.9")
                continue
            for i, r in enumerate(raw):
                got = _release(s, sid, i, r)
                if isinstance(got, str):
                    yield Finding(f"$.sides.{sid}.gas[{i}]", f"{got} (ASLGW 1.9)", "ASLGW 1.9")
