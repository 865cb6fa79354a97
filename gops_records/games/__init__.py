"""The games, peers side by side: each package holds its cards, rules, notation, replay,
frames, bots, simulator and analytics, and plugs into the shared layers through the
registry (:mod:`gops_records.core.registry`). No game imports another."""
