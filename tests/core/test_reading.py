"""Files are read through the registry: every notation's reader follows the shared
protocol, and the shared reading layers import no game (not even inside a function)."""

from __future__ import annotations

import inspect

import grimp
import pytest

from gops_records.core import registry
from gops_records.core.reading import FileReader, LoadSession, kind_of, read_order

#: The shared modules that read, check, import and quarantine files.
SHARED = ("gops_records.core.importer", "gops_records.core.checking",
          "gops_records.core.rejects", "gops_records.core.reading",
          "gops_records.core.verdicts", "gops_records.core.sources")

KINDS = [kind for _, kind in registry.file_kinds()]


def _members(protocol: type) -> dict[str, object]:
    return {name: value for name, value in vars(protocol).items()
            if not name.startswith("_") and callable(value)}


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_every_notation_has_a_reader_that_follows_the_protocol(kind) -> None:
    reader = registry.load(kind.reader)
    assert isinstance(reader.caret, bool)
    for name, member in _members(FileReader).items():
        method = getattr(reader, name, None)
        assert callable(method), f"{kind.reader} has no {name}()"
        wanted = list(inspect.signature(member).parameters)[1:]  # without self
        assert list(inspect.signature(method).parameters) == wanted, (kind.reader, name)


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_every_reader_opens_a_load_session(kind, tmp_path) -> None:
    from gops_records.core.store.db import connect

    con = connect(tmp_path / "t.duckdb")
    try:
        session = registry.load(kind.reader).session(con, 1, 100)
        try:
            for name in _members(LoadSession):
                assert callable(getattr(session, name, None)), (kind.reader, name)
            assert session.flush()[0].games_seen == 0  # nothing gathered, nothing stored
        finally:
            session.close()
    finally:
        con.close()


def test_a_file_is_read_by_its_notation_and_in_the_notations_order() -> None:
    for _, kind in registry.file_kinds():
        for suffix in kind.suffixes:
            assert kind_of(f"club/x{suffix.upper()}")[1] is kind
    assert kind_of("notes.txt") == registry.file_kinds()[0]  # named directly: the first
    names = [f"f{s}" for s in reversed(registry.suffixes())]
    ordered = read_order(names)
    orders = [kind_of(n)[1].order for n in ordered]
    assert orders == sorted(orders) and sorted(ordered) == sorted(names)


def test_the_shared_reading_layers_import_no_game() -> None:
    graph = grimp.build_graph("gops_records")  # imports inside functions included
    shared = [*SHARED, *(m for m in graph.modules if m.startswith("gops_records.core.store"))]
    for module in shared:
        games = sorted(m for m in graph.find_upstream_modules(module)
                       if m.startswith("gops_records.games"))
        assert not games, (module, graph.find_shortest_chain(module, games[0]))


def test_no_circle_between_the_import_the_checks_and_the_quarantine() -> None:
    graph = grimp.build_graph("gops_records")
    for a, b in (("gops_records.core.rejects", "gops_records.core.importer"),
                 ("gops_records.core.checking", "gops_records.core.rejects"),
                 ("gops_records.core.reading", "gops_records.core.importer"),
                 ("gops_records.core.verdicts", "gops_records.core.checking")):
        assert graph.find_shortest_chain(a, b) is None, (a, b)
