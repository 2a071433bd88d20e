"""Issue 23 item 4, "one implementation per rule, enforced": the odds a game offers for an
action are the distribution of the outcomes its own ``apply`` gives over every die sequence.

For each ruleset, positions come from short seeded games played in process by the game's own
policy (and the automated sides); at each, every legal action of the side to act that has odds
(``Game.odds`` not empty) is applied under a scripted :class:`GameDice` that yields every die
sequence ``apply`` asks for (depth first: a sequence is extended by each face only when apply
drew past it), and each run's events are read into the odds' own words by a per-game reader.
The probability of a run is 6^-(dice it drew).  The readers only name an outcome; every
probability comes from ``apply``.

Where the label of an action depends on the first few dice only (fire: the IFT DR), the
enumeration stops at that depth and checks, on a second tail of the stream, that the rest of
the dice do not change the label.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest

from gwasl.engine.dice import GameDice
from gwasl.engine.game import Game, GameOptions, Outcome, Seat
from gwasl.engine.record import Record
from gwasl.games import game_for

TOLERANCE = 1e-9


class ScriptedGameDice(GameDice):
    """The game's dice, whose first dice are ``script``; after it, the stream of ``seed``.
    ``drawn`` counts every die asked for."""

    def __init__(self, script: Sequence[int], seed: int, position: int = 0) -> None:
        super().__init__(seed, position)
        self.script = script
        self.drawn = 0

    def _die(self) -> int:
        i = self.drawn
        self.drawn += 1
        if i < len(self.script):
            self.position += 1
            return self.script[i]
        return super()._die()


Reader = Callable[[Any, Record, list[Record]], str]


def apply_distribution(game: Game[Any], state: Any, actions: Sequence[Record], read: Reader,
                       depth: int = 12, position: int = 0, strict: bool = True) -> dict[str, Fraction]:
    """The exact distribution of ``read``'s label of the events of ``actions`` applied in turn,
    over every die sequence (to ``depth`` dice; past it the label must not depend on the dice)."""

    def run(script: tuple[int, ...], tail: int) -> tuple[str, int]:
        dice = ScriptedGameDice(script, tail, position)
        st, events = state, []
        for a in actions:
            evs = game.apply(st, a, dice)
            events += evs
            for e in evs:
                st = game.reduce(st, e)
        return read(state, actions[0], events), dice.drawn

    out: dict[str, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        script = stack.pop()
        label, drawn = run(script, 1)
        if drawn > len(script) and len(script) < depth:
            stack.extend(script + (f,) for f in range(1, 7))
            continue
        if drawn > len(script) and run(script, 2)[0] != label:  # the label needs dice past ``depth``
            if not strict:
                raise TooManyDice(actions)
            raise AssertionError(f"{actions}: the label depends on dice past {script}")
        out[label] = out.get(label, Fraction(0)) + Fraction(1, 6 ** len(script))
    return out


def assert_same(odds: list[Outcome], dist: dict[str, Fraction], what: str) -> None:
    offered: dict[str, float] = {}
    for o in odds:
        if o.p:  # an outcome offered at 0 (a band no DR reaches) is none
            offered[o.result] = offered.get(o.result, 0.0) + o.p
    got = {k: float(v) for k, v in dist.items() if v}
    assert set(offered) == set(got) and all(abs(offered[k] - got[k]) < TOLERANCE for k in got), \
        f"{what}: odds {sorted(offered.items())} but apply gives {sorted(got.items())}"


def positions(game: Game[Any], source: Any, seed: int, steps: int, every: int) -> Iterator[tuple[Any, str, int]]:
    """States of a short game played by the game's first policy (and its automated sides):
    (state, side to act, dice position), every ``every`` actions."""
    dice = GameDice(seed)
    state = game.begun(game.setup(source, GameOptions()), dice)
    policy = next(iter(game.policies().values()))
    for step in range(steps):
        st = game.status(state)
        if st.over or st.side is None:
            return
        if step % every == 0:
            yield state, st.side, dice.position
        decide = game.automated(state).get(st.side) or policy
        decision = decide(Seat(game, state, game.viewer(state, st.side), quiet=True), dice)
        state = game.step(state, decision.action, dice)


# -- Combined Arms: fire attacks (CA Fire Attacks) and ending the game (CA Victory) ----------


def _ca_read(state: Any, action: Record, events: list[Record]) -> str:
    """The attack's effect on its hex, read from the states before it and after its events
    (reduced by the game up to the attack's end); of ending the game, the final score."""
    from gwasl.games.combined_arms import board as B
    from gwasl.games.combined_arms.odds import _label
    from gwasl.games.combined_arms.records import AttackDone, Commit, EndGame, GameOver

    if isinstance(action, EndGame):
        over = [e for e in events if isinstance(e, GameOver)]
        return f"you score {over[-1].result['score']}"
    target = B.index_of(action.target) if isinstance(action, Commit) else state.group_target
    game = game_for("combined-arms")
    after = state
    for e in events:
        after = game.reduce(after, e)
        if isinstance(e, AttackDone):
            break
    return _label(state, after, target)


def _ca_words(result: str) -> str:
    """An end-of-game label without the chance of winning (the reader knows the score alone)."""
    return result.split(",")[0] if result.startswith("you score") else result


def test_combined_arms_odds_are_apply_s_outcomes() -> None:
    """CA Fire Attacks (pin on 2-3, break on 4+ with every firer adjacent, reveal rolls of CA
    Enemy Decisions) and CA Victory: the odds of a commit are those of committing then
    resolving; of resolve, the attack as committed; of ending the game, the final score."""
    from gwasl.games.combined_arms.records import Commit, EndGame, Resolve

    game = game_for("combined-arms")
    checked: set[str] = set()
    for i, (seed, state, side, position) in enumerate((s, *p) for s in (1, 2, 3) for p in positions(game, None, s, 400, 1)):
        for action in game.legal_actions(state, game.viewer(state, side)):
            # ending the game rolls a die per unrevealed platoon and potential ATGs: 6^n runs
            if isinstance(action, EndGame):
                reveals = sum((not c.real) + (c.atg == 1) for c in state.enemy)
                if reveals <= 8:
                    # the policies' closed form of the same weighing (outlook.end_now, kept for
                    # batch speed) gives the resolver's distribution too
                    from gwasl.games.combined_arms.odds import end_game_scores
                    from gwasl.games.combined_arms.outlook import end_now

                    derived = {t: float(p) for t, p in end_game_scores(game, state, state.turn - 1).items()}
                    closed = end_now(state, state.turn - 1)
                    assert set(derived) == {t for t, p in closed.items() if p} and all(
                        abs(closed[t] - derived[t]) < TOLERANCE for t in derived), (closed, derived)
                    checked.add("outlook")
                if reveals > 3:
                    continue
            elif i % 7:
                continue
            odds = game.odds(state, action, game.viewer(state, side))
            if not odds:
                continue
            seq = [action, Resolve()] if isinstance(action, Commit) else [action]
            dist = apply_distribution(game, state, seq, _ca_read, position=position)
            assert_same([Outcome(_ca_words(o.result), o.p) for o in odds], dist, f"seed {seed} {seq}")
            checked.add(type(action).__name__)
    # every kind of action with odds is checked at least once per game
    assert checked == {"Commit", "Resolve", "EndGame", "outlook"}, checked


# -- ASL: The Great War: fire (A7.3), rally and repair (A10.6, A9.72), rout (A10.53), NTCs to move


class TooManyDice(Exception):
    """The label depends on more dice than the test enumerates."""


def _aslgw_read(state: Any, action: Record, events: list[Record]) -> str:
    from gwasl.games.aslgw import records as r

    if isinstance(action, r.CloseCombat):
        return _cc_words(state, events)
    if isinstance(action, r.Shift):
        return next(e.band for e in events if isinstance(e, r.ShiftResolved))
    if isinstance(action, r.MinefieldChoice):
        return next(e.band for e in events if isinstance(e, r.MinefieldShifted))
    if isinstance(action, r.Rally):
        return next(e.outcome for e in events if isinstance(e, r.RallyResolved)).replace("_", " ")
    if isinstance(action, r.Repair):
        st = next(e.status for e in events if isinstance(e, r.WeaponChanged) and e.weapon == action.weapon)
        return "still malfunctioned" if st == "repair_tried" else st
    if isinstance(action, r.Rout):
        hits = {e.change for e in events if isinstance(e, r.UnitHit) and e.unit == action.unit}
        if "eliminated" in hits:
            return "eliminated on the way"
        return "arrives casualty reduced" if hits & {"reduced", "wounded", "replaced"} else "arrives"
    if isinstance(action, r.Fire):
        failed = sorted(e.unit for e in events if isinstance(e, r.FireNtc) and not e.passed)
        prefix = f"NTC failed by {', '.join(failed)}: " if failed else ""
        fired = [e for e in events if isinstance(e, r.FireResolved)]
        if not fired:
            return prefix + "no fire"
        f = fired[0]
        text = f.results[0].split(": ", 1)[1] if len(f.results) == 1 else "; ".join(f.results)
        if f.malfunctioned:
            text += f"; {', '.join(f.malfunctioned)} malfunctions (A9.7)"
        if f.used_up:
            text += f"; {', '.join(f.used_up)} used up (A22.3)"
        return prefix + text
    failed = [e.unit for e in events if isinstance(e, r.NtcTaken) and not e.passed]
    return "every unit moves" if not failed else f"{', '.join(failed)} fail(s) the NTC and stay(s)"


def _cc_words(state: Any, events: list[Record]) -> str:
    """A close combat's outcome in the odds' words (A11.11, A11.4): what the first attack
    (the ambusher's, else the phasing side's) did to the other side's units, then what the
    second did, read from the lines of its CloseCombatResolved event."""
    import re

    from gwasl.games.aslgw import records as r

    lines = next(e.lines for e in events if isinstance(e, r.CloseCombatResolved))
    phasing, defender = state.phasing, state.defender
    amb = next((m.group(1) for ln in lines if (m := re.search(r": (\w+) ambushes \(A11\.4\)", ln))), None)
    out = {side: "none" for side in (phasing, defender)}
    for ln in lines:
        m = re.match(r"(\w+) \(.*-> ([a-z ]+) \(A11\.11\)$", ln)
        if m:
            out[m.group(1)] = m.group(2)
    first = defender if amb == defender else phasing
    second = phasing if first == defender else defender
    pre = f"{amb} ambushes; " if amb else ""
    return f"{pre}{second} units: {out[first]}; {first} units: {out[second]}"


@functools.cache
def _aslgw_positions(steps: int, every: int) -> tuple[tuple[str, Any, int], ...]:
    """The positions, played once for every test that reads them."""
    return tuple(_aslgw_play(steps, every))


def _aslgw_play(steps: int, every: int) -> Iterator[tuple[str, Any, int]]:
    import random

    from games.aslgw.combat_support import aggressive
    from games.aslgw.playout import new_session, scenario_paths, source

    for path in scenario_paths():
        s = new_session(source(path), seed=3)
        rng = random.Random(7)
        for step in range(steps):
            if s.status().over:
                break
            if step % every == every - 1 or any(la.action.kind in RARE for la in s.legal("player")):
                yield path.stem, s.state, s.dice_position
            s.act(aggressive(s, rng).action)


#: actions a short game offers rarely: every position where one is legal is checked
RARE = frozenset({"rout", "repair", "rally", "close_combat", "shift"})
#: the aslgw actions whose outcomes _aslgw_read names
READ_KINDS = frozenset({"Fire", "Rally", "Repair", "Rout", "Move", "ImpulseStep", "CloseCombat", "Shift", "MinefieldChoice"})


def _aslgw_check(kinds: frozenset[str], per_kind: int = 3) -> tuple[dict[str, int], dict[str, int], list[str]]:
    """Check the first legal action of each of ``kinds`` at each position, up to ``per_kind``
    of a kind: (checked, too many dice to enumerate, disagreements)."""
    from games.aslgw.playout import GAME

    checked: dict[str, int] = {}
    too_many: dict[str, int] = {}
    bad: list[str] = []
    for name, state, position in _aslgw_positions(240, 8):
        viewer = GAME.viewer(state, "player")
        seen: set[str] = set()
        for action in GAME.legal_actions(state, viewer):
            kind = type(action).__name__
            if kind in seen or kind not in kinds or checked.get(kind, 0) >= per_kind:
                continue
            odds = GAME.odds(state, action, viewer)
            if not odds or odds[0].result.startswith("resolved by gwasl"):
                continue
            seen.add(kind)
            try:
                dist = apply_distribution(GAME, state, [action], _aslgw_read, depth=4, position=position, strict=False)
            except TooManyDice:
                too_many[kind] = too_many.get(kind, 0) + 1
                continue
            try:
                assert_same(odds, dist, f"{name} {action}")
            except AssertionError as e:
                bad.append(str(e).splitlines()[0])
            checked[kind] = checked.get(kind, 0) + 1
    return checked, too_many, bad


def test_aslgw_odds_are_apply_s_outcomes() -> None:
    """Fire (A7.3 with the NTCs of ASLGW 1.3.2), Rally (A10.6), Repair (A9.72) and the NTC to
    move (ASLGW 1.3.2, 1.4.13): the odds equal apply's outcomes over every die sequence (to
    four dice: an action whose outcome needs more is counted, not checked)."""
    checked, too_many, bad = _aslgw_check(READ_KINDS - {"Rout", "CloseCombat", "Shift", "MinefieldChoice"})
    assert not bad, "\n".join(bad)
    assert {"Fire", "Rally", "Move"} <= set(checked), (checked, too_many)


def test_aslgw_rout_odds_are_apply_s_outcomes() -> None:
    """Rout (A10.53): interdiction NMCs; arrives, arrives casualty reduced, or eliminated."""
    checked, too_many, bad = _aslgw_check(frozenset({"Rout"}))
    assert "Rout" in checked, (checked, too_many)
    assert not bad, "\n".join(bad)


def test_aslgw_close_combat_odds_are_apply_s_outcomes() -> None:
    """Close Combat (A11.11, HtH ASLGW 1.8; ambush A11.4): the odds of resolving a CC equal
    apply's outcomes over every die sequence: both attacks' DRs (an ambush's two drs and both
    DRs need six dice: such a CC is counted, not checked)."""
    checked, too_many, bad = _aslgw_check(frozenset({"CloseCombat"}))
    assert not bad, "\n".join(bad)
    assert "CloseCombat" in checked, (checked, too_many)


def test_aslgw_shift_odds_are_apply_s_outcomes() -> None:
    """O'Leary 2.5: a shift attempt's odds (the bands of its DR) equal apply's outcomes, the
    band its ShiftResolved records, over every DR."""
    checked, too_many, bad = _aslgw_check(frozenset({"Shift"}))
    assert not bad, "\n".join(bad)
    assert "Shift" in checked, (checked, too_many)


def test_aslgw_minefield_shift_odds_are_apply_s_outcomes() -> None:
    """O'Leary 4.6.2: a unit enters a hidden minefield; its owner's choice to exchange it with
    another has the odds of the shift DR's bands, equal to apply's outcomes over every DR (no
    bundled scenario has a minefield: two hidden French minefields, entered from the start)."""
    from games.aslgw.builders import doc, leader, session, squad, to_phase
    from games.aslgw.playout import GAME
    from gwasl.games.aslgw.records import MinefieldChoice, Move

    forts = [{"kind": "minefield", "hexes": ["D2"], "owner": "french", "hidden": True, "ap": 6},
             {"kind": "minefield", "hexes": ["H8"], "owner": "french", "hidden": True, "ap": 2}]
    s = session(doc([squad("S", "C2"), leader("L", "C2"), squad("F", "J10", "french")], forts=forts,
                    sides={"german": {"nationality": "german"},
                           "french": {"nationality": "french", "fog": {"hidden_minefield": {"ap": 8, "at": 0}}}}))
    to_phase(s, "MPh", "german")
    s.act(Move(("L", "S"), "D2", "ground"))
    viewer = GAME.viewer(s.state, "player")
    choices = [a for a in GAME.legal_actions(s.state, viewer) if isinstance(a, MinefieldChoice) and a.other is not None]
    assert choices
    for action in choices:
        odds = GAME.odds(s.state, action, viewer)
        dist = apply_distribution(GAME, s.state, [action], _aslgw_read, depth=2, position=s.dice_position)
        assert_same(odds, dist, f"minefield {action}")


# -- On Patrol: no action offers odds today (its dice are the convoy's and the escorts') ------


def test_on_patrol_offers_no_odds_to_check() -> None:
    """On Patrol's actions roll (108.2.1 detection, 105.4.12 attacks) but the game offers no
    odds (``Game.odds`` is the engine's default): the conformance holds vacuously, and this
    test fails the day odds appear without a reader here."""
    game = game_for("on-patrol")
    seen = 0
    for state, side, _ in positions(game, None, 5, steps=120, every=3):
        viewer = game.viewer(state, side)
        for action in game.legal_actions(state, viewer):
            assert game.odds(state, action, viewer) == [], action
            seen += 1
    assert seen > 10


def test_the_check_fails_on_odds_that_are_not_apply_s() -> None:
    """The planted case: a Combined Arms attack's odds with one chance moved to another
    outcome no longer match apply's distribution, so this test cannot pass vacuously."""
    from gwasl.games.combined_arms.records import Commit, Resolve

    game = game_for("combined-arms")
    for state, side, position in positions(game, None, 1, steps=400, every=1):
        viewer = game.viewer(state, side)
        commits = [a for a in game.legal_actions(state, viewer) if isinstance(a, Commit) and len(game.odds(state, a, viewer)) > 1]
        if commits:
            odds = game.odds(state, commits[0], viewer)
            dist = apply_distribution(game, state, [commits[0], Resolve()], _ca_read, position=position)
            assert_same(odds, dist, "as offered")
            wrong = [Outcome(odds[0].result, odds[0].p + 0.01), Outcome(odds[1].result, odds[1].p - 0.01), *odds[2:]]
            with pytest.raises(AssertionError, match="but apply gives"):
                assert_same(wrong, dist, "planted")
            return
    raise AssertionError("no commit with two outcomes in a whole game")
