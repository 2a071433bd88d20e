"""Issue 25 item 7 (in part): New game offers "gwasl plays (you the other side)": none
(both sides yours, solitaire) or a side, whose secrets gwasl then keeps; Continue to my
next decision; gwasl's answers paced, thought out in another thread, lit on the map."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from gwasl.games import game_for
from gwasl.ui.play.newgame import NewGameDialog
from testsupport import SCENARIOS


def window_game():
    return game_for("aslgw")


def test_new_game_offers_to_play_one_side_against_gwasl(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    dlg = NewGameDialog(None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                        source_path=str(SCENARIOS / "rossignol-1914.json"))
    qtbot.addWidget(dlg)
    play = dlg.choice_widget("opponent")
    items = [play.itemText(i) for i in range(play.count())]
    assert items == ["none", "french", "german"]  # none: both sides are yours (solitaire)
    assert "opponent" not in dlg.options().extra  # solitaire stays the default
    play.setCurrentIndex(play.findData("german"))
    dlg.out.setText(str(tmp_path / "ross.game"))
    dlg.start()
    gf = dlg.created
    assert gf is not None
    s = gf.session
    assert s.options.extra["opponent"] == "german" and "german" in s.options.secret
    assert s.status().side == "french"
    gf.close()


def test_continue_to_my_next_decision_stops_at_a_choice(qtbot, window, tmp_path):
    """Issue 25 item 7 (in part): Game > Continue to my next decision ends the phases in
    which the player's only action is to end them -- gwasl's answers come with them --
    and stops at the first list with a choice in it (or the result)."""
    import json

    from gwasl.engine.game import GameOptions
    from gwasl.store.gamefile import create_game
    from gwasl.ui.play.controller import GameController

    src = json.loads((SCENARIOS / "rossignol-1914.json").read_text(encoding="utf-8"))
    gf = create_game(tmp_path / "r.game", window_game(), src, 3, GameOptions(frozenset({"german"}), False, {"opponent": "german"}))
    window.set_controller(GameController(gf))
    c = window.controller
    assert [h.label for h in window.board.flash({"kind": "close_combat", "at": "F3", "area": "hex"})] == ["F3"]
    for _ in range(8):
        before = len(c.session.entries)
        window.continue_to_decision()
        qtbot.waitUntil(lambda: not window.gwasl_busy(), timeout=60000)  # gwasl answers in its own thread
        st = c.session.status()
        if st.over:
            break
        kinds = {la.shown.kind for la in c.legal()}
        assert kinds - {"end_phase", "end_window"}, kinds  # a choice is waiting
        assert st.side == "french"
        # the player makes the choice: here, ends the phase (or passes, or routs) all the same
        if any(la.shown.kind in ("end_phase", "pass") for la in c.legal()):
            window.end_phase()
        else:
            window.request(c.legal()[0].action)
        qtbot.waitUntil(lambda: not window.gwasl_busy(), timeout=60000)
        assert len(c.session.entries) > before


def test_gwasls_answers_come_one_at_a_time_when_paced(qtbot, window, tmp_path):
    """Issue 25 item 7 (in part): at the "step" pace each press of Space plays one action of
    gwasl's side; the player's own actions wait until gwasl has answered; "instant" plays
    them all at once, as the command line does."""
    import json

    from gwasl.engine.game import GameOptions
    from gwasl.store.gamefile import create_game
    from gwasl.ui.play.controller import GameController

    src = json.loads((SCENARIOS / "rossignol-1914.json").read_text(encoding="utf-8"))
    gf = create_game(tmp_path / "p.game", window_game(), src, 3, GameOptions(frozenset({"german"}), False, {"opponent": "german"}))
    window.set_controller(GameController(gf))
    c = window.controller
    window.set_pace("step")
    # the French end phases until gwasl's German has something to answer
    for _ in range(40):
        window.continue_to_decision()
        qtbot.waitUntil(lambda: not c.thinking and not window._continuing, timeout=60000)
        n = len(c.session.entries)
        assert window.request(next(la.action for la in c.legal() if la.shown.kind in ("end_phase", "pass"))
                              if any(la.shown.kind in ("end_phase", "pass") for la in c.legal()) else c.legal()[0].action)
        if c.gwasl_to_act():
            break
    else:
        raise AssertionError("gwasl never had to answer")
    assert len(c.session.entries) == n + 1  # the player's action alone
    from gwasl.games.aslgw.records import EndPhase

    assert not window.request(EndPhase()) and window.messages[-1][0] == "gwasl is playing"
    lit: list = []
    window.board.flash = lambda action: lit.append(action)  # who acted and where, lit for a moment
    window.gwasl_next()  # gwasl thinks in another thread; the window answers meanwhile
    qtbot.waitUntil(lambda: len(c.session.entries) == n + 2, timeout=20000)  # one action of gwasl's
    qtbot.waitUntil(lambda: not c.thinking, timeout=20000)
    assert lit == [dict(c.session.entries[-1].action)]
    window.set_pace("instant")  # the rest at once (each thought out in gwasl's thread)
    qtbot.waitUntil(lambda: not window.gwasl_busy(), timeout=60000)
    assert not c.gwasl_to_act() and c.session.status().side in ("french", None)
