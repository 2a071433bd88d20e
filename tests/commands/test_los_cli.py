"""``gwasl los`` and ``gwasl los-map`` (CONTRACTS 4): readable output, --json, exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gwasl.cli import main
from testsupport import EXAMPLE_PATH

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(EXAMPLE_PATH)


@pytest.fixture()
def scen_file(tmp_path):
    doc = {
        "format": "gwasl-scenario/1",
        "title": "LOS CLI",
        "date": "1914-09-06",
        "map": {
            "columns": 6,
            "rows": 6,
            "hexes": {"C3": {"terrain": "woods"}, "E3": {"terrain": "brush"}, "E4": {"terrain": "grain"}},
            "fortifications": [{"kind": "deep_trench", "hexes": ["A5"]}, {"kind": "dugout", "hexes": ["F6"]}],
        },
        "sides": {"g": {"nationality": "german"}, "f": {"nationality": "french"}},
        "units": [],
    }
    p = tmp_path / "s.json"
    p.write_text(json.dumps(doc))
    return str(p)


def run_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_los_json_contract_keys(capsys, scen_file):
    out = run_json(capsys, "los", scen_file, "C1", "C5", "--json")
    assert {"clear": False, "hindrances": 0, "blocked_by": "C3"}.items() <= out.items()
    out = run_json(capsys, "los", scen_file, "E1", "E6", "--json")
    assert out["clear"] is True and out["hindrances"] == 2 and out["blocked_by"] is None
    assert out["hexes"][0] == "E1" and out["hexes"][-1] == "E6"


def test_los_readable_output_names_the_block_and_the_rule(capsys, scen_file):
    assert main(["los", scen_file, "C1", "C5"]) == 0
    text = capsys.readouterr().out
    assert "blocked by C3" in text and "woods" in text and "CONTRACTS 3" in text


def test_los_positions_aslgw_2_1_5(capsys, scen_file):
    out = run_json(capsys, "los", scen_file, "A1", "A5", "--to-in", "deep_trench", "--json")
    assert out["clear"] is False and "2.1.5" in out["reason"]
    out = run_json(capsys, "los", scen_file, "A1", "A5", "--to-in", "deep_trench_crest", "--json")
    assert out["clear"] is True


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["los", "{f}", "C1", "Z99"], "TO Z99 is outside the 6 x 6 map"),
        (["los", "{f}", "c1", "C5"], "FROM 'c1'"),
        (["los", "{f}", "C1", "C5", "--from-in", "dugout"], "C1 has no dugout"),
        (["los-map", "{f}", "Q1"], "FROM Q1 is outside"),
        (["los-map", "{f}", "A1", "--from-in", "deep_trench"], "A1 has no deep trench"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, scen_file, argv, msg):
    assert main([a.format(f=scen_file) for a in argv]) == 2
    err = capsys.readouterr().err
    assert msg in err and len(err.strip().splitlines()) == 1


def test_bad_position_choice_is_exit_2(capsys, scen_file):
    with pytest.raises(SystemExit) as e:
        main(["los", scen_file, "C1", "C5", "--from-in", "roof"])
    assert e.value.code == 2


def test_los_map_json_and_readable(capsys, scen_file):
    out = run_json(capsys, "los-map", scen_file, "C1", "--json")
    assert out["from"] == "C1" and "C1" in out["visible"] and "C2" in out["visible"]
    assert "C5" not in out["visible"]  # behind the woods in C3
    out = run_json(capsys, "los-map", scen_file, "F6", "--from-in", "dugout", "--json")
    assert out["visible"] == ["F6"]  # ASLGW 2.2.2
    assert main(["los-map", scen_file, "C1"]) == 0
    text = capsys.readouterr().out
    assert "sees" in text and "@" in text


def test_subprocess_on_the_example_scenario():
    r = subprocess.run([sys.executable, "-m", "gwasl", "los", EXAMPLE, "C2", "H6", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["blocked_by"] == "D3"
    r = subprocess.run([sys.executable, "-m", "gwasl", "los", EXAMPLE, "C2", "H99"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_los_and_los_map_asl_a6_2_level1_hills_across_level0_woods(capsys, tmp_path):
    """ASL A6.2 on the command line: level-1 hill hexes do not see each other across level-0 woods
    (top at level 1), the reason says so; across a level-1 plateau hex they do."""
    doc = {
        "format": "gwasl-scenario/1",
        "title": "A6.2",
        "date": "1916-07-01",
        "map": {
            "columns": 6,
            "rows": 6,
            "hexes": {
                "C1": {"level": 1}, "C3": {"terrain": "woods"}, "C5": {"level": 1},
                "E1": {"level": 1}, "E3": {"level": 1}, "E5": {"level": 1},
            },
        },
        "sides": {"g": {"nationality": "german"}, "f": {"nationality": "french"}},
        "units": [],
    }
    p = tmp_path / "hills.json"
    p.write_text(json.dumps(doc))
    out = run_json(capsys, "los", str(p), "C1", "C5", "--json")
    assert out["clear"] is False and out["blocked_by"] == "C3" and "A6.2" in out["reason"]
    assert run_json(capsys, "los", str(p), "E1", "E5", "--json")["clear"] is True
    seen = run_json(capsys, "los-map", str(p), "C1", "--json")["visible"]
    assert "C5" not in seen and "C2" in seen
