"""Gops as a plug-in: the notations it reads and its parts, for the registry
(:mod:`gops_records.core.registry`). Light on purpose: references, not imports."""

from __future__ import annotations

from gops_records.core.registry import FileKind, Game

_P = "gops_records.games.gops"

GAME = Game(
    name="gops",
    title="Gops",
    files=(
        FileKind("gops", (".gops",), ".gops records", reader=f"{_P}.files:GOPS_READER"),
        FileKind("csv", (".csv",), "CSV round logs", reader=f"{_P}.files:CSV_READER"),
        FileKind("jsonl", (".jsonl", ".ndjson"), "JSONL round logs",
                 reader=f"{_P}.files:JSONL_READER"),
    ),
    parts={
        # one line per part, "name": f"{_P}.module:ATTRIBUTE"
        "schema": f"{_P}.schema:MIGRATIONS",  # its tables (core/store/migrations.py)
        "schema.bid_groups": f"{_P}.analytics.bid_groups_schema:MIGRATIONS",  # derived
        "schema.scout_reports": f"{_P}.scouting.kept_store:MIGRATIONS",  # derived
        "simulator": f"{_P}.simulator:SIMULATOR",  # gops simulate
        "exports": f"{_P}.exports:FORMATS",  # gops export --format gops|csv|parquet
        "games": f"{_P}.games:LISTING",  # gops games
        "replay": f"{_P}.replays:REPLAY",  # gops replay FILE|REF
        "ratings": f"{_P}.ratings:placings",  # gops ratings (core/ratings.py)
        "names": f"{_P}.names:NAMES",  # player and event columns (gops alias)
        "commands": f"{_P}.commands:register",  # gops solve, gops scout
        "pages": "gops_records.dashboards.gops.pages:PAGES",  # the dashboard's
    },
)
