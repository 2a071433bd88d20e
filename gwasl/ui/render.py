"""Headless drawing of the map to PNG and SVG, with the editor's own scene code.

``gwasl render`` and the editor's File > Export both come here, so the
picture a script gets is the one the editor shows.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsScene

from gwasl.model.files import atomic_target
from gwasl.model.scenario import Scenario
from gwasl.ui.drawable import OMNISCIENT, MapDrawing
from gwasl.ui.mapscene import MapScene
from gwasl.ui.seen import Seen

__all__ = ["RenderError", "ensure_app", "render_image", "render_png", "save_image", "export_png", "export_svg"]

DEFAULT_SCALE = 2.0


class RenderError(Exception):
    """The picture could not be written (bad folder, full disk...); no file was replaced."""


def ensure_app(offscreen: bool = False) -> QApplication:
    """The running QApplication, or a new one (offscreen when asked: no display needed)."""
    app = QApplication.instance()
    if app is None:
        if offscreen:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QApplication(["gwasl"])
    return app  # type: ignore[return-value]


def render_scene(scene: QGraphicsScene, width: int | None = None) -> QImage:
    """The whole scene as an image ``width`` pixels wide (default: twice scene size)."""
    rect = scene.sceneRect()
    scale = DEFAULT_SCALE if width is None else width / rect.width()
    size = QSize(max(1, round(rect.width() * scale)), max(1, round(rect.height() * scale)))
    img = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.white)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    scene.render(p, QRectF(0, 0, size.width(), size.height()), rect, Qt.AspectRatioMode.IgnoreAspectRatio)
    p.end()
    return img


def render_image(drawing: MapDrawing, width: int | None = None) -> QImage:
    scene = MapScene()
    scene.set_drawing(drawing)
    return render_scene(scene, width)


def _writable_target(out: str | os.PathLike[str]) -> Path:
    """``out`` as a path whose folder exists (a clear error names the missing folder)."""
    target = Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise RenderError(f"{target}: folder {folder} does not exist")
    return target


def save_image(img: QImage, out: str | os.PathLike[str]) -> None:
    """Write ``img`` as PNG through a temporary file, so a failure leaves ``out`` untouched."""
    target = _writable_target(out)
    try:
        with atomic_target(target, ".png") as tmp:
            if not img.save(str(tmp)):  # the ".png" suffix picks the format
                raise RenderError(f"{target}: could not write the PNG")
    except OSError as e:
        raise RenderError(f"{target}: could not write ({e.strerror or e})") from None


def render_png(scenario: Scenario, out: str | os.PathLike[str], viewer: str = OMNISCIENT, width: int | None = None) -> QImage:
    """Draw ``scenario`` as ``viewer`` sees it and write it to ``out``; returns the image."""
    ensure_app(offscreen=True)
    img = render_image(Seen.of(scenario, viewer).drawing, width)  # the drawing the editor's side view shows
    save_image(img, out)
    return img


def export_png(scene: QGraphicsScene, out: str | os.PathLike[str], width: int | None = None) -> None:
    """Write the map of ``scene`` as PNG (without the user's selection: :meth:`MapScene.for_export`)."""
    with _exporting(scene):
        img = render_scene(scene, width)
    save_image(img, out)


@contextmanager
def _exporting(scene: QGraphicsScene) -> Iterator[None]:
    if isinstance(scene, MapScene):
        with scene.for_export():
            yield
    else:
        yield


def export_svg(scene: QGraphicsScene, out: str | os.PathLike[str], title: str = "") -> None:
    """Write the scene as SVG (vector: zoomable, printable)."""
    from PySide6.QtSvg import QSvgGenerator

    target = _writable_target(out)
    rect = scene.sceneRect()
    try:
        with atomic_target(target, ".svg") as tmp:
            gen = QSvgGenerator()
            gen.setFileName(str(tmp))
            gen.setSize(QSize(round(rect.width()), round(rect.height())))
            gen.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
            gen.setTitle(title or "gwasl map")
            p = QPainter()
            if not p.begin(gen):
                raise RenderError(f"{target}: could not write the SVG")
            with _exporting(scene):
                scene.render(p, QRectF(0, 0, rect.width(), rect.height()), rect)
            p.end()
    except OSError as e:
        raise RenderError(f"{target}: could not write ({e.strerror or e})") from None
