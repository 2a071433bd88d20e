"""Start-up (issue 26): command to visible window, fresh processes, median of 5; prints
figures, never asserts.

1. ``gwasl edit`` (an empty scenario).
2. ``gwasl play GAME`` (a Great War game just started from the bundled Bois des Caures).
3. ``gwasl play GAME`` on a Combined Arms game.
Reference, in the same run: ``python -c`` importing PySide6.QtWidgets and showing a bare
QWidget, so the ratio shows what gwasl adds to Qt's own start.  Target: at most 2 s idle.

Each process runs offscreen with ``GWASL_STARTUP_PROBE`` set: the window prints the time
when the event loop first turns (shown and painted) and quits; the figure is that time
less the time just before the process was started.  Beside it: the CPU time (user + sys)
of the whole process (it quits once shown), which other programs' load changes less, and
the load average during the run.  Also printed: the modules a
``gwasl play`` start imports that the issue names as heavy (numpy, shapely), so a
deferral that broke shows.

    python -m benchmarks.startup [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = ("import time, PySide6.QtWidgets as W, PySide6.QtCore as C\n"
        "app = W.QApplication([])\n"
        "w = W.QWidget(); w.resize(1300, 850); w.show()\n"
        "C.QTimer.singleShot(0, lambda: (print(f'visible {time.time():.6f}', flush=True), app.quit()))\n"
        "app.exec()\n")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["GWASL_STARTUP_PROBE"] = "1"
    env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="gwasl-startup-")  # no recent files or layouts of the user's
    return env


def once(cmd: list[str]) -> tuple[float, float]:
    """Seconds from start to the window shown, and the CPU seconds (user + sys) of the process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    out = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    for line in out.stdout.splitlines():
        if line.startswith("visible "):
            return float(line.split()[1]) - t0, cpu
    raise RuntimeError(f"{' '.join(cmd)}: no window ({out.returncode}): {out.stderr[-500:]}")


def _games(where: Path) -> dict[str, Path]:
    from gwasl.engine.game import GameOptions
    from gwasl.games import game_for
    from gwasl.store.gamefile import create_game, load_source

    here = Path(__file__).resolve().parent.parent
    src = load_source("aslgw", str(here / "gwasl" / "scenarios" / "bois-des-caures-1916.json"))
    gw = where / "gw.game"
    create_game(gw, game_for("aslgw"), src, 5, GameOptions()).close()
    ca = where / "ca.game"
    create_game(ca, game_for("combined-arms"), None, 7, GameOptions()).close()
    return {"Great War": gw, "Combined Arms": ca}


def heavy_imports(game: Path) -> list[str]:
    code = (f"import sys, runpy; sys.argv = ['gwasl', 'play', {str(game)!r}]\n"
            "from gwasl.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('heavy', ' '.join(m for m in ('numpy', 'shapely') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True, text=True, timeout=120)
    line = next((x for x in out.stdout.splitlines() if x.startswith("heavy")), "heavy ?")
    return line.split()[1:]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one run of the bare window and gwasl edit (a smoke run: the figures mean nothing)")
    args = ap.parse_args(argv)
    if args.quick:
        args.runs = 1
    gwasl = [sys.executable, "-m", "gwasl.cli"] if not Path(sys.executable).with_name("gwasl").exists() \
        else [str(Path(sys.executable).with_name("gwasl"))]
    with tempfile.TemporaryDirectory() as tmp:
        games = _games(Path(tmp))
        cases = [("bare Qt window (reference)", [sys.executable, "-c", BARE]), ("gwasl edit", [*gwasl, "edit"])]
        if not args.quick:
            cases += [(f"gwasl play GAME ({name})", [*gwasl, "play", str(path)]) for name, path in games.items()]
        results: dict[str, list[float]] = {name: [] for name, _ in cases}
        cpus: dict[str, list[float]] = {name: [] for name, _ in cases}
        loads = [os.getloadavg()[0]]
        for _ in range(args.runs):  # interleaved: a busy moment of the machine falls on every case alike
            for name, cmd in cases:
                shown, cpu = once(cmd)
                results[name].append(shown)
                cpus[name].append(cpu)
            loads.append(os.getloadavg()[0])
        ref = statistics.median(results[cases[0][0]])
        print(f"start-up, command to visible window, median of {args.runs} fresh processes (target <= 2 s idle); "
              f"load average {min(loads):.1f}-{max(loads):.1f} during the run")
        for name, _ in cases:
            xs = results[name]
            med = statistics.median(xs)
            print(f"  {name:40s} {med:6.2f} s  (min {min(xs):.2f}, max {max(xs):.2f})  x{med / ref:.1f} the bare window;"
                  f"  CPU {statistics.median(cpus[name]):.2f} s")
        if not args.quick:
            print("  heavy modules imported by gwasl play:", ", ".join(heavy_imports(games["Great War"])) or "none")


if __name__ == "__main__":
    main()
