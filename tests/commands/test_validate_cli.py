"""``gwasl validate`` (CONTRACTS 4): exit 0/2, JSON shape, paths in messages,
and never a traceback whatever the input (fuzzed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gwasl.cli import main
from testsupport import EXAMPLE_PATH, ROOT, bundled_scenarios


def run(capsys, *args):
    code = main(["validate", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.name)
def test_bundled_scenarios_are_valid(capsys, path):
    code, out, _ = run(capsys, path, "--json")
    report = json.loads(out)
    assert code == 0 and report["valid"] is True, report["errors"]
    assert set(report) == {"valid", "errors", "warnings"}


def test_human_output_for_a_valid_file(capsys):
    code, out, _ = run(capsys, EXAMPLE_PATH)
    assert code == 0 and "valid" in out.splitlines()[0]


def write(tmp_path, doc) -> str:
    p = tmp_path / "s.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    return str(p)


SEMANTIC_CASES = [
    # (mutation, expected path, words in the message)
    (lambda d: d["units"][1].__setitem__("hex", "M1"), "$.units[1].hex", "outside"),
    (lambda d: d["map"]["fortifications"][0]["hexes"].append("Z9"), "$.map.fortifications[0].hexes[3]", "outside"),
    (lambda d: d["units"][2].__setitem__("id", "G1-1"), "$.units[1].id", "unique"),
    (lambda d: d["units"][1].__setitem__("platoon", "G9"), "$.units[1].platoon", "not defined"),
    (lambda d: d["formations"][0].__setitem__("leader", "G1-1"), "$.formations[0].leader", "not a leader"),
    (lambda d: d["formations"][0].__setitem__("leader", "F1-L"), "$.formations[0].leader", "side"),
    (lambda d: d["formations"][0].__setitem__("leader", "nobody"), "$.formations[0].leader", "not a unit"),
    (lambda d: d["units"][1].__setitem__("side", "british"), "$.units[1].side", "not a side"),
    (lambda d: d["units"][0].__setitem__("rating", "9-5"), "$.units[0].rating", "leader rating"),
    (lambda d: d["units"][0].pop("rating"), "$.units[0].rating", "no rating"),
    (lambda d: d["dummies"][0].__setitem__("side", "russian"), "$.dummies[0].side", "not a side"),
    (lambda d: d["map"]["fortifications"][0]["ladders"].append("A1"), "$.map.fortifications[0].ladders[1]", "not one of"),
]


@pytest.mark.parametrize("mutate,path,words", SEMANTIC_CASES)
def test_semantic_errors_name_the_path(capsys, tmp_path, example_doc, mutate, path, words):
    mutate(example_doc)
    code, out, err = run(capsys, write(tmp_path, example_doc), "--json")
    assert code == 2 and err == ""
    report = json.loads(out)
    assert report["valid"] is False
    assert any(e["path"] == path and words in e["message"] for e in report["errors"]), report["errors"]


def test_human_output_lists_each_error_with_its_path(capsys, tmp_path, example_doc):
    example_doc["units"][1]["hex"] = "M1"
    code, out, _ = run(capsys, write(tmp_path, example_doc))
    assert code == 2
    assert "invalid" in out and "$.units[1].hex" in out and "M1" in out


@pytest.mark.parametrize(
    "content",
    [b"", b"\x00\x01\xff\xfe garbage", b"[" * 10000 + b"]" * 10000, b'{"format": "gwasl-scenario/1", "title": 5}', b"1e999999", b'"just text"'],
)
def test_bad_files_exit_2_with_json(capsys, tmp_path, content):
    p = tmp_path / "bad.json"
    p.write_bytes(content)
    code, out, err = run(capsys, p, "--json")
    assert code == 2 and err == ""
    report = json.loads(out)
    assert report["valid"] is False and report["errors"][0]["message"]


def test_missing_file_and_directory(capsys, tmp_path):
    assert run(capsys, tmp_path / "missing.json")[0] == 2
    assert run(capsys, tmp_path)[0] == 2


def test_validate_never_writes_to_the_file(capsys, tmp_path, example_doc):
    example_doc["units"][1]["hex"] = "M1"
    p = write(tmp_path, example_doc)
    before = Path(p).read_bytes()
    run(capsys, p)
    assert Path(p).read_bytes() == before


def test_as_a_real_process_no_traceback(tmp_path):
    p = tmp_path / "bad.json"
    p.write_bytes(b"\xff" * 50)
    r = subprocess.run([sys.executable, "-m", "gwasl", "validate", str(p)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr
    v = subprocess.run([sys.executable, "-m", "gwasl", "--version"], cwd=ROOT, capture_output=True, text=True)
    assert v.returncode == 0 and v.stdout.startswith("gwasl ")


FUZZ_BYTES = st.one_of(
    st.binary(max_size=300),
    st.builds(lambda b, i, x: b[:i] + x + b[i + len(x):], st.just(EXAMPLE_PATH.read_bytes()), st.integers(0, 2500), st.binary(min_size=1, max_size=8)),
    st.builds(lambda b, i: b[:i], st.just(EXAMPLE_PATH.read_bytes()), st.integers(0, 3000)),
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=FUZZ_BYTES)
def test_fuzzed_files_give_a_clean_result_or_a_clean_error(capsys, tmp_path, data):
    p = tmp_path / "fuzz.json"
    p.write_bytes(data)
    code, out, err = run(capsys, p, "--json")
    assert code in (0, 2) and err == ""
    report = json.loads(out)
    assert report["valid"] is (code == 0)
    for e in report["errors"]:
        assert e["path"].startswith("$") and e["message"]
