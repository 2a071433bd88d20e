"""``gwasl render`` (CONTRACTS 4): every bundled scenario draws headless to a PNG
of the asked size that is not blank; bad input is one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from gwasl.cli import main
from testsupport import EXAMPLE_PATH, ROOT, bundled_scenarios


def _distinct_colours(img: QImage, step: int = 7) -> int:
    seen = set()
    for y in range(0, img.height(), step):
        for x in range(0, img.width(), step):
            seen.add(img.pixel(x, y))
    return len(seen)


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.name)
def test_every_bundled_scenario_renders(qapp, tmp_path, path):
    out = tmp_path / "map.png"
    assert main(["render", str(path), "--out", str(out), "--width", "900"]) == 0
    img = QImage(str(out))
    assert not img.isNull()
    assert img.width() == 900 and 0.5 < img.height() / img.width() < 1.2
    # Terrain, counters, grid and labels: a real map has many colours, a blank one has one.
    assert _distinct_colours(img) > 40


def test_default_width_is_twice_the_scene(qapp, tmp_path):
    out = tmp_path / "m.png"
    assert main(["render", str(EXAMPLE_PATH), "--out", str(out)]) == 0
    img = QImage(str(out))
    assert img.width() > 1000


def test_render_headless_in_a_fresh_process_without_display(tmp_path):
    """The command forces the offscreen platform itself: no DISPLAY, no QT_QPA_PLATFORM needed."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    out = tmp_path / "m.png"
    r = subprocess.run(
        [sys.executable, "-m", "gwasl", "render", str(EXAMPLE_PATH), "--out", str(out), "--width", "400"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert QImage(str(out)).width() == 400


@pytest.mark.parametrize(
    "args, message",
    [
        (["--view", "austrians"], "side 'austrians' is not a side"),
        (["--width", "3"], "--width 3"),
    ],
)
def test_bad_arguments_are_one_line_exit_2(capsys, tmp_path, args, message):
    code = main(["render", str(EXAMPLE_PATH), "--out", str(tmp_path / "x.png"), *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_unwritable_target_leaves_nothing_and_says_why(qapp, capsys, tmp_path):
    code = main(["render", str(EXAMPLE_PATH), "--out", str(tmp_path / "no" / "such" / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and "does not exist" in err


def test_broken_scenario_is_a_clean_error(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["render", str(bad), "--out", str(tmp_path / "x.png")]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_render_as_a_side_uses_the_fog_view(qapp, tmp_path):
    """--view SIDE draws only what that side may see: the German view differs from the designer's."""
    a, b = tmp_path / "omni.png", tmp_path / "german.png"
    assert main(["render", str(EXAMPLE_PATH), "--out", str(a), "--width", "500"]) == 0
    assert main(["render", str(EXAMPLE_PATH), "--out", str(b), "--width", "500", "--view", "german"]) == 0
    assert QImage(str(a)) != QImage(str(b))


# -- issue 18.1: --out never destroys what is there ---------------------------------------------
def test_out_never_replaces_a_file_that_is_not_a_png_unless_forced(qapp, capsys, tmp_path):
    """Issue 18.1: `--out scenario.json` turned the scenario into a PNG."""
    scenario = tmp_path / "scenario.json"
    scenario.write_bytes(EXAMPLE_PATH.read_bytes())
    assert main(["render", str(scenario), "--out", str(scenario), "--width", "100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a JSON file, not a PNG picture; it was not replaced (--force replaces it)" in err
    assert scenario.read_bytes() == EXAMPLE_PATH.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenario.json"]
    picture = tmp_path / "map.png"
    assert main(["render", str(EXAMPLE_PATH), "--out", str(picture), "--width", "100"]) == 0
    assert main(["render", str(EXAMPLE_PATH), "--out", str(picture), "--width", "120"]) == 0  # a PNG is replaced
    assert QImage(str(picture)).width() == 120
    assert main(["render", str(scenario), "--out", str(scenario), "--width", "100", "--force"]) == 0
    assert QImage(str(scenario)).width() == 100


def test_out_never_replaces_a_device_a_fifo_or_a_folder(capsys, tmp_path):
    """Issue 18.1: a device node was replaced (as root, `--out /dev/null` would replace /dev/null)."""
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    for out, what in (("/dev/null", "character device"), (str(fifo), "FIFO"), (str(tmp_path), "folder")):
        assert main(["render", str(EXAMPLE_PATH), "--out", out, "--force"]) == 2
        err = capsys.readouterr().err
        assert f"is a {what}" in err and "gwasl never replaces it" in err and err.count("\n") == 1
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.png"]


def test_out_writes_through_a_symlink(qapp, tmp_path):
    real = tmp_path / "pictures" / "map.png"
    real.parent.mkdir()
    link = tmp_path / "map.png"
    link.symlink_to(real)
    assert main(["render", str(EXAMPLE_PATH), "--out", str(link), "--width", "200"]) == 0
    assert link.is_symlink() and QImage(str(real)).width() == 200


# -- issue 17.8: the picture is bounded ----------------------------------------------------------
def test_a_too_wide_picture_is_refused_in_one_line(capsys, tmp_path):
    """Issue 17.8: `render --width 5000` of a 1 x 200 map was killed at 8 GB."""
    doc = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    doc["map"].update(columns=1, rows=200, hexes={}, fortifications=[])
    doc["units"], doc["dummies"], doc["formations"] = [], [], []
    tall = tmp_path / "tall.json"
    tall.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["render", str(tall), "--out", str(tmp_path / "t.png"), "--width", "5000"]) == 2
    err = capsys.readouterr().err
    assert "would be 5,000 x" in err and "at most 132 pixels wide for this map" in err and err.count("\n") == 1
    assert not (tmp_path / "t.png").exists()


def test_the_largest_map_renders_within_the_default_bound(qapp, tmp_path):
    """Issue 17.8: the largest legal map (208 x 200) drew a 390-megapixel picture (3 GB)."""
    from gwasl.ui.render import DEFAULT_MAX_PIXELS

    doc = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    doc["map"].update(columns=208, rows=200)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "big.png"
    assert main(["render", str(big), "--out", str(out)]) == 0
    img = QImage(str(out))
    assert 0.9 * DEFAULT_MAX_PIXELS < img.width() * img.height() <= DEFAULT_MAX_PIXELS


def test_render_of_a_fifo_is_one_line_not_a_hang(tmp_path):
    """Issue 17.4: `render` first tells a game file from a scenario; a FIFO there must not block it."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-m", "gwasl", "render", str(fifo), "--out", str(tmp_path / "x.png")],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "is a FIFO (named pipe), not a regular file" in r.stderr
