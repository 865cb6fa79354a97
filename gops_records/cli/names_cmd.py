"""`gops players`, `gops events` and `gops alias`: the names of every game as a club types
them, their counts and dates, and the rule that shows one spelling as another.

The library is :mod:`gops_records.core.name_lists` (lists, near duplicates) and
:mod:`gops_records.core.store.aliases` (the aliases); this module only parses and prints.
"""

from __future__ import annotations

import csv
import json
import sys
from enum import StrEnum
from typing import Annotated

import typer

from gops_records.cli.app import app, fail, fail_on
from gops_records.cli.name_completion import complete_name
from gops_records.cli.options import DbOption, GameKind
from gops_records.core.errors import GopsError


class AliasKind(StrEnum):
    """What an alias joins: two players' names or two events' names."""

    PLAYER = "player"
    EVENT = "event"


JsonOption = Annotated[bool, typer.Option(
    "--json", help="One JSON object per line: name, game, games, first, last.")]
CsvOption = Annotated[bool, typer.Option(
    "--csv", help="CSV with a header row: name, game, games, first, last.")]
ListGameOption = Annotated[GameKind | None, typer.Option(
    "--game", help="Only this game's names (default: every game's, a column says which).",
    show_default=False)]


def _list(kind: str, db, game: GameKind | None, as_json: bool, as_csv: bool) -> None:
    from gops_records.core.games_query import aligned
    from gops_records.core.name_lists import list_names
    from gops_records.core.names import NameKind
    from gops_records.core.store.db import reading

    if as_json and as_csv:
        fail("--json and --csv print the list two ways: give one of them")
    try:
        with reading(db) as con:
            rows = list_names(con, NameKind(kind), game.value if game else None)
    except GopsError as exc:
        fail_on(exc)
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row.as_json(), ensure_ascii=False))
        return
    if as_csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["name", "game", "games", "first", "last"])
        for row in rows:
            j = row.as_json()
            writer.writerow([j["name"], j["game"], j["games"], j["first"] or "",
                             j["last"] or ""])
        return
    if not rows:
        typer.echo(f"no {kind}s are stored")
        return
    table = [(kind, "game", "games", "first", "last")] + [
        (r.name, r.game, str(r.games), r.first.isoformat() if r.first else "",
         r.last.isoformat() if r.last else "") for r in rows]
    typer.echo(aligned(table))
    typer.echo(f"{len(rows)} {kind}{'s' * (len(rows) != 1)}; names match as typed "
               "(case, accents and spacing ignored); gops alias joins two spellings")


@app.command("players")
def players(db: DbOption = None, game: ListGameOption = None, as_json: JsonOption = False,
            as_csv: CsvOption = False) -> None:
    """List the stored players of every game: games played, first and last dates.

    The names are shown as stored (merged by gops alias); most games first. Any command's
    --player takes a name as you type it: case, accents and spacing are ignored (joost
    finds Joost). Exit status 0; 2 for a missing database.

    Example:

    \b
        gops players
        gops players --game gin --csv > players.csv
    """
    _list("player", db, game, as_json, as_csv)


@app.command("events")
def events(db: DbOption = None, game: ListGameOption = None, as_json: JsonOption = False,
           as_csv: CsvOption = False) -> None:
    """List the stored events of every game: games, first and last dates.

    Two spellings of one evening (Thursday club, Thursday Club) are two events until
    gops alias joins them; the dashboard's Data quality page lists such near duplicates
    with the command that merges them. Exit status 0; 2 for a missing database.

    Example:

    \b
        gops events
        gops events --json
    """
    _list("event", db, game, as_json, as_csv)


@app.command("alias")
def alias(
    name_alias: Annotated[str | None, typer.Argument(
        metavar="ALIAS", help="The spelling to show as NAME (a stored player or event).",
        autocompletion=complete_name, show_default=False)] = None,
    name: Annotated[str | None, typer.Argument(
        metavar="NAME", help="The stored spelling every view shows instead.",
        autocompletion=complete_name, show_default=False)] = None,
    kind: Annotated[AliasKind | None, typer.Option(
        "--kind", help="Whether the names are players' or events' (default: whichever "
        "the names are; needed only when a name is both).", show_default=False)] = None,
    remove: Annotated[str | None, typer.Option(
        "--remove", metavar="ALIAS", help="Undo the alias of this spelling.",
        autocompletion=complete_name, show_default=False)] = None,
    list_them: Annotated[bool, typer.Option("--list", help="List the stored aliases.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="With --list: one JSON object per alias (kind, alias, name, "
        "added_at); otherwise the alias added or removed as one object.")] = False,
    db: DbOption = None,
) -> None:
    """Show one spelling of a player or an event as another, in every view.

    gops alias "Thursday club" "Thursday Club" makes every page, every command's output
    and the database's read-only views show the games of Thursday club under Thursday
    Club; the records keep their spelling (gops export writes them as stored). Both names
    must be stored (typed as you like: case, accents and spacing are ignored); an alias
    that would make a cycle or a chain is refused. --remove ALIAS undoes it, --list lists
    them. Exit status 0; 2 for a refused alias or a missing database.

    Example:

    \b
        gops alias "Thursday club" "Thursday Club"
        gops alias --list --json
        gops alias --remove "Thursday club"
    """
    from gops_records.core.names import NameKind
    from gops_records.core.store import aliases
    from gops_records.core.store.db import connect, reading

    asked = sum([list_them, remove is not None, name_alias is not None])
    if asked != 1 or (name_alias is not None and name is None) or \
            (name is not None and name_alias is None):
        fail("give ALIAS NAME to add an alias, --remove ALIAS to undo one, or --list")
    chosen = NameKind(kind.value) if kind else None
    try:
        if list_them:
            with reading(db) as con:
                found = aliases.aliases(con)
            _print_aliases(found, as_json)
            return
        con = connect(db, writer="alias")
        try:
            if remove is not None:
                done, verb = aliases.remove_alias(con, remove, chosen), "removed"
            else:
                done, verb = aliases.add_alias(con, name_alias, name, chosen), "added"
        finally:
            con.close()
    except GopsError as exc:
        fail_on(exc)
    if as_json:
        typer.echo(json.dumps({"action": verb, **done.as_json()}, ensure_ascii=False))
    elif verb == "added":
        typer.echo(f"{done.kind} {done.alias!r} is shown as {done.name!r} from now on "
                   f"(gops alias --remove {json.dumps(done.alias, ensure_ascii=False)} "
                   "undoes it)")
    else:
        typer.echo(f"{done.kind} {done.alias!r} is shown as itself again")


def _print_aliases(found, as_json: bool) -> None:
    from gops_records.core.games_query import aligned

    if as_json:
        for a in found:
            typer.echo(json.dumps(a.as_json(), ensure_ascii=False))
        return
    if not found:
        typer.echo('no aliases are stored; gops alias "Thursday club" "Thursday Club" adds one')
        return
    typer.echo(aligned([("kind", "alias", "shown as", "added")] + [
        (str(a.kind), a.alias, a.name, a.added_at.isoformat(sep=" ", timespec="minutes"))
        for a in found]))
