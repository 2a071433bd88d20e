"""The player window: play a game alone, its file saved as it is played.

Everything the window shows comes from the controller's views for its
viewer (``player`` by default: what the person at the desk may know); it
changes the game only by sending actions and take-backs.  Docks: the legal
actions with the exact odds of the selected one, the dice and events log
(each roll with its modifiers and rules, each automated decision with its
reasons), and the history, which steps back and forward through every
event read-only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSlider,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from gwasl.engine.game import OMNISCIENT, PLAYER, GameError, IllegalAction
from gwasl.engine.session import LegalAction
from gwasl.store.gamefile import GameFileError, open_game
from gwasl.ui import plain
from gwasl.ui.play.boards import Board, board_for
from gwasl.ui.play.controller import GameController

__all__ = ["END_KINDS", "PlayerWindow"]

GAME_FILTER = "gwasl games (*.game);;All files (*)"
MAX_RECENT = 8
#: action kinds the "End phase" button and shortcut take (each game names its own)
END_KINDS = ("end_phase", "end_turn", "end")


# Tooltips Qt shows as the literal text, never as markup: the editor's one helper (gwasl.ui.plain).
plain_tip = plain.tooltip


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
        self._refresh()

    # -- building ------------------------------------------------------------------
    def _build_docks(self) -> None:
        self.actions_list = QListWidget()
        self.actions_list.itemActivated.connect(self._activated)
        self.actions_list.currentItemChanged.connect(self._show_odds)
        self.odds_label = QLabel()
        self.odds_label.setTextFormat(Qt.TextFormat.PlainText)
        self.odds_label.setWordWrap(True)
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.actions_list, 1)
        lay.addWidget(self.odds_label)
        self.actions_dock = self._dock("Actions", box, Qt.DockWidgetArea.RightDockWidgetArea, "actions")

        self.log_list = QListWidget()
        self.log_list.setWordWrap(True)
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

        self.new_action = action("&New game…", self.new_game_dialog, QKeySequence.StandardKey.New)
        self.open_action = action("&Open game…", self.open_game_dialog, QKeySequence.StandardKey.Open)
        self.close_action = action("&Close game", self.close_game, QKeySequence.StandardKey.Close)
        self.end_action = action("&End phase", self.end_phase, "Ctrl+E")
        self.undo_action = action("&Take back", self.undo, QKeySequence.StandardKey.Undo)
        self.live_action = action("&Live position", self.go_live, "Ctrl+L")
        tb = QToolBar("Play")
        tb.setObjectName("play")
        tb.addAction(self.end_action)
        tb.addAction(self.undo_action)
        tb.addAction(self.live_action)
        self.addToolBar(tb)

    def _build_menus(self) -> None:
        m = self.menuBar().addMenu("&File")
        m.addAction(self.new_action)
        m.addAction(self.open_action)
        self.recent_menu = m.addMenu("Open &recent")
        m.addAction(self.close_action)
        g = self.menuBar().addMenu("&Game")
        g.addAction(self.end_action)
        g.addAction(self.undo_action)
        g.addAction(self.live_action)
        self.view_menu = g.addMenu("&See the game as")
        self._fill_recent()

    # -- loading -------------------------------------------------------------------
    def set_controller(self, controller: GameController) -> None:
        self.close_game()
        self.controller = controller
        controller.changed.connect(self._refresh)
        self.board = board_for(controller.file.ruleset, self)
        self.board.set_source(controller.file.meta.get("source"))
        if hasattr(self.board, "odds"):  # a board that shows an action's exact odds before it is committed
            self.board.odds = controller.odds
        self.board.action_requested.connect(self.request)
        self.setCentralWidget(self.board)
        self._fill_view_menu()
        self._remember(str(controller.file.path))
        self._refresh()

    def open_game_path(self, path: str) -> bool:
        try:
            gf = open_game(path)
        except GameFileError as e:
            self.tell("Cannot open the game", str(e))
            return False
        self.set_controller(GameController(gf))
        return True

    def close_game(self) -> None:
        if self.controller is not None:
            self.controller.changed.disconnect(self._refresh)
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

    def new_game_dialog(self) -> None:
        from gwasl.ui.play.newgame import NewGameDialog

        dlg = NewGameDialog(self, self.settings)
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
        try:
            shown = self.controller.act(action)
        except IllegalAction as e:
            self.tell("Not allowed", str(e))
            return False
        except (GameError, GameFileError) as e:
            self.tell("The game could not go on", str(e))
            return False
        if shown:
            self.statusBar().showMessage(shown[-1]["text"], 8000)
        return True

    def _activated(self, item: QListWidgetItem) -> None:
        la: LegalAction | None = item.data(Qt.ItemDataRole.UserRole)
        if la is not None:
            self.request(la.action)

    def _show_odds(self, item: QListWidgetItem | None, _prev: Any = None) -> None:
        la: LegalAction | None = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
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
        for la in self.controller.legal():
            if la.shown.kind in END_KINDS:
                self.request(la.action)
                return
        self.tell("End phase", "There is no phase to end now.")

    def undo(self) -> None:
        if self.controller is None:
            return
        try:
            ok, reason = self.controller.undo()
        except (GameError, GameFileError) as e:
            ok, reason = False, str(e)
        if not ok:
            self.tell("Take back", f"Not taken back: {reason}")

    def go_live(self) -> None:
        if self.controller is not None:
            self.controller.step_to(self.controller.history_length)

    def _history_moved(self, value: int) -> None:
        if self.controller is not None and value != self.controller.position:
            self.controller.step_to(value)

    def set_viewer(self, name: str) -> None:
        if self.controller is not None:
            self.controller.set_viewer(name)

    # -- drawing ----------------------------------------------------------------------
    def _refresh(self) -> None:
        c = self.controller
        for a in (self.end_action, self.undo_action, self.live_action, self.close_action):
            a.setEnabled(c is not None)
        if c is None:
            self.actions_list.clear()
            self.log_list.clear()
            self.status_label.setText("")
            self.history_label.setText("")
            self.setWindowTitle("gwasl: play")
            return
        view = c.view()
        legal = c.legal()
        st = c.status()
        self.setWindowTitle(f"gwasl: {view.get('title') or c.file.ruleset}, {Path(c.file.path).name}")
        if st.over:
            result = dict(st.result or {})
            self.status_label.setText(f"Game over: {result.get('why', '')}")
        else:
            self.status_label.setText(f"Turn {st.turn}  ·  {st.phase}  ·  {st.side} to act"
                                      + ("" if c.live else "  ·  history (read-only)"))
        self.actions_list.clear()
        for la in legal:
            item = QListWidgetItem(la.shown.text)
            item.setData(Qt.ItemDataRole.UserRole, la)
            self.actions_list.addItem(item)
        self.end_action.setEnabled(any(la.shown.kind in END_KINDS for la in legal))
        self.log_list.clear()
        for e in c.log():
            self.log_list.addItem(self._log_item(e))
        self.log_list.scrollToBottom()
        self.history_slider.blockSignals(True)
        self.history_slider.setRange(0, c.history_length)
        self.history_slider.setValue(c.position)
        self.history_slider.blockSignals(False)
        self.history_label.setText(f"event {c.position} of {c.history_length}")
        self.live_button.setEnabled(not c.live)
        if self.board is not None:
            self.board.show_view(view, legal)

    def _log_item(self, e: dict[str, Any]) -> QListWidgetItem:
        text = e["text"]
        item = QListWidgetItem(text)
        tip = [text]
        if e.get("kind") == "roll":
            tip.append("dice: " + " + ".join(str(d) for d in e.get("dice", [])))
            tip += [f"{m['value']:+d}  {m['cause']}" for m in e.get("modifiers", [])]
            tip.append(f"final: {e.get('final')}")
        if e.get("kind") == "decision":
            details = e.get("details") or {}
            tip += [f"{k}: {v}" for k, v in details.items()]
        item.setToolTip(plain_tip("\n".join(tip)))
        return item

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

    # -- messages and recent files ------------------------------------------------------
    def tell(self, title: str, text: str) -> None:
        """A message box with the literal text (tests replace it to collect messages)."""
        self.messages.append((title, text))
        plain.message(self, QMessageBox.Icon.Information, title, text)

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
        self.close_game()
        super().closeEvent(event)
