"""``gwasl game ...``: games in play from the command line (CONTRACTS 5 and 6).

Every subcommand opens the game file, does one thing and closes it; ``act``
and ``undo`` commit their journal entry before printing anything, so what
was printed is on disk.  The others open it read-only and never change it.
Everything printed comes from a view: ``--view`` picks the viewer (``player``
by default: what the person at the desk may see; ``omniscient`` and the
secret side's own id show what ``--secret`` keeps from the player).  Errors
are one line on stderr with exit status 2, the file unchanged.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gwasl.commands.common import UsageError, escape_controls, print_json
from gwasl.engine.game import PLAYER, PRACTICE, SECRET, GameError, GameOptions, IllegalAction, OptionError
from gwasl.games import DEFAULT_RULESET, RULESETS, game_for

__all__ = ["register"]

#: the game option of a side gwasl plays (a Great War game offers it: docs/opponent.md)
OPPONENT = "opponent"

#: what --view says: the views other than the player's show what --secret keeps from the player
VIEW_HELP = ("player (default: what the person at the desk may see), or omniscient or a side id: "
             "these REVEAL SECRETS (omniscient shows everything; a side id shows that side's hidden units, "
             "so the id of a side kept --secret shows what gwasl keeps from you)")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("game", help="play a game: new, legal, act, show, log, replay, undo, odds, suggest, batch",
                       description="Games in play, saved as one file each (CONTRACTS 5).")
    gsub = p.add_subparsers(dest="game_command", metavar="SUBCOMMAND", parser_class=type(p))
    p.set_defaults(func=lambda a: (p.print_help(), 0)[1])

    def add(name: str, helptext: str) -> argparse.ArgumentParser:
        q: argparse.ArgumentParser = gsub.add_parser(name, help=helptext, description=helptext)
        q.add_argument("--json", action="store_true", help="print one JSON object")
        return q

    q = add("new", "start a game in a new file")
    q.add_argument("source", nargs="?", help="the scenario (aslgw: a Great War scenario file; other rulesets: optional)")
    q.add_argument("--out", required=True, help="the new game file")
    q.add_argument("--ruleset", default=DEFAULT_RULESET, help=f"which game: {', '.join(sorted(RULESETS))} (default {DEFAULT_RULESET})")
    q.add_argument("--seed", type=int, help="the dice seed (default: a random one, printed; the seed gives every "
                                            "die of the game, so knowing it reveals what --secret keeps)")
    q.add_argument("--secret", action="append", default=[], metavar="SIDE",
                   help="keep SIDE's hidden layer secret from the player (repeatable): in everything gwasl shows "
                        "the player; the game file itself, --view omniscient and --view SIDE still hold it")
    q.add_argument("--practice", action="store_true", help="practice mode: take-back past dice and reveals")
    q.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option the game offers, e.g. easier=true or balance=german (repeatable)")
    q.add_argument("--opponent", metavar="SIDE",
                   help="aslgw: gwasl plays SIDE entirely and keeps its secrets (implies --secret SIDE); "
                        "you play the other side")
    q.set_defaults(func=_new)

    for name, helptext, fn in (("legal", "what the side to act may do now", _legal),
                               ("show", "the game as the viewer sees it", _show),
                               ("log", "every event as the viewer sees it", _log)):
        q = add(name, helptext)
        q.add_argument("game", help="game file")
        q.add_argument("--view", default=PLAYER, metavar="VIEWER", help=VIEW_HELP)
        q.set_defaults(func=fn)

    q = add("act", "apply one action: an id from 'legal' or the action's JSON")
    q.add_argument("game", help="game file")
    q.add_argument("action", help="an action id from 'gwasl game legal', or the action as a JSON object")
    q.set_defaults(func=_act)

    q = add("odds", "the exact chance of each outcome of an action")
    q.add_argument("game", help="game file")
    q.add_argument("action", help="an action id from 'gwasl game legal', or the action as a JSON object")
    q.set_defaults(func=_odds)

    q = add("suggest", "what to do now for the side to act, and why: the game's plans ranked by win chance over "
                       "short rollouts on dice of their own, from what that side knows (--policy: one policy alone)")
    q.add_argument("game", help="game file")
    q.add_argument("--policy", help="a policy of the ruleset (default: its best, or its plans ranked where it has an advisor)")
    q.set_defaults(func=_suggest)

    q = add("undo", "take back the last action where the undo policy allows")
    q.add_argument("game", help="game file")
    q.set_defaults(func=_undo)

    q = add("replay", "recompute the whole game from its journal and compare")
    q.add_argument("game", help="game file")
    q.add_argument("--check", action="store_true", required=True, help="compare the recomputed events with the journal")
    q.set_defaults(func=_replay)

    q = add("batch", "play whole games headless with policies")
    q.add_argument("--ruleset", required=True, help=f"which game: {', '.join(sorted(RULESETS))}")
    q.add_argument("--games", type=int, required=True)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--policy", help="a policy of the ruleset (default: its best)")
    q.add_argument("--jobs", type=int, default=1, help="processes (the figures do not depend on it)")
    q.add_argument("--scenario", metavar="FILE", help="aslgw: the Great War scenario to play")
    q.add_argument("--side-policy", action="append", default=[], metavar="SIDE=POLICY",
                   help="aslgw: SIDE is played by POLICY (repeatable; each side decides for its own units)")
    q.add_argument("--secret", action="append", default=[], metavar="SIDE",
                   help="aslgw: keep SIDE's hidden layer (its shifts and, unless it has a --side-policy, "
                        "gwasl's fire policy of --secret)")
    q.add_argument("--count", action="store_true",
                   help="count per game what the game counts (aslgw: self-inflicted breaks, A8.31)")
    q.set_defaults(func=_batch)


# -- helpers -------------------------------------------------------------------------
@contextmanager
def _open(path: str, mode: str = "r", altered_ok: bool = False) -> Iterator[Any]:
    """The game file at ``path``: read-only (``"r"``, never changed) or to play on (``"w"``).

    What goes wrong with the game a file holds is one line naming the file (issue 28
    item 8): a file from elsewhere may hold a game its rules cannot go on with, whatever
    the rules then raise (GWASL_DEBUG=1 shows the traceback, as for any internal error)."""
    from gwasl.store.gamefile import GameFileError, open_game

    try:
        gf = open_game(path, mode, altered_ok)  # type: ignore[arg-type]
    except GameFileError as e:
        raise UsageError(str(e)) from None
    try:
        with gf:
            yield gf
    except (UsageError, KeyboardInterrupt, BrokenPipeError):
        raise
    except GameFileError as e:
        raise UsageError(str(e)) from None
    except Exception as e:
        if os.environ.get("GWASL_DEBUG"):
            raise
        raise UsageError(f"{path}: gwasl cannot go on with the game this file holds ({type(e).__name__}: "
                         f"{str(e)[:200]}); the file may be damaged: 'gwasl game replay --check' checks it") from None


def _out(args: argparse.Namespace, obj: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print_json(obj)
    else:
        for ln in lines:
            print(escape_controls(ln))  # a file's text never starts a line of its own


def _option_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _status_lines(st: Any) -> list[str]:
    if st.over:
        result = dict(st.result or {})
        return [f"game over after turn {st.turn}: {result.get('why', '')}"]
    return [f"turn {st.turn}, {st.phase}, {st.side} to act"]


# -- subcommands -----------------------------------------------------------------------
def _game(ruleset: str) -> Any:
    try:
        return game_for(ruleset)
    except GameError as e:
        raise UsageError(str(e)) from None


def _new(args: argparse.Namespace) -> int:
    from gwasl.store.gamefile import GameFileError, create_game, load_source

    game = _game(args.ruleset)
    kind = game.source_kind  # what the game starts from, as it declares
    source: dict[str, Any] | None = None
    if args.source:
        try:
            source = load_source(game, args.source)
        except GameError as e:
            raise UsageError(str(e)) from None
    elif kind.required:
        raise UsageError(f"the {args.ruleset} ruleset starts from {kind.what}: give its file as SOURCE")
    # the choices, checked against the options the game offers (Game.options_offered)
    choices: dict[str, Any] = {}
    if args.secret:
        choices[SECRET.key] = args.secret
    if args.practice:
        choices[PRACTICE.key] = True
    for opt in args.option:
        key, eq, value = opt.partition("=")
        if not eq or not key:
            raise UsageError(f"--option {opt!r}: write KEY=VALUE")
        if key in (SECRET.key, PRACTICE.key, OPPONENT):
            raise UsageError(f"--option {key}: give it as --{key}")
        choices[key] = _option_value(value)
    if args.opponent is not None:
        if OPPONENT not in {o.key for o in game.options_offered}:
            raise UsageError(f"--opponent is for Great War games (aslgw): {game.display_name or args.ruleset}'s "
                             "opponent is built in, you play its one side")
        choices[OPPONENT] = args.opponent
        # gwasl plays the side and keeps its secrets (--opponent implies --secret)
        choices[SECRET.key] = sorted({*args.secret, args.opponent})
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        plain = GameOptions()
        first = game.setup(source, plain)  # the sides the choices are checked against
        try:
            options = game.start_options(choices, game.sides(first))
        except OptionError as e:
            flag = f"--{e.key}" if e.key in (SECRET.key, PRACTICE.key, OPPONENT) else f"--option {e.key}"
            raise UsageError(f"{flag}: {e.reason}") from None
        # no choice made: the game is the one just set up (its scenario is not validated again)
        gf = create_game(args.out, game, source, seed, options, first if options == plain else None)
    except GameFileError as e:
        raise UsageError(str(e)) from None
    except GameError as e:
        raise UsageError(f"{args.source or args.ruleset}: {e}") from None
    with gf:
        st = gf.session.status()
        obj = {"game": str(gf.path), "ruleset": gf.ruleset, "turn": st.turn, "phase": st.phase, "side": st.side,
               "seed": seed}
        lines = [f"{gf.path}: new {gf.ruleset} game, seed {seed}"]
        if args.opponent is not None:
            obj["opponent"] = args.opponent
            lines.append(f"gwasl plays {args.opponent} and keeps its secrets; you play the other side")
        _out(args, obj, [*lines, *_status_lines(st)])
    return 0


def _viewer_check(gf: Any, name: str) -> None:
    try:
        gf.session.viewer(name)
    except GameError as e:
        raise UsageError(str(e)) from None


def _legal(args: argparse.Namespace) -> int:
    with _open(args.game) as gf:
        _viewer_check(gf, args.view)
        st = gf.session.status()
        acts = gf.session.legal(args.view)
        obj = {"turn": st.turn, "phase": st.phase, "side": st.side,
               "actions": [{"id": a.id, "kind": a.shown.kind, "text": a.shown.text} for a in acts]}
        _out(args, obj, [*_status_lines(st), *(f"  {a.id}  {a.shown.text}" for a in acts)])
    return 0


def _show(args: argparse.Namespace) -> int:
    with _open(args.game) as gf:
        _viewer_check(gf, args.view)
        view = gf.session.view(args.view)
        lines = _status_lines(gf.session.status())
        lines += [str(x) for x in view.get("summary", [])] if isinstance(view.get("summary"), list) else []
        _out(args, view, lines)
    return 0


def _log(args: argparse.Namespace) -> int:
    with _open(args.game) as gf:
        _viewer_check(gf, args.view)
        events = gf.session.log(args.view)
        _out(args, {"events": events}, [f"{e['seq']:>5}  {e['text']}" for e in events])
    return 0


def _find(gf: Any, ref: str) -> Any:
    action_ref: Any = ref
    if ref.lstrip().startswith("{"):
        from gwasl.store.gamefile import GameFileError, strict_loads

        try:
            action_ref = strict_loads(ref, "the action")
        except GameFileError as e:
            raise UsageError(f"not an action: {e}") from None
        if not isinstance(action_ref, dict):
            raise UsageError("an action is a JSON object")
    try:
        return gf.session.find_action(action_ref)
    except IllegalAction as e:  # the game is named: the same id may be legal in another file
        raise UsageError(f"{gf.path}: {e}") from None


def _act(args: argparse.Namespace) -> int:
    from gwasl.store.gamefile import GameFileError

    with _open(args.game, "w") as gf:
        action = _find(gf, args.action)
        try:
            entries = gf.session.act(action)
        except IllegalAction as e:
            raise UsageError(f"illegal: {e}") from None
        except GameFileError as e:
            raise UsageError(str(e)) from None
        events = gf.session.shown(entries)
        _out(args, {"ok": True, "events": events},
             [*(f"{e['seq']:>5}  {e['text']}" for e in events), *_status_lines(gf.session.status())])
    return 0


def _odds(args: argparse.Namespace) -> int:
    with _open(args.game) as gf:
        action = _find(gf, args.action)
        try:
            outcomes = gf.session.odds(action)
        except IllegalAction as e:
            raise UsageError(f"illegal: {e}") from None
        obj = {"outcomes": [{"result": o.result, "p": o.p} for o in outcomes]}
        _out(args, obj, [f"{o.p:7.2%}  {o.result}" for o in outcomes] or ["no dice: no odds"])
    return 0


def _suggest(args: argparse.Namespace) -> int:
    from gwasl.engine.advice import candidates_of

    with _open(args.game) as gf:
        try:
            hint = gf.session.suggest(args.policy)
        except GameError as e:
            raise UsageError(str(e)) from None
        if hint is None:
            _out(args, {"policy": None}, ["no suggestion: the game is over, has no policy of its own, "
                                          "the side to act plays itself, or it keeps its secrets from you"])
            return 0
        name, decision = hint
        # a policy picks from the legal list, so its action has an id there (the JSON serves otherwise)
        la = next((x for x in gf.session.legal() if x.action == decision.action), None)
        ident, text = (la.id, la.shown.text) if la else (None, None)
        obj: dict[str, Any] = {"policy": name, "id": ident, "text": text, "action": decision.action.to_json(), "why": decision.why}
        lines = [f"{name}: {ident or json.dumps(decision.action.to_json())}  {text or ''}".rstrip(), f"why: {decision.why}"]
        ranked = candidates_of(decision)
        if ranked:  # an advisor's plans, best first: each with its win chance and what it rests on
            legal = gf.session.legal()
            ids = [next((x.id for x in legal if x.action == c.action), None) for c in ranked]
            obj["candidates"] = [{**c.to_json(), "id": i} for c, i in zip(ranked, ids, strict=True)]
            lines.append("plans, best first:")
            lines += [f"  {c.plan}: {c.chance_text()}  {i or ''}  {c.why}" for c, i in zip(ranked, ids, strict=True)]
        _out(args, obj, lines)
    return 0


def _undo(args: argparse.Namespace) -> int:
    from gwasl.engine.session import SessionError
    from gwasl.store.gamefile import GameFileError

    with _open(args.game, "w") as gf:
        try:
            ok, reason = gf.session.undo()
        except (GameFileError, SessionError) as e:
            raise UsageError(str(e)) from None
        _out(args, {"ok": ok, "reason": reason}, ["taken back" if ok else f"not taken back: {reason}"])
    return 0 if ok else 2


def _replay(args: argparse.Namespace) -> int:
    with _open(args.game, altered_ok=True) as gf:
        check = gf.check()
        _out(args, check.to_json(), [check.line()])
    return 0 if check.identical else 2


def _batch(args: argparse.Namespace) -> int:
    from gwasl.engine.batch import batch, wilson

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    game = _game(args.ruleset)
    two_sided = OPPONENT in {o.key for o in game.options_offered}  # gwasl may play either side (aslgw)
    if not two_sided and any((args.scenario, args.side_policy, args.secret)):
        raise UsageError(f"--scenario, --side-policy and --secret are for Great War games (aslgw), "
                         f"not {game.display_name or args.ruleset}")
    if two_sided and game.source_kind.required and not args.scenario:
        raise UsageError(f"a {game.display_name or args.ruleset} batch needs --scenario FILE ({game.source_kind.what})")
    source: dict[str, Any] | None = None
    sides: dict[str, str] = {}
    options = None
    if args.scenario:
        from gwasl.store.gamefile import load_source  # the store only to read a scenario: a batch writes no file

        try:
            source = load_source(game, args.scenario)
            known = set(game.sides(game.setup(source, GameOptions())))
        except GameError as e:
            raise UsageError(f"{args.scenario}: {e}") from None
        for sp in args.side_policy:
            side, eq, name = sp.partition("=")
            if not eq or not side or not name:
                raise UsageError(f"--side-policy {sp!r}: write SIDE=POLICY")
            if side not in known:
                raise UsageError(f"--side-policy {side!r} is not a side ({', '.join(sorted(known))})")
            sides[side] = name
        bad = [s for s in args.secret if s not in known]
        if bad:
            raise UsageError(f"--secret {bad[0]!r} is not a side ({', '.join(sorted(known))})")
        if not sides and not args.secret:
            # both sides by --policy (the default: gwasl's opponent against itself)
            sides = {s: args.policy or next(iter(game.policies()), "") for s in sorted(known)}
        # the sides played by policies are gwasl's: each decides for its own units, secrets kept
        options = GameOptions(frozenset(args.secret) | frozenset(sides), False,
                              {OPPONENT: sorted(sides)} if sides else {})
    try:
        res = batch(game, args.games, args.seed, args.policy, args.jobs, options, source, sides, args.count)
    except GameError as e:
        raise UsageError(str(e)) from None
    lo, hi = res.ci95
    lines = [f"{res.games} games, {res.wins} won: {res.win_rate:.1%} (95% {lo:.1%}-{hi:.1%}), "
             f"mean score {res.mean_score:.2f}, {res.games_per_s:.0f} games/s"]
    if res.by_side:
        lines = [f"{res.games} games, {res.games_per_s:.2f} games/s"]
        for k, v in res.by_side.items():
            a, b = wilson(v, res.games)
            who = f"{k} ({sides[k]})" if k in sides else k
            lines.append(f"  {who}: {v} ({v / res.games:.1%}, 95% {a:.1%}-{b:.1%})")
    for k, v in res.counts.items():
        lines.append(f"  {k}: {v} in {res.games} games ({v / res.games:.2f} per game)")
    _out(args, res.to_json(), lines)
    return 0

