"""The formats `gops export` writes, as each game declares them (its part ``exports``).

A module of its own that imports nothing heavy, so the command line can offer the formats
(``gops export --format``) without loading DuckDB and polars at every `gops` start: a
format names its writer by reference (``"module:attribute"``, a
:class:`gops_records.core.export.Exporter`), loaded only when an export runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from gops_records.core import registry


@dataclass(frozen=True, slots=True)
class ExportFormat:
    """One format a game writes: ``--format NAME``, what it writes (for ``--help``), its
    writer, and the words of the summary (``exported 3 games (42 rounds)``)."""

    name: str
    help: str
    writer: str                 # "module:attribute" of its Exporter
    folder: bool = False        # writes a folder of files (never to stdout)
    record: str = "game"        # what the summary counts first ("game", "hand", "sheet")
    counts: str = "rounds"      # and second, its parts ("rounds", "turns", "hands")


def export_formats() -> tuple[ExportFormat, ...]:
    """Every format of every installed game, in the games' order."""
    return tuple(fmt for _, formats in registry.parts("exports") for fmt in formats)


def export_format(name: str) -> ExportFormat:
    """The format called ``name``; :class:`gops_records.core.registry.UnknownGameError`
    naming the choices otherwise."""
    formats = export_formats()
    for fmt in formats:
        if fmt.name == name:
            return fmt
    raise registry.UnknownGameError(f"no export format is called {name!r}; choose one of: "
                                    f"{', '.join(f.name for f in formats)}")
