"""``gwasl edit`` and ``make run`` on a machine with no display: one clear line
naming the headless alternatives on stderr, a non-zero exit (no editor ran),
no Qt plugin traceback."""

from __future__ import annotations

import os
import subprocess
import sys

from gwasl.commands.edit import NO_DISPLAY, NO_WINDOW, has_display
from testsupport import EXAMPLE_PATH, ROOT


def _headless_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}


def test_no_display_prints_one_line_and_exits_non_zero():
    r = subprocess.run([sys.executable, "-m", "gwasl", "edit", str(EXAMPLE_PATH)], cwd=ROOT, env=_headless_env(), capture_output=True, text=True, timeout=60)
    assert r.returncode == NO_WINDOW != 0
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert lines == [NO_DISPLAY]
    assert "gwasl render FILE --out map.png" in lines[0] and "QT_QPA_PLATFORM=offscreen" in lines[0]


def test_a_broken_file_fails_before_any_window(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "gwasl", "edit", str(bad)], cwd=ROOT, env=_headless_env(), capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "bad.json" in r.stderr


def test_display_detection():
    assert has_display({"QT_QPA_PLATFORM": "offscreen"})
    if sys.platform.startswith("linux"):
        assert not has_display({})
        assert has_display({"DISPLAY": ":0"})
        assert has_display({"WAYLAND_DISPLAY": "wayland-0"})


def test_an_unreachable_display_is_one_line_too():
    """DISPLAY set but no X server (or a missing Qt plugin): Qt would abort; we say why in one line."""
    env = _headless_env() | {"DISPLAY": ":97"}
    r = subprocess.run([sys.executable, "-m", "gwasl", "edit", str(EXAMPLE_PATH)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == NO_WINDOW != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gwasl edit: Qt cannot open a window here") and "gwasl render FILE --out map.png" in lines[0]


def test_play_on_an_unreachable_display_is_one_line_too():
    """``gwasl play`` probes Qt in a child while it loads its window's modules: an
    unreachable display is still one line and exit 2, with no Qt abort."""
    env = _headless_env() | {"DISPLAY": ":97"}
    r = subprocess.run([sys.executable, "-m", "gwasl", "play"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gwasl play: ") and "Traceback" not in r.stderr, r.stderr
