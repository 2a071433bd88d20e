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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QHelpEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSlider,
    QToolBar,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from gwasl.engine.game import OMNISCIENT, PLAYER, GameError, IllegalAction
from gwasl.engine.session import LegalAction
from gwasl.store.gamefile import GameFileError, open_game
from gwasl.ui import plain
from gwasl.ui.play.boards import Board, board_for
from gwasl.ui.play.controller import GameController

__all__ = ["END_KINDS", "LogLine", "LogView", "PlayerWindow", "victory_text"]

GAME_FILTER = "gwasl games (*.game);;All files (*)"
MAX_RECENT = 8
#: action kinds the "End phase" button and shortcut take, first found first (each game names its own);
#: a shift window or a platoon impulse in progress ends first, when the phase cannot yet
END_KINDS = ("end_phase", "end_turn", "end", "end_window", "end_impulse", "pass")  # pass: a duty of the player's against gwasl (issue 25)


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
    decision's candidates)."""

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

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            n = self.cursorForPosition(self.viewport().mapFromGlobal(e.globalPos())).blockNumber()
            if 0 <= n < len(self._tips):
                QToolTip.showText(e.globalPos(), self._tips[n], self)
            else:
                QToolTip.hideText()
            return True
        return super().event(e)


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
        self._log_seqs: list[int] = []  # the seq of each line of the log dock
        self._refresh()

    # -- building ------------------------------------------------------------------
    def _build_docks(self) -> None:
        self.actions_list = QListWidget()
        self.actions_list.setUniformItemSizes(True)  # one line each: the list lays out in no time
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

        self.log_list = LogView()
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
        self.tabifyDockWidget(self.victory_dock, self.bookmarks_dock)
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

        self.new_action = action("&New game…", self.new_game_dialog, QKeySequence.StandardKey.New)
        self.open_action = action("&Open game…", self.open_game_dialog, QKeySequence.StandardKey.Open)
        self.close_action = action("&Close game", self.close_game, QKeySequence.StandardKey.Close)
        self.end_action = action("&End phase", self.end_phase, "Ctrl+E")
        self.undo_action = action("&Take back", self.undo, QKeySequence.StandardKey.Undo)
        self.live_action = action("&Live position", self.go_live, "Ctrl+L")
        self.suggest_action = action("&Suggest a move", self.suggest, "Ctrl+H")
        self.continue_action = action("&Continue to my next decision", self.continue_to_decision, "Ctrl+Return")
        # issue 25: how fast gwasl's answers come -- all at once, one per press of Space, or one
        # every PACE_MS; the window waits between them, so it stays responsive
        self.pace = "instant"
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
        tb.addSeparator()
        tb.addWidget(self.turn_label)
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
        g.addAction(self.suggest_action)
        g.addAction(self.continue_action)
        pace = g.addMenu("gwasl's &pace")
        for a in self.pace_actions.values():
            pace.addAction(a)
        g.addAction(self.next_action)
        self.view_menu = g.addMenu("&See the game as")
        self._fill_recent()

    # -- loading -------------------------------------------------------------------
    def set_controller(self, controller: GameController) -> None:
        self.close_game()
        self.controller = controller
        controller.changed.connect(self._refresh)
        controller.answered.connect(self._answered)
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
        if self.controller.gwasl_to_act() or self.controller.thinking:
            self.tell("gwasl is playing", "gwasl's side is still answering: wait, or press Space for its next action.")
            return False
        try:
            shown = self.controller.act(action, paced=self.pace != "instant")
        except IllegalAction as e:
            self.tell("Not allowed", str(e))
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

    def _pace_next(self) -> None:
        """After the player's action: gwasl's next answer now, after PACE_MS, or on Space."""
        c = self.controller
        if c is None or not c.gwasl_to_act():
            return
        if self.pace == "instant":
            self.gwasl_next(all_of_it=True)
        elif self.pace == "normal":
            QTimer.singleShot(self.PACE_MS, self.gwasl_next)
        else:
            self.statusBar().showMessage("gwasl's turn: press Space for its next action", 8000)

    def gwasl_next(self, all_of_it: bool = False) -> None:
        """One action of gwasl's side, decided in another thread and shown as it comes
        (``all_of_it``: every one at once, here)."""
        c = self.controller
        if c is None or not c.gwasl_to_act():
            return
        if not all_of_it:
            if c.think():
                self.statusBar().showMessage("gwasl is thinking…", 8000)
            return
        try:
            shown: list[dict[str, Any]] = []
            while c.gwasl_to_act():
                shown = c.auto_step() or shown
        except (GameError, GameFileError) as e:
            self.tell("The game could not go on", str(e))
            return
        if shown:
            self.statusBar().showMessage(shown[-1]["text"], 8000)

    def _answered(self, shown: Any) -> None:
        """gwasl's decision from the thinking thread is in the game: show it, light it up, go on."""
        c = self.controller
        if c is None:
            return
        if isinstance(shown, Exception):
            self.tell("The game could not go on", str(shown))
            return
        if shown:
            self.statusBar().showMessage(shown[-1]["text"], 8000)
            last = c.session.entries[-1]
            flash = getattr(self.board, "flash", None)
            if last.kind == "auto" and last.action and flash is not None:
                flash(dict(last.action))  # who acted and where, for a moment
        self._pace_next()

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
        legal = self.controller.legal()
        for kind in END_KINDS:  # the phase itself first; a shift window when only it can end
            for la in legal:
                if la.shown.kind == kind:
                    self.request(la.action)
                    return
        self.tell("End phase", "There is no phase to end now.")

    def continue_to_decision(self) -> None:
        """Game > Continue to my next decision: the phases where you have nothing to decide
        pass (against gwasl, its answers come with them); it stops at your next choice."""
        if self.controller is None or not self.controller.live:
            return
        try:
            shown = self.controller.continue_to_decision()
        except (GameError, GameFileError) as e:
            self.tell("The game could not go on", str(e))
            return
        if shown:
            self.statusBar().showMessage(shown[-1]["text"], 8000)

    def suggest(self) -> None:
        """Game > Suggest a move: the game's own best policy's choice, selected in the Actions
        list, and its reason (a Great War scenario: gwasl's opponent, issue 25)."""
        if self.controller is None:
            return
        hint = self.controller.suggest()
        if hint is None:
            self.tell("Suggest a move", "gwasl has no suggestion here: this game has no policy of its own, "
                                        "it is not your turn, or you are looking at an earlier position.")
            return
        name, decision = hint
        for i in range(self.actions_list.count()):
            la = self.actions_list.item(i).data(Qt.ItemDataRole.UserRole)
            if la is not None and la.action == decision.action:
                self.actions_list.setCurrentRow(i)
                self.tell("Suggest a move", f"gwasl's {name} policy would: {la.shown.text}\n\nWhy: {decision.why}")
                return
        self.tell("Suggest a move", f"gwasl's {name} policy: {decision.why}")

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
            self.actions_list.clear()
            self.log_list.clear_lines()
            self._log_seqs = []
            self.bookmarks_list.clear()
            self.status_label.setText("")
            self.turn_label.setText("")
            self.victory_label.setText("")
            self.history_label.setText("")
            self.setWindowTitle("gwasl: play")
            return
        self._draw(c)

    def _draw(self, c: GameController) -> None:
        view = c.view()
        legal = c.legal()
        st = c.status()
        self.setWindowTitle(f"gwasl: {view.get('title') or c.file.ruleset}, {Path(c.file.path).name}")
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
        # refilled without signals: the odds are computed when the user selects an action,
        # not for whichever one becomes current while the list is rebuilt
        self.actions_list.blockSignals(True)
        self.actions_list.clear()
        for la in legal:
            item = QListWidgetItem(la.shown.text)
            item.setData(Qt.ItemDataRole.UserRole, la)
            self.actions_list.addItem(item)
        self.actions_list.setCurrentRow(-1)
        self.actions_list.blockSignals(False)
        self.odds_label.setText("")
        self.end_action.setEnabled(any(la.shown.kind in END_KINDS for la in legal))
        self._fill_log(c.log())
        self.history_slider.blockSignals(True)
        self.history_slider.setRange(0, c.history_length)
        self.history_slider.setValue(c.position)
        self.history_slider.blockSignals(False)
        self.history_label.setText(f"event {c.position} of {c.history_length}")
        self.live_button.setEnabled(not c.live)
        self._fill_bookmarks()
        if self.board is not None:
            self.board.show_view(view, legal)

    def _fill_log(self, log: list[dict[str, Any]]) -> None:
        """Show ``log``, touching only the lines that changed (a long game has thousands)."""
        shown = self._log_seqs
        same = 0
        for have, e in zip(shown, log, strict=False):
            if have != e["seq"]:
                break
            same += 1
        self.log_list.keep(same)
        self.log_list.append_lines([self._log_line(e) for e in log[same:]])
        self._log_seqs = [e["seq"] for e in log]

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
