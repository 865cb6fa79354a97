"""Finding record files and reading them as text.

Files may start with a UTF-8 byte order mark and use CRLF line ends (both are fine:
the lexer treats CR as whitespace, so raw record text stays exactly as written).
Other encodings are read with an explicit ``encoding`` such as ``latin-1``.
"""

from __future__ import annotations

import codecs
import functools
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from gops_records.core import registry
from gops_records.core.errors import DecodeError, GopsError


class SourceError(GopsError, OSError):
    """A path that cannot be read (missing, a directory without records, no permission)."""

    code = "source"


def decode(data: bytes, encoding: str = "utf-8", name: str = "<bytes>") -> str:
    """Bytes to text; a UTF-8 BOM is dropped. Raises DecodeError naming the line at fault."""
    try:
        codecs.lookup(encoding)
    except LookupError as exc:
        raise DecodeError(f"unknown encoding {encoding!r}") from exc
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8") and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DecodeError(
            f"{name}: line {line}: bytes are not valid {encoding} "
            f"({data[exc.start:exc.start + 4]!r}); if the file was saved in another "
            "encoding, pass it, e.g. --encoding latin-1") from exc


def read_regular_file(path: str | Path) -> bytes:
    """A file's bytes; only regular files are read (a FIFO, a device such as /dev/zero or
    a socket could block or never end). Raises SourceError naming the problem."""
    try:  # O_NONBLOCK: opening a named pipe must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb", buffering=0) as handle:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise SourceError(f"{path}: not a regular file ({_kind(mode)}); only record "
                                  "files are read")
            return handle.read()
    except SourceError:
        raise
    except OSError as exc:
        raise SourceError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a plain file"


def source_name(path: str | Path) -> str:
    """The name a file is stored and reported under: its path as text, with any byte of
    the name that is not UTF-8 shown as a backslash escape (``bad\\xffname.gops``).

    Python keeps such bytes as lone surrogates, which neither DuckDB nor a UTF-8 terminal
    accepts; the escape keeps every byte visible (a name that really holds a backslash and
    ``xff`` reads the same, which is the price of a name that can always be printed)."""
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text).decode("utf-8", errors="backslashreplace")
    return text


def read_text(path: str | Path, encoding: str = "utf-8") -> str:
    """A record file's text (see :func:`decode`)."""
    return decode(read_regular_file(path), encoding, str(path))


class SourcesUnreadable(SourceError):
    """Files or folders that could not be read while the rest was: each is named in
    ``problems`` (a SourceError each); ``summary`` is what was done with the rest (the
    import's summary, when an import raises it after storing the rest)."""

    def __init__(self, problems: list[SourceError], summary: object = None) -> None:
        self.problems, self.summary = list(problems), summary
        noun = "path" if len(self.problems) == 1 else "paths"
        super().__init__(f"{len(self.problems)} {noun} could not be read, the rest was: "
                         + "; ".join(map(str, self.problems)))


def find_sources(paths: Iterable[str | Path], suffixes: tuple[str, ...] | None = None,
                 unreadable: list[SourceError] | None = None) -> Iterator[tuple[str, Path]]:
    """Like :func:`find_files`, with each file's name as the user wrote it.

    A file named directly keeps its spelling (``./club.gops`` stays so); a file found
    under a folder is the folder as written joined with its path inside the folder (and
    so is an unreadable folder or file in ``unreadable``).
    """
    for given in paths:
        spelled = functools.partial(_spelled, str(given), Path(given))
        for path in _find([given], suffixes, unreadable, spelled):
            yield source_name(spelled(path)), path


def _spelled(text: str, base: Path, path: Path) -> str:
    """``path`` (``base`` or under it) named from ``base`` as the user wrote it (``text``)."""
    return text if path == base else os.path.join(text, str(path.relative_to(base)))


def find_files(paths: Iterable[str | Path], suffixes: tuple[str, ...] | None = None,
               unreadable: list[SourceError] | None = None) -> Iterator[Path]:
    """Files named directly, and files with a matching suffix (by default, any notation of
    an installed game) found under folders (sorted; a symbolic link to a folder is not
    followed).

    A folder that cannot be listed (no permission), or an entry in one that cannot be
    looked at, is never skipped silently: it is added to ``unreadable`` as a SourceError
    naming it, and the search goes on; without ``unreadable`` the first one raises. A
    path that does not exist raises SourceError."""
    return _find(paths, suffixes, unreadable, str)


def _find(paths: Iterable[str | Path], suffixes: tuple[str, ...] | None,
          unreadable: list[SourceError] | None, name) -> Iterator[Path]:
    if suffixes is None:  # every notation of every installed game
        suffixes = registry.suffixes()
    for given in paths:
        path = Path(given)
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            raise SourceError(f"{given}: no such file or folder") from None
        except OSError as exc:
            _unreadable(SourceError(f"{given}: cannot read: {exc.strerror or exc}"), unreadable)
            continue
        if not stat.S_ISDIR(mode):
            yield path
            continue
        problems: list[tuple[Path, OSError, bool]] = []
        found = sorted(_walk(path, suffixes, problems))
        for where, exc, folder in problems:
            what = "cannot read this folder" if folder else "cannot read"
            after = "; the files in it were skipped" if folder else ""
            _unreadable(SourceError(f"{name(where)}: {what}: {exc.strerror or exc}{after}"),
                        unreadable)
        yield from found


def _unreadable(problem: SourceError, unreadable: list[SourceError] | None) -> None:
    if unreadable is None:
        raise problem
    unreadable.append(problem)


def _walk(top: Path, suffixes: tuple[str, ...],
          problems: list[tuple[Path, OSError, bool]]) -> Iterator[Path]:
    """The files with a matching suffix under ``top``, with every folder that cannot be
    listed and every entry that cannot be looked at added to ``problems`` (Path.rglob
    skips both without a word)."""
    folders = [top]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as exc:
            problems.append((folder, exc, True))
            continue
        for entry in listed:
            path = folder / entry.name
            try:
                if entry.is_dir():
                    if not entry.is_symlink():
                        folders.append(path)
                    continue
                if entry.is_file() and path.suffix.lower() in suffixes:
                    yield path
            except OSError as exc:  # e.g. a folder readable but not searchable
                problems.append((path, exc, False))
