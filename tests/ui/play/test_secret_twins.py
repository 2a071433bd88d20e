"""Issue 14 item 6, CONTRACTS 5 in the window: in a game where gwasl keeps a side secret,
no widget shows a hidden fact.  Two windows play twin games that differ only in hidden
facts (tests/games/aslgw/variants.py: a real "?" stack swapped with a dummy, two "?"
stacks swapped, HIP swapped; same seed) with the same actions; until a rule reveals the
difference, every widget shows the same text and the map the same pixels: map items and
their tooltips, the stack fanned out, every hex's menu with its odds, the actions list and
its odds, the log and its tooltips, the status bar and turn record, the victory panel,
the scenario card, the Actions list's groups, the hex read-out, the window title, the
view-as menu, and the history at every step."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings, Qt

from games.aslgw.playout import pick
from games.aslgw.variants import hidden_variants
from gwasl.engine.game import GameOptions
from gwasl.games import game_for
from gwasl.store.gamefile import create_game, load_source
from gwasl.ui.play.controller import GameController
from gwasl.ui.play.window import PlayerWindow
from gwasl.ui.render import render_scene
from testsupport import SCENARIOS

#: (scenario, the side gwasl keeps, the variant): one of each kind of hidden difference
TWINS = [
    ("ovillers-1916.json", "german", "swap_dummy F2<->F4"),
    ("bois-des-caures-1916.json", "french", "swap_stacks G6<->I6"),
    ("bois-des-caures-1916.json", "french", "swap_hip H6<->J6"),
]


def make_window(qtbot, tmp_path, name):
    win = PlayerWindow(QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat))
    win.tell = lambda title, text: win.messages.append((title, text))
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


def items(lst) -> list[tuple[str, str]]:
    return [(lst.item(i).text(), lst.item(i).toolTip()) for i in range(lst.count())]


def everything(win: PlayerWindow) -> dict:
    """Every text and picture the window shows now (the file name aside: the twins'
    files are named alike, so the title is compared whole)."""
    board = win.board
    scene = board.scene
    stacks = {}
    for h, it in sorted(scene.stacks.items(), key=lambda x: x[0].label):
        it.set_fanned(True)  # the stack expansion, as hover or a click shows it
        fanned = [(r.x(), r.y()) for r in it.counter_rects()]
        it.set_fanned(False)
        stacks[h.label] = (it.toolTip(), [(f.key if f.kind != "concealed" else "?", f.title, f.count, f.status)
                                          for f in it.stack.counters], fanned)
    menus = {}
    for h in sorted({*scene.stacks, *(x for la in board._legal for x in _ends(board, la))}, key=lambda x: x.label):
        las = board.actions_at(h)
        menus[h.label] = [(la.shown.text, board.odds_text(la)) for la in las]
    odds = []
    for i in range(win.actions_list.count()):
        win.actions_list.setCurrentRow(i)
        odds.append(win.odds_label.text())
    return {
        "title": win.windowTitle(), "status": win.status_label.text(), "turn": win.turn_label.text(),
        "statusbar": win.statusBar().currentMessage(), "victory": win.victory_label.text(),
        "history": win.history_label.text(), "actions": items(win.actions_list), "odds": odds,
        "log": (win.log_list.lines(), [win.log_list.tip(i) for i in range(win.log_list.count())],
                win.log_list.toPlainText()), "view_as": [a.text() for a in win.view_menu.actions()],
        "info": board.info.text(), "stacks": stacks, "menus": menus,
        "card": win.card.text(), "groups": sorted((k, g.text(0)) for k, g in win.actions_list.groups().items()),
        "readout": [(board.show_readout(h), board.readout.text())[1] for h in sorted(scene.stacks, key=lambda x: x.label)],
        "targets": sorted(h.label for h in board.targets.hexes),
        "map": picture(scene),
    }


def picture(scene) -> bytes:
    img = render_scene(scene, 700)  # held while its bits are copied
    return bytes(img.constBits())


def _ends(board, la):
    from gwasl.ui.play.aslgw_board import action_hexes

    return [h for h in action_hexes(la.action.to_json(), board._view) if h is not None]


def same(a: dict, b: dict, where: str) -> None:
    diff = [k for k in a if a[k] != b[k]]
    assert not diff, f"{where}: the twins' windows differ in {diff}: " + "; ".join(
        f"{k}: {a[k]!r:.300} / {b[k]!r:.300}" for k in diff if k != "map")


def play_twins(qtbot, tmp_path, scenario: str, secret: str, variant: str) -> int:
    """Play the twins side by side, comparing every widget; the number of actions compared."""
    doc = load_source("aslgw", str(SCENARIOS / scenario))
    twin = dict(hidden_variants(doc, secret))[variant]
    wins = []
    for i, src in enumerate((doc, twin)):
        d = tmp_path / f"t{i}"
        d.mkdir()
        gf = create_game(d / "twin.game", game_for("aslgw"), src, 11, GameOptions(frozenset({secret})))
        win = make_window(qtbot, tmp_path, f"w{i}")
        win.set_controller(GameController(gf))
        win.board.view.resetTransform()
        wins.append(win)
    a, b = wins
    rng = random.Random(7)
    steps = 0
    safe = a.controller.history_length  # the history before any reveal
    for step in range(45):
        same(everything(a), everything(b), f"step {step}")
        safe = a.controller.history_length
        la = a.controller.legal()
        if not la or a.controller.status().over:
            break
        choice = la.index(pick(la, rng))
        counts = [w.controller.history_length for w in wins]
        # the same click in both windows: the action list's row, double-clicked
        for win in wins:
            lst = win.actions_list
            lst.scrollToItem(lst.item(choice))
            rect = lst.visualItemRect(lst.item(choice))
            qtbot.mouseDClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        new = [ev for w, n in zip(wins, counts) for _, ev in list(w.controller.session.effective())[n:]]
        if any(getattr(ev, "reveals", False) for ev in new):
            break
        steps += 1
    # the history, stepped through event by event, up to the first reveal
    for count in range(safe + 1):
        for win in wins:
            win.history_slider.setValue(count)
        same(everything(a), everything(b), f"history event {count}")
    for win in wins:
        win.close_game()
    return steps


@pytest.mark.parametrize(("scenario", "secret", "variant"), TWINS)
def test_twin_windows_show_the_same_until_a_reveal(qtbot, tmp_path, scenario, secret, variant):
    assert play_twins(qtbot, tmp_path, scenario, secret, variant) >= 10  # long enough to mean something


def test_a_window_drawing_the_truth_is_caught(qtbot, tmp_path, monkeypatch):
    """Not vacuous: a window that drew the omniscient view would fail the comparison."""
    real = GameController.view

    def leaky(self):
        was, self.viewer = self.viewer, "omniscient"
        try:
            return real(self)
        finally:
            self.viewer = was

    monkeypatch.setattr(GameController, "view", leaky)
    with pytest.raises(AssertionError, match="differ in"):
        play_twins(qtbot, tmp_path, *TWINS[0])
