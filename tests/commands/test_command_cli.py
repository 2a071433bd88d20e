"""``gwasl command`` (CONTRACTS 4): ASLGW 1.3 command status, readable and --json."""

from __future__ import annotations

import json

from gwasl.cli import main
from testsupport import EXAMPLE_PATH

EXAMPLE = str(EXAMPLE_PATH)


def test_command_json_contract_shape(capsys):
    assert main(["command", EXAMPLE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["radius"] == {"G1-L": 2, "F1-L": 2}  # February 1916: ASLGW 1.3.12
    assert set(out["units"]) == {"G1-1", "G1-2", "G1-3", "G1-4", "G1-5", "G1-6", "F1-1", "F1-2", "F1-3", "F-MG"}
    for v in out["units"].values():
        assert {"in_command", "commanded_by", "no_leader_penalty"} <= set(v)
    assert out["units"]["G1-6"] == {**out["units"]["G1-6"], "in_command": True, "commanded_by": "G1-L", "no_leader_penalty": False}


def test_command_side_filter_and_readable(capsys):
    assert main(["command", EXAMPLE, "--side", "french", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["radius"]) == {"F1-L"} and all(k.startswith("F") for k in out["units"])
    assert main(["command", EXAMPLE]) == 0
    text = capsys.readouterr().out
    assert "G1-L" in text and "radius 2" in text and "In Command" in text


def test_command_unknown_side_exit_2(capsys):
    assert main(["command", EXAMPLE, "--side", "austrian"]) == 2
    err = capsys.readouterr().err
    assert "austrian" in err and len(err.strip().splitlines()) == 1


def test_command_missing_file_exit_2(capsys, tmp_path):
    assert main(["command", str(tmp_path / "nope.json")]) == 2
    assert capsys.readouterr().err.strip()
