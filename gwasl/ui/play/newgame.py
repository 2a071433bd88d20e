"""File > New game: a ruleset, a scenario (from a file or the library), the seed,
the sides gwasl keeps secret, practice mode and the game's options."""

from __future__ import annotations

import datetime as _dt
import os
import random
import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gwasl.engine.game import GameError, GameOptions
from gwasl.games import RULESETS, game_for
from gwasl.store.gamefile import GameFile, GameFileError, create_game, load_source

__all__ = ["NewGameDialog", "default_game_path"]

RULESET_NAMES = {"aslgw": "A Great War scenario", "combined-arms": "Combined Arms (Sabin)", "on-patrol": "On Patrol (Harmon)"}


def games_folder() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gwasl" / "games"


def default_game_path(title: str, folder: Path | None = None) -> Path:
    """A new file name for a game of ``title`` (never an existing one)."""
    folder = folder or games_folder()
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40] or "game"
    stem = f"{slug}-{_dt.date.today().isoformat()}"
    p = folder / f"{stem}.game"
    n = 2
    while p.exists():
        p = folder / f"{stem}-{n}.game"
        n += 1
    return p


class NewGameDialog(QDialog):
    """Choose and start a game; :attr:`created` is the new game file once accepted."""

    def __init__(self, parent: QWidget | None = None, settings: QSettings | None = None,
                 ruleset: str = "aslgw", source_path: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.settings = settings
        self.created: GameFile | None = None
        self._source: dict[str, Any] | None = None
        self._sides: tuple[str, ...] = ()
        self._loaded: tuple[str, str] | None = None  # the (ruleset, scenario) the choices below are for
        form = QFormLayout()
        self.ruleset = QComboBox()
        for key in RULESETS:
            self.ruleset.addItem(RULESET_NAMES.get(key, key), key)
        self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(ruleset)))
        self.ruleset.currentIndexChanged.connect(self._source_changed)
        form.addRow("Game", self.ruleset)

        self.source = QLineEdit()
        self.source.setPlaceholderText("scenario file (optional for the solitaire games)")
        self.source.editingFinished.connect(self._source_changed)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.source, 1)
        row.addWidget(browse)
        form.addRow("Scenario", _wrap(row))

        self.search = QLineEdit()
        self.search.setPlaceholderText("search the scenario library: title, id")
        self.search.textChanged.connect(self._search)
        self.ruleset.currentIndexChanged.connect(lambda _i: self._search(self.search.text()))
        self.hits = QListWidget()
        self.hits.setMaximumHeight(120)
        self.hits.itemClicked.connect(self._pick_hit)
        lib = QVBoxLayout()
        lib.addWidget(self.search)
        lib.addWidget(self.hits)
        form.addRow("Library", _wrap(lib))

        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(random.SystemRandom().randrange(2**31))
        form.addRow("Dice seed", self.seed)

        # issue 25: gwasl may play the other side of a Great War scenario (--opponent)
        self.play_as = QComboBox()
        form.addRow("Play", self.play_as)

        self.secret_box = QVBoxLayout()
        self.secret_checks: dict[str, QCheckBox] = {}
        form.addRow("gwasl keeps secret", _wrap(self.secret_box))
        self.practice = QCheckBox("practice mode: take back past dice and reveals")
        form.addRow("", self.practice)
        self.balance = QComboBox()
        form.addRow("Balance (A26.4)", self.balance)
        self.easier = QCheckBox("the easier game (no -1 per turn after 18)")
        form.addRow("", self.easier)

        self.out = QLineEdit()
        form.addRow("Save the game as", self.out)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a00")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.start)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Start")
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.problem)
        lay.addWidget(buttons)
        if source_path:
            self.source.setText(source_path)
        self._source_changed()
        self._search("")

    # -- choices ------------------------------------------------------------------
    @property
    def ruleset_name(self) -> str:
        return str(self.ruleset.currentData())

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Scenario", "", "Scenarios (*.json);;All files (*)")
        if path:
            self.source.setText(path)
            self._source_changed()

    def _search(self, text: str) -> None:
        self.hits.clear()
        ruleset = self.ruleset_name
        self.search.setPlaceholderText({"aslgw": "search the scenario library: title, id",
                                        "on-patrol": "search On Patrol's bundled patrols: title",
                                        "combined-arms": "Combined Arms dices its board from the seed: no scenario"}
                                       .get(ruleset, ""))
        if ruleset == "on-patrol":
            from gwasl.games.on_patrol.scenario import BUNDLED_DIR, bundled, load_bundled

            for name in bundled():
                title = str(load_bundled(name).get("title") or name)
                if not text or text.lower() in f"{title} {name}".lower():
                    item = QListWidgetItem(title)
                    item.setData(Qt.ItemDataRole.UserRole, str(BUNDLED_DIR / f"{name}.json"))
                    self.hits.addItem(item)
            return
        if ruleset != "aslgw":
            return
        try:
            from gwasl.store.library import Library, LibraryError

            with Library() as lib:
                found = lib.search(text or None)
        except (LibraryError, OSError):
            return
        for h in found[:50]:
            item = QListWidgetItem(f"{h.date}  {h.title}")
            item.setData(Qt.ItemDataRole.UserRole, h.file)
            self.hits.addItem(item)

    def _pick_hit(self, item: QListWidgetItem) -> None:
        self.source.setText(str(item.data(Qt.ItemDataRole.UserRole)))
        self._source_changed()

    def _source_changed(self) -> None:
        """Read the source and offer its sides (secret, balance); say what is wrong if it cannot.

        The scenario box reports an edit whenever it loses focus; the same scenario again
        keeps the choices made (a click on a "secret" box must not be undone by it)."""
        ruleset = self.ruleset_name
        path = self.source.text().strip()
        if (ruleset, path) == self._loaded:
            return
        self._loaded = (ruleset, path)
        self.problem.setText("")
        self._source = None
        try:
            if path:
                self._source = load_source(ruleset, path)
            elif ruleset == "aslgw":
                raise GameError("choose a Great War scenario (a file, or one from the library)")
            game = game_for(ruleset)
            self._sides = tuple(game.sides(game.setup(self._source, GameOptions())))
        except GameError as e:
            self._sides = ()
            self.problem.setText(str(e))
        self.easier.setVisible(ruleset == "combined-arms")
        self.balance.clear()
        self.balance.addItem("none", None)
        for s in self._sides:
            self.balance.addItem(s, s)
        self.play_as.clear()
        self.play_as.addItem("both sides (solitaire)", None)
        if ruleset == "aslgw":
            for s in self._sides:
                other = next((o for o in self._sides if o != s), None)
                if other is not None:
                    self.play_as.addItem(f"{s} (gwasl plays {other})", other)
        self.play_as.setEnabled(self.play_as.count() > 1)
        for cb in self.secret_checks.values():
            cb.setParent(None)
        self.secret_checks = {}
        for s in self._sides:
            cb = QCheckBox(s)
            self.secret_box.addWidget(cb)
            self.secret_checks[s] = cb
        title = (self._source or {}).get("title") if isinstance(self._source, dict) else None
        self.out.setText(str(default_game_path(str(title or RULESET_NAMES.get(ruleset, ruleset)))))
        self.ok_button.setEnabled(bool(self._sides))

    def options(self) -> GameOptions:
        extra: dict[str, Any] = {}
        if self.balance.currentData():
            extra["balance"] = self.balance.currentData()
        if self.ruleset_name == "combined-arms" and self.easier.isChecked():
            extra["easier"] = True
        secret = frozenset(s for s, cb in self.secret_checks.items() if cb.isChecked())
        opponent = self.play_as.currentData()
        if opponent:
            extra["opponent"] = opponent
            secret |= {opponent}  # gwasl plays that side and keeps its secrets
        return GameOptions(secret, self.practice.isChecked(), extra)

    def start(self) -> None:
        """Create the game file and accept; a problem is shown and the dialog stays open."""
        out = Path(self.out.text().strip())
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            self.created = create_game(out, game_for(self.ruleset_name), self._source, self.seed.value(), self.options())
        except (GameFileError, GameError, OSError) as e:
            self.problem.setText(str(e))
            return
        self.accept()


def _wrap(layout: Any) -> QWidget:
    w = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    w.setLayout(layout)
    return w
