"""Speed of a game in play with its SQLite file (issue 11 item 7), on a 16-board map.

The bundled example's units are set on a 132 x 40 map (16 boards) of random
terrain; a game file is created and played by random legal actions until its
journal holds 10,000 events.  Printed, each with a plain reference measured
in the same run (figures only; nothing here is asserted):

* one movement action, apply + journal commit + reduce (target <= 5 ms median),
  against a bare SQLite insert-and-commit of the same entry;
* ``view`` for a side (target <= 5 ms), against ``json.dumps`` of that view;
* replaying 10,000 events from the seed, ``replay_check`` (target <= 2 s),
  against reducing the journal's stored events;
* opening the 10,000-event game file (target <= 1 s), against reading its rows
  with ``sqlite3`` alone.

Run: python -m benchmarks.game [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.maps import random_scenario
from gwasl.engine.game import GameOptions
from gwasl.engine.session import Session
from gwasl.games import game_for
from gwasl.model.scenario_io import load_scenario, scenario_to_dict
from gwasl.scenarios import bundled_scenario
from gwasl.store.gamefile import create_game, open_game

MOVES = ("move", "move_pile", "impulse_step")
ENDERS = ("end_phase", "end_window", "end_impulse", "end_platoon")


def big_source(columns: int, rows: int) -> dict:
    """The bundled example's sides and units on a large random map (terrain only changes)."""
    example = load_scenario(bundled_scenario("bois-des-caures-1916.json"))
    terrain = random_scenario(columns, rows, seed=3).map
    # keep the example's fortifications and the hexes its units stand in as they were
    keep = {h for u in example.units for h in (u.hex,)} | {h for f in example.map.fortifications for h in f.hexes}
    hexes = {h: d for h, d in terrain.hexes.items() if h not in keep}
    hexes.update({h: d for h, d in example.map.hexes.items()})
    big = replace(example, map=replace(example.map, columns=columns, rows=rows, hexes=hexes))
    out = dict(scenario_to_dict(big))
    out["game"] = {**dict(out.get("game") or {}), "turns": 99}  # long enough for 10,000 events
    return out


def play(session: Session, rng: random.Random, target_events: int) -> None:
    """Random legal actions (often ending phases, so turns go by) until the journal is long enough."""
    while session.next_seq < target_events:
        if session.status().over:
            session.undo_target()
            break
        legal = session.legal()
        enders = [a for a in legal if a.action.kind in ENDERS]
        pick = rng.choice(enders) if enders and rng.random() < 0.25 else rng.choice(legal)
        session.act(pick.action)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small map and a short game (the test suite's smoke run)")
    args = ap.parse_args()
    columns, rows, target = (33, 10, 600) if args.quick else (132, 40, 10_000)
    game = game_for("aslgw")
    src = big_source(columns, rows)
    folder = Path(tempfile.mkdtemp(prefix="gwasl-bench-"))
    path = folder / "bench.game"
    t = time.perf_counter()
    gf = create_game(path, game, src, 7, GameOptions(practice=True))
    print(f"map {columns} x {rows}; game file created in {(time.perf_counter() - t) * 1000:.1f} ms")

    # one movement action with its commit, against a bare insert-and-commit of the same row
    s = gf.session
    rng = random.Random(1)
    while not any(a.action.kind in MOVES for a in s.legal()):  # to the first movement (past shift windows)
        s.act(next(a.action for a in s.legal() if a.action.kind in ENDERS))
    act_times, ref_times = [], []
    con = sqlite3.connect(folder / "ref.sqlite")
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("CREATE TABLE j (idx INTEGER PRIMARY KEY, events TEXT)")
    for i in range(30 if not args.quick else 8):
        moves = [a for a in s.legal() if a.action.kind in MOVES]
        if not moves:
            break
        t = time.perf_counter()
        (entry, *_) = s.act(rng.choice(moves).action)
        act_times.append(time.perf_counter() - t)
        row = json.dumps([e.to_json() for e in entry.events])
        t = time.perf_counter()
        with con:
            con.execute("INSERT INTO j VALUES (?, ?)", (i, row))
        ref_times.append(time.perf_counter() - t)
        s.undo()  # practice mode: the same position for every sample
    con.close()
    a, r = median_ms(act_times), median_ms(ref_times)
    print(f"move + commit + reduce        {a:8.2f} ms median ({len(act_times)} moves)   bare insert+commit {r:6.2f} ms   ratio {a / r:6.1f}")

    side = s.status().side or ""
    viewer = game.viewer(s.state, side)
    vt, jt = [], []
    for _ in range(20 if not args.quick else 5):
        t = time.perf_counter()
        v = game.view(s.state, viewer)
        vt.append(time.perf_counter() - t)
        t = time.perf_counter()
        json.dumps(v)
        jt.append(time.perf_counter() - t)
    a, r = median_ms(vt), median_ms(jt)
    print(f"view for a side               {a:8.2f} ms median                json.dumps of it   {r:6.2f} ms   ratio {a / r:6.1f}")

    t = time.perf_counter()
    play(s, rng, target)
    n = s.next_seq
    print(f"played to {n} events in {time.perf_counter() - t:.1f} s ({len(s.entries)} journal entries)")
    gf.close()

    t = time.perf_counter()
    with open_game(path) as again:
        opened = time.perf_counter() - t
        t = time.perf_counter()
        rep = again.session.replay_check()
        replay = time.perf_counter() - t
        t = time.perf_counter()
        state = game.setup(again.session.source, again.session.options)
        for _seq, ev in again.session.effective():
            state = game.reduce(state, ev)
        reduce_only = time.perf_counter() - t
    con = sqlite3.connect(path)
    t = time.perf_counter()
    rows_read = con.execute("SELECT events FROM journal").fetchall()
    raw = time.perf_counter() - t
    con.close()
    print(f"open the {n}-event game        {opened * 1000:8.1f} ms        "
          f"read its {len(rows_read)} rows with sqlite3 {raw * 1000:6.1f} ms   ratio {opened / raw:6.1f}")
    print(f"replay_check of {rep.events} events {replay * 1000:8.1f} ms (identical: {rep.identical})   "
          f"reduce only {reduce_only * 1000:6.1f} ms   ratio {replay / reduce_only:6.1f}")


if __name__ == "__main__":
    main()
