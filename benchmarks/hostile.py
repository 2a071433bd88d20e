"""Hostile and huge scenario files (issue 17): a corpus, a bounded runner, and figures.

``hostile_corpus(folder)`` writes the hand-made hostile files of issue 17 (and
a few more) into ``folder``; ``Runner`` runs any ``gwasl`` command line (or
the editor's document open, headless) in a forked child under a memory limit
(``resource.setrlimit``) and a time limit, and reports its exit status, its
output, its time and its peak memory.  tests/commands/test_hostile_files.py
runs every command on every file of the corpus and on fuzzed files with it.

Run as a script, it prints the time, CPU time and peak memory (whole
process, fresh each time, bytecode cached as in an installation) of
``validate``, ``command``, ``los-map`` and ``render`` on the largest legal
map (208 x 200 hexes), open and with random terrain, against the same
command on the bundled 12 x 8 example (the reference, measured in the same
run), and whether issue 17's target holds: each within 2 s and 500 MB.

    QT_QPA_PLATFORM=offscreen python -m benchmarks.hostile [--quick]
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gwasl
from benchmarks.maps import random_scenario
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario_io import scenario_to_dict

EXAMPLE = Path(gwasl.__file__).parent / "scenarios" / "bois-des-caures-1916.json"

#: The schema's largest map (docs/format/scenario-v1.schema.json: columns <= 208, rows <= 200).
LARGEST = (208, 200)
#: Hex labels have at most three letters (schema "hexlabel"): columns A..ZZZ (0-77) can carry hex data.
LABELLED_COLUMNS = 78


def example_doc() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def largest_map_doc(terrain: bool) -> dict[str, Any]:
    """The example's units on the largest legal map: open ground, or random terrain
    (woods, buildings, hills, outlines: benchmarks.maps) on every column that can carry it."""
    doc = example_doc()
    doc["map"]["columns"], doc["map"]["rows"] = LARGEST
    if terrain:
        rnd = scenario_to_dict(random_scenario(LABELLED_COLUMNS, LARGEST[1], seed=17))
        hexes = rnd["map"]["hexes"]
        hexes.update(doc["map"].get("hexes", {}))
        doc["map"]["hexes"] = hexes
    return doc


def write(folder: Path, name: str, doc: Any = None, text: str | None = None, data: bytes | None = None) -> Path:
    p = folder / name
    if data is not None:
        p.write_bytes(data)
    else:
        p.write_text(text if text is not None else json.dumps(doc, ensure_ascii=False), encoding="utf-8", errors="surrogatepass")
    return p


def _labels(n: int) -> list[str]:
    return [Hex.from_offset(i % 12, i // 12 % 8).label for i in range(n)]


def hostile_corpus(folder: Path) -> dict[str, Path]:
    """Write the hostile files into ``folder``; returns them by name (the name says what each is)."""
    folder.mkdir(parents=True, exist_ok=True)
    base = example_doc()
    out: dict[str, Path] = {}

    def doc(name: str, change: Any) -> None:
        d = copy.deepcopy(base)
        change(d)
        out[name] = write(folder, name + ".json", d)

    def text(name: str, t: str) -> None:
        out[name] = write(folder, name + ".json", text=t)

    # 17.2 terminal control sequences, bidi overrides, in the title and in ids
    def escapes(d: dict[str, Any]) -> None:
        d["title"] = "\x1b]0;pwned\x07\x1b[2J\x9b\u202e title"
        d["units"][0]["id"] = "G1-L\x1b[31m"
        for f in d["formations"]:
            if f.get("leader") == "G1-L":
                f["leader"] = "G1-L\x1b[31m"

    doc("escape-sequences", escapes)
    # 17.3 a 10 MB side name (every unit of that side then names no side)
    doc("long-side-name", lambda d: d["sides"].__setitem__("S" * 10_000_000, d["sides"].pop("french")))
    # 17.5 many units on one hex (kept moderate here; issue 17.5's own tests go further)
    doc("units-on-one-hex", lambda d: d["units"].extend(
        {"id": f"X{i}", "side": "german", "kind": "squad", "class": "first_line", "hex": "C2"} for i in range(2000)))
    # 17.6 a fortification listing one hex 100,000 times
    doc("repeated-fortification-hex", lambda d: d["map"]["fortifications"].append({"kind": "trench", "hexes": ["C3"] * 100_000}))
    # 17.7 outlines: ten of 2,000 vertices (over the limit), and many at the limit
    ring = [[0.45 * (1 if i % 2 else 0.8) * math.cos(i / 318.3), 0.45 * math.sin(i / 318.3)] for i in range(2000)]
    doc("outlines-2000-vertices", lambda d: d["map"]["hexes"].update(
        {lab: {"terrain": "woods", "outline": ring} for lab in _labels(10)}))
    square = [[x / 64 - 0.4, -0.4] for x in range(51)] + [[0.4, y / 64 - 0.4] for y in range(51)] + \
             [[0.4 - x / 64, 0.4] for x in range(51)] + [[-0.4, 0.4 - y / 64] for y in range(51)]
    doc("outlines-at-the-limit", lambda d: d["map"]["hexes"].update(
        {lab: {"terrain": "woods", "outline": square} for lab in _labels(96)}))
    # 17.8 the largest legal map (open: the worst case for LOS), and a 1 x 200 map
    out["largest-map"] = write(folder, "largest-map.json", largest_map_doc(terrain=False))

    def tall(d: dict[str, Any]) -> None:
        d["map"].update(columns=1, rows=200, hexes={}, fortifications=[])
        d["units"], d["formations"], d["dummies"] = [], [], []

    doc("one-by-200-map", tall)
    # 17.9 a platoon naming no formation, a lone surrogate in the title
    doc("unknown-platoon", lambda d: [u.__setitem__("platoon", "nope") for u in d["units"] if u["kind"] != "support_weapon"])
    text("lone-surrogate", json.dumps(base).replace('"title": "', '"title": "\\ud800', 1))
    # 17.10 duplicate keys, a number too large for a float
    text("duplicate-keys", json.dumps(base).replace('"title":', '"title": "first", "title":', 1))
    text("number-1e400", json.dumps(dict(base, designer={"weight": 12345})).replace("12345", "1e400"))
    # Broken text of every kind
    text("empty", "")
    text("not-json", "{" + "x" * 1000)
    text("nested-deeply", "[" * 100_000 + "]" * 100_000)
    text("huge-integer", '{"format": ' + "9" * 5000 + "}")
    text("nan", json.dumps(base).replace('"winter": true', '"winter": NaN'))
    out["invalid-utf8"] = write(folder, "invalid-utf8.json", data=b'{"title": "\xff\xfe"}')
    out["nul-bytes"] = write(folder, "nul-bytes.json", data=json.dumps(base).encode() + b"\x00" * 10)
    out["bom"] = write(folder, "bom.json", data=b"\xef\xbb\xbf" + json.dumps(base).encode())
    text("schema-types", json.dumps(dict(base, map=[], units={}, sides="x")))
    # 17.4 things that are not regular files, and a file over the size limit
    fifo = folder / "fifo.json"
    if not fifo.exists():
        os.mkfifo(fifo)
    out["fifo"] = fifo
    out["dev-zero"] = Path("/dev/zero")
    out["folder"] = folder
    out["missing"] = folder / "missing.json"
    big = folder / "over-64MB.json"
    with open(big, "wb") as fh:
        fh.truncate(64 * 1024 * 1024 + 1)  # sparse: no disk used
    out["over-64MB"] = big
    return out


# ---------------------------------------------------------------------------
# A bounded runner: each command in a child forked from a warm server
# ---------------------------------------------------------------------------
_SERVER = textwrap.dedent(
    r"""
    import importlib, json, os, resource, sys, time
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from gwasl import cli
    for m in cli.COMMAND_MODULES:
        importlib.import_module(m)
    from gwasl.editor.document import EditorDocument
    from gwasl.model.scenario_io import ScenarioError
    import gwasl.ui.render  # Qt's modules load once here; each child makes its own QApplication
    from gwasl.games import game_for
    game_for("aslgw")  # the Great War ruleset a scenario file starts a game of
    import gwasl.store.gamefile  # the game store (sqlite3) and what it reads: loaded once
    _parser = cli.build_parser()  # argparse with every command: built once, not per child
    cli.build_parser = lambda: _parser

    def vm_size():
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
        return 0

    def editor_open(path):
        try:
            doc = EditorDocument.open(path)
        except ScenarioError as e:
            print(f"cannot open: {e}", file=sys.stderr)
            return 2
        print(f"opened: {len(doc.scenario.units)} units")
        return 0

    import gc
    gc.freeze()  # children never copy the server's objects when their collector runs
    base = vm_size()
    answer = os.fdopen(os.dup(1), "w")
    answer.write(json.dumps({"ready": True, "vm_base": base}) + "\n")
    answer.flush()
    for line in sys.stdin:
        r = json.loads(line)
        out = os.open(r["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        err = os.open(r["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.dup2(out, 1)
                os.dup2(err, 2)
                limit = base + r["memory"]
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
                resource.setrlimit(resource.RLIMIT_CPU, (r["cpu"], r["cpu"] + 1))
                argv = r["argv"]
                code = editor_open(argv[1]) if argv[0] == "editor-open" else cli.main(argv)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 2
            except BaseException as e:
                print(f"CRASH {type(e).__name__}: {e}", file=sys.stderr)
                code = 99
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        os.close(out)
        os.close(err)
        killed = False
        while True:
            wpid, status, ru = os.wait4(pid, os.WNOHANG)
            if wpid:
                break
            if time.monotonic() - t0 > r["wall"]:
                os.kill(pid, 9)
                killed = True
                wpid, status, ru = os.wait4(pid, 0)
                break
            time.sleep(0.003)
        answer.write(json.dumps({
            "code": os.waitstatus_to_exitcode(status), "timed_out": killed,
            "seconds": time.monotonic() - t0, "max_rss_kb": ru.ru_maxrss,
        }) + "\n")
        answer.flush()
    """
)


@dataclass(frozen=True)
class Outcome:
    """What one bounded run gave."""

    argv: tuple[str, ...]
    code: int
    timed_out: bool
    seconds: float
    max_rss_mb: float
    stdout: str
    stderr: str


class Runner:
    """Runs command lines in children of one warm server process, each under limits.

    ``memory``: address space a child may add to the server's (bytes);
    ``cpu``/``wall``: seconds.  Use as a context manager.
    """

    def __init__(self, memory: int = 1536 * 1024 * 1024, cpu: int = 30, wall: float = 60.0) -> None:
        self.memory, self.cpu, self.wall = memory, cpu, wall
        self.tmp = Path(tempfile.mkdtemp(prefix="gwasl-hostile-"))
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        self.proc = subprocess.Popen([sys.executable, "-c", _SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env, cwd=self.tmp)
        assert self.proc.stdout is not None
        hello = json.loads(self.proc.stdout.readline())
        self.vm_base = hello["vm_base"]

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        for pipe in (self.proc.stdin, self.proc.stdout):  # both pipes, or Python warns of an unclosed file
            if pipe is not None and not pipe.closed:
                pipe.close()

    def run(self, argv: Sequence[str], wall: float | None = None) -> Outcome:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        out, err = self.tmp / "out.txt", self.tmp / "err.txt"
        req = {"argv": list(argv), "out": str(out), "err": str(err), "memory": self.memory, "cpu": self.cpu, "wall": wall or self.wall}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        r = json.loads(self.proc.stdout.readline())
        read = lambda p: p.read_text(encoding="utf-8", errors="replace")  # noqa: E731
        return Outcome(tuple(argv), r["code"], r["timed_out"], r["seconds"], r["max_rss_kb"] / 1024, read(out), read(err))


#: Characters never printed raw: controls, bidi overrides, lone surrogates.
_RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

def assert_clean(o: Outcome) -> None:
    """A result, or a refusal in one clean line (CONTRACTS 4: exit 2, one line on stderr)."""
    what = f"gwasl {' '.join(a[:60] for a in o.argv)}"
    assert not o.timed_out, f"{what}: still running at its time limit"
    assert o.code in (0, 2), f"{what}: exit {o.code}: {o.stderr[:300]}"
    for bad in ("Traceback", "internal error", "CRASH"):
        assert bad not in o.stderr, f"{what}: {o.stderr[:300]}"
    if o.stderr:
        assert o.stderr.endswith("\n") and o.stderr.count("\n") == 1, f"{what}: more than one line: {o.stderr[:300]}"
    assert not _RAW_CONTROL.search(o.stdout) and not _RAW_CONTROL.search(o.stderr), f"{what}: raw control character"
    if "--json" in o.argv and (o.code == 0 or o.argv[0] == "validate"):
        json.loads(o.stdout)
    if o.code == 2 and not o.stderr:
        # two commands answer on stdout with exit 2 (CONTRACTS 4, 5): validate's findings, and
        # `game replay --check` finding a journal that its recomputation does not match
        findings = o.argv[0] == "validate" and ("invalid" in o.stdout or '"valid": false' in o.stdout)
        mismatch = list(o.argv[:2]) == ["game", "replay"] and ("differs at event" in o.stdout or '"identical": false' in o.stdout)
        assert findings or mismatch, f"{what}: refused without saying why"


def commands_for(path: Path, out_png: Path) -> list[list[str]]:
    """Every command (and the editor's open) on one file, with arguments valid for the example."""
    f = str(path)
    return [
        ["validate", f],
        ["validate", f, "--json"],
        ["command", f],
        ["command", f, "--json"],
        ["los", f, "C2", "H6"],
        ["los-map", f, "C2"],
        ["shift-preview", f, "F4", "J7", "--phase", "MPh", "--phasing", "french"],
        ["render", f, "--out", str(out_png), "--force"],
        ["game", "new", f, "--out", str(out_png.with_suffix(".game")), "--seed", "1"],
        ["editor-open", f],
    ]


# ---------------------------------------------------------------------------
# Figures on the largest legal map
# ---------------------------------------------------------------------------
#: Issue 17's bound for each command on the largest legal map.
TARGET_SECONDS, TARGET_MB = 2.0, 500.0


def _installed_env(pycache: Path) -> dict[str, str]:
    """The environment of a run as installed: offscreen, and gwasl's bytecode cached
    (in ``pycache``, not in the source tree).  An installed gwasl has its bytecode
    compiled; with PYTHONDONTWRITEBYTECODE every run would compile gwasl's sources
    again (about 0.4 s of each run on this machine, the same for every map)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPYCACHEPREFIX=str(pycache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(argv: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak memory (MB) of ``gwasl ARGV`` in a
    fresh process.  CPU seconds say what the command costs when other programs share the
    machine (wall time then includes waiting for a core)."""
    env = env or dict(os.environ, QT_QPA_PLATFORM="offscreen")
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "gwasl", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 2):
        raise SystemExit(f"gwasl {' '.join(argv)} failed ({code}): {p.stderr.read().decode() if p.stderr else ''}")
    return seconds, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description="Time and peak memory of the commands on the largest legal map.")
    ap.add_argument("--quick", action="store_true", help="one repetition, open map only (for tests)")
    a = ap.parse_args()
    reps = 1 if a.quick else 3
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        env = _installed_env(folder / "pycache")
        maps = {"example 12x8": EXAMPLE, "208x200 open": write(folder, "open.json", largest_map_doc(False))}
        if not a.quick:
            maps["208x200 terrain"] = write(folder, "terrain.json", largest_map_doc(True))
        png = folder / "out.png"
        runs = {
            "validate": lambda f: ["validate", str(f)],
            "command": lambda f: ["command", str(f)],
            "los-map": lambda f: ["los-map", str(f), "A1", "--json"],
            "render": lambda f: ["render", str(f), "--out", str(png), "--force"],
        }
        for args in runs.values():  # compiles and caches gwasl's bytecode, as an installation has it
            measure(args(EXAMPLE), env)
        print(f"{'command':<9} {'map':<16} {'time':>8} {'cpu':>8} {'peak memory':>11}   against the example ({reps} run(s) each)")
        over = []
        for name, args in runs.items():
            ref: tuple[float, float] | None = None
            for label, f in maps.items():
                figures = [measure(args(f), env) for _ in range(reps)]
                seconds, cpu, mem = min(t for t, _, _ in figures), min(c for _, c, _ in figures), max(m for _, _, m in figures)
                ref = ref or (seconds, mem)
                print(f"{name:<9} {label:<16} {seconds:6.2f} s {cpu:6.2f} s {mem:8.0f} MB   x{seconds / ref[0]:.1f} time, x{mem / ref[1]:.1f} memory")
                if label != "example 12x8" and (seconds > TARGET_SECONDS or mem > TARGET_MB):
                    over.append(f"{name} on {label}")
    print("(time: wall time of the whole process, best of the runs; cpu: its user + system time, best of the runs;")
    print(f" peak MB: its maximum resident size, worst of the runs; bytecode cached as installed; load average {os.getloadavg()[0]:.1f})")
    print(f"issue 17 target, each within {TARGET_SECONDS:g} s and {TARGET_MB:g} MB on the largest map: "
          + ("met" if not over else "NOT met by " + ", ".join(over)))


if __name__ == "__main__":
    main()

__all__ = ["LARGEST", "Outcome", "Runner", "assert_clean", "commands_for", "hostile_corpus", "largest_map_doc", "measure"]
