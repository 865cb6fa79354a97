"""Gin Rummy (Oklahoma) as a plug-in: the notations it reads and its parts, for the
registry (:mod:`gops_records.core.registry`). Light on purpose: references, not imports."""

from __future__ import annotations

from gops_records.core.registry import FileKind, Game

_P = "gops_records.games.gin"

GAME = Game(
    name="gin",
    title="Gin Rummy",
    files=(
        FileKind("gin", (".gin",), ".gin full hands", reader=f"{_P}.files:GIN_READER"),
        # a score sheet is checked against the stored full hands: read after them
        FileKind("ginsheet", (".ginsheet",), ".ginsheet score sheets",
                 reader=f"{_P}.files:SHEET_READER", order=1),
    ),
    parts={
        # one line per part, "name": f"{_P}.module:ATTRIBUTE"
        "schema": f"{_P}.schema:MIGRATIONS",  # its tables (core/store/migrations.py)
        "simulator": f"{_P}.simulator:SIMULATOR",  # gops simulate --game gin
        "exports": f"{_P}.exports:FORMATS",  # gops export --format gin|ginsheet
        "games": f"{_P}.games:LISTING",  # gops games --game gin
        "replay": f"{_P}.replays:REPLAY",  # gops replay FILE|REF
        "ratings": f"{_P}.ratings:placings",  # gops ratings --game gin
        "names": f"{_P}.names:NAMES",  # player and event columns (gops alias)
        "pages": "gops_records.dashboards.gin.pages:PAGES",  # the dashboard's
    },
    order=1,
)
