"""Scenario files (CONTRACTS 2): every schema-valid file loads, every file gwasl
writes is schema-valid, load-save-load is the identity, and bad input gives a
clean error naming the path -- checked against jsonschema on mutated files."""

from __future__ import annotations

import copy
import datetime as dt
import json
import os

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import (
    HiddenStatus,
    LeaderRating,
    Position,
    Terrain,
    UnitKind,
)
from gwasl.model.scenario_io import (
    ScenarioFormatError,
    ScenarioReadError,
    ScenarioWriteError,
    load_scenario,
    open_scenario,
    parse_scenario,
    save_scenario,
    scenario_from_text,
    scenario_to_dict,
)
from testsupport import EXAMPLE_PATH, bundled_scenarios, scenario_validator


@pytest.fixture(scope="module")
def validator():
    """The schema's validator, its local references inlined (testsupport.inline_local_refs;
    test_the_inlined_schema_gives_the_schemas_verdicts checks it against the schema as written)."""
    return scenario_validator()


def _errors(v, doc) -> list[tuple]:
    return sorted((e.validator, list(e.absolute_path), e.message) for e in v.iter_errors(doc))


def test_the_inlined_schema_gives_the_schemas_verdicts(schema, validator):
    """The validator the fuzz below uses says what the schema as written says: the same errors, at
    the same places, for every bundled scenario and for documents broken at every hex label and
    terrain (the inlined references), and wherever a reference had a sibling (a default)."""
    plain = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    assert "$ref" not in json.dumps(validator.schema)
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in bundled_scenarios()]
    example = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    for bad in ("a1", "ZZZZ1", "A0", 7, None, "woodz", ""):
        doc = copy.deepcopy(example)
        doc["map"]["default_terrain"] = bad
        doc["map"]["hexes"][str(bad)] = {"terrain": bad}
        doc["map"]["fortifications"][0]["hexes"] = [bad]
        doc["map"]["fortifications"][0]["ladders"] = [bad]
        doc["units"][0]["hex"] = bad
        doc["dummies"][0]["hex"] = bad
        docs.append(doc)
    for doc in docs:
        assert _errors(validator, doc) == _errors(plain, doc)
    assert sum(bool(_errors(plain, d)) for d in docs) == 7


def test_shared_example_loads_into_typed_objects():
    s = load_scenario(EXAMPLE_PATH)
    assert s.title.startswith("Bois des Caures")
    assert s.date == dt.date(1916, 2, 21) and s.winter is True
    assert (s.map.columns, s.map.rows) == (12, 8)
    assert s.map.terrain_at(Hex.from_label("C3")) is Terrain.WOODS
    assert s.map.terrain_at(Hex.from_label("A1")) is Terrain.OPEN
    assert s.map.level_at(Hex.from_label("K6")) == 1
    assert s.map.building_at(Hex.from_label("H2")) == "ferme"
    dt_ = s.map.fortifications[0]
    assert dt_.kind.value == "deep_trench" and dt_.ladders == (Hex.from_label("H6"),)
    leader = s.unit("G1-L")
    assert leader.kind is UnitKind.LEADER and leader.rating == LeaderRating(9, -1)
    assert s.unit("F1-1").position is Position.DEEP_TRENCH_CREST
    assert s.unit("F1-2").hidden is HiddenStatus.HIP
    assert len(s.members("G1")) == 7
    assert [d.counters for d in s.dummies] == [3, 2, None, None]


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.name)
def test_bundled_scenarios_load_and_round_trip(path, validator, tmp_path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    validator.validate(doc)
    s = load_scenario(path)
    out = tmp_path / "out.json"
    save_scenario(s, out)
    validator.validate(json.loads(out.read_text(encoding="utf-8")))
    assert load_scenario(out) == s


def test_unknown_fields_survive_a_round_trip(example_doc, tmp_path):
    example_doc["designer_notes"] = {"author": "x", "tags": [1, 2]}
    example_doc["units"][0]["counter_art"] = "g-leader.png"
    example_doc["map"]["hexes"]["C3"]["outline"] = [[0, 0], [0.5, 0], [0, 0.5]]
    s = parse_scenario(example_doc)
    again = scenario_to_dict(s)
    assert again["designer_notes"] == {"author": "x", "tags": [1, 2]}
    assert again["units"][0]["counter_art"] == "g-leader.png"
    assert again["map"]["hexes"]["C3"]["outline"] == [[0, 0], [0.5, 0], [0, 0.5]]


# --- Mutation fuzzing against jsonschema ----------------------------------------
JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "A1", "ZZZ999", "K10", "AAAA1", "a1", "A0", "1916-02-31", "1916-13-01", "1916-02-21", "9-1", "6+1", "11-1", "8-4",
                     "woods", "open", "deep_trench", "german", "french", "squad", "leader", "hip", "platoon", "dummy_stack", "gwasl-scenario/2"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=8),
)
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def _paths(doc) -> list[tuple]:
    """Every path into ``doc``, depth first, each before the paths under it (a list built by
    plain recursion: nested generators cost a step per level for every path)."""
    out: list[tuple] = []

    def walk(v, prefix: tuple) -> None:
        out.append(prefix)
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, prefix + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, prefix + (i,))

    walk(doc, ())
    return out


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


# Built once, not for every example (hypothesis checks each new strategy); the same draws.
_EXAMPLE_TEXT = EXAMPLE_PATH.read_text(encoding="utf-8")
#: where every example makes its first change: a path of the example as read
_FIRST_PATH = st.sampled_from(_paths(json.loads(_EXAMPLE_TEXT)))
_OPS = st.sampled_from(["replace", "delete", "add", "dup_list_item"])
_ADDED_KEYS = st.sampled_from(["terrain", "level", "counters", "hidden", "in", "rating", "x", "kind", "owner", "ladders", "B7", "A9"])


@st.composite
def mutated_docs(draw):
    doc = json.loads(_EXAMPLE_TEXT)
    for step in range(draw(st.integers(1, 4))):
        path = draw(_FIRST_PATH if step == 0 else st.sampled_from(_paths(doc)))
        op = draw(_OPS)
        if not path:
            if op == "replace" and draw(st.booleans()):
                doc = draw(JSON_VALUES)
            continue
        parent = _get(doc, path[:-1])
        key = path[-1]
        if op == "replace":
            parent[key] = draw(JSON_VALUES)
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(_ADDED_KEYS)] = draw(JSON_VALUES)
        elif op == "dup_list_item" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        if not isinstance(doc, (dict, list)):
            break
    return doc


@pytest.mark.slow  # about a minute; make test runs it (no -m filter)
@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_docs())
def test_loader_accepts_exactly_what_the_schema_accepts(validator, doc):
    schema_ok = validator.is_valid(doc)
    try:
        s = parse_scenario(doc, "fuzz.json")
    except ScenarioFormatError as e:
        assert not schema_ok, f"schema accepts but gwasl rejects: {e}"
        assert e.findings and all(f.path.startswith("$") and f.message for f in e.findings)
        return
    assert schema_ok, "gwasl accepts a file the schema rejects"
    written = scenario_to_dict(s)
    validator.validate(written)
    assert parse_scenario(written) == s


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_give_a_clean_error(tmp_path_factory, data):
    p = tmp_path_factory.mktemp("bytes") / "x.json"
    p.write_bytes(data)
    with pytest.raises((ScenarioReadError, ScenarioFormatError)):
        load_scenario(p)


@pytest.mark.parametrize(
    "text,needle",
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("{", "not valid JSON"),
        ("[" * 10000 + "]" * 10000, "nested too deeply"),
        ('{"a":' * 5000 + "1" + "}" * 5000, "nested too deeply"),
        ("NaN", "not valid JSON"),
        ("1" * 5000, "not valid JSON"),
        ("[]", "must be an object"),
        ('{"format": "gwasl-scenario/2"}', "newer gwasl"),
    ],
)
def test_broken_text_gets_a_clear_message(text, needle):
    with pytest.raises((ScenarioReadError, ScenarioFormatError)) as ei:
        scenario_from_text(text, "broken.json")
    assert needle in str(ei.value) or any(needle in f.message for f in getattr(ei.value, "findings", []))


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ScenarioReadError, match="no such file"):
        load_scenario(tmp_path / "nope.json")
    with pytest.raises(ScenarioReadError, match="folder"):
        load_scenario(tmp_path)


@pytest.mark.parametrize(
    "mutate,path,needle",
    [
        (lambda d: d["map"].__setitem__("columns", 1e400), "$.map.columns", "no JSON form"),
        (lambda d: d["map"].__setitem__("columns", 8.5), "$.map.columns", "whole number"),
        (lambda d: d["map"].__setitem__("columns", 10**30), "$.map.columns", "between 1 and 208"),
        (lambda d: d["map"].__setitem__("rows", "8"), "$.map.rows", "whole number"),
        (lambda d: d["units"][0].__setitem__("hex", "c2"), "$.units[0].hex", "hex label"),
        (lambda d: d["units"][0].__setitem__("rating", "11-1"), "$.units[0].rating", "leader rating"),
        (lambda d: d.__setitem__("date", "1916-02-30"), "$.date", "calendar date"),
        (lambda d: d["units"][1].pop("side"), "$.units[1]", "'side'"),
        (lambda d: d["map"]["hexes"]["C3"].__setitem__("terrain", "jungle"), "$.map.hexes.C3.terrain", "one of"),
        (lambda d: d["sides"].pop("french"), "$.sides", "at least two"),
    ],
)
def test_format_errors_name_the_json_path(example_doc, mutate, path, needle):
    mutate(example_doc)
    with pytest.raises(ScenarioFormatError) as ei:
        parse_scenario(example_doc, "x.json")
    assert any(f.path == path and needle in f.message for f in ei.value.findings), ei.value.findings


def test_save_failure_leaves_the_original_untouched(tmp_path, monkeypatch):
    target = tmp_path / "s.json"
    original = EXAMPLE_PATH.read_bytes()
    target.write_bytes(original)
    s = load_scenario(target)

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(ScenarioWriteError, match="unchanged"):
        save_scenario(s, target)
    assert target.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temp file left behind


def test_save_into_a_missing_folder_is_a_clean_error(tmp_path):
    s = load_scenario(EXAMPLE_PATH)
    with pytest.raises(ScenarioWriteError):
        save_scenario(s, tmp_path / "no" / "such" / "dir" / "s.json")


# -- issue 17.10: nothing is read that could not be written back ------------------------------
def test_duplicate_keys_are_refused_with_their_path(example_doc):
    """Issue 17.10: a key given twice was accepted silently (the last won)."""
    text = json.dumps(example_doc).replace('"title":', '"title": "first", "title":', 1)
    text = text.replace('"nationality": "french"', '"nationality": "french", "nationality": "german"', 1)
    with pytest.raises(ScenarioFormatError) as ei:
        scenario_from_text(text, "dup.json")
    found = [(f.path, f.message) for f in ei.value.findings]
    assert ("$", "gives the key 'title' more than once; each key may appear once in an object") in found
    assert any(p == "$.sides.french" and "'nationality' more than once" in m for p, m in found)
    assert str(ei.value).startswith("dup.json: $: gives the key 'title' more than once")


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1" + "0" * 400 + ".5"])
def test_a_number_too_large_for_json_is_refused_with_its_path(example_doc, literal):
    """Issue 17.10, 18.4: 1e400 in an extra field read as infinity and saved as Infinity,
    a file gwasl could not open again."""
    example_doc["units"][2]["counter_art"] = {"scale": 12345}
    text = json.dumps(example_doc).replace("12345", literal)
    with pytest.raises(ScenarioFormatError) as ei:
        scenario_from_text(text, "inf.json")
    (f,) = ei.value.findings
    assert f.path == "$.units[2].counter_art.scale" and "no JSON form" in f.message
    assert literal[:20] in f.message


def test_a_lone_surrogate_is_refused_with_its_path(example_doc):
    """Issue 17.9/17.10: a lone surrogate in the title made `command` fail inside."""
    text = json.dumps(example_doc).replace('"title": "', '"title": "\\ud800', 1)
    with pytest.raises(ScenarioFormatError) as ei:
        scenario_from_text(text, "s.json")
    assert [(f.path, f.message) for f in ei.value.findings] == [("$.title", "has a lone surrogate \\ud800, which is not a character")]


def test_many_unwritable_values_are_counted_not_listed(example_doc):
    example_doc["junk"] = [float("inf")] * 10_000
    with pytest.raises(ScenarioFormatError) as ei:
        parse_scenario(example_doc, "x.json")
    assert len(ei.value.findings) == 51 and ei.value.findings[-1].message == "and 9,950 more values that cannot be written back"


def test_long_values_and_keys_are_quoted_shortened_with_their_length(example_doc):
    """Issue 17.3: a 10 MB value was quoted in full."""
    big = "S" * 10_000_000
    example_doc["sides"][big] = example_doc["sides"].pop("french")
    example_doc["sides"][big]["nationality"] = "x" * 1_000_000
    example_doc["date"] = "1" * 1_000_000
    with pytest.raises(ScenarioFormatError) as ei:
        parse_scenario(example_doc, "x.json")
    assert sum(len(str(f)) for f in ei.value.findings) < 2000
    shown = {f.path: f.message for f in ei.value.findings}
    key = '$.sides["' + "S" * 40 + '..." (10,000,000 characters)]'
    assert shown[key + ".nationality"].endswith("not the text '" + "x" * 40 + "...' (1,000,000 characters)")
    assert "(1,000,000 characters)" in shown["$.date"]


# -- issue 17.4: only regular files -----------------------------------------------------------
def test_a_fifo_or_a_device_is_refused_in_one_line(tmp_path):
    fifo = tmp_path / "s.json"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioReadError, match=r"s\.json: is a FIFO \(named pipe\), not a regular file"):
        load_scenario(fifo)
    with pytest.raises(ScenarioReadError, match="/dev/zero: is a character device"):
        load_scenario("/dev/zero")


# -- issue 18: saves ---------------------------------------------------------------------------
def test_a_value_that_cannot_be_written_is_never_saved(tmp_path):
    """Issue 18.4: an extra field holding 1e400 was saved as `Infinity` and the file no longer opened."""
    from dataclasses import replace
    from types import MappingProxyType

    target = tmp_path / "s.json"
    target.write_bytes(EXAMPLE_PATH.read_bytes())
    s = load_scenario(target)
    bad = replace(s, extra=MappingProxyType({"weights": [1.0, float("inf")]}))
    with pytest.raises(ScenarioWriteError, match=r"\$\.weights\[1\]: is the number inf.*unchanged"):
        save_scenario(bad, target)
    assert target.read_bytes() == EXAMPLE_PATH.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_a_save_that_would_not_read_back_is_refused(tmp_path):
    """Issue 18.4: the saved text is read back before it replaces anything; a file
    gwasl would refuse to open (here: over the 64 MB limit) never replaces the old one."""
    from dataclasses import replace
    from types import MappingProxyType

    target = tmp_path / "s.json"
    target.write_bytes(EXAMPLE_PATH.read_bytes())
    s = load_scenario(target)
    huge = replace(s, extra=MappingProxyType({"notes": "x" * (64 * 1024 * 1024)}))
    with pytest.raises(ScenarioWriteError, match="would not open again.*at most 67,108,864 bytes"):
        save_scenario(huge, target)
    assert target.read_bytes() == EXAMPLE_PATH.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_an_extra_field_named_like_a_known_field_is_never_written(tmp_path):
    """Issue 18.4: written, it would change the unit on reading back."""
    from dataclasses import replace
    from types import MappingProxyType

    s = load_scenario(EXAMPLE_PATH)
    u = replace(s.units[0], extra=MappingProxyType({"hex": "A1"}))
    target = tmp_path / "s.json"
    with pytest.raises(ScenarioWriteError, match="unit 'G1-L': the extra field 'hex' has the name of one of the format's own fields"):
        save_scenario(replace(s, units=(u, *s.units[1:])), target)
    assert not target.exists()


def test_save_keeps_a_symlink_and_reports_identity(tmp_path):
    real = tmp_path / "real.json"
    real.write_bytes(EXAMPLE_PATH.read_bytes())
    link = tmp_path / "link.json"
    link.symlink_to(real)
    s, ident = open_scenario(link)
    saved = save_scenario(s, link, expect=ident)
    assert link.is_symlink() and saved.path == real and saved.identity == open_scenario(real)[1]


def test_save_refuses_a_read_only_or_changed_file(tmp_path):
    from gwasl.model.scenario_io import ScenarioChangedError, ScenarioReadOnlyError

    target = tmp_path / "s.json"
    target.write_bytes(EXAMPLE_PATH.read_bytes())
    s, ident = open_scenario(target)
    target.chmod(0o444)
    with pytest.raises(ScenarioReadOnlyError, match="read-only"):
        save_scenario(s, target)
    save_scenario(s, target, allow_read_only=True)
    target.chmod(0o644)
    target.write_text(target.read_text().replace("Bois des Caures", "Bois des Caures (edited elsewhere)"))
    with pytest.raises(ScenarioChangedError, match="changed on disk"):
        save_scenario(s, target, expect=ident)
    assert "edited elsewhere" in target.read_text()
