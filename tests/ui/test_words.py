"""The window speaks in words (issue 10 item 16): no ``(CONTRACTS 3)``, no JSON
paths, no snake_case identifiers where a user reads; the command line accepts
the words the window shows."""

from __future__ import annotations

import doctest
import json
import re

import pytest
from PySide6.QtCore import Qt

from gwasl.commands.los import parse_position
from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.ui import seen as seen_module
from gwasl.ui import words as words_module
from gwasl.ui.words import user_text, where
from testsupport import EXAMPLE_PATH

H = Hex.from_label
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.mark.parametrize("module", [words_module, seen_module])
def test_docstring_examples(module):
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_paths_and_citations_in_words():
    assert where("$.units[3].class") == "unit #4, class"
    assert where("$.map.fortifications[0].ladders[1]") == "fortification #1, ladders"
    assert user_text("blocked by the woods in C3 (CONTRACTS 3)") == "blocked by the woods in C3"
    assert user_text("clear: same hex C2 (CONTRACTS 3; ASLGW 2.1.5, 2.2.2)") == "clear: same hex C2 (ASLGW 2.1.5, 2.2.2)"
    assert user_text("not above it (CONTRACTS 3, ASL A6.2)") == "not above it (ASL A6.2)"
    assert user_text("(ASL A6.2; CONTRACTS 3)") == "(ASL A6.2)"
    assert user_text("unit X is deep_trench_crest, a first_line squad") == "unit X is deep trench crest, a first line squad"
    assert user_text("unit my_unit_id stays") == "unit my_unit_id stays"  # ids from the file are not vocabulary


def test_the_unit_list_and_the_status_bar_use_words(example_user, example_window):
    w, u = example_window, example_user
    cells = [w.unit_model.index(r, c).data() for r in range(w.unit_model.rowCount()) for c in range(w.unit_model.columnCount())]
    assert "first line" in cells and "deep trench crest" in cells and "potential dummy" in cells
    assert not [c for c in cells if isinstance(c, str) and SNAKE.search(c)]
    u.tool("los")
    u.drag(["B4", "D3"])  # blocked by woods; the rule's reason cites CONTRACTS 3
    msg = w.statusBar().currentMessage()
    assert "blocked" in msg and "CONTRACTS" not in msg and not SNAKE.search(msg)
    u.choose(w.palette.from_in, parse_position("deep trench"))
    u.drag(["H6", "H4"])
    msg = w.statusBar().currentMessage()
    assert "(deep trench -> ground)" in msg and "CONTRACTS" not in msg


def test_findings_say_where_in_words(make_window, tmp_path):
    d = json.loads(EXAMPLE_PATH.read_text())
    for u in d["units"]:
        if u["id"] == "G1-5":
            u["in"] = "deep_trench"  # B2 has no deep trench
    p = tmp_path / "s.json"
    p.write_text(json.dumps(d))
    w = make_window(EditorDocument.open(p))
    w.run_validation()
    m = w.findings_model
    rows = [[m.index(r, c).data() for c in range(m.columnCount())] + [m.index(r, 1).data(Qt.ToolTipRole)] for r in range(m.rowCount())]
    assert rows
    text = " ".join(str(x) for row in rows for x in row)
    assert "$." not in text and not SNAKE.search(text)
    assert any(row[3].startswith("unit G1-5") and "deep trench" in row[1] for row in rows)


def test_the_cannot_open_dialog_says_where_in_words(make_window, tmp_path):
    d = json.loads(EXAMPLE_PATH.read_text())
    d["units"][2]["hex"] = "nowhere"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    w = make_window()
    assert not w.open_path(str(bad), ask=False)
    title, text = w.warnings[-1]
    assert title == "Cannot open" and "bad.json" in text and "unit #3, hex" in text and "$." not in text


def test_every_position_word_the_window_shows_works_on_the_command_line(window):
    """`gwasl los --to-in "deep trench"`: the LOS palette's words are the CLI's POS words."""
    for box in (window.palette.from_in, window.palette.to_in, window.position_box):
        for i in range(box.count()):
            assert parse_position(box.itemText(i)) == box.itemData(i)
