"""``gwasl shift-preview`` exactly as CONTRACTS 4 (O'Leary 2.5 exact odds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gwasl.cli import main
from gwasl.rules.fog.odds import shift_band_odds
from testsupport import EXAMPLE_PATH

ROOT = Path(__file__).resolve().parents[2]
BOIS = str(EXAMPLE_PATH)


def run_json(capsys, *args):
    code = main(["shift-preview", BOIS, *args, "--json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out else None), out.err


def test_contract_shape_and_exact_odds(capsys):
    """CONTRACTS 4 / O'Leary 2.5: PD F1-1 (G6, deep trench crest) with the 3-counter dummy in brush at F4, French MPh; odds exact from 36 outcomes."""
    code, got, _ = run_json(capsys, "G6", "F4", "--phase", "MPh", "--phasing", "french")
    assert code == 0
    assert set(got) == {"eligible", "reason", "modifiers", "drm", "p"}
    assert set(got["p"]) == {"allowed", "disallowed", "status_lost", "revealed"}
    assert got["eligible"] is True and got["reason"] is None
    assert got["drm"] == sum(m["value"] for m in got["modifiers"])
    assert all(set(m) == {"cause", "value"} for m in got["modifiers"])
    exact = shift_band_odds(got["drm"])
    assert got["p"] == {k: float(v) for k, v in exact.items()}
    assert abs(sum(got["p"].values()) - 1) < 1e-12


def test_prior_shifts_add_one_each(capsys):
    """O'Leary 2.5: +1 for each previous shift that side has made in this phase."""
    _, a, _ = run_json(capsys, "G6", "F4", "--phase", "MPh", "--phasing", "french")
    _, b, _ = run_json(capsys, "G6", "F4", "--phase", "MPh", "--phasing", "french", "--prior-shifts", "2")
    assert b["drm"] == a["drm"] + 2
    assert b["p"]["revealed"] == float(shift_band_odds(a["drm"] + 2)["revealed"])


def test_wrong_phase_gives_ineligible_with_reason(capsys):
    """O'Leary 2.3: dummy stacks never shift in the PFPh."""
    code, got, _ = run_json(capsys, "G6", "F4", "--phase", "PFPh", "--phasing", "french")
    assert code == 0 and got["eligible"] is False and "2.3" in got["reason"]


def test_hip_shift_in_the_enemy_mph(capsys):
    """O'Leary 3.3.2: French HIP at H6 and the dummy HIP at J6 in the German MPh: -1 both HIP."""
    code, got, _ = run_json(capsys, "H6", "J6", "--phase", "MPh", "--phasing", "german")
    assert code == 0 and got["eligible"] is True
    assert any(m["value"] == -1 and "HIP" in m["cause"] for m in got["modifiers"])


def test_mixed_kinds_are_ineligible_not_an_error(capsys):
    """O'Leary 3.3.1: a HIP location and a dummy stack never exchange."""
    code, got, _ = run_json(capsys, "H6", "F4", "--phase", "MPh", "--phasing", "french")
    assert code == 0 and got["eligible"] is False and "3.3.1" in got["reason"]


@pytest.mark.parametrize("args,needle", [
    (["Z99", "F4", "--phase", "MPh", "--phasing", "french"], "outside"),
    (["G6", "F4", "--phase", "MPh", "--phasing", "belgians"], "side"),
    (["G6", "F4", "--phase", "XPh", "--phasing", "french"], "phase"),
    (["A1", "F4", "--phase", "MPh", "--phasing", "french"], "no hidden stack"),
    (["G6", "A1", "--phase", "MPh", "--phasing", "french"], "no hidden stack"),
    (["G6", "F4", "--phase", "MPh", "--phasing", "french", "--prior-shifts", "-1"], "prior-shifts"),
])
def test_bad_input_one_line_on_stderr_exit_2(capsys, args, needle):
    """CONTRACTS 4: unknown hexes, sides, phases or hexes without a hidden stack: one line on stderr, exit 2."""
    code = main(["shift-preview", BOIS, *args])
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert len(out.err.strip().splitlines()) == 1 and needle in out.err


def test_subprocess_text_output():
    """CONTRACTS 4: the command runs as a program (text output without --json)."""
    r = subprocess.run([sys.executable, "-m", "gwasl", "shift-preview", BOIS, "G6", "F4", "--phase", "MPh", "--phasing", "french"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "eligible" in r.stdout and "allowed" in r.stdout


def test_map_whose_los_cannot_be_built_is_a_one_line_error(tmp_path, capsys):
    """CONTRACTS 4: a broken custom obstacle outline gives one line on stderr and exit 2."""
    doc = json.loads(Path(BOIS).read_text())
    doc["map"]["hexes"]["C3"]["outline"] = [[0, 0]]
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))
    code = main(["shift-preview", str(f), "G6", "F4", "--phase", "MPh", "--phasing", "french"])
    out = capsys.readouterr()
    assert code == 2 and len(out.err.strip().splitlines()) == 1 and "outline" in out.err
