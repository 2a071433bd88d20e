"""``gwasl render GAME`` (CONTRACTS 5): the current position as a viewer sees it, and
identical pictures for games that differ only in facts hidden from that viewer."""

from __future__ import annotations

import json

from gwasl.cli import main
from testsupport import EXAMPLE_PATH


def _game(tmp_path, capsys, source, name):
    out = tmp_path / name
    assert main(["game", "new", str(source), "--out", str(out), "--seed", "5", "--secret", "french"]) == 0
    capsys.readouterr()
    return out


def test_render_a_game_as_the_player_sees_it(tmp_path, capsys):
    g = _game(tmp_path, capsys, EXAMPLE_PATH, "g.game")
    png = tmp_path / "g.png"
    assert main(["render", str(g), "--out", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hidden_differences_render_identically_for_the_player(tmp_path, capsys):
    doc = json.loads(EXAMPLE_PATH.read_text())
    for u in doc["units"]:
        if u["side"] == "french" and u.get("hidden") in ("concealed", "potential_dummy"):
            u["id"] = u["id"] + "-other"  # who is under the "?" differs; the picture may not
    other = tmp_path / "other.json"
    other.write_text(json.dumps(doc))
    pngs = []
    for i, src in enumerate((EXAMPLE_PATH, other)):
        g = _game(tmp_path, capsys, src, f"g{i}.game")
        png = tmp_path / f"g{i}.png"
        assert main(["render", str(g), "--out", str(png)]) == 0
        pngs.append(png.read_bytes())
    assert pngs[0] == pngs[1]


def test_unknown_viewer_is_one_line(tmp_path, capsys):
    g = _game(tmp_path, capsys, EXAMPLE_PATH, "g.game")
    assert main(["render", str(g), "--out", str(tmp_path / "x.png"), "--view", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "unknown viewer" in err and err.count("\n") == 1 and not (tmp_path / "x.png").exists()
