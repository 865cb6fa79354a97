"""Gops (Goofspiel, the Game of Pure Strategy): rules, the .gops notation and round logs,
the replay, bots, simulator, analytics, scouting and the equilibrium solver."""
