"""``gwasl edit [FILE]``: open the scenario editor window.

On a machine with no display (no DISPLAY or WAYLAND_DISPLAY and no
QT_QPA_PLATFORM chosen) Qt would abort with a plugin traceback; instead we
say so in one line on stderr, point to the headless alternatives, and exit
with status 2: no window opened, so a script or ``make run`` must see a failure.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from gwasl.commands.common import load_or_fail

NO_DISPLAY = (
    "gwasl edit: no display found (DISPLAY/WAYLAND_DISPLAY unset); to draw the map without one run "
    "`gwasl render FILE --out map.png`, or set QT_QPA_PLATFORM=offscreen"
)

# Exit status when no window could open: the editor did not run (2, as for every other
# failure of the command line).
NO_WINDOW = 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("edit", help="open the scenario editor", description="Open the scenario editor window on FILE (or on a new scenario).")
    p.add_argument("file", nargs="?", help="scenario JSON file (omit for a new scenario)")
    p.set_defaults(func=run)


def has_display(env: dict[str, str] | None = None) -> bool:
    """True when Qt can open a window: a display server, or a platform chosen explicitly."""
    env = dict(os.environ) if env is None else env
    if env.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    return True  # Windows and macOS always have their native platform


_PROBE = "from PySide6.QtWidgets import QApplication; QApplication(['gwasl'])"


def window_problem() -> str | None:
    """Why Qt cannot open a window here (display unreachable, platform plugin missing), or None.

    Qt aborts the whole process when its platform plugin fails, so we ask a
    short-lived child process first and report its first line instead.
    """
    return start_window_probe()()


def start_window_probe() -> Callable[[], str | None]:
    """Start asking a short-lived child whether Qt can open a window here, without waiting:
    returns the function that waits for the answer (:func:`window_problem`'s), so that the
    command loads its window's modules while the child starts Qt (about 0.5-1 s each)."""
    import subprocess

    try:
        child = subprocess.Popen([sys.executable, "-c", _PROBE], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
    except OSError as e:
        failed = str(e)
        return lambda: failed

    def answer() -> str | None:
        try:
            _, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired as e:
            child.kill()
            child.communicate()
            return str(e)
        return _problem_of(child.returncode, err)

    return answer


def _problem_of(returncode: int, stderr: str) -> str | None:
    if returncode == 0:
        return None
    if "xcb" in stderr:  # Qt blames libxcb-cursor0 whatever is missing: the linker names the right ones
        from gwasl.ui.xcb import missing_text, missing_xcb_libraries  # runs ldd, loads no Qt plugin

        missing = missing_xcb_libraries()
        if missing:
            return missing_text(missing)
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    return lines[0] if lines else f"Qt exited with status {returncode}"


def run(args: argparse.Namespace) -> int:
    scenario = load_or_fail(args.file) if args.file else None  # bad files fail before any window
    if not has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return NO_WINDOW
    probe = None if os.environ.get("QT_QPA_PLATFORM") else start_window_probe()
    from gwasl.ui.app import run_editor  # Qt only inside the command (layering); loads while the probe runs

    problem = probe() if probe is not None else None
    if problem is not None:
        print(f"gwasl edit: Qt cannot open a window here ({problem}); to draw the map without one run "
              "`gwasl render FILE --out map.png`, or set QT_QPA_PLATFORM=offscreen", file=sys.stderr)
        return NO_WINDOW

    return run_editor(args.file, scenario)
