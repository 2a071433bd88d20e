"""numpy for the LOS modules, imported when they first compute with it (issue 23 item 8).

``gwasl.rules.los`` is one of the scenario check modules, so every command and window that
validates a scenario (opening a game does) imports it; numpy (about 0.1 s) is needed only
once an LOS is traced.  Each LOS module binds its ``np`` to a :class:`LazyNumpy`, which
imports numpy on its first attribute and then rebinds that module's ``np`` to numpy itself,
so later calls pay nothing.  Type checkers see ``import numpy as np`` (``TYPE_CHECKING``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["LazyNumpy"]


class LazyNumpy:
    """Stands for numpy in the module whose globals are ``namespace`` until first used."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace

    def __getattr__(self, name: str) -> Any:
        import numpy

        self._namespace["np"] = numpy
        return getattr(numpy, name)
