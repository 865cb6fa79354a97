"""Where `gops export` may write, and how: an export never destroys data.

Before anything is read, the output named by ``--out`` (and, for Parquet, each file of
the folder) is checked (docs/import.md, "What an export refuses"):

- the database being exported, under any name (a relative or dotted spelling, a symbolic
  or hard link: compared as files, by device and inode), its write-ahead log
  (``<db>.wal``) and its write request (``<db>.write-request``) are refused;
- an existing file that is a DuckDB database (``DUCK`` at byte 8) is refused, whatever
  its name; so is one that cannot be read to tell;
- a socket, a block device or anything else that is not a file, a character device or a
  named pipe is refused;
- a character device (``/dev/null``, a terminal) is written as a stream, in place; so is a
  named pipe, opened without waiting: one with no reader is refused;
- a regular file, or a new name, is written to a temporary file of a fresh name in the
  same folder (never one that exists) and renamed over the name only when complete, after
  the name is checked again. A file reached through ``/dev`` or ``/proc`` (``/dev/stdout``
  redirected to a file) is a stream: a system name is never renamed over.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TextIO

from gops_records.core.errors import GopsError

#: Where a DuckDB file says what it is (``DUCK`` at byte 8 of its first block).
DUCKDB_MAGIC, DUCKDB_MAGIC_AT = b"DUCK", 8
#: Files DuckDB and gops keep beside a database, by suffix, and what each is.
SIDE_FILES = {".wal": "the database's write-ahead log",
              ".write-request": "the write request gops keeps beside the database"}
#: Folders whose names are the system's: never renamed over, only written in place.
SYSTEM_FOLDERS = ("/dev/", "/proc/")


class ExportError(GopsError):
    """An export that cannot be written (e.g. the output exists as the wrong kind)."""

    code = "export"


class Target(Enum):
    NEW = "new"        # nothing there yet: written through a temporary file
    FILE = "file"      # a regular file: replaced through a temporary file
    STREAM = "stream"  # a device or a named pipe: written in place


def refusal(out: str | Path, why: str) -> ExportError:
    return ExportError(f"refusing to write the export to {out}: {why}")


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISREG, "a file")):
        if test(mode):
            return name
    return "not a file"


def _stat(path: Path, out: Path) -> os.stat_result | None:
    """``path``'s status, following links; None when there is nothing there."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise refusal(out, f"it cannot be checked ({exc.strerror})") from exc


def _same(out: Path, out_stat: os.stat_result | None, other: Path) -> bool:
    """Whether ``out`` names ``other``: the same file (device and inode) when both exist,
    else the same resolved path."""
    other_stat = _stat(other, out)
    if out_stat is not None and other_stat is not None:
        return (out_stat.st_dev, out_stat.st_ino) == (other_stat.st_dev, other_stat.st_ino)
    return os.path.realpath(out) == os.path.realpath(other)


def is_duckdb_file(path: Path) -> bool:
    """Whether the file at ``path`` is a DuckDB database (its magic bytes)."""
    with open(path, "rb") as handle:
        head = handle.read(DUCKDB_MAGIC_AT + len(DUCKDB_MAGIC))
    return head[DUCKDB_MAGIC_AT:] == DUCKDB_MAGIC


def _system_name(out: Path) -> bool:
    names = (os.path.abspath(out), os.path.realpath(out.parent) + os.sep)
    return any(name.startswith(SYSTEM_FOLDERS) for name in names)


def check_target(out: Path, db: Path, what: str = "an export writes one file") -> Target:
    """How ``out`` may be written by an export of ``db`` (``what``: why a folder will not
    do, e.g. 'a csv export writes one file'); raises ExportError (``refusing to write the
    export to OUT: why``)."""
    out_stat = _stat(out, out)
    if _same(out, out_stat, db):
        raise refusal(out, f"it is the database being exported (--db {db}); name another "
                           "file")
    for suffix, name in SIDE_FILES.items():
        if _same(out, out_stat, db.with_name(db.name + suffix)):
            raise refusal(out, f"it is {name}; name another file")
    if out_stat is None:
        return Target.NEW
    mode = out_stat.st_mode
    if stat.S_ISDIR(mode):
        raise refusal(out, f"it is a folder; {what}")
    if stat.S_ISREG(mode):
        try:
            database = is_duckdb_file(out)
        except OSError as exc:
            raise refusal(out, f"it cannot be read to check that it is not a database "
                               f"({exc.strerror})") from exc
        if database:
            raise refusal(out, "it is a DuckDB database, and an export never writes over "
                               "a database; name a new file")
        return Target.STREAM if _system_name(out) else Target.FILE
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return Target.STREAM
    raise refusal(out, f"it is {_kind(mode)}; an export writes a file, a character device "
                       "or a named pipe")


def check_parquet_folder(out: Path, db: Path, names: list[str]) -> None:
    """Refuse a Parquet export's ``out`` that is neither a folder nor a new name, and any
    file ``names`` of the folder that is not a new name or a regular file."""
    if not out.is_dir():
        if check_target(out, db) is not Target.NEW:
            raise refusal(out, f"it is {_kind(os.stat(out).st_mode)}, and a Parquet "
                               "export writes a folder")
        return
    for name in names:
        path = out / name
        what = "a Parquet export writes each table as one file"
        if check_target(path, db, what) is Target.STREAM:
            raise refusal(path, f"it is {_kind(os.stat(path).st_mode)}; a Parquet export "
                                "writes regular files in its folder")


def _file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def replacing(out: Path, db: Path) -> Iterator[Path]:
    """A temporary path of a fresh name in ``out``'s folder, renamed over ``out`` only
    when writing it succeeded and ``out`` is still a new name or a regular file that
    :func:`check_target` lets an export replace."""
    fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    tmp = Path(name)
    try:
        os.close(fd)
        os.chmod(tmp, _file_mode())  # as a plain open would make it, not 0600
        yield tmp
        if check_target(out, db) is Target.STREAM:  # nothing became one meanwhile
            raise refusal(out, "it became a device or a named pipe during the export")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def _open_stream(out: Path, newline: str) -> TextIO:
    """``out`` (a device, a named pipe, a system name of an open file) opened to write in
    place, without waiting: a named pipe with no reader is refused."""
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY
    if stat.S_ISREG(os.stat(out).st_mode):
        flags |= os.O_APPEND  # /dev/stdout sent to a file: add to it, never cut it
    try:
        fd = os.open(out, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise refusal(out, "it is a named pipe with no reader; start its reader first "
                               f"(e.g. cat {out}) or name a file") from exc
        raise
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    return os.fdopen(fd, "w", encoding="utf-8", newline=newline)


@contextmanager
def writing(out: Path, db: Path, target: Target, newline: str) -> Iterator[TextIO]:
    """A text file that becomes ``out``: in place for a stream, else through a temporary
    file (:func:`replacing`). ``target`` is :func:`check_target`'s verdict."""
    if target is Target.STREAM:
        with _open_stream(out, newline) as f:
            yield f
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    with replacing(out, db) as tmp, \
            tmp.open("w", encoding="utf-8", newline=newline) as f:
        yield f

