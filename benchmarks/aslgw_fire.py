"""Speed of fire and close combat in play (ruleset aslgw, issue 12), in memory.

Prints medians and a ratio against a simple reference measured in the same run
(never asserted in tests):

* the fire listed in a PFPh (every fire option of the side to act) against the
  bare LOS look-ups it needs (every firer to every enemy Location);
* a fire action's exact odds (NTCs, all 36 DR through the attack's outcome
  function) against the IFT table's own 36-DR distribution (``ift_distribution``);
* one fire action, apply + reduce (roll, results, morale checks) against reducing
  a phase change;
* a close combat's exact odds (ambush drs, 36 x 36 DR) against the CCT's 36-DR
  distribution (``cc_distribution``);
* a whole fought game (a fight-seeking random player, tests/games/aslgw) per action,
  and its replay per event.

Run: python -m benchmarks.aslgw_fire [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from gwasl.engine.dice import GameDice  # noqa: E402
from gwasl.engine.game import GameOptions  # noqa: E402
from gwasl.engine.session import Session  # noqa: E402
from gwasl.games.aslgw.actions import close_combat as ml  # noqa: E402
from gwasl.games.aslgw.actions import fire as fr  # noqa: E402
from gwasl.games.aslgw.game import AslgwGame  # noqa: E402
from gwasl.games.aslgw.knowledge import env  # noqa: E402
from gwasl.games.aslgw.records import CloseCombat, Fire, PhaseBegan  # noqa: E402
from gwasl.rules.ift import cc_distribution, ift_distribution  # noqa: E402
from gwasl.scenarios import bundled_scenario  # noqa: E402


def median_us(fn: Callable[[], object], n: int) -> float:
    out = []
    for _ in range(max(1, n)):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out) * 1e6


def line(name: str, t: float, ref_name: str, ref: float) -> None:
    print(f"{name:<34} {t:9.1f} us   {ref_name:<30} {ref:9.1f} us   ratio {t / ref:7.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few repeats, one fought game (the test suite's smoke run)")
    args = ap.parse_args()
    div = 10 if args.quick else 1
    game = AslgwGame()
    src = json.loads(Path(bundled_scenario("schwaben-redoubt-1916.json")).read_text(encoding="utf-8"))
    s = Session.new(game, src, 1, GameOptions())
    while s.status().phase != "PFPh":
        s.act(s.legal()[0].action)
    side = s.status().side
    assert side is not None
    viewer = game.viewer(s.state, side)
    print(f"== schwaben-redoubt-1916: {side}'s PFPh")
    sc = s.state.scenario
    sees = env().sees(sc)
    mine = [u for u in sc.units if u.side == side]
    targets = [(u.hex, u.position) for u in sc.units if u.side != side] + [(x.hex, x.position) for x in s.state.fog.stacks if x.side != side]

    def bare_los() -> None:
        for u in mine:
            for h, p in targets:
                sees(u.hex, h, u.position, p)

    line("fire options (PFPh)", median_us(lambda: fr.fire_options(s.state, viewer), 100 // div),
         "LOS of every firer to every target", median_us(bare_los, 100 // div))
    acts = fr.fire_options(s.state, viewer)
    act = max((a for a in acts if isinstance(a, Fire)), key=lambda a: len(a.firers))
    line("fire odds (largest fire group)", median_us(lambda: fr.fire_odds(s.state, act, viewer), 100 // div),
         "ift_distribution (table only)", median_us(lambda: ift_distribution(12, 2), 100 // div))

    def apply_fire() -> None:
        st = s.state
        for ev in game.apply(st, act, GameDice(7, s.dice_position)):
            st = game.reduce(st, ev)

    phase = PhaseBegan(s.state.turn, s.state.phasing, "MPh")
    line("apply + reduce one fire", median_us(apply_fire, 100 // div), "reduce a phase change",
         median_us(lambda: game.reduce(s.state, phase), 100 // div))
    cc_doc = {
        "format": "gwasl-scenario/1", "title": "cc", "date": "1915-06-01", "map": {"columns": 6, "rows": 6},
        "sides": {"german": {"nationality": "german"}, "french": {"nationality": "french"}},
        "units": [{"id": "G", "side": "german", "kind": "squad", "class": "first_line", "hex": "C3"},
                  {"id": "L", "side": "german", "kind": "leader", "rating": "9-1", "hex": "C3"},
                  {"id": "F", "side": "french", "kind": "squad", "class": "first_line", "hex": "C3", "hidden": "concealed"}],
    }
    c = Session.new(game, cc_doc, 1, GameOptions())
    while c.status().phase != "CCPh":
        c.act(next(a.action for a in c.legal() if a.action.kind == "end_phase"))
    omni = game.viewer(c.state, "omniscient")
    cc = CloseCombat("C3", "hex")
    line("CC odds (ambush, 36 x 36 DR)", median_us(lambda: ml.odds(c.state, cc, omni), 20 // div + 1),
         "cc_distribution (table only)", median_us(lambda: cc_distribution(7, -1), 100 // div))
    from games.aslgw.combat_support import fight

    games = 1 if args.quick else 4
    actions = events = 0
    t_play = t_replay = 0.0
    for seed in range(games):
        g = Session.new(game, src, seed, GameOptions())
        t = time.perf_counter()
        actions += fight(g, random.Random(seed))
        t_play += time.perf_counter() - t
        events += sum(len(e.events) for e in g.entries)
        t = time.perf_counter()
        assert g.replay_check().identical
        t_replay += time.perf_counter() - t
    print(f"{'a fought game, per action':<34} {t_play * 1e6 / actions:9.1f} us   ({games} games, {actions} actions, {t_play:.2f} s)")
    print(f"{'its replay_check, per event':<34} {t_replay * 1e6 / events:9.1f} us   ({events} events, {t_replay:.2f} s)")


if __name__ == "__main__":
    main()
