"""gwasl installs as a wheel and runs from anywhere (issue 10 item 12).

Builds a wheel from a copy of the source (with the build backend pyproject.toml
names, in the current venv), installs it with pip into a fresh venv and
runs the installed ``gwasl`` on a bundled scenario from a directory that holds
no source tree, so a table or scenario read from outside the package fails
here.  No network: the build uses the current venv's setuptools (no build
isolation) and the fresh venv borrows the current venv's site-packages for
the dependencies (a plain path entry, so the editable gwasl is not seen).
About 10 s; marked ``slow`` and still run by ``make test``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from testsupport import ROOT

pytestmark = pytest.mark.slow

RUN = {"capture_output": True, "text": True, "timeout": 300}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_NO_INDEX"] = "1"  # nothing may come from a registry
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv with gwasl installed from its wheel."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "gwasl", src / "gwasl", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp / "dist"
    # The PEP 517 build backend pyproject.toml names, called as pip calls it without build isolation
    # ("pip wheel --no-deps --no-build-isolation"), without pip's own start-up.
    backend = tomllib.loads((src / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["build-backend"]
    r = subprocess.run(
        [sys.executable, "-c", f"import sys, {backend} as b; print(b.build_wheel(sys.argv[1]))", str(dist)],
        cwd=src, env=_env(), **RUN,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = dist.glob("gwasl-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "gwasl/resources/terrain.json" in names and "gwasl/scenarios/bois-des-caures-1916.json" in names

    fresh = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    py = fresh / "bin" / "python"
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", str(wheel)], env=_env(), **RUN)
    assert r.returncode == 0, r.stdout + r.stderr
    # Dependencies (PySide6, shapely, numpy...) from the current venv, after the fresh site-packages.
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], **RUN).stdout.strip())
    (site / "_gwasl_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return fresh / "bin"


def test_installed_gwasl_comes_from_the_wheel_not_the_source_tree(installed: Path, tmp_path: Path) -> None:
    r = subprocess.run([str(installed / "python"), "-c", "import gwasl; print(gwasl.__file__)"], cwd=tmp_path, env=_env(), **RUN)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()).is_relative_to(installed.parent), r.stdout
    assert not Path(r.stdout.strip()).is_relative_to(ROOT)


def test_installed_gwasl_validates_a_bundled_scenario_from_another_directory(installed: Path, tmp_path: Path) -> None:
    """`gwasl validate` reads every rules table (terrain, nationalities, weapons, gas, fog...) from the wheel."""
    where = subprocess.run(
        [str(installed / "python"), "-c", "from gwasl.scenarios import bundled_scenarios; print(*bundled_scenarios(), sep='\\n')"],
        cwd=tmp_path, env=_env(), **RUN,
    )
    assert where.returncode == 0, where.stderr
    scenarios = [Path(p) for p in where.stdout.split()]
    assert len(scenarios) >= 2 and all(p.is_relative_to(installed.parent) for p in scenarios)
    for scenario in scenarios:
        r = subprocess.run([str(installed / "gwasl"), "validate", str(scenario), "--json"], cwd=tmp_path, env=_env(), **RUN)
        assert r.returncode == 0, r.stdout + r.stderr
        assert json.loads(r.stdout)["valid"] is True


def test_installed_gwasl_maps_los_from_another_directory(installed: Path, tmp_path: Path) -> None:
    """The LOS kernel's terrain table loads from the installed package too."""
    bois = next(p for p in (installed.parent / "lib").rglob("bois-des-caures-1916.json"))
    r = subprocess.run([str(installed / "gwasl"), "los-map", str(bois), "A1", "--json"], cwd=tmp_path, env=_env(), **RUN)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["from"] == "A1"
