"""Issue 10 item 4: a malformed hidden value is a format error naming the file and the
field (CONTRACTS 2, 4; docs/format/fog.md), for ``render --view SIDE`` and
``shift-preview`` alike: never "internal error", never the hidden value quoted."""

from __future__ import annotations

import json

import pytest

from gwasl.cli import main

# Each hidden minefield strength the issue found (and some more shapes of it).
BAD_STRENGTHS = ["SECRET-STRENGTH", 2.5, [1, 2], {"x": 7}, -4, True, None]


def _write(tmp_path, ap) -> str:
    doc = {
        "format": "gwasl-scenario/1", "title": "t", "date": "1916-06-01",
        "map": {"columns": 8, "rows": 6, "fortifications": [
            {"kind": "minefield", "hexes": ["C3"], "owner": "french", "hidden": True, "ap": ap},
            {"kind": "minefield", "hexes": ["D3"], "owner": "french", "hidden": True, "ap": 3}]},
        "sides": {"german": {"nationality": "german"}, "french": {"nationality": "french"}},
        "units": [{"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "A1"}],
    }
    p = tmp_path / "mined.json"
    p.write_text(json.dumps(doc))
    return str(p)


def _one_clear_line(capsys, path: str, secret) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err, err
    assert path in err and "$.map.fortifications[0].ap" in err and "O'Leary 4.6.1" in err, err
    if isinstance(secret, str):
        assert secret not in err  # the hidden strength is never quoted to the viewer
    return err


@pytest.mark.parametrize("ap", BAD_STRENGTHS, ids=repr)
def test_render_view_side_refuses_a_malformed_hidden_strength(qapp, capsys, tmp_path, ap):
    """O'Leary 4.6.1 strength field: exit 2, one line naming the file and field, no PNG written."""
    path = _write(tmp_path, ap)
    out = tmp_path / "m.png"
    assert main(["render", path, "--out", str(out), "--view", "german"]) == 2
    _one_clear_line(capsys, path, ap)
    assert not out.exists()


@pytest.mark.parametrize("ap", BAD_STRENGTHS, ids=repr)
def test_shift_preview_refuses_a_malformed_hidden_strength(capsys, tmp_path, ap):
    """O'Leary 4.6.1 / CONTRACTS 4: shift-preview gives the same format error, exit 2."""
    path = _write(tmp_path, ap)
    assert main(["shift-preview", path, "C3", "D3", "--phase", "MPh", "--phasing", "german"]) == 2
    _one_clear_line(capsys, path, ap)


def test_validate_reports_the_same_field(capsys, tmp_path):
    """CONTRACTS 4 validate: the same finding (one implementation, gwasl.rules.fog.fields)."""
    path = _write(tmp_path, "SECRET-STRENGTH")
    assert main(["validate", path, "--json"]) == 2
    got = json.loads(capsys.readouterr().out)
    assert any(e["path"] == "$.map.fortifications[0].ap" for e in got["errors"])
