"""Editor speed (issue 6, deliverable 9): prints figures, never asserts.

1. Opening and showing a 16-board scenario (132 x 40 hexes, a few hundred
   counters): file read, window built, map fitted and painted once.
   Target <= 1 s.  Reference: reading the file alone (load_scenario).
2. The hover LOS map on 4 boards (66 x 20): per mouse move, the one-to-all
   LOS query, the overlay update and a synchronous repaint of the view.
   Target <= 16 ms median (one frame at 60 Hz).  Reference: the LOS query
   alone (LosIndex.visible_from), so the ratio shows what drawing adds.

    QT_QPA_PLATFORM=offscreen python -m benchmarks.ui
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from benchmarks.maps import random_scenario
from gwasl.editor.document import EditorDocument
from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Fortification, FortificationKind, LeaderRating, Unit, UnitClass, UnitKind
from gwasl.model.scenario_io import load_scenario, save_scenario


def populated(columns: int, rows: int, seed: int = 1, units: int = 300):
    """A random map with counters and trench lines, like a big set-up."""
    s = random_scenario(columns, rows, seed=seed)
    rng = random.Random(seed)
    sides = list(s.sides)
    out = []
    for i in range(units):
        h = Hex.from_offset(rng.randrange(columns), rng.randrange(rows))
        side = sides[i % 2]
        if i % 7 == 0:
            out.append(Unit(f"L{i}", side, UnitKind.LEADER, h, rating=LeaderRating.parse("8-0")))
        else:
            out.append(Unit(f"S{i}", side, UnitKind.SQUAD, h, unit_class=UnitClass.FIRST_LINE))
    forts = []
    for _ in range(columns // 6):
        c = rng.randrange(columns)
        forts.append(Fortification(FortificationKind.TRENCH, tuple(Hex.from_offset(c, r) for r in range(rng.randrange(rows // 2)))))
    forts = [f for f in forts if f.hexes]
    return replace(s.with_units(out), map=replace(s.map, fortifications=tuple(forts)))


def main() -> None:
    from gwasl.ui.mainwindow import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    tmp = Path(tempfile.mkdtemp())
    settings = QSettings(str(tmp / "s.ini"), QSettings.IniFormat)

    # -- 1. open and show 16 boards ----------------------------------------------------
    big = tmp / "big.json"
    save_scenario(populated(132, 40), big)
    load_times, open_times = [], []
    for _ in range(3):
        t = time.perf_counter()
        load_scenario(big)
        load_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        win = MainWindow(EditorDocument.open(big), settings)
        win.resize(1400, 900)
        win.show()
        win.view.fit()
        app.processEvents()
        win.view.viewport().repaint()  # one full paint of the fitted map
        open_times.append(time.perf_counter() - t)
        win.document.replace_all(win.document.scenario, None)  # clean: close without asking
        win.close()
        win.deleteLater()
        app.processEvents()
    n_units = len(load_scenario(big).units)
    open_s, load_s = statistics.median(open_times), statistics.median(load_times)

    def mark(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    print(f"16 boards: 132 x 40 = {132 * 40} hexes, {n_units} counters")
    print(f"open and show (read, build window, fit, first full paint), median of 3: {open_s * 1e3:.0f} ms   [<= 1000 ms: {mark(open_s <= 1.0)}]")
    print(f"reference (read the file only): {load_s * 1e3:.0f} ms; ratio open-and-show / read: {open_s / load_s:.1f}x")

    # -- 2. hover LOS map on 4 boards -------------------------------------------------------
    four = tmp / "four.json"
    save_scenario(populated(66, 20, seed=2, units=80), four)
    win = MainWindow(EditorDocument.open(four), settings)
    win.resize(1400, 900)
    win.show()
    win.view.fit()
    app.processEvents()
    win.set_tool("losmap")
    s = win.document.scenario
    rng = random.Random(3)
    path = [Hex.from_offset(rng.randrange(66), rng.randrange(20)) for _ in range(120)]
    tool = win.tools["losmap"]
    vp = win.view.viewport()
    tool.hover(path[0], None)  # builds the LOS index once, as the first hover does
    vp.repaint()
    redraw, query = [], []
    index = win.checks.index()
    for h in path:
        t = time.perf_counter()
        index.visible_from(h)
        query.append(time.perf_counter() - t)
        t = time.perf_counter()
        tool.hover(h, None)
        vp.repaint()
        redraw.append(time.perf_counter() - t)
    r_ms, q_ms = statistics.median(redraw) * 1e3, statistics.median(query) * 1e3
    print(f"4 boards: 66 x 20 = {66 * 20} hexes; hover LOS map over {len(path)} hexes")
    print(
        f"hover LOS map redraw (query + overlay + repaint), median: {r_ms:.1f} ms, "
        f"p90 {sorted(redraw)[int(len(redraw) * 0.9)] * 1e3:.1f} ms   [<= 16 ms: {mark(r_ms <= 16)}]"
    )
    print(f"reference (LOS query alone, LosIndex.visible_from), median: {q_ms:.2f} ms; ratio redraw / query: {r_ms / q_ms:.1f}x")
    win.document.replace_all(s, None)
    win.close()


if __name__ == "__main__":
    main()
