"""Issue 23 item 3, "one place per game": what a game is to the person choosing it (its
name, what it starts from, its options, its board) is declared on its Game class, checked
when the class is made, and the options are checked when a game starts."""

from __future__ import annotations

from typing import ClassVar

import pytest

from engine.toygame import ToyGame
from gwasl.engine.game import (
    BOOL,
    JSON_FILE,
    PRACTICE,
    SCENARIO_FILE,
    SECRET,
    SIDE,
    SIDES,
    GameOption,
    GameOptions,
    OptionError,
    SourceKind,
)
from gwasl.games import RULESETS, game_for


def test_every_game_declares_its_name_source_options_and_board():
    """The three games as the New game dialog, the store and the command line read them: the
    Great War's secret sides (O'Leary's fog) and Balance (A26.4) are the Great War's alone;
    Combined Arms offers its easier game (CA Victory); On Patrol only practice."""
    found = {}
    for name in RULESETS:
        g = game_for(name)
        found[name] = (g.display_name, g.source_kind.format, g.source_kind.required, [o.key for o in g.options_offered],
                       g.board)
    assert found == {
        "aslgw": ("A Great War scenario", SCENARIO_FILE, True, ["secret", "practice", "balance", "opponent"],
                  "gwasl.ui.play.aslgw_board:AslgwBoard"),
        "combined-arms": ("Combined Arms (Sabin)", JSON_FILE, False, ["practice", "easier"],
                          "gwasl.ui.play.combined_arms_board:CombinedArmsBoard"),
        "on-patrol": ("On Patrol (Harmon)", JSON_FILE, False, ["practice"], "gwasl.ui.play.on_patrol_board:OnPatrolBoard"),
    }
    balance = game_for("aslgw").options_offered[2]
    assert (balance.kind, balance.rule) == (SIDE, "A26.4")
    assert game_for("on-patrol").source_kind.bundled  # its three patrols ship with it


def test_a_game_without_declarations_gets_the_engines():
    """A game that declares nothing is named by its ruleset, starts from an optional JSON
    source, offers the engine's own choices (secret sides, practice) and the tree board."""
    g = ToyGame()
    assert g.display_name == "toy" and not g.source_kind.required and g.source_kind.format == JSON_FILE
    assert g.options_offered == (SECRET, PRACTICE) and g.board == ""


def test_a_wrong_declaration_fails_when_the_class_is_made():
    with pytest.raises(ValueError, match="module:Class"):
        type("Bad", (ToyGame,), {"board": "gwasl/ui/play/boards.py"})
    with pytest.raises(ValueError, match="offered twice"):
        type("Twice", (ToyGame,), {"options_offered": (PRACTICE, PRACTICE)})
    with pytest.raises(ValueError, match="kind"):
        GameOption("x", "x", "number")
    with pytest.raises(ValueError, match="no side"):
        GameOption("x", "x", SIDE, default="german")
    with pytest.raises(ValueError, match="format"):
        SourceKind("yaml", "a file", required=True)
    with pytest.raises(ValueError, match="without"):
        SourceKind(JSON_FILE, "a file")  # optional, but what happens without one?
    with pytest.raises(ValueError, match="module:attribute"):
        SourceKind(JSON_FILE, "a file", without="makes its own", bundled="scenarios/")


def test_option_values_are_checked_with_a_clear_message():
    """A26.4: the Balance goes to one side of the scenario (or none)."""
    sides = ("british", "german")
    balance = GameOption("balance", "Balance (A26.4)", SIDE, rule="A26.4")
    assert balance.check("german", sides) == "german" and balance.check(None, sides) is None
    with pytest.raises(OptionError, match=r"^balance: 'swiss' is not a side \(british, german\)$"):
        balance.check("swiss", sides)
    assert SECRET.check(["german"], sides) == frozenset({"german"})
    with pytest.raises(OptionError, match="not a list of sides"):
        SECRET.check("german", sides)
    with pytest.raises(OptionError, match="'french' is not a side"):
        SECRET.check(["french"], sides)
    assert PRACTICE.kind == BOOL and PRACTICE.default is False and SECRET.kind == SIDES and SECRET.default == frozenset()
    with pytest.raises(OptionError, match="not true or false"):
        PRACTICE.check("yes", sides)


class Declared(ToyGame):
    ruleset: ClassVar[str] = "toy-declared"
    display_name: ClassVar[str] = "The toy race"
    options_offered: ClassVar[tuple[GameOption, ...]] = (SECRET, PRACTICE, GameOption("auto_blue", "gwasl runs blue"))


def test_start_options_take_only_what_the_game_offers():
    """The choices go to GameOptions' fields (secret, practice) or its extra; a choice left
    at its default is not recorded; an option the game does not offer is refused by name."""
    opts = Declared.start_options({"secret": ["blue"], "practice": True, "auto_blue": True}, ("red", "blue"))
    assert opts == GameOptions(frozenset({"blue"}), True, opts.extra) and dict(opts.extra) == {"auto_blue": True}
    assert dict(Declared.start_options({"auto_blue": False, "secret": []}, ("red", "blue")).extra) == {}
    with pytest.raises(OptionError) as e:
        Declared.start_options({"easier": True}, ("red", "blue"))
    assert e.value.key == "easier" and e.value.reason == "The toy race offers no such option (its options: secret, practice, auto_blue)"
    with pytest.raises(OptionError, match="offers no such option"):
        game_for("combined-arms").start_options({"secret": ["defender"]}, ("attacker", "defender"))
