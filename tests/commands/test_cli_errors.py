"""CONTRACTS 4: bad input to any command (unknown hex, side, phase, position;
missing, broken or garbage files) is one line on stderr and exit 2 -- never a
traceback, never a change to the file."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gwasl.cli import COMMAND_MODULES, main
from testsupport import EXAMPLE_PATH

S = str(EXAMPLE_PATH)

BAD_CALLS = [
    ["los", S, "C2", "ZZ9"],
    ["los", S, "c2", "H6"],
    ["los", S, "C2", "H6", "--from-in", "bogus"],
    ["los", S, "C2"],
    ["los-map", S, "Q99"],
    ["los-map", S, "C2", "--from-in", "attic"],
    ["command", S, "--side", "russian"],
    ["shift-preview", S, "G6", "F4", "--phase", "XPh", "--phasing", "french"],
    ["shift-preview", S, "G6", "F4", "--phase", "MPh", "--phasing", "nobody"],
    ["shift-preview", S, "A1", "F4", "--phase", "MPh", "--phasing", "french"],
    ["shift-preview", S, "G6", "M9", "--phase", "MPh", "--phasing", "french"],
    ["shift-preview", S, "G6", "F4", "--phase", "MPh", "--phasing", "french", "--prior-shifts", "-3"],
    ["validate"],
    ["no-such-command"],
]


def _one_line_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as ei:
        code = main(argv)
        raise SystemExit(code)
    err = capsys.readouterr().err
    assert ei.value.code == 2, (argv, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, (argv, err)
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("argv", BAD_CALLS, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_bad_arguments_give_one_line_and_exit_2(capsys, argv):
    _one_line_exit_2(capsys, argv)


def test_the_message_names_what_is_wrong(capsys):
    assert "ZZ9" in _one_line_exit_2(capsys, ["los", S, "C2", "ZZ9"])
    assert "russian" in _one_line_exit_2(capsys, ["command", S, "--side", "russian"])
    assert "XPh" in _one_line_exit_2(capsys, ["shift-preview", S, "G6", "F4", "--phase", "XPh", "--phasing", "french"])


FILE_COMMANDS = [
    ["los", "{f}", "C2", "H6"],
    ["los-map", "{f}", "C2"],
    ["command", "{f}"],
    ["shift-preview", "{f}", "G6", "F4", "--phase", "MPh", "--phasing", "french"],
]


@pytest.mark.parametrize("cmd", FILE_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(
    "content",
    [None, b"", b"\xff\xfe\x00garbage", b"[" * 5000, b'{"format": "gwasl-scenario/1"}'],
    ids=["missing", "empty", "binary", "deep", "incomplete"],
)
def test_broken_files_give_one_line_and_exit_2(capsys, tmp_path, cmd, content):
    f = tmp_path / "s.json"
    if content is not None:
        f.write_bytes(content)
    _one_line_exit_2(capsys, [a.format(f=f) for a in cmd])
    if content is not None:
        assert f.read_bytes() == content


def test_every_registered_command_has_help(capsys):
    for name in COMMAND_MODULES:
        assert name.startswith("gwasl.commands.")
    with pytest.raises(SystemExit) as ei:
        main(["--help"])
    assert ei.value.code == 0
    out = capsys.readouterr().out
    for cmd in ("validate", "los", "los-map", "command", "shift-preview"):
        assert cmd in out


labels = st.one_of(st.sampled_from(["A1", "C2", "H6", "L8", "M1", "A9", "ZZZ999", "AAAA1", "A0", ""]), st.text(max_size=5))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=labels, b=labels, pos=st.sampled_from(["ground", "deep_trench", "deep_trench_crest", "dugout", "x"]))
def test_fuzzed_los_arguments(capsys, a, b, pos):
    try:
        code = main(["los", S, a, b, "--from-in", pos, "--json"])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code in (0, 2)
    assert "Traceback" not in err
    if code == 0:
        assert set(json.loads(out)) >= {"clear", "hindrances", "blocked_by"}
    else:
        assert len([x for x in err.splitlines() if x.strip()]) == 1
