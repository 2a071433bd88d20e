"""Help menus of both windows: the user guide, the rules references, the keyboard
shortcuts and About (with the version), each in a window of its own that stays open
beside the map (never a modal box in the way of play).

The user guide is ``docs/user-guide.md`` of a source checkout; an installed wheel has no
``docs`` folder, so the window then says where to read it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QMainWindow, QTextBrowser, QVBoxLayout, QWidget

import gwasl

__all__ = ["HelpWindow", "add_help_menu", "guide_path", "rules_text", "shortcuts_text"]

#: the rule texts gwasl implements, as their own titles name them (every rule number in
#: the windows' messages and in the log refers to one of them)
RULE_SOURCES = (
    ("ASLGW", '"ASL The Great War 1914-1918" v0.1.1 (Ogreten, Lasnier): platoons, impulses (1.4.1), '
              "bayonet charge (1.5), WW1 weapons, gas (1.9), close combat (1.10), deep trenches and dugouts (2.1, 2.2)"),
    ("A3-A26", "the ASL rulebook chapter A it builds on: the turn sequence (A3), movement (A4), fire and its marks "
               "(A7, A8: Prep Fire, First Fire, Final Fire, Residual FP), rally and rout (A10), close combat (A11), "
               "concealment (A12), snipers (A14), ELR (A19), Control and victory (A26)"),
    ("O'Leary", 'Mike O\'Leary, "Solitaire Play of ASL": "?" stacks, dummies, HIP, hidden fortifications and '
                "minefields, and the shift dice roll (2.3-2.5) that moves them"),
    ("CA", 'Phil Sabin, "Combined Arms": the solitaire battalion assault (its own phases, enemy decisions, scoring)'),
    ("On Patrol", 'Robert Harmon, "On Patrol": solitaire SUBMARINE with automatic escorts (numbered rules 1xx)'),
)


def guide_path() -> Path | None:
    """``docs/user-guide.md`` beside the package (a source checkout), or None."""
    p = Path(gwasl.__file__).resolve().parents[1] / "docs" / "user-guide.md"
    return p if p.is_file() else None


def rules_text() -> str:
    lines = ["Every rule number gwasl shows (in a refusal, a log line, an action) cites one of these texts:", ""]
    for short, what in RULE_SOURCES:
        lines.append(f"{short}: {what}")
    lines += ["", "How each rule is read where the text is unclear: docs/rules-notes.md; which rules are covered, "
                  "rule by rule: docs/rules-coverage.md (both in gwasl's source)."]
    return "\n".join(lines)


def shortcuts_text(window: QWidget) -> str:
    """Every action of ``window`` that has a keyboard shortcut, with it, as the menus name them."""
    seen: dict[str, str] = {}
    for a in window.findChildren(QAction):
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in a.shortcuts() if not k.isEmpty()]
        name = a.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".…")
        if keys and name and name not in seen:
            seen[name] = " or ".join(keys)
    width = max((len(k) for k in seen.values()), default=0)
    lines = [f"{keys:<{width}}  {name}" for name, keys in sorted(seen.items(), key=lambda kv: kv[0].lower())]
    extra = window.property("mouse_help")
    if isinstance(extra, str) and extra:
        lines += ["", extra]
    return "\n".join(lines)


class HelpWindow(QDialog):
    """One help text, plain or Markdown, in a window that does not block the one behind."""

    def __init__(self, parent: QWidget, title: str, text: str, markdown: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(False)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # the guide's links are paths of the source tree, not pages
        if markdown:
            self.browser.setMarkdown(text)
        else:
            self.browser.setPlainText(text)
        lay = QVBoxLayout(self)
        lay.addWidget(self.browser)
        self.resize(760, 600)

    def text(self) -> str:
        return self.browser.toPlainText()


def add_help_menu(window: QMainWindow, mouse_help: str = "") -> dict[str, QAction]:
    """The Help menu of ``window``; ``mouse_help`` says what the mouse does on its map.
    Returns its actions by name; the last window opened is ``window.help_window``."""
    window.setProperty("mouse_help", mouse_help)
    menu = window.menuBar().addMenu("&Help")

    def show(title: str, text: str, markdown: bool = False) -> HelpWindow:
        w = HelpWindow(window, title, text, markdown)
        window.help_window = w  # type: ignore[attr-defined]
        w.show()
        return w

    def guide() -> None:
        p = guide_path()
        if p is None:
            show("gwasl user guide", "The user guide is docs/user-guide.md in gwasl's source; this installed copy "
                                     "does not include it.")
        else:
            show("gwasl user guide", p.read_text(encoding="utf-8"), markdown=True)

    def about() -> None:
        show("About gwasl", f"gwasl {gwasl.__version__}\n\nA scenario editor and solitaire player for "
                            "ASL: The Great War, with Combined Arms (Sabin) and On Patrol (Harmon).\n\n" + rules_text())

    actions = {}
    for key, text, slot, shortcut in (
        ("guide", "&User guide", guide, QKeySequence.StandardKey.HelpContents),
        ("rules", "&Rules references", lambda: show("Rules references", rules_text()), None),
        ("shortcuts", "&Keyboard shortcuts", lambda: show("Keyboard shortcuts", shortcuts_text(window)), None),
        ("about", "&About gwasl", about, None),
    ):
        a = QAction(text, window)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.triggered.connect(slot)
        menu.addAction(a)
        actions[key] = a
    return actions
