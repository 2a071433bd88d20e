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


def _strangers_file(tmp_path, title, unit_id, platoon):
    """A file from a stranger, written with JSON escapes (a lone surrogate becomes "\\ud800")."""
    doc = {
        "format": "gwasl-scenario/1", "title": title, "date": "1917-04-09", "map": {"columns": 10, "rows": 10},
        "sides": {"b": {"nationality": "british"}, "g": {"nationality": "german"}},
        "formations": [{"id": "P1", "kind": "platoon", "leader": "L"}],
        "units": [{"id": "L", "side": "b", "kind": "leader", "rating": "8-0", "hex": "E5", "platoon": "P1"},
                  {"id": unit_id, "side": "b", "kind": "squad", "class": "first_line", "hex": "E8", "platoon": platoon}],
    }
    p = tmp_path / "stranger.json"
    p.write_text(json.dumps(doc), encoding="ascii")
    return str(p)


def test_command_platoon_naming_no_formation_answers(capsys, tmp_path):
    """Issue 17: a platoon naming no formation used to fail with "internal error:
    KeyError"; the command answers (ASLGW 1.3.1: S1 is 3 hexes from L in 1917)."""
    f = _strangers_file(tmp_path, "t", "S1", "NOPE")
    assert main(["command", f, "--json"]) == 0
    st = json.loads(capsys.readouterr().out)["units"]["S1"]
    assert st["in_command"] and st["commanded_by"] == "L" and "NOPE" in st["reason"]
    assert main(["command", f]) == 0
    assert "In Command by L" in capsys.readouterr().out


def test_command_lone_surrogates_in_title_and_ids_answer_or_refuse_cleanly(tmp_path):
    """Issue 17: a lone surrogate in the title (or an id) used to fail with "internal
    error: UnicodeEncodeError".  A real process either answers, writing it as its
    JSON escape, or refuses the file in one clean line (exit 2) -- never fails inside."""
    import subprocess
    import sys

    from testsupport import ROOT

    f = _strangers_file(tmp_path, "Verdun \ud800", "S\udc00", "P1")
    for extra in ([], ["--json"]):
        r = subprocess.run([sys.executable, "-m", "gwasl", "command", f, *extra], cwd=ROOT, capture_output=True)
        err = r.stderr.decode("utf-8")
        assert "internal error" not in err and "Traceback" not in err
        if r.returncode == 2:  # refused: one line naming the file
            assert len(err.strip().splitlines()) == 1 and "stranger.json" in err
            continue
        assert r.returncode == 0 and err == ""
        out = r.stdout.decode("utf-8")
        if extra:
            assert json.loads(out)["units"]["S\udc00"]["commanded_by"] == "L"  # the escape reads back as the file's id
        else:
            assert "Verdun \\ud800" in out and "S\\udc00" in out
