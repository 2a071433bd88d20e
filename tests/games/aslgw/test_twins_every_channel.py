"""CONTRACTS 5 through every channel (issue 28 item 4): 500 pairs of twin games -- every hidden-fact
variant of every bundled scenario (a real "?" or a dummy, two "?" swapped, HIP units where a dummy
HIP was, a hidden squad's class, a hidden leader's rating, a hidden pillbox there or not), with
and without --secret, five seeds each -- give their viewer the same status, legal list with its
ids, menus with their odds, show, log, suggest and events, and the same answer to every
generated action (at every hex of every map, for every unit id of the file, hidden ones
included), until a rule reveals the difference (tests/games/aslgw/twins.py)."""

from __future__ import annotations

import pytest

from games.aslgw import twins
from games.aslgw.metamorphic import Case, Leak
from games.aslgw.playout import scenario_paths, source
from games.aslgw.variants import fortification_variants


def _cases() -> list[Case]:
    out = []
    for p in scenario_paths():
        doc = source(p)
        for side in doc["sides"]:
            for name, _ in fortification_variants(doc, side):
                out += [Case(str(p), side, secret, name) for secret in (True, False)]
    return out


CASES = _cases()
SEEDS = range(1, 6)
TOTAL = twins.Tally()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.path.rsplit('/', 1)[-1][:-5]}-{c.variant}-{'secret' if c.secret else 'open'}")
def test_twins_answer_alike_through_every_channel_until_a_reveal(case):
    k = CASES.index(case)
    for seed in SEEDS:
        TOTAL.add(twins.run(case, seed, 7919 * seed + k, share=k * len(SEEDS) + seed))


def test_the_twin_runs_covered_every_channel_every_hex_and_500_pairs():
    """Not vacuous (run after the cases above, in file order): at least 500 pairs, both --secret
    settings, every bundled scenario, every hex of every map probed, thousands of generated
    actions refused and some accepted, the menus' odds compared."""
    if TOTAL.pairs < len(CASES) * len(SEEDS):
        pytest.skip("run with the cases above (the whole file)")
    assert TOTAL.pairs >= 500
    assert {c.secret for c in CASES} == {True, False}
    assert {c.variant.split()[0] for c in CASES} >= {"swap_dummy", "swap_stacks", "swap_hip", "class", "rating", "pillbox"}
    for path in {c.path for c in CASES}:
        name = path.rsplit("/", 1)[-1]
        m = source(path)["map"]
        assert len(TOTAL.hexes[name]) == m["columns"] * m["rows"], name
    assert TOTAL.probes >= 20_000 and TOTAL.refusals >= 15_000 and TOTAL.legal_probes >= 50 and TOTAL.odds >= 1_000
    assert TOTAL.steps >= 1_000
    assert {"move", "fire", "close_combat", "rout", "charge_step", "move_pile", "withdraw", "impulse_step", "rally",
            "bayonet_charge", "shift", "exit"} <= set(TOTAL.kinds)


def test_a_leak_in_a_refusal_is_caught(monkeypatch):
    """A refusal worked out on the truth instead of the viewer's knowledge is caught."""
    import gwasl.games.aslgw.knowledge as knowledge

    monkeypatch.setattr(knowledge, "seen_state", lambda state, viewer: state)
    monkeypatch.setattr(knowledge, "unknown_piece", lambda seen, action, viewer: None)
    leaky = [c for c in CASES if c.secret and c.variant.startswith(("swap_hip", "swap_dummy"))]
    with pytest.raises(Leak, match="answer"):
        for c in leaky:
            for seed in SEEDS:
                twins.run(c, seed, seed, probe_hexes=20)
