"""Speed of a game in play with its SQLite file (issue 11 item 7), on a 16-board map.

The bundled example, six times over (84 units), is set on a 132 x 40 map
(16 boards) of random terrain; a game file is created and played by random
legal actions until its journal holds 10,000 events.  Printed, each with a plain reference measured
in the same run (figures only; nothing here is asserted):

* one movement action, apply + journal commit + reduce (target <= 5 ms median),
  against a bare SQLite insert-and-commit of the same entry;
* ``view`` for a side (target <= 5 ms), against ``json.dumps`` of that view;
* opening the 10,000-event game file (target <= 1 s: from its newest snapshot,
  reducing the events after it), against reading its rows with ``sqlite3`` alone;
* replaying its 10,000 events (target <= 2 s: every event reduced from the
  set-up, as opening without snapshots does), against decoding them from JSON;
* ``replay_check`` (re-applying every action from the seed: as slow as the
  rules are), split into apply, reduce and the rest (policies, comparing).

Wall-clock figures on a shared machine swing with its load; the CPU time of
the process and the ratios to the references are steadier.

Run: python -m benchmarks.game [--quick] [--game FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.maps import random_scenario
from gwasl.engine.game import GameOptions
from gwasl.engine.session import Session
from gwasl.games import game_for
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario_io import load_scenario, scenario_to_dict
from gwasl.scenarios import bundled_scenario
from gwasl.store.gamefile import create_game, open_game

MOVES = ("move", "move_pile", "impulse_step")
ENDERS = ("end_phase", "end_window", "end_impulse", "end_platoon")


def _shifted(label: str, dc: int, dr: int) -> str:
    h = Hex.from_label(label)
    return Hex.from_offset(h.column + dc, h.row + dr).label


def big_source(columns: int, rows: int, copies: int = 1) -> dict:
    """The bundled example on a large random map: its forces, fortifications and terrain,
    ``copies`` times side by side (ids suffixed), the rest of the map random terrain."""
    example = scenario_to_dict(load_scenario(bundled_scenario("bois-des-caures-1916.json")))
    ex_cols, ex_rows = example["map"]["columns"], example["map"]["rows"]
    per_row = max(1, columns // (ex_cols + 2))
    tiles = [((k % per_row) * (ex_cols + 2) // 2 * 2, (k // per_row) * (ex_rows + 2)) for k in range(copies)]
    if any(dc + ex_cols > columns or dr + ex_rows > rows for dc, dr in tiles):
        raise SystemExit(f"{copies} copies of the example do not fit a {columns} x {rows} map")
    terrain = random_scenario(columns, rows, seed=3).map
    hexes = dict(scenario_to_dict(_with_map(terrain))["map"]["hexes"])
    units, formations, dummies, forts = [], [], [], []
    for k, (dc, dr) in enumerate(tiles):
        tag = "" if k == 0 else f"x{k}"
        for x in range(ex_cols):
            for y in range(ex_rows):
                hexes.pop(Hex.from_offset(x + dc, y + dr).label, None)  # the example's own terrain here
        for label, d in example["map"]["hexes"].items():
            hexes[_shifted(label, dc, dr)] = d
        for u in example["units"]:
            units.append({**u, "id": u["id"] + tag, "hex": _shifted(u["hex"], dc, dr),
                          **({"platoon": u["platoon"] + tag} if u.get("platoon") else {})})
        for f in example["formations"]:
            formations.append({**f, "id": f["id"] + tag, **({"leader": f["leader"] + tag} if f.get("leader") else {}),
                               **({"origin": "ssr"} if k and f["kind"] == "half_platoon" else {})})  # ASLGW 1.1's 25%
        for d in example.get("dummies", []):
            if d["kind"] != "dummy_hip" or k < 4:  # O'Leary's dummy HIP allotment (capacity 9 + 1 for 6 copies)
                dummies.append({**d, "hex": _shifted(d["hex"], dc, dr)})
        for f in example["map"].get("fortifications", []):
            forts.append({**f, "hexes": [_shifted(h, dc, dr) for h in f["hexes"]],
                          **({"ladders": [_shifted(h, dc, dr) for h in f["ladders"]]} if f.get("ladders") else {})})
    out = dict(example)
    out["map"] = {**example["map"], "columns": columns, "rows": rows, "hexes": hexes, "fortifications": forts}
    out.update(units=units, formations=formations, dummies=dummies)
    out["game"] = {**dict(out.get("game") or {}), "turns": 99}  # long enough for 10,000 events
    return out


def _with_map(m: Any) -> Any:
    """The example with another map (to write random terrain in the scenario format)."""
    return replace(load_scenario(bundled_scenario("bois-des-caures-1916.json")), map=m)


def play(session: Session, rng: random.Random, target_events: int) -> None:
    """Random legal actions (often ending phases, so turns go by) until the journal is long enough."""
    while session.next_seq < target_events and not session.status().over:
        legal = session.legal()
        enders = [a for a in legal if a.action.kind in ENDERS]
        pick = rng.choice(enders) if enders and rng.random() < 0.05 else rng.choice(legal)
        session.act(pick.action)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small map and a short game (the test suite's smoke run)")
    ap.add_argument("--game", help="measure open and replay on (a copy of) this game file instead of playing one")
    args = ap.parse_args()
    columns, rows, target, copies = (33, 10, 600, 1) if args.quick else (132, 40, 10_000, 6)
    folder = Path(tempfile.mkdtemp(prefix="gwasl-bench-"))
    try:
        if args.game:  # the measurements of a long game only, on a copy of a game file made before
            src_con, copy = sqlite3.connect(f"file:{args.game}?mode=ro", uri=True), sqlite3.connect(folder / "bench.game")
            src_con.backup(copy)
            src_con.close()
            copy.close()
            with open_game(folder / "bench.game") as gf:
                n = gf.session.next_seq
            measure(folder / "bench.game", game_for("aslgw"), n)
            return
        run(args, folder, columns, rows, target, copies)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(args: argparse.Namespace, folder: Path, columns: int, rows: int, target: int, copies: int) -> None:
    game = game_for("aslgw")
    src = big_source(columns, rows, copies)
    path = folder / "bench.game"
    t = time.perf_counter()
    gf = create_game(path, game, src, 7, GameOptions(practice=True))
    print(f"map {columns} x {rows}, {len(src['units'])} units; game file created in {(time.perf_counter() - t) * 1000:.1f} ms")

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
    measure(path, game, n)


def measure(path: Path, game: Any, n: int) -> None:
    """Open, replay and replay_check of the game file at ``path`` (``n`` events)."""
    # open: the newest snapshot and the tail after it; the reference reads the rows with sqlite3
    opens, cpu = [], []
    for _ in range(3):
        t, c = time.perf_counter(), time.process_time()
        with open_game(path) as again:
            opens.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            frm = again.session.opened_from
            tail = sum(len(e.events) for e in again.session.entries[(frm or -1) + 1:])
    con = sqlite3.connect(path)
    t = time.perf_counter()
    rows_read = con.execute("SELECT events FROM journal").fetchall()
    raw = time.perf_counter() - t
    con.close()
    o = statistics.median(opens)
    print(f"open the {n}-event game        {o * 1000:8.1f} ms median of 3 ({statistics.median(cpu) * 1000:.0f} ms of CPU; "
          f"snapshot after entry {frm}, {tail} events reduced)   "
          f"read its {len(rows_read)} rows with sqlite3 {raw * 1000:6.1f} ms   ratio {o / raw:6.1f}")

    with open_game(path) as again:
        sess = again.session
        # replay: every event reduced from the set-up (what opening a file without snapshots,
        # history and take-back do), against decoding the same events from their JSON
        t, c = time.perf_counter(), time.process_time()
        state = game.setup(sess.source, sess.options)
        for _seq, ev in sess.effective():
            state = game.reduce(state, ev)
        replay, replay_cpu = time.perf_counter() - t, time.process_time() - c
        events = [e.to_json() for _seq, e in sess.effective()]
        t = time.perf_counter()
        for e in events:
            game.events.decode(e)
        decode = time.perf_counter() - t
        print(f"replay {len(events)} events (reduce)  {replay * 1000:8.1f} ms ({replay_cpu * 1000:.0f} ms of CPU, "
              f"{replay / len(events) * 1e6:.0f} us an event)   "
              f"decode them from JSON {decode * 1000:6.1f} ms   ratio {replay / decode:6.1f}")
        # replay_check re-applies every action (legal checks, dice, policies) as well: what dominates
        spent = {"apply": 0.0, "reduce": 0.0}
        g = sess.game
        real_apply, real_reduce = g.apply, g.reduce

        inside = [False]  # a reduce that apply makes itself is counted in apply

        def timed(name: str, fn: Any) -> Any:
            def run(*a: Any) -> Any:
                if inside[0]:
                    return fn(*a)
                inside[0] = True
                t0 = time.perf_counter()
                try:
                    return fn(*a)
                finally:
                    spent[name] += time.perf_counter() - t0
                    inside[0] = False
            return run

        g.apply, g.reduce = timed("apply", real_apply), timed("reduce", real_reduce)  # type: ignore[method-assign]
        try:
            t = time.perf_counter()
            rep = sess.replay_check()
            check = time.perf_counter() - t
        finally:
            del g.apply, g.reduce  # back to the class's methods
        other = check - spent["apply"] - spent["reduce"]
        print(f"replay_check of {rep.events} events {check * 1000:8.1f} ms (identical: {rep.identical}): "
              f"apply {spent['apply'] * 1000:.0f} ms, reduce {spent['reduce'] * 1000:.0f} ms, "
              f"policies and the rest {other * 1000:.0f} ms   ratio to reduce only {check / replay:6.1f}")


if __name__ == "__main__":
    main()
