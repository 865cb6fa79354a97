"""Solved values kept on disk (the tablebase) and in the process, so analyses reuse them.

The compiled solver's memo (:class:`compiled.FastTable`: 63-bit position key -> value) is
what a solve produces; here it is written to and read from Parquet, one file per
:class:`Setting`, two columns ``key`` (int64) and ``value`` (float64)::

    <folder>/solver-v<SOLVER_VERSION>/<cards>-<tie rule>-<objective>-<order>.parquet

The folder is by default beside the database (``club.duckdb`` -> ``club.tablebase/``).
A file is valid only for the key layout and the solver that wrote it: change either and
bump :data:`SOLVER_VERSION`, and the old folder is never read again (delete it at will).
Writes are atomic (a temporary file, then ``os.replace``); a write first reads what
another process may have saved meanwhile, so two analyses at once lose no values.

:func:`solver_for` is the in-process layer: one :class:`Solver` per (folder, setting),
loaded once, so a second analysis in the same process reads the memo and solves nothing.
:attr:`Tablebase.solved` counts the positions a process solved beyond what it loaded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from gops_records.core.errors import GopsError
from gops_records.games.gops.theory.position import PrizeOrder, Setting
from gops_records.games.gops.theory.solver import Solver

#: Bump when the compiled key layout, the rules the solver applies or its values change:
#: files of another version are never read.
SOLVER_VERSION = 1
SUFFIX = ".tablebase"


class TablebaseError(GopsError):
    """A tablebase file that cannot be read or written."""

    code = "tablebase"


def beside(db: Path) -> Path:
    """The tablebase folder beside the database file ``db`` (``x.duckdb`` -> ``x.tablebase``)."""
    return db.with_suffix(SUFFIX)


def file_name(setting: Setting) -> str:
    """The file of one setting's values (a given order names its sequence)."""
    order = setting.order.value
    if setting.order is PrizeOrder.GIVEN:
        order += "-" + ".".join(map(str, setting.sequence))
    return f"{setting.cards}-{setting.tie_rule.value}-{setting.objective.value}-{order}.parquet"


@dataclass
class Tablebase:
    """The values of one folder: where they live, and what this process loaded and solved."""

    folder: Path
    loaded: dict[Setting, int] = field(default_factory=dict)
    _solvers: dict[Setting, Solver] = field(default_factory=dict, repr=False)

    @property
    def version_folder(self) -> Path:
        return self.folder / f"solver-v{SOLVER_VERSION}"

    def path(self, setting: Setting) -> Path:
        return self.version_folder / file_name(setting)

    def solver(self, setting: Setting) -> Solver:
        """The solver of ``setting`` with every value kept on disk already in its memo."""
        found = self._solvers.get(setting)
        if found is None:
            found = Solver(setting)
            self.loaded[setting] = _read_into(found, self.path(setting))
            self._solvers[setting] = found
        return found

    def solved(self, setting: Setting) -> int:
        """Positions solved in this process beyond those read from disk."""
        solver = self._solvers.get(setting)
        return 0 if solver is None else _memo_size(solver) - self.loaded.get(setting, 0)

    def save(self) -> int:
        """Write every setting's memo that grew; the number of positions written."""
        written = 0
        for setting, solver in self._solvers.items():
            if self.solved(setting) <= 0:
                continue
            path = self.path(setting)
            _read_into(solver, path)  # what another process saved since we loaded
            keys, values = _export(solver._fast._memo)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            _write(tmp, keys, values)
            os.replace(tmp, path)
            self.loaded[setting] = len(keys)
            written += len(keys)
        return written


def _memo_size(solver: Solver) -> int:
    return len(solver._fast) if solver._fast is not None else 0


def _write(path: Path, keys: np.ndarray, values: np.ndarray) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"key": keys, "value": values},
                     metadata={"solver_version": str(SOLVER_VERSION)})
    pq.write_table(table, path, compression="zstd")


def _read_into(solver: Solver, path: Path) -> int:
    """Put the values of ``path`` (if it exists) into the solver's memo; the memo's size."""
    if solver._fast is None:
        return 0
    if path.exists():
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
            keys = table.column("key").to_numpy().astype(np.int64, copy=False)
            values = table.column("value").to_numpy().astype(np.float64, copy=False)
        except Exception as exc:  # a broken file is reported, never half-read
            raise TablebaseError(f"{path}: not a readable tablebase file ({exc}); delete "
                                 "it and the values will be solved again") from exc
        _load(solver._fast._memo, keys, values)
    return len(solver._fast)


@njit(cache=True)
def _load(memo, keys: np.ndarray, values: np.ndarray) -> None:
    for i in range(keys.shape[0]):
        memo[keys[i]] = values[i]


@njit(cache=True)
def _export(memo) -> tuple[np.ndarray, np.ndarray]:
    keys = np.empty(len(memo), dtype=np.int64)
    values = np.empty(len(memo), dtype=np.float64)
    i = 0
    for key, value in memo.items():
        keys[i] = key
        values[i] = value
        i += 1  # noqa: SIM113 (numba compiles no enumerate over a typed dict's items)
    return keys, values


_OPEN: dict[Path | None, Tablebase] = {}


def solver_for(setting: Setting, folder: Path | None = None) -> Solver:
    """The process's solver of ``setting`` for the tablebase ``folder`` (None: memory
    only), made and loaded once per process."""
    return tablebase(folder).solver(setting)


def tablebase(folder: Path | None) -> Tablebase:
    """The process's :class:`Tablebase` of ``folder`` (None: one kept in memory only)."""
    key = None if folder is None else Path(folder).resolve()
    found = _OPEN.get(key)
    if found is None:
        found = _MemoryOnly() if key is None else Tablebase(key)
        _OPEN[key] = found
    return found


def forget() -> None:
    """Drop every in-process tablebase (as a new process starts): for tests and benchmarks."""
    _OPEN.clear()


class _MemoryOnly(Tablebase):
    """Values kept in this process only (no folder): nothing read, nothing written."""

    def __init__(self) -> None:
        super().__init__(Path())

    def path(self, setting: Setting) -> Path:
        return Path("/nonexistent") / file_name(setting)

    def save(self) -> int:
        return 0
