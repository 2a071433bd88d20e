"""Combined Arms (Sabin) as a :class:`~gwasl.engine.game.Game`: ruleset ``combined-arms``.

You are the ``attacker`` (your 14 platoons); the ``defender`` is gwasl's AI,
following the text's "Enemy Decisions" (:mod:`.enemy`).  A turn is your move
phase, your fire phase (mortar call, commits and attacks, then the mortars
fall and, on turn 1, the bombardment), your recovery phase (automatic) and
the enemy phase (mortar call, each enemy counter activated in order, the
enemy mortars fall).  The player chooses the order of rolls against several
hexes holding his infantry and which platoon breaks when the loss track
passes from 7 to 0; everything else between decisions runs by itself.

The state holds no secret: a potential enemy counter is unknown to everyone
until its reveal roll decides it, so every viewer sees the same game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from gwasl.engine.advice import Advisor
from gwasl.engine.dice import GameDice
from gwasl.engine.emitter import Emitter
from gwasl.engine.events import Decided, Drm, Rolled
from gwasl.engine.game import (
    JSON_FILE,
    PRACTICE,
    Game,
    GameError,
    GameOption,
    GameOptions,
    IllegalAction,
    Outcome,
    Policy,
    Shown,
    SourceKind,
    Status,
    Viewer,
)
from gwasl.engine.record import Record, to_json_value
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import choices
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.records import (
    ACTIONS,
    EVENTS,
    Activate,
    Activated,
    AttackDone,
    BoardDiced,
    BreakPending,
    BreakUnit,
    CallMortar,
    Commit,
    Committed,
    CountersPlaced,
    EndGame,
    EndPhase,
    EnemyBroken,
    EnemyFire,
    EnemyMortar,
    EnemyRecovered,
    EnemySpent,
    Exploit,
    Face,
    Faced,
    GameOver,
    HexRolled,
    Left,
    MortarFell,
    MortarTarget,
    Move,
    Moved,
    PhaseBegun,
    Pivot,
    Recovered,
    Resolve,
    Revealed,
    RollNext,
    RollsPending,
    SmokeChanged,
    Spent,
    StageSet,
    TrackMoved,
    UnitBroken,
    Withdraw,
)
from gwasl.games.combined_arms.state import (
    ARMOUR,
    BROKEN,
    DEFENDER_SIDE,
    ENEMY,
    EXPLOITED,
    FIRE,
    MMG,
    MOVE,
    OFFBOARD,
    OVER,
    PLAYER_SIDE,
    RIFLE,
    SETUP,
    UNIT_IDS,
    UNIT_KIND,
    WITHDRAWN,
    Counter,
    HexRoll,
    State,
    Unit,
    initial_state,
    put,
    setter,
    with_enemy,
    with_smoke,
    with_units,
)
from gwasl.games.combined_arms.tables import SCATTER_CORNER, TERRAIN, TERRAIN_BY_DICE
from gwasl.rules.dice import Modifier, Roll

__all__ = ["CombinedArmsGame"]

SIDES = (PLAYER_SIDE, DEFENDER_SIDE)
_UNIT_INDEX = {u: i for i, u in enumerate(UNIT_IDS)}
_WHERE = {OFFBOARD: "off", WITHDRAWN: "withdrawn", EXPLOITED: "exploited", BROKEN: "broken"}


def _unit(uid: str) -> int:
    i = _UNIT_INDEX.get(uid)
    if i is None:
        raise IllegalAction(f"there is no platoon {uid[:20]!r}: yours are {', '.join(UNIT_IDS)}", R.R_UNITS)
    return i


def _hex(text: str) -> int:
    try:
        return B.index_of(text)
    except (KeyError, AttributeError):
        raise IllegalAction(f"there is no hex {str(text)[:20]!r} on the board (1a .. 9g)", R.R_BOARD) from None


def _mods(mods: Sequence[Modifier]) -> tuple[Drm, ...]:
    """Modifiers as the Drm records a pending roll keeps (both are immutable values: each
    is made once, there are a few dozen causes)."""
    return tuple([_DRM[m] if m in _DRM else _DRM.setdefault(m, Drm(m.cause, m.value)) for m in mods])


def _modifiers(drms: Sequence[Drm]) -> list[Modifier]:
    """The Modifiers of a pending roll's Drm records (the inverse of :func:`_mods`)."""
    return [_MODIFIER[d] if d in _MODIFIER else _MODIFIER.setdefault(d, Modifier(d.cause, d.value)) for d in drms]


_DRM: dict[Modifier, Drm] = {}
_MODIFIER: dict[Drm, Modifier] = {}


class _Builder(Emitter[State]):
    """Collects an action's events, reducing as it goes so later steps see their effect (the
    engine's helper); each reduction is also kept in the game's memo, so the session's
    reduction of the same events from the same state is a lookup (Combined Arms' batch speed)."""

    __slots__ = ("game",)
    dice: GameDice

    def __init__(self, game: CombinedArmsGame, state: State, dice: GameDice) -> None:
        super().__init__(state, dice, game.reduce)
        self.game = game

    def emit(self, ev: Record) -> None:  # one event at a time: the hot path
        self.events.append(ev)
        before = self.state
        self.state = self.game.reduce(before, ev)
        self.game._memo[id(ev)] = (before, ev, self.state)

    def roll(self, cause: str, mods: Sequence[Modifier] = (), two: bool = False) -> int:
        r = self.dice.DR(cause, mods) if two else self.dice.dr(cause, mods)
        ev = self.dice.event(r)
        # a roll changes nothing in the state (its effects are the events after it)
        self.events.append(ev)
        self.game._memo[id(ev)] = (self.state, ev, self.state)
        return r.final

    def die(self, cause: str) -> int:
        return self.roll(cause)

    def draw(self, two: bool = False) -> tuple[int, Roll | None]:
        """A roll whose event is written later (:meth:`log`), once its cause can be worded."""
        r = self.dice.DR("", ()) if two else self.dice.dr("", ())
        return r.final, r

    def log(self, roll: Roll | None, cause: str) -> None:
        """The event of a roll :meth:`draw` made, with its cause."""
        assert roll is not None
        ev = self.dice.event(dataclasses.replace(roll, cause=cause))
        self.events.append(ev)
        self.game._memo[id(ev)] = (self.state, ev, self.state)


class _Stepper(_Builder):
    """A builder for :meth:`CombinedArmsGame.step`: the same steps and dice, each event
    reduced as it comes and then dropped (nobody reads them), no roll events built."""

    __slots__ = ()

    def emit(self, ev: Record) -> None:
        self.state = _REDUCERS[type(ev)](self.state, ev)

    def roll(self, cause: str, mods: Sequence[Modifier] = (), two: bool = False) -> int:
        # the same dice and the same modified total as a logged roll (Roll.final), no record
        total = self.dice.unlogged(2 if two else 1)
        for m in mods:
            total += m.value
        return total

    def draw(self, two: bool = False) -> tuple[int, Roll | None]:
        return self.dice.unlogged(2 if two else 1), None

    def log(self, roll: Roll | None, cause: str) -> None:
        pass


class CombinedArmsGame(Game[State]):
    """Sabin's Combined Arms: the board diced from the seed, your battalion against gwasl's defender."""

    ruleset: ClassVar[str] = "combined-arms"
    display_name: ClassVar[str] = "Combined Arms (Sabin)"
    #: CA The Playing Board: the terrain is diced; a source may give it (docs/format/combined-arms.md)
    source_kind: ClassVar[SourceKind] = SourceKind(JSON_FILE, "a Combined Arms board (JSON, its 79 hexes' terrain)",
                                                   without="dices its board from the seed",
                                                   search="Combined Arms dices its board from the seed: no scenario")
    #: nothing is hidden from the player (no secret sides); CA Victory: the easier game
    options_offered: ClassVar[tuple[GameOption, ...]] = (
        PRACTICE, GameOption("easier", "the easier game (no -1 per turn after 18)", rule="CA Victory"))
    board: ClassVar[str] = "gwasl.ui.play.combined_arms_board:CombinedArmsBoard"
    events = EVENTS
    actions = ACTIONS

    def __init__(self) -> None:
        self._memo: dict[int, tuple[State, Record, State]] = {}

    def __reduce__(self) -> tuple[type, tuple[()]]:
        """Pickled without its reduce memo (batch play sends the game to worker processes)."""
        return (CombinedArmsGame, ())

    # -- set-up -------------------------------------------------------------------
    def setup(self, source: Mapping[str, Any] | None, options: GameOptions) -> State:
        """The state before the board is diced.  ``options.extra["easier"]`` drops the
        -1 per turn after turn 18 (CA Victory).  A source may give the board's terrain
        (``{"terrain": [79 terrain ids in reading order]}``); without one the board is diced."""
        easier = options.extra.get("easier", False)
        if not isinstance(easier, bool):
            raise GameError("combined-arms: the option 'easier' must be true or false")
        state = initial_state(easier)
        if source is None:
            return state
        if not isinstance(source, Mapping):
            raise GameError("combined-arms: a source must be an object with 'terrain'")
        terrain = source.get("terrain")
        if not isinstance(terrain, (list, tuple)) or len(terrain) != B.N:
            raise GameError(f"combined-arms source: 'terrain' must list the {B.N} hexes in reading order (1a .. 9g)")
        for i, t in enumerate(terrain):
            road = B.ROAD_MASK >> i & 1
            if t not in TERRAIN or (t == "road") != bool(road):
                want = "road" if road else "one of " + ", ".join(k for k in TERRAIN if k != "road")
                raise GameError(f"combined-arms source: terrain[{i}] ({B.label(i)}): {str(t)[:20]!r} should be {want}")
        return put(state, terrain=tuple(terrain))

    def begin(self, state: State, dice: GameDice) -> list[Record]:
        """Dice the 70 hexes off the road (2 dice each), choose the enemy's third, place
        the potential enemy counters and ATGs (CA The Playing Board, The Units)."""
        self._memo.clear()
        b = _Builder(self, state, dice)
        self._begin(b)
        return b.events

    def begun(self, state: State, dice: GameDice) -> State:
        """The state :meth:`begin`'s events lead to, computed by the same code without keeping
        the events (batch play; tests/games/combined_arms/test_ca_batch.py checks it)."""
        b = _Stepper(self, state, dice)
        self._begin(b)
        return b.state

    def _begin(self, b: _Builder) -> None:
        state = b.state
        drawn: list[tuple[int, Roll | None]] = []
        if state.terrain:
            terrain = list(state.terrain)
        else:
            terrain = []
            for i in range(B.N):
                if B.ROAD_MASK >> i & 1:
                    terrain.append("road")
                else:
                    total, roll = b.draw(two=True)
                    drawn.append((i, roll))
                    terrain.append(TERRAIN_BY_DICE[total])
        top, middle, bottom = R.defensive_counts(terrain)
        tie_die: tuple[int, Roll | None] | None = None
        if top == bottom:
            # "decide randomly if there is a tie"
            tie_die = b.draw()
            turned = tie_die[0] <= 3
        else:
            turned = top > bottom
        # the terrain rolls are logged once the board's side is known, each naming its hex as the
        # board shows it (turned or not); the stream's order is kept: the terrain dice, then the tie's
        for i, roll in drawn:
            b.log(roll, _TERRAIN_CAUSE[B.ROTATED[i] if turned else i])
        if tie_die is not None:
            b.log(tie_die[1], f"tie of {top} defended hexes in the top and bottom 3 hexrows: 1-3 the enemy holds the top, "
                              f"4-6 the bottom ({R.R_UNITS})")
        if turned:  # the enemy holds the top: turn the board so that you attack from the top
            terrain = [terrain[B.ROTATED[i]] for i in range(B.N)]
        b.emit(BoardDiced(tuple(terrain), (top, middle, bottom), turned))
        hexes = R.counter_hexes(terrain)
        atgs = [h for h in hexes if R.atg_placed(terrain, h)]
        b.emit(CountersPlaced(tuple(B.label(h) for h in hexes), tuple(B.label(h) for h in atgs)))
        b.emit(PhaseBegun(1, MOVE))

    # -- the rules -------------------------------------------------------------------
    def sides(self, state: State) -> tuple[str, ...]:
        return SIDES

    def secret_sides(self, state: State) -> frozenset[str]:
        return frozenset()  # nothing is hidden: potential counters are unknown to everyone

    def status(self, state: State) -> Status:
        if state.phase == OVER:
            # the last turn played (ending the game in turn 12's move phase scores 11 turns)
            turns = state.result.get("turns", state.turn) if state.result else state.turn
            return Status(turns, OVER, None, True, state.result)
        if state.phase == SETUP:
            return Status(0, SETUP, None)
        side = _side_to_act(state)
        # a Status is an immutable value: one per (turn, phase, side) serves every state
        key = (state.turn, state.phase, side)
        st = _STATUS.get(key)
        if st is None:
            st = _STATUS[key] = Status(state.turn, state.phase, side)
        return st

    def viewer(self, state: State, name: str) -> Viewer:
        # the sides and their secrets (none) never change: each viewer is built once
        v = _VIEWERS.get(name)
        if v is None:
            v = super().viewer(state, name)
            _VIEWERS[name] = v
        return v

    def legal_actions(self, state: State, viewer: Viewer) -> Sequence[Record]:
        st = self.status(state)
        if st.over or st.side is None:
            return []
        if st.side == DEFENDER_SIDE:
            return self._defender_actions(state)
        return self._attacker_actions(state)

    def _attacker_actions(self, s: State) -> list[Record]:
        return choices.attacker_actions(s)

    def unit_actions(self, s: State, u: int) -> list[Record]:
        """The legal actions of platoon ``u`` now (:func:`.choices.unit_actions`)."""
        return choices.unit_actions(s, u)

    @staticmethod
    def option_action(uid: str, option: tuple[Any, ...]) -> Record:
        return choices.option_action(uid, option)

    def unit_options(self, s: State, u: int) -> list[tuple[Any, ...]]:
        return choices.unit_options(s, u)

    def mortar_actions(self, s: State) -> list[Record]:
        return choices.mortar_actions(s)

    @staticmethod
    def mortar_options(s: State) -> list[tuple[int, str]]:
        return choices.mortar_options(s)

    def _defender_actions(self, s: State) -> list[Record]:
        if s.stage == "mortar":
            out: list[Record] = [EnemyMortar(None)]
            if not (s.enemy_fired and s.enemy_fired == s.turn - 1):
                out.extend(EnemyMortar(B.label(h)) for h in R.enemy_mortar_targets(s))
            return out
        if s.stage == "activate":
            nxt = next((c for c in s.enemy if c.hex > s.cursor), None)
            if nxt is None:
                return []
            acts: list[Record] = []
            for p in ((True, False) if not nxt.real else (False,)):
                if not p and not nxt.real and self._adjacent_to_yours(s, nxt.hex):
                    continue
                adjacent = self._adjacent_to_yours(s, nxt.hex)
                if nxt.atg == 1 and adjacent:
                    atg_tests: tuple[bool, ...] = (True,)  # adjacent: its potential ATGs are revealed too
                else:
                    atg_tests = (False, True) if nxt.fresh and nxt.atg == 1 else (False,)
                for a in atg_tests:
                    acts.append(Activate((B.label(nxt.hex),), p, a))
            return acts
        if s.stage == "fire":
            c = s.counter_at(s.firing)
            if c is None:
                return []
            armour: list[str | None] = [None]
            for u in range(len(UNIT_IDS)):
                att = R.enemy_armour_attack(s, c.hex, u, c.atg == 2)
                if att is not None:
                    armour.append(UNIT_IDS[u])
            clusters: list[tuple[str, ...]] = [()]
            clusters += [tuple(B.label(h) for h in cl) for cl, _ in R.clusters(s, c.hex)]
            return [EnemyFire(B.label(c.hex), a, cl) for a in armour for cl in clusters]
        return []

    @staticmethod
    def _adjacent_to_yours(s: State, h: int) -> bool:
        return bool(R.unit_masks(s)[0] & B.NEIGHBOUR_MASK[h])

    def why_illegal(self, state: State, action: Record, viewer: Viewer) -> str:
        try:
            self.apply(state, action, GameDice(0))
        except IllegalAction as e:
            return str(e)
        except GameError as e:
            return str(e)
        return f"{action.kind!r} with these details is not a legal action now (see the legal actions)"

    # -- applying actions ------------------------------------------------------------------
    def apply(self, state: State, action: Record, dice: GameDice) -> list[Record]:
        self._memo.clear()
        b = _Builder(self, state, dice)
        self._run(b, action)
        return b.events

    def step(self, state: State, action: Record, dice: GameDice) -> State:
        """The state :meth:`apply`'s events lead to, computed by the same code without
        keeping the events (batch play; tests/games/combined_arms/test_ca_batch.py checks
        it against apply and reduce)."""
        b = _Stepper(self, state, dice)
        self._run(b, action)
        return b.state

    def _run(self, b: _Builder, action: Record) -> None:
        state = b.state
        if state.phase == OVER:
            raise IllegalAction("the game is over", R.R_VICTORY)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action.kind!r} is not a Combined Arms action")
        side = DEFENDER_SIDE if type(action) in _DEFENDER_ACTIONS else PLAYER_SIDE
        to_act = None if state.phase == SETUP else _side_to_act(state)
        if to_act != side:
            raise IllegalAction(f"it is the {to_act}'s turn to act, not the {side}'s", R.R_SEQ)
        handler(self, b, action)
        self._advance(b)

    # your move phase
    def _move(self, b: _Builder, a: Move) -> None:
        s = b.state
        u = _unit(a.unit)
        self._need_phase(s, MOVE, "move")
        self._need_fresh(s, u)
        to = _hex(a.to)
        armour = UNIT_KIND[u] == ARMOUR
        if armour and a.facing is None:
            raise IllegalAction(f"armour {a.unit} must say which corner it faces after moving (0-5)", R.R_MOVE)
        facing = a.facing if armour and a.facing is not None else -1
        for mto, mfacing, how in R.unit_moves(s, u):
            if mto == to and mfacing == facing:
                b.emit(Moved(a.unit, B.label(to), None if facing < 0 else facing, how))
                return
        raise IllegalAction(self._move_problem(s, u, to, facing), R.R_MOVE)

    def _move_problem(self, s: State, u: int, to: int, facing: int) -> str:
        unit = s.units[u]
        uid, where = UNIT_IDS[u], unit.where
        kind = UNIT_KIND[u]
        if where == OFFBOARD and not (B.REAR_HEXES >> to & 1 or (kind == ARMOUR and to == B.ROAD[1])):
            return f"{uid} must enter the board on one of your 7 rear edge hexes (hexrow 1)"
        if where >= 0 and kind == MMG:
            return f"MMG {uid} may never move once entered, except to withdraw"
        if s.enemy_mask >> to & 1:
            return f"{B.label(to)} holds an enemy counter"
        if B.FORBIDDEN_EDGE >> to & 1:
            return f"{B.label(to)} is a side edge hex of the 5 middle hexrows"
        if kind == ARMOUR and s.no_armour >> to & 1:
            return f"armour may not enter {TERRAIN[s.terrain[to]].name} ({B.label(to)})"
        if not R.can_enter(s, u, to):
            return (f"{uid} may not stack in {B.label(to)} with a rifle platoon of another company" if kind == RIFLE
                    else f"armour may not enter {B.label(to)}, which holds other armour")
        if where >= 0 and B.distance(where, to) > 1 and kind != ARMOUR:
            return f"{uid} moves one hex at a time"
        if kind == ARMOUR:
            return (f"armour {uid} cannot reach {B.label(to)} facing {facing}: it moves 1 hex into its forward arc after "
                    "changing facing, reverses without changing facing, or moves 2 hexes along the road without changing facing")
        return f"{uid} cannot move to {B.label(to)}"

    def _pivot(self, b: _Builder, a: Pivot) -> None:
        s = b.state
        u = _unit(a.unit)
        self._need_phase(s, MOVE, "change facing without moving")
        self._need_fresh(s, u)
        unit = s.units[u]
        if UNIT_KIND[u] != ARMOUR or unit.where < 0:
            raise IllegalAction(f"only armour on the board has a facing to change ({a.unit})", R.R_UNITS)
        if not 0 <= a.facing < 6 or a.facing == unit.facing:
            raise IllegalAction(f"facing must be a corner 0-5 other than the present one ({unit.facing})", R.R_MOVE)
        b.emit(Moved(a.unit, B.label(unit.where), a.facing, "pivot"))

    def _withdraw(self, b: _Builder, a: Withdraw) -> None:
        s = b.state
        u = _unit(a.unit)
        self._need_phase(s, MOVE, "withdraw")
        self._need_fresh(s, u)
        if not R.withdraw_allowed(s, u):
            raise IllegalAction(f"{a.unit} may withdraw only by moving back off one of your rear edge hexes (hexrow 1)", R.R_MOVE)
        b.emit(Left(a.unit, "withdrawn", f"moved back off the rear edge ({R.R_MOVE})"))

    def _exploit(self, b: _Builder, a: Exploit) -> None:
        s = b.state
        u = _unit(a.unit)
        self._need_phase(s, MOVE, "exploit")
        self._need_fresh(s, u)
        if not R.exploit_allowed(s, u):
            raise IllegalAction(f"{a.unit} may exploit only by advancing off one of the 3 central hexes of the enemy rear edge "
                                "(9c, 9d, 9e); MMGs never may", R.R_MOVE)
        b.emit(Left(a.unit, "exploited", f"advanced off the enemy rear edge into the enemy withdrawn box ({R.R_MOVE})"))

    def _end_phase(self, b: _Builder, a: EndPhase) -> None:
        s = b.state
        if s.rolls or s.breaks:
            raise IllegalAction("first finish the pending rolls", R.R_SEQ)
        if s.phase == MOVE:
            b.emit(PhaseBegun(s.turn, FIRE))
            return
        if s.phase != FIRE or s.stage:
            raise IllegalAction("only your move and fire phases end on your word", R.R_SEQ)
        if s.group:
            raise IllegalAction(f"first resolve the attack committed against {B.label(s.group_target)}", R.R_FIRE)
        b.emit(StageSet("mortar_fall"))
        if s.own_fired == s.turn and s.own_target >= 0:
            self._mortar_falls(b, PLAYER_SIDE, s.own_target, s.own_ammo)

    def _end_game(self, b: _Builder, a: EndGame) -> None:
        s = b.state
        if s.phase != MOVE or s.acted or s.turn < 2:
            raise IllegalAction("you may end the game only after a whole turn, before anything moves in the next one", R.R_VICTORY)
        self._game_over(b, s.turn - 1, "you ended the game")

    # your fire phase
    def _call_mortar(self, b: _Builder, a: CallMortar) -> None:
        s = b.state
        self._need_phase(s, FIRE, "call for mortar fire")
        to = _hex(a.target)
        if a.ammo not in ("he", "smoke"):
            raise IllegalAction("mortar ammo is 'he' or 'smoke'", R.R_MORTARS)
        if s.group_target >= 0 or s.engaged:
            raise IllegalAction("you call for mortar fire before your platoons fire", R.R_SEQ)
        if s.own_fired == s.turn:
            raise IllegalAction("your mortars have already been called this turn", R.R_MORTARS)
        smoke = a.ammo == "smoke"
        if smoke and s.smoke_ammo <= 0:
            raise IllegalAction("your smoke ammo is spent (4 turns)", R.R_MORTARS)
        if to not in R.own_mortar_targets(s, smoke):
            raise IllegalAction(self._mortar_problem(s, to, smoke), R.R_MORTARS)
        if smoke:
            b.emit(TrackMoved("smoke", s.smoke_ammo - 1))
        b.emit(MortarTarget(PLAYER_SIDE, B.label(to), a.ammo))

    def _mortar_problem(self, s: State, to: int, smoke: bool) -> str:
        anym = R.unit_masks(s)[0]
        if s.own_fired == s.turn - 1 and s.own_target >= 0 and to != s.own_target and not B.NEIGHBOUR_MASK[s.own_target] >> to & 1:
            return f"your mortars fired last turn at {B.label(s.own_target)}: they may fire again only at it or an adjacent hex"
        if smoke and anym >> to & 1:
            return f"smoke may not target {B.label(to)}, which holds one of your platoons"
        if not smoke and not s.enemy_mask >> to & 1:
            return f"{B.label(to)} holds no enemy counter"
        if not smoke and B.NEIGHBOUR_MASK[to] & anym:
            return f"{B.label(to)} is next to one of your platoons"
        return f"{B.label(to)} is not spotted by a fresh infantry platoon not adjacent to an enemy counter"

    def _commit(self, b: _Builder, a: Commit) -> None:
        s = b.state
        u = _unit(a.unit)
        self._need_phase(s, FIRE, "fire")
        self._need_fresh(s, u)
        t = _hex(a.target)
        if t not in R.fire_targets(s, u):
            raise IllegalAction(self._fire_problem(s, u, t), R.R_FIRE)
        facings = R.fire_facings(s, u, t)
        facing = -1 if a.facing is None else a.facing
        if facing not in facings:
            raise IllegalAction(f"{a.unit} must end facing one of {list(facings)} to have {a.target} in its forward arc"
                                if UNIT_KIND[u] == ARMOUR else "only armour has a facing", R.R_FIRE)
        b.emit(Committed(a.unit, B.label(t), None if facing < 0 else facing))

    def _fire_problem(self, s: State, u: int, t: int) -> str:
        unit = s.units[u]
        uid = UNIT_IDS[u]
        if unit.where < 0:
            return f"{uid} is not on the board"
        if s.group_target >= 0 and t != s.group_target:
            return f"first resolve the attack committed against {B.label(s.group_target)}"
        if s.counter_at(t) is None:
            return f"{B.label(t)} holds no enemy counter"
        if s.engaged >> t & 1:
            return f"{B.label(t)} has already been attacked this phase: commit every platoon against a hex before resolving"
        if s.group_target >= 0 and UNIT_KIND[u] == RIFLE:
            return "rifle platoons from different companies may not engage the same hex"
        d = B.distance(unit.where, t)
        if d > 5:
            return f"{B.label(t)} is {d} hexes away: platoons may not fire 6 or more hexes"
        return f"the line of fire from {B.label(unit.where)} to {B.label(t)} is blocked"

    def _resolve(self, b: _Builder, a: Resolve) -> None:
        s = b.state
        if not s.group:
            raise IllegalAction("no platoon has been committed", R.R_FIRE)
        t, all_adjacent = s.group_target, committed_adjacent(s)
        for u, _f in s.group:
            self._own_roll(b, u, t, all_adjacent)
        b.emit(AttackDone(B.label(t)))

    # -- the resolver's steps, one at a time (the odds weigh every die of each: odds.py) -----
    def committed(self, state: State, action: Commit) -> State:
        """The state after committing ``action`` (CA Fire Attacks), as :meth:`apply` commits it."""
        b = _Stepper(self, state, GameDice(0))
        self._commit(b, action)
        return b.state

    @staticmethod
    def committed_adjacent(state: State) -> bool:
        """:func:`committed_adjacent`: only an attack of adjacent platoons breaks (CA Fire Attacks)."""
        return committed_adjacent(state)

    def fire_step(self, state: State, u: int, all_adjacent: bool, dice: GameDice) -> State:
        """The state after committed platoon ``u``'s roll against the committed hex, with
        ``dice``: the step :meth:`_resolve` takes for each firer (CA Fire Attacks;
        ``all_adjacent``: :func:`committed_adjacent` of the attack as resolution began)."""
        b = _Stepper(self, state, dice)
        self._own_roll(b, u, state.group_target, all_adjacent)
        return b.state

    def final_reveal_step(self, state: State, c: Counter, dice: GameDice) -> State:
        """The state after the final reveal of counter ``c`` with ``dice``: the step
        :meth:`_game_over` takes for each enemy counter (CA Victory)."""
        b = _Stepper(self, state, dice)
        self._final_reveal(b, c)
        return b.state

    def _own_roll(self, b: _Builder, u: int, t: int, all_adjacent: bool) -> None:
        s = b.state
        uid = UNIT_IDS[u]
        mods = R.own_fire_mods(s, u, t)
        final = b.roll(f"{uid} fires at {B.label(t)} ({R.R_FIRE})", mods)
        spend, brk_atg, brk_platoon = R.own_fire_effect(final, all_adjacent, UNIT_KIND[u] != ARMOUR)
        c = b.state.counter_at(t)
        if c is not None:
            if spend and c.fresh:
                b.emit(EnemySpent(B.label(t), f"pinned by {uid}'s fire ({R.R_FIRE})"))
            if brk_platoon:
                self._break_counter(b, t)
            elif brk_atg:
                self._break_atgs(b, t)
        if UNIT_KIND[u] == RIFLE:
            value = (b.state.ammo + 1) % 8
            b.emit(TrackMoved("ammo", value, value == 0))
            if value == 0:
                b.emit(Left(uid, "withdrawn", f"the infantry ammo fired counter passed from 7 to 0 ({R.R_FIRE})"))

    def _break_counter(self, b: _Builder, t: int) -> None:
        """An infantry attack of 4+ with every firer adjacent: reveal the platoon if it is
        potential (unreal: both counters go, with no score), break its ATGs, then it."""
        c = b.state.counter_at(t)
        if c is None:
            return
        if not c.real and not self._reveal_platoon(b, c):
            return
        self._break_atgs(b, t)
        b.emit(EnemyBroken(B.label(t), "platoon"))

    def _break_atgs(self, b: _Builder, t: int) -> None:
        c = b.state.counter_at(t)
        if c is None or not c.atg:
            return
        if c.atg == 1 and not self._reveal_atgs(b, c):
            return
        b.emit(EnemyBroken(B.label(t), "atg"))

    def _reveal_platoon(self, b: _Builder, c: Counter) -> bool:
        mods = R.platoon_reveal_mods(b.state, c)
        final = b.roll(f"reveal the potential platoon in {B.label(c.hex)}: real on 5+ ({R.R_DECISIONS})", mods)
        real = final >= R.REVEAL_NEED
        b.emit(Revealed(B.label(c.hex), "platoon", real))
        return real

    def _reveal_atgs(self, b: _Builder, c: Counter) -> bool:
        mods = R.atg_reveal_mods(b.state, c)
        final = b.roll(f"reveal the potential ATGs in {B.label(c.hex)}: real on 5+ ({R.R_DECISIONS})", mods)
        real = final >= R.REVEAL_NEED
        b.emit(Revealed(B.label(c.hex), "atg", real))
        return real

    def _face(self, b: _Builder, a: Face) -> None:
        s = b.state
        u = _unit(a.unit)
        self._need_phase(s, FIRE, "change facing")
        self._need_fresh(s, u)
        unit = s.units[u]
        if UNIT_KIND[u] != ARMOUR or unit.where < 0:
            raise IllegalAction(f"only armour on the board has a facing ({a.unit})", R.R_UNITS)
        if s.group_target >= 0:
            raise IllegalAction("first resolve the attack being committed", R.R_FIRE)
        if s.faced >> u & 1:
            raise IllegalAction(f"{a.unit} has already changed facing this phase (only the last facing matters)", R.R_FIRE)
        if not 0 <= a.facing < 6 or a.facing == unit.facing:
            raise IllegalAction(f"facing must be a corner 0-5 other than the present one ({unit.facing})", R.R_FIRE)
        b.emit(Faced(a.unit, a.facing))

    # pending choices
    def _roll_next(self, b: _Builder, a: RollNext) -> None:
        s = b.state
        h = _hex(a.hex)
        for r in s.rolls:
            if r.hex == B.label(h) and R.infantry_in(s, h):
                self._roll_hex(b, r)
                return
        raise IllegalAction(f"no pending roll against your infantry in {a.hex}", R.R_ENEMY_FIRE)

    def _break_unit(self, b: _Builder, a: BreakUnit) -> None:
        s = b.state
        u = _unit(a.unit)
        if not s.breaks or s.units[u].where != s.break_hex or UNIT_KIND[u] == ARMOUR:
            raise IllegalAction(f"{a.unit} is not one of the infantry platoons in the hex where the loss track passed 0",
                                R.R_ENEMY_FIRE)
        b.emit(UnitBroken(a.unit, f"your infantry losses passed from 7 to 0 in {B.label(s.break_hex)} ({R.R_ENEMY_FIRE})"))

    # the defender
    def _enemy_mortar(self, b: _Builder, a: EnemyMortar) -> None:
        s = b.state
        if s.phase != ENEMY or s.stage != "mortar":
            raise IllegalAction("the enemy mortars are called at the start of the enemy phase", R.R_SEQ)
        if s.enemy_target >= 0:
            b.emit(MortarTarget(DEFENDER_SIDE, None))
        if a.target is not None:
            h = _hex(a.target)
            if s.enemy_fired and s.enemy_fired == s.turn - 1:
                raise IllegalAction("enemy mortars may not fire in successive turns", R.R_MORTARS)
            if h not in R.enemy_mortar_targets(s):
                raise IllegalAction(f"{a.target} is not a spotted hex with your infantry away from enemy counters", R.R_MORTARS)
            b.emit(MortarTarget(DEFENDER_SIDE, B.label(h)))
        b.emit(StageSet("activate"))

    def _activate(self, b: _Builder, a: Activate) -> None:
        s = b.state
        if s.phase != ENEMY or s.stage != "activate":
            raise IllegalAction("enemy counters are activated after the enemy mortar call", R.R_SEQ)
        queue = [c for c in s.enemy if c.hex > s.cursor]
        if not a.hexes or len(a.hexes) > len(queue) or [c.hex for c in queue[: len(a.hexes)]] != [_hex(h) for h in a.hexes]:
            raise IllegalAction("enemy counters are activated in order: the row nearest you first, each row from the enemy's left",
                                R.R_DECISIONS)
        anym = R.unit_masks(s)[0]
        recovered = []
        for c in queue[: len(a.hexes) - 1]:
            if (not c.real or c.atg == 1) and anym & B.NEIGHBOUR_MASK[c.hex]:
                raise IllegalAction(f"the potential counter in {B.label(c.hex)} is adjacent to your platoons and must be revealed",
                                    R.R_DECISIONS)
            if not c.fresh:
                recovered.append(B.label(c.hex))
        if recovered:  # the counters before the last only recover or hold: one event for them all
            b.emit(EnemyRecovered(tuple(recovered)))
        c = queue[len(a.hexes) - 1]
        label = B.label(c.hex)
        if a.platoon_test and c.real:
            raise IllegalAction(f"the platoon in {label} is already revealed", R.R_DECISIONS)
        if not a.platoon_test and not c.real and anym & B.NEIGHBOUR_MASK[c.hex]:
            raise IllegalAction(f"the potential counter in {label} is adjacent to your platoons and must be revealed", R.R_DECISIONS)
        adjacent = bool(anym & B.NEIGHBOUR_MASK[c.hex])
        if a.atg_test and not (c.atg == 1 and (c.fresh or adjacent)):
            raise IllegalAction(f"{label} has no fresh potential ATGs to reveal, nor potential ATGs next to your platoons",
                                R.R_DECISIONS)
        if not a.atg_test and c.atg == 1 and adjacent:
            raise IllegalAction(f"the potential ATGs in {label} are adjacent to your platoons and must be revealed", R.R_DECISIONS)
        alive = True
        if a.platoon_test:
            alive = self._reveal_platoon(b, c)
        if alive and a.atg_test:
            cc = b.state.counter_at(c.hex)
            assert cc is not None
            self._reveal_atgs(b, cc)
        b.emit(Activated(label))
        cc = b.state.counter_at(c.hex)
        if cc is None:
            return
        if not cc.fresh:
            b.emit(EnemyRecovered((label,)))
        elif cc.real:
            b.emit(StageSet("fire", label))

    def _enemy_fire(self, b: _Builder, a: EnemyFire) -> None:
        s = b.state
        if s.phase != ENEMY or s.stage != "fire" or s.firing < 0 or _hex(a.hex) != s.firing:
            raise IllegalAction("only the enemy platoon being activated fires now", R.R_DECISIONS)
        c = s.counter_at(s.firing)
        assert c is not None
        here = B.label(c.hex)
        if a.armour is not None:
            u = _unit(a.armour)
            att = R.enemy_armour_attack(s, c.hex, u, c.atg == 2)
            if att is None:
                raise IllegalAction(f"the enemy in {here} cannot engage armour {a.armour}", R.R_ENEMY_FIRE)
            mods, need = att
            how = "ATGs" if c.atg == 2 else "close range anti-tank weapons"
            final = b.roll(f"enemy in {here} fires its {how} at {a.armour}: broken on {need}+ ({R.R_ENEMY_FIRE})", mods)
            if final >= need:
                b.emit(UnitBroken(a.armour, f"hit by the enemy in {here} ({R.R_ENEMY_FIRE})"))
        if a.cluster:
            hexes = [_hex(h) for h in a.cluster]
            if len(set(hexes)) != len(hexes) or len(hexes) > 3 or any(
                    not B.NEIGHBOUR_MASK[x] >> y & 1 for i, x in enumerate(hexes) for y in hexes[i + 1:]):
                raise IllegalAction("the enemy engages up to 3 mutually adjacent hexes", R.R_ENEMY_FIRE)
            rolls = []
            for h in hexes:
                att2 = R.enemy_infantry_attack(b.state, c.hex, h)
                if att2 is None or not b.state.m_inf >> h & 1:  # no infantry of yours in h
                    raise IllegalAction(f"the enemy in {here} cannot engage {B.label(h)}", R.R_ENEMY_FIRE)
                mods2, losses = att2
                rolls.append(HexRoll(B.label(h), f"enemy in {here} fires at your infantry in {B.label(h)}: hit on 2+ ({R.R_ENEMY_FIRE})",
                                     _mods(mods2), R.INFANTRY_NEED, losses, False))
            b.emit(RollsPending(f"enemy fire from {here}", tuple(rolls)))
        b.emit(StageSet("activate"))

    # -- the automatic flow between decisions -----------------------------------------------
    def _advance(self, b: _Builder) -> None:
        """Run everything that needs no decision, up to the next one (or the end)."""
        while True:
            s = b.state
            if s.phase == OVER:
                return
            if s.breaks:
                cands = R.infantry_in(s, s.break_hex)
                if len(cands) > s.breaks:
                    return  # the player chooses
                for i in cands:
                    b.emit(UnitBroken(UNIT_IDS[i], f"your infantry losses passed from 7 to 0 in {B.label(s.break_hex)} ({R.R_ENEMY_FIRE})"))
                if b.state.breaks:  # nobody left to break
                    b.emit(BreakPending(B.label(s.break_hex), 0))
                continue
            if s.rolls:
                inf = R.unit_masks(s)[2]
                nxt = next((r for r in s.rolls if not inf >> B.index_of(r.hex) & 1), None)
                if nxt is None:
                    if len(s.rolls) > 1 and choices.roll_order_matters(s):
                        return  # the player orders the rolls against his infantry
                    nxt = s.rolls[0]
                self._roll_hex(b, nxt)
                continue
            if s.phase == FIRE and s.stage == "mortar_fall":
                self._after_fire(b)
                continue
            if s.phase == ENEMY:
                if s.stage == "activate" and not s.enemy_mask >> (s.cursor + 1):  # no counter left to activate
                    b.emit(StageSet("mortar_fall"))
                    if s.enemy_target >= 0 and s.enemy_fired == s.turn:
                        self._mortar_falls(b, DEFENDER_SIDE, s.enemy_target, "he")
                    continue
                if s.stage == "mortar_fall":
                    self._end_turn(b)
                    continue
                if s.stage == "fire" and s.counter_at(s.firing) is None:
                    b.emit(StageSet("activate"))
                    continue
            return

    def _roll_hex(self, b: _Builder, r: HexRoll) -> None:
        h = B.index_of(r.hex)
        final = b.roll(r.cause, _modifiers(r.modifiers))
        hit = final >= r.need
        b.emit(HexRolled(r.hex, hit))
        if not hit:
            return
        s = b.state
        inf = R.infantry_in(s, h)
        if inf:
            fresh = tuple(UNIT_IDS[i] for i in inf if s.units[i].fresh)
            if fresh:
                b.emit(Spent(fresh, f"pinned down ({R.R_MORTARS if r.spends_enemy else R.R_ENEMY_FIRE})"))
            total = s.losses + r.losses * len(inf)
            wraps = total // 8
            b.emit(TrackMoved("losses", total % 8, wraps > 0))
            if wraps:
                b.emit(BreakPending(r.hex, min(wraps, len(inf))))
        c = s.counter_at(h)
        if r.spends_enemy and c is not None and c.fresh:
            b.emit(EnemySpent(r.hex, f"mortar fire ({R.R_MORTARS})"))

    def _mortar_falls(self, b: _Builder, side: str, target: int, ammo: str) -> None:
        """A die picks a corner of the target hex; the mortars land in the 3 hexes sharing
        it (CA Mortars).  HE: a roll for each hex with counters other than armour; smoke:
        a smoke counter in each impact hex."""
        who = "your" if side == PLAYER_SIDE else "the enemy"
        d = b.die(f"{who} mortars on {B.label(target)}: the corner they land on ({R.R_MORTARS})")
        corner = SCATTER_CORNER[d]
        hexes = [h for h in B.corner_hexes(target, corner) if h != B.OFF]
        b.emit(MortarFell(side, B.label(target), corner, tuple(B.label(h) for h in hexes)))
        if ammo == "smoke":
            b.emit(SmokeChanged(placed=tuple(B.label(h) for h in hexes)))
            return
        s = b.state
        inf = R.unit_masks(s)[2]
        em = s.enemy_mask
        rolls = tuple(HexRoll(B.label(h), f"{who} mortars land in {B.label(h)}: effect on 2+ ({R.R_MORTARS})", (), 2, 1, True)
                      for h in sorted(hexes) if (inf | em) >> h & 1)
        if rolls:
            b.emit(RollsPending(f"{who} mortars", rolls))

    def _after_fire(self, b: _Builder) -> None:
        """The end of your fire phase: old smoke clears, the turn-1 bombardment, your recovery
        phase, then the enemy phase (CA Sequence of Play)."""
        s = b.state
        old = tuple(B.label(h) for h, t in s.smoke if t < s.turn)
        if old:
            b.emit(SmokeChanged(cleared=old))
        if s.turn == 1:
            self._bombardment(b)
        s = b.state
        spent = tuple(UNIT_IDS[i] for i, u in enumerate(s.units) if u.where >= 0 and not u.fresh)
        if spent:
            b.emit(Recovered(spent))
        b.emit(PhaseBegun(s.turn, ENEMY))
        b.emit(StageSet("mortar"))

    def _bombardment(self, b: _Builder) -> None:
        """Turn 1: each potential enemy counter with a 1-5 hex line of fire to any of your
        platoons becomes spent on a die roll of 2 or more (CA Sequence of Play)."""
        s = b.state
        for c in s.enemy:
            if c.real or not c.fresh:
                continue
            if R.fire_reach(s, c.hex)[0] & s.m_any:  # a 1-5 hex line of fire to a hex of yours
                d = b.die(f"preliminary bombardment of the potential enemy in {B.label(c.hex)}: spent on 2+ ({R.R_SEQ})")
                if d >= 2:
                    b.emit(EnemySpent(B.label(c.hex), f"preliminary artillery bombardment ({R.R_SEQ})"))

    def _end_turn(self, b: _Builder) -> None:
        s = b.state
        if s.turn >= R.LAST_TURN:
            self._game_over(b, s.turn, f"all {R.LAST_TURN} turns are played")
            return
        if not any(u.where >= OFFBOARD for u in s.units):
            self._game_over(b, s.turn, "none of your platoons remains to fight")
            return
        b.emit(PhaseBegun(s.turn + 1, MOVE))

    def _game_over(self, b: _Builder, last_turn: int, why: str) -> None:
        """Reveal every enemy counter still unrevealed, in activation order, then score (CA Victory)."""
        for c in list(b.state.enemy):
            self._final_reveal(b, c)
        parts = R.score(b.state, last_turn)
        total = parts["total"]
        won = total >= R.WIN_SCORE
        result = {
            "winner": PLAYER_SIDE if won else DEFENDER_SIDE,
            "why": f"{why}; you score {total}, {'at least' if won else 'short of'} the {R.WIN_SCORE} needed to win",
            "score": total,
            "breakdown": parts,
            "turns": last_turn,
            "easier": b.state.easier,
        }
        b.emit(GameOver(MappingProxyType(result)))

    def _final_reveal(self, b: _Builder, c: Counter) -> None:
        """Reveal counter ``c`` if it is still unrevealed, the platoon then its ATGs (CA Victory)."""
        cc: Counter | None = c
        if not c.real:
            if not self._reveal_platoon(b, c):
                return
            cc = b.state.counter_at(c.hex)
        if cc is not None and cc.atg == 1:
            self._reveal_atgs(b, cc)

    @staticmethod
    def _need_phase(s: State, phase: str, what: str) -> None:
        if s.phase != phase or s.rolls or s.breaks or (phase == FIRE and s.stage):
            raise IllegalAction(f"you may {what} only in your {phase} phase (now: {s.phase})", R.R_SEQ)

    @staticmethod
    def _need_fresh(s: State, u: int) -> None:
        unit = s.units[u]
        if unit.where < OFFBOARD:
            raise IllegalAction(f"{UNIT_IDS[u]} is {_WHERE[unit.where]}", R.R_UNITS)
        if not unit.fresh:
            raise IllegalAction(f"{UNIT_IDS[u]} is spent: spent platoons may neither move nor fire", R.R_UNITS)
        if s.phase == FIRE and s.group_target >= 0 and any(g == u for g, _ in s.group):
            raise IllegalAction(f"{UNIT_IDS[u]} is already committed", R.R_FIRE)

    # -- reduce -----------------------------------------------------------------------------
    def reduce(self, state: State, event: Record) -> State:
        # the states an action's events lead to were computed while applying it: reuse them
        # when the same events are reduced from the same state (a cache of a pure function)
        m = self._memo.get(id(event))
        if m is not None and m[0] is state and m[1] is event:
            return m[2]
        fn = _REDUCERS.get(type(event))
        if fn is None:
            raise GameError(f"combined-arms cannot reduce a {event.kind!r} event")
        return fn(state, event)

    # -- odds -------------------------------------------------------------------------------
    def odds(self, state: State, action: Record, viewer: Viewer) -> list[Outcome]:
        """The exact outcome of your fire attack on a hex: for a commit, the attack as it
        would be with this platoon added; for resolve, as committed (from every die outcome).
        For ending the game: each final score the reveal dice can give, with the chance of
        reaching 20 (CA Victory)."""
        from gwasl.games.combined_arms.odds import attack_odds, end_game_odds

        if isinstance(action, EndGame):
            return end_game_odds(self, state, state.turn - 1)
        if isinstance(action, Commit):
            try:
                return attack_odds(self, self.committed(state, action))
            except IllegalAction:
                return []
        if isinstance(action, Resolve) and state.group:
            return attack_odds(self, state)
        return []

    # -- sides played by gwasl, and batch play -----------------------------------------------
    def automated(self, state: State) -> Mapping[str, Policy]:
        return _automated()

    def policies(self) -> Mapping[str, Policy]:
        from gwasl.games.combined_arms.policies import POLICIES

        return POLICIES

    def advisor(self) -> Advisor:
        """Suggest a move ranks the policies' plans by rollouts (:mod:`.advisor`, issue 27 item 11)."""
        from gwasl.games.combined_arms.advisor import advise

        return lambda seat, policies, dice: advise(self, seat, policies, dice)

    def player_side(self, state: State) -> str | None:
        return PLAYER_SIDE

    def policy_view(self, state: State, viewer: Viewer) -> Any:
        """Policies read the state itself: it holds nothing any side may not know."""
        return state

    # -- views -------------------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        from gwasl.games.combined_arms.views import state_view

        return state_view(self, state)

    def event_view(self, event: Record, viewer: Viewer) -> Shown | None:
        from gwasl.games.combined_arms.views import event_shown

        if isinstance(event, Rolled):
            return self.roll_shown(event, viewer)
        if isinstance(event, Decided):
            shown = self.decision_shown(event, viewer)
            if shown is None or "details" not in shown.data:
                return shown
            # details read back from the journal are read-only mappings, nested too: plain JSON
            return Shown(shown.kind, shown.text, {**shown.data, "details": to_json_value(shown.data["details"])})
        return event_shown(event)

    def action_view(self, state: State, action: Record, viewer: Viewer) -> Shown:
        from gwasl.games.combined_arms.views import action_shown

        return action_shown(state, action)


def committed_adjacent(s: State) -> bool:
    """Whether every committed platoon is adjacent to the committed hex: only then does a
    4+ break (CA Fire Attacks)."""
    t = s.group_target
    return all(B.distance(s.units[u].where, t) == 1 for u, _ in s.group)


def _side_to_act(state: State) -> str:
    """The side to act in a state neither over nor in set-up: you while a choice of yours is
    pending (roll order, breaks) or in your phases, else the defender."""
    return PLAYER_SIDE if state.breaks or state.rolls or state.phase != ENEMY else DEFENDER_SIDE


_STATUS: dict[tuple[int, str, str], Status] = {}
_VIEWERS: dict[str, Viewer] = {}

#: a terrain roll's cause names the hex as the board shows it (after any turn)
_TERRAIN_CAUSE = tuple(f"terrain of {B.label(i)} ({R.R_BOARD})" for i in range(B.N))

def _automated() -> Mapping[str, Policy]:
    global _AUTOMATED
    if _AUTOMATED is None:
        from gwasl.games.combined_arms.enemy import defender_policy

        _AUTOMATED = MappingProxyType({DEFENDER_SIDE: defender_policy})
    return _AUTOMATED


_AUTOMATED: Mapping[str, Policy] | None = None


# -- reducers ----------------------------------------------------------------------------------
def _set_unit(s: State, i: int, where: int | None = None, fresh: bool | None = None, facing: int | None = None,
              **more: Any) -> State:
    """``s`` with platoon ``i`` changed (None: kept) and the state fields ``more`` set, in one copy."""
    old = s.units[i]
    nu = Unit(old.where if where is None else where, old.fresh if fresh is None else fresh,
              old.facing if facing is None else facing)
    units = s.units[:i] + (nu,) + s.units[i + 1:]
    if nu.where != old.where:
        return with_units(s, units, **more)
    return put(s, units=units, **more)


def _set_fresh(s: State, names: Sequence[str], fresh: bool) -> State:
    """``s`` with these platoons fresh or spent (the unit bitmasks do not change)."""
    idx = {_UNIT_INDEX[u] for u in names}
    return put(s, units=tuple(Unit(u.where, fresh, u.facing) if i in idx else u for i, u in enumerate(s.units)))


def _set_counter(s: State, h: int, fn: Callable[[Counter], Counter | None]) -> State:
    out = []
    for c in s.enemy:
        if c.hex == h:
            nc = fn(c)
            if nc is not None:
                out.append(nc)
        else:
            out.append(c)
    if len(out) == len(s.enemy):
        return put(s, enemy=tuple(out))
    return with_enemy(s, tuple(out))


def _r_board(s: State, e: BoardDiced) -> State:
    m = R.terrain_masks(e.terrain)
    return put(s, terrain=tuple(e.terrain), turned=e.turned, blocks=m["blocks"], cover=m["cover"],
                               hull=m["hull"], no_armour=m["no_armour"], crest=m["crest"])


def _r_counters(s: State, e: CountersPlaced) -> State:
    atgs = {B.index_of(h) for h in e.atgs}
    hexes = sorted(B.index_of(h) for h in e.hexes)
    return with_enemy(s, tuple(Counter(h, False, 1 if h in atgs else 0) for h in hexes))


def _r_phase(s: State, e: PhaseBegun) -> State:
    return put(s, turn=e.turn, phase=e.phase, stage="", acted=False, group=(), group_target=-1, engaged=0,
                               faced=0, cursor=-1, firing=-1)


# the most frequent events' fields
_put_stage, _put_cursor, _put_rolls = setter("stage", "firing"), setter("cursor"), setter("rolls", "roll_source")


def _r_stage(s: State, e: StageSet) -> State:
    return _put_stage(s, e.stage, -1 if e.firing is None else B.index_of(e.firing))


def _r_moved(s: State, e: Moved) -> State:
    i = _UNIT_INDEX[e.unit]
    where = s.units[i].where if e.to is None else B.index_of(e.to)
    return _set_unit(s, i, where=where, fresh=False, facing=e.facing, acted=True)


def _r_left(s: State, e: Left) -> State:
    s = _set_unit(s, _UNIT_INDEX[e.unit], where=WITHDRAWN if e.how == "withdrawn" else EXPLOITED, fresh=True)
    return put(s, acted=True) if s.phase == MOVE else s


def _r_spent(s: State, e: Spent) -> State:
    return _set_fresh(s, e.units, False)


def _r_recovered(s: State, e: Recovered) -> State:
    return _set_fresh(s, e.units, True)


def _r_faced(s: State, e: Faced) -> State:
    i = _UNIT_INDEX[e.unit]
    return _set_unit(s, i, facing=e.facing, faced=s.faced | 1 << i)


def _r_committed(s: State, e: Committed) -> State:
    i = _UNIT_INDEX[e.unit]
    return _set_unit(s, i, fresh=False, facing=e.facing, group=(*s.group, (i, -1 if e.facing is None else e.facing)),
                     group_target=B.index_of(e.target))


def _r_attack_done(s: State, e: AttackDone) -> State:
    return put(s, engaged=s.engaged | 1 << B.index_of(e.target), group=(), group_target=-1)


def _r_enemy_spent(s: State, e: EnemySpent) -> State:
    return _set_counter(s, B.index_of(e.hex), lambda c: c._replace(fresh=False))


def _r_enemy_recovered(s: State, e: EnemyRecovered) -> State:
    hexes = {B.index_of(h) for h in e.hexes}
    return put(s, enemy=tuple(c._replace(fresh=True) if c.hex in hexes else c for c in s.enemy))


def _r_activated(s: State, e: Activated) -> State:
    return _put_cursor(s, B.index_of(e.hex))


def _r_revealed(s: State, e: Revealed) -> State:
    h = B.index_of(e.hex)
    c = s.counter_at(h)
    if c is None:
        raise GameError(f"combined-arms: no enemy counter in {e.hex} to reveal")
    if e.what == "platoon":
        if not e.real:
            return _set_counter(s, h, lambda c: None)
        s = _set_counter(s, h, lambda c: c._replace(real=True))
        return put(s, real_platoons_revealed=s.real_platoons_revealed + 1)
    if not e.real:
        return _set_counter(s, h, lambda c: c._replace(atg=0, atg_removed=True))
    newly = 0 if c.real else 1
    s = _set_counter(s, h, lambda c: c._replace(atg=2, real=True))
    return put(s, real_atgs_revealed=s.real_atgs_revealed + 1, real_platoons_revealed=s.real_platoons_revealed + newly)


def _r_enemy_broken(s: State, e: EnemyBroken) -> State:
    h = B.index_of(e.hex)
    if e.what == "atg":
        s = _set_counter(s, h, lambda c: c._replace(atg=0))
        return put(s, enemy_atgs_broken=s.enemy_atgs_broken + 1)
    s = _set_counter(s, h, lambda c: None)
    return put(s, enemy_platoons_broken=s.enemy_platoons_broken + 1)


def _r_track(s: State, e: TrackMoved) -> State:
    if e.track == "losses":
        return put(s, losses=e.value)
    if e.track == "ammo":
        return put(s, ammo=e.value)
    return put(s, smoke_ammo=e.value)


def _r_broken(s: State, e: UnitBroken) -> State:
    i = _UNIT_INDEX[e.unit]
    in_break = s.breaks and s.units[i].where == s.break_hex
    s = _set_unit(s, i, where=BROKEN, fresh=True)
    if in_break:
        left = s.breaks - 1
        s = put(s, breaks=left, break_hex=s.break_hex if left else -1)
    return s


def _r_mortar_target(s: State, e: MortarTarget) -> State:
    h = -1 if e.hex is None else B.index_of(e.hex)
    if e.side == PLAYER_SIDE:
        return put(s, own_target=h, own_ammo=e.ammo, own_fired=s.turn if h >= 0 else s.own_fired)
    return put(s, enemy_target=h, enemy_fired=s.turn if h >= 0 else s.enemy_fired)


def _r_smoke(s: State, e: SmokeChanged) -> State:
    placed = {B.index_of(h) for h in e.placed}
    cleared = {B.index_of(h) for h in e.cleared}
    kept = tuple((h, t) for h, t in s.smoke if h not in placed and h not in cleared)
    return with_smoke(s, kept + tuple((h, s.turn) for h in sorted(placed)))


def _r_rolls(s: State, e: RollsPending) -> State:
    return _put_rolls(s, tuple(e.rolls), e.source)


def _r_hex_rolled(s: State, e: HexRolled) -> State:
    rolls = list(s.rolls)
    for i, r in enumerate(rolls):
        if r.hex == e.hex:
            del rolls[i]
            break
    return _put_rolls(s, tuple(rolls), s.roll_source if rolls else "")


def _r_break_pending(s: State, e: BreakPending) -> State:
    return put(s, break_hex=B.index_of(e.hex) if e.count else -1, breaks=e.count)


def _r_game_over(s: State, e: GameOver) -> State:
    return put(s, phase=OVER, stage="", result=e.result, rolls=(), breaks=0, break_hex=-1)


def _r_nothing(s: State, e: Record) -> State:
    return s


_REDUCERS: dict[type, Callable[[State, Any], State]] = {
    BoardDiced: _r_board, CountersPlaced: _r_counters, PhaseBegun: _r_phase, StageSet: _r_stage, Moved: _r_moved,
    Left: _r_left, Spent: _r_spent, Recovered: _r_recovered, Faced: _r_faced, Committed: _r_committed,
    AttackDone: _r_attack_done, EnemySpent: _r_enemy_spent, EnemyRecovered: _r_enemy_recovered, Activated: _r_activated,
    Revealed: _r_revealed, EnemyBroken: _r_enemy_broken, TrackMoved: _r_track, UnitBroken: _r_broken,
    MortarTarget: _r_mortar_target, MortarFell: _r_nothing, SmokeChanged: _r_smoke, RollsPending: _r_rolls,
    HexRolled: _r_hex_rolled, BreakPending: _r_break_pending, GameOver: _r_game_over,
    Rolled: _r_nothing, Decided: _r_nothing,
}

_HANDLERS: dict[type, Callable[[CombinedArmsGame, _Builder, Any], None]] = {
    Move: CombinedArmsGame._move, Pivot: CombinedArmsGame._pivot, Withdraw: CombinedArmsGame._withdraw,
    Exploit: CombinedArmsGame._exploit, EndPhase: CombinedArmsGame._end_phase, EndGame: CombinedArmsGame._end_game,
    CallMortar: CombinedArmsGame._call_mortar, Commit: CombinedArmsGame._commit, Resolve: CombinedArmsGame._resolve,
    Face: CombinedArmsGame._face, RollNext: CombinedArmsGame._roll_next, BreakUnit: CombinedArmsGame._break_unit,
    EnemyMortar: CombinedArmsGame._enemy_mortar, Activate: CombinedArmsGame._activate, EnemyFire: CombinedArmsGame._enemy_fire,
}
_DEFENDER_ACTIONS = (EnemyMortar, Activate, EnemyFire)
