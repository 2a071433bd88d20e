"""The player window: play a game alone, its file saved as it is played.

Everything the window shows comes from the controller's views for its
viewer (``player`` by default: what the person at the desk may know); it
changes the game only by sending actions and take-backs.  Docks: the legal
actions grouped by stack and unit, with the exact odds of the selected one
(and its units and hexes outlined on the map), the dice and events log
(each roll with its modifiers and rules, each automated decision with its
reasons; a clicked line outlined on the map), the history, which steps back
and forward through every event read-only, the victory panel and the
scenario card counted live (Scenario > Scenario card).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QHelpEvent, QKeySequence, QMouseEvent, QTextCursor
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QToolBar,
    QToolTip,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gwasl.engine.advice import candidates_of
from gwasl.engine.game import OMNISCIENT, PLAYER, Decision, GameError, IllegalAction
from gwasl.engine.session import LegalAction
from gwasl.store.gamefile import GameChangedOnDisk, GameFileError, open_game
from gwasl.ui import plain
from gwasl.ui.errors import is_scenario_file
from gwasl.ui.helpmenu import add_help_menu
from gwasl.ui.layout import restore_layout, save_layout
from gwasl.ui.play.actions import ActionsTree
from gwasl.ui.play.boards import Board, board_for, game_name
from gwasl.ui.play.card import ScenarioCard
from gwasl.ui.play.controller import GameController

__all__ = ["END_KINDS", "LogLine", "LogView", "PlayerWindow", "victory_text"]

GAME_FILTER = "gwasl games (*.game);;All files (*)"
MAX_RECENT = 8
#: action kinds the "End phase" button and shortcut take, first found first (each game names its own);
#: a shift window or a platoon impulse in progress ends first, when the phase cannot yet
END_KINDS = ("end_phase", "end_turn", "end", "end_window", "end_impulse", "pass")  # pass: a duty of the player's against gwasl (issue 25)


#: what the mouse does on a Great War map (Help > Keyboard shortcuts says it too)
MOUSE_HELP = ("Mouse: drag a stack (or one counter of a fanned-out stack) to a tinted hex to move it; "
              "click or right-click a stack for every action at its hex; hover a counter for its markers; "
              "Shift+drag (or the LOS thread button) draws a line of sight; the wheel zooms, a right or middle drag pans.")

# Tooltips Qt shows as the literal text, never as markup: the editor's one helper (gwasl.ui.plain).
plain_tip = plain.tooltip


def _sides_of(d: dict[str, Any]) -> str:
    counts: dict[str, int] = {}
    for side in d.values():
        counts[str(side)] = counts.get(str(side), 0) + 1
    return ", ".join(f"{side} {n}" for side, n in sorted(counts.items()))


def victory_text(view: dict[str, Any], result: Mapping[str, Any] | None) -> str:
    """The victory panel: the result once the game is over; Control and VP as the view
    knows them (a game whose view has neither shows its result only)."""
    lines = []
    if result is not None:
        winner = result.get("winner")
        lines.append(f"Result: {winner} wins" if winner else "Result: no winner")
        if result.get("why"):
            lines.append(str(result["why"]))
        lines += [f"  {x}" for x in result.get("details") or () if isinstance(x, str)]
        if "score" in result:
            lines.append(f"Score: {result['score']}")
        lines.append("")
    control = view.get("control")
    if isinstance(control, dict):
        hexes, buildings = control.get("hexes") or {}, control.get("buildings") or {}
        lines.append("Control (hexes): " + (_sides_of(hexes) or "none yet"))
        for name, side in sorted(buildings.items()):
            lines.append(f"  building {name}: {side}")
        for loc in control.get("locations") or ():
            lines.append(f"  {loc.get('hex')} level {loc.get('level')} {loc.get('in')}: {loc.get('side')}")
    vp = view.get("vp")
    if isinstance(vp, dict):
        for key, name in (("cvp", "Casualty VP"), ("exit", "Exit VP")):
            got = vp.get(key) or {}
            if got:
                lines.append(f"{name}: " + ", ".join(f"{side} {n}" for side, n in got.items()))
        sources = vp.get("lines") or ()
        if sources:
            lines.append("VP sources:")  # casualty and exit VP alike, each with its rule
            lines += [f"  {x}" for x in sources]
    return "\n".join(lines).strip()


#: what starts each event's paragraph in the log, so that wrapped sentences stay apart
BULLET = "• "


@dataclass(frozen=True)
class LogLine:
    """One line of the log: its sentence and the details shown on hover."""

    sentence: str
    details: str

    def text(self) -> str:
        return self.sentence

    def toolTip(self) -> str:  # the list widget's name, for code that reads either
        return self.details


class LogView(QPlainTextEdit):
    """The dice and events log: one paragraph per event, read-only.  A text document, not
    a list of widgets' items, so a game of thousands of events takes a line in about a
    millisecond; hovering a line shows its details (a roll's dice and modifiers, a
    decision's candidates); clicking one says which (``line_picked``)."""

    line_picked = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._lines: list[str] = []
        self._tips: list[str] = []

    def count(self) -> int:
        return len(self._lines)

    def item(self, i: int) -> LogLine:
        """Line ``i`` as a list widget would give it (``text()``, ``toolTip()``)."""
        return LogLine(self._lines[i], self._tips[i])

    def lines(self) -> list[str]:
        return list(self._lines)

    def text(self, i: int) -> str:
        return self._lines[i]

    def tip(self, i: int) -> str:
        return self._tips[i]

    def clear_lines(self) -> None:
        self._lines, self._tips = [], []
        self.clear()

    def append_lines(self, lines: Sequence[tuple[str, str]]) -> None:
        if not lines:
            return
        self._lines += [t for t, _ in lines]
        self._tips += [tip for _, tip in lines]
        self.appendPlainText("\n".join(BULLET + t for t, _ in lines))
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def keep(self, n: int) -> None:
        """Keep the first ``n`` lines (stepping back through history)."""
        if n >= len(self._lines):
            return
        if n == 0:
            self.clear_lines()
            return
        del self._lines[n:], self._tips[n:]
        doc = self.document()
        cur = QTextCursor(doc.findBlockByNumber(n - 1))
        cur.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        cur.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cur.removeSelectedText()

    def line_at(self, pos: QPoint) -> int:
        """The line under ``pos`` (viewport coordinates), or -1."""
        n = self.cursorForPosition(pos).blockNumber()
        return n if 0 <= n < len(self._lines) else -1

    def mouseReleaseEvent(self, e: QMouseEvent) -> None:
        super().mouseReleaseEvent(e)
        if e.button() == Qt.MouseButton.LeftButton:
            n = self.line_at(e.position().toPoint())
            if n >= 0:
                self.line_picked.emit(n)

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            n = self.cursorForPosition(self.viewport().mapFromGlobal(e.globalPos())).blockNumber()
            if 0 <= n < len(self._tips):
                QToolTip.showText(e.globalPos(), self._tips[n], self)
            else:
                QToolTip.hideText()
            return True
        return super().event(e)


class _AnswerArea(QScrollArea):
    """The suggestion and the plans under the Actions list: as tall as their text where the dock
    has room, scrolled where it has not (never cut); hidden while neither is shown."""

    #: the least height it is squeezed to (a few lines), so the Actions list keeps its room too
    LEAST = 72

    def __init__(self, labels: tuple[QLabel, ...]) -> None:
        super().__init__()
        inner = QWidget()
        lay = QVBoxLayout(inner)
        lay.setContentsMargins(0, 0, 0, 0)
        for label in labels:
            lay.addWidget(label)
            label.installEventFilter(self)
        lay.addStretch(0)
        self._labels = labels
        inner.installEventFilter(self)
        self.setWidget(inner)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.hide()

    def eventFilter(self, obj: Any, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.setVisible(any(not label.isHidden() for label in self._labels))
            self._fit()
        elif event.type() == QEvent.Type.LayoutRequest:
            self._fit()
        return False

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """The text's whole height at the width it has (a scroll area does not ask its widget's
        height for a width: wrapped labels would be squeezed, their lines cut)."""
        inner = self.widget()
        lay = inner.layout() if inner is not None else None
        if inner is None or lay is None:
            return
        need = lay.totalHeightForWidth(max(self.viewport().width(), 100))
        if inner.minimumHeight() != need:
            inner.setMinimumHeight(need)
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        inner = self.widget()
        lay = inner.layout() if inner is not None else None
        height = lay.totalHeightForWidth(max(self.viewport().width(), 100)) if lay is not None else 0
        return QSize(super().sizeHint().width(), max(height, 0) + 2 * self.frameWidth())

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), min(self.LEAST, self.sizeHint().height()))


class PlayerWindow(QMainWindow):
    """One game in play.  ``open_game_path`` or ``set_controller`` loads a game."""

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings if settings is not None else QSettings("gwasl", "gwasl")
        self.controller: GameController | None = None
        self.board: Board | None = None
        self.setWindowTitle("gwasl: play")
        self.resize(1300, 850)
        self._placeholder = QLabel("File > New game… or File > Open game… to play.")
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setTextFormat(Qt.TextFormat.PlainText)
        self.setCentralWidget(self._placeholder)
        self._build_docks()
        self._build_actions()
        self._build_menus()
        self.messages: list[tuple[str, str]] = []
        self._restore_layout()
        self._log_seqs: list[int] = []  # the seq of each line of the log dock
        self._log: list[dict[str, Any]] = []  # the log as last drawn
        self._refresh()

    # -- building ------------------------------------------------------------------
    def _build_docks(self) -> None:
        self.actions_list = ActionsTree()
        self.actions_list.itemActivated.connect(lambda item, _col=0: self._activated(item))
        self.actions_list.currentItemChanged.connect(self._show_odds)
        self.odds_label = QLabel()
        self.odds_label.setTextFormat(Qt.TextFormat.PlainText)
        self.odds_label.setWordWrap(True)
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.actions_list, 1)
        lay.addWidget(self.odds_label)
        # Game > Suggest a move answers here, under the list it selects in (never a modal box)
        self.suggest_label = QLabel()
        self.suggest_label.setTextFormat(Qt.TextFormat.PlainText)
        self.suggest_label.setWordWrap(True)
        self.suggest_label.setObjectName("suggestion")
        self.suggest_label.setStyleSheet("QLabel#suggestion { background: #eef5e4; border: 1px solid #9bbf7a; padding: 3px; }")
        self.suggest_label.hide()
        # an advisor's plans (issue 27 item 11), best first: each with its win chance, what it rests on, why
        self.plans_label = QLabel()
        self.plans_label.setTextFormat(Qt.TextFormat.PlainText)
        self.plans_label.setWordWrap(True)
        self.plans_label.setObjectName("plans")
        self.plans_label.setStyleSheet("QLabel#plans { background: #f4f8ee; border: 1px solid #9bbf7a; padding: 3px; }")
        self.plans_label.hide()
        for label in (self.suggest_label, self.plans_label):  # never squeezed below their wrapped text
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        # both in a scroll area: a long suggestion scrolls where the window is too short for it (at
        # 800 px the plans were cut off by the dock's bottom), and is shown whole where there is room
        self.suggest_area = _AnswerArea((self.suggest_label, self.plans_label))
        lay.addWidget(self.suggest_area)
        self.actions_dock = self._dock("Actions", box, Qt.DockWidgetArea.RightDockWidgetArea, "actions")

        self.log_list = LogView()
        self.log_list.line_picked.connect(self._log_line_picked)
        self.log_dock = self._dock("Dice and events", self.log_list, Qt.DockWidgetArea.RightDockWidgetArea, "log")

        self.history_slider = QSlider(Qt.Orientation.Horizontal)
        self.history_slider.valueChanged.connect(self._history_moved)
        self.history_label = QLabel()
        self.history_label.setTextFormat(Qt.TextFormat.PlainText)
        self.live_button = QPushButton("Live")
        self.live_button.clicked.connect(self.go_live)
        hbox = QWidget()
        hl = QHBoxLayout(hbox)
        hl.setContentsMargins(4, 2, 4, 2)
        hl.addWidget(QLabel("History"))
        hl.addWidget(self.history_slider, 1)
        hl.addWidget(self.history_label)
        hl.addWidget(self.live_button)
        self.history_dock = self._dock("History", hbox, Qt.DockWidgetArea.BottomDockWidgetArea, "history")

        self.victory_label = QLabel()
        self.victory_label.setTextFormat(Qt.TextFormat.PlainText)
        self.victory_label.setWordWrap(True)
        self.victory_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.victory_dock = self._dock("Victory", self.victory_label, Qt.DockWidgetArea.RightDockWidgetArea, "victory")

        self.bookmarks_list = QListWidget()
        self.bookmarks_list.itemActivated.connect(self._bookmark_activated)
        self.bookmark_button = QPushButton("Bookmark")
        self.bookmark_button.clicked.connect(self.add_bookmark)
        hl.insertWidget(3, self.bookmark_button)
        self.bookmarks_dock = self._dock("Bookmarks", self.bookmarks_list, Qt.DockWidgetArea.RightDockWidgetArea, "bookmarks")
        # what the players play for, with its count now (Scenario > Scenario card)
        self.card = ScenarioCard()
        self.card_dock = self._dock("Scenario card", self.card, Qt.DockWidgetArea.RightDockWidgetArea, "card")
        self.tabifyDockWidget(self.victory_dock, self.bookmarks_dock)
        self.tabifyDockWidget(self.victory_dock, self.card_dock)
        self.victory_dock.raise_()

        # the turn record, the phase and the side to act, always in sight above the map
        self.turn_label = QLabel()
        self.turn_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label = QLabel()
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addPermanentWidget(self.status_label)

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea, name: str) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(name)
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def _build_actions(self) -> None:
        def action(text: str, slot: Any, shortcut: Any = None) -> QAction:
            a = QAction(text, self)
            a.triggered.connect(slot)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            return a

        self.new_action = action("&New game…", lambda: self.new_game_dialog(), QKeySequence.StandardKey.New)
        self.open_action = action("&Open game…", self.open_game_dialog, QKeySequence.StandardKey.Open)
        self.close_action = action("&Close game", self.close_game, QKeySequence.StandardKey.Close)
        self.end_action = action("&End phase", self.end_phase, "Ctrl+E")
        self.undo_action = action("&Take back", self.undo, QKeySequence.StandardKey.Undo)
        self.live_action = action("&Live position", self.go_live, "Ctrl+L")
        self.suggest_action = action("&Suggest a move", self.suggest, "Ctrl+H")
        self.quit_action = action("&Quit", self.close, "Ctrl+Q")  # spelt out: some platforms bind no standard Quit key
        self.card_action = action("Scenario &card", self.show_card, "F2")
        self.los_action = action("LOS &thread", self._los_toggled, "V")
        self.los_action.setCheckable(True)
        self.los_action.setEnabled(False)
        # View > Zoom: every board's map (the Great War map, Combined Arms, On Patrol) alike
        self.zoom_in_action = action("Zoom &in", lambda: self._zoom("by", 1.25), QKeySequence.StandardKey.ZoomIn)
        self.zoom_out_action = action("Zoom &out", lambda: self._zoom("by", 0.8), QKeySequence.StandardKey.ZoomOut)
        self.zoom_fit_action = action("&Fit the map", lambda: self._zoom("fit"), "Ctrl+0")
        self.zoom_actual_action = action("&100%", lambda: self._zoom("actual"))
        self.los_action.setToolTip("Drag on the map to check a line of sight over what you know of it (Shift+drag does it too)")
        self.continue_action = action("&Continue to my next decision", self.continue_to_decision, "Ctrl+Return")
        # issue 25: how fast gwasl's answers come -- all at once, one per press of Space, or one
        # every PACE_MS; the window waits between them, so it stays responsive
        self.pace = "instant"
        self._continuing = False  # Continue to my next decision is under way
        self._continue_left = 0
        self.pace_actions: dict[str, QAction] = {}
        for key, text in (("instant", "gwasl plays &instantly"), ("step", "gwasl plays one action per &Space"),
                          ("normal", "gwasl plays at a &normal pace")):
            a = action(text, lambda _=False, k=key: self.set_pace(k))
            a.setCheckable(True)
            a.setChecked(key == self.pace)
            self.pace_actions[key] = a
        self.next_action = action("gwasl's &next action", self.gwasl_next, "Space")
        self.addAction(self.next_action)
        tb = QToolBar("Play")
        tb.setObjectName("play")
        tb.addAction(self.end_action)
        tb.addAction(self.undo_action)
        tb.addAction(self.live_action)
        tb.addAction(self.los_action)
        tb.addSeparator()
        tb.addWidget(self.turn_label)
        self.addToolBar(tb)

    def _build_menus(self) -> None:
        m = self.menuBar().addMenu("&File")
        m.addAction(self.new_action)
        m.addAction(self.open_action)
        self.recent_menu = m.addMenu("Open &recent")
        m.addAction(self.close_action)
        m.addSeparator()
        m.addAction(self.quit_action)
        g = self.menuBar().addMenu("&Game")
        g.addAction(self.end_action)
        g.addAction(self.undo_action)
        g.addAction(self.live_action)
        g.addAction(self.suggest_action)
        g.addAction(self.los_action)
        g.addAction(self.continue_action)
        pace = g.addMenu("gwasl's &pace")
        for a in self.pace_actions.values():
            pace.addAction(a)
        g.addAction(self.next_action)
        self.view_menu = g.addMenu("&See the game as")
        v = self.menuBar().addMenu("&View")
        for a in (self.zoom_in_action, self.zoom_out_action, self.zoom_fit_action, self.zoom_actual_action):
            v.addAction(a)
        v.addSeparator()
        for d in (self.actions_dock, self.log_dock, self.history_dock, self.victory_dock, self.bookmarks_dock, self.card_dock):
            v.addAction(d.toggleViewAction())
        sc = self.menuBar().addMenu("&Scenario")
        sc.addAction(self.card_action)
        self.help_actions = add_help_menu(self, MOUSE_HELP)
        self._fill_recent()

    def _zoom(self, how: str, factor: float = 1.0) -> None:
        if self.board is None:
            return
        if how == "by":
            self.board.zoom_by(factor)
        elif how == "fit":
            self.board.zoom_fit()
        else:
            self.board.zoom_actual()

    #: the settings key of the docks' layout (and the window's size), kept between sessions
    LAYOUT_KEY = "player/layout"

    def _restore_layout(self) -> None:
        restore_layout(self, self.settings, self.LAYOUT_KEY)

    def save_layout(self) -> None:
        save_layout(self, self.settings, self.LAYOUT_KEY)

    # -- loading -------------------------------------------------------------------
    def set_controller(self, controller: GameController) -> None:
        self.close_game()
        self.controller = controller
        controller.changed.connect(self._refresh)
        controller.answered.connect(self._answered)
        controller.advised.connect(self._advised)
        self.board = board_for(controller.file.ruleset, self)
        self.board.set_source(controller.file.meta.get("source"))
        if hasattr(self.board, "odds"):  # a board that shows an action's exact odds before it is committed
            self.board.odds = controller.odds
        if hasattr(self.board, "why_not"):  # a board that says why a drag is refused
            self.board.why_not = controller.why_not
        self.los_action.setEnabled(hasattr(self.board, "los_mode"))
        self.los_action.setChecked(False)
        self.board.action_requested.connect(self.request)
        self.setCentralWidget(self.board)
        self._fill_view_menu()
        self._remember(str(controller.file.path))
        self._refresh()
        carded = controller.file.ruleset == "aslgw"
        self.card_action.setEnabled(carded)
        self.card_dock.setVisible(carded)
        if carded:
            self.show_card()  # a game opens on what it is played for

    def open_game_path(self, path: str) -> bool:
        try:
            gf = open_game(path)
        except GameFileError as e:
            if is_scenario_file(path):  # a scenario, not a saved game: offer to start one from it
                if self.ask_new_game_from(path):
                    self.new_game_dialog(path)
                return False
            self.tell("Cannot open the game", str(e))
            return False
        self.set_controller(GameController(gf))
        return True

    def close_game(self) -> None:
        if self.controller is not None:
            self.controller.changed.disconnect(self._refresh)
            self.controller.answered.disconnect(self._answered)
            self.controller.advised.disconnect(self._advised)
            self._continuing = False
            self.controller.close()
            self.controller = None
            self._placeholder = QLabel("File > New game… or File > Open game… to play.")
            self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.setCentralWidget(self._placeholder)
            self.board = None
            self._refresh()

    def open_game_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open game", self._last_dir(), GAME_FILTER)
        if path:
            self.open_game_path(path)

    def ask_new_game_from(self, path: str) -> bool:
        """Whether to start a new game from the scenario ``path`` (tests replace this)."""
        answer = plain.message(
            self, QMessageBox.Icon.Question, "Open game",
            f"{path} is a scenario, not a saved game.\n\nStart a new game from it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        return answer == QMessageBox.StandardButton.Yes

    def new_game_dialog(self, source_path: str | None = None) -> None:
        from gwasl.ui.play.newgame import NewGameDialog

        dlg = NewGameDialog(self, self.settings, source_path=source_path)
        if dlg.exec() and dlg.created is not None:
            self.set_controller(GameController(dlg.created))

    # -- acting ----------------------------------------------------------------------
    def request(self, action: Any) -> bool:
        """Send ``action`` to the game; a refusal is shown with the rule that forbids it."""
        if self.controller is None:
            return False
        if not self.controller.live:
            self.tell("History", "You are looking at an earlier position; press Live to play on.")
            return False
        if self.gwasl_busy():
            self.tell("gwasl is playing", "gwasl's side is still answering: wait, or press Space for its next action.")
            return False
        if self.controller.is_final(action) and not self.confirm_final(action):
            return False
        try:
            # against gwasl its answers are thought out in another thread at every pace (issue 25
            # item 6); the quick replies of a side whose secrets gwasl only keeps come with the action
            shown = self.controller.act(action, paced=self.pace != "instant" or self.controller.against_gwasl)
        except IllegalAction as e:
            self.tell("Not allowed", str(e))
            return False
        except GameChangedOnDisk as e:
            self.offer_reload(str(e))
            return False
        except (GameError, GameFileError) as e:
            self.tell("The game could not go on", str(e))
            return False
        if shown:
            self.statusBar().showMessage(shown[-1]["text"], 8000)
        self._pace_next()
        return True

    # -- gwasl's answers, paced (issue 25) ---------------------------------------------------
    PACE_MS = 700

    def set_pace(self, pace: str) -> None:
        self.pace = pace
        for k, a in self.pace_actions.items():
            a.setChecked(k == pace)
        self._pace_next()

    def gwasl_busy(self) -> bool:
        """Whether gwasl's side is answering (or Continue to my next decision is under way):
        the player's own actions wait meanwhile."""
        c = self.controller
        return c is not None and (c.gwasl_to_act() or c.thinking or self._continuing)

    def _pace_next(self) -> None:
        """After the player's action: gwasl's next answer now, after PACE_MS, or on Space.
        Every answer is thought out in another thread (:meth:`GameController.think`) and
        played on this one when it is ready, so the window answers while gwasl thinks."""
        c = self.controller
        if c is None or not c.gwasl_to_act():
            if self._continuing:
                self._continue_step()
            return
        if self.pace == "instant" or self._continuing:
            self.gwasl_next(all_of_it=True)
        elif self.pace == "normal":
            QTimer.singleShot(self.PACE_MS, self.gwasl_next)
        else:
            self.statusBar().showMessage("gwasl's turn: press Space for its next action", 8000)

    def gwasl_next(self, all_of_it: bool = False) -> None:
        """One action of gwasl's side, decided in another thread and shown as it comes
        (``all_of_it``, the instant pace: :meth:`_answered` asks for the next one as soon as
        this one is in, until the player is to act)."""
        c = self.controller
        if c is None or not c.gwasl_to_act():
            return
        if c.think():
            self.statusBar().showMessage("gwasl is thinking…", 8000)

    def _answered(self, shown: Any) -> None:
        """gwasl's decision from the thinking thread is in the game: show it, light it up, go on."""
        c = self.controller
        if c is None:
            return
        if isinstance(shown, Exception):
            self._continuing = False
            self.tell("The game could not go on", str(shown))
            return
        if shown:
            self.statusBar().showMessage(shown[-1]["text"], 8000)
            last = c.session.entries[-1]
            flash = getattr(self.board, "flash", None)
            if last.kind == "auto" and last.action and flash is not None:
                flash(dict(last.action))  # who acted and where, for a moment
        self._pace_next()

    def final_question(self, action: Any) -> str:
        """What the window asks before a step that ends the game for good: the step in the game's
        words and, when the game knows them, the exact chances of each final score (for Combined
        Arms the distribution of ``gwasl game odds GAME end_game``) and their mean."""
        assert self.controller is not None
        words = next((la.shown.text for la in self.controller.legal() if la.action == action), action.kind.replace("_", " "))
        text = f"{words[:1].upper()}{words[1:]}?\n\nThis ends the game and cannot be taken back."
        try:
            outcomes = self.controller.odds(action)
        except GameError:
            outcomes = []
        end = self.controller.view().get("end_now")
        if isinstance(end, dict) and "mean" in end:
            text += (f"\n\nEnding now you score {end['mean']:.2f} on average, "
                     f"with a {end['win_chance']:.1%} chance of a win.")
        if outcomes:
            shown = outcomes[:12]
            text += "\n\nEach final score and its exact chance:\n" + "\n".join(f"{o.p:7.2%}  {o.result}" for o in shown)
            if len(outcomes) > len(shown):
                text += f"\n… and {len(outcomes) - len(shown)} less likely scores"
        return text

    def confirm_final(self, action: Any) -> bool:
        """Ask before a step that ends the game for good (issue 26.6); No is the default."""
        answer = plain.message(self, QMessageBox.Icon.Warning, "End the game?", self.final_question(action),
                               QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _activated(self, item: QTreeWidgetItem) -> None:
        la: LegalAction | None = item.data(0, Qt.ItemDataRole.UserRole)
        if la is not None:
            self.request(la.action)

    def _show_odds(self, item: QTreeWidgetItem | None, _prev: Any = None) -> None:
        """The selected action's exact odds under the list, and its units and hexes on the map
        (a group header: every unit and hex of its actions)."""
        la: LegalAction | None = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        if self.board is not None:
            picked = self.actions_list.group_of(item) if item is not None else []
            self.board.highlight_actions(picked)
        if la is None or self.controller is None:
            self.odds_label.setText("")
            return
        try:
            outcomes = self.controller.odds(la.action)
        except GameError:
            outcomes = []
        self.odds_label.setText("\n".join(f"{o.p:6.1%}  {o.result}" for o in outcomes) if outcomes else "")

    def end_phase(self) -> None:
        if self.controller is None:
            return
        legal = self.controller.legal()
        for kind in END_KINDS:  # the phase itself first; a shift window when only it can end
            for la in legal:
                if la.shown.kind == kind:
                    self.request(la.action)
                    return
        self.tell("End phase", "There is no phase to end now.")

    #: actions Continue to my next decision takes at most in one go (a game that does not advance)
    CONTINUE_LIMIT = 400

    def continue_to_decision(self) -> None:
        """Game > Continue to my next decision: the phases where you have nothing to decide
        pass (against gwasl, its answers come with them, thought out in another thread as at
        the instant pace); it stops at your next choice.  It goes one step per turn of the
        event loop, so the window keeps answering (issue 25 item 6)."""
        if self.controller is None or not self.controller.live or self._continuing:
            return
        self._continuing = True
        self._continue_left = self.CONTINUE_LIMIT
        self._continue_step()

    def _continue_step(self) -> None:
        """One step of Continue to my next decision: gwasl's answer (in its thread), or the
        player's one passing action, or the stop at a choice."""
        c = self.controller
        if c is None or not self._continuing:
            self._continuing = False
            return
        if c.thinking:
            return  # its answer comes back through _answered
        if c.gwasl_to_act():
            self.gwasl_next(all_of_it=True)
            return
        self._continue_left -= 1
        try:
            shown = c.continue_step() if self._continue_left > 0 else None
        except (GameError, GameFileError) as e:
            self._continuing = False
            self.tell("The game could not go on", str(e))
            return
        if shown is None:  # a choice of the player's, the result, or the history: it stops here
            self._continuing = False
            self.statusBar().showMessage("Your decision.", 4000)
            return
        if shown:
            self.statusBar().showMessage(shown[-1]["text"], 8000)
        QTimer.singleShot(0, self._continue_step)

    def suggest(self) -> None:
        """Game > Suggest a move: the game's own best policy's choice, selected in the Actions
        list, and its reason, under the list (a Great War scenario: gwasl's opponent, issue 25;
        Combined Arms: the advisor's plans ranked, issue 27).  Worked out in another thread, so
        the window answers meanwhile (:meth:`_advised` shows it).  Nothing is played."""
        if self.controller is None:
            return
        if self.controller.advising:
            return  # its answer comes back through _advised
        if not self.controller.advise():
            self._advised((None, None))
            return
        self.suggest_label.setText("Suggest a move: gwasl is weighing its plans…")  # not a message: the answer is
        self.suggest_label.show()
        self.plans_label.hide()

    def _advised(self, got: Any) -> None:
        """The suggestion from the advising thread: shown if the game is still where it was asked."""
        state, hint = got
        c = self.controller
        if c is None:
            return
        c.advice_done()
        if state is not None and (state is not c.session.state or not c.live):
            self.suggest_label.hide()  # asked of a position the game has left: it would mislead
            return
        if isinstance(hint, Exception):
            self.note("Suggest a move", f"gwasl could not suggest a move: {hint}")
            return
        if hint is None:
            self.note("Suggest a move", "gwasl has no suggestion here: this game has no policy of its own, "
                                        "it is not your turn, the side to act keeps its secrets from you, "
                                        "or you are looking at an earlier position.")
            return
        name, decision = hint
        for item in self.actions_list.action_items():
            la = item.data(Qt.ItemDataRole.UserRole)
            if la is not None and la.action == decision.action:
                self.actions_list.setCurrentItem(item)
                self.actions_list.scrollToItem(item)
                self.note("Suggest a move", f"gwasl's {name} policy would: {la.shown.text}\n\nWhy: {decision.why}")
                self._show_plans(decision)
                return
        self.note("Suggest a move", f"gwasl's {name} policy: {decision.why}")
        self._show_plans(decision)

    def _show_plans(self, decision: Decision) -> None:
        """The advisor's plans under the suggestion, best first, each with its win chance (and
        the rollouts it rests on, or exact) and why; nothing for a single policy's hint."""
        ranked = candidates_of(decision)
        if not ranked:
            return
        lines = ["Plans tried, best first (win chance; rollouts on dice of their own, never the game's):"]
        lines += [f"{c.plan}: {c.chance_text()} - {c.why}" for c in ranked]
        self.plans_label.setText("\n".join(lines))
        self.plans_label.show()

    def note(self, title: str, text: str) -> None:
        """An answer shown under the Actions list, not in a modal box (it goes with the
        window's other messages, :attr:`messages`)."""
        self.messages.append((title, text))
        self.suggest_label.setText(f"{title}: {text}")
        self.suggest_label.show()
        self.plans_label.hide()  # the plans go with the suggestion that shows them

    def undo(self) -> None:
        if self.controller is None:
            return
        try:
            ok, reason = self.controller.undo()
        except GameChangedOnDisk as e:
            self.offer_reload(str(e))
            return
        except (GameError, GameFileError) as e:
            ok, reason = False, str(e)
        if not ok:
            self.tell("Take back", f"Not taken back: {reason}")
            return
        st = self.controller.status()
        self.statusBar().showMessage(f"Taken back: turn {st.turn}, {st.phase}, {st.side or 'no one'} to act", 8000)

    def show_card(self) -> None:
        """Scenario > Scenario card: the card, with its victory conditions counted now."""
        self.card_dock.show()
        self.card_dock.raise_()

    def _los_toggled(self, on: bool) -> None:
        if self.board is not None and hasattr(self.board, "los_mode"):
            self.board.los_mode = bool(on)
            if not on:
                getattr(self.board, "clear_los", lambda: None)()

    def go_live(self) -> None:
        if self.controller is not None:
            self.controller.step_to(self.controller.history_length)

    def _history_moved(self, value: int) -> None:
        if self.controller is not None and value != self.controller.position:
            self.controller.step_to(value)
            self._show_step_event()

    def _show_step_event(self) -> None:
        """In history: the map outlines what the last event shown is about (where it is: the
        view is not moved while the slider is dragged)."""
        c = self.controller
        if c is None or self.board is None or c.live:
            return
        log = self._log
        self.board.highlight_event(log[-1] if log else None, bring_into_view=False)
        if log:
            self.statusBar().showMessage(f"Event {c.position}: {' '.join(str(log[-1]['text']).split())}")

    def _log_line_picked(self, n: int) -> None:
        """A click in the log: the map outlines the units and hexes of that line."""
        c = self.controller
        if c is None or self.board is None:
            return
        if 0 <= n < len(self._log_seqs):
            seq = self._log_seqs[n]
            event = next((e for e in self._log if e["seq"] == seq), None)
            self.board.highlight_event(event)

    # -- bookmarks: history positions worth coming back to, kept per game file ---------
    def _bookmark_key(self) -> str:
        assert self.controller is not None
        return "bookmarks/" + str(Path(self.controller.file.path).resolve()).replace("/", "|")

    def bookmarks(self) -> list[tuple[int, str]]:
        """(event count, label) of the open game's bookmarks, in history order."""
        if self.controller is None:
            return []
        raw = self.settings.value(self._bookmark_key(), [])
        out = []
        for x in raw if isinstance(raw, list) else [raw] if raw else []:
            pos, _, label = str(x).partition("\t")
            if pos.isdigit():
                out.append((int(pos), label))
        return sorted(out)

    def add_bookmark(self) -> None:
        """Mark the position shown now (live or in history) with its turn and phase."""
        c = self.controller
        if c is None:
            return
        st = c.status()
        label = f"event {c.position}: turn {st.turn}, {st.phase}" + (", game over" if st.over else "")
        marks = dict(self.bookmarks())
        marks[c.position] = label
        self.settings.setValue(self._bookmark_key(), [f"{p}\t{t}" for p, t in sorted(marks.items())])
        self._fill_bookmarks()

    def _fill_bookmarks(self) -> None:
        self.bookmarks_list.clear()
        for pos, label in self.bookmarks():
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, pos)
            self.bookmarks_list.addItem(item)

    def _bookmark_activated(self, item: QListWidgetItem) -> None:
        if self.controller is not None:
            self.controller.step_to(int(item.data(Qt.ItemDataRole.UserRole)))
            self._show_step_event()

    def set_viewer(self, name: str) -> None:
        if self.controller is not None:
            self.log_list.clear_lines()  # the same events, in another viewer's words
            self._log_seqs = []
            self.controller.set_viewer(name)

    # -- drawing ----------------------------------------------------------------------
    def _refresh(self) -> None:
        c = self.controller
        for a in (self.end_action, self.undo_action, self.live_action, self.close_action):
            a.setEnabled(c is not None)
        if c is None:
            self.card_action.setEnabled(False)
        if c is None:
            self.actions_list.set_actions([], [])
            self.suggest_label.hide()
            self.plans_label.hide()
            self.log_list.clear_lines()
            self._log_seqs = []
            self.bookmarks_list.clear()
            self.status_label.setText("")
            self.turn_label.setText("")
            self.victory_label.setText("")
            self.history_label.setText("")
            self.card.show_card(None)
            self.setWindowTitle("gwasl: play")
            return
        self._draw(c)

    def _draw(self, c: GameController) -> None:
        self.statusBar().clearMessage()  # it spoke of the position before (an action says its own after)
        view = c.view()
        legal = c.legal()
        st = c.status()
        name = view.get("title") or view.get("scenario") or game_name(c.file.ruleset)
        self.setWindowTitle(plain.window_title(f"{name} - {Path(c.file.path).name} - gwasl"))
        turns = view.get("turns")
        record = f"Turn {st.turn}" + (f" of {turns}" if isinstance(turns, int) else "")
        if st.over:
            result = dict(st.result or {})
            self.status_label.setText(f"Game over: {result.get('why', '')}")
            self.turn_label.setText(f"{record}  ·  game over")
        else:
            self.status_label.setText(f"{record}  ·  {st.phase}  ·  {st.side} to act"
                                      + ("" if c.live else "  ·  history (read-only)"))
            self.turn_label.setText(f"{record}  ·  {st.phase}  ·  {st.side} to act")
        self.victory_label.setText(victory_text(view, st.result if st.over else None))
        if c.file.ruleset == "aslgw":  # the solitaire games have no scenario card (their rules say what to play for)
            extra = (c.file.meta.get("options") or {}).get("extra") or {}
            self.card.show_card(c.file.meta.get("source"), view, extra.get("balance") if isinstance(extra, dict) else None)
        # refilled without signals: the odds are computed when the user selects an action,
        # not for whichever one becomes current while the list is rebuilt
        if self.board is not None:
            self.board.show_view(view, legal)  # first: the board groups the actions by what it draws
        board = self.board
        self.actions_list.set_actions(legal, [board.action_group(la) if board is not None else () for la in legal])
        self.odds_label.setText("")
        self.suggest_label.hide()  # a suggestion was for the position before
        self.plans_label.hide()
        self.end_action.setEnabled(any(la.shown.kind in END_KINDS for la in legal))
        self._log = c.log()
        self._fill_log(self._log)
        self.history_slider.blockSignals(True)
        self.history_slider.setRange(0, c.history_length)
        self.history_slider.setValue(c.position)
        self.history_slider.blockSignals(False)
        self.history_label.setText(f"event {c.position} of {c.history_length}")
        self.live_button.setEnabled(not c.live)
        self._fill_bookmarks()

    def _fill_log(self, log: list[dict[str, Any]]) -> None:
        """Show ``log``, touching only the lines that changed (a long game has thousands)."""
        shown = self._log_seqs
        seqs = [e["seq"] for e in log]
        same = min(len(shown), len(seqs))
        if shown[:same] != seqs[:same]:  # usually equal (an action adds lines): compared in C
            same = next(i for i, (have, seq) in enumerate(zip(shown, seqs, strict=False)) if have != seq)
        self.log_list.keep(same)
        self.log_list.append_lines([self._log_line(e) for e in log[same:]])
        self._log_seqs = seqs

    @staticmethod
    def _log_line(e: dict[str, Any]) -> tuple[str, str]:
        """An event's line in the log, and the details shown when hovering it."""
        text = " ".join(str(e["text"]).split())  # one line each
        tip = [text]
        if e.get("kind") == "roll":
            tip.append("dice: " + " + ".join(str(d) for d in e.get("dice", [])))
            tip += [f"{m['value']:+d}  {m['cause']}" for m in e.get("modifiers", [])]
            tip.append(f"final: {e.get('final')}")
        if e.get("kind") == "decision":
            details = e.get("details") or {}
            tip += [f"{k}: {v}" for k, v in details.items()]
        if e.get("why") and e["why"] not in text:  # an automated decision's reason, in the line itself
            text = " ".join(f"{text} (why: {e['why']})".split())
        return text, plain_tip("\n".join(tip))

    def _fill_view_menu(self) -> None:
        self.view_menu.clear()
        c = self.controller
        if c is None:
            return
        game, state = c.session.game, c.session.state
        names = [PLAYER]
        secret = game.secret_sides(state)
        names += [s for s in game.sides(state) if s not in secret]  # never a kept-secret side
        if not secret:
            names.append(OMNISCIENT)
        for name in names:
            a = self.view_menu.addAction(plain.action_text(name))
            a.triggered.connect(lambda _=False, n=name: self.set_viewer(n))

    def offer_reload(self, why: str) -> bool:
        """The game changed on disk (another gwasl wrote to it) and nothing was done here:
        offer to reload it from the file (issue 28 item 2); True if reloaded."""
        if self.controller is None:
            return False
        path = str(self.controller.file.path)
        if not self.ask("The game changed on disk", f"{why}\n\nReload the game from the file, as it is now?"):
            return False
        return self.open_game_path(path)

    # -- messages and recent files ------------------------------------------------------
    def tell(self, title: str, text: str) -> None:
        """A message box with the literal text (tests replace it to collect messages)."""
        self.messages.append((title, text))
        plain.message(self, QMessageBox.Icon.Information, title, text)

    def ask(self, title: str, text: str) -> bool:
        """A yes/no question with the literal text (tests replace it to answer)."""
        self.messages.append((title, text))
        yes, no = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
        return plain.message(self, QMessageBox.Icon.Question, title, text, yes | no, yes) == yes

    def _last_dir(self) -> str:
        recent = self.recent_games()
        return str(Path(recent[0]).parent) if recent else str(Path.home())

    def recent_games(self) -> list[str]:
        v = self.settings.value("recent_games", [])
        return [str(x) for x in (v if isinstance(v, list) else [v] if v else [])]

    def _remember(self, path: str) -> None:
        recent = [p for p in self.recent_games() if p != path]
        self.settings.setValue("recent_games", [path, *recent][:MAX_RECENT])
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.recent_games():
            a = self.recent_menu.addAction(plain.action_text(p))
            a.triggered.connect(lambda _=False, path=p: self.open_game_path(path))
        self.recent_menu.setEnabled(bool(self.recent_games()))

    def closeEvent(self, event: Any) -> None:
        self.save_layout()
        self.close_game()
        super().closeEvent(event)
