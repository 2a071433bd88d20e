"""Whole bundled scenarios fought to their last turn (issue 12): by random legal actions
and by a random player that seeks the fight (close combat, bayonet charges, fire,
moves towards the enemy), with and without a side kept secret, every game replaying
identically (CONTRACTS 5 ``replay --check``).  scripts/aslgw_fight.py plays
thousands of such games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.aslgw.combat_support import fight
from games.aslgw.playout import new_session, play, scenario_paths, source

CASES = [(p, which) for p in scenario_paths() for which in ("open", "first", "second")]


def _secret(src: dict, which: str) -> tuple[str, ...]:
    sides = list(src["sides"])
    return () if which == "open" else ((sides[0],) if which == "first" else (sides[1],))


@pytest.mark.parametrize("path, which", CASES, ids=lambda v: v.stem if hasattr(v, "stem") else v)
def test_a_bundled_scenario_is_fought_to_its_end_and_replays_identically(path, which):
    src = source(path)
    kinds: Counter[str] = Counter()
    for seed in (1, 2):
        s = new_session(src, seed, _secret(src, which))
        fight(s, random.Random(seed))
        assert s.replay_check().identical
        st = s.status()
        assert st.over and st.result is not None and "why" in st.result
        kinds.update(e["kind"] for e in s.log("omniscient"))
        r = new_session(src, seed + 10, _secret(src, which))
        play(r, random.Random(seed))
        assert r.replay_check().identical
        kinds.update(e["kind"] for e in r.log("omniscient"))
    assert kinds["fire"] > 5 and kinds["unit"] > 5 and kinds["roll"] > 20


def test_every_step_of_an_infantry_turn_happens_in_the_bundled_scenarios():
    """Over a few fought games: fire of every phase, morale results, rally, rout, close
    combat and Melee, a bayonet charge, snipers, concealment gained."""
    kinds: Counter[str] = Counter()
    modes: Counter[str] = Counter()
    for p in scenario_paths():
        for seed in range(3):
            s = new_session(source(p), seed)
            fight(s, random.Random(seed))
            for e in s.log("omniscient"):
                kinds[e["kind"]] += 1
                if e["kind"] == "fire":
                    modes[e["mode"]] += 1
    assert {"close_combat", "melee", "rally", "rout", "bayonet_charge", "charge_impulse", "concealment_gained", "marked"} <= set(kinds)
    assert {"prep", "first", "final", "advancing"} <= set(modes)
