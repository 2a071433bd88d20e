"""The bundled Great War scenarios (JSON files), shipped inside the package.

``BUNDLED`` is the folder as importlib.resources sees it; :func:`bundled_scenario`
gives one file's path, so the command line, the library and tests open the same
files whether gwasl runs from a source checkout or from an installed wheel.

>>> bundled_scenario("bois-des-caures-1916.json").name
'bois-des-caures-1916.json'
"""

from __future__ import annotations

from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["BUNDLED", "bundled_folder", "bundled_scenario", "bundled_scenarios"]

BUNDLED: Traversable = files(__name__)


def _path(entry: Traversable) -> Path:
    # A package installed as plain files (the only way pip installs gwasl) gives
    # real paths; as_file would copy out of a zip, which gwasl never ships as.
    with as_file(entry) as p:
        return Path(p)


def bundled_folder() -> Path:
    """The folder that holds the bundled scenario files."""
    return _path(BUNDLED)


def bundled_scenario(name: str) -> Path:
    """The path of the bundled scenario file ``name`` (``FileNotFoundError`` if there is none)."""
    entry = BUNDLED / name
    if not entry.is_file():
        raise FileNotFoundError(f"no bundled scenario {name!r}")
    return _path(entry)


def bundled_scenarios() -> list[Path]:
    """Every bundled scenario file, sorted by name."""
    return sorted(_path(e) for e in BUNDLED.iterdir() if e.name.endswith(".json"))
