"""``--from-in``/``--to-in`` accept the words the editor shows ("deep trench")
as well as the schema's ``in`` values (issue 10 item 16; ASLGW 2.1.5 for the cases)."""

from __future__ import annotations

import json

import pytest

from gwasl.cli import main
from gwasl.commands.los import parse_position, position_words
from gwasl.model.scenario import Position


@pytest.fixture()
def scen_file(tmp_path):
    doc = {
        "format": "gwasl-scenario/1",
        "title": "POS words",
        "date": "1916-02-21",
        "map": {"columns": 6, "rows": 6, "fortifications": [{"kind": "deep_trench", "hexes": ["A5"]}]},
        "sides": {"g": {"nationality": "german"}, "f": {"nationality": "french"}},
        "units": [],
    }
    p = tmp_path / "s.json"
    p.write_text(json.dumps(doc))
    return str(p)


def _json(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_the_editors_words_give_the_schema_values_answer_ASLGW_2_1_5(capsys, scen_file):
    """ASLGW 2.1.5: a unit IN a deep trench is not seen from outside its hex; at the crest it is."""
    by_value = _json(capsys, "los", scen_file, "A1", "A5", "--to-in", "deep_trench", "--json")
    by_words = _json(capsys, "los", scen_file, "A1", "A5", "--to-in", "deep trench", "--json")
    assert by_words == by_value and by_words["clear"] is False
    crest = _json(capsys, "los", scen_file, "A1", "A5", "--to-in", "Deep Trench Crest", "--json")
    assert crest["clear"] is True
    seen = _json(capsys, "los-map", scen_file, "A5", "--from-in", "deep trench", "--json")
    assert seen["visible"] == ["A5"]


@pytest.mark.parametrize("p", list(Position))
def test_every_position_round_trips_through_its_words(p):
    assert parse_position(position_words(p)) is p
    assert parse_position(p.value) is p


def test_an_unknown_position_is_one_line_naming_the_words(capsys, scen_file):
    with pytest.raises(SystemExit) as e:
        main(["los", scen_file, "A1", "A5", "--to-in", "roof"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'roof' is not a position" in err[0] and "'deep trench'" in err[0]
