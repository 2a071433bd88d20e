"""A record nested in another (a roll's modifiers) is written with its kind and
version, and must read back: every journal with a modified roll depends on it."""

from __future__ import annotations

import pytest

from gwasl.engine.events import ENGINE_EVENTS, Drm, Rolled
from gwasl.engine.record import RecordError


def test_a_roll_with_modifiers_reads_back_from_its_json():
    r = Rolled(3, "fire (CA Fire Attacks)", (4,), (Drm("-2 range 2", -2), Drm("+1 open", 1)), 3)
    assert ENGINE_EVENTS.decode(r.to_json()) == r


def test_a_nested_record_of_another_kind_is_refused():
    j = Rolled(0, "x", (4,), (Drm("a", 1),), 5).to_json()
    j["modifiers"][0]["kind"] = "roll"
    with pytest.raises(RecordError, match="expected a drm record"):
        ENGINE_EVENTS.decode(j)


def test_a_nested_record_without_kind_still_reads():
    j = Rolled(0, "x", (4,), (Drm("a", 1),), 5).to_json()
    del j["modifiers"][0]["kind"], j["modifiers"][0]["v"]
    assert ENGINE_EVENTS.decode(j).modifiers == (Drm("a", 1),)


def test_a_bad_field_deep_inside_is_named_by_its_whole_path():
    """The decoder builds the path only when a field is bad (opening a long game decodes
    every event): it must still name the whole way down."""
    j = Rolled(0, "x", (4,), (Drm("a", 1), Drm("b", 2)), 5).to_json()
    j["modifiers"][1]["value"] = "two"
    with pytest.raises(RecordError, match=r"^roll\.modifiers\[1\]\.value: expected an integer, got str$"):
        ENGINE_EVENTS.decode(j)
    j = Rolled(0, "x", (4,), (), 5).to_json()
    j["dice"] = [4, None]
    with pytest.raises(RecordError, match=r"^roll\.dice\[1\]: expected an integer, got null$"):
        ENGINE_EVENTS.decode(j)
