"""The map view: zoom (wheel, keys, fit), pan (middle or right drag), and tool dispatch."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QKeySequence, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView

from gwasl.model.hexgrid import Hex
from gwasl.ui import style
from gwasl.ui.mapscene import MapScene

__all__ = ["MapView"]


class MapView(QGraphicsView):
    """Shows a :class:`MapScene`; hands hex-level mouse events to the current tool."""

    hexHovered = Signal(object)
    #: a right click (press and release without dragging) at this scene position
    rightClicked = Signal(QPointF)
    MIN_ZOOM, MAX_ZOOM = 0.05, 8.0

    def __init__(self, scene: MapScene, parent=None) -> None:
        super().__init__(scene, parent)
        self.mapscene = scene
        self.tool = None
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from: QPointF | None = None
        self._right_from: QPointF | None = None
        self._pressed = False
        self._last_hover: Hex | None = None
        #: the last whole-map zoom asked for (fit or home), redone when the view is resized;
        #: None once the user zooms by hand (a resize must not undo their zoom)
        self._follow: tuple[str, QPointF | None] | None = None

    # -- zoom ----------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        self._follow = None
        target = min(self.MAX_ZOOM, max(self.MIN_ZOOM, self.zoom * factor))
        f = target / self.zoom
        if abs(f - 1) > 1e-6:
            self.scale(f, f)

    def fit(self) -> None:
        """The whole map in the window (View > Fit map), however small its counters get."""
        self.fitInView(self.mapscene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self._follow = ("fit", None)

    def actual_size(self) -> None:
        """View > 100%: one scene pixel to one screen pixel."""
        self.resetTransform()

    def resetTransform(self) -> None:  # type: ignore[override]
        self._follow = None  # a zoom set by hand (or a test's 1:1): kept through resizes
        super().resetTransform()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        follow = self._follow
        if follow is not None and event.oldSize() != event.size():
            self.home(follow[1]) if follow[0] == "home" else self.fit()

    @property
    def counter_px(self) -> float:
        """How wide a counter is on screen at the current zoom."""
        return self.mapscene.layout.size * style.COUNTER_SCALE * self.zoom

    def home(self, centre: QPointF | None = None) -> None:
        """The opening view: the whole map when its counters are readable so, else
        counters :data:`~gwasl.ui.style.READABLE_COUNTER_PX` wide, centred on ``centre``."""
        self.fit()
        if self.counter_px < style.READABLE_COUNTER_PX:
            self.zoom_by(style.READABLE_COUNTER_PX / self.counter_px)
            if centre is not None:
                self.centerOn(centre)
        self._follow = ("home", centre)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.15 ** steps)
        event.accept()

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.ZoomIn) or event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(1.25)
        elif event.matches(QKeySequence.StandardKey.ZoomOut) or event.key() == Qt.Key.Key_Minus:
            self.zoom_by(1 / 1.25)
        elif event.key() == Qt.Key.Key_0:
            self.fit()
        else:
            super().keyPressEvent(event)

    # -- mouse -------------------------------------------------------------------------
    def _hex(self, event: QMouseEvent) -> tuple[Hex | None, QPointF]:
        pos = self.mapToScene(event.position().toPoint())
        return self.mapscene.hex_at(pos), pos

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.RightButton):
            self._pan_from = event.position()
            self._right_from = event.position() if event.button() == Qt.MouseButton.RightButton else None
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        h, pos = self._hex(event)
        if h is None:  # off the map, but maybe on a counter of a stack fanned out over the edge
            item, _ = self.mapscene.counter_at(pos)
            h = item.stack.hex if item is not None else None
        if event.button() == Qt.MouseButton.LeftButton and h is not None and self.tool is not None:
            self._pressed = True
            self.tool.press(h, pos, event.modifiers(), event.button())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            d = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(d.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(d.y()))
            event.accept()
            return
        h, pos = self._hex(event)
        if h != self._last_hover:
            self._last_hover = h
            self.hexHovered.emit(h)
        if self.tool is not None:
            if self._pressed:
                self.tool.drag(h, pos)
            else:
                self.tool.hover(h, pos)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None and event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.RightButton):
            self._pan_from = None
            self.setCursor(self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            event.accept()
            at, self._right_from = self._right_from, None
            if event.button() == Qt.MouseButton.RightButton and at is not None:
                d = event.position() - at
                if abs(d.x()) + abs(d.y()) <= 4:  # a click, not a pan
                    self.rightClicked.emit(self.mapToScene(event.position().toPoint()))
            return
        if self._pressed and event.button() == Qt.MouseButton.LeftButton:
            self._pressed = False
            h, pos = self._hex(event)
            if self.tool is not None:
                self.tool.release(h, pos)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def set_tool(self, tool) -> None:
        if self.tool is not None and self.tool is not tool:
            self.tool.deactivate()
        self.tool = tool
        self._pressed = False
        if tool is not None:
            self.setCursor(tool.cursor)
            tool.activate()
