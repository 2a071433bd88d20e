"""Small Great War scenarios for the rule tests of the game in play."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.aslgw.playout import GAME
from gwasl.engine.game import GameOptions
from gwasl.engine.record import Record
from gwasl.engine.session import Session
from gwasl.games.aslgw.records import EndPhase


def doc(units: Iterable[dict[str, Any]], *, forts: Iterable[dict[str, Any]] = (), hexes: dict[str, Any] | None = None,
        date: str = "1917-04-09", formations: Iterable[dict[str, Any]] = (), dummies: Iterable[dict[str, Any]] = (),
        game: dict[str, Any] | None = None, columns: int = 10, rows: int = 10, **top: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "format": "gwasl-scenario/1", "title": "test", "date": date,
        "map": {"columns": columns, "rows": rows, "hexes": hexes or {}, "fortifications": list(forts)},
        "sides": {"german": {"nationality": "german"}, "french": {"nationality": "french"}},
        "formations": list(formations), "units": list(units), "dummies": list(dummies),
    }
    if game is not None:
        d["game"] = game
    d.update(top)
    return d


def squad(uid: str, hx: str, side: str = "german", **kw: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "kind": "squad", "class": "first_line", "hex": hx, **kw}


def leader(uid: str, hx: str, side: str = "german", rating: str = "8-0", **kw: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "kind": "leader", "rating": rating, "hex": hx, **kw}


def session(d: dict[str, Any], seed: int = 1, secret: Iterable[str] = (), practice: bool = False) -> Session[Any]:
    return Session.new(GAME, d, seed, GameOptions(frozenset(secret), practice))


def to_phase(s: Session[Any], phase: str, phasing: str | None = None, viewer: str = "player") -> None:
    """End phases until ``phase`` (of ``phasing``'s player turn) begins."""
    for _ in range(200):
        st = s.status()
        if st.phase == phase and (phasing is None or s.state.phasing == phasing) and not s.state.windows:
            return
        ends = [a for a in s.legal(viewer) if a.action.kind in ("end_phase", "end_window")]
        s.act(ends[0].action, viewer)
    raise AssertionError(f"never reached {phase}")


def actions(s: Session[Any], viewer: str = "player", kind: str | None = None) -> list[Record]:
    return [a.action for a in s.legal(viewer) if kind is None or a.action.kind == kind]


def events_of(entries: Iterable[Any], kind: type | None = None) -> list[Any]:
    return [ev for e in entries for ev in e.events if kind is None or isinstance(ev, kind)]


def seed_where(d: dict[str, Any], prepare: Callable[[Session[Any]], Any], want: Callable[[Any], bool],
               secret: Iterable[str] = (), tries: int = 300) -> tuple[Session[Any], Any]:
    """The first seed whose session, once ``prepare``d, gives a result ``want`` accepts."""
    for seed in range(tries):
        s = session(d, seed, secret)
        got = prepare(s)
        if want(got):
            return s, got
    raise AssertionError("no seed gives the wanted outcome")


END = EndPhase()
