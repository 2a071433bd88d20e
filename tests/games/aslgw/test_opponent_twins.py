"""Issue 25, item 3: gwasl's opponent reads only its side's seat.  Twin games that differ
only in facts the opponent cannot see (the other side's "?" stacks, HIP units, hidden
squads' class and leaders' rating: tests/games/aslgw/variants.py) give the opponent the
same view, and it makes the same decisions -- action and words -- until its view
differs (a legitimate reveal: a unit found, a "?" lost, a roll it sees come out
otherwise).  The other side plays passive, the same in both twins (CONTRACTS 5,
O'Leary 2.1, 3.1, A12)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from typing import Any

from games.aslgw.playout import GAME, scenario_paths, source
from games.aslgw.variants import hidden_variants
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Seat
from gwasl.games.aslgw.opponent import passive

#: opponent decisions compared per twin pair at most (the divergence comes before, mostly)
HORIZON = 20
SEEDS = range(7)

#: one decision of the opponent as a trace yields it (see :func:`_trace`)
Step = tuple[Any, list[Any], Any, str, list[str], int]


def _trace(src: dict[str, Any], opponent: str, seed: int) -> Iterator[Step]:
    """The opponent's decisions in one game: what its seat showed, what it chose, every
    event it has read so far (as its viewer reads them) and how many of them revealed
    something (``reveals``: a unit seen for what it is, a dummy gone, HIP found)."""
    options = GameOptions(frozenset({opponent}), False, {"opponent": opponent})
    dice = GameDice(seed)
    state = GAME.begun(GAME.setup(src, options), dice)
    viewer = GAME.viewer(state, opponent)
    seen: list[str] = []
    reveals = 0
    for _ in range(2000):
        st = GAME.status(state)
        if st.over or st.side is None:
            return
        seat = Seat(GAME, state, GAME.viewer(state, st.side))
        if st.side == opponent:
            policy = GAME.automated(state)[opponent]
            d = policy(seat, dice)
            yield _read(seat.view()), list(seat.legal()), d.action, d.why, list(seen), reveals
        else:
            d = passive(seat, dice)
        for ev in GAME.apply(state, d.action, dice):
            shown = GAME.event_view(ev, viewer)
            if shown is not None:
                seen.append(shown.text)
                reveals += bool(getattr(ev, "reveals", False))
            state = GAME.reduce(state, ev)


class _Played:
    """One trace played once and read by many: the true game of a scenario is the same in
    every twin pair of its side and seed, so its decisions are played as far as the
    furthest pair reads them, and every pair reads the same items (played lazily, like
    :func:`_trace`, so no pair reads a decision it would not have played)."""

    def __init__(self, trace: Iterator[Step]) -> None:
        self._trace = trace
        self._got: list[Step] = []

    def __iter__(self) -> Iterator[Step]:
        for i in count():
            if i == len(self._got):
                nxt = next(self._trace, None)
                if nxt is None:
                    return
                self._got.append(nxt)
            yield self._got[i]


def _read(view: Any) -> Any:
    """The seat's view itself, whole (issue 25 item 3): the side's knowledge its policy is
    handed (``SideKnowledge``: the scenario as its side knows it, the enemy's hidden units
    left out and a notional squad under each "?", its own fog layer, of the enemy's "?" only
    where they stand and how many counters, O'Leary 2.1).  Compared field by field, so
    twins must agree on every enemy stack id, content, status, dummy HIP and minefield it
    carries: none of them may depend on the enemy's hidden facts."""
    return view


def _pairs() -> list[tuple[str, str, str, dict[str, Any], dict[str, Any]]]:
    out = []
    for p in scenario_paths():
        doc = source(p)
        for hidden_side in doc["sides"]:
            opponent = next(s for s in doc["sides"] if s != hidden_side)
            for name, variant in hidden_variants(doc, hidden_side):
                out.append((p.stem, opponent, name, doc, variant))
    return out


def test_twin_games_get_the_same_opponent_decisions_until_its_view_differs() -> None:
    pairs = _pairs()
    compared = diverged = 0
    n_pairs = 0
    true_games: dict[tuple[str, str, int], _Played] = {}  # the true game of a scenario, side and seed
    for stem, opponent, name, doc, variant in pairs:
        for seed in SEEDS:
            n_pairs += 1
            key = (stem, opponent, seed)
            if key not in true_games:
                true_games.clear()  # the pairs of one scenario and side come together (_pairs)
                true_games.update({(stem, opponent, s): _Played(_trace(doc, opponent, s)) for s in SEEDS})
            a, b = true_games[key], _trace(variant, opponent, seed)
            last = 0  # reveals read by the last decision compared
            for i, (x, y) in enumerate(zip(a, b, strict=False)):
                if i >= HORIZON:
                    break
                if x[0] != y[0] or x[1] != y[1]:
                    # the opponent sees something different: it must have been told (a reveal, a
                    # roll it sees come out otherwise), never learnt it from the hidden facts
                    assert x[4] != y[4] or x[5] > last, f"{stem} ({name}, seed {seed}): the view differs with no reveal"
                    diverged += 1
                    break
                assert (x[2], x[3]) == (y[2], y[3]), (
                    f"{stem} ({name}, seed {seed}), decision {i} of {opponent}: same view, different decisions "
                    f"{x[2]} / {y[2]}")
                compared += 1
                last = x[5]
    assert n_pairs >= 200, n_pairs
    # the test means something: the pairs compare several decisions each before a reveal
    # (308 pairs: 4,614 decisions compared, 130 pairs diverged by a reveal within 20, with issue 25's
    # parts C and D; 4,665 and 119 before them)
    assert compared >= 5 * n_pairs, (compared, n_pairs, diverged)
