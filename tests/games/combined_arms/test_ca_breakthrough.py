"""The ``breakthrough`` policy (gwasl/games/combined_arms/policies_breakthrough.py, issue 27 item
12, seventh round): the commander, and where the raid has broken an enemy platoon, platoons
exploit off the enemy edge instead of the game ending (CA Victory, CA Movement)."""

from __future__ import annotations

from games.combined_arms.ca_support import GAME, hx, position
from gwasl.engine.dice import GameDice
from gwasl.engine.game import GameOptions, Seat
from gwasl.games.combined_arms import policies_breakthrough as PB
from gwasl.games.combined_arms import policies_commander as PC
from gwasl.games.combined_arms.records import Exploit
from gwasl.games.combined_arms.state import BROKEN, EXPLOITED, MOVE, UNIT_IDS, Counter, Unit, put, with_enemy, with_units


def _decide(s, policy=PB.breakthrough_policy, dice=None):
    return policy(Seat(GAME, s, GAME.viewer(s, "attacker"), quiet=True), dice or GameDice(0))


def _raided(units: dict[str, int], broken: int = 1, **kw):
    """Seed 0's board (23 counters: raided, CA The Units), at the start of turn 8's move phase,
    one real enemy platoon left in play in 4a (far from the exit hexes), your platoons where
    given (fresh), ``broken`` enemy platoons broken."""
    s = GAME.begun(GAME.setup(None, GameOptions()), GameDice(0))
    assert not PC.sweeps(s)
    us = list(s.units)
    for uid, h in units.items():
        us[UNIT_IDS.index(uid)] = Unit(h, True, -1)
    s = with_units(s, tuple(us))
    s = with_enemy(s, (Counter(hx(-3, 0), real=True),))
    return put(s, phase=MOVE, turn=8, acted=False, enemy_platoons_broken=broken, **{"losses": 0, **kw})


def test_the_breakthrough_is_a_batch_policy():
    assert GAME.policies()["breakthrough"] is PB.breakthrough_policy


def test_an_exploiting_platoon_scores_only_up_to_the_enemy_platoons_broken():
    """CA Victory: "count those which exceed the number of broken enemy platoons only if no real
    enemy platoons remain in play": 2 broken, 1 already exploited, 1 more would score."""
    s = _raided({"D1": EXPLOITED, "D2": hx(-2, 4)}, broken=2)
    assert PB.exploit_scores(s) == 1
    assert PB.exploit_scores(_raided({"D1": EXPLOITED}, broken=1)) == 0


def test_a_platoon_in_an_exit_hex_exploits_where_it_scores():
    """CA Movement: a platoon exploits by advancing from one of the 3 central hexes of the enemy
    rear edge; CA Victory: 2 for it, one enemy platoon being broken.  The commander (the raid)
    would not: its company has no objective near and it ends or goes on with the raid."""
    s = _raided({"D1": hx(-2, 4), "D2": hx(-1, 3)})
    assert PB.go_on(s)
    d = _decide(s)
    assert d.action == Exploit("D1") and "CA Victory" in d.why
    assert _decide(s, PC.commander_policy).action != Exploit("D1")


def test_with_no_enemy_platoon_broken_the_commander_decides():
    """CA Victory: no exploiting platoon scores beyond the enemy platoons broken while a real
    one remains, so the commander plays as before."""
    s = _raided({"D1": hx(-2, 4), "D2": hx(-1, 3)}, broken=0)
    assert not PB.go_on(s)
    assert _decide(s) == _decide(s, PC.commander_policy)


def test_the_game_is_not_prolonged_once_a_break_of_yours_has_cost_what_exploiting_brings():
    """CA Victory: -2 for each of your platoons broken; one broken against one enemy broken."""
    s = _raided({"D1": hx(-2, 4), "D2": hx(-1, 3), "D3": BROKEN})
    assert not PB.go_on(s)


def test_the_game_is_not_prolonged_where_the_loss_track_leaves_no_room():
    """CA Enemy Fire: each time the losses pass from 7 to 0 a platoon breaks (-2, CA Victory):
    at 7 on the track, above :data:`LOSS_CAP`, the way out is not risked."""
    assert PB.go_on(_raided({"D1": hx(-2, 3), "D2": hx(-1, 3)}, losses=PB.LOSS_CAP))
    assert not PB.go_on(_raided({"D1": hx(-2, 3), "D2": hx(-1, 3)}, losses=7))


def test_the_losses_expected_on_the_way_come_from_the_fresh_counters_fire():
    """CA Enemy Fire: a fresh real platoon fires at infantry within 5 hexes in its line of fire;
    the same way with that counter spent (it becomes fresh instead of firing, CA Enemy
    Decisions) expects no loss."""
    s = position(units={"D1": (hx(0, 0), True, -1)}, enemy=[Counter(hx(2, 1), real=True)])
    fresh = PB.expected_losses(s, [UNIT_IDS.index("D1")])
    spent = PB.expected_losses(with_enemy(s, (Counter(hx(2, 1), real=True, fresh=False),)), [UNIT_IDS.index("D1")])
    assert fresh > 0 and spent == 0


def test_the_breakthrough_draws_no_dice():
    """It reads only the seat's view (nothing in Combined Arms is hidden from you, CA Enemy
    Decisions): other dice, the same decision."""
    s = _raided({"D1": hx(-2, 3), "D2": hx(-1, 3)})
    assert _decide(s, dice=GameDice(0)) == _decide(s, dice=GameDice(99, 1234))
