"""The layers every game shares, which know no game: errors, sources, the store, the
importer and its quarantine, export dispatch and the game registry. Games plug in through
:mod:`gops_records.core.registry`; nothing here imports a game."""
