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
    parse_scenario,
    save_scenario,
    scenario_from_text,
    scenario_to_dict,
)
from testsupport import EXAMPLE_PATH, bundled_scenarios


@pytest.fixture(scope="module")
def validator(schema):
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


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


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


@st.composite
def mutated_docs(draw):
    doc = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "delete", "add", "dup_list_item"]))
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
            parent[
                draw(
                    st.sampled_from(
                        ["terrain", "level", "counters", "hidden", "in", "rating", "x", "kind", "owner", "ladders", "B7", "A9"]
                    )
                )
            ] = draw(JSON_VALUES)
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
        (lambda d: d["map"].__setitem__("columns", 1e400), "$.map.columns", "whole number"),
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
