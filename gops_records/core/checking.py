"""Checking whole record files: what ``gops validate`` reports, record by record.

A file is checked by its game's reader (chosen by its name through the registry,
:func:`gops_records.core.reading.reader_of`), exactly as ``gops import`` reads it: each
window of the file gives a :class:`~gops_records.core.verdicts.Checked`, the verdicts
(the keys of ``gops validate --json``) and the readable report. What a run keeps between
files (a Gin Rummy score sheet is checked against the full hands read before it) is the
readers' own, kept per game in a :class:`CheckState`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gops_records.core.reading import kind_of
from gops_records.core.registry import load
from gops_records.core.verdicts import Checked


class CheckState:
    """What one ``gops validate`` run keeps between its files, per game (each reader's
    :meth:`~gops_records.core.reading.FileReader.check_state`, made when first needed)."""

    def __init__(self) -> None:
        self._kept: dict[str, Any] = {}

    def of(self, game: str, make) -> Any:
        """The state kept for ``game``, made by ``make()`` the first time."""
        if game not in self._kept:
            self._kept[game] = make()
        return self._kept[game]


def check_source(data: bytes, source: str, encoding: str = "utf-8", *,
                 readable: bool = False, workers: int | None = None,
                 state: CheckState | None = None, notes: list[str] | None = None,
                 ) -> Iterator[Checked]:
    """Every record of a file's bytes, as ``gops import`` reads the file named ``source``
    (its name selects the reader), with notes added to ``notes``; ``state`` is what the
    run keeps between files (a fresh one when not given). Raises DecodeError on bytes
    that are not text in ``encoding``."""
    game, kind = kind_of(source)
    reader = load(kind.reader)
    kept = (state or CheckState()).of(game.name, reader.check_state)
    yield from reader.check(data, source, encoding, readable=readable, workers=workers,
                            state=kept, notes=notes if notes is not None else [])
