"""Issue 28 item 5: say honestly what is promised.  The program keeps a secret side's
secrets in everything it shows the player; the game file holds them, and other views
show them.  The user guide says so, the command line's help names the views that reveal
secrets, and ``game new --secret`` says what it keeps and what it does not."""

from __future__ import annotations

import contextlib
import io

import pytest

from gwasl.cli import main
from testsupport import ROOT


def _help(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(out.getvalue().split())


@pytest.mark.parametrize("command", [("game", "show"), ("game", "log"), ("game", "legal"), ("render",)])
def test_the_help_names_the_views_that_reveal_secrets(command):
    text = _help(*command)
    assert "omniscient" in text and "REVEAL SECRETS" in text


def test_game_new_says_what_secret_keeps_and_what_the_seed_gives():
    text = _help("game", "new")
    assert "the game file itself, --view omniscient and --view SIDE still hold it" in text
    assert "the seed gives every die of the game" in text


def test_the_user_guide_says_what_is_promised():
    guide = " ".join((ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8").split())
    assert "## 15. Secrets, and your game file" in guide
    for words in ("everything the program shows you is worked out from what you may know",
                  "The game file is yours, and it holds the whole game in plain SQLite",
                  "every die still to come can be worked out",
                  "or asks gwasl for another view", "sees the secrets",
                  "hides the seed behind **Details (for bug reports)**"):
        assert words in guide, words
