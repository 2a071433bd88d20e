"""Command start-up (issue 23 item 8): each ``gwasl`` command as a whole fresh process,
against ``python -c pass`` measured in the same run; prints figures, never asserts.

Cases: ``gwasl --help``; ``gwasl los`` on a bundled scenario; every ``gwasl game``
subcommand on a game just started from the bundled Bois des Caures (``new`` starts one;
``act`` and ``undo`` each get a fresh copy of the game; ``batch`` plays one Combined Arms
game, the quickest whole game).  Targets on an idle machine, over ``python -c pass``:
``--help`` at most 100 ms, ``los`` at most 150 ms, each ``game`` subcommand at most 400 ms.

For each case: the median wall time of the fresh processes, the same less the reference's
(what gwasl adds), and the median CPU time (user + sys) of the process, which other
programs' load on the machine changes less than the wall time.  The load average is
printed beside the figures: on a busy machine the wall times mean little.  The runs
are interleaved (a busy moment falls on every case alike), after one warm-up run of each
that leaves Python's compiled bytecode beside the sources as an installed gwasl has it
(the children run without ``PYTHONDONTWRITEBYTECODE``).

    python -m benchmarks.cli_startup [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SCENARIO = HERE / "gwasl" / "scenarios" / "bois-des-caures-1916.json"

#: the targets over ``python -c pass``, in seconds, by the case's first words
TARGETS = {"gwasl --help": 0.100, "gwasl los": 0.150, "gwasl game": 0.400}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def once(cmd: list[str], prepare: Path | None = None, game: Path | None = None) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of one fresh process running ``cmd``."""
    if prepare is not None and game is not None:
        for p in (game, Path(f"{game}-wal"), Path(f"{game}-shm")):
            p.unlink(missing_ok=True)
        shutil.copyfile(prepare, game)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _gwasl() -> list[str]:
    exe = Path(sys.executable).with_name("gwasl")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "gwasl"]


def cases(where: Path, quick: bool = False) -> list[tuple[str, list[str], Path | None, Path | None]]:
    """(name, command, game file to copy first, where to copy it) for every case (``quick``:
    the reference, --help and los only)."""
    g = _gwasl()
    if quick:
        return [("python -c pass (reference)", [sys.executable, "-c", "pass"], None, None),
                ("gwasl --help", [*g, "--help"], None, None),
                ("gwasl los", [*g, "los", str(SCENARIO), "C3", "F6"], None, None)]
    game = where / "bois.game"
    subprocess.run([*g, "game", "new", str(SCENARIO), "--out", str(game), "--seed", "5"], env=_env(),
                   capture_output=True, check=True, timeout=300)
    legal = json.loads(subprocess.run([*g, "game", "legal", str(game), "--json"], env=_env(), capture_output=True,
                                      text=True, check=True, timeout=300).stdout)
    first = legal["actions"][0]["id"]
    acted = where / "acted.game"  # a game with one action taken, for undo
    shutil.copyfile(game, acted)
    subprocess.run([*g, "game", "act", str(acted), first], env=_env(), capture_output=True, check=True, timeout=300)
    scratch = where / "scratch.game"
    new_out = where / "new.game"
    out: list[tuple[str, list[str], Path | None, Path | None]] = [
        ("python -c pass (reference)", [sys.executable, "-c", "pass"], None, None),
        ("gwasl --help", [*g, "--help"], None, None),
        ("gwasl los", [*g, "los", str(SCENARIO), "C3", "F6"], None, None),
        # its --out is removed before each run (main): it must not exist
        ("gwasl game new", [*g, "game", "new", str(SCENARIO), "--out", str(new_out), "--seed", "5"], None, None),
    ]
    for sub in ("legal", "show", "log"):
        out.append((f"gwasl game {sub}", [*g, "game", sub, str(game)], None, None))
    out.append(("gwasl game odds", [*g, "game", "odds", str(game), first], None, None))
    out.append(("gwasl game suggest", [*g, "game", "suggest", str(game)], None, None))
    out.append(("gwasl game replay --check", [*g, "game", "replay", str(game), "--check"], None, None))
    out.append(("gwasl game act", [*g, "game", "act", str(scratch), first], game, scratch))
    out.append(("gwasl game undo", [*g, "game", "undo", str(scratch)], acted, scratch))
    out.append(("gwasl game batch (1 CA game)", [*g, "game", "batch", "--ruleset", "combined-arms", "--games", "1"], None, None))
    return out


def _target(name: str) -> float | None:
    return next((t for prefix, t in TARGETS.items() if name.startswith(prefix)), None)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one run of the reference, --help and los (a smoke run: the figures mean nothing)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        if args.quick:
            args.runs = 1
        todo = cases(where, args.quick)
        new_out = where / "new.game"
        walls: dict[str, list[float]] = {c[0]: [] for c in todo}
        cpus: dict[str, list[float]] = {c[0]: [] for c in todo}
        loads = []
        for run in range(args.runs + 1):  # run 0: the warm-up (bytecode written), not counted
            loads.append(os.getloadavg()[0])
            for name, cmd, prepare, game in todo:
                for p in (new_out, Path(f"{new_out}-wal"), Path(f"{new_out}-shm")):
                    p.unlink(missing_ok=True)
                wall, cpu = once(cmd, prepare, game)
                if run:
                    walls[name].append(wall)
                    cpus[name].append(cpu)
        loads.append(os.getloadavg()[0])
    ref_wall = statistics.median(walls[todo[0][0]])
    ref_cpu = statistics.median(cpus[todo[0][0]])
    print(f"command start-up, whole fresh processes, median of {args.runs} (load average {min(loads):.1f}-{max(loads):.1f} "
          f"during the run, {os.cpu_count()} CPUs)")
    print(f"  {'case':34s} {'wall':>8s} {'- ref':>8s} {'cpu':>8s} {'- ref':>8s}  target over ref")
    for name, *_ in todo:
        w, c = statistics.median(walls[name]), statistics.median(cpus[name])
        t = _target(name)
        verdict = "" if t is None else f"  <= {t * 1000:.0f} ms: cpu {'met' if c - ref_cpu <= t else 'NOT met'}"
        print(f"  {name:34s} {w * 1000:6.0f}ms {(w - ref_wall) * 1000:6.0f}ms {c * 1000:6.0f}ms {(c - ref_cpu) * 1000:6.0f}ms{verdict}")


if __name__ == "__main__":
    main()
