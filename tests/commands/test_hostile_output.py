"""What the command line prints of a file's text (issue 17.2, 17.3): control
characters never reach the terminal raw, long values are quoted shortened with
their length, JSON output stays exact."""

from __future__ import annotations

import json

import pytest

from gwasl.cli import main
from testsupport import EXAMPLE_PATH

ESC_TITLE = "\x1b]0;pwned\x07\x1b[2J\x9b31m title\u202e"
_RAW_CONTROLS = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) != "\n"] + ["\u202e", "\u2028"]


@pytest.fixture()
def hostile_file(tmp_path):
    doc = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    doc["title"] = ESC_TITLE
    ids = {u["id"]: u["id"] for u in doc["units"]}
    ids["G1-L"] = "G1-L\x1b[2J"
    for u in doc["units"]:
        u["id"] = ids[u["id"]]
    for f in doc.get("formations", []):
        if f.get("leader") in ids:
            f["leader"] = ids[f["leader"]]
    p = tmp_path / "hostile.json"
    p.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return p


def _no_raw_controls(text: str) -> bool:
    return not any(c in text for c in _RAW_CONTROLS)


@pytest.mark.parametrize(
    "args",
    [
        ["command", "{f}"],
        ["validate", "{f}"],
        ["los", "{f}", "C2", "H6"],
        ["los-map", "{f}", "C2"],
        ["shift-preview", "{f}", "F4", "J7", "--phase", "MPh", "--phasing", "french"],
    ],
)
def test_text_output_escapes_control_characters(capsys, hostile_file, args):
    """Issue 17.2: an ESC ]0; sequence in the title retitled the terminal, ESC [2J cleared it."""
    main([a.format(f=hostile_file) for a in args])
    out, err = capsys.readouterr()
    assert _no_raw_controls(out) and _no_raw_controls(err)


def test_command_shows_the_escaped_title_and_id(capsys, hostile_file):
    assert main(["command", str(hostile_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m title\\u202e (1916-02-21): command radius")
    assert "G1-L\\x1b[2J" in out


def test_json_output_stays_exact_and_terminal_safe(capsys, hostile_file):
    assert main(["command", str(hostile_file), "--json"]) == 0
    out = capsys.readouterr().out
    assert _no_raw_controls(out)
    assert "G1-L\x1b[2J" in json.loads(out)["radius"]  # the same value, written as \u001b
    assert main(["validate", str(hostile_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


def test_a_long_side_name_is_quoted_shortened_not_in_full(capsys, tmp_path):
    """Issue 17.3: a 10 MB side name was quoted in full three times (30 MB of output)."""
    doc = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    doc["sides"]["S" * 10_000_000] = doc["sides"].pop("french")
    p = tmp_path / "big.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["validate", str(p)]) == 2
    out = capsys.readouterr().out
    assert len(out) < 5000 and "'" + "S" * 40 + "...' (10,000,000 characters)" in out
    assert main(["command", str(p), "--side", "french"]) == 2
    err = capsys.readouterr().err
    assert len(err) < 1000 and err.count("\n") == 1 and "(10,000,000 characters)" in err


def test_an_endless_line_is_cut_with_the_count_left_out(capsys, tmp_path):
    """Issue 17.3: whatever a rule's message quotes, no printed line is endless."""
    doc = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    long_id = "G" * 1_000_000
    for u in doc["units"]:
        if u["id"] == "G1-1":
            u["id"] = long_id
    p = tmp_path / "long-id.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["command", str(p)]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) < 2100
    assert "more characters)" in out
    assert main(["command", str(p), "--json"]) == 0
    assert long_id in json.loads(capsys.readouterr().out)["units"]  # JSON is never cut


def test_a_lone_surrogate_is_a_clean_refusal_not_an_internal_error(capsys, tmp_path):
    """Issue 17.9: a lone surrogate in the title made `command` fail with an internal UnicodeEncodeError."""
    text = EXAMPLE_PATH.read_text(encoding="utf-8").replace('"title": "', '"title": "\\ud800', 1)
    p = tmp_path / "s.json"
    p.write_text(text, encoding="utf-8")
    assert main(["command", str(p)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and err.count("\n") == 1 and "$.title: has a lone surrogate \\ud800" in err
