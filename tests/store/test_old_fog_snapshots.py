"""A game file written while the fog layer kept the shift ledger and the turn clock
(FogState.ledger, FogState.clock; main at 6d8ee87) still opens from its newest snapshot,
with the ledger and the phase's "acted" flag moved to the game's state (AslgwState), and
``replay --check`` still finds it identical (CONTRACTS 5 game files; docs/architecture.md "Persistence").

tests/store/data/aslgw-fog-ledger-6d8ee87.game: Bois des Caures, seed 2, the French kept
secret, 118 random actions favouring impulses, "?" orders and shifts, a snapshot every 25
events, made by that commit's code (scripts/make_old_fog_game.py; re-recorded for issue 24,
whose A10.63 made the DEFENDER's self-rally of the first recording illegal); its newest
snapshot (entry 135) holds two shift DRs and an acted clock.  Its journal's events were
then re-worded by issue 24's code (the fire line's FP, column and why, the hindrance label,
Advancing Fire halved for every firer): the same actions, dice and event kinds; the
snapshots are still 6d8ee87's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from gwasl.rules.fog.state import LedgerKind
from gwasl.store.gamefile import open_game

OLD = Path(__file__).parent / "data" / "aslgw-fog-ledger-6d8ee87.game"


def _mf_history_cleared_at_each_phase(monkeypatch) -> None:
    """The rules the file was made under on this point: until O'Leary 2.4's game-long MF history
    (docs/rules-notes.md), a stack's spent MF were forgotten at every new phase."""
    from dataclasses import replace

    from gwasl.games.aslgw.actions import turn
    from gwasl.games.aslgw.state import ro

    today = turn._begin_phase

    def forgetting(state, e):  # type: ignore[no-untyped-def]
        st = today(replace(state, fog=replace(state.fog, spent=ro({}))), e)
        return replace(st, fog=replace(st.fog, spent=ro({})))

    monkeypatch.setattr(turn, "_begin_phase", forgetting)


def test_today_s_game_long_mf_history_replays_the_old_file_differently_as_older(tmp_path):
    """O'Leary 2.4 ("at a previous point in the game"): today a stack's MF history lasts the
    game, so the old file's first snapshot (after entry 92) no longer equals the replay: the
    file is reported older, made under other rules, never altered."""
    p = tmp_path / "old.game"
    shutil.copyfile(OLD, p)
    with open_game(p) as g:
        report = g.session.replay_check()
        assert not report.identical and report.entry == 92 and "snapshot" in report.detail, report
        assert g.check().verdict == "older"


def test_an_old_snapshot_with_the_ledger_in_the_fog_layer_opens_and_replays_identical(tmp_path, monkeypatch):
    """Under the rules it was made with (the MF history forgotten at each phase)."""
    _mf_history_cleared_at_each_phase(monkeypatch)
    p = tmp_path / "old.game"
    shutil.copyfile(OLD, p)  # opening never writes, but the fixture stays untouched whatever happens
    with open_game(p) as g:
        s = g.session
        assert s.opened_from == 135  # the newest snapshot was used, not passed over
        st = s.state
        # O'Leary 2.5, 3.3.4: the two shift DRs made so far, now in the game's ledger
        assert len(st.ledger) == 2 and all(r.kind in LedgerKind for r in st.ledger)
        assert st.acted  # a German unit had already acted in this MPh (O'Leary 2.3, 5.1)
        report = s.replay_check()
        assert report.identical, report  # every stored snapshot equals the replayed state
        assert report.events == 269
