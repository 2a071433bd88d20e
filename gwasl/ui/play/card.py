"""The scenario card: what the players play for, as a printed ASL card gives it (A26).

Title, date and place, the historical note, the sides (who sets up first, who moves
first, their set-up and entry areas, ELR and SAN), the turns, each side's victory
conditions in words with their count now, the SSRs and the Balance.  Everything comes
from the card fields of the scenario the game started from (its ``"game"`` object,
docs/format/aslgw.md) -- never its units, dummies or fortifications -- and the live count
from the game's view for the window's viewer (``victory_count``, ``turn``), so the card
shows nothing the viewer may not know.

:func:`card_lines` is the card as plain lines (tested headless); :class:`ScenarioCard` shows
it in the New game dialog and the player window's Scenario card dock.
"""

from __future__ import annotations

import datetime as _dt
import html
from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from gwasl.editor.card_text import area_text, conditions_text

__all__ = ["ScenarioCard", "card_lines"]

_WEATHER = {"clear": "clear", "overcast": "overcast", "rain": "rain", "snow": "snow", "fog": "fog", "mist": "mist"}


def _map(v: Any) -> Mapping[str, Any]:
    """``v`` when it is a JSON object, else an empty one (a card field may be missing)."""
    return v if isinstance(v, Mapping) else {}


def _date(raw: Any) -> str:
    try:
        d = _dt.date.fromisoformat(str(raw))
    except ValueError:
        return str(raw)
    return f"{d.day} {d.strftime('%B')} {d.year}"


def _side_name(sides: Mapping[str, Any], side: str) -> str:
    nat = _map(sides.get(side)).get("nationality")
    return f"{side} ({str(nat).replace('_', '-')})" if nat and nat != side else side


def card_lines(source: Mapping[str, Any] | None, view: Mapping[str, Any] | None = None,
               balance: str | None = None) -> list[tuple[str, str]]:
    """The card as (style, text) lines: style ``title``, ``head`` (a section), ``text``,
    ``item`` (a bullet) or ``count`` (a live count, met or not).  ``view``: the game's view
    now (the count and the turn); ``balance``: the side that took its Balance (A26.4)."""
    if not isinstance(source, Mapping):
        return [("text", "This game has no scenario card.")]
    out: list[tuple[str, str]] = [("title", str(source.get("title") or "Untitled scenario"))]
    bits = [_date(source["date"])] if source.get("date") else []
    if source.get("front"):
        bits.append(f"{str(source['front']).replace('_', ' ')} front")
    weather = _WEATHER.get(str(source.get("weather") or ""), str(source.get("weather") or ""))
    if weather:
        bits.append(f"weather {weather}")
    bits += [w for w, on in (("winter", source.get("winter")), ("night", source.get("night"))) if on]
    if bits:
        out.append(("text", ", ".join(bits)))
    if source.get("description"):
        out.append(("text", str(source["description"])))
    game = _map(source.get("game"))
    sides = _map(source.get("sides"))
    order = list(sides)
    turns = game.get("turns")
    first_moves = game.get("first_moves") or (order[0] if order else None)
    first_setup = game.get("first_setup") or (order[1] if len(order) > 1 else None)
    out.append(("head", "Sides"))
    for side in order:
        roles = []
        if side == first_setup:
            roles.append("sets up first")
        if side == first_moves:
            roles.append("moves first")
        for key, what in (("setup", "sets up in"), ("entry", "enters from")):
            area = _map(game.get(key)).get(side)
            if area:
                roles.append(f"{what} {area_text(area)}")
        for key, what in (("elr", "ELR"), ("san", "SAN")):
            v = _map(game.get(key)).get(side)
            if v is not None:
                roles.append(f"{what} {v}")
        out.append(("item", _side_name(sides, side) + (": " + "; ".join(roles) if roles else "")))
    out.append(("head", "Turns"))
    length = f"{turns} game turns" if turns else "5 game turns (no turn record: the default)"
    if view is not None and view.get("turn") is not None:
        shown = view.get("turns") or turns
        length += f"; now turn {view.get('turn')} of {shown}" + (" (game over)" if view.get("over") else "")
    out.append(("text", length))
    out.append(("head", "Victory conditions"))
    victory = _map(game.get("victory"))
    counts = _map(view.get("victory_count")) if view is not None else {}
    if not victory:
        out.append(("text", "The card gives none: the game ends after its last turn without a winner."))
    for side, v in victory.items():
        if not isinstance(v, Mapping):
            continue
        words = str(v.get("text") or "")
        if not words and v.get("conditions"):
            words = conditions_text(v["conditions"])
        if not words and v.get("avoid"):
            words = "wins by avoiding the other side's victory conditions (A26.3)"
        when = " (at once, as soon as they hold)" if v.get("immediate") else ""
        out.append(("item", f"{side}: {words}{when}"))
        for row in counts.get(side) or ():
            out.append(("count", f"{'met' if row.get('met') else 'not met'} now: {row.get('count')}"))
    raw_ssr = game.get("ssr")
    ssrs = raw_ssr if isinstance(raw_ssr, list) else []
    out.append(("head", "Special scenario rules"))
    if not ssrs:
        out.append(("text", "none"))
    for r in ssrs:
        if isinstance(r, Mapping):
            out.append(("item", f"SSR {r.get('id', '')}: {r.get('text', '')}".replace("SSR : ", "SSR: ")))
    bal = _map(game.get("balance"))
    if bal:
        out.append(("head", "Balance (A26.4)"))
        for side, b in bal.items():
            if isinstance(b, Mapping):
                taken = " (taken in this game)" if balance == side else ""
                out.append(("item", f"{side}: {b.get('text', '')}{taken}"))
    return out


def _html(lines: list[tuple[str, str]]) -> str:
    out = []
    for style, text in lines:
        t = html.escape(text)  # every word of the card comes from a file: shown literally
        if style == "title":
            out.append(f"<h2>{t}</h2>")
        elif style == "head":
            out.append(f"<h3 style='margin-bottom:2px'>{t}</h3>")
        elif style == "item":
            out.append(f"<p style='margin:2px 0 2px 12px'>&#8226; {t}</p>")
        elif style == "count":
            colour = "#1b6e2a" if t.startswith("met") else "#8a2a00"
            out.append(f"<p style='margin:0 0 2px 28px; color:{colour}'><b>{t}</b></p>")
        else:
            out.append(f"<p>{t}</p>")
    return "".join(out)


class ScenarioCard(QWidget):
    """The card of one scenario (see the module docstring); redrawn by :meth:`show_card`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.browser)
        self.lines: list[tuple[str, str]] = []

    def show_card(self, source: Mapping[str, Any] | None, view: Mapping[str, Any] | None = None,
                  balance: str | None = None) -> None:
        lines = card_lines(source, view, balance)
        if lines == self.lines:
            return
        self.lines = lines
        bar = self.browser.verticalScrollBar()
        at = bar.value()
        self.browser.setHtml(_html(lines))
        bar.setValue(at)  # a live count changing does not send the reader back to the top

    def text(self) -> str:
        return "\n".join(t for _, t in self.lines)
