"""Headless drawing of the map to PNG and SVG, with the editor's own scene code.

``gwasl render`` and the editor's File > Export both come here, so the
picture a script gets is the one the editor shows, and both write through
:class:`gwasl.model.files.atomic_target`: an export never replaces a folder,
FIFO or device, nor (without ``force``) a file that is not a picture of its
format, and writes through a symlink (issue 18.1).

A picture is at most :data:`MAX_SIDE` pixels a side and :data:`MAX_PIXELS`
in all (issue 17.8): the image is held in memory whole (4 bytes a pixel), so
this bounds memory; without an asked width the largest map is drawn smaller
than twice its natural size, to at most :data:`DEFAULT_MAX_PIXELS`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsScene

from gwasl.model.errors import GwaslError
from gwasl.model.files import FileError, atomic_target, check_output_path
from gwasl.model.scenario import Scenario
from gwasl.ui.drawable import OMNISCIENT, MapDrawing
from gwasl.ui.mapscene import MapScene
from gwasl.ui.seen import Seen

__all__ = [
    "RenderError",
    "ImageTooLargeError",
    "ensure_app",
    "image_size",
    "render_image",
    "render_png",
    "save_image",
    "export_png",
    "export_svg",
]

DEFAULT_SCALE = 2.0
#: Largest picture side, in pixels (Qt's own limit is 32767).
MAX_SIDE = 16384
#: Largest picture, in pixels: 40 megapixels are 160 MB in memory.
MAX_PIXELS = 40_000_000
#: Largest picture drawn when no width is asked (a 208 x 200 map at twice its size would be 390 Mpx).
DEFAULT_MAX_PIXELS = 16_000_000
#: Qt's PNG "quality" 80 is zlib level 1 (Qt maps quality q to level (100 - q) * 9 / 91): the same
#: pixels as the default level, written in two thirds of the time (a 16 Mpx map: 1.0 s -> 0.7 s)
#: for a file about 40% larger.
PNG_QUALITY = 80


class RenderError(GwaslError):
    """The picture could not be written (bad folder, full disk...); no file was replaced.

    ``file_error`` is the :class:`~gwasl.model.files.FileError` behind it, if any (the
    command line adds how to force replacing a file of another format)."""

    def __init__(self, message: str, file_error: FileError | None = None) -> None:
        super().__init__(message)
        self.file_error = file_error


class ImageTooLargeError(RenderError):
    """The asked width would make a picture larger than :data:`MAX_SIDE` / :data:`MAX_PIXELS`."""


def ensure_app(offscreen: bool = False) -> QApplication:
    """The running QApplication, or a new one (offscreen when asked: no display needed)."""
    app = QApplication.instance()
    if app is None:
        if offscreen:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QApplication(["gwasl"])
    return app  # type: ignore[return-value]


def image_size(scene_width: float, scene_height: float, width: int | None = None) -> QSize:
    """The picture size for a scene: ``width`` wide (keeping the aspect), or by default twice the
    scene's size shrunk to at most :data:`DEFAULT_MAX_PIXELS`.

    Raises :class:`ImageTooLargeError` naming the largest width allowed when ``width`` is too large.
    """
    sw, sh = max(scene_width, 1.0), max(scene_height, 1.0)
    if width is None:
        scale = min(DEFAULT_SCALE, (DEFAULT_MAX_PIXELS / (sw * sh)) ** 0.5, MAX_SIDE / sw, MAX_SIDE / sh)
        return QSize(max(1, int(sw * scale)), max(1, int(sh * scale)))
    height = round(sh * width / sw)
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        largest = int(min(MAX_SIDE, MAX_SIDE * sw / sh, (MAX_PIXELS * sw / sh) ** 0.5))
        raise ImageTooLargeError(
            f"a picture {width} pixels wide would be {width:,} x {height:,} pixels; gwasl draws at most "
            f"{MAX_SIDE:,} pixels a side and {MAX_PIXELS // 1_000_000} megapixels: at most {largest:,} pixels wide for this map"
        )
    return QSize(max(1, width), max(1, height))


def render_scene(scene: QGraphicsScene, width: int | None = None) -> QImage:
    """The whole scene as an image ``width`` pixels wide (default: see :func:`image_size`)."""
    rect = scene.sceneRect()
    size = image_size(rect.width(), rect.height(), width)
    img = QImage(size, QImage.Format.Format_RGB32)  # the map is opaque: no alpha, a faster PNG
    if img.isNull():
        raise RenderError(f"not enough memory for a {size.width():,} x {size.height():,} picture")
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


def _writable_target(out: str | os.PathLike[str], kind: str, force: bool) -> Path:
    """``out``, checked before anything is drawn: its folder exists, and what is there may be
    replaced (a regular file, of ``kind`` unless ``force``)."""
    target = Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise RenderError(f"{target}: folder {folder} does not exist")
    try:
        check_output_path(target, kind, force)
    except FileError as e:
        raise RenderError(str(e), e) from None
    return target


def save_image(img: QImage, out: str | os.PathLike[str], force: bool = False) -> None:
    """Write ``img`` as PNG through a temporary file, so a failure leaves ``out`` untouched."""
    target = _writable_target(out, "png", force)
    try:
        with atomic_target(target, ".png", kind="png", force=force) as tmp:
            if not img.save(str(tmp), None, PNG_QUALITY):  # the ".png" suffix picks the format
                raise RenderError(f"{target}: could not write the PNG")
    except FileError as e:
        raise RenderError(str(e), e) from None
    except OSError as e:
        raise RenderError(f"{target}: could not write ({e.strerror or e})") from None


def render_png(
    scenario: Scenario, out: str | os.PathLike[str], viewer: str = OMNISCIENT, width: int | None = None, force: bool = False
) -> QImage:
    """Draw ``scenario`` as ``viewer`` sees it and write it to ``out``; returns the image."""
    _writable_target(out, "png", force)  # refuse before drawing a large picture for nothing
    ensure_app(offscreen=True)
    scene = MapScene()
    scene.set_drawing(Seen.of(scenario, viewer).drawing)  # the drawing the editor's side view shows
    rect = scene.sceneRect()
    image_size(rect.width(), rect.height(), width)  # too large: say so before drawing
    img = render_scene(scene, width)
    save_image(img, out, force)
    return img


def export_png(scene: QGraphicsScene, out: str | os.PathLike[str], width: int | None = None, force: bool = False) -> None:
    """Write the map of ``scene`` as PNG (without the user's selection: :meth:`MapScene.for_export`)."""
    _writable_target(out, "png", force)
    with _exporting(scene):
        img = render_scene(scene, width)
    save_image(img, out, force)


@contextmanager
def _exporting(scene: QGraphicsScene) -> Iterator[None]:
    if isinstance(scene, MapScene):
        with scene.for_export():
            yield
    else:
        yield


def export_svg(scene: QGraphicsScene, out: str | os.PathLike[str], title: str = "", force: bool = False) -> None:
    """Write the scene as SVG (vector: zoomable, printable)."""
    from PySide6.QtSvg import QSvgGenerator

    target = _writable_target(out, "svg", force)
    rect = scene.sceneRect()
    try:
        with atomic_target(target, ".svg", kind="svg", force=force) as tmp:
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
    except FileError as e:
        raise RenderError(str(e), e) from None
    except OSError as e:
        raise RenderError(f"{target}: could not write ({e.strerror or e})") from None
