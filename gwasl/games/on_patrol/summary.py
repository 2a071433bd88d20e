"""The lines of plain ``gwasl game show`` for a patrol: the position a command-line player needs
(the ``summary`` of :meth:`.game.OnPatrolGame.view`, built from that view alone, so a viewer
sees in the text no more than in the JSON).  Hexes are CONTRACTS 1 labels, headings Harmon's
1-6 (6 north, clockwise), depths in feet."""

from __future__ import annotations

from typing import Any

from gwasl.model.hexgrid import Hex

__all__ = ["summary"]

_MODE_WORDS = {1: "in formation", 2: "radial movement at search speed (torpedo marker)",
               3: "radial movement (sonar or radar contact)", 4: "radial movement at full speed (boat sighted)",
               5: "diameter movement at full speed, gunfire and ramming (boat on the surface)",
               6: "diameter movement at search speed (contact lost)", 7: "prolonged attack"}


def _dist(a: str | None, b: str | None) -> int | None:
    if not a or not b:
        return None
    return Hex.from_label(a).distance(Hex.from_label(b))


def summary(v: dict[str, Any]) -> list[str]:
    """Readable lines after the status line (see the module docstring)."""
    lines = [f"{v['title']} ({v['year']}, {'night' if v['night'] else 'day'}): turn {v['turn']} of {v['turns']}, "
             f"phase {v['phase_number']} ({v['phase']}); map {v['board']['columns']} x {v['board']['rows']}; "
             f"headings 1-6, 6 north, clockwise"
             + (f"; Fleet Movement Table this turn: {v['fleet_code']}" if v.get("fleet_code") else "")]
    subs = v["submarines"]
    for s in subs:
        tubes = ", ".join(f"{i + 1} {t or 'empty'}" + (" (stern)" if i >= s["bow_tubes"] else "") for i, t in enumerate(s["tubes"]))
        reload = "; ".join(f"tube {r['tube'] + 1} {r['type']} ready turn {r['ready']}" for r in s["reloading"])
        lines.append(f"your boat {s['id']} ({s['name'] or s['class']}): bow {s['bow']}, stern {s['stern']}, heading {s['heading']}, "
                     f"{s['depth']} ft, {s['status']}, damage {s['damage']} of {s['hull']}, moved {s['moved']} this turn, "
                     f"{s['emergency_left']} turns of emergency speed left")
        lines.append(f"  tubes: {tubes}; reloads left {s['reloads']}" + (f"; reloading: {reload}" if reload else ""))
    aim = subs[0]["bow"] if subs else None
    ships = sorted(v["ships"], key=lambda x: (_dist(aim, x["bow"]) or 0, x["id"]))
    lines.append("ships" + (f" (nearest your boat first; hexes from {subs[0]['id']}'s bow)" if aim else "") + ":")
    for x in ships:
        d = _dist(aim, x["bow"])
        state = "" if x["status"] == "afloat" else f", {'dead in the water' if x['status'] == 'diw' else x['status']}"
        lines.append(f"  {x['id']} {x['kind']} {x['class']}{' ' + repr(x['name']) if x['name'] else ''}: bow {x['bow']} "
                     f"heading {x['heading']} speed {x['speed']}, damage {x['damage']} of {x['hit_points']}, {x['vp']} VP{state}"
                     + ("" if x["kind"] != "escort" else ", in formation" if x["in_formation"] else "")
                     + (f"; {d} hexes" if d is not None else ""))
    if v["sunk"]:
        lines.append(f"sunk: {', '.join(v['sunk'])}")
    for m in v["markers"]:
        what = {"sub": "sighted (submarine's colour)", "escort": "contact (escorts' colour)", "inverted": "contact lost (inverted)",
                "torpedo": "torpedo marker"}.get(m["kind"], m["kind"])
        lines.append(f"marker for {m['sub']}: {what} at {m['bow']} heading {m['heading']}, target hex {m['target']}"
                     + (", surfaced" if m["surfaced"] else ""))
    if not v["markers"]:
        lines.append("markers: none (the escorts have not found you)")
    for f in v["forces"]:
        lines.append(f"escorts against {f['sub']}: mode {f['mode']}, {_MODE_WORDS.get(f['mode'], f['movement'])}, target {f['target']}: "
                     f"{', '.join(f['escorts'])}" + (f"; {f['rammer']} to ram" if f["rammer"] else ""))
    for tp in v["torpedoes"]:
        lines.append(f"torpedo {tp['id']} ({tp['type']}): {tp['hex']} heading {tp['heading']}, run {tp['run']} of {tp['range']}"
                     + (f", next through {tp['path'][0]}-{tp['path'][-1]}" if tp["path"] else ""))
    if v["attacks"]:
        lines.append("this turn's attacks: " + ", ".join(f"{a['count']} {a['weapon']} on {a['hex']} ({a['escort']})" for a in v["attacks"]))
    if v["star_shells"]:
        lines.append(f"star shells over {', '.join(v['star_shells'])}")
    if v["over"]:
        lines.append(f"over: {(v['result'] or {}).get('why', '')}")
    return lines
