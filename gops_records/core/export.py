"""Exporting stored games: `gops export` finds the format's game and runs its writer.

Each game writes its own formats (the registry's part ``exports``: a tuple of
:class:`gops_records.core.export_format.ExportFormat`, each naming an :class:`Exporter`):
Gops its .gops records, CSV round logs and Parquet tables
(:mod:`gops_records.games.gops.export`), Gin Rummy its full hands and score sheets. Every
format can be imported again and gives back the same games. Where an export may write is
:mod:`gops_records.core.export_target`'s rule, the same for every writer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from gops_records.core import registry
from gops_records.core.export_format import export_format
from gops_records.core.games_query import GameFilter

__all__ = ["STDOUT", "ExportSummary", "Exporter", "export_games"]

#: ``out`` meaning standard output (as sqlite-utils and most tools spell it).
STDOUT = "-"


@dataclass(frozen=True, slots=True)
class ExportSummary:
    """What an export wrote: its format's name, where, how many records and their parts
    (games and rounds, hands and turns, sheets and hands: the format says)."""

    format: str
    out: Path | str  # STDOUT for standard output
    games: int
    rounds: int

    def as_dict(self) -> dict:
        return {"format": self.format, "out": str(self.out), "games": self.games,
                "rounds": self.rounds}


class Exporter(Protocol):
    """A format's writer: the selected games of ``db`` written to ``out`` (a file; a
    folder for a format that writes one; ``-`` for ``stdout``, default ``sys.stdout``).
    Raises an ExportError (``export_target``) for an output it may not write, and
    UnknownPlayer / UnknownEvent (with close matches) for a filter naming nobody stored."""

    def __call__(self, db: str | Path | None, out: str | Path, fmt: str,
                 selection: GameFilter, *, stdout: TextIO | None = None) -> ExportSummary: ...


def export_games(db: str | Path | None, out: str | Path, fmt: str,
                 selection: GameFilter | None = None, *,
                 stdout: TextIO | None = None) -> ExportSummary:
    """Write the selected games of ``db`` to ``out`` in the format called ``fmt``."""
    writer: Exporter = registry.load(export_format(str(fmt)).writer)
    return writer(db, out, str(fmt), selection or GameFilter(), stdout=stdout)
