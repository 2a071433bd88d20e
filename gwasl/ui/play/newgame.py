"""File > New game: a game, its source (a file, or one from the library or the game's
own), the seed, and the options the game offers.

The form is built from what each game declares on its class (``Game.display_name``,
``Game.source_kind``, ``Game.options_offered``): a game's options appear only while
that game is chosen, and nothing here names a ruleset."""

from __future__ import annotations

import datetime as _dt
import os
import random
import re
from collections.abc import Callable
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

from gwasl.engine.game import BOOL, PRACTICE, SCENARIO_FILE, SECRET, SIDE, Game, GameError, GameOption, GameOptions
from gwasl.games import DEFAULT_RULESET, bundled_sources, game_for, rulesets
from gwasl.store.gamefile import GameFile, GameFileError, create_game, load_source
from gwasl.ui.errors import save_error_text
from gwasl.ui.play.card import ScenarioCard

__all__ = ["NewGameDialog", "default_game_path"]


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
                 ruleset: str = DEFAULT_RULESET, source_path: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.settings = settings
        self.created: GameFile | None = None
        self._source: dict[str, Any] | None = None
        self._sides: tuple[str, ...] = ()
        self._loaded: tuple[str, str] | None = None  # the (ruleset, scenario) the choices below are for
        #: the chosen game's options by key: the option, its widget and how to read its value
        self._choices: dict[str, tuple[GameOption, QWidget, Callable[[], Any]]] = {}
        #: true-or-false choices made, by key: kept while other games are chosen (their sides are not)
        self._ticked: dict[str, bool] = {}
        self.form = form = QFormLayout()
        self.ruleset = QComboBox()
        for key in rulesets():
            try:
                name = game_for(key).display_name
            except GameError:
                name = key  # chosen, it says what is wrong with it
            self.ruleset.addItem(name, key)
        self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(ruleset)))
        self.ruleset.currentIndexChanged.connect(self._source_changed)
        form.addRow("Game", self.ruleset)

        self.source = QLineEdit()
        self.source.editingFinished.connect(self._source_changed)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.source, 1)
        row.addWidget(browse)
        form.addRow("Scenario", _wrap(row))

        self.search = QLineEdit()
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
        # the seed gives every die of the game: while gwasl keeps a side secret it is shown
        # only on request, for a bug report (issue 28 item 5)
        self.seed_details = QPushButton("Details (for bug reports)")
        self.seed_details.setCheckable(True)
        self.seed_details.toggled.connect(self._show_seed)
        seed_label = QHBoxLayout()
        seed_label.addWidget(QLabel("Dice seed"))
        seed_label.addWidget(self.seed_details)
        form.addRow(_wrap(seed_label), self.seed)  # the button stays in sight while the seed is hidden
        self._options_row = form.rowCount()  # the chosen game's options follow the seed

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
        self.card = ScenarioCard()  # what the chosen scenario is played for (gwasl.ui.play.card)
        self.card.setMinimumWidth(360)
        top = QHBoxLayout()
        top.addLayout(form, 1)
        top.addWidget(self.card, 1)
        lay.addLayout(top)
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

    @property
    def game(self) -> Game[Any]:
        """The chosen game."""
        return game_for(self.ruleset_name)

    def choice_widget(self, key: str) -> Any:
        """The widget of the chosen game's option ``key`` (``None`` when it offers none): a
        check box (true or false), a list of sides to pick one from, or a box of side check boxes."""
        found = self._choices.get(key)
        return found[1] if found else None

    @property
    def secret_checks(self) -> dict[str, QCheckBox]:
        """The check box of each side gwasl may keep secret (none when the game offers no secret)."""
        box = self.choice_widget(SECRET.key)
        return dict(box.checks) if isinstance(box, _SideChecks) else {}

    @property
    def practice(self) -> QCheckBox | None:
        box: QCheckBox | None = self.choice_widget(PRACTICE.key)
        return box

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Scenario", "", "Scenarios (*.json);;All files (*)")
        if path:
            self.source.setText(path)
            self._source_changed()

    def _search(self, text: str) -> None:
        """List what the chosen game starts from: the scenario library for Great War scenario
        files, the game's own bundled sources, or nothing (a game that makes its own)."""
        self.hits.clear()
        try:
            game = self.game
        except GameError:
            return  # the problem line says why (_source_changed)
        kind = game.source_kind
        self.search.setPlaceholderText(kind.search)
        if kind.format == SCENARIO_FILE:
            self._search_library(text)
            return
        for b in bundled_sources(game):
            if not text or text.lower() in f"{b.title} {b.name}".lower():
                item = QListWidgetItem(b.title)
                item.setData(Qt.ItemDataRole.UserRole, str(b.path))
                self.hits.addItem(item)

    def _search_library(self, text: str) -> None:
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
        """Read the source and offer the game's options for its sides; say what is wrong if it cannot.

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
            game = self.game
        except GameError as e:
            self._sides = ()
            self.problem.setText(str(e))
            self._clear_choices()
            self.ok_button.setEnabled(False)
            self.card.hide()
            return
        kind = game.source_kind
        self.source.setPlaceholderText(kind.describe())
        try:
            if path:
                self._source = load_source(game, path)
            elif kind.required:
                where = " (a file, or one from the library)" if kind.format == SCENARIO_FILE else ""
                raise GameError(f"choose {kind.what}{where}")
            self._sides = tuple(game.sides(game.setup(self._source, GameOptions())))
        except GameError as e:
            self._sides = ()
            self.problem.setText(str(e))
        self._build_choices(game)
        title = (self._source or {}).get("title") if isinstance(self._source, dict) else None
        self.out.setText(str(default_game_path(str(title or game.display_name))))
        self.ok_button.setEnabled(bool(self._sides))
        self.card.setVisible(ruleset == "aslgw")
        self.card.show_card(self._source if ruleset == "aslgw" else None)

    def _show_seed(self, _checked: bool = False) -> None:
        secret = any(cb.isChecked() for cb in self.secret_checks.values())
        self.seed.setVisible(not secret or self.seed_details.isChecked())
        self.seed_details.setVisible(secret)

    def _build_choices(self, game: Game[Any]) -> None:
        """The rows of ``game``'s options, after the seed's; a true-or-false choice already made
        is kept, also through other games (the sides of another source are not)."""
        self._clear_choices()
        at = self._options_row
        for option in game.options_offered:
            widget: QWidget
            value: Callable[[], Any]
            label = option.label
            if option.kind == BOOL:
                box = QCheckBox(option.label)
                box.setChecked(self._ticked.get(option.key, bool(option.default)))
                widget, value, label = box, box.isChecked, ""
            elif option.kind == SIDE:
                combo = QComboBox()
                combo.addItem("none", None)
                for s in self._sides:
                    combo.addItem(s, s)
                widget, value = combo, combo.currentData
            else:
                checks = _SideChecks(self._sides)
                widget, value = checks, checks.ticked
            if option.rule:
                widget.setToolTip(option.rule)
            self.form.insertRow(at, label, widget)
            at += 1
            self._choices[option.key] = (option, widget, value)
        for cb in self.secret_checks.values():
            cb.toggled.connect(self._show_seed)
        self._show_seed()

    def _clear_choices(self) -> None:
        self._ticked.update({key: value() for key, (o, _w, value) in self._choices.items() if o.kind == BOOL})
        for _option, old, _value in self._choices.values():
            self.form.removeRow(old)
        self._choices = {}

    def choices(self) -> dict[str, Any]:
        """The value of each option of the chosen game, by key."""
        return {key: value() for key, (_o, _w, value) in self._choices.items()}

    def options(self) -> GameOptions:
        """The chosen options, as the game checks them (:meth:`Game.start_options`)."""
        return self.game.start_options(self.choices(), self._sides)

    def start(self) -> None:
        """Create the game file and accept; a problem is shown and the dialog stays open."""
        out = Path(self.out.text().strip())
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            self.created = create_game(out, self.game, self._source, self.seed.value(), self.options())
        except (GameFileError, GameError, OSError) as e:
            self.problem.setText(save_error_text(out, e))  # a read-only folder in words, not "[Errno 30]"
            return
        self.accept()


class _SideChecks(QWidget):
    """One check box per side (an option that takes any set of the game's sides)."""

    def __init__(self, sides: tuple[str, ...]) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.checks: dict[str, QCheckBox] = {}
        for s in sides:
            cb = QCheckBox(s)
            lay.addWidget(cb)
            self.checks[s] = cb

    def ticked(self) -> list[str]:
        return [s for s, cb in self.checks.items() if cb.isChecked()]


def _wrap(layout: Any) -> QWidget:
    w = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    w.setLayout(layout)
    return w
