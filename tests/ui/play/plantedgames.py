"""Games and boards planted by the tests of "one place per game" (issue 23 item 3): a toy
game that declares everything a game can (its name, source, bundled sources, options and
board), toy games whose declared board fails, and the boards themselves."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from engine.toygame import ToyGame
from gwasl.engine.game import JSON_FILE, PRACTICE, SECRET, GameOption, SourceKind
from gwasl.ui.play.boards import Board, ViewBoard

#: the toy's bundled tracks (a test points it at a folder of its own)
TRACKS = Path("no-such-folder")


class ToyBoard(ViewBoard):
    """The declared toy's own board: the tree, under its own class name."""


class ExplodingBoard(Board):
    def __init__(self, parent=None) -> None:
        raise RuntimeError("planted: the board's constructor failed")


class NotABoard:
    def __init__(self, parent=None) -> None:
        pass


class DeclaredToy(ToyGame):
    """The toy race, declaring all a game declares."""

    ruleset: ClassVar[str] = "toy-declared"
    display_name: ClassVar[str] = "The toy race"
    source_kind: ClassVar[SourceKind] = SourceKind(JSON_FILE, "a toy track (JSON)", required=True,
                                                   search="search the toy's tracks: title", bundled=f"{__name__}:TRACKS")
    options_offered: ClassVar[tuple[GameOption, ...]] = (
        GameOption("auto_blue", "gwasl runs blue", rule="toy rule 1"), SECRET, PRACTICE)
    board: ClassVar[str] = f"{__name__}:ToyBoard"


class MissingBoardToy(ToyGame):
    ruleset: ClassVar[str] = "toy-missing-board"
    board: ClassVar[str] = "ui.play.no_such_module:NoBoard"


class ExplodingBoardToy(ToyGame):
    ruleset: ClassVar[str] = "toy-exploding-board"
    board: ClassVar[str] = f"{__name__}:ExplodingBoard"


class NotABoardToy(ToyGame):
    ruleset: ClassVar[str] = "toy-not-a-board"
    board: ClassVar[str] = f"{__name__}:NotABoard"
