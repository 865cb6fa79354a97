"""Scouting's defaults, in a module that imports nothing (the CLI reads them at start-up)."""

#: Games simulated per reply when nothing else is asked for.
DEFAULT_GAMES = 500
