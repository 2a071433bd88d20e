"""What a Combined Arms game shows: ``show --json`` (docs/format/combined-arms.md),
the log's sentences and the legal-action texts.  Built by whitelist from the
state; every viewer sees the same, since the game has no secret."""

from __future__ import annotations

from typing import Any, Protocol

from gwasl.engine.game import Shown, Status
from gwasl.engine.record import Record, to_json_value
from gwasl.games.combined_arms import board as B
from gwasl.games.combined_arms import outlook as O
from gwasl.games.combined_arms import records as E
from gwasl.games.combined_arms import rules as R
from gwasl.games.combined_arms.state import ARMOUR, OFFBOARD, UNIT_COMPANY, UNIT_IDS, UNIT_KIND, State
from gwasl.games.combined_arms.tables import CORNER_NAMES, TERRAIN

__all__ = ["ShownGame", "action_shown", "event_shown", "facing_name", "state_view"]


class ShownGame(Protocol):
    """What the state's view reads of the game (the CombinedArmsGame): its name and status."""

    @property
    def ruleset(self) -> str: ...

    def status(self, state: State) -> Status: ...


_WHERE = {-1: "off", -2: "withdrawn", -3: "exploited", -4: "broken"}


def facing_name(f: int | None) -> str:
    return "" if f is None or f < 0 else CORNER_NAMES[f]


def _hexes() -> list[dict[str, Any]]:
    return [{"hex": B.label(i), "row": B.ROW[i], "q": q, "r": r, "x2": 2 * q + r, "road": bool(B.ROAD_MASK >> i & 1),
             "side_edge": bool(B.SIDE_EDGE >> i & 1), "no_entry": bool(B.FORBIDDEN_EDGE >> i & 1)}
            for i, (q, r) in enumerate(B.COORDS)]


_HEXES = _hexes()


def state_view(game: ShownGame, s: State) -> dict[str, Any]:
    st = game.status(s)
    smoke = {h: t for h, t in s.smoke}
    hexes = []
    for i, base in enumerate(_HEXES):
        row = dict(base)
        row["terrain"] = s.terrain[i] if s.terrain else None
        row["smoke"] = i in smoke
        hexes.append(row)
    units = []
    for i, u in enumerate(s.units):
        units.append({
            "id": UNIT_IDS[i], "kind": UNIT_KIND[i], "company": UNIT_COMPANY[i],
            "where": "board" if u.where >= 0 else _WHERE[u.where], "hex": B.label(u.where) if u.where >= 0 else None,
            "fresh": u.fresh, "facing": u.facing if UNIT_KIND[i] == ARMOUR else None,
            "facing_name": facing_name(u.facing) if UNIT_KIND[i] == ARMOUR else None,
        })
    enemy = [{"hex": B.label(c.hex), "platoon": "real" if c.real else "potential",
              "atg": {0: None, 1: "potential", 2: "real"}[c.atg], "atg_removed": c.atg_removed, "fresh": c.fresh}
             for c in s.enemy]
    pending: dict[str, Any] = {"attack": None, "rolls": None, "break": None}
    if s.group:
        pending["attack"] = {"target": B.label(s.group_target),
                             "firers": [{"unit": UNIT_IDS[u], "facing": None if f < 0 else f} for u, f in s.group]}
    if s.rolls:
        pending["rolls"] = {"source": s.roll_source,
                            "hexes": [{"hex": r.hex, "cause": r.cause, "modifiers": [{"cause": m.cause, "value": m.value} for m in r.modifiers],
                                       "need": r.need, "losses": r.losses} for r in s.rolls]}
    if s.breaks:
        pending["break"] = {"hex": B.label(s.break_hex), "count": s.breaks,
                            "candidates": [UNIT_IDS[i] for i in R.infantry_in(s, s.break_hex)]}
    last = st.turn if st.over else max(0, s.turn - 1)
    out = {
        "ruleset": game.ruleset,
        "turn": st.turn,
        "phase": st.phase,
        "side": st.side,
        "over": st.over,
        # a result read back from the journal is a read-only mapping, its breakdown too: plain JSON here
        "result": to_json_value(st.result) if st.result else None,
        "stage": s.stage or None,
        "easier": s.easier,
        "board": {"rows": 9, "turned": s.turned, "hexes": hexes, "road": [B.label(h) for h in B.ROAD],
                  "rear_edge": [B.label(h) for h in B.bits(B.REAR_HEXES)], "exit": [B.label(h) for h in B.bits(B.EXIT_HEXES)]},
        "units": units,
        "enemy": enemy,
        "tracks": {"turn": s.turn, "losses": s.losses, "ammo": s.ammo, "smoke_ammo": s.smoke_ammo},
        "mortars": {
            "yours": {"target": B.label(s.own_target), "ammo": s.own_ammo, "turn": s.own_fired} if s.own_target >= 0 else None,
            "enemy": {"target": B.label(s.enemy_target), "turn": s.enemy_fired} if s.enemy_target >= 0 else None,
            "enemy_fired_turn": s.enemy_fired or None,
        },
        "smoke": [{"hex": B.label(h), "turn": t} for h, t in s.smoke],
        "enemy_broken": {"platoons": s.enemy_platoons_broken, "atgs": s.enemy_atgs_broken},
        "revealed_real": {"platoons": s.real_platoons_revealed, "atgs": s.real_atgs_revealed},
        "score_now": R.score(s, last) if s.terrain else None,
        "end_now": _end_now(s, last),
        "firing": B.label(s.firing) if s.firing >= 0 else None,
        "pending": pending,
    }
    out["summary"] = summary(out)
    return out


#: one character a terrain on the text map of ``gwasl game show``
_MAP_CHAR = {"open": ".", "road": "=", "poor_going": "~", "crest": "^", "woods": "T", "wooded_crest": "A", "farm": "F"}


def summary(v: dict[str, Any]) -> list[str]:
    """The lines of plain ``gwasl game show`` after its status line: what a player at the
    command line needs to play on: the board (terrain, smoke, counters), your platoons, the
    enemy counters, the tracks, mortars and smoke, what is pending, and the outlook of ending now."""
    board = v.get("board") or {}
    hexes = board.get("hexes") or []
    if not hexes or hexes[0].get("terrain") is None:
        return ["the board is not diced yet"]
    at: dict[str, str] = {}
    for c in v["enemy"]:
        at[c["hex"]] = "?" if c["platoon"] == "potential" else ("E" if c["fresh"] else "e")
    mine: dict[str, int] = {}
    for u in v["units"]:
        if u["hex"]:
            mine[u["hex"]] = mine.get(u["hex"], 0) + 1
    lo = min(h["x2"] for h in hexes)
    lines = ["board: you attack from hexrow 1 (the top); in each hexrow the letters run a, b, ... from the left",
             "key: . open  = road  ~ poor going  ^ crest  T woods  A wooded crest  F farm  * smoke; "
             "then ? potential enemy, E real enemy (e spent), 1-9 your platoons"]
    for row in range(1, 10):
        cells = sorted((h for h in hexes if h["row"] == row), key=lambda h: h["x2"])
        text = [" "] * (2 * (max(h["x2"] for h in hexes) - lo) + 4)
        for h in cells:
            x = 2 * (h["x2"] - lo)
            text[x] = "*" if h["smoke"] else _MAP_CHAR.get(h["terrain"], "?")
            text[x + 1] = at.get(h["hex"]) or (str(min(9, mine[h["hex"]])) if h["hex"] in mine else " ")
        lines.append(f"  {row} a-{cells[-1]['hex'][1:]}  " + "".join(text).rstrip())
    where: dict[str, list[str]] = {}
    board_units = []
    for u in v["units"]:
        if u["where"] == "board":
            board_units.append(f"{u['id']} {u['hex']}" + (f" facing {u['facing_name']}" if u["facing_name"] else "")
                               + ("" if u["fresh"] else " spent"))
        else:
            where.setdefault(u["where"], []).append(u["id"])
    lines.append("your platoons: " + ("; ".join(board_units) if board_units else "none on the board")
                 + "".join(f"; {k}: {' '.join(ids)}" for k, ids in where.items()))
    enemy = [f"{c['hex']} {c['platoon']}" + (f", ATGs {c['atg']}" if c["atg"] else "") + (", ATGs removed" if c["atg_removed"] else "")
             + ("" if c["fresh"] else ", spent") for c in v["enemy"]]
    lines.append("enemy counters: " + ("; ".join(enemy) if enemy else "none"))
    tr, br = v["tracks"], v["enemy_broken"]
    lines.append(f"tracks: turn {tr['turn']}, infantry losses {tr['losses']}, infantry ammo fired {tr['ammo']}, "
                 f"smoke ammo {tr['smoke_ammo']}; enemy broken: {br['platoons']} platoons, {br['atgs']} ATGs; "
                 f"revealed real: {v['revealed_real']['platoons']} platoons, {v['revealed_real']['atgs']} ATGs")
    m = v["mortars"]
    parts = []
    if m["yours"]:
        parts.append(f"your mortars on {m['yours']['target']} ({m['yours']['ammo']}, called turn {m['yours']['turn']})")
    if m["enemy"]:
        parts.append(f"enemy mortars on {m['enemy']['target']} (turn {m['enemy']['turn']})")
    if v["smoke"]:
        parts.append("smoke in " + ", ".join(f"{x['hex']} (turn {x['turn']})" for x in v["smoke"]))
    if parts:
        lines.append("; ".join(parts))
    p = v["pending"]
    if p["attack"]:
        lines.append(f"attack on {p['attack']['target']} committed: {', '.join(f['unit'] for f in p['attack']['firers'])}")
    if p["rolls"]:
        lines.append(f"{p['rolls']['source']}: rolls pending against {', '.join(r['hex'] for r in p['rolls']['hexes'])}")
    if p["break"]:
        lines.append(f"losses passed 7 -> 0 in {p['break']['hex']}: choose the platoon that breaks "
                     f"({', '.join(p['break']['candidates'])})")
    if v["end_now"]:
        lines.append(f"ending the game now: {v['end_now']['mean']} points on average, "
                     f"{v['end_now']['win_chance']:.1%} chance of {R.WIN_SCORE} or more (score before the final reveals: "
                     f"{v['score_now']['total']})")
    return lines


def _end_now(s: State, last: int) -> dict[str, float] | None:
    """The final reveals weighed exactly (:mod:`.outlook`): the mean score and the chance of
    20 if you ended the game now; None before the board is diced and once it is over."""
    if not s.terrain or s.phase == "over":
        return None
    dist = O.end_now(s, max(1, last))
    return {"mean": round(sum(t * p for t, p in dist.items()), 2),
            "win_chance": round(sum(p for t, p in dist.items() if t >= R.WIN_SCORE), 4)}


def _what(c_atg: str) -> str:
    return "ATGs" if c_atg == "atg" else "platoon"


def event_shown(e: Record) -> Shown | None:
    """The log line of one of the game's own events."""
    if isinstance(e, E.BoardDiced):
        t, m, b = e.thirds
        side = "top" if e.turned else "bottom"
        text = (f"board diced: {t} defended hexes in the top 3 hexrows, {m} in the middle, {b} at the bottom; the enemy holds the "
                f"{side}" + (" (the board is turned so that you attack from the top)" if e.turned else ""))
        return Shown("board", text, {"thirds": list(e.thirds), "turned": e.turned})
    if isinstance(e, E.CountersPlaced):
        return Shown("counters", f"{len(e.hexes)} potential enemy counters placed, {len(e.atgs)} with potential ATGs",
                     {"hexes": list(e.hexes), "atgs": list(e.atgs)})
    if isinstance(e, E.PhaseBegun):
        return Shown("phase", f"turn {e.turn}: {'your ' if e.phase in ('move', 'fire') else ''}{e.phase} phase",
                     {"turn": e.turn, "phase": e.phase})
    if isinstance(e, E.StageSet):
        return None
    if isinstance(e, E.Moved):
        face = f", facing {facing_name(e.facing)}" if e.facing is not None else ""
        verb = {"enter": "enters the board at", "pivot": "changes facing in", "road": "moves 2 hexes along the road to",
                "reverse": "reverses to"}.get(e.how, "moves to")
        return Shown("moved", f"{e.unit} {verb} {e.to}{face}", {"unit": e.unit, "to": e.to, "facing": e.facing, "how": e.how})
    if isinstance(e, E.Left):
        return Shown("left", f"{e.unit} {e.how}: {e.why}", {"unit": e.unit, "how": e.how})
    if isinstance(e, E.Spent):
        return Shown("spent", f"{', '.join(e.units)} {'is' if len(e.units) == 1 else 'are'} spent: {e.why}", {"units": list(e.units)})
    if isinstance(e, E.Recovered):
        return Shown("recovered", f"recovery phase: {', '.join(e.units)} fresh again", {"units": list(e.units)})
    if isinstance(e, E.Faced):
        return Shown("faced", f"{e.unit} turns to face {facing_name(e.facing)}", {"unit": e.unit, "facing": e.facing})
    if isinstance(e, E.Committed):
        face = f" (facing {facing_name(e.facing)})" if e.facing is not None else ""
        return Shown("committed", f"{e.unit} committed to fire at {e.target}{face}", {"unit": e.unit, "target": e.target})
    if isinstance(e, E.AttackDone):
        return Shown("attack_done", f"attack on {e.target} resolved", {"target": e.target})
    if isinstance(e, E.EnemySpent):
        return Shown("enemy_spent", f"the enemy in {e.hex} is spent: {e.why}", {"hex": e.hex})
    if isinstance(e, E.EnemyRecovered):
        return Shown("enemy_recovered", f"the enemy in {', '.join(e.hexes)} becomes fresh again", {"hexes": list(e.hexes)})
    if isinstance(e, E.Activated):
        return None
    if isinstance(e, E.Revealed):
        if e.what == "platoon":
            text = f"{e.hex}: a real enemy platoon" if e.real else f"{e.hex}: no enemy platoon (its counters are removed)"
        else:
            text = f"{e.hex}: real ATGs (and a real platoon)" if e.real else f"{e.hex}: no ATGs (the ATG counter is removed)"
        return Shown("revealed", text, {"hex": e.hex, "what": e.what, "real": e.real})
    if isinstance(e, E.EnemyBroken):
        return Shown("enemy_broken", f"the enemy {_what(e.what)} in {e.hex} broken and removed", {"hex": e.hex, "what": e.what})
    if isinstance(e, E.TrackMoved):
        name = {"losses": "infantry losses", "ammo": "infantry ammo fired", "smoke": "smoke ammo"}[e.track]
        return Shown("track", f"{name}: {e.value}" + (" (passed from 7 to 0)" if e.wrapped else ""),
                     {"track": e.track, "value": e.value, "wrapped": e.wrapped})
    if isinstance(e, E.UnitBroken):
        return Shown("broken", f"{e.unit} broken and removed: {e.why}", {"unit": e.unit})
    if isinstance(e, E.MortarTarget):
        who = "your" if e.side == "attacker" else "the enemy"
        text = f"{who} mortars target {e.hex}" + (" with smoke" if e.ammo == "smoke" else "") if e.hex else f"{who} mortar target counter lifted"
        return Shown("mortar_target", text, {"side": e.side, "hex": e.hex, "ammo": e.ammo})
    if isinstance(e, E.MortarFell):
        who = "your" if e.side == "attacker" else "the enemy"
        return Shown("mortar_fell", f"{who} mortars aimed at {e.target} fall about its {CORNER_NAMES[e.corner]} corner: {', '.join(e.hexes)}",
                     {"side": e.side, "corner": e.corner, "hexes": list(e.hexes)})
    if isinstance(e, E.SmokeChanged):
        parts = []
        if e.placed:
            parts.append(f"smoke in {', '.join(e.placed)}")
        if e.cleared:
            parts.append(f"smoke clears from {', '.join(e.cleared)}")
        return Shown("smoke", "; ".join(parts), {"placed": list(e.placed), "cleared": list(e.cleared)})
    if isinstance(e, E.RollsPending):
        return Shown("rolls", f"{e.source}: rolls against {', '.join(r.hex for r in e.rolls)}",
                     {"source": e.source, "hexes": [r.hex for r in e.rolls]})
    if isinstance(e, E.HexRolled):
        return Shown("hex_rolled", f"{e.hex}: {'hit' if e.hit else 'missed'}", {"hex": e.hex, "hit": e.hit})
    if isinstance(e, E.BreakPending):
        if not e.count:
            return None
        return Shown("break_pending", f"choose the platoon in {e.hex} that breaks", {"hex": e.hex, "count": e.count})
    if isinstance(e, E.GameOver):
        return Shown("game_over", f"game over after turn {e.result.get('turns', '?')}: {e.result.get('why', '')}",
                     {"result": to_json_value(e.result)})
    return None


def action_shown(s: State, a: Record) -> Shown:
    """A legal action as a sentence."""
    if isinstance(a, E.Move):
        u = UNIT_IDS.index(a.unit)
        verb = "enters at" if s.units[u].where == OFFBOARD else "moves to"
        face = f", facing {facing_name(a.facing)}" if a.facing is not None else ""
        return Shown(a.kind, f"{a.unit} {verb} {a.to}{face}")
    if isinstance(a, E.Pivot):
        return Shown(a.kind, f"{a.unit} turns to face {facing_name(a.facing)} without moving (becomes spent)")
    if isinstance(a, E.Withdraw):
        return Shown(a.kind, f"{a.unit} withdraws off the rear edge")
    if isinstance(a, E.Exploit):
        return Shown(a.kind, f"{a.unit} exploits off the enemy rear edge")
    if isinstance(a, E.CallMortar):
        return Shown(a.kind, f"call your mortars on {a.target}" + (" with smoke" if a.ammo == "smoke" else ""))
    if isinstance(a, E.Commit):
        face = f" facing {facing_name(a.facing)}" if a.facing is not None else ""
        return Shown(a.kind, f"{a.unit} fires at {a.target}{face}")
    if isinstance(a, E.Resolve):
        return Shown(a.kind, f"resolve the attack on {B.label(s.group_target) if s.group_target >= 0 else '?'}")
    if isinstance(a, E.Face):
        return Shown(a.kind, f"{a.unit} turns to face {facing_name(a.facing)}")
    if isinstance(a, E.EndPhase):
        return Shown(a.kind, f"end your {s.phase} phase")
    if isinstance(a, E.EndGame):
        return Shown(a.kind, f"end the game after turn {s.turn - 1} and score it")
    if isinstance(a, E.RollNext):
        return Shown(a.kind, f"roll next for {a.hex}")
    if isinstance(a, E.BreakUnit):
        return Shown(a.kind, f"{a.unit} is the platoon broken")
    if isinstance(a, E.EnemyMortar):
        return Shown(a.kind, f"enemy mortars target {a.target}" if a.target else "enemy mortars hold fire")
    if isinstance(a, E.Activate):
        tests = [t for t, on in (("platoon", a.platoon_test), ("ATGs", a.atg_test)) if on]
        return Shown(a.kind, f"activate {', '.join(a.hexes)}" + (f" (reveal test: {', '.join(tests)})" if tests else ""))
    if isinstance(a, E.EnemyFire):
        parts = [f"at {a.armour}"] if a.armour else []
        if a.cluster:
            parts.append(f"at {', '.join(a.cluster)}")
        return Shown(a.kind, f"the enemy in {a.hex} fires " + (" then ".join(parts) if parts else "at nothing"))
    return Shown(a.kind, a.kind)


def terrain_name(tid: str) -> str:
    return TERRAIN[tid].name
