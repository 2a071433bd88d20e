"""The PySide6 desktop layer: the editor window, the map scene, headless rendering.

Only this package imports Qt (docs/architecture.md "Layers").
"""

from __future__ import annotations

import ctypes
import sys


def _guard_none_refcount() -> bool:
    """Work around PySide6 builds whose void methods drop a reference to ``None``.

    Some PySide6 wheels (seen with 6.12 on CPython 3.11) return ``None`` from
    every void method without taking a reference.  Each call then lowers
    None's reference count by one, and after a few thousand calls (one map
    repaint) CPython aborts with "none_dealloc: deallocating None".  CPython
    3.12+ makes None immortal, which hides the bug there.  We probe for it
    once and, if present, give None a reference count it can never exhaust,
    which is what 3.12 does.  Returns True when the guard was applied.
    """
    if sys.version_info >= (3, 12):
        return False
    from PySide6.QtCore import QPointF

    probe = QPointF()
    before = sys.getrefcount(None)
    for _ in range(64):
        probe.setX(1.0)
    if sys.getrefcount(None) >= before - 32:
        return False
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 48
    return True


NONE_GUARD_APPLIED = _guard_none_refcount()
