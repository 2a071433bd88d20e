"""File > New game's opening (issue 23 item 3): the dialog builds its form from what each game
declares on its Game class, so opening it imports every game's package (to name them) where
the form with hard-coded names imported none until a scenario was chosen.

Each sample is a fresh process (cold imports, as ``gwasl play`` opens the dialog at once):

* opening the dialog (the games listed, the default Great War game's form built);
* then choosing a bundled Great War scenario (read, checked, its sides offered);
* apart: importing the three games' packages alone, in the same processes.

Imports read compiled bytecode (written by a first, uncounted run to a folder apart from
the tree), as an installed gwasl does.

Reference: a bare QDialog with the same kind of form (no game), in the same processes, so
the ratio shows what listing the games and reading their declarations adds.  ``--before``
measures another checkout (e.g. main) the same way, its samples interleaved with these.
Figures are the processes' CPU time (steadier than the wall clock on a shared machine);
nothing is asserted.

Run: QT_QPA_PLATFORM=offscreen python -m benchmarks.newgame [--quick] [--before OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SAMPLE = r'''
import json, os, sys, tempfile, time
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp()  # a library of the bundled scenarios only
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QDialog, QFormLayout, QLineEdit, QSpinBox
app = QApplication([])
t = time.process_time()
bare = QDialog()
form = QFormLayout(bare)
for w in (QComboBox(), QLineEdit(), QLineEdit(), QSpinBox(), QCheckBox("practice"), QLineEdit()):
    form.addRow("x", w)
bare.show(); app.processEvents()
reference = time.process_time() - t
t = time.process_time()
from gwasl.ui.play.newgame import NewGameDialog
dlg = NewGameDialog(None, QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat))
dlg.show(); app.processEvents()
opened = time.process_time() - t
from gwasl.scenarios import bundled_scenario
t = time.process_time()
dlg.source.setText(str(bundled_scenario("ovillers-1916.json")))
dlg.source.editingFinished.emit(); app.processEvents()
chosen = time.process_time() - t
assert dlg.ok_button.isEnabled(), dlg.problem.text()
games = [m for m in ("gwasl.games.aslgw.game", "gwasl.games.combined_arms.game", "gwasl.games.on_patrol.game") if m in sys.modules]
print(json.dumps({"reference": reference, "opened": opened, "chosen": chosen, "games": games}))
'''

IMPORTS = r'''
import json, time
t = time.process_time()
import gwasl.games.aslgw.game
a = time.process_time()
import gwasl.games.combined_arms.game, gwasl.games.on_patrol.game
b = time.process_time()
print(json.dumps({"aslgw": a - t, "solitaire": b - a}))
'''


def _run(code: str, tree: Path, pycache: str) -> dict:
    # compiled bytecode kept apart from the tree (an installed gwasl has its own): the first
    # run writes it, so every sample measures imports as a user's start does
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=pycache)
    r = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, timeout=300)
    if r.returncode:
        raise SystemExit(f"the sample failed:\n{r.stderr}")
    out: dict = json.loads(r.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="one sample (a smoke run, figures meaningless)")
    p.add_argument("--samples", type=int, default=5)
    p.add_argument("--before", type=Path, help="another checkout of gwasl to measure the same way, samples interleaved")
    a = p.parse_args()
    n = 1 if a.quick else a.samples
    trees = [ROOT] + ([a.before] if a.before else [])
    runs: dict[Path, list[dict]] = {t: [] for t in trees}
    imports: dict[Path, list[dict]] = {t: [] for t in trees}
    with tempfile.TemporaryDirectory() as cache:
        for i, t in enumerate(trees):
            if not a.quick:
                _run(SAMPLE, t, f"{cache}/{i}")  # compiles the bytecode
        for _ in range(n):  # interleaved: a change in the machine's load falls on every tree alike
            for i, t in enumerate(trees):
                runs[t].append(_run(SAMPLE, t, f"{cache}/{i}"))
                # a smoke run spares the second process
                imports[t].append(_run(IMPORTS, t, f"{cache}/{i}") if not a.quick else {"aslgw": 0.0, "solitaire": 0.0})

    def med(key: str, rows: list[dict]) -> float:
        return statistics.median(r[key] for r in rows) * 1000

    for t in trees:
        ref, opened, chosen = med("reference", runs[t]), med("opened", runs[t]), med("chosen", runs[t])
        print(f"New game dialog ({t}), a fresh process each, CPU time, median of {n}:")
        print(f"  open (games listed, the default game's form)  {opened:7.0f} ms  ({opened / ref:.0f}x a bare dialog: {ref:.0f} ms)")
        print(f"  then choose a Great War scenario              {chosen:7.0f} ms")
        print(f"  open + choose                                 {opened + chosen:7.0f} ms")
        print(f"  games imported by then: {', '.join(runs[t][0]['games'])}")
        print(f"  apart: import the Great War game {med('aslgw', imports[t]):.0f} ms, "
              f"then the two solitaire games {med('solitaire', imports[t]):.0f} ms")


if __name__ == "__main__":
    main()
