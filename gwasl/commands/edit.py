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
    import subprocess

    try:
        r = subprocess.run([sys.executable, "-c", _PROBE], check=False, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    if r.returncode == 0:
        return None
    if "xcb" in r.stderr:  # Qt blames libxcb-cursor0 whatever is missing: the linker names the right ones
        from gwasl.ui.xcb import missing_text, missing_xcb_libraries  # runs ldd, loads no Qt plugin

        missing = missing_xcb_libraries()
        if missing:
            return missing_text(missing)
    lines = [ln.strip() for ln in r.stderr.splitlines() if ln.strip()]
    return lines[0] if lines else f"Qt exited with status {r.returncode}"


def run(args: argparse.Namespace) -> int:
    scenario = load_or_fail(args.file) if args.file else None  # bad files fail before any window
    if not has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return NO_WINDOW
    if not os.environ.get("QT_QPA_PLATFORM"):
        problem = window_problem()
        if problem is not None:
            print(f"gwasl edit: Qt cannot open a window here ({problem}); to draw the map without one run "
                  "`gwasl render FILE --out map.png`, or set QT_QPA_PLATFORM=offscreen", file=sys.stderr)
            return NO_WINDOW
    from gwasl.ui.app import run_editor  # Qt only inside the command (layering)

    return run_editor(args.file, scenario)
