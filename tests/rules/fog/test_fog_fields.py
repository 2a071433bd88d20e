"""Issue 10 item 4: the fog fields are checked once (gwasl.rules.fog.fields), and the hidden
layer is never built from a malformed one (docs/format/fog.md)."""

from __future__ import annotations

import pytest

from gwasl.model.scenario_io import ScenarioFormatError
from gwasl.rules.fog.fields import FogFormatError
from gwasl.rules.fog.state import FogState
from gwasl.rules.validate import validate_scenario

ENEMY = {"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}


@pytest.mark.parametrize("fort,path", [
    ({"kind": "minefield", "hexes": ["C3"], "owner": "french", "hidden": True, "ap": "6"}, "$.map.fortifications[0].ap"),
    ({"kind": "minefield", "hexes": ["C3"], "owner": "french", "hidden": True, "at": [1]}, "$.map.fortifications[0].at"),
    # "hidden": "yes" used to be read as not hidden: the pillbox would have been shown to the enemy.
    ({"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": "yes"}, "$.map.fortifications[0].hidden"),
    ({"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "tem": "5"}, "$.map.fortifications[0].tem"),
    ({"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "setup_hexes": "C3"}, "$.map.fortifications[0].setup_hexes"),
    ({"kind": "pillbox", "hexes": ["C3"], "owner": "french", "hidden": True, "tunnel": 7}, "$.map.fortifications[0].tunnel"),
    ({"kind": "pillbox", "hexes": ["C3"], "owner": "french", "ca": "north"}, "$.map.fortifications[0].ca"),
])
def test_a_malformed_hidden_value_never_builds_a_fog_state(kit, fort, path):
    """O'Leary 4, 4.2-4.4.2, 4.6.1: FogState.from_scenario refuses the file with a format
    error naming the field (validate reports the very same path); the value is not quoted."""
    s = kit.build(units=[ENEMY], forts=[fort])
    with pytest.raises(FogFormatError) as e:
        FogState.from_scenario(s, "x.json")
    assert isinstance(e.value, ScenarioFormatError) and isinstance(e.value, ValueError)
    assert e.value.findings[0].path == path and str(e.value).startswith("x.json: not a valid scenario: " + path)
    bad = next(v for k, v in fort.items() if path.endswith("." + k))
    assert repr(bad) not in str(e.value)
    assert path in {f.path for f in validate_scenario(s).errors}


@pytest.mark.parametrize("unit,path", [
    ({"cloaked": "maybe"}, "$.units[1].cloaked"),
    ({"size_class": "tank"}, "$.units[1].size_class"),
    ({"bore_sight": "ZZ99"}, "$.units[1].bore_sight"),
    ({"ca": 9}, "$.units[1].ca"),
    ({"ce": "yes"}, "$.units[1].ce"),
])
def test_malformed_unit_fields_are_refused_with_their_path(kit, unit, path):
    """O'Leary 2.3, 2.5, 5, 6.1: unit fields the view copies or the shift reads are checked first."""
    u = {"id": "F", "side": "french", "kind": "squad", "class": "first_line", "hex": "C3", "hidden": "hip"} | unit
    s = kit.build(units=[ENEMY, u])
    with pytest.raises(FogFormatError) as e:
        FogState.from_scenario(s)
    assert [f.path for f in e.value.findings] == [path]


def test_well_formed_fields_build_the_hidden_layer(kit):
    """docs/format/fog.md example: a well-formed file builds its hidden layer as before."""
    s = kit.build(units=[ENEMY], forts=[{"kind": "minefield", "hexes": ["C3"], "owner": "french", "hidden": True, "ap": 6}])
    st = FogState.from_scenario(s)
    assert [(m.hex.label, m.ap) for m in st.minefields] == [("C3", 6)]
