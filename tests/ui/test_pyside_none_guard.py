"""The guard in gwasl.ui against PySide6 builds whose void methods drop a reference
to None (CPython 3.11 aborts with "deallocating None" after a few thousand calls)."""

from __future__ import annotations

import subprocess
import sys

from testsupport import ROOT


def test_many_void_calls_do_not_abort_the_interpreter():
    code = (
        "import gwasl.ui\n"
        "from PySide6.QtCore import QPointF\n"
        "p = QPointF()\n"
        "for _ in range(200_000): p.setX(1.0)\n"
        "print('alive')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "alive", r.stderr[-500:]
