"""Which system libraries Qt's X11 (xcb) platform plugin cannot find, by name.

When the plugin fails to load, Qt prints the same sentence whatever is missing ("xcb-cursor0
or libxcb-cursor0 is needed"), which sends a user installing a library they already have.
The dynamic linker knows: ``ldd`` on the plugin lists every library it needs, and "not
found" beside each one that is missing.  This module reads that, and names the Debian/Ubuntu
package of each (``libxcb-icccm.so.4`` comes in ``libxcb-icccm4``).

No Qt is loaded here: the plugin is found on disk, next to the PySide6 package.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["debian_package", "missing_from_ldd", "missing_xcb_libraries", "xcb_plugin"]


def xcb_plugin() -> Path | None:
    """PySide6's ``libqxcb.so`` (None when PySide6 or the plugin is not there)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        p = Path(base) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if p.is_file():
            return p
    return None


def missing_from_ldd(output: str) -> list[str]:
    """The libraries ``ldd`` reports as "not found", each once, in its order."""
    out: list[str] = []
    for line in output.splitlines():
        m = re.match(r"\s*(\S+)\s*=>\s*not found", line)
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships ``soname``, by the distribution's naming rule:
    ``libxcb-icccm.so.4`` -> ``libxcb-icccm4``, ``libxkbcommon-x11.so.0`` -> ``libxkbcommon-x11-0``."""
    m = re.fullmatch(r"(.+?)\.so\.(\d+)(?:\..*)?", soname)
    if not m:
        return soname
    name, version = m.groups()
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def missing_xcb_libraries() -> list[str]:
    """The libraries the xcb plugin needs and the system lacks ([] when none, or when this
    cannot be told: not Linux, no ``ldd``, no plugin)."""
    plugin = xcb_plugin()
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None or not sys.platform.startswith("linux"):
        return []
    try:
        r = subprocess.run([ldd, str(plugin)], check=False, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return missing_from_ldd(r.stdout)


def missing_text(missing: list[str]) -> str:
    """One line naming the missing libraries and the packages that bring them."""
    pkgs = " ".join(dict.fromkeys(debian_package(x) for x in missing))
    return (f"Qt's X11 plugin needs {', '.join(missing)}, not installed on this system "
            f"(on Debian or Ubuntu: apt-get install {pkgs})")
