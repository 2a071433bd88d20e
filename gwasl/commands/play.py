"""``gwasl play [GAME]``: open the player window on a game file (or on File > New game)."""

from __future__ import annotations

import argparse
import os
import sys

from gwasl.commands.common import UsageError
from gwasl.commands.edit import has_display, start_window_probe

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="open the player window", description="Play a game in the player window: "
                       "GAME is a game file from 'gwasl game new' or an earlier session; without it, File > New game.")
    p.add_argument("game", nargs="?", help="game file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.game:
        from gwasl.store.gamefile import GameFileError, open_game

        try:
            open_game(args.game).close()  # one clear line before any window
        except GameFileError as e:
            from gwasl.model.scenario_io import ScenarioError, load_scenario

            try:  # a scenario: the window offers to start a new game from it
                load_scenario(args.game)
            except ScenarioError:
                raise UsageError(str(e)) from None
    if not has_display():
        print("gwasl play: no display found (DISPLAY/WAYLAND_DISPLAY unset); play from the command line with "
              "'gwasl game legal|act|show', or set QT_QPA_PLATFORM=offscreen", file=sys.stderr)
        return 2
    # a platform chosen explicitly is not probed (as `gwasl edit`); the window's modules load while the probe runs
    probe = None if os.environ.get("QT_QPA_PLATFORM") else start_window_probe()
    from gwasl.ui.play.app import run_player

    problem = probe() if probe is not None else None
    if problem:
        print(f"gwasl play: {problem}", file=sys.stderr)
        return 2

    return run_player(args.game)
