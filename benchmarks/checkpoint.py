"""The cost of keeping the game file alone complete (issue 26 item 12): a checkpoint of
the WAL into the game file after every action.

The same Combined Arms and On Patrol games (the same actions, chosen by a fixed rule)
are played three ways, and each action (the player's action, the automated replies,
the journal commit) is timed:

* ``memory``: the session over an in-memory journal, the rules alone (the plain
  reference: what an action costs with no file at all);
* ``file, no checkpoint``: the game file as gwasl wrote it before (commits go to the WAL
  beside the file, which SQLite copies into the file only every 1,000 pages);
* ``file, checkpoint``: the game file as gwasl writes it now (after each commit the WAL
  is copied into the file: ``PRAGMA wal_checkpoint(PASSIVE)``).

Printed: the median and mean milliseconds per action of each, the checkpoint's cost per
action (the difference of the two file figures) and the ratios to the plain reference,
and how large the ``-wal`` file beside the game is at the end (what a copy of the game
file alone would miss before).  Figures only; nothing is asserted.  The folder is the
system's temporary folder unless ``--dir`` names another (a disk, not memory, is what
a player's game lives on).

Run: python -m benchmarks.checkpoint [--quick] [--dir FOLDER]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gwasl.engine.game import GameOptions
from gwasl.engine.session import Session
from gwasl.games import game_for
from gwasl.store import gamefile
from gwasl.store.gamefile import create_game


def _source(ruleset: str) -> Any:
    if ruleset == "on-patrol":
        from gwasl.games.on_patrol.scenario import load_bundled

        return load_bundled("day-convoy")
    return None


def _choose(session: Session[Any], step: int) -> Any:
    legal = [a for a in session.legal() if a.action.kind not in ("end_game", "break_off")]
    if not legal:
        return None
    rng = random.Random(step)
    enders = [a for a in legal if a.action.kind.startswith("end")]
    return (rng.choice(enders) if enders and rng.random() < 0.5 else rng.choice(legal)).action


def _play(session: Session[Any], actions: int) -> list[float]:
    times = []
    for step in range(actions):
        a = _choose(session, step)
        if a is None:
            break
        t = time.perf_counter()
        session.act(a)
        times.append(time.perf_counter() - t)
    return times


def _measure(ruleset: str, actions: int, folder: Path, seed: int) -> dict[str, Any]:
    game = game_for(ruleset)
    out: dict[str, Any] = {}
    out["memory"] = _play(Session.new(game, _source(ruleset), seed, GameOptions()), actions)
    real: Callable[..., None] = gamefile.SqliteJournal._checkpoint
    for label, checkpoint in (("file, no checkpoint", False), ("file, checkpoint", True)):
        path = folder / f"{ruleset}-{seed}-{checkpoint}.game"
        gamefile.SqliteJournal._checkpoint = real if checkpoint else (lambda self: None)  # type: ignore[method-assign]
        try:
            with create_game(path, game, _source(ruleset), seed, GameOptions()) as gf:
                out[label] = _play(gf.session, actions)
                wal = Path(f"{path}-wal")
                out[f"{label} wal"] = wal.stat().st_size if wal.exists() else 0
        finally:
            gamefile.SqliteJournal._checkpoint = real  # type: ignore[method-assign]
    return out


def _ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs) * 1000:6.2f} ms, mean {statistics.fmean(xs) * 1000:6.2f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a few actions (the test suite's smoke run)")
    ap.add_argument("--dir", help="where the game files are written (default: the temporary folder)")
    args = ap.parse_args(argv)
    actions, seeds = (15, 1) if args.quick else (120, 3)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"game files in {folder} ({actions} actions a game, {seeds} seed(s) per game)")
        for ruleset in ("combined-arms", "on-patrol"):
            runs = [_measure(ruleset, actions, folder, seed) for seed in range(seeds)]
            figures = {k: [t for r in runs for t in r[k]] for k in ("memory", "file, no checkpoint", "file, checkpoint")}
            n = len(figures["memory"])
            print(f"{ruleset}: {n} actions")
            for label, xs in figures.items():
                ratio = statistics.median(xs) / statistics.median(figures["memory"])
                print(f"  {label:20s} {_ms(xs)}  ({ratio:4.1f}x the rules alone)")
            cost = statistics.median(figures["file, checkpoint"]) - statistics.median(figures["file, no checkpoint"])
            mean_cost = statistics.fmean(figures["file, checkpoint"]) - statistics.fmean(figures["file, no checkpoint"])
            print(f"  the checkpoint costs {cost * 1000:+.2f} ms an action (median; mean {mean_cost * 1000:+.2f} ms)")
            print(f"  -wal beside the game at the end: {max(r['file, no checkpoint wal'] for r in runs):,} bytes "
                  f"without the checkpoint (moves a copy of the game file alone lacks), "
                  f"{max(r['file, checkpoint wal'] for r in runs):,} bytes with it (its frames are in the file)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
