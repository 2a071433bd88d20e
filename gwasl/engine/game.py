"""The Game protocol every game in play implements (docs/architecture.md "A game in play").

A game is a set of pure functions over an immutable state:

* :meth:`Game.setup` builds the initial state from a source (a scenario,
  or nothing for a game that makes its own) and the options; no dice.
* :meth:`Game.begin` gives the events that open the game (a board diced
  from the seed, hidden counters placed...), rolling the game's dice.
* :meth:`Game.legal_actions` lists what the side to act may do, computed
  from one viewer's knowledge only, so the list itself cannot leak.
* :meth:`Game.apply` turns an action into events, rolling dice; it never
  changes the state and raises :class:`IllegalAction` with the rule that
  forbids the action.
* :meth:`Game.reduce` is the only way the state changes: one event at a time.
* :meth:`Game.view` and :meth:`Game.event_view` are what a viewer sees of a
  state and of an event, built by whitelist.

The :class:`~gwasl.engine.session.Session` drives these functions, writes
every event to the journal before the state changes, and replays.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from gwasl.engine.dice import GameDice
from gwasl.engine.events import ENGINE_EVENTS, Decided, Rolled
from gwasl.engine.record import Record, Registry
from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.viewers import OMNISCIENT

# The standard frozen dataclasses, their methods compiled together once the last is
# declared (FrozenBatch: every command that plays a game imports this module).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "BOOL",
    "JSON_FILE",
    "OMNISCIENT",
    "PLAYER",
    "PRACTICE",
    "SCENARIO_FILE",
    "SECRET",
    "SIDE",
    "SIDES",
    "Decision",
    "Game",
    "GameError",
    "GameDefinitionError",
    "GameOption",
    "GameOptions",
    "IllegalAction",
    "OptionError",
    "Outcome",
    "Policy",
    "Seat",
    "Shown",
    "SourceKind",
    "Status",
    "Viewer",
]

PLAYER = "player"


class GameError(GwaslError):
    """Base of the errors a game in play reports to the person at the desk."""


class IllegalAction(GameError):
    """An action the rules do not allow now; ``rule`` names the rule that forbids it.

    >>> str(IllegalAction("the unit is broken", "A10.5"))
    'the unit is broken (A10.5)'
    """

    def __init__(self, reason: str, rule: str | None = None) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


class GameDefinitionError(GameError):
    """A game class, source kind or option declared wrong: a programmer's mistake, caught
    when the class is made (at import), never while a game is played."""


class OptionError(GameError):
    """A choice at the start that the game does not offer, or a value it does not take:
    ``key`` names the option (:class:`GameOption`), ``reason`` what is wrong."""

    def __init__(self, key: str, reason: str) -> None:
        self.key, self.reason = key, reason
        super().__init__(f"{key}: {reason}")


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: ``name`` is ``player``, ``omniscient`` or a side id;
    ``knows`` the sides whose hidden facts this viewer may see.

    The person at the desk (``player``) knows every side's secrets except
    those the program keeps (``--secret SIDE``).
    """

    name: str
    knows: frozenset[str]

    def sees_secrets_of(self, side: str) -> bool:
        return side in self.knows


@dataclass(frozen=True, slots=True)
class GameOptions:
    """How a game was started: the sides whose hidden layer gwasl keeps from the
    player, practice mode (take-back allowed past dice), and game-specific
    choices (e.g. the Balance side, the easier game)."""

    secret: frozenset[str] = frozenset()
    practice: bool = False
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        return {"secret": sorted(self.secret), "practice": self.practice, "extra": dict(self.extra)}

    @classmethod
    def from_json(cls, obj: Any) -> GameOptions:
        if not isinstance(obj, dict):
            raise GameError("game options must be an object")
        secret = obj.get("secret", [])
        if not isinstance(secret, list) or not all(isinstance(s, str) for s in secret):
            raise GameError("game options: secret must be a list of side ids")
        practice = obj.get("practice", False)
        if not isinstance(practice, bool):
            raise GameError("game options: practice must be true or false")
        extra = obj.get("extra", {})
        if not isinstance(extra, dict):
            raise GameError("game options: extra must be an object")
        return cls(frozenset(secret), practice, MappingProxyType(dict(extra)))


# -- what a game declares of itself: read by the New game dialog, the store and the command line
#: a source format: a Great War scenario file, checked as one when read (the scenario library lists them)
SCENARIO_FILE = "scenario"
#: a source format: a JSON object in the game's own format (the game checks it in :meth:`Game.setup`)
JSON_FILE = "json"


@dataclass(frozen=True, slots=True)
class SourceKind:
    """What a game starts from (:attr:`Game.source_kind`).

    ``format``: :data:`SCENARIO_FILE` or :data:`JSON_FILE`; ``what``: the source in words
    ("a Great War scenario"); ``required``: whether the game needs one, and ``without``:
    what it does when none is given ("dices its board from the seed"); ``search``: what the
    New game dialog's search box lists, in words; ``bundled``: ``"module:attribute"`` of the
    folder of the sources shipped with the game (``*.json`` files with a ``title``), empty
    when there are none.

    >>> SourceKind(JSON_FILE, "a patrol", without="dices one").describe()
    'a patrol, optional: without one the game dices one'
    """

    format: str
    what: str
    required: bool = False
    without: str = ""
    search: str = ""
    bundled: str = ""

    def __post_init__(self) -> None:
        """Raises :class:`GameDefinitionError` for an unknown format, a missing ``without`` or a bad ``bundled``."""
        if self.format not in (SCENARIO_FILE, JSON_FILE):
            raise GameDefinitionError(f"source format {self.format!r}: use {SCENARIO_FILE!r} or {JSON_FILE!r}")
        if not self.required and not self.without:
            raise GameDefinitionError(f"{self.what}: say what the game does without a source (without=...)")
        if self.bundled and not _is_target(self.bundled):
            raise GameDefinitionError(f"bundled sources {self.bundled!r}: write 'module:attribute'")

    def describe(self) -> str:
        """The source in words, with what happens without one."""
        return self.what if self.required else f"{self.what}, optional: without one the game {self.without}"


#: an option's kinds: true or false; one side of the game or none; any set of its sides
BOOL, SIDE, SIDES = "bool", "side", "sides"


@dataclass(frozen=True, slots=True)
class GameOption:
    """One choice a game offers when it starts (:attr:`Game.options_offered`).

    ``key``: ``secret`` (:attr:`GameOptions.secret`), ``practice``
    (:attr:`GameOptions.practice`) or a key of :attr:`GameOptions.extra`; ``label``: the
    words beside it; ``kind``: :data:`BOOL`, :data:`SIDE` or :data:`SIDES`; ``default``:
    false, no side and no sides unless a bool option says ``True``; ``rule``: the rule
    it comes from.

    >>> GameOption("balance", "Balance", SIDE).check("german", ("french", "german"))
    'german'
    >>> GameOption("balance", "Balance", SIDE).check("swiss", ("french", "german"))
    Traceback (most recent call last):
    gwasl.engine.game.OptionError: balance: 'swiss' is not a side (french, german)
    """

    key: str
    label: str
    kind: str = BOOL
    default: Any = None
    rule: str = ""

    def __post_init__(self) -> None:
        """Raises :class:`GameDefinitionError` for an unknown kind or a side option with a default side."""
        if self.kind not in (BOOL, SIDE, SIDES):
            raise GameDefinitionError(f"option {self.key!r}: kind {self.kind!r} is not one of {BOOL}, {SIDE}, {SIDES}")
        if self.kind == BOOL:
            object.__setattr__(self, "default", bool(self.default))
        elif self.default not in (None, (), frozenset()):
            raise GameDefinitionError(f"option {self.key!r}: a {self.kind} option starts with no side (its sides depend on the source)")
        elif self.kind == SIDES:
            object.__setattr__(self, "default", frozenset())

    def check(self, value: Any, sides: Sequence[str]) -> Any:
        """``value`` as this option takes it (a set of sides as a frozenset), for a game of
        ``sides``; raises :class:`OptionError` naming the option and what is wrong."""
        if self.kind == BOOL:
            if not isinstance(value, bool):
                raise OptionError(self.key, f"{_quoted(value)} is not true or false")
            return value
        values = [value] if self.kind == SIDE else value
        if self.kind == SIDES and (isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset))):
            raise OptionError(self.key, f"{_quoted(value)} is not a list of sides")
        for v in values:
            if v is None and self.kind == SIDE:
                continue
            if not isinstance(v, str) or v not in sides:
                raise OptionError(self.key, f"{_quoted(v)} is not a side ({', '.join(sides)})")
        return value if self.kind == SIDE else frozenset(value)


def _quoted(value: Any) -> str:
    return repr(value)[:40]


def _is_target(text: str) -> bool:
    """``"module:attribute"`` with both parts dotted names."""
    module, colon, attr = text.partition(":")
    return bool(colon) and all(p.isidentifier() for p in (*module.split("."), attr))


@dataclass(frozen=True, slots=True)
class Status:
    """Where a game stands: turn, phase, the side to act, and the result once over."""

    turn: int
    phase: str
    side: str | None
    over: bool = False
    result: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Shown:
    """An event or action as one viewer sees it: a ``kind`` from the game's
    documented vocabulary, a readable sentence, and extra JSON fields (a
    roll adds ``dice``, ``modifiers`` and ``final``)."""

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **dict(self.data)}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One outcome of an action that rolls dice, with its exact probability."""

    result: str
    p: float


@dataclass(frozen=True, slots=True)
class Decision:
    """What an automated side chose, and why (candidates, scores, rule numbers).

    ``public``: the why names only what the action itself shows every viewer (see
    :class:`~gwasl.engine.events.Decided`); the details stay with the side's own viewers."""

    action: Record
    why: str
    details: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    public: bool = False


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__

#: gwasl keeps these sides' hidden layer from the person at the desk (:attr:`GameOptions.secret`)
SECRET = GameOption("secret", "gwasl keeps secret", SIDES)
#: take-back past dice and reveals (:attr:`GameOptions.practice`)
PRACTICE = GameOption("practice", "practice mode: take back past dice and reveals")


S = TypeVar("S")


class Seat(Generic[S]):
    """What a policy may look at: one viewer's knowledge of the state, and the
    legal actions as that viewer knows them.  Nothing else of the state."""

    __slots__ = ("_game", "_state", "_view", "quiet", "viewer")

    def __init__(self, game: Game[S], state: S, viewer: Viewer, quiet: bool = False) -> None:
        self._game, self._state, self.viewer = game, state, viewer
        #: nobody will read the decision's ``why`` and ``details`` (batch play): a policy may
        #: leave them short, but must choose exactly the same action
        self.quiet = quiet
        self._view: Any = None

    def view(self) -> Any:
        if self._view is None:
            self._view = self._game.policy_view(self._state, self.viewer)
        return self._view

    def legal(self) -> Sequence[Record]:
        return self._game.legal_actions(self._state, self.viewer)

    def odds(self, action: Record) -> list[Outcome]:
        return self._game.odds(self._state, action, self.viewer)

    def known_state(self) -> Any:
        """A whole state made only of what this seat knows, to look ahead from (an advisor's
        rollouts): :meth:`Game.known_state`."""
        return self._game.known_state(self._state, self.viewer)


#: a policy: ``decide(seat, dice) -> Decision``; tie-break rolls go through ``dice``
Policy = Callable[[Seat[Any], GameDice], Decision]


class Game(abc.ABC, Generic[S]):
    """One ruleset in play.  Subclasses are stateless: every method is a pure
    function of its arguments (plus the dice given to :meth:`apply`)."""

    #: the ruleset's name on the command line (``aslgw``, ``combined-arms``, ``on-patrol``)
    ruleset: ClassVar[str] = ""
    #: the game's events (must include :data:`ENGINE_EVENTS`) and actions
    events: ClassVar[Registry] = ENGINE_EVENTS
    actions: ClassVar[Registry]

    # -- what the game declares of itself: the one place the New game dialog, the store, the
    # command line and the player window's board lookup read (none branches on a ruleset name)
    #: the game's name where a person chooses or sees it (the ruleset name when not given)
    display_name: ClassVar[str] = ""
    #: what it starts from: the kind of file, whether one is needed, the sources it ships with
    source_kind: ClassVar[SourceKind] = SourceKind(JSON_FILE, "a source file of this game", without="starts from its defaults")
    #: the choices it offers at the start, in the order the New game dialog shows them;
    #: ``gwasl game new`` refuses any other
    options_offered: ClassVar[tuple[GameOption, ...]] = (SECRET, PRACTICE)
    #: ``"module:Class"`` of its board in the player window (a :class:`gwasl.ui.play.boards.Board`,
    #: imported by the ui alone: a game never imports Qt); empty: the view as a readable tree
    board: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's declarations are checked when its class is made (a mistake fails at import):
        :class:`GameDefinitionError` for an option offered twice or a bad ``board``."""
        super().__init_subclass__(**kwargs)
        if "display_name" not in cls.__dict__ and "ruleset" in cls.__dict__:
            cls.display_name = cls.ruleset
        keys = [o.key for o in cls.options_offered]
        if len(set(keys)) != len(keys):
            raise GameDefinitionError(f"{cls.__name__}: an option offered twice ({', '.join(keys)})")
        if cls.board and not _is_target(cls.board):
            raise GameDefinitionError(f"{cls.__name__}.board {cls.board!r}: write 'module:Class'")

    @classmethod
    def start_options(cls, choices: Mapping[str, Any], sides: Sequence[str]) -> GameOptions:
        """The :class:`GameOptions` of ``choices`` (option key -> value) for a game of
        ``sides``, each checked against :attr:`options_offered`; a choice at its option's
        default is left out (the game file records only what was chosen).

        Raises :class:`OptionError` naming an option the game does not offer, or a bad value."""
        offered = {o.key: o for o in cls.options_offered}
        secret: frozenset[str] = frozenset()
        practice = False
        extra: dict[str, Any] = {}
        for key, value in choices.items():
            option = offered.get(key)
            if option is None:
                theirs = ", ".join(offered) or "none"
                raise OptionError(key[:40], f"{cls.display_name or cls.ruleset} offers no such option (its options: {theirs})")
            value = option.check(value, sides)
            if key == SECRET.key:
                secret = value
            elif key == PRACTICE.key:
                practice = value
            elif value != option.default:
                extra[key] = value
        return GameOptions(secret, practice, MappingProxyType(extra))

    # -- set-up -------------------------------------------------------------
    @abc.abstractmethod
    def setup(self, source: Mapping[str, Any] | None, options: GameOptions) -> S:
        """The state before any event, from the source and options; raises GameError on a bad source."""

    def begin(self, state: S, dice: GameDice) -> list[Record]:
        """The events that open the game (rolls included); none by default."""
        return []

    def begun(self, state: S, dice: GameDice) -> S:
        """The state :meth:`begin`'s events lead to.  Batch play needs only this state, so a
        game may compute it without building the events, like :meth:`step`: it must then
        equal this default exactly (same dice drawn too)."""
        for ev in self.begin(state, dice):
            state = self.reduce(state, ev)
        return state

    # -- the rules ----------------------------------------------------------
    @abc.abstractmethod
    def sides(self, state: S) -> tuple[str, ...]:
        """Every side id of this game."""

    @abc.abstractmethod
    def secret_sides(self, state: S) -> frozenset[str]:
        """The sides whose hidden layer gwasl keeps from the person at the desk."""

    @abc.abstractmethod
    def status(self, state: S) -> Status:
        """Turn, phase, side to act, and whether (and how) the game is over."""

    @abc.abstractmethod
    def legal_actions(self, state: S, viewer: Viewer) -> Sequence[Record]:
        """Every action the side to act may take now, as ``viewer`` knows the game."""

    def check_legal(self, state: S, action: Record, viewer: Viewer) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is legal for ``viewer`` now.

        The default looks the action up in :meth:`legal_actions`; a game with a
        long list may answer faster, but must agree with it.
        """
        if action not in self.legal_actions(state, viewer):
            raise IllegalAction(self.why_illegal(state, action, viewer))

    def why_illegal(self, state: S, action: Record, viewer: Viewer) -> str:
        """A sentence saying why ``action`` is not legal (with the rule, where one forbids it)."""
        return f"{action.kind!r} with these details is not a legal action now (see the legal actions)"

    @abc.abstractmethod
    def apply(self, state: S, action: Record, dice: GameDice) -> list[Record]:
        """The events ``action`` causes.  Every roll made with ``dice`` must appear
        among them as a :class:`Rolled` event, in the order rolled."""

    @abc.abstractmethod
    def reduce(self, state: S, event: Record) -> S:
        """The state after ``event``."""

    def step(self, state: S, action: Record, dice: GameDice) -> S:
        """The state after ``action``: its events from :meth:`apply`, reduced in order.
        Batch play needs only this state, so a game may compute it without building
        the events; it must then equal this default exactly (same dice drawn too)."""
        for ev in self.apply(state, action, dice):
            state = self.reduce(state, ev)
        return state

    def irreversible(self, event: Record) -> bool:
        """Whether taking back past ``event`` is refused outside practice mode
        (a die roll or a reveal)."""
        return isinstance(event, Rolled) or bool(getattr(event, "reveals", False))

    def odds(self, state: S, action: Record, viewer: Viewer) -> list[Outcome]:
        """The exact chance of each outcome of ``action`` (empty when it rolls no dice)."""
        return []

    def automated(self, state: S) -> Mapping[str, Policy]:
        """Sides whose actions gwasl decides, with their policy.

        The session asks the policy whenever such a side is to act, through a
        :class:`Seat` that shows it only that side's view.
        """
        return {}

    def policies(self) -> Mapping[str, Policy]:
        """Named policies that can play the person's side in batch play (CONTRACTS 6);
        the first is the default and should be the best."""
        return {}

    def player_side(self, state: S) -> str | None:
        """The side batch play gives to the policy (solitaire games: the person's side)."""
        return None

    def score(self, state: S) -> tuple[bool, float]:
        """For batch play of a finished game: whether the player's side won, and its score."""
        result = self.status(state).result or {}
        won = result.get("winner") is not None and result.get("winner") == self.player_side(state)
        score = result.get("score", 1.0 if won else 0.0)
        return won, float(score)

    # -- views --------------------------------------------------------------
    def policy_view(self, state: S, viewer: Viewer) -> Any:
        """What a policy playing for ``viewer`` reads (:meth:`view` unless the game
        offers a typed view of the same knowledge)."""
        return self.view(state, viewer)

    def known_state(self, state: S, viewer: Viewer) -> S:
        """A whole state built only from what ``viewer`` knows, for a lookahead (an advisor's
        rollouts): two states that differ only in facts hidden from ``viewer`` give equal ones.
        A game whose state holds nothing hidden from a policy returns it as it is; a game with
        hidden facts overrides this; by default there is none (:class:`GameError`)."""
        raise GameError(f"{self.ruleset}: no state to look ahead from that keeps {viewer.name}'s view")

    def viewer(self, state: S, name: str) -> Viewer:
        """The :class:`Viewer` called ``name``: ``player``, ``omniscient`` or a side id."""
        sides = frozenset(self.sides(state))
        if name == OMNISCIENT:
            return Viewer(name, sides)
        if name == PLAYER:
            return Viewer(name, sides - self.secret_sides(state))
        if name in sides:
            return Viewer(name, frozenset({name}))
        raise GameError(f"unknown viewer {name[:40]!r}: use player, omniscient or one of {', '.join(sorted(sides))}")

    @abc.abstractmethod
    def view(self, state: S, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` sees of the state, as JSON, built by whitelist."""

    @abc.abstractmethod
    def event_view(self, event: Record, viewer: Viewer) -> Shown | None:
        """What ``viewer`` sees of ``event``, or ``None`` when it sees nothing of it."""

    @abc.abstractmethod
    def action_view(self, state: S, action: Record, viewer: Viewer) -> Shown:
        """An action as ``viewer`` reads it in a legal-action list."""

    def action_id(self, state: S, action: Record, viewer: Viewer) -> str:
        """A short stable id for ``action`` in a legal list (from the viewer's knowledge only)."""
        data = action.to_json()
        parts = [str(data.pop("kind"))]
        data.pop("v", None)
        parts += [_id_part(v) for v in data.values()]
        return ":".join(p for p in parts if p)

    # -- persistence --------------------------------------------------------
    def encode_state(self, state: S, base: S | None = None) -> Any:
        """The state as JSON for a snapshot, or ``None`` when the game keeps none.

        ``base`` is the state at set-up: parts of ``state`` that are the very
        objects ``base`` holds may be written as references to it
        (:mod:`gwasl.engine.snapshot`)."""
        return None

    def decode_state(self, obj: Any, base: S | None = None) -> S:
        """The inverse of :meth:`encode_state` (``base``: an equal set-up state);
        raises GameError on a bad snapshot."""
        raise GameError(f"{self.ruleset} keeps no snapshots")

    # -- shared helpers -----------------------------------------------------
    def roll_shown(self, event: Rolled, viewer: Viewer) -> Shown | None:
        """The default sight of a roll: dice, modifiers and final for a viewer
        who may know it; nothing for others when it is private."""
        if event.private_to is not None and not viewer.sees_secrets_of(event.private_to):
            return None
        return Shown("roll", event.explain(), event.data())

    def decision_shown(self, event: Decided, viewer: Viewer) -> Shown | None:
        """A decision in full for a viewer who may know the side's secrets; for others,
        a public decision's why alone, and nothing of a private one."""
        if event.private_to is not None and not viewer.sees_secrets_of(event.private_to):
            if event.public:
                return Shown("decision", f"{event.side}: {event.why}", {"side": event.side})
            return None
        return Shown("decision", f"{event.side}: {event.why}", {"side": event.side, "details": dict(event.details)})


def _id_part(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "-".join(_id_part(v) for v in value)
    if isinstance(value, dict):
        return "-".join(f"{k}={_id_part(v)}" for k, v in sorted(value.items()))
    if value is None or value is False:
        return ""
    if value is True:
        return "y"
    return str(value).replace(":", "_").replace(" ", "_")
