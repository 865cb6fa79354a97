"""`gops replay` of a Gin Rummy file (.gin, .ginsheet): one hand or sheet, turn by turn.

`gops replay` hands such a file here (its own dispatch, on the file's suffix); the file is
read as `gops validate` reads it, so the problems shown are the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer

from gops_records.cli.app import EXIT_INVALID, EXIT_OK, fail, fail_on
from gops_records.errors import GopsError
from gops_records.gin.checking import gin_kind, read_gin_source
from gops_records.gin.render import render
from gops_records.sources import read_text, source_name


def replay_gin(path: Path, number: int, encoding: str) -> NoReturn:
    """Print record ``number`` (1-based) of a Gin Rummy file; exit 0 if valid, 1 if not."""
    try:
        text = read_text(path, encoding)
    except GopsError as exc:
        fail_on(exc)
    source = source_name(path)
    records = [r for batch in read_gin_source(text, source) for r in batch.records]
    noun = "sheet" if gin_kind(path) == "ginsheet" else "hand"
    if 1 <= number <= len(records):
        record = records[number - 1]
        typer.echo(render(record, f"{source} {noun} {number}"))
        raise typer.Exit(EXIT_OK if record.valid else EXIT_INVALID)
    if not records:
        fail(f"{source} holds no {noun}s")
    fail(f"{source} has {len(records)} {noun}{'s' * (len(records) != 1)}; there is no "
         f"{noun} {number}")
