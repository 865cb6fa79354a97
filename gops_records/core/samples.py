"""The bundled sample records: package data of gops_records (its ``samples/`` folder),
found through importlib.resources so that an installed wheel has them as a clone does.

`gops demo` imports them (:func:`import_samples`); the sample pipelines
(``gops_records.pipelines.make_samples``, ``make_gin_samples``) write them.
"""

from __future__ import annotations

import contextlib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from gops_records.core import registry

if TYPE_CHECKING:  # the importer loads polars and DuckDB: only when importing
    from gops_records.core.importer import ImportSummary

#: The package that ships the samples, and their folder in it.
PACKAGE, FOLDER = "gops_records", "samples"


def bundled_folder() -> Path:
    """Where the samples live: the ``samples/`` folder inside the installed package."""
    return Path(str(resources.files(PACKAGE) / FOLDER))


def samples_folder() -> Path | None:
    """The samples' folder when it holds record files of an installed game, else None
    (e.g. a package installed without its data)."""
    folder = bundled_folder()
    if folder.is_dir() and any(registry.file_kind_of(path) for path in folder.rglob("*")):
        return folder
    return None


def import_samples(folder: Path, db: str | Path) -> ImportSummary:
    """Import the records under ``folder`` into ``db``, stored under readable names: each
    file's path from the folder's parent (``samples/2026-01-13-gops-society.gops``, not
    the long path into site-packages), with its absolute path kept beside it as by any
    import (``imports.source_paths``). ``db`` is made absolute first: the import runs
    from the folder's parent."""
    from gops_records.core.importer import import_paths

    db = Path(db).absolute()
    with contextlib.chdir(folder.parent):
        return import_paths([Path(folder.name)], db)
