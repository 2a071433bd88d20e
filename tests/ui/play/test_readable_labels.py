"""Issue 26.9: at the default window every label on the Combined Arms and On Patrol boards
reads at least 11 px high with a contrast of at least 4.5:1 (WCAG 2), measured on the
rendered board: each label's height from the painter's font at the scale it is drawn, its
ink as drawn, its background the commonest colour of the rendered pixels under it."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QPointF, QRect, QRectF
from PySide6.QtGui import QColor, QFontInfo, QImage
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.store.gamefile import create_game
from gwasl.ui.play.combined_arms_board import CombinedArmsBoard
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.labels import contrast
from gwasl.ui.play.on_patrol_board import OnPatrolBoard

MIN_HEIGHT, MIN_CONTRAST = 11.0, 4.5


def _background(img: QImage, rect: QRect) -> QColor:
    """The commonest colour of the pixels in ``rect`` (the glyphs cover far fewer)."""
    r = rect.intersected(img.rect())
    counts = Counter(img.pixel(x, y) for x in range(r.left(), r.right() + 1) for y in range(r.top(), r.bottom() + 1))
    return QColor.fromRgb(counts.most_common(1)[0][0])


def _play(window, tmp_path, ruleset: str, steps: int) -> None:
    gf = create_game(tmp_path / f"{ruleset}.game", game_for(ruleset), None, 7, GameOptions())
    window.set_controller(GameController(gf))
    c = window.controller
    for _ in range(steps):  # a position with fresh and spent platoons, enemy counters and a mortar
        s = c.session.suggest("raid" if ruleset == "combined-arms" else None)  # the policy alone, fast
        if s is None or c.view()["over"] or s[1].action.kind in ("end_game", "break_off"):
            break
        c.act(s[1].action)


def _measure(labels, img: QImage) -> list[tuple[str, float, float]]:
    out = []
    for text, rect, px, ink in labels:
        bg = _background(img, rect.toAlignedRect())
        out.append((text, px, contrast(ink, bg)))
    return out


def test_combined_arms_labels_read_at_the_default_window(qtbot, window, tmp_path):
    """Platoons bigger, not buff on tan when spent: every text on the board and its aids."""
    _play(window, tmp_path, "combined-arms", 40)
    board = window.board
    assert isinstance(board, CombinedArmsBoard) and window.size().width() == 1300
    qtbot.wait(30)
    img = board.grab().toImage()
    scale = board.view.transform().m11()
    labels = []
    for item in board.scene.items():
        if isinstance(item, QGraphicsSimpleTextItem) and item.isVisible():
            poly = board.view.mapFromScene(item.sceneBoundingRect())
            rect = QRectF(poly.boundingRect()).translated(QPointF(board.view.viewport().mapTo(board, QPointF(0, 0).toPoint())))
            labels.append((item.text(), rect, QFontInfo(item.font()).pixelSize() * scale, item.brush().color()))
    off = QPointF(board.tracks.mapTo(board, QPointF(0, 0).toPoint()))
    labels += [(d.text, d.rect.translated(off), d.px, d.ink) for d in board.tracks.drawn]
    assert len(labels) > 150 and any(t == "D2" for t, *_ in labels)
    measured = _measure(labels, img)
    small = [(t, round(px, 1)) for t, px, _ in measured if px < MIN_HEIGHT]
    faint = [(t, round(c, 2)) for t, _, c in measured if c < MIN_CONTRAST]
    assert not small, small
    assert not faint, faint
    print(f"combined arms: smallest label {min(px for _, px, _ in measured):.1f} px, lowest contrast {min(c for _, _, c in measured):.2f}:1")


def test_on_patrol_labels_read_at_the_default_window_and_sit_inside_their_hulls(qtbot, window, tmp_path):
    _play(window, tmp_path, "on-patrol", 6)
    board = window.board
    assert isinstance(board, OnPatrolBoard)
    qtbot.wait(30)
    img = board.canvas.grab().toImage()
    drawn = board.canvas.drawn
    assert any(d.text.startswith("U1") for d in drawn), "the boat is drawn with its label"
    measured = _measure([(d.text, d.rect, d.px, d.ink) for d in drawn], img)
    assert not [(t, px) for t, px, _ in measured if px < MIN_HEIGHT]
    assert not [(t, c) for t, _, c in measured if c < MIN_CONTRAST]
    for d in drawn:
        hull = board.canvas.hulls[d.text]
        assert hull.contains(d.rect.center()) and hull.boundingRect().adjusted(-1, -1, 1, 1).contains(d.rect), d.text
    print(f"on patrol: smallest label {min(px for _, px, _ in measured):.1f} px, lowest contrast {min(c for _, _, c in measured):.2f}:1")
