"""A command pays only for what it uses (issue 23 item 8), pinned without timing: which
modules a command's whole process loads.  ``gwasl --help`` loads no command's module
(its list comes from gwasl.cli.COMMANDS), so neither SQL, numpy, Qt nor the rules; ``gwasl
los`` loads no SQL, Qt or game; a ``gwasl game`` command opens its file with the standard
library's sqlite3 (no SQLAlchemy, SQLModel or pydantic) and loads no other command.  The
speed itself is measured by benchmarks/cli_startup.py."""

from __future__ import annotations

import argparse
import importlib
import io
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from gwasl import cli
from testsupport import ROOT

BOIS = ROOT / "gwasl" / "scenarios" / "bois-des-caures-1916.json"
HEAVY = ("sqlalchemy", "sqlmodel", "pydantic", "numpy", "shapely", "PySide6")


def _loaded(argv: list[str]) -> tuple[int, set[str]]:
    """The exit status of ``gwasl ARGV`` run in a fresh process, and the modules it loaded."""
    code = ("import sys\n"
            "from gwasl import cli\n"
            "try:\n"
            f"    rc = cli.main({argv!r})\n"
            "except SystemExit as e:\n"
            "    rc = e.code\n"
            "sys.stdout = sys.__stdout__\n"
            "print('MODULES', rc, ' '.join(sorted(sys.modules)))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    line = next((x for x in r.stdout.splitlines() if x.startswith("MODULES ")), None)
    assert line is not None, r.stdout[-500:] + r.stderr[-500:]
    _, rc, *mods = line.split(" ")
    return int(rc), set(mods)


def _top(mods: set[str]) -> set[str]:
    return {m.split(".")[0] for m in mods}


def test_help_loads_no_command_module():
    rc, mods = _loaded(["--help"])
    assert rc == 0
    assert not _top(mods) & set(HEAVY)
    assert not {m for m in mods if m.startswith(("gwasl.commands.", "gwasl.rules", "gwasl.engine", "gwasl.store",
                                                  "gwasl.games", "gwasl.ui"))} - {"gwasl.commands.common"}


def test_los_loads_no_sql_qt_or_game():
    rc, mods = _loaded(["los", str(BOIS), "C3", "F6"])
    assert rc == 0
    assert "gwasl.rules.los" in mods  # it traced the LOS
    # one query traces its line in plain Python: no numpy (issue 23 item 8)
    assert not _top(mods) & {"sqlalchemy", "sqlmodel", "pydantic", "sqlite3", "PySide6", "numpy", "shapely"}
    assert not mods & {"importlib.resources", "zipfile", "secrets", "tempfile"}
    assert not {m for m in mods if m.startswith(("gwasl.store", "gwasl.games", "gwasl.engine", "gwasl.ui"))}
    assert not {m for m in mods if m.startswith("gwasl.commands.")} - {"gwasl.commands.common", "gwasl.commands.los"}


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Path]:
    from gwasl.engine.game import GameOptions
    from gwasl.games import game_for
    from gwasl.store.gamefile import create_game, load_source

    where = tmp_path_factory.mktemp("games")
    out = {"aslgw": where / "bois.game", "combined-arms": where / "ca.game"}
    create_game(out["aslgw"], game_for("aslgw"), load_source("aslgw", str(BOIS)), 5, GameOptions()).close()
    create_game(out["combined-arms"], game_for("combined-arms"), None, 7, GameOptions()).close()
    return out


@pytest.mark.parametrize("sub", ["show", "legal"])
@pytest.mark.parametrize("ruleset", ["aslgw", "combined-arms"])
def test_game_commands_open_the_file_without_an_orm(games, ruleset, sub):
    rc, mods = _loaded(["game", sub, str(games[ruleset])])
    assert rc == 0
    assert "sqlite3" in mods and "gwasl.store.gamefile" in mods
    assert not _top(mods) & {"sqlalchemy", "sqlmodel", "pydantic", "PySide6"}
    assert not {m for m in mods if m.startswith("gwasl.commands.")} - {"gwasl.commands.common", "gwasl.commands.game"}
    # the LOS rules are loaded (rules.los is a scenario check), numpy only once an LOS is traced:
    # this Great War game's opening (its Rally Phase, no garance trousers to check) traces none
    assert "numpy" not in _top(mods)
    if ruleset != "aslgw":  # a solitaire game loads no Great War rules
        assert not {m for m in mods if m.startswith("gwasl.games.aslgw")}
    else:  # gwasl's opponent: only for a game where it plays a side, batch play and suggestions
        assert "gwasl.games.aslgw.opponent" not in mods
        # the rules tables are read through the package's loader, temporaries named without
        # secrets, tempfile only for a new game's file (Combined Arms' own tables still use
        # importlib.resources)
        assert not mods & {"importlib.resources", "zipfile", "secrets", "tempfile"}
        assert "gwasl.model.batched" in mods  # the records, their methods compiled together


def test_game_batch_loads_only_the_ruleset_it_plays():
    """``gwasl game batch`` of Combined Arms (issue 23 item 8): it writes no file and reads no
    scenario, so no store, SQLite or scenario reader; one process, so no process pool; no
    session or journal; no other ruleset and no Great War rules; the tables read without
    importlib.resources."""
    rc, mods = _loaded(["game", "batch", "--ruleset", "combined-arms", "--games", "1"])
    assert rc == 0
    assert "gwasl.engine.batch" in mods and "gwasl.games.combined_arms.policies" in mods
    assert not _top(mods) & {*HEAVY, "sqlite3", "concurrent", "multiprocessing"}
    assert not mods & {"importlib.resources", "zipfile", "tempfile", "secrets"}
    assert not {m for m in mods if m.startswith(("gwasl.store", "gwasl.games.aslgw", "gwasl.games.on_patrol", "gwasl.rules.",
                                                  "gwasl.editor", "gwasl.ui"))} - {"gwasl.rules.dice"}  # the engine's dice
    assert not mods & {"gwasl.engine.session", "gwasl.engine.journal", "gwasl.engine.snapshot", "gwasl.model.scenario",
                       "gwasl.model.scenario_io", "gwasl.model.files"}
    assert not {m for m in mods if m.startswith("gwasl.commands.")} - {"gwasl.commands.common", "gwasl.commands.game"}


def test_game_new_loads_no_orm_opponent_or_other_command(tmp_path):
    """``gwasl game new`` of a Great War scenario: the store over the standard library's sqlite3
    (tempfile for the new file's temporary), no ORM, no opponent, no numpy (the opening traces
    no LOS), no other command; the records and rules built by their FrozenBatches."""
    rc, mods = _loaded(["game", "new", str(BOIS), "--out", str(tmp_path / "n.game"), "--seed", "5"])
    assert rc == 0 and (tmp_path / "n.game").is_file()
    assert {"sqlite3", "tempfile", "gwasl.store.gamefile", "gwasl.games.aslgw.game"} <= mods
    assert not _top(mods) & {"sqlalchemy", "sqlmodel", "pydantic", "PySide6", "numpy", "shapely", "concurrent"}
    assert not mods & {"gwasl.games.aslgw.opponent", "gwasl.games.aslgw.advisor", "gwasl.engine.batch",
                       "importlib.resources", "zipfile", "secrets"}
    assert not {m for m in mods if m.startswith(("gwasl.games.combined_arms", "gwasl.games.on_patrol", "gwasl.ui"))}
    assert not {m for m in mods if m.startswith("gwasl.commands.")} - {"gwasl.commands.common", "gwasl.commands.game"}
    assert {"gwasl.model.batched", "gwasl.rules.fog.state", "gwasl.games.aslgw.state"} <= mods


def _registered_help(name: str) -> str | None:
    parser = argparse.ArgumentParser(prog="gwasl")
    sub = parser.add_subparsers(dest="command")
    importlib.import_module(cli.COMMANDS[name][0]).register(sub)
    return next(a.help for a in sub._choices_actions if a.dest == name)


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_each_listed_help_line_is_the_one_its_module_registers(name):
    assert cli.COMMANDS[name][1] == _registered_help(name)


def test_help_lists_what_every_module_registered_in_order(capsys):
    """``gwasl --help`` as it was when every command's module was imported to build it."""
    lazy = cli.build_parser().format_help()
    eager = cli.build_parser()
    sub = next(a for a in eager._actions if isinstance(a, cli._LazyCommands))
    for name in cli.COMMANDS:
        sub.load(name)
    assert [a.dest for a in sub._choices_actions] == list(cli.COMMANDS)
    assert eager.format_help() == lazy
    # a command's own --help once it is loaded, through main() as a user runs it
    buf = io.StringIO()
    with redirect_stdout(buf), pytest.raises(SystemExit):
        cli.main(["game", "show", "--help"])
    assert "--view VIEWER" in buf.getvalue()


def test_the_los_rules_load_numpy_for_bulk_queries_only():
    """A few single LOS queries trace their lines in plain Python (issue 23 item 8): numpy
    and the map's templates come with the first bulk query (one-to-all, many pairs)."""
    code = ("import sys\n"
            "from gwasl.model.scenario_io import load_scenario\n"
            "from gwasl.model.hexgrid import Hex\n"
            "from gwasl.rules import los, los_kernel, validate\n"
            f"s = load_scenario({str(BOIS)!r})\n"
            "before = 'numpy' in sys.modules\n"
            "ok = validate.validate_scenario(s).valid\n"
            "after_validate = 'numpy' in sys.modules\n"
            "r = los.los(s, Hex.from_label('C3'), Hex.from_label('F6'))\n"
            "r2 = los.los(s, Hex.from_label('A1'), Hex.from_label('L8'))\n"
            "after_los = 'numpy' in sys.modules\n"
            "seen = los.visible_from(s, Hex.from_label('C3'))\n"
            "import numpy\n"
            "print(before, ok, after_validate, after_los, los.np is numpy, los_kernel.np is numpy, r.clear in (True, False), "
            "Hex.from_label('F6') in seen if r.clear else Hex.from_label('F6') not in seen)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.stdout.split() == ["False", "True", "False", "False", "True", "True", "True", "True"], r.stdout + r.stderr[-500:]


def test_combined_arms_line_of_fire_tables_are_built_on_first_use():
    """About 0.2 s of tables (CA "Line of Fire"): a Combined Arms command that traces no line of
    fire (show, legal) does not build them; the first use builds them whole, as before."""
    code = ("import sys\n"
            "from gwasl.games.combined_arms import board as B\n"
            "before = 'LOF_INTERIOR' in vars(B) or 'LOF_BY_HEX' in vars(B)\n"
            "near = B.LOF_NEAR\n"
            "interior, partial = B._lof_tables()\n"
            "print(before, B.LOF_INTERIOR == interior and B.LOF_PARTIAL == partial, "
            "(B.LOF_BY_HEX, near) == B._lof_by_hex(), len(interior) > 1000)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.stdout.split() == ["False", "True", "True", "True"], r.stdout + r.stderr[-500:]


def test_game_new_sets_the_game_up_and_validates_its_scenario_once(tmp_path, monkeypatch, capsys):
    """``gwasl game new`` with no choice sets the game up once (ASLGW scenario validation
    included): the sides the choices are checked against, the session and the file it returns
    share that set-up (it was done three times: issue 23 item 8); with a choice, twice."""
    from gwasl.games.aslgw import game as aslgw_game

    calls: list[int] = []
    real_setup = aslgw_game.AslgwGame.setup
    real_validate = aslgw_game.validate_scenario

    def setup(self, *a, **k):
        calls.append(1)
        return real_setup(self, *a, **k)

    validations: list[int] = []

    def validate(*a, **k):
        validations.append(1)
        return real_validate(*a, **k)

    monkeypatch.setattr(aslgw_game.AslgwGame, "setup", setup)
    monkeypatch.setattr(aslgw_game, "validate_scenario", validate)
    assert cli.main(["game", "new", str(BOIS), "--out", str(tmp_path / "a.game"), "--seed", "5"]) == 0
    assert (len(calls), len(validations)) == (1, 1)
    from gwasl.store.gamefile import open_game

    with open_game(tmp_path / "a.game", "r") as gf:  # the file holds the game it printed
        assert gf.session.status().phase == "RPh" and len(calls) == 2
    calls.clear()
    validations.clear()
    assert cli.main(["game", "new", str(BOIS), "--out", str(tmp_path / "b.game"), "--seed", "5", "--secret", "french"]) == 0
    assert (len(calls), len(validations)) == (2, 2)
    assert "new aslgw game, seed 5" in capsys.readouterr().out
