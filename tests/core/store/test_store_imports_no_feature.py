"""The store knows no feature: no module of gops_records.core.store imports scouting or
analytics, directly or through another module (issue 22; scouting owns its kept reports,
gops_records/games/gops/scouting/kept_store.py). The import-layer contract of the layout refactor
will hold this too; until then this test does."""

from __future__ import annotations

import pytest

# import-linter's graph library: installed here, not yet in the [test] extras (the layout
# refactor adds import-linter there)
grimp = pytest.importorskip("grimp")

FEATURES = ("gops_records.games.gops.scouting", "gops_records.games.gops.analytics")


def test_no_store_module_reaches_scouting_or_analytics() -> None:
    graph = grimp.build_graph("gops_records")
    chains = [chain for feature in FEATURES
              for chain in graph.find_shortest_chains(
                  importer="gops_records.core.store", imported=feature, as_packages=True)]
    assert chains == [], sorted(chains)


def test_no_store_module_imports_a_game() -> None:
    """Games declare their tables to the store through the registry (registry parts
    ``schema``, loaded by name), never by an import of the store's."""
    graph = grimp.build_graph("gops_records")
    chains = graph.find_shortest_chains(importer="gops_records.core.store",
                                        imported="gops_records.games", as_packages=True)
    assert chains == set(), sorted(chains)
