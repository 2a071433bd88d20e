"""gwasl plays the other side (issue 25): each side at its own seat, the opponent's risk
rule, what it counts and what it says."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from games.aslgw.playout import GAME, source
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameError, GameOptions, Outcome, Seat
from gwasl.engine.session import Session
from gwasl.games.aslgw import opponent as opp
from gwasl.games.aslgw.records import Fire, FireResolved, Pass, Rally, SniperStruck, UnitHit
from testsupport import SCENARIOS

ROSSIGNOL = SCENARIOS / "rossignol-1914.json"


def _session(doc: dict[str, Any], opponent: str, seed: int = 1) -> Session[Any]:
    return Session.new(GAME, doc, seed, GameOptions(frozenset({opponent}), False, {"opponent": opponent}))


def test_opponent_option_keeps_the_side_secret_and_checks_the_side() -> None:
    """--opponent implies --secret (CONTRACTS 5 extended): the person's view does not hold
    the opponent's hidden layer; a side the scenario does not have is named."""
    s = _session(source(ROSSIGNOL), "german")
    assert s.state.opponents == frozenset({"german"}) and "german" in s.state.secret
    assert not s.viewer().sees_secrets_of("german") and s.viewer().sees_secrets_of("french")
    with pytest.raises(GameError, match="--opponent 'russian' is not a side"):
        GAME.setup(source(ROSSIGNOL), GameOptions(extra={"opponent": "russian"}))


def test_without_an_opponent_solitaire_lists_both_sides_choices() -> None:
    """O'Leary solitaire play stays as it was: the phasing side's RPh lists both sides'
    rallies (A10.6), no duty, no pass."""
    doc = _broken_doc()
    s = Session.new(GAME, doc, 1, GameOptions())
    kinds = {(type(la.action).__name__, getattr(la.action, "unit", None)) for la in s.legal()}
    assert ("Rally", "G-3") in kinds and ("Rally", "F-3") in kinds
    assert not any(isinstance(la.action, Pass) for la in s.legal())


def _broken_doc() -> dict[str, Any]:
    doc = copy.deepcopy(source(ROSSIGNOL))
    for u in doc["units"]:
        if u["id"] in ("G-3", "F-3"):
            u["broken"] = True
            u.pop("hidden", None)
    return doc


def test_the_side_not_phasing_rallies_its_own_units_first() -> None:
    """A10.6: both sides rally in the RPh.  With gwasl playing the German, its rally of
    G-3 is its own decision, taken first in the French RPh; the French list offers the
    French rally and no German one."""
    s = _session(_broken_doc(), "german")
    texts = [e["text"] for e in s.log()]
    assert any(t.startswith("german: tries to rally G-3 (A10.6)") for t in texts), texts
    assert s.status().side == "french"
    rallies = {la.action.unit for la in s.legal() if isinstance(la.action, Rally)}
    assert rallies == {"F-3"}
    with pytest.raises(Exception, match="german"):
        s.act(Rally("G-3"))


def test_the_persons_defensive_first_fire_is_its_own_step_with_a_pass() -> None:
    """A8.1: when gwasl's French move in the German's sight, the game waits for the German
    (the person): its fire at the units that just moved, or a pass that lets them go."""
    s = _session(source(ROSSIGNOL), "french", seed=2)
    for _ in range(400):
        st = s.status()
        assert not st.over
        acts = [la.action for la in s.legal()]
        if st.phase == "MPh" and any(isinstance(a, Pass) for a in acts):
            break
        s.act(_passive(s, "german"))
    else:
        pytest.fail("the French never moved into the German's sight")
    assert st.side == "german"
    assert all(isinstance(a, (Fire, Pass)) for a in acts)
    assert all(a.mode in ("first", "subsequent", "fpf") for a in acts if isinstance(a, Fire))
    before = len(s.entries)
    s.act(Pass("german", "first_fire"))
    assert s.state.combat.window is None or s.status().side == "german"
    assert len(s.entries) > before


def _passive(s: Session[Any], side: str) -> Any:
    """The person's side ends what it may (the passive reference)."""
    return opp.passive(Seat(GAME, s.state, GAME.viewer(s.state, side)), GameDice(0)).action


def _look(side: str = "german") -> Any:
    s = _session(source(ROSSIGNOL), "german")
    return opp._look(Seat(GAME, s.state, GAME.viewer(s.state, side)))


class _Odds:
    """A seat whose odds are given (the shot's own numbers are not the point here)."""

    def __init__(self, outcomes: list[Outcome]) -> None:
        self.outcomes = outcomes

    def odds(self, action: Any) -> list[Outcome]:
        return self.outcomes


def test_fpf_is_held_when_its_own_nmc_outweighs_the_expected_effect() -> None:
    """A8.31: each firer of Final Protective Fire takes an NMC after the shot.  A 7-morale
    squad breaks on 8+ (15/36); a shot with 30% of a 1MC at the French stack promises
    about 0.19 squads: as First Fire it is taken, as FPF it is held, and the words say why."""
    look = _look()
    odds = _Odds([Outcome("units: 1MC", 0.3), Outcome("no effect", 0.7)])
    first = Fire(("G-1",), "B3", "ground", "first")
    fpf = Fire(("G-1",), "B3", "ground", "fpf")
    best, _, _ = opp._choose_fire(odds, look, [first])  # type: ignore[arg-type]
    assert best is not None and best.action == first and best.harm == 0
    best, _, refused = opp._choose_fire(odds, look, [fpf])  # type: ignore[arg-type]
    assert best is None and refused is not None
    assert refused.harm == pytest.approx(15 / 36) and refused.effect < refused.harm
    words = opp._hold_words(look, refused)
    assert "A8.31" in words and "outweighs" in words and "G-1 breaks on its NMC 42%" in words


def test_self_breaks_count_the_units_broken_by_their_own_fpf() -> None:
    """A8.31: an FPF firer failing its NMC (on the attack's Original DR) breaks -- a
    self-inflicted break; the target's break, another mode's firer and a sniper's victim
    (A14) are not."""
    fpf = FireResolved("german", "fpf", ("G-1", "G-2"), "E3", "ground", "french", "8", 0, 9, ("units: NMC",))
    first = FireResolved("german", "first", ("G-1",), "E3", "ground", "french", "8", 0, 9, ("units: NMC",))
    sniper = SniperStruck("french", "G-2", 1, "pin")
    events = [fpf, UnitHit("french", "F-1", "broken", "NMC"), UnitHit("german", "G-1", "broken", "failed its NMC (A8.31)"),
              sniper, UnitHit("german", "G-2", "broken", "sniper")]
    assert opp.self_breaks(events) == {"self_breaks": 1, "self_breaks:german": 1}
    assert opp.self_breaks([first, UnitHit("german", "G-1", "broken", "x")]) == {"self_breaks": 0}


def test_plan_from_the_card() -> None:
    """A26.1, A26.3: the French must Control the farm; the German wins by avoiding it and
    holds the same hexes.  Saint-Quentin's German must exit and Control (A26.23)."""
    look = _look("german")
    french = opp.plan_of(look.sc, "french")
    german = opp.plan_of(look.sc, "german")
    assert french.attack and not german.attack and french.targets == german.targets and french.targets
    sq = _session(source(SCENARIOS / "saint-quentin-1918.json"), "german")
    p = opp.plan_of(sq.state.scenario, "german")
    assert p.attack and p.exits and p.targets


def test_suggest_gives_the_persons_side_the_opponents_reasoning() -> None:
    """gwasl game suggest: the same machinery for the person's side, from its own seat."""
    s = _session(source(ROSSIGNOL), "german")
    hint = s.suggest()
    assert hint is not None
    name, d = hint
    assert name == "opponent" and d.action in [la.action for la in s.legal()] and d.why


def test_every_opponent_decision_is_one_log_line_and_hidden_reasons_stay_private() -> None:
    """Issue 25 item 4: each decision of gwasl's side is one log entry (the person sees
    those about units it sees; the rest only the side itself)."""
    s = _session(source(ROSSIGNOL), "german", seed=3)
    while s.status().phase != "MPh" or s.status().turn < 2:
        s.act(_passive(s, "french"))
    decided = [e for e in s.log("german") if e["kind"] == "decision"]
    seen = [e for e in s.log() if e["kind"] == "decision"]
    assert decided and len(seen) <= len(decided)
    assert all(e["text"].startswith("german: ") for e in decided)
    assert all(re.search(r"\bA\d|ASLGW|O'Leary", e["text"]) for e in decided)  # each names its rule


def test_random_side_draws_uniformly_from_the_dice() -> None:
    """The random reference picks an index below n from logged dice."""
    seen = {opp._pick(GameDice(7, i), 40) for i in range(400)}
    assert seen <= set(range(40)) and len(seen) > 30


def _command_kept(state: Any, action: Any) -> list[str]:
    """The squads a leader's move or exit leaves out of the command they had (ASLGW 1.3.1)."""
    from gwasl.games.aslgw.records import Exit, Move
    from gwasl.model.hexgrid import Hex
    from gwasl.model.scenario import UnitKind
    from gwasl.rules.command import command_radius

    if not isinstance(action, (Move, Exit)):
        return []
    sc = state.scenario
    movers = set(action.pieces)
    leaders = [u for u in sc.units if u.id in movers and u.kind is UnitKind.LEADER]
    if not leaders:
        return []
    side = leaders[0].side
    others = [u for u in sc.units if u.side == side and u.kind is UnitKind.LEADER and not u.broken and u.id not in movers]
    to = Hex.from_label(action.to) if isinstance(action, Move) else None
    left = []
    for q in sc.units:
        if q.side != side or q.kind not in (UnitKind.SQUAD, UnitKind.HALF_SQUAD) or q.broken or q.id in movers:
            continue
        def near(h: Any, ld: Any, q: Any = q) -> bool:
            return q.hex.distance(h) <= command_radius(sc, ld)
        had = any(near(ld.hex, ld) for ld in [*leaders, *others])
        keeps = any(near(ld.hex, ld) for ld in others) or (to is not None and any(near(to, ld) for ld in leaders))
        if had and not keeps:
            left.append(f"{action} leaves {q.id} at {q.hex.label} out of command")
    return left


@pytest.mark.parametrize("seed", [1, 4])
def test_a_leader_does_not_run_ahead_of_the_squads_he_commands(seed: int) -> None:
    """ASLGW 1.3.1-1.3.2, 1.4.13-1.4.14: a squad out of its leader's command radius must pass
    an NTC (+1 when isolated) to move at all.  In Saint-Julien the opponent's leader used to
    run to the east edge alone and exit, leaving his squads behind him to fail their NTCs
    and lose the game (seed 1: 3 exit VP of the 4 needed).  It now moves and exits with
    (or after) the squads he commands: no move or exit of a leader leaves one of them out
    of his command."""
    doc = source(SCENARIOS / "saint-julien-1915.json")
    dice = GameDice(seed)
    both = frozenset({"german", "british"})  # each side decides for its own units, as in batch play
    state = GAME.begun(GAME.setup(doc, GameOptions(both, False, {"opponent": sorted(both)})), dice)
    moves = 0
    for _ in range(5000):
        st = GAME.status(state)
        if st.over:
            break
        seat = Seat(GAME, state, GAME.viewer(state, st.side))
        d = (opp.opponent if st.side == "german" else opp.random_side)(seat, dice)
        if st.side == "german":
            assert _command_kept(state, d.action) == [], d.why
            moves += type(d.action).__name__ in ("Move", "Exit")
        for ev in GAME.apply(state, d.action, dice):
            state = GAME.reduce(state, ev)
    assert moves >= 10


def _in_command_after(state: Any, move: Any) -> bool:
    """Every squad of ``move`` ends it within a Good Order leader's command radius (ASLGW 1.3.1)."""
    from gwasl.model.hexgrid import Hex
    from gwasl.model.scenario import UnitKind
    from gwasl.rules.command import command_radius

    sc = state.scenario
    to = Hex.from_label(move.to)
    movers = set(move.pieces)
    side = sc.unit(move.pieces[0]).side
    leaders = [(ld, to if ld.id in movers else ld.hex) for ld in sc.units
               if ld.side == side and ld.kind is UnitKind.LEADER and not ld.broken]
    return all(any(to.distance(h) <= command_radius(sc, ld) for ld, h in leaders)
               for q in sc.units if q.id in movers and q.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_moving_stack_finishes_its_move_before_another_begins(seed: int) -> None:
    """A4.1: a unit or stack finishes its move before another begins; moving another ends
    it.  The opponent used to move one squad a hex and then start the next (Saint-Julien,
    seed 1: R-2 one hex to B3, then R-4), so its squads crawled a hex per MPh toward an
    edge nine hexes away.  Now, while the stack under way can still get closer to its
    goal without leaving his squads out of command (ASLGW 1.3.2), no other unit starts."""
    from gwasl.games.aslgw.records import Move
    from gwasl.model.hexgrid import Hex

    doc = source(SCENARIOS / "saint-julien-1915.json")
    dice = GameDice(seed)
    both = frozenset({"german", "british"})  # each side decides for its own units, as in batch play
    state = GAME.begun(GAME.setup(doc, GameOptions(both, False, {"opponent": sorted(both)})), dice)
    last: Any = None  # the German move under way
    checked = 0
    for _ in range(5000):
        st = GAME.status(state)
        if st.over:
            break
        seat = Seat(GAME, state, GAME.viewer(state, st.side))
        d = (opp.opponent if st.side == "german" else opp.passive)(seat, dice)
        a = d.action
        if st.side == "german" and isinstance(a, Move) and a.mode == "normal":
            if last is not None and not set(last.pieces) & set(a.pieces):
                sc = state.scenario
                at = {u.id: u.hex for u in sc.units}
                here = at[last.pieces[0]]
                on = [b for b in seat.legal() if isinstance(b, Move) and b.pieces == last.pieces and b.mode == "normal"
                      and Hex.from_label(b.to).column > here.column  # toward the east edge
                      and not _command_kept(state, b) and _in_command_after(state, b)]
                assert not on, f"{a} began while {last.pieces} could go on east: {on[:2]}"
                checked += 1
            last = a
        elif st.side == "german" and not isinstance(a, Move):
            last = None
        for ev in GAME.apply(state, a, dice):
            state = GAME.reduce(state, ev)
    assert checked >= 1
