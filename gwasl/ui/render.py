"""Headless drawing of the map to PNG and SVG, with the editor's own scene code.

``gwasl render`` and the editor's File > Export both come here, so the
picture a script gets is the one the editor shows.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsScene

from gwasl.model.scenario import Scenario
from gwasl.ui.drawable import OMNISCIENT, MapDrawing, drawing_for
from gwasl.ui.mapscene import MapScene

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
    img = QImage(size, QImage.Format_ARGB32_Premultiplied)
    img.fill(Qt.white)
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing, True)
    p.setRenderHint(QPainter.TextAntialiasing, True)
    scene.render(p, QRectF(0, 0, size.width(), size.height()), rect, Qt.IgnoreAspectRatio)
    p.end()
    return img


def render_image(drawing: MapDrawing, width: int | None = None) -> QImage:
    scene = MapScene()
    scene.set_drawing(drawing)
    return render_scene(scene, width)


def save_image(img: QImage, out: str | os.PathLike[str]) -> None:
    """Write ``img`` as PNG through a temporary file, so a failure leaves ``out`` untouched."""
    target = Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise RenderError(f"{target}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".png", dir=folder)
    os.close(fd)
    try:
        if not img.save(tmp, "PNG"):
            raise RenderError(f"{target}: could not write the PNG")
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        raise RenderError(f"{target}: could not write ({e.strerror or e})") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def render_png(scenario: Scenario, out: str | os.PathLike[str], viewer: str = OMNISCIENT, width: int | None = None) -> QImage:
    """Draw ``scenario`` as ``viewer`` sees it and write it to ``out``; returns the image."""
    ensure_app(offscreen=True)
    img = render_image(drawing_for(scenario, viewer), width)
    save_image(img, out)
    return img


def export_png(scene: QGraphicsScene, out: str | os.PathLike[str], width: int | None = None) -> None:
    save_image(render_scene(scene, width), out)


def export_svg(scene: QGraphicsScene, out: str | os.PathLike[str], title: str = "") -> None:
    """Write the scene as SVG (vector: zoomable, printable)."""
    from PySide6.QtSvg import QSvgGenerator

    target = Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise RenderError(f"{target}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".svg", dir=folder)
    os.close(fd)
    rect = scene.sceneRect()
    gen = QSvgGenerator()
    gen.setFileName(tmp)
    gen.setSize(QSize(round(rect.width()), round(rect.height())))
    gen.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    gen.setTitle(title or "gwasl map")
    p = QPainter()
    try:
        if not p.begin(gen):
            raise RenderError(f"{target}: could not write the SVG")
        scene.render(p, QRectF(0, 0, rect.width(), rect.height()), rect)
        p.end()
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        raise RenderError(f"{target}: could not write ({e.strerror or e})") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
