"""The shape of the fog-of-war extension fields (docs/format/fog.md), checked once.

Every field the hidden layer reads is checked here: its type, its range, the
hex labels it names.  :func:`fog_field_findings` is the one implementation:
``gwasl validate`` reports its findings (:mod:`gwasl.rules.fog.checks`) and
:meth:`gwasl.rules.fog.state.FogState.from_scenario` refuses a scenario that
has any (:class:`FogFormatError`), so a malformed hidden value never reaches
a rule function or a side's view.

The messages name the field and what it must be, never the value found: a
hidden value (a hidden minefield's strength, a HIP gun's size class) must not
be quoted to someone looking at the map as the other side.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeGuard

from gwasl.model.hexgrid import Hex, HexLabelError
from gwasl.model.scenario import Position, Scenario
from gwasl.model.scenario_io import Finding, ScenarioFormatError
from gwasl.rules.fog.table import FogTable, fog_table

__all__ = ["FogFormatError", "fog_field_findings", "is_hex_label", "is_number", "is_whole", "require_fog_fields"]


class FogFormatError(ScenarioFormatError, ValueError):
    """A scenario whose fog-of-war fields are malformed; ``findings`` names each field."""

    def __init__(self, source: str, findings: list[Finding]):
        super().__init__(source, findings)
        first = self.findings[0] if self.findings else Finding("$", "invalid")
        more = (f" (and {len(self.findings) - 1} more; 'gwasl validate {source}' lists them)"
                if len(self.findings) > 1 else "")
        self.args = (f"{source}: not a valid scenario: {first}{more}",)

    def __str__(self) -> str:
        return str(self.args[0])


def is_whole(v: Any) -> TypeGuard[int]:
    """A JSON whole number (true and false are not numbers here)."""
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: Any) -> TypeGuard[int | float]:
    """A JSON number (true and false are not numbers here)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _hex_on_map(s: Scenario, v: Any) -> bool:
    try:
        return s.map.contains(Hex.from_label(v))
    except (HexLabelError, TypeError, AttributeError):
        return False


def is_hex_label(v: Any) -> bool:
    try:
        Hex.from_label(v)
        return True
    except (HexLabelError, TypeError, AttributeError):
        return False


def fog_field_findings(s: Scenario, table: FogTable | None = None) -> Iterator[Finding]:
    """Every malformed fog extension field of ``s``, at its JSON path, with its rule.

    >>> import datetime
    >>> from gwasl.model.scenario import Fortification, FortificationKind, MapData
    >>> from types import MappingProxyType
    >>> mf = Fortification(FortificationKind.MINEFIELD, (Hex(2, 2),), "fr", (), MappingProxyType({"hidden": True, "ap": "six"}))
    >>> s = Scenario("t", datetime.date(1916, 1, 1), MapData(5, 5, fortifications=(mf,)), {})
    >>> [(f.path, f.rule) for f in fog_field_findings(s)]
    [('$.map.fortifications[0].ap', "O'Leary 4.6.1")]
    """
    t = table or fog_table()
    fog = s.extra.get("fog")
    if fog is not None and not isinstance(fog, Mapping):
        yield Finding("$.fog", "must be an object (docs/format/fog.md)")
        fog = {}
    fog = fog or {}
    if "shift_balance_drm" in fog:
        v = fog["shift_balance_drm"]
        lo, hi = t.drm["balance_drm_min"], t.drm["balance_drm_max"]
        if not is_whole(v) or not lo <= v <= hi:
            yield Finding("$.fog.shift_balance_drm", f"must be a whole number from {lo} to {hi}", "O'Leary 2.5")
    if "first_phasing" in fog and (not isinstance(fog["first_phasing"], str) or fog["first_phasing"] not in s.sides):
        yield Finding("$.fog.first_phasing", f"must be a side of this scenario ({', '.join(s.sides)})")
    oba = fog.get("oba", [])
    if not isinstance(oba, list):
        yield Finding("$.fog.oba", "must be a list of OBA modules", "O'Leary 7")
        oba = []
    for i, m in enumerate(oba):
        p = f"$.fog.oba[{i}]"
        if not isinstance(m, Mapping) or not isinstance(m.get("id"), str):
            yield Finding(p, "an OBA module needs an 'id' text", "O'Leary 7")
            continue
        if not isinstance(m.get("side"), str) or m.get("side") not in s.sides:
            yield Finding(f"{p}.side", f"must be a side of this scenario ({', '.join(s.sides)})", "O'Leary 7")
        pr = m.get("pre_registered")
        if pr is not None and pr != "undetermined" and not _hex_on_map(s, pr):
            yield Finding(f"{p}.pre_registered", "must be 'undetermined' or a hex of the map", "O'Leary 7.1")

    for sid, side in s.sides.items():
        p = f"$.sides.{sid}.fog"
        sf = side.extra.get("fog")
        if sf is None:
            continue
        if not isinstance(sf, Mapping):
            yield Finding(p, "must be an object (docs/format/fog.md)")
            continue
        cap = sf.get("hip_squad_capacity")
        if cap is not None and (not is_number(cap) or cap < 0):
            yield Finding(f"{p}.hip_squad_capacity", "must be a number >= 0", "O'Leary 3.1.1")
        pj = sf.get("panji_hexsides")
        if pj is not None and (not is_whole(pj) or pj < 0):
            yield Finding(f"{p}.panji_hexsides", "must be a whole number >= 0", "O'Leary 4.1")
        hm = sf.get("hidden_minefield")
        if hm is not None:
            if not isinstance(hm, Mapping):
                yield Finding(f"{p}.hidden_minefield", "must be an object {\"ap\": n, \"at\": n}", "O'Leary 4.6.1")
            else:
                for k in ("ap", "at"):
                    if k in hm and (not is_whole(hm[k]) or hm[k] < 0):
                        yield Finding(f"{p}.hidden_minefield.{k}", "must be a whole number >= 0", "O'Leary 4.6.1")

    size_names = sorted(t.size_drm)
    for i, u in enumerate(s.units):
        p = f"$.units[{i}]"
        e = u.extra
        if "cloaked" in e and not isinstance(e["cloaked"], bool):
            yield Finding(f"{p}.cloaked", "must be true or false", "O'Leary 5")
        if "size_class" in e and e["size_class"] not in size_names:
            yield Finding(f"{p}.size_class", f"must be a size class ({', '.join(size_names)})", "O'Leary 2.5")
        for k in ("emplaced", "may_emplace"):
            if k in e and not isinstance(e[k], bool):
                yield Finding(f"{p}.{k}", "must be true or false", "O'Leary 2.3")
        if "movement_allowance" in e and (not is_number(e["movement_allowance"]) or e["movement_allowance"] <= 0):
            yield Finding(f"{p}.movement_allowance", "must be a number > 0", "O'Leary 2.4")
        if "bore_sight" in e and e["bore_sight"] != "undetermined" and not _hex_on_map(s, e["bore_sight"]):
            yield Finding(f"{p}.bore_sight", "must be 'undetermined' or a hex of the map", "O'Leary 6.1")
        for k in ("ca", "vca"):
            if k in e and (not is_whole(e[k]) or not 0 <= e[k] <= 5):
                yield Finding(f"{p}.{k}", "must be a hex direction 0-5", "O'Leary 2.3")
        if "ce" in e and not isinstance(e["ce"], bool):
            yield Finding(f"{p}.ce", "must be true or false", "O'Leary 2.3")

    for h, hd in s.map.hexes.items():
        if "crest_line" in hd.extra and not isinstance(hd.extra["crest_line"], bool):
            yield Finding(f"$.map.hexes.{h.label}.crest_line", "must be true or false", "O'Leary 2.3")

    positions = ", ".join(x.value for x in Position)
    for i, d in enumerate(s.dummies):
        p = f"$.dummies[{i}]"
        if "in" in d.extra:
            try:
                Position(d.extra["in"])
            except (ValueError, TypeError):
                yield Finding(f"{p}.in", f"must be a position ({positions})", "O'Leary 2.3")
        if "cloaked" in d.extra and not isinstance(d.extra["cloaked"], bool):
            yield Finding(f"{p}.cloaked", "must be true or false", "O'Leary 5")

    for i, f in enumerate(s.map.fortifications):
        p = f"$.map.fortifications[{i}]"
        e = f.extra
        if "hidden" in e and not isinstance(e["hidden"], bool):
            yield Finding(f"{p}.hidden", "must be true or false", "O'Leary 4")
        if "tem" in e and not is_whole(e["tem"]):
            yield Finding(f"{p}.tem", "must be a whole number", "O'Leary 4.3")
        if "ca" in e and (not is_whole(e["ca"]) or not 0 <= e["ca"] <= 5):
            yield Finding(f"{p}.ca", "must be a hex direction 0-5", "O'Leary 4.4")
        if "setup_hexes" in e:
            sh = e["setup_hexes"]
            if not isinstance(sh, list) or not all(is_hex_label(x) for x in sh):
                yield Finding(f"{p}.setup_hexes", "must be a list of hex labels", "O'Leary 4.2")
        if "tunnel" in e and not _hex_on_map(s, e["tunnel"]):
            yield Finding(f"{p}.tunnel", "must be a hex of the map", "O'Leary 4.4.2")
        if "complex" in e and (not isinstance(e["complex"], str) or not e["complex"]):
            yield Finding(f"{p}.complex", "must be a cave complex id (text)", "O'Leary 4.4.1")
        for k in ("ap", "at"):
            if k in e and (not is_whole(e[k]) or e[k] < 0):
                yield Finding(f"{p}.{k}", "must be a whole number of factors >= 0", "O'Leary 4.6.1")
        if "revealed" in e and not isinstance(e["revealed"], bool):
            yield Finding(f"{p}.revealed", "must be true or false", "O'Leary 4.6.2")


def require_fog_fields(s: Scenario, source: str = "<scenario>") -> None:
    """Raise :class:`FogFormatError` naming ``source`` and each malformed fog field of ``s``."""
    found = [f for f in fog_field_findings(s) if f.severity == "error"]
    if found:
        raise FogFormatError(source, found)
