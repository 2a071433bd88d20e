"""``gwasl library add FOLDER`` and ``gwasl library search ...`` (CONTRACTS 7)."""

from __future__ import annotations

import argparse

from gwasl.commands.common import UsageError, escape_controls, print_json

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("library", help="the scenario library: add a folder, search",
                       description="Index scenario folders and search them (bundled scenarios are always there).")
    lsub = p.add_subparsers(dest="library_command", metavar="SUBCOMMAND", parser_class=type(p))
    p.set_defaults(func=lambda a: (p.print_help(), 0)[1])
    q = lsub.add_parser("add", help="index every scenario file under FOLDER")
    q.add_argument("folder")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(func=_add)
    q = lsub.add_parser("search", help="find scenarios")
    q.add_argument("text", nargs="?", help="words of the title or id")
    q.add_argument("--front", help="western, eastern, italian or other")
    q.add_argument("--nationality", help="e.g. german, french, british")
    q.add_argument("--from", dest="date_from", metavar="DATE", help="on or after this date (YYYY-MM-DD)")
    q.add_argument("--to", dest="date_to", metavar="DATE", help="on or before this date (YYYY-MM-DD)")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(func=_search)


def _library():
    from gwasl.store.library import Library, LibraryError

    try:
        return Library()
    except LibraryError as e:
        raise UsageError(str(e)) from None


def _add(args: argparse.Namespace) -> int:

    from gwasl.store.library import LibraryError

    with _library() as lib:
        try:
            added, skipped = lib.add(args.folder)
        except LibraryError as e:
            raise UsageError(str(e)) from None
    if args.json:
        print_json({"added": added, "skipped": skipped})
    else:
        print(escape_controls(f"{added} scenario(s) indexed from {args.folder}" + (f", {len(skipped)} skipped" if skipped else "")))
        for s in skipped:
            print(escape_controls(f"  skipped {s['file']}: {s['reason']}"))
    return 0


def _search(args: argparse.Namespace) -> int:

    from gwasl.store.library import LibraryError

    with _library() as lib:
        try:
            hits = lib.search(args.text, args.front, args.nationality, args.date_from, args.date_to)
        except LibraryError as e:
            raise UsageError(str(e)) from None
    if args.json:
        print_json({"scenarios": [h.to_json() for h in hits]})
    else:
        for h in hits:
            print(escape_controls(f"{h.date}  {h.title}  ({h.id})  {h.file}"))
        if not hits:
            print("no scenario matches")
    return 0
