"""Every command, and the editor's open, on hostile and broken files (issue 17):
each run is a child process under a memory limit (setrlimit: 1.5 GB of address
space beyond the warm server's) and a time limit, and must give a clean result
or one clean line -- never a hang, a crash, an internal error, a traceback or
a raw control character.  The corpus holds the cases of issue 17 (see
benchmarks/hostile.py); the fuzzer mutates the example in hostile ways."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.hostile import Runner, assert_clean, commands_for, example_doc, hostile_corpus

CORPUS_NAMES = [
    "escape-sequences", "long-side-name", "units-on-one-hex", "repeated-fortification-hex", "outlines-2000-vertices",
    "outlines-at-the-limit", "largest-map", "one-by-200-map", "unknown-platoon", "lone-surrogate", "duplicate-keys",
    "number-1e400", "empty", "not-json", "nested-deeply", "huge-integer", "nan", "invalid-utf8", "nul-bytes", "bom",
    "schema-types", "fifo", "dev-zero", "folder", "missing", "over-64MB",
]
WALL_SECONDS = 60.0  # per run; a loaded CI machine is slow, an endless loop is endless


@pytest.fixture(scope="module")
def runner():
    with Runner(wall=WALL_SECONDS) as r:
        yield r


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return hostile_corpus(tmp_path_factory.mktemp("corpus"))


def _cases():
    for name in CORPUS_NAMES:
        for i, argv in enumerate(commands_for(Path(name), Path("out.png"))):
            yield pytest.param(name, i, id=f"{name}-{'-'.join(a for a in argv if a.startswith('-') or a == argv[0])}")


@pytest.mark.parametrize("name, i", list(_cases()))
def test_every_command_on_every_hostile_file(runner, corpus, tmp_path, name, i):
    argv = commands_for(corpus[name], tmp_path / "out.png")[i]  # a fresh folder: `game new` never finds its file there
    o = runner.run(argv)
    assert_clean(o)
    # What the issue saw, now refused or answered:
    if name in ("fifo", "dev-zero", "folder", "over-64MB") and argv[0] not in ("validate",):
        assert "not a regular file" in o.stderr or "at most" in o.stderr
    if name in ("duplicate-keys", "number-1e400", "lone-surrogate") and argv[0] != "validate":
        assert o.code == 2 and ("$." in o.stderr or "$:" in o.stderr)
    if name == "unknown-platoon" and argv[0] == "command":  # issue 17.9: answered (each unit as in no platoon)
        assert o.code == 0 and "names no formation" in o.stdout


def test_validate_names_each_issue_case(runner, corpus):
    """Issue 17.10 and 17.7: the refusal names the file and the field path."""
    expect = {
        "duplicate-keys": "$: gives the key 'title' more than once",
        "number-1e400": "$.designer.weight: is the number 1e400",
        "lone-surrogate": "$.title: has a lone surrogate \\ud800",
        "outlines-2000-vertices": "outline has 2,000 points; at most 256 are allowed",
        "over-64MB": "gwasl reads files of at most 67,108,864 bytes",
        "fifo": "is a FIFO (named pipe), not a regular file",
        "dev-zero": "is a character device, not a regular file",
    }
    for name, needle in expect.items():
        o = runner.run(["validate", str(corpus[name])])
        assert o.code == 2 and needle in o.stdout, (name, o.stdout[:500])


# -- the fuzzer ------------------------------------------------------------------------------------
_HOSTILE_TEXT = st.text(st.characters(exclude_categories=()), max_size=40) | st.sampled_from(
    ["\x1b[2J", "\x1b]0;x\x07", "\u202e", "\ud800", "<img src='/dev/zero'>", "S" * 100_000, "", "A1" * 3, "ZZZ999"]
)
_HOSTILE_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False) | _HOSTILE_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_HOSTILE_TEXT, inner, max_size=4),
    max_leaves=8,
)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


_EXAMPLE = example_doc()
_PATHS = [p for p in _paths(_EXAMPLE) if p]


def _set(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


@st.composite
def hostile_texts(draw):
    doc = json.loads(json.dumps(_EXAMPLE))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_PATHS))
        with contextlib.suppress(KeyError, IndexError, TypeError):  # an earlier mutation replaced the parent
            _set(doc, path, draw(_HOSTILE_VALUE))
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()))
    how = draw(st.sampled_from(["as is", "1e400", "duplicate", "cut", "flip"]))
    if how == "1e400":
        text = text.replace(": 1", ": 1e400", 1)
    elif how == "duplicate":
        text = text.replace('"units":', '"units": [], "units":', 1)
    elif how == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "flip":
        i = draw(st.integers(0, len(text) - 1))
        text = text[:i] + draw(st.sampled_from(["\x00", "}", '"', "\\", "\x1b", "\ud800"])) + text[i + 1:]
    return text


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=hostile_texts())
def test_fuzzed_files_give_a_result_or_one_clean_line(runner, tmp_path, text):
    f = tmp_path / "fuzzed.json"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    for argv in (["validate", str(f), "--json"], ["command", str(f)], ["los-map", str(f), "C2"], ["editor-open", str(f)]):
        assert_clean(runner.run(argv))


def test_twenty_thousand_squads_on_one_hex(runner, tmp_path):
    """Issue 17.5: `command` with 20,000 squads on one hex took 54 s (and 100,000 grew to 6 GB);
    render drew the stack through a pixmap of its bounding box (20,000: no picture at all, and a
    flood of Qt warnings).  Each now answers within the runner's limits, in one clean result."""
    doc = example_doc()
    doc["units"].extend({"id": f"X{i}", "side": "german", "kind": "squad", "class": "first_line", "hex": "C2"} for i in range(20_000))
    f = tmp_path / "twenty-thousand.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    for argv in (["command", str(f), "--json"], ["render", str(f), "--out", str(tmp_path / "s.png")], ["editor-open", str(f)]):
        o = runner.run(argv)
        assert_clean(o)
        assert o.code == 0 and not o.stderr, (argv[0], o.stderr[:300])
