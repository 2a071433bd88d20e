"""``gwasl render GAME``: the current position of a game, as one viewer sees it, to a PNG.

The picture is the game's board in the player window, drawn from the view
only (CONTRACTS 5: two games that differ only in facts hidden from a viewer
give that viewer identical pictures).
"""

from __future__ import annotations

import os

from PySide6.QtGui import QImage

from gwasl.engine.game import PLAYER
from gwasl.store.gamefile import open_game
from gwasl.ui.play.boards import BoardError, load_board
from gwasl.ui.render import RenderError, ensure_app, render_scene, save_image

__all__ = ["render_game_png"]

#: the size of a board drawn as a widget (boards without a scene of their own)
WIDGET_SIZE = (1400, 900)


def render_game_png(path: str | os.PathLike[str], out: str | os.PathLike[str], viewer: str = PLAYER,
                    width: int | None = None, force: bool = False) -> QImage:
    """Draw the game in ``path`` as ``viewer`` sees it now and write it to ``out``.

    Raises GameFileError for a bad game file, GameError for an unknown viewer,
    RenderError when the game's board cannot be built or the picture written."""
    ensure_app(offscreen=True)
    with open_game(path, "r") as gf:  # read-only: drawing never changes the game file
        v = gf.session.viewer(viewer)
        try:
            board = load_board(gf.ruleset)
        except BoardError as e:  # a picture of the failure would pass for the position
            raise RenderError(f"{path}: {e}") from e
        board.set_source(gf.meta.get("source"))
        board.show_view(gf.game.view(gf.session.state, v), [])
        scene = getattr(board, "scene", None)
        if scene is not None:
            img = render_scene(scene, width)
        else:
            w, h = WIDGET_SIZE
            if width is not None:
                w, h = width, round(width * h / w)
            board.resize(w, h)
            img = board.grab().toImage()
        if img.isNull():
            raise RenderError(f"{path}: the board could not be drawn")
        save_image(img, out, force)
        return img
